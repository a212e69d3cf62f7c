//! `tandem match`: a match runner for bughouse-family engines.
//!
//! Four engine processes per match play two boards at once on real clocks,
//! with material flowing between the boards as it is captured; one-board
//! rules (crazyhouse, chess) and relay5 (five boards, walking players) are
//! refereed too. Every match is recorded as BPGN, and the run is scored with
//! the statistics rating testers know from cutechess and fastchess.
//!
//! The layers, from the outside in: [`cli`] (flags → [`cli::Plan`]),
//! [`runner`] (scheduling, records, scores), the arbiters [`matchplay`] and
//! [`relay5`] (rules, clocks, results) talking to [`seats::Seats`], which
//! [`engine_proc`] implements with processes and the protocol adapters
//! [`uci`] and [`xboard`].

pub mod analyse;
pub mod analyse_html;
pub mod bpgn;
pub mod cli;
pub mod clock;
pub mod engine_proc;
pub mod matchplay;
pub mod openings;
pub mod plan;
pub mod relay5;
pub mod runner;
pub mod san;
pub mod seats;
pub mod shards;
pub mod show;
pub mod stats;
pub mod time_use;
pub mod uci;
pub mod verdict;
pub mod xboard;

pub use analyse::AnalyseArgs;
pub use cli::{run, MatchArgs};
