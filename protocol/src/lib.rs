//! The protocol side of tandem: UCI (with an opt-in bughouse extension) and
//! CECP (xboard/WinBoard), chosen from the first command. See PROTOCOL.md.
//!
//! Layout: [`input`] reads capped lines on a thread, [`driver`] runs the loop
//! and picks the front end ([`uci`] or [`xboard`]), which it feeds through the
//! [`front_end::FrontEnd`] trait (with the loop's `Event` and `Flow`, in a file
//! of their own). A front end only parses ([`uci_command`], [`xboard_command`]:
//! pure parsers) and prints; its [`seat::SeatController`] does the rest for both
//! protocols: it owns the [`search_thread`] searcher, the [`session`] (with
//! [`board_state`] and [`bughouse`]), the held move ([`held_move`]) and the
//! move's clock ([`move_clock`]), settings that wait for a search ([`engine_settings`]) and what we tell the partner
//! ([`partner_model`]), and reports moves, notes and tells as events.
//! [`output`] writes flushed lines.

pub mod board_state;
pub mod bughouse;
pub mod driver;
pub mod engine_api;
pub mod engine_settings;
pub mod front_end;
pub mod held_move;
pub mod input;
pub mod move_clock;
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
