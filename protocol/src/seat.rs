//! Our seat at the board, as both front ends drive it: the searcher and the
//! session, the engine settings that wait for a search to end, the move held
//! back (until `stop`, sitting, waiting for a piece, frozen) and its release,
//! the restart when material arrives, and what we tell our partner.
//!
//! It prints nothing: what happens comes back as [`SeatEvent`]s, which each
//! front end prints its way (UCI `bestmove` / `info string` / `ptell`, CECP
//! `move` / `#` / `tellics ptell`).

use std::time::{Duration, Instant};

use tandem_engine::team::{is_frozen_to_move, roles_that_free};
use tandem_engine::search::OpponentPace;
use tandem_engine::{Color, Move, Position, Role, Status};

use crate::bughouse::PartnerMessage;
use crate::engine_api::{Limits, SearchResult};
use crate::engine_settings::{DeferredChanges, EngineChange, EvalChoice};
use crate::held_move::{HeldMove, HoldReason, SearchPurpose};
use crate::move_clock::{MoveClock, SitLimit};
use crate::parse::InputError;
use crate::partner_model::{role_name, team_context, Outbox, TeamOptions};
use crate::search_thread::{Reporter, SearchDone, SearchRequest, Searcher, TeamSearch};
use crate::session::Session;

/// What the seat reports, in the order it happened.
#[derive(Debug)]
pub enum SeatEvent {
    /// A move to play (`result.best` is `None`: there is none), found from `root`.
    Move { result: SearchResult, root: Position },
    /// A line for the log (`info string …`, `# …`).
    Note(String),
    /// A message for our partner (only when we may talk).
    Tell(String),
}

pub type SeatEvents = Vec<SeatEvent>;

/// Where the two protocols want a seat to behave differently.
#[derive(Clone, Copy, Debug)]
pub struct Conventions {
    /// Kept back from each move for the lag of the GUI (and of an ICS, over
    /// CECP) until set otherwise (UCI `Move Overhead`); sitting ends this much earlier too.
    pub move_overhead: Duration,
    /// Searches without an end of their own (`go infinite`, ponder, a frozen
    /// position) keep their move for `stop`: one `bestmove` per `go` (UCI).
    /// Without: analysis has no move to play, and a frozen position is a
    /// move-less result at once, whose front end tells what it waits for (CECP).
    pub waits_for_stop: bool,
    /// We talk to the partner only once one is assigned (CECP `partner`).
    pub tells_need_partner: bool,
    /// What we say while waiting, and a `sit` withdrawn, are recorded as said
    /// even with `Team Messages` off (as CECP always did).
    pub records_unsaid: bool,
}

impl Conventions {
    pub const UCI: Conventions = Conventions {
        move_overhead: Duration::from_millis(10),
        waits_for_stop: true,
        tells_need_partner: false,
        records_unsaid: false,
    };
    pub const CECP: Conventions = Conventions {
        move_overhead: Duration::from_millis(30),
        waits_for_stop: false,
        tells_need_partner: true,
        records_unsaid: true,
    };
}

/// Why and until when a found move waits.
#[derive(Clone, Copy, Debug)]
struct Hold {
    reason: HoldReason,
    release_at: Option<Instant>,
    /// `release_at` is where our time lead ends (else the margin before our flag).
    lead_limited: bool,
}

impl Hold {
    fn new(reason: HoldReason) -> Hold {
        Hold { reason, release_at: None, lead_limited: false }
    }
}

pub struct SeatController {
    searcher: Searcher,
    pub session: Session,
    /// The partner-board model's switches (`Partner Model`, `Team …`).
    pub team: TeamOptions,
    /// Kept back from each move ([`Conventions::move_overhead`] until set).
    pub move_overhead: Duration,
    /// Bughouse play (UCI: after `bughouse`; CECP: always): the team model and its holds.
    pub bughouse: bool,
    /// `Use NNUE` and `EvalFile`.
    pub eval: EvalChoice,
    conventions: Conventions,
    deferred: DeferredChanges,
    /// The running search's purpose.
    active: SearchPurpose,
    held: Option<HeldMove>,
    /// What we told our partner (each message once).
    outbox: Outbox,
    /// The input ended or `quit` came: moves are no longer held.
    closing: bool,
    /// The opponent's time per move this game, from the clocks of our moves.
    pace: OpponentPace,
}

impl SeatController {
    pub fn new(searcher: Searcher, conventions: Conventions) -> SeatController {
        let mut seat = SeatController {
            searcher,
            session: Session::default(),
            team: TeamOptions::default(),
            move_overhead: conventions.move_overhead,
            bughouse: false,
            eval: EvalChoice::default(),
            conventions,
            deferred: DeferredChanges::default(),
            active: SearchPurpose::default(),
            held: None,
            outbox: Outbox::default(),
            closing: false,
            pace: OpponentPace::default(),
        };
        // The engine starts on the classical evaluation; the options' defaults may say otherwise.
        seat.change_engine(seat.eval.change());
        seat
    }

    pub fn is_searching(&self) -> bool {
        self.searcher.is_running()
    }

    /// A search runs or its move is held: no new one may start.
    pub fn is_busy(&self) -> bool {
        self.searcher.is_running() || self.held.is_some()
    }

    /// The request of the running search.
    pub fn current(&self) -> Option<&SearchRequest> {
        self.searcher.current()
    }

    /// Hash, threads or clearing: now when idle, else when the search ends.
    /// `Use NNUE`: the network on or off for drop boards.
    pub fn use_network(&mut self, on: bool) {
        let change = self.eval.set_use(on);
        self.change_engine(change);
    }

    /// `EvalFile`: a network file (`<embedded>`: the built-in one); a refused
    /// file leaves the evaluation as it was.
    pub fn load_network(&mut self, path: &str) -> Result<(), InputError> {
        let change = self.eval.set_file(path)?;
        self.change_engine(change);
        Ok(())
    }

    pub fn change_engine(&mut self, change: EngineChange) {
        self.deferred.request(self.searcher.engine(), self.searcher.is_running(), change);
    }

    /// A new game: the start position, the engine's table cleared, everything sayable again.
    pub fn new_game(&mut self) {
        self.session.new_game();
        self.outbox.reset();
        self.pace.reset();
        self.change_engine(EngineChange::Clear);
    }

    /// A new partner or seating: what we told the partner is forgotten.
    pub fn reset_outbox(&mut self) {
        self.outbox.reset();
    }

    /// `quit` or the end of the input: from now on a found move is played, not held.
    pub fn close(&mut self) {
        self.closing = true;
    }

    pub fn is_closing(&self) -> bool {
        self.closing
    }

    pub fn holds_move(&self) -> bool {
        self.held.is_some()
    }

    /// The partner-board model for a search: in bughouse play, two-board
    /// rules, for a search of our own board.
    pub fn team_search(&self, our_board: bool, root: &Position, limits: &Limits) -> Option<TeamSearch> {
        if !(self.bughouse && our_board && self.session.rules().is_two_board()) {
            return None;
        }
        let context = team_context(&self.session.bughouse, root, limits.clock.as_ref(), &self.team);
        let switches = context.switches;
        // Sitting needs the partner board (the arrival forecast); messages need someone to hear them.
        let talk = switches.messages && self.partner_listens();
        let advise = talk || (switches.sitting && context.partner_board.is_some());
        Some(TeamSearch { context, advise })
    }

    /// Starts a search; `our_board`: of our own board (not the partner board of `position bfen`).
    pub fn start(&mut self, mut request: SearchRequest, our_board: bool, reporter: Reporter) -> Result<(), InputError> {
        if our_board {
            let pace = self.opponent_pace(&request);
            request.limits.opponent_pace = pace.filter(|_| self.team.pace);
        }
        let clock = MoveClock::start(&request.limits, request.root.turn(), request.ponder);
        self.searcher.start(request, clock, reporter)?;
        self.active = SearchPurpose { our_board, clock, stop_requested: false };
        Ok(())
    }

    /// The opponent's pace, its clock of this move counted in (a pondering
    /// search's clocks are not yet those of our move).
    fn opponent_pace(&mut self, request: &SearchRequest) -> Option<Duration> {
        let (root, clock) = (&request.root, request.limits.clock.as_ref());
        let them = root.turn().other();
        if let (false, Some(left)) = (request.ponder, clock.and_then(|c| c.time(them))) {
            // In u64: a FEN may give any u32 fullmove number.
            let ply = 2 * u64::from(root.fullmoves().saturating_sub(1)) + u64::from(root.turn() == Color::Black);
            self.pace.observe(ply, left, clock.map(|c| c.increment(them)).unwrap_or_default());
        }
        self.pace.mean()
    }

    /// Asks the running search to end; its move is then handled as any other.
    pub fn stop_search(&self) {
        self.searcher.stop();
    }

    /// Drops the search and any held move without playing either.
    pub fn abandon(&mut self) {
        self.searcher.cancel();
        self.held = None;
        self.active = SearchPurpose::default();
        // What waited for the search to end (hash, threads) applies now.
        self.deferred.apply_queued(self.searcher.engine());
    }

    /// `stop`, `?` or the partner's `move`: the held move now, or the search's
    /// best move as soon as it stops (never held).
    pub fn move_now(&mut self) -> SeatEvents {
        if let Some(held) = self.held.take() {
            return vec![play(held)];
        }
        if self.searcher.is_running() {
            self.active.stop_requested = true;
            self.searcher.stop();
        }
        Vec::new()
    }

    /// The held move, played now (the input ended).
    pub fn release_held(&mut self) -> SeatEvents {
        self.held.take().map(play).into_iter().collect()
    }

    /// `ponderhit`: our clock runs from now, or a move held after pondering is
    /// played. `None`: we were not pondering.
    pub fn ponderhit(&mut self) -> Option<SeatEvents> {
        if self.searcher.ponderhit() {
            self.active.clock.ponderhit();
            return Some(Vec::new());
        }
        let held = self.held.take_if(|h| h.request.ponder)?;
        Some(vec![play(held)])
    }

    /// Our board's reserves changed: its search restarts from the new root with
    /// the time left and the partner-board model built again (the partner
    /// board, clocks and requests may have changed), and so does a held move.
    /// False when there was neither.
    pub fn restart_for_material(&mut self, reporter: Reporter) -> Result<bool, InputError> {
        let root = self.session.board.position().clone();
        if self.searcher.is_running() && self.active.our_board {
            let Some(request) = self.searcher.cancel() else {
                return Ok(false);
            };
            // The model gets our clock as the cancelled search started.
            let team = self.team_search(true, &root, &request.limits);
            let mut purpose = self.active;
            purpose.clock.restart(request.ponder);
            return self.search_again(request, root, team, purpose, reporter);
        }
        let Some(held) = self.held.take_if(|h| h.purpose.our_board) else {
            return Ok(false);
        };
        let mut purpose = held.purpose;
        purpose.clock.restart(held.request.ponder);
        let team = self.team_search(true, &root, &purpose.clock.limits(&held.request.limits));
        self.search_again(held.request, root, team, purpose, reporter)
    }

    /// Searches `request` again from `root` (our board) with what is left of the move's clock.
    fn search_again(
        &mut self,
        mut request: SearchRequest,
        root: Position,
        team: Option<TeamSearch>,
        purpose: SearchPurpose,
        reporter: Reporter,
    ) -> Result<bool, InputError> {
        request.limits = purpose.clock.limits(&request.limits);
        request.history = self.session.board.history().to_vec();
        (request.root, request.team) = (root, team);
        self.searcher.start(request, purpose.clock, reporter)?;
        self.active = purpose;
        Ok(true)
    }

    /// The root of our move that the partner may cut short: a finite search
    /// of our board that is running, or a move held for the partner or for a
    /// piece. Not `go infinite` or `ponder` (no move before `stop`), nor the
    /// analysis of the partner board.
    pub fn our_move_in_progress(&self) -> Option<&Position> {
        if let Some(held) = &self.held {
            let waiting = matches!(held.reason, HoldReason::Sitting | HoldReason::Waiting(_) | HoldReason::SittingOut);
            return (waiting && held.purpose.our_board).then_some(&held.request.root);
        }
        let request = self.searcher.current()?;
        (self.active.our_board && !request.ponder && !request.limits.infinite).then_some(&request.root)
    }

    /// The partner's `move <m>`: `m` is played instead of what we search or hold.
    pub fn play_partner_move(&mut self, m: Move) -> SeatEvents {
        self.session.bughouse.requests.planned_move = None;
        self.abandon();
        let root = self.session.board.position().clone();
        vec![SeatEvent::Move { result: SearchResult { best: Some(m), ..SearchResult::default() }, root }]
    }

    /// The partner said `sit`: only one of us sits, so a `sit` of ours is withdrawn.
    pub fn partner_sits(&mut self) -> SeatEvents {
        if !self.records() {
            return Vec::new();
        }
        let withdrawn = self.outbox.partner_sits();
        self.tells(withdrawn.into_iter().collect())
    }

    /// After a partner message or a new partner board (`partner …`, `ptell
    /// board`): the held move, if that released it (`go`, `x` of their `sit`,
    /// or the partner's opponent we sit out no longer frozen).
    pub fn release_for_partner(&mut self, go: bool) -> SeatEvents {
        let sitting = self.session.bughouse.requests.sitting;
        let us = self.session.board.position().turn();
        let partner_board = self.session.bughouse.partner_board.as_ref().map(|b| b.position());
        let freed = !partner_board.is_some_and(|board| is_frozen_to_move(board, us));
        let freed_out = |h: &HeldMove| h.reason == HoldReason::SittingOut && freed;
        let Some(held) = self.held.take_if(|h| h.released_by_partner(sitting, go) || freed_out(h)) else {
            return Vec::new();
        };
        let mut events = Vec::new();
        if freed_out(&held) {
            events.push(SeatEvent::Note("sitting ends: the partner's opponent is no longer frozen".to_string()));
        }
        events.push(play(held));
        events
    }

    /// We moved: a `fast` we said is lifted.
    pub fn moved(&mut self) -> SeatEvents {
        let messages = self.outbox.moved();
        self.tells(messages)
    }

    /// We wait for material: what helps (`need`), `dead` when frozen in check, `fast`.
    pub fn waiting(&mut self, need: &[Role], in_check: bool) -> SeatEvents {
        if !self.records() {
            return Vec::new();
        }
        let messages = self.outbox.waiting(need, in_check);
        self.tells(messages)
    }

    /// When the held move wants [`SeatController::on_deadline`], if ever.
    pub fn deadline(&self) -> Option<Instant> {
        self.held.as_ref().and_then(|h| h.release_at)
    }

    /// Sitting ends when our time lead is used up or our clock runs low.
    pub fn on_deadline(&mut self) -> SeatEvents {
        let Some(held) = self.held.take_if(|h| h.is_due()) else {
            return Vec::new();
        };
        vec![SeatEvent::Note(held.release_note().to_string()), play(held)]
    }

    /// A search finished: stale results are dropped; otherwise the partner
    /// hears the advice, and the move is played or held.
    pub fn search_done(&mut self, done: SearchDone) -> SeatEvents {
        let Some(request) = self.searcher.finish(&done) else {
            return Vec::new();
        };
        self.deferred.apply_queued(self.searcher.engine());
        let mut purpose = std::mem::take(&mut self.active);
        purpose.clock.search_ended();
        let mut events = self.tell_after_search(&done, &request);
        if request.limits.infinite && !self.conventions.waits_for_stop {
            // Analysis that ended: there is no move to play.
            return events;
        }
        match self.hold(&done, &request, &purpose, &mut events) {
            Some(hold) => {
                events.extend(self.announce_hold(&done, hold));
                let Hold { reason, release_at, lead_limited } = hold;
                let result = done.result;
                self.held = Some(HeldMove { result, reason, request, purpose, release_at, lead_limited });
            }
            None => events.push(SeatEvent::Move { result: done.result, root: request.root }),
        }
        events
    }

    /// Whether a finished search's move must wait, why and until when.
    fn hold(
        &self,
        done: &SearchDone,
        request: &SearchRequest,
        purpose: &SearchPurpose,
        events: &mut SeatEvents,
    ) -> Option<Hold> {
        if purpose.stop_requested || self.closing {
            return None;
        }
        if request.ponder || request.limits.infinite {
            return Some(Hold::new(HoldReason::UntilStopped));
        }
        if !(self.bughouse && purpose.our_board) {
            return None;
        }
        if done.result.best.is_none() {
            // Frozen: wait for material, never give up while a piece may come.
            let frozen = request.team.is_some() && request.root.status() == Status::Frozen;
            return (frozen && self.conventions.waits_for_stop).then_some(Hold::new(HoldReason::Frozen));
        }
        let (clock, now, overhead) = (&purpose.clock, Instant::now(), self.move_overhead);
        if self.team.messages_on() && self.session.bughouse.requests.sitting {
            let sitting = |release_at, lead_limited| Hold { reason: HoldReason::Sitting, release_at, lead_limited };
            return match clock.partner_sit_limit(now, overhead, self.team.sitting_on()) {
                SitLimit::Flag(at) => Some(sitting(at, false)),
                SitLimit::Lead(at) => Some(sitting(Some(at), true)),
                SitLimit::Refused => {
                    let note = "partner asked us to sit, but we are not ahead on the clock: moving";
                    events.push(SeatEvent::Note(note.to_string()));
                    None
                }
            };
        }
        if !(self.team.sitting_on() && request.team.is_some()) {
            return None;
        }
        if let Some(release) = self.sit_out_release(request, clock, now) {
            return Some(Hold { reason: HoldReason::SittingOut, release_at: Some(release), lead_limited: false });
        }
        let role = done.advice.as_ref()?.sit?.waiting_for?;
        let release = clock.wait_release(now, overhead)?;
        Some(Hold { reason: HoldReason::Waiting(role), release_at: Some(release), lead_limited: true })
    }

    /// When to stop sitting out the partner's opponent, if it is frozen on
    /// the partner board (it plays our colour there) and flags before us:
    /// while we sit, our opponent cannot capture the piece that would free it.
    fn sit_out_release(&self, request: &SearchRequest, clock: &MoveClock, now: Instant) -> Option<Instant> {
        let context = &request.team.as_ref()?.context;
        let partner_board = context.partner_board.as_ref()?;
        if !is_frozen_to_move(partner_board, request.root.turn()) {
            return None;
        }
        clock.sit_out_release(now, self.move_overhead, context.clocks.partner_opponent?)
    }

    /// Says why a move is held; waiting for a piece, asks for it (unless the advice did).
    fn announce_hold(&mut self, done: &SearchDone, hold: Hold) -> SeatEvents {
        let note = |text: &str| vec![SeatEvent::Note(text.to_string())];
        match hold.reason {
            HoldReason::Sitting => note("sitting: the move waits for the partner's 'go'"),
            HoldReason::SittingOut => note("sitting: the partner's opponent is frozen and flags before us"),
            HoldReason::Waiting(role) => {
                let ms = hold.release_at.map_or(0, |at| at.saturating_duration_since(Instant::now()).as_millis());
                let mut events = note(&format!("sitting: waiting for a {} for at most {ms} ms", role_name(role)));
                let asked = done.advice.iter().flat_map(|a| &a.messages).any(|m| matches!(m, PartnerMessage::Need(_)));
                let need = if asked { Vec::new() } else { vec![role] };
                events.extend(self.waiting(&need, false));
                events
            }
            HoldReason::Frozen => note("frozen: no legal move until material arrives"),
            HoldReason::UntilStopped => Vec::new(),
        }
    }

    /// Tells the partner what a finished bughouse search found; a frozen
    /// position that the seat holds asks for what frees it.
    fn tell_after_search(&mut self, done: &SearchDone, request: &SearchRequest) -> SeatEvents {
        let mut events = Vec::new();
        if request.team.is_none() {
            return events;
        }
        if let (Some(advice), true) = (&done.advice, self.team.messages_on()) {
            let partner_sitting_us = self.session.bughouse.requests.sitting;
            let messages = self.outbox.after_advice(&advice.messages, partner_sitting_us);
            events.extend(self.tells(messages));
        }
        let root = &request.root;
        if self.conventions.waits_for_stop && done.result.best.is_none() && root.status() == Status::Frozen {
            events.extend(self.waiting(&roles_that_free(root), root.is_check()));
        }
        events
    }

    /// Someone hears our messages: always over UCI, an assigned partner over CECP.
    fn partner_listens(&self) -> bool {
        !self.conventions.tells_need_partner || self.session.bughouse.partner_name.is_some()
    }

    /// The outbox keeps what we say while waiting (see [`Conventions::records_unsaid`]).
    fn records(&self) -> bool {
        self.conventions.records_unsaid || self.team.messages_on()
    }

    /// `messages` as tells, when `Team Messages` is on and someone listens.
    fn tells(&self, messages: Vec<String>) -> SeatEvents {
        if !(self.team.messages_on() && self.partner_listens()) {
            return Vec::new();
        }
        messages.into_iter().map(SeatEvent::Tell).collect()
    }
}

/// A held move, to be played now.
fn play(held: HeldMove) -> SeatEvent {
    SeatEvent::Move { result: held.result, root: held.request.root }
}
