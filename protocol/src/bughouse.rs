//! What the protocol knows about the other board of a bughouse game: our seat,
//! the partner board, all four clocks and the partners' conversation.
//!
//! [`BughouseContext`] is what the front ends fill; [`crate::partner_model`]
//! turns it into the engine's `TeamContext` for every bughouse search.

use std::time::{Duration, Instant};

use tandem_engine::{BoardId, Color};

use crate::board_state::BoardState;
use crate::output::echo;
use crate::parse::InputError;

pub use tandem_engine::Seat;

/// Parses a seat: `A white`, `b black`, `B w` and the like.
pub fn parse_seat(board: Option<&str>, color: Option<&str>) -> Result<Seat, InputError> {
    let board = board
        .ok_or_else(|| InputError::new("'seat' needs a board (A or B) and a colour (white or black)"))?
        .parse::<BoardId>()
        .map_err(|_| InputError::new(format!("unknown board '{}' (expected A or B)", echo(board.unwrap_or("")))))?;
    let color = parse_color(color.unwrap_or(""))?;
    Ok(Seat { board, color })
}

pub fn parse_color(text: &str) -> Result<Color, InputError> {
    match text.to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(InputError::new(format!("unknown colour '{}' (expected white or black)", echo(text)))),
    }
}


/// A clock read at `read_at`, now: less the time since if it is running.
pub fn clock_now(time: Duration, read_at: Option<Instant>, running: bool) -> Duration {
    match read_at {
        Some(at) if running => time.saturating_sub(at.elapsed()),
        _ => time,
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

pub use tandem_engine::team::{PartnerMessage, Trades};

/// Parses the text after `ptell` (the vocabulary is the engine's).
pub fn parse_partner_message(text: &str) -> Result<PartnerMessage, InputError> {
    PartnerMessage::parse(text).map_err(InputError::new)
}

pub use tandem_engine::team::StandingRequests;

/// Messages kept for the engine; older ones are dropped.
const MESSAGE_LOG: usize = 64;

/// Everything about the other board that the engine may use.
#[derive(Clone, Debug, Default)]
pub struct BughouseContext {
    pub seat: Seat,
    /// The partner board, once the GUI has sent it.
    pub partner_board: Option<BoardState>,
    pub clocks: Clocks,
    pub requests: StandingRequests,
    /// Partner messages received, oldest first (at most the last 64).
    pub messages: Vec<PartnerMessage>,
    /// The partner's handle (CECP `partner`), when one is assigned.
    pub partner_name: Option<String>,
    /// The words the partner reads, from its introduction (empty until then).
    pub partner_words: Vec<String>,
    /// When the partner board's clocks were last reported: the clock of the
    /// side to move there has run since.
    pub partner_clocks_at: Option<Instant>,
}

impl BughouseContext {
    /// Records a message: the partner's clocks, and the standing requests.
    pub fn receive(&mut self, message: PartnerMessage) {
        let partner = self.seat.partner();
        match &message {
            PartnerMessage::Time(t) => self.partner_clock_reported(partner, *t),
            PartnerMessage::OpponentTime(t) => {
                self.partner_clock_reported(Seat { color: partner.color.other(), ..partner }, *t)
            }
            PartnerMessage::Introduction(words) => self.partner_words = words.clone(),
            _ => self.requests.receive(&message, &self.messages),
        }
        if self.messages.len() == MESSAGE_LOG {
            self.messages.remove(0);
        }
        self.messages.push(message);
    }

    fn partner_clock_reported(&mut self, seat: Seat, time: Duration) {
        self.clocks.set(seat.board, seat.color, Some(time), None);
        self.partner_clocks_at = Some(Instant::now());
    }

    /// Whether the partner said it reads `word` (`board`, `time` …).
    pub fn partner_reads(&self, word: &str) -> bool {
        self.partner_words.iter().any(|w| w == word)
    }

    /// A new partner is assigned (or none): what the last one read is forgotten.
    pub fn set_partner(&mut self, name: Option<String>) {
        self.partner_name = name;
        self.partner_words.clear();
    }

    /// The clock of `seat` on the partner board now: as last reported, less
    /// the time since for the side to move there (when the board is known).
    pub fn partner_board_clock(&self, seat: Seat) -> Option<Duration> {
        let running = self.partner_board.as_ref().is_some_and(|b| b.position().turn() == seat.color);
        Some(clock_now(self.clocks.time(seat)?, self.partner_clocks_at, running))
    }

    /// Forgets the game (a new game starts); the seat and the partner stay.
    pub fn reset_game(&mut self) {
        *self = BughouseContext {
            seat: self.seat,
            partner_name: self.partner_name.take(),
            partner_words: std::mem::take(&mut self.partner_words),
            ..Default::default()
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tandem_engine::Role;

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
