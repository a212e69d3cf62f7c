//! The partner-board model: play for the team, not for one board.
//!
//! A capture on our board hands the piece to our partner; a piece we lose goes
//! to the opponent's partner, who plays against our partner. Pieces also arrive
//! from the partner board while we play. This module turns what the front end
//! knows about the other board (its position with reserves, the four clocks,
//! the partner's requests) into numbers the search uses:
//!
//! - [`FlowValues`]: for each role, what our team gains when our partner gets
//!   it, and what it loses when the partner's opponent gets it. They come from
//!   the evaluation of the partner board with the piece added to a hand, plus a
//!   large term when the piece would let a side drop a mate there. The search
//!   adds them along the line for every capture (so trades become good when
//!   our partner attacks, and a piece that mates our partner is never given).
//! - [`Expected`] arrivals: the piece the side to move on the partner board is
//!   about to capture (a non-losing capture, most valuable victim), and with a
//!   lower probability the one the other side would capture next. The
//!   evaluation counts expected pieces as part of the hand, king danger included.
//! - Sitting: [`sit_allowance`] says how long we may wait for a piece without
//!   giving up our time lead; [`crate::search::Engine::advise`] searches the
//!   position with the piece in hand to see whether waiting pays.
//! - Waiting games: a side frozen on our board loses on time when the player
//!   who can sit it out clocks more than it ([`sits_out`]); the search scores
//!   such a position as lost, not as the usual frozen discount.
//!
//! Every term can be switched off ([`ModelSwitches`]), so its worth is measured.

mod message;
mod requests;

pub use message::{PartnerMessage, VOCABULARY, VOCABULARY_INTRO};
pub use requests::StandingRequests;

use std::time::Duration;

use shakmaty::{Color, Role};

use crate::position::Position;
use crate::reserve::HAND_ROLES;
use crate::search::eval::{hand_value, white_score, Expected};
use crate::search::see::see_ge;
use crate::status::Status;

/// Which parts of the model are on (all by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelSwitches {
    pub flow: bool,
    pub forecast: bool,
    pub sitting: bool,
    pub messages: bool,
}

impl Default for ModelSwitches {
    fn default() -> ModelSwitches {
        ModelSwitches { flow: true, forecast: true, sitting: true, messages: true }
    }
}

impl ModelSwitches {
    pub const OFF: ModelSwitches = ModelSwitches { flow: false, forecast: false, sitting: false, messages: false };
}

/// The partner's view of exchanges (`trades good|bad`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trades {
    Good,
    Bad,
}

/// What the partner asked of us.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartnerRequests {
    /// Roles the partner wants (bit `1 << role`).
    pub need: u8,
    /// Roles that must not reach the partner's opponent (bit `1 << role`).
    pub dont_give: u8,
    /// The partner asked us to sit (until `go`).
    pub sit: bool,
    pub trades: Option<Trades>,
    /// The partner asked us to play fast (`fast`), or told us it is frozen in check (`dead`).
    pub fast: bool,
}

impl PartnerRequests {
    pub fn needs(&self, role: Role) -> bool {
        self.need & (1 << role as u8) != 0
    }

    pub fn forbids(&self, role: Role) -> bool {
        self.dont_give & (1 << role as u8) != 0
    }
}

/// Remaining times of the four players.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TeamClocks {
    pub ours: Option<Duration>,
    pub opponent: Option<Duration>,
    pub partner: Option<Duration>,
    pub partner_opponent: Option<Duration>,
}

/// Everything known about the team situation, from the front end.
#[derive(Clone, Debug, Default)]
pub struct TeamContext {
    /// The partner's board with both reserves; the partner plays the other colour there.
    pub partner_board: Option<Position>,
    pub clocks: TeamClocks,
    pub requests: PartnerRequests,
    pub switches: ModelSwitches,
}

/// The team's gain (centipawns) when our partner receives a piece of each
/// role, and its loss when the partner's opponent receives one. Indexed by `role - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlowValues {
    pub to_partner: [i32; 5],
    pub to_partner_opponent: [i32; 5],
}

impl FlowValues {
    #[inline]
    pub fn gain(&self, role: Role) -> i32 {
        self.to_partner[role as usize - 1]
    }

    #[inline]
    pub fn loss(&self, role: Role) -> i32 {
        self.to_partner_opponent[role as usize - 1]
    }
}

/// Share (percent) of the partner board's evaluation swing that counts for us:
/// both boards decide the match, but the other board's future is less certain.
const TEAM_WEIGHT_PERCENT: i32 = 80;
/// Extra value of a piece that lets its receiver drop a mate at once.
const MATING_GIFT: i32 = 1_500;
/// Extra value of a piece that gives a frozen side (to move, no legal move:
/// RULES.md §3) a move: without one its clock runs out, in check or not.
const FREEING_GIFT: i32 = 1_500;
/// Extra value of a piece the partner asked for / asked us not to give.
const NEED_BONUS: i32 = 150;
const DONT_GIVE_BONUS: i32 = 400;
/// Probabilities (percent) that the best capture on the partner board happens
/// soon: by the side to move there, and by the other side after its next move.
const CAPTURE_NOW_PERCENT: i32 = 60;
const CAPTURE_LATER_PERCENT: i32 = 25;
/// Time kept in hand when sitting: never wait into a lost time race. The
/// margin is the larger of two seconds and a fifth of our time, and one wait
/// never takes more than a quarter of our time.
const SIT_MARGIN: Duration = Duration::from_millis(2_000);
const SIT_MARGIN_FRACTION: u32 = 5;
const SIT_MAX_FRACTION: u32 = 4;

/// The model derived for one search.
#[derive(Clone, Debug)]
pub struct TeamModel {
    /// Our colour on our board (the root side).
    pub color: Color,
    pub flow: Option<FlowValues>,
    pub expected: Expected,
    /// Our partner waits for material (frozen on the partner board, or it
    /// asked for speed): every second we think is a second of its clock, so
    /// the search takes a fraction of its usual time.
    pub hurry: bool,
    /// For each colour on our board (indexed by `Color as usize`): frozen
    /// there, that side would lose the waiting game on time ([`sits_out`]).
    pub frozen_loses: [bool; 2],
}

impl TeamModel {
    /// Builds the model for the side to move on `ours`.
    pub fn new(ours: &Position, context: &TeamContext) -> TeamModel {
        let color = ours.turn();
        let partner = context.partner_board.as_ref().filter(|p| p.rules().is_two_board());
        let flow = match (context.switches.flow, partner) {
            (true, Some(board)) => Some(flow_values(board, color.other(), &context.requests)),
            // Without the partner board (CECP), the partner's requests alone still count.
            (true, None) if context.requests != PartnerRequests::default() => {
                Some(request_values(&context.requests))
            }
            _ => None,
        };
        let expected = match (context.switches.forecast, partner) {
            (true, Some(board)) => forecast(board),
            _ => Expected::default(),
        };
        let partner_waits = partner.is_some_and(|board| is_frozen_to_move(board, color.other()));
        let hurry = context.switches.sitting && (partner_waits || context.requests.fast);
        let clocks = &context.clocks;
        let mut frozen_loses = [false; 2];
        // The opponents sit whenever it pays (Fairy-Stockfish does); our
        // partner is counted on only while our team sits.
        frozen_loses[color as usize] = sits_out(clocks.partner_opponent, clocks.ours);
        frozen_loses[color.other() as usize] = context.switches.sitting && sits_out(clocks.partner, clocks.opponent);
        TeamModel { color, flow, expected, hurry, frozen_loses }
    }

    /// Does any term change what the search sees? (`hurry` is the clock's.)
    pub fn shapes_search(&self) -> bool {
        self.flow.is_some() || !self.expected.is_empty() || self.frozen_loses.contains(&true)
    }
}

/// Does the player who can sit out a frozen side outlast it on the clock?
///
/// A side frozen on one board (to move, no legal move: RULES.md §3) gets
/// material only from its partner's captures on the other board. The player
/// of the same colour there is on the other team: when it is to move it sits,
/// its partner's captures stop, and both clocks run. The sitter wins when its
/// clock outlasts the frozen side's by the sitting margin (unknown clocks:
/// no verdict).
pub fn sits_out(sitter: Option<Duration>, frozen: Option<Duration>) -> bool {
    match (sitter, frozen) {
        (Some(sitter), Some(frozen)) => sitter > frozen + sit_margin(sitter),
        _ => false,
    }
}

/// The time a sitter keeps in hand: never sit into a lost time race.
fn sit_margin(sitter: Duration) -> Duration {
    SIT_MARGIN.max(sitter / SIT_MARGIN_FRACTION)
}

/// Is `color` to move on `board` without a legal move (waiting for material)?
pub fn is_frozen_to_move(board: &Position, color: Color) -> bool {
    board.turn() == color && board.status() == Status::Frozen
}

/// The roles that would give the side to move, frozen, a legal move (dropped
/// from its reserve).
pub fn roles_that_free(board: &Position) -> Vec<Role> {
    let us = board.turn();
    HAND_ROLES
        .into_iter()
        .filter(|&role| {
            let mut trial = board.clone();
            trial.add_to_reserve(us, role);
            trial.has_legal_move()
        })
        .collect()
}

/// The partner-board evaluation from `color`'s point of view.
fn score_for(board: &Position, color: Color) -> i32 {
    let white = white_score(board, &Expected::default());
    if color == Color::White { white } else { -white }
}

/// Could `color`, to move on `board` with `role` added to its hand, drop a mate at once?
pub fn drop_mates_with(board: &Position, color: Color, role: Role) -> bool {
    let mut with_piece = board.clone();
    with_piece.add_to_reserve(color, role);
    if with_piece.turn() != color {
        with_piece.play_null();
    }
    if with_piece.is_check() {
        return false; // `color` would be giving check out of turn: not a real position
    }
    with_piece.legal_moves().iter().filter(|m| m.is_drop() && m.role() == role).any(|&m| {
        let mut after = with_piece.clone();
        after.play(m);
        after.status() == Status::Checkmate
    })
}

/// Flow values from the partner board, where our partner plays `partner_color`.
pub fn flow_values(board: &Position, partner_color: Color, requests: &PartnerRequests) -> FlowValues {
    let opponent = partner_color.other();
    let now = score_for(board, partner_color);
    let mut flow = FlowValues { to_partner: [0; 5], to_partner_opponent: [0; 5] };
    let frozen = board.status() == Status::Frozen;
    let freeing = if frozen { roles_that_free(board) } else { Vec::new() };
    for role in HAND_ROLES {
        let i = role as usize - 1;
        let frees = freeing.contains(&role);
        let mut helped = board.clone();
        helped.add_to_reserve(partner_color, role);
        let mut gain = (score_for(&helped, partner_color) - now) * TEAM_WEIGHT_PERCENT / 100;
        if drop_mates_with(board, partner_color, role) {
            gain += MATING_GIFT;
        }
        if frees && board.turn() == partner_color {
            gain += FREEING_GIFT;
        }
        if requests.needs(role) {
            gain += NEED_BONUS;
        }
        let mut hurt = board.clone();
        hurt.add_to_reserve(opponent, role);
        let mut loss = (now - score_for(&hurt, partner_color)) * TEAM_WEIGHT_PERCENT / 100;
        if drop_mates_with(board, opponent, role) {
            loss += MATING_GIFT;
        }
        if frees && board.turn() == opponent {
            loss += FREEING_GIFT;
        }
        if requests.forbids(role) {
            loss += DONT_GIVE_BONUS;
        }
        match requests.trades {
            Some(Trades::Good) => (gain, loss) = (gain * 5 / 4, loss * 3 / 4),
            Some(Trades::Bad) => (gain, loss) = (gain * 3 / 4, loss * 5 / 4),
            None => {}
        }
        flow.to_partner[i] = gain.max(0);
        flow.to_partner_opponent[i] = loss.max(0);
    }
    flow
}

/// Flow values from the partner's requests alone, when its board is unknown.
pub fn request_values(requests: &PartnerRequests) -> FlowValues {
    let mut flow = FlowValues { to_partner: [0; 5], to_partner_opponent: [0; 5] };
    for role in HAND_ROLES {
        let i = role as usize - 1;
        flow.to_partner[i] = if requests.needs(role) { NEED_BONUS } else { 0 };
        flow.to_partner_opponent[i] = if requests.forbids(role) { DONT_GIVE_BONUS } else { 0 };
    }
    flow
}

/// Pieces likely to reach the hands on our board soon, by colour.
///
/// A captured piece keeps its colour: a capture by our partner sends the
/// victim (of our colour) to us, one by the partner's opponent sends a piece
/// of the other colour to our opponent.
pub fn forecast(board: &Position) -> Expected {
    let mut expected = Expected::default();
    let mover = board.turn();
    if let Some(role) = best_capture(board) {
        // The victim keeps its colour: it joins the hand of that colour on our board.
        expected.add(mover.other(), role, CAPTURE_NOW_PERCENT);
    }
    let mut other_turn = board.clone();
    if !other_turn.is_check() {
        other_turn.play_null();
        if !other_turn.is_check() {
            if let Some(role) = best_capture(&other_turn) {
                expected.add(mover, role, CAPTURE_LATER_PERCENT);
            }
        }
    }
    expected
}

/// The most valuable victim of a non-losing capture for the side to move.
fn best_capture(board: &Position) -> Option<Role> {
    board
        .noisy_moves()
        .into_iter()
        .filter(|&m| board.is_capture(m) && see_ge(board, m, 0))
        .filter_map(|m| {
            let sq = m.to();
            let promoted = board.promoted().contains(sq);
            board.role_at(sq).map(|r| if promoted { Role::Pawn } else { r })
        })
        .max_by_key(|&r| hand_value(r))
}

/// How long we may sit without losing our time lead: our time minus the
/// opponent's, less a safety margin, and at most a quarter of our time. `None` when clocks are unknown or we are
/// not ahead.
pub fn sit_allowance(clocks: &TeamClocks) -> Option<Duration> {
    let ours = clocks.ours?;
    let theirs = clocks.opponent?;
    let lead = ours.checked_sub(theirs)?.checked_sub(sit_margin(ours))?;
    (lead > Duration::ZERO).then_some(lead.min(ours / SIT_MAX_FRACTION))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_fen;
    use crate::rules::Rules;

    fn board(fen: &str) -> Position {
        parse_fen(fen, Rules::bughouse()).unwrap()
    }

    #[test]
    fn a_piece_that_mates_the_partner_is_expensive() {
        // On the partner board Black (the partner's opponent) mates with N@f2.
        let partner_board = board("4k3/8/8/8/8/8/6PP/6RK[] b - - 0 1");
        let flow = flow_values(&partner_board, Color::White, &PartnerRequests::default());
        assert!(flow.loss(Role::Knight) >= MATING_GIFT, "{flow:?}");
        assert!(flow.loss(Role::Pawn) < MATING_GIFT);
    }

    #[test]
    fn a_frozen_partner_hurries_us_and_prizes_the_pieces_that_free_it() {
        // The partner (White on the other board) is in check from the rook on
        // a1 with no legal move: only a piece dropped on b1-g1 saves it.
        let partner_board = board("6k1/8/8/8/8/8/6PP/r6K[] w - - 0 1");
        assert!(is_frozen_to_move(&partner_board, Color::White));
        assert_eq!(roles_that_free(&partner_board), [Role::Queen, Role::Rook, Role::Bishop, Role::Knight]);
        let flow = flow_values(&partner_board, Color::White, &PartnerRequests::default());
        assert!(flow.gain(Role::Knight) >= FREEING_GIFT, "{flow:?}");
        assert!(flow.gain(Role::Pawn) < FREEING_GIFT, "a pawn cannot go to the first rank");
        // Seen from the other team, the same pieces must not reach White.
        let theirs = flow_values(&partner_board, Color::Black, &PartnerRequests::default());
        assert!(theirs.loss(Role::Knight) >= FREEING_GIFT && theirs.loss(Role::Pawn) < FREEING_GIFT);

        let ours = board("4k3/8/8/8/8/8/8/4K3[] b - - 0 1");
        let context = TeamContext { partner_board: Some(partner_board.clone()), ..Default::default() };
        assert!(TeamModel::new(&ours, &context).hurry, "our partner's clock runs while we think");
        let no_sitting = TeamContext { switches: ModelSwitches { sitting: false, ..Default::default() }, ..context };
        assert!(!TeamModel::new(&ours, &no_sitting).hurry);
        // When the partner's opponent is the frozen one, we take our time.
        let white_to_move = board("4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
        let context = TeamContext { partner_board: Some(partner_board), ..Default::default() };
        assert!(!TeamModel::new(&white_to_move, &context).hurry);
    }

    #[test]
    fn requests_change_the_values() {
        let partner_board = board("4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
        let plain = flow_values(&partner_board, Color::White, &PartnerRequests::default());
        let asked = PartnerRequests { need: 1 << Role::Bishop as u8, dont_give: 1 << Role::Queen as u8, ..Default::default() };
        let flow = flow_values(&partner_board, Color::White, &asked);
        assert_eq!(flow.gain(Role::Bishop), plain.gain(Role::Bishop) + NEED_BONUS);
        assert_eq!(flow.loss(Role::Queen), plain.loss(Role::Queen) + DONT_GIVE_BONUS);
    }

    #[test]
    fn the_capture_about_to_happen_is_forecast_for_the_right_hand() {
        // White to move on the partner board takes the black queen: a black
        // queen is coming to Black's hand on our board.
        let partner_board = board("4k3/8/8/3q4/4P3/8/8/4K3[] w - - 0 1");
        let expected = forecast(&partner_board);
        assert_eq!(expected.get(Color::Black, Role::Queen), CAPTURE_NOW_PERCENT);
        assert_eq!(expected.get(Color::White, Role::Queen), 0);
    }

    #[test]
    fn sitting_needs_a_time_lead() {
        let secs = |s| Some(Duration::from_secs(s));
        let ahead = TeamClocks { ours: secs(30), opponent: secs(20), ..Default::default() };
        assert_eq!(sit_allowance(&ahead), Some(Duration::from_secs(4)));
        let behind = TeamClocks { ours: secs(20), opponent: secs(30), ..Default::default() };
        assert_eq!(sit_allowance(&behind), None);
    }

    #[test]
    fn a_frozen_side_loses_the_wait_to_a_sitter_with_more_time() {
        let secs = |s| Some(Duration::from_secs(s));
        // Fifty seconds outlast thirty-five by more than a fifth of fifty.
        assert!(sits_out(secs(50), secs(35)));
        assert!(!sits_out(secs(40), secs(35)), "within the margin: no verdict");
        assert!(!sits_out(secs(35), secs(50)));
        assert!(!sits_out(None, secs(5)));

        // We are White on our board; the partner's opponent (White on the
        // other board) has 50 s to our 35 s: frozen, we lose.
        let ours = board("4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
        let clocks = TeamClocks { ours: secs(35), opponent: secs(40), partner: secs(30), partner_opponent: secs(50) };
        let context = TeamContext { clocks, ..Default::default() };
        assert_eq!(TeamModel::new(&ours, &context).frozen_loses, [false, true]);
        // Our partner (Black there) has 60 s to the opponent's 40 s: the opponent
        // frozen loses too, while our team sits.
        let context = TeamContext { clocks: TeamClocks { partner: secs(60), ..clocks }, ..Default::default() };
        assert_eq!(TeamModel::new(&ours, &context).frozen_loses, [true, true]);
        let no_sitting = TeamContext { switches: ModelSwitches { sitting: false, ..Default::default() }, ..context };
        assert_eq!(TeamModel::new(&ours, &no_sitting).frozen_loses, [false, true]);
    }
}
