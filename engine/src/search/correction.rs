//! Correction history: how far the static evaluation has missed the search.
//!
//! After a node is searched, the gap between its search score and its static
//! evaluation is blended into two tables, one keyed by the pawn structure and
//! one by the kings' squares with both hands. Later evaluations of positions
//! with the same key are corrected by the average of the two entries. A
//! hand-crafted drop-chess evaluation misjudges whole families of positions
//! (a king whose shelter is gone against a given hand): the tables learn
//! those misses from the search itself, within the game.
//!
//! Entries are in 1/[`GRAIN`] centipawns. Each update moves an entry towards
//! the new gap by a weight that grows with the depth of the search behind it.

use shakmaty::{Color, Role};

use crate::position::Position;
use crate::reserve::HAND_ROLES;

const SIZE: usize = 1 << 14;
const GRAIN: i32 = 64;
/// The largest correction, in centipawns.
const MAX_CORRECTION: i32 = 400;
/// Weights are out of this.
const WEIGHT_SCALE: i32 = 256;

/// One thread's correction tables, indexed `[side to move][key]`.
pub struct Correction {
    pawns: Vec<i32>,
    kings_and_hands: Vec<i32>,
}

impl Default for Correction {
    fn default() -> Correction {
        Correction { pawns: vec![0; 2 * SIZE], kings_and_hands: vec![0; 2 * SIZE] }
    }
}

impl Correction {
    /// The correction, in centipawns, for the static evaluation of `pos`.
    #[inline]
    pub fn of(&self, pos: &Position) -> i32 {
        let (pawns, hands) = slots(pos);
        (self.pawns[pawns] + self.kings_and_hands[hands]) / (2 * GRAIN)
    }

    /// Learns that a search of `depth` scored `pos` at `score` where the
    /// (uncorrected) static evaluation said `static_eval`.
    pub fn update(&mut self, pos: &Position, depth: i32, static_eval: i32, score: i32) {
        let gap = (score - static_eval).clamp(-MAX_CORRECTION, MAX_CORRECTION) * GRAIN;
        let weight = (depth + 1).min(16);
        let (pawns, hands) = slots(pos);
        for entry in [&mut self.pawns[pawns], &mut self.kings_and_hands[hands]] {
            let blended = (*entry * (WEIGHT_SCALE - weight) + gap * weight) / WEIGHT_SCALE;
            *entry = blended.clamp(-MAX_CORRECTION * GRAIN, MAX_CORRECTION * GRAIN);
        }
    }
}

/// The two table slots of `pos`.
#[inline]
fn slots(pos: &Position) -> (usize, usize) {
    let side = pos.turn() as usize * SIZE;
    let pawns = mix(pos.pieces(Color::White, Role::Pawn).0, pos.pieces(Color::Black, Role::Pawn).0);
    let mut packed = (pos.king(Color::White) as u64) << 6 | pos.king(Color::Black) as u64;
    for color in [Color::White, Color::Black] {
        let hand = pos.reserve(color);
        for role in HAND_ROLES {
            packed = packed << 4 | u64::from(hand.count(role).min(15));
        }
    }
    (side + pawns, side + mix(packed, 0x5851_f42d))
}

/// A well-spread table index from two words.
#[inline]
fn mix(a: u64, b: u64) -> usize {
    let h = (a ^ b.rotate_left(32)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let h = (h ^ (h >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    (h >> (64 - 14)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_fen;
    use crate::rules::Rules;

    #[test]
    fn corrections_follow_the_search_and_stay_bounded() {
        let pos = parse_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Nn] w KQkq - 2 3", Rules::crazyhouse()).unwrap();
        let mut correction = Correction::default();
        assert_eq!(correction.of(&pos), 0);
        for _ in 0..200 {
            correction.update(&pos, 12, 0, 300);
        }
        let learned = correction.of(&pos);
        assert!((250..=300).contains(&learned), "{learned}");
        for _ in 0..200 {
            correction.update(&pos, 12, 0, 5_000);
        }
        let capped = correction.of(&pos);
        assert!((MAX_CORRECTION - 5..=MAX_CORRECTION).contains(&capped), "{capped}");
    }

    #[test]
    fn a_different_hand_is_a_different_position() {
        let rules = Rules::crazyhouse();
        let a = parse_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Nn] w KQkq - 2 3", rules).unwrap();
        let b = parse_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Qn] w KQkq - 2 3", rules).unwrap();
        assert_eq!(slots(&a).0, slots(&b).0);
        assert_ne!(slots(&a).1, slots(&b).1);
    }
}
