//! Whole runs with the fake engines: faults, both protocols, the bughouse
//! extension, one-board rules, relay5, openings, SPRT, records and Ctrl-C.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{fake, faults_line, run, run_with_stop, score_line, temp_file, words};
use tandem_arena::bpgn::{read_records, record_rules, replay};
use tandem_engine::Rules;

/// Only time forfeits (a player asked with too little time left) may appear.
fn assert_clean(output: &str) {
    let faults = faults_line(output);
    let only_time =
        faults.trim_start_matches("Engine faults: ").split(", ").all(|f| f == "none" || f.ends_with("time forfeit"));
    assert!(only_time, "{output}");
    assert!(output.contains("runner errors: 0"), "{output}");
}

fn command(engines: &[Vec<String>], rest: &str) -> Vec<String> {
    let mut all: Vec<String> = engines.concat();
    all.extend(words(rest));
    all
}

#[test]
fn a_crashing_engine_loses_its_board_and_is_restarted_for_the_next_match() {
    let engines = [fake("crasher", &["--mode=crash", "--after=2"]), fake("steady", &[])];
    let output = run(&command(&engines, "--team1 crasher --team2 steady --tc 3+0 --games 2 --repeat"));
    assert!(output.contains("crashed: exited with code 3"), "{output}");
    assert!(score_line(&output).starts_with("Score of crasher vs steady: 0 - 2 - 0"), "{output}");
    // Both crasher seats may crash before the match is decided; only crashes are listed.
    let faults = faults_line(&output);
    assert!(faults.starts_with("Engine faults: crasher: ") && faults.ends_with(" crash"), "{output}");
    assert!(output.contains("Ptnml(0-2): [1, 0, 0, 0, 0]"), "{output}");
    assert!(output.contains("(won by mate 0-0, flag 0-0, fault 0-2)"), "{output}");
    assert!(output.contains("Won by steady: 0 by mate, 0 on the opponent's flag (0 of them frozen), 2 by fault"), "{output}");
}

#[test]
fn a_hanging_engine_loses_on_time_and_is_killed() {
    let engines = [fake("hanger", &["--mode=hang", "--after=1"]), fake("steady", &["--delay-ms=5"])];
    let started = Instant::now();
    let output = run(&command(&engines, "--team1 steady --team2 hanger --tc 1+0 --games 1"));
    assert!(output.contains("lost on time"), "{output}");
    assert!(score_line(&output).starts_with("Score of steady vs hanger: 1 - 0 - 0"), "{output}");
    assert!(faults_line(&output).contains("time forfeit"), "{output}");
    assert!(output.contains("Won by steady: 0 by mate, 1 on the opponent's flag"), "{output}");
    // The hung engine ignores `quit`: it is killed instead of being waited for.
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn illegal_moves_garbage_and_resignations_lose_the_board() {
    let engines = [
        fake("illegal", &["--mode=illegal", "--after=1"]),
        fake("garbage", &["--mode=garbage"]),
        fake("resigner", &["--mode=resign", "--after=2", "--proto=xboard"]),
        fake("steady", &[]),
    ];
    // Tandem rules play both boards out: each board is lost by its faulty player.
    let output = run(&command(&engines, "--rules tandem --team1 illegal,garbage --team2 resigner,steady --tc 3+0"));
    let faults = faults_line(&output);
    assert!(faults.contains("illegal: 1 illegal move") && faults.contains("garbage: 1 garbage"), "{output}");
    assert!(output.contains("played an illegal move: played 'Q@"), "{output}");
    assert!(output.contains("sent garbage: sent '@@@!!'"), "{output}");
    assert!(score_line(&output).starts_with("Score of illegal+garbage vs resigner+steady: 0 - 1 - 0"), "{output}");
    let engines = [fake("resigner", &["--mode=resign", "--after=2", "--proto=xboard"]), fake("steady", &[])];
    let output = run(&command(&engines, "--team1 resigner --team2 steady --tc 3+0"));
    assert!(faults_line(&output).contains("resigner: ") && output.contains("resigned"), "{output}");
}

#[test]
fn an_engine_that_cannot_start_is_reported_before_the_run() {
    let plan =
        common::parse(&words("--engine name=ghost cmd=/nonexistent/engine --team1 ghost --team2 ghost")).unwrap();
    let mut out = Vec::new();
    let error = tandem_arena::runner::run_plan_with(&plan, &Arc::new(AtomicBool::new(false)), &mut out).unwrap_err();
    assert!(error.contains("engine 'ghost'") && error.contains("cannot start"), "{error}");
}

#[test]
fn uci_and_xboard_engines_play_bughouse_and_every_match_is_recorded() {
    let bpgn = temp_file("mixed.bpgn");
    let engines = [fake("cecp", &["--proto=xboard", "--seed=5"]), fake("uci", &["--seed=9"])];
    let rest = format!("--team1 cecp,uci --team2 uci,cecp --tc 3+0 --games 4 --repeat --bpgn {}", bpgn.display());
    let output = run(&command(&engines, &rest));
    assert_clean(&output);
    assert!(output.contains("runner errors: 0"), "{output}");
    let records = read_records(&std::fs::read_to_string(&bpgn).unwrap()).unwrap();
    assert_eq!(records.len(), 4);
    for record in &records {
        assert!(record.tag("WhiteA").is_some());
        let replayed = replay(record, record_rules(record, Rules::bughouse())).unwrap();
        assert_eq!(replayed.moves.len(), record.moves.len());
        assert!(record.moves.iter().all(|m| m.clock.is_some()), "every move carries its clock");
        assert_ne!(record.result, "*");
        assert_eq!(read_records(&record.to_text()).unwrap()[0], *record);
    }
}

#[test]
fn extension_engines_get_seats_partner_boards_reserves_and_messages() {
    let team1_log = temp_file("team1.log");
    let team2_log = temp_file("team2.log");
    let engines = [
        fake("ext1", &["--extension", "--tell=need_N", "--delay-ms=15", &format!("--record={}", team1_log.display())]),
        fake("ext2", &["--extension", "--delay-ms=15", "--seed=3", &format!("--record={}", team2_log.display())]),
    ];
    let output = run(&command(&engines, "--team1 ext1 --team2 ext2 --tc 4+0 --games 1"));
    assert_clean(&output);
    let team1 = std::fs::read_to_string(&team1_log).unwrap();
    let team2 = std::fs::read_to_string(&team2_log).unwrap();
    for expected in ["bughouse", "seat A white", "seat B black", "partner fen ", " pwtime ", "ptell need_N"] {
        assert!(team1.contains(expected), "team 1 never got '{expected}'");
    }
    assert!(team2.contains("seat A black") && team2.contains("seat B white"));
    assert!(!team2.contains("ptell need_N"), "messages go to the partner only");
    let reserve_pushes = team1.lines().chain(team2.lines()).filter(|l| l.starts_with("reserve ")).count();
    assert!(reserve_pushes > 0, "material arriving during a search is pushed at once");
}

#[test]
fn extension_off_plays_a_plain_uci_engine_that_never_hears_bughouse() {
    let plain_log = temp_file("plain.log");
    let other_log = temp_file("other.log");
    let mut plain = fake("plain", &["--extension", "--delay-ms=10", &format!("--record={}", plain_log.display())]);
    plain.push("extension=off".to_string());
    let engines = [plain, fake("other", &["--extension", "--delay-ms=10", &format!("--record={}", other_log.display())])];
    let output = run(&command(&engines, "--team1 plain --team2 other --tc 3+0 --games 1"));
    assert_clean(&output);
    let plain = std::fs::read_to_string(&plain_log).unwrap();
    for never in ["bughouse", "seat ", "partner fen", "reserve ", "pwtime", "ptell"] {
        assert!(!plain.lines().any(|l| l.starts_with(never) || l.contains(" pwtime ")), "plain engine got '{never}'");
    }
    assert!(plain.contains("position fen ") && plain.contains("go wtime"), "it still played");
    let other = std::fs::read_to_string(&other_log).unwrap();
    assert!(other.lines().any(|l| l == "bughouse"), "the other team keeps its extension");
}

#[test]
fn one_board_rules_play_crazyhouse_and_chess() {
    let engines = [fake("uci", &[]), fake("cecp", &["--proto=xboard"])];
    for rules in ["crazyhouse", "chess"] {
        let output =
            run(&command(&engines, &format!("--rules {rules} --team1 uci --team2 cecp --tc 2+0 --games 2 --repeat")));
        assert_clean(&output);
        assert!(output.contains("Matches: 2 finished"), "{rules}: {output}");
    }
    let error = common::parse(&command(&engines, "--rules crazyhouse --team1 uci,uci")).unwrap_err();
    assert!(error.contains("1 engine(s) per team"), "{error}");
}

#[test]
fn relay5_walks_five_boards_to_a_team_result() {
    let bpgn = temp_file("relay5.bpgn");
    let engines = [fake("a", &["--seed=1"]), fake("b", &["--proto=xboard", "--seed=2"])];
    let rest = format!(
        "--rules relay5 --team1 a --team2 b --tc 2+0 --tc team2=1.5+0 --walking-time 0.01 --games 1 --bpgn {}",
        bpgn.display()
    );
    let output = run(&command(&engines, &rest));
    assert_clean(&output);
    assert!(output.contains("team A ") && output.contains(" team B"), "{output}");
    let records = read_records(&std::fs::read_to_string(&bpgn).unwrap()).unwrap();
    assert_eq!(records.len(), 5, "one record per board");
    for (k, record) in records.iter().enumerate() {
        assert_eq!(record.tag("Board"), Some((k + 1).to_string().as_str()));
        replay(record, Rules::chess()).unwrap();
    }
    // Team B's handicap clock is on Black's side of board 1 and White's of board 2.
    assert_eq!(records[0].tag("BlackTimeControl"), Some("1.5+0"));
    assert_eq!(records[1].tag("WhiteTimeControl"), Some("1.5+0"));
}

#[test]
fn relay5_restarts_a_crashed_player_for_its_next_board() {
    let engines = [fake("crasher", &["--mode=crash", "--after=3"]), fake("steady", &[])];
    let output = run(&command(&engines, "--rules relay5 --team1 crasher --team2 steady --tc 2+0 --games 1"));
    assert!(output.contains("Matches: 1 finished"), "{output}");
    assert!(faults_line(&output).contains("crasher: "), "{output}");
}

#[test]
fn openings_come_from_epd_bfen_and_bpgn_files() {
    let epd = temp_file("book.epd");
    std::fs::write(&epd, "# two openings\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5;\nrnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n").unwrap();
    let bpgn = temp_file("openings-out.bpgn");
    let engines = [fake("f", &[])];
    let rest = format!("--team1 f --team2 f --tc 2+0 --games 2 --openings {} --bpgn {}", epd.display(), bpgn.display());
    run(&command(&engines, &rest));
    let records = read_records(&std::fs::read_to_string(&bpgn).unwrap()).unwrap();
    assert!(records[0].tag("FEN").unwrap().contains("4P3"));
    assert!(records[1].tag("FEN").unwrap().contains("3P4"));
    // BPGN games: their first plies lead to the opening.
    let archive = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/archive.bpgn");
    let plan = common::parse(&command(&engines, &format!("--openings {archive} --opening-plies 8"))).unwrap();
    assert_eq!(plan.openings.len(), 2);
    assert!(plan.openings[0].position.contains('|'));
}

#[test]
fn sprt_stops_the_run_once_decided() {
    let engines = [fake("steady", &[]), fake("resigner", &["--mode=resign"])];
    let output = run(&command(
        &engines,
        "--team1 steady --team2 resigner --tc 2+0 --games 200 --sprt elo0=0 elo1=300 alpha=0.1 beta=0.1",
    ));
    assert!(output.contains("H1 was accepted"), "{output}");
    let played: usize = output.lines().filter(|l| l.starts_with("Match ")).count();
    assert!(played < 200, "{played} matches");
    assert!(output.contains("LLR "), "{output}");
}

#[test]
fn a_stop_request_ends_the_run_with_record_and_summary() {
    let bpgn = temp_file("stopped.bpgn");
    let engines = [fake("slow", &["--delay-ms=300"])];
    let stop = Arc::new(AtomicBool::new(false));
    let stopper = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(1500));
            stop.store(true, Ordering::SeqCst);
        })
    };
    let started = Instant::now();
    let rest = format!("--team1 slow --team2 slow --tc 60+0 --games 10 --bpgn {}", bpgn.display());
    let output = run_with_stop(&command(&engines, &rest), stop);
    stopper.join().unwrap();
    assert!(started.elapsed() < Duration::from_secs(15));
    assert!(output.contains("Interrupted"), "{output}");
    assert!(output.contains("0 finished, 1 unfinished"), "{output}");
    let records = read_records(&std::fs::read_to_string(&bpgn).unwrap()).unwrap();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].result, "*");
    assert!(!records[0].moves.is_empty(), "the moves played before the stop are kept");
}
