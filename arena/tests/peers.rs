//! Short real matches against the peers of shared/PEERS.md: fairy-stockfish
//! (UCI, `UCI_Variant bughouse`) and Sjeng (CECP). Without them these tests
//! say so and pass, unless `TANDEM_REQUIRE_PEERS` is set (as CI does).
//!
//! Longer runs are `#[ignore]`d; run them with
//! `cargo test -p tandem-arena --test peers -- --ignored --nocapture`.

mod common;

use std::path::Path;

use common::{faults_line, run, words};

fn peers_present() -> bool {
    let present = Path::new("/usr/games/fairy-stockfish").exists() && Path::new("/usr/games/sjeng").exists();
    if !present {
        assert!(std::env::var_os("TANDEM_REQUIRE_PEERS").is_none(), "fairy-stockfish and sjeng are required");
        eprintln!("skipped: /usr/games/fairy-stockfish or /usr/games/sjeng is missing");
    }
    present
}

/// No crash, garbage, illegal move or startup failure; time losses are play.
fn assert_no_engine_errors(output: &str) {
    let faults = faults_line(output);
    for bad in ["crash", "garbage", "illegal", "startup", "resignation"] {
        assert!(!faults.contains(bad), "{output}");
    }
    assert!(output.contains("runner errors: 0"), "{output}");
}

#[test]
fn mixed_fsf_and_sjeng_teams_play_bughouse() {
    if !peers_present() {
        return;
    }
    let output = run(&words("--team1 fsf,sjeng --team2 sjeng,fsf --tc 5+0 --games 1"));
    assert_no_engine_errors(&output);
    assert!(output.contains("Matches: 1 finished"), "{output}");
}

#[test]
#[ignore = "a few minutes of real play"]
fn fsf_against_sjeng_teams_at_ten_seconds() {
    if !peers_present() {
        return;
    }
    let output = run(&words("--team1 fsf --team2 sjeng --tc 10+0 --games 6 --repeat"));
    println!("{output}");
    assert_no_engine_errors(&output);
}

#[test]
#[ignore = "a minute of real play"]
fn relay5_with_fsf_and_sjeng() {
    if !peers_present() {
        return;
    }
    let output = run(&words("--rules relay5 --team1 fsf --team2 sjeng --tc 20+0 --games 2 --repeat"));
    println!("{output}");
    assert_no_engine_errors(&output);
}
