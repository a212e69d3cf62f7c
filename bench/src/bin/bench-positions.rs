//! `bench-positions`: prints the shared positions of `tandem_bench::POSITIONS`
//! for scripts (`compare-perft`), one per line, tab-separated:
//!
//! ```text
//! name  rules  fsf-variant  shakmaty-variant|-  compare-depth|-  leaves-at-compare-depth|-  fen
//! ```
//!
//! With `--compare` only the positions `compare-perft` walks are printed.

fn main() {
    let only_compare = std::env::args().skip(1).any(|a| a == "--compare");
    for p in tandem_bench::POSITIONS {
        if only_compare && p.compare_depth.is_none() {
            continue;
        }
        let depth = p.compare_depth.map_or("-".to_string(), |d| d.to_string());
        let leaves = p
            .compare_depth
            .map_or("-".to_string(), |d| p.leaves(d).to_string());
        println!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}",
            p.name,
            p.rules,
            p.fsf_variant(),
            p.shakmaty_variant().unwrap_or("-"),
            depth,
            leaves,
            p.fen
        );
    }
}
