//! `--show`: both boards, the reserves and the four clocks, redrawn live in
//! the terminal with plain ANSI escapes.
//!
//! Board B is drawn from Black's side, so that partners sit next to each
//! other as at a real bughouse table: team 1 (WhiteA, BlackB) along the bottom.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tandem_engine::{BoardId, Color, Position, Square};

use crate::matchplay::{seat_of, MatchView, Observer, ONE_BOARD_SEAT_NAMES, SEAT_NAMES};

/// Redraws ten times a second so the running clocks tick.
const REFRESH: Duration = Duration::from_millis(100);
/// Progress lines kept under the boards.
const LOG_LINES: usize = 6;

/// The live display. Progress lines pushed to `log` appear under the boards.
pub struct Show {
    title: String,
    log: Arc<Mutex<Vec<String>>>,
    out: std::io::Stdout,
}

impl Show {
    pub fn new(title: String, log: Arc<Mutex<Vec<String>>>) -> Show {
        let mut out = std::io::stdout();
        // Hide the cursor and start from a clean screen.
        let _ = write!(out, "\x1b[?25l\x1b[2J");
        Show { title, log, out }
    }
}

impl Drop for Show {
    fn drop(&mut self) {
        let _ = write!(self.out, "\x1b[?25h");
        let _ = self.out.flush();
    }
}

impl Observer for Show {
    fn match_started(&mut self, title: &str) {
        self.title = title.to_string();
    }

    fn refresh_interval(&self) -> Option<Duration> {
        Some(REFRESH)
    }

    fn update(&mut self, view: &MatchView<'_>) {
        let mut lines =
            vec![format!("{}  ·  {}  ·  {}", self.title, view.spec.rules, format_clock(view.now)), String::new()];
        lines.extend(draw_table(view));
        lines.push(String::new());
        if let Ok(log) = self.log.lock() {
            lines.extend(log.iter().rev().take(LOG_LINES).rev().cloned());
        }
        let mut screen = String::from("\x1b[H");
        for line in lines {
            screen.push_str(&line);
            screen.push_str("\x1b[K\n");
        }
        screen.push_str("\x1b[J");
        let _ = self.out.write_all(screen.as_bytes());
        let _ = self.out.flush();
    }
}

/// Width of one board column, name and clock lines included.
const COLUMN: usize = 34;

/// All lines of the table: the boards side by side.
pub fn draw_table(view: &MatchView<'_>) -> Vec<String> {
    let columns: Vec<Vec<String>> = (0..view.clocks.len()).map(|b| draw_board(view, b)).collect();
    let height = columns.iter().map(Vec::len).max().unwrap_or(0);
    (0..height)
        .map(|row| {
            let cells: Vec<String> = columns
                .iter()
                .map(|c| {
                    let cell = c.get(row).cloned().unwrap_or_default();
                    let pad = COLUMN.saturating_sub(cell.chars().count());
                    format!("{cell}{}", " ".repeat(pad))
                })
                .collect();
            cells.join("    ").trim_end().to_string()
        })
        .collect()
}

fn draw_board(view: &MatchView<'_>, b: usize) -> Vec<String> {
    let id = BoardId::BOTH[b];
    let position = view.game.board(id);
    // Board A from White's side, board B from Black's.
    let bottom = if id == BoardId::A { Color::White } else { Color::Black };
    let (white_time, black_time, running) = view.clocks[b];
    let player_line = |color: Color| {
        let seat = if view.clocks.len() == 2 {
            seat_of(id, color)
        } else if color == Color::White {
            0
        } else {
            1
        };
        let seat_name = if view.clocks.len() == 2 { SEAT_NAMES[seat] } else { ONE_BOARD_SEAT_NAMES[seat] };
        let time = if color == Color::White { white_time } else { black_time };
        let marker = if running == Some(color) { "◀" } else { " " };
        let name = view.spec.names.get(seat).map(String::as_str).unwrap_or("?");
        let left = format!("{seat_name} {name}");
        let right = format!("{} {marker}", format_clock(time));
        let pad = COLUMN.saturating_sub(left.chars().count() + right.chars().count()).max(1);
        format!("{left}{}{right}", " ".repeat(pad))
    };
    let reserve_line = |color: Color| {
        let letters = position.reserve(color).to_letters(color == Color::White);
        if position.rules().has_drops() {
            format!("  [{}]", letters.chars().map(String::from).collect::<Vec<_>>().join(" "))
        } else {
            String::new()
        }
    };
    let mut lines = vec![format!("Board {id}"), player_line(bottom.other()), reserve_line(bottom.other())];
    lines.extend(draw_squares(position, bottom));
    lines.push(reserve_line(bottom));
    lines.push(player_line(bottom));
    let last = view.last_moves.get(b).copied().flatten().unwrap_or("-");
    let state = match view.ends.get(b).copied().flatten() {
        Some(end) => format!("over: {}", end.reason),
        None => format!("last move: {last}"),
    };
    lines.push(state);
    lines
}

/// Eight ranks and the file letters, from `bottom`'s side.
fn draw_squares(position: &Position, bottom: Color) -> Vec<String> {
    let ranks: Vec<u32> = if bottom == Color::White { (0..8).rev().collect() } else { (0..8).collect() };
    let files: Vec<u32> = if bottom == Color::White { (0..8).collect() } else { (0..8).rev().collect() };
    let mut lines = Vec::new();
    for &rank in &ranks {
        let mut line = format!("{} ", rank + 1);
        for &file in &files {
            let square = Square::new(rank * 8 + file);
            let ch = position.piece_at(square).map_or('.', |p| p.char());
            line.push(' ');
            line.push(ch);
        }
        lines.push(line);
    }
    let letters: String = files.iter().map(|&f| format!(" {}", char::from(b'a' + f as u8))).collect();
    lines.push(format!("  {letters}"));
    lines
}

/// `1:05.3`, or `0:00.0` once it ran out.
pub fn format_clock(time: Duration) -> String {
    let tenths = time.as_millis() / 100;
    format!("{}:{:02}.{}", tenths / 600, (tenths / 10) % 60, tenths % 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_format() {
        assert_eq!(format_clock(Duration::from_millis(65_349)), "1:05.3");
        assert_eq!(format_clock(Duration::ZERO), "0:00.0");
    }

    #[test]
    fn board_b_is_drawn_from_blacks_side() {
        let position = Position::startpos(tandem_engine::Rules::bughouse());
        let white_side = draw_squares(&position, Color::White);
        let black_side = draw_squares(&position, Color::Black);
        assert_eq!(white_side[0], "8  r n b q k b n r");
        assert_eq!(black_side[0], "1  R N B K Q B N R");
        assert_eq!(black_side[8], "   h g f e d c b a");
    }
}
