//! CECP (xboard/WinBoard) command lines, parsed into values by a pure function.

use std::time::Duration;

use tandem_engine::parse_reserve_letters;
use tandem_engine::{Color, Preset, Reserve, Role};

use crate::bughouse::PartnerMessage;
use crate::output::echo;
use crate::parse::{number_in, InputError, MAX_MILLIS};
use crate::session::variant_named;
use crate::uci_command::MAX_DEPTH;

#[derive(Clone, Debug, PartialEq)]
pub enum XboardCommand {
    Xboard,
    Protover(u32),
    New,
    Variant(Preset),
    Force,
    Go,
    PlayOther,
    /// Obsolete `white` / `black`: the engine plays the other colour.
    EnginePlays(Color),
    UserMove(String),
    Level { moves_per_control: u32, base: Duration, increment: Duration },
    St(Duration),
    Sd(u32),
    Time(Duration),
    Otim(Duration),
    SetBoard(String),
    Ping(String),
    Result,
    MoveNow,
    /// Both reserves of our board; `arrived`: the piece that just came (`holding … WN`).
    Holding { reserves: [Reserve; 2], arrived: Option<(Color, Role)> },
    Partner(Option<String>),
    PTell(PartnerMessage),
    Post,
    NoPost,
    Undo,
    Remove,
    Memory(usize),
    Cores(usize),
    Quit,
    /// `d`: shows the state as `#` comment lines (not CECP; for people and tests).
    Display,
    /// A command that needs no action from this engine (`hard`, `computer`, `name` …).
    Ignored,
    /// `option NAME=VALUE` (the options we declare with `feature option`).
    Option { name: String, value: String },
    /// `analyze`: infinite analysis of the current position, until `exit`.
    Analyze,
    /// `exit`: leave analysis mode.
    Exit,
}

/// Parses one line; the error text is the reason shown as `Error (reason): line`.
pub fn parse_xboard_line(line: &str) -> Result<Option<XboardCommand>, InputError> {
    let trimmed = line.trim();
    let (word, rest) = trimmed.split_once(char::is_whitespace).unwrap_or((trimmed, ""));
    let rest = rest.trim();
    let args: Vec<&str> = rest.split_whitespace().collect();
    let command = match word {
        "" => return Ok(None),
        "xboard" => XboardCommand::Xboard,
        "protover" => XboardCommand::Protover(number_in("protover", args.first().copied(), 1, 1000)?),
        "new" => XboardCommand::New,
        "variant" => XboardCommand::Variant(parse_variant(rest)?),
        "force" => XboardCommand::Force,
        "go" => XboardCommand::Go,
        "playother" => XboardCommand::PlayOther,
        "white" => XboardCommand::EnginePlays(Color::Black),
        "black" => XboardCommand::EnginePlays(Color::White),
        "usermove" => match args.as_slice() {
            [m] => XboardCommand::UserMove(m.to_string()),
            _ => return Err(InputError::new("'usermove' needs one move")),
        },
        "level" => parse_level(&args)?,
        "st" => XboardCommand::St(seconds("st", args.first().copied())?),
        "sd" => XboardCommand::Sd(number_in("sd", args.first().copied(), 1, MAX_DEPTH)?),
        "time" => XboardCommand::Time(centiseconds("time", args.first().copied())?),
        "otim" => XboardCommand::Otim(centiseconds("otim", args.first().copied())?),
        "setboard" if !rest.is_empty() => XboardCommand::SetBoard(rest.to_string()),
        "setboard" => return Err(InputError::new("'setboard' needs a FEN")),
        "ping" => match args.as_slice() {
            [n] => XboardCommand::Ping(echo(n)),
            _ => return Err(InputError::new("'ping' needs one number")),
        },
        "result" => XboardCommand::Result,
        "?" => XboardCommand::MoveNow,
        "holding" => parse_holding(rest)?,
        "partner" => XboardCommand::Partner((!rest.is_empty()).then(|| echo(rest))),
        "ptell" => XboardCommand::PTell(crate::bughouse::parse_partner_message(rest)?),
        "post" => XboardCommand::Post,
        "nopost" => XboardCommand::NoPost,
        "undo" => XboardCommand::Undo,
        "remove" => XboardCommand::Remove,
        "memory" => XboardCommand::Memory(number_in("memory", args.first().copied(), 1, 65536)?),
        "cores" => XboardCommand::Cores(number_in("cores", args.first().copied(), 1, 256)?),
        "quit" => XboardCommand::Quit,
        "analyze" => XboardCommand::Analyze,
        "exit" => XboardCommand::Exit,
        "d" => XboardCommand::Display,
        "option" => match rest.split_once('=') {
            Some((name, value)) if !name.trim().is_empty() => {
                XboardCommand::Option { name: name.trim().to_string(), value: value.trim().to_string() }
            }
            _ => return Err(InputError::new("'option' expects NAME=VALUE, e.g. 'option Team Flow=0'")),
        },
        "accepted" | "rejected" | "hard" | "easy" | "computer" | "name" | "rating" | "ics" | "random"
        | "draw" | "hint" | "bk" | "." | "otherboard" => XboardCommand::Ignored,
        _ if args.is_empty() && looks_like_move(word) => XboardCommand::UserMove(word.to_string()),
        _ => return Err(InputError::new("unknown command")),
    };
    Ok(Some(command))
}

fn parse_variant(name: &str) -> Result<Preset, InputError> {
    variant_named(name).ok_or_else(|| {
        InputError::new(format!(
            "unsupported variant '{}' (supported: normal, crazyhouse, bughouse, tandem, tandemschach, french)",
            echo(name)
        ))
    })
}

/// A bare move, as sent by a GUI that did not accept `usermove=1`.
fn looks_like_move(word: &str) -> bool {
    let b = word.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    (4..=7).contains(&b.len()) && (square(b[0], b[1]) || (b[1] == b'@' && square(b[2], b[3])))
}

/// `level MPS BASE INC`: BASE in minutes (`5`, `2:30`), INC in seconds (`0.5`).
fn parse_level(args: &[&str]) -> Result<XboardCommand, InputError> {
    let [mps, base, inc] = args else {
        return Err(InputError::new("'level' expects MPS BASE INC, e.g. 'level 40 5 0' or 'level 0 2:30 1'"));
    };
    let moves_per_control = number_in("level MPS", Some(mps), 0, 10_000)?;
    let (minutes, secs) = base.split_once(':').unwrap_or((base, "0"));
    let minutes: u64 = number_in("level BASE minutes", Some(minutes), 0, 100_000)?;
    let secs: u64 = number_in("level BASE seconds", Some(secs), 0, 59)?;
    let increment = seconds("level INC", Some(inc))?;
    Ok(XboardCommand::Level { moves_per_control, base: Duration::from_secs(minutes * 60 + secs), increment })
}

/// Seconds, possibly fractional, up to a day.
fn seconds(name: &str, text: Option<&str>) -> Result<Duration, InputError> {
    let text = text.ok_or_else(|| InputError::new(format!("'{name}' needs a number of seconds")))?;
    let value: f64 = text
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite())
        .ok_or_else(|| InputError::new(format!("'{name}' expects seconds, not '{}'", echo(text))))?;
    if !(0.0..=86_400.0).contains(&value) {
        return Err(InputError::new(format!("'{name}' must be between 0 and 86400 seconds")));
    }
    Ok(Duration::from_secs_f64(value))
}

/// Clock readings in centiseconds; negative ones (a fallen flag) count as zero.
fn centiseconds(name: &str, text: Option<&str>) -> Result<Duration, InputError> {
    let cs: i64 = number_in(name, text, i64::MIN, i64::MAX)?;
    if cs > MAX_MILLIS / 10 {
        return Err(InputError::new(format!("'{name}' must be at most {} centiseconds", MAX_MILLIS / 10)));
    }
    Ok(Duration::from_millis(cs.max(0) as u64 * 10))
}

/// `holding [WHITE] [BLACK] [<colour><piece>]`: the first brackets are White's
/// pieces, the second Black's (in either case).
fn parse_holding(rest: &str) -> Result<XboardCommand, InputError> {
    let usage = || InputError::new("'holding' expects '[WHITE] [BLACK]', e.g. 'holding [PN] [q]' or 'holding [PN] [q] BQ'");
    let (white, after) = bracketed(rest).ok_or_else(usage)?;
    let (black, after) = bracketed(after).ok_or_else(usage)?;
    let letters = format!("{}{}", white.to_ascii_uppercase(), black.to_ascii_lowercase());
    let reserves = parse_reserve_letters(&letters)
        .map_err(|e| InputError::new(format!("holding: {}", e.message)))?;
    let arrival: String = after.chars().filter(|c| !c.is_whitespace()).collect();
    let arrived = match arrival.as_bytes() {
        [] => None,
        [c, p] => Some(arrived_piece(*c as char, *p as char).ok_or_else(usage)?),
        _ => return Err(usage()),
    };
    Ok(XboardCommand::Holding { reserves, arrived })
}

fn bracketed(text: &str) -> Option<(&str, &str)> {
    let inside = text.trim_start().strip_prefix('[')?;
    let (content, after) = inside.split_once(']')?;
    Some((content.trim(), after))
}

fn arrived_piece(color: char, piece: char) -> Option<(Color, Role)> {
    let color = match color.to_ascii_uppercase() {
        'W' => Color::White,
        'B' => Color::Black,
        _ => return None,
    };
    let role = Role::from_char(piece.to_ascii_lowercase()).filter(|&r| r != Role::King)?;
    Some((color, role))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> XboardCommand {
        parse_xboard_line(line).unwrap().unwrap()
    }

    #[test]
    fn commands_and_bare_moves() {
        assert_eq!(parse("protover 2"), XboardCommand::Protover(2));
        assert_eq!(parse("variant normal"), XboardCommand::Variant(Preset::Chess));
        assert_eq!(parse("usermove N@e4"), XboardCommand::UserMove("N@e4".into()));
        assert_eq!(parse("e2e4"), XboardCommand::UserMove("e2e4".into()));
        assert_eq!(parse("P@d5"), XboardCommand::UserMove("P@d5".into()));
        assert_eq!(parse("st 2.5"), XboardCommand::St(Duration::from_millis(2500)));
        assert_eq!(parse("time -30"), XboardCommand::Time(Duration::ZERO));
        assert_eq!(parse("ping 7"), XboardCommand::Ping("7".into()));
        assert_eq!(parse_xboard_line("   "), Ok(None));
        assert_eq!(parse("partner"), XboardCommand::Partner(None));
        assert_eq!(parse("partner bob"), XboardCommand::Partner(Some("bob".into())));
        assert_eq!(parse("analyze"), XboardCommand::Analyze);
        assert_eq!(parse("exit"), XboardCommand::Exit);
        assert_eq!(parse("."), XboardCommand::Ignored);
    }

    #[test]
    fn level_forms() {
        assert_eq!(
            parse("level 40 5 0"),
            XboardCommand::Level { moves_per_control: 40, base: Duration::from_secs(300), increment: Duration::ZERO }
        );
        assert_eq!(
            parse("level 0 2:30 0.5"),
            XboardCommand::Level { moves_per_control: 0, base: Duration::from_secs(150), increment: Duration::from_millis(500) }
        );
        for bad in ["level", "level 40 5", "level x 5 0", "level 0 5:99 0", "level 0 5 -1", "level 0 5 nan", "level 0 5 inf"] {
            assert!(parse_xboard_line(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn holding_forms() {
        let XboardCommand::Holding { reserves, arrived } = parse("holding [PNb] [q] BQ") else { panic!() };
        assert_eq!(reserves[Color::White as usize].to_letters(true), "BNP");
        assert_eq!(reserves[Color::Black as usize].to_letters(false), "q");
        assert_eq!(arrived, Some((Color::Black, Role::Queen)));
        assert!(matches!(parse("holding [] []"), XboardCommand::Holding { arrived: None, .. }));
        assert!(matches!(parse("holding [P] [] W P"), XboardCommand::Holding { arrived: Some((Color::White, Role::Pawn)), .. }));
        for bad in ["holding", "holding [P]", "holding [K] []", "holding [P] [] XQ", "holding [P] [] WK", "holding P p"] {
            assert!(parse_xboard_line(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn errors_say_what_is_wrong() {
        assert_eq!(parse_xboard_line("frobnicate").unwrap_err().0, "unknown command");
        assert!(parse_xboard_line("variant suicide").unwrap_err().0.contains("unsupported variant"));
        assert!(parse_xboard_line("sd 0").is_err());
        assert!(parse_xboard_line("usermove").is_err());
        assert!(parse_xboard_line("memory abc").is_err());
        assert!(parse_xboard_line("setboard").is_err());
    }
}
