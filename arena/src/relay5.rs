//! relay5 (RULES.md §6): two players per team walk five chess boards.
//!
//! Seats in rotation order: 0 = A1, 1 = B1, 2 = A2, 3 = B2; team 1 is A1 + A2,
//! with White on boards 1, 3, 5. On every board moves are made by A1, B1, A2,
//! B2, A1, … in turn; on boards 2 and 4 A1's first turn only starts White's
//! clock. Each player walks 1 → 5 and round again, skipping finished boards,
//! and waits at a board until it is their turn there, so nobody passes their
//! partner. A board's clocks start when A1 first reaches it **(choice)**.
//! Walking from one board to the next takes the walking time.
//!
//! A board is won by mate, by the opponent's flag, or by an illegal move (the
//! arbiter catches every one); the first team to win 3 boards wins the match,
//! and a match with every board over and neither team at 3 is drawn **(choice)**.

use std::time::Duration;

use tandem_engine::{Color, History, MoveError, Position, Rules, Status};

use crate::bpgn::{Record, RecordMove};
use crate::clock::{BoardClock, TimeControl};
use crate::matchplay::{MatchResult, SeatFault, Team};
use crate::san::to_san;
use crate::seats::{
    board_result_text, ClockReading, FaultKind, FromEngine, GameSetup, MoveRequest, SeatEvent, SeatIndex, Seats,
    ToEngine,
};

pub const BOARDS: usize = 5;
pub const SEAT_NAMES: [&str; 4] = ["A1", "B1", "A2", "B2"];
/// Boards a team must win.
const WINNING_BOARDS: usize = 3;

/// Team 1 (A) or team 2 (B) of a relay5 seat.
pub fn team_of_seat(seat: SeatIndex) -> Team {
    if seat.is_multiple_of(2) {
        Team::One
    } else {
        Team::Two
    }
}

/// Team A plays White on boards 1, 3, 5 (indices 0, 2, 4).
pub fn color_of(seat: SeatIndex, board: usize) -> Color {
    let team_a_white = board.is_multiple_of(2);
    match (team_of_seat(seat), team_a_white) {
        (Team::One, true) | (Team::Two, false) => Color::White,
        _ => Color::Black,
    }
}

fn team_of_color(board: usize, color: Color) -> Team {
    if color_of(0, board) == color {
        Team::One
    } else {
        Team::Two
    }
}

#[derive(Clone, Debug)]
pub struct Relay5Spec {
    /// The FEN every board starts from.
    pub start_fen: String,
    /// Team A's and team B's clocks (handicaps give one team less).
    pub team_times: [TimeControl; 2],
    pub names: Vec<String>,
    pub walking: Duration,
    pub board_key_base: u64,
}

impl Relay5Spec {
    pub fn seat_label(&self, seat: SeatIndex) -> String {
        format!("{} ({})", SEAT_NAMES[seat % 4], self.names.get(seat).map(String::as_str).unwrap_or("?"))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relay5End {
    pub winner: Option<Color>,
    pub reason: String,
    pub at: Duration,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relay5Move {
    pub seat: SeatIndex,
    pub color: Color,
    pub number: u32,
    pub san: String,
    pub clock_left: Duration,
    pub at: Duration,
}

struct Board {
    position: Position,
    history: History,
    clock: BoardClock,
    started: bool,
    /// Whose turn it is in the rotation (a seat).
    next: SeatIndex,
    moves: Vec<String>,
    record: Vec<Relay5Move>,
    start_fen: String,
    end: Option<Relay5End>,
    /// The seat asked to move here and not yet answered.
    pending: Option<SeatIndex>,
}

#[derive(Clone, Copy, Debug)]
struct Walker {
    board: usize,
    arrives: Duration,
}

#[derive(Clone, Debug)]
pub struct Relay5Report {
    pub result: MatchResult,
    pub reason: String,
    pub ends: Vec<Option<Relay5End>>,
    pub moves: Vec<Vec<Relay5Move>>,
    pub start_fen: String,
    pub faults: Vec<SeatFault>,
    pub duration: Duration,
}

pub fn play_relay5(spec: &Relay5Spec, seats: &mut dyn Seats) -> Result<Relay5Report, String> {
    let rules = Rules::relay5();
    let position = tandem_engine::parse_fen(&spec.start_fen, rules).map_err(|e| format!("opening: {e}"))?;
    if spec.names.len() < 4 {
        return Err("relay5 needs four players".to_string());
    }
    let boards = (0..BOARDS)
        .map(|k| {
            let white = spec.team_times[if color_of(0, k) == Color::White { 0 } else { 1 }];
            let black = spec.team_times[if color_of(0, k) == Color::Black { 0 } else { 1 }];
            let mut history = History::default();
            history.push(position.hash(), false);
            Board {
                position: position.clone(),
                history,
                clock: BoardClock::new(white, black),
                started: false,
                next: 0,
                moves: Vec::new(),
                record: Vec::new(),
                start_fen: position.to_string(),
                end: None,
                pending: None,
            }
        })
        .collect();
    let mut relay = Relay {
        spec,
        seats,
        boards,
        walkers: [Walker { board: 0, arrives: Duration::ZERO }; 4],
        faults: Vec::new(),
        time: Duration::ZERO,
    };
    let (result, reason) = relay.run();
    Ok(Relay5Report {
        result,
        reason,
        ends: relay.boards.iter().map(|b| b.end.clone()).collect(),
        moves: relay.boards.iter().map(|b| b.record.clone()).collect(),
        start_fen: spec.start_fen.clone(),
        faults: relay.faults,
        duration: relay.time,
    })
}

struct Relay<'a> {
    spec: &'a Relay5Spec,
    seats: &'a mut dyn Seats,
    boards: Vec<Board>,
    walkers: [Walker; 4],
    faults: Vec<SeatFault>,
    time: Duration,
}

impl Relay<'_> {
    fn run(&mut self) -> (MatchResult, String) {
        for seat in 0..4 {
            self.announce(seat);
        }
        self.time = self.seats.now();
        loop {
            if self.seats.stop_requested() {
                return (MatchResult::Unfinished, "interrupted by the user".to_string());
            }
            if let Some(decision) = self.decision() {
                self.finish(decision.0);
                return decision;
            }
            self.act();
            let Some(deadline) = self.next_deadline() else {
                self.finish(MatchResult::Draw);
                return (MatchResult::Draw, "no board can go on".to_string());
            };
            match self.seats.next_event(deadline) {
                Some(event) => {
                    self.time = self.time.max(event.at);
                    self.apply_flags();
                    self.handle(event);
                }
                None => {
                    self.time = self.time.max(self.seats.now());
                    self.apply_flags();
                }
            }
        }
    }

    fn announce(&mut self, seat: SeatIndex) {
        let team = team_of_seat(seat);
        let (own, opponent) = match team {
            Team::One => (self.spec.team_times[0], self.spec.team_times[1]),
            Team::Two => (self.spec.team_times[1], self.spec.team_times[0]),
        };
        let setup = GameSetup {
            rules: Rules::relay5(),
            board_label: "1".to_string(),
            color: color_of(seat, 0),
            own_time: own,
            opponent_time: opponent,
            start_fen: self.spec.start_fen.clone(),
            partner_name: None,
            opponent_name: self.spec.names[(seat + 1) % 4].clone(),
        };
        self.seats.send(seat, ToEngine::NewGame(setup));
    }

    /// Walks players on, starts clocks and asks whoever's turn it is.
    fn act(&mut self) {
        for seat in 0..4 {
            let walker = self.walkers[seat];
            if walker.arrives > self.time {
                continue;
            }
            let k = walker.board;
            if self.boards[k].end.is_some() {
                self.walk_on(seat, k);
                continue;
            }
            if !self.boards[k].started {
                if seat != 0 {
                    continue; // only A1 opens a board
                }
                self.boards[k].started = true;
                self.boards[k].clock.start(Color::White, self.time);
                if color_of(0, k) == Color::Black {
                    // A1's first turn here only starts White's clock.
                    self.boards[k].next = 1;
                    self.walk_on(seat, k);
                    continue;
                }
            }
            let board = &self.boards[k];
            if board.next == seat && board.pending.is_none() && self.seat_is_free(seat) {
                self.ask(seat, k);
            }
        }
    }

    fn seat_is_free(&self, seat: SeatIndex) -> bool {
        self.boards.iter().all(|b| b.pending != Some(seat))
    }

    fn ask(&mut self, seat: SeatIndex, k: usize) {
        let board = &self.boards[k];
        let clock = &board.clock;
        let clocks = ClockReading {
            white: clock.remaining(Color::White, self.time),
            black: clock.remaining(Color::Black, self.time),
            white_increment: clock.increment(Color::White),
            black_increment: clock.increment(Color::Black),
        };
        let request = MoveRequest {
            board_key: self.spec.board_key_base + k as u64,
            color: board.position.turn(),
            start_fen: board.start_fen.clone(),
            moves: board.moves.clone(),
            fen: board.position.to_string(),
            reserves: [tandem_engine::Reserve::EMPTY; 2],
            outside_material: false,
            clocks,
            partner: None,
        };
        self.boards[k].pending = Some(seat);
        self.seats.send(seat, ToEngine::Go(request));
    }

    /// Sends `seat` from board `k` to the next unfinished board.
    fn walk_on(&mut self, seat: SeatIndex, k: usize) {
        let next = (1..=BOARDS).map(|step| (k + step) % BOARDS).find(|&b| self.boards[b].end.is_none());
        if let Some(next) = next {
            let walking = if next == k { Duration::ZERO } else { self.spec.walking };
            self.walkers[seat] = Walker { board: next, arrives: self.time + walking };
        }
    }

    fn next_deadline(&self) -> Option<Duration> {
        let flags =
            self.boards.iter().filter(|b| b.end.is_none()).filter_map(|b| b.clock.flag_instant().map(|(_, at)| at));
        let arrivals = self.walkers.iter().map(|w| w.arrives).filter(|&at| at > self.time);
        flags.chain(arrivals).min()
    }

    fn apply_flags(&mut self) {
        for k in 0..BOARDS {
            if self.boards[k].end.is_some() {
                continue;
            }
            let Some((color, at)) = self.boards[k].clock.flag_instant().filter(|&(_, at)| at <= self.time) else {
                continue;
            };
            let mover = self.boards[k].next;
            if self.boards[k].pending == Some(mover) {
                self.faults.push(SeatFault {
                    seat: mover,
                    kind: FaultKind::Time,
                    detail: "no move before the flag fell".into(),
                    at,
                });
            }
            let reason = format!("board {}: {} lost on time", k + 1, self.player_of(k, color));
            self.end_board(k, Some(color.other()), reason, at);
        }
    }

    /// "White (A1, B2)" style: the team playing `color` on board `k`.
    fn player_of(&self, k: usize, color: Color) -> String {
        let seats: Vec<String> = (0..4).filter(|&s| color_of(s, k) == color).map(|s| self.spec.seat_label(s)).collect();
        format!("{} [{}]", crate::bpgn::color_name(color), seats.join(", "))
    }

    fn handle(&mut self, event: SeatEvent) {
        let SeatEvent { seat, at, message } = event;
        match message {
            FromEngine::Move(text) => self.on_move(seat, &text, at),
            FromEngine::Tell(_) => {} // no partner messages in relay5
            FromEngine::Fault { kind, detail } => self.on_fault(seat, kind, detail, at),
        }
    }

    fn on_fault(&mut self, seat: SeatIndex, kind: FaultKind, detail: String, at: Duration) {
        self.faults.push(SeatFault { seat, kind, detail: detail.clone(), at });
        // The board it was asked on, or the one it stands at.
        let k = self.boards.iter().position(|b| b.pending == Some(seat)).unwrap_or(self.walkers[seat].board);
        self.release(seat);
        if self.boards[k].end.is_none() {
            let color = color_of(seat, k);
            let reason = format!("board {}: {} {kind}: {detail}", k + 1, self.spec.seat_label(seat));
            self.end_board(k, Some(color.other()), reason, at);
        }
        self.restart(seat);
    }

    /// Forgets every request to `seat`.
    fn release(&mut self, seat: SeatIndex) {
        for board in &mut self.boards {
            if board.pending == Some(seat) {
                board.pending = None;
            }
        }
    }

    /// A fresh process for `seat`, told about the match again.
    fn restart(&mut self, seat: SeatIndex) {
        self.release(seat);
        self.seats.retire(seat, true);
        self.announce(seat);
    }

    fn on_move(&mut self, seat: SeatIndex, text: &str, at: Duration) {
        let Some(k) = self.boards.iter().position(|b| b.pending == Some(seat)) else { return };
        let color = color_of(seat, k);
        let board = &self.boards[k];
        let m = match board.position.parse_move(text) {
            Ok(m) => m,
            Err(error) => {
                let kind =
                    if matches!(error, MoveError::Malformed(_)) { FaultKind::Garbage } else { FaultKind::Illegal };
                let detail = format!("sent '{text}' in {}", board.position);
                self.on_fault(seat, kind, detail, at);
                return;
            }
        };
        let san = to_san(&board.position, m);
        let number = board.position.fullmoves();
        let board = &mut self.boards[k];
        board.pending = None;
        board.clock.press(at);
        let clock_left = board.clock.remaining(color, at);
        board.position.play(m);
        board.history.push(board.position.hash(), false);
        board.moves.push(m.to_string());
        board.record.push(Relay5Move { seat, color, number, san, clock_left, at });
        board.next = (seat + 1) % 4;
        self.walk_on(seat, k);
        self.check_board(k, at);
    }

    fn check_board(&mut self, k: usize, at: Duration) {
        let board = &self.boards[k];
        let mut status = board.position.status();
        if status == Status::Ongoing
            && board.history.is_repetition_draw(Rules::relay5().repetition, board.position.hash())
        {
            status = Status::Repetition;
        }
        let to_move = board.position.turn();
        let (winner, what) = match status {
            Status::Ongoing | Status::Frozen => return,
            Status::Checkmate => (Some(to_move.other()), format!("{} checkmated", self.player_of(k, to_move))),
            Status::Stalemate => (None, "stalemate".to_string()),
            Status::InsufficientMaterial => (None, "insufficient material".to_string()),
            Status::Repetition => (None, "repetition".to_string()),
        };
        self.end_board(k, winner, format!("board {}: {what}", k + 1), at);
    }

    fn end_board(&mut self, k: usize, winner: Option<Color>, reason: String, at: Duration) {
        let board = &mut self.boards[k];
        board.clock.stop(at);
        board.end = Some(Relay5End { winner, reason, at });
        // A player still searching here gets a fresh process, so that its late
        // answer cannot land on its next board.
        if let Some(seat) = board.pending.take() {
            self.restart(seat);
        }
    }

    fn wins(&self) -> [usize; 2] {
        let mut wins = [0; 2];
        for (k, board) in self.boards.iter().enumerate() {
            if let Some(color) = board.end.as_ref().and_then(|e| e.winner) {
                match team_of_color(k, color) {
                    Team::One => wins[0] += 1,
                    Team::Two => wins[1] += 1,
                }
            }
        }
        wins
    }

    fn decision(&self) -> Option<(MatchResult, String)> {
        let wins = self.wins();
        let all_over = self.boards.iter().all(|b| b.end.is_some());
        let result = if wins[0] >= WINNING_BOARDS {
            MatchResult::Won(Team::One)
        } else if wins[1] >= WINNING_BOARDS {
            MatchResult::Won(Team::Two)
        } else if all_over {
            MatchResult::Draw
        } else {
            return None;
        };
        let boards: Vec<String> = self.boards.iter().filter_map(|b| b.end.as_ref().map(|e| e.reason.clone())).collect();
        Some((result, format!("team A {} - {} team B; {}", wins[0], wins[1], boards.join("; "))))
    }

    fn finish(&mut self, result: MatchResult) {
        for board in &mut self.boards {
            board.clock.stop(self.time);
            board.pending = None;
        }
        for seat in 0..4 {
            let reason = "relay5 match over".to_string();
            self.seats.send(seat, ToEngine::GameOver { result: result.text().to_string(), reason });
        }
    }
}

/// One PGN record per board.
pub fn to_records(spec: &Relay5Spec, report: &Relay5Report, base_tags: &[(String, String)]) -> Vec<Record> {
    (0..BOARDS)
        .map(|k| {
            let players = |color: Color| {
                (0..4).filter(|&s| color_of(s, k) == color).map(|s| spec.seat_label(s)).collect::<Vec<_>>().join(", ")
            };
            let end = report.ends.get(k).cloned().flatten();
            let result = end.as_ref().map_or("*", |e| board_result_text(e.winner)).to_string();
            let mut record = Record {
                tags: base_tags.to_vec(),
                moves: report.moves[k]
                    .iter()
                    .map(|m| RecordMove {
                        board: tandem_engine::BoardId::A,
                        color: m.color,
                        number: m.number,
                        san: m.san.clone(),
                        clock: Some(m.clock_left),
                    })
                    .collect(),
                result: result.clone(),
                termination: end.as_ref().map(|e| e.reason.clone()),
                two_board: false,
            };
            record.set_tag("Board", (k + 1).to_string());
            record.set_tag("White", players(Color::White));
            record.set_tag("Black", players(Color::Black));
            let (white_tc, black_tc) = if color_of(0, k) == Color::White {
                (spec.team_times[0], spec.team_times[1])
            } else {
                (spec.team_times[1], spec.team_times[0])
            };
            record.set_tag("WhiteTimeControl", white_tc.to_string());
            record.set_tag("BlackTimeControl", black_tc.to_string());
            record.set_tag("Variant", "relay5");
            if spec.start_fen != tandem_engine::STARTPOS {
                record.set_tag("SetUp", "1");
                record.set_tag("FEN", spec.start_fen.clone());
            }
            record.set_tag("Result", result);
            record.set_tag("MatchResult", report.result.text());
            record
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_alternate_by_board_and_team() {
        assert_eq!(color_of(0, 0), Color::White); // A1 on board 1
        assert_eq!(color_of(1, 0), Color::Black); // B1 on board 1
        assert_eq!(color_of(2, 1), Color::Black); // A2 on board 2
        assert_eq!(color_of(3, 1), Color::White); // B2 on board 2
        assert_eq!(team_of_color(1, Color::White), Team::Two);
    }
}
