//! The searcher: parallel alpha-beta (Lazy SMP) with a drop-chess evaluation.
//!
//! - `engine`: the façade ([`Engine`]) and the Lazy SMP scheme;
//! - `alphabeta`: one thread's principal variation search and quiescence;
//! - `ordering`: the staged move picker and its heuristics;
//! - `eval`: the evaluation and its parameters;
//! - `correction`: the correction history of the evaluation;
//! - `tt`: the lock-free transposition table (entry layout documented there);
//! - `see`: static exchange evaluation;
//! - `timeman`: time management, and `pace`: the opponent's pace, which bounds it in two-board games;
//! - `prove`: exhaustive proofs of short mates (`go mate`);
//! - `limits`: what a caller asks and what it gets back.

mod alphabeta;
mod correction;
mod engine;
pub(crate) mod eval;
mod evalcache;
mod limits;
mod ordering;
mod pace;
mod params;
mod prove;
pub(crate) mod see;
mod timeman;
mod tt;

/// The engine and its settings' bounds (`Hash`, `Threads`).
pub use engine::{Advice, Engine, DEFAULT_HASH_MB, MAX_HASH_MB, MAX_THREADS};
/// What a caller asks (limits, the clock, stop and ponder flags) and what it gets back.
pub use limits::{Bound, Clock, Control, Info, Limits, Score, SearchResult};
/// The mate score: a mate in n plies scores `MATE - n`.
pub use alphabeta::MATE;
/// The classical evaluation with explicit parameters, for tuning (`tandem-tune`).
pub use eval::{evaluate_params, EvalParams, Expected};
/// Moves planned for when the clock gives no `movestogo`.
pub use timeman::EXPECTED_MOVES_LEFT;
/// The opponent's thinking time per move, measured from the clocks of our moves.
pub use pace::OpponentPace;
/// Exhaustive mate proofs (the shortest mate for `go mate N`, the mate suite's lengths).
pub use prove::{MateProof, MateProver, PROVER_MAX_MOVES};
