//! Legal move generation for every option of the rule matrix.
//!
//! The generator is written once against a [`MoveSink`]: a [`MoveList`] stores
//! the moves, a [`Counter`] only counts them. Moves that share a piece (or a
//! dropped role) are handed over as a target bitboard, so counting the leaves
//! of a perft or the drops of a full reserve is a popcount.
//!
//! Legality is decided without making the move: check masks and pins for the
//! ordinary moves, a full occupancy test for the rare ones (en passant, and the
//! `fall-through` and `reenter` promotions that empty the last-rank square).
//! A drop can never expose its own king: it only adds a blocker.

use shakmaty::attacks::{
    aligned, between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, ray, rook_attacks,
};
use shakmaty::{Bitboard, Color, Rank, Role, Square};

use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{back_rank, castling_targets, Position};
use crate::rules::{DropChecks, PawnDrops, Promotion};

/// Receives generated moves.
pub trait MoveSink {
    fn push(&mut self, m: Move);

    /// Ordinary moves of the `role` on `from` to every square of `targets`.
    #[inline]
    fn push_targets(&mut self, from: Square, role: Role, targets: Bitboard) {
        for to in targets {
            self.push(Move::normal(from, to, role));
        }
    }

    /// Drops of `role` on every square of `targets`.
    #[inline]
    fn push_drops(&mut self, role: Role, targets: Bitboard) {
        for to in targets {
            self.push(Move::drop(role, to));
        }
    }
}

impl MoveSink for MoveList {
    #[inline]
    fn push(&mut self, m: Move) {
        // Capacity is the proven maximum of the family (see `MAX_MOVES`).
        let _ = self.try_push(m);
    }
}

/// Counts moves without storing them.
#[derive(Default)]
pub struct Counter(pub u64);

impl MoveSink for Counter {
    #[inline]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }

    #[inline]
    fn push_targets(&mut self, _: Square, _: Role, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }

    #[inline]
    fn push_drops(&mut self, _: Role, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }
}

/// Squares a pawn of `color` may be dropped on under `rule`.
pub fn pawn_drop_squares(color: Color, rule: PawnDrops) -> Bitboard {
    let back_ranks = Bitboard::from_rank(Rank::First) | Bitboard::from_rank(Rank::Eighth);
    match rule {
        PawnDrops::Ranks2To7 => !back_ranks,
        PawnDrops::Ranks2To6 => {
            !back_ranks & !Bitboard::from_rank(color.fold_wb(Rank::Seventh, Rank::Second))
        }
        PawnDrops::None => Bitboard::EMPTY,
    }
}

/// Squares from which a piece of `role` and colour `color` attacks `target`.
#[inline]
fn attack_origins(role: Role, color: Color, target: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color.other(), target),
        Role::Knight => knight_attacks(target),
        Role::Bishop => bishop_attacks(target, occupied),
        Role::Rook => rook_attacks(target, occupied),
        Role::Queen => bishop_attacks(target, occupied) | rook_attacks(target, occupied),
        Role::King => king_attacks(target),
    }
}

/// Where each role of the side to move would give check from, and which of
/// its pieces block one of its own sliders' lines to the enemy king.
pub struct CheckSquares {
    by_role: [Bitboard; 6],
    discoverers: Bitboard,
    king: Square,
}

/// Ranks 2 to 7 seen from `color`: where a `reenter` pawn may reappear.
fn reentry_ranks() -> Bitboard {
    !(Bitboard::from_rank(Rank::First) | Bitboard::from_rank(Rank::Eighth))
}

const PROMOTION_ROLES: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

impl Position {
    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// The number of legal moves (bulk-counted where possible).
    pub fn count_legal(&self) -> u64 {
        let mut counter = Counter(0);
        self.generate(&mut counter);
        counter.0
    }

    /// Does the side to move have any legal move?
    pub fn has_legal_move(&self) -> bool {
        self.count_legal() > 0
    }

    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    /// Generates every legal move into `sink`.
    #[inline]
    pub fn generate<S: MoveSink>(&self, sink: &mut S) {
        self.generate_moves::<S, false>(sink);
    }

    /// Legal captures and moves to the last rank; every evasion when in check.
    /// This is what quiescence search looks at (no drops, no quiet moves).
    pub fn noisy_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_noisy(&mut list);
        list
    }

    /// [`Position::noisy_moves`] into `sink`: quiescence fills its own buffer
    /// rather than copy a whole move list out (the copy was 6 % of its time).
    #[inline]
    pub fn generate_noisy<S: MoveSink>(&self, sink: &mut S) {
        if self.is_check() {
            self.generate_moves::<S, false>(sink);
        } else {
            self.generate_moves::<S, true>(sink);
        }
    }

    fn generate_moves<S: MoveSink, const NOISY: bool>(&self, sink: &mut S) {
        let us = self.turn;
        let them = us.other();
        let king = self.king(us);
        let occupied = self.occupied();
        let ours = self.by_color(us);
        let checkers = self.attackers_to(king, them, occupied);
        // A king is never captured. Only a `steal` that uncovers a line on the
        // other board can leave the side not to move in check; it must then
        // answer the check on its own turn (RULES.md, `steal`).
        let capturable = self.by_color(them) & !self.pieces(them, Role::King);

        // Quiet moves are left out in NOISY mode (never used when in check).
        let noisy_mask = if NOISY { capturable } else { !ours & !self.pieces(them, Role::King) };
        self.gen_king(sink, king, occupied, noisy_mask);
        if checkers.more_than_one() {
            return;
        }
        // Squares a non-king move must land on: block or capture a single checker.
        let check_mask = match checkers.first() {
            Some(checker) => between(king, checker).with(checker),
            None => {
                if !NOISY {
                    self.gen_castling(sink, king, occupied);
                }
                Bitboard::FULL
            }
        };
        let pinned = self.pinned(king, us, occupied);
        self.gen_pieces(sink, king, pinned, noisy_mask & check_mask);
        self.gen_pawns::<S, NOISY>(sink, king, pinned, check_mask);
        if !NOISY && self.rules.has_drops() && !self.reserve(us).is_empty() {
            let empty = !occupied;
            let targets = match checkers.first() {
                Some(checker) => between(king, checker) & empty,
                None => empty,
            };
            self.gen_drops(sink, targets);
        }
    }

    /// Our pieces that stand alone between our king and an enemy slider.
    fn pinned(&self, king: Square, us: Color, occupied: Bitboard) -> Bitboard {
        let them = us.other();
        let queens = self.by_role(Role::Queen);
        let snipers = ((rook_attacks(king, Bitboard::EMPTY) & (self.by_role(Role::Rook) | queens))
            | (bishop_attacks(king, Bitboard::EMPTY) & (self.by_role(Role::Bishop) | queens)))
            & self.by_color(them);
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if !blockers.more_than_one() {
                pinned |= blockers & self.by_color(us);
            }
        }
        pinned
    }

    fn gen_king<S: MoveSink>(&self, sink: &mut S, king: Square, occupied: Bitboard, targets: Bitboard) {
        let them = self.turn.other();
        let without_king = occupied.without(king);
        let mut safe = Bitboard::EMPTY;
        for to in king_attacks(king) & targets {
            if self.attackers_to(to, them, without_king).is_empty() {
                safe.add(to);
            }
        }
        sink.push_targets(king, Role::King, safe);
    }

    /// Castling with any rook that has a right, the king and rook on any files of
    /// the back rank (Chess960 rules, of which standard castling is the special
    /// case): the squares both pieces cross and land on must be empty but for the
    /// two of them, and no square the king crosses or lands on may be attacked
    /// once the rook has left its square (in Chess960 the rook may stand between
    /// the king's target and an attacker on the rank). The caller has checked
    /// that we are not in check.
    fn gen_castling<S: MoveSink>(&self, sink: &mut S, king: Square, occupied: Bitboard) {
        let us = self.turn;
        let rooks = self.castling & self.pieces(us, Role::Rook) & back_rank(us);
        if rooks.is_empty() || !back_rank(us).contains(king) {
            return;
        }
        let them = us.other();
        for rook in rooks {
            let (king_to, rook_to) = castling_targets(king, rook);
            let king_path = between(king, king_to).with(king_to);
            let crossed = (king_path | between(rook, rook_to).with(rook_to)).without(king).without(rook);
            if (crossed & occupied).any() {
                continue;
            }
            let without_rook = occupied.without(rook);
            if king_path.into_iter().all(|sq| self.attackers_to(sq, them, without_rook).is_empty()) {
                // Chess960 writes castling king-takes-rook: the move's `to` is the rook.
                let to = if self.chess960 { rook } else { king_to };
                sink.push(Move::new(MoveKind::Castle, king, to, Role::King, rook));
            }
        }
    }

    fn gen_pieces<S: MoveSink>(&self, sink: &mut S, king: Square, pinned: Bitboard, target: Bitboard) {
        let us = self.turn;
        let occupied = self.occupied();
        for from in self.pieces(us, Role::Knight) & !pinned {
            sink.push_targets(from, Role::Knight, knight_attacks(from) & target);
        }
        for role in [Role::Bishop, Role::Rook, Role::Queen] {
            for from in self.pieces(us, role) {
                let mut targets = attack_origins(role, us, from, occupied) & target;
                if pinned.contains(from) {
                    targets &= ray(king, from);
                }
                sink.push_targets(from, role, targets);
            }
        }
    }

    fn gen_pawns<S: MoveSink, const NOISY: bool>(&self, sink: &mut S, king: Square, pinned: Bitboard, check_mask: Bitboard) {
        let us = self.turn;
        let them = us.other();
        let occupied = self.occupied();
        let theirs = self.by_color(them) & !self.pieces(them, Role::King);
        let forward: i32 = us.fold_wb(8, -8);
        let start_rank = Bitboard::from_rank(us.fold_wb(Rank::Second, Rank::Seventh));
        let last_rank = Bitboard::from_rank(us.fold_wb(Rank::Eighth, Rank::First));

        for from in self.pieces(us, Role::Pawn) {
            // Where this pawn can go, before pins and checks.
            let mut reach = pawn_attacks(us, from) & theirs;
            if let Some(one) = from.offset(forward).filter(|&sq| !occupied.contains(sq)) {
                if !NOISY || last_rank.contains(one) {
                    reach.add(one);
                }
                if !NOISY && start_rank.contains(from) {
                    if let Some(two) = one.offset(forward).filter(|&sq| !occupied.contains(sq)) {
                        reach.add(two);
                    }
                }
            }
            let mut legal = reach & check_mask;
            if pinned.contains(from) {
                legal &= ray(king, from);
            }
            for to in legal & !last_rank {
                let kind = if to as i32 - from as i32 == 2 * forward {
                    MoveKind::DoublePush
                } else {
                    MoveKind::Normal
                };
                sink.push(Move::new(kind, from, to, Role::Pawn, Square::A1));
            }
            if (reach & last_rank).any() {
                self.gen_promotions(sink, from, reach & last_rank, legal & last_rank);
            }
        }
        if let Some(ep) = self.ep_square {
            self.gen_en_passant(sink, king, ep);
        }
    }

    /// `reach`: last-rank squares the pawn can get to; `legal`: those that are
    /// legal when the pawn stays there (the promoted piece blocks like the pawn).
    fn gen_promotions<S: MoveSink>(&self, sink: &mut S, from: Square, reach: Bitboard, legal: Bitboard) {
        let us = self.turn;
        match self.rules.promotion {
            Promotion::Standard | Promotion::Revert => {
                for to in legal {
                    for role in PROMOTION_ROLES {
                        sink.push(Move::new(MoveKind::Promotion, from, to, role, Square::A1));
                    }
                }
            }
            Promotion::Steal => {
                for to in legal {
                    for role in PROMOTION_ROLES {
                        if self.steal_pool[us as usize] & (1 << role as u8) != 0 {
                            sink.push(Move::new(MoveKind::Steal, from, to, role, Square::A1));
                        }
                    }
                }
            }
            Promotion::FallThrough => {
                for to in reach {
                    if self.safe_after(from, to, None) {
                        sink.push(Move::new(MoveKind::FallThrough, from, to, Role::Pawn, Square::A1));
                    }
                }
            }
            Promotion::Reenter => {
                let squares = (!self.occupied()).with(from) & reentry_ranks();
                for to in reach {
                    if self.safe_after(from, to, None) {
                        sink.push(Move::new(MoveKind::ReenterReserve, from, to, Role::Pawn, Square::A1));
                    }
                    for aux in squares {
                        if self.safe_after(from, to, Some(aux)) {
                            sink.push(Move::new(MoveKind::ReenterSquare, from, to, Role::Pawn, aux));
                        }
                    }
                }
            }
        }
    }

    /// Is our king safe after a pawn leaves `from`, takes whatever is on `to`,
    /// and does not stay there (it may reappear on `reentry`)?
    fn safe_after(&self, from: Square, to: Square, reentry: Option<Square>) -> bool {
        let mut occupied = self.occupied().without(from).without(to);
        if let Some(sq) = reentry {
            occupied.add(sq);
        }
        let us = self.turn;
        self.attackers_to(self.king(us), us.other(), occupied).is_empty()
    }

    pub(crate) fn gen_en_passant<S: MoveSink>(&self, sink: &mut S, king: Square, ep: Square) {
        let us = self.turn;
        let captured = Square::from_coords(ep.file(), us.fold_wb(Rank::Fifth, Rank::Fourth));
        for from in pawn_attacks(us.other(), ep) & self.pieces(us, Role::Pawn) {
            let occupied = self.occupied().without(from).without(captured).with(ep);
            if self.attackers_to(king, us.other(), occupied).is_empty() {
                sink.push(Move::new(MoveKind::EnPassant, from, ep, Role::Pawn, Square::A1));
            }
        }
    }

    fn gen_drops<S: MoveSink>(&self, sink: &mut S, targets: Bitboard) {
        let us = self.turn;
        let their_king = self.king(us.other());
        let occupied = self.occupied();
        for role in self.reserve(us).roles() {
            let mut squares = targets;
            if role == Role::Pawn {
                squares &= pawn_drop_squares(us, self.rules.pawn_drops);
            }
            match self.rules.drop_checks {
                DropChecks::Allow => sink.push_drops(role, squares),
                DropChecks::NoCheck => {
                    sink.push_drops(role, squares & !attack_origins(role, us, their_king, occupied))
                }
                DropChecks::NoMate => {
                    let checking = squares & attack_origins(role, us, their_king, occupied);
                    sink.push_drops(role, squares & !checking);
                    for to in checking {
                        let m = Move::drop(role, to);
                        if !self.mates(m) {
                            sink.push(m);
                        }
                    }
                }
            }
        }
    }

    /// Does the (legal) move give check? Exact, and without making the move
    /// except for the rare kinds (castling, en passant, fall-through, re-entry).
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.turn;
        let their_king = self.king(us.other());
        let to = m.to();
        match m.kind() {
            MoveKind::Drop => attack_origins(m.role(), us, their_king, self.occupied()).contains(to),
            MoveKind::Normal | MoveKind::DoublePush | MoveKind::Promotion | MoveKind::Steal => {
                let occupied = self.occupied().without(m.from()).with(to);
                if m.role() != Role::King && attack_origins(m.role(), us, their_king, occupied).contains(to) {
                    return true;
                }
                // The opponent was not in check, so any slider now reaching the
                // king was uncovered by the move.
                let queens = self.by_role(Role::Queen);
                let sliders = ((bishop_attacks(their_king, occupied) & (self.by_role(Role::Bishop) | queens))
                    | (rook_attacks(their_king, occupied) & (self.by_role(Role::Rook) | queens)))
                    & self.by_color(us);
                sliders.without(to).without(m.from()).any()
            }
            _ => {
                let mut after = self.clone();
                after.play(m);
                after.is_check()
            }
        }
    }

    /// What [`Position::gives_check_with`] needs, computed once for a node
    /// whose moves are all asked (the discovered-check test alone cost two
    /// slider lookups a move).
    pub fn check_squares(&self) -> CheckSquares {
        let us = self.turn;
        let king = self.king(us.other());
        let occupied = self.occupied();
        let ours = self.by_color(us);
        let by_role = Role::ALL.map(|role| attack_origins(role, us, king, occupied));
        let queens = self.by_role(Role::Queen);
        let snipers = ((bishop_attacks(king, Bitboard::EMPTY) & (self.by_role(Role::Bishop) | queens))
            | (rook_attacks(king, Bitboard::EMPTY) & (self.by_role(Role::Rook) | queens)))
            & ours;
        let mut discoverers = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if blockers.is_subset(ours) && !blockers.more_than_one() {
                discoverers |= blockers;
            }
        }
        CheckSquares { by_role, discoverers, king }
    }

    /// [`Position::gives_check`] with the node's [`CheckSquares`]: a direct
    /// check lands on a check square of its role (the square it leaves cannot
    /// open its own line, or it would already give check), a discovered one
    /// moves a lone blocker off its line. Other move kinds take the full test.
    #[inline]
    pub fn gives_check_with(&self, m: Move, checks: &CheckSquares) -> bool {
        let to = m.to();
        match m.kind() {
            MoveKind::Drop => checks.by_role[m.role() as usize - 1].contains(to),
            MoveKind::Normal | MoveKind::DoublePush => {
                let from = m.from();
                (m.role() != Role::King && checks.by_role[m.role() as usize - 1].contains(to))
                    || (checks.discoverers.contains(from) && !aligned(from, to, checks.king))
            }
            _ => self.gives_check(m),
        }
    }

    /// Does the (legal) move leave the opponent checkmated under the mate rule?
    fn mates(&self, m: Move) -> bool {
        let mut after = self.clone();
        after.play(m);
        after.status() == crate::status::Status::Checkmate
    }

    /// Finds the legal move whose UCI text is `text` (see [`Move`]'s `Display`).
    /// Castling is also accepted in the other mode's form: king-takes-rook
    /// (`e1h1`) in standard mode, and the king's target (`e1g1`) in Chess960
    /// mode when no other legal move is written that way.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let well_formed = text.len() >= 4
            && text.len() <= 7
            && text.is_ascii()
            && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'@');
        if !well_formed {
            return Err(MoveError::Malformed(text.to_string()));
        }
        let normalized = normalize_move_text(text);
        let moves = self.legal_moves();
        let castling_as = |m: &Move| {
            let other_to = if self.chess960 { castling_targets(m.from(), m.aux()).0 } else { m.aux() };
            format!("{}{}", m.from(), other_to)
        };
        moves
            .iter()
            .find(|m| m.to_string() == normalized)
            .or_else(|| moves.iter().find(|m| m.kind() == MoveKind::Castle && castling_as(m) == normalized))
            .copied()
            .ok_or_else(|| MoveError::Illegal(text.to_string()))
    }
}

/// Drops are written with an upper-case letter (`n@e4` is read as `N@e4`),
/// promotions with a lower-case one.
fn normalize_move_text(text: &str) -> String {
    match text.split_once('@') {
        Some((role, square)) if role.len() == 1 => {
            format!("{}@{}", role.to_ascii_uppercase(), square.to_ascii_lowercase())
        }
        _ => text.to_ascii_lowercase(),
    }
}

/// Why a move text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not shaped like a move at all.
    Malformed(String),
    /// A well-formed move that is not legal here.
    Illegal(String),
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Malformed(text) => write!(f, "malformed move '{text}'"),
            MoveError::Illegal(text) => write!(f, "illegal move '{text}'"),
        }
    }
}

impl std::error::Error for MoveError {}
