//! What the caller asks of a search, and what the search reports back.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use shakmaty::Color;

use crate::moves::Move;

/// Clock state for the board being searched, as UCI `go` gives it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Remaining time of each side, indexed by `Color as usize` (shakmaty
    /// numbers Black 0 and White 1: use [`Clock::time`] rather than literals).
    pub time: [Option<Duration>; 2],
    pub increment: [Duration; 2],
    pub moves_to_go: Option<u32>,
}

impl Clock {
    pub fn time(&self, color: Color) -> Option<Duration> {
        self.time[color as usize]
    }

    pub fn increment(&self, color: Color) -> Duration {
        self.increment[color as usize]
    }
}

/// Limits of one search. Several may be set: the first one reached stops it.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// Find a mate in this many moves (full moves, as UCI `go mate`).
    pub mate: Option<u32>,
    /// Search until stopped (also while pondering).
    pub infinite: bool,
    pub clock: Option<Clock>,
    /// Restrict the root to these moves (UCI `searchmoves`).
    pub search_moves: Vec<Move>,
    /// Number of principal variations to report (UCI `MultiPV`).
    pub multipv: usize,
    /// Time kept back per move for communication lag (UCI `Move Overhead`).
    pub move_overhead: Duration,
    /// Time this move already spent in searches that were restarted from a
    /// new root (a reserve changed mid-move). The clock in `clock` is already
    /// that much lower; the time manager plans for the whole move.
    pub spent: Duration,
    /// The opponent's mean thinking time per move this game, where known
    /// ([`crate::search::OpponentPace`]). In two-board games a move is
    /// planned no longer than it.
    pub opponent_pace: Option<Duration>,
}

/// Shared flags through which the caller steers a running search.
#[derive(Debug, Default)]
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
}

impl Control {
    pub fn new() -> Control {
        Control::default()
    }

    /// Ends the search as soon as possible; it still reports its best move.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// While pondering, time limits do not run (UCI `go ponder` … `ponderhit`).
    pub fn set_pondering(&self, on: bool) {
        self.pondering.store(on, Ordering::Relaxed);
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
}

/// A search score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: we are mated).
    Mate(i32),
}

impl Score {
    /// The score in the search's internal units: centipawns, and mates as
    /// `MATE` less the plies to them (the inverse of what a search reports).
    pub fn internal(self) -> i32 {
        use super::alphabeta::MATE;
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => MATE - 2 * n + 1,
            Score::Mate(n) => -MATE - 2 * n,
        }
    }
}

/// Whether a reported score is exact or only a bound (aspiration fail).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One `info` report: an iteration (or a MultiPV line) finished.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based MultiPV index.
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    pub nodes: u64,
    pub time: Duration,
    /// Transposition table use in permille.
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

impl Info {
    pub fn nps(&self) -> u64 {
        let ms = self.time.as_millis().max(1) as u64;
        self.nodes.saturating_mul(1000) / ms
    }
}

/// What a finished search returns.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// `None` only when the side to move has no legal move.
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Option<Score>,
    pub depth: u32,
    pub nodes: u64,
}
