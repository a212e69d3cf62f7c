//! Perft counts of `tests/data/*.perft` (oracle counts from fairy-stockfish and
//! shakmaty, committed so no peer is needed).
//!
//! The default run checks every entry up to the deepest depth whose count is at
//! most `TANDEM_PERFT_LIMIT` leaves (default 20 million); the ignored test checks
//! every depth: `cargo test --release -p tandem-tests --test perft_suites -- --ignored`.

use tandem_engine::{parse_fen, perft, Rules};
use tandem_tests::perft_data::{data_files, read_perft_file};

fn check_suites(limit: u64) {
    let mut checked = 0;
    for file in data_files() {
        for entry in read_perft_file(&file) {
            let rules: Rules = entry.rules.parse().unwrap_or_else(|e| panic!("{}:{}: {e}", file.display(), entry.line));
            let pos = parse_fen(&entry.fen, rules).unwrap_or_else(|e| panic!("{}:{}: {e}", file.display(), entry.line));
            for (depth, &expected) in entry.counts.iter().enumerate() {
                if expected > limit {
                    break;
                }
                let depth = depth as u32 + 1;
                assert_eq!(
                    perft(&pos, depth),
                    expected,
                    "{}:{}: perft {depth} of {} under {}",
                    file.display(),
                    entry.line,
                    entry.fen,
                    entry.rules
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "no perft data found");
}

#[test]
fn perft_suites_to_the_default_limit() {
    let limit = std::env::var("TANDEM_PERFT_LIMIT").ok().and_then(|v| v.parse().ok()).unwrap_or(20_000_000);
    check_suites(limit);
}

#[test]
#[ignore = "walks billions of nodes: run with --ignored in release"]
fn perft_suites_in_full() {
    check_suites(u64::MAX);
}
