//! Time management: how long to think about one move.
//!
//! From the clock we derive a *soft* limit (do not start another iteration
//! after it, stretched when the best move keeps changing, nor one that would
//! likely run into the next limit) and a *hard* limit (abort the iteration in
//! progress). Without `movestogo` we plan for 35 more moves: drop-chess games
//! are short, but planning for 25 spent the clock in the opening and left the
//! middlegame, where the mating attacks come, to the increment (against
//! Fairy-Stockfish at 5+0.05, 35 scored about 8 points in 100 better than 25
//! or 50; docs/experiments/round-06-time-manager.md).
//!
//! In bughouse a piece may arrive while we think: the search restarts from
//! the new position ([`Limits::spent`] says how long the move has run). The
//! budget is the whole move's, planned from the clock at the move's start,
//! less what was spent; the new position still gets a share of it, since the
//! table holds little for a root with a different hand.
//!
//! In two-board games a move is planned as if at most [`TWO_BOARD_HORIZON`]
//! were left, plus our lead on the clock: the other board plays on while we
//! think, so a long think is played on stale hands, and at 60+0 thinking 1.3 s
//! a move lost where thinking 0.2 s held even
//! (docs/experiments/2026-12-07-why-60-0-loses.md). With `Team Pace` the
//! budget is also bounded by the opponent's pace ([`super::pace`]).

use std::time::{Duration, Instant};

use shakmaty::Color;

use super::limits::{Control, Limits};

/// Moves we expect still to play when the clock gives no `movestogo`.
pub const EXPECTED_MOVES_LEFT: u32 = 35;
/// Never plan to use more than this share of the remaining time on one move.
const MAX_SHARE_PERCENT: u32 = 40;
/// A restarted search keeps at least this share of the move's soft budget.
const RESTART_SHARE_PERCENT: u32 = 30;
/// A hurried move (the team model's `hurry`: our partner waits for material)
/// gets this fraction of the budget.
const HURRY_DIVISOR: u32 = 4;
/// The least an iteration is expected to take, as a multiple of the one before.
const NEXT_ITERATION_GROWTH: f64 = 2.0;
/// The soft limit, as a share of the move's planned time. At 60 % the build
/// of round 16 kept a fifth more of its clock than Fairy-Stockfish through
/// the middlegame and ended games with 1.6 s of 5 s left; 80 % scored
/// 55.2 % in self-play against 60 % and 58.7 % against Fairy-Stockfish over
/// 300 games (docs/experiments/round-17-the-clock.md).
const SOFT_SHARE_PERCENT: u32 = 80;
/// In two-board games, the soft and hard limits as shares of the opponent's
/// mean time per move. Iterations grow about fivefold in drop chess, so a
/// move mostly ends between the two: with the soft limit at the mean alone,
/// our mean move took 1.8 times the opponent's.
const PACED_SOFT_PERCENT: u32 = 60;
const PACED_HARD_PERCENT: u32 = 200;
/// The least pace a move is planned for (an opponent that moves at once).
const MIN_PACE: Duration = Duration::from_millis(50);
/// In two-board games, the most time a move is planned from, beyond our lead
/// over the opponent on the clock. At 10 s a 60+0 game is played as 10+0 until
/// a lead builds up; a 10+0.1 game barely changes (its clocks stay near 10 s,
/// and a clock above the horizon is capped only as far as the opponent's is
/// above it too). Fairy-Stockfish plans from 5 s and its clock's difference to
/// the partner's opponent's, so it moves in 0.2 s at 60+0 (docs/PEERS.md).
pub const TWO_BOARD_HORIZON: Duration = Duration::from_secs(10);

#[derive(Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    was_pondering: bool,
}

impl TimeManager {
    /// `two_board`: the game is played on two boards ([`TWO_BOARD_HORIZON`]); `pace`: the opponent's mean time
    /// per move, where it bounds ours (two-board games, `Team Pace`).
    pub fn new(limits: &Limits, turn: Color, two_board: bool, hurry: bool, pace: Option<Duration>) -> TimeManager {
        let (soft, hard) = budget(limits, turn, two_board, hurry, pace);
        TimeManager { start: Instant::now(), soft, hard, was_pondering: false }
    }

    /// While pondering the clock does not count; it starts at `ponderhit`.
    fn clock_running(&mut self, control: &Control) -> bool {
        if control.is_pondering() {
            self.was_pondering = true;
            return false;
        }
        if self.was_pondering {
            self.was_pondering = false;
            self.start = Instant::now();
        }
        true
    }

    /// Abort the search in progress?
    pub fn hard_limit_reached(&mut self, control: &Control) -> bool {
        match self.hard {
            Some(hard) => self.clock_running(control) && self.start.elapsed() >= hard,
            None => false,
        }
    }

    /// Skip the next iteration? Yes past the soft limit (`instability` ≥ 1.0
    /// stretches it when the best move has just changed), and yes when the
    /// next iteration would likely still run at the hard limit: it takes at
    /// least [`NEXT_ITERATION_GROWTH`] times the last one (`last_iteration`),
    /// and an aborted iteration is mostly time thrown away. In drop chess one
    /// iteration often takes five times the one before, so without this rule
    /// an iteration started just before the soft limit ran to the hard one,
    /// five times the soft limit, on most opening moves.
    pub fn stop_iterating(&mut self, control: &Control, instability: f64, last_iteration: Duration) -> bool {
        let Some(soft) = self.soft else { return false };
        if !self.clock_running(control) {
            return false;
        }
        let elapsed = self.start.elapsed();
        let past_soft = elapsed.as_secs_f64() >= soft.as_secs_f64() * instability;
        let next_would_abort = self.hard.is_some_and(|hard| elapsed + last_iteration.mul_f64(NEXT_ITERATION_GROWTH) >= hard);
        past_soft || next_would_abort
    }
}

/// (soft, hard) limits for the search.
fn budget(limits: &Limits, turn: Color, two_board: bool, hurry: bool, pace: Option<Duration>) -> (Option<Duration>, Option<Duration>) {
    if limits.infinite {
        return (None, None);
    }
    let overhead = limits.move_overhead;
    if let Some(movetime) = limits.movetime {
        let t = movetime.saturating_sub(overhead).max(Duration::from_millis(1));
        return (Some(t), Some(t));
    }
    let Some(clock) = limits.clock else { return (None, None) };
    let Some(mut left) = clock.time(turn) else { return (None, None) };
    if two_board {
        let lead = clock.time(!turn).map_or(Duration::ZERO, |theirs| left.saturating_sub(theirs));
        left = left.min(TWO_BOARD_HORIZON + lead);
    }
    let left = left.saturating_sub(overhead);
    let increment = clock.increment(turn);
    let moves = clock.moves_to_go.unwrap_or(EXPECTED_MOVES_LEFT).clamp(1, EXPECTED_MOVES_LEFT);
    let mut base = (left + limits.spent) / moves + increment * 3 / 4;
    if hurry {
        base /= HURRY_DIVISOR;
    }
    let cap = left * MAX_SHARE_PERCENT / 100;
    let mut soft = base.min(cap).max(Duration::from_millis(1)) * SOFT_SHARE_PERCENT / 100;
    let mut hard = (base * 3).min(cap).max(soft);
    if let Some(pace) = pace.map(|p| p.max(MIN_PACE)) {
        soft = soft.min(pace * PACED_SOFT_PERCENT / 100);
        hard = hard.min(pace * PACED_HARD_PERCENT / 100).max(soft);
    }
    let spent = limits.spent;
    let soft_left = soft.saturating_sub(spent).max(soft * RESTART_SHARE_PERCENT / 100);
    (Some(soft_left), Some(hard.saturating_sub(spent).max(soft_left)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::limits::Clock;

    #[test]
    fn budgets_follow_the_clock() {
        let clock = Clock {
            time: [Some(Duration::from_secs(60)), Some(Duration::from_secs(60))],
            increment: [Duration::ZERO; 2],
            moves_to_go: None,
        };
        let limits = Limits { clock: Some(clock), ..Limits::default() };
        let (soft, hard) = budget(&limits, Color::White, false, false, None);
        let (soft, hard) = (soft.unwrap(), hard.unwrap());
        assert!(soft < hard && hard <= Duration::from_secs(24));
        assert!(soft >= Duration::from_millis(500));
        let fixed = Limits { movetime: Some(Duration::from_millis(500)), ..Limits::default() };
        assert_eq!(budget(&fixed, Color::Black, false, false, None), (Some(Duration::from_millis(500)), Some(Duration::from_millis(500))));
        assert_eq!(budget(&Limits { infinite: true, ..limits }, Color::White, false, false, None), (None, None));
    }

    #[test]
    fn a_hurried_move_gets_a_quarter_of_the_budget() {
        let clock = Clock { time: [Some(Duration::from_secs(60)); 2], increment: [Duration::ZERO; 2], moves_to_go: None };
        let normal = Limits { clock: Some(clock), ..Limits::default() };
        let (soft, hard) = budget(&normal, Color::White, false, false, None);
        let (fast_soft, fast_hard) = budget(&normal, Color::White, false, true, None);
        let quarter = |d: Option<Duration>| d.unwrap() / HURRY_DIVISOR;
        assert!(fast_soft.unwrap().abs_diff(quarter(soft)) < Duration::from_micros(1));
        assert!(fast_hard.unwrap().abs_diff(quarter(hard)) < Duration::from_micros(1));
    }

    #[test]
    fn a_faster_opponent_s_pace_bounds_the_budget() {
        let clock = Clock { time: [Some(Duration::from_secs(60)); 2], increment: [Duration::ZERO; 2], moves_to_go: None };
        let limits = Limits { clock: Some(clock), ..Limits::default() };
        let (soft, hard) = budget(&limits, Color::White, false, false, None);
        let (paced_soft, paced_hard) = budget(&limits, Color::White, false, false, Some(Duration::from_millis(200)));
        assert_eq!(paced_soft, Some(Duration::from_millis(120)));
        assert_eq!(paced_hard, Some(Duration::from_millis(400)));
        // A slower opponent changes nothing; an instant one leaves a floor.
        assert_eq!(budget(&limits, Color::White, false, false, Some(Duration::from_secs(10))), (soft, hard));
        assert_eq!(budget(&limits, Color::White, false, false, Some(Duration::ZERO)).0, Some(Duration::from_millis(30)));
        // A fixed time per move is the caller's choice: no pace bounds it.
        let fixed = Limits { movetime: Some(Duration::from_millis(500)), ..Limits::default() };
        assert_eq!(budget(&fixed, Color::White, false, false, Some(Duration::from_millis(100))).0, Some(Duration::from_millis(500)));
    }

    #[test]
    fn two_boards_plan_from_the_horizon_and_our_lead() {
        // We play White; shakmaty numbers Black 0.
        let clock = |ours: u64, theirs: u64, increment_ms: u64| Limits {
            clock: Some(Clock {
                time: [Some(Duration::from_secs(theirs)), Some(Duration::from_secs(ours))],
                increment: [Duration::from_millis(increment_ms); 2],
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let one_board = |limits: &Limits| budget(limits, Color::White, false, false, None);
        let two_board = |limits: &Limits| budget(limits, Color::White, true, false, None);
        // Equal clocks at 60 s: planned as 10 s; a 20 s lead over the opponent is ours to spend too.
        assert_eq!(two_board(&clock(60, 60, 0)), one_board(&clock(10, 10, 0)));
        assert_eq!(two_board(&clock(50, 30, 0)), one_board(&clock(30, 30, 0)));
        // Behind on the clock the horizon still holds; below it nothing changes (a 10+0.1 game).
        assert_eq!(two_board(&clock(40, 55, 0)), one_board(&clock(10, 10, 0)));
        assert_eq!(two_board(&clock(8, 9, 100)), one_board(&clock(8, 9, 100)));
    }

    #[test]
    fn a_restarted_search_continues_the_move_s_budget() {
        let clock = |ms| Clock { time: [Some(Duration::from_millis(ms)); 2], increment: [Duration::ZERO; 2], moves_to_go: None };
        let fresh = Limits { clock: Some(clock(60_000)), ..Limits::default() };
        let (soft, hard) = budget(&fresh, Color::White, false, false, None);
        let (soft, hard) = (soft.unwrap(), hard.unwrap());
        // 300 ms into the move a piece arrived: the clock shows 59.7 s.
        let spent = Duration::from_millis(300);
        let restarted = Limits { clock: Some(clock(59_700)), spent, ..Limits::default() };
        let (soft_left, hard_left) = budget(&restarted, Color::White, false, false, None);
        assert_eq!(soft_left.unwrap(), soft - spent);
        assert_eq!(hard_left.unwrap(), hard - spent);
        // Past the soft budget, the new position still gets a share of it.
        let late = Limits { clock: Some(clock(50_000)), spent: Duration::from_secs(10), ..Limits::default() };
        let (soft_late, hard_late) = budget(&late, Color::White, false, false, None);
        assert_eq!(soft_late.unwrap(), soft * RESTART_SHARE_PERCENT / 100);
        assert!(hard_late.unwrap() >= soft_late.unwrap());
    }
}
