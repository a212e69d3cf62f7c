//! What the arbiter says to the engines at the table and what they answer,
//! independent of protocol and of processes.
//!
//! The arbiters ([`crate::matchplay`], [`crate::relay5`]) talk to a [`Seats`]
//! implementation: real engine processes on the wall clock
//! ([`crate::engine_proc::ProcessSeats`]) or a scripted table on a virtual
//! clock in tests. Seats are numbered; each arbiter documents its numbering.

use std::fmt;
use std::time::Duration;

use tandem_engine::{Color, Reserve, Rules};

use crate::clock::TimeControl;

pub type SeatIndex = usize;

/// Clock readings sent with a move request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockReading {
    pub white: Duration,
    pub black: Duration,
    pub white_increment: Duration,
    pub black_increment: Duration,
}

/// The partner's board, for engines that can use it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartnerView {
    pub fen: String,
    pub clocks: ClockReading,
}

/// "Your move": everything an engine of any protocol needs to search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRequest {
    /// Identifies the board within the run; a change tells stateful
    /// protocols (xboard) to set the position up again.
    pub board_key: u64,
    pub color: Color,
    /// The board's starting FEN and its moves since, in UCI notation.
    pub start_fen: String,
    pub moves: Vec<String>,
    /// The current FEN with reserves.
    pub fen: String,
    /// Both reserves now (white, black).
    pub reserves: [Reserve; 2],
    /// True when reserves change from outside the board's own moves, so the
    /// move list alone does not reproduce the position.
    pub outside_material: bool,
    pub clocks: ClockReading,
    pub partner: Option<PartnerView>,
}

/// How a seat's game is set up at the start of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSetup {
    pub rules: Rules,
    /// `A`/`B` for bughouse boards, `1`..`5` for relay5 (informational).
    pub board_label: String,
    pub color: Color,
    pub own_time: TimeControl,
    pub opponent_time: TimeControl,
    pub start_fen: String,
    pub partner_name: Option<String>,
    pub opponent_name: String,
}

/// A message from the arbiter to one engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToEngine {
    NewGame(GameSetup),
    Go(MoveRequest),
    /// The reserves of the engine's board changed (material from the partner board).
    Reserves {
        fen: String,
        reserves: [Reserve; 2],
    },
    /// A message from the partner.
    PartnerTell(String),
    /// The engine's board is over (`result` from the board's White's point of view).
    GameOver {
        result: String,
        reason: String,
    },
}

/// What went wrong with an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaultKind {
    /// Could not be started or did not finish its handshake.
    Startup,
    /// Its process ended or its pipe broke.
    Crash,
    /// A move text that is not a move at all, or a protocol violation.
    Garbage,
    /// A well-formed move that is not legal.
    Illegal,
    /// Gave up: `resign`, `bestmove (none)` with legal moves on the board.
    Resign,
    /// Did not move before its flag fell.
    Time,
}

impl FaultKind {
    pub const ALL: [FaultKind; 6] = [
        FaultKind::Startup,
        FaultKind::Crash,
        FaultKind::Garbage,
        FaultKind::Illegal,
        FaultKind::Resign,
        FaultKind::Time,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Startup => "startup failure",
            FaultKind::Crash => "crash",
            FaultKind::Garbage => "garbage",
            FaultKind::Illegal => "illegal move",
            FaultKind::Resign => "resignation",
            FaultKind::Time => "time forfeit",
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A message from one engine to the arbiter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FromEngine {
    /// A move in UCI notation (already normalised from the protocol's form).
    Move(String),
    /// A message for the partner.
    Tell(String),
    Fault {
        kind: FaultKind,
        detail: String,
    },
}

/// One message with its sender and the time it arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatEvent {
    pub seat: SeatIndex,
    pub at: Duration,
    pub message: FromEngine,
}

/// The engines at the table, with the time they live in.
pub trait Seats {
    /// Time since the start of the match.
    fn now(&self) -> Duration;

    /// Sends a message; a failure to deliver comes back as a fault event.
    fn send(&mut self, seat: SeatIndex, message: ToEngine);

    /// The next message, or `None` once `deadline` has passed without one
    /// (or sooner when a stop was requested).
    fn next_event(&mut self, deadline: Duration) -> Option<SeatEvent>;

    /// Ends a faulty engine; with `restart`, starts a fresh one in its seat
    /// (relay5, where a player has more boards to play).
    fn retire(&mut self, seat: SeatIndex, restart: bool);

    /// True once the user asked the run to stop (Ctrl-C).
    fn stop_requested(&self) -> bool {
        false
    }
}

/// Index of a colour in `[white, black]` arrays such as [`MoveRequest::reserves`].
pub fn slot(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The BPGN result text of a board from its White's point of view.
pub fn board_result_text(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    }
}
