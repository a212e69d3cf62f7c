//! Clocks, flags, frozen players and material flow on a scripted timeline:
//! a table of scripted engines on a virtual clock, so every time is exact.

use std::collections::VecDeque;
use std::time::Duration;

use tandem_arena::clock::TimeControl;
use tandem_arena::matchplay::{play_match, MatchReport, MatchResult, MatchSpec, NoObserver, Team};
use tandem_arena::seats::{FromEngine, SeatEvent, SeatIndex, Seats, ToEngine};
use tandem_engine::{parse_fen, BoardId, Color, Rules, STARTPOS};

/// How a scripted seat answers a move request.
#[derive(Clone)]
enum Player {
    /// Never answers.
    Silent,
    /// Answers after `think` with the next scripted move, or the first legal move.
    Moves { think: Duration, script: VecDeque<&'static str> },
}

fn after(ms: u64) -> Player {
    Player::Moves { think: Duration::from_millis(ms), script: VecDeque::new() }
}

fn scripted(ms: u64, moves: &[&'static str]) -> Player {
    Player::Moves { think: Duration::from_millis(ms), script: moves.iter().copied().collect() }
}

struct ScriptedTable {
    rules: Rules,
    now: Duration,
    players: Vec<Player>,
    queue: Vec<SeatEvent>,
    /// Everything the arbiter sent, with the time.
    sent: Vec<(Duration, SeatIndex, ToEngine)>,
}

impl ScriptedTable {
    fn new(rules: Rules, players: Vec<Player>) -> ScriptedTable {
        ScriptedTable { rules, now: Duration::ZERO, players, queue: Vec::new(), sent: Vec::new() }
    }

    fn move_requests(&self, seat: SeatIndex) -> Vec<Duration> {
        self.sent.iter().filter(|(_, s, m)| *s == seat && matches!(m, ToEngine::Go(_))).map(|(t, _, _)| *t).collect()
    }
}

impl Seats for ScriptedTable {
    fn now(&self) -> Duration {
        self.now
    }

    fn send(&mut self, seat: SeatIndex, message: ToEngine) {
        if let (ToEngine::Go(request), Player::Moves { think, script }) = (&message, &mut self.players[seat]) {
            let text = match script.pop_front() {
                Some(text) => text.to_string(),
                None => {
                    let position = parse_fen(&request.fen, self.rules).expect("the arbiter sends valid FENs");
                    position.legal_moves()[0].to_string()
                }
            };
            self.queue.push(SeatEvent { seat, at: self.now + *think, message: FromEngine::Move(text) });
        }
        self.sent.push((self.now, seat, message));
    }

    fn next_event(&mut self, deadline: Duration) -> Option<SeatEvent> {
        let next =
            self.queue.iter().enumerate().filter(|(_, e)| e.at <= deadline).min_by_key(|(_, e)| e.at).map(|(i, _)| i);
        match next {
            Some(i) => {
                let event = self.queue.remove(i);
                self.now = self.now.max(event.at);
                Some(event)
            }
            None => {
                self.now = self.now.max(deadline);
                None
            }
        }
    }

    fn retire(&mut self, seat: SeatIndex, _restart: bool) {
        self.players[seat] = Player::Silent;
        self.queue.retain(|e| e.seat != seat);
    }
}

fn secs(s: f64) -> Duration {
    Duration::from_secs_f64(s)
}

fn spec(rules: Rules, start: &str, times: [TimeControl; 4]) -> MatchSpec {
    MatchSpec {
        rules,
        start: start.to_string(),
        times: times.to_vec(),
        names: ["wa", "ba", "wb", "bb"].iter().map(|s| s.to_string()).collect(),
        board_key_base: 0,
    }
}

fn two_starts() -> String {
    format!("{STARTPOS} | {STARTPOS}")
}

fn play(spec: &MatchSpec, table: &mut ScriptedTable) -> MatchReport {
    play_match(spec, table, &mut NoObserver).expect("the match is playable")
}

#[test]
fn a_silent_player_flags_at_exactly_zero_while_the_other_board_plays() {
    let tc = TimeControl::seconds(5.0, 0.0);
    let spec = spec(Rules::bughouse(), &two_starts(), [tc; 4]);
    let mut table = ScriptedTable::new(Rules::bughouse(), vec![after(1000), after(1000), Player::Silent, after(0)]);
    let report = play(&spec, &mut table);
    let end_b = report.ends[1].clone().expect("board B ended");
    assert_eq!(end_b.at, secs(5.0));
    assert_eq!(end_b.winner, Some(Color::Black));
    assert!(end_b.reason.contains("WhiteB (wb) lost on time"), "{}", end_b.reason);
    // BlackB is team 1: the first end decides the match.
    assert_eq!(report.result, MatchResult::Won(Team::One));
    assert!(report.ends[0].is_none(), "board A stops when B decides the match");
    // Board A: one move a second, each side charged exactly its thinking time.
    let a_moves: Vec<_> = report.moves.iter().filter(|m| m.board == BoardId::A).collect();
    let clocks: Vec<Duration> = a_moves.iter().map(|m| m.clock_left).collect();
    assert_eq!(clocks[..4], [secs(4.0), secs(4.0), secs(3.0), secs(3.0)]);
    assert_eq!(a_moves.iter().map(|m| m.at).collect::<Vec<_>>()[..4], [secs(1.0), secs(2.0), secs(3.0), secs(4.0)]);
    assert_eq!(report.duration, secs(5.01), "decided one arbiter tick after the flag");
}

#[test]
fn increments_are_added_after_each_move() {
    let tc = TimeControl::seconds(3.0, 1.0);
    let long = TimeControl::seconds(10.0, 0.0);
    let spec = spec(Rules::bughouse(), &two_starts(), [tc, tc, long, long]);
    let mut table = ScriptedTable::new(Rules::bughouse(), vec![after(1500), after(500), Player::Silent, after(0)]);
    let report = play(&spec, &mut table);
    let a: Vec<Duration> = report.moves.iter().filter(|m| m.board == BoardId::A).map(|m| m.clock_left).collect();
    // White: 3 - 1.5 + 1 = 2.5, then 2.5 - 1.5 + 1 = 2.0. Black: 3 - 0.5 + 1 = 3.5, then 4.0.
    assert_eq!(a[..4], [secs(2.5), secs(3.5), secs(2.0), secs(4.0)]);
}

#[test]
fn simultaneous_flags_follow_the_rule() {
    let a = TimeControl::seconds(5.0, 0.0);
    let b = TimeControl::seconds(5.004, 0.0);
    // WhiteA (team 2 wins A) and WhiteB (team 1 wins B) both never move.
    let players = || vec![Player::Silent, after(0), Player::Silent, after(0)];
    let draw_rule = Rules::bughouse();
    let report = play(&spec(draw_rule, &two_starts(), [a, a, b, b]), &mut ScriptedTable::new(draw_rule, players()));
    assert_eq!(report.result, MatchResult::Draw, "{}", report.reason);
    assert!(report.reason.starts_with("simultaneous"), "{}", report.reason);
    let first_wins: Rules = "bughouse,simultaneous=first-wins".parse().unwrap();
    let report = play(&spec(first_wins, &two_starts(), [a, a, b, b]), &mut ScriptedTable::new(first_wins, players()));
    assert_eq!(report.result, MatchResult::Won(Team::Two), "{}", report.reason);
    // 50 ms apart is not simultaneous: the first flag decides under either rule.
    let late = TimeControl::seconds(5.05, 0.0);
    let report =
        play(&spec(draw_rule, &two_starts(), [a, a, late, late]), &mut ScriptedTable::new(draw_rule, players()));
    assert_eq!(report.result, MatchResult::Won(Team::Two));
}

#[test]
fn both_boards_are_played_out_under_match_end_both() {
    let rules = Rules::tandem();
    let tc = TimeControl::seconds(4.0, 0.0);
    let short = TimeControl::seconds(2.0, 0.0);
    // WhiteA never moves and flags at 2 s (team 2 wins A); BlackB never moves and flags at 4 s (team 2 wins B).
    let players = vec![Player::Silent, after(0), after(10), Player::Silent];
    let report = play(&spec(rules, &two_starts(), [short, tc, tc, tc]), &mut ScriptedTable::new(rules, players));
    assert_eq!(report.ends[0].as_ref().map(|e| e.at), Some(secs(2.0)));
    assert_eq!(report.ends[1].as_ref().map(|e| e.at), Some(secs(4.01)));
    assert_eq!(report.result, MatchResult::Won(Team::Two));
}

#[test]
fn a_frozen_player_waits_with_its_clock_running_until_material_arrives() {
    // Board A: White is in check from the a8 bishop with no legal move, but a
    // dropped piece could block the diagonal: frozen under the bughouse rules.
    let frozen = "b3k1r1/8/8/8/8/8/1r6/7K[] w - - 0 1";
    let start = format!("{frozen} | {STARTPOS}");
    let rules = Rules::bughouse();
    let tc = TimeControl::seconds(10.0, 0.0);
    // Board B: 1. e4 d5 2. d3 dxe4 — BlackB (team 1) captures a pawn for WhiteA at 4 s.
    let players = vec![
        scripted(500, &["P@d5"]),
        after(100),
        scripted(1000, &["e2e4", "d2d3", "g1f3"]),
        scripted(1000, &["d7d5", "d5e4", "g8f6"]),
    ];
    let mut table = ScriptedTable::new(rules, players);
    let report = play(&spec(rules, &start, [tc; 4]), &mut table);
    // WhiteA is asked only once the pawn has arrived, and the wait cost it 4 s.
    assert_eq!(table.move_requests(0).first(), Some(&secs(4.0)));
    let drop = report.moves.iter().find(|m| m.board == BoardId::A).expect("WhiteA moved");
    assert_eq!((drop.uci.as_str(), drop.at, drop.clock_left), ("P@d5", secs(4.5), secs(5.5)));
    // The pawn was announced to both players of board A the moment it was captured.
    let announced: Vec<(Duration, SeatIndex)> = table
        .sent
        .iter()
        .filter(|(_, _, m)| matches!(m, ToEngine::Reserves { .. }))
        .map(|(t, s, _)| (*t, *s))
        .collect();
    assert!(announced.contains(&(secs(4.0), 0)) && announced.contains(&(secs(4.0), 1)), "{announced:?}");
}

#[test]
fn one_board_matches_use_two_seats() {
    let rules = Rules::crazyhouse();
    let tc = TimeControl::seconds(2.0, 0.0);
    let spec = MatchSpec {
        rules,
        start: STARTPOS.to_string(),
        times: vec![tc, tc],
        names: vec!["w".into(), "b".into()],
        board_key_base: 0,
    };
    let mut table = ScriptedTable::new(rules, vec![after(100), Player::Silent]);
    let report = play_match(&spec, &mut table, &mut NoObserver).unwrap();
    assert_eq!(report.result, MatchResult::Won(Team::One));
    assert_eq!(report.ends[0].as_ref().map(|e| e.at), Some(secs(2.1)));
}

/// French rule 9: WhiteA takes a knight (b2xe5), BlackB drops it at once and
/// mates on board B (N@f2#), while BlackA, to move on A, has a mate in one
/// (Qxg2#, the bishop on d5 guarding g2). Without the bishop there is no mate
/// in one on A and the first mate wins.
fn rule_nine(rules: &str, guard: bool) -> MatchReport {
    let rules: Rules = rules.parse().unwrap();
    let board_a = if guard { "k7/8/8/3bn3/8/5q2/1B4PP/7K[] w - - 0 1" } else { "k7/8/8/4n3/8/5q2/1B4PP/7K[] w - - 0 1" };
    let start = format!("{board_a} | 6k1/8/8/8/8/8/6PP/6RK[] b - - 0 1");
    let tc = TimeControl::seconds(60.0, 0.0);
    let spec = spec(rules, &start, [tc; 4]);
    let players = vec![scripted(100, &["b2e5"]), scripted(1000, &["f3g2"]), after(100), scripted(300, &["N@f2"])];
    let mut table = ScriptedTable::new(rules, players);
    play(&spec, &mut table)
}

#[test]
fn french_rule_nine_draws_a_mate_made_with_a_piece_just_captured_when_the_capturers_opponent_mates_next() {
    let report = rule_nine("french", true);
    assert_eq!(report.result, MatchResult::Draw, "{}", report.reason);
    assert!(report.reason.contains("French rule 9"), "{}", report.reason);
    // No mate in one on board A: BlackB's mate wins for team 1.
    let report = rule_nine("french", false);
    assert_eq!(report.result, MatchResult::Won(Team::One), "{}", report.reason);
    // Rule 9' (first-wins) keeps the first mate.
    let report = rule_nine("french,simultaneous=first-wins", true);
    assert_eq!(report.result, MatchResult::Won(Team::One), "{}", report.reason);
}
