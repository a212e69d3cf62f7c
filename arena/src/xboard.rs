//! The CECP (xboard) adapter, for engines such as Sjeng and fairy-stockfish's
//! xboard mode.
//!
//! CECP engines keep the game themselves: the adapter sends the opponent's
//! move (`usermove`), clocks (`time`/`otim`) and reserves (`holding [WHITE]
//! [BLACK]`, upper-case letters in both brackets), and sets the board up again
//! (`setboard`) whenever the engine's game and ours part (a new board in
//! relay5, a rejected move, an outside change).
//!
//! Peer quirks handled here (docs/PEERS.md): `variant` must follow `new`;
//! `setboard` gets the FEN without reserves, which follow as `holding`, and
//! only after the engine's first `go` or move; an engine that moves at once on
//! any input during its search (Sjeng) gets reserves and partner messages
//! between its searches (`holding=deferred`).

use std::time::Duration;

use tandem_engine::{Color, Reserve, Rules, STARTPOS};

use crate::clock::format_seconds;
use crate::engine_proc::{Adapter, Handshake, Parsed};
use crate::seats::{slot, FaultKind, FromEngine, GameSetup, MoveRequest, ToEngine};

/// When reserve changes reach a CECP engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HoldingPolicy {
    /// As soon as they happen, during its search too.
    Live,
    /// Between its searches: for engines that move at once on any input.
    Deferred,
}

impl std::str::FromStr for HoldingPolicy {
    type Err = String;

    fn from_str(text: &str) -> Result<HoldingPolicy, String> {
        match text {
            "live" => Ok(HoldingPolicy::Live),
            "deferred" => Ok(HoldingPolicy::Deferred),
            _ => Err(format!("holding must be 'live' or 'deferred', not '{text}'")),
        }
    }
}

/// How long a CECP engine may stay silent before it counts as a protocol-1
/// engine that sends no `feature … done=1`.
const FEATURE_PATIENCE: Duration = Duration::from_secs(2);

pub struct XboardAdapter {
    rules: Rules,
    user_options: Vec<(String, String)>,
    policy: Option<HoldingPolicy>,
    usermove: bool,
    my_name: Option<String>,
    variants: Option<Vec<String>>,
    /// The names of the options the engine declared (`feature option="NAME -type …"`).
    declared_options: Vec<String>,
    /// `done=0` seen: the engine asked for more time to start.
    asked_for_time: bool,
    setup: Option<GameSetup>,
    color: Color,
    board_key: Option<u64>,
    /// Moves of the current board the engine knows.
    known_moves: usize,
    /// The engine has had a `go` or a move since `new` (reserves may follow).
    started: bool,
    /// In `force` mode the engine only records moves; `go` makes it play.
    forced: bool,
    /// The reserves the engine believes in.
    believed: [Reserve; 2],
    searching: bool,
    /// Input held back while an interrupt-prone engine searches.
    deferred: Vec<String>,
    last_request: Option<MoveRequest>,
    /// A rejected move was answered with a fresh setup once for this request.
    resynced_after_rejection: bool,
}

impl XboardAdapter {
    pub fn new(rules: Rules, user_options: Vec<(String, String)>, policy: Option<HoldingPolicy>) -> XboardAdapter {
        XboardAdapter {
            rules,
            user_options,
            policy,
            usermove: false,
            my_name: None,
            variants: None,
            declared_options: Vec::new(),
            asked_for_time: false,
            setup: None,
            color: Color::White,
            board_key: None,
            known_moves: 0,
            started: false,
            forced: false,
            believed: [Reserve::EMPTY; 2],
            searching: false,
            deferred: Vec::new(),
            last_request: None,
            resynced_after_rejection: false,
        }
    }

    /// The CECP variant name for the rules, if not plain chess.
    fn variant(&self) -> Option<&'static str> {
        if self.rules.is_two_board() {
            Some("bughouse")
        } else if self.rules.has_drops() {
            Some("crazyhouse")
        } else {
            None
        }
    }

    fn holding_policy(&self) -> HoldingPolicy {
        self.policy.unwrap_or_else(|| {
            // Sjeng moves at once on any input during its search.
            let sjeng = self.my_name.as_deref().is_some_and(|n| n.to_ascii_lowercase().contains("sjeng"));
            if sjeng {
                HoldingPolicy::Deferred
            } else {
                HoldingPolicy::Live
            }
        })
    }

    fn on_features(&mut self, line: &str) -> (Vec<String>, Option<bool>) {
        let mut replies = Vec::new();
        let mut done = None;
        for (key, value) in parse_features(line) {
            match key.as_str() {
                "done" => {
                    done = Some(value == "1");
                    self.asked_for_time |= value == "0";
                    continue;
                }
                "usermove" => self.usermove = value == "1",
                "myname" => self.my_name = Some(value.clone()),
                "variants" => self.variants = Some(value.split(',').map(|v| v.trim().to_string()).collect()),
                "option" => self.declared_options.push(option_name(&value).to_string()),
                _ => {}
            }
            let verdict = if key == "san" && value == "1" { "rejected" } else { "accepted" };
            replies.push(format!("{verdict} {key}"));
        }
        (replies, done)
    }

    fn finish_handshake(&mut self, mut lines: Vec<String>) -> Handshake {
        if let (Some(variant), Some(variants)) = (self.variant(), &self.variants) {
            if !variants.iter().any(|v| v == variant) {
                return Handshake::Failed(format!("the engine does not play variant {variant}"));
            }
        }
        lines.extend(self.rules_line());
        for (name, value) in &self.user_options {
            lines.push(format!("option {name}={value}"));
        }
        Handshake::Ready(lines)
    }

    /// `option Rules=…` for an engine that declared tandem's `Rules` option,
    /// when our rules differ from its variant's preset (the UCI adapter sends
    /// the same overrides): without it tandem would play chess.com's bughouse
    /// under an arbiter judging, say, `mate=standard`.
    fn rules_line(&self) -> Option<String> {
        let declared = |name: &str| self.declared_options.iter().any(|o| o.eq_ignore_ascii_case(name));
        let user_sets = self.user_options.iter().any(|(name, _)| name.eq_ignore_ascii_case("Rules"));
        if !declared("Rules") || user_sets {
            return None;
        }
        let base: Rules = self.variant().unwrap_or("chess").parse().ok()?;
        self.rules.overrides_against(&base).map(|overrides| format!("option Rules={overrides}"))
    }

    /// `new` … `level`: a fresh game of our variant.
    fn game_lines(&self) -> Vec<String> {
        let mut lines = vec!["new".to_string()];
        if let Some(variant) = self.variant() {
            lines.push(format!("variant {variant}"));
        }
        if let Some(partner) = self.setup.as_ref().and_then(|s| s.partner_name.as_ref()) {
            lines.push(format!("partner {}", single_word(partner)));
        }
        lines.push("easy".to_string());
        if let Some(setup) = &self.setup {
            lines.push(level_line(setup.own_time.base, setup.own_time.increment));
        }
        lines
    }

    /// `force` and `setboard`: the engine's board set to `fen` without a new
    /// game (`new` is slow in some engines: Sjeng clears its hash tables).
    /// The start position needs no `setboard` right after `new`.
    fn position_lines(&mut self, fen: &str, after_new: bool) -> Vec<String> {
        let mut lines = vec!["force".to_string()];
        self.forced = true;
        let board_only = without_reserves(fen);
        if !after_new || board_only != without_reserves(STARTPOS) {
            lines.push(format!("setboard {board_only}"));
        }
        self.started = false;
        self.believed = [Reserve::EMPTY; 2];
        self.searching = false;
        self.deferred.clear();
        lines
    }

    fn clock_lines(&self, request: &MoveRequest) -> [String; 2] {
        let (own, theirs) = match request.color {
            Color::White => (request.clocks.white, request.clocks.black),
            Color::Black => (request.clocks.black, request.clocks.white),
        };
        [format!("time {}", centiseconds(own)), format!("otim {}", centiseconds(theirs))]
    }

    fn holding_line(reserves: &[Reserve; 2]) -> String {
        format!("holding [{}] [{}]", reserves[0].to_letters(true), reserves[1].to_letters(true))
    }

    fn request_lines(&mut self, request: &MoveRequest) -> Vec<String> {
        self.color = request.color;
        let same_board = self.board_key == Some(request.board_key);
        let new_moves = request.moves.len().checked_sub(self.known_moves);
        let mut lines = match (same_board || self.board_key.is_none(), new_moves) {
            (true, Some(0)) if !self.started => self.first_go(request),
            (true, Some(1)) => self.opponent_move(request),
            _ => self.resync(request),
        };
        self.board_key = Some(request.board_key);
        self.known_moves = request.moves.len();
        self.searching = true;
        self.last_request = Some(request.clone());
        if lines.is_empty() {
            lines = self.resync(request);
        }
        lines
    }

    fn first_go(&mut self, request: &MoveRequest) -> Vec<String> {
        let mut lines = self.clock_lines(request).to_vec();
        lines.push("go".to_string());
        self.forced = false;
        self.started = true;
        lines.extend(self.holding_after_start(request.reserves));
        lines
    }

    /// The opponent's move. In bughouse it is entered in force mode and the
    /// reserves follow before `go`: CECP engines such as Sjeng credit captures
    /// to a reserve themselves, as in crazyhouse, so the runner's reserves
    /// must overwrite theirs before they search.
    fn opponent_move(&mut self, request: &MoveRequest) -> Vec<String> {
        let Some(last) = request.moves.last() else { return Vec::new() };
        let prefix = if self.usermove { "usermove " } else { "" };
        let mut lines = Vec::new();
        if !self.uses_holdings() {
            lines.extend(self.clock_lines(request));
            lines.push(format!("{prefix}{last}"));
            if self.forced {
                // A move in force mode is only recorded: `go` makes the engine answer it.
                lines.push("go".to_string());
                self.forced = false;
            }
            self.started = true;
            return lines;
        }
        if !self.forced {
            lines.push("force".to_string());
        }
        // Only a White engine misreads reserves before its first search (Sjeng).
        let may_send_holdings = self.started || self.color == Color::Black;
        if let Some(before) = self.reserves_before_drop(last, &request.reserves).filter(|_| may_send_holdings) {
            lines.push(Self::holding_line(&before));
        }
        lines.push(format!("{prefix}{last}"));
        if may_send_holdings {
            lines.push(Self::holding_line(&request.reserves));
            self.believed = request.reserves;
        }
        lines.extend(self.clock_lines(request));
        lines.push("go".to_string());
        self.forced = false;
        let was_started = std::mem::replace(&mut self.started, true);
        if !was_started {
            lines.extend(self.holding_after_start(request.reserves));
        }
        lines
    }

    /// The reserves to send before the opponent's drop `last` when the engine
    /// may not know the dropped piece: a live update from the partner board
    /// carries the reserves of the moment it is sent, which may already lack a
    /// piece dropped on this board by a move not yet sent. `None` when the
    /// move is no drop or the engine already credits the opponent with it.
    fn reserves_before_drop(&self, last: &str, after: &[Reserve; 2]) -> Option<[Reserve; 2]> {
        let role = dropped_role(last)?;
        let opponent = slot(self.color.other());
        if self.believed[opponent].count(role) > 0 {
            return None;
        }
        let mut before = *after;
        before[opponent].add(role);
        Some(before)
    }

    fn resync(&mut self, request: &MoveRequest) -> Vec<String> {
        let mut lines = self.position_lines(&request.fen, false);
        lines.extend(self.clock_lines(request));
        lines.push("go".to_string());
        self.forced = false;
        self.started = true;
        lines.extend(self.holding_after_start(request.reserves));
        lines
    }

    /// Reserves right after the first `go` (never before: Sjeng misreads them).
    fn holding_after_start(&mut self, reserves: [Reserve; 2]) -> Vec<String> {
        if !self.uses_holdings() || reserves == self.believed {
            return Vec::new();
        }
        self.believed = reserves;
        vec![Self::holding_line(&reserves)]
    }

    fn uses_holdings(&self) -> bool {
        self.rules.is_two_board()
    }

    /// Input that may interrupt a search: sent now, or held back for later.
    fn maybe_defer(&mut self, lines: Vec<String>) -> Vec<String> {
        if self.searching && self.holding_policy() == HoldingPolicy::Deferred {
            self.deferred.extend(lines);
            Vec::new()
        } else {
            lines
        }
    }

    fn on_move(&mut self, text: &str) -> Parsed {
        self.searching = false;
        self.resynced_after_rejection = false;
        self.known_moves += 1;
        let uci = normalize_move(text, self.color);
        if let Some(role) = dropped_role(&uci) {
            self.believed[slot(self.color)].remove(role);
        }
        let mut parsed = Parsed::event(FromEngine::Move(uci));
        if self.uses_holdings() {
            // Undo whatever the engine credited itself for its own capture, and
            // settle reserves it may have read before or after moving.
            parsed.replies.push(Self::holding_line(&self.believed));
        }
        parsed.replies.extend(std::mem::take(&mut self.deferred));
        parsed
    }

    fn on_rejection(&mut self, line: &str) -> Parsed {
        match self.last_request.clone() {
            Some(request) if self.searching && !self.resynced_after_rejection => {
                // Our game and the engine's have parted: set the board up again once.
                self.resynced_after_rejection = true;
                let lines = self.resync(&request);
                Parsed { event: None, replies: lines }
            }
            Some(_) if self.searching => Parsed::event(FromEngine::Fault {
                kind: FaultKind::Garbage,
                detail: format!("refused the position it was given: {line}"),
            }),
            _ => Parsed::nothing(),
        }
    }
}

impl Adapter for XboardAdapter {
    fn start(&mut self) -> Vec<String> {
        vec!["xboard".to_string(), "protover 2".to_string()]
    }

    fn handshake_line(&mut self, line: &str) -> Handshake {
        let line = line.trim();
        if !line.starts_with("feature ") {
            return Handshake::Continue(Vec::new());
        }
        let (replies, done) = self.on_features(line);
        match done {
            Some(true) => self.finish_handshake(replies),
            _ => Handshake::Continue(replies),
        }
    }

    fn quiet_limit(&self) -> Option<Duration> {
        (!self.asked_for_time).then_some(FEATURE_PATIENCE)
    }

    fn handshake_quiet(&mut self) -> Handshake {
        self.finish_handshake(Vec::new())
    }

    fn translate(&mut self, message: &ToEngine) -> Vec<String> {
        match message {
            ToEngine::NewGame(setup) => {
                self.setup = Some(setup.clone());
                self.color = setup.color;
                self.board_key = None;
                self.known_moves = 0;
                self.last_request = None;
                let mut lines = self.game_lines();
                lines.extend(self.position_lines(&setup.start_fen, true));
                lines
            }
            ToEngine::Go(request) => self.request_lines(request),
            ToEngine::Reserves { reserves, .. } => {
                if !self.uses_holdings() || !self.started || *reserves == self.believed {
                    return Vec::new();
                }
                if self.searching && self.holding_policy() == HoldingPolicy::Deferred {
                    // Sent with the next move instead (see `opponent_move`).
                    return Vec::new();
                }
                self.believed = *reserves;
                vec![Self::holding_line(reserves)]
            }
            ToEngine::PartnerTell(text) => {
                let line = format!("ptell {}", text.replace(['\n', '\r'], " "));
                self.maybe_defer(vec![line])
            }
            ToEngine::GameOver { result, reason } => {
                self.searching = false;
                self.deferred.clear();
                self.forced = true;
                vec![format!("result {result} {{{}}}", reason.replace(['{', '}', '\n'], " ")), "force".to_string()]
            }
        }
    }

    fn parse(&mut self, line: &str) -> Parsed {
        let line = line.trim();
        if let Some(text) = line.strip_prefix("move ") {
            return self.on_move(text.trim());
        }
        if line == "resign" || line.starts_with("resign ") {
            self.searching = false;
            return Parsed::event(FromEngine::Fault { kind: FaultKind::Resign, detail: "resigned".into() });
        }
        if let Some(text) = line.strip_prefix("tellics ptell ").or_else(|| line.strip_prefix("ptell ")) {
            return Parsed::event(FromEngine::Tell(text.trim().to_string()));
        }
        if line.starts_with("Illegal move") {
            return self.on_rejection(line);
        }
        if line.starts_with("feature ") {
            let (replies, _) = self.on_features(line);
            return Parsed { event: None, replies };
        }
        Parsed::nothing()
    }

    fn quit(&mut self) -> Vec<String> {
        vec!["quit".to_string()]
    }

    fn engine_name(&self) -> Option<&str> {
        self.my_name.as_deref()
    }
}

/// `key=value` pairs of a `feature` line; values may be quoted.
fn parse_features(line: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    let mut rest = line.strip_prefix("feature").unwrap_or(line).trim_start();
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, remaining) = if let Some(quoted) = after.strip_prefix('"') {
            match quoted.find('"') {
                Some(end) => (&quoted[..end], &quoted[end + 1..]),
                None => (quoted, ""),
            }
        } else {
            match after.find(char::is_whitespace) {
                Some(end) => (&after[..end], &after[end..]),
                None => (after, ""),
            }
        };
        if !key.is_empty() && !key.contains(char::is_whitespace) {
            pairs.push((key, value.to_string()));
        }
        rest = remaining.trim_start();
    }
    pairs
}

/// The name in an option declaration, `Move Overhead -spin 30 0 5000` → `Move Overhead`.
fn option_name(declaration: &str) -> &str {
    declaration.split(" -").next().unwrap_or(declaration).trim()
}

/// An engine's move in our UCI form: `P@e4` drops, `e7e8q` promotions, `e1g1` castling.
fn normalize_move(text: &str, color: Color) -> String {
    let text = text.trim_end_matches(['+', '#', '!', '?']).replace('=', "");
    let back_rank = if color == Color::White { '1' } else { '8' };
    match text.as_str() {
        "O-O" | "0-0" | "o-o" => return format!("e{back_rank}g{back_rank}"),
        "O-O-O" | "0-0-0" | "o-o-o" => return format!("e{back_rank}c{back_rank}"),
        _ => {}
    }
    if let Some((piece, square)) = text.split_once('@') {
        if piece.len() == 1 {
            return format!("{}@{}", piece.to_ascii_uppercase(), square.to_ascii_lowercase());
        }
    }
    text.to_ascii_lowercase()
}

/// The role of a drop written `N@e4`.
fn dropped_role(uci: &str) -> Option<tandem_engine::Role> {
    let (piece, _) = uci.split_once('@')?;
    let ch = piece.chars().next()?.to_ascii_lowercase();
    (piece.len() == 1).then(|| tandem_engine::Role::from_char(ch)).flatten()
}

/// The FEN without its bracketed reserve (Sjeng misreads reserves in `setboard`).
fn without_reserves(fen: &str) -> String {
    match (fen.find('['), fen.find(']')) {
        (Some(open), Some(close)) if close > open => format!("{}{}", &fen[..open], &fen[close + 1..]),
        _ => fen.to_string(),
    }
}

fn centiseconds(duration: Duration) -> u128 {
    duration.as_millis() / 10
}

/// `level 0 M:SS INC` (sudden death; the exact time follows with `time`).
fn level_line(base: Duration, increment: Duration) -> String {
    let seconds = base.as_secs().max(1);
    format!("level 0 {}:{:02} {}", seconds / 60, seconds % 60, format_seconds(increment))
}

fn single_word(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join("_")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seats::ClockReading;

    #[test]
    fn features_parse_with_and_without_quotes() {
        let pairs = parse_features("feature myname=Fairy-Stockfish variants=\"chess,bughouse\" usermove=1 done=1");
        assert_eq!(pairs[0], ("myname".to_string(), "Fairy-Stockfish".to_string()));
        assert_eq!(pairs[1], ("variants".to_string(), "chess,bughouse".to_string()));
        assert_eq!(pairs.len(), 4);
        assert_eq!(
            parse_features("feature option=\"Move Overhead -spin 30 0 5000\"")[0].1,
            "Move Overhead -spin 30 0 5000"
        );
    }

    #[test]
    fn an_engine_with_a_rules_option_hears_the_overrides_of_its_variant() {
        let declared = "feature myname=\"tandem\" variants=\"normal,bughouse\" option=\"Rules -string <empty>\" done=1";
        let handshake = |rules: &str, options: Vec<(String, String)>| {
            let mut adapter = XboardAdapter::new(rules.parse().unwrap(), options, None);
            match adapter.handshake_line(declared) {
                Handshake::Ready(lines) => lines.into_iter().filter(|l| l.starts_with("option")).collect::<Vec<_>>(),
                _ => panic!("handshake not finished"),
            }
        };
        assert_eq!(handshake("bughouse,mate=standard", Vec::new()), ["option Rules=mate=standard"]);
        assert!(handshake("bughouse", Vec::new()).is_empty());
        let own = vec![("Rules".to_string(), "mate=potential".to_string())];
        assert_eq!(handshake("bughouse,mate=standard", own), ["option Rules=mate=potential"]);
        // An engine without the option (Fairy-Stockfish, Sjeng) hears nothing of it.
        let mut fsf = XboardAdapter::new("bughouse,mate=standard".parse().unwrap(), Vec::new(), None);
        let Handshake::Ready(lines) = fsf.handshake_line("feature variants=\"bughouse\" option=\"Ponder -check 0\" done=1")
        else {
            panic!("handshake not finished")
        };
        assert!(lines.iter().all(|l| !l.starts_with("option")), "{lines:?}");
        assert_eq!(option_name("Move Overhead -spin 30 0 5000"), "Move Overhead");
    }

    #[test]
    fn moves_normalize() {
        assert_eq!(normalize_move("p@e4", Color::White), "P@e4");
        assert_eq!(normalize_move("e7e8=Q", Color::White), "e7e8q");
        assert_eq!(normalize_move("O-O", Color::Black), "e8g8");
        assert_eq!(without_reserves("8/8/8/8/8/8/8/K6k[Qp] w - - 0 1"), "8/8/8/8/8/8/8/K6k w - - 0 1");
        assert_eq!(level_line(Duration::from_secs(90), Duration::from_millis(500)), "level 0 1:30 0.5");
    }

    fn request(moves: &[&str], reserves: [Reserve; 2]) -> MoveRequest {
        let clocks = ClockReading {
            white: Duration::from_secs(9),
            black: Duration::from_secs(8),
            white_increment: Duration::ZERO,
            black_increment: Duration::ZERO,
        };
        MoveRequest {
            board_key: 7,
            color: if moves.len().is_multiple_of(2) { Color::White } else { Color::Black },
            start_fen: STARTPOS.to_string(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            fen: STARTPOS.to_string(),
            reserves,
            outside_material: true,
            clocks,
            partner: None,
        }
    }

    #[test]
    fn holdings_follow_the_first_go_and_precede_the_opponents_drop() {
        let mut sjeng = XboardAdapter::new(Rules::bughouse(), Vec::new(), None);
        sjeng.handshake_line("feature myname=\"Sjeng 11.2\" usermove=0 variants=\"normal,bughouse\" done=1");
        let setup = GameSetup {
            rules: Rules::bughouse(),
            board_label: "A".into(),
            color: Color::Black,
            own_time: crate::clock::TimeControl::seconds(10.0, 0.0),
            opponent_time: crate::clock::TimeControl::seconds(10.0, 0.0),
            start_fen: STARTPOS.to_string(),
            partner_name: Some("fsf".into()),
            opponent_name: "x".into(),
        };
        let lines = sjeng.translate(&ToEngine::NewGame(setup));
        assert_eq!(lines, ["new", "variant bughouse", "partner fsf", "easy", "level 0 0:10 0", "force"]);
        // Before its first move Sjeng hears of no reserve; as Black it gets them with White's move.
        let mut knight = Reserve::EMPTY;
        knight.add(tandem_engine::Role::Knight);
        assert!(sjeng
            .translate(&ToEngine::Reserves { fen: String::new(), reserves: [knight, Reserve::EMPTY] })
            .is_empty());
        let lines = sjeng.translate(&ToEngine::Go(request(&["e2e4"], [knight, Reserve::EMPTY])));
        assert_eq!(lines, ["e2e4", "holding [N] []", "time 800", "otim 900", "go"]);
        // While it searches, reserves wait (it would move at once).
        let mut pawn = Reserve::EMPTY;
        pawn.add(tandem_engine::Role::Pawn);
        assert!(sjeng.translate(&ToEngine::Reserves { fen: String::new(), reserves: [knight, pawn] }).is_empty());
        // After its move the reserves are set again, whatever it credited itself.
        let parsed = sjeng.parse("move e7e5");
        assert_eq!(parsed.event, Some(FromEngine::Move("e7e5".into())));
        assert_eq!(parsed.replies, ["holding [N] []"]);
        // White dropped its knight: entered in force mode, then the reserves, then `go`.
        let lines = sjeng.translate(&ToEngine::Go(request(&["e2e4", "e7e5", "N@f3"], [Reserve::EMPTY, pawn])));
        assert_eq!(lines, ["force", "N@f3", "holding [] [P]", "time 800", "otim 900", "go"]);
        // A live update between searches may already lack the piece of a drop
        // not yet sent (White holds a bishop, drops it, and meanwhile Black
        // gains a pawn on the partner board): the drop is preceded by
        // reserves that still hold the bishop, so the engine accepts it.
        let parsed = sjeng.parse("move d7d5");
        assert_eq!(parsed.replies, ["holding [] [P]"]);
        let mut pawns = pawn;
        pawns.add(tandem_engine::Role::Pawn);
        let lines = sjeng.translate(&ToEngine::Reserves { fen: String::new(), reserves: [Reserve::EMPTY, pawns] });
        assert_eq!(lines, ["holding [] [PP]"]);
        let moves = ["e2e4", "e7e5", "N@f3", "d7d5", "B@b5"];
        let lines = sjeng.translate(&ToEngine::Go(request(&moves, [Reserve::EMPTY, pawns])));
        assert_eq!(lines, ["force", "holding [B] [PP]", "B@b5", "holding [] [PP]", "time 800", "otim 900", "go"]);
    }
}
