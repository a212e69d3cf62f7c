//! How long each engine thought, read from the clock comments of records:
//! its time a move (median and mean) and, on two or more boards, how many
//! moves the other boards made while it thought. A search sees the hands as
//! they were when it started, so those moves are what its move did not know
//! of (docs/experiments/2026-12-07-pace-at-60-0.md).

use std::time::Duration;

use crate::bpgn::Record;
use crate::clock::format_seconds;

/// One engine's thinking over the records read.
#[derive(Clone, Debug, Default)]
struct EngineTime {
    /// Each move's time: the drop of the mover's clock since its previous move, the increment added back.
    moves: Vec<Duration>,
    /// Moves on other boards while it thought, summed over its moves on a table of several boards.
    other_board_moves: usize,
    multi_board_moves: usize,
}

/// Time use per engine, in the order engines were first seen.
#[derive(Clone, Debug, Default)]
pub struct TimeUse {
    engines: Vec<(String, EngineTime)>,
}

impl TimeUse {
    /// Adds a record's moves; a seat without a time control tag or clock comments adds nothing.
    pub fn add(&mut self, record: &Record) {
        // (board, colour) → the clock after the seat's last move.
        let mut last_clock: Vec<((usize, bool), Duration)> = Vec::new();
        for (i, m) in record.moves.iter().enumerate() {
            let Some(clock) = m.clock else { continue };
            let Some(control) = record.time_control(m.board, m.color) else { continue };
            let seat = (m.board.index(), m.color.is_white());
            let before = match last_clock.iter_mut().find(|(s, _)| *s == seat) {
                Some((_, last)) => std::mem::replace(last, clock),
                None => {
                    last_clock.push((seat, clock));
                    control.base
                }
            };
            let name = record.tag(record.seat_tag(m.board, m.color)).unwrap_or("?").to_string();
            let engine = self.engine(&name);
            // Saturating: a hostile record may give any clock a `Duration` holds.
            engine.moves.push(before.saturating_add(control.increment).saturating_sub(clock));
            if record.two_board {
                // The moves since the previous one on this board, all on the other board, were made while the mover thought.
                let since = record.moves[..i].iter().rposition(|e| e.board == m.board).map_or(0, |j| j + 1);
                engine.other_board_moves += i - since;
                engine.multi_board_moves += 1;
            }
        }
    }

    fn engine(&mut self, name: &str) -> &mut EngineTime {
        let at = match self.engines.iter().position(|(n, _)| n == name) {
            Some(at) => at,
            None => {
                self.engines.push((name.to_string(), EngineTime::default()));
                self.engines.len() - 1
            }
        };
        &mut self.engines[at].1
    }

    /// One line per engine: `Time a move of fsf: median 0.18 s, mean 0.25 s over 422 moves; 0.31 other-board moves while it thought`.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for (name, time) in &self.engines {
            let mut moves = time.moves.clone();
            if moves.is_empty() {
                continue;
            }
            moves.sort();
            let median = moves[moves.len() / 2];
            let seconds = moves.iter().map(Duration::as_secs_f64).sum::<f64>() / moves.len() as f64;
            let mean = Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX);
            let mut line = format!(
                "Time a move of {name}: median {} s, mean {} s over {} moves",
                format_seconds(round_ms(median)),
                format_seconds(round_ms(mean)),
                moves.len()
            );
            if time.multi_board_moves > 0 {
                let stale = time.other_board_moves as f64 / time.multi_board_moves as f64;
                line.push_str(&format!("; {stale:.2} other-board moves while it thought"));
            }
            lines.push(line);
        }
        lines
    }
}

fn round_ms(d: Duration) -> Duration {
    Duration::from_millis((d.as_secs_f64() * 1000.0).round() as u64) // `as` saturates
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bpgn::read_records;

    const MATCH: &str = r#"[WhiteA "fast"]
[BlackA "slow"]
[WhiteB "slow"]
[BlackB "fast"]
[TimeControl "10+1"]
[Result "1-0"]

1A. e4{10.5} 1B. e4{10.0} 1b. e5{10.8} 1a. e5{9.0} 2A. Nf3{10.9}
2a. Nc6{7.0} 2B. Nf3{8.0} {BlackA resigns} 1-0
"#;

    #[test]
    fn each_engine_s_time_and_the_other_board_s_moves_meanwhile() {
        let records = read_records(MATCH).unwrap();
        let mut time_use = TimeUse::default();
        time_use.add(&records[0]);
        // fast: 0.5 (1A), 0.2 (1b), 0.6 s (2A), each right after its opponent's move on its board;
        // slow: 1.0 (1B, after 1A), 2.0 (1a, after 1B and 1b), 3.0 (2a), 3.0 s (2B, after 1a, 2A and 2a).
        let lines = time_use.lines();
        assert_eq!(lines[0], "Time a move of fast: median 0.5 s, mean 0.433 s over 3 moves; 0.00 other-board moves while it thought");
        assert_eq!(lines[1], "Time a move of slow: median 3 s, mean 2.25 s over 4 moves; 1.50 other-board moves while it thought");
    }

    #[test]
    fn seats_on_different_clocks_use_their_own_control() {
        // Team 1 (WhiteA, BlackB) on 10+0.1, team 2 on 60+0, as `--tc team1=… --tc team2=…` writes them.
        let record = "[WhiteA \"t\"]\n[BlackA \"f\"]\n[WhiteB \"f\"]\n[BlackB \"t\"]\n\
                      [WhiteATimeControl \"10+0.1\"]\n[BlackATimeControl \"60+0\"]\n\
                      [WhiteBTimeControl \"60+0\"]\n[BlackBTimeControl \"10+0.1\"]\n[Result \"*\"]\n\n\
                      1A. e4{9.9} 1a. e5{59.5} 1B. d4{59.0} 1b. d5{9.5} *\n";
        let mut time_use = TimeUse::default();
        time_use.add(&read_records(record).unwrap()[0]);
        let lines = time_use.lines();
        assert!(lines[0].starts_with("Time a move of t: median 0.6 s, mean 0.4 s over 2 moves"), "{lines:?}");
        assert!(lines[1].starts_with("Time a move of f: median 1 s, mean 0.75 s over 2 moves"), "{lines:?}");
    }

    #[test]
    fn absurd_clocks_neither_overflow_nor_panic() {
        let huge = "[WhiteA \"a\"]\n[BlackA \"a\"]\n[WhiteB \"b\"]\n[BlackB \"b\"]\n[TimeControl \"60+0\"]\n[Result \"*\"]\n\n\
                    1A. e4{1e19} 1a. e5{1e19} 2A. Nf3{0} 2a. Nc6{0} *\n";
        let mut time_use = TimeUse::default();
        time_use.add(&read_records(huge).unwrap()[0]);
        assert!(time_use.lines()[0].starts_with("Time a move of a: median "), "{:?}", time_use.lines());
    }

    #[test]
    fn records_without_clocks_add_nothing() {
        let records = read_records("[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 e5 *\n").unwrap();
        let mut time_use = TimeUse::default();
        time_use.add(&records[0]);
        assert!(time_use.lines().is_empty());
    }
}
