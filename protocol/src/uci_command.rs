//! UCI command lines, parsed into values by a pure function.
//!
//! As the UCI specification asks, unknown tokens are skipped: leading ones
//! until a known command (`joho debug on` is `debug on`), and unknown tokens
//! inside `go` and `position`. The skipped tokens are returned so the front
//! end can report them. Malformed known commands are errors.

use std::time::Duration;

use tandem_engine::parse_reserve_letters;
use tandem_engine::{BoardId, Color, Reserve};

use crate::bughouse::{PartnerMessage, Seat};
use crate::output::echo;
use crate::parse::{clock_millis, millis, number_in, InputError};

/// Indices of the colour-indexed arrays (`Color as usize`: Black is 0).
const WHITE: usize = Color::White as usize;
const BLACK: usize = Color::Black as usize;

/// Deepest search a `go depth` may ask for.
pub const MAX_DEPTH: u32 = 255;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciCommand {
    Uci,
    Debug(bool),
    IsReady,
    SetOption { name: String, value: Option<String> },
    Register,
    UciNewGame,
    Position(PositionCommand),
    Go(GoCommand),
    Stop,
    PonderHit,
    Quit,
    /// `d`: shows the state as `info string` lines (not UCI; for people and tests).
    Display,
    /// Switches the bughouse extension on.
    Bughouse,
    Seat(Seat),
    Partner(PartnerCommand),
    /// Both reserves of our board, indexed by colour.
    Reserve([Reserve; 2]),
    PTell(PartnerMessage),
}

/// Commands that exist only with the bughouse extension on.
const EXTENSION_COMMANDS: [&str; 4] = ["seat", "partner", "reserve", "ptell"];

/// The error for a part of the extension used before `bughouse` switched it on.
fn needs_extension(what: &str) -> InputError {
    InputError::new(format!("'{what}' belongs to the bughouse extension: send 'bughouse' first"))
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setup {
    StartPos,
    Fen(String),
    /// Both boards, `fenA | fenB` (extension).
    Bfen(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    pub setup: Setup,
    pub moves: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartnerCommand {
    /// The partner board from a FEN (`None`: start position) and moves.
    Set { fen: Option<String>, moves: Vec<String> },
    /// One more move on the partner board.
    Move(String),
    /// Forget the partner board.
    Clear,
}

/// The tokens of `go`. Times are indexed by `Color as usize`, as in `Clock`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    pub time: [Option<Duration>; 2],
    pub increment: [Option<Duration>; 2],
    pub moves_to_go: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<Duration>,
    pub infinite: bool,
    pub ponder: bool,
    pub search_moves: Vec<String>,
    /// Extension: the partner board's clocks (`pwtime pbtime pwinc pbinc`).
    pub partner_time: [Option<Duration>; 2],
    pub partner_increment: [Option<Duration>; 2],
    /// Extension: which board of a `position bfen` to analyse.
    pub board: Option<BoardId>,
    /// Extension: `go board both`, both boards one after the other.
    pub both_boards: bool,
}

/// A parsed line: the command (if any) and the unknown tokens skipped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParsedLine {
    pub command: Option<UciCommand>,
    pub unknown: Vec<String>,
}

fn is_command(word: &str) -> bool {
    matches!(
        word,
        "uci" | "debug" | "isready" | "setoption" | "register" | "ucinewgame" | "position" | "go"
            | "stop" | "ponderhit" | "quit" | "d" | "bughouse"
    ) || EXTENSION_COMMANDS.contains(&word)
}

/// Parses one line. `extensions`: whether `bughouse` has switched them on.
pub fn parse_uci_line(line: &str, extensions: bool) -> Result<ParsedLine, InputError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some(start) = tokens.iter().position(|t| is_command(t)) else {
        return Ok(ParsedLine { command: None, unknown: tokens.iter().map(|t| echo(t)).collect() });
    };
    let mut parsed = ParsedLine { command: None, unknown: tokens[..start].iter().map(|t| echo(t)).collect() };
    let word = tokens[start];
    let args = &tokens[start + 1..];
    if EXTENSION_COMMANDS.contains(&word) && !extensions {
        return Err(needs_extension(word));
    }
    parsed.command = Some(match word {
        "uci" => UciCommand::Uci,
        "debug" => UciCommand::Debug(parse_debug(args)?),
        "isready" => UciCommand::IsReady,
        "setoption" => parse_setoption(args)?,
        "register" => UciCommand::Register,
        "ucinewgame" => UciCommand::UciNewGame,
        "position" => UciCommand::Position(parse_position(args, extensions, &mut parsed.unknown)?),
        "go" => UciCommand::Go(parse_go(args, extensions, &mut parsed.unknown)?),
        "stop" => UciCommand::Stop,
        "ponderhit" => UciCommand::PonderHit,
        "quit" => UciCommand::Quit,
        "d" => UciCommand::Display,
        "bughouse" => UciCommand::Bughouse,
        "seat" => exactly_two(args, "seat").and_then(|(b, c)| crate::bughouse::parse_seat(Some(b), Some(c))).map(UciCommand::Seat)?,
        "partner" => UciCommand::Partner(parse_partner(args)?),
        "reserve" => UciCommand::Reserve(parse_reserve(args)?),
        "ptell" => UciCommand::PTell(crate::bughouse::parse_partner_message(&args.join(" "))?),
        _ => return Ok(parsed),
    });
    if matches!(word, "uci" | "isready" | "ucinewgame" | "stop" | "ponderhit" | "quit" | "d" | "bughouse") {
        parsed.unknown.extend(args.iter().map(|t| echo(t)));
    }
    Ok(parsed)
}

fn exactly_two<'a>(args: &[&'a str], command: &str) -> Result<(&'a str, &'a str), InputError> {
    match args {
        [a, b] => Ok((a, b)),
        _ => Err(InputError::new(format!("'{command}' expects two words, e.g. '{command} A white'"))),
    }
}

fn parse_debug(args: &[&str]) -> Result<bool, InputError> {
    match args {
        ["on"] => Ok(true),
        ["off"] => Ok(false),
        _ => Err(InputError::new("'debug' expects 'on' or 'off'")),
    }
}

fn parse_setoption(args: &[&str]) -> Result<UciCommand, InputError> {
    let Some((&"name", rest)) = args.split_first() else {
        return Err(InputError::new("'setoption' expects 'name <id> [value <x>]'"));
    };
    let value_at = rest.iter().position(|&t| t == "value");
    let (name, value) = match value_at {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(InputError::new("'setoption' needs an option name"));
    }
    Ok(UciCommand::SetOption { name: name.join(" "), value })
}

fn parse_position(args: &[&str], extensions: bool, unknown: &mut Vec<String>) -> Result<PositionCommand, InputError> {
    let moves_at = args.iter().position(|&t| t == "moves").unwrap_or(args.len());
    let (head, tail) = args.split_at(moves_at);
    let moves: Vec<String> = tail.iter().skip(1).map(|t| t.to_string()).collect();
    let setup = match head.split_first() {
        Some((&"startpos", rest)) => {
            unknown.extend(rest.iter().map(|t| echo(t)));
            Setup::StartPos
        }
        Some((&"fen", fen)) if !fen.is_empty() => Setup::Fen(fen.join(" ")),
        Some((&"fen", _)) => return Err(InputError::new("'position fen' needs a FEN")),
        Some((&"bfen", bfen)) if extensions && !bfen.is_empty() => {
            Setup::Bfen(bfen.join(" ").trim_matches('"').trim().to_string())
        }
        Some((&"bfen", _)) if extensions => return Err(InputError::new("'position bfen' needs 'fenA | fenB'")),
        // Refused rather than reported as a bad `position`: the client meant the extension.
        Some((&"bfen", _)) => return Err(needs_extension("position bfen")),
        _ => {
            let expected = if extensions { "startpos, fen or bfen" } else { "startpos or fen" };
            return Err(InputError::new(format!("'position' expects {expected}")));
        }
    };
    Ok(PositionCommand { setup, moves })
}

fn is_go_keyword(word: &str, extensions: bool) -> bool {
    matches!(
        word,
        "wtime" | "btime" | "winc" | "binc" | "movestogo" | "depth" | "nodes" | "mate" | "movetime"
            | "infinite" | "ponder" | "searchmoves" | "board"
    ) || (extensions && matches!(word, "pwtime" | "pbtime" | "pwinc" | "pbinc"))
}

fn parse_go(args: &[&str], extensions: bool, unknown: &mut Vec<String>) -> Result<GoCommand, InputError> {
    let mut go = GoCommand::default();
    let mut i = 0;
    while let Some(&word) = args.get(i) {
        let value = args.get(i + 1).copied();
        i += 2;
        match word {
            "wtime" => go.time[WHITE] = Some(clock_millis(word, value)?),
            "btime" => go.time[BLACK] = Some(clock_millis(word, value)?),
            "winc" => go.increment[WHITE] = Some(clock_millis(word, value)?),
            "binc" => go.increment[BLACK] = Some(clock_millis(word, value)?),
            "movestogo" => go.moves_to_go = Some(number_in(word, value, 1, 100_000)?),
            "depth" => go.depth = Some(number_in(word, value, 1, MAX_DEPTH)?),
            "nodes" => go.nodes = Some(number_in(word, value, 1, u64::MAX)?),
            "mate" => go.mate = Some(number_in(word, value, 1, MAX_DEPTH / 2)?),
            "movetime" => go.movetime = Some(millis(word, value)?),
            "pwtime" if extensions => go.partner_time[WHITE] = Some(clock_millis(word, value)?),
            "pbtime" if extensions => go.partner_time[BLACK] = Some(clock_millis(word, value)?),
            "pwinc" if extensions => go.partner_increment[WHITE] = Some(clock_millis(word, value)?),
            "pbinc" if extensions => go.partner_increment[BLACK] = Some(clock_millis(word, value)?),
            "board" if extensions => {
                let text = value.ok_or_else(|| InputError::new("'board' needs A, B or both"))?;
                if text.eq_ignore_ascii_case("both") {
                    go.both_boards = true;
                } else {
                    go.board = Some(text.parse().map_err(|_| {
                        InputError::new(format!("unknown board '{}' (expected A, B or both)", echo(text)))
                    })?);
                }
            }
            // Skipping it would search our board instead of the one asked for.
            "board" => return Err(needs_extension("go board")),
            "infinite" | "ponder" | "searchmoves" => {
                i -= 1;
                match word {
                    "infinite" => go.infinite = true,
                    "ponder" => go.ponder = true,
                    _ => {
                        while let Some(&m) = args.get(i).filter(|t| !is_go_keyword(t, extensions)) {
                            go.search_moves.push(m.to_string());
                            i += 1;
                        }
                    }
                }
            }
            _ => {
                i -= 1;
                unknown.push(echo(word));
            }
        }
    }
    Ok(go)
}

fn parse_partner(args: &[&str]) -> Result<PartnerCommand, InputError> {
    let moves_at = args.iter().position(|&t| t == "moves").unwrap_or(args.len());
    let moves: Vec<String> = args.iter().skip(moves_at + 1).map(|t| t.to_string()).collect();
    match args.split_first() {
        Some((&"startpos", _)) if moves_at <= 1 => Ok(PartnerCommand::Set { fen: None, moves }),
        Some((&"fen", fen)) if moves_at > 1 => Ok(PartnerCommand::Set { fen: Some(fen[..moves_at - 1].join(" ")), moves }),
        Some((&"move", [m])) => Ok(PartnerCommand::Move(m.to_string())),
        Some((&"none", [])) => Ok(PartnerCommand::Clear),
        _ => Err(InputError::new(
            "'partner' expects 'startpos [moves …]', 'fen <FEN> [moves …]', 'move <move>' or 'none'",
        )),
    }
}

fn parse_reserve(args: &[&str]) -> Result<[Reserve; 2], InputError> {
    let [letters] = args else {
        return Err(InputError::new("'reserve' expects one word of piece letters, e.g. 'QNpp' or '-'"));
    };
    let letters = letters.trim_start_matches('[').trim_end_matches(']');
    parse_reserve_letters(letters).map_err(|e| InputError::new(format!("reserve '{}': {}", echo(letters), e.message)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> ParsedLine {
        parse_uci_line(line, true).unwrap()
    }

    fn command(line: &str) -> UciCommand {
        parse(line).command.unwrap()
    }

    #[test]
    fn skips_unknown_leading_tokens() {
        let p = parse("joho debug on");
        assert_eq!(p.command, Some(UciCommand::Debug(true)));
        assert_eq!(p.unknown, vec!["joho"]);
        assert_eq!(parse("hello world"), ParsedLine { command: None, unknown: vec!["hello".into(), "world".into()] });
        assert_eq!(parse(""), ParsedLine::default());
    }

    #[test]
    fn setoption_names_and_values_may_have_spaces() {
        assert_eq!(
            command("setoption name Move Overhead value 50"),
            UciCommand::SetOption { name: "Move Overhead".into(), value: Some("50".into()) }
        );
        assert_eq!(command("setoption name Ponder"), UciCommand::SetOption { name: "Ponder".into(), value: None });
        assert!(parse_uci_line("setoption Hash 5", false).is_err());
        assert!(parse_uci_line("setoption name value 5", false).is_err());
    }

    #[test]
    fn position_forms() {
        let p = command("position startpos moves e2e4 N@e5");
        assert_eq!(p, UciCommand::Position(PositionCommand { setup: Setup::StartPos, moves: vec!["e2e4".into(), "N@e5".into()] }));
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nq] w KQkq - 0 1";
        let p = command(&format!("position fen {fen}"));
        assert_eq!(p, UciCommand::Position(PositionCommand { setup: Setup::Fen(fen.into()), moves: vec![] }));
        let p = command("position bfen \"a b | c d\" moves e2e4");
        assert_eq!(p, UciCommand::Position(PositionCommand { setup: Setup::Bfen("a b | c d".into()), moves: vec!["e2e4".into()] }));
        for bad in ["position", "position fen", "position fen moves e2e4", "position bfen", "position foo"] {
            assert!(parse_uci_line(bad, true).is_err(), "{bad}");
        }
        let error = parse_uci_line("position bfen a | b", false).unwrap_err();
        assert_eq!(error.0, "'position bfen' belongs to the bughouse extension: send 'bughouse' first");
    }

    #[test]
    fn go_tokens() {
        let UciCommand::Go(go) = command("go wtime 1000 btime -5 winc 10 binc 20 movestogo 5 depth 3 nodes 9 mate 2 movetime 7 infinite ponder searchmoves e2e4 d2d4 pwtime 5 board B") else {
            panic!("not go");
        };
        assert_eq!((go.time[WHITE], go.time[BLACK]), (Some(Duration::from_millis(1000)), Some(Duration::ZERO)));
        assert_eq!((go.increment[WHITE], go.increment[BLACK]), (Some(Duration::from_millis(10)), Some(Duration::from_millis(20))));
        assert_eq!((go.moves_to_go, go.depth, go.nodes, go.mate), (Some(5), Some(3), Some(9), Some(2)));
        assert!(go.infinite && go.ponder);
        assert_eq!(go.search_moves, vec!["e2e4", "d2d4"]);
        assert_eq!(go.partner_time[WHITE], Some(Duration::from_millis(5)));
        assert_eq!(go.board, Some(BoardId::B));
        for bad in ["go depth", "go depth x", "go depth 0", "go depth 9999", "go nodes -1", "go movetime -1", "go board C"] {
            assert!(parse_uci_line(bad, true).is_err(), "{bad}");
        }
        let p = parse_uci_line("go depth 2 frobnicate pwtime 5", false).unwrap();
        assert_eq!(p.unknown, vec!["frobnicate", "pwtime", "5"]);
        // `board` changes what is searched: without the extension it is refused, not skipped.
        for line in ["go board B depth 2", "go depth 2 board A", "go searchmoves e2e4 board B"] {
            let error = parse_uci_line(line, false).unwrap_err();
            assert_eq!(error.0, "'go board' belongs to the bughouse extension: send 'bughouse' first", "{line}");
        }
    }

    #[test]
    fn extension_commands() {
        assert!(parse_uci_line("ptell sit", false).unwrap_err().0.contains("send 'bughouse' first"));
        assert_eq!(command("ptell need n"), UciCommand::PTell(PartnerMessage::Need(vec![tandem_engine::Role::Knight])));
        assert!(matches!(command("reserve QNpp"), UciCommand::Reserve(_)));
        assert!(matches!(command("reserve [-]"), UciCommand::Reserve(_)));
        assert!(parse_uci_line("reserve K", true).is_err());
        assert!(parse_uci_line("reserve", true).is_err());
        assert_eq!(command("partner move e2e4"), UciCommand::Partner(PartnerCommand::Move("e2e4".into())));
        assert_eq!(command("partner startpos moves e2e4"), UciCommand::Partner(PartnerCommand::Set { fen: None, moves: vec!["e2e4".into()] }));
        assert_eq!(command("partner fen a b moves"), UciCommand::Partner(PartnerCommand::Set { fen: Some("a b".into()), moves: vec![] }));
        assert!(parse_uci_line("partner fen", true).is_err());
        assert!(parse_uci_line("seat C white", true).is_err());
        assert!(parse_uci_line("seat A", true).is_err());
        assert_eq!(command("seat b black"), UciCommand::Seat(Seat { board: BoardId::B, color: tandem_engine::Color::Black }));
    }
}
