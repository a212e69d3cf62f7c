//! The opponent's pace on our board, read from the clocks of our moves.
//!
//! In a two-board game the other board plays on while we think, and what it
//! captures lands in the hands on ours. A search sees the hands as they were
//! when it started, so the longer we think, the staler our move: after a
//! 1.4 s think at 60+0, one and a half moves of the other board had been
//! played, against a third of one for Fairy-Stockfish, which moves in about
//! 0.2 s; it dropped the pieces that had arrived in the meantime, and tandem
//! lost 1 - 9 with either evaluation. Given the opponent's mean
//! ([`crate::search::Limits::opponent_pace`], which the protocol's
//! `Team Pace` option supplies), the time manager of a two-board game plans
//! our mean move to be about the same. Paced, tandem's moves were as fresh
//! as Fairy-Stockfish's, but over 30 paired matches the score moved within
//! noise, hence an option (docs/experiments/2026-12-07-pace-at-60-0.md).
//!
//! The mean, not the median: staleness grows with the time the other board
//! gets, and a few long thinks give it as much as many short ones. An
//! opponent that sits for a piece raises the mean, which only brings our
//! budget back towards the clock's own.

use std::time::Duration;

/// Opponent moves seen before the pace is trusted: the first replies of a
/// game are often instant (a book, a recapture).
const MIN_SAMPLES: u32 = 2;

/// The opponent's thinking time per move in the current game, measured from
/// its clock at each of our moves (`go`'s `wtime`/`btime`, xboard's `otim`).
#[derive(Clone, Debug, Default)]
pub struct OpponentPace {
    /// The game ply and the opponent's clock at our previous move.
    last: Option<(u64, Duration)>,
    total: Duration,
    samples: u32,
}

impl OpponentPace {
    /// A new game: nothing known.
    pub fn reset(&mut self) {
        *self = OpponentPace::default();
    }

    /// Our move at game `ply` (half-moves from the start), the opponent's
    /// clock at `opponent_left` with `increment` per move. When exactly one
    /// opponent move came since our last, its thinking time is a sample; a
    /// ply that went back (a new game, a taken-back move) starts afresh. A
    /// clock that did not move at all is no sample: the front end does not
    /// know the opponent's time (an xboard GUI that sends no `otim`) rather
    /// than the opponent thought for exactly its increment.
    pub fn observe(&mut self, ply: u64, opponent_left: Duration, increment: Duration) {
        match self.last {
            Some((last_ply, _)) if ply < last_ply => self.reset(),
            Some((last_ply, last_left)) if ply == last_ply + 2 && opponent_left != last_left => {
                // The clock may have gone up by less than the increment (a fast move).
                if let Some(used) = (last_left + increment).checked_sub(opponent_left) {
                    self.total += used;
                    self.samples += 1;
                }
            }
            _ => {}
        }
        self.last = Some((ply, opponent_left));
    }

    /// The mean time per move, once enough moves were seen.
    pub fn mean(&self) -> Option<Duration> {
        (self.samples >= MIN_SAMPLES).then(|| self.total / self.samples)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_mean_counts_one_opponent_move_between_ours() {
        let mut pace = OpponentPace::default();
        pace.observe(10, ms(60_000), ms(100));
        assert_eq!(pace.mean(), None);
        pace.observe(12, ms(59_900), ms(100)); // 200 ms thought, 100 ms back
        assert_eq!(pace.mean(), None, "one sample is not yet a pace");
        pace.observe(14, ms(59_600), ms(100)); // 400 ms
        assert_eq!(pace.mean(), Some(ms(300)));
        // A jump of several plies (a position set up afresh) gives no sample but a new baseline.
        pace.observe(20, ms(50_000), ms(100));
        assert_eq!(pace.mean(), Some(ms(300)));
        pace.observe(22, ms(49_500), ms(100));
        assert_eq!(pace.mean(), Some(ms(400)));
        // The same ply again (a second `go` for one position) is no move of the opponent.
        pace.observe(22, ms(49_500), ms(100));
        assert_eq!(pace.mean(), Some(ms(400)));
    }

    #[test]
    fn a_new_game_forgets_the_old_pace() {
        let mut pace = OpponentPace::default();
        for (i, left) in [60_000, 59_000, 58_000].into_iter().enumerate() {
            pace.observe(2 * i as u64 + 1, ms(left), Duration::ZERO);
        }
        assert_eq!(pace.mean(), Some(ms(1000)));
        pace.observe(0, ms(60_000), Duration::ZERO);
        assert_eq!(pace.mean(), None);
        let mut cleared = pace.clone();
        cleared.reset();
        assert_eq!(cleared.mean(), None);
    }

    #[test]
    fn an_opponent_clock_that_never_moves_is_no_pace() {
        let mut pace = OpponentPace::default();
        for ply in [1, 3, 5, 7] {
            pace.observe(ply, ms(60_000), ms(100));
        }
        assert_eq!(pace.mean(), None);
    }

    #[test]
    fn a_clock_that_gained_more_than_the_increment_gives_no_sample() {
        let mut pace = OpponentPace::default();
        pace.observe(2, ms(10_000), ms(100));
        pace.observe(4, ms(10_500), ms(100));
        pace.observe(6, ms(10_400), ms(100));
        pace.observe(8, ms(10_300), ms(100));
        assert_eq!(pace.mean(), Some(ms(200)), "only the last two moves count");
    }
}
