//! `tandem perft`: leaf counts for one board, with an optional per-move split.

use std::io::Write;
use std::time::Instant;

use clap::Args;
use tandem_engine::{divide, parse_fen_with, perft, BoardId, Game, Position, Promotion, Rules, STARTPOS};

#[derive(Args)]
pub struct PerftArgs {
    /// Number of plies to walk.
    depth: u32,
    /// The board to walk, as FEN with reserve, or `startpos` (the default).
    #[arg(long, conflicts_with = "bfen")]
    fen: Option<String>,
    /// Two boards as `fenA | fenB`; `--board` picks the one to walk.
    #[arg(long)]
    bfen: Option<String>,
    /// Board of the BFEN to walk.
    #[arg(long, default_value = "A", requires = "bfen")]
    board: BoardId,
    /// Rules: a preset optionally followed by overrides, e.g.
    /// `tandemschach,drop_checks=no-mate,pawn_drops=ranks-2-7`.
    #[arg(long, default_value = "bughouse")]
    rules: Rules,
    /// Print the leaf count below each root move.
    #[arg(long)]
    divide: bool,
    /// Chess960 castling: Shredder-FEN or X-FEN rights, the king and rooks on any
    /// files, castling written king-takes-rook (`e1h1`) in the `--divide` split.
    #[arg(long)]
    chess960: bool,
}

/// Deeper walks take longer than anyone waits; refuse them up front.
const MAX_DEPTH: u32 = 12;

pub fn run(args: &PerftArgs) -> Result<(), String> {
    if args.depth > MAX_DEPTH {
        return Err(format!("depth {} is above the maximum of {MAX_DEPTH}", args.depth));
    }
    let position = root_position(args)?;
    let start = Instant::now();
    let mut out = std::io::stdout().lock();
    let nodes = if args.divide {
        let mut total = 0;
        for (m, count) in divide(&position, args.depth) {
            writeln!(out, "{m}: {count}").map_err(|e| e.to_string())?;
            total += count;
        }
        total
    } else {
        perft(&position, args.depth)
    };
    writeln!(out, "nodes {nodes}").map_err(|e| e.to_string())?;
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.0} leaves/s",
        seconds,
        nodes as f64 / seconds.max(1e-9)
    );
    Ok(())
}

/// The board to walk. Of two boards it is taken from the game, so it knows
/// the other board (`promotion=steal` takes its pieces from there).
fn root_position(args: &PerftArgs) -> Result<Position, String> {
    if let Some(bfen) = &args.bfen {
        let game = Game::from_bfen_with(bfen, args.rules, args.chess960).map_err(|e| e.to_string())?;
        return Ok(game.board(args.board).clone());
    }
    if args.rules.promotion == Promotion::Steal {
        eprintln!("note: promotion=steal takes from the other board; with --fen there is none, so no pawn promotes (use --bfen)");
    }
    let fen = match args.fen.as_deref() {
        None | Some("startpos") => STARTPOS,
        Some(fen) => fen,
    };
    parse_fen_with(fen, args.rules, args.chess960).map_err(|e| e.to_string())
}
