//! State shared by both protocols: the rules in force, our board with its
//! move history, and the bughouse context.

use tandem_engine::{parse_fen_with, Preset, Rules, RulesError};

use crate::board_state::BoardState;
use crate::bughouse::{BughouseContext, PartnerMessage};
use crate::output::echo;
use crate::parse::InputError;

/// The variants offered by UCI `UCI_Variant` (CECP names map onto them).
pub const VARIANTS: [Preset; 6] = [
    Preset::Chess,
    Preset::Crazyhouse,
    Preset::Bughouse,
    Preset::Tandem,
    Preset::Tandemschach,
    Preset::French,
];

/// Finds a variant by name; `normal` is CECP's name for chess.
pub fn variant_named(name: &str) -> Option<Preset> {
    let lower = name.to_ascii_lowercase();
    let lower = if lower == "normal" { "chess".to_string() } else { lower };
    VARIANTS.into_iter().find(|p| p.name() == lower)
}

/// The rules as two settings: a variant and a `Rules` string on top of it.
/// The string is either overrides (`drop_checks=no-mate,pawn_drops=ranks-2-6`),
/// applied to the variant, or a whole spec starting with a preset name
/// (`tandemschach,promotion=steal`), which then replaces the variant's preset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesConfig {
    pub variant: Preset,
    pub overrides: String,
}

impl Default for RulesConfig {
    fn default() -> RulesConfig {
        RulesConfig { variant: Preset::Chess, overrides: String::new() }
    }
}

impl RulesConfig {
    pub fn rules(&self) -> Result<Rules, InputError> {
        let overrides = self.overrides.trim();
        let starts_with_preset = overrides
            .split(',')
            .next()
            .is_some_and(|first| !first.contains('=') && !first.trim().is_empty());
        let spec = if overrides.is_empty() {
            self.variant.name().to_string()
        } else if starts_with_preset {
            overrides.to_string()
        } else {
            format!("{},{overrides}", self.variant.name())
        };
        spec.parse::<Rules>()
            .map_err(|e| InputError::new(format!("rules '{}': {e}{}", echo(&spec), valid_rules(&e))))
    }
}

/// A hint beyond the engine's own message (which lists the valid names and
/// values): a bad preset name here is often an override without its preset.
fn valid_rules(error: &RulesError) -> String {
    match error {
        RulesError::UnknownPreset(_) => " (or overrides such as mate=standard)".to_string(),
        _ => String::new(),
    }
}

/// The protocol-independent game state.
#[derive(Clone, Debug)]
pub struct Session {
    config: RulesConfig,
    rules: Rules,
    /// UCI_Chess960: boards are set up with the Chess960 castling conventions.
    chess960: bool,
    /// Our board: the one we move on.
    pub board: BoardState,
    pub bughouse: BughouseContext,
}

impl Default for Session {
    fn default() -> Session {
        let config = RulesConfig::default();
        let rules = Rules::chess();
        Session { config, rules, chess960: false, board: BoardState::startpos(rules), bughouse: BughouseContext::default() }
    }
}

impl Session {
    pub fn rules(&self) -> Rules {
        self.rules
    }

    pub fn config(&self) -> &RulesConfig {
        &self.config
    }

    pub fn chess960(&self) -> bool {
        self.chess960
    }

    /// Switches the Chess960 conventions (UCI_Chess960); the boards are read
    /// again in the new mode. Returns a note when a board had to be reset.
    pub fn set_chess960(&mut self, on: bool) -> Option<String> {
        if on == self.chess960 {
            return None;
        }
        self.chess960 = on;
        self.reread_boards()
    }

    /// Changes the rules settings if they make valid rules; the boards are read
    /// again under the new rules (or reset when they no longer hold).
    /// Returns a note when a board had to be reset.
    pub fn set_config(&mut self, config: RulesConfig) -> Result<Option<String>, InputError> {
        let rules = config.rules()?;
        self.config = config;
        if rules == self.rules {
            return Ok(None);
        }
        self.rules = rules;
        Ok(self.reread_boards())
    }

    /// Reads our board and the partner's again under the rules and castling
    /// mode in force; a note when ours had to be reset.
    fn reread_boards(&mut self) -> Option<String> {
        let (rules, chess960) = (self.rules, self.chess960);
        let mut note = None;
        self.board = self.board.under_rules(rules, chess960).unwrap_or_else(|| {
            note = Some("the position does not hold under the new rules: reset to the start position".to_string());
            BoardState::startpos_with(rules, chess960)
        });
        if let Some(partner) = &self.bughouse.partner_board {
            self.bughouse.partner_board = partner.under_rules(rules, chess960);
        }
        note
    }

    /// Keeps a partner message; `board <FEN>` becomes the partner board, read
    /// under our rules (a FEN that does not hold is refused and not kept).
    pub fn receive_partner_message(&mut self, message: PartnerMessage) -> Result<(), InputError> {
        if let PartnerMessage::Board(fen) = &message {
            let position = parse_fen_with(fen, self.rules, self.chess960)
                .map_err(|e| InputError::new(format!("the partner's board '{}': {e}", echo(fen))))?;
            self.bughouse.partner_board = Some(BoardState::new(position));
        }
        self.bughouse.receive(message);
        Ok(())
    }

    /// A new game: the start position, the bughouse context forgotten.
    pub fn new_game(&mut self) {
        self.board = BoardState::startpos_with(self.rules, self.chess960);
        self.bughouse.reset_game();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(variant: Preset, overrides: &str) -> RulesConfig {
        RulesConfig { variant, overrides: overrides.to_string() }
    }

    #[test]
    fn overrides_apply_to_the_variant_or_replace_it() {
        let r = config(Preset::Bughouse, "drop_checks=no-mate").rules().unwrap();
        assert_eq!(r.to_string(), "bughouse,drop_checks=no-mate");
        let r = config(Preset::Chess, "tandemschach,promotion=steal").rules().unwrap();
        assert_eq!(r.to_string(), "tandemschach,promotion=steal");
        assert!(config(Preset::Bughouse, "mate=maybe").rules().unwrap_err().0.contains("invalid value 'maybe'"));
        assert!(config(Preset::Bughouse, "bogus").rules().is_err());
        // A refusal lists what is accepted.
        let error = config(Preset::Bughouse, "mate=maybe").rules().unwrap_err().0;
        assert!(error.ends_with("(expected one of standard, potential)"), "{error}");
        let error = config(Preset::Bughouse, "frobnicate=1").rules().unwrap_err().0;
        assert!(error.contains("unknown rules option 'frobnicate' (expected one of drop_checks, pawn_drops, "), "{error}");
        let error = config(Preset::Bughouse, "promotion=standard").rules().unwrap_err().0;
        assert!(error.contains("promotion=standard is for chess only"), "{error}");
    }

    #[test]
    fn variant_change_keeps_the_position_when_it_holds() {
        let mut s = Session::default();
        s.board = BoardState::from_setup(None, &["e2e4".into()], s.rules(), false).unwrap();
        let note = s.set_config(config(Preset::Crazyhouse, "")).unwrap();
        assert_eq!(note, None);
        assert_eq!(s.board.moves().len(), 1);
        assert!(s.set_config(config(Preset::Crazyhouse, "x=y")).is_err());
        assert_eq!(s.rules(), Rules::crazyhouse());
        assert_eq!(variant_named("normal"), Some(Preset::Chess));
        assert_eq!(variant_named("relay5"), None);
    }
}
