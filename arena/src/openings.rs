//! Opening books: BFEN lines, EPD/FEN lines, or BPGN/PGN games whose first
//! plies lead to the opening position.
//!
//! A one-board FEN in a two-board run starts both boards from it **(choice)**:
//! the common way to give bughouse a set-up position.

use std::path::Path;

use tandem_engine::{parse_fen, BoardId, Game, Rules};

use crate::bpgn::{read_records, replay};

/// A starting position: BFEN for two boards, FEN for one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub position: String,
    /// Where it came from, for the record (`book.epd:12`).
    pub label: String,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum OpeningOrder {
    #[default]
    Sequential,
    Random,
}

/// Loads every opening of a file under `rules`. `plies` limits how many
/// moves of each BPGN/PGN game are played (all of them by default).
pub fn load(path: &Path, rules: Rules, plies: Option<usize>) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read openings {}: {e}", path.display()))?;
    let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    let openings =
        if looks_like_pgn(&text) { from_games(&text, &name, rules, plies)? } else { from_lines(&text, &name, rules)? };
    if openings.is_empty() {
        return Err(format!("no openings in {}", path.display()));
    }
    Ok(openings)
}

fn looks_like_pgn(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|l| l.starts_with('[') || l.starts_with("1."))
}

/// One position per line: BFEN (`fenA | fenB`), FEN, or EPD (four fields and operations).
fn from_lines(text: &str, name: &str, rules: Rules) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let label = format!("{name}:{}", i + 1);
        let position = position_from_line(line, rules).map_err(|e| format!("{label}: {e}"))?;
        openings.push(Opening { position, label });
    }
    Ok(openings)
}

fn position_from_line(line: &str, rules: Rules) -> Result<String, String> {
    if line.contains('|') {
        if !rules.is_two_board() {
            return Err("a two-board BFEN, but these rules play one board".to_string());
        }
        let game = Game::from_bfen(line, rules).map_err(|e| e.to_string())?;
        return Ok(game.to_bfen());
    }
    let fen = epd_to_fen(line);
    let board = parse_fen(&fen, rules).map_err(|e| e.to_string())?;
    Ok(if rules.is_two_board() { format!("{board} | {board}") } else { board.to_string() })
}

/// EPD keeps four FEN fields and adds operations (`bm e4; id "x";`): keep the
/// fields, and the move counters when they are there.
fn epd_to_fen(line: &str) -> String {
    let fields: Vec<&str> = line.split(';').next().unwrap_or(line).split_whitespace().collect();
    let counters = fields.len() >= 6 && fields[4].parse::<u32>().is_ok() && fields[5].parse::<u32>().is_ok();
    let keep = if counters { 6 } else { fields.len().min(4) };
    fields[..keep].join(" ")
}

fn from_games(text: &str, name: &str, rules: Rules, plies: Option<usize>) -> Result<Vec<Opening>, String> {
    let records = read_records(text).map_err(|e| format!("{name}: {e}"))?;
    let mut openings = Vec::new();
    for (i, mut record) in records.into_iter().enumerate() {
        let label = format!("{name} game {}", i + 1);
        if let Some(limit) = plies {
            record.moves.truncate(limit);
        }
        let two_board_record = record.two_board;
        let replayed = replay(&record, rules).map_err(|e| format!("{label}: {e}"))?;
        let position = match (rules.is_two_board(), two_board_record) {
            (true, true) => replayed.game.to_bfen(),
            (true, false) => {
                let board = replayed.game.board(BoardId::A).to_string();
                format!("{board} | {board}")
            }
            (false, false) => replayed.game.board(BoardId::A).to_string(),
            (false, true) => return Err(format!("{label}: a two-board game, but these rules play one board")),
        };
        openings.push(Opening { position, label });
    }
    Ok(openings)
}

/// The openings in playing order.
pub fn ordered(mut openings: Vec<Opening>, order: OpeningOrder, seed: u64) -> Vec<Opening> {
    if order == OpeningOrder::Random {
        fastrand::Rng::with_seed(seed).shuffle(&mut openings);
    }
    openings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_operations_are_dropped() {
        assert_eq!(
            epd_to_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"x\";"),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"
        );
        assert_eq!(epd_to_fen("8/8/8/8/8/8/8/K6k w - - 3 40"), "8/8/8/8/8/8/8/K6k w - - 3 40");
    }

    #[test]
    fn a_fen_opens_both_boards() {
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1";
        let position = position_from_line(fen, Rules::bughouse()).unwrap();
        assert_eq!(position, format!("{fen} | {fen}"));
        assert!(position_from_line("not a fen", Rules::bughouse()).is_err());
        assert!(position_from_line(&position, Rules::crazyhouse()).is_err());
    }
}
