//! Two boards and the material that flows between them.
//!
//! Seats follow BPGN: team 1 is White on A and Black on B, team 2 is Black on A
//! and White on B. A captured piece goes to the capturer's partner, who plays
//! the other colour on the other board, so every piece keeps its colour.

use std::fmt;

use shakmaty::{Color, Role};

use crate::fen::{parse_bfen_with, to_bfen, FenError};
use crate::movegen::MoveError;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::reserve::Reserve;
use crate::rules::{Flow, Repetition, Rules};
use crate::status::Status;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardId {
    A,
    B,
}

impl BoardId {
    pub const BOTH: [BoardId; 2] = [BoardId::A, BoardId::B];

    pub fn other(self) -> BoardId {
        match self {
            BoardId::A => BoardId::B,
            BoardId::B => BoardId::A,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn letter(self) -> char {
        match self {
            BoardId::A => 'A',
            BoardId::B => 'B',
        }
    }
}

impl std::str::FromStr for BoardId {
    type Err = String;

    fn from_str(s: &str) -> Result<BoardId, String> {
        match s {
            "A" | "a" => Ok(BoardId::A),
            "B" | "b" => Ok(BoardId::B),
            _ => Err(format!("unknown board '{s}' (expected A or B)")),
        }
    }
}

impl fmt::Display for BoardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// The two teams of a two-board game. BPGN's team 1 is White on board A and
/// Black on board B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Team {
    One,
    Two,
}

impl Team {
    pub fn other(self) -> Team {
        match self {
            Team::One => Team::Two,
            Team::Two => Team::One,
        }
    }
}

/// `A white`: the board and the colour, as the protocols write a seat.
impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.board, self.color)
    }
}

/// BPGN's names of the four seats, in [`Seat::ALL`] order.
pub const SEAT_NAMES: [&str; 4] = ["WhiteA", "BlackA", "WhiteB", "BlackB"];

/// One of the four players of a two-board game: a board and a colour.
/// Partners sit on opposite colours (RULES.md choice), so a piece keeps its
/// colour when it changes board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Seat {
    pub board: BoardId,
    pub color: Color,
}

impl Default for Seat {
    fn default() -> Seat {
        Seat { board: BoardId::A, color: Color::White }
    }
}

impl Seat {
    /// BPGN order: WhiteA (team 1), BlackA (team 2), WhiteB (team 2), BlackB (team 1).
    pub const ALL: [Seat; 4] = [
        Seat { board: BoardId::A, color: Color::White },
        Seat { board: BoardId::A, color: Color::Black },
        Seat { board: BoardId::B, color: Color::White },
        Seat { board: BoardId::B, color: Color::Black },
    ];

    /// The partner plays the other colour on the other board.
    pub fn partner(self) -> Seat {
        Seat { board: self.board.other(), color: self.color.other() }
    }

    pub fn team(self) -> Team {
        match (self.board, self.color) {
            (BoardId::A, Color::White) | (BoardId::B, Color::Black) => Team::One,
            _ => Team::Two,
        }
    }

    /// The place in BPGN order ([`Seat::ALL`]).
    pub fn index(self) -> usize {
        2 * self.board.index() + usize::from(self.color == Color::Black)
    }

    /// The seat at a place in BPGN order (indices past 3 wrap).
    pub fn from_index(index: usize) -> Seat {
        Seat::ALL[index % 4]
    }

    /// The BPGN tag name: `WhiteA`, `BlackB`.
    pub fn name(self) -> &'static str {
        SEAT_NAMES[self.index()]
    }
}

/// The positions one board has passed through, for the repetition rules.
#[derive(Clone, Debug, Default)]
pub struct History {
    /// Hash of each position reached, and whether a drop produced it.
    entries: Vec<(u64, bool)>,
}

impl History {
    pub fn push(&mut self, hash: u64, by_drop: bool) {
        self.entries.push((hash, by_drop));
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The hashes of the positions reached, oldest first.
    pub fn hashes(&self) -> impl Iterator<Item = u64> + '_ {
        self.entries.iter().map(|&(hash, _)| hash)
    }

    /// Does the position `hash` (the latest entry) end the game under `rule`?
    /// `threefold`: it has occurred three times. `fourfold-no-drops` (French
    /// rule 10): it has occurred four times, and at least one of the two
    /// players made no drop since the first of those four occurrences.
    pub fn is_repetition_draw(&self, rule: Repetition, hash: u64) -> bool {
        match rule {
            Repetition::None => false,
            Repetition::Threefold => self.entries.iter().filter(|&&(h, _)| h == hash).count() >= 3,
            Repetition::FourfoldNoDrops => {
                let seen: Vec<usize> =
                    self.entries.iter().enumerate().filter(|(_, &(h, _))| h == hash).map(|(i, _)| i).collect();
                let Some(&first) = seen.len().checked_sub(4).map(|k| &seen[k]) else {
                    return false;
                };
                // Entries alternate between the two players' moves: parity tells whose drop it was.
                let mut dropped = [false; 2];
                for (i, &(_, by_drop)) in self.entries.iter().enumerate().skip(first + 1) {
                    dropped[i % 2] |= by_drop;
                }
                !(dropped[0] && dropped[1])
            }
        }
    }
}

/// Boards A and B with their reserves and histories.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    boards: [Position; 2],
    histories: [History; 2],
    /// Boards that have ended (`match_end = both` plays the other on):
    /// nothing flows to or from them (RULES.md §5).
    ended: [bool; 2],
}

/// A move refused by [`Game::play`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    pub board: BoardId,
    pub error: MoveError,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} on board {}", self.error, self.board)
    }
}

impl std::error::Error for IllegalMove {}

impl Game {
    /// Both boards at the start position.
    pub fn new(rules: Rules) -> Game {
        Game::from_boards(rules, [Position::startpos(rules), Position::startpos(rules)])
    }

    pub fn from_bfen(text: &str, rules: Rules) -> Result<Game, FenError> {
        Game::from_bfen_with(text, rules, false)
    }

    /// Two boards from a BFEN, `chess960` as in [`crate::parse_fen_with`].
    pub fn from_bfen_with(text: &str, rules: Rules, chess960: bool) -> Result<Game, FenError> {
        Ok(Game::from_boards(rules, parse_bfen_with(text, rules, chess960)?))
    }

    pub fn from_boards(rules: Rules, boards: [Position; 2]) -> Game {
        let mut game = Game { rules, boards, histories: Default::default(), ended: [false; 2] };
        for id in BoardId::BOTH {
            let hash = game.boards[id.index()].hash();
            game.histories[id.index()].push(hash, false);
        }
        game.refresh_steal_pools();
        game
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn board(&self, id: BoardId) -> &Position {
        &self.boards[id.index()]
    }

    pub fn boards(&self) -> &[Position; 2] {
        &self.boards
    }

    pub fn history(&self, id: BoardId) -> &History {
        &self.histories[id.index()]
    }

    pub fn to_bfen(&self) -> String {
        to_bfen(&self.boards)
    }

    pub fn legal_moves(&self, id: BoardId) -> MoveList {
        self.board(id).legal_moves()
    }

    /// Replaces a reserve (material arriving from outside the two boards' moves).
    pub fn set_reserve(&mut self, id: BoardId, color: Color, reserve: Reserve) {
        self.boards[id.index()].set_reserve(color, reserve);
    }

    /// Plays the move written as UCI text on a board.
    pub fn play_uci(&mut self, id: BoardId, text: &str) -> Result<Move, IllegalMove> {
        let m = self
            .board(id)
            .parse_move(text)
            .map_err(|error| IllegalMove { board: id, error })?;
        self.play_unchecked(id, m);
        Ok(m)
    }

    /// Plays a move after checking that it is legal.
    pub fn play(&mut self, id: BoardId, m: Move) -> Result<(), IllegalMove> {
        if !self.board(id).is_legal(m) {
            let error = MoveError::Illegal(m.to_string());
            return Err(IllegalMove { board: id, error });
        }
        self.play_unchecked(id, m);
        Ok(())
    }

    /// Marks a board as ended: from now on nothing flows to or from it, a
    /// `steal` cannot take from it, and no material can reach the other board.
    pub fn end_board(&mut self, id: BoardId) {
        self.ended[id.index()] = true;
        self.refresh_steal_pools();
    }

    pub fn is_ended(&self, id: BoardId) -> bool {
        self.ended[id.index()]
    }

    fn play_unchecked(&mut self, id: BoardId, m: Move) {
        let mover = self.board(id).turn();
        let effects = self.boards[id.index()].play(m);
        // Nothing reaches an ended board: captured pieces and promoted pawns leave the game.
        if !self.ended[id.other().index()] {
            let other = &mut self.boards[id.other().index()];
            if self.rules.flow == Flow::Partner {
                for piece in effects.to_other_board {
                    other.add_to_reserve(piece.color, piece.role);
                }
            }
            if let Some(role) = effects.stolen {
                // (choice) Of several pieces of the role, the one on the lowest square
                // (a1 first) is taken; the promoted pawn goes to that board's reserve.
                if let Some(sq) = other.pieces(mover, role).first() {
                    other.remove_piece(sq);
                    other.add_to_reserve(mover, Role::Pawn);
                }
            }
        }
        let hash = self.board(id).hash();
        self.histories[id.index()].push(hash, m.is_drop());
        self.refresh_steal_pools();
    }

    /// Tells each board which roles a `steal` promotion could take from the
    /// other (none from an ended board).
    fn refresh_steal_pools(&mut self) {
        for id in BoardId::BOTH {
            if self.ended[id.other().index()] {
                for color in Color::ALL {
                    self.boards[id.index()].set_steal_pool(color, 0);
                }
            } else {
                let [a, b] = &mut self.boards;
                let (this, other) = if id == BoardId::A { (a, &*b) } else { (b, &*a) };
                this.take_steal_pools_from(other);
            }
        }
    }

    /// The status of a board, repetition included. Once the other board has
    /// ended no material can arrive: a frozen player is mated (in check) or
    /// stalemated.
    pub fn status(&self, id: BoardId) -> Status {
        let board = self.board(id);
        let status = match board.status() {
            Status::Frozen if self.ended[id.other().index()] => {
                if board.is_check() {
                    Status::Checkmate
                } else {
                    Status::Stalemate
                }
            }
            status => status,
        };
        if status == Status::Ongoing
            && self.histories[id.index()].is_repetition_draw(self.rules.repetition, board.hash())
        {
            return Status::Repetition;
        }
        status
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A history of positions 1 and 2 alternating, with drops at the given entries.
    fn shuffle(length: usize, drops: &[usize]) -> History {
        let mut history = History::default();
        for i in 0..length {
            history.push(1 + (i as u64 % 2), drops.contains(&i));
        }
        history
    }

    #[test]
    fn seats_follow_bpgn_order_teams_and_partners() {
        let names: Vec<&str> = Seat::ALL.iter().map(|s| s.name()).collect();
        assert_eq!(names, ["WhiteA", "BlackA", "WhiteB", "BlackB"]);
        let teams: Vec<Team> = Seat::ALL.iter().map(|s| s.team()).collect();
        assert_eq!(teams, [Team::One, Team::Two, Team::Two, Team::One]);
        for (i, seat) in Seat::ALL.into_iter().enumerate() {
            assert_eq!(seat.index(), i);
            assert_eq!(Seat::from_index(i), seat);
            assert_eq!(seat.partner().team(), seat.team());
            assert_eq!(seat.partner().index(), 3 - i);
        }
    }

    #[test]
    fn fourfold_draws_when_one_player_made_no_drop_since_the_first_occurrence() {
        // Position 1 at entries 0, 2, 4, 6: its fourth occurrence is entry 6.
        let fourfold = Repetition::FourfoldNoDrops;
        assert!(shuffle(7, &[]).is_repetition_draw(fourfold, 1));
        assert!(!shuffle(5, &[]).is_repetition_draw(fourfold, 1), "three times only");
        // One player dropped (entry 3), the other did not: still a draw.
        assert!(shuffle(7, &[3]).is_repetition_draw(fourfold, 1));
        // Both dropped since the first occurrence: play on.
        assert!(!shuffle(7, &[3, 4]).is_repetition_draw(fourfold, 1));
        // Drops before the first of the last four occurrences do not count.
        assert!(shuffle(9, &[1, 2]).is_repetition_draw(fourfold, 1));
    }
}
