//! Static evaluation for drop chess, in centipawns from the side to move.
//!
//! Terms (all tunable in [`params`]):
//! - **Material on the board and in hand, valued separately.** A piece in hand
//!   can appear anywhere next turn, so it is usually worth more than the same
//!   piece on the board. A promoted piece is worth a little less than a real one:
//!   captured, it goes over as a pawn.
//! - **King safety against drops.** The danger to a king grows with enemy pieces
//!   attacking its zone, with what the enemy holds in hand (each piece in hand
//!   may land next to the king), with empty squares around the king where it
//!   can land, and with missing shelter pawns. The danger units are squared,
//!   because attacks in drop chess succeed by piling up.
//! - **Piece-square terms**: centralised knights and bishops, advanced pawns, a
//!   king at home behind its pawns.
//! - **Mobility**: squares attacked by each piece.
//! - **Pawn structure**: passed pawns by rank, doubled and isolated pawns.
//! - **Tempo**: the initiative is worth more than in chess, where a move is a threat.
//!
//! In chess (no drops) the hand terms vanish and king danger counts only the
//! pieces on the board.

use shakmaty::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use shakmaty::{Bitboard, Color, File, Role, Square};

use crate::position::Position;

/// Every weight of the evaluation, in one place.
pub mod params {
    /// Piece values on the board: pawn, knight, bishop, rook, queen, king.
    pub const BOARD: [i32; 6] = [100, 310, 330, 470, 900, 0];
    /// Piece values in hand, for drop variants.
    pub const HAND: [i32; 6] = [130, 340, 340, 480, 920, 0];
    /// Discount of a promoted piece (it reverts to a pawn when captured).
    pub const PROMOTED_DISCOUNT: i32 = 60;
    /// Per attacked square (excluding own pieces), by role.
    pub const MOBILITY: [i32; 6] = [0, 4, 4, 3, 2, 0];
    /// King danger units per enemy piece attacking the king zone, by role.
    pub const ZONE_ATTACKER_UNITS: [i32; 6] = [1, 2, 2, 3, 5, 0];
    /// King danger units per enemy piece in hand, by role.
    pub const HAND_UNITS: [i32; 6] = [1, 3, 2, 3, 6, 0];
    /// Danger units per empty square next to the king while the enemy holds pieces.
    pub const EMPTY_NEIGHBOUR_UNITS: i32 = 1;
    /// Danger units per missing pawn of the king's shelter.
    pub const MISSING_SHELTER_UNITS: i32 = 2;
    /// penalty = units² × KING_DANGER_SCALE / 16, capped.
    pub const KING_DANGER_SCALE: i32 = 5;
    pub const KING_DANGER_CAP: i32 = 1500;
    /// Passed pawn bonus by relative rank (index 0 = rank 1).
    pub const PASSED: [i32; 8] = [0, 5, 10, 20, 35, 60, 100, 0];
    pub const DOUBLED: i32 = 12;
    pub const ISOLATED: i32 = 10;
    /// Share (percent) of a hand value credited for a piece expected to arrive.
    pub const FORECAST_PERCENT: i32 = 50;
    /// Bonus for the side to move.
    pub const TEMPO: i32 = 30;
    /// Centralisation per step towards the centre, for knights and bishops.
    pub const CENTRE_KNIGHT: i32 = 8;
    pub const CENTRE_BISHOP: i32 = 4;
    /// Pawn advancement per rank beyond the second.
    pub const PAWN_ADVANCE: i32 = 4;
    /// A king off its first two ranks while drops are possible.
    pub const KING_EXPOSED: i32 = 40;
}

#[inline]
fn idx(role: Role) -> usize {
    role as usize - 1
}

/// Pieces expected to arrive in each hand soon (the partner-board forecast),
/// in hundredths of a piece, indexed `[colour][role - 1]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Expected {
    pub hundredths: [[i32; 5]; 2],
}

impl Expected {
    #[inline]
    pub fn get(&self, color: Color, role: Role) -> i32 {
        self.hundredths[color as usize][idx(role)]
    }

    pub fn add(&mut self, color: Color, role: Role, hundredths: i32) {
        let slot = &mut self.hundredths[color as usize][idx(role)];
        *slot = (*slot + hundredths).min(400);
    }

    pub fn is_empty(&self) -> bool {
        self.hundredths == [[0; 5]; 2]
    }
}

/// The evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &Expected::default())
}

/// The evaluation, counting `expected` arrivals as part of each hand.
pub fn evaluate_with(pos: &Position, expected: &Expected) -> i32 {
    let white = white_score(pos, expected);
    let relative = if pos.turn() == Color::White { white } else { -white };
    relative + params::TEMPO
}

/// The evaluation from White's point of view, without the tempo bonus.
pub fn white_score(pos: &Position, expected: &Expected) -> i32 {
    side_score(pos, Color::White, expected) - side_score(pos, Color::Black, expected)
}

/// Material value of the pieces of `color` on the board and in hand.
pub fn material(pos: &Position, color: Color) -> i32 {
    let mut score = 0;
    let ours = pos.by_color(color);
    for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        score += (pos.by_role(role) & ours).count() as i32 * params::BOARD[idx(role)];
        score += i32::from(pos.reserve(color).count(role)) * params::HAND[idx(role)];
    }
    score - (pos.promoted() & ours).count() as i32 * params::PROMOTED_DISCOUNT
}

fn side_score(pos: &Position, color: Color, expected: &Expected) -> i32 {
    let mut forecast = 0;
    if pos.rules().has_drops() {
        for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            forecast += expected.get(color, role) * params::HAND[idx(role)] * params::FORECAST_PERCENT / 10_000;
        }
    }
    material(pos, color)
        + forecast
        + placement_and_mobility(pos, color)
        + pawn_structure(pos, color)
        - king_danger_with(pos, color, expected)
}

/// Distance-from-centre bonus: 0 on the rim, 3 in the centre.
#[inline]
fn centrality(sq: Square) -> i32 {
    let file = sq.file() as i32;
    let rank = sq.rank() as i32;
    let df = if file < 4 { file } else { 7 - file };
    let dr = if rank < 4 { rank } else { 7 - rank };
    df.min(dr)
}

fn placement_and_mobility(pos: &Position, color: Color) -> i32 {
    let occupied = pos.occupied();
    let ours = pos.by_color(color);
    let mut score = 0;
    for sq in pos.pieces(color, Role::Knight) {
        score += centrality(sq) * params::CENTRE_KNIGHT;
        score += (knight_attacks(sq) & !ours).count() as i32 * params::MOBILITY[idx(Role::Knight)];
    }
    for sq in pos.pieces(color, Role::Bishop) {
        score += centrality(sq) * params::CENTRE_BISHOP;
        score += (bishop_attacks(sq, occupied) & !ours).count() as i32 * params::MOBILITY[idx(Role::Bishop)];
    }
    for sq in pos.pieces(color, Role::Rook) {
        score += (rook_attacks(sq, occupied) & !ours).count() as i32 * params::MOBILITY[idx(Role::Rook)];
    }
    for sq in pos.pieces(color, Role::Queen) {
        let attacks = bishop_attacks(sq, occupied) | rook_attacks(sq, occupied);
        score += (attacks & !ours).count() as i32 * params::MOBILITY[idx(Role::Queen)];
    }
    for sq in pos.pieces(color, Role::Pawn) {
        score += relative_rank(color, sq).saturating_sub(1) as i32 * params::PAWN_ADVANCE;
    }
    if pos.rules().has_drops() && relative_rank(color, pos.king(color)) > 1 {
        score -= params::KING_EXPOSED;
    }
    score
}

/// Rank counted from `color`'s side, 0 = its first rank.
#[inline]
fn relative_rank(color: Color, sq: Square) -> u32 {
    match color {
        Color::White => sq.rank() as u32,
        Color::Black => 7 - sq.rank() as u32,
    }
}

fn pawn_structure(pos: &Position, color: Color) -> i32 {
    let ours = pos.pieces(color, Role::Pawn);
    let theirs = pos.pieces(color.other(), Role::Pawn);
    let mut score = 0;
    for sq in ours {
        let file = sq.file();
        let file_bb = Bitboard::from_file(file);
        let neighbours = adjacent_files(file);
        if (ours & file_bb).more_than_one() {
            score -= params::DOUBLED / 2; // counted once per pawn of the pair
        }
        if (ours & neighbours).is_empty() {
            score -= params::ISOLATED;
        }
        let ahead = front_span(color, sq);
        if (theirs & ahead & (file_bb | neighbours)).is_empty() {
            score += params::PASSED[relative_rank(color, sq) as usize];
        }
    }
    score
}

fn adjacent_files(file: File) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    if let Some(f) = file.offset(-1) {
        bb |= Bitboard::from_file(f);
    }
    if let Some(f) = file.offset(1) {
        bb |= Bitboard::from_file(f);
    }
    bb
}

/// Squares on ranks strictly ahead of `sq` from `color`'s point of view.
fn front_span(color: Color, sq: Square) -> Bitboard {
    let rank = sq.rank() as u32;
    match color {
        Color::White if rank < 7 => Bitboard(!0u64 << (8 * (rank + 1))),
        Color::Black => Bitboard((1u64 << (8 * rank)) - 1),
        Color::White => Bitboard::EMPTY,
    }
}

/// Penalty for the danger to `color`'s king.
pub fn king_danger(pos: &Position, color: Color) -> i32 {
    king_danger_with(pos, color, &Expected::default())
}

fn king_danger_with(pos: &Position, color: Color, expected: &Expected) -> i32 {
    let units = king_danger_units(pos, color, expected);
    (units * units * params::KING_DANGER_SCALE / 16).min(params::KING_DANGER_CAP)
}

/// The raw danger units to `color`'s king (see the module documentation);
/// pieces expected to reach the enemy hand count in proportion.
pub fn king_danger_units(pos: &Position, color: Color, expected: &Expected) -> i32 {
    let them = color.other();
    let king = pos.king(color);
    let zone = king_attacks(king).with(king);
    let occupied = pos.occupied();
    let mut units = 0;
    for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for sq in pos.pieces(them, role) {
            let attacks = match role {
                Role::Pawn => pawn_attacks(them, sq),
                Role::Knight => knight_attacks(sq),
                Role::Bishop => bishop_attacks(sq, occupied),
                Role::Rook => rook_attacks(sq, occupied),
                _ => bishop_attacks(sq, occupied) | rook_attacks(sq, occupied),
            };
            if attacks.intersects(zone) {
                units += params::ZONE_ATTACKER_UNITS[idx(role)];
            }
        }
    }
    if pos.rules().has_drops() {
        let hand = pos.reserve(them);
        let mut hundredths = 0;
        for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            let count = 100 * i32::from(hand.count(role)) + expected.get(them, role);
            hundredths += count * params::HAND_UNITS[idx(role)];
        }
        let hand_units = hundredths / 100;
        if hand_units > 0 {
            let empty_near = (king_attacks(king) & !occupied).count() as i32;
            units += hand_units + empty_near * params::EMPTY_NEIGHBOUR_UNITS;
        }
        units += missing_shelter(pos, color) * params::MISSING_SHELTER_UNITS;
    }
    units
}

/// Shelter squares in front of the king (up to three) without an own pawn.
fn missing_shelter(pos: &Position, color: Color) -> i32 {
    let king = pos.king(color);
    let forward = if color == Color::White { 8 } else { -8 };
    let Some(front) = king.offset(forward) else { return 0 };
    let shelter = Bitboard::from(front) | (king_attacks(front) & Bitboard::from_rank(front.rank()));
    (shelter & !pos.pieces(color, Role::Pawn)).count() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_fen;
    use crate::rules::Rules;

    #[test]
    fn start_position_is_balanced_but_for_tempo() {
        let pos = Position::startpos(Rules::crazyhouse());
        assert_eq!(evaluate(&pos), params::TEMPO);
    }

    #[test]
    fn symmetric_positions_evaluate_alike_for_both_sides() {
        let w = parse_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Nn] w KQkq - 2 3", Rules::crazyhouse()).unwrap();
        let b = parse_fen("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR[Nn] b KQkq - 2 3", Rules::crazyhouse()).unwrap();
        assert_eq!(evaluate(&w), evaluate(&b));
    }

    #[test]
    fn pieces_in_the_enemy_hand_endanger_an_open_king() {
        let calm = parse_fen("6k1/5ppp/8/8/8/8/8/4K3[] w - - 0 1", Rules::crazyhouse()).unwrap();
        let danger = parse_fen("6k1/5ppp/8/8/8/8/8/4K3[qn] w - - 0 1", Rules::crazyhouse()).unwrap();
        assert!(king_danger(&danger, Color::White) > king_danger(&calm, Color::White));
    }
}
