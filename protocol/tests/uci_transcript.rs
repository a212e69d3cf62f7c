//! Scripted UCI sessions against the real binary: every command, every error
//! path, search control timing and the bughouse extension.

mod common;

use std::time::{Duration, Instant};

use common::uci::{bestmove, fen, say};
use common::Tandem;

fn assert_error(t: &mut Tandem, line: &str, expected: &str) {
    let reply = say(t, line);
    assert!(
        reply.iter().any(|l| l.starts_with("info string error: ") && l.contains(expected)),
        "'{line}' should fail with '{expected}', got {reply:?}"
    );
}

fn crazyhouse() -> Tandem {
    let mut t = Tandem::start();
    say(&mut t, "setoption name UCI_Variant value crazyhouse");
    t
}

/// The start position under the default rules (chess: no reserve written).
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn handshake_lists_the_options_and_nothing_of_the_extension() {
    let mut t = Tandem::start();
    t.send("uci");
    let lines = t.read_until(|l| l == "uciok");
    assert!(lines[0].starts_with("id name tandem"));
    for option in [
        "option name Hash type spin default 16 min 1 max 65536",
        "option name Threads type spin default 1 min 1 max 256",
        "option name MultiPV type spin",
        "option name Ponder type check default false",
        "option name Move Overhead type spin",
        "option name UCI_Variant type combo default chess var chess var crazyhouse var bughouse var tandem var tandemschach var french",
        "option name Rules type string default <empty>",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(option)), "missing {option}: {lines:?}");
    }
    assert!(!lines.iter().any(|l| l.contains("ptell") || l.contains("bughouseok")));
    assert_eq!(say(&mut t, "ucinewgame"), Vec::<String>::new());
    assert_eq!(say(&mut t, "debug on"), Vec::<String>::new());
    assert_eq!(say(&mut t, "register later"), Vec::<String>::new());
    t.send("quit");
    assert!(t.wait_exit(Duration::from_secs(2)).is_some_and(|s| s.success()));
}

#[test]
fn unknown_commands_and_tokens_are_reported_and_skipped() {
    let mut t = Tandem::start();
    assert_eq!(say(&mut t, "hello world"), vec!["info string unknown command: hello world"]);
    assert_eq!(say(&mut t, "joho debug off"), vec!["info string ignored unknown token(s): joho"]);
    let reply = say(&mut t, "position startpos bogus moves e2e4");
    assert_eq!(reply, vec!["info string ignored unknown token(s): bogus"]);
    assert_eq!(fen(&mut t), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    t.send("go depth 1 wibble");
    let lines = t.read_until(|l| l.starts_with("bestmove"));
    assert!(lines.contains(&"info string ignored unknown token(s): wibble".to_string()), "{lines:?}");
}

#[test]
fn every_malformed_input_is_an_error_and_leaves_the_state_intact() {
    let mut t = crazyhouse();
    say(&mut t, "setoption name MultiPV value 2");
    say(&mut t, "position startpos moves e2e4 d7d5 e4d5");
    let before = fen(&mut t);
    for (line, expected) in [
        ("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks instead of 8"),
        ("position fen rnbqkbn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7 squares instead of 8"),
        ("position fen ~nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "'~' must follow a piece"),
        ("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "expected 'w' or 'b'"),
        ("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Kq] w KQkq - 0 1", "not a piece that can be held"),
        ("position fen 8/8/8/8/8/8/8/8 w - - 0 1", "kings instead of 1"),
        ("position fen", "needs a FEN"),
        ("position", "expects startpos or fen"),
        ("position startpos moves e2e4 e7e5 e4e5", "illegal move 'e4e5'"),
        ("position startpos moves e2e4 zz9", "malformed move 'zz9'"),
        ("position startpos moves Q@e4", "illegal move 'Q@e4'"),
        ("setoption name Hash value abc", "'Hash' expects a whole number"),
        ("setoption name Hash value 0", "between 1 and 65536"),
        ("setoption name Hash value 99999999999999999999", "whole number"),
        ("setoption name Threads value 257", "between 1 and 256"),
        ("setoption name MultiPV value -1", "whole number"),
        ("setoption name Move Overhead value 5001", "between 0 and 5000"),
        ("setoption name Ponder value maybe", "expects true or false"),
        ("setoption name UCI_Variant value suicide", "unknown UCI_Variant 'suicide'"),
        ("setoption name Rules value mate=maybe", "invalid value 'maybe'"),
        ("setoption name Rules value bogus_option=1", "unknown rules option"),
        ("setoption name NoSuchOption value 1", "unknown option 'NoSuchOption'"),
        ("setoption name Hash", "needs a value"),
        ("setoption Hash 16", "expects 'name <id>"),
        ("debug maybe", "expects 'on' or 'off'"),
        ("go depth 0", "between 1 and 255"),
        ("go depth", "needs a value"),
        ("go nodes many", "whole number"),
        ("go movetime -5", "between 0 and"),
        ("go wtime 99999999999", "at most"),
        ("go searchmoves e2e4", "searchmoves: illegal move"),
        ("ptell sit", "send 'bughouse' first"),
        ("reserve Q", "send 'bughouse' first"),
    ] {
        assert_error(&mut t, line, expected);
        assert_eq!(fen(&mut t), before, "state changed by '{line}'");
    }
    // The MultiPV setting survived every failed command.
    t.send("go depth 2");
    let lines = t.read_until(|l| l.starts_with("bestmove"));
    assert!(lines.iter().any(|l| l.contains("multipv 2")), "{lines:?}");
}

#[test]
fn garbage_bytes_and_huge_lines_are_survived() {
    let mut t = Tandem::start();
    t.send_bytes(b"\xff\xfe\x00\x01 \xc3\x28 garbage\n");
    t.send("isready");
    let lines = t.read_until(|l| l == "readyok");
    assert!(lines[0].starts_with("info string unknown command: "), "{lines:?}");
    assert!(!lines[0].contains('\u{0}'), "control characters are not echoed");
    let mut huge = vec![b'x'; 200_000];
    huge.push(b'\n');
    t.send_bytes(&huge);
    let reply = say(&mut t, "position startpos moves e2e4");
    assert_eq!(reply, vec!["info string error: line of 200000 bytes ignored: longer than the limit of 65536 bytes"]);
    let long_position = format!("position startpos moves {}", "g1f3 g8f6 f3g1 f6g8 ".repeat(500));
    assert_eq!(say(&mut t, long_position.trim_end()), Vec::<String>::new());
    assert!(fen(&mut t).starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2000"));
    t.send_bytes(b"isready\r\n");
    t.expect_prefix("readyok");
}

#[test]
fn fens_with_reserves_in_every_form_and_drops() {
    let mut t = crazyhouse();
    let expected = "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR[Nn] w KQkq - 0 1";
    for form in [
        "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR[Nn] w KQkq - 0 1",
        "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR/Nn w KQkq - 0 1",
    ] {
        say(&mut t, &format!("position fen {form}"));
        assert_eq!(fen(&mut t), expected);
    }
    for empty in ["[]", "[-]", "/"] {
        say(&mut t, &format!("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR{empty} w KQkq - 0 1"));
        assert_eq!(fen(&mut t), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1");
    }
    say(&mut t, "position fen 4k3/8/8/8/8/8/8/Q~3K3[N] w - - 0 1 moves N@e4 e8d7");
    assert_eq!(fen(&mut t), "8/3k4/8/8/4N3/8/8/Q~3K3[] w - - 1 2");
    // Drops in lower case are read too.
    say(&mut t, "position fen 4k3/8/8/8/8/8/8/4K3[N] w - - 0 1 moves n@e4");
    assert!(fen(&mut t).starts_with("4k3/8/8/8/4N3/"));
}

#[test]
fn variant_and_rules_options_change_the_rules() {
    let mut t = Tandem::start();
    say(&mut t, "position startpos moves e2e4");
    say(&mut t, "setoption name UCI_Variant value bughouse");
    assert_eq!(fen(&mut t), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1", "position kept");
    say(&mut t, "setoption name Rules value drop_checks=no-check,pawn_drops=ranks-2-6");
    let shown = say(&mut t, "d");
    assert!(shown.contains(&"info string rules bughouse,drop_checks=no-check,pawn_drops=ranks-2-6".to_string()), "{shown:?}");
    say(&mut t, "setoption name Rules value tandemschach,promotion=steal");
    assert!(say(&mut t, "d").contains(&"info string rules tandemschach,promotion=steal".to_string()));
    say(&mut t, "setoption name Rules value <empty>");
    assert!(say(&mut t, "d").contains(&"info string rules bughouse".to_string()));
    // A checking drop is refused under no-check.
    say(&mut t, "setoption name Rules value drop_checks=no-check");
    assert_error(&mut t, "position fen 4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1 moves Q@e7", "illegal move 'Q@e7'");
    say(&mut t, "setoption name UCI_Variant value chess");
    say(&mut t, "setoption name Rules value");
    assert!(say(&mut t, "d").contains(&"info string rules chess".to_string()));
}

/// The nodes of the last `info` line of a fixed-depth search of `position`, from empty tables.
fn nodes_to_depth(t: &mut Tandem, position: &str, depth: u32) -> u64 {
    say(t, "ucinewgame");
    say(t, position);
    t.send(&format!("go depth {depth}"));
    let lines = t.read_until(|l| l.starts_with("bestmove"));
    let info = lines.iter().rev().find(|l| l.contains(" nodes ")).expect("an info line with nodes");
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "nodes").expect("nodes");
    words[at + 1].parse().expect("a node count")
}

#[test]
fn the_network_evaluates_drop_boards_by_default_switches_off_and_bad_files_are_refused() {
    let mut t = crazyhouse();
    let position = "position fen r1b2rk1/pppp1ppp/2n5/2b1p3/2B1P1n1/2NP4/PPP2PPP/R1BQ1RK1[QNp] b - - 0 9";
    let by_default = nodes_to_depth(&mut t, position, 6);
    say(&mut t, "setoption name Use NNUE value false");
    let classical = nodes_to_depth(&mut t, position, 6);
    say(&mut t, "setoption name Use NNUE value true");
    let network = nodes_to_depth(&mut t, position, 6);
    assert_ne!(classical, network, "the network changes the tree");
    assert_eq!(by_default, network, "the network is on by default");
    say(&mut t, "setoption name Use NNUE value false");
    assert_eq!(nodes_to_depth(&mut t, position, 6), classical, "switched off, the classical evaluation is back");
    assert_error(&mut t, "setoption name EvalFile value /no/such/file.nnue", "cannot read EvalFile '/no/such/file.nnue'");
    let not_a_net = std::env::temp_dir().join(format!("tandem-not-a-net-{}.nnue", std::process::id()));
    std::fs::write(&not_a_net, b"TANDNNUE\x01\x00\x00\x00 cut off, of no shape").unwrap();
    let line = format!("setoption name EvalFile value {}", not_a_net.display());
    assert_error(&mut t, &line, "refused: a 1953850144-1717989152 network, this build plays");
    std::fs::remove_file(&not_a_net).ok();
    say(&mut t, "setoption name EvalFile value <embedded>");
    say(&mut t, "setoption name Use NNUE value true");
    assert_eq!(nodes_to_depth(&mut t, position, 6), network, "the refused files left the embedded network in place");
}

/// `go mate N` reports the shortest mate, proven, with its whole line: here a mate in 2 whose
/// first move is a quiet king step (Fairy-Stockfish self-play, crazyhouse).
#[test]
fn go_mate_reports_the_shortest_mate_with_its_line() {
    let mut t = crazyhouse();
    say(&mut t, "position fen 2bk2nN/rp1p4/2pQ2Qp/p2p1pp1/4pP2/N1N3P1/PPP2p1P/R1B1KB1R[RB] w KQ - 0 23");
    t.send("go mate 4 movetime 5000");
    let lines = t.read_until(|l| l.starts_with("bestmove"));
    let info = lines.iter().rev().find(|l| l.starts_with("info depth")).unwrap_or_else(|| panic!("no info in {lines:?}"));
    assert!(info.contains(" score mate 2 "), "{info}");
    let pv: Vec<&str> = info.split(" pv ").nth(1).unwrap_or_default().split_whitespace().collect();
    assert_eq!(pv.len(), 3, "{info}");
    assert_eq!(lines.last().map(String::as_str), Some(format!("bestmove {} ponder {}", pv[0], pv[1]).as_str()), "{lines:?}");
}

#[test]
fn go_with_each_limit_returns_a_legal_move() {
    let mut t = crazyhouse();
    say(&mut t, "position startpos moves e2e4 d7d5 e4d5 d8d5");
    for go in [
        "go depth 3",
        "go nodes 2000",
        "go movetime 50",
        "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 20",
        "go mate 1 depth 3",
        "go searchmoves P@e4 b1c3 depth 4",
    ] {
        t.send(go);
        let lines = t.read_until(|l| l.starts_with("bestmove"));
        let best = lines.last().and_then(|l| l.split_whitespace().nth(1)).unwrap_or_default().to_string();
        assert!(best.len() >= 4 && best != "(none)", "{go}: {lines:?}");
        if go.contains("searchmoves") {
            assert!(best == "P@e4" || best == "b1c3", "searchmoves ignored: {best}");
        }
        let info = lines.iter().find(|l| l.starts_with("info depth")).unwrap_or_else(|| panic!("{go}: no info in {lines:?}"));
        for field in ["seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv"] {
            assert!(info.contains(&format!(" {field} ")), "{go}: '{field}' missing in {info}");
        }
        say(&mut t, &format!("position startpos moves e2e4 d7d5 e4d5 d8d5 {best}"));
        say(&mut t, "position startpos moves e2e4 d7d5 e4d5 d8d5");
    }
}

#[test]
fn mate_scores_and_positions_without_moves() {
    let mut t = Tandem::start();
    say(&mut t, "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    t.send("go depth 4");
    let lines = t.read_until(|l| l.starts_with("bestmove"));
    assert_eq!(lines.last().map(String::as_str), Some("bestmove a1a8"));
    assert!(lines.iter().any(|l| l.contains("score mate 1")), "{lines:?}");
    say(&mut t, "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 moves a1a8");
    t.send("go depth 3");
    assert_eq!(t.expect_prefix("bestmove"), "bestmove (none)");
}

#[test]
fn multipv_reports_every_line() {
    let mut t = crazyhouse();
    say(&mut t, "setoption name MultiPV value 3");
    t.send("go depth 3");
    let lines = t.read_until(|l| l.starts_with("bestmove"));
    for k in 1..=3 {
        assert!(lines.iter().any(|l| l.starts_with("info depth 3 ") && l.contains(&format!(" multipv {k} "))), "{lines:?}");
    }
}

/// Milliseconds from `stop` to `bestmove` during `go infinite`.
fn stop_latency(t: &mut Tandem) -> Duration {
    t.send("go infinite");
    t.expect_prefix("info depth 2");
    std::thread::sleep(Duration::from_millis(30));
    let sent = Instant::now();
    t.send("stop");
    t.expect_prefix("bestmove");
    sent.elapsed()
}

#[test]
fn stop_is_answered_within_20_ms() {
    let mut t = crazyhouse();
    say(&mut t, "position startpos moves e2e4 d7d5");
    let latencies: Vec<Duration> = (0..8).map(|_| stop_latency(&mut t)).collect();
    let best = latencies.iter().min().copied().unwrap_or_default();
    eprintln!("stop latencies: {latencies:?}");
    assert!(best <= Duration::from_millis(20), "stop latencies {latencies:?}");
    assert!(latencies.iter().all(|&l| l < Duration::from_millis(500)), "stop latencies {latencies:?}");
}

#[test]
fn infinite_and_ponder_wait_for_stop_or_ponderhit() {
    let mut t = crazyhouse();
    t.send("go infinite depth 2");
    let early = t.lines_within(Duration::from_millis(300));
    assert!(!early.iter().any(|l| l.starts_with("bestmove")), "bestmove before stop: {early:?}");
    t.send("stop");
    t.expect_prefix("bestmove");

    say(&mut t, "setoption name Ponder value true");
    t.send("go ponder wtime 500 btime 500");
    let early = t.lines_within(Duration::from_millis(700));
    assert!(!early.iter().any(|l| l.starts_with("bestmove")), "bestmove while pondering: {early:?}");
    t.send("ponderhit");
    t.expect_prefix("bestmove");

    t.send("go ponder wtime 500 btime 500");
    t.expect_prefix("info depth 1");
    t.send("stop");
    t.expect_prefix("bestmove");
    assert_eq!(say(&mut t, "ponderhit"), vec!["info string ponderhit ignored: not pondering"]);
}

#[test]
fn commands_during_a_search_do_not_disturb_it() {
    let mut t = crazyhouse();
    t.send("go infinite");
    t.expect_prefix("info depth 1");
    for line in [
        "position startpos moves g1f3",
        "setoption name Hash value 32",
        "setoption name Threads value 2",
        "setoption name MultiPV value 2",
        "ucinewgame",
    ] {
        assert!(!say(&mut t, line).iter().any(|l| l.starts_with("info string error")), "{line}");
    }
    assert_error(&mut t, "go depth 1", "already running");
    t.send("stop");
    let best = bestmove(&mut t);
    assert!(best.len() >= 4, "{best}");
    // `ucinewgame` (sent last) reset the board; the new MultiPV is in force.
    assert_eq!(fen(&mut t), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1");
    t.send("go depth 2");
    let lines = t.read_until(|l| l.starts_with("bestmove"));
    assert!(lines.iter().any(|l| l.contains("multipv 2")), "{lines:?}");
}

#[test]
fn quit_exits_promptly_mid_search() {
    let mut t = crazyhouse();
    t.send("go infinite");
    t.expect_prefix("info depth 1");
    let sent = Instant::now();
    t.send("quit");
    let status = t.wait_exit(Duration::from_secs(2)).expect("tandem exits");
    assert!(status.success());
    assert!(sent.elapsed() < Duration::from_millis(500), "quit took {:?}", sent.elapsed());
}

#[test]
fn end_of_input_finishes_a_finite_search_then_exits() {
    let mut t = Tandem::start();
    t.send("position startpos");
    t.send("go depth 3");
    t.close_input();
    let best = bestmove(&mut t);
    assert!(best.len() >= 4);
    assert!(t.wait_exit(Duration::from_secs(5)).is_some_and(|s| s.success()));
}

#[test]
fn a_script_may_skip_the_uci_command() {
    let mut t = Tandem::start();
    t.send("go depth 1");
    let best = bestmove(&mut t);
    assert!(best.len() >= 4);
    assert_eq!(fen(&mut t), START);
}

// ---- bughouse extension ---------------------------------------------------

fn bughouse() -> Tandem {
    let mut t = Tandem::start();
    t.send("uci");
    t.read_until(|l| l == "uciok");
    say(&mut t, "setoption name UCI_Variant value bughouse");
    let reply = say(&mut t, "bughouse");
    assert_eq!(reply, vec!["feature seat partner reserve clocks ptell bfen board", "bughouseok"]);
    t
}

#[test]
fn extension_state_seat_partner_board_and_messages() {
    let mut t = bughouse();
    assert_eq!(say(&mut t, "seat B black"), Vec::<String>::new());
    say(&mut t, "partner startpos moves e2e4");
    say(&mut t, "partner move e7e5");
    let shown = say(&mut t, "d");
    assert!(shown.contains(&"info string seat B black".to_string()), "{shown:?}");
    assert!(shown.iter().any(|l| l.starts_with("info string partner fen rnbqkbnr/pppp1ppp/8/4p3/4P3/")), "{shown:?}");
    for message in ["sit", "go", "fast", "slow", "dead", "x", "move e2e4", "time 1000", "otim 900", "need n q", "dontgive r", "trades good", "trades bad"] {
        assert!(say(&mut t, &format!("ptell {message}")).is_empty(), "{message}");
    }
    assert_eq!(say(&mut t, "ptell hello partner"), vec!["info string partner message not understood, kept: hello partner"]);
    for (line, expected) in [
        ("seat C white", "unknown board 'C'"),
        ("seat A purple", "unknown colour 'purple'"),
        ("partner move e2e5", "illegal move 'e2e5'"),
        ("partner fen 8/8 w", "ranks instead of 8"),
        ("partner", "'partner' expects"),
        ("reserve K", "not a piece that can be held"),
        ("reserve Q Q", "one word"),
        ("ptell need k", "not a piece letter"),
        ("ptell time soon", "whole number"),
        ("ptell trades maybe", "'good' or 'bad'"),
        ("ptell", "needs a message"),
        ("position bfen onlyone", "expected 'fenA | fenB'"),
        ("go board C", "unknown board 'C'"),
    ] {
        assert_error(&mut t, line, expected);
    }
    say(&mut t, "partner none");
    assert_error(&mut t, "partner move e2e4", "no partner board");
    assert_error(&mut t, "go board A", "no partner board");
}

#[test]
fn extension_parts_before_bughouse_are_refused_not_misread() {
    let mut t = Tandem::start();
    let before = fen(&mut t);
    let bfen = "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 | k7/8/1K6/8/8/8/8/8[Q] w - - 0 1";
    assert_error(&mut t, &format!("position bfen \"{bfen}\""), "'position bfen' belongs to the bughouse extension: send 'bughouse' first");
    // Skipped as an unknown token, `board B` would search board A instead.
    for line in ["go board B depth 2", "go depth 2 board A"] {
        assert_error(&mut t, line, "'go board' belongs to the bughouse extension: send 'bughouse' first");
        assert!(!has_bestmove(&t.lines_within(Duration::from_millis(300))), "'{line}' searched something");
    }
    assert_eq!(fen(&mut t), before);
}

#[test]
fn a_go_for_the_colour_we_do_not_sit_as_is_refused() {
    let mut t = bughouse();
    say(&mut t, "seat A white");
    say(&mut t, "position startpos moves e2e4");
    assert_error(&mut t, "go depth 2 wtime 1000 btime 50000", "we sit as White on board A ('seat A white') but Black is to move there");
    assert!(!has_bestmove(&t.lines_within(Duration::from_millis(300))), "no search for the opponent");
    say(&mut t, "seat A black");
    t.send("go depth 2 wtime 1000 btime 50000");
    let best = bestmove(&mut t);
    assert!(best.ends_with('5') || best.ends_with('6'), "a move for Black: {best}");
    // The partner board is analysed whoever is to move there.
    say(&mut t, "partner startpos");
    t.send("go board B depth 1");
    let best = bestmove(&mut t);
    assert!(best.ends_with('3') || best.ends_with('4'), "a move for White on B: {best}");
    // Without a `seat` we play the side to move, and the seat's colour follows it.
    let mut t = bughouse();
    say(&mut t, "position startpos moves e2e4");
    t.send("go depth 1");
    bestmove(&mut t);
    let shown = say(&mut t, "d");
    assert!(shown.contains(&"info string seat A black (no 'seat' given: we play the side to move)".to_string()), "{shown:?}");
}

#[test]
fn two_board_analysis_with_bfen() {
    let mut t = bughouse();
    let bfen = "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 | k7/8/1K6/8/8/8/8/8[Q] w - - 0 1";
    say(&mut t, &format!("position bfen \"{bfen}\""));
    t.send("go board B depth 2");
    let lines = t.read_until(|l| l.starts_with("bestmove"));
    let last = lines.last().cloned().unwrap_or_default();
    assert!(last.starts_with("bestmove Q@a7") || last.starts_with("bestmove Q@b7"), "board B mates with a drop: {lines:?}");
    assert!(lines.iter().any(|l| l.contains("score mate 1")), "{lines:?}");
    t.send("go board A depth 2");
    let best = bestmove(&mut t);
    assert!(best.starts_with("e1"), "board A has only the king: {best}");
    // Seated on B, the same BFEN makes B our board.
    say(&mut t, "seat B white");
    say(&mut t, &format!("position bfen {bfen} moves Q@a7"));
    assert!(fen(&mut t).starts_with("k7/Q7/1K6/"));
}

#[test]
fn reserve_update_mid_search_restarts_silently_with_one_bestmove() {
    let mut t = bughouse();
    say(&mut t, "position fen 4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
    t.send("go movetime 400 pwtime 60000 pbtime 60000");
    t.expect_prefix("info depth 1");
    say(&mut t, "reserve Q");
    say(&mut t, "reserve QR");
    let lines = t.read_until(|l| l.starts_with("bestmove"));
    let best = lines.last().and_then(|l| l.split_whitespace().nth(1)).unwrap_or_default();
    assert!(best.starts_with("Q@") || best.starts_with("R@") || best.starts_with('e'), "{lines:?}");
    assert!(fen(&mut t).contains("[QR]"), "the reserve stays updated");
    let after = t.lines_within(Duration::from_millis(600));
    assert!(!after.iter().any(|l| l.starts_with("bestmove")), "a second bestmove: {after:?}");

    // During `go infinite` the restarted search also waits for `stop`.
    say(&mut t, "position fen 4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
    t.send("go infinite");
    t.expect_prefix("info depth 1");
    say(&mut t, "reserve Q");
    let quiet = t.lines_within(Duration::from_millis(200));
    assert!(!quiet.iter().any(|l| l.starts_with("bestmove")), "{quiet:?}");
    t.send("stop");
    let best = bestmove(&mut t);
    assert!(best.starts_with("Q@") || best.starts_with('e'), "{best}");
    assert!(!t.lines_within(Duration::from_millis(300)).iter().any(|l| l.starts_with("bestmove")));
}

#[test]
fn sitting_holds_the_move_until_the_partner_says_go() {
    let mut t = bughouse();
    say(&mut t, "setoption name Team Messages value true");
    say(&mut t, "ptell sit");
    t.send("go depth 2 wtime 60000 btime 30000");
    let lines = t.read_until(|l| l.contains("sitting"));
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "{lines:?}");
    assert!(t.lines_within(Duration::from_millis(200)).is_empty());
    t.send("ptell go");
    t.expect_prefix("bestmove");
    // `stop` also releases a sitting move (without a clock we sit until told).
    say(&mut t, "ptell sit");
    t.send("go depth 1");
    t.expect_prefix("info string sitting");
    t.send("stop");
    t.expect_prefix("bestmove");
    // With `Team Sitting` we sit only while our time lead lasts (less 2 s) …
    t.send("go depth 1 wtime 3000 btime 600");
    t.expect_prefix("info string sitting ends: our time lead is used up");
    t.expect_prefix("bestmove");
    t.send("go depth 1 wtime 60000 btime 60000");
    t.expect_prefix("info string partner asked us to sit, but we are not ahead on the clock");
    t.expect_prefix("bestmove");
    // … without it, until our clock runs low.
    say(&mut t, "setoption name Team Sitting value false");
    t.send("go depth 1 wtime 1200 btime 1200");
    t.expect_prefix("info string sitting ends: our clock runs low");
    t.expect_prefix("bestmove");
}

#[test]
fn the_partner_may_ask_for_our_move_now_or_name_it() {
    let mut t = bughouse();
    let help = say(&mut t, "ptell help");
    assert_eq!(help, vec![format!("ptell I understand: {}", tandem_engine::team::VOCABULARY)]);
    // `move` cuts a search of our move short: its best move, at once.
    t.send("go movetime 60000");
    t.expect_prefix("info depth 2");
    let asked = Instant::now();
    t.send("ptell move");
    let best = bestmove(&mut t);
    assert!(best.len() >= 4 && asked.elapsed() < Duration::from_secs(5), "{best} after {:?}", asked.elapsed());
    // `move <m>` legal at the root: that move is the answer, and the only one.
    t.send("go movetime 60000");
    t.expect_prefix("info depth 1");
    t.send("ptell move g1f3");
    assert_eq!(t.expect_prefix("bestmove"), "bestmove g1f3");
    assert!(!has_bestmove(&t.lines_within(Duration::from_millis(300))), "one bestmove per go");
    // Not while analysing (`go infinite` answers only `stop`), and not an illegal move.
    t.send("go infinite");
    t.expect_prefix("info depth 1");
    t.send("ptell move");
    t.send("ptell move e2e5");
    assert!(!has_bestmove(&t.lines_within(Duration::from_millis(300))), "go infinite waits for stop");
    t.send("stop");
    bestmove(&mut t);
    // Without a search of our move it is the partner's planned move, kept.
    assert!(say(&mut t, "ptell move e2e4").is_empty());
    assert!(say(&mut t, "d").contains(&"info string partner said move e2e4".to_string()));
}

#[test]
fn frozen_player_asks_the_partner_for_material_and_waits() {
    let mut t = bughouse();
    say(&mut t, "setoption name Team Messages value true");
    // In check along the back rank with no move: a dropped piece could block.
    say(&mut t, "position fen R6k/6pp/8/8/8/8/8/K7[] b - - 0 1");
    t.send("go depth 2");
    let lines = t.read_until(|l| l.starts_with("info string frozen"));
    assert!(!has_bestmove(&lines), "bughouse waits for material: {lines:?}");
    let need = lines.iter().find(|l| l.starts_with("ptell need")).cloned().unwrap_or_default();
    assert!(need.len() > "ptell need ".len(), "{lines:?}");
    t.send("stop");
    assert_eq!(t.expect_prefix("bestmove"), "bestmove (none)");
}

fn has_bestmove(lines: &[String]) -> bool {
    lines.iter().any(|l| l.starts_with("bestmove"))
}

#[test]
fn a_steal_promotion_takes_from_the_partner_board_or_says_it_cannot() {
    let mut t = Tandem::start();
    say(&mut t, "bughouse");
    say(&mut t, "setoption name UCI_Variant value bughouse");
    say(&mut t, "setoption name Rules value promotion=steal");
    // Our board only: the other board is unknown, so the pawn cannot promote.
    say(&mut t, "position fen k7/4P3/8/8/8/8/8/4K3[] w - - 0 1");
    t.send("go depth 2");
    let lines = t.read_until(|l| l.starts_with("bestmove "));
    assert!(lines.iter().any(|l| l.contains("promotion=steal takes from the other board, which is unknown")), "{lines:?}");
    assert!(!lines.last().unwrap().contains("e7e8"), "{lines:?}");
    // With the partner board (White's rook and knight there) the steal is searched and legal.
    say(&mut t, "partner fen 4k3/8/8/8/8/8/8/RN2K3[] w - - 0 1");
    t.send("go depth 2");
    let lines = t.read_until(|l| l.starts_with("bestmove "));
    assert!(!lines.iter().any(|l| l.contains("which is unknown")), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains(" pv e7e8")), "a steal promotion is searched: {lines:?}");
    assert!(say(&mut t, "position bfen k7/4P3/8/8/8/8/8/4K3[] w - - 0 1 | 4k3/8/8/8/8/8/8/RN2K3[Q] w - - 0 1 moves e7e8r")
        .iter()
        .all(|l| !l.contains("error")));
}

#[test]
fn go_board_both_analyses_the_partner_board_then_ours() {
    let mut t = bughouse();
    let bfen = "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 | k7/8/1K6/8/8/8/8/8[Q] w - - 0 1";
    say(&mut t, &format!("position bfen \"{bfen}\""));
    t.send("go board both depth 2");
    let lines = t.read_until(|l| l.starts_with("bestmove"));
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info board")).collect();
    assert!(infos.iter().any(|l| l.starts_with("info board B ") && l.contains("score mate 1")), "{lines:?}");
    assert!(infos.iter().any(|l| l.starts_with("info board A ")), "{lines:?}");
    // Board B first, its best move as a note, then ours: the `bestmove` is board A's.
    let b_done = lines.iter().position(|l| l.starts_with("info string board B bestmove Q@")).expect("board B's move");
    assert!(lines[..b_done].iter().all(|l| !l.starts_with("info board A")), "{lines:?}");
    assert!(lines[b_done..].iter().all(|l| !l.starts_with("info board B")), "{lines:?}");
    assert!(lines.last().unwrap().starts_with("bestmove e1"), "board A has only the king: {lines:?}");
    // `stop` during the partner board's search ends the command with that board's move
    // (two opening positions, so that neither search ends early on a mate).
    let opening = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1";
    say(&mut t, &format!("position bfen \"{opening} | {opening}\""));
    t.send("go board both movetime 20000");
    t.read_until(|l| l.starts_with("info board B"));
    t.send("stop");
    let lines = t.read_until(|l| l.starts_with("bestmove"));
    assert!(lines.iter().all(|l| !l.starts_with("info board A") && !l.starts_with("info string board B")), "{lines:?}");
    say(&mut t, &format!("position bfen \"{bfen}\""));
    // A later plain `go` prints unmarked lines again.
    t.send("go depth 1");
    let lines = t.read_until(|l| l.starts_with("bestmove"));
    assert!(lines.iter().all(|l| !l.starts_with("info board")), "{lines:?}");
    // Refused: an endless search of both, and both boards without the other board.
    assert_error(&mut t, "go board both infinite", "'go board both' needs a finite search");
    let mut t = bughouse();
    say(&mut t, "position startpos");
    assert_error(&mut t, "go board both depth 1", "no partner board to analyse");
    assert!(!has_bestmove(&t.lines_within(Duration::from_millis(300))), "nothing searched");
}
