//! BPGN: reading archive files, round trips of our own records, and clear
//! errors for malformed input.

use std::time::Duration;

use tandem_arena::bpgn::{read_records, record_rules, replay, Record};
use tandem_engine::{BoardId, Color, Rules, Status};

fn archive() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/archive.bpgn")).unwrap()
}

#[test]
fn reads_a_bughouse_server_archive() {
    let records = read_records(&archive()).unwrap();
    assert_eq!(records.len(), 2);
    let game = &records[0];
    assert!(game.two_board);
    assert_eq!(game.tag("WhiteA"), Some("Alice"));
    assert_eq!(game.tag("BlackBElo"), Some("1888"));
    assert_eq!(game.result, "1-0");
    assert_eq!(game.termination.as_deref(), Some("Bob checkmated"));
    assert_eq!(game.moves.len(), 28);
    let drop = &game.moves[14];
    assert_eq!((drop.board, drop.color, drop.number, drop.san.as_str()), (BoardId::A, Color::White, 5, "P@e6+"));
    assert_eq!(drop.clock, Some(Duration::from_millis(174_000)));
    // Replayed under the bughouse rules, material flows and the final mate stands.
    let replayed = replay(game, record_rules(game, Rules::bughouse())).unwrap();
    assert_eq!(replayed.game.status(BoardId::A), Status::Checkmate);
    assert_eq!(replayed.moves.len(), 28);
    // Fool's mate can be blocked by a drop on g3: frozen, not mated, under
    // bughouse's potential mate; mated under Tandemschach's standard mate.
    let second = replay(&records[1], Rules::bughouse()).unwrap();
    assert_eq!(second.game.status(BoardId::A), Status::Frozen);
    let second = replay(&records[1], Rules::tandemschach()).unwrap();
    assert_eq!(second.game.status(BoardId::A), Status::Checkmate);
    assert_eq!(records[1].moves[2].clock, None);
}

#[test]
fn records_round_trip_through_text() {
    let records = read_records(&archive()).unwrap();
    for record in records {
        let text = record.to_text();
        let again = read_records(&text).unwrap();
        assert_eq!(again.len(), 1);
        assert_eq!(again[0], record, "{text}");
        assert_eq!(again[0].to_text(), text, "writing is stable");
    }
}

#[test]
fn one_board_pgn_is_read_too() {
    let text = "[Event \"x\"]\n[White \"a\"]\n[Black \"b\"]\n\n1. e4{59.5} e5{59.0} 2. Nf3 Nc6 3. Bb5 a6 *\n";
    let records = read_records(text).unwrap();
    assert!(!records[0].two_board);
    assert_eq!(records[0].moves.len(), 6);
    assert_eq!(records[0].moves[1].clock, Some(Duration::from_millis(59_000)));
    replay(&records[0], Rules::chess()).unwrap();
    let from_black = "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n\n1... e5 2. Nf3 1-0\n";
    let records = read_records(from_black).unwrap();
    assert_eq!(records[0].moves[0].color, Color::Black);
    replay(&records[0], Rules::chess()).unwrap();
    assert!(records[0].to_text().ends_with("1-0\n\n"));
}

fn bad(text: &str) -> String {
    match read_records(text) {
        Err(e) => e.to_string(),
        Ok(records) => match records.iter().map(|r| replay(r, Rules::bughouse())).find_map(Result::err) {
            Some(e) => e,
            None => panic!("accepted: {text}"),
        },
    }
}

#[test]
fn malformed_files_give_clear_errors() {
    assert!(bad("[WhiteA \"x]\n").contains("unterminated"));
    assert!(bad("[WhiteA x]\n").contains("malformed tag"));
    assert!(bad("[WhiteA \"x\"]\n\n1A. e4 {never closed\n").contains("never closed"));
    assert!(bad("[WhiteA \"x\"]\n\n1A. e4 1. e5 *\n").contains("mixed"));
    assert!(bad("[WhiteA \"x\"]\n\n1A. e5 *\n").contains("not a legal move"));
    assert!(bad("[WhiteA \"x\"]\n\n1a. e5 *\n").contains("White's turn"));
    assert!(bad("[WhiteA \"x\"]\n\n1A. Qz9 *\n").contains("Qz9"));
    assert!(bad("[WhiteA \"x\"]\n[FEN \"junk | junk\"]\n\n1A. e4 *\n").contains("FEN tag"));
    assert!(bad("e4 e5 *").contains("no move number"));
}

#[test]
fn garbage_never_panics() {
    let samples = [
        "",
        "[",
        "]",
        "{",
        "(((",
        "1A.",
        "1-0",
        "[A \"\\",
        "\u{feff}[X \"y\"]",
        "1A. @@ 1a. P@ *",
        "99999999999999999999A. e4",
    ];
    for text in samples {
        if let Ok(records) = read_records(text) {
            for record in &records {
                let _ = replay(record, Rules::bughouse());
                let _: Record = record.clone();
            }
        }
    }
}

/// A real FICS game of `arena/tests/data/bughousedb/` (see its README).
fn real_game(number: &str) -> Record {
    let path = format!("{}/tests/data/bughousedb/{number}.bpgn", env!("CARGO_MANIFEST_DIR"));
    let mut records = read_records(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(records.len(), 1);
    records.remove(0)
}

#[test]
fn real_games_are_scored_from_the_game_not_the_result_tag() {
    use tandem_arena::verdict::{judge, Evidence};
    // (game, team 1's result, how it is known, the tag's claim)
    let cases = [
        ("1934301", "0-1", Evidence::FinalPosition, "1-0"), // BlackB (team 1) mated on board B
        ("1934461", "1-0", Evidence::ClosingComment, "0-1"), // WhiteB (team 2) forfeits on time
        ("1934587", "1-0", Evidence::FinalPosition, "1-0"), // BlackA (team 2) mated on board A
    ];
    for (number, result, evidence, tag) in cases {
        let record = real_game(number);
        assert_eq!(record.result, tag);
        let replayed = replay(&record, record_rules(&record, Rules::bughouse())).unwrap_or_else(|e| panic!("{number}: {e}"));
        let verdict = judge(&record, &replayed);
        assert_eq!((verdict.result, verdict.evidence), (result, evidence), "{number}");
    }
}

#[test]
fn a_replay_scores_every_pairing_and_a_failed_one_prints_no_empty_score() {
    let dir = std::env::temp_dir().join(format!("tandem-verdict-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let all = dir.join("all.bpgn");
    let text: String = ["1934301", "1934461", "1934587"]
        .iter()
        .map(|n| std::fs::read_to_string(format!("{}/tests/data/bughousedb/{n}.bpgn", env!("CARGO_MANIFEST_DIR"))).unwrap() + "\n")
        .collect();
    std::fs::write(&all, text).unwrap();
    let mut out = Vec::new();
    assert!(tandem_arena::runner::replay_file_to(&all, Rules::bughouse(), &mut out).is_ok());
    let printed = String::from_utf8(out).unwrap();
    let scores: Vec<&str> = printed.lines().filter(|l| l.starts_with("Score of ")).collect();
    assert_eq!(scores.len(), 3, "three pairings, each scored:\n{printed}");
    assert!(scores.contains(&"Score of Rabbos+BobBughouse vs Stesox+Giomaxxim: 0 - 1 - 0  [0.000] 1"), "{printed}");
    assert!(printed.contains("the Result tag says 1-0"), "{printed}");
    let broken = dir.join("broken.bpgn");
    std::fs::write(&broken, "[WhiteA \"a\"][BlackA \"b\"][WhiteB \"c\"][BlackB \"d\"]\n[Result \"1-0\"]\n\n1A. e5 1-0\n").unwrap();
    let mut out = Vec::new();
    let error = tandem_arena::runner::replay_file_to(&broken, Rules::bughouse(), &mut out).unwrap_err();
    assert!(error.contains("1 of 1 games could not be replayed"), "{error}");
    let printed = String::from_utf8(out).unwrap();
    assert!(printed.contains("cannot be replayed") && !printed.contains("Score of"), "{printed}");
}
