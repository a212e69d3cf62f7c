//! A rating run spread over machines: its identity, its schedule split into
//! shards, resuming a killed shard, and merging the shards' records.
//!
//! Every record of a run carries the run's tags ([`RunTags`]): `Run` (a
//! fingerprint of everything that defines the run: rules, time controls,
//! engines with their commands and options, openings, seed, number of
//! matches, seat swapping), `RunLineups`, `RunMatches`, `RunRepeat`,
//! `RunSeed`, `RunEngines` (each engine's command, protocol and options),
//! `Swapped`, `MatchResult` (team 1's view), `EndedBy` and, for a shard,
//! `Shard`; the rules and clocks are in `Variant` and `TimeControl`. `Round` is
//! the match's number in the whole run's schedule.
//! `--merge` reads those tags only, so shards need nothing else to be scored
//! together, and files of different runs are refused.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::bpgn::{read_records, Record};
use crate::matchplay::EndKind;
use crate::plan::Plan;

/// `--shard I/N`: this process plays the I-th of N parts of the run (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard '{text}': expected I/N with 1 <= I <= N, e.g. 2/8");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count): (usize, usize) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Does `shard` play match `index` (0-based) of the run? With `repeat` the
/// two matches of an opening (seats swapped) stay in one shard, so each
/// shard's pairs are whole.
pub fn in_shard(shard: Option<Shard>, index: usize, repeat: bool) -> bool {
    let Some(shard) = shard else { return true };
    let unit = if repeat { index / 2 } else { index };
    unit % shard.count == shard.index - 1
}

/// The run's fingerprint: FNV-1a over a canonical description of the plan.
pub fn fingerprint(plan: &Plan) -> String {
    let mut text = String::new();
    let _ = write!(text, "rules={};games={};repeat={};seed={};", plan.rules, plan.games, plan.repeat, plan.seed);
    let _ = write!(text, "times={:?};walking={:?};", plan.times, plan.walking);
    for (team, lineup) in plan.lineups.iter().enumerate() {
        for engine in lineup {
            let _ = write!(
                text,
                "team{team}:{}|{}|{:?}|{:?}|{:?}|{:?}|{}|{:?};",
                engine.name,
                engine.command.display(),
                engine.args,
                engine.proto,
                engine.options,
                engine.holding,
                engine.extension,
                engine.dir
            );
        }
    }
    for opening in &plan.openings {
        let _ = write!(text, "opening={};", opening.position);
    }
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// The tags every record of a run carries.
pub struct RunTags {
    pub run: String,
    pub lineups: String,
    pub matches: usize,
    pub repeat: bool,
    pub seed: u64,
    /// Each engine as the run defines it: `name: command [proto] option.X=Y …`.
    pub engines: String,
    pub shard: Option<Shard>,
}

impl RunTags {
    pub fn of(plan: &Plan) -> RunTags {
        let mut engines: Vec<String> = plan
            .lineups
            .iter()
            .flatten()
            .map(|e| {
                let options: Vec<String> = e.options.iter().map(|(k, v)| format!("option.{k}={v}")).collect();
                let extension = if e.extension { "" } else { " extension=off" };
                format!("{}: {} {:?}{extension} {}", e.name, e.command.display(), e.proto, options.join(" ")).trim_end().to_string()
            })
            .collect();
        engines.dedup();
        RunTags {
            run: fingerprint(plan),
            lineups: format!("{} vs {}", plan.lineup_label(0), plan.lineup_label(1)),
            matches: plan.games,
            repeat: plan.repeat,
            seed: plan.seed,
            engines: engines.join("; "),
            shard: plan.shard,
        }
    }

    /// The tags for one match.
    pub fn for_match(&self, swapped: bool) -> Vec<(String, String)> {
        let mut tags = vec![
            ("Run".to_string(), self.run.clone()),
            ("RunLineups".to_string(), self.lineups.clone()),
            ("RunMatches".to_string(), self.matches.to_string()),
            ("RunRepeat".to_string(), if self.repeat { "yes" } else { "no" }.to_string()),
            ("RunSeed".to_string(), self.seed.to_string()),
            ("RunEngines".to_string(), self.engines.clone()),
            ("Swapped".to_string(), if swapped { "yes" } else { "no" }.to_string()),
        ];
        if let Some(shard) = self.shard {
            tags.push(("Shard".to_string(), shard.to_string()));
        }
        tags
    }
}

/// The `EndedBy` tag's word for what decided a match.
pub fn end_word(kind: EndKind) -> &'static str {
    match kind {
        EndKind::Mate => "mate",
        EndKind::Flag => "flag",
        EndKind::FrozenFlag => "frozen-flag",
        EndKind::Fault => "fault",
        EndKind::Draw => "draw",
    }
}

fn end_kind(word: &str) -> Option<EndKind> {
    [EndKind::Mate, EndKind::Flag, EndKind::FrozenFlag, EndKind::Fault, EndKind::Draw]
        .into_iter()
        .find(|&k| end_word(k) == word)
}

/// One match of a run as its records tell it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedMatch {
    /// 0-based, in the whole run's schedule.
    pub index: usize,
    pub swapped: bool,
    /// Team 1's view: `1-0`, `0-1`, `1/2-1/2`, `*`.
    pub result: String,
    pub ended_by: Option<EndKind>,
    pub reason: String,
}

/// What a set of records says about one run.
#[derive(Clone, Debug, Default)]
pub struct RunRecords {
    pub run: String,
    pub lineups: [String; 2],
    pub matches: usize,
    pub repeat: bool,
    /// By match index; a match of several records (relay5) once.
    pub played: BTreeMap<usize, RecordedMatch>,
}

impl RunRecords {
    /// Adds the records of one file; refuses records of another run, records
    /// without the run's tags, and a match that another file already holds.
    pub fn add(&mut self, source: &Path, records: &[Record]) -> Result<(), String> {
        let mut seen_here = BTreeSet::new();
        for (i, record) in records.iter().enumerate() {
            let at = || format!("{} (game {})", source.display(), i + 1);
            let run = record.tag("Run").ok_or_else(|| format!("{}: no Run tag: not a record of a tandem match run", at()))?;
            if self.run.is_empty() {
                self.run = run.to_string();
                let lineups = record.tag("RunLineups").unwrap_or("? vs ?");
                let (a, b) = lineups.split_once(" vs ").unwrap_or((lineups, "?"));
                self.lineups = [a.to_string(), b.to_string()];
                self.matches = record.tag("RunMatches").and_then(|n| n.parse().ok()).unwrap_or(0);
                self.repeat = record.tag("RunRepeat") == Some("yes");
            } else if run != self.run {
                return Err(format!("{}: run {run} is not run {} of the other records: refusing to merge different runs", at(), self.run));
            }
            let round: usize = record.tag("Round").and_then(|r| r.parse().ok()).filter(|&r| r >= 1).ok_or_else(|| format!("{}: no Round", at()))?;
            let index = round - 1;
            let first_here = seen_here.insert(index);
            if first_here && self.played.contains_key(&index) {
                return Err(format!("{}: match {round} was played twice (it is in an earlier file too)", at()));
            }
            if !first_here {
                continue; // another board of the same relay5 match
            }
            let result = record.tag("MatchResult").unwrap_or(record.result.as_str()).to_string();
            self.played.insert(
                index,
                RecordedMatch {
                    index,
                    swapped: record.tag("Swapped") == Some("yes"),
                    result,
                    ended_by: record.tag("EndedBy").and_then(end_kind),
                    reason: record.termination.clone().or_else(|| record.tag("Termination").map(str::to_string)).unwrap_or_default(),
                },
            );
        }
        Ok(())
    }
}

/// Reads a run's BPGN file for `--resume`: the complete records, and the
/// length of the file that holds them (a match cut off while it was being
/// written is not complete and is dropped).
pub fn read_complete(path: &Path) -> Result<(Vec<Record>, String), String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), String::new())),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let complete = complete_prefix(&text);
    let records = read_records(complete).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((records, complete.to_string()))
}

/// The longest prefix of `text` made of whole records: each ends with its
/// result token after the moves. A record is written in one piece after its
/// match, so only the last one can be cut.
fn complete_prefix(text: &str) -> &str {
    let mut end = 0;
    let mut offset = 0;
    for chunk in text.split_inclusive('\n') {
        offset += chunk.len();
        let line = chunk.trim();
        let finished = ["1-0", "0-1", "1/2-1/2", "*"].iter().any(|r| line.ends_with(&format!("}} {r}")) || line == *r)
            && !line.starts_with('[');
        if finished {
            end = offset;
        }
    }
    // Blank lines after the last complete record belong to it.
    let rest = &text[end..];
    if rest.trim().is_empty() {
        return text;
    }
    let blank = rest.len() - rest.trim_start_matches(['\n', '\r']).len();
    &text[..end + blank]
}

/// `--merge`: the records of every file, checked to be one run.
pub fn merge_files(paths: &[PathBuf]) -> Result<RunRecords, String> {
    let mut run = RunRecords::default();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let records = read_records(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        run.add(path, &records)?;
    }
    if run.played.is_empty() {
        return Err("--merge: the files hold no matches".to_string());
    }
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_schedule_and_keep_pairs_whole() {
        let shards: Vec<Shard> = (1..=3).map(|i| Shard { index: i, count: 3 }).collect();
        for repeat in [false, true] {
            let mut owner = Vec::new();
            for index in 0..20 {
                let owners: Vec<usize> = shards.iter().filter(|&&s| in_shard(Some(s), index, repeat)).map(|s| s.index).collect();
                assert_eq!(owners.len(), 1, "match {index} belongs to exactly one shard");
                owner.push(owners[0]);
            }
            if repeat {
                assert!(owner.chunks(2).all(|pair| pair[0] == pair[1]), "{owner:?}");
            }
        }
        assert!((0..5).all(|i| in_shard(None, i, true)));
        assert_eq!("2/8".parse::<Shard>(), Ok(Shard { index: 2, count: 8 }));
        for bad in ["0/3", "4/3", "1/0", "x", "1-3", "/"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_record_cut_while_written_is_dropped() {
        let whole = "[Event \"x\"]\n[Round \"1\"]\n\n1A. e4{1.0} 1a. e5{1.0}\n{BlackA lost on time} 1-0\n\n";
        let cut = "[Event \"x\"]\n[Round \"2\"]\n\n1A. e4{1.0} 1a. e5";
        assert_eq!(complete_prefix(whole), whole);
        assert_eq!(complete_prefix(&format!("{whole}{cut}")), whole);
        assert_eq!(complete_prefix(cut), "");
        assert_eq!(complete_prefix(""), "");
    }
}
