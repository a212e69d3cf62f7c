//! Bad command lines and unreadable files: clear errors, never a panic.

mod common;

use common::{fake, parse, temp_file, words};

fn error(text: &str) -> String {
    let mut all = fake("f", &[]);
    all.extend(words(text));
    match parse(&all) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e,
    }
}

#[test]
fn bad_flags_are_explained() {
    assert!(error("--rules bugh").contains("unknown preset 'bugh'"));
    assert!(error("--rules bughouse,mate=maybe").contains("invalid value 'maybe'"));
    assert!(error("--rules bughouse,mate=maybe").contains("expected one of standard, potential"));
    assert!(error("--rules bughouse,mates=standard").contains("expected one of drop_checks, pawn_drops"));
    assert!(error("--opening-plies 4").contains("--openings"));
    assert!(error("--engine name=g cmd=x extension=maybe").contains("extension must be 'on' or 'off'"));
    assert!(error("--team1 nobody").contains("unknown engine 'nobody'"));
    assert!(error("--team1 f,f,f").contains("2 engine(s) per team"));
    assert!(error("--tc 40/60").contains("moves per session"));
    assert!(error("--tc abc").contains("invalid time control"));
    assert!(error("--tc BlackC=1+0").contains("unknown seat 'BlackC'"));
    assert!(error("--games 0").contains("--games"));
    assert!(error("--concurrency 0").contains("--concurrency"));
    assert!(error("--sprt elo0=5 elo1=0").contains("elo0 < elo1"));
    assert!(error("--sprt elo1=5").contains("elo0"));
    assert!(error("--walking-time=-1").contains("walking"));
    assert!(error("--games many").contains("invalid value 'many'"));
    assert!(error("--engine cmd=/bin/true").contains("needs name="));
    assert!(error("--engine name=f cmd=/bin/true").contains("defined twice"));
    assert!(error("--engine name=g cmd=x proto=telnet").contains("unknown protocol"));
}

#[test]
fn unreadable_or_malformed_openings_are_explained() {
    assert!(error("--openings /nonexistent/book.epd").contains("cannot read openings"));
    let bad_fen = temp_file("bad.epd");
    std::fs::write(&bad_fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq -\n").unwrap();
    let message = error(&format!("--openings {}", bad_fen.display()));
    assert!(message.contains("bad.epd:1") && message.contains("ranks"), "{message}");
    let bad_bpgn = temp_file("bad.bpgn");
    std::fs::write(&bad_bpgn, "[WhiteA \"x\"]\n\n1A. e4 1a. e5 2A. Ke3 *\n").unwrap();
    let message = error(&format!("--openings {}", bad_bpgn.display()));
    assert!(message.contains("game 1") && message.contains("Ke3"), "{message}");
    let empty = temp_file("empty.epd");
    std::fs::write(&empty, "# nothing\n").unwrap();
    assert!(error(&format!("--openings {}", empty.display())).contains("no openings"));
    let bfen = temp_file("two.bfen");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    std::fs::write(&bfen, format!("{start} | {start}\n")).unwrap();
    assert!(error(&format!("--rules chess --team1 f --team2 f --openings {}", bfen.display())).contains("one board"));
}

#[test]
fn an_unwritable_record_file_is_refused_up_front() {
    assert!(error("--bpgn /nonexistent/dir/out.bpgn").contains("--bpgn"));
}

#[test]
fn replaying_a_malformed_file_fails_cleanly() {
    let bad = temp_file("replay.bpgn");
    std::fs::write(&bad, "[WhiteA \"x\"]\n\n1A. e4 {open\n").unwrap();
    let rules = tandem_engine::Rules::bughouse();
    assert!(tandem_arena::runner::replay_file(&bad, rules).unwrap_err().contains("never closed"));
    let archive = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/archive.bpgn"));
    tandem_arena::runner::replay_file(archive, rules).unwrap();
}
