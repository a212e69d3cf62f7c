//! The CECP (xboard/WinBoard) front end, with bughouse as played through an
//! ICS: `holding` (also during a search), `partner` and `ptell`.

use std::time::{Duration, Instant};

use tandem_engine::team::{roles_that_free, VOCABULARY};
use tandem_engine::{parse_fen, Color, Move, Position, Preset, Reserve, Role, Status};

use crate::board_state::BoardState;
use crate::bughouse::PartnerMessage;
use crate::front_end::{Flow, FrontEnd};
use crate::engine_api::{Clock, Info, Limits, Score, SearchResult};
use crate::engine_settings::{check_hash_fits, DeferredChanges, EngineChange};
use crate::held_move::{sit_release_time, HeldMove, HoldReason, SearchPurpose};
use crate::output::{echo, Output};
use crate::parse::InputError;
use crate::partner_model::{
    parse_switch, partner_sit_limit, role_name, team_context, wait_release, Outbox, SitLimit, TeamOptions, TEAM_OPTIONS,
};
use crate::search_thread::{Reporter, SearchDone, SearchRequest, Searcher, TeamSearch};
use crate::session::{RulesConfig, Session};
use crate::xboard_command::{parse_xboard_line, XboardCommand};

/// Kept back from each move for the GUI and ICS lag.
const MOVE_OVERHEAD: Duration = Duration::from_millis(30);

/// What the partner hears when assigned (and after `help`): the vocabulary of PROTOCOL.md.
fn vocabulary_line(greeting: &str) -> String {
    format!("tellics ptell {greeting}I understand: {VOCABULARY}")
}

/// `level MPS BASE INC`.
#[derive(Clone, Copy, Debug)]
struct TimeControl {
    moves_per_control: u32,
    base: Duration,
    increment: Duration,
}

impl Default for TimeControl {
    fn default() -> TimeControl {
        TimeControl { moves_per_control: 40, base: Duration::from_secs(300), increment: Duration::ZERO }
    }
}

pub struct XboardFrontEnd {
    out: Output,
    searcher: Searcher,
    session: Session,
    deferred: DeferredChanges,
    /// The colour the engine plays; `None` in force mode.
    engine_color: Option<Color>,
    post: bool,
    time_control: TimeControl,
    /// `st`: a fixed time per move.
    move_time: Option<Duration>,
    /// `sd`.
    depth_limit: Option<u32>,
    own_time: Option<Duration>,
    opponent_time: Option<Duration>,
    active: SearchPurpose,
    held: Option<HeldMove>,
    /// The partner-board model's switches (`option Partner Model=0` …).
    team: TeamOptions,
    /// What we told our partner (each message once).
    outbox: Outbox,
    /// `option Rules=…`: rule overrides (the UCI `Rules` syntax) applied on top
    /// of every variant, `new` included.
    rules_overrides: String,
    /// Analysis mode (`analyze` … `exit`): the engine plays neither side and
    /// analyses every new position without end, always posting its thinking.
    analyzing: bool,
}

impl XboardFrontEnd {
    pub fn new(out: Output, searcher: Searcher) -> XboardFrontEnd {
        XboardFrontEnd {
            out,
            searcher,
            session: Session::default(),
            deferred: DeferredChanges::default(),
            engine_color: Some(Color::Black),
            post: false,
            time_control: TimeControl::default(),
            move_time: None,
            depth_limit: None,
            own_time: None,
            opponent_time: None,
            active: SearchPurpose::default(),
            held: None,
            team: TeamOptions::default(),
            outbox: Outbox::default(),
            rules_overrides: String::new(),
            analyzing: false,
        }
    }

    fn error(&self, line: &str, error: &InputError) {
        self.out.line(&format!("Error ({error}): {}", echo(line.trim())));
    }

    fn execute(&mut self, command: XboardCommand) -> Result<Flow, InputError> {
        match command {
            XboardCommand::Xboard | XboardCommand::Ignored => {}
            XboardCommand::Protover(_) => self.features(),
            XboardCommand::New => self.new_game()?,
            XboardCommand::Variant(preset) => self.set_variant(preset)?,
            XboardCommand::Force => {
                self.exit_analysis();
                self.abandon_search();
                self.engine_color = None;
            }
            XboardCommand::Go => {
                self.exit_analysis();
                self.engine_color = Some(self.session.board.turn());
                self.think_if_our_turn()?;
            }
            XboardCommand::PlayOther => {
                self.exit_analysis();
                self.abandon_search();
                self.engine_color = Some(self.session.board.turn().other());
            }
            XboardCommand::EnginePlays(color) => {
                self.exit_analysis();
                self.engine_color = Some(color);
            }
            XboardCommand::UserMove(text) => self.user_move(&text)?,
            XboardCommand::Level { moves_per_control, base, increment } => {
                self.time_control = TimeControl { moves_per_control, base, increment };
                self.move_time = None;
            }
            XboardCommand::St(seconds) => self.move_time = Some(seconds),
            XboardCommand::Sd(depth) => self.depth_limit = Some(depth),
            XboardCommand::Time(t) => self.own_time = Some(t),
            XboardCommand::Otim(t) => self.opponent_time = Some(t),
            XboardCommand::SetBoard(fen) => self.set_board(&fen)?,
            XboardCommand::Ping(n) => self.out.line(&format!("pong {n}")),
            XboardCommand::Result => {
                self.exit_analysis();
                self.abandon_search();
                self.engine_color = None;
            }
            XboardCommand::MoveNow => self.move_now(),
            XboardCommand::Holding { reserves, arrived } => self.holding(reserves, arrived)?,
            XboardCommand::Partner(name) => self.set_partner(name),
            XboardCommand::PTell(message) => self.partner_message(message),
            XboardCommand::Post => self.post = true,
            XboardCommand::NoPost => self.post = false,
            XboardCommand::Undo => self.undo(1)?,
            XboardCommand::Remove => self.undo(2)?,
            XboardCommand::Memory(mb) => {
                check_hash_fits(mb)?;
                self.deferred.request(self.searcher.engine(), self.searcher.is_running(), EngineChange::HashMb(mb))
            }
            XboardCommand::Cores(n) => {
                self.deferred.request(self.searcher.engine(), self.searcher.is_running(), EngineChange::Threads(n))
            }
            XboardCommand::Quit => {
                self.searcher.stop();
                return Ok(Flow::Quit);
            }
            XboardCommand::Display => self.display(),
            XboardCommand::Option { name, value } => self.set_option(&name, &value)?,
            XboardCommand::Analyze => {
                self.analyzing = true;
                self.engine_color = None;
                self.start_analysis()?;
            }
            XboardCommand::Exit => self.exit_analysis(),
        }
        Ok(Flow::Continue)
    }

    fn features(&self) {
        self.out.line(&format!(
            "feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=0 sigint=0 sigterm=0 \
             reuse=1 analyze=1 colors=0 ics=1 name=1 pause=0 nps=0 debug=1 memory=1 smp=1 \
             variants=\"normal,crazyhouse,bughouse\" myname=\"tandem {}\"",
            env!("CARGO_PKG_VERSION")
        ));
        self.out.line("feature option=\"Rules -string <empty>\"");
        for name in TEAM_OPTIONS {
            let on = u8::from(TeamOptions::default_of(name));
            self.out.line(&format!("feature option=\"{name} -check {on}\""));
        }
        self.out.line("feature done=1");
    }

    /// `option NAME=VALUE`: the rules and the partner-board model's switches.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), InputError> {
        if name.eq_ignore_ascii_case("rules") {
            return self.set_rules_overrides(value);
        }
        if !TeamOptions::is_option(name) {
            return Err(InputError::new(format!("unknown option '{}'", echo(name))));
        }
        let on = parse_switch(name, value)?;
        self.team.set(name, on);
        Ok(())
    }

    /// `option Rules=…`: checked against the current variant and applied to the
    /// game in progress at once; a refused value changes nothing.
    fn set_rules_overrides(&mut self, value: &str) -> Result<(), InputError> {
        let value = value.trim();
        let overrides = if value == "<empty>" { "" } else { value };
        let before = self.session.rules();
        let config = RulesConfig { overrides: overrides.to_string(), ..self.session.config().clone() };
        let note = self.session.set_config(config)?;
        self.rules_overrides = overrides.to_string();
        if let Some(note) = note {
            self.out.line(&format!("# {note}"));
        }
        if self.session.rules() != before && (self.analyzing || self.searcher.is_running() || self.held.is_some()) {
            // The move being searched was found under the old rules.
            self.abandon_search();
            self.after_position_change()?;
        }
        Ok(())
    }

    /// `analyze`, or a new position while analysing: an infinite search of
    /// the current position (no partner-board model: nothing is played or told).
    fn start_analysis(&mut self) -> Result<(), InputError> {
        self.abandon_search();
        let board = &self.session.board;
        let (root, history) = (board.position().clone(), board.history().to_vec());
        let limits = Limits { infinite: true, multipv: 1, move_overhead: MOVE_OVERHEAD, ..Limits::default() };
        let request = SearchRequest { root, history, limits, ponder: false, team: None };
        self.searcher.start(request, self.reporter())?;
        self.active = SearchPurpose { our_board: true, flag_falls_at: None, stop_requested: false };
        Ok(())
    }

    /// Leaves analysis mode (`exit`, or a command that makes the engine play);
    /// the engine is then in force mode.
    fn exit_analysis(&mut self) {
        if std::mem::take(&mut self.analyzing) {
            self.abandon_search();
        }
    }

    /// The position changed: analyse the new one, or think if it is our move.
    fn after_position_change(&mut self) -> Result<(), InputError> {
        if self.analyzing {
            self.start_analysis()
        } else {
            self.think_if_our_turn()
        }
    }

    /// In analysis mode the engine stays there and analyses the start position.
    fn new_game(&mut self) -> Result<(), InputError> {
        self.abandon_search();
        let config = RulesConfig { overrides: self.rules_overrides.clone(), ..RulesConfig::default() };
        if let Err(error) = self.session.set_config(config) {
            self.out.line(&format!("# {error}: normal chess without them"));
            let _ = self.session.set_config(RulesConfig::default());
        }
        self.session.new_game();
        self.outbox.reset();
        self.engine_color = Some(Color::Black);
        self.depth_limit = None;
        self.own_time = None;
        self.opponent_time = None;
        self.deferred.request(self.searcher.engine(), false, EngineChange::Clear);
        if self.analyzing {
            self.engine_color = None;
            self.start_analysis()?;
        }
        Ok(())
    }

    fn set_variant(&mut self, preset: Preset) -> Result<(), InputError> {
        // Refused (the `Rules` overrides do not fit this variant): nothing changes.
        self.session.set_config(RulesConfig { variant: preset, overrides: self.rules_overrides.clone() })?;
        self.abandon_search();
        self.session.board = BoardState::startpos(self.session.rules());
        if self.analyzing {
            self.start_analysis()?;
        }
        Ok(())
    }

    /// Stops a search without playing its move (`force`, `new`, `result` …).
    fn abandon_search(&mut self) {
        self.searcher.cancel();
        self.held = None;
        // What waited for the search to end (`memory`, `cores`) applies now.
        self.deferred.apply_queued(self.searcher.engine());
    }

    /// Plays the opponent's move; an illegal one changes nothing.
    fn user_move(&mut self, text: &str) -> Result<(), InputError> {
        let mut board = self.session.board.clone();
        if let Err(error) = board.play_text(text) {
            let reason = if error.0.starts_with("malformed") { "malformed move" } else { "illegal move" };
            self.out.line(&format!("Illegal move ({reason}): {}", echo(text)));
            return Ok(());
        }
        self.abandon_search();
        self.session.board = board;
        self.after_position_change()
    }

    fn set_board(&mut self, fen: &str) -> Result<(), InputError> {
        let position = parse_fen(fen, self.session.rules()).map_err(|e| InputError::new(e.to_string()))?;
        self.abandon_search();
        self.session.board = BoardState::new(position);
        if self.analyzing {
            self.start_analysis()?;
        }
        Ok(())
    }

    /// `?` (or the partner's `move`): the best move now. Analysis plays none.
    fn move_now(&mut self) {
        if self.analyzing {
            return;
        }
        if let Some(held) = self.held.take() {
            self.play_result(&held.result, &held.request.root);
        } else if self.searcher.is_running() {
            self.active.stop_requested = true;
            self.searcher.stop();
        }
    }

    fn is_our_turn(&self) -> bool {
        self.engine_color == Some(self.session.board.turn())
    }

    /// Starts thinking when it is the engine's move and it is not already busy.
    fn think_if_our_turn(&mut self) -> Result<(), InputError> {
        if !self.is_our_turn() || self.searcher.is_running() || self.held.is_some() {
            return Ok(());
        }
        let board = &self.session.board;
        let root = board.position().clone();
        let history = board.history().to_vec();
        let limits = self.limits(&root);
        let flag_falls_at = limits.clock.and_then(|c| c.time(root.turn())).map(|t| Instant::now() + t);
        self.session.bughouse.seat.color = root.turn();
        let team = self.team_search(&root, &limits);
        let request = SearchRequest { root, history, limits, ponder: false, team };
        self.searcher.start(request, self.reporter())?;
        self.active = SearchPurpose { our_board: true, flag_falls_at, stop_requested: false };
        Ok(())
    }

    /// The partner-board model for a bughouse game. The partner board is not
    /// known in CECP, so only the terms that do without it work: the partner's
    /// requests and our messages (when a partner is assigned).
    fn team_search(&self, root: &Position, limits: &Limits) -> Option<TeamSearch> {
        if !self.session.rules().is_two_board() {
            return None;
        }
        let context = team_context(&self.session.bughouse, root, limits.clock.as_ref(), &self.team);
        let switches = context.switches;
        let partner = self.session.bughouse.partner_name.is_some();
        let advise = (switches.messages && partner) || (switches.sitting && context.partner_board.is_some());
        Some(TeamSearch { context, advise })
    }

    /// Sends messages to our partner, when there is one and `Team Messages` is on.
    fn tell(&self, messages: Vec<String>) {
        if self.team.messages_on() && self.session.bughouse.partner_name.is_some() {
            for message in messages {
                self.out.line(&format!("tellics ptell {message}"));
            }
        }
    }

    fn limits(&self, root: &Position) -> Limits {
        let us = root.turn();
        let mut limits = Limits { depth: self.depth_limit, multipv: 1, move_overhead: MOVE_OVERHEAD, ..Limits::default() };
        if let Some(move_time) = self.move_time {
            limits.movetime = Some(move_time);
            return limits;
        }
        limits.clock = Some(self.clock(us, root.fullmoves()));
        limits
    }

    /// The clocks as `time`/`otim` (or the `level`) give them, with `us` to move.
    fn clock(&self, us: Color, fullmoves: u32) -> Clock {
        let control = self.time_control;
        let mut time = [Some(control.base); 2];
        time[us as usize] = Some(self.own_time.unwrap_or(control.base));
        time[us.other() as usize] = Some(self.opponent_time.unwrap_or(control.base));
        let moves_to_go = (control.moves_per_control > 0)
            .then(|| control.moves_per_control - (fullmoves.saturating_sub(1) % control.moves_per_control));
        Clock { time, increment: [control.increment; 2], moves_to_go }
    }

    fn reporter(&self) -> Reporter {
        let out = self.out.clone();
        // Analysis output is what `analyze` asks for: shown without `post`.
        let post = self.post || self.analyzing;
        Box::new(move |info: &Info| {
            if post {
                out.line(&format_thinking(info));
            }
        })
    }

    /// Plays the engine's move, or says why there is none.
    fn play_result(&mut self, result: &SearchResult, root: &Position) {
        let Some(best) = result.best else {
            self.no_move(root);
            return;
        };
        // The board may have been replaced meanwhile (setboard in force mode
        // aborts searches, so this only guards against an impossible race).
        if !self.session.board.position().is_legal(best) {
            return;
        }
        self.play_our_move(best);
    }

    /// Plays a legal move of ours and announces it.
    fn play_our_move(&mut self, m: Move) {
        self.session.board.play(m);
        let messages = self.outbox.moved();
        self.out.line(&format!("move {m}"));
        self.tell(messages);
        self.claim_result_after_our_move();
    }

    fn no_move(&mut self, root: &Position) {
        let us = root.turn();
        match root.status() {
            Status::Checkmate => self.out.line(&format!(
                "{} {{{} mates}}",
                if us == Color::White { "0-1" } else { "1-0" },
                if us == Color::White { "Black" } else { "White" }
            )),
            Status::Stalemate => self.out.line("1/2-1/2 {Stalemate}"),
            Status::InsufficientMaterial => self.out.line("1/2-1/2 {Insufficient material}"),
            _ => {
                self.out.line("# no legal move yet: waiting for material");
                let messages = self.outbox.waiting(&roles_that_free(root), root.is_check());
                self.tell(messages);
            }
        }
    }

    fn claim_result_after_our_move(&self) {
        let position = self.session.board.position();
        let mover = position.turn().other();
        match position.status() {
            Status::Checkmate => self.out.line(&format!(
                "{} {{{} mates}}",
                if mover == Color::White { "1-0" } else { "0-1" },
                if mover == Color::White { "White" } else { "Black" }
            )),
            Status::Stalemate => self.out.line("1/2-1/2 {Stalemate}"),
            _ => {}
        }
    }

    /// New reserves; a search of our move restarts from the new root, and an
    /// engine that was waiting for material starts thinking.
    fn holding(&mut self, reserves: [Reserve; 2], arrived: Option<(Color, Role)>) -> Result<(), InputError> {
        let reserves = match arrived {
            // The named piece is added to what we hold now, so that a drop we
            // made that the server has not yet processed is not undone.
            Some((color, role)) => {
                let position = self.session.board.position();
                let mut current = [Reserve::EMPTY; 2];
                for side in Color::ALL {
                    current[side as usize] = *position.reserve(side);
                }
                current[color as usize].add(role);
                current
            }
            None => reserves,
        };
        self.session.board.set_reserves(reserves);
        if self.analyzing {
            return self.start_analysis();
        }
        let root = self.session.board.position().clone();
        let history = self.session.board.history().to_vec();
        if self.searcher.is_running() {
            let team = self.searcher.current().and_then(|r| self.team_search(&root, &r.limits));
            self.searcher.restart(root, history, team, self.reporter())?;
        } else if let Some(held) = self.held.take() {
            let mut request = held.request_for_restart();
            request.root = root;
            request.history = history;
            request.team = self.team_search(&request.root, &request.limits);
            self.searcher.start(request, self.reporter())?;
            self.active = held.purpose;
        } else {
            self.think_if_our_turn()?;
        }
        Ok(())
    }

    fn set_partner(&mut self, name: Option<String>) {
        let greet = name.is_some();
        self.session.bughouse.partner_name = name;
        self.outbox.reset();
        if greet {
            self.out.line(&vocabulary_line("Hello, I am tandem. "));
        }
    }

    fn partner_message(&mut self, message: PartnerMessage) {
        let reply = match &message {
            PartnerMessage::Sit => Some(format!("tellics ptell {}", self.sit_reply())),
            PartnerMessage::Help => Some(vocabulary_line("")),
            PartnerMessage::Other(_) => Some("tellics ptell sorry, I did not understand that".to_string()),
            _ => None,
        };
        let go = message == PartnerMessage::Go;
        let withdrawn = (message == PartnerMessage::Sit).then(|| self.outbox.partner_sits()).flatten();
        let action = message.clone();
        self.session.bughouse.receive(message);
        if let Some(reply) = reply {
            self.out.line(&reply);
        }
        self.tell(withdrawn.into_iter().collect());
        match action {
            // Fairy-Stockfish's "move now": the search's best move, or the held one.
            PartnerMessage::MoveNow => self.move_now(),
            PartnerMessage::Move(text) => {
                if let Some(m) = self.partner_move_to_play(&text) {
                    self.session.bughouse.requests.planned_move = None;
                    self.abandon_search();
                    self.play_our_move(m);
                }
            }
            _ => {}
        }
        let sitting = self.session.bughouse.requests.sitting;
        let released = self.held.take_if(|h| h.released_by_partner(sitting, go));
        if let Some(held) = released {
            self.play_result(&held.result, &held.request.root);
        }
    }

    /// `ptell move <m>`: the move to play now, when it is our turn (not in
    /// analysis or force mode) and the move is legal on our board. Otherwise
    /// the partner's planned move, only kept.
    fn partner_move_to_play(&self, text: &str) -> Option<Move> {
        if !self.is_our_turn() {
            return None;
        }
        self.session.board.position().parse_move(text).ok()
    }

    /// The truthful answer to the partner's `sit`: whether and how long we
    /// would sit now, by the rule `hold_reason` applies when our move is found.
    fn sit_reply(&self) -> String {
        if !self.team.messages_on() {
            let option = if self.team.model { "Team Messages" } else { "Partner Model" };
            return format!("sorry, I do not sit: I do not take requests (my option {option} is off)");
        }
        let us = self.engine_color.unwrap_or_else(|| self.session.board.turn());
        let clock = self.move_time.is_none().then(|| self.clock(us, self.session.board.position().fullmoves()));
        match partner_sit_limit(clock.as_ref(), us, Instant::now(), None, self.team.sitting_on()) {
            SitLimit::Flag(_) if clock.is_some() => "ok, I sit until you say go (or my clock runs low)".to_string(),
            SitLimit::Flag(_) => "ok, I sit until you say go".to_string(),
            SitLimit::Lead(until) => {
                let secs = (until.saturating_duration_since(Instant::now()).as_millis() + 500) / 1000;
                format!("ok, I sit until you say go, while my time lead lasts (about {secs} s now)")
            }
            SitLimit::Refused => "sorry, I cannot sit now: I am not ahead on the clock".to_string(),
        }
    }

    fn undo(&mut self, plies: usize) -> Result<(), InputError> {
        if self.session.board.moves().len() < plies {
            return Err(InputError::new("no move to take back"));
        }
        self.abandon_search();
        for _ in 0..plies {
            self.session.board.undo();
        }
        if self.analyzing {
            self.start_analysis()?;
        }
        Ok(())
    }

    fn display(&self) {
        self.out.line(&format!("# rules {}", self.session.rules()));
        self.out.line(&format!("# fen {}", self.session.board.position()));
        let side = match self.engine_color {
            _ if self.analyzing => "none (analysing)",
            None => "none (force)",
            Some(Color::White) => "white",
            Some(Color::Black) => "black",
        };
        self.out.line(&format!("# engine plays {side}"));
        if let Some(name) = &self.session.bughouse.partner_name {
            self.out.line(&format!("# partner {name}"));
        }
    }

    /// Whether a finished search's move must wait, why, until when, and
    /// whether that is where our time lead ends.
    fn hold_reason(&self, done: &SearchDone, request: &SearchRequest, purpose: &SearchPurpose) -> Option<(HoldReason, Option<Instant>, bool)> {
        if purpose.stop_requested || done.result.best.is_none() {
            return None;
        }
        let flag_release = sit_release_time(purpose.flag_falls_at, MOVE_OVERHEAD);
        let (clock, us, now) = (request.limits.clock.as_ref(), request.root.turn(), Instant::now());
        if self.team.messages_on() && self.session.bughouse.requests.sitting {
            return match partner_sit_limit(clock, us, now, flag_release, self.team.sitting_on()) {
                SitLimit::Flag(at) => Some((HoldReason::Sitting, at, false)),
                SitLimit::Lead(at) => Some((HoldReason::Sitting, Some(at), true)),
                SitLimit::Refused => {
                    self.out.line("# partner asked us to sit, but we are not ahead on the clock: moving");
                    None
                }
            };
        }
        let role = done.advice.as_ref()?.sit?.waiting_for?;
        if !(self.team.sitting_on() && request.team.is_some()) {
            return None;
        }
        let release = wait_release(clock, us, now, flag_release)?;
        Some((HoldReason::Waiting(role), Some(release), true))
    }
}

/// One line of CECP thinking output: `depth score time(cs) nodes pv`.
pub fn format_thinking(info: &Info) -> String {
    let score = match info.score {
        Score::Cp(cp) => cp,
        Score::Mate(moves) if moves >= 0 => 100_000 + moves,
        Score::Mate(moves) => -100_000 + moves,
    };
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    format!("{} {} {} {} {}", info.depth, score, info.time.as_millis() / 10, info.nodes, pv.join(" "))
}

impl FrontEnd for XboardFrontEnd {
    fn handle_line(&mut self, line: &str) -> Flow {
        let command = match parse_xboard_line(line) {
            Ok(Some(command)) => command,
            Ok(None) => return Flow::Continue,
            Err(error) => {
                self.error(line, &error);
                return Flow::Continue;
            }
        };
        match self.execute(command) {
            Ok(flow) => flow,
            Err(error) => {
                self.error(line, &error);
                Flow::Continue
            }
        }
    }

    fn report_error(&mut self, message: &str) {
        self.out.line(&format!("Error ({message}): (line not shown)"));
    }

    fn on_search_done(&mut self, done: SearchDone) -> Flow {
        let Some(request) = self.searcher.finish(&done) else {
            return Flow::Continue;
        };
        self.deferred.apply_queued(self.searcher.engine());
        let purpose = std::mem::take(&mut self.active);
        if request.limits.infinite {
            // Analysis that ran out of depth: there is no move to play.
            return Flow::Continue;
        }
        if let (Some(advice), true) = (&done.advice, request.team.is_some() && self.team.messages_on()) {
            let partner_sitting_us = self.session.bughouse.requests.sitting;
            let messages = self.outbox.after_advice(&advice.messages, partner_sitting_us);
            self.tell(messages);
        }
        match self.hold_reason(&done, &request, &purpose) {
            Some((reason, release_at, lead_limited)) => {
                if let HoldReason::Waiting(role) = reason {
                    let ms = release_at.map_or(0, |at| at.saturating_duration_since(Instant::now()).as_millis());
                    self.out.line(&format!("# sitting: waiting for a {} for at most {ms} ms", role_name(role)));
                    let asked = done.advice.iter().flat_map(|a| &a.messages).any(|m| matches!(m, PartnerMessage::Need(_)));
                    let need = if asked { Vec::new() } else { vec![role] };
                    let messages = self.outbox.waiting(&need, false);
                    self.tell(messages);
                } else {
                    self.out.line("# sitting: the move waits for the partner's 'go'");
                }
                let since = Instant::now();
                let SearchDone { result, .. } = done;
                self.held = Some(HeldMove { result, reason, request, purpose, since, release_at, lead_limited });
            }
            None => self.play_result(&done.result, &request.root),
        }
        Flow::Continue
    }

    fn on_input_closed(&mut self) -> Flow {
        self.searcher.stop();
        Flow::Quit
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
                self.out.line(&format!("# {}", held.release_note()));
                self.play_result(&held.result, &held.request.root);
            }
        }
        Flow::Continue
    }
}
