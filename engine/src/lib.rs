//! The rules core of tandem: a bitboard move generator with reserves for every
//! family of RULES.md (bughouse, tandem, Tandemschach, French rules, crazyhouse,
//! chess, relay5), two-board games with material flow, FEN/BFEN and perft.
//!
//! No I/O lives here: the protocol and arena crates do the talking.

pub mod bench;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod nnue;
pub mod moves;
pub mod perft;
pub mod position;
pub mod reserve;
pub mod rules;
pub mod search;
pub mod status;
pub mod team;
pub mod zobrist;

pub use fen::{parse_bfen, parse_bfen_with, parse_fen, parse_fen_with, to_bfen, to_fen, FenError, STARTPOS};
pub use game::{BoardId, Game, History, IllegalMove, Seat, Team, SEAT_NAMES};
pub use movegen::{CheckSquares, Counter, MoveError, MoveSink};
pub use moves::{Move, MoveKind, MoveList, MAX_MOVES};
pub use perft::{divide, perft};
pub use position::{MoveEffects, Position};
pub use reserve::Reserve;
pub use rules::{
    rule_options, DropChecks, Flow, Mate, MatchEnd, OptionInfo, PawnDrops, Preset, Promotion, Repetition,
    Rules, RulesError, Simultaneous, Stalemate,
};
pub use shakmaty::{Bitboard, Color, Piece, Role, Square};
pub use status::Status;
