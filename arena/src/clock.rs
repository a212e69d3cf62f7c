//! Chess clocks driven by an explicit time, so that matches can run on the
//! wall clock and tests on a scripted timeline.
//!
//! Times are [`Duration`]s since the start of a match. A board's clock runs
//! for the side to move; the flag falls when the remaining time reaches zero.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use tandem_engine::Color;

/// Where "now" comes from.
pub trait TimeSource {
    /// Time elapsed since the start of the match.
    fn now(&self) -> Duration;
}

/// The real clock: time since `epoch`.
#[derive(Clone, Copy, Debug)]
pub struct WallClock {
    pub epoch: Instant,
}

impl WallClock {
    pub fn starting_now() -> WallClock {
        WallClock { epoch: Instant::now() }
    }

    /// An instant (for example when a reader thread saw a line) on this clock.
    pub fn at(&self, instant: Instant) -> Duration {
        instant.saturating_duration_since(self.epoch)
    }
}

impl TimeSource for WallClock {
    fn now(&self) -> Duration {
        self.epoch.elapsed()
    }
}

/// A time control: base time plus a Fischer increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
}

impl TimeControl {
    pub const fn new(base: Duration, increment: Duration) -> TimeControl {
        TimeControl { base, increment }
    }

    pub fn seconds(base: f64, increment: f64) -> TimeControl {
        TimeControl::new(Duration::from_secs_f64(base), Duration::from_secs_f64(increment))
    }
}

impl FromStr for TimeControl {
    type Err = String;

    /// `60+0.5`, `60`, `1:30+2` (minutes:seconds), `0.5+0`. Moves per session
    /// (`40/60`) are not supported: bughouse is played with sudden death.
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let bad = |why: &str| format!("invalid time control '{text}': {why}");
        if text.contains('/') {
            return Err(bad("moves per session (N/…) are not supported; use base+increment"));
        }
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let base = parse_seconds(base).ok_or_else(|| bad("expected seconds or M:SS before '+'"))?;
        let increment = parse_seconds(increment).ok_or_else(|| bad("expected seconds after '+'"))?;
        if base.is_zero() {
            return Err(bad("the base time must be positive"));
        }
        Ok(TimeControl { base, increment })
    }
}

/// `12`, `0.25`, `1:30`: a non-negative, finite number of seconds.
fn parse_seconds(text: &str) -> Option<Duration> {
    let text = text.trim();
    let seconds = match text.split_once(':') {
        Some((minutes, seconds)) => minutes.parse::<u32>().ok()? as f64 * 60.0 + seconds.parse::<f64>().ok()?,
        None => text.parse::<f64>().ok()?,
    };
    (seconds.is_finite() && (0.0..1e7).contains(&seconds)).then(|| Duration::from_secs_f64(seconds))
}

impl fmt::Display for TimeControl {
    /// PGN `TimeControl` style: `60+0.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}+{}", format_seconds(self.base), format_seconds(self.increment))
    }
}

/// Seconds without trailing zeros: `60`, `0.5`, `2.125`.
pub fn format_seconds(duration: Duration) -> String {
    let text = format!("{:.3}", duration.as_secs_f64());
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// One board's clock pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardClock {
    remaining: [Duration; 2],
    increment: [Duration; 2],
    /// The side whose clock runs, and since when.
    running: Option<(Color, Duration)>,
}

impl BoardClock {
    pub fn new(white: TimeControl, black: TimeControl) -> BoardClock {
        BoardClock { remaining: [white.base, black.base], increment: [white.increment, black.increment], running: None }
    }

    /// Starts `color`'s clock at `now` (stopping the other one without increment).
    pub fn start(&mut self, color: Color, now: Duration) {
        self.stop(now);
        self.running = Some((color, now));
    }

    /// The side whose clock runs.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(color, _)| color)
    }

    /// Stops the running clock without increment (the board is over).
    pub fn stop(&mut self, now: Duration) {
        if let Some((color, since)) = self.running.take() {
            let used = now.saturating_sub(since);
            self.remaining[index(color)] = self.remaining[index(color)].saturating_sub(used);
        }
    }

    /// The running side has moved at `now`: its time is charged, its increment
    /// added, and the opponent's clock starts. Returns the time the move took.
    pub fn press(&mut self, now: Duration) -> Duration {
        let Some((color, since)) = self.running else { return Duration::ZERO };
        let used = now.saturating_sub(since);
        let slot = &mut self.remaining[index(color)];
        *slot = slot.saturating_sub(used) + self.increment[index(color)];
        self.running = Some((color.other(), now));
        used
    }

    /// Time left for `color` at `now`.
    pub fn remaining(&self, color: Color, now: Duration) -> Duration {
        let stored = self.remaining[index(color)];
        match self.running {
            Some((running, since)) if running == color => stored.saturating_sub(now.saturating_sub(since)),
            _ => stored,
        }
    }

    pub fn increment(&self, color: Color) -> Duration {
        self.increment[index(color)]
    }

    /// When the running side's flag falls, if a clock runs.
    pub fn flag_instant(&self) -> Option<(Color, Duration)> {
        self.running.map(|(color, since)| (color, since + self.remaining[index(color)]))
    }

    /// The side whose flag has fallen by `now`, if any.
    pub fn flagged(&self, now: Duration) -> Option<Color> {
        self.flag_instant().filter(|&(_, at)| at <= now).map(|(color, _)| color)
    }
}

fn index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn time_controls_parse() {
        assert_eq!("60+0.5".parse(), Ok(TimeControl::new(ms(60_000), ms(500))));
        assert_eq!("1:30+2".parse(), Ok(TimeControl::new(ms(90_000), ms(2000))));
        assert_eq!("10".parse(), Ok(TimeControl::new(ms(10_000), ms(0))));
        for bad in ["", "abc", "40/60", "0+1", "-5+0", "5+x", "inf", "NaN+0"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!(TimeControl::seconds(60.0, 0.5).to_string(), "60+0.5");
    }

    #[test]
    fn clock_charges_the_side_to_move_and_adds_increment() {
        let tc = TimeControl::new(ms(10_000), ms(100));
        let mut clock = BoardClock::new(tc, tc);
        clock.start(Color::White, ms(0));
        assert_eq!(clock.remaining(Color::White, ms(2_500)), ms(7_500));
        assert_eq!(clock.press(ms(3_000)), ms(3_000));
        assert_eq!(clock.remaining(Color::White, ms(9_999)), ms(7_100));
        assert_eq!(clock.running(), Some(Color::Black));
        assert_eq!(clock.flag_instant(), Some((Color::Black, ms(13_000))));
        assert_eq!(clock.flagged(ms(12_999)), None);
        assert_eq!(clock.flagged(ms(13_000)), Some(Color::Black));
        clock.stop(ms(4_000));
        assert_eq!(clock.remaining(Color::Black, ms(50_000)), ms(9_000));
        assert_eq!(clock.flag_instant(), None);
    }
}
