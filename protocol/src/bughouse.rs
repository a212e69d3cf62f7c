//! What the protocol knows about the other board of a bughouse game: our seat,
//! the partner board, all four clocks and the partners' conversation.
//!
//! [`BughouseContext`] is what the front ends fill; [`crate::partner_model`]
//! turns it into the engine's `TeamContext` for every bughouse search.

use std::fmt;
use std::time::Duration;

use tandem_engine::{BoardId, Color, Role};

use crate::board_state::BoardState;
use crate::output::echo;
use crate::parse::{number_in, InputError};

/// Where we sit: a board and a colour (BPGN: team 1 is White on A + Black on B).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seat {
    pub board: BoardId,
    pub color: Color,
}

impl Default for Seat {
    fn default() -> Seat {
        Seat { board: BoardId::A, color: Color::White }
    }
}

impl Seat {
    /// Our partner plays the other colour on the other board.
    pub fn partner(self) -> Seat {
        Seat { board: self.board.other(), color: self.color.other() }
    }

    /// Parses `A white`, `b black`, `B w` and the like.
    pub fn parse(board: Option<&str>, color: Option<&str>) -> Result<Seat, InputError> {
        let board = board
            .ok_or_else(|| InputError::new("'seat' needs a board (A or B) and a colour (white or black)"))?
            .parse::<BoardId>()
            .map_err(|_| InputError::new(format!("unknown board '{}' (expected A or B)", echo(board.unwrap_or("")))))?;
        let color = parse_color(color.unwrap_or(""))?;
        Ok(Seat { board, color })
    }
}

pub fn parse_color(text: &str) -> Result<Color, InputError> {
    match text.to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(InputError::new(format!("unknown colour '{}' (expected white or black)", echo(text)))),
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.board, self.color)
    }
}

/// The four clocks, indexed `[board][colour]`, with their increments.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clocks {
    pub time: [[Option<Duration>; 2]; 2],
    pub increment: [[Duration; 2]; 2],
}

impl Clocks {
    pub fn set(&mut self, board: BoardId, color: Color, time: Option<Duration>, increment: Option<Duration>) {
        if time.is_some() {
            self.time[board.index()][color as usize] = time;
        }
        if let Some(inc) = increment {
            self.increment[board.index()][color as usize] = inc;
        }
    }

    pub fn time(&self, seat: Seat) -> Option<Duration> {
        self.time[seat.board.index()][seat.color as usize]
    }
}

/// Exchanges on our board feed both partner boards; partners say which way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trades {
    Good,
    Bad,
}

/// A message between partners (`ptell`): a superset of the vocabulary of
/// Fairy-Stockfish and Sunsetter.
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
    /// The move I am about to play on my board (UCI text).
    Move(String),
    /// My clock, in centiseconds.
    Time(Duration),
    /// My opponent's clock, in centiseconds.
    OpponentTime(Duration),
    /// I would like these pieces.
    Need(Vec<Role>),
    /// Do not let these be captured (they would reach my opponent).
    DontGive(Vec<Role>),
    Trades(Trades),
    /// Anything else: kept, shown, not acted on.
    Other(String),
}

/// Longest partner clock accepted in centiseconds (a day).
const MAX_CENTISECONDS: u64 = 8_640_000;

impl PartnerMessage {
    /// Parses the text after `ptell`. Unknown words are [`PartnerMessage::Other`];
    /// a known word with a bad argument is an error.
    pub fn parse(text: &str) -> Result<PartnerMessage, InputError> {
        let mut words = text.split_whitespace();
        let Some(word) = words.next() else {
            return Err(InputError::new("'ptell' needs a message"));
        };
        let rest: Vec<&str> = words.collect();
        let message = match word.to_ascii_lowercase().as_str() {
            "sit" => PartnerMessage::Sit,
            "go" => PartnerMessage::Go,
            "fast" => PartnerMessage::Fast,
            "slow" => PartnerMessage::Slow,
            "dead" => PartnerMessage::Dead,
            "x" => PartnerMessage::Cancel,
            "move" => match rest.as_slice() {
                [m] => PartnerMessage::Move((*m).to_string()),
                _ => return Err(InputError::new("'ptell move' needs exactly one move")),
            },
            "time" => PartnerMessage::Time(centiseconds("time", rest.first().copied())?),
            "otim" => PartnerMessage::OpponentTime(centiseconds("otim", rest.first().copied())?),
            "need" => PartnerMessage::Need(roles("need", &rest)?),
            "dontgive" => PartnerMessage::DontGive(roles("dontgive", &rest)?),
            "trades" => match rest.as_slice() {
                ["good"] => PartnerMessage::Trades(Trades::Good),
                ["bad"] => PartnerMessage::Trades(Trades::Bad),
                _ => return Err(InputError::new("'ptell trades' needs 'good' or 'bad'")),
            },
            _ => PartnerMessage::Other(text.trim().to_string()),
        };
        Ok(message)
    }
}

fn centiseconds(name: &str, text: Option<&str>) -> Result<Duration, InputError> {
    number_in(&format!("ptell {name}"), text, 0, MAX_CENTISECONDS).map(|cs| Duration::from_millis(cs * 10))
}

/// Piece letters, in words or run together: `N q`, `Nq`, `nnp`.
fn roles(name: &str, words: &[&str]) -> Result<Vec<Role>, InputError> {
    let mut out = Vec::new();
    for ch in words.iter().flat_map(|w| w.chars()) {
        match Role::from_char(ch.to_ascii_lowercase()).filter(|&r| r != Role::King) {
            Some(role) => out.push(role),
            None => return Err(InputError::new(format!("'ptell {name}': '{}' is not a piece letter (p, n, b, r, q)", echo(&ch.to_string())))),
        }
    }
    if out.is_empty() {
        return Err(InputError::new(format!("'ptell {name}' needs piece letters")));
    }
    Ok(out)
}

impl fmt::Display for PartnerMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letters = |roles: &[Role]| roles.iter().map(|r| r.char()).collect::<String>();
        match self {
            PartnerMessage::Sit => f.write_str("sit"),
            PartnerMessage::Go => f.write_str("go"),
            PartnerMessage::Fast => f.write_str("fast"),
            PartnerMessage::Slow => f.write_str("slow"),
            PartnerMessage::Dead => f.write_str("dead"),
            PartnerMessage::Cancel => f.write_str("x"),
            PartnerMessage::Move(m) => write!(f, "move {m}"),
            PartnerMessage::Time(t) => write!(f, "time {}", t.as_millis() / 10),
            PartnerMessage::OpponentTime(t) => write!(f, "otim {}", t.as_millis() / 10),
            PartnerMessage::Need(r) => write!(f, "need {}", letters(r)),
            PartnerMessage::DontGive(r) => write!(f, "dontgive {}", letters(r)),
            PartnerMessage::Trades(Trades::Good) => f.write_str("trades good"),
            PartnerMessage::Trades(Trades::Bad) => f.write_str("trades bad"),
            PartnerMessage::Other(text) => f.write_str(text),
        }
    }
}

/// Our partner's standing requests, as their messages left them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartnerRequests {
    pub sitting: bool,
    /// `Some(true)` after `fast`, `Some(false)` after `slow`.
    pub fast: Option<bool>,
    pub partner_dead: bool,
    pub need: Vec<Role>,
    pub dont_give: Vec<Role>,
    pub trades: Option<Trades>,
    pub planned_move: Option<String>,
}

/// Messages kept for the engine; older ones are dropped.
const MESSAGE_LOG: usize = 64;

/// Everything about the other board that the engine may use.
#[derive(Clone, Debug, Default)]
pub struct BughouseContext {
    pub seat: Seat,
    /// The partner board, once the GUI has sent it.
    pub partner_board: Option<BoardState>,
    pub clocks: Clocks,
    pub requests: PartnerRequests,
    /// Partner messages received, oldest first (at most the last 64).
    pub messages: Vec<PartnerMessage>,
    /// The partner's handle (CECP `partner`), when one is assigned.
    pub partner_name: Option<String>,
}

impl BughouseContext {
    /// Records a message and updates the standing requests.
    pub fn receive(&mut self, message: PartnerMessage) {
        let partner = self.seat.partner();
        let requests = &mut self.requests;
        match &message {
            PartnerMessage::Sit => requests.sitting = true,
            PartnerMessage::Go => requests.sitting = false,
            PartnerMessage::Fast => requests.fast = Some(true),
            // `slow` ends a wait: the partner moved, so it is no longer dead either.
            PartnerMessage::Slow => {
                requests.fast = Some(false);
                requests.partner_dead = false;
            }
            PartnerMessage::Dead => requests.partner_dead = true,
            PartnerMessage::Cancel => self.cancel_last_request(),
            PartnerMessage::Move(m) => requests.planned_move = Some(m.clone()),
            PartnerMessage::Time(t) => self.clocks.set(partner.board, partner.color, Some(*t), None),
            PartnerMessage::OpponentTime(t) => {
                self.clocks.set(partner.board, partner.color.other(), Some(*t), None)
            }
            PartnerMessage::Need(roles) => requests.need = roles.clone(),
            PartnerMessage::DontGive(roles) => requests.dont_give = roles.clone(),
            PartnerMessage::Trades(t) => requests.trades = Some(*t),
            PartnerMessage::Other(_) => {}
        }
        if self.messages.len() == MESSAGE_LOG {
            self.messages.remove(0);
        }
        self.messages.push(message);
    }

    /// `x` undoes the latest request that is still standing.
    fn cancel_last_request(&mut self) {
        let requests = &mut self.requests;
        for message in self.messages.iter().rev() {
            let undone = match message {
                PartnerMessage::Sit if requests.sitting => {
                    requests.sitting = false;
                    true
                }
                PartnerMessage::Fast | PartnerMessage::Slow if requests.fast.is_some() => {
                    requests.fast = None;
                    true
                }
                PartnerMessage::Need(_) if !requests.need.is_empty() => {
                    requests.need.clear();
                    true
                }
                PartnerMessage::DontGive(_) if !requests.dont_give.is_empty() => {
                    requests.dont_give.clear();
                    true
                }
                PartnerMessage::Trades(_) if requests.trades.is_some() => {
                    requests.trades = None;
                    true
                }
                PartnerMessage::Dead if requests.partner_dead => {
                    requests.partner_dead = false;
                    true
                }
                _ => false,
            };
            if undone {
                return;
            }
        }
    }

    /// Forgets the game (a new game starts); the seat and partner name stay.
    pub fn reset_game(&mut self) {
        *self = BughouseContext { seat: self.seat, partner_name: self.partner_name.take(), ..Default::default() };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_vocabulary() {
        assert_eq!(PartnerMessage::parse("sit"), Ok(PartnerMessage::Sit));
        assert_eq!(PartnerMessage::parse("Go"), Ok(PartnerMessage::Go));
        assert_eq!(PartnerMessage::parse("need N q"), Ok(PartnerMessage::Need(vec![Role::Knight, Role::Queen])));
        assert_eq!(PartnerMessage::parse("dontgive qr"), Ok(PartnerMessage::DontGive(vec![Role::Queen, Role::Rook])));
        assert_eq!(PartnerMessage::parse("time 1234"), Ok(PartnerMessage::Time(Duration::from_millis(12340))));
        assert_eq!(PartnerMessage::parse("trades bad"), Ok(PartnerMessage::Trades(Trades::Bad)));
        assert_eq!(PartnerMessage::parse("hello there"), Ok(PartnerMessage::Other("hello there".into())));
        for bad in ["", "need", "need k", "time x", "time -5", "trades maybe", "move", "move a b"] {
            assert!(PartnerMessage::parse(bad).is_err(), "{bad}");
        }
        for text in ["sit", "need nq", "trades good", "time 50", "move e2e4"] {
            assert_eq!(PartnerMessage::parse(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn requests_follow_messages_and_x_cancels_the_latest() {
        let mut context = BughouseContext::default();
        context.receive(PartnerMessage::Need(vec![Role::Knight]));
        context.receive(PartnerMessage::Sit);
        assert!(context.requests.sitting);
        context.receive(PartnerMessage::Cancel);
        assert!(!context.requests.sitting);
        assert_eq!(context.requests.need, vec![Role::Knight]);
        context.receive(PartnerMessage::Cancel);
        assert!(context.requests.need.is_empty());
        context.receive(PartnerMessage::Time(Duration::from_secs(3)));
        assert_eq!(context.clocks.time(Seat { board: BoardId::B, color: Color::Black }), Some(Duration::from_secs(3)));
        // A frozen partner says `dead` and `fast`; its `slow` after the wait lifts both.
        context.receive(PartnerMessage::Dead);
        context.receive(PartnerMessage::Fast);
        assert!(context.requests.partner_dead && context.requests.fast == Some(true));
        context.receive(PartnerMessage::Slow);
        assert!(!context.requests.partner_dead && context.requests.fast == Some(false));
    }
}
