//! The mate suite (`tests/data/mates.epd`, format in `tandem_tests::mates`): forced mates in
//! 1 to 5 from real games (FICS bughouse, our arena's bughouse and crazyhouse matches) and from
//! Fairy-Stockfish self-play, under crazyhouse, bughouse (potential mate), bughouse with
//! standard mate, and tandem rules (no checking drops), tagged by pattern. Every length was
//! proven by the exhaustive prover (`tandem_engine::search::MateProver`: no mate in N - 1, a
//! mate in N), and where Fairy-Stockfish plays the rules (crazyhouse, bughouse standard mate)
//! it agrees; the `mine-mates` tool wrote the positions.
//!
//! - `the_suite_is_well_formed` (default run): every line parses, its main line is legal, has
//!   2N - 1 plies, starts with the listed move and ends in checkmate, and its tags are what
//!   the line shows; at least 200 positions, every rules family, length and tag present.
//! - `the_prover_confirms_the_lengths` (default run): for N up to 3, the prover finds no
//!   mate in N - 1 and a mate in N.
//! - `finds_the_short_mates` (default run): every mate in 1 and 2, searched as `go mate N`.
//! - `alpha_beta_finds_the_mates_in_one` (default run): the search without the prover sees
//!   every mate in 1 at depth 3.
//! - `finds_every_mate` (`#[ignore]`): the whole suite as `go mate N` with 5 s per position
//!   (`MATE_SUITE_SECONDS`), the issue's goal. Run it with
//!
//!   ```text
//!   cargo test --release -p tandem-tests --test mate_suite -- --ignored --nocapture
//!   ```
//!
//! A search passes when it reports `Score::Mate(N)` exactly (not longer, not shorter) and the
//! prover confirms that its best move mates within N against every defence. Every position
//! is searched, and all failures are listed together with what the engine returned.
//!
//! `MATE_SUITE_EPD=<path>` runs the tests on another file of the same format.

use std::time::{Duration, Instant};

use tandem_engine::search::{Control, Engine, Limits, MateProof, MateProver, Score, SearchResult};
use tandem_engine::{Move, Position, Status};
use tandem_tests::mates::{parse_suite, tags_of, MateEntry, TAGS};

const SUITE: &str = include_str!("../data/mates.epd");

/// Rules families, lengths and tags that the suite must cover.
const FAMILIES: [&str; 4] = ["crazyhouse", "bughouse", "bughouse,mate=standard", "tandem"];

fn entries() -> Vec<MateEntry> {
    let text = match std::env::var("MATE_SUITE_EPD") {
        Ok(path) => std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}")),
        Err(_) => SUITE.to_string(),
    };
    parse_suite(&text).unwrap_or_else(|e| panic!("{e}"))
}

fn position(entry: &MateEntry) -> Position {
    entry.position().unwrap_or_else(|e| panic!("{e}"))
}

fn label(entry: &MateEntry) -> String {
    format!("line {:3} {:22} mate {} ({}) {}", entry.line, entry.rules, entry.mate, entry.first, entry.fen)
}

/// Searches `pos` as `go mate n`, stopped after `cap` at the latest.
fn search(pos: &Position, n: u32, cap: Duration) -> SearchResult {
    let limits = Limits { mate: Some(n), movetime: Some(cap), multipv: 1, ..Limits::default() };
    Engine::new().search(pos, &[], &limits, &Control::new(), &mut |_| {})
}

/// Whether the side to move of `pos` mates within `n` moves starting with `first`, by proof.
fn proven_mate(pos: &Position, n: u32, first: &[Move], node_budget: u64) -> MateProof {
    let control = Control::new();
    MateProver::new(&control, None, Some(node_budget)).prove(pos, n, first)
}

/// Searches one entry; `Err` says what went wrong and what the engine returned.
fn check(entry: &MateEntry, cap: Duration) -> Result<String, String> {
    let pos = position(entry);
    let n = entry.mate;
    let start = Instant::now();
    let r = search(&pos, n, cap);
    let elapsed = start.elapsed();
    let best = r.best.map_or("(none)".to_string(), |m| m.to_string());
    let summary = format!("score {:?}, best {best}, depth {}, {} nodes, {:.2} s", r.score, r.depth, r.nodes, elapsed.as_secs_f64());
    if r.score != Some(Score::Mate(n as i32)) {
        return Err(format!("expected Mate({n}): {summary}"));
    }
    let m = r.best.ok_or_else(|| format!("no best move: {summary}"))?;
    if !pos.legal_moves().contains(&m) {
        return Err(format!("best move {m} is not legal: {summary}"));
    }
    match proven_mate(&pos, n, &[m], 50_000_000) {
        MateProof::Mate(_) => Ok(summary),
        proof => Err(format!("{m} does not mate within {n} ({proof:?}): {summary}")),
    }
}

/// Checks the entries that `select` picks, prints one line each, and fails listing every failure.
fn run_suite(select: impl Fn(&MateEntry) -> bool, cap: Duration) {
    let all = entries();
    let chosen: Vec<&MateEntry> = all.iter().filter(|e| select(e)).collect();
    assert!(!chosen.is_empty(), "no positions selected");
    let start = Instant::now();
    let mut failures = Vec::new();
    for entry in &chosen {
        match check(entry, cap) {
            Ok(summary) => println!("ok   {}: {summary}", label(entry)),
            Err(why) => {
                println!("FAIL {}: {why}", label(entry));
                failures.push(format!("{}: {why}", label(entry)));
            }
        }
    }
    println!("{} positions, {} failed, {:.1} s", chosen.len(), failures.len(), start.elapsed().as_secs_f64());
    assert!(failures.is_empty(), "{} of {} mates not found:\n{}", failures.len(), chosen.len(), failures.join("\n"));
}

#[test]
fn the_suite_is_well_formed() {
    let all = entries();
    for entry in &all {
        let pos = position(entry);
        assert!((1..=5).contains(&entry.mate), "{}: mate length out of 1..=5", label(entry));
        assert_eq!(pos.status(), Status::Ongoing, "{}: the game is already over", label(entry));
        let line = entry.main_line_moves().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(line.len() as u32, 2 * entry.mate - 1, "{}: main line of {} plies", label(entry), line.len());
        assert_eq!(line[0].to_string(), entry.first, "{}: the main line starts elsewhere", label(entry));
        let mut end = pos.clone();
        for &m in &line {
            end.play(m);
        }
        assert_eq!(end.status(), Status::Checkmate, "{}: the main line does not end in mate", label(entry));
        let tags: Vec<String> = tags_of(&pos, &line).into_iter().map(str::to_string).collect();
        assert_eq!(entry.tags, tags, "{}: the tags are not the main line's", label(entry));
    }
    assert!(all.len() >= 200, "only {} positions", all.len());
    for family in FAMILIES {
        assert!(all.iter().any(|e| e.rules == family), "no {family} position");
    }
    for n in 1..=5 {
        assert!(all.iter().any(|e| e.mate == n), "no mate in {n}");
    }
    for (tag, _) in TAGS {
        assert!(all.iter().any(|e| e.tags.iter().any(|t| t == tag)), "no position tagged {tag}");
    }
}

/// The lengths are the shortest: no mate in N - 1, a mate in N (N up to 3: cheap to refute).
#[test]
fn the_prover_confirms_the_lengths() {
    let mut failures = Vec::new();
    for entry in entries().iter().filter(|e| e.mate <= 3) {
        let pos = position(entry);
        let shorter = if entry.mate > 1 { proven_mate(&pos, entry.mate - 1, &[], 20_000_000) } else { MateProof::NoMate };
        let exact = proven_mate(&pos, entry.mate, &[], 20_000_000);
        if shorter != MateProof::NoMate || !matches!(exact, MateProof::Mate(_)) {
            failures.push(format!("{}: within {}: {shorter:?}; within {}: {exact:?}", label(entry), entry.mate - 1, entry.mate));
        }
    }
    assert!(failures.is_empty(), "{} lengths not confirmed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn finds_the_short_mates() {
    run_suite(|e| e.mate <= 2, Duration::from_secs(20));
}

/// The alpha-beta search alone (no prover: `go depth 3`, not `go mate`) sees every mate in 1.
/// (Mates in 2 it may report as mates in 3 until depth 11: a checking drop that hangs the
/// checker is pruned at low depth, round 15; `go mate` has the prover for them.)
#[test]
fn alpha_beta_finds_the_mates_in_one() {
    let mut failures = Vec::new();
    for entry in entries().iter().filter(|e| e.mate == 1) {
        let limits = Limits { depth: Some(3), multipv: 1, ..Limits::default() };
        let r = Engine::new().search(&position(entry), &[], &limits, &Control::new(), &mut |_| {});
        if r.score != Some(Score::Mate(1)) {
            failures.push(format!("{}: {:?}, best {:?}", label(entry), r.score, r.best.map(|m| m.to_string())));
        }
    }
    assert!(failures.is_empty(), "{} mates not seen:\n{}", failures.len(), failures.join("\n"));
}

/// `cargo test --release -p tandem-tests --test mate_suite -- --ignored --nocapture`
#[test]
#[ignore = "the whole suite, mate in up to 5, 5 s a position at most"]
fn finds_every_mate() {
    let seconds = std::env::var("MATE_SUITE_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(5);
    run_suite(|_| true, Duration::from_secs(seconds));
}
