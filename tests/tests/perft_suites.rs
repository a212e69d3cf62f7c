//! Perft counts of `tests/data/*.perft` (oracle counts from fairy-stockfish and
//! shakmaty, committed so no peer is needed).
//!
//! The default run checks every entry up to the deepest depth whose count is at
//! most `TANDEM_PERFT_LIMIT` leaves (default 20 million); the ignored test checks
//! every depth: `cargo test --release -p tandem-tests --test perft_suites -- --ignored`.
//! Entries whose rules-spec ends in `,chess960` are read in Chess960 mode.

use std::path::Path;

use tandem_engine::{parse_fen_with, perft, Rules};
use tandem_tests::perft_data::{data_files, read_perft_file};

fn check_suites(limit: u64, mut wanted: impl FnMut(&Path) -> bool) {
    let mut checked = 0;
    for file in data_files().into_iter().filter(|f| wanted(f)) {
        for entry in read_perft_file(&file) {
            let (spec, chess960) = entry.rules_and_mode();
            let rules: Rules = spec.parse().unwrap_or_else(|e| panic!("{}:{}: {e}", file.display(), entry.line));
            let pos = parse_fen_with(&entry.fen, rules, chess960)
                .unwrap_or_else(|e| panic!("{}:{}: {e}", file.display(), entry.line));
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
    check_suites(limit, |_| true);
}

/// The Chess960 suite alone, up to 300 000 leaves an entry (fairy-stockfish counts with UCI_Chess960).
#[test]
fn chess960_castling_matches_fairy_stockfish() {
    let mut entries = 0;
    check_suites(300_000, |file| {
        let chess960 = file.file_name().is_some_and(|n| n == "chess960.perft");
        entries += usize::from(chess960);
        chess960
    });
    assert_eq!(entries, 1, "tests/data/chess960.perft is missing");
}

#[test]
#[ignore = "walks billions of nodes: run with --ignored in release"]
fn perft_suites_in_full() {
    check_suites(u64::MAX, |_| true);
}
