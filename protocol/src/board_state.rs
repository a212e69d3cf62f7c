//! One board as a game: where it started, the moves since, and the positions
//! passed through (for repetition detection by the search).

use tandem_engine::{parse_fen_with, Color, Move, Position, Reserve, Rules, STARTPOS};

use crate::output::echo;
use crate::parse::InputError;

#[derive(Clone, Debug)]
pub struct BoardState {
    start: Position,
    moves: Vec<Move>,
    current: Position,
    /// Hashes of the positions before `current`, oldest first.
    history: Vec<u64>,
}

impl BoardState {
    pub fn new(start: Position) -> BoardState {
        BoardState { current: start.clone(), start, moves: Vec::new(), history: Vec::new() }
    }

    pub fn startpos(rules: Rules) -> BoardState {
        BoardState::new(Position::startpos(rules))
    }

    /// The start position, in Chess960 mode if `chess960` (UCI_Chess960).
    pub fn startpos_with(rules: Rules, chess960: bool) -> BoardState {
        let start = parse_fen_with(STARTPOS, rules, chess960).expect("the start position is valid");
        BoardState::new(start)
    }

    /// A board from a FEN (`None`: the start position) and moves in UCI text,
    /// with the Chess960 conventions if `chess960` (UCI_Chess960).
    /// Fails without side effects on the first bad FEN field or move.
    pub fn from_setup(fen: Option<&str>, moves: &[String], rules: Rules, chess960: bool) -> Result<BoardState, InputError> {
        let start =
            parse_fen_with(fen.unwrap_or(STARTPOS), rules, chess960).map_err(|e| InputError::new(e.to_string()))?;
        BoardState::with_moves(start, moves)
    }

    /// A board from a position and moves in UCI text.
    pub fn with_moves(start: Position, moves: &[String]) -> Result<BoardState, InputError> {
        let mut board = BoardState::new(start);
        for (i, text) in moves.iter().enumerate() {
            board
                .play_text(text)
                .map_err(|e| InputError::new(format!("{e} (move {} of the list)", i + 1)))?;
        }
        Ok(board)
    }

    pub fn position(&self) -> &Position {
        &self.current
    }

    pub fn history(&self) -> &[u64] {
        &self.history
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn turn(&self) -> Color {
        self.current.turn()
    }

    /// Parses and plays a move; on error the board is unchanged.
    pub fn play_text(&mut self, text: &str) -> Result<Move, InputError> {
        let m = self.current.parse_move(text).map_err(|e| {
            let shown = echo(text);
            InputError::new(match e {
                tandem_engine::MoveError::Malformed(_) => format!("malformed move '{shown}'"),
                tandem_engine::MoveError::Illegal(_) => {
                    format!("illegal move '{shown}' in {}", self.current)
                }
            })
        })?;
        self.play(m);
        Ok(m)
    }

    /// Plays a move known to be legal here.
    pub fn play(&mut self, m: Move) {
        self.history.push(self.current.hash());
        self.current.play(m);
        self.moves.push(m);
    }

    /// Takes back the last move; false if there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        self.history.pop();
        let mut replayed = self.start.clone();
        for &m in &self.moves {
            replayed.play(m);
        }
        self.current = replayed;
        true
    }

    /// Replaces both reserves of the current position. The board is rebased on
    /// the result (the new material did not come from its own moves, so the
    /// moves cannot be replayed onto it); the repetition history is kept.
    pub fn set_reserves(&mut self, reserves: [Reserve; 2]) {
        for color in Color::ALL {
            self.current.set_reserve(color, reserves[color as usize]);
        }
        self.start = self.current.clone();
        self.moves.clear();
    }

    /// The same board under other rules (a variant change) or castling mode
    /// (UCI_Chess960): the FEN and the moves are read again; `None` if they do
    /// not hold under the new rules. (Castling text of either mode is read in both.)
    pub fn under_rules(&self, rules: Rules, chess960: bool) -> Option<BoardState> {
        let fen = self.start.to_string();
        let moves: Vec<String> = self.moves.iter().map(Move::to_string).collect();
        BoardState::from_setup(Some(&fen), &moves, rules, chess960).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_undoes_and_keeps_state_on_errors() {
        let rules = Rules::crazyhouse();
        let mut b = BoardState::from_setup(None, &["e2e4".into(), "d7d5".into()], rules, false).unwrap();
        assert_eq!(b.history().len(), 2);
        let before = b.position().clone();
        assert!(b.play_text("e4e6").unwrap_err().0.contains("illegal move 'e4e6'"));
        assert!(b.play_text("zz").unwrap_err().0.contains("malformed"));
        assert_eq!(b.position(), &before);
        b.play_text("e4d5").unwrap();
        assert!(b.position().reserve(Color::White).has(tandem_engine::Role::Pawn));
        assert!(b.undo());
        assert_eq!(b.position(), &before);
        assert!(BoardState::from_setup(None, &["e2e4".into(), "e2e4".into()], rules, false)
            .unwrap_err()
            .0
            .contains("move 2 of the list"));
    }
}
