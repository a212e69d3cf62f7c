//! FEN with reserves (RULES.md §7) and two-board BFEN.
//!
//! Accepted reserve forms: `[Np]`, `[]`, `[-]`, a ninth rank `/Np`, and a
//! trailing `/`. `~` after a piece marks it as promoted. Written always as
//! `[...]` (none at all for chess, so plain UCI GUIs read it). Castling rights
//! that the board cannot have (no king or rook at home) are dropped, and an en
//! passant square no pawn can take on is dropped, as most engines do.
//!
//! Castling rights are read in either of two modes. Standard mode takes `KQkq`
//! (and `HAha`, the same rights as file letters) for a king on e1/e8 and rooks in
//! the corners, and writes `KQkq`. Chess960 mode ([`parse_fen_with`]) takes
//! Shredder-FEN (`HAha`: the files of the castling rooks) and X-FEN (`KQkq`: the
//! outermost rook on that side of the king, a file letter for an inner one), for
//! a king and rooks on any files of the back rank, and writes Shredder-FEN, as
//! Stockfish and Fairy-Stockfish do (`HAha` for the standard start position).

use std::fmt;

use shakmaty::{Bitboard, Color, File, Piece, Rank, Role, Square};

use crate::position::{back_rank, Position};
use crate::reserve::Reserve;
use crate::rules::{Promotion, Rules};
use crate::zobrist::MAX_IN_HAND;

pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

/// A FEN that could not be read: what is wrong, and where (byte offset).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    pub offset: usize,
    pub field: &'static str,
    pub message: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid FEN {} at column {}: {}", self.field, self.offset + 1, self.message)
    }
}

impl std::error::Error for FenError {}

fn error(offset: usize, field: &'static str, message: impl Into<String>) -> FenError {
    FenError { offset, field, message: message.into() }
}

/// Splits a string on single spaces, keeping each field's byte offset.
fn fields(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in text.char_indices() {
        match (ch.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

fn piece_from_char(ch: char) -> Option<Piece> {
    let role = Role::from_char(ch.to_ascii_lowercase())?;
    Some(Piece { color: Color::from_white(ch.is_ascii_uppercase()), role })
}

/// Parses one board's FEN under the given rules, in standard-castling mode.
pub fn parse_fen(text: &str, rules: Rules) -> Result<Position, FenError> {
    parse_fen_with(text, rules, false)
}

/// Parses one board's FEN; `chess960` selects the Chess960 conventions (see the
/// module documentation), which the position keeps for its FEN and move text.
pub fn parse_fen_with(text: &str, rules: Rules, chess960: bool) -> Result<Position, FenError> {
    if text.len() > 512 {
        return Err(error(512, "length", "longer than any FEN (512 bytes)"));
    }
    let fields = fields(text);
    let Some(&(board_at, board_field)) = fields.first() else {
        return Err(error(0, "board", "empty FEN"));
    };
    if fields.len() > 6 {
        return Err(error(fields[6].0, "trailing text", format!("unexpected '{}'", fields[6].1)));
    }
    let mut pos = Position::empty(rules);
    pos.chess960 = chess960;
    let (placement, reserve_text, reserve_at) = split_reserve(board_field, board_at)?;
    parse_placement(&mut pos, placement, board_at)?;
    if let Some(reserve_text) = reserve_text {
        parse_reserve(&mut pos, reserve_text, reserve_at)?;
        if !rules.has_drops() && (!pos.reserve(Color::White).is_empty() || !pos.reserve(Color::Black).is_empty()) {
            return Err(error(reserve_at, "reserve", format!("pieces in hand, but {} has no drops", rules.preset.name())));
        }
    }

    let field = |i: usize| fields.get(i).copied();
    if let Some((at, turn)) = field(1) {
        pos.turn = match turn {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            _ => return Err(error(at, "side to move", format!("expected 'w' or 'b', found '{turn}'"))),
        };
    }
    if let Some((at, castling)) = field(2) {
        parse_castling(&mut pos, castling, at)?;
    }
    if let Some((at, ep)) = field(3) {
        parse_en_passant(&mut pos, ep, at)?;
    }
    if let Some((at, n)) = field(4) {
        pos.halfmoves = n.parse().map_err(|_| error(at, "halfmove clock", format!("'{n}' is not a number")))?;
    }
    if let Some((at, n)) = field(5) {
        let full: u32 = n.parse().map_err(|_| error(at, "fullmove number", format!("'{n}' is not a number")))?;
        pos.fullmoves = full.max(1);
    }
    validate(&pos, board_at)?;
    pos.hash = pos.compute_hash();
    Ok(pos)
}

/// Separates `board[reserve]`, `board/reserve` (ninth rank) and `board/`.
fn split_reserve(board: &str, at: usize) -> Result<(&str, Option<&str>, usize), FenError> {
    if let Some(open) = board.find('[') {
        let Some(inner) = board[open + 1..].strip_suffix(']') else {
            return Err(error(at + open, "reserve", "'[' without a closing ']' at the end of the board"));
        };
        return Ok((&board[..open], Some(inner), at + open + 1));
    }
    if board.contains(']') {
        return Err(error(at + board.find(']').unwrap_or(0), "reserve", "']' without '['"));
    }
    if board.matches('/').count() == 8 {
        let last = board.rfind('/').unwrap_or(0);
        return Ok((&board[..last], Some(&board[last + 1..]), at + last + 1));
    }
    Ok((board, None, at))
}

fn parse_placement(pos: &mut Position, placement: &str, at: usize) -> Result<(), FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(error(at, "board", format!("{} ranks instead of 8", ranks.len())));
    }
    let mut offset = at;
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = Rank::new(7 - i as u32);
        let mut file = 0u32;
        let mut last_piece: Option<Square> = None;
        let mut after_digit = false;
        for (j, ch) in rank_text.char_indices() {
            let here = offset + j;
            if ch == '~' {
                let sq = last_piece.take().ok_or_else(|| error(here, "board", "'~' must follow a piece"))?;
                pos.promoted.add(sq);
                continue;
            }
            last_piece = None;
            if let Some(d) = ch.to_digit(10).filter(|d| (1..=8).contains(d)) {
                if after_digit {
                    return Err(error(here, "board", format!("rank {} has two digits in a row ('{rank_text}')", rank.char())));
                }
                after_digit = true;
                file += d;
            } else {
                after_digit = false;
                let piece =
                    piece_from_char(ch).ok_or_else(|| error(here, "board", format!("unexpected character '{ch}'")))?;
                if file >= 8 {
                    return Err(error(here, "board", format!("rank {} has more than 8 squares", rank.char())));
                }
                let sq = Square::from_coords(File::new(file), rank);
                pos.put(piece.color, piece.role, sq, false);
                last_piece = Some(sq);
                file += 1;
            }
            if file > 8 {
                return Err(error(here, "board", format!("rank {} has more than 8 squares", rank.char())));
            }
        }
        if file != 8 {
            return Err(error(offset, "board", format!("rank {} has {file} squares instead of 8", rank.char())));
        }
        offset += rank_text.len() + 1;
    }
    Ok(())
}

fn parse_reserve(pos: &mut Position, text: &str, at: usize) -> Result<(), FenError> {
    if text == "-" {
        return Ok(());
    }
    for (i, ch) in text.char_indices() {
        let piece = piece_from_char(ch)
            .filter(|p| p.role != Role::King)
            .ok_or_else(|| error(at + i, "reserve", format!("'{ch}' is not a piece that can be held")))?;
        if usize::from(pos.reserve(piece.color).count(piece.role)) >= MAX_IN_HAND {
            return Err(error(at + i, "reserve", format!("more than {MAX_IN_HAND} of '{ch}' in hand")));
        }
        pos.reserves[piece.color as usize].add(piece.role);
    }
    Ok(())
}

fn parse_castling(pos: &mut Position, text: &str, at: usize) -> Result<(), FenError> {
    if text == "-" {
        return Ok(());
    }
    for (i, ch) in text.char_indices() {
        let color = Color::from_white(ch.is_ascii_uppercase());
        let rank = color.fold_wb(Rank::First, Rank::Eighth);
        let letter = ch.to_ascii_lowercase();
        if !matches!(letter, 'k' | 'q' | 'a'..='h') {
            return Err(error(at + i, "castling", format!("unexpected '{ch}' (expected KQkq, file letters A-H/a-h or -)")));
        }
        // A right needs the king on its back rank (validate() reports a missing or second king).
        let kings = pos.pieces(color, Role::King);
        let Some(king) = kings.first().filter(|&k| !kings.more_than_one() && k.rank() == rank) else {
            continue;
        };
        let mut rooks = (pos.pieces(color, Role::Rook) & back_rank(color)).into_iter();
        let rook = match letter {
            // X-FEN: the outermost rook on that side of the king.
            'k' => rooks.rfind(|r| r.file() > king.file()),
            'q' => rooks.find(|r| r.file() < king.file()),
            _ => rooks.find(|r| r.file().char() == letter),
        };
        let Some(rook) = rook else {
            continue;
        };
        let standard = king.file() == File::E && matches!(rook.file(), File::A | File::H);
        if !pos.chess960 && !standard {
            continue;
        }
        let kingside = rook.file() > king.file();
        let same_side = (pos.castling & back_rank(color)).into_iter().find(|r| (r.file() > king.file()) == kingside);
        if same_side.is_some_and(|other| other != rook) {
            let side = if kingside { "king" } else { "queen" };
            return Err(error(at + i, "castling", format!("'{ch}': a second {side}-side castling right for {color}")));
        }
        pos.castling.add(rook);
        // Only tracked where a dropped rook can regain a right; a FEN cannot
        // say that a king without rights never moved, so it counts as moved.
        pos.king_unmoved[color as usize] = pos.rules.dropped_rook_castles;
    }
    for color in Color::ALL {
        if pos.king_unmoved[color as usize] {
            set_rook_homes(pos, color);
        }
    }
    Ok(())
}

/// Where a dropped rook of `color` regains a castling right: on each side of the
/// king, the square of the rook with that side's right, or else the corner.
fn set_rook_homes(pos: &mut Position, color: Color) {
    let king = pos.king(color);
    let rights = pos.castling & back_rank(color);
    for (kingside, corner) in [(true, File::H), (false, File::A)] {
        let right = rights.into_iter().find(|r| (r.file() > king.file()) == kingside);
        let corner = Square::from_coords(corner, king.rank());
        match right {
            Some(rook) => pos.rook_homes.add(rook),
            None if corner != king => pos.rook_homes.add(corner),
            None => {}
        }
    }
}

fn parse_en_passant(pos: &mut Position, text: &str, at: usize) -> Result<(), FenError> {
    if text == "-" {
        return Ok(());
    }
    let sq: Square = text
        .parse()
        .map_err(|_| error(at, "en passant square", format!("'{text}' is not a square")))?;
    let us = pos.turn;
    if sq.rank() != us.fold_wb(Rank::Sixth, Rank::Third) {
        return Err(error(at, "en passant square", format!("{sq} is not on the rank a pawn just skipped")));
    }
    let pushed = Square::from_coords(sq.file(), us.fold_wb(Rank::Fifth, Rank::Fourth));
    let origin = Square::from_coords(sq.file(), us.fold_wb(Rank::Seventh, Rank::Second));
    let consistent = pos.pieces(us.other(), Role::Pawn).contains(pushed)
        && !pos.occupied().contains(sq)
        && !pos.occupied().contains(origin);
    if consistent {
        pos.set_ep_if_capturable(sq);
    }
    Ok(())
}

fn validate(pos: &Position, at: usize) -> Result<(), FenError> {
    for color in Color::ALL {
        let kings = pos.pieces(color, Role::King).count();
        if kings != 1 {
            return Err(error(at, "board", format!("{kings} {color} kings instead of 1")));
        }
    }
    let back_ranks = Bitboard::from_rank(Rank::First) | Bitboard::from_rank(Rank::Eighth);
    if let Some(sq) = (pos.by_role(Role::Pawn) & back_ranks).first() {
        return Err(error(at, "board", format!("pawn on {sq}, a back rank")));
    }
    if (pos.promoted & pos.by_role(Role::King)).any() {
        return Err(error(at, "board", "a king cannot be promoted"));
    }
    let them = pos.turn.other();
    // Only a `steal` on the other board can uncover a check on the side not to
    // move (RULES.md, `steal`); that side answers it on its turn.
    let steal = pos.rules.promotion == Promotion::Steal && pos.rules.is_two_board();
    if !steal && pos.attackers_to(pos.king(them), pos.turn, pos.occupied()).any() {
        return Err(error(at, "board", "the side not to move is in check"));
    }
    let checkers = pos.attackers_to(pos.king(pos.turn), them, pos.occupied()).count();
    if checkers > 2 {
        return Err(error(at, "board", format!("the side to move is in check from {checkers} pieces (at most 2 can give check at once)")));
    }
    Ok(())
}

/// Writes the canonical FEN.
pub fn to_fen(pos: &Position) -> String {
    let mut s = String::with_capacity(96);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let sq = Square::from_coords(File::new(file), Rank::new(rank));
            match pos.piece_at(sq) {
                None => empty += 1,
                Some(piece) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(piece.char());
                    if pos.promoted.contains(sq) {
                        s.push('~');
                    }
                }
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    if pos.rules.has_drops() {
        s.push('[');
        s.push_str(&pos.reserve(Color::White).to_letters(true));
        s.push_str(&pos.reserve(Color::Black).to_letters(false));
        s.push(']');
    }
    s.push(' ');
    s.push(pos.turn.char());
    s.push(' ');
    s.push_str(&castling_text(pos));
    s.push(' ');
    match pos.ep_square {
        Some(sq) => s.push_str(&sq.to_string()),
        None => s.push('-'),
    }
    s.push_str(&format!(" {} {}", pos.halfmoves, pos.fullmoves));
    s
}

/// `KQkq` for standard rights outside Chess960 mode, else Shredder-FEN: the
/// file letters of the castling rooks, White's first, the king side first.
fn castling_text(pos: &Position) -> String {
    let standard = Color::ALL.into_iter().all(|color| {
        let rights = pos.castling & back_rank(color);
        rights.is_empty()
            || (pos.king(color).file() == File::E && rights.into_iter().all(|r| matches!(r.file(), File::A | File::H)))
    });
    let mut text = String::new();
    if standard && !pos.chess960 {
        for (sq, ch) in [(Square::H1, 'K'), (Square::A1, 'Q'), (Square::H8, 'k'), (Square::A8, 'q')] {
            if pos.castling.contains(sq) {
                text.push(ch);
            }
        }
    } else {
        for color in Color::ALL {
            for rook in (pos.castling & back_rank(color)).into_iter().rev() {
                let letter = rook.file().char();
                text.push(if color == Color::White { letter.to_ascii_uppercase() } else { letter });
            }
        }
    }
    if text.is_empty() {
        text.push('-');
    }
    text
}

/// Parses a reserve written as FEN letters (`QNpp`, `-` or empty).
pub fn parse_reserve_letters(text: &str) -> Result<[Reserve; 2], FenError> {
    let mut pos = Position::empty(Rules::bughouse());
    parse_reserve(&mut pos, text, 0)?;
    Ok(pos.reserves)
}

/// Two boards: `fenA | fenB`.
pub fn parse_bfen(text: &str, rules: Rules) -> Result<[Position; 2], FenError> {
    parse_bfen_with(text, rules, false)
}

/// Two boards, each with the castling conventions of [`parse_fen_with`].
pub fn parse_bfen_with(text: &str, rules: Rules, chess960: bool) -> Result<[Position; 2], FenError> {
    let Some((a, b)) = text.split_once('|') else {
        return Err(error(0, "BFEN", "expected 'fenA | fenB'"));
    };
    let board_a = parse_fen_with(a.trim(), rules, chess960)?;
    let b_at = a.len() + 1 + (b.len() - b.trim_start().len());
    let board_b = parse_fen_with(b.trim(), rules, chess960).map_err(|mut e| {
        e.offset += b_at;
        e.field = match e.field {
            "board" => "board B",
            other => other,
        };
        e
    })?;
    Ok([board_a, board_b])
}

pub fn to_bfen(boards: &[Position; 2]) -> String {
    format!("{} | {}", to_fen(&boards[0]), to_fen(&boards[1]))
}

impl std::str::FromStr for Position {
    type Err = FenError;

    /// Parses a FEN under the bughouse rules; use [`parse_fen`] for others.
    fn from_str(text: &str) -> Result<Position, FenError> {
        parse_fen(text, Rules::bughouse())
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&to_fen(self))
    }
}
