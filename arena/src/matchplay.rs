//! One match on one or two boards, refereed in real time.
//!
//! Both boards run at once: each board's clock runs for its side to move, a
//! flag falls at zero, captured material reaches the partner's reserve the
//! moment the capture is made, and engines on the receiving board hear of it
//! at once (see [`ToEngine::Reserves`]). A player who has no legal move but may
//! get material ([`Status::Frozen`]) is not asked to move: their clock runs
//! while they wait.
//!
//! Seats follow BPGN: 0 = WhiteA (team 1), 1 = BlackA (team 2),
//! 2 = WhiteB (team 2), 3 = BlackB (team 1). One-board matches (crazyhouse,
//! chess) use seats 0 = White (team 1) and 1 = Black (team 2).

use std::time::Duration;

use tandem_engine::team::PartnerMessage;
use tandem_engine::HAND_ROLES;
use tandem_engine::{BoardId, Color, Game, MatchEnd, MoveError, Role, Rules, Simultaneous, Status};

use crate::bpgn::{Record, RecordMove};
use crate::clock::{BoardClock, TimeControl};
use crate::san::to_san;
use crate::seats::{
    board_result_text, ClockReading, FaultKind, FromEngine, GameSetup, MoveRequest, PartnerView, SeatEvent, SeatIndex,
    Seats, ToEngine,
};

/// BPGN names of the seats of a two-board match.
pub use tandem_engine::SEAT_NAMES;
/// Names of the seats of a one-board match.
pub const ONE_BOARD_SEAT_NAMES: [&str; 2] = ["White", "Black"];

/// Boards ending within this much of each other end "at once" (RULES.md §5,
/// `simultaneous`): the arbiter's tick.
pub const ARBITER_TICK: Duration = Duration::from_millis(10);

/// A partner message repeated more often than this in one match is no longer
/// relayed: two bots answering each other's messages would loop forever
/// (two Sjengs do: "Sorry, but I don't understand that command.").
const MAX_SAME_TELL: usize = 2;
/// Free-text partner messages relayed per seat and match at most.
const MAX_TELLS_PER_SEAT: usize = 200;

pub use tandem_engine::{Seat, Team};

/// The seat index (BPGN order) of the player of `color` on `board`.
pub fn seat_of(board: BoardId, color: Color) -> SeatIndex {
    Seat { board, color }.index()
}

/// The board and colour of a seat index.
pub fn seat_position(seat: SeatIndex) -> (BoardId, Color) {
    let seat = Seat::from_index(seat);
    (seat.board, seat.color)
}

/// The partner of a two-board seat (opposite colour on the other board).
pub fn partner_of(seat: SeatIndex) -> SeatIndex {
    Seat::from_index(seat).partner().index()
}

/// The team of the player of `color` on `board`.
pub fn team_of(board: BoardId, color: Color) -> Team {
    Seat { board, color }.team()
}

/// How a match ended, from team 1's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchResult {
    Won(Team),
    Draw,
    /// Stopped before a result (Ctrl-C).
    Unfinished,
}

impl MatchResult {
    /// BPGN result text: `1-0` when team 1 won.
    pub fn text(self) -> &'static str {
        match self {
            MatchResult::Won(Team::One) => "1-0",
            MatchResult::Won(Team::Two) => "0-1",
            MatchResult::Draw => "1/2-1/2",
            MatchResult::Unfinished => "*",
        }
    }
}

/// Everything needed to play one match.
#[derive(Clone, Debug)]
pub struct MatchSpec {
    pub rules: Rules,
    /// BFEN for two boards, FEN for one.
    pub start: String,
    /// Time control of each seat.
    pub times: Vec<TimeControl>,
    /// Display name of each seat's engine.
    pub names: Vec<String>,
    /// Distinguishes this match's boards from other matches' (see [`MoveRequest::board_key`]).
    pub board_key_base: u64,
}

impl MatchSpec {
    pub fn board_count(&self) -> usize {
        if self.rules.is_two_board() {
            2
        } else {
            1
        }
    }

    pub fn seat_count(&self) -> usize {
        2 * self.board_count()
    }

    /// `WhiteA (tandem)`.
    pub fn seat_label(&self, seat: SeatIndex) -> String {
        let name = self.names.get(seat).map(String::as_str).unwrap_or("?");
        let seat_name = if self.board_count() == 2 {
            SEAT_NAMES.get(seat).copied().unwrap_or("?")
        } else {
            ONE_BOARD_SEAT_NAMES.get(seat).copied().unwrap_or("?")
        };
        format!("{seat_name} ({name})")
    }
}

/// How and when one board ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardEnd {
    pub board: BoardId,
    /// `None` for a drawn board.
    pub winner: Option<Color>,
    pub kind: EndKind,
    pub reason: String,
    pub at: Duration,
}

/// What ended a board, for the per-team counts of a run: a score made of the
/// opponent's flags must be told apart from one made of mates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EndKind {
    Mate,
    /// A flag fell while its player was asked to move (or between moves).
    Flag,
    /// A flag fell while its player had no legal move and waited for material.
    FrozenFlag,
    /// A crash, an illegal move, garbage or a resignation.
    Fault,
    /// Stalemate, repetition, insufficient material.
    Draw,
}

/// A move as it was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub board: BoardId,
    pub color: Color,
    pub number: u32,
    pub uci: String,
    pub san: String,
    /// The mover's clock after the move (increment included).
    pub clock_left: Duration,
    pub at: Duration,
}

/// An engine misbehaving, for the log and the fault summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatFault {
    pub seat: SeatIndex,
    pub kind: FaultKind,
    pub detail: String,
    pub at: Duration,
}

/// The outcome and record of a match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    pub result: MatchResult,
    /// Why the match ended, for the record and the progress line.
    pub reason: String,
    pub ends: Vec<Option<BoardEnd>>,
    pub moves: Vec<PlayedMove>,
    pub faults: Vec<SeatFault>,
    /// The position when the match ended (BFEN or FEN).
    pub final_position: String,
    pub duration: Duration,
    /// Partner messages relayed.
    pub tells: usize,
}

impl MatchReport {
    /// The end that decided a won match: the earliest board won by the
    /// winning team. `None` for draws and unfinished matches.
    pub fn decisive_end(&self) -> Option<&BoardEnd> {
        let MatchResult::Won(team) = self.result else { return None };
        self.ends
            .iter()
            .flatten()
            .filter(|e| e.winner.is_some_and(|w| team_of(e.board, w) == team))
            .min_by_key(|e| e.at)
    }
}

/// What a live display is shown.
pub struct MatchView<'a> {
    pub spec: &'a MatchSpec,
    pub game: &'a Game,
    /// Per board: White's and Black's clock now, and whose clock runs.
    pub clocks: Vec<(Duration, Duration, Option<Color>)>,
    pub last_moves: Vec<Option<&'a str>>,
    pub ends: Vec<Option<&'a BoardEnd>>,
    pub now: Duration,
}

/// Watches a match as it runs (the `--show` display).
pub trait Observer {
    /// A new match begins (`title` names it).
    fn match_started(&mut self, _title: &str) {}

    /// How often to redraw between moves so clocks visibly tick.
    fn refresh_interval(&self) -> Option<Duration> {
        None
    }

    fn update(&mut self, _view: &MatchView<'_>) {}
}

/// An observer that shows nothing.
pub struct NoObserver;

impl Observer for NoObserver {}

/// A move request that an engine has not answered yet.
#[derive(Clone, Copy, Debug)]
struct Pending {
    seat: SeatIndex,
    /// Requests sent and not yet answered (a re-request after a steal adds one).
    outstanding: u32,
    /// The board's outside-change version when asked.
    version: u64,
}

struct BoardRun {
    id: BoardId,
    clock: BoardClock,
    start_fen: String,
    moves: Vec<String>,
    status: Status,
    end: Option<BoardEnd>,
    pending: Option<Pending>,
    /// Bumped when a piece is taken off this board from outside (a `steal`).
    version: u64,
    /// The last piece that reached this board's reserves from the other board
    /// since this board's last move (French rule 9 asks what a mate was made with).
    arrived: Option<Role>,
}

/// Plays one match to its end (or until a stop is requested).
pub fn play_match(spec: &MatchSpec, seats: &mut dyn Seats, observer: &mut dyn Observer) -> Result<MatchReport, String> {
    let mut arbiter = Arbiter::new(spec, seats)?;
    arbiter.run(observer);
    Ok(arbiter.report())
}

struct Arbiter<'a> {
    spec: &'a MatchSpec,
    seats: &'a mut dyn Seats,
    game: Game,
    boards: Vec<BoardRun>,
    moves: Vec<PlayedMove>,
    faults: Vec<SeatFault>,
    /// When set, the match is decided at this time (after the arbiter's tick).
    decide_at: Option<Duration>,
    result: Option<(MatchResult, String)>,
    /// The latest time processed (events can arrive a hair out of order).
    time: Duration,
    tells: usize,
    /// Seats already told that their game is over.
    told_over: Vec<bool>,
    /// Partner messages relayed, per seat and text.
    tell_counts: std::collections::HashMap<(SeatIndex, String), usize>,
}

impl<'a> Arbiter<'a> {
    fn new(spec: &'a MatchSpec, seats: &'a mut dyn Seats) -> Result<Arbiter<'a>, String> {
        let rules = spec.rules;
        if spec.times.len() < spec.seat_count() || spec.names.len() < spec.seat_count() {
            return Err(format!("a match needs {} seats", spec.seat_count()));
        }
        let game = if spec.board_count() == 2 {
            Game::from_bfen(&spec.start, rules).map_err(|e| format!("opening '{}': {e}", spec.start))?
        } else {
            let board =
                tandem_engine::parse_fen(&spec.start, rules).map_err(|e| format!("opening '{}': {e}", spec.start))?;
            Game::from_boards(rules, [board.clone(), board])
        };
        let boards = BoardId::BOTH[..spec.board_count()]
            .iter()
            .map(|&id| {
                let white = spec.times[seat_of(id, Color::White)];
                let black = spec.times[seat_of(id, Color::Black)];
                BoardRun {
                    id,
                    clock: BoardClock::new(white, black),
                    start_fen: game.board(id).to_string(),
                    moves: Vec::new(),
                    status: game.status(id),
                    end: None,
                    pending: None,
                    version: 0,
                    arrived: None,
                }
            })
            .collect();
        let told_over = vec![false; spec.seat_count()];
        let time = seats.now();
        Ok(Arbiter {
            spec,
            seats,
            game,
            boards,
            moves: Vec::new(),
            faults: Vec::new(),
            decide_at: None,
            result: None,
            time,
            tells: 0,
            told_over,
            tell_counts: Default::default(),
        })
    }

    fn run(&mut self, observer: &mut dyn Observer) {
        self.announce_games();
        let start = self.seats.now();
        self.time = start;
        for b in 0..self.boards.len() {
            let turn = self.game.board(self.boards[b].id).turn();
            self.boards[b].clock.start(turn, start);
            // A board can be over before its first move (a mated opening position).
            self.end_if_terminal(b, start);
        }
        let mut next_refresh = start;
        loop {
            if self.seats.stop_requested() {
                self.result = Some((MatchResult::Unfinished, "interrupted by the user".to_string()));
                break;
            }
            if let Some(at) = self.decide_at.filter(|&at| self.time >= at) {
                self.result = Some(self.decide(at));
                break;
            }
            self.ask_engines();
            if let Some(interval) = observer.refresh_interval() {
                if self.time >= next_refresh {
                    observer.update(&self.view());
                    next_refresh = self.time + interval;
                }
            }
            let deadline = self.next_deadline(observer.refresh_interval().map(|_| next_refresh));
            match self.seats.next_event(deadline) {
                Some(event) => {
                    self.time = self.time.max(event.at);
                    self.apply_flags(self.time);
                    if self.handle(event) {
                        observer.update(&self.view());
                    }
                }
                None => {
                    self.time = self.time.max(self.seats.now());
                    self.apply_flags(self.time);
                }
            }
        }
        self.finish();
        observer.update(&self.view());
    }

    fn announce_games(&mut self) {
        for seat in 0..self.spec.seat_count() {
            let (board, color) = self.seat_position(seat);
            let opponent = self.seat_of(board, color.other());
            let partner_name = (self.spec.board_count() == 2).then(|| self.spec.names[partner_of(seat)].clone());
            let setup = GameSetup {
                rules: self.spec.rules,
                board_label: board.to_string(),
                color,
                own_time: self.spec.times[seat],
                opponent_time: self.spec.times[opponent],
                start_fen: self.game.board(board).to_string(),
                partner_name,
                opponent_name: self.spec.names[opponent].clone(),
            };
            self.seats.send(seat, ToEngine::NewGame(setup));
        }
    }

    fn seat_position(&self, seat: SeatIndex) -> (BoardId, Color) {
        seat_position(seat)
    }

    fn seat_of(&self, board: BoardId, color: Color) -> SeatIndex {
        seat_of(board, color)
    }

    fn board_index(&self, id: BoardId) -> Option<usize> {
        self.boards.iter().position(|b| b.id == id)
    }

    /// The earliest moment something must happen without an engine speaking.
    fn next_deadline(&self, refresh: Option<Duration>) -> Duration {
        let flags =
            self.boards.iter().filter(|b| b.end.is_none()).filter_map(|b| b.clock.flag_instant().map(|(_, at)| at));
        flags.chain(self.decide_at).chain(refresh).min().unwrap_or(self.time + Duration::from_secs(1))
    }

    /// Sends a move request to every player whose turn it is and who can move.
    fn ask_engines(&mut self) {
        if self.decide_at.is_some() && self.spec.rules.match_end == MatchEnd::First {
            return;
        }
        for b in 0..self.boards.len() {
            let board = &self.boards[b];
            if board.end.is_some() || board.pending.is_some() || board.status != Status::Ongoing {
                continue;
            }
            let color = self.game.board(board.id).turn();
            let seat = self.seat_of(board.id, color);
            let request = self.move_request(b, color);
            let version = self.boards[b].version;
            self.boards[b].pending = Some(Pending { seat, outstanding: 1, version });
            self.seats.send(seat, ToEngine::Go(request));
        }
    }

    fn clock_reading(&self, b: usize) -> ClockReading {
        let clock = &self.boards[b].clock;
        ClockReading {
            white: clock.remaining(Color::White, self.time),
            black: clock.remaining(Color::Black, self.time),
            white_increment: clock.increment(Color::White),
            black_increment: clock.increment(Color::Black),
        }
    }

    fn move_request(&self, b: usize, color: Color) -> MoveRequest {
        let board = &self.boards[b];
        let position = self.game.board(board.id);
        let partner = self.board_index(board.id.other()).filter(|&o| self.boards[o].end.is_none()).map(|o| {
            PartnerView { fen: self.game.board(self.boards[o].id).to_string(), clocks: self.clock_reading(o) }
        });
        MoveRequest {
            board_key: self.spec.board_key_base + b as u64,
            color,
            start_fen: board.start_fen.clone(),
            moves: board.moves.clone(),
            fen: position.to_string(),
            reserves: [*position.reserve(Color::White), *position.reserve(Color::Black)],
            outside_material: self.spec.rules.is_two_board(),
            clocks: self.clock_reading(b),
            partner,
        }
    }

    /// Ends every live board whose flag has fallen by `now`.
    fn apply_flags(&mut self, now: Duration) {
        for b in 0..self.boards.len() {
            if self.boards[b].end.is_some() {
                continue;
            }
            let Some((color, at)) = self.boards[b].clock.flag_instant().filter(|&(_, at)| at <= now) else {
                continue;
            };
            let id = self.boards[b].id;
            let seat = self.seat_of(id, color);
            let thinking = self.boards[b].pending.is_some_and(|p| p.seat == seat);
            let frozen = self.boards[b].status == Status::Frozen;
            let kind = if frozen { EndKind::FrozenFlag } else { EndKind::Flag };
            let reason = if frozen {
                format!("{} lost on time (frozen, waiting for material)", self.spec.seat_label(seat))
            } else {
                format!("{} lost on time", self.spec.seat_label(seat))
            };
            if thinking {
                self.faults.push(SeatFault {
                    seat,
                    kind: FaultKind::Time,
                    detail: "no move before the flag fell".into(),
                    at,
                });
            }
            self.end_board(b, Some(color.other()), kind, reason, at);
        }
    }

    /// Handles one message; true when something visible changed.
    fn handle(&mut self, event: SeatEvent) -> bool {
        let SeatEvent { seat, at, message } = event;
        match message {
            FromEngine::Move(text) => self.on_move(seat, &text, at),
            FromEngine::Tell(text) => {
                self.relay_tell(seat, text);
                false
            }
            FromEngine::Fault { kind, detail } => {
                self.on_fault(seat, kind, detail, at);
                true
            }
        }
    }

    /// Passes a partner message on. The partner vocabulary (`sit`, `time`,
    /// `otim`, …) always goes through: Fairy-Stockfish reports its clocks
    /// hundreds of times a match. Free text is capped, so two bots answering
    /// each other's chatter cannot loop forever.
    fn relay_tell(&mut self, seat: SeatIndex, text: String) {
        if self.spec.board_count() != 2 || seat >= 4 {
            return;
        }
        let vocabulary = PartnerMessage::parse(&text).is_ok_and(|m| m.is_vocabulary());
        if !vocabulary {
            let from_seat: usize = self.tell_counts.iter().filter(|((s, _), _)| *s == seat).map(|(_, n)| n).sum();
            let same = self.tell_counts.entry((seat, text.clone())).or_default();
            *same += 1;
            if *same > MAX_SAME_TELL || from_seat >= MAX_TELLS_PER_SEAT {
                return;
            }
        }
        self.tells += 1;
        self.seats.send(partner_of(seat), ToEngine::PartnerTell(text));
    }

    fn on_fault(&mut self, seat: SeatIndex, kind: FaultKind, detail: String, at: Duration) {
        self.faults.push(SeatFault { seat, kind, detail: detail.clone(), at });
        self.seats.retire(seat, false);
        let (board, color) = self.seat_position(seat);
        let Some(b) = self.board_index(board) else { return };
        if self.boards[b].end.is_none() {
            let reason = format!("{} {}: {detail}", self.spec.seat_label(seat), fault_verb(kind));
            self.end_board(b, Some(color.other()), EndKind::Fault, reason, at);
        }
    }

    fn on_move(&mut self, seat: SeatIndex, text: &str, at: Duration) -> bool {
        let (id, color) = self.seat_position(seat);
        let Some(b) = self.board_index(id) else { return false };
        let Some(pending) = self.boards[b].pending.filter(|p| p.seat == seat) else {
            return false; // a late answer (after a stop or a flag): nothing to do
        };
        if pending.outstanding > 1 {
            // The answer to a request that was superseded after a steal.
            self.boards[b].pending = Some(Pending { outstanding: pending.outstanding - 1, ..pending });
            return false;
        }
        if self.boards[b].end.is_some() || self.game.board(id).turn() != color {
            self.boards[b].pending = None;
            return false;
        }
        let position = self.game.board(id);
        let m = match position.parse_move(text) {
            Ok(m) => m,
            Err(MoveError::Malformed(_)) => {
                self.on_fault(seat, FaultKind::Garbage, format!("sent '{text}' as its move"), at);
                return true;
            }
            Err(MoveError::Illegal(_)) => {
                if pending.version != self.boards[b].version {
                    // The board changed under the engine (a steal): ask again.
                    self.reask(b, seat, color, pending);
                    return false;
                }
                let fen = position.to_string();
                self.on_fault(seat, FaultKind::Illegal, format!("played '{text}' in {fen}"), at);
                return true;
            }
        };
        let san = to_san(position, m);
        let number = position.fullmoves();
        self.boards[b].pending = None;
        let clock_left = {
            let clock = &mut self.boards[b].clock;
            clock.press(at);
            clock.remaining(color, at)
        };
        let other = self.board_index(id.other());
        let before_other = other.map(|o| self.game.board(self.boards[o].id).clone());
        if let Err(e) = self.game.play(id, m) {
            // parse_move only returns legal moves; keep the match alive regardless.
            self.on_fault(seat, FaultKind::Illegal, e.to_string(), at);
            return true;
        }
        self.boards[b].moves.push(m.to_string());
        self.moves.push(PlayedMove { board: id, color, number, uci: m.to_string(), san, clock_left, at });
        let arrived = self.boards[b].arrived.take();
        if let (Some(o), Some(before)) = (other, before_other) {
            self.after_flow(o, &before);
        }
        if m.is_drop() && arrived == Some(m.role()) && self.answered_by_a_mate_in_one(b) {
            let reason = format!(
                "board {id}: mate with a piece the partner just captured, while the capturer's opponent had a mate in one (French rule 9)"
            );
            self.end_board(b, None, EndKind::Draw, reason, at);
        }
        for i in 0..self.boards.len() {
            self.refresh_status(i, at);
        }
        true
    }

    /// French rule 9 (`simultaneous = draw`, RULES.md §5): the move just made
    /// on board `b` mates with a piece the partner captured on the other board,
    /// where the capturer's opponent is to move and has a mate in one. The two
    /// mates count as "at once", and the match is drawn.
    fn answered_by_a_mate_in_one(&self, b: usize) -> bool {
        let rules = &self.spec.rules;
        if rules.simultaneous != Simultaneous::Draw || self.spec.board_count() != 2 {
            return false;
        }
        let id = self.boards[b].id;
        let Some(o) = self.board_index(id.other()).filter(|&o| self.boards[o].end.is_none()) else { return false };
        if self.game.status(id) != Status::Checkmate {
            return false;
        }
        // The capturer is the mater's partner; its opponent, of the mater's
        // colour (partners play opposite colours), must be the one to move.
        let mater = self.game.board(id).turn().other();
        let other = self.game.board(self.boards[o].id);
        if other.turn() != mater {
            return false;
        }
        other.legal_moves().iter().any(|&reply| {
            let mut after = other.clone();
            after.play(reply);
            after.status() == Status::Checkmate
        })
    }

    fn reask(&mut self, b: usize, seat: SeatIndex, color: Color, pending: Pending) {
        if self.boards[b].status != Status::Ongoing {
            self.boards[b].pending = None;
            return;
        }
        let request = self.move_request(b, color);
        let version = self.boards[b].version;
        self.boards[b].pending = Some(Pending { seat, outstanding: pending.outstanding + 1, version });
        self.seats.send(seat, ToEngine::Go(request));
    }

    /// After a move on the other board: tell the engines of a live board
    /// about its new reserves (the game lets nothing reach an ended board).
    fn after_flow(&mut self, o: usize, before: &tandem_engine::Position) {
        let id = self.boards[o].id;
        if self.boards[o].end.is_some() {
            return;
        }
        let now = self.game.board(id);
        if now.occupied() != before.occupied() {
            self.boards[o].version += 1;
        }
        let reserves = [*now.reserve(Color::White), *now.reserve(Color::Black)];
        for color in Color::ALL {
            let gained = HAND_ROLES.into_iter().find(|&r| now.reserve(color).count(r) > before.reserve(color).count(r));
            if gained.is_some() {
                self.boards[o].arrived = gained;
            }
        }
        if reserves != [*before.reserve(Color::White), *before.reserve(Color::Black)] {
            let fen = now.to_string();
            for color in Color::ALL {
                let seat = self.seat_of(id, color);
                self.seats.send(seat, ToEngine::Reserves { fen: fen.clone(), reserves });
            }
        }
    }

    /// Recomputes a live board's status and ends it if the game is over there.
    fn refresh_status(&mut self, b: usize, at: Duration) {
        if self.boards[b].end.is_some() {
            return;
        }
        self.boards[b].status = self.game.status(self.boards[b].id);
        self.end_if_terminal(b, at);
    }

    fn end_if_terminal(&mut self, b: usize, at: Duration) {
        let id = self.boards[b].id;
        let status = self.game.status(id);
        self.boards[b].status = status;
        let to_move = self.game.board(id).turn();
        let loser_label = self.spec.seat_label(self.seat_of(id, to_move));
        let (winner, kind, reason) = match status {
            Status::Ongoing | Status::Frozen => return,
            Status::Checkmate => (Some(to_move.other()), EndKind::Mate, format!("{loser_label} checkmated")),
            Status::Stalemate => (None, EndKind::Draw, format!("board {id} stalemate")),
            Status::InsufficientMaterial => (None, EndKind::Draw, format!("board {id} insufficient material")),
            Status::Repetition => (None, EndKind::Draw, format!("board {id} drawn by repetition")),
        };
        self.end_board(b, winner, kind, reason, at);
    }

    fn end_board(&mut self, b: usize, winner: Option<Color>, kind: EndKind, reason: String, at: Duration) {
        let id = self.boards[b].id;
        let board = &mut self.boards[b];
        board.clock.stop(at);
        board.pending = None;
        board.end = Some(BoardEnd { board: id, winner, kind, reason: reason.clone(), at });
        if self.spec.board_count() == 2 {
            self.game.end_board(id);
        }
        for color in Color::ALL {
            let seat = self.seat_of(id, color);
            self.tell_over(seat, board_result_text(winner), &reason);
        }
        // No material can reach a frozen player any more: they may be mated now.
        for other in 0..self.boards.len() {
            if other != b {
                self.refresh_status(other, at);
            }
        }
        let all_over = self.boards.iter().all(|b| b.end.is_some());
        let first_decides = self.spec.rules.match_end == MatchEnd::First;
        if all_over {
            // Nothing else can happen: decide now, or at the pending decision if sooner.
            let now = at.max(self.time);
            self.decide_at = Some(self.decide_at.map_or(now, |d| d.min(now)));
        } else if first_decides && self.decide_at.is_none() {
            // Another board ending within the arbiter's tick ends "at once".
            self.decide_at = Some(at + ARBITER_TICK);
        }
    }

    fn tell_over(&mut self, seat: SeatIndex, result: &str, reason: &str) {
        if !self.told_over[seat] {
            self.told_over[seat] = true;
            self.seats.send(seat, ToEngine::GameOver { result: result.to_string(), reason: reason.to_string() });
        }
    }

    fn decide(&self, at: Duration) -> (MatchResult, String) {
        let ends: Vec<&BoardEnd> = self.boards.iter().filter_map(|b| b.end.as_ref()).filter(|e| e.at <= at).collect();
        decide(&self.spec.rules, self.spec.board_count(), &ends)
    }

    /// Stops every clock and tells every engine the match is over.
    fn finish(&mut self) {
        let now = self.time;
        let text = self.result.as_ref().map(|r| r.0.text()).unwrap_or("*");
        for b in 0..self.boards.len() {
            self.boards[b].clock.stop(now);
            self.boards[b].pending = None;
            let id = self.boards[b].id;
            for color in Color::ALL {
                let seat = self.seat_of(id, color);
                let reason = self.result.as_ref().map(|r| r.1.clone()).unwrap_or_default();
                self.tell_over(seat, if self.boards[b].end.is_some() { text } else { "*" }, &reason);
            }
        }
    }

    fn view(&self) -> MatchView<'_> {
        let clocks = self
            .boards
            .iter()
            .map(|b| {
                let running = if b.end.is_none() { b.clock.running() } else { None };
                (b.clock.remaining(Color::White, self.time), b.clock.remaining(Color::Black, self.time), running)
            })
            .collect();
        let last_moves = self
            .boards
            .iter()
            .map(|b| self.moves.iter().rev().find(|m| m.board == b.id).map(|m| m.san.as_str()))
            .collect();
        MatchView {
            spec: self.spec,
            game: &self.game,
            clocks,
            last_moves,
            ends: self.boards.iter().map(|b| b.end.as_ref()).collect(),
            now: self.time,
        }
    }

    fn report(self) -> MatchReport {
        let (result, reason) = self.result.unwrap_or((MatchResult::Unfinished, "not finished".to_string()));
        let final_position =
            if self.spec.board_count() == 2 { self.game.to_bfen() } else { self.game.board(BoardId::A).to_string() };
        MatchReport {
            result,
            reason,
            ends: self.boards.iter().map(|b| b.end.clone()).collect(),
            moves: self.moves,
            faults: self.faults,
            final_position,
            duration: self.time,
            tells: self.tells,
        }
    }
}

fn fault_verb(kind: FaultKind) -> &'static str {
    match kind {
        FaultKind::Startup => "failed to start",
        FaultKind::Crash => "crashed",
        FaultKind::Garbage => "sent garbage",
        FaultKind::Illegal => "played an illegal move",
        FaultKind::Resign => "resigned",
        FaultKind::Time => "lost on time",
    }
}

/// The match result from the boards that ended (RULES.md §5).
///
/// `match_end = first`: the earliest end decides; ends within [`ARBITER_TICK`]
/// of it are simultaneous and follow `simultaneous` (`draw`: a draw unless
/// they all favour one team; `first-wins`: the strictly earlier one decides).
/// `match_end = both`: each board scores 1 / ½ / 0; more points win.
pub fn decide(rules: &Rules, boards: usize, ends: &[&BoardEnd]) -> (MatchResult, String) {
    let team_of_end = |e: &BoardEnd| e.winner.map(|w| team_of(e.board, w));
    let reasons = |ends: &[&BoardEnd]| ends.iter().map(|e| e.reason.clone()).collect::<Vec<_>>().join("; ");
    if ends.is_empty() {
        return (MatchResult::Unfinished, "no board ended".to_string());
    }
    if boards == 2 && rules.match_end == MatchEnd::Both {
        let mut points = [0.0f64; 2];
        for e in ends {
            match team_of_end(e) {
                Some(Team::One) => points[0] += 1.0,
                Some(Team::Two) => points[1] += 1.0,
                None => {
                    points[0] += 0.5;
                    points[1] += 0.5;
                }
            }
        }
        let result = match points[0].partial_cmp(&points[1]) {
            Some(std::cmp::Ordering::Greater) => MatchResult::Won(Team::One),
            Some(std::cmp::Ordering::Less) => MatchResult::Won(Team::Two),
            _ => MatchResult::Draw,
        };
        return (result, reasons(ends));
    }
    let mut sorted: Vec<&BoardEnd> = ends.to_vec();
    sorted.sort_by_key(|e| e.at);
    let first = sorted[0];
    let together: Vec<&BoardEnd> = sorted.iter().copied().filter(|e| e.at <= first.at + ARBITER_TICK).collect();
    let single = |e: &BoardEnd| match team_of_end(e) {
        Some(team) => MatchResult::Won(team),
        None => MatchResult::Draw,
    };
    if together.len() == 1 {
        return (single(first), first.reason.clone());
    }
    let strictly_first = together[1].at > first.at;
    if rules.simultaneous == Simultaneous::FirstWins && strictly_first {
        return (single(first), format!("{} (first of simultaneous ends)", first.reason));
    }
    let teams: Vec<Option<Team>> = together.iter().map(|e| team_of_end(e)).collect();
    let result = match teams[0] {
        Some(team) if teams.iter().all(|t| *t == Some(team)) => MatchResult::Won(team),
        _ => MatchResult::Draw,
    };
    (result, format!("simultaneous: {}", reasons(&together)))
}

/// The BPGN record of a played match.
pub fn to_record(spec: &MatchSpec, report: &MatchReport, tags: Vec<(String, String)>) -> Record {
    let mut record = Record {
        tags,
        moves: report
            .moves
            .iter()
            .map(|m| RecordMove {
                board: m.board,
                color: m.color,
                number: m.number,
                san: m.san.clone(),
                clock: Some(m.clock_left),
            })
            .collect(),
        result: report.result.text().to_string(),
        termination: Some(report.reason.clone()),
        two_board: spec.board_count() == 2,
    };
    let seat_names: &[&str] = if spec.board_count() == 2 { &SEAT_NAMES } else { &ONE_BOARD_SEAT_NAMES };
    for (seat, tag) in seat_names.iter().enumerate() {
        record.set_tag(tag, spec.names[seat].clone());
    }
    let first = spec.times[0];
    if spec.times.iter().all(|t| *t == first) {
        record.set_tag("TimeControl", first.to_string());
    } else {
        for (seat, tag) in seat_names.iter().enumerate() {
            record.set_tag(&format!("{tag}TimeControl"), spec.times[seat].to_string());
        }
    }
    record.set_tag("Variant", spec.rules.to_string());
    let standard_start = if spec.board_count() == 2 {
        Game::new(spec.rules).to_bfen()
    } else {
        tandem_engine::Position::startpos(spec.rules).to_string()
    };
    if spec.start != standard_start {
        record.set_tag("SetUp", "1");
        record.set_tag("FEN", spec.start.clone());
    }
    record.set_tag("Result", report.result.text());
    for (i, end) in report.ends.iter().enumerate() {
        let label = BoardId::BOTH[i];
        let text = end.as_ref().map_or("*", |e| board_result_text(e.winner));
        if spec.board_count() == 2 {
            record.set_tag(&format!("Result{label}"), text);
        }
    }
    record.set_tag("Termination", report.reason.clone());
    record
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end(board: BoardId, winner: Option<Color>, ms: u64) -> BoardEnd {
        BoardEnd { board, winner, kind: EndKind::Mate, reason: format!("{board} {winner:?}"), at: Duration::from_millis(ms) }
    }

    #[test]
    fn first_end_decides() {
        let rules = Rules::bughouse();
        let a = end(BoardId::A, Some(Color::Black), 100);
        let b = end(BoardId::B, Some(Color::Black), 5000);
        assert_eq!(decide(&rules, 2, &[&a, &b]).0, MatchResult::Won(Team::Two));
        let b_first = end(BoardId::B, Some(Color::Black), 50);
        assert_eq!(decide(&rules, 2, &[&a, &b_first]).0, MatchResult::Won(Team::One));
    }

    #[test]
    fn simultaneous_ends_follow_the_rule() {
        let draw_rule = Rules::bughouse();
        let first_wins: Rules = "bughouse,simultaneous=first-wins".parse().unwrap();
        // Team 2 wins on A at 1.000 s, team 1 wins on B 4 ms later.
        let a = end(BoardId::A, Some(Color::Black), 1000);
        let b = end(BoardId::B, Some(Color::Black), 1004);
        assert_eq!(decide(&draw_rule, 2, &[&a, &b]).0, MatchResult::Draw);
        assert_eq!(decide(&first_wins, 2, &[&a, &b]).0, MatchResult::Won(Team::Two));
        // Both ends favour team 1: team 1 wins under either rule.
        let a1 = end(BoardId::A, Some(Color::White), 1000);
        assert_eq!(decide(&draw_rule, 2, &[&a1, &b]).0, MatchResult::Won(Team::One));
        // Exactly at once: first-wins cannot pick, so it is a draw.
        let b_same = end(BoardId::B, Some(Color::White), 1000);
        assert_eq!(decide(&first_wins, 2, &[&a1, &b_same]).0, MatchResult::Draw);
    }

    #[test]
    fn both_boards_score_points() {
        let rules = Rules::tandem();
        let a = end(BoardId::A, Some(Color::White), 100);
        let b = end(BoardId::B, None, 900);
        assert_eq!(decide(&rules, 2, &[&a, &b]).0, MatchResult::Won(Team::One));
        let b_team2 = end(BoardId::B, Some(Color::White), 900);
        assert_eq!(decide(&rules, 2, &[&a, &b_team2]).0, MatchResult::Draw);
    }
}
