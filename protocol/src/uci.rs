//! The UCI front end, with the opt-in bughouse extension (see PROTOCOL.md).

use std::time::{Duration, Instant};

use tandem_engine::team::{roles_that_free, VOCABULARY};
use tandem_engine::{BoardId, Game, Move, Position, Promotion, Reserve, Status};

use crate::board_state::BoardState;
use crate::bughouse::{PartnerMessage, Seat};
use crate::front_end::{Flow, FrontEnd};
use crate::engine_api::{Bound, Clock, Info, Limits, Score, SearchResult};
use crate::engine_settings::{check_hash_fits, DeferredChanges, EngineChange, DEFAULT_HASH_MB, MAX_HASH_MB, MAX_THREADS};
use crate::held_move::{sit_release_time, HeldMove, HoldReason, SearchPurpose};
use crate::output::{echo, Output};
use crate::parse::{number_in, InputError};
use crate::partner_model::{
    describe, partner_sit_limit, role_name, team_context, wait_release, Outbox, SitLimit, TeamOptions, TEAM_OPTIONS,
};
use crate::search_thread::{Reporter, SearchDone, SearchRequest, Searcher, TeamSearch};
use crate::session::{variant_named, RulesConfig, Session, VARIANTS};
use crate::uci_command::{parse_uci_line, GoCommand, PartnerCommand, PositionCommand, Setup, UciCommand};

const MAX_MULTIPV: usize = 256;
const MAX_MOVE_OVERHEAD_MS: u64 = 5000;
const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;

/// What `bughouse` answers: the extension's features, then `bughouseok`.
const EXTENSION_FEATURES: &str = "feature seat partner reserve clocks ptell bfen board";

struct UciOptions {
    multipv: usize,
    ponder: bool,
    move_overhead: Duration,
    /// The partner-board model's switches (`Partner Model`, `Team …`).
    team: TeamOptions,
}

pub struct UciFrontEnd {
    out: Output,
    searcher: Searcher,
    session: Session,
    options: UciOptions,
    deferred: DeferredChanges,
    debug: bool,
    extensions: bool,
    /// `seat` was given: we play that colour, and a `go` with the other side
    /// to move on our board is refused. Without it we play the side to move.
    seat_given: bool,
    /// The running search's purpose.
    active: SearchPurpose,
    held: Option<HeldMove>,
    /// The input ended: quit once the last best move is out.
    closing: bool,
    /// What we told our partner (each message once).
    outbox: Outbox,
}

impl UciFrontEnd {
    pub fn new(out: Output, searcher: Searcher) -> UciFrontEnd {
        UciFrontEnd {
            out,
            searcher,
            session: Session::default(),
            options: UciOptions {
                multipv: 1,
                ponder: false,
                move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
                team: TeamOptions::default(),
            },
            deferred: DeferredChanges::default(),
            debug: false,
            extensions: false,
            seat_given: false,
            active: SearchPurpose::default(),
            held: None,
            closing: false,
            outbox: Outbox::default(),
        }
    }

    fn info_string(&self, text: &str) {
        self.out.line(&format!("info string {text}"));
    }

    fn error(&self, error: &InputError) {
        self.info_string(&format!("error: {error}"));
    }

    fn execute(&mut self, command: UciCommand) -> Result<Flow, InputError> {
        match command {
            UciCommand::Uci => self.identify(),
            UciCommand::Debug(on) => self.debug = on,
            UciCommand::IsReady => self.out.line("readyok"),
            UciCommand::SetOption { name, value } => self.set_option(&name, value.as_deref())?,
            UciCommand::Register => {}
            UciCommand::UciNewGame => self.new_game(),
            UciCommand::Position(position) => self.set_position(position)?,
            UciCommand::Go(go) => self.go(go)?,
            UciCommand::Stop => self.stop(),
            UciCommand::PonderHit => self.ponderhit(),
            UciCommand::Quit => {
                self.closing = true;
                self.searcher.stop();
                return Ok(Flow::Quit);
            }
            UciCommand::Display => self.display(),
            UciCommand::Bughouse => {
                self.extensions = true;
                self.out.line(EXTENSION_FEATURES);
                self.out.line("bughouseok");
            }
            UciCommand::Seat(seat) => {
                // A runner seats us for every game: what we told the partner is forgotten.
                self.outbox.reset();
                self.set_seat(seat);
                self.seat_given = true;
            }
            UciCommand::Partner(partner) => self.set_partner(partner)?,
            UciCommand::Reserve(reserves) => self.set_reserves(reserves)?,
            UciCommand::PTell(message) => self.partner_message(message),
        }
        Ok(Flow::Continue)
    }

    fn identify(&self) {
        let variants: String = VARIANTS.iter().map(|p| format!(" var {}", p.name())).collect();
        let team_options = TEAM_OPTIONS
            .iter()
            .map(|name| format!("option name {name} type check default {}", TeamOptions::default_of(name)));
        for line in [
            format!("id name tandem {}", env!("CARGO_PKG_VERSION")),
            "id author the tandem developers".to_string(),
            format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"),
            format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
            format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
            "option name Ponder type check default false".to_string(),
            format!(
                "option name Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max {MAX_MOVE_OVERHEAD_MS}"
            ),
            format!("option name UCI_Variant type combo default chess{variants}"),
            "option name UCI_Chess960 type check default false".to_string(),
            "option name Rules type string default <empty>".to_string(),
            "option name Clear Hash type button".to_string(),
        ]
        .into_iter()
        .chain(team_options)
        .chain(["uciok".to_string()])
        {
            self.out.line(&line);
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), InputError> {
        let lower = name.to_ascii_lowercase();
        let needs_value = || {
            value.filter(|v| !v.is_empty()).ok_or_else(|| InputError::new(format!("option '{}' needs a value", echo(name))))
        };
        let searching = self.searcher.is_running();
        match lower.as_str() {
            "hash" => {
                let mb = number_in("Hash", Some(needs_value()?), 1, MAX_HASH_MB)?;
                check_hash_fits(mb)?;
                self.deferred.request(self.searcher.engine(), searching, EngineChange::HashMb(mb));
            }
            "threads" => {
                let n = number_in("Threads", Some(needs_value()?), 1, MAX_THREADS)?;
                self.deferred.request(self.searcher.engine(), searching, EngineChange::Threads(n));
            }
            "clear hash" => self.deferred.request(self.searcher.engine(), searching, EngineChange::Clear),
            "multipv" => self.options.multipv = number_in("MultiPV", Some(needs_value()?), 1, MAX_MULTIPV)?,
            "ponder" => self.options.ponder = parse_check("Ponder", needs_value()?)?,
            "move overhead" => {
                let ms = number_in("Move Overhead", Some(needs_value()?), 0, MAX_MOVE_OVERHEAD_MS)?;
                self.options.move_overhead = Duration::from_millis(ms);
            }
            "uci_variant" => {
                let text = needs_value()?;
                let variant = variant_named(text).ok_or_else(|| {
                    let names: Vec<&str> = VARIANTS.iter().map(|p| p.name()).collect();
                    InputError::new(format!("unknown UCI_Variant '{}' (expected one of {})", echo(text), names.join(", ")))
                })?;
                let config = RulesConfig { variant, ..self.session.config().clone() };
                self.set_rules(config)?;
            }
            "uci_chess960" => {
                if let Some(note) = self.session.set_chess960(parse_check("UCI_Chess960", needs_value()?)?) {
                    self.info_string(&note);
                }
            }
            "rules" => {
                let text = value.unwrap_or("").trim();
                let overrides = if text == "<empty>" { "" } else { text };
                let config = RulesConfig { overrides: overrides.to_string(), ..self.session.config().clone() };
                self.set_rules(config)?;
            }
            _ if TeamOptions::is_option(name) => {
                let on = parse_check(name.trim(), needs_value()?)?;
                self.options.team.set(name, on);
            }
            _ => return Err(InputError::new(format!("unknown option '{}'", echo(name)))),
        }
        Ok(())
    }

    fn set_rules(&mut self, config: RulesConfig) -> Result<(), InputError> {
        if let Some(note) = self.session.set_config(config)? {
            self.info_string(&note);
        }
        if self.debug {
            self.info_string(&format!("rules {}", self.session.rules()));
        }
        Ok(())
    }

    fn new_game(&mut self) {
        self.session.new_game();
        self.outbox.reset();
        self.deferred.request(self.searcher.engine(), self.searcher.is_running(), EngineChange::Clear);
    }

    fn set_position(&mut self, command: PositionCommand) -> Result<(), InputError> {
        let (rules, chess960) = (self.session.rules(), self.session.chess960());
        match command.setup {
            Setup::StartPos => self.session.board = BoardState::from_setup(None, &command.moves, rules, chess960)?,
            Setup::Fen(fen) => self.session.board = BoardState::from_setup(Some(&fen), &command.moves, rules, chess960)?,
            Setup::Bfen(text) => {
                // Through a game, so each board knows what a `steal` could take from the other.
                let game = Game::from_bfen_with(&text, rules, chess960).map_err(|e| InputError::new(e.to_string()))?;
                let [a, b] = game.boards().clone();
                let (ours, partner) = match self.session.bughouse.seat.board {
                    BoardId::A => (a, b),
                    BoardId::B => (b, a),
                };
                self.session.board = BoardState::with_moves(ours, &command.moves)?;
                self.session.bughouse.partner_board = Some(BoardState::new(partner));
            }
        }
        if self.debug {
            self.info_string(&format!("position {}", self.session.board.position()));
        }
        Ok(())
    }

    fn go(&mut self, go: GoCommand) -> Result<(), InputError> {
        if self.searcher.is_running() || self.held.is_some() {
            return Err(InputError::new("a search is already running: send 'stop' first"));
        }
        let seat = self.session.bughouse.seat;
        let our_board = go.board.is_none_or(|b| b == seat.board);
        let board = if our_board {
            &self.session.board
        } else {
            self.session.bughouse.partner_board.as_ref().ok_or_else(|| {
                InputError::new("no partner board to analyse: send 'position bfen' or 'partner' first")
            })?
        };
        let mut root = board.position().clone();
        let history = board.history().to_vec();
        self.take_steal_pools(&mut root, our_board);
        let limits = self.limits(&go, &root)?;
        if our_board && self.extensions {
            self.check_seat_colour(&root)?;
        }
        if our_board {
            self.record_clocks(&go, seat);
        }
        let flag_falls_at = limits
            .clock
            .and_then(|c| c.time(root.turn()))
            .filter(|_| !go.ponder)
            .map(|t| Instant::now() + t);
        let team = self.team_search(our_board, &root, &limits);
        if let (true, Some(team)) = (self.debug, &team) {
            self.info_string(&describe(&team.context));
        }
        let request = SearchRequest { root, history, limits, ponder: go.ponder, team };
        self.searcher.start(request, self.reporter())?;
        self.active = SearchPurpose { our_board, flag_falls_at, stop_requested: false };
        Ok(())
    }

    /// `promotion=steal` takes from the other board: the root learns what it
    /// could take there, or the GUI hears that no pawn can promote.
    fn take_steal_pools(&mut self, root: &mut Position, our_board: bool) {
        if root.rules().promotion != Promotion::Steal || !root.rules().is_two_board() {
            return;
        }
        let other = if our_board {
            self.session.bughouse.partner_board.as_ref().map(BoardState::position)
        } else {
            Some(self.session.board.position())
        };
        match other {
            Some(other) => root.take_steal_pools_from(other),
            None => self.info_string(
                "promotion=steal takes from the other board, which is unknown ('position bfen' or 'partner fen'): no pawn promotes in this search",
            ),
        }
    }

    /// We play the side to move of our board: with a seat given it must be the
    /// seat's colour (else the search would be for the opponent, with the
    /// opponent's clock as ours); without one, the seat's colour follows it.
    fn check_seat_colour(&mut self, root: &Position) -> Result<(), InputError> {
        let seat = &mut self.session.bughouse.seat;
        let to_move = root.turn();
        if !self.seat_given {
            seat.color = to_move;
        } else if seat.color != to_move {
            let name = |c: tandem_engine::Color| if c == tandem_engine::Color::White { "White" } else { "Black" };
            return Err(InputError::new(format!(
                "we sit as {} on board {} ('seat {seat}') but {} is to move there: send 'seat {} {}' first, \
                 or a position with {} to move",
                name(seat.color),
                seat.board,
                name(to_move),
                seat.board,
                name(to_move).to_ascii_lowercase(),
                name(seat.color),
            )));
        }
        Ok(())
    }

    fn limits(&self, go: &GoCommand, root: &Position) -> Result<Limits, InputError> {
        let search_moves = go
            .search_moves
            .iter()
            .map(|text| root.parse_move(text).map_err(|e| InputError::new(format!("searchmoves: {e}"))))
            .collect::<Result<Vec<_>, _>>()?;
        let has_clock = go.time.iter().chain(&go.increment).any(Option::is_some);
        let clock = has_clock.then(|| Clock {
            time: go.time,
            increment: go.increment.map(Option::unwrap_or_default),
            moves_to_go: go.moves_to_go,
        });
        Ok(Limits {
            depth: go.depth,
            nodes: go.nodes,
            movetime: go.movetime,
            mate: go.mate,
            infinite: go.infinite,
            clock,
            search_moves,
            multipv: self.options.multipv,
            move_overhead: self.options.move_overhead,
            ..Limits::default()
        })
    }

    /// The partner-board model for a search: in bughouse mode (the extension
    /// on, two-board rules) for a search of our own board.
    fn team_search(&self, our_board: bool, root: &Position, limits: &Limits) -> Option<TeamSearch> {
        if !(self.extensions && our_board && self.session.rules().is_two_board()) {
            return None;
        }
        let context = team_context(&self.session.bughouse, root, limits.clock.as_ref(), &self.options.team);
        let switches = context.switches;
        // Sitting needs the partner board (the arrival forecast); messages do not.
        let advise = switches.messages || (switches.sitting && context.partner_board.is_some());
        Some(TeamSearch { context, advise })
    }

    /// Keeps the four clocks of `go` in the bughouse context.
    fn record_clocks(&mut self, go: &GoCommand, seat: Seat) {
        let clocks = &mut self.session.bughouse.clocks;
        for color in tandem_engine::Color::ALL {
            let i = color as usize;
            clocks.set(seat.board, color, go.time[i], go.increment[i]);
            clocks.set(seat.board.other(), color, go.partner_time[i], go.partner_increment[i]);
        }
    }

    fn reporter(&self) -> Reporter {
        let out = self.out.clone();
        Box::new(move |info: &Info| out.line(&format_info(info)))
    }

    fn stop(&mut self) {
        if let Some(held) = self.held.take() {
            self.emit(&held.result);
        } else if self.searcher.is_running() {
            self.active.stop_requested = true;
            self.searcher.stop();
        }
    }

    fn ponderhit(&mut self) {
        if self.searcher.ponderhit() {
            // Our clock starts now: the flag falls after the time `go ponder` gave us.
            let our_time = self.searcher.current().and_then(|r| r.limits.clock?.time(r.root.turn()));
            self.active.flag_falls_at = our_time.map(|t| Instant::now() + t);
        } else if let Some(held) = self.held.take_if(|h| h.request.ponder) {
            self.emit(&held.result);
        } else {
            self.info_string("ponderhit ignored: not pondering");
        }
    }

    fn emit(&mut self, result: &SearchResult) {
        match (result.best, result.ponder) {
            (Some(best), Some(ponder)) => self.out.line(&format!("bestmove {best} ponder {ponder}")),
            (Some(best), None) => self.out.line(&format!("bestmove {best}")),
            (None, _) => self.out.line("bestmove (none)"),
        }
        if result.best.is_some() {
            let messages = self.outbox.moved();
            self.tell(messages);
        }
    }

    /// Sends messages to our partner (`Team Messages` on).
    fn tell(&self, messages: Vec<String>) {
        if self.options.team.messages_on() {
            for message in messages {
                self.out.line(&format!("ptell {message}"));
            }
        }
    }

    /// The model's messages after a search, each said once.
    fn tell_advice(&mut self, advised: &[PartnerMessage]) {
        if self.options.team.messages_on() {
            let partner_sitting_us = self.session.bughouse.requests.sitting;
            let messages = self.outbox.after_advice(advised, partner_sitting_us);
            self.tell(messages);
        }
    }

    /// We wait for material: what helps, `dead` when frozen in check, `fast`.
    fn tell_waiting(&mut self, need: &[tandem_engine::Role], in_check: bool) {
        if self.options.team.messages_on() {
            let messages = self.outbox.waiting(need, in_check);
            self.tell(messages);
        }
    }

    fn display(&self) {
        let board = &self.session.board;
        self.info_string(&format!("rules {}", self.session.rules()));
        self.info_string(&format!("fen {}", board.position()));
        let moves: Vec<String> = board.moves().iter().map(|m| m.to_string()).collect();
        self.info_string(&format!("moves {}", moves.join(" ")));
        if self.extensions {
            let context = &self.session.bughouse;
            let given = if self.seat_given { "" } else { " (no 'seat' given: we play the side to move)" };
            self.info_string(&format!("seat {}{given}", context.seat));
            if let Some(partner) = &context.partner_board {
                self.info_string(&format!("partner fen {}", partner.position()));
            }
            self.info_string(&format!("partner sitting {}", context.requests.sitting));
            if let Some(last) = context.messages.last() {
                self.info_string(&format!("partner said {last}"));
            }
            // The context a search of our board would get now, with the clocks last given.
            let root = board.position();
            let clock = Clock { time: context.clocks.time[context.seat.board.index()], ..Clock::default() };
            let team = team_context(context, root, Some(&clock), &self.options.team);
            self.info_string(&describe(&team));
        }
    }

    fn set_seat(&mut self, seat: Seat) {
        let context = &mut self.session.bughouse;
        if seat.board != context.seat.board {
            if let Some(partner) = context.partner_board.take() {
                context.partner_board = Some(std::mem::replace(&mut self.session.board, partner));
            }
        }
        self.session.bughouse.seat = seat;
    }

    fn set_partner(&mut self, command: PartnerCommand) -> Result<(), InputError> {
        let (rules, chess960) = (self.session.rules(), self.session.chess960());
        let context = &mut self.session.bughouse;
        match command {
            PartnerCommand::Set { fen, moves } => {
                context.partner_board = Some(BoardState::from_setup(fen.as_deref(), &moves, rules, chess960)?);
            }
            PartnerCommand::Move(text) => {
                let board = context.partner_board.as_mut().ok_or_else(|| {
                    InputError::new("no partner board yet: send 'partner startpos' or 'partner fen' first")
                })?;
                board.play_text(&text)?;
            }
            PartnerCommand::Clear => context.partner_board = None,
        }
        Ok(())
    }

    /// New reserves for our board; a search of it restarts from the new root.
    fn set_reserves(&mut self, reserves: [Reserve; 2]) -> Result<(), InputError> {
        self.session.board.set_reserves(reserves);
        let root = self.session.board.position().clone();
        let history = self.session.board.history().to_vec();
        // The partner-board model is built again: the partner board, clocks
        // and requests may have changed since the search began.
        if self.searcher.is_running() && self.active.our_board {
            let team = self.searcher.current().and_then(|r| self.team_search(true, &root, &r.limits));
            self.searcher.restart(root, history, team, self.reporter())?;
        } else if let Some(held) = self.held.take_if(|h| h.purpose.our_board) {
            let mut request = held.request_for_restart();
            request.team = self.team_search(true, &root, &request.limits);
            request.root = root;
            request.history = history;
            self.searcher.start(request, self.reporter())?;
            self.active = held.purpose;
        }
        Ok(())
    }

    fn partner_message(&mut self, message: PartnerMessage) {
        match &message {
            PartnerMessage::Other(text) => {
                self.info_string(&format!("partner message not understood, kept: {}", echo(text)))
            }
            PartnerMessage::Help => self.out.line(&format!("ptell I understand: {VOCABULARY}")),
            PartnerMessage::MoveNow => self.partner_wants_our_move(None),
            PartnerMessage::Move(text) => {
                if let Some(m) = self.partner_move_to_play(text) {
                    // Logged, but not kept as the partner's planned move: it is ours now.
                    self.session.bughouse.receive(message);
                    self.session.bughouse.requests.planned_move = None;
                    self.partner_wants_our_move(Some(m));
                    return;
                }
            }
            _ => {}
        }
        let go = message == PartnerMessage::Go;
        if message == PartnerMessage::Sit && self.options.team.messages_on() {
            let withdrawn = self.outbox.partner_sits();
            self.tell(withdrawn.into_iter().collect());
        }
        self.session.bughouse.receive(message);
        let sitting = self.session.bughouse.requests.sitting;
        let released = self.held.take_if(|h| h.released_by_partner(sitting, go));
        if let Some(held) = released {
            self.emit(&held.result);
        }
    }

    /// The root of our move that the partner may cut short: a finite search
    /// of our board that is running, or a move held for the partner or for a
    /// piece. Not `go infinite` or `ponder` (UCI: no `bestmove` before
    /// `stop`/`ponderhit`), nor the analysis of the partner board.
    fn our_move_in_progress(&self) -> Option<&Position> {
        if let Some(held) = &self.held {
            let waiting = matches!(held.reason, HoldReason::Sitting | HoldReason::Waiting(_));
            return (waiting && held.purpose.our_board).then_some(&held.request.root);
        }
        let request = self.searcher.current()?;
        (self.active.our_board && !request.ponder && !request.limits.infinite).then_some(&request.root)
    }

    /// `ptell move <m>`: `m` if it is legal where our move is being found.
    fn partner_move_to_play(&self, text: &str) -> Option<Move> {
        self.our_move_in_progress()?.parse_move(text).ok()
    }

    /// `ptell move` (move now) or `ptell move <m>` (play this): ends the
    /// search of our move, or releases the held one, with its best move or `m`.
    fn partner_wants_our_move(&mut self, chosen: Option<Move>) {
        if self.our_move_in_progress().is_none() {
            return;
        }
        match chosen {
            Some(m) => {
                self.searcher.cancel();
                self.held = None;
                self.active = SearchPurpose::default();
                self.deferred.apply_queued(self.searcher.engine());
                self.emit(&SearchResult { best: Some(m), ..SearchResult::default() });
            }
            None => self.stop(),
        }
    }

    /// Whether a finished search's move must wait, why, until when, and
    /// whether that is where our time lead ends.
    fn hold_reason(&self, done: &SearchDone, request: &SearchRequest, purpose: &SearchPurpose) -> Option<(HoldReason, Option<Instant>, bool)> {
        if purpose.stop_requested || self.closing {
            return None;
        }
        if request.ponder || request.limits.infinite {
            return Some((HoldReason::UntilStopped, None, false));
        }
        if !(self.extensions && purpose.our_board) {
            return None;
        }
        let flag_release = sit_release_time(purpose.flag_falls_at, self.options.move_overhead);
        let team = self.options.team;
        if done.result.best.is_none() {
            // Frozen: wait for material, never give up while a piece may come.
            let frozen = request.team.is_some() && request.root.status() == Status::Frozen;
            return frozen.then_some((HoldReason::Frozen, None, false));
        }
        let (clock, us, now) = (request.limits.clock.as_ref(), request.root.turn(), Instant::now());
        if team.messages_on() && self.session.bughouse.requests.sitting {
            return match partner_sit_limit(clock, us, now, flag_release, team.sitting_on()) {
                SitLimit::Flag(at) => Some((HoldReason::Sitting, at, false)),
                SitLimit::Lead(at) => Some((HoldReason::Sitting, Some(at), true)),
                SitLimit::Refused => {
                    self.info_string("partner asked us to sit, but we are not ahead on the clock: moving");
                    None
                }
            };
        }
        let role = done.advice.as_ref()?.sit?.waiting_for?;
        if !(team.sitting_on() && request.team.is_some()) {
            return None;
        }
        let release = wait_release(clock, us, now, flag_release)?;
        Some((HoldReason::Waiting(role), Some(release), true))
    }

    /// Tells the partner what a finished bughouse search found.
    fn tell_after_search(&mut self, done: &SearchDone, request: &SearchRequest) {
        if request.team.is_none() {
            return;
        }
        if let Some(advice) = &done.advice {
            self.tell_advice(&advice.messages);
        }
        let root = &request.root;
        if done.result.best.is_none() && root.status() == Status::Frozen {
            self.tell_waiting(&roles_that_free(root), root.is_check());
        }
    }
}

fn parse_check(name: &str, value: &str) -> Result<bool, InputError> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(InputError::new(format!("option '{name}' expects true or false, not '{}'", echo(value)))),
    }
}

/// One UCI `info` line.
pub fn format_info(info: &Info) -> String {
    let score = match info.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(moves) => format!("mate {moves}"),
    };
    let bound = match info.bound {
        Bound::Exact => "",
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
    };
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {} hashfull {} time {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.nodes,
        info.nps(),
        info.hashfull,
        info.time.as_millis()
    );
    if !pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&pv.join(" "));
    }
    line
}

impl FrontEnd for UciFrontEnd {
    fn handle_line(&mut self, line: &str) -> Flow {
        let parsed = match parse_uci_line(line, self.extensions) {
            Ok(parsed) => parsed,
            Err(error) => {
                self.error(&error);
                return Flow::Continue;
            }
        };
        match (&parsed.command, parsed.unknown.is_empty()) {
            (None, false) => self.info_string(&format!("unknown command: {}", echo(line.trim()))),
            (Some(_), false) => self.info_string(&format!("ignored unknown token(s): {}", parsed.unknown.join(" "))),
            _ => {}
        }
        let Some(command) = parsed.command else {
            return Flow::Continue;
        };
        match self.execute(command) {
            Ok(flow) => flow,
            Err(error) => {
                self.error(&error);
                Flow::Continue
            }
        }
    }

    fn report_error(&mut self, message: &str) {
        self.error(&InputError::new(message));
    }

    fn on_search_done(&mut self, done: SearchDone) -> Flow {
        let Some(request) = self.searcher.finish(&done) else {
            return Flow::Continue;
        };
        self.deferred.apply_queued(self.searcher.engine());
        let purpose = std::mem::take(&mut self.active);
        self.tell_after_search(&done, &request);
        match self.hold_reason(&done, &request, &purpose) {
            Some((reason, release_at, lead_limited)) => {
                match reason {
                    HoldReason::Sitting => self.info_string("sitting: the move waits for the partner's 'go'"),
                    HoldReason::Waiting(role) => {
                        let ms = release_at.map_or(0, |at| at.saturating_duration_since(Instant::now()).as_millis());
                        self.info_string(&format!("sitting: waiting for a {} for at most {ms} ms", role_name(role)));
                        let asked = done.advice.iter().flat_map(|a| &a.messages).any(|m| matches!(m, PartnerMessage::Need(_)));
                        let need = if asked { Vec::new() } else { vec![role] };
                        self.tell_waiting(&need, false);
                    }
                    HoldReason::Frozen => self.info_string("frozen: no legal move until material arrives"),
                    HoldReason::UntilStopped => {}
                }
                let SearchDone { result, .. } = done;
                let since = Instant::now();
                let held = HeldMove { result, reason, request, purpose, since, release_at, lead_limited };
                self.held = Some(held);
            }
            None => self.emit(&done.result),
        }
        if self.closing && self.held.is_none() {
            return Flow::Quit;
        }
        Flow::Continue
    }

    fn on_input_closed(&mut self) -> Flow {
        self.closing = true;
        if let Some(held) = self.held.take() {
            self.emit(&held.result);
        }
        if !self.searcher.is_running() {
            return Flow::Quit;
        }
        // A finite search finishes on its own; one that waits for `stop` is stopped.
        if self.searcher.current().is_some_and(|r| r.ponder || r.limits.infinite) {
            self.stop();
        }
        Flow::Continue
    }

    fn is_searching(&self) -> bool {
        self.searcher.is_running()
    }

    fn deadline(&self) -> Option<Instant> {
        self.held.as_ref().and_then(|h| h.release_at)
    }

    fn on_deadline(&mut self) -> Flow {
        if self.held.as_ref().is_some_and(HeldMove::is_due) {
            if let Some(held) = self.held.take() {
                self.info_string(held.release_note());
                self.emit(&held.result);
            }
        }
        Flow::Continue
    }
}
