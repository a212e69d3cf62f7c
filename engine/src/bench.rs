//! `bench`: a fixed search over fixed positions whose node count is a
//! signature of the engine's behaviour (any change to search or evaluation
//! changes it), and a rough speed figure.

use std::time::{Duration, Instant};

use crate::fen::parse_fen;
use crate::nnue::Networks;
use crate::rules::Rules;
use crate::search::{Control, Engine, Limits};

pub const DEFAULT_DEPTH: u32 = 7;
pub const BENCH_HASH_MB: usize = 16;

/// (rules, FEN): chess, crazyhouse, bughouse and tandem positions.
pub const BENCH_POSITIONS: [(&str, &str); 12] = [
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    ("crazyhouse", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"),
    ("crazyhouse", "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R[] w KQkq - 6 5"),
    ("crazyhouse", "r2q1rk1/ppp2ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPP2PPP/R2Q1RK1[] w - - 2 8"),
    ("crazyhouse", "r1b2rk1/pppp1ppp/2n5/2b1p3/2B1P1n1/2NP4/PPP2PPP/R1BQ1RK1[QNp] b - - 0 9"),
    ("crazyhouse", "2kr3r/ppp2ppp/2n5/3q4/3P4/2P2N2/P4PPP/R1BQ1RK1[BNPbpp] w - - 0 14"),
    ("bughouse", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[Pp] w KQkq - 4 4"),
    ("bughouse", "r1b1k2r/ppp2ppp/2n5/3pq3/1b1P4/2N2N2/PPP2PPP/R1BQKB1R[NNBpp] w KQkq - 0 8"),
    ("tandem", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Nn] w KQkq - 2 3"),
    ("tandem", "r2qk2r/ppp2ppp/2n1bn2/3pp3/1b1PP3/2N1BN2/PPP2PPP/R2QKB1R[Pp] w KQkq - 0 7"),
];

/// The outcome of a bench run.
pub struct BenchReport {
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchReport {
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

/// Searches every bench position to `depth` with a fresh table. With one
/// thread the node count is the signature; with more it measures time to depth.
/// `network` evaluates the drop-chess positions when given (the signature
/// then is the network's, not the one in CHANGELOG.md).
pub fn run_bench(depth: u32, threads: usize, network: Option<Networks>) -> BenchReport {
    let engine = Engine::new();
    engine.set_hash_mb(BENCH_HASH_MB).expect("the bench hash table fits in memory");
    engine.set_threads(threads);
    engine.set_network(network);
    let limits = Limits { depth: Some(depth), multipv: 1, ..Limits::default() };
    let start = Instant::now();
    let mut nodes = 0;
    for (rules, fen) in BENCH_POSITIONS {
        let rules: Rules = rules.parse().expect("bench rules are valid");
        let pos = parse_fen(fen, rules).expect("bench positions are valid");
        engine.clear();
        let result = engine.search(&pos, &[], &limits, &Control::new(), &mut |_| {});
        nodes += result.nodes;
    }
    BenchReport { nodes, elapsed: start.elapsed() }
}
