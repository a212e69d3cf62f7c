//! What the input loop and the front ends share: the events the loop waits
//! on, whether it goes on, and the [`FrontEnd`] it feeds. In a file of its own
//! so that the front ends need not import the loop that picks them.

use tandem_engine::Position;

use crate::engine_api::SearchResult;
use crate::input::InputEvent;
use crate::output::Output;
use crate::search_thread::SearchDone;
use crate::seat::{SeatController, SeatEvent, SeatEvents};

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

/// A protocol front end: UCI (with the bughouse extension) or CECP. It parses
/// lines and prints; its [`SeatController`] runs the searches and holds moves.
pub trait FrontEnd {
    fn handle_line(&mut self, line: &str) -> Flow;
    /// Reports a problem with the input that is not a command (an overlong line).
    fn report_error(&mut self, message: &str);
    /// The input ended: finish what must be finished, then quit.
    fn on_input_closed(&mut self) -> Flow;
    fn seat(&mut self) -> &mut SeatController;
    /// Prints what the seat reports, the protocol's way.
    fn report(&mut self, events: SeatEvents);

    /// A search finished: its move is played or held. Once the input has
    /// ended, the loop ends when no move is held any more.
    fn on_search_done(&mut self, done: SearchDone) -> Flow {
        let events = self.seat().search_done(done);
        self.report(events);
        let seat = self.seat();
        if seat.is_closing() && !seat.holds_move() {
            return Flow::Quit;
        }
        Flow::Continue
    }

    /// The held move's deadline ([`SeatController::deadline`]) has come.
    fn on_deadline(&mut self) -> Flow {
        let events = self.seat().on_deadline();
        self.report(events);
        Flow::Continue
    }
}

/// How a protocol writes the seat's notes and partner tells: each line's prefix.
pub struct Voice {
    pub note: &'static str,
    pub tell: &'static str,
}

/// Prints the seat's notes and tells in `voice` and hands each move to `play`, in order.
pub fn print_events(out: &Output, voice: &Voice, events: SeatEvents, mut play: impl FnMut(SearchResult, Position)) {
    for event in events {
        match event {
            SeatEvent::Move { result, root } => play(result, root),
            SeatEvent::Note(text) => out.line(&format!("{}{text}", voice.note)),
            SeatEvent::Tell(message) => out.line(&format!("{}{message}", voice.tell)),
        }
    }
}
