//! One board: bitboards, reserves, castling, en passant, promoted pieces and
//! an incrementally updated Zobrist hash.
//!
//! Moves are applied with copy-make: [`Position::play`] mutates in place and
//! callers that need the old state keep a copy (the struct is ~140 bytes and
//! `Copy`-cheap to clone). This makes "unmake" exact by construction.

use arrayvec::ArrayVec;
use shakmaty::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use shakmaty::{Bitboard, Color, File, Piece, Rank, Role, Square};

use crate::moves::{Move, MoveKind};
use crate::reserve::Reserve;
use crate::rules::{Flow, Promotion, Rules};
use crate::zobrist;

/// A board of the bughouse family with both players' reserves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) roles: [Bitboard; 6],
    pub(crate) colors: [Bitboard; 2],
    /// Pieces that were promoted from pawns (they go over as pawns when captured).
    pub(crate) promoted: Bitboard,
    /// Rook squares that still carry a castling right. A right exists only while
    /// its king stands, unmoved, on the same back rank (on any file in Chess960).
    pub(crate) castling: Bitboard,
    /// Where a dropped rook regains a castling right (`dropped_rook_castles`), set
    /// with the FEN: for each side of an unmoved king, the square of that side's
    /// castling rook in the FEN, or the corner of a side that had no right there
    /// (so a1 and h1 for a king on e1, as in standard chess).
    pub(crate) rook_homes: Bitboard,
    /// Chess960 conventions: castling rights read and written as file letters
    /// (Shredder-FEN, X-FEN read too) and castling moves written king-takes-rook.
    pub(crate) chess960: bool,
    /// Kings that have never moved (a dropped rook may gain castling rights).
    pub(crate) king_unmoved: [bool; 2],
    pub(crate) ep_square: Option<Square>,
    pub(crate) turn: Color,
    pub(crate) reserves: [Reserve; 2],
    /// Roles (bit `1 << role`) that a `steal` promotion of each colour may take
    /// from the other board. Context from [`crate::Game`], not part of the hash.
    pub(crate) steal_pool: [u8; 2],
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) hash: u64,
    pub(crate) rules: Rules,
}

/// What a move sends off this board, for [`crate::Game`] to deliver.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveEffects {
    /// Pieces leaving for the other board's reserve (promoted pieces already as pawns),
    /// in their own colour: with partners on opposite colours, a piece keeps its colour.
    pub to_other_board: ArrayVec<Piece, 2>,
    /// A `steal` promotion took a piece of this role from the other board.
    pub stolen: Option<Role>,
    /// The piece captured on this board, if any (as it stood: not demoted).
    pub captured: Option<Piece>,
}

#[inline]
pub(crate) fn role_index(role: Role) -> usize {
    role as usize - 1
}

/// The rank each colour's king and rooks start on.
#[inline]
pub(crate) fn back_rank(color: Color) -> Bitboard {
    Bitboard::from_rank(color.fold_wb(Rank::First, Rank::Eighth))
}

/// Where the king and the rook land when the king on `king` castles with the
/// rook on `rook`: the g and f files king-side, the c and d files queen-side,
/// wherever they started (Chess960 rules; standard castling is the special case).
#[inline]
pub(crate) fn castling_targets(king: Square, rook: Square) -> (Square, Square) {
    let (king_file, rook_file) = if rook.file() > king.file() { (File::G, File::F) } else { (File::C, File::D) };
    (Square::from_coords(king_file, king.rank()), Square::from_coords(rook_file, king.rank()))
}

impl Position {
    /// An empty board with empty reserves, White to move.
    pub fn empty(rules: Rules) -> Position {
        let mut pos = Position {
            roles: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
            promoted: Bitboard::EMPTY,
            castling: Bitboard::EMPTY,
            rook_homes: Bitboard::EMPTY,
            chess960: false,
            king_unmoved: [false; 2],
            ep_square: None,
            turn: Color::White,
            reserves: [Reserve::EMPTY; 2],
            steal_pool: [0; 2],
            halfmoves: 0,
            fullmoves: 1,
            hash: 0,
            rules,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    /// The standard starting position.
    pub fn startpos(rules: Rules) -> Position {
        crate::fen::parse_fen(crate::fen::STARTPOS, rules).expect("the start position is valid")
    }

    // ---- queries -------------------------------------------------------

    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.colors[color as usize]
    }

    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.roles[role_index(role)]
    }

    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color(color) & self.by_role(role)
    }

    #[inline]
    pub fn promoted(&self) -> Bitboard {
        self.promoted
    }

    #[inline]
    pub fn castling_rooks(&self) -> Bitboard {
        self.castling
    }

    /// Does this board follow the Chess960 conventions (Shredder-FEN castling
    /// rights, castling written king-takes-rook)? Set when the FEN is read.
    #[inline]
    pub fn chess960(&self) -> bool {
        self.chess960
    }

    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    #[inline]
    pub fn reserve(&self, color: Color) -> &Reserve {
        &self.reserves[color as usize]
    }

    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    #[inline]
    pub fn king_unmoved(&self, color: Color) -> bool {
        self.king_unmoved[color as usize]
    }

    /// Roles that a `steal` promotion by `color` may take, as a bit set `1 << role`.
    pub fn steal_pool(&self, color: Color) -> u8 {
        self.steal_pool[color as usize]
    }

    pub fn set_steal_pool(&mut self, color: Color, roles: u8) {
        self.steal_pool[color as usize] = roles;
    }

    /// Sets both steal pools from the other board's position: a `steal` by a
    /// colour takes a piece of that colour other than king or pawn from there.
    pub fn take_steal_pools_from(&mut self, other: &Position) {
        for color in Color::ALL {
            let pool = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
                .into_iter()
                .filter(|&r| other.pieces(color, r).any())
                .fold(0u8, |bits, r| bits | 1 << r as u8);
            self.set_steal_pool(color, pool);
        }
    }

    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King]
            .into_iter()
            .find(|&r| self.by_role(r).contains(sq))
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let role = self.role_at(sq)?;
        let color = Color::from_white(self.by_color(Color::White).contains(sq));
        Some(Piece { color, role })
    }

    /// The king of `color` (the FEN reader guarantees exactly one).
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.pieces(color, Role::King).first().unwrap_or(Square::A1)
    }

    /// Pieces of `attacker` that attack `sq` with the given occupancy.
    #[inline]
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        let queens = self.by_role(Role::Queen);
        ((knight_attacks(sq) & self.by_role(Role::Knight))
            | (king_attacks(sq) & self.by_role(Role::King))
            | (pawn_attacks(attacker.other(), sq) & self.by_role(Role::Pawn))
            | (rook_attacks(sq, occupied) & (self.by_role(Role::Rook) | queens))
            | (bishop_attacks(sq, occupied) & (self.by_role(Role::Bishop) | queens)))
            & self.by_color(attacker)
            & occupied
    }

    /// Enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        let us = self.turn;
        self.attackers_to(self.king(us), us.other(), self.occupied())
    }

    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Would the move capture something (en passant included)?
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.captured_role(m).is_some()
    }

    /// The role the move captures as it stands on the board (a promoted
    /// piece keeps its promoted role), or `None` for a non-capture.
    #[inline]
    pub fn captured_role(&self, m: Move) -> Option<Role> {
        match m.kind() {
            MoveKind::EnPassant => Some(Role::Pawn),
            MoveKind::Drop | MoveKind::Castle => None,
            _ if self.by_color(self.turn.other()).contains(m.to()) => self.role_at(m.to()),
            _ => None,
        }
    }

    // ---- mutation primitives (keep the hash in step) -------------------

    pub(crate) fn put(&mut self, color: Color, role: Role, sq: Square, promoted: bool) {
        self.roles[role_index(role)].add(sq);
        self.colors[color as usize].add(sq);
        self.hash ^= zobrist::piece(color, role, sq);
        if promoted {
            self.promoted.add(sq);
            self.hash ^= zobrist::promoted(sq);
        }
    }

    /// Removes the piece on `sq`, returning it and whether it was promoted.
    pub(crate) fn take(&mut self, sq: Square) -> Option<(Piece, bool)> {
        let piece = self.piece_at(sq)?;
        self.roles[role_index(piece.role)].discard(sq);
        self.colors[piece.color as usize].discard(sq);
        self.hash ^= zobrist::piece(piece.color, piece.role, sq);
        let promoted = self.promoted.contains(sq);
        if promoted {
            self.promoted.discard(sq);
            self.hash ^= zobrist::promoted(sq);
        }
        if self.castling.contains(sq) {
            self.castling.discard(sq);
            self.hash ^= zobrist::castling(sq);
        }
        Some((piece, promoted))
    }

    /// Adds a piece to a reserve (a piece arriving from the other board).
    pub fn add_to_reserve(&mut self, color: Color, role: Role) {
        let n = self.reserves[color as usize].add(role);
        self.hash ^= zobrist::hand(color, role, n);
    }

    /// Takes a piece out of a reserve; false if there was none.
    pub fn remove_from_reserve(&mut self, color: Color, role: Role) -> bool {
        match self.reserves[color as usize].remove(role) {
            Some(before) => {
                self.hash ^= zobrist::hand(color, role, before);
                true
            }
            None => false,
        }
    }

    /// Replaces a whole reserve (xboard `holding`, protocol reserve updates).
    pub fn set_reserve(&mut self, color: Color, reserve: Reserve) {
        for role in crate::reserve::HAND_ROLES {
            while self.reserve(color).count(role) > reserve.count(role) {
                self.remove_from_reserve(color, role);
            }
            while self.reserve(color).count(role) < reserve.count(role) {
                self.add_to_reserve(color, role);
            }
        }
    }

    /// Removes a piece from the board from outside the move flow (a `steal` by the
    /// other board). Returns the piece and whether it was promoted.
    pub fn remove_piece(&mut self, sq: Square) -> Option<(Piece, bool)> {
        self.take(sq)
    }

    fn clear_castling(&mut self, color: Color) {
        for sq in self.castling & back_rank(color) {
            self.castling.discard(sq);
            self.hash ^= zobrist::castling(sq);
        }
        if self.king_unmoved[color as usize] {
            self.king_unmoved[color as usize] = false;
            self.hash ^= zobrist::king_unmoved(color);
        }
    }

    fn set_ep(&mut self, sq: Square) {
        self.ep_square = Some(sq);
        self.hash ^= zobrist::en_passant(sq);
    }

    /// A captured piece goes where the rules send it.
    fn dispose(&mut self, piece: Piece, promoted: bool, capturer: Color, fx: &mut MoveEffects) {
        let role = if promoted { Role::Pawn } else { piece.role };
        match self.rules.flow {
            Flow::Vanish => {}
            Flow::OwnReserve => self.add_to_reserve(capturer, role),
            Flow::Partner => fx.to_other_board.push(Piece { color: piece.color, role }),
        }
    }

    fn capture_on(&mut self, sq: Square, fx: &mut MoveEffects) {
        if let Some((piece, promoted)) = self.take(sq) {
            fx.captured = Some(piece);
            self.dispose(piece, promoted, self.turn, fx);
            self.halfmoves = 0;
        }
    }

    // ---- make ----------------------------------------------------------

    /// Plays a legal move (unchecked: the move must come from the generator or
    /// [`Position::parse_move`]).
    pub fn play(&mut self, m: Move) -> MoveEffects {
        let us = self.turn;
        let them = us.other();
        let mut fx = MoveEffects::default();
        if let Some(ep) = self.ep_square.take() {
            self.hash ^= zobrist::en_passant(ep);
        }
        self.halfmoves += 1;
        let (from, to) = (m.from(), m.to());
        let mut ep_candidate = None;
        match m.kind() {
            MoveKind::Drop => {
                self.remove_from_reserve(us, m.role());
                self.put(us, m.role(), to, false);
                self.halfmoves = 0;
                if m.role() == Role::Rook
                    && self.rules.dropped_rook_castles
                    && self.king_unmoved[us as usize]
                    && (self.rook_homes & back_rank(us)).contains(to)
                {
                    self.castling.add(to);
                    self.hash ^= zobrist::castling(to);
                }
            }
            MoveKind::Castle => {
                // `to` is the king's target, or the rook in Chess960 mode: both follow from the rook.
                let rook_from = m.aux();
                let (king_to, rook_to) = castling_targets(from, rook_from);
                self.take(from);
                self.take(rook_from);
                self.put(us, Role::King, king_to, false);
                self.put(us, Role::Rook, rook_to, false);
                self.clear_castling(us);
            }
            MoveKind::EnPassant => {
                self.capture_on(Square::from_coords(to.file(), from.rank()), &mut fx);
                self.take(from);
                self.put(us, Role::Pawn, to, false);
            }
            MoveKind::Normal | MoveKind::DoublePush => {
                self.capture_on(to, &mut fx);
                let (piece, promoted) = self.take(from).expect("a piece on the origin square");
                self.put(us, piece.role, to, promoted);
                match piece.role {
                    Role::King => self.clear_castling(us),
                    Role::Pawn => {
                        self.halfmoves = 0;
                        if m.kind() == MoveKind::DoublePush {
                            let rank = from.rank().offset(us.fold_wb(1, -1)).unwrap_or(Rank::Third);
                            ep_candidate = Some(Square::from_coords(to.file(), rank));
                        }
                    }
                    _ => {}
                }
            }
            MoveKind::Promotion | MoveKind::Steal => {
                self.capture_on(to, &mut fx);
                self.take(from);
                let marked = m.kind() == MoveKind::Promotion && self.rules.promotion != Promotion::Standard;
                self.put(us, m.role(), to, marked);
                if m.kind() == MoveKind::Steal {
                    fx.stolen = Some(m.role());
                }
            }
            MoveKind::FallThrough => {
                self.capture_on(to, &mut fx);
                self.take(from);
                // As if the opponent had captured the pawn (RULES.md §2).
                let pawn = Piece { color: us, role: Role::Pawn };
                match self.rules.flow {
                    Flow::Vanish => {}
                    Flow::OwnReserve => self.add_to_reserve(them, Role::Pawn),
                    Flow::Partner => fx.to_other_board.push(pawn),
                }
            }
            MoveKind::ReenterSquare => {
                self.capture_on(to, &mut fx);
                self.take(from);
                self.put(us, Role::Pawn, m.aux(), false);
            }
            MoveKind::ReenterReserve => {
                self.capture_on(to, &mut fx);
                self.take(from);
                self.add_to_reserve(us, Role::Pawn);
            }
        }
        if m.is_promotion_like() || m.kind() == MoveKind::EnPassant {
            self.halfmoves = 0;
        }
        self.turn = them;
        self.hash ^= zobrist::black_to_move();
        if us == Color::Black {
            self.fullmoves += 1;
        }
        if let Some(sq) = ep_candidate {
            self.set_ep_if_capturable(sq);
        }
        fx
    }

    /// Records `sq` as the en passant square only if the side to move can
    /// legally capture there, so that equal positions have equal hashes and FENs.
    pub(crate) fn set_ep_if_capturable(&mut self, sq: Square) {
        let us = self.turn;
        if (pawn_attacks(us.other(), sq) & self.pieces(us, Role::Pawn)).is_empty() {
            return;
        }
        let mut counter = crate::movegen::Counter(0);
        self.gen_en_passant(&mut counter, self.king(us), sq);
        if counter.0 > 0 {
            self.set_ep(sq);
        }
    }

    /// Passes the turn without moving (null move for search; a sitting player never does this).
    pub fn play_null(&mut self) {
        if let Some(ep) = self.ep_square.take() {
            self.hash ^= zobrist::en_passant(ep);
        }
        self.turn = self.turn.other();
        self.hash ^= zobrist::black_to_move();
    }

    /// The hash recomputed from scratch (the incremental one must always equal it).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for color in Color::ALL {
            for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
                for sq in self.pieces(color, role) {
                    h ^= zobrist::piece(color, role, sq);
                }
            }
            for role in crate::reserve::HAND_ROLES {
                for n in 1..=self.reserve(color).count(role) {
                    h ^= zobrist::hand(color, role, n);
                }
            }
            if self.king_unmoved[color as usize] {
                h ^= zobrist::king_unmoved(color);
            }
        }
        for sq in self.promoted {
            h ^= zobrist::promoted(sq);
        }
        for sq in self.castling {
            h ^= zobrist::castling(sq);
        }
        if let Some(ep) = self.ep_square {
            h ^= zobrist::en_passant(ep);
        }
        if self.turn == Color::Black {
            h ^= zobrist::black_to_move();
        }
        h
    }
}
