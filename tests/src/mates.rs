//! The mate suite's format and its pattern tags, shared by `tests/mate_suite.rs`
//! and the `mine-mates` tool that finds the suite's positions in game records.
//!
//! One position per line, six fields separated by ` ; `:
//!
//! ```text
//! <rules> ; <FEN> ; <N> ; <a first move> ; <tags> ; <a main line>
//! ```
//!
//! - rules: a rules spec as `Rules::from_str` reads it (`crazyhouse`, `bughouse`,
//!   `bughouse,mate=standard`, `tandem`);
//! - FEN: one board with its reserves in brackets (RULES.md §7);
//! - N: the side to move mates in exactly N moves, and in no fewer;
//! - first move: the first move of a shortest mate, in UCI;
//! - tags: the main line's patterns ([`TAGS`]), space-separated, or `-`;
//! - main line: the mate in UCI, the defender resisting longest.
//!
//! Lines starting with `#` are comments.

use tandem_engine::{parse_fen, Move, Position, Role, Rules};

/// The pattern tags and what each says of a mate's main line.
pub const TAGS: [(&str, &str); 7] = [
    ("check-first", "the first move gives check"),
    ("quiet-first", "the first move gives no check"),
    ("king-move", "the attacker moves its king on the way"),
    ("quiet-drop", "the attacker drops a piece without giving check"),
    ("drop-mate", "the mating move is a drop"),
    ("promotion", "a pawn promotes in the line (either side)"),
    ("capture-first", "the first move captures"),
];

/// The tags of a mate's main line played from `pos` (attacker to move).
pub fn tags_of(pos: &Position, line: &[Move]) -> Vec<&'static str> {
    let mut tags = Vec::new();
    let Some(&first) = line.first() else {
        return tags;
    };
    tags.push(if pos.gives_check(first) { "check-first" } else { "quiet-first" });
    if pos.is_capture(first) {
        tags.push("capture-first");
    }
    let mut board = pos.clone();
    let (mut king_move, mut quiet_drop, mut promotion) = (false, false, false);
    for (ply, &m) in line.iter().enumerate() {
        let attacker = ply % 2 == 0;
        if attacker && !m.is_drop() && board.role_at(m.from()) == Some(Role::King) {
            king_move = true;
        }
        if attacker && m.is_drop() && !board.gives_check(m) {
            quiet_drop = true;
        }
        promotion |= m.is_promotion_like();
        board.play(m);
    }
    if king_move {
        tags.push("king-move");
    }
    if quiet_drop {
        tags.push("quiet-drop");
    }
    if line.last().is_some_and(|m| m.is_drop()) {
        tags.push("drop-mate");
    }
    if promotion {
        tags.push("promotion");
    }
    tags
}

/// One position of the suite.
#[derive(Clone, Debug)]
pub struct MateEntry {
    /// 1-based line in the file.
    pub line: usize,
    pub rules: String,
    pub fen: String,
    pub mate: u32,
    pub first: String,
    pub tags: Vec<String>,
    pub main_line: Vec<String>,
}

impl MateEntry {
    pub fn position(&self) -> Result<Position, String> {
        let rules: Rules = self.rules.parse().map_err(|e| format!("line {}: rules {:?}: {e:?}", self.line, self.rules))?;
        parse_fen(&self.fen, rules).map_err(|e| format!("line {}: FEN {:?}: {e:?}", self.line, self.fen))
    }

    /// The main line as moves of the entry's position.
    pub fn main_line_moves(&self) -> Result<Vec<Move>, String> {
        let mut board = self.position()?;
        let mut moves = Vec::new();
        for text in &self.main_line {
            let m = board.parse_move(text).map_err(|e| format!("line {}: main line move {text}: {e:?}", self.line))?;
            board.play(m);
            moves.push(m);
        }
        Ok(moves)
    }

    /// The entry as a line of the file.
    pub fn to_line(&self) -> String {
        let tags = if self.tags.is_empty() { "-".to_string() } else { self.tags.join(" ") };
        format!("{} ; {} ; {} ; {} ; {} ; {}", self.rules, self.fen, self.mate, self.first, tags, self.main_line.join(" "))
    }
}

/// The data lines of a `;`-separated position file: 1-based line number and
/// trimmed fields; blank lines and `#` comments skipped.
pub fn data_lines(text: &str) -> impl Iterator<Item = (usize, Vec<&str>)> {
    text.lines().enumerate().filter_map(|(index, raw)| {
        let line = raw.trim();
        (!line.is_empty() && !line.starts_with('#')).then(|| (index + 1, line.split(';').map(str::trim).collect()))
    })
}

/// Parses the suite's text.
pub fn parse_suite(text: &str) -> Result<Vec<MateEntry>, String> {
    let mut entries = Vec::new();
    for (line, fields) in data_lines(text) {
        let [rules, fen, mate, first, tags, main_line] = fields[..] else {
            return Err(format!("line {line}: expected six fields `rules ; FEN ; N ; move ; tags ; line`: {}", fields.join(" ; ")));
        };
        let mate = mate.parse().map_err(|_| format!("line {line}: bad mate length {mate:?}"))?;
        let tags = if tags == "-" { Vec::new() } else { tags.split_whitespace().map(str::to_string).collect() };
        entries.push(MateEntry {
            line,
            rules: rules.to_string(),
            fen: fen.to_string(),
            mate,
            first: first.to_string(),
            tags,
            main_line: main_line.split_whitespace().map(str::to_string).collect(),
        });
    }
    Ok(entries)
}
