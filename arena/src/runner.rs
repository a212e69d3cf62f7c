//! The rating run: schedules matches over worker threads, records each one as
//! it finishes, keeps the score and prints progress and the final summary.
//!
//! Every match starts four fresh engine processes, so an engine that crashed,
//! hung or misbehaved in one match is simply started anew for the next. A
//! finished match is appended to the BPGN file and flushed before anything
//! else happens, so an interrupted run loses nothing that was played.

use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};
use std::thread;
use std::time::Duration;

use tandem_engine::Rules;

use crate::bpgn::{read_records, record_rules, replay, today, Record};
use crate::time_use::TimeUse;
use crate::cli::{Plan, Table};
use crate::engine_proc::{EngineConfig, ProcessSeats, TrafficLog};
use crate::matchplay::{play_match, to_record, MatchResult, MatchSpec, NoObserver, Observer, Team};
use crate::relay5::{play_relay5, to_records, Relay5Spec};
use crate::seats::{FaultKind, Seats};
use crate::show::Show;
use crate::stats::{format_elo, format_margin, Model, Outcome, Sprt, Tally};
use crate::matchplay::EndKind;
use crate::shards::{end_word, in_shard, merge_files, read_complete, RecordedMatch, RunRecords, RunTags};
use crate::verdict::{judge, Evidence};

/// One finished (or interrupted) match, as the workers report it.
struct Finished {
    index: usize,
    swapped: bool,
    /// From the first lineup's point of view; `None` when unfinished.
    outcome: Option<Outcome>,
    /// `1-0` style, team 1 = the seats of WhiteA and BlackB.
    result_text: &'static str,
    reason: String,
    /// What decided a won match (relay5: not counted).
    ended_by: Option<EndKind>,
    records: Vec<Record>,
    faults: Vec<FaultNote>,
    /// Set when the runner itself failed to play the match.
    error: Option<String>,
}

impl Finished {
    /// A match as a record of the run tells it (`--resume`, `--merge`).
    fn from_record(recorded: &RecordedMatch) -> Finished {
        let (result, result_text) = match recorded.result.as_str() {
            "1-0" => (MatchResult::Won(Team::One), "1-0"),
            "0-1" => (MatchResult::Won(Team::Two), "0-1"),
            "1/2-1/2" => (MatchResult::Draw, "1/2-1/2"),
            _ => (MatchResult::Unfinished, "*"),
        };
        Finished {
            index: recorded.index,
            swapped: recorded.swapped,
            outcome: outcome_for_first_lineup(result, recorded.swapped),
            result_text,
            reason: recorded.reason.clone(),
            ended_by: recorded.ended_by,
            records: Vec::new(),
            faults: Vec::new(),
            error: None,
        }
    }
}

struct FaultNote {
    engine: String,
    seat: String,
    kind: FaultKind,
    detail: String,
}

/// The Ctrl-C flag: the first Ctrl-C stops the run cleanly, a second one quits at once.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let handler_flag = Arc::clone(&flag);
        let installed = ctrlc::set_handler(move || {
            if handler_flag.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
            eprintln!("\nStopping: writing the record and the summary (Ctrl-C again to quit at once)");
        });
        if let Err(e) = installed {
            eprintln!("Warning: Ctrl-C will not stop the run cleanly: {e}");
        }
        flag
    })
    .clone()
}

/// Plays the planned run, printing to standard output; Ctrl-C stops it cleanly.
pub fn run_plan(plan: &Plan) -> Result<(), String> {
    let stop = interrupt_flag();
    stop.store(false, Ordering::SeqCst);
    let mut out = std::io::stdout();
    run_plan_with(plan, &stop, &mut out)
}

/// Plays the planned run until done or until `stop` is set, writing progress
/// and the summary to `out`.
pub fn run_plan_with(plan: &Plan, stop: &Arc<AtomicBool>, out: &mut dyn Write) -> Result<(), String> {
    preflight(plan)?;
    let run_tags = RunTags::of(plan);
    let resumed = if plan.resume { resume(plan, &run_tags.run)? } else { RunRecords::default() };
    let log = plan.log.as_deref().map(TrafficLog::create).transpose()?;
    let mut bpgn = plan.bpgn.as_deref().map(open_record_file).transpose()?;
    let mut jsonl = plan.jsonl.as_deref().map(open_record_file).transpose()?;
    let show_log = Arc::new(Mutex::new(Vec::new()));
    let show = plan.show && plan.table != Table::Relay5;
    if plan.show && !show {
        eprintln!("Note: --show draws one- and two-board matches; relay5 shows progress lines only");
    }
    let mut score = Scoreboard::new(plan);
    for recorded in resumed.played.values() {
        score.add(&Finished::from_record(recorded));
    }
    if !resumed.played.is_empty() {
        let _ = writeln!(out, "Resumed: {} matches already in the record", resumed.played.len());
    }
    // This process's part of the run: its shard, less what a resumed record holds.
    let schedule: Vec<usize> = (0..plan.games)
        .filter(|&i| in_shard(plan.shard, i, plan.repeat) && !resumed.played.contains_key(&i))
        .collect();
    let workers = plan.concurrency.min(schedule.len());
    // The main thread hands out match numbers one by one, so that an SPRT
    // decision or a Ctrl-C stops the run before another match starts.
    let (job_tx, job_rx) = mpsc::channel::<usize>();
    let job_rx = Mutex::new(job_rx);
    let (tx, rx) = mpsc::channel::<Finished>();
    thread::scope(|scope| {
        for worker in 0..workers {
            let tx = tx.clone();
            let (job_rx, log, show_log, run_tags) = (&job_rx, log.clone(), Arc::clone(&show_log), &run_tags);
            scope.spawn(move || {
                let mut observer: Box<dyn Observer> = if show && worker == 0 {
                    Box::new(Show::new(String::new(), show_log))
                } else {
                    Box::new(NoObserver)
                };
                loop {
                    let job = job_rx.lock().map_err(|_| ()).and_then(|jobs| jobs.recv().map_err(|_| ()));
                    let Ok(index) = job else { break };
                    let finished = play_one(plan, run_tags, index, stop, log.clone(), observer.as_mut());
                    if tx.send(finished).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut sent = 0;
        let dispatch = |sent: &mut usize, out: &mut dyn Write| {
            let index = schedule[*sent];
            if plan.cutechess_output {
                let (first, second) = lineups_at(plan, index);
                let _ = writeln!(out, "Started game {} of {} ({first} vs {second})", index + 1, plan.games);
            }
            let sent_ok = job_tx.send(index).is_ok();
            *sent += 1;
            sent_ok
        };
        while sent < workers {
            dispatch(&mut sent, out);
        }
        let mut received = 0;
        while received < sent {
            let Ok(finished) = rx.recv() else { break };
            received += 1;
            if let Some(file) = bpgn.as_mut() {
                write_records(file, &finished.records);
            }
            let line = score.add(&finished);
            if let Some(file) = jsonl.as_mut() {
                write_json_line(file, plan, &run_tags, &finished);
            }
            let line = if plan.cutechess_output { score.cutechess_lines(plan, &finished) } else { line };
            if show {
                if let Ok(mut lines) = show_log.lock() {
                    lines.push(line);
                }
            } else {
                let _ = writeln!(out, "{line}");
                let _ = out.flush();
            }
            let more = !stop.load(Ordering::SeqCst) && !score.sprt_decided() && sent < schedule.len();
            if more {
                dispatch(&mut sent, out);
            }
        }
        drop(job_tx);
    });
    if stop.load(Ordering::SeqCst) {
        let _ = writeln!(out, "Interrupted: the matches played so far are recorded and scored.");
    }
    let _ = write!(out, "{}", score.summary());
    let _ = out.flush();
    Ok(())
}

/// `--resume`: the matches of this run the record file already holds. A match
/// cut off while it was being written is dropped from the file (it is played
/// again); a file of another run is refused rather than mixed in.
fn resume(plan: &Plan, run: &str) -> Result<RunRecords, String> {
    let Some(path) = plan.bpgn.as_deref() else { return Ok(RunRecords::default()) };
    let (records, complete) = read_complete(path)?;
    let on_disk = std::fs::metadata(path).map(|m| m.len() as usize).unwrap_or(0);
    if complete.len() < on_disk {
        std::fs::write(path, &complete).map_err(|e| format!("--resume: cannot rewrite {}: {e}", path.display()))?;
        eprintln!("Note: --resume dropped a match cut off at the end of {}", path.display());
    }
    let mut resumed = RunRecords::default();
    resumed.add(path, &records).map_err(|e| format!("--resume: {e}"))?;
    if !resumed.played.is_empty() && resumed.run != run {
        return Err(format!(
            "--resume: {} holds run {}, not this run ({run}): the command line differs from the one that wrote it",
            path.display(),
            resumed.run
        ));
    }
    Ok(resumed)
}

/// The lineups in seat order for match `index`: team 1's first.
fn lineups_at(plan: &Plan, index: usize) -> (String, String) {
    let swapped = plan.repeat && index % 2 == 1;
    let (a, b) = (plan.lineup_label(0), plan.lineup_label(1));
    if swapped { (b, a) } else { (a, b) }
}

/// `--jsonl`: one JSON object per finished match.
fn write_json_line(file: &mut File, plan: &Plan, run_tags: &RunTags, finished: &Finished) {
    let (team1, team2) = lineups_at(plan, finished.index);
    let score = finished.outcome.map(|o| match o {
        Outcome::Win => 1.0,
        Outcome::Draw => 0.5,
        Outcome::Loss => 0.0,
    });
    let line = serde_json::json!({
        "run": run_tags.run,
        "shard": plan.shard.map(|s| s.to_string()),
        "match": finished.index + 1,
        "matches": plan.games,
        "team1": team1,
        "team2": team2,
        "result": finished.result_text,
        "reason": finished.reason,
        "ended_by": finished.ended_by.map(end_word),
        "first_lineup": plan.lineup_label(0),
        "first_lineup_score": score,
        "error": finished.error,
    });
    let written = writeln!(file, "{line}").and_then(|()| file.flush());
    if let Err(e) = written {
        eprintln!("Warning: could not write the JSON line: {e}");
    }
}

/// `--merge`: scores the shards' records of one run together.
pub fn merge(paths: &[std::path::PathBuf], sprt: Option<Sprt>, out: &mut dyn Write) -> Result<(), String> {
    let run = merge_files(paths)?;
    let mut score = Scoreboard::with(run.lineups.clone(), run.matches.max(run.played.len()), run.repeat, sprt);
    for recorded in run.played.values() {
        score.add(&Finished::from_record(recorded));
    }
    let missing = (0..run.matches).filter(|i| !run.played.contains_key(i)).count();
    let _ = writeln!(
        out,
        "Merged {} matches of run {} from {} file(s); {missing} of the run's {} matches not in them",
        run.played.len(),
        run.run,
        paths.len(),
        run.matches
    );
    let _ = write!(out, "{}", score.summary());
    Ok(())
}

/// Starts every engine of the run once, so a wrong path or protocol is
/// reported before the first match.
fn preflight(plan: &Plan) -> Result<(), String> {
    let mut checked: Vec<&str> = Vec::new();
    for config in plan.lineups.iter().flatten() {
        if checked.contains(&config.name.as_str()) {
            continue;
        }
        checked.push(&config.name);
        let stop = Arc::new(AtomicBool::new(false));
        let mut seats = ProcessSeats::start(vec![config.clone()], vec![config.name.clone()], plan.rules, stop, None);
        if let Some(event) = seats.next_event(Duration::ZERO) {
            if let crate::seats::FromEngine::Fault { detail, .. } = event.message {
                return Err(format!(
                    "engine '{}' ({}) cannot be used: {detail}",
                    config.name,
                    config.command.display()
                ));
            }
        }
        seats.shutdown();
    }
    Ok(())
}

fn open_record_file(path: &Path) -> Result<File, String> {
    OpenOptions::new().create(true).append(true).open(path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn write_records(file: &mut File, records: &[Record]) {
    let text: String = records.iter().map(Record::to_text).collect();
    let written = file.write_all(text.as_bytes()).and_then(|()| file.flush());
    if let Err(e) = written {
        eprintln!("Warning: could not write the record: {e}");
    }
}

/// Who sits where in match `index`: the engine per seat and its lineup.
fn seating(plan: &Plan, index: usize) -> (Vec<EngineConfig>, Vec<usize>, bool) {
    let swapped = plan.repeat && index % 2 == 1;
    let seats = plan.table.seats();
    let mut engines = vec![plan.lineups[0][0].clone(); seats];
    let mut lineup_of = vec![0; seats];
    for team in 0..2 {
        let lineup = if swapped { 1 - team } else { team };
        for (i, seat) in plan.table.team_seats(team).into_iter().enumerate() {
            engines[seat] = plan.lineups[lineup][i].clone();
            lineup_of[seat] = lineup;
        }
    }
    (engines, lineup_of, swapped)
}

fn play_one(
    plan: &Plan,
    run_tags: &RunTags,
    index: usize,
    stop: &Arc<AtomicBool>,
    log: Option<TrafficLog>,
    observer: &mut dyn Observer,
) -> Finished {
    let (engines, lineup_of, swapped) = seating(plan, index);
    let opening_index = if plan.repeat { index / 2 } else { index } % plan.openings.len();
    let opening = &plan.openings[opening_index];
    let seat_names = plan.table.seat_names();
    let names: Vec<String> = engines.iter().map(|e| e.name.clone()).collect();
    let labels: Vec<String> =
        (0..engines.len()).map(|s| format!("m{} {} {}", index + 1, seat_names[s], names[s])).collect();
    let times: Vec<_> = (0..engines.len()).map(|s| plan.times.for_seat(s, lineup_of[s])).collect();
    let mut tags = vec![
        ("Event".to_string(), plan.event.clone()),
        ("Site".to_string(), "tandem arena".to_string()),
        ("Date".to_string(), today()),
        ("Round".to_string(), (index + 1).to_string()),
        ("Opening".to_string(), opening.label.clone()),
    ];
    tags.extend(run_tags.for_match(swapped));
    let lineup_labels = [plan.lineup_label(lineup_of[0]), plan.lineup_label(1 - lineup_of[0])];
    observer.match_started(&format!(
        "match {}/{}: {} vs {}",
        index + 1,
        plan.games,
        lineup_labels[0],
        lineup_labels[1]
    ));
    let mut seats = ProcessSeats::start(engines.clone(), labels, plan.rules, Arc::clone(stop), log);
    let board_key_base = (index as u64) << 8;
    let played = match plan.table {
        Table::TwoBoards | Table::OneBoard => {
            let spec = MatchSpec {
                rules: plan.rules,
                start: opening.position.clone(),
                times,
                names: names.clone(),
                board_key_base,
            };
            play_match(&spec, &mut seats, observer).map(|report| {
                let faults = report.faults.iter().map(|f| (f.seat, f.kind, f.detail.clone())).collect::<Vec<_>>();
                let ended_by = report.decisive_end().map(|e| e.kind);
                (report.result, report.reason.clone(), ended_by, vec![to_record(&spec, &report, tags.clone())], faults)
            })
        }
        Table::Relay5 => {
            let team_times = [plan.times.for_seat(0, lineup_of[0]), plan.times.for_seat(1, lineup_of[1])];
            let spec = Relay5Spec {
                start_fen: opening.position.clone(),
                team_times,
                names: names.clone(),
                walking: plan.walking,
                board_key_base,
            };
            play_relay5(&spec, &mut seats).map(|report| {
                let faults = report.faults.iter().map(|f| (f.seat, f.kind, f.detail.clone())).collect::<Vec<_>>();
                (report.result, report.reason.clone(), None, to_records(&spec, &report, &tags), faults)
            })
        }
    };
    seats.shutdown();
    match played {
        Ok((result, reason, ended_by, mut records, faults)) => {
            for record in &mut records {
                record.set_tag("MatchResult", result.text());
                if let Some(kind) = ended_by {
                    record.set_tag("EndedBy", end_word(kind));
                }
            }
            Finished {
            index,
            swapped,
            outcome: outcome_for_first_lineup(result, swapped),
            result_text: result.text(),
            reason,
            ended_by,
            records,
            faults: faults
                .into_iter()
                .map(|(seat, kind, detail)| FaultNote {
                    engine: names.get(seat).cloned().unwrap_or_default(),
                    seat: seat_names.get(seat).copied().unwrap_or("?").to_string(),
                    kind,
                    detail,
                })
                .collect(),
            error: None,
            }
        }
        Err(error) => Finished {
            index,
            swapped,
            outcome: None,
            result_text: "*",
            reason: error.clone(),
            ended_by: None,
            records: Vec::new(),
            faults: Vec::new(),
            error: Some(error),
        },
    }
}

/// Team 1 sits at WhiteA/BlackB (relay5: A1/A2); the first lineup sits there unless swapped.
fn outcome_for_first_lineup(result: MatchResult, swapped: bool) -> Option<Outcome> {
    let outcome = match result {
        MatchResult::Won(Team::One) => Outcome::Win,
        MatchResult::Won(Team::Two) => Outcome::Loss,
        MatchResult::Draw => Outcome::Draw,
        MatchResult::Unfinished => return None,
    };
    Some(if swapped { outcome.flipped() } else { outcome })
}

/// The running score, pairs, faults and the texts built from them.
struct Scoreboard {
    labels: [String; 2],
    games: usize,
    repeat: bool,
    sprt: Option<Sprt>,
    tally: Tally,
    /// Outcomes of each pair's two matches, by pair number.
    pairs: HashMap<usize, [Option<Outcome>; 2]>,
    played: usize,
    unfinished: usize,
    runner_errors: usize,
    /// Fault counts per engine and kind.
    faults: BTreeMap<(String, FaultKind), usize>,
    /// Won matches by what decided them, per lineup.
    wins_by: [BTreeMap<EndKind, usize>; 2],
}

impl Scoreboard {
    fn new(plan: &Plan) -> Scoreboard {
        Scoreboard::with([plan.lineup_label(0), plan.lineup_label(1)], plan.games, plan.repeat, plan.sprt)
    }

    fn with(labels: [String; 2], games: usize, repeat: bool, sprt: Option<Sprt>) -> Scoreboard {
        Scoreboard {
            labels,
            games,
            repeat,
            sprt,
            tally: Tally::default(),
            pairs: HashMap::new(),
            played: 0,
            unfinished: 0,
            runner_errors: 0,
            faults: BTreeMap::new(),
            wins_by: Default::default(),
        }
    }

    fn model(&self) -> Model {
        if self.repeat && self.tally.pairs() > 0 {
            Model::Pentanomial
        } else {
            Model::Trinomial
        }
    }

    /// Takes a finished match in and returns its progress line.
    fn add(&mut self, finished: &Finished) -> String {
        let number = finished.index + 1;
        if let Some(error) = &finished.error {
            self.runner_errors += 1;
            eprintln!("Error: match {number} could not be played: {error}");
        }
        for fault in &finished.faults {
            *self.faults.entry((fault.engine.clone(), fault.kind)).or_default() += 1;
            if fault.kind != FaultKind::Time {
                eprintln!(
                    "Warning: match {number}: {} ({}) {}: {} - it loses that board and is restarted for the next match",
                    fault.seat, fault.engine, fault.kind, fault.detail
                );
            }
        }
        match finished.outcome {
            Some(outcome) => {
                self.played += 1;
                self.tally.add(outcome);
                let winner = match outcome {
                    Outcome::Win => Some(0),
                    Outcome::Loss => Some(1),
                    Outcome::Draw => None,
                };
                if let (Some(lineup), Some(kind)) = (winner, finished.ended_by) {
                    *self.wins_by[lineup].entry(kind).or_default() += 1;
                }
                if self.repeat {
                    self.add_to_pair(finished.index, outcome);
                }
            }
            None => self.unfinished += 1,
        }
        let (first, second) =
            if finished.swapped { (&self.labels[1], &self.labels[0]) } else { (&self.labels[0], &self.labels[1]) };
        format!(
            "Match {number}/{}: {first} vs {second}: {} {{{}}} | {}",
            self.games,
            finished.result_text,
            finished.reason,
            self.score_line()
        )
    }

    /// cutechess-cli's lines for a finished match: `Finished game …` and the running score.
    fn cutechess_lines(&self, plan: &Plan, finished: &Finished) -> String {
        let (first, second) = lineups_at(plan, finished.index);
        format!(
            "Finished game {} ({first} vs {second}): {} {{{}}}\n{}",
            finished.index + 1,
            finished.result_text,
            finished.reason,
            self.cutechess_score()
        )
    }

    /// cutechess' `Score of A vs B: W - L - D  [score] N` line.
    fn cutechess_score(&self) -> String {
        let t = &self.tally;
        format!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
            self.labels[0],
            self.labels[1],
            t.wins,
            t.losses,
            t.draws,
            t.score().unwrap_or(0.5),
            t.games()
        )
    }

    fn add_to_pair(&mut self, index: usize, outcome: Outcome) {
        let pair = self.pairs.entry(index / 2).or_default();
        pair[index % 2] = Some(outcome);
        if let [Some(a), Some(b)] = *pair {
            self.tally.add_pair(a, b);
        }
    }

    fn won_by(&self, lineup: usize, kinds: &[EndKind]) -> usize {
        kinds.iter().map(|k| self.wins_by[lineup].get(k).copied().unwrap_or(0)).sum()
    }

    /// `won by mate 12-5, flag 3-4, fault 0-0`: first lineup's wins, then the second's.
    fn ends_line(&self) -> String {
        let pair = |kinds: &[EndKind]| format!("{}-{}", self.won_by(0, kinds), self.won_by(1, kinds));
        format!(
            "won by mate {}, flag {}, fault {}",
            pair(&[EndKind::Mate]),
            pair(&[EndKind::Flag, EndKind::FrozenFlag]),
            pair(&[EndKind::Fault])
        )
    }

    /// The summary's line per lineup: what its wins were made of.
    fn ends_summary(&self, lineup: usize) -> String {
        format!(
            "Won by {}: {} by mate, {} on the opponent's flag ({} of them frozen), {} by fault\n",
            self.labels[lineup],
            self.won_by(lineup, &[EndKind::Mate]),
            self.won_by(lineup, &[EndKind::Flag, EndKind::FrozenFlag]),
            self.won_by(lineup, &[EndKind::FrozenFlag]),
            self.won_by(lineup, &[EndKind::Fault])
        )
    }

    fn score_line(&self) -> String {
        let t = &self.tally;
        let mut line =
            format!("{} played, {} - {} - {} [{:.3}]", t.games(), t.wins, t.losses, t.draws, t.score().unwrap_or(0.5));
        if !self.wins_by.iter().all(BTreeMap::is_empty) {
            line.push_str(&format!(" ({})", self.ends_line()));
        }
        if let Some(estimate) = t.elo(self.model()) {
            line.push_str(&format!(
                ", Elo {} +/- {}, LOS {:.1} %",
                format_elo(estimate.elo),
                format_margin(estimate.margin),
                estimate.los * 100.0
            ));
        }
        if let Some(sprt) = &self.sprt {
            let (lower, upper) = sprt.bounds();
            line.push_str(&format!(", LLR {:.2} ({lower:.2}, {upper:.2})", sprt.llr(t, self.model())));
        }
        line
    }

    fn sprt_decided(&self) -> bool {
        self.sprt.is_some_and(|sprt| sprt.decision(sprt.llr(&self.tally, self.model())).is_some())
    }

    /// The end-of-run summary in cutechess' format, plus pentanomial counts and faults.
    fn summary(&self) -> String {
        let t = &self.tally;
        let mut out = format!("{}\n", self.cutechess_score());
        match t.elo(Model::Trinomial) {
            Some(estimate) => out.push_str(&format!(
                "Elo difference: {} +/- {}, LOS: {:.1} %, DrawRatio: {:.1} %\n",
                format_elo(estimate.elo),
                format_margin(estimate.margin),
                estimate.los * 100.0,
                t.draw_ratio().unwrap_or(0.0) * 100.0
            )),
            None => out.push_str("Elo difference: no matches finished\n"),
        }
        if let Some(sprt) = &self.sprt {
            let llr = sprt.llr(t, self.model());
            let (lower, upper) = sprt.bounds();
            let percent = if llr >= 0.0 { llr / upper } else { llr / -lower } * 100.0;
            let verdict = sprt.decision(llr).map(|d| format!(" - {d}")).unwrap_or_default();
            out.push_str(&format!(
                "SPRT: llr {llr:.3} ({percent:.1}%), lbound {lower:.2}, ubound {upper:.2}{verdict}\n"
            ));
        }
        if self.repeat {
            let p = t.pentanomial;
            out.push_str(&format!("Ptnml(0-2): [{}, {}, {}, {}, {}]", p[0], p[1], p[2], p[3], p[4]));
            if let Some(estimate) = t.elo(Model::Pentanomial) {
                out.push_str(&format!(
                    ", Elo (pairs): {} +/- {}, LOS: {:.1} %",
                    format_elo(estimate.elo),
                    format_margin(estimate.margin),
                    estimate.los * 100.0
                ));
            }
            out.push('\n');
        }
        if !self.wins_by.iter().all(BTreeMap::is_empty) {
            out.push_str(&self.ends_summary(0));
            out.push_str(&self.ends_summary(1));
        }
        out.push_str(&format!(
            "Matches: {} finished, {} unfinished; runner errors: {}\n",
            self.played, self.unfinished, self.runner_errors
        ));
        if self.faults.is_empty() {
            out.push_str("Engine faults: none\n");
        } else {
            let notes: Vec<String> =
                self.faults.iter().map(|((engine, kind), n)| format!("{engine}: {n} {kind}")).collect();
            out.push_str(&format!("Engine faults: {}\n", notes.join(", ")));
        }
        out
    }
}

/// `--replay`: reads a BPGN/PGN file, replays every game move by move, judges
/// each winner from the game (see [`crate::verdict`]) and scores every pairing
/// of teams found in the file.
pub fn replay_file(path: &Path, rules: Rules) -> Result<(), String> {
    replay_file_to(path, rules, &mut std::io::stdout())
}

/// [`replay_file`], printing to `out`.
pub fn replay_file_to(path: &Path, rules: Rules, out: &mut dyn Write) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let records = read_records(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if records.is_empty() {
        return Err(format!("{}: no games", path.display()));
    }
    // Each pairing of teams in the order first seen, with its tally from the first team's view.
    let mut pairings: Vec<((String, String), Tally)> = Vec::new();
    let mut failures = 0;
    let mut time_use = TimeUse::default();
    for (i, record) in records.iter().enumerate() {
        time_use.add(record);
        let game_rules = record_rules(record, rules);
        let teams = team_labels(record);
        let replayed = match replay(record, game_rules) {
            Ok(replayed) => replayed,
            Err(e) => {
                failures += 1;
                let _ = writeln!(out, "game {}: {} vs {}: cannot be replayed: {e}", i + 1, teams.0, teams.1);
                continue;
            }
        };
        let verdict = judge(record, &replayed);
        let mut line =
            format!("game {}: {} vs {}: {} after {} moves ({game_rules})", i + 1, teams.0, teams.1, verdict.result, replayed.moves.len());
        if verdict.evidence != Evidence::ResultTag {
            line.push_str(&format!(", judged from {}", verdict.evidence.describe()));
            if record.result != verdict.result {
                line.push_str(&format!("; the Result tag says {}", record.result));
            }
        }
        let _ = writeln!(out, "{line}");
        let outcome = match verdict.result {
            "1-0" => Outcome::Win,
            "0-1" => Outcome::Loss,
            "1/2-1/2" => Outcome::Draw,
            _ => continue,
        };
        match pairings.iter_mut().find(|((a, b), _)| (a, b) == (&teams.0, &teams.1) || (a, b) == (&teams.1, &teams.0)) {
            Some(((first, _), tally)) => tally.add(if *first == teams.0 { outcome } else { outcome.flipped() }),
            None => {
                let mut tally = Tally::default();
                tally.add(outcome);
                pairings.push((teams, tally));
            }
        }
    }
    for ((first, second), tally) in &pairings {
        let _ = writeln!(
            out,
            "Score of {first} vs {second}: {} - {} - {}  [{:.3}] {}",
            tally.wins,
            tally.losses,
            tally.draws,
            tally.score().unwrap_or(0.5),
            tally.games()
        );
        if let Some(estimate) = tally.elo(Model::Trinomial) {
            let _ = writeln!(
                out,
                "Elo difference: {} +/- {}, LOS: {:.1} %, DrawRatio: {:.1} %",
                format_elo(estimate.elo),
                format_margin(estimate.margin),
                estimate.los * 100.0,
                tally.draw_ratio().unwrap_or(0.0) * 100.0
            );
        }
    }
    for line in time_use.lines() {
        let _ = writeln!(out, "{line}");
    }
    if failures > 0 {
        return Err(format!("{failures} of {} games could not be replayed", records.len()));
    }
    Ok(())
}

/// Team labels of a record: `WhiteA+BlackB` and `BlackA+WhiteB` (or White and Black).
fn team_labels(record: &Record) -> (String, String) {
    let name = |tag: &str| record.tag(tag).unwrap_or("?").to_string();
    if record.two_board {
        let join = |a: String, b: String| if a == b { a } else { format!("{a}+{b}") };
        (join(name("WhiteA"), name("BlackB")), join(name("BlackA"), name("WhiteB")))
    } else {
        (name("White"), name("Black"))
    }
}
