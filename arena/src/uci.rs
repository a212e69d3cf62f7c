//! The UCI adapter, with tandem's bughouse extension (PROTOCOL.md).
//!
//! Plain UCI engines (fairy-stockfish with `UCI_Variant bughouse`) get the
//! current FEN with reserves at every `position`; material that arrives while
//! they think reaches them at their next move. Engines that answer `bughouse`
//! with `bughouseok` also get their seat, the partner board (`partner fen`),
//! the partner clocks (`go … pwtime pbtime pwinc pbinc`), reserve updates
//! during the search (`reserve`) and partner messages (`ptell`).

use std::time::Duration;

use tandem_engine::{Color, Reserve, Rules};

use crate::engine_proc::{Adapter, Handshake, Parsed};
use crate::seats::{ClockReading, FaultKind, FromEngine, MoveRequest, ToEngine};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Sent `uci`, waiting for `uciok`.
    Identify,
    /// Sent `bughouse` + `isready`, waiting for `readyok`.
    Extension,
    /// Sent the options + `isready`, waiting for `readyok`.
    Options,
    Ready,
}

/// An option the engine declared (`option name … type …`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct DeclaredOption {
    name: String,
    choices: Vec<String>,
}

pub struct UciAdapter {
    rules: Rules,
    user_options: Vec<(String, String)>,
    phase: Phase,
    declared: Vec<DeclaredOption>,
    engine_name: Option<String>,
    /// The extension may be offered (`bughouse` is sent in the handshake).
    offer_extension: bool,
    /// The engine speaks the bughouse extension.
    extension: bool,
    searching: bool,
}

impl UciAdapter {
    pub fn new(rules: Rules, user_options: Vec<(String, String)>, offer_extension: bool) -> UciAdapter {
        UciAdapter {
            rules,
            offer_extension,
            user_options,
            phase: Phase::Identify,
            declared: Vec::new(),
            engine_name: None,
            extension: false,
            searching: false,
        }
    }

    /// True when the engine answered `bughouseok`.
    pub fn has_extension(&self) -> bool {
        self.extension
    }

    fn declared(&self, name: &str) -> Option<&DeclaredOption> {
        self.declared.iter().find(|o| o.name.eq_ignore_ascii_case(name))
    }

    fn user_sets(&self, name: &str) -> bool {
        self.user_options.iter().any(|(k, _)| k.eq_ignore_ascii_case(name))
    }

    /// The `setoption` lines: variant and rules first, then the user's options.
    fn option_lines(&self) -> Result<Vec<String>, String> {
        let mut lines = Vec::new();
        if !self.user_sets("UCI_Variant") {
            if let Some(variant) = self.choose_variant()? {
                lines.push(format!("setoption name UCI_Variant value {variant}"));
                if let Some(overrides) = self.rules_overrides(&variant) {
                    lines.push(format!("setoption name Rules value {overrides}"));
                }
            }
        }
        for (name, value) in &self.user_options {
            lines.push(format!("setoption name {name} value {value}"));
        }
        Ok(lines)
    }

    /// The `UCI_Variant` value for the rules: the preset itself when the engine
    /// knows it (tandem does), else the family's common name.
    fn choose_variant(&self) -> Result<Option<String>, String> {
        let family = if self.rules.is_two_board() {
            "bughouse"
        } else if self.rules.has_drops() {
            "crazyhouse"
        } else {
            "chess"
        };
        let Some(option) = self.declared("UCI_Variant") else {
            return if family == "chess" {
                Ok(None)
            } else {
                Err(format!("the engine has no UCI_Variant option, so it cannot play {family}"))
            };
        };
        let offered = |name: &str| option.choices.iter().any(|c| c.eq_ignore_ascii_case(name));
        let preset = self.rules.preset.name();
        if offered(preset) && preset != "relay5" {
            return Ok(Some(preset.to_string()));
        }
        if offered(family) {
            return Ok(Some(family.to_string()));
        }
        if family == "chess" {
            return Ok(None);
        }
        Err(format!("the engine's UCI_Variant does not offer {family}"))
    }

    /// The `Rules` option value (tandem's) that turns `variant` into our rules.
    fn rules_overrides(&self, variant: &str) -> Option<String> {
        self.declared("Rules")?;
        let base: Rules = variant.parse().ok()?;
        self.rules.overrides_against(&base)
    }

    fn go_line(&self, clocks: &ClockReading, partner: Option<&ClockReading>) -> String {
        let ms = |d: Duration| d.as_millis();
        let mut line = format!(
            "go wtime {} btime {} winc {} binc {}",
            ms(clocks.white),
            ms(clocks.black),
            ms(clocks.white_increment),
            ms(clocks.black_increment)
        );
        if let (true, Some(p)) = (self.extension, partner) {
            line.push_str(&format!(
                " pwtime {} pbtime {} pwinc {} pbinc {}",
                ms(p.white),
                ms(p.black),
                ms(p.white_increment),
                ms(p.black_increment)
            ));
        }
        line
    }

    fn request_lines(&mut self, request: &MoveRequest) -> Vec<String> {
        let mut lines = Vec::new();
        if self.extension {
            if let Some(partner) = &request.partner {
                lines.push(format!("partner fen {}", partner.fen));
            }
        }
        if request.outside_material || request.moves.is_empty() {
            lines.push(format!("position fen {}", request.fen));
        } else {
            lines.push(format!("position fen {} moves {}", request.start_fen, request.moves.join(" ")));
        }
        lines.push(self.go_line(&request.clocks, request.partner.as_ref().map(|p| &p.clocks)));
        self.searching = true;
        lines
    }
}

/// Both reserves as `reserve` letters (`QNpp`, `-` when empty).
pub fn reserve_letters(reserves: &[Reserve; 2]) -> String {
    let text = format!("{}{}", reserves[0].to_letters(true), reserves[1].to_letters(false));
    if text.is_empty() {
        "-".to_string()
    } else {
        text
    }
}

/// Parses `option name <name with spaces> type <t> [default …] [var …]*`.
fn parse_option(line: &str) -> Option<DeclaredOption> {
    let rest = line.strip_prefix("option name ")?;
    let (name, tail) = match rest.find(" type ") {
        Some(at) => (&rest[..at], &rest[at + 6..]),
        None => (rest, ""),
    };
    let choices = tail.split(" var ").skip(1).map(|v| v.trim().to_string()).collect();
    Some(DeclaredOption { name: name.trim().to_string(), choices })
}

impl Adapter for UciAdapter {
    fn start(&mut self) -> Vec<String> {
        vec!["uci".to_string()]
    }

    fn handshake_line(&mut self, line: &str) -> Handshake {
        let line = line.trim();
        match self.phase {
            Phase::Identify => {
                if let Some(name) = line.strip_prefix("id name ") {
                    self.engine_name = Some(name.trim().to_string());
                } else if let Some(option) = parse_option(line) {
                    self.declared.push(option);
                } else if line == "uciok" {
                    if self.rules.is_two_board() && self.offer_extension {
                        self.phase = Phase::Extension;
                        return Handshake::Continue(vec!["bughouse".into(), "isready".into()]);
                    }
                    return self.send_options();
                }
                Handshake::Continue(Vec::new())
            }
            Phase::Extension => {
                if line == "bughouseok" {
                    self.extension = true;
                } else if line == "readyok" {
                    return self.send_options();
                }
                Handshake::Continue(Vec::new())
            }
            Phase::Options => {
                if line == "readyok" {
                    self.phase = Phase::Ready;
                    return Handshake::Ready(Vec::new());
                }
                Handshake::Continue(Vec::new())
            }
            Phase::Ready => Handshake::Ready(Vec::new()),
        }
    }

    fn quiet_limit(&self) -> Option<Duration> {
        None
    }

    fn handshake_quiet(&mut self) -> Handshake {
        Handshake::Failed("no answer to the UCI handshake".into())
    }

    fn translate(&mut self, message: &ToEngine) -> Vec<String> {
        match message {
            ToEngine::NewGame(setup) => {
                let mut lines = Vec::new();
                if self.extension {
                    let color = if setup.color == Color::White { "white" } else { "black" };
                    lines.push(format!("seat {} {color}", setup.board_label));
                }
                lines
            }
            ToEngine::Go(request) => self.request_lines(request),
            ToEngine::Reserves { reserves, .. } if self.extension && self.searching => {
                vec![format!("reserve {}", reserve_letters(reserves))]
            }
            ToEngine::Reserves { .. } => Vec::new(),
            ToEngine::PartnerTell(text) if self.extension => vec![format!("ptell {text}")],
            ToEngine::PartnerTell(_) => Vec::new(),
            ToEngine::GameOver { .. } if self.searching => {
                self.searching = false;
                vec!["stop".to_string()]
            }
            ToEngine::GameOver { .. } => Vec::new(),
        }
    }

    fn parse(&mut self, line: &str) -> Parsed {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("bestmove") {
            if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
                return Parsed::event(FromEngine::Fault { kind: FaultKind::Garbage, detail: format!("sent '{line}'") });
            }
            self.searching = false;
            let event = match rest.split_whitespace().next() {
                None => FromEngine::Fault { kind: FaultKind::Garbage, detail: "sent 'bestmove' without a move".into() },
                Some("(none)" | "0000" | "none" | "null") => FromEngine::Fault {
                    kind: FaultKind::Resign,
                    detail: format!("answered '{line}' with legal moves on the board"),
                },
                Some(m) => FromEngine::Move(m.to_string()),
            };
            return Parsed::event(event);
        }
        if self.extension {
            if let Some(text) = line.strip_prefix("ptell ") {
                return Parsed::event(FromEngine::Tell(text.trim().to_string()));
            }
        }
        Parsed::nothing()
    }

    fn quit(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        if self.searching {
            lines.push("stop".to_string());
        }
        lines.push("quit".to_string());
        lines
    }

    fn engine_name(&self) -> Option<&str> {
        self.engine_name.as_deref()
    }
}

impl UciAdapter {
    fn send_options(&mut self) -> Handshake {
        match self.option_lines() {
            Ok(mut lines) => {
                self.phase = Phase::Options;
                lines.push("ucinewgame".into());
                lines.push("isready".into());
                Handshake::Continue(lines)
            }
            Err(why) => Handshake::Failed(why),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handshake(adapter: &mut UciAdapter, lines: &[&str]) -> Vec<String> {
        let mut sent = Vec::new();
        for line in lines {
            match adapter.handshake_line(line) {
                Handshake::Continue(out) | Handshake::Ready(out) => sent.extend(out),
                Handshake::Failed(why) => panic!("{why}"),
            }
        }
        sent
    }

    #[test]
    fn picks_the_variant_and_probes_the_extension() {
        let mut fsf = UciAdapter::new(Rules::bughouse(), vec![("Hash".into(), "16".into())], true);
        let sent = handshake(
            &mut fsf,
            &[
                "id name Fairy-Stockfish 11.1",
                "option name Move Overhead type spin default 30 min 0 max 5000",
                "option name UCI_Variant type combo default chess var bughouse var chess var crazyhouse",
                "uciok",
                "Unknown command: bughouse",
                "readyok",
                "readyok",
            ],
        );
        assert_eq!(
            sent,
            [
                "bughouse",
                "isready",
                "setoption name UCI_Variant value bughouse",
                "setoption name Hash value 16",
                "ucinewgame",
                "isready"
            ]
        );
        assert!(!fsf.has_extension());
        assert_eq!(fsf.engine_name(), Some("Fairy-Stockfish 11.1"));
    }

    #[test]
    fn tandem_gets_its_preset_and_rule_overrides() {
        let rules: Rules = "tandemschach,drop_checks=no-mate".parse().unwrap();
        let mut tandem = UciAdapter::new(rules, Vec::new(), true);
        let sent = handshake(
            &mut tandem,
            &[
                "option name UCI_Variant type combo default chess var chess var bughouse var tandemschach",
                "option name Rules type string default",
                "uciok",
                "feature seat partner reserve clocks ptell bfen",
                "bughouseok",
                "readyok",
            ],
        );
        assert!(sent.contains(&"setoption name UCI_Variant value tandemschach".to_string()));
        assert!(sent.contains(&"setoption name Rules value drop_checks=no-mate".to_string()));
        assert!(tandem.has_extension());
    }

    #[test]
    fn extension_off_never_offers_bughouse() {
        let mut tandem = UciAdapter::new(Rules::bughouse(), Vec::new(), false);
        let sent = handshake(
            &mut tandem,
            &["option name UCI_Variant type combo default chess var chess var bughouse", "uciok", "readyok"],
        );
        assert_eq!(sent, ["setoption name UCI_Variant value bughouse", "ucinewgame", "isready"]);
        assert!(!tandem.has_extension());
    }

    #[test]
    fn refuses_an_engine_without_the_variant() {
        let mut plain = UciAdapter::new(Rules::crazyhouse(), Vec::new(), true);
        assert!(matches!(plain.handshake_line("uciok"), Handshake::Failed(_)));
    }

    #[test]
    fn reads_bestmove_forms() {
        let mut uci = UciAdapter::new(Rules::chess(), Vec::new(), true);
        assert_eq!(uci.parse("bestmove e2e4 ponder e7e5").event, Some(FromEngine::Move("e2e4".into())));
        assert!(matches!(uci.parse("bestmove (none)").event, Some(FromEngine::Fault { kind: FaultKind::Resign, .. })));
        assert!(matches!(uci.parse("bestmove").event, Some(FromEngine::Fault { kind: FaultKind::Garbage, .. })));
        assert!(matches!(uci.parse("bestmovee2e4").event, Some(FromEngine::Fault { kind: FaultKind::Garbage, .. })));
        assert_eq!(uci.parse("info depth 3 score cp 20").event, None);
        assert_eq!(uci.parse("ptell sit").event, None, "ptell needs the extension");
        assert_eq!(reserve_letters(&[Reserve::EMPTY, Reserve::EMPTY]), "-");
    }
}
