//! A checked run of `tandem match`: the table the rules need, the time
//! controls of every seat, the engines and openings. [`crate::cli`] builds it
//! from the command line; [`crate::runner`] plays it.

use std::path::PathBuf;
use std::time::Duration;

use tandem_engine::{Preset, Rules};

use crate::clock::TimeControl;
use crate::engine_proc::EngineConfig;
use crate::matchplay::{ONE_BOARD_SEAT_NAMES, SEAT_NAMES};
use crate::openings::Opening;
use crate::stats::Sprt;

/// What kind of table the rules need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// Two boards, four seats (bughouse family).
    TwoBoards,
    /// One board, two seats (crazyhouse, chess).
    OneBoard,
    /// Five boards, four walking players.
    Relay5,
}

impl Table {
    pub fn for_rules(rules: &Rules) -> Table {
        if rules.preset == Preset::Relay5 {
            Table::Relay5
        } else if rules.is_two_board() {
            Table::TwoBoards
        } else {
            Table::OneBoard
        }
    }

    /// Engines each team fields.
    pub fn players_per_team(self) -> usize {
        match self {
            Table::OneBoard => 1,
            Table::TwoBoards | Table::Relay5 => 2,
        }
    }

    pub fn seats(self) -> usize {
        2 * self.players_per_team()
    }

    /// The seats of team 1's players, in lineup order.
    pub fn team_seats(self, team: usize) -> Vec<usize> {
        match (self, team) {
            (Table::TwoBoards, 0) => vec![0, 3],
            (Table::TwoBoards, _) => vec![1, 2],
            (Table::OneBoard, 0) => vec![0],
            (Table::OneBoard, _) => vec![1],
            (Table::Relay5, 0) => vec![0, 2],
            (Table::Relay5, _) => vec![1, 3],
        }
    }

    pub fn seat_names(self) -> &'static [&'static str] {
        match self {
            Table::TwoBoards => &SEAT_NAMES,
            Table::OneBoard => &ONE_BOARD_SEAT_NAMES,
            Table::Relay5 => &crate::relay5::SEAT_NAMES,
        }
    }
}

/// Time controls by seat and team.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeSpec {
    pub default: TimeControl,
    /// For the first and second lineup, wherever they sit.
    pub lineup: [Option<TimeControl>; 2],
    /// For a seat, whoever sits there.
    pub seat: Vec<Option<TimeControl>>,
}

impl TimeSpec {
    /// The clock of `seat` when `lineup` (0 or 1) sits there.
    pub fn for_seat(&self, seat: usize, lineup: usize) -> TimeControl {
        self.seat.get(seat).copied().flatten().or(self.lineup[lineup]).unwrap_or(self.default)
    }
}

/// A checked run: everything the runner needs.
#[derive(Clone, Debug)]
pub struct Plan {
    pub rules: Rules,
    pub table: Table,
    /// Engine configuration per lineup player: `lineups[team][i]`.
    pub lineups: [Vec<EngineConfig>; 2],
    pub times: TimeSpec,
    pub games: usize,
    pub repeat: bool,
    pub openings: Vec<Opening>,
    pub bpgn: Option<PathBuf>,
    pub sprt: Option<Sprt>,
    pub concurrency: usize,
    pub seed: u64,
    pub show: bool,
    pub walking: Duration,
    pub log: Option<PathBuf>,
    pub event: String,
    /// Play only this part of the schedule.
    pub shard: Option<crate::shards::Shard>,
    /// Skip the matches the `bpgn` file already holds.
    pub resume: bool,
    /// cutechess-cli's per-game lines instead of the progress line.
    pub cutechess_output: bool,
    /// One JSON object per finished match.
    pub jsonl: Option<PathBuf>,
}

impl Plan {
    /// Display name of a lineup: `tandem+fsf`, or one name when both agree.
    pub fn lineup_label(&self, team: usize) -> String {
        let names: Vec<&str> = self.lineups[team].iter().map(|e| e.name.as_str()).collect();
        if names.windows(2).all(|w| w[0] == w[1]) {
            names.first().map(|n| n.to_string()).unwrap_or_default()
        } else {
            names.join("+")
        }
    }
}
