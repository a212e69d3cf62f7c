//! The CECP (xboard/WinBoard) front end, with bughouse as played through an
//! ICS: `holding` (also during a search), `partner` and `ptell`.

use std::time::{Duration, Instant};

use tandem_engine::team::{roles_that_free, VOCABULARY, VOCABULARY_INTRO};
use tandem_engine::{parse_fen, Color, Move, Position, Preset, Reserve, Role, Status};

use crate::board_state::BoardState;
use crate::bughouse::{clock_now, PartnerMessage};
use crate::front_end::{print_events, Flow, FrontEnd, Voice};
use crate::engine_api::{Clock, Info, Limits, Score, SearchResult};
use crate::engine_settings::{check_hash_fits, EngineChange, EMBEDDED_NETWORK, USE_NNUE_DEFAULT};
use crate::output::{echo, Output};
use crate::parse::InputError;
use crate::move_clock::{MoveClock, SitLimit};
use crate::partner_model::{describe, parse_switch, team_context, TeamOptions, TEAM_OPTIONS};
use crate::search_thread::{Reporter, SearchRequest, Searcher};
use crate::seat::{Conventions, SeatController, SeatEvents};
use crate::session::RulesConfig;
use crate::xboard_command::{parse_xboard_line, XboardCommand};

/// How the seat's notes and partner tells are written.
const VOICE: Voice = Voice { note: "# ", tell: "tellics ptell " };

/// What the partner hears when assigned (and after `help`): the vocabulary of PROTOCOL.md.
fn vocabulary_line(greeting: &str) -> String {
    format!("tellics ptell {greeting}{VOCABULARY_INTRO}{VOCABULARY}")
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

/// The CECP parsing and printing around our [`SeatController`].
pub struct XboardFrontEnd {
    out: Output,
    seat: SeatController,
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
    /// When `own_time`/`opponent_time` were set: the clock of the side to move has run since.
    clocks_at: Option<Instant>,
    /// `option Rules=…`: rule overrides (the UCI `Rules` syntax) applied on top
    /// of every variant, `new` included.
    rules_overrides: String,
    /// Analysis mode (`analyze` … `exit`): the engine plays neither side and
    /// analyses every new position without end, always posting its thinking.
    analyzing: bool,
    /// Free text from the partner was answered once this game. Only once: a
    /// partner bot that answers what it does not understand (another tandem
    /// among them) would otherwise trade apologies with us for ever.
    answered_free_text: bool,
}

impl XboardFrontEnd {
    pub fn new(out: Output, searcher: Searcher) -> XboardFrontEnd {
        let mut seat = SeatController::new(searcher, Conventions::CECP);
        // CECP plays bughouse as an ICS does, with no extension to switch on.
        seat.bughouse = true;
        XboardFrontEnd {
            out,
            seat,
            engine_color: Some(Color::Black),
            post: false,
            time_control: TimeControl::default(),
            move_time: None,
            depth_limit: None,
            own_time: None,
            opponent_time: None,
            clocks_at: None,
            rules_overrides: String::new(),
            analyzing: false,
            answered_free_text: false,
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
                self.engine_color = Some(self.seat.session.board.turn());
                self.think_if_our_turn()?;
            }
            XboardCommand::PlayOther => {
                self.exit_analysis();
                self.abandon_search();
                self.engine_color = Some(self.seat.session.board.turn().other());
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
            XboardCommand::Time(t) => (self.own_time, self.clocks_at) = (Some(t), Some(Instant::now())),
            XboardCommand::Otim(t) => (self.opponent_time, self.clocks_at) = (Some(t), Some(Instant::now())),
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
                self.seat.change_engine(EngineChange::HashMb(mb))
            }
            XboardCommand::Cores(n) => self.seat.change_engine(EngineChange::Threads(n)),
            XboardCommand::Quit => {
                self.seat.stop_search();
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
        self.out.line(&format!("feature option=\"Use NNUE -check {}\"", u8::from(USE_NNUE_DEFAULT)));
        self.out.line(&format!("feature option=\"EvalFile -file {EMBEDDED_NETWORK}\""));
        for name in TEAM_OPTIONS {
            let on = u8::from(TeamOptions::default_of(name));
            self.out.line(&format!("feature option=\"{name} -check {on}\""));
        }
        self.out.line("feature done=1");
    }

    /// `option NAME=VALUE`: the rules, the evaluation and the partner-board model's switches.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), InputError> {
        if name.eq_ignore_ascii_case("rules") {
            return self.set_rules_overrides(value);
        }
        if name.eq_ignore_ascii_case("use nnue") {
            self.seat.use_network(parse_switch("Use NNUE", value)?);
            return Ok(());
        }
        if name.eq_ignore_ascii_case("evalfile") {
            return self.seat.load_network(value);
        }
        if !TeamOptions::is_option(name) {
            return Err(InputError::new(format!("unknown option '{}'", echo(name))));
        }
        let on = parse_switch(name, value)?;
        self.seat.team.set(name, on);
        Ok(())
    }

    /// `option Rules=…`: checked against the current variant and applied to the
    /// game in progress at once; a refused value changes nothing.
    fn set_rules_overrides(&mut self, value: &str) -> Result<(), InputError> {
        let value = value.trim();
        let overrides = if value == "<empty>" { "" } else { value };
        let before = self.seat.session.rules();
        let config = RulesConfig { overrides: overrides.to_string(), ..self.seat.session.config().clone() };
        let note = self.seat.session.set_config(config)?;
        self.rules_overrides = overrides.to_string();
        if let Some(note) = note {
            self.out.line(&format!("# {note}"));
        }
        if self.seat.session.rules() != before && (self.analyzing || self.seat.is_busy()) {
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
        let board = &self.seat.session.board;
        let (root, history) = (board.position().clone(), board.history().to_vec());
        let move_overhead = self.seat.move_overhead;
        let limits = Limits { infinite: true, multipv: 1, move_overhead, ..Limits::default() };
        let request = SearchRequest { root, history, limits, ponder: false, team: None };
        let reporter = self.reporter();
        self.seat.start(request, true, reporter)
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
        if let Err(error) = self.seat.session.set_config(config) {
            self.out.line(&format!("# {error}: normal chess without them"));
            let _ = self.seat.session.set_config(RulesConfig::default());
        }
        self.seat.new_game();
        self.answered_free_text = false;
        self.engine_color = Some(Color::Black);
        self.depth_limit = None;
        self.own_time = None;
        self.opponent_time = None;
        if self.analyzing {
            self.engine_color = None;
            self.start_analysis()?;
        }
        Ok(())
    }

    fn set_variant(&mut self, preset: Preset) -> Result<(), InputError> {
        // Refused (the `Rules` overrides do not fit this variant): nothing changes.
        self.seat.session.set_config(RulesConfig { variant: preset, overrides: self.rules_overrides.clone() })?;
        self.abandon_search();
        self.seat.session.board = BoardState::startpos(self.seat.session.rules());
        if self.analyzing {
            self.start_analysis()?;
        }
        Ok(())
    }

    /// Stops a search without playing its move (`force`, `new`, `result` …).
    fn abandon_search(&mut self) {
        self.seat.abandon();
    }

    /// Plays the opponent's move; an illegal one changes nothing.
    fn user_move(&mut self, text: &str) -> Result<(), InputError> {
        let mut board = self.seat.session.board.clone();
        if let Err(error) = board.play_text(text) {
            let reason = if error.0.starts_with("malformed") { "malformed move" } else { "illegal move" };
            self.out.line(&format!("Illegal move ({reason}): {}", echo(text)));
            return Ok(());
        }
        self.abandon_search();
        self.seat.session.board = board;
        self.tell_partner_our_board();
        self.after_position_change()
    }

    fn set_board(&mut self, fen: &str) -> Result<(), InputError> {
        let position = parse_fen(fen, self.seat.session.rules()).map_err(|e| InputError::new(e.to_string()))?;
        self.abandon_search();
        self.seat.session.board = BoardState::new(position);
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
        let events = self.seat.move_now();
        self.report(events);
    }

    fn is_our_turn(&self) -> bool {
        self.engine_color == Some(self.seat.session.board.turn())
    }

    /// Starts thinking when it is the engine's move and it is not already busy.
    fn think_if_our_turn(&mut self) -> Result<(), InputError> {
        if !self.is_our_turn() || self.seat.is_busy() {
            return Ok(());
        }
        let board = &self.seat.session.board;
        let root = board.position().clone();
        let history = board.history().to_vec();
        let limits = self.limits(&root);
        self.seat.session.bughouse.seat.color = root.turn();
        // CECP never gives the partner board: the model works with the
        // partner's requests and our messages (to an assigned partner).
        let team = self.seat.team_search(true, &root, &limits);
        let request = SearchRequest { root, history, limits, ponder: false, team };
        let reporter = self.reporter();
        self.seat.start(request, true, reporter)
    }

    fn limits(&self, root: &Position) -> Limits {
        let us = root.turn();
        let move_overhead = self.seat.move_overhead;
        let mut limits = Limits { depth: self.depth_limit, multipv: 1, move_overhead, ..Limits::default() };
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
        if !self.seat.session.board.position().is_legal(best) {
            return;
        }
        self.play_our_move(best);
    }

    /// Plays a legal move of ours and announces it.
    fn play_our_move(&mut self, m: Move) {
        if let Some(us) = self.engine_color {
            self.own_time = self.clock_now(us).map(|left| left + self.time_control.increment);
            self.clocks_at = Some(Instant::now());
        }
        self.seat.session.board.play(m);
        let told = self.seat.moved();
        self.out.line(&format!("move {m}"));
        self.tell_partner_our_board();
        self.report(told);
        self.claim_result_after_our_move();
    }

    /// A clock of our board now: as `time`/`otim` (or our last move) left it,
    /// less the time since for the side to move.
    fn clock_now(&self, side: Color) -> Option<Duration> {
        let time = if Some(side) == self.engine_color { self.own_time } else { self.opponent_time }?;
        Some(clock_now(time, self.clocks_at, self.seat.session.board.turn() == side))
    }

    /// Our board and its clocks (`board`, `time`, `otim`), for a partner who
    /// said it reads them: partners over CECP see one board each and share
    /// them this way, and Fairy-Stockfish weighs its partner's clocks.
    fn tell_partner_our_board(&self) {
        let context = &self.seat.session.bughouse;
        let Some(us) = self.engine_color.filter(|_| context.partner_name.is_some() && !self.analyzing) else {
            return;
        };
        let mut tells = Vec::new();
        if context.partner_reads("board") {
            tells.push(PartnerMessage::Board(self.seat.session.board.position().to_string()));
        }
        if context.partner_reads("time") {
            tells.extend(self.clock_now(us).map(PartnerMessage::Time));
            tells.extend(self.clock_now(us.other()).map(PartnerMessage::OpponentTime));
        }
        for tell in tells {
            self.out.line(&format!("tellics ptell {tell}"));
        }
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
                let told = self.seat.waiting(&roles_that_free(root), root.is_check());
                self.report(told);
            }
        }
    }

    fn claim_result_after_our_move(&self) {
        let position = self.seat.session.board.position();
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
                let position = self.seat.session.board.position();
                let mut current = [Reserve::EMPTY; 2];
                for side in Color::ALL {
                    current[side as usize] = *position.reserve(side);
                }
                current[color as usize].add(role);
                current
            }
            None => reserves,
        };
        self.seat.session.board.set_reserves(reserves);
        if self.analyzing {
            return self.start_analysis();
        }
        self.tell_partner_our_board();
        let reporter = self.reporter();
        if !self.seat.restart_for_material(reporter)? {
            self.think_if_our_turn()?;
        }
        Ok(())
    }

    fn set_partner(&mut self, name: Option<String>) {
        let greet = name.is_some();
        self.seat.session.bughouse.set_partner(name);
        self.seat.reset_outbox();
        self.answered_free_text = false;
        if greet {
            self.out.line(&vocabulary_line("Hello, I am tandem. "));
        }
    }

    fn partner_message(&mut self, message: PartnerMessage) {
        // The partner's clocks map to seats by the colour we play.
        if let Some(us) = self.engine_color {
            self.seat.session.bughouse.seat.color = us;
        }
        let reply = match &message {
            PartnerMessage::Sit => Some(format!("tellics ptell {}", self.sit_reply())),
            PartnerMessage::Help => Some(vocabulary_line("")),
            // A partner that introduced itself is an engine: its free text is
            // commentary (Fairy-Stockfish's "I sit, tell me 'go' …"), not a question.
            PartnerMessage::Other(_) if !self.answered_free_text && self.seat.session.bughouse.partner_words.is_empty() => {
                self.answered_free_text = true;
                Some("tellics ptell sorry, I did not understand that".to_string())
            }
            _ => None,
        };
        let go = message == PartnerMessage::Go;
        let introduced = matches!(message, PartnerMessage::Introduction(_));
        let withdrawn = if message == PartnerMessage::Sit { self.seat.partner_sits() } else { Vec::new() };
        let action = message.clone();
        if let Err(error) = self.seat.session.receive_partner_message(message) {
            self.error(&format!("ptell {action}"), &error);
        }
        if let Some(reply) = reply {
            self.out.line(&reply);
        }
        if introduced {
            self.tell_partner_our_board();
        }
        self.report(withdrawn);
        match action {
            // Fairy-Stockfish's "move now": the search's best move, or the held one.
            PartnerMessage::MoveNow => self.move_now(),
            PartnerMessage::Move(text) => {
                if let Some(m) = self.partner_move_to_play(&text) {
                    let events = self.seat.play_partner_move(m);
                    self.report(events);
                }
            }
            _ => {}
        }
        let released = self.seat.release_for_partner(go);
        self.report(released);
    }

    /// `ptell move <m>`: the move to play now, when it is our turn (not in
    /// analysis or force mode) and the move is legal on our board. Otherwise
    /// the partner's planned move, only kept.
    fn partner_move_to_play(&self, text: &str) -> Option<Move> {
        if !self.is_our_turn() {
            return None;
        }
        self.seat.session.board.position().parse_move(text).ok()
    }

    /// The truthful answer to the partner's `sit`: whether and how long we
    /// would sit now, by the rule `hold_reason` applies when our move is found.
    fn sit_reply(&self) -> String {
        let team = self.seat.team;
        if !team.messages_on() {
            let option = if team.model { "Team Messages" } else { "Partner Model" };
            return format!("sorry, I do not sit: I do not take requests (my option {option} is off)");
        }
        let us = self.engine_color.unwrap_or_else(|| self.seat.session.board.turn());
        let clock = self.move_time.is_none().then(|| self.clock(us, self.seat.session.board.position().fullmoves()));
        let idle = MoveClock::between_moves(clock.as_ref(), us);
        match idle.partner_sit_limit(Instant::now(), self.seat.move_overhead, team.sitting_on()) {
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
        if self.seat.session.board.moves().len() < plies {
            return Err(InputError::new("no move to take back"));
        }
        self.abandon_search();
        for _ in 0..plies {
            self.seat.session.board.undo();
        }
        if self.analyzing {
            self.start_analysis()?;
        }
        Ok(())
    }

    fn display(&self) {
        self.out.line(&format!("# rules {}", self.seat.session.rules()));
        self.out.line(&format!("# fen {}", self.seat.session.board.position()));
        let side = match self.engine_color {
            _ if self.analyzing => "none (analysing)",
            None => "none (force)",
            Some(Color::White) => "white",
            Some(Color::Black) => "black",
        };
        self.out.line(&format!("# engine plays {side}"));
        let context = &self.seat.session.bughouse;
        if let Some(name) = &context.partner_name {
            self.out.line(&format!("# partner {name}"));
        }
        if !context.partner_words.is_empty() {
            self.out.line(&format!("# partner reads {}", context.partner_words.join(", ")));
        }
        if self.seat.bughouse && self.seat.session.rules().is_two_board() {
            // The context a search of our board would get now.
            let root = self.seat.session.board.position();
            let clock = self.clock(root.turn(), root.fullmoves());
            self.out.line(&format!("# {}", describe(&team_context(context, root, Some(&clock), &self.seat.team))));
        }
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
    fn report(&mut self, events: SeatEvents) {
        let out = self.out.clone();
        print_events(&out, &VOICE, events, |result, root| self.play_result(&result, &root));
    }

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

    fn on_input_closed(&mut self) -> Flow {
        self.seat.stop_search();
        Flow::Quit
    }

    fn seat(&mut self) -> &mut SeatController {
        &mut self.seat
    }
}
