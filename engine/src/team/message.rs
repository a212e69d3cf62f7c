//! Partner messages (`ptell`): the words bughouse partners say to each other.
//!
//! A superset of the vocabulary of Fairy-Stockfish and Sunsetter (FICS bots):
//! `sit`, `go`, `fast`, `slow`, `dead`, `x`, `move`, `move <m>`, `time <cs>`,
//! `otim <cs>`, `help`, plus tandem's `need`, `dontgive`, `trades` and `board`.
//! A partner's introduction (tandem's "… I understand: …", Fairy-Stockfish's
//! handshake) says which of these it reads, so that we tell it only those. The
//! front ends only read and write this text; what a message means for the
//! search is decided from the typed value.

use std::fmt;
use std::time::Duration;

use shakmaty::Role;

use super::Trades;

/// A message between partners.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartnerMessage {
    /// Do not move until told `go` (as long as the clock allows).
    Sit,
    /// Stop sitting; move.
    Go,
    Fast,
    Slow,
    /// I am mated or lost unless helped.
    Dead,
    /// Cancel the last request.
    Cancel,
    /// `move` alone: play your move now (Fairy-Stockfish's "move now").
    MoveNow,
    /// `move <m>`: play this move if it is legal (UCI text).
    Move(String),
    /// My clock.
    Time(Duration),
    /// My opponent's clock.
    OpponentTime(Duration),
    /// I would like these pieces.
    Need(Vec<Role>),
    /// Do not let these be captured (they would reach my opponent).
    DontGive(Vec<Role>),
    Trades(Trades),
    /// Which words do you understand?
    Help,
    /// `board <FEN>`: my board as it stands (FEN with reserves). Partners who
    /// see one board each (CECP) share their boards this way.
    Board(String),
    /// A partner introducing itself, with the words it reads (lower case):
    /// the answer to `help` ("I understand: sit, go, …") or Fairy-Stockfish's
    /// handshake ("partner Fairy-Stockfish is an engine. …").
    Introduction(Vec<String>),
    /// Anything else: kept, shown, not acted on.
    Other(String),
}

/// Longest partner clock accepted, in centiseconds (a day).
const MAX_CENTISECONDS: u64 = 8_640_000;

/// The words every partner message may start with, for `help` answers.
pub const VOCABULARY: &str = "sit, go, fast, slow, dead, x, move, move <move>, time <cs>, otim <cs>, \
need <pieces>, dontgive <pieces>, trades good|bad, board <fen>, help";

/// How a vocabulary list is introduced (our `help` answer and greeting).
pub const VOCABULARY_INTRO: &str = "I understand: ";

/// How Fairy-Stockfish introduces the same list (its `help` answer).
const FAIRY_STOCKFISH_INTRO: &str = "I listen to the commands";

/// The words Fairy-Stockfish reads (its `help` answer), for its handshake,
/// which does not list them.
const FAIRY_STOCKFISH_WORDS: [&str; 10] = ["help", "sit", "go", "move", "fast", "slow", "dead", "x", "time", "otim"];

impl PartnerMessage {
    /// Parses the text after `ptell`. Unknown words are [`PartnerMessage::Other`];
    /// a known word with a bad argument is an error, said in words.
    pub fn parse(text: &str) -> Result<PartnerMessage, String> {
        let mut words = text.split_whitespace();
        let Some(word) = words.next() else {
            return Err("'ptell' needs a message".to_string());
        };
        let rest: Vec<&str> = words.collect();
        let message = match word.to_ascii_lowercase().as_str() {
            "sit" => PartnerMessage::Sit,
            "go" => PartnerMessage::Go,
            "fast" => PartnerMessage::Fast,
            "slow" => PartnerMessage::Slow,
            "dead" => PartnerMessage::Dead,
            "x" => PartnerMessage::Cancel,
            "help" => PartnerMessage::Help,
            "move" => match rest.as_slice() {
                [] => PartnerMessage::MoveNow,
                [m] => PartnerMessage::Move((*m).to_string()),
                _ => return Err("'ptell move' takes at most one move".to_string()),
            },
            "time" => PartnerMessage::Time(centiseconds("time", rest.first().copied())?),
            "otim" => PartnerMessage::OpponentTime(centiseconds("otim", rest.first().copied())?),
            "need" => PartnerMessage::Need(roles("need", &rest)?),
            "dontgive" => PartnerMessage::DontGive(roles("dontgive", &rest)?),
            "trades" => match rest.as_slice() {
                ["good"] => PartnerMessage::Trades(Trades::Good),
                ["bad"] => PartnerMessage::Trades(Trades::Bad),
                _ => return Err("'ptell trades' needs 'good' or 'bad'".to_string()),
            },
            "board" if rest.is_empty() => return Err("'ptell board' needs a FEN".to_string()),
            "board" => PartnerMessage::Board(rest.join(" ")),
            "partner" if rest.first() == Some(&"Fairy-Stockfish") => {
                PartnerMessage::Introduction(FAIRY_STOCKFISH_WORDS.iter().map(|w| w.to_string()).collect())
            }
            _ => match [VOCABULARY_INTRO.trim_end(), FAIRY_STOCKFISH_INTRO].iter().find_map(|i| text.split_once(i)) {
                Some((_, list)) => PartnerMessage::Introduction(first_words(list)),
                None => PartnerMessage::Other(text.trim().to_string()),
            },
        };
        Ok(message)
    }

    /// True for every message but free text: a relay passes these on however
    /// often they come (clock reports repeat all game long).
    pub fn is_vocabulary(&self) -> bool {
        !matches!(self, PartnerMessage::Other(_))
    }
}

/// The first word of each comma-separated item, lower case: "sit, move <move>, and otim." gives sit, move, otim.
fn first_words(list: &str) -> Vec<String> {
    list.split(',')
        .filter_map(|item| item.split_whitespace().find(|w| *w != "and"))
        .map(|w| w.trim_end_matches('.').to_ascii_lowercase())
        .filter(|w| !w.is_empty())
        .collect()
}

fn centiseconds(name: &str, text: Option<&str>) -> Result<Duration, String> {
    let text = text.ok_or_else(|| format!("'ptell {name}' needs a value"))?;
    let value: u64 =
        text.parse().map_err(|_| format!("'ptell {name}' expects a whole number of centiseconds, not '{}'", clip(text)))?;
    if value > MAX_CENTISECONDS {
        return Err(format!("'ptell {name}' must be between 0 and {MAX_CENTISECONDS}, not {value}"));
    }
    Ok(Duration::from_millis(value * 10))
}

/// Piece letters, in words or run together: `N q`, `Nq`, `nnp`.
fn roles(name: &str, words: &[&str]) -> Result<Vec<Role>, String> {
    let mut out = Vec::new();
    for ch in words.iter().flat_map(|w| w.chars()) {
        match Role::from_char(ch.to_ascii_lowercase()).filter(|&r| r != Role::King) {
            Some(role) => out.push(role),
            None => {
                return Err(format!("'ptell {name}': '{}' is not a piece letter (p, n, b, r, q)", clip(&ch.to_string())))
            }
        }
    }
    if out.is_empty() {
        return Err(format!("'ptell {name}' needs piece letters"));
    }
    Ok(out)
}

/// Input quoted in an error: printable characters only, at most 40.
fn clip(text: &str) -> String {
    text.chars().filter(|c| !c.is_control()).take(40).collect()
}

impl fmt::Display for PartnerMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Upper-case letters, one word each: `need N Q` (either case is read).
        let letters = |roles: &[Role]| roles.iter().map(|r| r.upper_char().to_string()).collect::<Vec<_>>().join(" ");
        match self {
            PartnerMessage::Sit => f.write_str("sit"),
            PartnerMessage::Go => f.write_str("go"),
            PartnerMessage::Fast => f.write_str("fast"),
            PartnerMessage::Slow => f.write_str("slow"),
            PartnerMessage::Dead => f.write_str("dead"),
            PartnerMessage::Cancel => f.write_str("x"),
            PartnerMessage::MoveNow => f.write_str("move"),
            PartnerMessage::Move(m) => write!(f, "move {m}"),
            PartnerMessage::Time(t) => write!(f, "time {}", t.as_millis() / 10),
            PartnerMessage::OpponentTime(t) => write!(f, "otim {}", t.as_millis() / 10),
            PartnerMessage::Need(r) => write!(f, "need {}", letters(r)),
            PartnerMessage::DontGive(r) => write!(f, "dontgive {}", letters(r)),
            PartnerMessage::Trades(Trades::Good) => f.write_str("trades good"),
            PartnerMessage::Trades(Trades::Bad) => f.write_str("trades bad"),
            PartnerMessage::Help => f.write_str("help"),
            PartnerMessage::Board(fen) => write!(f, "board {fen}"),
            PartnerMessage::Introduction(words) => write!(f, "{VOCABULARY_INTRO}{}", words.join(", ")),
            PartnerMessage::Other(text) => f.write_str(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_vocabulary() {
        assert_eq!(PartnerMessage::parse("sit"), Ok(PartnerMessage::Sit));
        assert_eq!(PartnerMessage::parse("Go"), Ok(PartnerMessage::Go));
        assert_eq!(PartnerMessage::parse("move"), Ok(PartnerMessage::MoveNow));
        assert_eq!(PartnerMessage::parse("move e2e4"), Ok(PartnerMessage::Move("e2e4".into())));
        assert_eq!(PartnerMessage::parse("help"), Ok(PartnerMessage::Help));
        assert_eq!(PartnerMessage::parse("need N q"), Ok(PartnerMessage::Need(vec![Role::Knight, Role::Queen])));
        assert_eq!(PartnerMessage::parse("dontgive qr"), Ok(PartnerMessage::DontGive(vec![Role::Queen, Role::Rook])));
        assert_eq!(PartnerMessage::parse("time 1234"), Ok(PartnerMessage::Time(Duration::from_millis(12340))));
        assert_eq!(PartnerMessage::parse("trades bad"), Ok(PartnerMessage::Trades(Trades::Bad)));
        assert_eq!(PartnerMessage::parse("hello there"), Ok(PartnerMessage::Other("hello there".into())));
        for bad in ["", "need", "need k", "time x", "time -5", "trades maybe", "move a b"] {
            assert!(PartnerMessage::parse(bad).is_err(), "{bad}");
        }
        for text in ["sit", "need N Q", "trades good", "time 50", "move e2e4", "move", "help"] {
            assert_eq!(PartnerMessage::parse(text).unwrap().to_string(), text);
        }
        assert!(PartnerMessage::parse("otim 5").unwrap().is_vocabulary());
        assert!(!PartnerMessage::parse("Sorry, but I don't understand").unwrap().is_vocabulary());
    }

    #[test]
    fn boards_and_introductions() {
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Pn] w KQkq - 2 3";
        assert_eq!(PartnerMessage::parse(&format!("board {fen}")), Ok(PartnerMessage::Board(fen.into())));
        assert_eq!(PartnerMessage::parse(&format!("board {fen}")).unwrap().to_string(), format!("board {fen}"));
        assert!(PartnerMessage::parse("board").is_err());
        // Our own greeting lists our vocabulary, `board` among it.
        let ours = PartnerMessage::parse(&format!("Hello, I am tandem. {VOCABULARY_INTRO}{VOCABULARY}")).unwrap();
        let PartnerMessage::Introduction(words) = &ours else { panic!("{ours:?}") };
        assert_eq!(words[..3], ["sit", "go", "fast"]);
        assert!(words.iter().any(|w| w == "board") && words.iter().any(|w| w == "time"));
        assert!(!words.iter().any(|w| w == "<move>" || w == "good|bad"));
        assert_eq!(PartnerMessage::parse(&ours.to_string()), Ok(ours.clone()));
        // Fairy-Stockfish's handshake: it reads clock reports, not boards.
        let fsf = PartnerMessage::parse("partner Fairy-Stockfish is an engine. Ask it 'help' for supported commands.");
        let Ok(PartnerMessage::Introduction(words)) = fsf else { panic!("{fsf:?}") };
        assert!(words.iter().any(|w| w == "otim") && !words.iter().any(|w| w == "board"));
        let help = PartnerMessage::parse("I listen to the commands help, sit, time, and otim.");
        assert_eq!(help, Ok(PartnerMessage::Introduction(["help", "sit", "time", "otim"].map(String::from).to_vec())));
        assert!(ours.is_vocabulary());
    }
}
