//! The `tandem` command line: perft output format and clear errors.

use std::process::{Command, Output};

fn tandem(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tandem")).args(args).output().expect("tandem runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn perft_prints_nodes_last() {
    let o = tandem(&["perft", "3", "--rules", "chess"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().last(), Some("nodes 8902"));
    assert!(stderr(&o).contains("leaves/s"), "timing goes to stderr");
}

#[test]
fn perft_divide_lists_each_root_move() {
    let o = tandem(&["perft", "2", "--fen", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", "--divide"]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.contains(&"N@e4: 5"), "{out}");
    assert!(lines.contains(&"e1d1: 5"), "{out}");
    let total: u64 = lines[..lines.len() - 1]
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(lines.last().copied(), Some(format!("nodes {total}").as_str()));
}

#[test]
fn perft_reads_bfen_boards_and_rule_overrides() {
    let bfen = "4k3/8/8/8/8/8/8/4K3[] w - - 0 1 | 4k3/8/8/8/8/8/8/4K3[N] w - - 0 1";
    let a = tandem(&["perft", "1", "--bfen", bfen]);
    assert_eq!(stdout(&a).trim(), "nodes 5");
    let b = tandem(&["perft", "1", "--bfen", bfen, "--board", "B"]);
    assert_eq!(stdout(&b).trim(), "nodes 67");
    let nocheck = tandem(&["perft", "1", "--bfen", bfen, "--board", "B", "--rules", "bughouse,drop_checks=no-check"]);
    assert_eq!(stdout(&nocheck).trim(), "nodes 63");
    let crazy = tandem(&["perft", "4", "--rules", "crazyhouse"]);
    assert_eq!(stdout(&crazy).trim(), "nodes 197281");
}

#[test]
fn bad_arguments_fail_with_a_message() {
    for (args, expected) in [
        (vec!["perft", "2", "--fen", "8/8/8 w - - 0 1"], "invalid FEN board"),
        (vec!["perft", "2", "--rules", "bugs"], "unknown preset 'bugs'"),
        (vec!["perft", "2", "--rules", "bughouse,mate=maybe"], "invalid value 'maybe'"),
        (vec!["perft", "x"], "invalid value 'x'"),
        (vec!["perft", "40"], "above the maximum"),
        (vec!["perft", "1", "--bfen", "4k3/8/8/8/8/8/8/4K3[] w - - 0 1", "--board", "B"], "expected 'fenA | fenB'"),
        (vec!["perft", "1", "--bfen", "x | y", "--board", "C"], "unknown board 'C'"),
        (vec!["perft", "1", "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "--bfen", "x | y"], "cannot be used with"),
    ] {
        let o = tandem(&args);
        assert!(!o.status.success(), "{args:?} should fail");
        assert!(o.stdout.is_empty(), "{args:?} printed to stdout");
        assert!(stderr(&o).contains(expected), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn analyse_prints_every_move_and_writes_the_json_report() {
    let game = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/games/fics-1934587.bpgn");
    let json = std::env::temp_dir().join(format!("tandem-analyse-{}.json", std::process::id()));
    let o = tandem(&["analyse", game, "--depth", "2", "--json", json.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("A: Bugfish - donkEchess   B: muggg - WEBDubois"), "{out}");
    assert!(out.contains("27A. N@g4#"), "{out}");
    assert!(out.contains("Result 1-0 (from the final position)"), "{out}");
    let text = std::fs::read_to_string(&json).unwrap();
    let _ = std::fs::remove_file(&json);
    assert!(text.contains("\"schema\": 1") && text.contains("\"positions\""), "{text}");
}

#[test]
fn analyse_refuses_bad_input_with_a_message() {
    let game = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/games/fics-1934587.bpgn");
    let garbage = std::env::temp_dir().join(format!("tandem-garbage-{}.bpgn", std::process::id()));
    std::fs::write(&garbage, "1A. e4 1a. e5 2A. Qxf7 {nonsense}\n").unwrap();
    let garbage = garbage.to_str().unwrap().to_string();
    for (args, expected) in [
        (vec!["analyse", "/nonexistent/game.bpgn"], "cannot read"),
        (vec!["analyse", game, "--game", "3"], "holds 1 game(s)"),
        (vec!["analyse", game, "--game", "0"], "holds 1 game(s)"),
        (vec!["analyse", game, "--rules", "bugs"], "unknown preset 'bugs'"),
        (vec!["analyse", game, "--depth", "2", "--movetime", "10"], "cannot be used with"),
        (vec!["analyse", &garbage, "--depth", "1"], "Qxf7"),
    ] {
        let o = tandem(&args);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(stderr(&o).contains(expected), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
    }
    let _ = std::fs::remove_file(&garbage);
}
