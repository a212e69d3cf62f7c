//! The protocol side of tandem: UCI (with an opt-in bughouse extension) and
//! CECP (xboard/WinBoard), chosen from the first command. See PROTOCOL.md.
//!
//! Layout: [`input`] reads capped lines on a thread, [`driver`] runs the loop
//! and picks the front end ([`uci`] or [`xboard`]); the pure parsers
//! ([`uci_command`], [`xboard_command`]) turn lines into commands; [`session`],
//! [`board_state`] and [`bughouse`] hold the game; [`search_thread`] runs
//! searches on their own thread; [`output`] writes flushed lines.

pub mod board_state;
pub mod bughouse;
pub mod driver;
pub mod engine_api;
pub mod engine_settings;
pub mod front_end;
pub mod held_move;
pub mod input;
pub mod output;
pub mod parse;
pub mod partner_model;
pub mod search_thread;
pub mod seat;
pub mod session;
pub mod uci;
pub mod uci_command;
pub mod xboard;
pub mod xboard_command;

pub use driver::run;
pub use output::Output;
