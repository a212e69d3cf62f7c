//! Shared helpers: run `tandem match` in-process with the fake engines.

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use clap::Parser;
use tandem_arena::cli::{plan, Plan};
use tandem_arena::runner::run_plan_with;
use tandem_arena::MatchArgs;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: MatchArgs,
}

pub const FAKE: &str = env!("CARGO_BIN_EXE_fake-engine");

/// `--engine name=NAME cmd=<fake-engine> arg=…` for each extra word.
pub fn fake(name: &str, fake_args: &[&str]) -> Vec<String> {
    let mut words = vec!["--engine".to_string(), format!("name={name}"), format!("cmd={FAKE}")];
    if fake_args.contains(&"--proto=xboard") {
        words.push("proto=xboard".to_string());
    }
    words.extend(fake_args.iter().map(|a| format!("arg={a}")));
    words
}

/// Parses a command line (without the program name) into a plan.
pub fn parse(words: &[String]) -> Result<Plan, String> {
    let mut argv = vec!["tandem-match".to_string()];
    argv.extend(words.iter().cloned());
    let cli = Cli::try_parse_from(argv).map_err(|e| e.to_string())?;
    plan(&cli.args)
}

/// Runs the command line to its end and returns what it printed.
pub fn run(words: &[String]) -> String {
    run_with_stop(words, Arc::new(AtomicBool::new(false)))
}

pub fn run_with_stop(words: &[String], stop: Arc<AtomicBool>) -> String {
    let plan = parse(words).unwrap_or_else(|e| panic!("{e}"));
    let mut out = Vec::new();
    run_plan_with(&plan, &stop, &mut out).unwrap_or_else(|e| panic!("{e}"));
    String::from_utf8(out).expect("the runner prints UTF-8")
}

pub fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// A fresh path in the system's temporary directory.
pub fn temp_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tandem-arena-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// The `Engine faults:` line of a summary.
pub fn faults_line(output: &str) -> &str {
    output.lines().find(|l| l.starts_with("Engine faults:")).unwrap_or_else(|| panic!("no fault line in:\n{output}"))
}

pub fn score_line(output: &str) -> &str {
    output.lines().find(|l| l.starts_with("Score of")).unwrap_or_else(|| panic!("no score line in:\n{output}"))
}
