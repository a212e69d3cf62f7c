//! Static evaluation for drop chess, in centipawns from the side to move.
//!
//! Terms (all weights in [`EvalParams`]):
//! - **Material on the board and in hand, valued separately.** A promoted piece
//!   has its own adjustment: captured, it goes over as a pawn (chess sets it
//!   a little below a real piece; the drop-chess fit leaves it about level,
//!   a discount of -9).
//! - **King safety against drops.** Danger units grow with enemy pieces
//!   attacking the king zone, with what the enemy holds in hand (each piece
//!   may land next to the king), with empty squares around the king where it
//!   can land (more when no piece of ours covers the square, or the enemy
//!   supports it), with each role in the enemy hand that has a safe checking
//!   drop (an empty square our pieces do not cover), with the enemy's attacks
//!   on the king's flank (its three or four files in our five ranks; the
//!   round 11 fit set this weight to zero), and with missing shelter pawns.
//!   The units are squared (capped), because attacks in drop chess succeed by
//!   piling up. Flank attacks also cost a linear penalty: the pressure that
//!   precedes a drop attack.
//! - **Drop mobility**: for each role in hand, the empty squares of the enemy
//!   half that the enemy does not attack, where it could land.
//! - **Piece-square terms**: centralised knights and bishops, advanced pawns,
//!   the king's rank and file while drops are possible, and a fitted table
//!   per role (rank from the owner's side, file folded at the centre) that
//!   says what those few shapes cannot (a rook or queen on the enemy's back
//!   rank, an attack on the king, is worth about a pawn more).
//! - **Mobility**: squares attacked by each piece.
//! - **Pawn structure**: passed pawns by rank, doubled and isolated pawns.
//! - **Tempo**: the initiative is worth more than in chess, where a move is a threat.
//!
//! Drop chess plays weights fitted to Fairy-Stockfish's scores of crazyhouse
//! positions (`tune/`): the fit values material at a third to a half of chess
//! values and king danger and tempo far higher, which won decisively in
//! self-play against the hand-set weights. Chess without drops keeps the
//! hand-set weights, where the hand terms vanish and king danger counts only
//! the pieces on the board.

use std::cell::OnceCell;

use shakmaty::attacks::{attacks, bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use shakmaty::{Bitboard, Color, File, Piece, Role, Square};

use crate::movegen::pawn_drop_squares;
use crate::position::Position;
use crate::reserve::HAND_ROLES;
use crate::rules::Rules;

/// Every weight of the evaluation, in one place. [`EvalParams::DROP_CHESS`]
/// (fitted by the tuner in `tune/`) is played wherever drops are allowed,
/// [`EvalParams::CHESS`] (set by hand) on boards without drops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// Piece values on the board: pawn, knight, bishop, rook, queen, king.
    pub board: [i32; 6],
    /// Piece values in hand, for drop variants.
    pub hand: [i32; 6],
    /// Discount of a promoted piece (it reverts to a pawn when captured).
    pub promoted_discount: i32,
    /// Per attacked square (excluding own pieces), by role.
    pub mobility: [i32; 6],
    /// King danger units per enemy piece attacking the king zone, by role.
    pub zone_attacker_units: [i32; 6],
    /// King danger units per enemy piece in hand, by role.
    pub hand_units: [i32; 6],
    /// Danger units per empty square next to the king while the enemy holds pieces.
    pub empty_neighbour_units: i32,
    /// Danger units per empty square next to the king, while the enemy holds
    /// pieces, that no piece of ours but the king covers, and per one the
    /// enemy attacks (a drop there is supported).
    pub bare_neighbour_units: i32,
    pub supported_landing_units: i32,
    /// Danger units per missing pawn of the king's shelter.
    pub missing_shelter_units: i32,
    /// Danger units per role the enemy holds that has a safe checking drop:
    /// an empty square, not covered by our pieces, from which it would check.
    pub safe_check_drop_units: [i32; 6],
    /// Danger units per eighth of an attacked square in the king's flank
    /// (its three or four files, our five ranks; doubly attacked squares
    /// count twice): pressure building beyond the squares next to the king.
    pub flank_attack_units: i32,
    /// Penalty per attacked square of the king's flank (counted as above).
    pub flank_attack: i32,
    /// Per role in hand: bonus per empty square in the enemy half, not
    /// attacked by the enemy, where it could be dropped.
    pub drop_mobility: [i32; 6],
    /// penalty = units² × king_danger_scale / 256, capped.
    pub king_danger_scale: i32,
    pub king_danger_cap: i32,
    /// Passed pawn bonus by relative rank (index 0 = rank 1). The pawn's
    /// table already pays for its advance; in drop chess the fit makes this
    /// a penalty on the middle ranks, where a lone passer is a target that
    /// any dropped piece can blockade.
    pub passed: [i32; 8],
    pub doubled: i32,
    pub isolated: i32,
    /// Bonus for the side to move.
    pub tempo: i32,
    /// Centralisation per step towards the centre, for knights and bishops.
    pub centre_knight: i32,
    pub centre_bishop: i32,
    /// Pawn advancement per rank beyond the second.
    pub pawn_advance: i32,
    /// A king off its first two ranks while drops are possible.
    pub king_exposed: i32,
    /// King placement while drops are possible, by rank counted from its own
    /// side (the fourth rank and beyond share the last entry: kings rarely get
    /// there, too rarely to fit a weight each) and by file counted from the
    /// nearer edge (a/h = 0).
    pub king_rank: [i32; 4],
    pub king_file: [i32; 4],
    /// Piece-square table of each role on the board (pawn to king), indexed
    /// by [`psqt_index`]: rank counted from the owner's side, file counted
    /// from the nearer edge (the board is left-right symmetric).
    pub psqt: [[i32; 32]; 6],
}

impl EvalParams {
    /// Fitted to Fairy-Stockfish's judgement of crazyhouse positions
    /// (`tune/README.md`). Material counts far less than in chess and the
    /// attack on the king far more.
    pub const DROP_CHESS: EvalParams = EvalParams {
        board: [100, 132, 143, 180, 356, 0],
        hand: [56, 167, 160, 266, 379, 0],
        promoted_discount: -7,
        mobility: [0, 4, 8, 9, 2, 0],
        zone_attacker_units: [5, 7, 4, 4, 2, 0],
        hand_units: [1, 3, 3, 1, 1, 0],
        empty_neighbour_units: 1,
        bare_neighbour_units: 3,
        supported_landing_units: 1,
        missing_shelter_units: 6,
        safe_check_drop_units: [11, 14, 7, 21, 9, 0],
        flank_attack_units: 3,
        flank_attack: 18,
        drop_mobility: [10, 7, 4, -5, 0, 0],
        king_danger_scale: 49,
        king_danger_cap: 484,
        passed: [0, -15, -60, -22, -49, 1, 2, 0],
        doubled: 21,
        isolated: 7,
        tempo: 157,
        centre_knight: 32,
        centre_bishop: 22,
        pawn_advance: 9,
        king_exposed: 126,
        king_rank: [86, -12, 24, -50],
        king_file: [75, 91, -99, -68],
        psqt: [
            // pawn
            [0, 0, 0, 0, -28, 34, 4, -73, -37, -27, -4, -24, -39, -41, -37, -13, -3, -5, -5, 7, 8, 13, 42, 50, -2, -18, 29, 33, 0, 0, 0, 0],
            // knight
            [-17, -7, 0, -1, 0, -16, -5, 1, 12, 0, -12, -35, -2, -13, 12, -19, 63, 23, 10, -14, 37, 27, 32, 26, 8, -11, 6, 1, -23, -19, -8, -8],
            // bishop
            [24, 28, 32, 12, 51, 48, 47, 44, 43, 3, -2, 9, 41, 12, 19, -1, 35, 40, 24, 4, 26, 30, 28, 4, 7, 40, 18, 8, 28, 8, 0, 11],
            // rook
            [-8, -10, 39, 61, -28, -12, 35, 18, -48, -20, -3, -12, -40, -12, -12, -35, -18, -6, 6, -5, 16, 5, -1, -4, 32, 20, 13, 9, 54, 42, 21, -15],
            // queen
            [56, 40, 44, 42, 24, 25, 54, 37, -20, 17, 14, 31, 4, -20, -6, 1, -11, -26, -4, -23, -8, -5, 23, 12, 24, 32, 13, 4, 46, 59, 40, 28],
            // king
            [-13, -53, 44, 40, -33, 7, 92, 21, 1, 16, 58, 56, 13, 22, 39, 40, 5, 6, 15, 18, -4, -4, 1, 3, -8, -8, -6, -4, -9, -9, -9, -9],
        ],
    };

    /// Weights for chess without drops, set by hand before any tuning (the
    /// drop-chess fit would undervalue material in chess).
    pub const CHESS: EvalParams = EvalParams {
        board: [100, 310, 330, 470, 900, 0],
        hand: [130, 340, 340, 480, 920, 0],
        promoted_discount: 60,
        mobility: [0, 4, 4, 3, 2, 0],
        zone_attacker_units: [1, 2, 2, 3, 5, 0],
        hand_units: [1, 3, 2, 3, 6, 0],
        empty_neighbour_units: 1,
        bare_neighbour_units: 0,
        supported_landing_units: 0,
        missing_shelter_units: 2,
        safe_check_drop_units: [0; 6],
        flank_attack_units: 0,
        flank_attack: 0,
        drop_mobility: [0; 6],
        king_danger_scale: 80,
        king_danger_cap: 1500,
        passed: [0, 5, 10, 20, 35, 60, 100, 0],
        doubled: 12,
        isolated: 10,
        tempo: 30,
        centre_knight: 8,
        centre_bishop: 4,
        pawn_advance: 4,
        king_exposed: 40,
        king_rank: [0; 4],
        king_file: [0; 4],
        psqt: [[0; 32]; 6],
    };

    /// The weights played under `rules`.
    #[inline]
    pub fn for_rules(rules: &Rules) -> &'static EvalParams {
        if rules.has_drops() {
            &EvalParams::DROP_CHESS
        } else {
            &EvalParams::CHESS
        }
    }

    /// Every weight with its name, for the tuner. The pawn's board value
    /// stays fixed as the unit, and slots that are never read (the king's,
    /// pawn mobility, passed pawns on the first and last rank) are left out.
    pub fn named_weights_mut(&mut self) -> Vec<(String, &mut i32)> {
        fn table<'a>(out: &mut Vec<(String, &'a mut i32)>, name: &str, first: usize, slots: &'a mut [i32]) {
            for (i, slot) in slots.iter_mut().enumerate() {
                out.push((format!("{name}[{}]", first + i), slot));
            }
        }
        let EvalParams {
            board,
            hand,
            promoted_discount,
            mobility,
            zone_attacker_units,
            hand_units,
            empty_neighbour_units,
            bare_neighbour_units,
            supported_landing_units,
            missing_shelter_units,
            safe_check_drop_units,
            flank_attack_units,
            flank_attack,
            drop_mobility,
            king_danger_scale,
            king_danger_cap,
            passed,
            doubled,
            isolated,
            tempo,
            centre_knight,
            centre_bishop,
            pawn_advance,
            king_exposed,
            king_rank,
            king_file,
            psqt,
        } = self;
        let mut out = Vec::new();
        table(&mut out, "board", 1, &mut board[1..5]);
        table(&mut out, "hand", 0, &mut hand[..5]);
        table(&mut out, "mobility", 1, &mut mobility[1..5]);
        table(&mut out, "zone_attacker_units", 0, &mut zone_attacker_units[..5]);
        table(&mut out, "hand_units", 0, &mut hand_units[..5]);
        table(&mut out, "safe_check_drop_units", 0, &mut safe_check_drop_units[..5]);
        table(&mut out, "drop_mobility", 0, &mut drop_mobility[..5]);
        table(&mut out, "passed", 1, &mut passed[1..7]);
        table(&mut out, "king_rank", 0, &mut king_rank[..]);
        table(&mut out, "king_file", 0, &mut king_file[..]);
        // Pawns never stand on their first or last rank.
        let [pawn, knight, bishop, rook, queen, king] = psqt;
        table(&mut out, "psqt_pawn", 4, &mut pawn[4..28]);
        for (name, slots) in [("psqt_knight", knight), ("psqt_bishop", bishop), ("psqt_rook", rook), ("psqt_queen", queen), ("psqt_king", king)] {
            table(&mut out, name, 0, &mut slots[..]);
        }
        let scalars = [
            ("promoted_discount", promoted_discount),
            ("empty_neighbour_units", empty_neighbour_units),
            ("bare_neighbour_units", bare_neighbour_units),
            ("supported_landing_units", supported_landing_units),
            ("missing_shelter_units", missing_shelter_units),
            ("flank_attack_units", flank_attack_units),
            ("flank_attack", flank_attack),
            ("king_danger_scale", king_danger_scale),
            ("king_danger_cap", king_danger_cap),
            ("doubled", doubled),
            ("isolated", isolated),
            ("tempo", tempo),
            ("centre_knight", centre_knight),
            ("centre_bishop", centre_bishop),
            ("pawn_advance", pawn_advance),
            ("king_exposed", king_exposed),
        ];
        out.extend(scalars.into_iter().map(|(name, slot)| (name.to_string(), slot)));
        out
    }
}

/// Share (percent) of a hand value credited for a piece expected to arrive.
pub const FORECAST_PERCENT: i32 = 50;

/// What the pieces expected to arrive in `color`'s hand are worth: a share
/// of their hand value.
pub fn forecast(expected: &Expected, color: Color, p: &EvalParams) -> i32 {
    HAND_ROLES.iter().map(|&role| expected.get(color, role) * p.hand[idx(role)] * FORECAST_PERCENT / 10_000).sum()
}

/// What `expected` arrivals add to the side to move's evaluation: the
/// forecast share of each hand and the king danger they raise on each side
/// (`evaluate_with(pos, expected) - evaluate_with(pos, none)`). A network sees
/// only the hands; this is how the team model's arrivals reach its score.
pub fn arrival_value(pos: &Position, expected: &Expected) -> i32 {
    if expected.is_empty() || !pos.rules().has_drops() {
        return 0;
    }
    let none = Expected::default();
    let without = Evaluator::new(pos, &none, EvalParams::for_rules(pos.rules()));
    let danger_without = [Color::Black, Color::White].map(|color| without.king_danger(color));
    // The attack maps and flank counts do not depend on the arrivals: reuse them.
    let with = Evaluator { expected, ..without };
    let side = |color: Color| with.forecast(color) - with.king_danger(color) + danger_without[color as usize];
    let white = side(Color::White) - side(Color::Black);
    if pos.turn() == Color::White { white } else { -white }
}

/// The value of a piece of `role` in hand.
#[inline]
pub fn hand_value(role: Role) -> i32 {
    EvalParams::DROP_CHESS.hand[idx(role)]
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
#[cfg(test)]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &Expected::default())
}

/// The evaluation, counting `expected` arrivals as part of each hand.
pub fn evaluate_with(pos: &Position, expected: &Expected) -> i32 {
    evaluate_params(pos, expected, EvalParams::for_rules(pos.rules()))
}

/// The evaluation with the weights `p` (the tuner's entry point).
pub fn evaluate_params(pos: &Position, expected: &Expected, p: &EvalParams) -> i32 {
    let white = Evaluator::new(pos, expected, p).white_score();
    let relative = if pos.turn() == Color::White { white } else { -white };
    relative + p.tempo
}

/// The evaluation from White's point of view, without the tempo bonus.
pub fn white_score(pos: &Position, expected: &Expected) -> i32 {
    Evaluator::new(pos, expected, EvalParams::for_rules(pos.rules())).white_score()
}

/// Penalty for the danger to `color`'s king.
#[cfg(test)]
pub fn king_danger(pos: &Position, color: Color) -> i32 {
    Evaluator::new(pos, &Expected::default(), EvalParams::for_rules(pos.rules())).king_danger(color)
}

/// One evaluation: the position, the expected arrivals, the weights and the
/// squares each colour's pieces other than the king attack, built on first
/// use (only the safe-drop term needs them, and only when a hand holds pieces).
struct Evaluator<'a> {
    pos: &'a Position,
    expected: &'a Expected,
    p: &'a EvalParams,
    attacks: OnceCell<[Attacks; 2]>,
    /// Flank attacks on each colour's king: read by the linear term and the
    /// king-danger units, counted once.
    flank: OnceCell<[i32; 2]>,
}

/// The squares a colour's pieces other than its king attack, and those
/// attacked at least twice.
#[derive(Clone, Copy)]
struct Attacks {
    once: Bitboard,
    twice: Bitboard,
}

impl<'a> Evaluator<'a> {
    fn new(pos: &'a Position, expected: &'a Expected, p: &'a EvalParams) -> Evaluator<'a> {
        Evaluator { pos, expected, p, attacks: OnceCell::new(), flank: OnceCell::new() }
    }

    #[inline]
    fn attack_maps(&self, color: Color) -> Attacks {
        let maps = self.attacks.get_or_init(|| {
            let occupied = self.pos.occupied();
            [attacked_by(self.pos, Color::Black, occupied), attacked_by(self.pos, Color::White, occupied)]
        });
        maps[color as usize]
    }

    #[inline]
    fn attacks_by(&self, color: Color) -> Bitboard {
        self.attack_maps(color).once
    }

    fn white_score(&self) -> i32 {
        self.side_score(Color::White) - self.side_score(Color::Black)
    }

    fn side_score(&self, color: Color) -> i32 {
        self.material(color) + self.forecast(color) + self.placement_and_mobility(color) + self.pawn_structure(color)
            + self.drop_mobility(color)
            - self.flank_attacks(color) * self.p.flank_attack
            - self.king_danger(color)
    }

    /// Squares of `color`'s king flank that the enemy attacks (twice counts twice).
    fn flank_attacks(&self, color: Color) -> i32 {
        if self.p.flank_attack == 0 && self.p.flank_attack_units == 0 {
            return 0;
        }
        let counts = self.flank.get_or_init(|| [self.count_flank_attacks(Color::Black), self.count_flank_attacks(Color::White)]);
        counts[color as usize]
    }

    fn count_flank_attacks(&self, color: Color) -> i32 {
        let king = self.pos.king(color);
        let files = match king.file() as u32 {
            0..=2 => 0..4,
            3 | 4 => 2..6,
            _ => 4..8,
        };
        let flank = files.fold(Bitboard::EMPTY, |bb, f| bb | Bitboard::from_file(File::new(f)));
        let camp = match color {
            Color::White => Bitboard(0x0000_00ff_ffff_ffff),
            Color::Black => Bitboard(0xffff_ffff_ff00_0000),
        };
        let enemy = self.attack_maps(color.other());
        let zone = flank & camp;
        (enemy.once & zone).count() as i32 + (enemy.twice & zone).count() as i32
    }

    /// For each role `color` holds: the empty squares of the enemy half,
    /// not attacked by the enemy, where it could land.
    fn drop_mobility(&self, color: Color) -> i32 {
        let (pos, p) = (self.pos, self.p);
        if !pos.rules().has_drops() || p.drop_mobility[..5].iter().all(|&w| w == 0) {
            return 0;
        }
        let enemy_half = match color {
            Color::White => Bitboard(0xffff_ffff_0000_0000),
            Color::Black => Bitboard(0x0000_0000_ffff_ffff),
        };
        let landing = enemy_half & !pos.occupied() & !self.attacks_by(color.other());
        let hand = pos.reserve(color);
        let mut score = 0;
        for role in HAND_ROLES {
            if hand.count(role) == 0 || p.drop_mobility[idx(role)] == 0 {
                continue;
            }
            let mut squares = landing;
            if role == Role::Pawn {
                squares &= pawn_drop_squares(color, pos.rules().pawn_drops);
            }
            score += squares.count() as i32 * p.drop_mobility[idx(role)];
        }
        score
    }

    /// Material value of the pieces of `color` on the board and in hand.
    fn material(&self, color: Color) -> i32 {
        let (pos, p) = (self.pos, self.p);
        let ours = pos.by_color(color);
        let mut score = 0;
        for role in HAND_ROLES {
            score += (pos.by_role(role) & ours).count() as i32 * p.board[idx(role)];
            score += i32::from(pos.reserve(color).count(role)) * p.hand[idx(role)];
        }
        score - (pos.promoted() & ours).count() as i32 * p.promoted_discount
    }

    fn forecast(&self, color: Color) -> i32 {
        if !self.pos.rules().has_drops() {
            return 0;
        }
        forecast(self.expected, color, self.p)
    }

    fn placement_and_mobility(&self, color: Color) -> i32 {
        let (pos, p) = (self.pos, self.p);
        let occupied = pos.occupied();
        let ours = pos.by_color(color);
        let mut score = 0;
        for sq in pos.pieces(color, Role::Knight) {
            score += centrality(sq) * p.centre_knight;
            score += (knight_attacks(sq) & !ours).count() as i32 * p.mobility[idx(Role::Knight)];
        }
        for sq in pos.pieces(color, Role::Bishop) {
            score += centrality(sq) * p.centre_bishop;
            score += (bishop_attacks(sq, occupied) & !ours).count() as i32 * p.mobility[idx(Role::Bishop)];
        }
        for sq in pos.pieces(color, Role::Rook) {
            score += (rook_attacks(sq, occupied) & !ours).count() as i32 * p.mobility[idx(Role::Rook)];
        }
        for sq in pos.pieces(color, Role::Queen) {
            let attacks = bishop_attacks(sq, occupied) | rook_attacks(sq, occupied);
            score += (attacks & !ours).count() as i32 * p.mobility[idx(Role::Queen)];
        }
        for sq in pos.pieces(color, Role::Pawn) {
            score += relative_rank(color, sq).saturating_sub(1) as i32 * p.pawn_advance;
        }
        for role in Role::ALL {
            let table = &p.psqt[idx(role)];
            score += pos.pieces(color, role).into_iter().map(|sq| table[psqt_index(color, sq)]).sum::<i32>();
        }
        if pos.rules().has_drops() {
            let king = pos.king(color);
            let rank = relative_rank(color, king);
            score += p.king_rank[(rank as usize).min(3)] + p.king_file[file_from_edge(king)];
            if rank > 1 {
                score -= p.king_exposed;
            }
        }
        score
    }

    fn pawn_structure(&self, color: Color) -> i32 {
        let ours = self.pos.pieces(color, Role::Pawn);
        let theirs = self.pos.pieces(color.other(), Role::Pawn);
        let mut score = 0;
        for sq in ours {
            let file = sq.file();
            let file_bb = Bitboard::from_file(file);
            let neighbours = adjacent_files(file);
            if (ours & file_bb).more_than_one() {
                score -= self.p.doubled / 2; // counted once per pawn of the pair
            }
            if (ours & neighbours).is_empty() {
                score -= self.p.isolated;
            }
            let ahead = front_span(color, sq);
            if (theirs & ahead & (file_bb | neighbours)).is_empty() {
                score += self.p.passed[relative_rank(color, sq) as usize];
            }
        }
        score
    }

    fn king_danger(&self, color: Color) -> i32 {
        let units = self.king_danger_units(color);
        (units * units * self.p.king_danger_scale / 256).min(self.p.king_danger_cap)
    }

    /// The raw danger units to `color`'s king (see the module documentation);
    /// pieces expected to reach the enemy hand count in proportion.
    fn king_danger_units(&self, color: Color) -> i32 {
        let (pos, p) = (self.pos, self.p);
        let them = color.other();
        let king = pos.king(color);
        let zone = king_attacks(king).with(king);
        let occupied = pos.occupied();
        let mut units = 0;
        for role in HAND_ROLES {
            for sq in pos.pieces(them, role) {
                if attacks(sq, Piece { color: them, role }, occupied).intersects(zone) {
                    units += p.zone_attacker_units[idx(role)];
                }
            }
        }
        if !pos.rules().has_drops() {
            return units;
        }
        let hand = pos.reserve(them);
        let mut hundredths = 0;
        let mut held = [false; 5];
        for role in HAND_ROLES {
            let count = 100 * i32::from(hand.count(role)) + self.expected.get(them, role);
            hundredths += count * p.hand_units[idx(role)];
            held[idx(role)] = count >= 50;
        }
        let hand_units = hundredths / 100;
        if hand_units > 0 {
            let empty_near = king_attacks(king) & !occupied;
            units += hand_units + empty_near.count() as i32 * p.empty_neighbour_units;
            if p.bare_neighbour_units != 0 || p.supported_landing_units != 0 {
                let bare = (empty_near & !self.attacks_by(color)).count() as i32;
                let supported = (empty_near & self.attacks_by(them)).count() as i32;
                units += bare * p.bare_neighbour_units + supported * p.supported_landing_units;
            }
            units += self.safe_check_drops(color, &held);
        }
        units += self.flank_attacks(color) * p.flank_attack_units / 8;
        units + missing_shelter(pos, color) * p.missing_shelter_units
    }

    /// Units for each role held by the enemy that could be dropped with check
    /// on an empty square our pieces do not cover (a square next to the king
    /// counts only when the enemy guards it, else the king takes).
    fn safe_check_drops(&self, color: Color, held: &[bool; 5]) -> i32 {
        let (pos, p) = (self.pos, self.p);
        if p.safe_check_drop_units[..5].iter().all(|&u| u == 0) {
            return 0;
        }
        let king = pos.king(color);
        let occupied = pos.occupied();
        let king_takes = king_attacks(king) & !self.attacks_by(color.other());
        let safe = !occupied & !self.attacks_by(color) & !king_takes;
        let mut units = 0;
        for role in HAND_ROLES {
            if !held[idx(role)] {
                continue;
            }
            // Squares from which an enemy `role` would attack our king.
            let mut checks = attacks(king, Piece { color, role }, occupied) & safe;
            if role == Role::Pawn {
                checks &= pawn_drop_squares(color.other(), pos.rules().pawn_drops);
            }
            if checks.any() {
                units += p.safe_check_drop_units[idx(role)];
            }
        }
        units
    }
}

/// Every square a piece of `color` other than its king attacks, once and twice.
fn attacked_by(pos: &Position, color: Color, occupied: Bitboard) -> Attacks {
    let mut maps = Attacks { once: Bitboard::EMPTY, twice: Bitboard::EMPTY };
    for role in HAND_ROLES {
        for sq in pos.pieces(color, role) {
            let a = attacks(sq, Piece { color, role }, occupied);
            maps.twice |= maps.once & a;
            maps.once |= a;
        }
    }
    maps
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

/// The slot of `sq` in a piece-square table of `color`: rank from its own
/// side times four, plus the file's distance from the nearer edge.
#[inline]
fn psqt_index(color: Color, sq: Square) -> usize {
    relative_rank(color, sq) as usize * 4 + file_from_edge(sq)
}

/// The file's distance from the nearer edge of the board: a/h = 0 ... d/e = 3.
#[inline]
fn file_from_edge(sq: Square) -> usize {
    let file = sq.file() as usize;
    file.min(7 - file)
}

/// Rank counted from `color`'s side, 0 = its first rank.
#[inline]
fn relative_rank(color: Color, sq: Square) -> u32 {
    match color {
        Color::White => sq.rank() as u32,
        Color::Black => 7 - sq.rank() as u32,
    }
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
        assert_eq!(evaluate(&pos), EvalParams::DROP_CHESS.tempo);
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

    #[test]
    fn a_safe_checking_drop_adds_danger_and_a_covered_one_does_not() {
        // Black holds a knight; f3 and d3 are knight checks on the king at e1.
        // With a white pawn on e2 and g2 both squares are covered.
        let open = parse_fen("4k3/8/8/8/8/8/8/4K3[n] w - - 0 1", Rules::crazyhouse()).unwrap();
        let covered = parse_fen("4k3/8/8/8/8/8/2PPPPP1/4K3[n] w - - 0 1", Rules::crazyhouse()).unwrap();
        let p = EvalParams::DROP_CHESS;
        let none = Expected::default();
        let units = |pos: &Position| {
            let e = Evaluator::new(pos, &none, &p);
            e.safe_check_drops(Color::White, &[false, true, false, false, false])
        };
        assert_eq!(units(&open), p.safe_check_drop_units[1]);
        assert_eq!(units(&covered), 0);
    }

    #[test]
    fn arrival_value_is_what_the_arrivals_add_to_the_evaluation() {
        let mut expected = Expected::default();
        expected.add(Color::Black, Role::Queen, 80);
        expected.add(Color::White, Role::Knight, 30);
        for fen in [
            "6k1/5ppp/8/8/8/8/8/4K3[n] w - - 0 1",
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1[Pp] b kq - 0 5",
        ] {
            let pos = parse_fen(fen, Rules::bughouse()).unwrap();
            let difference = evaluate_with(&pos, &expected) - evaluate(&pos);
            assert_ne!(difference, 0, "{fen}");
            assert_eq!(arrival_value(&pos, &expected), difference, "{fen}");
        }
        let pos = Position::startpos(Rules::bughouse());
        assert_eq!(arrival_value(&pos, &Expected::default()), 0);
    }

    /// One term of the evaluation of a crazyhouse position under `params`.
    fn term(fen: &str, params: &EvalParams, read: impl Fn(&Evaluator) -> i32) -> i32 {
        let pos = parse_fen(fen, Rules::crazyhouse()).unwrap();
        read(&Evaluator::new(&pos, &Expected::default(), params))
    }

    #[test]
    fn enemy_attacks_on_the_king_s_flank_are_counted_twice_when_doubled() {
        let flank = |fen: &str| term(fen, &EvalParams::DROP_CHESS, |e| e.flank_attacks(Color::White));
        // Kingside flank of the king on g1: files e-h, ranks 1-5.
        assert_eq!(flank("6k1/8/8/8/8/8/5PPP/6K1[] w - - 0 1"), 0);
        // A bishop on c5 attacks e3 and f2 of it; a knight on d5 attacks e3 again, and f4.
        assert_eq!(flank("6k1/8/8/2b5/8/8/5PPP/6K1[] w - - 0 1"), 2, "e3 and f2");
        assert_eq!(flank("6k1/8/8/2bn4/8/8/5PPP/6K1[] w - - 0 1"), 4, "e3 twice, f2, f4");
    }

    #[test]
    fn uncovered_squares_next_to_the_king_add_danger_against_a_hand() {
        let p = EvalParams::DROP_CHESS;
        let blind = EvalParams { bare_neighbour_units: 0, ..p };
        let units = |fen: &str, params: &EvalParams| term(fen, params, |e| e.king_danger_units(Color::White));
        let extra = |fen: &str| units(fen, &p) - units(fen, &blind);
        // f1, h1, f2, g2 and h2 are empty; a rook on a2 covers the second rank.
        assert_eq!(extra("6k1/8/8/8/8/8/8/6K1[n] w - - 0 1"), 5 * p.bare_neighbour_units);
        assert_eq!(extra("6k1/8/8/8/8/8/R7/6K1[n] w - - 0 1"), 2 * p.bare_neighbour_units);
    }

    #[test]
    fn a_piece_in_hand_is_worth_more_with_safe_landing_squares() {
        let p = EvalParams::DROP_CHESS;
        let landing = |fen: &str| term(fen, &p, |e| e.drop_mobility(Color::White));
        let open = landing("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
        let covered = landing("4k3/8/3n1n2/8/8/8/8/4K3[N] w - - 0 1");
        assert_eq!(open, 31 * p.drop_mobility[1], "every empty square of ranks 5-8 but the king's");
        assert!(covered < open, "{covered} >= {open}");
    }

    #[test]
    fn piece_square_slots_mirror_colours_and_files() {
        assert_eq!(psqt_index(Color::White, Square::A1), 0);
        assert_eq!(psqt_index(Color::Black, Square::A8), 0);
        assert_eq!(psqt_index(Color::White, Square::H1), 0);
        assert_eq!(psqt_index(Color::White, Square::E2), 4 + 3);
        assert_eq!(psqt_index(Color::Black, Square::D7), 4 + 3);
        assert_eq!(psqt_index(Color::White, Square::H8), 28);
    }

    #[test]
    fn chess_without_drops_keeps_chess_piece_values() {
        // A knight for two pawns: good in chess, where material is what the
        // hand-set weights say; drop chess plays the fitted weights.
        let fen = "4k3/pp6/8/8/8/8/8/1N2K3[] w - - 0 1";
        let chess = parse_fen(fen, Rules::chess()).unwrap();
        assert!(evaluate(&chess) > 100, "{}", evaluate(&chess));
        let crazyhouse = parse_fen(fen, Rules::crazyhouse()).unwrap();
        let fitted = EvalParams::DROP_CHESS;
        assert_eq!(evaluate(&crazyhouse), evaluate_params(&crazyhouse, &Expected::default(), &fitted));
    }
}
