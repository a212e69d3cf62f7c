//! `shakmaty-perft`: shakmaty's own perft, built with this workspace's release
//! profile, so that `compare-perft` measures both generators under the same
//! compiler and flags.
//!
//! ```text
//! shakmaty-perft [--variant crazyhouse|chess] <DEPTH> <FEN>
//! ```
//!
//! Prints `nodes N` on stdout and `time S s, R leaves/s` on stderr, like
//! `tandem perft`. The clock covers the walk only, not parsing or start-up.
//! The default variant is crazyhouse (FEN with `[reserve]`).

use std::process::ExitCode;
use std::time::Instant;

use shakmaty::fen::Fen;
use shakmaty::variant::Crazyhouse;
use shakmaty::{CastlingMode, Chess};

fn usage() -> ExitCode {
    eprintln!("usage: shakmaty-perft [--variant crazyhouse|chess] <DEPTH> <FEN>");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut variant = "crazyhouse".to_string();
    if let Some(i) = args.iter().position(|a| a == "--variant") {
        if i + 1 >= args.len() {
            return usage();
        }
        variant = args.remove(i + 1);
        args.remove(i);
    }
    let [depth, fen] = match <[String; 2]>::try_from(args) {
        Ok(pair) => pair,
        Err(_) => return usage(),
    };
    let Ok(depth) = depth.parse::<u32>() else {
        return usage();
    };
    let setup = match fen.parse::<Fen>() {
        Ok(setup) => setup,
        Err(e) => {
            eprintln!("shakmaty-perft: bad FEN: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = match variant.as_str() {
        "crazyhouse" => setup
            .into_position::<Crazyhouse>(CastlingMode::Standard)
            .map_err(|e| e.to_string())
            .map(|pos| timed(|| shakmaty::perft(&pos, depth))),
        "chess" => setup
            .into_position::<Chess>(CastlingMode::Standard)
            .map_err(|e| e.to_string())
            .map(|pos| timed(|| shakmaty::perft(&pos, depth))),
        _ => return usage(),
    };
    match result {
        Ok((nodes, seconds)) => {
            println!("nodes {nodes}");
            eprintln!(
                "time {seconds:.3} s, {:.0} leaves/s",
                nodes as f64 / seconds.max(1e-9)
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("shakmaty-perft: position rejected: {e}");
            ExitCode::FAILURE
        }
    }
}

fn timed(walk: impl FnOnce() -> u64) -> (u64, f64) {
    let start = Instant::now();
    let nodes = walk();
    (nodes, start.elapsed().as_secs_f64())
}
