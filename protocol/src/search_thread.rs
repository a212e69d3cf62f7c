//! Searches run on their own thread so the input loop keeps reading: `stop`,
//! `isready`, `quit` and reserve updates are answered while the engine thinks.
//!
//! Each search has an id. Its result comes back to the input loop as an
//! [`Event::SearchDone`]; a search that was cancelled (to restart it from an
//! updated root) still sends one, which the loop recognises as stale and drops,
//! so exactly one best move is printed per `go`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tandem_engine::search::engine::Advice;
use tandem_engine::team::TeamContext;
use tandem_engine::Position;

use crate::front_end::Event;
use crate::engine_api::{Control, Engine, Info, Limits, SearchResult};
use crate::parse::InputError;
use crate::partner_model::probe_nodes;

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
    /// A bughouse search of our board: the partner-board model.
    pub team: Option<TeamSearch>,
}

/// The partner-board model for one search.
#[derive(Clone, Debug)]
pub struct TeamSearch {
    pub context: TeamContext,
    /// Ask the model for advice (sitting, messages) once the search is done.
    pub advise: bool,
}

/// A finished search, as delivered to the input loop.
#[derive(Debug)]
pub struct SearchDone {
    pub id: u64,
    pub result: SearchResult,
    /// The partner-board model's advice, when it was asked for and given.
    pub advice: Option<Advice>,
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
        let (team, ponder) = (request.team.clone(), request.ponder);
        std::thread::Builder::new()
            .name(format!("search-{id}"))
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let started = Instant::now();
                let result = match &team {
                    Some(team) => engine.search_team(&root, &history, &limits, &control, &team.context, &mut *reporter),
                    None => engine.search(&root, &history, &limits, &control, &mut *reporter),
                };
                let advice = team.filter(|t| t.advise).and_then(|team| {
                    let searched = Searched { root: &root, history: &history, limits: &limits, result: &result };
                    advise(&engine, &control, searched, team.context, (!ponder).then_some(started))
                });
                let _ = events.send(Event::SearchDone(SearchDone { id, result, advice }));
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
        self.running.take().map(|running| end(running).0)
    }

    /// Stops the running search and waits for it; its result will be ignored.
    /// Returns its request with the limits left after the time it used.
    pub fn cancel(&mut self) -> Option<SearchRequest> {
        let running = self.running.take()?;
        running.control.stop();
        let (mut request, used) = end(running);
        // A restart continues the same move: the time manager plans for it whole.
        request.limits.spent += used;
        Some(request)
    }

    /// Restarts the running search from a new root (a reserve changed), with
    /// the time it has left and `team`, the partner-board model as it is now.
    /// False if no search was running.
    pub fn restart(&mut self, root: Position, history: Vec<u64>, team: Option<TeamSearch>, reporter: Reporter) -> Result<bool, InputError> {
        let Some(mut request) = self.cancel() else {
            return Ok(false);
        };
        request.root = root;
        request.history = history;
        request.team = team;
        self.start(request, reporter)?;
        Ok(true)
    }
}

/// A finished search, as the advice needs it.
struct Searched<'a> {
    root: &'a Position,
    history: &'a [u64],
    limits: &'a Limits,
    result: &'a SearchResult,
}

/// The model's advice after a search, within about a tenth of the move's time.
/// None when the move is wanted now (`stop`), when there is no move, in
/// analysis (`infinite`), or when our clock is very low. `clock_started`: when
/// our clock started (`None` after pondering: then the clocks of `go` are used).
fn advise(
    engine: &Engine,
    control: &Control,
    searched: Searched<'_>,
    mut context: TeamContext,
    clock_started: Option<Instant>,
) -> Option<Advice> {
    let Searched { root, history, limits, result } = searched;
    if control.is_stopped() || limits.infinite || result.best.is_none() {
        return None;
    }
    let us = root.turn();
    let elapsed = clock_started.map(|t| t.elapsed()).unwrap_or_default();
    // The limits' clock is what is left of this move's time (a restart after a
    // reserve update takes the time already used off it).
    let left = limits.clock.and_then(|c| c.time(us)).map(|t| t.saturating_sub(elapsed));
    context.clocks.ours = left;
    context.clocks.opponent = limits.clock.and_then(|c| c.time(us.other()));
    let budget = probe_nodes(limits, us, left, result.nodes, elapsed)?;
    let score = result.score.map_or(0, crate::engine_api::Score::internal);
    // `stop` (or `quit`) ends the probes at once, and so does the time cap
    // (should the machine slow down after the speed was measured): the advice
    // is then incomplete and dropped.
    let probes = Control::new();
    let finished = AtomicBool::new(false);
    let deadline = budget.time_cap.map(|cap| Instant::now() + cap);
    let advice = std::thread::scope(|scope| {
        let watchdog = std::thread::Builder::new().name("advice-watchdog".into()).spawn_scoped(scope, || {
            while !finished.load(Ordering::Relaxed) {
                if control.is_stopped() || deadline.is_some_and(|at| Instant::now() >= at) {
                    probes.stop();
                    return;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        // Without a watchdog the probes could not be stopped: no advice then.
        watchdog.ok()?;
        let advice = engine.advise_with_control(root, history, &context, score, budget.nodes, &probes);
        finished.store(true, Ordering::Relaxed);
        Some(advice)
    });
    advice.filter(|_| !probes.is_stopped())
}

/// Waits for a search thread and returns its request, less the time used,
/// and that time.
fn end(running: Running) -> (SearchRequest, Duration) {
    let _ = running.handle.join();
    let used = running.clock_started.map(|t| t.elapsed()).unwrap_or_default();
    let mut request = running.request;
    request.limits = limits_after(&request.limits, request.root.turn(), used);
    (request, used)
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
