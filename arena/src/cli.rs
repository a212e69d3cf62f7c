//! `tandem match`: the command line, checked and turned into a [`Plan`].

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use tandem_engine::{Rules, STARTPOS};

use crate::clock::TimeControl;
use crate::engine_proc::{EngineConfig, Proto};
use crate::openings::{self, Opening, OpeningOrder};
use crate::stats::Sprt;

#[derive(Args, Clone, Debug, Default)]
#[command(about = "Play bughouse matches between engines: 2v2 with clocks, a BPGN record and rating statistics")]
pub struct MatchArgs {
    #[command(flatten)]
    pub engines: EngineSpecs,
    /// Team 1's engines: board A (White) and board B (Black), e.g. `tandem,tandem`;
    /// one name plays both seats. One-board rules take one name, relay5 A1,A2.
    #[arg(long, value_name = "ENGINES", default_value = "tandem")]
    pub team1: String,
    /// Team 2's engines: board A (Black) and board B (White); relay5 B1,B2.
    #[arg(long, value_name = "ENGINES", default_value = "tandem")]
    pub team2: String,
    /// Rules: a preset (bughouse, tandem, tandemschach, french, crazyhouse,
    /// chess, relay5) with optional overrides, e.g. `tandemschach,drop_checks=no-mate`.
    #[arg(long, default_value = "bughouse")]
    pub rules: String,
    /// Time control BASE+INC in seconds (`60+0`, `1:30+2`), for every seat, or
    /// `team1=…`, `team2=…` (follow the team when --repeat swaps seats), or per
    /// seat `WhiteA=…` (`White=…` on one board). Repeatable. Default 60+0; relay5 300+0.
    #[arg(long = "tc", value_name = "TC", action = ArgAction::Append)]
    pub tc: Vec<String>,
    /// Number of matches to play.
    #[arg(long, default_value_t = 1)]
    pub games: usize,
    /// Play every opening twice, the second time with the teams' seats swapped.
    #[arg(long)]
    pub repeat: bool,
    /// Openings: BFEN lines, EPD/FEN lines, or BPGN/PGN games.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Order in which openings are used.
    #[arg(long, value_enum, default_value = "sequential")]
    pub opening_order: OpeningOrder,
    /// Of each BPGN/PGN opening game, play only its first N moves (half-moves
    /// of both boards together, in the record's order) before the engines take
    /// over (default: all of them). Needs --openings.
    #[arg(long, value_name = "N", requires = "openings")]
    pub opening_plies: Option<usize>,
    /// Append every match to this BPGN file (flushed after each match).
    #[arg(long, value_name = "FILE")]
    pub bpgn: Option<PathBuf>,
    /// Stop early by a sequential test: elo0=… elo1=… [alpha=0.05] [beta=0.05].
    #[arg(long, num_args = 1..=4, value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Matches played at the same time (each runs four engines).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Seed for the opening order (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Draw the boards, reserves and clocks live in the terminal.
    #[arg(long)]
    pub show: bool,
    /// relay5: seconds a player takes to walk to the next board.
    #[arg(long, value_name = "SECONDS", default_value_t = 0.0)]
    pub walking_time: f64,
    /// Write all engine traffic to this file.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// The Event tag of the records.
    #[arg(long, default_value = "tandem match")]
    pub event: String,
    /// Read a BPGN/PGN file, check every game move by move, and score it
    /// (instead of playing).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["engine", "openings", "bpgn", "sprt", "show"])]
    pub replay: Option<PathBuf>,
    /// Play only shard I of N of the run (`2/8`): the schedule (openings with
    /// seats swapped, by --seed, which a shard needs) is split by opening, so
    /// every shard of one command line plays a disjoint part. See docs/rating-runs.md.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<crate::shards::Shard>,
    /// With an existing --bpgn file of this run: play only the matches it does
    /// not hold (a match cut off while it was written is dropped and played again).
    #[arg(long, requires = "bpgn")]
    pub resume: bool,
    /// Score the records of a run's shards together (instead of playing):
    /// Elo, pentanomial pairs, SPRT with --sprt. Files of different runs are refused.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["engine", "openings", "bpgn", "show", "replay", "shard", "resume"])]
    pub merge: Vec<PathBuf>,
    /// Print cutechess-cli's lines (`Started game N of M (X vs Y)`,
    /// `Finished game N (X vs Y): 1-0 {reason}`) instead of the progress line.
    #[arg(long)]
    pub cutechess_output: bool,
    /// Append one JSON object per finished match to this file (JSON lines).
    #[arg(long, value_name = "FILE")]
    pub jsonl: Option<PathBuf>,
}

/// The `--engine` occurrences, each a list of KEY=VALUE words (cutechess style:
/// `--engine name=fsf cmd=… --engine name=sjeng …`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineSpecs(pub Vec<Vec<String>>);

const ENGINE_HELP: &str = "Define an engine: name=NAME cmd=PATH [proto=uci|xboard] [arg=ARG]... \
[dir=DIR] [option.NAME=VALUE]... [timeout=SECONDS] [holding=live|deferred] [extension=on|off]. \
Repeat for more engines. Known without one: `tandem` (UCI with its bughouse extension), `fsf` \
(/usr/games/fairy-stockfish over UCI: one FEN per move), `fsfx` (the same over xboard: live \
holdings and partner talk, its team play) and `sjeng` (xboard). `extension=off` never sends \
`bughouse`: a UCI engine plays plain, as `fsf` does.";

impl FromArgMatches for EngineSpecs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<EngineSpecs, clap::Error> {
        let groups = matches
            .try_get_occurrences::<String>("engine")
            .ok()
            .flatten()
            .map(|occurrences| occurrences.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineSpecs(groups))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = EngineSpecs::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for EngineSpecs {
    fn augment_args(command: Command) -> Command {
        command.arg(
            Arg::new("engine")
                .long("engine")
                .num_args(1..)
                .action(ArgAction::Append)
                .value_name("KEY=VALUE")
                .help(ENGINE_HELP),
        )
    }

    fn augment_args_for_update(command: Command) -> Command {
        EngineSpecs::augment_args(command)
    }
}

pub use crate::plan::{Plan, Table, TimeSpec};

/// Checks the command line and builds the plan.
pub fn plan(args: &MatchArgs) -> Result<Plan, String> {
    let rules: Rules = args.rules.parse().map_err(|e| format!("--rules: {e}"))?;
    let table = Table::for_rules(&rules);
    let defined: Vec<EngineConfig> =
        args.engines.0.iter().map(|tokens| parse_engine(tokens)).collect::<Result<_, _>>()?;
    for (i, engine) in defined.iter().enumerate() {
        if defined[..i].iter().any(|e| e.name == engine.name) {
            return Err(format!("--engine: the name '{}' is defined twice", engine.name));
        }
    }
    let lineup = |text: &str, flag: &str| lineup(text, flag, table, &defined);
    let lineups = [lineup(&args.team1, "--team1")?, lineup(&args.team2, "--team2")?];
    let times = time_spec(&args.tc, table)?;
    if args.games == 0 {
        return Err("--games must be at least 1".to_string());
    }
    if args.concurrency == 0 || args.concurrency > 64 {
        return Err("--concurrency must be between 1 and 64".to_string());
    }
    if !(args.walking_time.is_finite() && (0.0..3600.0).contains(&args.walking_time)) {
        return Err("--walking-time must be between 0 and 3600 seconds".to_string());
    }
    let sprt = match &args.sprt {
        Some(parts) => Some(parts.join(" ").parse::<Sprt>().map_err(|e| format!("--sprt: {e}"))?),
        None => None,
    };
    if args.shard.is_some() && args.seed.is_none() {
        return Err("--shard needs --seed: every shard must split the same schedule".to_string());
    }
    let seed = args.seed.unwrap_or_else(clock_seed);
    let openings = match &args.openings {
        Some(path) => {
            let loaded = openings::load(path, rules, args.opening_plies).map_err(|e| format!("--openings: {e}"))?;
            openings::ordered(loaded, args.opening_order, seed)
        }
        None => vec![standard_opening(table)],
    };
    if table == Table::Relay5 && openings.iter().any(|o| o.position.contains('|')) {
        return Err("--openings: relay5 boards take one FEN".to_string());
    }
    if let Some(path) = &args.bpgn {
        check_writable(path).map_err(|e| format!("--bpgn: {e}"))?;
    }
    if let Some(path) = &args.jsonl {
        check_writable(path).map_err(|e| format!("--jsonl: {e}"))?;
    }
    Ok(Plan {
        rules,
        table,
        lineups,
        times,
        games: args.games,
        repeat: args.repeat,
        openings,
        bpgn: args.bpgn.clone(),
        sprt,
        concurrency: args.concurrency,
        seed,
        show: args.show,
        walking: Duration::from_secs_f64(args.walking_time),
        log: args.log.clone(),
        event: args.event.clone(),
        shard: args.shard,
        resume: args.resume,
        cutechess_output: args.cutechess_output,
        jsonl: args.jsonl.clone(),
    })
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(0)
}

fn standard_opening(table: Table) -> Opening {
    let position = match table {
        Table::TwoBoards => format!("{STARTPOS} | {STARTPOS}"),
        Table::OneBoard | Table::Relay5 => STARTPOS.to_string(),
    };
    Opening { position, label: "start position".to_string() }
}

fn check_writable(path: &Path) -> Result<(), String> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map(|_| ())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// `name=fsf cmd=/usr/games/fairy-stockfish proto=uci option.Hash=16 …`
pub fn parse_engine(tokens: &[String]) -> Result<EngineConfig, String> {
    let mut name = None;
    let mut command = None;
    let mut config = EngineConfig::new("", "", Proto::Uci);
    for token in tokens {
        let (key, value) = token.split_once('=').ok_or_else(|| format!("--engine: '{token}' is not KEY=VALUE"))?;
        if let Some(option) = key.strip_prefix("option.") {
            if option.is_empty() {
                return Err(format!("--engine: '{token}' names no option"));
            }
            config.options.push((option.to_string(), value.to_string()));
            continue;
        }
        match key {
            "name" => name = Some(value.to_string()),
            "cmd" => command = Some(PathBuf::from(value)),
            "proto" => config.proto = value.parse().map_err(|e| format!("--engine: {e}"))?,
            "arg" => config.args.push(value.to_string()),
            "dir" => config.dir = Some(PathBuf::from(value)),
            "timeout" => {
                let seconds: f64 = value.parse().map_err(|_| format!("--engine: timeout '{value}' is not a number"))?;
                if !(seconds.is_finite() && seconds > 0.0 && seconds < 3600.0) {
                    return Err(format!("--engine: timeout '{value}' must be between 0 and 3600 seconds"));
                }
                config.init_timeout = Duration::from_secs_f64(seconds);
            }
            "holding" => config.holding = Some(value.parse().map_err(|e| format!("--engine: {e}"))?),
            "extension" => {
                config.extension = match value {
                    "on" => true,
                    "off" => false,
                    _ => return Err(format!("--engine: extension must be 'on' or 'off', not '{value}'")),
                }
            }
            _ => return Err(format!(
                "--engine: unknown key '{key}' (expected name, cmd, proto, arg, dir, option.NAME, timeout, holding, extension)"
            )),
        }
    }
    let name = name.filter(|n| !n.is_empty()).ok_or("--engine needs name=NAME")?;
    if name.contains([',', ' ']) {
        return Err(format!("--engine: the name '{name}' may not contain commas or spaces"));
    }
    let builtin = builtin_engine(&name);
    config.command = match (command, &builtin) {
        (Some(command), _) => command,
        (None, Some(known)) => {
            // `--engine name=fsf option.Hash=32` adjusts a known engine.
            if !tokens.iter().any(|t| t.starts_with("proto=")) {
                config.proto = known.proto;
            }
            known.command.clone()
        }
        (None, None) => return Err(format!("--engine {name}: needs cmd=PATH")),
    };
    config.name = name;
    Ok(config)
}

/// Engines known by name: tandem itself, fairy-stockfish and Sjeng where Debian puts them.
pub fn builtin_engine(name: &str) -> Option<EngineConfig> {
    match name {
        "tandem" => {
            let exe = std::env::current_exe().ok()?;
            Some(EngineConfig::new("tandem", exe, Proto::Uci))
        }
        "fsf" | "fairy-stockfish" => Some(EngineConfig::new(name, find_program("fairy-stockfish"), Proto::Uci)),
        "fsfx" => Some(EngineConfig::new(name, find_program("fairy-stockfish"), Proto::Xboard)),
        "sjeng" => Some(EngineConfig::new(name, find_program("sjeng"), Proto::Xboard)),
        _ => None,
    }
}

/// `/usr/games/NAME` when it exists (Debian's games are often not on PATH), else NAME.
fn find_program(name: &str) -> PathBuf {
    let games = Path::new("/usr/games").join(name);
    if games.exists() {
        games
    } else {
        PathBuf::from(name)
    }
}

fn lineup(text: &str, flag: &str, table: Table, defined: &[EngineConfig]) -> Result<Vec<EngineConfig>, String> {
    let names: Vec<&str> = text.split(',').map(str::trim).collect();
    if names.iter().any(|n| n.is_empty()) {
        return Err(format!("{flag}: empty engine name in '{text}'"));
    }
    let wanted = table.players_per_team();
    let names: Vec<&str> = match (names.len(), wanted) {
        (1, 2) => vec![names[0], names[0]],
        (n, w) if n == w => names,
        (n, w) => {
            return Err(format!("{flag}: these rules need {w} engine(s) per team, '{text}' names {n}"));
        }
    };
    names
        .into_iter()
        .map(|name| {
            defined
                .iter()
                .find(|e| e.name == name)
                .cloned()
                .or_else(|| builtin_engine(name))
                .ok_or_else(|| format!("{flag}: unknown engine '{name}' (define it with --engine name={name} cmd=…)"))
        })
        .collect()
}

fn time_spec(specs: &[String], table: Table) -> Result<TimeSpec, String> {
    let default =
        if table == Table::Relay5 { TimeControl::seconds(300.0, 0.0) } else { TimeControl::seconds(60.0, 0.0) };
    let mut times = TimeSpec { default, lineup: [None, None], seat: vec![None; table.seats()] };
    for spec in specs {
        let Some((target, tc)) = spec.split_once('=') else {
            times.default = spec.parse().map_err(|e| format!("--tc: {e}"))?;
            continue;
        };
        let tc: TimeControl = tc.parse().map_err(|e| format!("--tc: {e}"))?;
        match target {
            "team1" => times.lineup[0] = Some(tc),
            "team2" => times.lineup[1] = Some(tc),
            seat => {
                if table == Table::Relay5 {
                    return Err(format!("--tc: relay5 clocks belong to teams (team1=…, team2=…), not to '{seat}'"));
                }
                let index = table.seat_names().iter().position(|n| n.eq_ignore_ascii_case(seat)).ok_or_else(|| {
                    format!("--tc: unknown seat '{seat}' (expected team1, team2 or {})", table.seat_names().join(", "))
                })?;
                times.seat[index] = Some(tc);
            }
        }
    }
    Ok(times)
}

/// Runs `tandem match`.
pub fn run(args: &MatchArgs) -> Result<(), String> {
    if let Some(path) = &args.replay {
        let rules: Rules = args.rules.parse().map_err(|e| format!("--rules: {e}"))?;
        return crate::runner::replay_file(path, rules);
    }
    if !args.merge.is_empty() {
        let sprt = match &args.sprt {
            Some(parts) => Some(parts.join(" ").parse::<Sprt>().map_err(|e| format!("--sprt: {e}"))?),
            None => None,
        };
        return crate::runner::merge(&args.merge, sprt, &mut std::io::stdout());
    }
    let plan = plan(args)?;
    crate::runner::run_plan(&plan)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn engines_parse() {
        let e = parse_engine(&words("name=x cmd=/bin/x proto=xboard arg=-v option.Hash=16 timeout=2.5 holding=live"))
            .unwrap();
        assert_eq!(e.name, "x");
        assert_eq!(e.proto, Proto::Xboard);
        assert_eq!(e.args, ["-v"]);
        assert_eq!(e.options, [("Hash".to_string(), "16".to_string())]);
        assert_eq!(e.init_timeout, Duration::from_millis(2500));
        assert!(parse_engine(&words("cmd=/bin/x")).is_err());
        assert!(parse_engine(&words("name=x")).is_err());
        assert!(parse_engine(&words("name=x cmd=y proto=telnet")).is_err());
        assert!(parse_engine(&words("name=x cmd=y colour=blue")).is_err());
        assert!(parse_engine(&words("name=x cmd=y timeout=-1")).is_err());
        assert_eq!(parse_engine(&words("name=sjeng option.x=1")).unwrap().proto, Proto::Xboard);
    }

    #[test]
    fn time_controls_by_seat_and_team() {
        let spec = time_spec(&words("30+1 team2=10+0 BlackB=5+0"), Table::TwoBoards).unwrap();
        assert_eq!(spec.for_seat(0, 0), TimeControl::seconds(30.0, 1.0));
        assert_eq!(spec.for_seat(1, 1), TimeControl::seconds(10.0, 0.0));
        assert_eq!(spec.for_seat(3, 0), TimeControl::seconds(5.0, 0.0));
        assert!(time_spec(&words("A1=10+0"), Table::Relay5).is_err());
        assert!(time_spec(&words("Nobody=10+0"), Table::TwoBoards).is_err());
        assert_eq!(time_spec(&[], Table::Relay5).unwrap().default, TimeControl::seconds(300.0, 0.0));
    }

    #[test]
    fn lineups_fill_and_check() {
        let fake = vec![EngineConfig::new("f", "/bin/f", Proto::Uci)];
        assert_eq!(lineup("f", "--team1", Table::TwoBoards, &fake).unwrap().len(), 2);
        assert!(lineup("f,f", "--team1", Table::OneBoard, &fake).is_err());
        assert!(lineup("nobody", "--team1", Table::TwoBoards, &fake).is_err());
        assert!(lineup("f,", "--team1", Table::TwoBoards, &fake).is_err());
    }
}
