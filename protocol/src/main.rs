//! `tandem`: the command-line front end of the engine. Without a subcommand it
//! speaks UCI or CECP on stdin/stdout (see PROTOCOL.md).

mod bench_cmd;
mod perft_cmd;
mod rules_cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "tandem",
    version,
    about = "A chess engine for the bughouse family",
    long_about = "A chess engine for the bughouse family.\n\nWithout a subcommand, `tandem` is the engine: \
it speaks UCI (with a bughouse extension) or xboard/CECP on standard input and output, whichever \
the GUI starts with (`uci` or `xboard`). See PROTOCOL.md."
)]
struct Cli {
    /// Without a subcommand: the UCI/xboard engine on stdin/stdout.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree of one board.
    Perft(perft_cmd::PerftArgs),
    /// List the rule presets, the options and their values (or describe one spec).
    Rules(rules_cmd::RulesArgs),
    /// Search fixed positions to a fixed depth: prints `bench <nodes> nodes <nps> nps`.
    Bench(bench_cmd::BenchArgs),
    /// Play bughouse matches between engines: 2v2 on real clocks, BPGN records, rating statistics.
    Match(tandem_arena::MatchArgs),
    /// Analyse a recorded game: every position of both boards, the best move, the move played and what it lost.
    Analyse(tandem_arena::AnalyseArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => return tandem_protocol::run(std::io::stdin(), tandem_protocol::Output::stdout()),
        Some(Command::Perft(args)) => perft_cmd::run(&args),
        Some(Command::Rules(args)) => rules_cmd::run(&args),
        Some(Command::Bench(args)) => bench_cmd::run(&args),
        Some(Command::Match(args)) => tandem_arena::run(&args),
        Some(Command::Analyse(args)) => tandem_arena::analyse::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("tandem: error: {message}");
            ExitCode::FAILURE
        }
    }
}
