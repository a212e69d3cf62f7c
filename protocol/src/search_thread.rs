//! Searches run on their own thread so the input loop keeps reading: `stop`,
//! `isready`, `quit` and reserve updates are answered while the engine thinks.
//!
//! Each search has an id. Its result comes back to the input loop as an
//! [`Event::SearchDone`]; a search that was cancelled (to restart it from an
//! updated root) still sends one, which the loop recognises as stale and drops,
//! so exactly one best move is printed per `go`.

use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tandem_engine::Position;

use crate::driver::Event;
use crate::engine_api::{Control, Engine, Info, Limits, SearchResult};
use crate::parse::InputError;

/// Room for deep recursion with a move list per ply on the search stack.
const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;

/// What to search.
#[derive(Clone, Debug)]
pub struct SearchRequest {
    pub root: Position,
    /// Hashes of the positions before `root` on its board, oldest first.
    pub history: Vec<u64>,
    pub limits: Limits,
    /// `go ponder`: time does not run until `ponderhit`.
    pub ponder: bool,
}

/// A finished search, as delivered to the input loop.
#[derive(Debug)]
pub struct SearchDone {
    pub id: u64,
    pub result: SearchResult,
}

/// Receives each `Info` of a search, on the search thread.
pub type Reporter = Box<dyn FnMut(&Info) + Send>;

struct Running {
    id: u64,
    control: Arc<Control>,
    handle: JoinHandle<()>,
    request: SearchRequest,
    /// When our clock started for this search (`None` while pondering).
    clock_started: Option<Instant>,
}

/// Owns the engine and the one search that may be running.
pub struct Searcher {
    engine: Arc<Engine>,
    events: Sender<Event>,
    running: Option<Running>,
    next_id: u64,
}

impl Searcher {
    pub fn new(engine: Arc<Engine>, events: Sender<Event>) -> Searcher {
        Searcher { engine, events, running: None, next_id: 1 }
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// The request of the running search.
    pub fn current(&self) -> Option<&SearchRequest> {
        self.running.as_ref().map(|r| &r.request)
    }

    /// Starts a search (cancelling any running one first).
    pub fn start(&mut self, request: SearchRequest, reporter: Reporter) -> Result<(), InputError> {
        self.cancel();
        let id = self.next_id;
        self.next_id += 1;
        let control = Arc::new(Control::new());
        control.set_pondering(request.ponder);
        let handle = self.spawn(id, &request, Arc::clone(&control), reporter)?;
        let clock_started = (!request.ponder).then(Instant::now);
        self.running = Some(Running { id, control, handle, request, clock_started });
        Ok(())
    }

    fn spawn(
        &self,
        id: u64,
        request: &SearchRequest,
        control: Arc<Control>,
        mut reporter: Reporter,
    ) -> Result<JoinHandle<()>, InputError> {
        let engine = Arc::clone(&self.engine);
        let events = self.events.clone();
        let (root, history, limits) = (request.root.clone(), request.history.clone(), request.limits.clone());
        std::thread::Builder::new()
            .name(format!("search-{id}"))
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let result = engine.search(&root, &history, &limits, &control, &mut *reporter);
                let _ = events.send(Event::SearchDone(SearchDone { id, result }));
            })
            .map_err(|e| InputError::new(format!("cannot start a search thread: {e}")))
    }

    /// Asks the running search to finish; its result arrives as an event.
    pub fn stop(&self) {
        if let Some(running) = &self.running {
            running.control.stop();
        }
    }

    /// `ponderhit`: the pondered move was played, our clock runs from now.
    pub fn ponderhit(&mut self) -> bool {
        match &mut self.running {
            Some(running) if running.control.is_pondering() => {
                running.control.set_pondering(false);
                running.request.ponder = false;
                running.clock_started = Some(Instant::now());
                true
            }
            _ => false,
        }
    }

    /// Takes the finished search's request if `done` is the current search;
    /// `None` for a stale result (a cancelled search), which is to be dropped.
    /// The request's limits are what is left after the time it used.
    pub fn finish(&mut self, done: &SearchDone) -> Option<SearchRequest> {
        if self.running.as_ref().map(|r| r.id) != Some(done.id) {
            return None;
        }
        self.running.take().map(end)
    }

    /// Stops the running search and waits for it; its result will be ignored.
    /// Returns its request with the limits left after the time it used.
    pub fn cancel(&mut self) -> Option<SearchRequest> {
        let running = self.running.take()?;
        running.control.stop();
        Some(end(running))
    }

    /// Restarts the running search from a new root (a reserve changed), with
    /// the time it has left. False if no search was running.
    pub fn restart(&mut self, root: Position, history: Vec<u64>, reporter: Reporter) -> Result<bool, InputError> {
        let Some(mut request) = self.cancel() else {
            return Ok(false);
        };
        request.root = root;
        request.history = history;
        self.start(request, reporter)?;
        Ok(true)
    }
}

/// Waits for a search thread and returns its request, less the time used.
fn end(running: Running) -> SearchRequest {
    let _ = running.handle.join();
    let used = running.clock_started.map(|t| t.elapsed()).unwrap_or_default();
    let mut request = running.request;
    request.limits = limits_after(&request.limits, request.root.turn(), used);
    request
}

/// The limits of a search that already used `used` of our time.
pub fn limits_after(limits: &Limits, us: tandem_engine::Color, used: Duration) -> Limits {
    let mut left = limits.clone();
    if let Some(movetime) = left.movetime {
        left.movetime = Some(movetime.saturating_sub(used).max(Duration::from_millis(1)));
    }
    if let Some(clock) = &mut left.clock {
        if let Some(time) = clock.time[us as usize] {
            clock.time[us as usize] = Some(time.saturating_sub(used));
        }
    }
    left
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine_api::Clock;
    use tandem_engine::Color;

    fn clock_times(white: Duration, black: Duration) -> [Option<Duration>; 2] {
        let mut time = [None; 2];
        time[Color::White as usize] = Some(white);
        time[Color::Black as usize] = Some(black);
        time
    }

    #[test]
    fn limits_after_takes_used_time_off_our_clock_only() {
        let limits = Limits {
            movetime: Some(Duration::from_millis(100)),
            clock: Some(Clock {
                time: clock_times(Duration::from_secs(10), Duration::from_secs(20)),
                ..Clock::default()
            }),
            ..Limits::default()
        };
        let left = limits_after(&limits, Color::Black, Duration::from_secs(1));
        assert_eq!(left.movetime, Some(Duration::from_millis(1)));
        let clock = left.clock.unwrap();
        assert_eq!(clock.time, clock_times(Duration::from_secs(10), Duration::from_secs(19)));
    }
}
