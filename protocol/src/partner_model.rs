//! The engine's partner-board model as the front ends drive it (PROTOCOL.md §3,
//! "The partner-board model"): the options that switch its terms, the
//! [`TeamContext`] built from the protocol's [`BughouseContext`] for every
//! bughouse search, and what we tell our partner (each thing once). What the
//! advice may cost and how long we sit is the move's clock's ([`crate::move_clock`]).

use std::time::Duration;

use tandem_engine::team::{ModelSwitches, PartnerRequests as EngineRequests, TeamClocks, TeamContext, Trades};
use tandem_engine::{Position, Role};

use crate::bughouse::{BughouseContext, PartnerMessage, Seat};
use crate::engine_api::Clock;
use crate::parse::InputError;

/// The model's switches as options: a master switch and one per term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TeamOptions {
    /// `Partner Model`: off switches every term off.
    pub model: bool,
    pub flow: bool,
    pub forecast: bool,
    pub sitting: bool,
    pub messages: bool,
    /// `Team Pace`: in two-board games think no longer a move than the
    /// opponent (engine `search::OpponentPace`). Not a model term: the
    /// master switch leaves it as it is.
    pub pace: bool,
}

impl Default for TeamOptions {
    /// Messages start off: in self-play at 10+0 two talking partners scored
    /// 13 of 60 matches against silent ones (the other terms alone: even), so
    /// they wait for tuning. docs/experiments/partner-model-self-play.md has the runs.
    /// Pacing starts off: at 60+0 against Fairy-Stockfish it made our moves as
    /// fresh as its own but scored within noise of the clock's own budget
    /// (docs/experiments/2026-12-07-pace-at-60-0.md).
    fn default() -> TeamOptions {
        TeamOptions { model: true, flow: true, forecast: true, sitting: true, messages: false, pace: false }
    }
}

/// The option names, as `uci` and CECP `feature option` show them.
pub const TEAM_OPTIONS: [&str; 6] = ["Partner Model", "Team Flow", "Team Forecast", "Team Sitting", "Team Messages", "Team Pace"];

impl TeamOptions {
    /// The engine's switches: all off without the master switch.
    pub fn switches(&self) -> ModelSwitches {
        if !self.model {
            return ModelSwitches::OFF;
        }
        ModelSwitches { flow: self.flow, forecast: self.forecast, sitting: self.sitting, messages: self.messages }
    }

    fn slot(&mut self, name: &str) -> Option<&mut bool> {
        match name.to_ascii_lowercase().as_str() {
            "partner model" => Some(&mut self.model),
            "team flow" => Some(&mut self.flow),
            "team forecast" => Some(&mut self.forecast),
            "team sitting" => Some(&mut self.sitting),
            "team messages" => Some(&mut self.messages),
            "team pace" => Some(&mut self.pace),
            _ => None,
        }
    }

    /// The default of option `name` (false for unknown names).
    pub fn default_of(name: &str) -> bool {
        TeamOptions::default().slot(name).is_some_and(|on| *on)
    }

    /// Whether `name` (any case) is one of the model's options.
    pub fn is_option(name: &str) -> bool {
        TeamOptions::default().slot(name).is_some()
    }

    /// Sets an option by name (any case). False if the name is not ours.
    pub fn set(&mut self, name: &str, on: bool) -> bool {
        match self.slot(name) {
            Some(slot) => {
                *slot = on;
                true
            }
            None => false,
        }
    }

    /// Obey the partner's messages (`sit`, `need` …) and send ours.
    pub fn messages_on(&self) -> bool {
        self.switches().messages
    }

    pub fn sitting_on(&self) -> bool {
        self.switches().sitting
    }
}

/// A check option's value: `true`/`false` (UCI), `1`/`0` (CECP), `on`/`off`.
pub fn parse_switch(name: &str, value: &str) -> Result<bool, InputError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "on" => Ok(true),
        "false" | "0" | "off" => Ok(false),
        _ => Err(InputError::new(format!(
            "option '{name}' expects true or false, not '{}'",
            crate::output::echo(value)
        ))),
    }
}

/// The team situation for a search of `root` on our board.
///
/// We play the side to move of `root` (the engine's convention); our partner
/// plays the other colour on the other board. `clock` is our board's clock as
/// the search got it (only this `go`'s clocks count for our board: a stale one
/// must never make us sit); the partner board's clocks are the latest known
/// (`go … pwtime pbtime`, `ptell time/otim`). The partner's requests reach the
/// engine only while `Team Messages` is on.
pub fn team_context(context: &BughouseContext, root: &Position, clock: Option<&Clock>, options: &TeamOptions) -> TeamContext {
    let switches = options.switches();
    let us = root.turn();
    let other_board = context.seat.board.other();
    let partner_board = context
        .partner_board
        .as_ref()
        .map(|board| board.position().clone())
        .filter(|board| board.rules().is_two_board());
    let clocks = TeamClocks {
        ours: clock.and_then(|c| c.time(us)),
        opponent: clock.and_then(|c| c.time(us.other())),
        partner: context.partner_board_clock(Seat { board: other_board, color: us.other() }),
        partner_opponent: context.partner_board_clock(Seat { board: other_board, color: us }),
    };
    let requests = if switches.messages { context.requests.for_search() } else { EngineRequests::default() };
    TeamContext { partner_board, clocks, requests, switches }
}

fn letters(bits: u8) -> String {
    let roles: Vec<String> = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .filter(|&r| bits & (1 << r as u8) != 0)
        .map(|r| r.upper_char().to_string())
        .collect();
    if roles.is_empty() {
        "-".to_string()
    } else {
        roles.join("")
    }
}

/// One line about the context the engine gets (`d`, and `debug on` at `go`).
pub fn describe(team: &TeamContext) -> String {
    let ms = |t: Option<Duration>| t.map_or("-".to_string(), |t| t.as_millis().to_string());
    let s = team.switches;
    let on: Vec<&str> = [(s.flow, "flow"), (s.forecast, "forecast"), (s.sitting, "sitting"), (s.messages, "messages")]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect();
    let r = &team.requests;
    let trades = match r.trades {
        Some(Trades::Good) => "good",
        Some(Trades::Bad) => "bad",
        None => "-",
    };
    format!(
        "team partner_board {} clocks ours {} opponent {} partner {} partner_opponent {} need {} dontgive {} sit {} trades {} terms {}",
        team.partner_board.as_ref().map_or("-".to_string(), |p| p.to_string().replace(' ', "_")),
        ms(team.clocks.ours),
        ms(team.clocks.opponent),
        ms(team.clocks.partner),
        ms(team.clocks.partner_opponent),
        letters(r.need),
        letters(r.dont_give),
        r.sit,
        trades,
        if on.is_empty() { "none".to_string() } else { on.join(",") },
    )
}

pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

// ---- what we tell the partner -----------------------------------------------------

/// The messages we sent, so that each is said once: a message goes out only
/// when it differs from the last one of its kind (`need`, `dontgive`,
/// `trades`, `sit`/`go`, `dead`, `fast`).
#[derive(Clone, Debug, Default)]
pub struct Outbox {
    last: Vec<(String, String)>,
}

fn kind(message: &str) -> &str {
    match message.split_whitespace().next().unwrap_or("") {
        "go" => "sit",
        "slow" => "fast",
        word => word,
    }
}

impl Outbox {
    /// `message` if it is new for its kind (and records it as sent).
    pub fn fresh(&mut self, message: &str) -> Option<String> {
        let k = kind(message).to_string();
        match self.last.iter_mut().find(|(kind, _)| *kind == k) {
            Some((_, last)) if last == message => None,
            Some((_, last)) => {
                *last = message.to_string();
                Some(message.to_string())
            }
            None => {
                self.last.push((k, message.to_string()));
                Some(message.to_string())
            }
        }
    }

    /// Forgets the last message of a kind: the next one goes out again.
    pub fn forget(&mut self, kind: &str) {
        self.last.retain(|(k, _)| k != kind);
    }

    fn said(&self, message: &str) -> bool {
        self.last.iter().any(|(k, m)| k == kind(message) && m == message)
    }

    /// A new game: everything may be said again.
    pub fn reset(&mut self) {
        self.last.clear();
    }

    /// What to send after the model's advice: its new messages; `go` when we
    /// had said `sit` and no longer advise it. `dead` that is no longer
    /// advised is forgotten, so that it is said again should it come back.
    /// While the partner's `sit` stands we do not ask them to sit: if both
    /// partners sat, neither would move until the clocks ran low.
    pub fn after_advice(&mut self, advised: &[PartnerMessage], partner_sitting_us: bool) -> Vec<String> {
        let advised: Vec<String> = advised
            .iter()
            .filter(|m| !(partner_sitting_us && **m == PartnerMessage::Sit))
            .map(PartnerMessage::to_string)
            .collect();
        let mut out: Vec<String> = advised.iter().filter_map(|m| self.fresh(m)).collect();
        if self.said("sit") && !advised.iter().any(|m| m == "sit") {
            out.extend(self.fresh("go"));
        }
        if !advised.iter().any(|m| m == "dead") {
            self.forget("dead");
        }
        out
    }

    /// The partner asked us to sit: only one of us may sit, so a `sit` of
    /// ours is withdrawn with `go` (both do so when the two cross).
    pub fn partner_sits(&mut self) -> Option<String> {
        if self.said("sit") {
            self.fresh("go")
        } else {
            None
        }
    }

    /// We wait for material (frozen, or sitting for a piece): `need` for the
    /// pieces that help (when known), `dead` when frozen in check, and `fast`
    /// once per wait.
    pub fn waiting(&mut self, need: &[Role], in_check: bool) -> Vec<String> {
        let mut out = Vec::new();
        if !need.is_empty() {
            out.extend(self.fresh(&PartnerMessage::Need(need.to_vec()).to_string()));
        }
        if in_check {
            out.extend(self.fresh("dead"));
        }
        out.extend(self.fresh("fast"));
        out
    }

    /// We moved: the wait is over. `slow` lifts a `fast` we said (the
    /// partner stops hurrying), and a later wait says `fast` again.
    pub fn moved(&mut self) -> Vec<String> {
        if self.said("fast") {
            self.fresh("slow").into_iter().collect()
        } else {
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board_state::BoardState;
    use crate::engine_api::Score;
    use tandem_engine::search::MATE;
    use tandem_engine::{parse_fen, BoardId, Color, Rules};

    fn position(fen: &str) -> Position {
        parse_fen(fen, Rules::bughouse()).unwrap()
    }

    fn clock(white_ms: u64, black_ms: u64) -> Clock {
        let mut time = [None; 2];
        time[Color::White as usize] = Some(Duration::from_millis(white_ms));
        time[Color::Black as usize] = Some(Duration::from_millis(black_ms));
        Clock { time, ..Clock::default() }
    }

    #[test]
    fn the_master_switch_turns_every_term_off() {
        let mut options = TeamOptions::default();
        assert_eq!(options.switches(), ModelSwitches { messages: false, ..ModelSwitches::default() });
        assert!(options.set("team messages", true));
        assert_eq!(options.switches(), ModelSwitches::default());
        assert!(options.set("team flow", false));
        assert!(!options.switches().flow && options.switches().sitting);
        assert!(options.set("PARTNER MODEL", false));
        assert_eq!(options.switches(), ModelSwitches::OFF);
        assert!(!options.set("Team Spirit", true));
        assert!(TeamOptions::is_option("Team Messages"));
        assert_eq!(parse_switch("x", "1"), Ok(true));
        assert_eq!(parse_switch("x", "False"), Ok(false));
        assert!(parse_switch("x", "maybe").is_err());
    }

    #[test]
    fn clocks_map_to_seats_and_requests_follow_the_messages_switch() {
        let mut context = BughouseContext {
            seat: Seat { board: BoardId::A, color: Color::White },
            partner_board: Some(BoardState::new(position("4k3/8/8/8/8/8/8/4K3[] w - - 0 1"))),
            ..BughouseContext::default()
        };
        // Board B: White (the partner's opponent) 7 s, Black (our partner) 9 s.
        context.clocks.set(BoardId::B, Color::White, Some(Duration::from_secs(7)), None);
        context.clocks.set(BoardId::B, Color::Black, Some(Duration::from_secs(9)), None);
        context.receive(PartnerMessage::Need(vec![Role::Knight, Role::Queen]));
        context.receive(PartnerMessage::DontGive(vec![Role::Pawn]));
        context.receive(PartnerMessage::Trades(Trades::Bad));
        let root = position("4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
        let talking = TeamOptions { messages: true, ..TeamOptions::default() };
        let team = team_context(&context, &root, Some(&clock(5_000, 3_000)), &talking);
        assert!(team.partner_board.is_some());
        assert_eq!(team.clocks.ours, Some(Duration::from_secs(5)));
        assert_eq!(team.clocks.opponent, Some(Duration::from_secs(3)));
        assert_eq!(team.clocks.partner, Some(Duration::from_secs(9)));
        assert_eq!(team.clocks.partner_opponent, Some(Duration::from_secs(7)));
        assert!(team.requests.needs(Role::Knight) && team.requests.needs(Role::Queen) && !team.requests.needs(Role::Pawn));
        assert!(team.requests.forbids(Role::Pawn));
        assert_eq!(team.requests.trades, Some(Trades::Bad));
        let text = describe(&team);
        assert!(text.contains("need NQ dontgive P sit false trades bad"), "{text}");
        // With Black to move on our board, the colours swap.
        let black = position("4k3/8/8/8/8/8/8/4K3[] b - - 0 1");
        let team = team_context(&context, &black, Some(&clock(5_000, 3_000)), &TeamOptions::default());
        assert_eq!(team.clocks.ours, Some(Duration::from_secs(3)));
        assert_eq!(team.clocks.partner, Some(Duration::from_secs(7)));
        let mut quiet = TeamOptions::default();
        quiet.set("Team Messages", false);
        let team = team_context(&context, &root, None, &quiet);
        assert_eq!(team.requests, EngineRequests::default());
        assert_eq!(team.clocks.ours, None);
    }

    #[test]
    fn each_message_is_said_once() {
        let mut outbox = Outbox::default();
        let words = |list: &[&str]| list.iter().map(|m| PartnerMessage::parse(m).unwrap()).collect::<Vec<_>>();
        let advised = words(&["need N", "trades good"]);
        assert_eq!(outbox.after_advice(&advised, false), vec!["need N", "trades good"]);
        assert!(outbox.after_advice(&advised, false).is_empty());
        assert_eq!(outbox.after_advice(&words(&["need N Q"]), false), vec!["need N Q"]);
        assert_eq!(outbox.after_advice(&words(&["sit", "dead"]), false), vec!["sit", "dead"]);
        assert!(outbox.after_advice(&words(&["sit", "dead"]), false).is_empty());
        assert_eq!(outbox.after_advice(&[], false), vec!["go"]);
        assert!(outbox.after_advice(&[], false).is_empty());
        assert_eq!(outbox.after_advice(&words(&["dead"]), false), vec!["dead"], "dead again after it lapsed");
        assert_eq!(outbox.waiting(&[Role::Knight], true), vec!["need N", "fast"], "dead was already said");
        assert!(outbox.waiting(&[Role::Knight], true).is_empty());
        assert_eq!(outbox.moved(), vec!["slow"], "the partner may stop hurrying");
        assert!(outbox.moved().is_empty());
        assert_eq!(outbox.waiting(&[], false), vec!["fast"]);
        outbox.reset();
        assert_eq!(outbox.after_advice(&words(&["need N"]), false), vec!["need N"]);
        // Only one partner sits: no `sit` while theirs stands, and ours is withdrawn when theirs comes.
        assert!(outbox.after_advice(&words(&["sit"]), true).is_empty());
        assert_eq!(outbox.after_advice(&words(&["sit"]), false), vec!["sit"]);
        assert_eq!(outbox.partner_sits(), Some("go".to_string()));
        assert_eq!(outbox.partner_sits(), None);
    }

    #[test]
    fn scores_convert_to_internal_units() {
        assert_eq!(Score::Cp(-42).internal(), -42);
        assert_eq!(Score::Mate(1).internal(), MATE - 1);
        assert_eq!(Score::Mate(-1).internal(), -MATE + 2);
    }
}
