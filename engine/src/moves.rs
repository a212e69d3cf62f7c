//! Moves: a packed 32-bit value, and their UCI text (RULES.md §7).

use std::fmt;

use arrayvec::ArrayVec;
use shakmaty::{Role, Square};

/// What a move does beyond "a piece goes from one square to another".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveKind {
    Normal = 0,
    /// A pawn's two-square step (sets the en passant square).
    DoublePush,
    EnPassant,
    /// Castling: `from` is the king, `aux` the rook it castles with, `to` the
    /// king's target (g or c file), or the rook's square in Chess960 mode, so that
    /// the move is written king-takes-rook there.
    Castle,
    /// Promotion to `role` (marked as promoted unless the rules are plain chess).
    Promotion,
    /// `role` from the reserve onto `to`.
    Drop,
    /// `promotion = fall-through`: the pawn reaches `to` and leaves the board.
    FallThrough,
    /// `promotion = reenter`: the pawn reaches `to` and re-enters on `aux`.
    ReenterSquare,
    /// `promotion = reenter`: the pawn reaches `to` and goes to the own reserve.
    ReenterReserve,
    /// `promotion = steal`: a `role` taken from the other board lands on `to`.
    Steal,
}

const KINDS: [MoveKind; 10] = [
    MoveKind::Normal,
    MoveKind::DoublePush,
    MoveKind::EnPassant,
    MoveKind::Castle,
    MoveKind::Promotion,
    MoveKind::Drop,
    MoveKind::FallThrough,
    MoveKind::ReenterSquare,
    MoveKind::ReenterReserve,
    MoveKind::Steal,
];

/// A move packed into 32 bits:
///
/// | bits  | field |
/// |-------|-------|
/// | 0-5   | `to` square |
/// | 6-11  | `from` square (a drop repeats `to`) |
/// | 12-14 | role: the piece that stands on `to` afterwards (dropped, promoted, stolen or moved) |
/// | 15-18 | [`MoveKind`] |
/// | 19-24 | `aux` square: castling rook, re-entry square |
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u32);

impl Move {
    /// "No move": never generated (from = to = a1 with no role).
    pub const NONE: Move = Move(0);

    #[inline]
    pub const fn new(kind: MoveKind, from: Square, to: Square, role: Role, aux: Square) -> Move {
        Move(
            to as u32
                | (from as u32) << 6
                | (role as u32) << 12
                | (kind as u32) << 15
                | (aux as u32) << 19,
        )
    }

    #[inline]
    pub const fn normal(from: Square, to: Square, role: Role) -> Move {
        Move::new(MoveKind::Normal, from, to, role, Square::A1)
    }

    #[inline]
    pub const fn drop(role: Role, to: Square) -> Move {
        Move::new(MoveKind::Drop, to, to, role, Square::A1)
    }

    #[inline]
    pub const fn to(self) -> Square {
        Square::new(self.0 & 63)
    }

    /// The origin square; for a drop, the target square.
    #[inline]
    pub const fn from(self) -> Square {
        Square::new((self.0 >> 6) & 63)
    }

    #[inline]
    pub fn role(self) -> Role {
        Role::try_from((self.0 >> 12) & 7).unwrap_or(Role::Pawn)
    }

    #[inline]
    pub fn kind(self) -> MoveKind {
        KINDS[((self.0 >> 15) & 15) as usize]
    }

    #[inline]
    pub const fn aux(self) -> Square {
        Square::new((self.0 >> 19) & 63)
    }

    #[inline]
    pub fn is_drop(self) -> bool {
        self.kind() == MoveKind::Drop
    }

    /// A pawn reaching the last rank, whatever the promotion rule makes of it.
    #[inline]
    pub fn is_promotion_like(self) -> bool {
        matches!(
            self.kind(),
            MoveKind::Promotion
                | MoveKind::FallThrough
                | MoveKind::ReenterSquare
                | MoveKind::ReenterReserve
                | MoveKind::Steal
        )
    }

    /// The raw 32-bit value (for hash tables).
    pub const fn bits(self) -> u32 {
        self.0
    }

    pub const fn from_bits(bits: u32) -> Move {
        Move(bits)
    }
}

impl fmt::Display for Move {
    /// UCI long algebraic: `e2e4`, `e7e8q`, `N@e4`, `e1g1` (castling; `e1h1`,
    /// king-takes-rook, in Chess960 mode), `e7e8` (fall-through), `e7e8@d4` /
    /// `e7e8@` (reenter).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            MoveKind::Drop => write!(f, "{}@{}", self.role().upper_char(), self.to()),
            MoveKind::Promotion | MoveKind::Steal => {
                write!(f, "{}{}{}", self.from(), self.to(), self.role().char())
            }
            MoveKind::ReenterSquare => write!(f, "{}{}@{}", self.from(), self.to(), self.aux()),
            MoveKind::ReenterReserve => write!(f, "{}{}@", self.from(), self.to()),
            _ => write!(f, "{}{}", self.from(), self.to()),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// Upper bound on legal moves in any position of the family. The worst case is
/// `reenter`: 8 pawns on the 7th with 3 ways each to reach the last rank, times
/// about 49 re-entry choices, plus drops of 5 roles on up to 62 squares.
pub const MAX_MOVES: usize = 2048;

pub type MoveList = ArrayVec<Move, MAX_MOVES>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip() {
        let m = Move::new(MoveKind::ReenterSquare, Square::E7, Square::D8, Role::Pawn, Square::C3);
        assert_eq!((m.from(), m.to(), m.role(), m.kind(), m.aux()),
                   (Square::E7, Square::D8, Role::Pawn, MoveKind::ReenterSquare, Square::C3));
        assert_eq!(m.to_string(), "e7d8@c3");
        assert_eq!(Move::drop(Role::Knight, Square::E4).to_string(), "N@e4");
        let promo = Move::new(MoveKind::Promotion, Square::A7, Square::A8, Role::Queen, Square::A1);
        assert_eq!(promo.to_string(), "a7a8q");
    }
}
