//! Who won a recorded game, judged from the game itself.
//!
//! Archives disagree on what the `Result` tag means: bughousedb writes it in
//! many games from the view of the board where the game ended, not from team
//! 1's (WhiteA + BlackB). So the winner comes from, in this order: a mated
//! board in the final position, the closing comment naming the loser
//! (`{BobBughouse checkmated}`, `{X forfeits on time}`, our own
//! `{BlackB (fsfx) checkmated}`), and only then the tag.

use tandem_engine::{BoardId, Color, Status};

use crate::bpgn::{Record, Replay};
use crate::matchplay::{team_of, SEAT_NAMES};

/// Where a verdict came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evidence {
    FinalPosition,
    ClosingComment,
    ResultTag,
}

impl Evidence {
    pub fn describe(self) -> &'static str {
        match self {
            Evidence::FinalPosition => "the final position",
            Evidence::ClosingComment => "the closing comment",
            Evidence::ResultTag => "the Result tag",
        }
    }
}

/// The result in team 1's view (`1-0`: WhiteA + BlackB won; one board: White).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub result: &'static str,
    pub evidence: Evidence,
}

/// Words after a player's name that say they lost the board.
const LOSING_WORDS: [&str; 9] = [
    "checkmated",
    "forfeits",
    "resigns",
    "resigned",
    "lost on time",
    "crashed",
    "played an illegal move",
    "sent garbage",
    "failed to start",
];
/// Words in a closing comment that say the game was drawn.
const DRAWN_WORDS: [&str; 5] = ["drawn", "draw", "stalemate", "repetition", "insufficient material"];

pub fn judge(record: &Record, replayed: &Replay) -> Verdict {
    if let Some(result) = from_final_position(record, replayed) {
        return Verdict { result, evidence: Evidence::FinalPosition };
    }
    if let Some(result) = record.termination.as_deref().and_then(|c| from_comment(record, c)) {
        return Verdict { result, evidence: Evidence::ClosingComment };
    }
    let result = match record.result.as_str() {
        "1-0" => "1-0",
        "0-1" => "0-1",
        "1/2-1/2" => "1/2-1/2",
        _ => "*",
    };
    Verdict { result, evidence: Evidence::ResultTag }
}

/// A board whose side to move is mated: that side's team lost.
fn from_final_position(record: &Record, replayed: &Replay) -> Option<&'static str> {
    let boards: &[BoardId] = if record.two_board { &BoardId::BOTH } else { &[BoardId::A] };
    let mated: Vec<(BoardId, Color)> = boards
        .iter()
        .filter(|&&id| replayed.game.status(id) == Status::Checkmate)
        .map(|&id| (id, replayed.game.board(id).turn()))
        .collect();
    match mated.as_slice() {
        [(board, loser)] => Some(team_one_result(team_of(*board, *loser) != crate::matchplay::Team::One)),
        _ => None,
    }
}

/// `1-0` when team 1 won.
fn team_one_result(team_one_won: bool) -> &'static str {
    if team_one_won {
        "1-0"
    } else {
        "0-1"
    }
}

/// The seat (BPGN order) a closing comment names as the loser, or a draw.
fn from_comment(record: &Record, comment: &str) -> Option<&'static str> {
    let lower = comment.to_ascii_lowercase();
    if comment.trim_start().starts_with("simultaneous") {
        return None;
    }
    let losing_at = LOSING_WORDS.iter().filter_map(|w| lower.find(w)).min();
    let Some(at) = losing_at else {
        return DRAWN_WORDS.iter().any(|w| lower.contains(w)).then_some("1/2-1/2");
    };
    let subject = comment[..at].trim();
    let seat = seat_named(record, subject)?;
    let (board, color) = if record.two_board {
        crate::matchplay::seat_position(seat)
    } else {
        (BoardId::A, if seat == 0 { Color::White } else { Color::Black })
    };
    Some(team_one_result(team_of(board, color) != crate::matchplay::Team::One))
}

/// The seat whose BPGN name (`BlackB`, `BlackB (fsfx)`) or player tag is `subject`.
fn seat_named(record: &Record, subject: &str) -> Option<usize> {
    let seat_tags: &[&str] = if record.two_board { &SEAT_NAMES } else { &["White", "Black"] };
    let first_word = subject.split_whitespace().next().unwrap_or("");
    if let Some(seat) = seat_tags.iter().position(|s| *s == first_word) {
        return Some(seat);
    }
    let matches: Vec<usize> =
        seat_tags.iter().enumerate().filter(|(_, tag)| record.tag(tag) == Some(subject)).map(|(i, _)| i).collect();
    match matches.as_slice() {
        [seat] => Some(*seat),
        _ => None,
    }
}
