//! The rules core of tandem: a bitboard move generator with reserves for every
//! family of RULES.md (bughouse, tandem, Tandemschach, French rules, crazyhouse,
//! chess, relay5), two-board games with material flow, FEN/BFEN and perft.
//!
//! No I/O lives here: the protocol and arena crates do the talking.

mod fen;
mod game;
mod movegen;
mod moves;
mod perft;
mod position;
mod reserve;
mod rules;
mod status;
mod zobrist;

// The engine's parts other crates program against, each a module with a curated
// list of its own: the searcher (`search::Engine`, its limits and results, the
// few evaluation items the tuner needs), the partner-board model (`team`), the
// network evaluation (`nnue`) and the signature search of `tandem bench`.
pub mod bench;
pub mod nnue;
pub mod search;
pub mod team;

// The rules core: positions, moves, reserves, games of two boards, the rules in
// force, FEN/BFEN and perft.
pub use fen::{
    parse_bfen, parse_bfen_with, parse_fen, parse_fen_with, parse_reserve_letters, to_bfen, to_fen, FenError, STARTPOS,
};
pub use game::{BoardId, Game, History, IllegalMove, Seat, Team, SEAT_NAMES};
pub use movegen::{CheckSquares, Counter, MoveError, MoveSink};
pub use moves::{Move, MoveKind, MoveList, MAX_MOVES};
pub use perft::{divide, perft};
pub use position::{MoveEffects, Position};
pub use reserve::{Reserve, HAND_ROLES};
pub use rules::{
    rule_options, DropChecks, Flow, Mate, MatchEnd, OptionInfo, PawnDrops, Preset, Promotion, Repetition,
    Rules, RulesError, Simultaneous, Stalemate,
};
pub use shakmaty::{Bitboard, Color, Piece, Role, Square};
pub use status::Status;
