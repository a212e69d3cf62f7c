//! Rating runs past one machine (docs/rating-runs.md): shards under GNU
//! parallel merged into one verdict, a killed shard resumed, and matches at
//! once giving the records of matches one at a time. The engines are tandem
//! itself at a fast crazyhouse clock (about two seconds a match).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const TANDEM: &str = env!("CARGO_BIN_EXE_tandem");

fn openings() -> String {
    format!("{}/../arena/openings/drop-chess.epd", env!("CARGO_MANIFEST_DIR"))
}

/// The run the tests share: `games` matches (openings with seats swapped), seed 5.
fn run_args(games: usize, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> =
        ["match", "--rules", "crazyhouse", "--tc", "1+0.01", "--repeat", "--seed", "5"].iter().map(|s| s.to_string()).collect();
    args.extend(["--games".to_string(), games.to_string()]);
    args.extend(["--openings".to_string(), openings()]);
    for name in ["alpha", "beta"] {
        args.extend(["--engine".to_string(), format!("name={name}"), format!("cmd={TANDEM}")]);
    }
    args.extend(["--team1", "alpha", "--team2", "beta"].iter().map(|s| s.to_string()));
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn tandem(args: &[String]) -> Output {
    Command::new(TANDEM).args(args).output().expect("tandem runs")
}

/// Runs `args`, which must fail and say `expected`.
fn assert_refused(args: &[String], expected: &str) {
    let out = tandem(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains(expected), "{args:?}: {stderr}");
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tandem-runs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What the schedule fixes for each match: round, opening, seats (the result is the engines').
fn schedule_of(path: &Path) -> Vec<(u32, String, String, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut matches = Vec::new();
    for chunk in text.split("[Event ").skip(1) {
        let tag = |name: &str| {
            chunk
                .lines()
                .find_map(|l| l.strip_prefix(&format!("[{name} \""))?.strip_suffix("\"]").map(str::to_string))
                .unwrap_or_default()
        };
        matches.push((tag("Round").parse().unwrap(), tag("Opening"), tag("White"), tag("Black")));
    }
    matches.sort();
    matches
}

fn rounds(schedule: &[(u32, String, String, String)]) -> Vec<u32> {
    schedule.iter().map(|m| m.0).collect()
}

/// GNU parallel, or `None` to skip; with `TANDEM_REQUIRE_PEERS=1` (CI installs it) its absence fails.
fn gnu_parallel() -> Option<&'static str> {
    let found = Path::new("/usr/bin/parallel").exists();
    if !found && std::env::var("TANDEM_REQUIRE_PEERS").is_ok_and(|v| v == "1") {
        panic!("GNU parallel is required (TANDEM_REQUIRE_PEERS=1): apt-get install parallel");
    }
    found.then_some("/usr/bin/parallel")
}

#[test]
fn shards_under_gnu_parallel_merge_into_the_unsharded_schedule() {
    let Some(parallel) = gnu_parallel() else {
        eprintln!("skipped: no GNU parallel");
        return;
    };
    let dir = scratch("shards");
    // The whole run at once, as the reference schedule, with two matches at a time.
    let whole = dir.join("whole.bpgn");
    let out = tandem(&run_args(6, &["--concurrency", "2", "--bpgn", whole.to_str().unwrap()]));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let reference = schedule_of(&whole);
    assert_eq!(rounds(&reference), (1..=6).collect::<Vec<_>>());

    // Two shards at once under GNU parallel, each its own record.
    let mut command = Command::new(parallel);
    command.args(["--will-cite", "--halt", "now,fail=1", "-j", "2", TANDEM]).args(run_args(6, &[]));
    command.args(["--shard", "{}/2", "--bpgn"]).arg(dir.join("shard-{}.bpgn")).args([":::", "1", "2"]);
    let out = command.output().expect("parallel runs");
    assert!(out.status.success(), "{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let shards = [dir.join("shard-1.bpgn"), dir.join("shard-2.bpgn")];
    let mut merged: Vec<_> = shards.iter().flat_map(|s| schedule_of(s)).collect();
    merged.sort();
    assert_eq!(merged, reference, "the shards play exactly the unsharded schedule: every opening and seat once");
    let one = rounds(&schedule_of(&shards[0]));
    assert!(one.len() == 2 || one.len() == 4, "whole pairs per shard: {one:?}");

    let mut merge_args = vec!["match".to_string(), "--merge".to_string()];
    merge_args.extend(shards.iter().map(|s| s.display().to_string()));
    let out = tandem(&merge_args);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("Merged 6 matches of run ") && text.contains("0 of the run's 6 matches not in them"), "{text}");
    assert!(text.contains("Score of alpha vs beta: ") && text.contains("Ptnml(0-2)"), "{text}");
    // A shard twice is a match played twice; another run's file is refused.
    let mut twice = merge_args.clone();
    twice.push(shards[0].display().to_string());
    assert_refused(&twice, "played twice");
    let other = dir.join("other.bpgn");
    let out = tandem(&run_args(2, &["--bpgn", other.to_str().unwrap()]));
    assert!(out.status.success());
    let mixed = vec!["match".to_string(), "--merge".to_string(), shards[0].display().to_string(), other.display().to_string()];
    assert_refused(&mixed, "refusing to merge different runs");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_killed_shard_resumes_without_playing_a_match_twice() {
    let dir = scratch("resume");
    let record = dir.join("shard.bpgn");
    let args = run_args(6, &["--bpgn", record.to_str().unwrap()]);
    let mut child = Command::new(TANDEM).args(&args).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    // Killed once two matches are in the record.
    let start = Instant::now();
    while std::fs::read_to_string(&record).unwrap_or_default().matches("[Round ").count() < 2 {
        assert!(start.elapsed() < Duration::from_secs(60), "no record after a minute");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // A match cut off while it was written, as a kill can leave it.
    let cut = "[Event \"tandem match\"]\n[Site \"tandem arena\"]\n[Round \"6\"]\n\n1. e4{0.9";
    let mut text = std::fs::read_to_string(&record).unwrap();
    text.push_str(cut);
    std::fs::write(&record, &text).unwrap();

    let out = tandem(&[args.clone(), vec!["--resume".to_string()]].concat());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    // At least the first match was whole when it was killed (the second may have been cut too).
    let resumed: usize = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Resumed: ")?.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no 'Resumed:' line: {stdout}"));
    assert!((1..=5).contains(&resumed), "{stdout}");
    assert_eq!(stdout.matches("Match ").count(), 6 - resumed, "only the missing matches are played: {stdout}");
    assert!(stdout.contains("Matches: 6 finished"), "the summary covers the whole run: {stdout}");
    let after = rounds(&schedule_of(&record));
    assert_eq!(after, (1..=6).collect::<Vec<_>>(), "every match once, none twice");

    // A different command line on the same record is refused, not mixed in.
    assert_refused(&run_args(4, &["--bpgn", record.to_str().unwrap(), "--resume"]), "not this run");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cutechess_lines_and_json_lines_report_every_match() {
    let dir = scratch("lines");
    let jsonl = dir.join("matches.jsonl");
    let out = tandem(&run_args(2, &["--cutechess-output", "--jsonl", jsonl.to_str().unwrap()]));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    for n in 1..=2 {
        assert!(text.contains(&format!("Started game {n} of 2 (")), "{text}");
        assert!(text.contains(&format!("Finished game {n} (")), "{text}");
    }
    assert!(text.contains("Started game 2 of 2 (beta vs alpha)"), "seats swapped in the second match: {text}");
    let lines: Vec<String> = std::fs::read_to_string(&jsonl).unwrap().lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 2);
    for (i, line) in lines.iter().enumerate() {
        assert!(line.starts_with('{') && line.ends_with('}'), "{line}");
        assert!(line.contains(&format!("\"match\":{}", i + 1)) && line.contains("\"result\":\""), "{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shard_and_merge_refuse_bad_input() {
    assert_refused(&run_args(2, &["--shard", "3/2"]), "expected I/N");
    assert_refused(&run_args(2, &["--shard", "x"]), "expected I/N");
    assert_refused(&["match", "--shard", "1/2", "--games", "2"].map(String::from), "--shard needs --seed");
    assert_refused(&["match", "--resume"].map(String::from), "--bpgn");
    let game = format!("{}/../tests/data/games/fics-1934587.bpgn", env!("CARGO_MANIFEST_DIR"));
    assert_refused(&["match".to_string(), "--merge".to_string(), game], "no Run tag");
    assert_refused(&["match", "--merge", "/nonexistent.bpgn"].map(String::from), "cannot read");
}
