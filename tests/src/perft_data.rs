//! Reader of `tests/data/*.perft`: `rules ; FEN ; count1 count2 ...` per line.

use std::path::Path;

/// One position with its leaf counts at depths 1, 2, ...
pub struct PerftEntry {
    pub line: usize,
    pub rules: String,
    pub fen: String,
    pub counts: Vec<u64>,
}

impl PerftEntry {
    /// The rules-spec without its `chess960` part, and whether the entry is
    /// read in Chess960 mode (`crazyhouse,chess960`: Shredder-FEN castling).
    pub fn rules_and_mode(&self) -> (String, bool) {
        let parts: Vec<&str> = self.rules.split(',').map(str::trim).collect();
        let spec: Vec<&str> = parts.iter().copied().filter(|&p| p != "chess960").collect();
        (spec.join(","), spec.len() < parts.len())
    }
}

pub fn read_perft_file(path: &Path) -> Vec<PerftEntry> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| {
            let parts: Vec<&str> = l.split(';').map(str::trim).collect();
            assert_eq!(parts.len(), 3, "{}:{}: expected 'rules ; fen ; counts'", path.display(), i + 1);
            PerftEntry {
                line: i + 1,
                rules: parts[0].to_string(),
                fen: parts[1].to_string(),
                counts: parts[2]
                    .split_whitespace()
                    .map(|n| n.parse().unwrap_or_else(|_| panic!("{}:{}: bad count '{n}'", path.display(), i + 1)))
                    .collect(),
            }
        })
        .collect()
}

/// Every `.perft` file of `tests/data`.
pub fn data_files() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "perft"))
        .collect();
    files.sort();
    files
}
