//! The partner-board model on constructed two-board positions.

use std::time::Duration;

use tandem_engine::search::{Control, Engine, Limits};
use tandem_engine::team::{ModelSwitches, PartnerMessage, TeamClocks, TeamContext};
use tandem_engine::{parse_fen, Position, Role, Rules};

fn board(fen: &str) -> Position {
    parse_fen(fen, Rules::bughouse()).unwrap()
}

fn best_move(ours: &Position, team: &TeamContext) -> String {
    let engine = Engine::new();
    let limits = Limits { depth: Some(5), multipv: 1, ..Limits::default() };
    let result = engine.search_team(ours, &[], &limits, &Control::new(), team, &mut |_| {});
    result.best.unwrap().to_string()
}

/// We are White on A and can win a knight for a pawn with c4xd5 e6xd5 — but the
/// pawn we give goes to White on B, who mates our partner with P@g7.
const WIN_A_KNIGHT: &str = "4k3/8/4p3/3n4/2P5/8/5PPP/6K1[] w - - 0 1";
const PAWN_MATES_PARTNER: &str = "6nk/7p/7B/8/8/8/8/6K1[] w - - 0 1";

#[test]
fn declines_a_trade_that_hands_the_opponents_partner_a_mating_piece() {
    let ours = board(WIN_A_KNIGHT);
    let off = TeamContext { partner_board: Some(board(PAWN_MATES_PARTNER)), switches: ModelSwitches::OFF, ..Default::default() };
    assert_eq!(best_move(&ours, &off), "c4d5", "on one board the knight is simply won");
    let on = TeamContext { partner_board: Some(board(PAWN_MATES_PARTNER)), ..Default::default() };
    assert_ne!(best_move(&ours, &on), "c4d5", "the recapture would give White on B a mating pawn");
}

#[test]
fn takes_the_knight_when_the_pawn_is_harmless() {
    let ours = board(WIN_A_KNIGHT);
    let harmless = TeamContext { partner_board: Some(board("6nk/7p/8/8/8/8/8/6K1[] w - - 0 1")), ..Default::default() };
    assert_eq!(best_move(&ours, &harmless), "c4d5");
}

/// Black's king is smothered but for one square: a knight in White's hand mates (N@f7).
const KNIGHT_WOULD_MATE: &str = "6rk/6pp/8/8/8/8/8/K7[] w - - 0 1";
/// On B our partner (Black) is about to take a white knight, which then comes to us.
const PARTNER_TAKES_KNIGHT: &str = "4k3/8/3p4/4N3/8/8/8/4K3[] b - - 0 1";

fn advice_with_clocks(ours_s: u64, theirs_s: u64) -> tandem_engine::search::Advice {
    let ours = board(KNIGHT_WOULD_MATE);
    let team = TeamContext {
        partner_board: Some(board(PARTNER_TAKES_KNIGHT)),
        clocks: TeamClocks {
            ours: Some(Duration::from_secs(ours_s)),
            opponent: Some(Duration::from_secs(theirs_s)),
            ..Default::default()
        },
        ..Default::default()
    };
    let engine = Engine::new();
    let limits = Limits { depth: Some(4), multipv: 1, ..Limits::default() };
    let result = engine.search_team(&ours, &[], &limits, &Control::new(), &team, &mut |_| {});
    let score = match result.score.unwrap() {
        tandem_engine::search::Score::Cp(cp) => cp,
        other => panic!("no mate without the knight: {other:?}"),
    };
    engine.advise(&ours, &[], &team, score, 20_000)
}

#[test]
fn sits_for_an_arriving_mating_piece_when_ahead_on_the_clock() {
    let advice = advice_with_clocks(60, 30);
    let sit = advice.sit.expect("waiting for the knight pays");
    assert_eq!(sit.waiting_for, Some(Role::Knight));
    assert!(sit.up_to <= Duration::from_secs(30));
}

#[test]
fn moves_when_behind_on_the_clock() {
    assert_eq!(advice_with_clocks(30, 60).sit, None);
}

#[test]
fn asks_for_the_piece_that_mates() {
    let advice = advice_with_clocks(60, 30);
    let need = advice.messages.iter().find_map(|m| match m {
        PartnerMessage::Need(roles) => Some(roles),
        _ => None,
    });
    assert!(need.expect("a need message").contains(&Role::Knight), "{:?}", advice.messages);
}

#[test]
fn says_dontgive_for_the_piece_that_mates_us() {
    // Black would mate us with N@f2 (smothered king on h1).
    let ours = board("4k3/8/8/8/8/8/6PP/6RK[] w - - 0 1");
    let team = TeamContext { partner_board: Some(board("4k3/8/8/8/8/8/8/4K3[] w - - 0 1")), ..Default::default() };
    let engine = Engine::new();
    let advice = engine.advise(&ours, &[], &team, 0, 20_000);
    let dont = advice.messages.iter().find_map(|m| match m {
        PartnerMessage::DontGive(roles) => Some(roles),
        _ => None,
    });
    assert!(dont.expect("a dontgive message").contains(&Role::Knight), "{:?}", advice.messages);
}

#[test]
fn switches_turn_the_advice_off() {
    let ours = board(KNIGHT_WOULD_MATE);
    let team = TeamContext { partner_board: Some(board(PARTNER_TAKES_KNIGHT)), switches: ModelSwitches::OFF, ..Default::default() };
    let advice = Engine::new().advise(&ours, &[], &team, 0, 5_000);
    assert!(advice.sit.is_none() && advice.messages.is_empty());
}

/// White to move with a queen against a bare king in the corner: Qc7 or Qb6
/// stalemates Black, who then waits for material from the partner board.
const STALEMATE_IN_ONE: &str = "k7/8/8/8/8/8/8/2Q4K[] w - - 0 1";

fn stalemates(team: &TeamContext) -> bool {
    let ours = board(STALEMATE_IN_ONE);
    let best = best_move(&ours, team);
    let mut after = ours.clone();
    after.play(after.parse_move(&best).unwrap());
    after.status() == tandem_engine::Status::Frozen
}

#[test]
fn stalemates_the_opponent_only_when_our_partner_outlasts_it() {
    let secs = |s| Some(Duration::from_secs(s));
    let clocks = TeamClocks { ours: secs(40), opponent: secs(20), partner: secs(20), partner_opponent: secs(40) };
    let even = TeamContext { clocks, ..Default::default() };
    assert!(!stalemates(&even), "frozen is a discount, not a win: keep the queen");
    // Our partner (Black on the other board) sits while Black here is frozen and flags first.
    let partner_outlasts = TeamContext { clocks: TeamClocks { partner: secs(50), ..clocks }, ..Default::default() };
    assert!(stalemates(&partner_outlasts));
    let no_sitting = TeamContext { switches: ModelSwitches { sitting: false, ..Default::default() }, ..partner_outlasts };
    assert!(!stalemates(&no_sitting), "only a team that sits counts on its partner to");
}
