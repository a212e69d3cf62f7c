//! How a board stands: playing on, mated, frozen, stalemated, dead.

use shakmaty::{Color, Role};

use crate::position::Position;
use crate::reserve::{Reserve, HAND_ROLES};
use crate::rules::{Flow, Mate, Stalemate};

/// The state of one board, before repetition (which needs the game's history).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Ongoing,
    /// The side to move is mated and loses.
    Checkmate,
    /// The side to move has no legal move but may get one when material
    /// arrives (RULES.md §3): the game waits and the clock runs.
    Frozen,
    Stalemate,
    InsufficientMaterial,
    /// Drawn by the `repetition` rule (only [`crate::Game`] knows the history).
    Repetition,
}

/// Pieces each colour owns across both boards: two sets, so 16 pawns, 4 knights,
/// 4 bishops, 4 rooks and 2 queens. A piece keeps its colour when it changes board.
const TWO_SET_COUNTS: [(Role, u8); 5] = [
    (Role::Pawn, 16),
    (Role::Knight, 4),
    (Role::Bishop, 4),
    (Role::Rook, 4),
    (Role::Queen, 2),
];

impl Position {
    /// The board's status under its rules.
    pub fn status(&self) -> Status {
        if self.has_legal_move() {
            return if self.is_insufficient_material() {
                Status::InsufficientMaterial
            } else {
                Status::Ongoing
            };
        }
        let frozen_possible = || self.rules.has_drops() && self.could_be_freed();
        if self.is_check() {
            match self.rules.mate {
                Mate::Potential if frozen_possible() => Status::Frozen,
                _ => Status::Checkmate,
            }
        } else {
            match self.rules.stalemate {
                Stalemate::Wait if self.rules.has_drops() => Status::Frozen,
                _ => Status::Stalemate,
            }
        }
    }

    /// Pieces of `color` that are not on this board, and so could still reach
    /// its reserve (RULES.md §3); promoted pieces on the board count as pawns.
    pub fn potential_reserve(&self, color: Color) -> Reserve {
        let mine = self.by_color(color);
        let mut potential = Reserve::EMPTY;
        for (role, total) in TWO_SET_COUNTS {
            let mut on_board = (self.by_role(role) & mine & !self.promoted).count();
            if role == Role::Pawn {
                on_board += (mine & self.promoted).count();
            }
            for _ in on_board..usize::from(total) {
                potential.add(role);
            }
        }
        potential
    }

    /// With no legal move now, would a drop of some still-available piece be legal?
    fn could_be_freed(&self) -> bool {
        let us = self.turn;
        let mut hypothetical = self.clone();
        let potential = self.potential_reserve(us);
        let mut reserve = *self.reserve(us);
        for role in HAND_ROLES {
            if potential.has(role) && !reserve.has(role) {
                reserve.add(role);
            }
        }
        hypothetical.set_reserve(us, reserve);
        hypothetical.has_legal_move()
    }

    /// Neither side can ever mate. Two-board families never qualify: material
    /// can always arrive. In crazyhouse, only bare kings with empty reserves do.
    pub fn is_insufficient_material(&self) -> bool {
        let kings = self.by_role(Role::King);
        match self.rules.flow {
            Flow::Partner => false,
            Flow::OwnReserve => {
                self.occupied() == kings
                    && self.reserve(Color::White).is_empty()
                    && self.reserve(Color::Black).is_empty()
            }
            Flow::Vanish => {
                let others = self.occupied() & !kings;
                let minors = self.by_role(Role::Knight) | self.by_role(Role::Bishop);
                if others.is_empty() || (others.count() == 1 && others.is_subset(minors)) {
                    return true;
                }
                // Only bishops, all on squares of one colour.
                let bishops = self.by_role(Role::Bishop);
                others == bishops
                    && (bishops.is_subset(shakmaty::Bitboard::DARK_SQUARES)
                        || bishops.is_subset(shakmaty::Bitboard::LIGHT_SQUARES))
            }
        }
    }
}
