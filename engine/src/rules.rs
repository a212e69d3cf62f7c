//! The rule matrix of the bughouse family (RULES.md §2) as one runtime value.
//!
//! A [`Rules`] is a preset (§4) plus any overrides, written as a spec string:
//! `tandemschach,drop_checks=no-mate,pawn_drops=ranks-2-7`. The generator reads
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

    /// Where the preset comes from, in a few words (`tandem rules`).
    pub fn description(self) -> &'static str {
        match self {
            Preset::Bughouse => "online bughouse (FICS, chess.com): two boards, captures go to the partner",
            Preset::Tandem => "tandem chess (chessvariants, 1996): no checking drops, both boards played out",
            Preset::Tandemschach => "German Tandemschach: no checking drops, pawns dropped up to the 6th rank",
            Preset::French => "French rules: potential mate, fourfold repetition without drops",
            Preset::Crazyhouse => "one board, captures go to the capturer's own reserve",
            Preset::Chess => "standard chess, no drops",
            Preset::Relay5 => "two-man five-board relay: five boards of standard chess, walking players",
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

    /// Seed 001 lists its alternatives in order; the preset takes the first of
    /// each (RULES.md §4): pawns dropped up to the 6th rank.
    pub const fn tandemschach() -> Rules {
        Rules {
            preset: Preset::Tandemschach,
            drop_checks: DropChecks::NoCheck,
            pawn_drops: PawnDrops::Ranks2To6,
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
            return Err(RulesError::Conflict(format!(
                "promotion=standard is for chess only: with drops use revert, steal, fall-through or reenter ({} has drops)",
                self.preset.name()
            )));
        }
        Ok(())
    }

    /// The `key=value` overrides (comma-joined, the `Rules` option's syntax)
    /// that turn `base` into these rules; `None` when they are the same.
    pub fn overrides_against(&self, base: &Rules) -> Option<String> {
        let overrides: Vec<String> = self
            .options()
            .into_iter()
            .zip(base.options())
            .filter(|(ours, theirs)| ours.1 != theirs.1)
            .map(|(ours, _)| format!("{}={}", ours.0, ours.1))
            .collect();
        (!overrides.is_empty()).then(|| overrides.join(","))
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

/// One value of an option: its spec name, the value, and what it means.
type Choice<T> = (&'static str, T, &'static str);

const DROP_CHECKS: &[Choice<DropChecks>] = &[
    ("allow", DropChecks::Allow, "any drop is legal"),
    ("no-check", DropChecks::NoCheck, "a drop may not give check"),
    ("no-mate", DropChecks::NoMate, "a drop may give check but not mate"),
];
const PAWN_DROPS: &[Choice<PawnDrops>] = &[
    ("ranks-2-7", PawnDrops::Ranks2To7, "pawns on any rank but the first and last"),
    ("ranks-2-6", PawnDrops::Ranks2To6, "not on the dropper's 7th rank either"),
    ("none", PawnDrops::None, "pawns are never dropped"),
];
const PROMOTION: &[Choice<Promotion>] = &[
    ("standard", Promotion::Standard, "promote as in chess (chess only)"),
    ("revert", Promotion::Revert, "the promoted piece is marked and goes over as a pawn when captured"),
    ("steal", Promotion::Steal, "take a piece of the promoter's colour from the other board"),
    ("fall-through", Promotion::FallThrough, "the pawn leaves the board to the opponent's partner"),
    ("reenter", Promotion::Reenter, "the pawn reappears on ranks 2-7 or in the own reserve"),
];
const MATE: &[Choice<Mate>] = &[
    ("standard", Mate::Standard, "no legal move with the pieces in hand"),
    ("potential", Mate::Potential, "a check a piece still to arrive could block is not mate: the player waits"),
];
const STALEMATE: &[Choice<Stalemate>] = &[
    ("draw", Stalemate::Draw, "stalemate draws the board"),
    ("wait", Stalemate::Wait, "never stalemate: the player waits for material"),
];
const MATCH_END: &[Choice<MatchEnd>] = &[
    ("first", MatchEnd::First, "the first board to end decides the match"),
    ("both", MatchEnd::Both, "both boards are played out and scored"),
];
const SIMULTANEOUS: &[Choice<Simultaneous>] = &[
    ("draw", Simultaneous::Draw, "boards ending at once draw the match"),
    ("first-wins", Simultaneous::FirstWins, "the strictly earlier end decides"),
];
const REPETITION: &[Choice<Repetition>] = &[
    ("threefold", Repetition::Threefold, "the third occurrence draws"),
    ("fourfold-no-drops", Repetition::FourfoldNoDrops, "the fourth draws when a player made no drop since the first"),
    ("none", Repetition::None, "no draw by repetition"),
];
const BOOLS: &[Choice<bool>] = &[("true", true, "yes"), ("false", false, "no")];

fn parse_choice<T: Copy>(value: &str, table: &[Choice<T>]) -> Option<T> {
    table.iter().find(|(name, _, _)| *name == value).map(|&(_, v, _)| v)
}

fn choice_name<T: PartialEq>(value: T, table: &[Choice<T>]) -> &'static str {
    table.iter().find(|(_, v, _)| *v == value).map(|&(name, _, _)| name).unwrap_or("?")
}

/// One option of the rule matrix, described for people (`tandem rules`, errors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    pub name: &'static str,
    pub meaning: &'static str,
    /// Each value's spec name and meaning.
    pub values: Vec<(&'static str, &'static str)>,
}

fn info<T>(name: &'static str, meaning: &'static str, table: &[Choice<T>]) -> OptionInfo {
    OptionInfo { name, meaning, values: table.iter().map(|&(value, _, what)| (value, what)).collect() }
}

/// Every rule option, in the order of RULES.md §2.
pub fn rule_options() -> Vec<OptionInfo> {
    vec![
        info("drop_checks", "may a drop give check", DROP_CHECKS),
        info("pawn_drops", "where pawns may be dropped", PAWN_DROPS),
        info("promotion", "what a pawn on the last rank becomes", PROMOTION),
        info("mate", "what counts as mate", MATE),
        info("stalemate", "a player with no legal move, not in check", STALEMATE),
        info("match_end", "which boards decide the match", MATCH_END),
        info("simultaneous", "two boards ending at once", SIMULTANEOUS),
        info("repetition", "draw by repetition", REPETITION),
        info("dropped_rook_castles", "a rook dropped on its corner may castle", BOOLS),
    ]
}

/// Why a rules spec was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    Empty,
    UnknownPreset(String),
    UnknownOption(String),
    MissingValue(String),
    BadValue { option: String, value: String },
    /// A value that does not go with the rest of the rules.
    Conflict(String),
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::Empty => write!(f, "empty rules spec"),
            RulesError::UnknownPreset(name) => {
                let names: Vec<_> = Preset::ALL.iter().map(|p| p.name()).collect();
                write!(f, "unknown preset '{name}' (expected one of {})", names.join(", "))
            }
            RulesError::UnknownOption(key) => {
                let names: Vec<_> = rule_options().iter().map(|o| o.name).collect();
                write!(f, "unknown rules option '{key}' (expected one of {})", names.join(", "))
            }
            RulesError::MissingValue(key) => write!(f, "rules option '{key}' needs '=value'"),
            RulesError::Conflict(why) => f.write_str(why),
            RulesError::BadValue { option, value } => {
                write!(f, "invalid value '{value}' for rules option '{option}'")?;
                match rule_options().into_iter().find(|o| o.name == option) {
                    Some(known) => {
                        let values: Vec<_> = known.values.iter().map(|(v, _)| *v).collect();
                        write!(f, " (expected one of {})", values.join(", "))
                    }
                    None => Ok(()),
                }
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
        assert_eq!(Rules::tandemschach().pawn_drops, PawnDrops::Ranks2To6, "the German text's first-listed rank");
        let f: Rules = "french".parse().unwrap();
        assert_eq!(f.repetition, Repetition::FourfoldNoDrops);
        assert_eq!(f.mate, Mate::Potential);
        assert_eq!("crazyhouse".parse::<Rules>().unwrap().flow, Flow::OwnReserve);
    }

    #[test]
    fn every_option_lists_the_current_value_of_each_preset() {
        for preset in Preset::ALL {
            for ((key, value), option) in Rules::preset(preset).options().into_iter().zip(rule_options()) {
                assert_eq!(key, option.name);
                assert!(option.values.iter().any(|(v, _)| *v == value), "{key}={value}");
            }
        }
    }

    #[test]
    fn spec_round_trips() {
        let spec = "tandemschach,drop_checks=no-mate,pawn_drops=ranks-2-7,promotion=steal";
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
