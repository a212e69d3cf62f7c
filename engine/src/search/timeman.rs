//! Time management: how long to think about one move.
//!
//! From the clock we derive a *soft* limit (do not start another iteration
//! after it, stretched when the best move keeps changing) and a *hard* limit
//! (abort the iteration in progress). Drop-chess games are short and sharp, so
//! we plan for about 25 more moves when the GUI does not say `movestogo`.

use std::time::{Duration, Instant};

use shakmaty::Color;

use super::limits::{Control, Limits};

/// Moves we expect still to play when the clock gives no `movestogo`.
const EXPECTED_MOVES_LEFT: u32 = 25;
/// Never plan to use more than this share of the remaining time on one move.
const MAX_SHARE_PERCENT: u32 = 40;

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
    let base = left / moves + increment * 3 / 4;
    let cap = left * MAX_SHARE_PERCENT / 100;
    let soft = base.min(cap).max(Duration::from_millis(1));
    let hard = (base * 3).min(cap).max(soft);
    (Some(soft * 6 / 10), Some(hard))
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
}
