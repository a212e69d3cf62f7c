//! Short real matches against the peers of docs/PEERS.md: fairy-stockfish
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

#[test]
fn fsfx_partners_hear_each_other_and_only_each_other() {
    if !peers_present() {
        return;
    }
    let log = common::temp_file("fsfx.log");
    let output = run(&words(&format!(
        "--team1 fsfx --team2 fsfx --rules bughouse,mate=standard --tc 4+0 --games 1 --log {}",
        log.display()
    )));
    assert_no_engine_errors(&output);
    let traffic = std::fs::read_to_string(&log).unwrap();
    // Log lines read `m1 WhiteA fsfx < tellics ptell time 123` (said) and
    // `m1 BlackB fsfx > ptell time 123` (heard).
    let lines_after = |marker: String| -> Vec<String> {
        traffic.lines().filter_map(|l| l.split_once(&marker)).map(|(_, text)| text.to_string()).collect()
    };
    let said = |seat: &str| lines_after(format!(" {seat} fsfx < tellics ptell "));
    let heard = |seat: &str| lines_after(format!(" {seat} fsfx > ptell "));
    for (seat, partner) in [("WhiteA", "BlackB"), ("BlackB", "WhiteA"), ("BlackA", "WhiteB"), ("WhiteB", "BlackA")] {
        let mut unheard = said(partner);
        for text in heard(seat) {
            let at = unheard.iter().position(|t| *t == text);
            assert!(at.is_some(), "{seat} heard '{text}', which its partner {partner} never said");
            unheard.remove(at.unwrap());
        }
        // Only the last few words may still be on their way when the match ends.
        assert!(unheard.len() <= 4, "{partner} said {} messages that {seat} never heard", unheard.len());
        let kinds: Vec<&str> = said(partner).iter().filter_map(|t| t.split_whitespace().next()).map(|w| match w {
            "time" => "time",
            "otim" => "otim",
            _ => "other",
        }).collect();
        assert!(kinds.contains(&"time") && kinds.contains(&"otim"), "{partner} reports its clocks:\n{output}");
    }
}
