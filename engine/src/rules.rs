//! The rule matrix of the bughouse family (RULES.md §2) as one runtime value.
//!
//! A [`Rules`] is a preset (§4) plus any overrides, written as a spec string:
//! `tandemschach,drop_checks=no-mate,pawn_drops=ranks-2-6`. The generator reads
//! the fields directly; the standard path tests them with cheap, predictable
//! branches.

use std::fmt;
use std::str::FromStr;

/// Where a captured piece goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flow {
    /// Chess and relay5: captured pieces leave the game; no reserves, no drops.
    Vanish,
    /// Crazyhouse: into the capturer's own reserve, in the capturer's colour.
    OwnReserve,
    /// Two-board families: to the capturer's partner on the other board. A
    /// single [`crate::Position`] only reports the piece; [`crate::Game`] credits it.
    Partner,
}

/// May a drop give check (RULES.md §2, `drop_checks`)?
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DropChecks {
    Allow,
    /// No drop may give check.
    NoCheck,
    /// A drop may give check but not mate.
    NoMate,
}

/// Where pawns may be dropped (`pawn_drops`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PawnDrops {
    Ranks2To7,
    /// Not on the dropper's own 7th rank.
    Ranks2To6,
    None,
}

/// What happens when a pawn reaches the last rank (`promotion`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Promotion {
    /// Plain chess: promote to Q/R/B/N, the piece is not marked.
    Standard,
    /// Promote to Q/R/B/N; the piece is marked and reverts to a pawn when captured.
    Revert,
    /// Take a piece of the promoter's colour from the other board (RULES.md §2).
    Steal,
    /// The pawn leaves the board and goes, as a pawn, to the opponent's partner.
    FallThrough,
    /// The pawn re-enters on an empty square of ranks 2-7 or goes to the own reserve.
    Reenter,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mate {
    /// No legal move with the real reserve while in check is mate.
    Standard,
    /// A check that a still-available piece could block freezes instead (RULES.md §3).
    Potential,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stalemate {
    Draw,
    /// Never stalemate: the player waits for material.
    Wait,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatchEnd {
    First,
    Both,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Simultaneous {
    Draw,
    FirstWins,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Repetition {
    Threefold,
    /// A draw may be claimed after four repetitions with no drop in between.
    FourfoldNoDrops,
    None,
}

/// The named presets of RULES.md §4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    Bughouse,
    Tandem,
    Tandemschach,
    French,
    Crazyhouse,
    Chess,
    Relay5,
}

impl Preset {
    pub const ALL: [Preset; 7] = [
        Preset::Bughouse,
        Preset::Tandem,
        Preset::Tandemschach,
        Preset::French,
        Preset::Crazyhouse,
        Preset::Chess,
        Preset::Relay5,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Preset::Bughouse => "bughouse",
            Preset::Tandem => "tandem",
            Preset::Tandemschach => "tandemschach",
            Preset::French => "french",
            Preset::Crazyhouse => "crazyhouse",
            Preset::Chess => "chess",
            Preset::Relay5 => "relay5",
        }
    }
}

/// Every rule option in force for a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub preset: Preset,
    pub flow: Flow,
    pub drop_checks: DropChecks,
    pub pawn_drops: PawnDrops,
    pub promotion: Promotion,
    pub mate: Mate,
    pub stalemate: Stalemate,
    pub match_end: MatchEnd,
    pub simultaneous: Simultaneous,
    pub repetition: Repetition,
    pub dropped_rook_castles: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::bughouse()
    }
}

impl Rules {
    pub const fn bughouse() -> Rules {
        Rules {
            preset: Preset::Bughouse,
            flow: Flow::Partner,
            drop_checks: DropChecks::Allow,
            pawn_drops: PawnDrops::Ranks2To7,
            promotion: Promotion::Revert,
            mate: Mate::Potential,
            stalemate: Stalemate::Wait,
            match_end: MatchEnd::First,
            simultaneous: Simultaneous::Draw,
            repetition: Repetition::Threefold,
            dropped_rook_castles: false,
        }
    }

    pub const fn tandem() -> Rules {
        Rules {
            preset: Preset::Tandem,
            drop_checks: DropChecks::NoCheck,
            mate: Mate::Standard,
            stalemate: Stalemate::Draw,
            match_end: MatchEnd::Both,
            dropped_rook_castles: true,
            ..Rules::bughouse()
        }
    }

    pub const fn tandemschach() -> Rules {
        Rules {
            preset: Preset::Tandemschach,
            drop_checks: DropChecks::NoCheck,
            mate: Mate::Standard,
            stalemate: Stalemate::Draw,
            ..Rules::bughouse()
        }
    }

    pub const fn french() -> Rules {
        Rules {
            preset: Preset::French,
            repetition: Repetition::FourfoldNoDrops,
            ..Rules::bughouse()
        }
    }

    pub const fn crazyhouse() -> Rules {
        Rules {
            preset: Preset::Crazyhouse,
            flow: Flow::OwnReserve,
            mate: Mate::Standard,
            stalemate: Stalemate::Draw,
            ..Rules::bughouse()
        }
    }

    pub const fn chess() -> Rules {
        Rules {
            preset: Preset::Chess,
            flow: Flow::Vanish,
            promotion: Promotion::Standard,
            mate: Mate::Standard,
            stalemate: Stalemate::Draw,
            ..Rules::bughouse()
        }
    }

    /// Relay5 boards are standard chess; the arbiter adds the rotation and scoring.
    pub const fn relay5() -> Rules {
        Rules {
            preset: Preset::Relay5,
            ..Rules::chess()
        }
    }

    pub const fn preset(preset: Preset) -> Rules {
        match preset {
            Preset::Bughouse => Rules::bughouse(),
            Preset::Tandem => Rules::tandem(),
            Preset::Tandemschach => Rules::tandemschach(),
            Preset::French => Rules::french(),
            Preset::Crazyhouse => Rules::crazyhouse(),
            Preset::Chess => Rules::chess(),
            Preset::Relay5 => Rules::relay5(),
        }
    }

    /// Drops exist at all (a reserve can be filled).
    pub const fn has_drops(&self) -> bool {
        !matches!(self.flow, Flow::Vanish)
    }

    /// Two boards are in play, so material arrives from outside this board.
    pub const fn is_two_board(&self) -> bool {
        matches!(self.flow, Flow::Partner)
    }

    /// Sets one option from its spec name and value.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        let bad = || RulesError::BadValue {
            option: key.to_string(),
            value: value.to_string(),
        };
        match key {
            "drop_checks" => self.drop_checks = parse_choice(value, DROP_CHECKS).ok_or_else(bad)?,
            "pawn_drops" => self.pawn_drops = parse_choice(value, PAWN_DROPS).ok_or_else(bad)?,
            "promotion" => self.promotion = parse_choice(value, PROMOTION).ok_or_else(bad)?,
            "mate" => self.mate = parse_choice(value, MATE).ok_or_else(bad)?,
            "stalemate" => self.stalemate = parse_choice(value, STALEMATE).ok_or_else(bad)?,
            "match_end" => self.match_end = parse_choice(value, MATCH_END).ok_or_else(bad)?,
            "simultaneous" => {
                self.simultaneous = parse_choice(value, SIMULTANEOUS).ok_or_else(bad)?
            }
            "repetition" => self.repetition = parse_choice(value, REPETITION).ok_or_else(bad)?,
            "dropped_rook_castles" => {
                self.dropped_rook_castles = parse_choice(value, BOOLS).ok_or_else(bad)?
            }
            _ => return Err(RulesError::UnknownOption(key.to_string())),
        }
        if self.promotion == Promotion::Standard && self.has_drops() {
            // Unmarked promoted pieces would go over as themselves: not a family rule.
            return Err(bad());
        }
        Ok(())
    }

    /// The option values as `key=value` pairs, in the order of RULES.md §2.
    pub fn options(&self) -> [(&'static str, &'static str); 9] {
        [
            ("drop_checks", choice_name(self.drop_checks, DROP_CHECKS)),
            ("pawn_drops", choice_name(self.pawn_drops, PAWN_DROPS)),
            ("promotion", choice_name(self.promotion, PROMOTION)),
            ("mate", choice_name(self.mate, MATE)),
            ("stalemate", choice_name(self.stalemate, STALEMATE)),
            ("match_end", choice_name(self.match_end, MATCH_END)),
            ("simultaneous", choice_name(self.simultaneous, SIMULTANEOUS)),
            ("repetition", choice_name(self.repetition, REPETITION)),
            ("dropped_rook_castles", choice_name(self.dropped_rook_castles, BOOLS)),
        ]
    }
}

const DROP_CHECKS: &[(&str, DropChecks)] = &[
    ("allow", DropChecks::Allow),
    ("no-check", DropChecks::NoCheck),
    ("no-mate", DropChecks::NoMate),
];
const PAWN_DROPS: &[(&str, PawnDrops)] = &[
    ("ranks-2-7", PawnDrops::Ranks2To7),
    ("ranks-2-6", PawnDrops::Ranks2To6),
    ("none", PawnDrops::None),
];
const PROMOTION: &[(&str, Promotion)] = &[
    ("standard", Promotion::Standard),
    ("revert", Promotion::Revert),
    ("steal", Promotion::Steal),
    ("fall-through", Promotion::FallThrough),
    ("reenter", Promotion::Reenter),
];
const MATE: &[(&str, Mate)] = &[("standard", Mate::Standard), ("potential", Mate::Potential)];
const STALEMATE: &[(&str, Stalemate)] = &[("draw", Stalemate::Draw), ("wait", Stalemate::Wait)];
const MATCH_END: &[(&str, MatchEnd)] = &[("first", MatchEnd::First), ("both", MatchEnd::Both)];
const SIMULTANEOUS: &[(&str, Simultaneous)] = &[
    ("draw", Simultaneous::Draw),
    ("first-wins", Simultaneous::FirstWins),
];
const REPETITION: &[(&str, Repetition)] = &[
    ("threefold", Repetition::Threefold),
    ("fourfold-no-drops", Repetition::FourfoldNoDrops),
    ("none", Repetition::None),
];
const BOOLS: &[(&str, bool)] = &[("true", true), ("false", false)];

/// Every rules option with the values it accepts, in the order of
/// [`Rules::options`] (for messages that list them).
pub fn option_values() -> [(&'static str, Vec<&'static str>); 9] {
    fn names<T>(table: &[(&'static str, T)]) -> Vec<&'static str> {
        table.iter().map(|&(name, _)| name).collect()
    }
    [
        ("drop_checks", names(DROP_CHECKS)),
        ("pawn_drops", names(PAWN_DROPS)),
        ("promotion", names(PROMOTION)),
        ("mate", names(MATE)),
        ("stalemate", names(STALEMATE)),
        ("match_end", names(MATCH_END)),
        ("simultaneous", names(SIMULTANEOUS)),
        ("repetition", names(REPETITION)),
        ("dropped_rook_castles", names(BOOLS)),
    ]
}

fn parse_choice<T: Copy>(value: &str, table: &[(&str, T)]) -> Option<T> {
    table.iter().find(|(name, _)| *name == value).map(|&(_, v)| v)
}

fn choice_name<T: PartialEq>(value: T, table: &[(&'static str, T)]) -> &'static str {
    table
        .iter()
        .find(|(_, v)| *v == value)
        .map(|&(name, _)| name)
        .unwrap_or("?")
}

/// Why a rules spec was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    Empty,
    UnknownPreset(String),
    UnknownOption(String),
    MissingValue(String),
    BadValue { option: String, value: String },
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::Empty => write!(f, "empty rules spec"),
            RulesError::UnknownPreset(name) => {
                let names: Vec<_> = Preset::ALL.iter().map(|p| p.name()).collect();
                write!(f, "unknown preset '{name}' (expected one of {})", names.join(", "))
            }
            RulesError::UnknownOption(key) => write!(f, "unknown rules option '{key}'"),
            RulesError::MissingValue(key) => write!(f, "rules option '{key}' needs '=value'"),
            RulesError::BadValue { option, value } => {
                write!(f, "invalid value '{value}' for rules option '{option}'")
            }
        }
    }
}

impl std::error::Error for RulesError {}

impl FromStr for Rules {
    type Err = RulesError;

    /// Parses `preset[,option=value]*`.
    fn from_str(spec: &str) -> Result<Rules, RulesError> {
        let mut parts = spec.split(',').map(str::trim);
        let name = parts.next().filter(|s| !s.is_empty()).ok_or(RulesError::Empty)?;
        let preset = Preset::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| RulesError::UnknownPreset(name.to_string()))?;
        let mut rules = Rules::preset(preset);
        for part in parts {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| RulesError::MissingValue(part.to_string()))?;
            rules.set(key.trim(), value.trim())?;
        }
        Ok(rules)
    }
}

impl fmt::Display for Rules {
    /// The canonical spec: the preset name and the options that differ from it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.preset.name())?;
        let base = Rules::preset(self.preset).options();
        for ((key, value), (_, default)) in self.options().into_iter().zip(base) {
            if value != default {
                write!(f, ",{key}={value}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_match_the_table() {
        let t: Rules = "tandem".parse().unwrap();
        assert_eq!(t.drop_checks, DropChecks::NoCheck);
        assert_eq!(t.match_end, MatchEnd::Both);
        assert!(t.dropped_rook_castles);
        let f: Rules = "french".parse().unwrap();
        assert_eq!(f.repetition, Repetition::FourfoldNoDrops);
        assert_eq!(f.mate, Mate::Potential);
        assert_eq!("crazyhouse".parse::<Rules>().unwrap().flow, Flow::OwnReserve);
    }

    #[test]
    fn option_values_list_every_option_and_its_current_value() {
        let values = option_values();
        for ((key, value), (listed, accepted)) in Rules::tandemschach().options().into_iter().zip(&values) {
            assert_eq!(key, *listed);
            assert!(accepted.contains(&value), "{key}={value}");
        }
        assert_eq!(values[3], ("mate", vec!["standard", "potential"]));
    }

    #[test]
    fn spec_round_trips() {
        let spec = "tandemschach,drop_checks=no-mate,pawn_drops=ranks-2-6,promotion=steal";
        let rules: Rules = spec.parse().unwrap();
        assert_eq!(rules.to_string(), spec);
        assert_eq!(rules.to_string().parse::<Rules>().unwrap(), rules);
        assert_eq!(Rules::bughouse().to_string(), "bughouse");
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        assert_eq!("".parse::<Rules>(), Err(RulesError::Empty));
        assert!(matches!("bugh".parse::<Rules>(), Err(RulesError::UnknownPreset(_))));
        assert!(matches!("bughouse,foo=1".parse::<Rules>(), Err(RulesError::UnknownOption(_))));
        assert!(matches!("bughouse,mate".parse::<Rules>(), Err(RulesError::MissingValue(_))));
        assert!(matches!(
            "bughouse,mate=maybe".parse::<Rules>(),
            Err(RulesError::BadValue { .. })
        ));
    }
}
