//! Scripted CECP (xboard) sessions against the real binary: the handshake,
//! playing, time controls, bughouse through an ICS, and every error path.

mod common;

use std::time::Duration;

use common::Tandem;

/// Sends `line` and returns what the engine said before answering `ping`.
fn say(t: &mut Tandem, line: &str) -> Vec<String> {
    t.exchange(line, "ping 99", "pong 99")
}

fn fen(t: &mut Tandem) -> String {
    let shown = say(t, "d");
    shown
        .iter()
        .find_map(|l| l.strip_prefix("# fen "))
        .unwrap_or_else(|| panic!("no fen in {shown:?}"))
        .to_string()
}

fn engine_move(t: &mut Tandem) -> String {
    let line = t.expect_prefix("move ");
    line["move ".len()..].to_string()
}

/// An engine in force mode with the given variant.
fn xboard(variant: &str) -> Tandem {
    let mut t = Tandem::start();
    t.send("xboard");
    t.send("protover 2");
    let features = t.read_until(|l| l.contains("done=1"));
    assert!(features.iter().any(|l| l.contains("variants=\"normal,crazyhouse,bughouse\"")), "{features:?}");
    for line in ["new", &format!("variant {variant}"), "force"] {
        assert_eq!(say(&mut t, line), Vec::<String>::new(), "{line}");
    }
    t
}

#[test]
fn handshake_and_a_game_with_usermove_and_bare_moves() {
    let mut t = xboard("crazyhouse");
    say(&mut t, "level 0 0:30 0");
    say(&mut t, "post");
    assert_eq!(say(&mut t, "usermove e2e4"), Vec::<String>::new(), "force mode: no reply");
    say(&mut t, "d7d5");
    say(&mut t, "time 3000");
    say(&mut t, "otim 3000");
    t.send("go");
    let lines = t.read_until(|l| l.starts_with("move "));
    let thinking = lines.iter().find(|l| l.starts_with("1 ")).unwrap_or_else(|| panic!("no thinking output: {lines:?}"));
    assert!(thinking.split_whitespace().count() >= 5, "{thinking}");
    // The engine plays White now: our move for Black makes it answer.
    let first = lines.last().cloned().unwrap_or_default();
    assert!(fen(&mut t).contains(" b "), "{first} was played on the board");
    let reply = say(&mut t, "nopost");
    assert!(reply.is_empty());
    let black_move = if first == "move e4d5" { "d8d5" } else { "e7e6" };
    t.send(&format!("usermove {black_move}"));
    let second = engine_move(&mut t);
    assert!(second.len() >= 4);
    assert!(fen(&mut t).contains(" b "));
    say(&mut t, "result 1-0 {resign}");
    assert_eq!(t.lines_within(Duration::from_millis(100)), Vec::<String>::new());
    t.send("quit");
    assert!(t.wait_exit(Duration::from_secs(2)).is_some_and(|s| s.success()));
}

#[test]
fn time_controls_st_sd_and_move_now() {
    let mut t = xboard("normal");
    say(&mut t, "sd 2");
    t.send("go");
    assert!(engine_move(&mut t).len() >= 4);
    say(&mut t, "force");
    say(&mut t, "new");
    say(&mut t, "st 30");
    t.send("go");
    t.lines_within(Duration::from_millis(100));
    t.send("?");
    let m = engine_move(&mut t);
    assert!(m.len() >= 4, "{m}");
    say(&mut t, "force");
    say(&mut t, "level 40 0:02 1");
    say(&mut t, "time 200");
    t.send("go");
    assert!(engine_move(&mut t).len() >= 4);
}

#[test]
fn every_malformed_input_is_an_error_and_leaves_the_state_intact() {
    let mut t = xboard("crazyhouse");
    say(&mut t, "usermove e2e4");
    let before = fen(&mut t);
    for (line, expected) in [
        ("frobnicate", "Error (unknown command): frobnicate"),
        ("usermove e2e5", "Illegal move (illegal move): e2e5"),
        ("usermove xyz", "Illegal move (malformed move): xyz"),
        ("e7e4", "Illegal move (illegal move): e7e4"),
        ("usermove", "Error ('usermove' needs one move): usermove"),
        ("level 40 5", "Error ('level' expects MPS BASE INC"),
        ("level x 5 0", "Error ('level MPS' expects a whole number"),
        ("st -1", "Error ('st' must be between 0 and 86400 seconds): st -1"),
        ("sd 0", "Error ('sd' must be between 1 and 255, not 0): sd 0"),
        ("time abc", "Error ('time' expects a whole number"),
        ("memory 0", "Error ('memory' must be between 1 and 65536"),
        ("cores 1000", "Error ('cores' must be between 1 and 256"),
        ("variant suicide", "Error (unsupported variant 'suicide'"),
        ("setboard 8/8/8 w - - 0 1", "Error (invalid FEN board"),
        ("setboard", "Error ('setboard' needs a FEN): setboard"),
        ("holding [K] []", "Error (holding: 'K' is not a piece that can be held)"),
        ("holding P p", "Error ('holding' expects '[WHITE] [BLACK]'"),
        ("ptell need king", "Error ('ptell need': 'k' is not a piece letter"),
        ("ping", "Error ('ping' needs one number): ping"),
        ("protover x", "Error ('protover' expects a whole number"),
        ("option EvalFile=/no/such.nnue", "Error (cannot read EvalFile '/no/such.nnue'"),
        ("option Use NNUE=maybe", "Error (option 'Use NNUE' expects"),
    ] {
        let reply = say(&mut t, line);
        assert!(reply.iter().any(|l| l.starts_with(expected)), "'{line}': expected '{expected}', got {reply:?}");
        assert_eq!(fen(&mut t), before, "state changed by '{line}'");
    }
    t.send_bytes(b"\xff\xfe\x00garbage\n");
    let reply = say(&mut t, "d");
    assert!(reply[0].starts_with("Error (unknown command): "), "{reply:?}");
    let mut huge = vec![b'y'; 100_000];
    huge.push(b'\n');
    t.send_bytes(&huge);
    let reply = say(&mut t, "d");
    assert!(reply[0].starts_with("Error (line of 100000 bytes ignored"), "{reply:?}");
    assert_eq!(fen(&mut t), before);
}

#[test]
fn setboard_undo_and_remove() {
    let mut t = xboard("crazyhouse");
    say(&mut t, "setboard r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR[Nn] w KQkq - 0 1");
    say(&mut t, "usermove N@e4");
    say(&mut t, "usermove N@d5");
    assert!(fen(&mut t).starts_with("r1bqkbnr/pppppppp/8/3n4/4N3/"));
    say(&mut t, "undo");
    assert!(fen(&mut t).starts_with("r1bqkbnr/pppppppp/8/8/4N3/8/PPPPPPPP/R1BQKBNR[n] b"));
    say(&mut t, "usermove N@d5");
    say(&mut t, "remove");
    assert_eq!(fen(&mut t), "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR[Nn] w KQkq - 0 1");
    let reply = say(&mut t, "undo");
    assert_eq!(reply, vec!["Error (no move to take back): undo"]);
}

#[test]
fn the_engine_claims_the_mate_it_gives() {
    let mut t = xboard("normal");
    say(&mut t, "setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    say(&mut t, "sd 3");
    t.send("go");
    assert_eq!(engine_move(&mut t), "a1a8");
    assert_eq!(t.expect_prefix("1-0"), "1-0 {White mates}");
}

#[test]
fn bughouse_holding_partner_and_ptell() {
    let mut t = xboard("bughouse");
    t.send("option Team Messages=1");
    say(&mut t, "setboard 4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
    let greeting = say(&mut t, "partner alice");
    assert!(greeting[0].starts_with("tellics ptell Hello, I am tandem"), "{greeting:?}");
    say(&mut t, "holding [QN] [p]");
    assert_eq!(fen(&mut t), "4k3/8/8/8/8/8/8/4K3[QNp] w - - 0 1");
    // The named arrival is added to what we hold now.
    say(&mut t, "holding [] [] BR");
    assert_eq!(fen(&mut t), "4k3/8/8/8/8/8/8/4K3[QNrp] w - - 0 1");
    assert_eq!(say(&mut t, "ptell what now"), vec!["tellics ptell sorry, I did not understand that"]);
    // Once a game: a partner bot that answers us in kind must not start an endless exchange.
    assert!(say(&mut t, "ptell sorry, I did not understand that").is_empty());
    say(&mut t, "sd 2");
    // The answer to `sit` is the truth: level clocks (no `time`/`otim` yet) give no lead to sit on …
    assert_eq!(say(&mut t, "ptell sit"), vec!["tellics ptell sorry, I cannot sit now: I am not ahead on the clock"]);
    // … and with `Team Messages` off we take no requests at all.
    say(&mut t, "option Team Messages=0");
    let reply = say(&mut t, "ptell sit");
    assert_eq!(reply, vec!["tellics ptell sorry, I do not sit: I do not take requests (my option Team Messages is off)"]);
    say(&mut t, "option Team Messages=1");
    // We sit while our time lead lasts: 60 s against 30 s allows a quarter of our clock.
    say(&mut t, "time 6000");
    say(&mut t, "otim 3000");
    let reply = say(&mut t, "ptell sit");
    assert_eq!(reply, vec!["tellics ptell ok, I sit until you say go, while my time lead lasts (about 15 s now)"]);
    t.send("go");
    t.expect_prefix("# sitting");
    assert!(t.lines_within(Duration::from_millis(200)).is_empty(), "no move while sitting");
    t.send("ptell go");
    assert!(engine_move(&mut t).len() >= 4);
    say(&mut t, "partner");
    assert!(!say(&mut t, "d").iter().any(|l| l.starts_with("# partner")));
}

#[test]
fn partners_who_read_boards_and_clocks_are_told_them() {
    let mut t = xboard("bughouse");
    say(&mut t, "partner alice");
    say(&mut t, "time 6000");
    say(&mut t, "otim 5000");
    assert!(say(&mut t, "usermove e2e4").is_empty());
    // We play Black (obsolete `white`: no search starts). A partner who has
    // not introduced itself hears nothing of our board.
    assert!(say(&mut t, "white").is_empty());
    // Another tandem introduces itself (no apology: its greeting is vocabulary).
    let greeting = "Hello, I am tandem. I understand: sit, go, time <cs>, otim <cs>, board <fen>, help";
    let told = say(&mut t, &format!("ptell {greeting}"));
    assert_eq!(told[0], "tellics ptell board rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1");
    // We are to move: our clock runs, the opponent's does not.
    let ours: u64 = told[1].strip_prefix("tellics ptell time ").expect("our clock").parse().unwrap();
    assert!((5_000..=6_000).contains(&ours), "{told:?}");
    assert_eq!(told[2], "tellics ptell otim 5000");
    assert!(say(&mut t, "d").contains(&"# partner reads sit, go, time, otim, board, help".to_string()));
    // An engine's free text is commentary: no apology.
    assert!(say(&mut t, "ptell ok, I sit until you say go").is_empty());
    // Each move on our board and each change of our hand is told.
    let told = say(&mut t, "holding [] [q]");
    assert!(told[0].starts_with("tellics ptell board rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[q] b"), "{told:?}");
    // The partner's board and clocks become the model's partner board (shown by `d`).
    say(&mut t, "ptell board 6k1/8/8/8/8/8/8/6K1[R] w - - 0 30");
    say(&mut t, "ptell time 1234");
    say(&mut t, "ptell otim 4321");
    let shown = say(&mut t, "d");
    let team = shown.iter().find(|l| l.starts_with("# team ")).unwrap_or_else(|| panic!("{shown:?}"));
    assert!(team.contains("partner_board 6k1/8/8/8/8/8/8/6K1[R]_w_-_-_0_30"), "{team}");
    // We play Black on A, so the partner is White on B and its clock runs (White to move there).
    assert!(team.contains(" partner_opponent 43210 "), "{team}");
    let partner: u64 = team.split(" partner ").nth(1).and_then(|r| r.split(' ').next()).unwrap().parse().unwrap();
    assert!((11_000..=12_340).contains(&partner), "{team}");
    // A board that does not hold is refused and the last one kept.
    let refused = say(&mut t, "ptell board 8/8 w");
    assert!(refused[0].starts_with("Error (the partner's board '8/8 w': invalid FEN"), "{refused:?}");
    assert!(say(&mut t, "d").iter().any(|l| l.contains("partner_board 6k1/8/8/8/8/8/8/6K1[R]")));
    // Fairy-Stockfish's handshake: it reads clocks, not boards.
    say(&mut t, "partner fsf");
    let told = say(&mut t, "ptell partner Fairy-Stockfish is an engine. Ask it 'help' for supported commands.");
    assert!(told.iter().all(|l| l.starts_with("tellics ptell time ") || l.starts_with("tellics ptell otim ")), "{told:?}");
    assert_eq!(told.len(), 2, "{told:?}");
}

#[test]
fn holding_mid_search_restarts_with_exactly_one_move() {
    let mut t = xboard("bughouse");
    say(&mut t, "setboard 4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
    say(&mut t, "st 0.4");
    say(&mut t, "post");
    t.send("go");
    t.expect_prefix("1 ");
    say(&mut t, "holding [Q] []");
    say(&mut t, "holding [QR] []");
    let m = engine_move(&mut t);
    assert!(m.len() >= 4, "{m}");
    let after = t.lines_within(Duration::from_millis(700));
    assert!(!after.iter().any(|l| l.starts_with("move ")), "a second move: {after:?}");
}

#[test]
fn a_frozen_engine_waits_for_material_then_moves() {
    let mut t = xboard("bughouse");
    t.send("option Team Messages=1");
    say(&mut t, "partner bob");
    say(&mut t, "setboard R6k/6pp/8/8/8/8/8/K7[] b - - 0 1");
    say(&mut t, "sd 2");
    t.send("go");
    t.expect_prefix("# no legal move yet");
    let need = t.expect_prefix("tellics ptell need");
    assert!(need.len() > "tellics ptell need ".len());
    t.send("holding [] [n]");
    let m = engine_move(&mut t);
    assert!(m.starts_with("N@"), "{m}");
}

#[test]
fn quit_mid_search_and_end_of_input() {
    let mut t = xboard("normal");
    say(&mut t, "st 60");
    t.send("go");
    t.lines_within(Duration::from_millis(50));
    t.send("quit");
    assert!(t.wait_exit(Duration::from_millis(800)).is_some_and(|s| s.success()));
    let mut t = xboard("normal");
    t.close_input();
    assert!(t.wait_exit(Duration::from_secs(2)).is_some_and(|s| s.success()));
}

#[test]
fn the_partner_vocabulary_move_now_move_and_help() {
    let mut t = xboard("bughouse");
    say(&mut t, "partner bob");
    let help = say(&mut t, "ptell help");
    assert_eq!(help, vec![format!("tellics ptell I understand: {}", tandem_engine::team::VOCABULARY)]);
    // `move` alone with nothing to cut short: nothing to do.
    assert_eq!(say(&mut t, "ptell move"), Vec::<String>::new());
    // `move` while thinking: the search's best move, now.
    say(&mut t, "st 60");
    say(&mut t, "post");
    t.send("go");
    t.expect_prefix("2 ");
    let asked = std::time::Instant::now();
    t.send("ptell move");
    let m = engine_move(&mut t);
    assert!(m.len() >= 4 && asked.elapsed() < Duration::from_secs(5), "{m} after {:?}", asked.elapsed());
    // `move <m>` when it is not our turn (the opponent is to move): only kept.
    let before = fen(&mut t);
    assert_eq!(say(&mut t, "ptell move e7e5"), Vec::<String>::new());
    assert_eq!(fen(&mut t), before);
    // `move <m>` while we think: that move is played at once, and only it.
    say(&mut t, "nopost");
    say(&mut t, "force");
    say(&mut t, "new");
    say(&mut t, "variant bughouse");
    say(&mut t, "st 60");
    t.send("go");
    t.lines_within(Duration::from_millis(50));
    t.send("ptell move g1f3");
    assert_eq!(engine_move(&mut t), "g1f3");
    assert!(fen(&mut t).starts_with("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R[] b"));
    assert!(!t.lines_within(Duration::from_millis(300)).iter().any(|l| l.starts_with("move ")), "a second move");
    // An illegal suggestion on our turn is kept, not played; the search goes on.
    t.send("usermove e7e5");
    t.lines_within(Duration::from_millis(50));
    assert!(say(&mut t, "ptell move e2e5").is_empty());
    say(&mut t, "?");
    assert!(engine_move(&mut t).len() >= 4);
    // A move held for the partner's `sit` goes out on `move`.
    say(&mut t, "option Team Messages=1");
    say(&mut t, "force");
    say(&mut t, "setboard 4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
    say(&mut t, "sd 2");
    say(&mut t, "time 6000");
    say(&mut t, "otim 3000");
    say(&mut t, "ptell sit");
    t.send("go");
    t.expect_prefix("# sitting");
    t.send("ptell move");
    assert!(engine_move(&mut t).starts_with("e1"));
}

fn rules(t: &mut Tandem) -> String {
    let shown = say(t, "d");
    shown.iter().find_map(|l| l.strip_prefix("# rules ")).unwrap_or_else(|| panic!("no rules in {shown:?}")).to_string()
}

#[test]
fn the_rules_option_says_which_rules_a_variant_means() {
    let mut t = Tandem::start();
    t.send("xboard");
    t.send("protover 2");
    let features = t.read_until(|l| l.contains("done=1"));
    assert!(features.contains(&"feature option=\"Rules -string <empty>\"".to_string()), "{features:?}");
    say(&mut t, "new");
    say(&mut t, "variant bughouse");
    say(&mut t, "force");
    assert_eq!(rules(&mut t), "bughouse");
    // Applied to the game in progress: a back-rank check that a dropped piece
    // could block is mate under standard rules, not a wait for material.
    assert_eq!(say(&mut t, "option Rules=mate=standard"), Vec::<String>::new());
    assert_eq!(rules(&mut t), "bughouse,mate=standard");
    say(&mut t, "setboard R6k/6pp/8/8/8/8/8/K7[] b - - 0 1");
    say(&mut t, "sd 2");
    t.send("go");
    assert_eq!(t.expect_prefix("1-0"), "1-0 {White mates}");
    // … and to every following `new` and `variant`.
    say(&mut t, "new");
    assert_eq!(rules(&mut t), "chess");
    say(&mut t, "variant bughouse");
    assert_eq!(rules(&mut t), "bughouse,mate=standard");
    say(&mut t, "option Rules=tandem,promotion=steal");
    assert_eq!(rules(&mut t), "tandem,promotion=steal");
    // Bad values are refused with what is valid, and change nothing.
    say(&mut t, "force");
    let before = fen(&mut t);
    for (line, expected) in [
        ("option Rules=mate=maybe", "invalid value 'maybe' for rules option 'mate' (expected one of standard, potential)"),
        ("option Rules=frobnicate=1", "unknown rules option 'frobnicate' (expected one of drop_checks, pawn_drops"),
        ("option Rules=promotion=standard", "promotion=standard is for chess only"),
    ] {
        let reply = say(&mut t, line);
        assert!(reply.len() == 1 && reply[0].starts_with("Error (rules '") && reply[0].contains(expected), "{line}: {reply:?}");
        assert_eq!(rules(&mut t), "tandem,promotion=steal", "{line}");
        assert_eq!(fen(&mut t), before, "{line}");
    }
    // Overrides that fit chess but not a variant with drops refuse that variant.
    say(&mut t, "option Rules=<empty>");
    say(&mut t, "new");
    say(&mut t, "force");
    say(&mut t, "option Rules=promotion=standard");
    let reply = say(&mut t, "variant crazyhouse");
    assert!(reply.len() == 1 && reply[0].contains("promotion=standard is for chess only"), "{reply:?}");
    assert_eq!(rules(&mut t), "chess");
    say(&mut t, "option Rules=");
    say(&mut t, "variant crazyhouse");
    assert_eq!(rules(&mut t), "crazyhouse");
}

/// A thinking line `depth score time nodes pv…`, split: (depth, score, pv).
fn thinking(line: &str) -> Option<(u32, i64, Vec<String>)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let depth = words.first()?.parse().ok()?;
    let score = words.get(1)?.parse().ok()?;
    Some((depth, score, words.iter().skip(4).map(|w| w.to_string()).collect()))
}

/// Reads thinking output until a line of at least `depth` (returns it);
/// a `move` on the way fails the test: analysis plays nothing.
fn analysis_line(t: &mut Tandem, depth: u32) -> (i64, Vec<String>) {
    let lines = t.read_until(|l| l.starts_with("move ") || thinking(l).is_some_and(|(d, _, _)| d >= depth));
    let last = lines.last().cloned().unwrap_or_default();
    assert!(!last.starts_with("move "), "analysis played a move: {lines:?}");
    let (_, score, pv) = thinking(&last).unwrap_or_else(|| panic!("{lines:?}"));
    (score, pv)
}

#[test]
fn analysis_mode_follows_the_position_until_exit() {
    let mut t = Tandem::start();
    t.send("xboard");
    t.send("protover 2");
    let features = t.read_until(|l| l.contains("done=1"));
    assert!(features[0].contains(" analyze=1 "), "{features:?}");
    say(&mut t, "new");
    say(&mut t, "variant crazyhouse");
    say(&mut t, "force");
    say(&mut t, "setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    // Thinking output comes without `post`, in CECP's form; mate scores as 100000 + moves.
    t.send("analyze");
    let (score, pv) = analysis_line(&mut t, 3);
    assert_eq!((score, pv[0].as_str()), (100_001, "a1a8"), "{pv:?}");
    assert!(say(&mut t, ".").iter().all(|l| !l.starts_with("Error")), "'.' is a status request");
    // Each position change restarts the analysis on the new position: a new depth 1 first.
    let new_analysis = |t: &mut Tandem, line: &str| {
        t.send(line);
        let lines = t.read_until(|l| l.starts_with("move ") || l.starts_with("Error") || l.starts_with("1 "));
        assert!(lines.last().is_some_and(|l| l.starts_with("1 ")), "'{line}' did not restart the analysis: {lines:?}");
        analysis_line(t, 3)
    };
    let (_, pv) = new_analysis(&mut t, "usermove a1a2");
    assert!(["g8", "f7", "g7", "h7"].iter().any(|from| pv[0].starts_with(from)), "Black is to move now: {pv:?}");
    let (score, pv) = new_analysis(&mut t, "undo");
    assert_eq!((score, pv[0].as_str()), (100_001, "a1a8"), "{pv:?}");
    // A piece arrives: a knight in hand mates at once (smothered).
    say(&mut t, "setboard 6rk/6pp/8/8/8/8/8/K7[] w - - 0 1");
    analysis_line(&mut t, 2);
    let (score, pv) = new_analysis(&mut t, "holding [N] []");
    assert_eq!((score, pv[0].as_str()), (100_001, "N@f7"), "{pv:?}");
    let (_, pv) = new_analysis(&mut t, "setboard 4k3/8/8/8/8/8/8/R3K3 b - - 0 1");
    assert!(pv[0].starts_with("e8"), "{pv:?}");
    let (_, pv) = new_analysis(&mut t, "new");
    assert!(matches!(pv[0].as_bytes()[1], b'1' | b'2'), "the start position, White to move: {pv:?}");
    assert!(say(&mut t, "d").contains(&"# engine plays none (analysing)".to_string()));
    // `?` plays nothing while analysing; `exit` ends the analysis without a move.
    say(&mut t, "?");
    say(&mut t, "exit");
    let after = t.lines_within(Duration::from_millis(300));
    assert!(after.is_empty(), "output after exit: {after:?}");
    assert_eq!(fen(&mut t), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    // Out of analysis the engine plays again when told.
    say(&mut t, "sd 2");
    t.send("go");
    assert!(engine_move(&mut t).len() >= 4);
}
