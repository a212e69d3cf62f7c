//! The partner-board model through the protocols: the partner board, the four
//! clocks and the partner's requests reach the engine; our messages, sitting
//! and frozen positions; the option switches. Positions are those of
//! tests/tests/team.rs; every search is depth-limited and every wait short.

mod common;

use std::time::{Duration, Instant};

use common::uci::say;
use common::Tandem;

/// Reads up to the `bestmove` line; returns the move and every line before it.
fn search(t: &mut Tandem, go: &str) -> (String, Vec<String>) {
    t.send(go);
    let lines = t.read_until(|l| l.starts_with("bestmove"));
    let best = lines.last().and_then(|l| l.split_whitespace().nth(1)).unwrap_or_default().to_string();
    (best, lines)
}

fn has(lines: &[String], prefix: &str) -> bool {
    lines.iter().any(|l| l.starts_with(prefix))
}

/// The last `score cp` of a search, from its `info` lines.
fn last_cp(lines: &[String]) -> i32 {
    lines
        .iter()
        .rev()
        .find_map(|l| l.split(" score cp ").nth(1)?.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no cp score in {lines:?}"))
}

fn bughouse() -> Tandem {
    let mut t = Tandem::start();
    t.send("uci");
    t.read_until(|l| l == "uciok");
    say(&mut t, "setoption name UCI_Variant value bughouse");
    say(&mut t, "bughouse");
    // Messages are off by default; these tests exercise them.
    say(&mut t, "setoption name Team Messages value true");
    t
}

/// We are White on A and can win a knight for a pawn with c4xd5 e6xd5 — but the
/// pawn we give goes to White on B, who mates our partner with P@g7.
const WIN_A_KNIGHT: &str = "4k3/8/4p3/3n4/2P5/8/5PPP/6K1[] w - - 0 1";
const PAWN_MATES_PARTNER: &str = "6nk/7p/7B/8/8/8/8/6K1[] w - - 0 1";
/// Black's king is smothered but for one square: a knight in White's hand mates (N@f7).
const KNIGHT_WOULD_MATE: &str = "6rk/6pp/8/8/8/8/8/K7[] w - - 0 1";
/// On B our partner (Black) is about to take a white knight, which then comes to us.
const PARTNER_TAKES_KNIGHT: &str = "4k3/8/3p4/4N3/8/8/8/4K3[] b - - 0 1";
const KINGS_ONLY: &str = "4k3/8/8/8/8/8/8/4K3[] w - - 0 1";

#[test]
fn options_are_listed_switched_and_checked() {
    let mut t = Tandem::start();
    t.send("uci");
    let lines = t.read_until(|l| l == "uciok");
    for (name, on) in [
        ("Partner Model", true),
        ("Team Flow", true),
        ("Team Forecast", true),
        ("Team Sitting", true),
        ("Team Messages", false),
        ("Team Pace", false),
    ] {
        let line = format!("option name {name} type check default {on}");
        assert!(lines.contains(&line), "missing {line}: {lines:?}");
    }
    say(&mut t, "bughouse");
    let terms = |t: &mut Tandem| {
        let shown = say(t, "d");
        let team = shown.iter().find(|l| l.starts_with("info string team ")).cloned();
        team.unwrap_or_else(|| panic!("no team line in {shown:?}"))
    };
    assert!(terms(&mut t).ends_with("terms flow,forecast,sitting"));
    assert!(say(&mut t, "setoption name team messages value true").is_empty());
    assert!(terms(&mut t).ends_with("terms flow,forecast,sitting,messages"));
    assert!(say(&mut t, "setoption name team forecast value false").is_empty());
    assert!(terms(&mut t).ends_with("terms flow,sitting,messages"));
    say(&mut t, "setoption name Partner Model value false");
    assert!(terms(&mut t).ends_with("terms none"), "the master switch turns every term off");
    say(&mut t, "setoption name Partner Model value true");
    assert!(terms(&mut t).ends_with("terms flow,sitting,messages"), "the terms keep their own setting");
    let reply = say(&mut t, "setoption name Team Sitting value maybe");
    assert!(reply.iter().any(|l| l.contains("error") && l.contains("true or false")), "{reply:?}");
    let reply = say(&mut t, "setoption name Team Flow");
    assert!(reply.iter().any(|l| l.contains("needs a value")), "{reply:?}");
}

#[test]
fn the_partner_board_keeps_us_from_handing_over_a_mating_pawn() {
    let mut t = bughouse();
    say(&mut t, "seat A white");
    say(&mut t, &format!("position fen {WIN_A_KNIGHT}"));
    say(&mut t, &format!("partner fen {PAWN_MATES_PARTNER}"));
    say(&mut t, "setoption name Partner Model value false");
    let (best, lines) = search(&mut t, "go depth 5");
    assert_eq!(best, "c4d5", "on one board the knight is simply won: {lines:?}");
    say(&mut t, "setoption name Partner Model value true");
    let (best, lines) = search(&mut t, "go depth 5");
    assert_ne!(best, "c4d5", "the recapture gives White on B a mating pawn: {lines:?}");

    // The same game seen from board B (we are White there, our partner Black on
    // A): the BFEN puts the boards where the seat says, and the clocks of `go`
    // reach the engine by seat.
    let mut t = bughouse();
    say(&mut t, "seat B white");
    say(&mut t, &format!("position bfen \"{PAWN_MATES_PARTNER} | {WIN_A_KNIGHT}\""));
    say(&mut t, "debug on");
    let (best, lines) = search(&mut t, "go depth 5 wtime 61000 btime 52000 pwtime 43000 pbtime 34000");
    assert_ne!(best, "c4d5", "{lines:?}");
    let team = lines.iter().find(|l| l.starts_with("info string team ")).expect("debug shows the context");
    assert!(team.contains("partner_board 6nk/7p/7B/8/8/8/8/6K1[]_w"), "{team}");
    // Our partner is Black on A (pbtime), the partner's opponent White on A (pwtime).
    assert!(team.contains("clocks ours 61000 opponent 52000 partner 34000 partner_opponent 43000"), "{team}");
}

#[test]
fn we_ask_for_the_knight_that_mates_and_say_each_thing_once() {
    let mut t = bughouse();
    say(&mut t, &format!("position fen {KNIGHT_WOULD_MATE}"));
    let (_, lines) = search(&mut t, "go depth 4");
    let need = lines.iter().find(|l| l.starts_with("ptell need")).unwrap_or_else(|| panic!("no need: {lines:?}"));
    assert!(need.split_whitespace().any(|p| p == "N"), "{need}");
    // The same advice again is not repeated (the warm hash may change what a
    // second search advises, e.g. add the queen, which is then news).
    let need = need.clone();
    let (_, lines) = search(&mut t, "go depth 4");
    assert!(!lines.contains(&need), "said twice: {lines:?}");
    // `ucinewgame` starts over; with `Team Messages` off nothing is said.
    say(&mut t, "ucinewgame");
    say(&mut t, &format!("position fen {KNIGHT_WOULD_MATE}"));
    say(&mut t, "setoption name Team Messages value false");
    let (_, lines) = search(&mut t, "go depth 4");
    assert!(!has(&lines, "ptell"), "{lines:?}");
}

/// Our board and the partner board where the knight is about to come to us.
fn knight_coming(t: &mut Tandem) {
    say(t, "seat A white");
    say(t, &format!("position fen {KNIGHT_WOULD_MATE}"));
    say(t, &format!("partner fen {PARTNER_TAKES_KNIGHT}"));
}

#[test]
fn we_sit_for_the_coming_knight_when_ahead_and_move_when_it_arrives() {
    let mut t = bughouse();
    knight_coming(&mut t);
    t.send("go depth 4 wtime 60000 btime 30000");
    let lines = t.read_until(|l| l.starts_with("info string sitting: waiting for a knight"));
    assert!(!has(&lines, "bestmove"), "{lines:?}");
    let quiet = t.lines_within(Duration::from_millis(300));
    assert!(!has(&quiet, "bestmove"), "no move while waiting: {quiet:?}");
    assert!(lines.iter().chain(&quiet).any(|l| l == "ptell fast"), "{lines:?} {quiet:?}");
    // The knight arrives: a new search from the new root finds the mate.
    t.send("reserve N");
    let lines = t.read_until(|l| l.starts_with("bestmove"));
    assert_eq!(lines.last().and_then(|l| l.split_whitespace().nth(1)), Some("N@f7"), "{lines:?}");
    let after = t.lines_within(Duration::from_millis(300));
    assert!(!has(&after, "bestmove"), "one bestmove per go: {after:?}");
}

#[test]
fn we_do_not_sit_when_behind_on_the_clock_or_with_sitting_off() {
    let mut t = bughouse();
    knight_coming(&mut t);
    let (best, lines) = search(&mut t, "go depth 4 wtime 30000 btime 60000");
    assert!(!best.is_empty() && !has(&lines, "info string sitting"), "{lines:?}");
    say(&mut t, "setoption name Team Sitting value false");
    let (_, lines) = search(&mut t, "go depth 4 wtime 60000 btime 30000");
    assert!(!has(&lines, "info string sitting"), "{lines:?}");
}

#[test]
fn waiting_ends_with_the_time_lead_or_the_partners_go_or_stop() {
    let mut t = bughouse();
    knight_coming(&mut t);
    // A lead of 6.6 s less the margin (a fifth of our 30 s): we wait 0.6 s at most.
    let started = Instant::now();
    t.send("go depth 4 wtime 30000 btime 23400");
    let lines = t.read_until(|l| l.starts_with("bestmove"));
    assert!(has(&lines, "info string sitting: waiting for a knight"), "{lines:?}");
    assert!(has(&lines, "info string sitting ends: our time lead is used up"), "{lines:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
    // Our partner says `go`: we move.
    t.send("go depth 4 wtime 60000 btime 30000");
    t.read_until(|l| l.starts_with("info string sitting: waiting"));
    t.send("ptell go");
    t.expect_prefix("bestmove");
    // `stop` gives the move at once.
    t.send("go depth 4 wtime 60000 btime 30000");
    t.read_until(|l| l.starts_with("info string sitting: waiting"));
    t.send("stop");
    t.expect_prefix("bestmove");
}

#[test]
fn a_partners_piece_request_reaches_the_search() {
    let mut t = bughouse();
    // Our pawn takes a bishop or a knight; the partner wants the bishop. Each
    // capture is searched alone (`searchmoves`), so the request's effect on its
    // score is measured whichever capture the search prefers.
    say(&mut t, "position fen 4k3/8/8/2b1n3/3P4/8/8/4K3[] w - - 0 1");
    say(&mut t, &format!("partner fen {KINGS_ONLY}"));
    // The hash is cleared before each search: a single thread is then deterministic.
    let scores = |t: &mut Tandem| {
        let mut score_of = |capture: &str| {
            say(t, "setoption name Clear Hash");
            last_cp(&search(t, &format!("go depth 5 searchmoves {capture}")).1)
        };
        (score_of("d4c5"), score_of("d4e5"))
    };
    let (plain_bishop, plain_knight) = scores(&mut t);
    say(&mut t, "ptell need b");
    let shown = say(&mut t, "d");
    assert!(shown.iter().any(|l| l.contains(" need B dontgive - ")), "{shown:?}");
    let (asked_bishop, asked_knight) = scores(&mut t);
    assert!(
        asked_bishop - asked_knight >= plain_bishop - plain_knight + 100,
        "the request makes the bishop worth more: plain {plain_bishop}/{plain_knight}, asked {asked_bishop}/{asked_knight}"
    );
    // `x` cancels it; with `Team Messages` off requests do not reach the engine.
    say(&mut t, "ptell x");
    assert!(say(&mut t, "d").iter().any(|l| l.contains(" need - dontgive - ")));
    say(&mut t, "ptell need b");
    say(&mut t, "setoption name Team Messages value false");
    assert!(say(&mut t, "d").iter().any(|l| l.contains(" need - dontgive - ")));
    assert_eq!(scores(&mut t), (plain_bishop, plain_knight));

    // `dontgive n`: our knight must not be traded off (it would reach the partner's opponent).
    let mut t = bughouse();
    say(&mut t, "position fen 4k3/6p1/5n2/3N4/8/8/8/4K3[] w - - 0 1");
    say(&mut t, &format!("partner fen {KINGS_ONLY}"));
    say(&mut t, "ptell dontgive n");
    say(&mut t, "ptell trades bad");
    assert!(say(&mut t, "d").iter().any(|l| l.contains(" need - dontgive N sit false trades bad ")));
    let (best, lines) = search(&mut t, "go depth 5");
    assert_ne!(best, "d5f6", "{lines:?}");
}

#[test]
fn the_partners_sit_is_obeyed_only_with_messages_on() {
    let mut t = bughouse();
    say(&mut t, "setoption name Team Messages value false");
    say(&mut t, "ptell sit");
    let (_, lines) = search(&mut t, "go depth 2 wtime 60000 btime 30000");
    assert!(!has(&lines, "info string sitting"), "{lines:?}");
    say(&mut t, "setoption name Team Messages value true");
    t.send("go depth 2 wtime 60000 btime 30000");
    t.expect_prefix("info string sitting: the move waits for the partner's 'go'");
    t.send("ptell go");
    t.expect_prefix("bestmove");
}

#[test]
fn only_one_partner_sits() {
    let mut t = bughouse();
    // A pawn in Black's hand mates us (P@g2, covered by the knight): we ask the partner to sit.
    say(&mut t, "position fen 4k3/8/8/8/8/4n3/7P/6NK[] w - - 0 1");
    let (_, lines) = search(&mut t, "go depth 4");
    assert!(lines.contains(&"ptell sit".to_string()), "{lines:?}");
    // The partner asks us to sit too: we withdraw ours, sit, and do not ask again.
    let reply = say(&mut t, "ptell sit");
    assert_eq!(reply, vec!["ptell go"]);
    t.send("go depth 4");
    let lines = t.read_until(|l| l.starts_with("info string sitting"));
    assert!(!lines.contains(&"ptell sit".to_string()), "{lines:?}");
    t.send("ptell go");
    t.expect_prefix("bestmove");
}

/// On B the partner's opponent (White there, our colour) is stalemated by a
/// black queen: it waits for material that only our opponent's captures give.
const PARTNER_OPPONENT_FROZEN: &str = "k7/8/8/8/8/8/2q5/K7[] w - - 0 1";

#[test]
fn we_sit_out_a_frozen_partner_opponent_that_flags_first() {
    let mut t = bughouse();
    say(&mut t, "seat A white");
    say(&mut t, &format!("position fen {KINGS_ONLY}"));
    say(&mut t, &format!("partner fen {PARTNER_OPPONENT_FROZEN}"));
    // It has 1 s to our 30 s: we hold the move until a second after its flag should have fallen.
    let started = Instant::now();
    let (best, lines) = search(&mut t, "go depth 2 wtime 30000 btime 30000 pwtime 1000 pbtime 30000");
    assert!(has(&lines, "info string sitting: the partner's opponent is frozen"), "{lines:?}");
    assert!(has(&lines, "info string sitting ends: the partner's opponent did not flag"), "{lines:?}");
    assert!(!best.is_empty() && started.elapsed() >= Duration::from_millis(1500), "{:?}", started.elapsed());
    // With 28 s against our 30 s the race is too close to sit.
    let (_, lines) = search(&mut t, "go depth 2 wtime 30000 btime 30000 pwtime 28000 pbtime 30000");
    assert!(!has(&lines, "info string sitting"), "{lines:?}");
    // Freed on the partner board (a knight in its hand): we move at once.
    t.send("go depth 2 wtime 30000 btime 30000 pwtime 10000 pbtime 30000");
    t.read_until(|l| l.starts_with("info string sitting: the partner's opponent is frozen"));
    t.send("partner fen k7/8/8/8/8/8/2q5/K7[N] w - - 0 1");
    let lines = t.read_until(|l| l.starts_with("bestmove"));
    assert!(has(&lines, "info string sitting ends: the partner's opponent is no longer frozen"), "{lines:?}");
    say(&mut t, &format!("partner fen {PARTNER_OPPONENT_FROZEN}"));
    say(&mut t, "setoption name Team Sitting value false");
    let (_, lines) = search(&mut t, "go depth 2 wtime 30000 btime 30000 pwtime 1000 pbtime 30000");
    assert!(!has(&lines, "info string sitting"), "{lines:?}");
}

#[test]
fn a_frozen_player_waits_for_material_and_says_so() {
    let mut t = bughouse();
    // In check along the back rank with no move: a dropped piece could block.
    say(&mut t, "position fen R6k/6pp/8/8/8/8/8/K7[] b - - 0 1");
    t.send("go depth 2 wtime 30000 btime 30000");
    let lines = t.read_until(|l| l.starts_with("info string frozen"));
    let need = lines.iter().find(|l| l.starts_with("ptell need")).unwrap_or_else(|| panic!("{lines:?}"));
    assert!(need.contains('N') && !need.contains('P'), "a pawn cannot block on the back rank: {need}");
    assert!(lines.contains(&"ptell dead".to_string()) && lines.contains(&"ptell fast".to_string()), "{lines:?}");
    let quiet = t.lines_within(Duration::from_millis(300));
    assert!(!has(&quiet, "bestmove"), "no resignation while a piece may come: {quiet:?}");
    // A white queen does not help Black: still frozen, nothing new to say.
    let lines = say(&mut t, "reserve Q");
    assert!(!has(&lines, "bestmove") && !has(&lines, "ptell"), "{lines:?}");
    // A black knight does: it blocks on g8.
    t.send("reserve n");
    let lines = t.read_until(|l| l.starts_with("bestmove"));
    assert_eq!(lines.last().map(String::as_str).and_then(|l| l.split_whitespace().nth(1)), Some("N@g8"), "{lines:?}");
    assert_eq!(t.expect_prefix("ptell"), "ptell slow", "the wait is over: the partner may stop hurrying");
    // `stop` while frozen: `bestmove (none)`, as UCI wants a reply.
    say(&mut t, "position fen R6k/6pp/8/8/8/8/8/K7[] b - - 0 1");
    t.send("go depth 2");
    t.expect_prefix("info string frozen");
    t.send("stop");
    assert_eq!(t.expect_prefix("bestmove"), "bestmove (none)");
}

// ---- CECP ---------------------------------------------------------------------

fn xboard_bughouse() -> Tandem {
    let mut t = Tandem::start();
    t.send("xboard");
    t.send("protover 2");
    let features = t.read_until(|l| l.contains("done=1"));
    assert!(features.contains(&"feature option=\"Team Sitting -check 1\"".to_string()), "{features:?}");
    assert!(features.contains(&"feature option=\"Team Messages -check 0\"".to_string()), "{features:?}");
    t.send("variant bughouse");
    // Messages are off by default; these tests exercise them.
    t.send("option Team Messages=1");
    t
}

fn xsay(t: &mut Tandem, line: &str) -> Vec<String> {
    t.exchange(line, "ping 9", "pong 9")
}

#[test]
fn cecp_tells_the_partner_and_honours_the_options() {
    let mut t = xboard_bughouse();
    xsay(&mut t, "partner alice");
    xsay(&mut t, &format!("setboard {KNIGHT_WOULD_MATE}"));
    xsay(&mut t, "sd 4");
    t.send("go");
    let lines = t.read_until(|l| l.starts_with("move "));
    let need = lines.iter().find(|l| l.starts_with("tellics ptell need")).unwrap_or_else(|| panic!("{lines:?}"));
    assert!(need.split_whitespace().any(|p| p == "N"), "{need}");
    // Switched off: the same search says nothing.
    xsay(&mut t, "force");
    xsay(&mut t, &format!("setboard {KNIGHT_WOULD_MATE}"));
    assert!(xsay(&mut t, "option Team Messages=0").is_empty());
    t.send("go");
    let lines = t.read_until(|l| l.starts_with("move "));
    assert!(!has(&lines, "tellics"), "{lines:?}");
    for (line, error) in [("option Team Flow", "expects NAME=VALUE"), ("option Bogus=1", "unknown option"), ("option Team Flow=2", "true or false")] {
        let reply = xsay(&mut t, line);
        assert!(reply.iter().any(|l| l.starts_with("Error") && l.contains(error)), "{line}: {reply:?}");
    }
}

#[test]
fn cecp_frozen_engine_says_need_dead_fast_then_moves_when_material_comes() {
    let mut t = xboard_bughouse();
    xsay(&mut t, "partner bob");
    xsay(&mut t, "sd 3");
    xsay(&mut t, "setboard R6k/6pp/8/8/8/8/8/K7[] b - - 0 1");
    t.send("go");
    let lines = t.read_until(|l| l == "tellics ptell fast");
    assert!(has(&lines, "# no legal move yet"), "{lines:?}");
    assert!(has(&lines, "tellics ptell need") && lines.contains(&"tellics ptell dead".to_string()), "{lines:?}");
    t.send("holding [] [n]");
    assert_eq!(t.expect_prefix("move "), "move N@g8");
    assert_eq!(t.expect_prefix("tellics ptell"), "tellics ptell slow");
}
