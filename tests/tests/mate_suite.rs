//! The mate suite (`tests/data/mates.epd`): drop mates and quiet mates in crazyhouse and
//! bughouse, mate in 1 to 5 for the side to move, each length checked with fairy-stockfish.
//!
//! - `the_suite_is_well_formed` (default run): every line parses, its listed first move is
//!   legal here, and a listed mate in 1 really mates under tandem's rules (for bughouse: a
//!   mate, not a freeze, RULES.md §3).
//! - `finds_the_short_mates` (default run): every mate in 1 and 2, searched as `go mate N`;
//!   `finds_the_short_mates_at_small_depth` (default run): the same as `go depth 2N+1`.
//! - `finds_every_mate` (`#[ignore]`): the whole suite, mate in up to 5, as `go mate N` with
//!   a time cap per position (60 s, or `MATE_SUITE_SECONDS`). Run it with
//!
//!   ```text
//!   cargo test --release -p tandem-tests --test mate_suite -- --ignored --nocapture
//!   ```
//!
//! A position passes when the search reports `Score::Mate(N)` exactly (not longer, not
//! shorter: fairy-stockfish says N is the shortest), and its best move keeps the mate: after
//! it, a mate in 1 is on the board as `Status::Checkmate`, and a longer one is reported by a
//! second search from the defender's side as `Score::Mate(-(N - 1))`. Every position is
//! searched, and all failures are listed together with what the engine returned.
//!
//! `MATE_SUITE_EPD=<path>` runs the tests on another file of the same format.

use std::time::{Duration, Instant};

use tandem_engine::search::{Control, Engine, Limits, Score, SearchResult};
use tandem_engine::{parse_fen, Position, Rules, Status};

const SUITE: &str = include_str!("../data/mates.epd");

/// One line of the suite: `<rules> ; <FEN> ; <N> ; <a mating first move>`.
struct Entry {
    line: usize,
    rules: String,
    fen: String,
    mate: u32,
    first: String,
}

impl Entry {
    fn position(&self) -> Position {
        let rules = self.rules.parse::<Rules>().unwrap_or_else(|e| panic!("line {}: rules {:?}: {e:?}", self.line, self.rules));
        parse_fen(&self.fen, rules).unwrap_or_else(|e| panic!("line {}: FEN {:?}: {e:?}", self.line, self.fen))
    }

    fn label(&self) -> String {
        format!("line {:3} {:10} mate {} ({}) {}", self.line, self.rules, self.mate, self.first, self.fen)
    }
}

fn entries() -> Vec<Entry> {
    let text = match std::env::var("MATE_SUITE_EPD") {
        Ok(path) => std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}")),
        Err(_) => SUITE.to_string(),
    };
    let mut entries = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        assert_eq!(fields.len(), 4, "line {}: expected `rules ; FEN ; N ; move`: {line}", index + 1);
        let mate: u32 = fields[2].parse().unwrap_or_else(|_| panic!("line {}: bad mate length {:?}", index + 1, fields[2]));
        entries.push(Entry {
            line: index + 1,
            rules: fields[0].to_string(),
            fen: fields[1].to_string(),
            mate,
            first: fields[3].to_string(),
        });
    }
    entries
}

/// How a position is searched.
#[derive(Clone, Copy)]
enum Go {
    /// `go mate N` (which searches up to 2N+5 plies).
    Mate,
    /// `go depth 2N+1`: the mate's 2N-1 plies and two to spare. (At exactly 2N-1 plies a
    /// pruning search may miss a quiet mate: tandem and fairy-stockfish both miss the mate
    /// in 2 after the quiet e1e2 at depth 3.)
    Depth,
}

/// Searches `pos` for a mate in `n` as `go` says, stopped after `cap` at the latest.
fn search(pos: &Position, n: u32, go: Go, cap: Duration) -> SearchResult {
    let limits = match go {
        Go::Mate => Limits { mate: Some(n), movetime: Some(cap), multipv: 1, ..Limits::default() },
        Go::Depth => Limits { depth: Some(2 * n + 1), movetime: Some(cap), multipv: 1, ..Limits::default() },
    };
    Engine::new().search(pos, &[], &limits, &Control::new(), &mut |_| {})
}

/// Searches one entry; `Err` says what went wrong and what the engine returned.
fn check(entry: &Entry, go: Go, cap: Duration) -> Result<String, String> {
    let pos = entry.position();
    let n = entry.mate;
    let start = Instant::now();
    let r = search(&pos, n, go, cap);
    let elapsed = start.elapsed();
    let best = r.best.map_or("(none)".to_string(), |m| m.to_string());
    let mut summary = format!("score {:?}, best {best}, depth {}, {} nodes, {:.2} s", r.score, r.depth, r.nodes, elapsed.as_secs_f64());
    if r.score != Some(Score::Mate(n as i32)) {
        return Err(format!("expected Mate({n}): {summary}"));
    }
    let m = r.best.ok_or_else(|| format!("no best move: {summary}"))?;
    if !pos.legal_moves().contains(&m) {
        return Err(format!("best move {m} is not legal: {summary}"));
    }
    let mut after = pos.clone();
    after.play(m);
    if n == 1 {
        if after.status() != Status::Checkmate {
            return Err(format!("{m} does not mate ({:?}): {summary}", after.status()));
        }
    } else {
        // The defender, searched deep enough to see its mate in N - 1 (2N - 3 plies, and eight to
        // spare: pruning may hide the shortest mate until a few plies past it).
        let limits = Limits { depth: Some(2 * n + 5), movetime: Some(cap), multipv: 1, ..Limits::default() };
        let start = Instant::now();
        let d = Engine::new().search(&after, &[], &limits, &Control::new(), &mut |_| {});
        summary += &format!("; defender after {m}: {:?} at depth {} in {:.2} s", d.score, d.depth, start.elapsed().as_secs_f64());
        if d.score != Some(Score::Mate(-(n as i32 - 1))) {
            return Err(format!(
                "after {m} the defender reports {:?} (depth {}), not Mate(-{}): {summary}",
                d.score,
                d.depth,
                n - 1
            ));
        }
    }
    Ok(summary)
}

/// Checks the entries that `select` picks, prints one line each, and fails listing every failure.
fn run_suite(select: impl Fn(&Entry) -> bool, go: Go, cap: Duration) {
    let all = entries();
    let chosen: Vec<&Entry> = all.iter().filter(|e| select(e)).collect();
    assert!(!chosen.is_empty(), "no positions selected");
    let start = Instant::now();
    let mut failures = Vec::new();
    for entry in &chosen {
        match check(entry, go, cap) {
            Ok(summary) => println!("ok   {}: {summary}", entry.label()),
            Err(why) => {
                println!("FAIL {}: {why}", entry.label());
                failures.push(format!("{}: {why}", entry.label()));
            }
        }
    }
    println!("{} positions, {} failed, {:.1} s", chosen.len(), failures.len(), start.elapsed().as_secs_f64());
    assert!(failures.is_empty(), "{} of {} mates not found:\n{}", failures.len(), chosen.len(), failures.join("\n"));
}

#[test]
fn the_suite_is_well_formed() {
    let all = entries();
    assert!(all.len() >= 30, "only {} positions", all.len());
    for entry in &all {
        assert!((1..=5).contains(&entry.mate), "{}: mate length out of 1..=5", entry.label());
        let pos = entry.position();
        let m = pos.parse_move(&entry.first).unwrap_or_else(|e| panic!("{}: listed move: {e:?}", entry.label()));
        assert!(pos.legal_moves().contains(&m), "{}: listed move is not legal", entry.label());
        assert_eq!(pos.status(), Status::Ongoing, "{}: the game is already over", entry.label());
        if entry.mate == 1 {
            let mut after = pos.clone();
            after.play(m);
            assert_eq!(after.status(), Status::Checkmate, "{}: the listed move does not mate", entry.label());
        }
    }
    for rules in ["crazyhouse", "bughouse"] {
        assert!(all.iter().any(|e| e.rules == rules), "no {rules} position");
    }
}

#[test]
fn finds_the_short_mates() {
    run_suite(|e| e.mate <= 2, Go::Mate, Duration::from_secs(20));
}

#[test]
fn finds_the_short_mates_at_small_depth() {
    run_suite(|e| e.mate <= 2, Go::Depth, Duration::from_secs(20));
}

/// `cargo test --release -p tandem-tests --test mate_suite -- --ignored --nocapture`
#[test]
#[ignore = "the whole suite, mate in up to 5: 20-60 s in release on 2 cores"]
fn finds_every_mate() {
    let seconds = std::env::var("MATE_SUITE_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(60);
    run_suite(|_| true, Go::Mate, Duration::from_secs(seconds));
}

