//! The UCI front end, with the opt-in bughouse extension (see PROTOCOL.md).

use std::time::Duration;

use tandem_engine::team::{VOCABULARY, VOCABULARY_INTRO};
use tandem_engine::{BoardId, Game, Move, Position, Promotion, Reserve};

use crate::board_state::BoardState;
use crate::bughouse::{PartnerMessage, Seat};
use crate::front_end::{print_events, Flow, FrontEnd, Voice};
use crate::engine_api::{Bound, Clock, Info, Limits, Score, SearchResult};
use crate::engine_settings::{
    check_hash_fits, EngineChange, DEFAULT_HASH_MB, EMBEDDED_NETWORK, MAX_HASH_MB, MAX_THREADS, USE_NNUE_DEFAULT,
};
use crate::output::{echo, Output};
use crate::parse::{number_in, InputError};
use crate::partner_model::{describe, team_context, TeamOptions, TEAM_OPTIONS};
use crate::search_thread::{Reporter, SearchRequest, Searcher};
use crate::seat::{Conventions, SeatController, SeatEvents};
use crate::session::{variant_named, RulesConfig, VARIANTS};
use crate::uci_command::{parse_uci_line, GoCommand, PartnerCommand, PositionCommand, Setup, UciCommand};

/// How the seat's notes and partner tells are written.
const VOICE: Voice = Voice { note: "info string ", tell: "ptell " };

const MAX_MULTIPV: usize = 256;
const MAX_MOVE_OVERHEAD_MS: u64 = 5000;

/// What `bughouse` answers: the extension's features, then `bughouseok`.
const EXTENSION_FEATURES: &str = "feature seat partner reserve clocks ptell bfen board";

struct UciOptions {
    multipv: usize,
    ponder: bool,
}

/// The UCI parsing and printing around our [`SeatController`]; its
/// `bughouse` flag is the extension (switched on with `bughouse`).
pub struct UciFrontEnd {
    out: Output,
    seat: SeatController,
    options: UciOptions,
    debug: bool,
    /// `seat` was given: we play that colour, and a `go` with the other side
    /// to move on our board is refused. Without it we play the side to move.
    seat_given: bool,
    /// `go board both`: the board whose search prints its `info` lines (marked
    /// `info board X`), and our board's search still to come.
    both_boards: Option<BothBoards>,
}

/// A `go board both` under way: the partner board is searched first, then ours,
/// so that the `bestmove` ending the command is our board's, as for any `go`.
struct BothBoards {
    searching: BoardId,
    then: Option<GoCommand>,
}

impl UciFrontEnd {
    pub fn new(out: Output, searcher: Searcher) -> UciFrontEnd {
        UciFrontEnd {
            out,
            seat: SeatController::new(searcher, Conventions::UCI),
            options: UciOptions { multipv: 1, ponder: false },
            debug: false,
            seat_given: false,
            both_boards: None,
        }
    }

    fn info_string(&self, text: &str) {
        self.out.line(&format!("{}{text}", VOICE.note));
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
                self.seat.close();
                self.seat.stop_search();
                return Ok(Flow::Quit);
            }
            UciCommand::Display => self.display(),
            UciCommand::Bughouse => {
                self.seat.bughouse = true;
                self.out.line(EXTENSION_FEATURES);
                self.out.line("bughouseok");
            }
            UciCommand::Seat(seat) => {
                // A runner seats us for every game: what we told the partner is forgotten.
                self.seat.reset_outbox();
                self.set_seat(seat);
                self.seat_given = true;
            }
            UciCommand::Partner(partner) => {
                self.set_partner(partner)?;
                let released = self.seat.release_for_partner(false);
                self.report(released);
            }
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
                "option name Move Overhead type spin default {} min 0 max {MAX_MOVE_OVERHEAD_MS}",
                Conventions::UCI.move_overhead.as_millis()
            ),
            format!("option name UCI_Variant type combo default chess{variants}"),
            "option name UCI_Chess960 type check default false".to_string(),
            "option name Rules type string default <empty>".to_string(),
            "option name Clear Hash type button".to_string(),
            format!("option name Use NNUE type check default {USE_NNUE_DEFAULT}"),
            format!("option name EvalFile type string default {EMBEDDED_NETWORK}"),
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
        match lower.as_str() {
            "hash" => {
                let mb = number_in("Hash", Some(needs_value()?), 1, MAX_HASH_MB)?;
                check_hash_fits(mb)?;
                self.seat.change_engine(EngineChange::HashMb(mb));
            }
            "threads" => {
                let n = number_in("Threads", Some(needs_value()?), 1, MAX_THREADS)?;
                self.seat.change_engine(EngineChange::Threads(n));
            }
            "clear hash" => self.seat.change_engine(EngineChange::Clear),
            "use nnue" => self.seat.use_network(parse_check("Use NNUE", needs_value()?)?),
            "evalfile" => self.seat.load_network(value.unwrap_or(""))?,
            "multipv" => self.options.multipv = number_in("MultiPV", Some(needs_value()?), 1, MAX_MULTIPV)?,
            "ponder" => self.options.ponder = parse_check("Ponder", needs_value()?)?,
            "move overhead" => {
                let ms = number_in("Move Overhead", Some(needs_value()?), 0, MAX_MOVE_OVERHEAD_MS)?;
                self.seat.move_overhead = Duration::from_millis(ms);
            }
            "uci_variant" => {
                let text = needs_value()?;
                let variant = variant_named(text).ok_or_else(|| {
                    let names: Vec<&str> = VARIANTS.iter().map(|p| p.name()).collect();
                    InputError::new(format!("unknown UCI_Variant '{}' (expected one of {})", echo(text), names.join(", ")))
                })?;
                let config = RulesConfig { variant, ..self.seat.session.config().clone() };
                self.set_rules(config)?;
            }
            "uci_chess960" => {
                if let Some(note) = self.seat.session.set_chess960(parse_check("UCI_Chess960", needs_value()?)?) {
                    self.info_string(&note);
                }
            }
            "rules" => {
                let text = value.unwrap_or("").trim();
                let overrides = if text == "<empty>" { "" } else { text };
                let config = RulesConfig { overrides: overrides.to_string(), ..self.seat.session.config().clone() };
                self.set_rules(config)?;
            }
            _ if TeamOptions::is_option(name) => {
                let on = parse_check(name.trim(), needs_value()?)?;
                self.seat.team.set(name, on);
            }
            _ => return Err(InputError::new(format!("unknown option '{}'", echo(name)))),
        }
        Ok(())
    }

    fn set_rules(&mut self, config: RulesConfig) -> Result<(), InputError> {
        if let Some(note) = self.seat.session.set_config(config)? {
            self.info_string(&note);
        }
        if self.debug {
            self.info_string(&format!("rules {}", self.seat.session.rules()));
        }
        Ok(())
    }

    fn new_game(&mut self) {
        self.seat.new_game();
    }

    fn set_position(&mut self, command: PositionCommand) -> Result<(), InputError> {
        let (rules, chess960) = (self.seat.session.rules(), self.seat.session.chess960());
        match command.setup {
            Setup::StartPos => self.seat.session.board = BoardState::from_setup(None, &command.moves, rules, chess960)?,
            Setup::Fen(fen) => self.seat.session.board = BoardState::from_setup(Some(&fen), &command.moves, rules, chess960)?,
            Setup::Bfen(text) => {
                // Through a game, so each board knows what a `steal` could take from the other.
                let game = Game::from_bfen_with(&text, rules, chess960).map_err(|e| InputError::new(e.to_string()))?;
                let [a, b] = game.boards().clone();
                let (ours, partner) = match self.seat.session.bughouse.seat.board {
                    BoardId::A => (a, b),
                    BoardId::B => (b, a),
                };
                self.seat.session.board = BoardState::with_moves(ours, &command.moves)?;
                self.seat.session.bughouse.partner_board = Some(BoardState::new(partner));
            }
        }
        if self.debug {
            self.info_string(&format!("position {}", self.seat.session.board.position()));
        }
        Ok(())
    }

    fn go(&mut self, go: GoCommand) -> Result<(), InputError> {
        if self.seat.is_busy() {
            return Err(InputError::new("a search is already running: send 'stop' first"));
        }
        if go.both_boards {
            return self.go_both_boards(go);
        }
        let seat = self.seat.session.bughouse.seat;
        let our_board = go.board.is_none_or(|b| b == seat.board);
        let board = if our_board {
            &self.seat.session.board
        } else {
            self.seat.session.bughouse.partner_board.as_ref().ok_or_else(|| {
                InputError::new("no partner board to analyse: send 'position bfen' or 'partner' first")
            })?
        };
        let mut root = board.position().clone();
        let history = board.history().to_vec();
        self.take_steal_pools(&mut root, our_board);
        let limits = self.limits(&go, &root)?;
        if our_board && self.seat.bughouse {
            self.check_seat_colour(&root)?;
        }
        if our_board {
            self.record_clocks(&go, seat);
        }
        let team = self.seat.team_search(our_board, &root, &limits);
        if let (true, Some(team)) = (self.debug, &team) {
            self.info_string(&describe(&team.context));
        }
        let request = SearchRequest { root, history, limits, ponder: go.ponder, team };
        let reporter = self.reporter();
        self.seat.start(request, our_board, reporter)
    }

    /// `go board both`: the partner board first, then ours, each within the
    /// command's limits; every `info` names its board, the partner board's
    /// best move is an `info string`, and the `bestmove` is our board's.
    fn go_both_boards(&mut self, go: GoCommand) -> Result<(), InputError> {
        if go.infinite || go.ponder {
            return Err(InputError::new("'go board both' needs a finite search: depth, nodes, movetime or clocks"));
        }
        if self.seat.session.bughouse.partner_board.is_none() {
            return Err(InputError::new("no partner board to analyse: send 'position bfen' or 'partner' first"));
        }
        let ours = self.seat.session.bughouse.seat.board;
        let first = GoCommand { board: Some(ours.other()), both_boards: false, ..go.clone() };
        let then = GoCommand { board: Some(ours), both_boards: false, ..go };
        self.both_boards = Some(BothBoards { searching: ours.other(), then: Some(then) });
        let started = self.go(first);
        if started.is_err() {
            self.both_boards = None;
        }
        started
    }

    /// `promotion=steal` takes from the other board: the root learns what it
    /// could take there, or the GUI hears that no pawn can promote.
    fn take_steal_pools(&mut self, root: &mut Position, our_board: bool) {
        if root.rules().promotion != Promotion::Steal || !root.rules().is_two_board() {
            return;
        }
        let other = if our_board {
            self.seat.session.bughouse.partner_board.as_ref().map(BoardState::position)
        } else {
            Some(self.seat.session.board.position())
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
        let seat = &mut self.seat.session.bughouse.seat;
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
            move_overhead: self.seat.move_overhead,
            ..Limits::default()
        })
    }

    /// Keeps the four clocks of `go` in the bughouse context.
    fn record_clocks(&mut self, go: &GoCommand, seat: Seat) {
        let clocks = &mut self.seat.session.bughouse.clocks;
        for color in tandem_engine::Color::ALL {
            let i = color as usize;
            clocks.set(seat.board, color, go.time[i], go.increment[i]);
            clocks.set(seat.board.other(), color, go.partner_time[i], go.partner_increment[i]);
        }
        // Clocks given with `go` are taken as they are (the GUI sends them again
        // with every `go`); only clocks told by the partner run on.
        if go.partner_time.iter().any(Option::is_some) {
            self.seat.session.bughouse.partner_clocks_at = None;
        }
    }

    fn reporter(&self) -> Reporter {
        let out = self.out.clone();
        match self.both_boards.as_ref().map(|b| b.searching) {
            Some(board) => Box::new(move |info: &Info| out.line(&format_info(info).replacen("info ", &format!("info board {board} "), 1))),
            None => Box::new(move |info: &Info| out.line(&format_info(info))),
        }
    }

    fn stop(&mut self) {
        // `stop` ends a `go board both` with the board searched now.
        if let Some(both) = &mut self.both_boards {
            both.then = None;
        }
        let events = self.seat.move_now();
        self.report(events);
    }

    fn ponderhit(&mut self) {
        match self.seat.ponderhit() {
            Some(events) => self.report(events),
            None => self.info_string("ponderhit ignored: not pondering"),
        }
    }

    fn emit(&mut self, result: &SearchResult) {
        if let Some(both) = &mut self.both_boards {
            let board = both.searching;
            if let Some(next) = both.then.take() {
                both.searching = board.other();
                let best = result.best.map_or("(none)".to_string(), |m| m.to_string());
                self.info_string(&format!("board {board} bestmove {best}"));
                if let Err(error) = self.go(next) {
                    self.both_boards = None;
                    self.error(&error);
                    self.out.line("bestmove (none)");
                }
                return;
            }
            self.both_boards = None;
        }
        match (result.best, result.ponder) {
            (Some(best), Some(ponder)) => self.out.line(&format!("bestmove {best} ponder {ponder}")),
            (Some(best), None) => self.out.line(&format!("bestmove {best}")),
            (None, _) => self.out.line("bestmove (none)"),
        }
        if result.best.is_some() {
            let told = self.seat.moved();
            self.report(told);
        }
    }

    fn display(&self) {
        let board = &self.seat.session.board;
        self.info_string(&format!("rules {}", self.seat.session.rules()));
        self.info_string(&format!("fen {}", board.position()));
        let moves: Vec<String> = board.moves().iter().map(|m| m.to_string()).collect();
        self.info_string(&format!("moves {}", moves.join(" ")));
        if self.seat.bughouse {
            let context = &self.seat.session.bughouse;
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
            let team = team_context(context, root, Some(&clock), &self.seat.team);
            self.info_string(&describe(&team));
        }
    }

    fn set_seat(&mut self, seat: Seat) {
        let context = &mut self.seat.session.bughouse;
        if seat.board != context.seat.board {
            if let Some(partner) = context.partner_board.take() {
                context.partner_board = Some(std::mem::replace(&mut self.seat.session.board, partner));
            }
        }
        self.seat.session.bughouse.seat = seat;
    }

    fn set_partner(&mut self, command: PartnerCommand) -> Result<(), InputError> {
        let (rules, chess960) = (self.seat.session.rules(), self.seat.session.chess960());
        let context = &mut self.seat.session.bughouse;
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
        self.seat.session.board.set_reserves(reserves);
        let reporter = self.reporter();
        self.seat.restart_for_material(reporter)?;
        Ok(())
    }

    fn partner_message(&mut self, message: PartnerMessage) {
        match &message {
            PartnerMessage::Other(text) => {
                self.info_string(&format!("partner message not understood, kept: {}", echo(text)))
            }
            PartnerMessage::Help => self.out.line(&format!("ptell {VOCABULARY_INTRO}{VOCABULARY}")),
            // `move` alone: the search's best move now, or the held one.
            PartnerMessage::MoveNow if self.seat.our_move_in_progress().is_some() => self.stop(),
            PartnerMessage::Move(text) => {
                if let Some(m) = self.partner_move_to_play(text) {
                    // Logged, but not kept as the partner's planned move: it is ours now.
                    self.seat.session.bughouse.receive(message);
                    let events = self.seat.play_partner_move(m);
                    self.report(events);
                    return;
                }
            }
            _ => {}
        }
        let go = message == PartnerMessage::Go;
        if message == PartnerMessage::Sit {
            let withdrawn = self.seat.partner_sits();
            self.report(withdrawn);
        }
        if let Err(error) = self.seat.session.receive_partner_message(message) {
            self.error(&error);
        }
        let released = self.seat.release_for_partner(go);
        self.report(released);
    }

    /// `ptell move <m>`: `m` if it is legal where our move is being found.
    fn partner_move_to_play(&self, text: &str) -> Option<Move> {
        self.seat.our_move_in_progress()?.parse_move(text).ok()
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
    fn report(&mut self, events: SeatEvents) {
        let out = self.out.clone();
        print_events(&out, &VOICE, events, |result, _| self.emit(&result));
    }

    fn handle_line(&mut self, line: &str) -> Flow {
        let parsed = match parse_uci_line(line, self.seat.bughouse) {
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

    fn on_input_closed(&mut self) -> Flow {
        self.seat.close();
        let released = self.seat.release_held();
        self.report(released);
        if !self.seat.is_searching() {
            return Flow::Quit;
        }
        // A finite search finishes on its own; one that waits for `stop` is stopped.
        if self.seat.current().is_some_and(|r| r.ponder || r.limits.infinite) {
            self.stop();
        }
        Flow::Continue
    }

    fn seat(&mut self) -> &mut SeatController {
        &mut self.seat
    }
}
