//! `tandem-nnue gen` writes labelled positions from self-play games;
//! `tandem-nnue train` fits a network to them. tune/NNUE.md has the loop.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use clap::{Parser, Subcommand};
use tandem_engine::nnue::{self, Network, Networks};
use tandem_engine::search::Engine;
use tandem_engine::Rules;
use tandem_tune::nnue::data::{read_records, Record};
use tandem_tune::nnue::gen::{play_game, Dedup, GenConfig};
use tandem_tune::nnue::train::{train, FloatNet, TrainConfig};

#[derive(Parser)]
#[command(about = "Positions and training for tandem's network (see tune/NNUE.md)")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play self-play games and append their quiet positions, labelled, to a file.
    Gen {
        /// The file to append to (created if missing).
        #[arg(long)]
        out: PathBuf,
        /// Rules of the games, e.g. crazyhouse or bughouse.
        #[arg(long, default_value = "crazyhouse")]
        rules: String,
        /// Search (and label) each position by these rules instead, e.g.
        /// bughouse games searched as crazyhouse so that the labels see
        /// captured pieces arrive in a hand.
        #[arg(long)]
        search_rules: Option<String>,
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// Nodes searched for each move.
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        /// Random moves after the opening line.
        #[arg(long, default_value_t = 8)]
        random_moves: usize,
        /// Openings, read as `tandem match --openings` reads them (FEN, EPD or BFEN lines; BPGN/PGN games).
        #[arg(long, default_value = "arena/openings/drop-chess.epd")]
        openings: PathBuf,
        /// Games played at the same time (one search thread each).
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Seed of the games (game i plays with seed × 1,000,000 + i): a
        /// resumed run takes a new seed.
        #[arg(long)]
        seed: u64,
        /// Search with this network instead of the classical evaluation
        /// (the loop's next generation): a file, or `embedded` for the
        /// built-in network of the rules each position is searched under.
        #[arg(long)]
        network: Option<String>,
    },
    /// Fit a network to position files and write it in the engine's format.
    Train {
        files: Vec<PathBuf>,
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 20)]
        epochs: usize,
        #[arg(long, default_value_t = 4096)]
        batch: usize,
        /// The first step's rate; it decays along a half cosine to 5 % of it.
        #[arg(long, default_value_t = 0.001)]
        learning_rate: f32,
        /// Share of the search score in the target; the rest is the game result.
        #[arg(long, default_value_t = 1.0)]
        lambda: f32,
        /// Also train on every position mirrored left to right (the network sees no castling rights).
        #[arg(long)]
        mirror: bool,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Start from this network (a file, `embedded` for the built-in
        /// one-board net, `embedded-two-board`) instead of random weights:
        /// the loop's next generation fine-tunes the last net.
        #[arg(long)]
        init: Option<String>,
    },
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Gen { out, rules, search_rules, games, nodes, random_moves, openings, threads, seed, network } => {
            let config = GenRun { games, nodes, random_moves, threads, seed, search_rules };
            search_networks(network.as_deref()).and_then(|network| gen(&out, &rules, &openings, &config, network))
        }
        Command::Train { files, out, epochs, batch, learning_rate, lambda, mirror, seed, init } => {
            let config = TrainConfig { epochs, batch, learning_rate, lambda, mirror, seed };
            initial_network(init.as_deref()).and_then(|start| {
                let initial = start.map_or_else(|| FloatNet::random(seed), |net| FloatNet::from_network(&net));
                train_files(&files, &out, &config, initial)
            })
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("tandem-nnue: {message}");
            ExitCode::FAILURE
        }
    }
}

/// How many games a `gen` run plays, and how.
#[derive(Clone)]
struct GenRun {
    games: u64,
    nodes: u64,
    random_moves: usize,
    threads: usize,
    seed: u64,
    search_rules: Option<String>,
}

/// The networks `gen --network` names: `embedded` or a file.
fn search_networks(name: Option<&str>) -> Result<Option<Networks>, String> {
    match name {
        None => Ok(None),
        Some("embedded") => Ok(Some(Networks::BuiltIn)),
        Some(path) => read_network("--network", path).map(|n| Some(Networks::Only(n))),
    }
}

/// The network `train --init` names: a built-in one or a file.
fn initial_network(name: Option<&str>) -> Result<Option<Arc<Network>>, String> {
    match name {
        None => Ok(None),
        Some("embedded") => Ok(Some(nnue::embedded())),
        Some("embedded-two-board") => Ok(Some(nnue::embedded_two_board())),
        Some(path) => read_network("--init", path).map(Some),
    }
}

fn read_network(option: &str, path: &str) -> Result<Arc<Network>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {option} {path}: {e}"))?;
    Network::from_bytes(&bytes).map(Arc::new).map_err(|e| format!("{option} {path} refused: {e}"))
}

fn gen(out: &Path, rules: &str, openings: &Path, run: &GenRun, network: Option<Networks>) -> Result<(), String> {
    let GenRun { games, nodes, random_moves, threads, seed, ref search_rules } = *run;
    let rules: Rules = rules.parse().map_err(|e| format!("--rules: {e}"))?;
    let search_rules: Option<Rules> =
        search_rules.as_deref().map(|r| r.parse().map_err(|e| format!("--search-rules: {e}"))).transpose()?;
    let lines: Vec<String> = tandem_arena::openings::load(openings, rules, None)?.into_iter().map(|o| o.position).collect();
    if lines.is_empty() {
        return Err(format!("{}: no openings", openings.display()));
    }
    let file = OpenOptions::new().create(true).append(true).open(out).map_err(|e| format!("cannot open {}: {e}", out.display()))?;
    let config = GenConfig { rules, search_rules, nodes, random_moves };
    let progress =
        Mutex::new(Progress { writer: BufWriter::new(file), dedup: Dedup::default(), games: 0, positions: 0, error: None });
    let start = Instant::now();
    let next_game = AtomicU64::new(0);
    // Plain threads, not rayon's pool: a rayon worker waiting for the
    // engine's own pool would start another game on its stack meanwhile.
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let engine = Engine::new();
                let _ = engine.set_hash_mb(16);
                engine.set_network(network.clone());
                loop {
                    let index = next_game.fetch_add(1, Ordering::Relaxed);
                    if index >= games {
                        break;
                    }
                    let game_seed = seed.wrapping_mul(1_000_000).wrapping_add(index);
                    let opening = &lines[(game_seed % lines.len() as u64) as usize];
                    let records = play_game(&engine, &config, opening, game_seed);
                    let Ok(mut p) = progress.lock() else { return };
                    p.save(records, out);
                    if p.games.is_multiple_of(10) || p.games == games {
                        p.report(games, start);
                    }
                }
            });
        }
    });
    let p = progress.into_inner().map_err(|_| "a generator thread failed".to_string())?;
    p.error.map_or(Ok(()), Err)
}

struct Progress {
    writer: BufWriter<File>,
    dedup: Dedup,
    games: u64,
    positions: u64,
    error: Option<String>,
}

impl Progress {
    /// Appends a game's positions not seen before.
    fn save(&mut self, records: Vec<Record>, out: &Path) {
        let mut fresh = 0;
        for record in records.iter().filter(|r| self.dedup.first_time(r)) {
            if let Err(e) = record.write(&mut self.writer) {
                self.error.get_or_insert(format!("cannot write {}: {e}", out.display()));
            }
            fresh += 1;
        }
        if let Err(e) = self.writer.flush() {
            self.error.get_or_insert(format!("cannot write {}: {e}", out.display()));
        }
        self.games += 1;
        self.positions += fresh;
    }

    fn report(&self, games: u64, start: Instant) {
        let seconds = start.elapsed().as_secs_f64().max(1e-9);
        let eta = seconds / self.games as f64 * (games - self.games) as f64;
        let rate = self.positions as f64 / seconds;
        println!("{} of {games} games, {} positions, {rate:.0} positions/s, ETA {eta:.0} s", self.games, self.positions);
    }
}

fn train_files(files: &[PathBuf], out: &Path, config: &TrainConfig, initial: FloatNet) -> Result<(), String> {
    let mut records = Vec::new();
    for file in files {
        let bytes = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        records.extend(read_records(&bytes).map_err(|e| format!("{}: {e}", file.display()))?);
    }
    if records.len() < 100 {
        return Err(format!("{} positions: too few to train on", records.len()));
    }
    println!("{} positions", records.len());
    let start = Instant::now();
    let best = train(&records, config, initial, |epoch, loss, held, _| match loss {
        None => println!("start: held out {held:.6}"),
        Some(loss) => println!("epoch {epoch}: loss {loss:.6}, held out {held:.6}, {:.0} s", start.elapsed().as_secs_f64()),
    });
    std::fs::write(out, best.quantise().to_bytes()).map_err(|e| format!("cannot write {}: {e}", out.display()))
}
