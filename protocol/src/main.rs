//! `tandem`: the command-line front end of the engine. Without a subcommand it
//! speaks UCI or CECP on stdin/stdout (see PROTOCOL.md).

mod bench_cmd;
mod perft_cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "tandem", version, about = "A chess engine for the bughouse family")]
struct Cli {
    /// Without a subcommand: read UCI or xboard commands on stdin.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree of one board.
    Perft(perft_cmd::PerftArgs),
    /// Search fixed positions to a fixed depth: prints `bench <nodes> nodes <nps> nps`.
    Bench(bench_cmd::BenchArgs),
    /// Play bughouse matches between engines: 2v2 on real clocks, BPGN records, rating statistics.
    Match(tandem_arena::MatchArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => return tandem_protocol::run(std::io::stdin(), tandem_protocol::Output::stdout()),
        Some(Command::Perft(args)) => perft_cmd::run(&args),
        Some(Command::Bench(args)) => bench_cmd::run(&args),
        Some(Command::Match(args)) => tandem_arena::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("tandem: error: {message}");
            ExitCode::FAILURE
        }
    }
}
