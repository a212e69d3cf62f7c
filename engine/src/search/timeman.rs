//! Time management: how long to think about one move.
//!
//! From the clock we derive a *soft* limit (do not start another iteration
//! after it, stretched when the best move keeps changing) and a *hard* limit
//! (abort the iteration in progress). Drop-chess games are short and sharp, so
//! we plan for about 25 more moves when the GUI does not say `movestogo`.
//!
//! In bughouse a piece may arrive while we think: the search restarts from
//! the new position ([`Limits::spent`] says how long the move has run). The
//! budget is the whole move's, planned from the clock at the move's start,
//! less what was spent; the new position still gets a share of it, since the
//! table holds little for a root with a different hand.

use std::time::{Duration, Instant};

use shakmaty::Color;

use super::limits::{Control, Limits};

/// Moves we expect still to play when the clock gives no `movestogo`.
const EXPECTED_MOVES_LEFT: u32 = 25;
/// Never plan to use more than this share of the remaining time on one move.
const MAX_SHARE_PERCENT: u32 = 40;
/// A restarted search keeps at least this share of the move's soft budget.
const RESTART_SHARE_PERCENT: u32 = 30;

#[derive(Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    was_pondering: bool,
}

impl TimeManager {
    pub fn new(limits: &Limits, turn: Color) -> TimeManager {
        let (soft, hard) = budget(limits, turn);
        TimeManager { start: Instant::now(), soft, hard, was_pondering: false }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
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

    /// Skip the next iteration? `instability` ≥ 1.0 stretches the soft limit
    /// when the best move has just changed.
    pub fn soft_limit_reached(&mut self, control: &Control, instability: f64) -> bool {
        match self.soft {
            Some(soft) => {
                self.clock_running(control) && self.start.elapsed().as_secs_f64() >= soft.as_secs_f64() * instability
            }
            None => false,
        }
    }
}

/// (soft, hard) limits for the search.
fn budget(limits: &Limits, turn: Color) -> (Option<Duration>, Option<Duration>) {
    if limits.infinite {
        return (None, None);
    }
    let overhead = limits.move_overhead;
    if let Some(movetime) = limits.movetime {
        let t = movetime.saturating_sub(overhead).max(Duration::from_millis(1));
        return (Some(t), Some(t));
    }
    let Some(clock) = limits.clock else { return (None, None) };
    let Some(left) = clock.time(turn) else { return (None, None) };
    let left = left.saturating_sub(overhead);
    let increment = clock.increment(turn);
    let moves = clock.moves_to_go.unwrap_or(EXPECTED_MOVES_LEFT).clamp(1, EXPECTED_MOVES_LEFT);
    let base = (left + limits.spent) / moves + increment * 3 / 4;
    let cap = left * MAX_SHARE_PERCENT / 100;
    let soft = base.min(cap).max(Duration::from_millis(1)) * 6 / 10;
    let hard = (base * 3).min(cap).max(soft);
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
        let (soft, hard) = budget(&limits, Color::White);
        let (soft, hard) = (soft.unwrap(), hard.unwrap());
        assert!(soft < hard && hard <= Duration::from_secs(24));
        assert!(soft >= Duration::from_millis(1000));
        let fixed = Limits { movetime: Some(Duration::from_millis(500)), ..Limits::default() };
        assert_eq!(budget(&fixed, Color::Black), (Some(Duration::from_millis(500)), Some(Duration::from_millis(500))));
        assert_eq!(budget(&Limits { infinite: true, ..limits }, Color::White), (None, None));
    }

    #[test]
    fn a_restarted_search_continues_the_move_s_budget() {
        let clock = |secs| Clock { time: [Some(Duration::from_secs(secs)); 2], increment: [Duration::ZERO; 2], moves_to_go: None };
        let fresh = Limits { clock: Some(clock(60)), ..Limits::default() };
        let (soft, hard) = budget(&fresh, Color::White);
        let (soft, hard) = (soft.unwrap(), hard.unwrap());
        // One second into the move a piece arrived: the clock shows 59 s.
        let spent = Duration::from_secs(1);
        let restarted = Limits { clock: Some(clock(59)), spent, ..Limits::default() };
        let (soft_left, hard_left) = budget(&restarted, Color::White);
        assert_eq!(soft_left.unwrap(), soft - spent);
        assert_eq!(hard_left.unwrap(), hard - spent);
        // Past the soft budget, the new position still gets a share of it.
        let late = Limits { clock: Some(clock(50)), spent: Duration::from_secs(10), ..Limits::default() };
        let (soft_late, hard_late) = budget(&late, Color::White);
        assert_eq!(soft_late.unwrap(), soft * RESTART_SHARE_PERCENT / 100);
        assert!(hard_late.unwrap() >= soft_late.unwrap());
    }
}
