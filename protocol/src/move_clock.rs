//! The clock of one move, from the search that `go` starts to the move played:
//! when our clock started, when our flag falls, and what earlier searches of
//! the move used (a restart when material arrives, a held move searched
//! again). It decides the budgets that follow: the limits of a restarted
//! search, the cost of the partner-board model's advice, and how long a found
//! move may wait (the partner's `sit`, our own wait for a piece).
//!
//! A move runs in laps: each search of it is one, and so is the wait of a
//! held move. A lap's time comes off our clock when the lap ends.

use std::time::{Duration, Instant};

use tandem_engine::search::EXPECTED_MOVES_LEFT;
use tandem_engine::team::{sit_allowance, sits_out, TeamClocks};
use tandem_engine::Color;

use crate::engine_api::{Clock, Limits};

/// Time kept back when sitting: we stop sitting this long before our flag falls.
pub const SIT_MARGIN: Duration = Duration::from_secs(1);

/// The timing of one move of `us`.
#[derive(Clone, Copy, Debug)]
pub struct MoveClock {
    us: Color,
    /// Our time as the current lap started (`None`: we play without a clock).
    left: Option<Duration>,
    /// The opponent's time on our board, as `go` gave it.
    opponent: Option<Duration>,
    increment: Duration,
    /// What is left of a fixed time per move (`movetime`).
    movetime: Option<Duration>,
    /// The opponent's mean time per move, which bounds ours in two-board games.
    opponent_pace: Option<Duration>,
    /// What the laps before this one used (the engine's [`Limits::spent`]).
    spent: Duration,
    /// When the current lap started; `None` while pondering (our clock does not run).
    lap_started: Option<Instant>,
    flag_falls_at: Option<Instant>,
}

impl Default for MoveClock {
    /// No move on the clock.
    fn default() -> MoveClock {
        MoveClock::between_moves(None, Color::White)
    }
}

impl MoveClock {
    /// The clock of a search of `limits` for `us`: it runs from now, or from
    /// `ponderhit` when `ponder`.
    pub fn start(limits: &Limits, us: Color, ponder: bool) -> MoveClock {
        let clock = limits.clock.as_ref();
        let mut move_clock = MoveClock::between_moves(clock, us);
        move_clock.movetime = limits.movetime;
        move_clock.opponent_pace = limits.opponent_pace;
        move_clock.spent = limits.spent;
        if !ponder {
            move_clock.run_from(Instant::now());
        }
        move_clock
    }

    /// Our board's clock as it stands while it does not run (a question
    /// asked between moves): no flag, nothing used.
    pub fn between_moves(clock: Option<&Clock>, us: Color) -> MoveClock {
        MoveClock {
            us,
            left: clock.and_then(|c| c.time(us)),
            opponent: clock.and_then(|c| c.time(us.other())),
            increment: clock.map(|c| c.increment(us)).unwrap_or_default(),
            movetime: None,
            opponent_pace: None,
            spent: Duration::ZERO,
            lap_started: None,
            flag_falls_at: None,
        }
    }

    /// `ponderhit`: our clock runs from now.
    pub fn ponderhit(&mut self) {
        self.run_from(Instant::now());
    }

    fn run_from(&mut self, now: Instant) {
        self.lap_started = Some(now);
        self.flag_falls_at = self.left.map(|t| now + t);
    }

    /// The search ended: the time it used comes off our clock (spent on this
    /// move), which runs on while its move waits (after pondering too).
    pub fn search_ended(&mut self) {
        self.end_lap();
        self.lap_started = Some(Instant::now());
    }

    /// The move is searched again (material arrived, during its search or
    /// while it was held): the time used comes off our clock and counts as
    /// spent on this move; a `ponder` search's clock waits for `ponderhit`.
    pub fn restart(&mut self, ponder: bool) {
        self.end_lap();
        self.lap_started = (!ponder).then(Instant::now);
    }

    /// Takes the current lap's time off our clock (and off a `movetime`) and
    /// counts it as spent: the time manager plans the move whole.
    fn end_lap(&mut self) {
        let used = self.elapsed();
        self.left = self.left.map(|t| t.saturating_sub(used));
        self.movetime = self.movetime.map(|t| t.saturating_sub(used).max(Duration::from_millis(1)));
        self.spent += used;
    }

    /// How long the current lap has run on our clock.
    pub fn elapsed(&self) -> Duration {
        self.lap_started.map(|t| t.elapsed()).unwrap_or_default()
    }

    /// Our time now.
    pub fn time_left(&self) -> Option<Duration> {
        self.left.map(|t| t.saturating_sub(self.elapsed()))
    }

    /// The opponent's time on our board.
    pub fn opponent_time(&self) -> Option<Duration> {
        self.opponent
    }

    /// `limits` for the next lap: our clock and `movetime` less what earlier
    /// laps used, which the engine plans with as [`Limits::spent`].
    pub fn limits(&self, limits: &Limits) -> Limits {
        let mut next = limits.clone();
        next.movetime = self.movetime;
        next.spent = self.spent;
        if let Some(clock) = &mut next.clock {
            clock.time[self.us as usize] = self.left;
        }
        next
    }

    /// When a held move must be played so that our flag does not fall:
    /// [`SIT_MARGIN`] and the move overhead before it.
    pub fn flag_release(&self, move_overhead: Duration) -> Option<Instant> {
        self.flag_falls_at.map(|at| at.checked_sub(SIT_MARGIN + move_overhead).unwrap_or(at))
    }

    /// When our own wait for a piece must end: after our time lead over the
    /// opponent (less the engine's margin) is used up, and never later than
    /// the flag release. `None`: we are not ahead on the clock (or the clocks
    /// are unknown), so we do not wait.
    pub fn wait_release(&self, now: Instant, move_overhead: Duration) -> Option<Instant> {
        let clocks = TeamClocks { ours: self.time_left(), opponent: self.opponent, ..TeamClocks::default() };
        let lead_ends = now + sit_allowance(&clocks)?;
        Some(self.no_later_than_flag_release(lead_ends, move_overhead))
    }

    /// `at`, or the flag release when that comes first.
    fn no_later_than_flag_release(&self, at: Instant, move_overhead: Duration) -> Instant {
        self.flag_release(move_overhead).map_or(at, |flag| flag.min(at))
    }

    /// When sitting out the partner's opponent, frozen with `frozen_left` on
    /// its clock as our search started, must end: a moment after its flag
    /// should have fallen (our information was wrong if it has not), and
    /// never later than our flag release. `None`: we do not outlast it.
    pub fn sit_out_release(&self, now: Instant, move_overhead: Duration, frozen_left: Duration) -> Option<Instant> {
        if !sits_out(self.time_left(), Some(frozen_left)) {
            return None;
        }
        Some(self.no_later_than_flag_release(now + frozen_left + SIT_MARGIN, move_overhead))
    }

    /// How long the partner's `sit` is obeyed: with `Team Sitting` on
    /// (`sitting_term`) and both clocks of our board known, while our time
    /// lead lasts (the engine's rule for sitting); otherwise until `go` or
    /// the flag release.
    pub fn partner_sit_limit(&self, now: Instant, move_overhead: Duration, sitting_term: bool) -> SitLimit {
        if !(sitting_term && self.left.is_some() && self.opponent.is_some()) {
            return SitLimit::Flag(self.flag_release(move_overhead));
        }
        match self.wait_release(now, move_overhead) {
            Some(at) => SitLimit::Lead(at),
            None => SitLimit::Refused,
        }
    }

    /// The budget of the advice after this lap's search of `nodes`: all
    /// probes together take about a tenth of the move's time. `None`: skip
    /// the advice (our clock is very low, or a tenth of the move's time would
    /// not buy a useful probe).
    pub fn probe_budget(&self, nodes: u64) -> Option<ProbeBudget> {
        let left = self.time_left();
        if left.is_some_and(|t| t < LOW_CLOCK) {
            return None;
        }
        let move_time = match (self.movetime, left) {
            (Some(movetime), _) => movetime,
            // Probes run in two-board games only, where the opponent's pace bounds the move.
            (None, Some(left)) => (left / EXPECTED_MOVES_LEFT + self.increment).min(self.opponent_pace.unwrap_or(Duration::MAX)),
            (None, None) => return Some(ProbeBudget { nodes: UNTIMED_PROBE_NODES, time_cap: None }),
        };
        let budget = move_time / 10;
        let per_probe = (node_rate(nodes, self.elapsed()) * budget.as_secs_f64() / PROBES as f64) as u64;
        let nodes = per_probe.min(MAX_PROBE_NODES);
        (per_probe >= MIN_PROBE_NODES).then_some(ProbeBudget { nodes, time_cap: Some(budget * 2) })
    }
}

/// How long the partner's `sit` is obeyed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SitLimit {
    /// Until `go`, or this margin before our flag (`None`: no clock, until told).
    Flag(Option<Instant>),
    /// Until `go`, or until our time lead is used up ([`MoveClock::wait_release`]).
    Lead(Instant),
    /// Not at all: we are not ahead on the clock.
    Refused,
}

// ---- the cost of advice ---------------------------------------------------------

/// "What if this piece were in a hand" probes per advice: five roles, for us
/// and for them, and the two baselines without a piece.
const PROBES: u64 = 12;
const MIN_PROBE_NODES: u64 = 1_000;
const MAX_PROBE_NODES: u64 = 20_000;
/// Probe size when the search has no time limit (depth, nodes, mate).
const UNTIMED_PROBE_NODES: u64 = 4_000;
/// Below this on our clock, no advice: the move goes out at once.
pub const LOW_CLOCK: Duration = Duration::from_secs(2);
/// Assumed speed when the search was too short to measure it.
const DEFAULT_NPS: f64 = 200_000.0;
/// Searches smaller than this do not measure the node rate.
const MEASURABLE_NODES: u64 = 20_000;

/// How much the advice after a search may cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbeBudget {
    /// Nodes per probe.
    pub nodes: u64,
    /// Wall time after which the probes are stopped and the advice dropped
    /// (twice the planned tenth of the move; `None` without a time limit).
    pub time_cap: Option<Duration>,
}

/// Nodes per second of a search of `nodes` in `elapsed`. A search of a few
/// thousand nodes says little about the speed (start-up, a loaded machine):
/// below that, assume the usual speed.
fn node_rate(nodes: u64, elapsed: Duration) -> f64 {
    if elapsed >= Duration::from_millis(20) && nodes >= MEASURABLE_NODES {
        nodes as f64 / elapsed.as_secs_f64()
    } else {
        DEFAULT_NPS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(white_ms: u64, black_ms: u64) -> Clock {
        let mut time = [None; 2];
        time[Color::White as usize] = Some(Duration::from_millis(white_ms));
        time[Color::Black as usize] = Some(Duration::from_millis(black_ms));
        Clock { time, ..Clock::default() }
    }

    /// A clock whose lap started `ago` (its flag then falls `ago` earlier).
    fn running_for(limits: &Limits, us: Color, ago: Duration) -> MoveClock {
        let mut move_clock = MoveClock::start(limits, us, true);
        move_clock.run_from(Instant::now() - ago);
        move_clock
    }

    #[test]
    fn a_restart_takes_the_lap_off_our_clock_only_and_counts_it_as_spent() {
        let limits = Limits {
            movetime: Some(Duration::from_millis(100)),
            clock: Some(clock(10_000, 20_000)),
            ..Limits::default()
        };
        let mut move_clock = running_for(&limits, Color::Black, Duration::from_secs(1));
        move_clock.restart(false);
        let next = move_clock.limits(&limits);
        assert_eq!(next.movetime, Some(Duration::from_millis(1)));
        let (white, black) = (next.clock.unwrap().time(Color::White), next.clock.unwrap().time(Color::Black));
        assert_eq!(white, Some(Duration::from_secs(10)));
        assert!(black.unwrap() <= Duration::from_secs(19) && black.unwrap() > Duration::from_millis(18_900));
        assert!(next.spent >= Duration::from_secs(1) && next.spent < Duration::from_millis(1_100));
    }

    #[test]
    fn a_held_move_searched_again_counts_its_search_and_wait_as_spent() {
        let limits = Limits { clock: Some(clock(10_000, 10_000)), ..Limits::default() };
        let mut move_clock = running_for(&limits, Color::White, Duration::from_secs(2));
        move_clock.search_ended();
        move_clock.lap_started = Some(Instant::now() - Duration::from_secs(1));
        move_clock.restart(false);
        let next = move_clock.limits(&limits);
        let ours = next.clock.unwrap().time(Color::White).unwrap();
        assert!(next.spent >= Duration::from_secs(3) && next.spent < Duration::from_millis(3_100));
        assert!(ours + next.spent <= Duration::from_secs(10) && ours + next.spent > Duration::from_millis(9_990));
    }

    #[test]
    fn pondering_takes_no_time_until_ponderhit() {
        let limits = Limits { clock: Some(clock(5_000, 5_000)), ..Limits::default() };
        let mut move_clock = MoveClock::start(&limits, Color::White, true);
        assert_eq!(move_clock.flag_release(Duration::ZERO), None);
        move_clock.restart(true);
        let next = move_clock.limits(&limits);
        assert_eq!((next.clock, next.spent), (limits.clock, Duration::ZERO));
        move_clock.ponderhit();
        let release = move_clock.flag_release(Duration::from_millis(10)).unwrap();
        let ahead = release.saturating_duration_since(Instant::now());
        assert!(ahead <= Duration::from_millis(3_990) && ahead > Duration::from_millis(3_900));
    }

    #[test]
    fn advice_costs_a_tenth_of_the_move_at_most() {
        let timed = |left_ms: u64| Limits { clock: Some(clock(left_ms, left_ms)), ..Limits::default() };
        // One second into the lap, after a search of `searched` nodes.
        let nodes = |left_ms: u64, searched: u64| {
            let mut move_clock = running_for(&timed(left_ms), Color::White, Duration::from_secs(1));
            move_clock.left = Some(Duration::from_millis(left_ms) + move_clock.elapsed());
            move_clock.probe_budget(searched).map(|b| b.nodes)
        };
        let untimed = MoveClock::default().probe_budget(0);
        assert_eq!(untimed, Some(ProbeBudget { nodes: UNTIMED_PROBE_NODES, time_cap: None }));
        assert_eq!(nodes(1_500, 1_000_000), None, "our clock is very low");
        // 70 s left: a move of 2 s (35 moves to plan for), a tenth of it at
        // 1 M nodes/s is 16 666 nodes per probe; at 2 M, 20 000 (the cap).
        assert!((16_600..=16_666).contains(&nodes(70_000, 1_000_000).unwrap()));
        assert_eq!(nodes(70_000, 2_000_000), Some(MAX_PROBE_NODES));
        let budget = MoveClock::between_moves(timed(70_000).clock.as_ref(), Color::White).probe_budget(1);
        assert_eq!(budget.and_then(|b| b.time_cap), Some(Duration::from_millis(400)));
        // Against an opponent that moves in 500 ms the move is that long: a
        // quarter of the 2 s above, 4 166 nodes per probe at 1 M nodes/s.
        let paced = Limits { opponent_pace: Some(Duration::from_millis(500)), ..timed(70_000) };
        let mut move_clock = running_for(&paced, Color::White, Duration::from_secs(1));
        move_clock.left = Some(Duration::from_millis(70_000) + move_clock.elapsed());
        let budget = move_clock.probe_budget(1_000_000).unwrap();
        assert!((4_150..=4_166).contains(&budget.nodes));
        assert_eq!(budget.time_cap, Some(Duration::from_millis(100)));
        // 4.2 s left at 1 M nodes/s: 120 ms moves, 12 ms of twelve probes, 1 000 nodes each.
        assert!(nodes(4_300, 1_000_000).is_some_and(|n| n >= 1_000));
        // At 100 k nodes/s that would be 100 nodes: not worth a probe.
        assert_eq!(nodes(4_200, 100_000), None);
        let fast = Limits { movetime: Some(Duration::from_millis(10)), ..Limits::default() };
        assert_eq!(MoveClock::start(&fast, Color::White, true).probe_budget(0), None);
    }

    #[test]
    fn waiting_needs_a_time_lead_and_never_passes_the_flag() {
        let now = Instant::now();
        let ahead = clock(30_000, 20_000);
        let idle = |clock: Option<&Clock>, us| MoveClock::between_moves(clock, us);
        // 10 s ahead, less a margin of a fifth of our 30 s: 4 s.
        let overhead = Duration::ZERO;
        assert_eq!(idle(Some(&ahead), Color::White).wait_release(now, overhead), Some(now + Duration::from_secs(4)));
        assert_eq!(idle(Some(&ahead), Color::Black).wait_release(now, overhead), None);
        assert_eq!(idle(None, Color::White).wait_release(now, overhead), None);
        // A move overhead of 27 s moves the flag release 2 s ahead: before the lead (4 s) is used up.
        let limits = Limits { clock: Some(ahead), ..Limits::default() };
        let (started, lag) = (MoveClock::start(&limits, Color::White, false), Duration::from_secs(27));
        let flag = started.flag_release(lag).unwrap();
        assert!(flag < Instant::now() + Duration::from_secs(2));
        assert_eq!(started.wait_release(Instant::now(), lag), Some(flag));
        assert_eq!(started.partner_sit_limit(Instant::now(), lag, true), SitLimit::Lead(flag));
        let behind = Limits { clock: Some(clock(20_000, 30_000)), ..Limits::default() };
        let behind = running_for(&behind, Color::White, Duration::from_secs(17));
        let flag = behind.flag_release(overhead);
        assert_eq!(behind.partner_sit_limit(now, overhead, true), SitLimit::Refused);
        assert_eq!(behind.partner_sit_limit(now, overhead, false), SitLimit::Flag(flag));
        assert_eq!(idle(None, Color::White).partner_sit_limit(now, overhead, true), SitLimit::Flag(None));
    }
}
