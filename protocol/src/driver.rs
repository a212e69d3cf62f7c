//! The input loop: detects the protocol from the first command, then feeds
//! lines, search results and timers to the chosen front end.

use std::io::Read;
use std::process::ExitCode;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::engine_api::Engine;
use crate::front_end::{Event, Flow, FrontEnd};
use crate::input::{spawn_reader, InputEvent, MAX_LINE_BYTES};
use crate::output::Output;
use crate::search_thread::Searcher;
use crate::uci::UciFrontEnd;
use crate::xboard::XboardFrontEnd;

/// How long `quit` waits for a stopped search to report its best move.
const QUIT_GRACE: Duration = Duration::from_millis(100);

/// Runs the engine on `input` until `quit` or the end of the input.
pub fn run<R: Read + Send + 'static>(input: R, out: Output) -> ExitCode {
    let (sender, events) = mpsc::channel();
    spawn_reader(input, sender.clone());
    let mut pending_searcher = Some(Searcher::new(Arc::new(Engine::new()), sender));
    let mut front_end: Option<Box<dyn FrontEnd>> = None;
    loop {
        let deadline = front_end.as_mut().and_then(|f| f.seat().deadline());
        let event = match deadline {
            Some(at) => match events.recv_timeout(at.saturating_duration_since(Instant::now())) {
                Ok(event) => Some(event),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => return ExitCode::SUCCESS,
            },
            None => match events.recv() {
                Ok(event) => Some(event),
                Err(_) => return ExitCode::SUCCESS,
            },
        };
        let flow = match event {
            None => front_end.as_mut().map_or(Flow::Continue, |f| f.on_deadline()),
            Some(Event::Input(InputEvent::Line(line))) => {
                if front_end.is_none() && line.trim().is_empty() {
                    continue;
                }
                match front_end_for(&mut front_end, &mut pending_searcher, &line, &out) {
                    Some(front) => front.handle_line(&line),
                    None => Flow::Continue,
                }
            }
            Some(Event::Input(InputEvent::TooLong(bytes))) => {
                if let Some(front) = front_end_for(&mut front_end, &mut pending_searcher, "", &out) {
                    front.report_error(&format!(
                        "line of {bytes} bytes ignored: longer than the limit of {MAX_LINE_BYTES} bytes"
                    ));
                }
                Flow::Continue
            }
            Some(Event::Input(InputEvent::Closed)) => match front_end.as_mut() {
                Some(front) => front.on_input_closed(),
                None => Flow::Quit,
            },
            Some(Event::SearchDone(done)) => match front_end.as_mut() {
                Some(front) => front.on_search_done(done),
                None => Flow::Continue,
            },
        };
        if flow == Flow::Quit {
            if let Some(front) = front_end.as_mut() {
                finish_stopped_search(front.as_mut(), &events);
            }
            return ExitCode::SUCCESS;
        }
    }
}

/// On `quit` mid-search the search was told to stop: give it a moment to
/// report, so the last best move is printed, but never wait long.
fn finish_stopped_search(front: &mut dyn FrontEnd, events: &mpsc::Receiver<Event>) {
    let give_up_at = Instant::now() + QUIT_GRACE;
    while front.seat().is_searching() {
        match events.recv_timeout(give_up_at.saturating_duration_since(Instant::now())) {
            Ok(Event::SearchDone(done)) => {
                front.on_search_done(done);
            }
            Ok(Event::Input(_)) => {}
            Err(_) => return,
        }
    }
}

/// The front end, chosen from the first line when there is none yet.
fn front_end_for<'a>(
    front_end: &'a mut Option<Box<dyn FrontEnd>>,
    pending_searcher: &mut Option<Searcher>,
    first_line: &str,
    out: &Output,
) -> Option<&'a mut Box<dyn FrontEnd>> {
    if front_end.is_none() {
        if let Some(searcher) = pending_searcher.take() {
            *front_end = Some(choose_front_end(first_line, out, searcher));
        }
    }
    front_end.as_mut()
}

/// `xboard` as the first command selects CECP; anything else is UCI (so a
/// script that starts with `position` or `go` still works).
fn choose_front_end(first_line: &str, out: &Output, searcher: Searcher) -> Box<dyn FrontEnd> {
    if first_line.split_whitespace().next() == Some("xboard") {
        Box::new(XboardFrontEnd::new(out.clone(), searcher))
    } else {
        Box::new(UciFrontEnd::new(out.clone(), searcher))
    }
}
