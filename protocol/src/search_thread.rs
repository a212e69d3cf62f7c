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

use tandem_engine::search::Advice;
use tandem_engine::team::TeamContext;
use tandem_engine::Position;

use crate::front_end::Event;
use crate::engine_api::{Control, Engine, Info, Limits, SearchResult};
use crate::parse::InputError;
use crate::move_clock::MoveClock;

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

    /// Starts a search (cancelling any running one first); `clock`, the move's,
    /// sets what the advice after it may cost.
    pub fn start(&mut self, request: SearchRequest, clock: MoveClock, reporter: Reporter) -> Result<(), InputError> {
        self.cancel();
        let id = self.next_id;
        self.next_id += 1;
        let control = Arc::new(Control::new());
        control.set_pondering(request.ponder);
        let handle = self.spawn(id, &request, clock, Arc::clone(&control), reporter)?;
        self.running = Some(Running { id, control, handle, request });
        Ok(())
    }

    fn spawn(
        &self,
        id: u64,
        request: &SearchRequest,
        clock: MoveClock,
        control: Arc<Control>,
        mut reporter: Reporter,
    ) -> Result<JoinHandle<()>, InputError> {
        let engine = Arc::clone(&self.engine);
        let events = self.events.clone();
        let (root, history, limits) = (request.root.clone(), request.history.clone(), request.limits.clone());
        let team = request.team.clone();
        std::thread::Builder::new()
            .name(format!("search-{id}"))
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let result = match &team {
                    Some(team) => engine.search_team(&root, &history, &limits, &control, &team.context, &mut *reporter),
                    None => engine.search(&root, &history, &limits, &control, &mut *reporter),
                };
                let advice = team.filter(|t| t.advise).and_then(|team| {
                    let searched = Searched { root: &root, history: &history, limits: &limits, result: &result };
                    advise(&engine, &control, searched, team.context, &clock)
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

    /// `ponderhit`: the pondered move was played, the search's clock runs from now.
    pub fn ponderhit(&mut self) -> bool {
        match &mut self.running {
            Some(running) if running.control.is_pondering() => {
                running.control.set_pondering(false);
                running.request.ponder = false;
                true
            }
            _ => false,
        }
    }

    /// Takes the finished search's request if `done` is the current search;
    /// `None` for a stale result (a cancelled search), which is to be dropped.
    pub fn finish(&mut self, done: &SearchDone) -> Option<SearchRequest> {
        if self.running.as_ref().map(|r| r.id) != Some(done.id) {
            return None;
        }
        self.running.take().map(end)
    }

    /// Stops the running search and waits for it; its result will be ignored.
    /// Returns its request, to search it again.
    pub fn cancel(&mut self) -> Option<SearchRequest> {
        let running = self.running.take()?;
        running.control.stop();
        Some(end(running))
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
/// analysis (`infinite`), or when our clock is very low. `clock`: the move's,
/// as the search started (after pondering, the clocks of `go` count).
fn advise(
    engine: &Engine,
    control: &Control,
    searched: Searched<'_>,
    mut context: TeamContext,
    clock: &MoveClock,
) -> Option<Advice> {
    let Searched { root, history, limits, result } = searched;
    if control.is_stopped() || limits.infinite || result.best.is_none() {
        return None;
    }
    context.clocks.ours = clock.time_left();
    context.clocks.opponent = clock.opponent_time();
    let budget = clock.probe_budget(result.nodes)?;
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

/// Waits for a search thread and returns its request.
fn end(running: Running) -> SearchRequest {
    let _ = running.handle.join();
    running.request
}
