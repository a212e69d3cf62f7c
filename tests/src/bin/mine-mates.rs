//! Finds forced mates in game records (or a list of positions) and writes them
//! in the mate suite's format (`tandem_tests::mates`), each length proven by
//! the exhaustive prover: a mate in N found after "no mate in N - 1" proven.
//!
//! ```text
//! cargo run --release -p tandem-tests --bin mine-mates -- GAMES.bpgn … > found.epd
//! cargo run --release -p tandem-tests --bin mine-mates -- --positions OLD.epd > found.epd
//! ```
//!
//! Every position before a move of a record is tried for the side to move, under
//! each rules family the record's kind allows: a bughouse record's boards under
//! `bughouse` (potential mate), `bughouse,mate=standard` and `tandem` (no
//! checking drops), a crazyhouse record's under `crazyhouse`. Every position is
//! proven for mates within `--max` moves (`--budget` nodes); where there is none,
//! a short alpha-beta search scouts for a longer one, and a mate it reports is
//! proven, shortest first, up to `--slow-max` moves in `--slow-budget` nodes.
//! A proof stopped by its budget yields nothing. Progress goes to stderr.

use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Instant;

use clap::Parser;
use tandem_arena::bpgn::{read_records, record_rules, replay_with};
use tandem_engine::search::{Control, Engine, Limits, MateProof, MateProver, Score};
use tandem_engine::{parse_fen, to_fen, BoardId, Rules, Status};
use tandem_tests::mates::{data_lines, parse_suite, tags_of, MateEntry};

#[derive(Parser)]
#[command(about = "Find proven forced mates in game records for the mate suite")]
struct Args {
    /// BPGN or PGN records (bughouse or crazyhouse).
    files: Vec<PathBuf>,
    /// A file of positions instead (`rules ; FEN ; …` per line, further fields ignored).
    #[arg(long)]
    positions: Option<PathBuf>,
    /// Instead of proving: read FILES as this tool's output and keep at most this
    /// many positions per rules family and length (see `select`).
    #[arg(long, value_name = "PER_GROUP")]
    select: Option<usize>,
    /// With `--select`: a file of this tool's output kept whole, ahead of the selection (repeatable).
    #[arg(long)]
    keep: Vec<PathBuf>,
    /// Every position is proven for mates within this many moves.
    #[arg(long, default_value_t = 2)]
    max: u32,
    /// Prover nodes per position for `--max`.
    #[arg(long, default_value_t = 100_000)]
    budget: u64,
    /// Longest mate proven where a short alpha-beta search reports one.
    #[arg(long, default_value_t = 5)]
    slow_max: u32,
    /// Prover nodes per position for `--slow-max`.
    #[arg(long, default_value_t = 4_000_000)]
    slow_budget: u64,
    /// A rules family tried on the boards of two-board records (repeatable).
    #[arg(long = "two-board-family", default_values_t = ["bughouse".to_string(), "bughouse,mate=standard".to_string(), "tandem".to_string()])]
    two_board_families: Vec<String>,
}

/// One position to prove: rules spec, FEN, where it comes from.
struct Candidate {
    rules: String,
    fen: String,
    source: String,
}

fn main() {
    let args = Args::parse();
    if let Some(per_group) = args.select {
        if let Err(e) = select(&args.keep, &args.files, per_group) {
            eprintln!("mine-mates: {e}");
            std::process::exit(1);
        }
        return;
    }
    let candidates = match &args.positions {
        Some(path) => from_positions(path),
        None => from_records(&args),
    }
    .unwrap_or_else(|e| {
        eprintln!("mine-mates: {e}");
        std::process::exit(1);
    });
    let start = Instant::now();
    let engine = Engine::new();
    let mut seen = HashSet::new();
    let mut found = 0;
    for (i, c) in candidates.iter().enumerate() {
        if i % 200 == 0 {
            eprintln!("{i}/{} positions, {found} mates, {:.0} s", candidates.len(), start.elapsed().as_secs_f64());
        }
        let key = format!("{} {}", c.rules, c.fen.split_whitespace().take(4).collect::<Vec<_>>().join(" "));
        if !seen.insert(key) {
            continue;
        }
        if let Some(entry) = prove(&engine, c, (args.max, args.budget), (args.slow_max, args.slow_budget)) {
            found += 1;
            print_entry(&c.source, &entry);
        }
    }
    eprintln!("{} positions, {found} mates, {:.0} s", candidates.len(), start.elapsed().as_secs_f64());
}

/// Nodes of the alpha-beta search that looks for longer mates to prove.
const SCOUT_NODES: u64 = 20_000;

/// The shortest mate of `c`, if proven: every position is proven for mates
/// within `quick.0` moves (cheap); a longer mate is proven, within `slow`
/// (moves, nodes), only where a short alpha-beta search reports one.
fn prove(engine: &Engine, c: &Candidate, quick: (u32, u64), slow: (u32, u64)) -> Option<MateEntry> {
    let rules: Rules = c.rules.parse().ok()?;
    let pos = parse_fen(&c.fen, rules).ok()?;
    if pos.status() != Status::Ongoing {
        return None;
    }
    let control = Control::new();
    let mut prover = MateProver::new(&control, None, Some(quick.1));
    let (line, n) = match prover.shortest(&pos, quick.0, &[]) {
        (MateProof::Mate(line), n) => (line, n),
        (MateProof::Stopped, _) => return None,
        (MateProof::NoMate, _) => {
            let limits = Limits { nodes: Some(SCOUT_NODES), multipv: 1, ..Limits::default() };
            let scout = engine.search(&pos, &[], &limits, &control, &mut |_| {});
            let Some(Score::Mate(k)) = scout.score else {
                return None;
            };
            if k <= 0 || k as u32 > slow.0 {
                return None;
            }
            let mut prover = MateProver::new(&control, None, Some(slow.1));
            match prover.shortest(&pos, k as u32, &[]) {
                (MateProof::Mate(line), n) => (line, n),
                _ => return None,
            }
        }
    };
    Some(MateEntry {
        line: 0,
        rules: c.rules.clone(),
        fen: c.fen.clone(),
        mate: n,
        first: line[0].to_string(),
        tags: tags_of(&pos, &line).into_iter().map(str::to_string).collect(),
        main_line: line.iter().map(|m| m.to_string()).collect(),
    })
}

fn from_positions(path: &PathBuf) -> Result<Vec<Candidate>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    data_lines(&text)
        .map(|(line, fields)| match fields[..] {
            [rules, fen, ..] => {
                let source = format!("source: {} line {line}", path.display());
                Ok(Candidate { rules: rules.to_string(), fen: fen.to_string(), source })
            }
            _ => Err(format!("{}:{line}: expected `rules ; FEN …`", path.display())),
        })
        .collect()
}

fn from_records(args: &Args) -> Result<Vec<Candidate>, String> {
    let mut out = Vec::new();
    for path in &args.files {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let records = read_records(&text).map_err(|e| format!("{}: {e:?}", path.display()))?;
        for (g, record) in records.iter().enumerate() {
            let rules = record_rules(record, Rules::default());
            let families: Vec<String> = if record.two_board {
                args.two_board_families.clone()
            } else if rules.has_drops() {
                vec!["crazyhouse".to_string()]
            } else {
                continue;
            };
            let mut positions: Vec<(BoardId, String)> = Vec::new();
            let replayed = replay_with(record, rules, |game, board, _| positions.push((board, to_fen(game.board(board)))));
            if let Err(e) = replayed {
                eprintln!("{} game {}: skipped: {e}", path.display(), g + 1);
                continue;
            }
            for (k, (board, fen)) in positions.iter().enumerate() {
                for family in &families {
                    let source = format!("source: {} game {} board {board:?} ply {}", path.display(), g + 1, k + 1);
                    out.push(Candidate { rules: family.clone(), fen: fen.clone(), source });
                }
            }
        }
    }
    Ok(out)
}

/// Tags that make a mate worth more to the suite than a plain series of checks.
const RARE_TAGS: [&str; 4] = ["quiet-first", "king-move", "quiet-drop", "promotion"];

/// Writes the entries of `keep` whole, then a balanced selection of the mined
/// positions in `files`: for each rules family and length, up to `per_group`
/// positions, those with more rare tags first (then in file order), and at most
/// one per game board, so that one mating attack is not the group three times
/// over. Each keeps its `# source` comment.
fn select(keep: &[PathBuf], files: &[PathBuf], per_group: usize) -> Result<(), String> {
    let mut seen = HashSet::new();
    for (source, entry) in read_mined(keep, &mut seen)? {
        print_entry(&source, &entry);
    }
    let found = read_mined(files, &mut seen)?;
    let rarity = |e: &MateEntry| e.tags.iter().filter(|t| RARE_TAGS.contains(&t.as_str())).count();
    // "source: FILE game G board B ply P" → "FILE game G board B".
    let game_board = |source: &str| source.split(" ply ").next().unwrap_or(source).to_string();
    let mut groups: Vec<(String, u32)> = found.iter().map(|(_, e)| (e.rules.clone(), e.mate)).collect();
    groups.sort();
    groups.dedup();
    for (rules, mate) in groups {
        let mut group: Vec<&(String, MateEntry)> = found.iter().filter(|(_, e)| e.rules == rules && e.mate == mate).collect();
        group.sort_by_key(|(_, e)| std::cmp::Reverse(rarity(e)));
        let mut boards = HashSet::new();
        for (source, entry) in group.into_iter().filter(|(s, _)| boards.insert(game_board(s))).take(per_group) {
            print_entry(source, entry);
        }
    }
    Ok(())
}

/// One position as this tool writes it: its `# source` comment, then the suite line.
fn print_entry(source: &str, entry: &MateEntry) {
    println!("# {source}");
    println!("{}", entry.to_line());
}

/// The entries of this tool's output files with their sources, skipping
/// positions already `seen` (rules and FEN).
fn read_mined(files: &[PathBuf], seen: &mut HashSet<(String, String)>) -> Result<Vec<(String, MateEntry)>, String> {
    let mut found = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let entries = parse_suite(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let lines: Vec<&str> = text.lines().collect();
        for entry in entries {
            let source = lines[..entry.line - 1].iter().rev().find_map(|l| l.strip_prefix("# ")).unwrap_or("").to_string();
            if seen.insert((entry.rules.clone(), entry.fen.clone())) {
                found.push((source, entry));
            }
        }
    }
    Ok(found)
}
