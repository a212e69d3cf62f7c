//! `tandem analyse` on real records: two bughousedb games, our own arena
//! records of both kinds, and the JSON schema of docs/ANALYSIS-JSON.md.

use tandem_arena::analyse::{analyse, GameReport, Mark, PositionLimit, SCHEMA_VERSION};
use tandem_arena::bpgn::{read_records, record_rules, Record};
use tandem_engine::search::Engine;
use tandem_engine::{parse_fen, Rules};

fn game(name: &str) -> Record {
    let path = format!("{}/../tests/data/games/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    read_records(&text).unwrap().remove(0)
}

fn analysed(record: &Record, fallback: Rules) -> GameReport {
    let mut progress = Vec::new();
    let report = analyse(record, record_rules(record, fallback), &Engine::new(), PositionLimit::Depth(3), &mut |n| {
        progress.push(n)
    })
    .unwrap();
    assert_eq!(progress, (1..=record.moves.len()).collect::<Vec<_>>(), "progress after every position");
    report
}

/// Every position's moves are legal where the report says they were searched,
/// its line plays out, and its mark matches its loss.
fn check_positions(report: &GameReport, rules: Rules) {
    for p in &report.positions {
        let pos = parse_fen(&p.fen, rules).unwrap_or_else(|e| panic!("position {}: {e:?}", p.index));
        let legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        assert!(legal.contains(&p.played.uci), "position {}: {} is not legal", p.index, p.played.uci);
        let best = p.best.as_ref().unwrap_or_else(|| panic!("position {}: no best move", p.index));
        assert!(legal.contains(&best.uci), "position {}: best {} is not legal", p.index, best.uci);
        assert_eq!(p.pv.first(), Some(&best.uci), "position {}: the line starts with the best move", p.index);
        let mut line = pos.clone();
        for uci in &p.pv {
            let m = line.parse_move(uci).unwrap_or_else(|e| panic!("position {}: line move {uci}: {e:?}", p.index));
            assert!(line.legal_moves().contains(&m), "position {}: line move {uci} is not legal", p.index);
            line.play(m);
        }
        assert!(p.eval.is_some() && p.eval_played.is_some(), "position {}: scores", p.index);
        assert!(p.loss >= 0);
        assert_eq!(p.mark, Mark::of_loss(p.loss), "position {}", p.index);
        if best.uci == p.played.uci {
            assert_eq!(p.loss, 0, "position {}: the best move loses nothing", p.index);
        }
    }
}

#[test]
fn a_bughousedb_game_is_analysed_on_both_boards_in_playing_order() {
    let record = game("fics-1934587.bpgn");
    let report = analysed(&record, Rules::bughouse());
    assert_eq!(report.positions.len(), record.moves.len());
    check_positions(&report, Rules::bughouse());
    let boards: Vec<&str> = report.positions.iter().map(|p| p.board.as_str()).collect();
    assert_eq!(&boards[..4], ["A", "B", "A", "A"], "record order: 1A. e4 1B. e4 1a. Nf6 2A. Nc3");
    assert!(report.positions.iter().all(|p| p.partner_fen.is_some()));
    // The mover's clock after the move, and the other player's last one (the time control at first).
    let first = &report.positions[0];
    assert_eq!((first.clocks.white, first.clocks.black), (Some(58.345), Some(60.0)));
    // 3A. exd5 hands a black pawn to board B; 7a. Nxc3 a white knight.
    let exd5 = report.positions.iter().find(|p| p.board == "A" && p.played.san == "exd5").unwrap();
    assert_eq!((exd5.handed[0].piece.as_str(), exd5.handed[0].to_board.as_str()), ("p", "B"));
    let nxc3 = report.positions.iter().find(|p| p.played.san == "Nxc3").unwrap();
    assert_eq!(nxc3.handed[0].piece, "N");
    // donkEchess (BlackA) is mated: team 1 (WhiteA + BlackB) wins, judged from the board.
    assert_eq!((report.result.as_str(), report.result_from.as_str()), ("1-0", "the final position"));
    let last = report.positions.last().unwrap();
    assert_eq!((last.played.san.as_str(), last.eval_played.and_then(|e| e.mate)), ("N@g4#", Some(1)));
}

#[test]
fn a_result_tag_from_the_other_board_is_judged_from_the_game() {
    // The tag says 1-0 from board B's view; BobBughouse (BlackB, team 1) is mated.
    let record = game("fics-1934301.bpgn");
    assert_eq!(record.result, "1-0");
    let report = analysed(&record, Rules::bughouse());
    check_positions(&report, Rules::bughouse());
    assert_eq!(report.result, "0-1");
}

#[test]
fn our_own_records_are_analysed_under_their_rules() {
    let record = game("arena-bughouse.bpgn");
    let report = analysed(&record, Rules::bughouse());
    assert_eq!(report.rules, "bughouse,mate=standard");
    check_positions(&report, "bughouse,mate=standard".parse().unwrap());
    assert_eq!(report.positions[0].fen, "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 2");

    let record = game("arena-crazyhouse.pgn");
    let report = analysed(&record, Rules::chess());
    assert!(!report.two_boards);
    assert_eq!(report.rules, "crazyhouse");
    check_positions(&report, Rules::crazyhouse());
    assert!(report.positions.iter().all(|p| p.board == "A" && p.partner_fen.is_none()));
    // In crazyhouse a capture stays on the board's own side of the table.
    let capture = report.positions.iter().find(|p| p.played.san.contains('x')).unwrap();
    assert_eq!(capture.handed.len(), 0, "crazyhouse captures go to the capturer's own hand, not across");
}

#[test]
fn the_json_report_follows_its_schema() {
    let record = game("fics-1934587.bpgn");
    let report = analysed(&record, Rules::bughouse());
    let json: serde_json::Value = serde_json::from_str(&serde_json::to_string(&report).unwrap()).unwrap();
    assert_eq!(json["schema"], SCHEMA_VERSION);
    assert_eq!(json["limit"], "depth 3");
    assert_eq!(json["tags"][0], serde_json::json!(["Event", "FICS rated bughouse match"]));
    let positions = json["positions"].as_array().unwrap();
    assert_eq!(positions.len(), record.moves.len());
    let keys = [
        "index", "board", "color", "number", "fen", "partner_fen", "played", "best", "pv", "eval", "eval_played",
        "loss", "mark", "handed", "clocks", "depth", "nodes",
    ];
    for p in positions {
        for key in keys {
            assert!(p.get(key).is_some(), "position {} lacks {key}: {p}", p["index"]);
        }
        let eval = &p["eval"];
        assert!(eval["cp"].is_i64() != eval["mate"].is_i64(), "cp or mate, not both: {eval}");
        assert!(p["mark"].is_null() || ["inaccuracy", "mistake", "blunder"].contains(&p["mark"].as_str().unwrap()));
    }
}

#[test]
fn a_record_with_an_illegal_move_is_refused_before_any_search() {
    let text = "[Event \"x\"]\n[WhiteA \"a\"][BlackA \"b\"][WhiteB \"c\"][BlackB \"d\"]\n1A. e4 1a. e5 2A. Ke3\n";
    let record = read_records(text).unwrap().remove(0);
    let error = analyse(&record, Rules::bughouse(), &Engine::new(), PositionLimit::Depth(1), &mut |_| {
        panic!("no position may be searched")
    })
    .unwrap_err();
    assert!(error.contains("Ke3"), "{error}");
}

/// Headless Chromium (Debian's `chromium`), or `None` to skip; with
/// `TANDEM_REQUIRE_PEERS=1` (CI, which installs it) a missing browser fails.
fn chromium() -> Option<&'static str> {
    let found = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].into_iter().find(|p| std::path::Path::new(p).exists());
    if found.is_none() && std::env::var("TANDEM_REQUIRE_PEERS").is_ok_and(|v| v == "1") {
        panic!("chromium is required (TANDEM_REQUIRE_PEERS=1): apt-get install chromium");
    }
    found
}

/// Runs headless Chromium on `page` (with a `?query`) with `args`, at most a minute.
fn run_chromium(browser: &str, args: &[&str], page: &std::path::Path, query: &str) -> std::process::Output {
    std::process::Command::new("timeout")
        .args(["60", browser, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1300,900"])
        .args(args)
        .arg(format!("file://{}{query}", page.display()))
        .output()
        .expect("chromium runs")
}

#[test]
fn the_html_page_renders_both_boards_every_move_and_the_graph_in_a_browser() {
    let Some(browser) = chromium() else {
        eprintln!("skipped: no chromium");
        return;
    };
    let record = game("fics-1934587.bpgn");
    let report = analysed(&record, Rules::bughouse());
    let page = tandem_arena::analyse_html::render(&report).unwrap();
    let dir = std::env::temp_dir().join(format!("tandem-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.html");
    std::fs::write(&path, &page).unwrap();
    assert!(!page.contains("src=\"http") && !page.contains("href=\"http") && !page.contains("<link"), "nothing from the network");

    let dom = run_chromium(browser, &["--virtual-time-budget=3000", "--dump-dom"], &path, "");
    let dom = String::from_utf8_lossy(&dom.stdout);
    let count = |needle: &str| dom.matches(needle).count();
    assert_eq!(count("class=\"board\""), 2, "two boards:\n{}", &dom[..dom.len().min(2000)]);
    assert_eq!(count("<rect class=\"sq "), 128, "64 squares each");
    assert_eq!(count("<li data-index="), report.positions.len(), "every move in the list");
    assert!(dom.contains("27A. N@g4#"), "the last move is listed");
    assert_eq!(count("<polyline"), 2, "one evaluation line per board");
    assert!(!dom.contains("points=\"\""), "both lines have points");
    // The page opens at the end: the mating knight stands on g4 of board A, the last move is marked.
    assert!(dom.contains("class=\"current\""), "the current move is marked");
    assert!(count("class=\"last\"") >= 2, "the last move on each board is highlighted");
    assert!(count("data-piece=") > 40, "pieces on both boards");

    // After 3A. exd5 (the sixth move) a black pawn crosses to board B: named, and Black's hand there lit.
    let dom = run_chromium(browser, &["--virtual-time-budget=3000", "--dump-dom"], &path, "?move=6");
    let dom = String::from_utf8_lossy(&dom.stdout);
    assert!(dom.contains("Crosses to board B"), "the crossing is named");
    assert!(dom.contains("class=\"reserve arrived\" data-color=\"Black\""), "Black's reserve on board B lights up");
    assert_eq!(dom.matches("reserve arrived").count(), 1, "only the receiving hand");

    let shot = dir.join("game.png");
    let out = run_chromium(browser, &[&format!("--screenshot={}", shot.display())], &path, "");
    let png = std::fs::read(&shot).unwrap_or_else(|e| panic!("no screenshot ({e}): {}", String::from_utf8_lossy(&out.stderr)));
    assert!(png.starts_with(b"\x89PNG") && png.len() > 20_000, "a real screenshot: {} bytes", png.len());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_chess_pgn_is_analysed_under_chess_rules() {
    let text = "[Event \"Casual game\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n";
    let record = read_records(text).unwrap().remove(0);
    let report = analysed(&record, Rules::chess());
    assert_eq!(report.rules, "chess");
    check_positions(&report, Rules::chess());
    let nf6 = &report.positions[5];
    assert_eq!((nf6.played.san.as_str(), nf6.mark), ("Nf6", Some(Mark::Blunder)), "3... Nf6 allows Qxf7#");
    assert_eq!(nf6.eval_played.and_then(|e| e.mate), Some(1), "White mates in 1 after it");
    assert_eq!(report.result, "1-0");
}
