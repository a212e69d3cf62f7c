//! Standard algebraic notation for the bughouse family, as BPGN archives write it.
//!
//! Drops are `N@e4` and `P@e4`, promotions `e8=Q` (a `steal` promotion names the
//! stolen piece the same way), castling `O-O`, checks `+` and mates `#`. The
//! rule variants without a SAN tradition follow RULES.md §7: `fall-through` is
//! the bare target (`e8`), `reenter` adds the re-entry square (`e8@d4`) or a
//! bare `@` for the reserve (`e8@`).
//!
//! Reading is lenient: `0-0`, missing or extra disambiguation, `e8Q`, `@e4` for
//! a pawn drop, annotations (`!?`) and UCI long algebraic are all accepted.

use tandem_engine::{MoveKind, Position, Role, Square, Status};

use tandem_engine::Move;

/// The SAN of a legal move, with its check or mate mark.
pub fn to_san(pos: &Position, m: Move) -> String {
    let mut text = san_body(pos, m);
    let mut after = pos.clone();
    after.play(m);
    if after.status() == Status::Checkmate {
        text.push('#');
    } else if after.is_check() {
        text.push('+');
    }
    text
}

/// SAN without the check mark.
fn san_body(pos: &Position, m: Move) -> String {
    let to = m.to();
    match m.kind() {
        MoveKind::Drop => format!("{}@{}", m.role().upper_char(), to),
        MoveKind::Castle => {
            if m.aux().file() > m.from().file() {
                "O-O".to_string()
            } else {
                "O-O-O".to_string()
            }
        }
        _ => {
            let mover = pos.role_at(m.from()).unwrap_or(Role::Pawn);
            let capture = if pos.is_capture(m) { "x" } else { "" };
            let mut text = if mover == Role::Pawn {
                let file = if capture.is_empty() { String::new() } else { m.from().file().char().to_string() };
                format!("{file}{capture}{to}")
            } else {
                format!("{}{}{capture}{to}", mover.upper_char(), disambiguation(pos, m, mover))
            };
            match m.kind() {
                MoveKind::Promotion | MoveKind::Steal => {
                    text.push('=');
                    text.push(m.role().upper_char());
                }
                MoveKind::ReenterSquare => text.push_str(&format!("@{}", m.aux())),
                MoveKind::ReenterReserve => text.push('@'),
                _ => {}
            }
            text
        }
    }
}

/// The file, rank or square needed to tell `m` from other moves of the same
/// piece type to the same square.
fn disambiguation(pos: &Position, m: Move, mover: Role) -> String {
    let rivals: Vec<Square> = pos
        .legal_moves()
        .into_iter()
        .filter(|&o| {
            !o.is_drop()
                && o.kind() != MoveKind::Castle
                && o.to() == m.to()
                && o.from() != m.from()
                && pos.role_at(o.from()) == Some(mover)
        })
        .map(|o| o.from())
        .collect();
    if rivals.is_empty() {
        return String::new();
    }
    let from = m.from();
    if rivals.iter().all(|sq| sq.file() != from.file()) {
        from.file().char().to_string()
    } else if rivals.iter().all(|sq| sq.rank() != from.rank()) {
        from.rank().char().to_string()
    } else {
        from.to_string()
    }
}

/// A SAN (or UCI) move read back into the legal move it names.
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, String> {
    let clean = text.trim_end_matches(['+', '#', '!', '?']);
    if clean.is_empty() {
        return Err(format!("empty move '{text}'"));
    }
    let pattern = Pattern::read(clean).ok_or_else(|| format!("'{text}' is not a move"));
    let matches: Vec<Move> = match &pattern {
        Ok(pattern) => pos.legal_moves().into_iter().filter(|&m| pattern.matches(pos, m)).collect(),
        Err(_) => Vec::new(),
    };
    match matches.as_slice() {
        [m] => Ok(*m),
        [] => pos.parse_move(clean).map_err(|_| format!("'{text}' is not a legal move in {pos}")),
        _ => {
            // `e8` under `fall-through` and a same-square steal are the only
            // forms that can name several moves; prefer the plainest one.
            Err(format!("'{text}' is ambiguous in {pos}"))
        }
    }
}

/// What a SAN token says about a move.
#[derive(Debug, Default)]
struct Pattern {
    castle: Option<bool>,
    drop: bool,
    /// The moving piece (a pawn when no letter leads), or the dropped one.
    role: Option<Role>,
    from_file: Option<char>,
    from_rank: Option<char>,
    to: Option<Square>,
    promotion: Option<Role>,
    /// `@` after the target: `Some(None)` for the reserve, `Some(Some(sq))` for a square.
    reenter: Option<Option<Square>>,
}

impl Pattern {
    fn read(text: &str) -> Option<Pattern> {
        let upper = text.replace('0', "O");
        if upper == "O-O" || upper == "O-O-O" {
            return Some(Pattern { castle: Some(upper == "O-O"), ..Pattern::default() });
        }
        if let Some((piece, square)) = text.split_once('@').filter(|(p, _)| p.len() <= 1) {
            let role = match piece.chars().next() {
                None => Role::Pawn,
                Some(ch) => Role::from_char(ch.to_ascii_lowercase())?,
            };
            return Some(Pattern {
                drop: true,
                role: Some(role),
                to: Some(square.parse().ok()?),
                ..Pattern::default()
            });
        }
        let mut chars: Vec<char> = text.chars().collect();
        let mut pattern = Pattern::default();
        // Re-entry suffix: `@` and an optional square.
        if let Some(at) = chars.iter().position(|&c| c == '@') {
            let rest: String = chars[at + 1..].iter().collect();
            pattern.reenter = Some(if rest.is_empty() { None } else { Some(rest.parse().ok()?) });
            chars.truncate(at);
        }
        // Promotion suffix: `=Q` or a trailing piece letter.
        if let Some(&last) = chars.last() {
            if "NBRQKnbrqk".contains(last) && chars.len() > 2 {
                let role = Role::from_char(last.to_ascii_lowercase())?;
                pattern.promotion = Some(role);
                chars.pop();
                if chars.last() == Some(&'=') {
                    chars.pop();
                }
            }
        }
        let mut rest = chars.as_slice();
        match rest.first() {
            Some(&c) if "NBRQKP".contains(c) => {
                pattern.role = Role::from_char(c.to_ascii_lowercase());
                rest = &rest[1..];
            }
            _ => pattern.role = Some(Role::Pawn),
        }
        if rest.len() < 2 {
            return None;
        }
        let target: String = rest[rest.len() - 2..].iter().collect();
        pattern.to = Some(target.parse().ok()?);
        for &c in &rest[..rest.len() - 2] {
            match c {
                'a'..='h' => pattern.from_file = Some(c),
                '1'..='8' => pattern.from_rank = Some(c),
                'x' | ':' | '-' => {}
                _ => return None,
            }
        }
        Some(pattern)
    }

    fn matches(&self, pos: &Position, m: Move) -> bool {
        if let Some(kingside) = self.castle {
            return m.kind() == MoveKind::Castle && (m.aux().file() > m.from().file()) == kingside;
        }
        if self.drop {
            return m.is_drop() && Some(m.role()) == self.role && Some(m.to()) == self.to;
        }
        if m.is_drop() || m.kind() == MoveKind::Castle || Some(m.to()) != self.to {
            return false;
        }
        if pos.role_at(m.from()) != self.role {
            return false;
        }
        if self.from_file.is_some_and(|f| f != m.from().file().char())
            || self.from_rank.is_some_and(|r| r != m.from().rank().char())
        {
            return false;
        }
        match m.kind() {
            MoveKind::Promotion | MoveKind::Steal => self.reenter.is_none() && self.promotion == Some(m.role()),
            MoveKind::ReenterSquare => self.promotion.is_none() && self.reenter == Some(Some(m.aux())),
            MoveKind::ReenterReserve => self.promotion.is_none() && self.reenter == Some(None),
            _ => self.promotion.is_none() && self.reenter.is_none(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tandem_engine::{parse_fen, Rules};

    fn pos(fen: &str) -> Position {
        parse_fen(fen, Rules::bughouse()).unwrap()
    }

    #[test]
    fn writes_standard_forms() {
        let start = Position::startpos(Rules::bughouse());
        let e4 = start.parse_move("e2e4").unwrap();
        assert_eq!(to_san(&start, e4), "e4");
        let nf3 = start.parse_move("g1f3").unwrap();
        assert_eq!(to_san(&start, nf3), "Nf3");
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R[Np] w KQkq - 0 1");
        assert_eq!(to_san(&p, p.parse_move("e1g1").unwrap()), "O-O");
        assert_eq!(to_san(&p, p.parse_move("e1c1").unwrap()), "O-O-O");
        assert_eq!(to_san(&p, p.parse_move("N@d6").unwrap()), "N@d6+");
        assert_eq!(to_san(&p, p.parse_move("a1a8").unwrap()), "Rxa8+");
        let knights = pos("4k3/8/8/8/8/8/8/1N2KN2[] w - - 0 1");
        assert_eq!(to_san(&knights, knights.parse_move("b1d2").unwrap()), "Nbd2");
        let promo = pos("4k3/P7/8/8/8/8/8/4K3[] w - - 0 1");
        assert_eq!(to_san(&promo, promo.parse_move("a7a8q").unwrap()), "a8=Q+");
    }

    #[test]
    fn reads_lenient_forms() {
        let p = pos("r3k2r/8/8/8/8/8/4P3/R3K2R[NPp] w KQkq - 0 1");
        for (san, uci) in [
            ("0-0", "e1g1"),
            ("O-O-O", "e1c1"),
            ("N@d6+", "N@d6"),
            ("P@d4", "P@d4"),
            ("@d4", "P@d4"),
            ("e4!?", "e2e4"),
            ("Pe4", "e2e4"),
            ("Rxa8", "a1a8"),
            ("Ra1xa8", "a1a8"),
            ("e2e4", "e2e4"),
        ] {
            let m = parse_san(&p, san).unwrap_or_else(|e| panic!("{san}: {e}"));
            assert_eq!(m.to_string(), uci, "{san}");
        }
        assert!(parse_san(&p, "Nf3").is_err());
        assert!(parse_san(&p, "xyz").is_err());
        assert!(parse_san(&p, "").is_err());
    }

    #[test]
    fn round_trips_every_legal_move() {
        let p = pos("r3k2r/pP3p2/8/3pP3/8/8/4P1p1/R3K2R[QRBNPqrbnp] w KQkq d6 0 20");
        for m in p.legal_moves() {
            let san = to_san(&p, m);
            assert_eq!(parse_san(&p, &san), Ok(m), "{san}");
        }
    }
}
