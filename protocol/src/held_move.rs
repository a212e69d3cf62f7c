//! A best move that is found but not yet played: after `go infinite` or a
//! ponder search until `stop` / `ponderhit`; while our partner has asked us
//! to sit, until they say `go` (or our clock runs low); while the partner-board
//! model waits for a piece, until material arrives or our time lead is used
//! up; while the partner's opponent is frozen and flags before us, until it
//! does; and a frozen position (no legal move yet), until material arrives.

use std::time::Instant;

use tandem_engine::Role;

use crate::engine_api::SearchResult;
use crate::move_clock::MoveClock;
use crate::search_thread::SearchRequest;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HoldReason {
    /// `go infinite` or pondering: the GUI must say `stop` or `ponderhit`.
    UntilStopped,
    /// Our partner said `sit`.
    Sitting,
    /// The partner-board model waits for this piece (our time lead allows it).
    Waiting(Role),
    /// The partner's opponent is frozen and has less time than we do: every
    /// move of ours could let our opponent capture the piece that frees it.
    SittingOut,
    /// No legal move until material arrives (RULES.md §3): there is no move
    /// to hold, only a `bestmove (none)` for `stop`.
    Frozen,
}

/// What a search is for, as the seat needs to know when it ends.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchPurpose {
    /// It searches our own board (not the partner board of a `position bfen`).
    pub our_board: bool,
    /// The move's time: when it started, when our flag falls, what earlier searches used.
    pub clock: MoveClock,
    /// The GUI asked for the move (`stop`, `?`): never hold it.
    pub stop_requested: bool,
}

#[derive(Debug)]
pub struct HeldMove {
    pub result: SearchResult,
    pub reason: HoldReason,
    /// The search that found it, to restart it when material arrives.
    pub request: SearchRequest,
    pub purpose: SearchPurpose,
    /// When sitting must end so that our clock does not fall.
    pub release_at: Option<Instant>,
    /// `release_at` is where our time lead over the opponent runs out (else
    /// it is the margin before our flag).
    pub lead_limited: bool,
}

impl HeldMove {
    /// Does a partner message release this move? `go` (or `x` of a `sit`,
    /// leaving `sitting` false) releases a move held for the partner; `go`
    /// also ends our own wait for a piece: the partner knows their board.
    pub fn released_by_partner(&self, sitting: bool, go: bool) -> bool {
        match self.reason {
            HoldReason::Sitting => !sitting,
            HoldReason::Waiting(_) | HoldReason::SittingOut => go,
            HoldReason::UntilStopped | HoldReason::Frozen => false,
        }
    }

    /// Is the moment to stop sitting reached?
    pub fn is_due(&self) -> bool {
        self.release_at.is_some_and(|at| at <= Instant::now())
    }

    /// Why sitting ended at `release_at`, for the log.
    pub fn release_note(&self) -> &'static str {
        if self.reason == HoldReason::SittingOut {
            "sitting ends: the partner's opponent did not flag in time"
        } else if self.lead_limited {
            "sitting ends: our time lead is used up"
        } else {
            "sitting ends: our clock runs low"
        }
    }
}

