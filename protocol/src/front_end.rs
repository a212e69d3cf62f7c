//! What the input loop and the front ends share: the events the loop waits
//! on, whether it goes on, and the [`FrontEnd`] it feeds. In a file of its own
//! so that the front ends need not import the loop that picks them.

use std::time::Instant;

use crate::input::InputEvent;
use crate::search_thread::SearchDone;

/// What reaches the input loop.
#[derive(Debug)]
pub enum Event {
    Input(InputEvent),
    SearchDone(SearchDone),
}

/// Whether the loop goes on after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// A protocol front end: UCI (with the bughouse extension) or CECP.
pub trait FrontEnd {
    fn handle_line(&mut self, line: &str) -> Flow;
    /// Reports a problem with the input that is not a command (an overlong line).
    fn report_error(&mut self, message: &str);
    fn on_search_done(&mut self, done: SearchDone) -> Flow;
    /// The input ended: finish what must be finished, then quit.
    fn on_input_closed(&mut self) -> Flow;
    /// When [`FrontEnd::on_deadline`] wants to be called, if ever.
    fn deadline(&self) -> Option<Instant>;
    fn on_deadline(&mut self) -> Flow;
    /// A search is running (its result is still to come).
    fn is_searching(&self) -> bool;
}
