//! The search API the front ends program against (`tandem_engine::search`).

pub use tandem_engine::search::{Bound, Clock, Control, Engine, Info, Limits, Score, SearchResult};
