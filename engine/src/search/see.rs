//! Static exchange evaluation: does a capture sequence on one square win at
//! least `threshold`? Drops cannot capture, so only pieces on the board join in.

use shakmaty::attacks::{bishop_attacks, rook_attacks};
use shakmaty::{Bitboard, Role};

use crate::moves::{Move, MoveKind};
use crate::position::Position;

/// Exchange values (king: effectively infinite).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20000];

#[inline]
pub fn see_value(role: Role) -> i32 {
    SEE_VALUE[role as usize - 1]
}

/// The exchange value of the piece `m` captures (0 for none).
#[inline]
pub fn victim_value(pos: &Position, m: Move) -> i32 {
    pos.captured_role(m).map_or(0, see_value)
}

/// True if the move wins at least `threshold` in the exchange on its target square.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let to = m.to();
    let (captured, mover) = match m.kind() {
        MoveKind::Normal | MoveKind::DoublePush => {
            (pos.role_at(to).map_or(0, see_value), pos.role_at(m.from()).unwrap_or(Role::Pawn))
        }
        MoveKind::Promotion | MoveKind::Steal => (
            pos.role_at(to).map_or(0, see_value) + see_value(m.role()) - see_value(Role::Pawn),
            m.role(),
        ),
        MoveKind::Drop => (0, m.role()),
        // En passant, castling, fall-through and re-entry: rare, call them even.
        _ => return threshold <= 0,
    };
    let mut swap = captured - threshold;
    if swap < 0 {
        return false;
    }
    swap = see_value(mover) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = pos.occupied().without(to);
    if m.kind() != MoveKind::Drop {
        occupied.discard(m.from());
    }
    let queens = pos.by_role(Role::Queen);
    let diagonal = pos.by_role(Role::Bishop) | queens;
    let straight = pos.by_role(Role::Rook) | queens;
    let mut attackers = pos.attackers_to(to, pos.turn(), occupied) | pos.attackers_to(to, pos.turn().other(), occupied);
    let mut side = pos.turn();
    let mut result = true;
    loop {
        side = side.other();
        attackers &= occupied;
        let ours = attackers & pos.by_color(side);
        if ours.is_empty() {
            break;
        }
        result = !result;
        let Some((role, from)) = least_valuable(pos, ours) else { break };
        if role == Role::King {
            // The king may only take if nothing defends the square any more.
            return if (attackers & pos.by_color(side.other())).any() { !result } else { result };
        }
        swap = see_value(role) - swap;
        if swap < i32::from(result) {
            break;
        }
        occupied.discard(from);
        // Sliders behind the piece that just took join the exchange.
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= rook_attacks(to, occupied) & straight;
        }
    }
    result
}

fn least_valuable(pos: &Position, attackers: Bitboard) -> Option<(Role, shakmaty::Square)> {
    [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King]
        .into_iter()
        .find_map(|role| (attackers & pos.by_role(role)).first().map(|sq| (role, sq)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_fen;
    use crate::rules::Rules;

    fn see(fen: &str, uci: &str, threshold: i32) -> bool {
        let pos = parse_fen(fen, Rules::crazyhouse()).unwrap();
        let m = pos.parse_move(uci).unwrap();
        see_ge(&pos, m, threshold)
    }

    #[test]
    fn exchanges() {
        // Pawn takes a defended knight: wins about a knight minus a pawn.
        let fen = "4k3/8/3p4/4n3/3P4/8/8/4K3[] w - - 0 1";
        assert!(see(fen, "d4e5", 200));
        assert!(!see(fen, "d4e5", 300));
        // Queen takes a pawn defended by a pawn: loses.
        let fen2 = "4k3/8/2p5/3p4/8/8/3Q4/4K3[] w - - 0 1";
        assert!(!see(fen2, "d2d5", 0));
        // A drop onto an attacked square loses the piece.
        let fen3 = "4k3/8/8/3p4/8/8/8/4K3[N] w - - 0 1";
        assert!(!see(fen3, "N@e4", 0));
        assert!(see(fen3, "N@a4", 0));
    }
}
