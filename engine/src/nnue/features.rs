//! The network's inputs: every piece on the board and every piece in hand,
//! seen from one side (its "perspective").
//!
//! Board: 2 × 6 × 64 = 768 inputs, one per (own or other colour, role,
//! square), the squares flipped top to bottom for Black so that each side
//! sees itself moving up the board. Hands: thermometer codes, input `k` of a
//! role on when at least `k` of it are in hand (8 steps for pawns, 4 for the
//! rest, more saturate), own hand first: 2 × 24 = 48 inputs. In drop chess
//! the hand is half the position, and a count code lets the net value the
//! second knight differently from the first.

use shakmaty::{Bitboard, Color, Role, Square};

use crate::position::Position;
use crate::reserve::{Reserve, HAND_ROLES};

pub const BOARD_INPUTS: usize = 768;
/// Steps of each hand role's thermometer, in [`HAND_ROLES`] order (Q R B N P).
const HAND_STEPS: [usize; 5] = [4, 4, 4, 4, 8];
const HAND_INPUTS_PER_SIDE: usize = 24;
pub const INPUTS: usize = BOARD_INPUTS + 2 * HAND_INPUTS_PER_SIDE;

/// The largest number of inputs a position can have on: 32 pieces and two
/// full hands, with room for the pieces a drop game can hold.
pub const MAX_ACTIVE: usize = 64 + 2 * HAND_INPUTS_PER_SIDE;

/// What the network sees of a position: the pieces by colour and role and
/// both hands. Two of these differ in the inputs that changed between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Snapshot {
    pub pieces: [[Bitboard; 6]; 2],
    pub hands: [Reserve; 2],
}

impl Snapshot {
    pub const EMPTY: Snapshot = Snapshot { pieces: [[Bitboard::EMPTY; 6]; 2], hands: [Reserve::EMPTY; 2] };

    pub fn of(pos: &Position) -> Snapshot {
        let mut pieces = [[Bitboard::EMPTY; 6]; 2];
        for color in Color::ALL {
            for role in Role::ALL {
                pieces[color as usize][role as usize - 1] = pos.pieces(color, role);
            }
        }
        Snapshot { pieces, hands: [*pos.reserve(Color::Black), *pos.reserve(Color::White)] }
    }

    fn hand(&self, color: Color) -> &Reserve {
        &self.hands[color as usize]
    }
}

/// The input of `color`'s `role` on `square`, seen by `perspective`.
#[inline]
pub fn board_input(perspective: Color, color: Color, role: Role, square: Square) -> usize {
    let side = usize::from(color != perspective);
    let square = if perspective == Color::White { square as usize } else { square as usize ^ 56 };
    side * 384 + (role as usize - 1) * 64 + square
}

/// How many piece kinds (own or other colour × role) the board inputs have, 64 squares each.
pub const PIECE_KINDS: usize = BOARD_INPUTS / 64;

/// The piece kind (`0..PIECE_KINDS`) of a board input, as [`board_input`]
/// lays them out; `None` for a hand input. The trainer shares weights along it.
#[inline]
pub fn piece_kind(input: usize) -> Option<usize> {
    (input < BOARD_INPUTS).then_some(input / 64)
}

/// The first input of the thermometer of `color`'s `role` in hand, seen by `perspective`.
#[inline]
fn hand_base(perspective: Color, color: Color, role_index: usize) -> usize {
    let side = usize::from(color != perspective);
    BOARD_INPUTS + side * HAND_INPUTS_PER_SIDE + HAND_STEPS[..role_index].iter().sum::<usize>()
}

/// The inputs a count of `count` pieces of the role at `role_index` turns on.
#[inline]
fn hand_inputs(perspective: Color, color: Color, role_index: usize, count: u8) -> std::ops::Range<usize> {
    let base = hand_base(perspective, color, role_index);
    base..base + usize::from(count).min(HAND_STEPS[role_index])
}

/// Every input that is on in `snapshot`, seen by `perspective`.
pub fn active(snapshot: &Snapshot, perspective: Color, out: &mut Vec<usize>) {
    out.clear();
    for color in Color::ALL {
        for role in Role::ALL {
            for square in snapshot.pieces[color as usize][role as usize - 1] {
                out.push(board_input(perspective, color, role, square));
            }
        }
        for (index, role) in HAND_ROLES.into_iter().enumerate() {
            out.extend(hand_inputs(perspective, color, index, snapshot.hand(color).count(role)));
        }
    }
}

/// The inputs that go off (`removed`) and on (`added`) from `from` to `to`,
/// seen by `perspective`. Any two positions compare, related or not: the
/// difference is taken square by square and count by count, so every rule
/// (drops, promotions and their demotion, steals, pieces falling through) is
/// covered without knowing the move.
pub fn difference(from: &Snapshot, to: &Snapshot, perspective: Color, removed: &mut Vec<usize>, added: &mut Vec<usize>) {
    removed.clear();
    added.clear();
    for color in Color::ALL {
        for role in Role::ALL {
            let (before, after) = (from.pieces[color as usize][role as usize - 1], to.pieces[color as usize][role as usize - 1]);
            for square in before & !after {
                removed.push(board_input(perspective, color, role, square));
            }
            for square in after & !before {
                added.push(board_input(perspective, color, role, square));
            }
        }
        for (index, role) in HAND_ROLES.into_iter().enumerate() {
            let (before, after) = (from.hand(color).count(role), to.hand(color).count(role));
            if before == after {
                continue;
            }
            let (was, now) = (hand_inputs(perspective, color, index, before), hand_inputs(perspective, color, index, after));
            removed.extend(now.end..was.end);
            added.extend(was.end..now.end);
        }
    }
}

/// How many inputs change from `from` to `to` (for either perspective).
pub fn distance(from: &Snapshot, to: &Snapshot) -> u32 {
    let mut changed = 0;
    for color in 0..2 {
        for role in 0..6 {
            changed += (from.pieces[color][role] ^ to.pieces[color][role]).count() as u32;
        }
        if from.hands[color] != to.hands[color] {
            changed += 4;
        }
    }
    changed
}
