//! BPGN (RULES.md §7): writing match records and reading them back, ours and
//! the archives of bughouse servers (bughouse-db style: `[WhiteA "…"][WhiteAElo "…"]`
//! on one line, CRLF line ends, `{C:…}` comments, `1A. e4{299.000}`).
//!
//! Moves are numbered `1A.` (White on A), `1a.` (Black on A), `1B.`, `1b.`, in
//! real-time order, each followed by the mover's remaining clock in seconds.
//! One-board games (crazyhouse, chess, relay5 boards) use plain PGN numbering
//! (`1. e4{59.870} e5{59.512}`), which the reader accepts as well.

use std::fmt::Write as _;
use std::time::Duration;

use tandem_engine::{BoardId, Color, Game, Move, Rules, Seat, STARTPOS};

use crate::clock::TimeControl;
use crate::san::parse_san;

/// One game or match as it stands in a BPGN/PGN file.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Tags in file order.
    pub tags: Vec<(String, String)>,
    pub moves: Vec<RecordMove>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*` (team 1 = WhiteA + BlackB).
    pub result: String,
    /// The comment before the result (`{BlackA checkmated}`).
    pub termination: Option<String>,
    /// BPGN numbering (`1A.`) rather than PGN (`1.`).
    pub two_board: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RecordMove {
    pub board: BoardId,
    pub color: Color,
    /// The full-move number on its board.
    pub number: u32,
    pub san: String,
    /// The mover's clock after the move.
    pub clock: Option<Duration>,
}

impl Record {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The tag naming a seat's player: `WhiteA` … `BlackB` on two boards, `White` or `Black` on one.
    pub fn seat_tag(&self, board: BoardId, color: Color) -> &'static str {
        if self.two_board {
            Seat { board, color }.name()
        } else {
            color_name(color)
        }
    }

    /// A seat's time control: its own `WhiteATimeControl`-style tag where the seats' clocks differ, else `TimeControl`.
    pub fn time_control(&self, board: BoardId, color: Color) -> Option<TimeControl> {
        let own = self.tag(&format!("{}TimeControl", self.seat_tag(board, color)));
        own.or_else(|| self.tag("TimeControl"))?.parse().ok()
    }

    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(slot) => slot.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The starting position: the `FEN` tag (BFEN for two boards), or the start position.
    pub fn start_position(&self) -> String {
        match self.tag("FEN") {
            Some(fen) => fen.to_string(),
            None if self.two_board => format!("{STARTPOS} | {STARTPOS}"),
            None => STARTPOS.to_string(),
        }
    }

    /// The record as text, ending with a blank line.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (key, value) in &self.tags {
            let _ = writeln!(out, "[{key} \"{}\"]", escape(value));
        }
        out.push('\n');
        let mut tokens: Vec<String> = Vec::new();
        for (i, m) in self.moves.iter().enumerate() {
            let clock = m.clock.map(|c| format!("{{{:.3}}}", c.as_secs_f64())).unwrap_or_default();
            let number = if self.two_board {
                let letter = match (m.board, m.color) {
                    (BoardId::A, Color::White) => 'A',
                    (BoardId::A, Color::Black) => 'a',
                    (BoardId::B, Color::White) => 'B',
                    (BoardId::B, Color::Black) => 'b',
                };
                format!("{}{letter}. ", m.number)
            } else if m.color == Color::White {
                format!("{}. ", m.number)
            } else if i == 0 {
                format!("{}... ", m.number)
            } else {
                String::new()
            };
            tokens.push(format!("{number}{}{clock}", m.san));
        }
        if let Some(comment) = &self.termination {
            tokens.push(format!("{{{}}}", comment.replace('}', ")")));
        }
        tokens.push(self.result.clone());
        out.push_str(&wrap(&tokens, 79));
        out.push_str("\n\n");
        out
    }
}

/// Joins tokens with spaces into lines of at most `width` characters.
fn wrap(tokens: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for token in tokens {
        if line_len > 0 && line_len + 1 + token.len() > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(token);
        line_len += token.len();
    }
    out
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"").replace(['\n', '\r'], " ")
}

/// A BPGN file that could not be read: where (1-based line) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BpgnError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for BpgnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for BpgnError {}

/// Reads every game of a BPGN or PGN text.
pub fn read_records(text: &str) -> Result<Vec<Record>, BpgnError> {
    Reader::new(text).read_all()
}

struct Reader<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
}

/// The game being assembled by the reader.
#[derive(Default)]
struct Draft {
    tags: Vec<(String, String)>,
    moves: Vec<RecordMove>,
    /// Board, colour and number from the last move number seen.
    pending_number: Option<(Option<(BoardId, Color)>, u32)>,
    pgn_turn: Option<(Color, u32)>,
    last_comment: Option<String>,
    saw_movetext: bool,
    two_board: Option<bool>,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Reader<'a> {
        Reader { text: text.strip_prefix('\u{feff}').unwrap_or(text), pos: 0, line: 1 }
    }

    fn error(&self, message: impl Into<String>) -> BpgnError {
        BpgnError { line: self.line, message: message.into() }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let ch = self.peek()?;
        self.pos += ch.len_utf8();
        if ch == '\n' {
            self.line += 1;
        }
        Some(ch)
    }

    fn read_all(mut self) -> Result<Vec<Record>, BpgnError> {
        let mut records = Vec::new();
        let mut draft = Draft::default();
        while let Some(ch) = self.peek() {
            match ch {
                c if c.is_whitespace() => {
                    self.bump();
                }
                '[' => {
                    if draft.saw_movetext {
                        // A new game starts without a result token: keep the old one open-ended.
                        records.push(self.finish(std::mem::take(&mut draft), "*".to_string())?);
                    }
                    let tag = self.read_tag()?;
                    draft.tags.push(tag);
                }
                '{' => {
                    let comment = self.read_until_close('{', '}')?;
                    self.on_comment(&mut draft, comment);
                }
                ';' => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.bump();
                    }
                }
                '(' => {
                    self.read_until_close('(', ')')?;
                }
                _ => {
                    let token = self.read_token();
                    if let Some(result) = result_token(&token) {
                        records.push(self.finish(std::mem::take(&mut draft), result.to_string())?);
                    } else {
                        draft.saw_movetext = true;
                        self.on_token(&mut draft, &token)?;
                    }
                }
            }
        }
        if !draft.tags.is_empty() || draft.saw_movetext {
            records.push(self.finish(draft, "*".to_string())?);
        }
        Ok(records)
    }

    fn read_tag(&mut self) -> Result<(String, String), BpgnError> {
        self.bump(); // '['
        let mut key = String::new();
        while let Some(c) = self.peek().filter(|c| !c.is_whitespace() && *c != '"' && *c != ']') {
            key.push(c);
            self.bump();
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if key.is_empty() || self.bump() != Some('"') {
            return Err(self.error("malformed tag: expected [Name \"value\"]"));
        }
        let mut value = String::new();
        loop {
            match self.bump() {
                None | Some('\n') => return Err(self.error(format!("tag '{key}': unterminated value"))),
                Some('\\') => {
                    if let Some(c) = self.bump() {
                        value.push(c);
                    }
                }
                Some('"') => break,
                Some(c) => value.push(c),
            }
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.bump() != Some(']') {
            return Err(self.error(format!("tag '{key}': expected ']'")));
        }
        Ok((key, value))
    }

    fn read_until_close(&mut self, open: char, close: char) -> Result<String, BpgnError> {
        let start_line = self.line;
        self.bump();
        let mut depth = 1;
        let mut content = String::new();
        while let Some(c) = self.bump() {
            if c == open && open == '(' {
                depth += 1;
            } else if c == close {
                depth -= 1;
                if depth == 0 {
                    return Ok(content);
                }
            }
            content.push(c);
        }
        Err(BpgnError { line: start_line, message: format!("'{open}' is never closed") })
    }

    fn read_token(&mut self) -> String {
        let mut token = String::new();
        while let Some(c) = self.peek().filter(|c| !c.is_whitespace() && !"{}[]();".contains(*c)) {
            token.push(c);
            self.bump();
        }
        if token.is_empty() {
            // A stray closing bracket: consume it so the reader moves on.
            if let Some(c) = self.bump() {
                token.push(c);
            }
        }
        token
    }

    fn on_comment(&self, draft: &mut Draft, comment: String) {
        let trimmed = comment.trim();
        if let (Some(last), Ok(seconds)) = (draft.moves.last_mut(), trimmed.parse::<f64>()) {
            // A number past what a `Duration` holds (a hostile record) stays a plain comment.
            if let (None, Ok(clock)) = (last.clock, Duration::try_from_secs_f64(seconds)) {
                last.clock = Some(clock);
                return;
            }
        }
        draft.last_comment = Some(trimmed.to_string());
    }

    fn on_token(&self, draft: &mut Draft, token: &str) -> Result<(), BpgnError> {
        if token.starts_with('$') {
            return Ok(()); // NAG
        }
        let (number, rest) = split_move_number(token);
        if let Some(number) = number {
            let parsed = parse_move_number(number).ok_or_else(|| self.error(format!("bad move number '{number}'")))?;
            let two_board = parsed.0.is_some();
            if *draft.two_board.get_or_insert(two_board) != two_board {
                return Err(self.error("BPGN (1A.) and PGN (1.) move numbers are mixed"));
            }
            draft.pending_number = Some(parsed);
            if parsed.0.is_none() {
                let color = if number.contains("...") { Color::Black } else { Color::White };
                draft.pgn_turn = Some((color, parsed.1));
            }
        }
        if rest.is_empty() {
            return Ok(());
        }
        let (board, color, number) = match draft.pending_number.take() {
            Some((Some((board, color)), number)) => (board, color, number),
            _ => {
                let (color, number) =
                    draft.pgn_turn.ok_or_else(|| self.error(format!("move '{rest}' has no move number before it")))?;
                draft.two_board.get_or_insert(false);
                let next = match color {
                    Color::White => (Color::Black, number),
                    Color::Black => (Color::White, number + 1),
                };
                draft.pgn_turn = Some(next);
                (BoardId::A, color, number)
            }
        };
        draft.moves.push(RecordMove { board, color, number, san: rest.to_string(), clock: None });
        draft.last_comment = None;
        Ok(())
    }

    fn finish(&self, draft: Draft, result: String) -> Result<Record, BpgnError> {
        let two_board = draft.two_board.unwrap_or_else(|| draft.tags.iter().any(|(k, _)| k == "WhiteA"));
        Ok(Record { tags: draft.tags, moves: draft.moves, result, termination: draft.last_comment, two_board })
    }
}

fn result_token(token: &str) -> Option<&'static str> {
    match token {
        "1-0" => Some("1-0"),
        "0-1" => Some("0-1"),
        "1/2-1/2" | "½-½" => Some("1/2-1/2"),
        "*" => Some("*"),
        _ => None,
    }
}

/// `12A.e4` → (`12A.`, `e4`); `e4` → (None, `e4`).
fn split_move_number(token: &str) -> (Option<&str>, &str) {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return (None, token);
    }
    let mut end = digits;
    let bytes = token.as_bytes();
    if bytes.get(end).is_some_and(|b| b"AaBb".contains(b)) {
        end += 1;
    }
    let dots = bytes[end..].iter().take_while(|&&b| b == b'.').count();
    if dots == 0 {
        return (None, token);
    }
    end += dots;
    (Some(&token[..end]), &token[end..])
}

/// `12A.` → (Some((A, White)), 12); `12.` / `12...` → (None, 12).
fn parse_move_number(text: &str) -> Option<(Option<(BoardId, Color)>, u32)> {
    let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
    let number = digits.parse().ok()?;
    let seat = match text[digits.len()..].chars().next()? {
        'A' => Some((BoardId::A, Color::White)),
        'a' => Some((BoardId::A, Color::Black)),
        'B' => Some((BoardId::B, Color::White)),
        'b' => Some((BoardId::B, Color::Black)),
        '.' => None,
        _ => return None,
    };
    Some((seat, number))
}

/// A record's moves replayed on a [`Game`].
#[derive(Clone, Debug)]
pub struct Replay {
    pub game: Game,
    /// Each move as played, in record order.
    pub moves: Vec<(BoardId, Move)>,
}

/// Replays a record under `rules`: every move must be legal, in turn, on its board.
pub fn replay(record: &Record, rules: Rules) -> Result<Replay, String> {
    replay_with(record, rules, |_, _, _| {})
}

/// [`replay`] that shows `before_move` the game before each move, with the
/// move's board and the move.
pub fn replay_with(record: &Record, rules: Rules, mut before_move: impl FnMut(&Game, BoardId, Move)) -> Result<Replay, String> {
    let start = record.start_position();
    let mut game = if record.two_board {
        Game::from_bfen(&start, rules).map_err(|e| format!("FEN tag: {e}"))?
    } else {
        let board = tandem_engine::parse_fen(&start, rules).map_err(|e| format!("FEN tag: {e}"))?;
        Game::from_boards(rules, [board.clone(), board])
    };
    let mut moves = Vec::with_capacity(record.moves.len());
    for (i, rm) in record.moves.iter().enumerate() {
        let board = game.board(rm.board);
        if board.turn() != rm.color {
            return Err(format!(
                "move {} ({}{} {}): it is {}'s turn on board {}",
                i + 1,
                rm.number,
                rm.board,
                rm.san,
                color_name(board.turn()),
                rm.board
            ));
        }
        let m = parse_san(board, &rm.san).map_err(|e| format!("move {} ({}): {e}", i + 1, rm.san))?;
        before_move(&game, rm.board, m);
        game.play(rm.board, m).map_err(|e| format!("move {} ({}): {e}", i + 1, rm.san))?;
        moves.push((rm.board, m));
    }
    Ok(Replay { game, moves })
}

/// The rules a record was played under: its `Variant` tag when that is a
/// rules spec, otherwise `fallback` (archives say "bughouse" or nothing).
pub fn record_rules(record: &Record, fallback: Rules) -> Rules {
    record.tag("Variant").and_then(|v| v.to_ascii_lowercase().parse().ok()).unwrap_or(fallback)
}

pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Today's date as PGN writes it (`2026.11.29`), from the system clock (UTC).
pub fn today() -> String {
    let days =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() / 86_400).unwrap_or(0)
            as i64;
    let (year, month, day) = civil_from_days(days);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_convert() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(20_786), (2026, 11, 29));
    }

    #[test]
    fn move_numbers_split() {
        assert_eq!(split_move_number("12A.e4"), (Some("12A."), "e4"));
        assert_eq!(split_move_number("3..."), (Some("3..."), ""));
        assert_eq!(split_move_number("e4"), (None, "e4"));
        assert_eq!(parse_move_number("7b."), Some((Some((BoardId::B, Color::Black)), 7)));
    }

    #[test]
    fn a_clock_comment_must_be_a_duration() {
        let records = read_records("[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4{1e20} e5{-1} 2. Nf3{12.5} *\n").unwrap();
        let clocks: Vec<_> = records[0].moves.iter().map(|m| m.clock).collect();
        assert_eq!(clocks, [None, None, Some(Duration::from_millis(12_500))]);
    }
}
