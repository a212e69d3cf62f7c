//! The searcher: parallel alpha-beta (Lazy SMP) with a drop-chess evaluation.
//!
//! - [`engine`]: the façade ([`Engine`]) and the Lazy SMP scheme;
//! - [`alphabeta`]: one thread's principal variation search and quiescence;
//! - [`ordering`]: the staged move picker and its heuristics;
//! - [`eval`]: the evaluation and its parameters;
//! - [`correction`]: the correction history of the evaluation;
//! - [`tt`]: the lock-free transposition table (entry layout documented there);
//! - [`see`]: static exchange evaluation;
//! - [`timeman`]: time management;
//! - [`limits`]: what a caller asks and what it gets back.

pub mod alphabeta;
pub mod correction;
pub mod engine;
pub mod eval;
pub mod evalcache;
pub mod limits;
pub mod ordering;
pub mod params;
pub mod see;
pub mod timeman;
pub mod tt;

pub use engine::Engine;
pub use limits::{Bound, Clock, Control, Info, Limits, Score, SearchResult};
