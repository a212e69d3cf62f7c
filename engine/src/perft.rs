//! Perft: count the leaves of the legal move tree, to prove the generator.
//!
//! One board is walked; in the two-board families captures leave it (they would
//! go to the partner), in crazyhouse they go to the capturer's reserve. The
//! last ply is bulk-counted.

use crate::moves::Move;
use crate::position::Position;

pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => pos
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut child = pos.clone();
                child.play(m);
                perft(&child, depth - 1)
            })
            .sum(),
    }
}

/// Leaves below each root move, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play(m);
            (m, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}
