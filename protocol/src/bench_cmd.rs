//! `tandem bench [depth] [--network FILE|embedded|classical]`: the node-count signature and a speed figure.

use clap::Args;
use tandem_engine::bench::{run_bench, DEFAULT_DEPTH};
use tandem_engine::nnue::Networks;
use tandem_protocol::engine_settings::read_network;

#[derive(Args)]
pub struct BenchArgs {
    /// Search depth for every bench position.
    #[arg(default_value_t = DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// Search threads: 1 gives the signature; more measure time to depth.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// How the drop-chess positions are evaluated: the built-in networks
    /// (`embedded`, the default, as `Use NNUE` is), a network file, or
    /// `classical` (each gives its own signature).
    #[arg(long, value_name = "FILE")]
    network: Option<String>,
}

pub fn run(args: &BenchArgs) -> Result<(), String> {
    let network = match args.network.as_deref() {
        None | Some("embedded") => Some(Networks::BuiltIn),
        Some("classical") => None,
        Some(path) => Some(read_network(path, "--network")?.map_or(Networks::BuiltIn, Networks::Only)),
    };
    let report = run_bench(args.depth, args.threads as usize, network);
    eprintln!("time {:.3} s", report.elapsed.as_secs_f64());
    println!("bench {} nodes {} nps", report.nodes, report.nps());
    Ok(())
}
