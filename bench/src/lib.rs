//! Shared helpers for the benchmarks: the fixed positions that both the
//! criterion benches (`benches/movegen.rs`) and the `compare-perft` script
//! walk, with leaf counts checked against independent generators.
//!
//! Every count in [`POSITIONS`] was produced by Fairy-Stockfish 11.1
//! (`tests/oracle/fsf_perft.py`; Tandemschach as `bughouse` with
//! `dropChecks = false`) and, for the chess and crazyhouse positions, agrees
//! with shakmaty 0.30.1 (`Chess` / `variant::Crazyhouse`). The benches assert
//! them before timing, so a wrong generator fails the bench instead of
//! producing a fast, meaningless number.
//!
//! `cargo run --release -p tandem-bench --bin bench-positions` prints the list
//! as tab-separated lines for scripts (see that binary).

use tandem_engine::{parse_fen, Position, Rules};

/// A position with its verified perft counts.
#[derive(Clone, Copy, Debug)]
pub struct BenchPosition {
    /// Short name, used as the benchmark id and in the comparison table.
    pub name: &'static str,
    /// Rules spec for `tandem perft --rules` / [`Rules`]'s `FromStr`.
    pub rules: &'static str,
    /// FEN, with `[reserve]` for the drop families.
    pub fen: &'static str,
    /// Leaf counts at depth 1, 2, ... (so `perft[0]` is the number of legal moves).
    pub perft: &'static [u64],
    /// Depth of the criterion `perft` benchmark, if this position is benched.
    pub bench_depth: Option<u32>,
    /// Depth walked by `compare-perft`, if this position is compared.
    pub compare_depth: Option<u32>,
}

impl BenchPosition {
    pub fn parsed_rules(&self) -> Rules {
        self.rules
            .parse()
            .unwrap_or_else(|e| panic!("{}: bad rules spec {:?}: {e}", self.name, self.rules))
    }

    pub fn position(&self) -> Position {
        parse_fen(self.fen, self.parsed_rules())
            .unwrap_or_else(|e| panic!("{}: bad FEN {:?}: {e}", self.name, self.fen))
    }

    /// The verified leaf count at `depth` (depth 0 is 1).
    pub fn leaves(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            d => *self
                .perft
                .get(d as usize - 1)
                .unwrap_or_else(|| panic!("{}: no verified count at depth {d}", self.name)),
        }
    }

    /// Number of legal moves at the root.
    pub fn legal_count(&self) -> u64 {
        self.leaves(1)
    }

    /// The Fairy-Stockfish `UCI_Variant` that plays these rules on one board
    /// (`nocheckdrops` is `bughouse` with `dropChecks = false`, loaded from a
    /// VariantPath ini, see `compare-perft`).
    pub fn fsf_variant(&self) -> &'static str {
        match self.rules.split(',').next().unwrap_or("") {
            "chess" => "chess",
            "crazyhouse" => "crazyhouse",
            "bughouse" => "bughouse",
            "tandemschach" => "nocheckdrops",
            other => panic!("{}: no Fairy-Stockfish variant for {other:?}", self.name),
        }
    }

    /// The shakmaty variant that plays these rules, if any (shakmaty has no
    /// bughouse: there captures leave the board instead of entering the reserve).
    pub fn shakmaty_variant(&self) -> Option<&'static str> {
        match self.rules {
            "chess" => Some("chess"),
            "crazyhouse" => Some("crazyhouse"),
            _ => None,
        }
    }
}

/// The fixed benchmark and comparison positions.
pub const POSITIONS: &[BenchPosition] = &[
    BenchPosition {
        name: "chess-start",
        rules: "chess",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        perft: &[20, 400, 8_902, 197_281, 4_865_609],
        bench_depth: Some(5),
        compare_depth: None,
    },
    BenchPosition {
        name: "kiwipete",
        rules: "chess",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        perft: &[48, 2_039, 97_862, 4_085_603],
        bench_depth: Some(4),
        compare_depth: None,
    },
    // Crazyhouse, quiet: the start position and an Italian opening, empty reserves.
    BenchPosition {
        name: "zh-start",
        rules: "crazyhouse",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        perft: &[20, 400, 8_902, 197_281, 4_888_832, 120_812_942],
        bench_depth: None,
        compare_depth: Some(6),
    },
    BenchPosition {
        name: "zh-italian",
        rules: "crazyhouse",
        fen: "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R[] w KQkq - 0 1",
        perft: &[40, 1_398, 55_424, 1_979_932, 81_436_167],
        bench_depth: None,
        compare_depth: Some(5),
    },
    // Crazyhouse middlegame with pieces in both reserves.
    BenchPosition {
        name: "zh-middlegame",
        rules: "crazyhouse",
        fen: "r1b2rk1/ppp2ppp/2n5/3qp3/1b1P4/2N2N2/PPP2PPP/R1BQKB1R[NPp] w KQ - 0 8",
        perft: &[94, 6_615, 468_306, 27_925_602],
        bench_depth: Some(3),
        compare_depth: Some(4),
    },
    // Crazyhouse, reserve-heavy: a traded-down middlegame, most material in hand.
    BenchPosition {
        name: "zh-heavy",
        rules: "crazyhouse",
        fen: "5rk1/5ppp/3pbn2/4p3/4P3/3PBN2/5PPP/5RK1[QBNPPPqrbnppp] w - - 0 20",
        perft: &[198, 46_709, 7_567_776],
        bench_depth: None,
        compare_depth: Some(3),
    },
    // Crazyhouse, reserve-heavy: bare kings, one of everything in each reserve.
    BenchPosition {
        name: "zh-pockets",
        rules: "crazyhouse",
        fen: "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1",
        perft: &[301, 75_353, 15_634_852],
        bench_depth: None,
        compare_depth: Some(3),
    },
    // Bughouse, small reserves (captures leave the board for the partner).
    BenchPosition {
        name: "bh-quiet",
        rules: "bughouse",
        fen: "r1bq1rk1/pp3ppp/2nbpn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R[Pp] w KQ - 0 1",
        perft: &[65, 4_425, 230_245, 12_908_861],
        bench_depth: None,
        compare_depth: Some(4),
    },
    // Bughouse, reserve-heavy: more material than one chess set.
    BenchPosition {
        name: "bh-heavy",
        rules: "bughouse",
        fen: "r4rk1/pp3ppp/2n5/3p4/3P4/5N2/PP3PPP/R4RK1[QQRBBNNPPPPqrbbnnnppppp] w - - 0 1",
        perft: &[232, 52_512, 11_385_897],
        bench_depth: Some(3),
        compare_depth: Some(3),
    },
    // Tandemschach: no drop may give check. Pawns may be dropped on the 7th
    // rank too, as in Fairy-Stockfish's `nocheckdrops` that cross-checks it
    // (it cannot forbid a single rank).
    BenchPosition {
        name: "tandemschach",
        rules: "tandemschach,pawn_drops=ranks-2-7",
        fen: "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R[NPnp] w KQkq - 0 1",
        perft: &[97, 8_760, 681_890, 49_208_409],
        bench_depth: Some(3),
        compare_depth: Some(4),
    },
];

/// The positions the criterion benches walk.
pub fn bench_positions() -> impl Iterator<Item = &'static BenchPosition> {
    POSITIONS.iter().filter(|p| p.bench_depth.is_some())
}

/// The positions `compare-perft` walks.
pub fn compare_positions() -> impl Iterator<Item = &'static BenchPosition> {
    POSITIONS.iter().filter(|p| p.compare_depth.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cheap counts of every position (the full ones are checked by the
    /// benches and by `compare-perft`).
    #[test]
    fn shallow_counts_match() {
        for p in POSITIONS {
            let pos = p.position();
            assert_eq!(pos.count_legal(), p.legal_count(), "{}", p.name);
            assert_eq!(
                pos.legal_moves().len() as u64,
                p.legal_count(),
                "{}",
                p.name
            );
            assert_eq!(tandem_engine::perft(&pos, 2), p.leaves(2), "{}", p.name);
        }
    }

    #[test]
    fn every_position_has_a_use() {
        for p in POSITIONS {
            assert!(
                p.bench_depth.is_some() || p.compare_depth.is_some(),
                "{}",
                p.name
            );
            for d in p.bench_depth.into_iter().chain(p.compare_depth) {
                assert!(
                    d as usize <= p.perft.len(),
                    "{}: depth {d} unverified",
                    p.name
                );
            }
            let _ = p.fsf_variant();
        }
    }
}
