//! `tandem-tune POSITIONS`: fits the evaluation weights to labelled positions
//! and prints them as the Rust value of `EvalParams::DROP_CHESS`.

use std::process::ExitCode;

use clap::Parser;
use tandem_engine::search::EvalParams;
use tandem_engine::Rules;
use tandem_tune::{fit_scale, local_search, mean_error, parse_samples, psqt_roughness};

#[derive(Parser)]
#[command(about = "Texel-style tuning of tandem's evaluation (see tune/README.md)")]
struct Cli {
    /// `FEN;score` lines, e.g. from tune/gen_positions.py (crazyhouse rules).
    positions: std::path::PathBuf,
    /// Passes of the local search over all weights.
    #[arg(long, default_value_t = 30)]
    passes: usize,
    /// Every Nth position is held out to check the fit on unseen positions.
    #[arg(long, default_value_t = 10)]
    holdout_every: usize,
    /// Hold out blocks of this many consecutive positions instead of single
    /// ones (every Nth block). The generators write a game's positions one
    /// after another, and positions of one game are alike: a block of about
    /// two games keeps the held-out games unseen, so the check catches
    /// over-fitting that single held-out positions would hide.
    #[arg(long, default_value_t = 1)]
    holdout_block: usize,
    /// Write the best weights so far to this file after every pass (a Rust
    /// value for `EvalParams::DROP_CHESS`), so a long run can be stopped at any time.
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    /// Tune only the weights whose names start with one of these
    /// (comma-separated, e.g. `hand,king_danger`); the rest stay as they are.
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Weight of the piece-square tables' roughness (mean squared difference
    /// in pawns between neighbouring squares) added to the error; 0 for none.
    #[arg(long, default_value_t = 0.0)]
    smooth: f64,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let text = match std::fs::read_to_string(&cli.positions) {
        Ok(text) => text,
        Err(e) => return fail(&format!("cannot read {}: {e}", cli.positions.display())),
    };
    let samples = match parse_samples(&text, Rules::crazyhouse()) {
        Ok(samples) if !samples.is_empty() => samples,
        Ok(_) => return fail("no positions"),
        Err(e) => return fail(&format!("{}: {e}", cli.positions.display())),
    };
    let (every, block) = (cli.holdout_every.max(2), cli.holdout_block.max(1));
    let (holdout, training): (Vec<_>, Vec<_>) = samples.into_iter().enumerate().partition(|(i, _)| (i / block) % every == 0);
    let holdout: Vec<_> = holdout.into_iter().map(|(_, s)| s).collect();
    let training: Vec<_> = training.into_iter().map(|(_, s)| s).collect();

    let start = EvalParams::DROP_CHESS;
    let scale = fit_scale(&training, &start);
    println!("{} training and {} held-out positions; scale {scale:.4}", training.len(), holdout.len());
    println!(
        "start: error {:.6}, held out {:.6}, roughness {:.4}",
        mean_error(&training, &start, scale),
        mean_error(&holdout, &start, scale),
        psqt_roughness(&start)
    );
    let tunable = |name: &str| cli.only.is_empty() || cli.only.iter().any(|prefix| name.starts_with(prefix.as_str()));
    let tuned = local_search(&training, start, cli.passes, cli.smooth, tunable, |pass, params| {
        let held = mean_error(&holdout, params, pass.scale);
        println!(
            "pass {}: error {:.6}, held out {held:.6}, roughness {:.4}, scale {:.4}, {} weights moved",
            pass.number, pass.error, pass.roughness, pass.scale, pass.changed
        );
        if let Some(path) = &cli.out {
            if let Err(e) = std::fs::write(path, format!("{params:?}\n")) {
                eprintln!("tandem-tune: cannot write {}: {e}", path.display());
            }
        }
    });
    let (mut before, mut after) = (start, tuned);
    for ((name, old), (_, new)) in before.named_weights_mut().into_iter().zip(after.named_weights_mut()) {
        if old != new {
            println!("{name}: {old} -> {new}");
        }
    }
    println!("{tuned:?}");
    ExitCode::SUCCESS
}

fn fail(message: &str) -> ExitCode {
    eprintln!("tandem-tune: {message}");
    ExitCode::FAILURE
}
