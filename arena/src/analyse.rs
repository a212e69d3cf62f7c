//! `tandem analyse`: a recorded game turned into evaluations, position by
//! position on both boards, in the order the moves were played.
//!
//! Each position before a move is searched with the rules of the record and
//! the other board as the partner-board context (its position, reserves and
//! the four clocks as the record last gave them). The report says, for each
//! move: the evaluation of the board (White's view), the best move and its
//! line, what the move played scores (a second search restricted to it when
//! it is not the best), the evaluation it lost in the mover's view and a mark
//! ([`Mark`]), what its capture handed to the other board, and the board's
//! clocks after it. `--json` writes the report in the schema of
//! docs/ANALYSIS-JSON.md, `--html` a page to step through ([`crate::analyse_html`]).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use serde::Serialize;
use tandem_engine::search::{Control, Engine, Limits, Score, SearchResult};
use tandem_engine::team::{TeamClocks, TeamContext};
use tandem_engine::{to_fen, BoardId, Color, Game, Move, Position, Rules};

use crate::bpgn::{color_name, read_records, record_rules, replay, Record};
use crate::san::{parse_san, to_san};
use crate::verdict::judge;

/// The version of the JSON schema (docs/ANALYSIS-JSON.md); raised when a field changes meaning or goes.
pub const SCHEMA_VERSION: u32 = 1;

/// The time each position gets when no limit is given.
const DEFAULT_MOVETIME_MS: u64 = 500;

/// Scores are clamped to this (centipawns, mover's view) before the loss is
/// taken: a move from +2000 to +1200 leaves the game as won as it was.
const DECIDED_CP: i32 = 1_000;

/// `tandem analyse` on the command line.
#[derive(Args, Debug, Clone)]
#[command(
    about = "Analyse a recorded game: every position of both boards searched, the best move, the move \
played and what it lost",
    long_about = "Analyse a recorded game (BPGN as bughousedb and pychess-variants write it, or PGN for \
crazyhouse and chess): every position of both boards is searched in the order the moves were played, \
with the other board as context. Prints one line per move; --json writes the whole report \
(docs/ANALYSIS-JSON.md). Marks: inaccuracy (lost 50 cp or more), mistake (100), blunder (300), \
with both scores clamped to ±1000 cp first."
)]
pub struct AnalyseArgs {
    /// The game record (BPGN or PGN).
    pub file: PathBuf,
    /// Which game of the file (1 = the first).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub game: usize,
    /// Milliseconds per position (default 500 when no other limit is given).
    #[arg(long, value_name = "MS", conflicts_with_all = ["depth", "nodes"])]
    pub movetime: Option<u64>,
    /// Search each position to this depth.
    #[arg(long, value_name = "D", conflicts_with = "nodes")]
    pub depth: Option<u32>,
    /// Search each position for this many nodes.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_name = "T")]
    pub threads: usize,
    /// Rules to analyse under (a spec such as `bughouse,mate=standard`); default: the record's
    /// `Variant` tag, else bughouse for two boards and chess for one.
    #[arg(long, value_name = "SPEC")]
    pub rules: Option<String>,
    /// Write the report as JSON to this file.
    #[arg(long, value_name = "OUT.json")]
    pub json: Option<PathBuf>,
    /// Write the report as one self-contained HTML page (both boards, the moves, the evaluation graph).
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
}

/// How much a move lost, by the thresholds in the module's documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// Lost 50 cp or more.
    Inaccuracy,
    /// Lost 100 cp or more.
    Mistake,
    /// Lost 300 cp or more.
    Blunder,
}

impl Mark {
    pub fn of_loss(loss: i32) -> Option<Mark> {
        match loss {
            300.. => Some(Mark::Blunder),
            100.. => Some(Mark::Mistake),
            50.. => Some(Mark::Inaccuracy),
            _ => None,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

/// A score in White's view: centipawns, or a mate in moves (negative: White is mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Eval {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
}

impl Eval {
    fn white_view(score: Score, mover: Color) -> Eval {
        let sign = if mover == Color::White { 1 } else { -1 };
        match score {
            Score::Cp(cp) => Eval { cp: Some(sign * cp), mate: None },
            Score::Mate(n) => Eval { cp: None, mate: Some(sign * n) },
        }
    }

    fn text(self) -> String {
        match (self.cp, self.mate) {
            (_, Some(n)) if n > 0 => format!("#{n}"),
            (_, Some(n)) => format!("#-{}", -n),
            (Some(cp), None) => format!("{:+.2}", f64::from(cp) / 100.0),
            (None, None) => "?".to_string(),
        }
    }
}

/// A move in both notations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveText {
    pub uci: String,
    pub san: String,
}

impl MoveText {
    fn of(pos: &Position, m: Move) -> MoveText {
        MoveText { uci: m.to_string(), san: to_san(pos, m) }
    }
}

/// A piece that a capture sent to the other board's reserve.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Handed {
    /// FEN letter, upper case for White.
    pub piece: String,
    /// The board it goes to.
    pub to_board: String,
}

/// The clocks of one board after a move, in seconds (absent where the record has none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Clocks {
    pub white: Option<f64>,
    pub black: Option<f64>,
}

/// One analysed position: the board before a move, and the move.
#[derive(Clone, Debug, Serialize)]
pub struct PositionReport {
    /// 1 for the record's first move, in the order the moves were played.
    pub index: usize,
    /// `A` or `B`.
    pub board: String,
    /// `white` or `black`: the side to move.
    pub color: String,
    /// The full-move number on its board.
    pub number: u32,
    /// The board before the move, with reserves.
    pub fen: String,
    /// The other board at that moment (two-board records).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partner_fen: Option<String>,
    pub played: MoveText,
    pub best: Option<MoveText>,
    /// The best line, in UCI.
    pub pv: Vec<String>,
    /// The position's evaluation (the best move's score), White's view.
    pub eval: Option<Eval>,
    /// What the move played scores, White's view.
    pub eval_played: Option<Eval>,
    /// Centipawns the move lost in the mover's view (both scores clamped to ±1000 first).
    pub loss: i32,
    pub mark: Option<Mark>,
    pub handed: Vec<Handed>,
    pub clocks: Clocks,
    /// Both boards after the move as BFEN (`A | B`; one-board records: the FEN).
    pub after: String,
    pub depth: u32,
    pub nodes: u64,
}

/// The whole analysis of one game.
#[derive(Clone, Debug, Serialize)]
pub struct GameReport {
    pub schema: u32,
    pub engine: String,
    /// The game's tags, in file order, as `[name, value]` pairs.
    pub tags: Vec<[String; 2]>,
    pub rules: String,
    pub two_boards: bool,
    /// The start position: BFEN (`A | B`) for two boards, else the FEN.
    pub start: String,
    /// The result in team 1's view (WhiteA + BlackB; one board: White), judged from the game.
    pub result: String,
    /// What the result was judged from.
    pub result_from: String,
    /// The search limit of each position (`movetime 500`, `depth 12`, `nodes 100000`).
    pub limit: String,
    pub positions: Vec<PositionReport>,
}

/// The search limit each position gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionLimit {
    Movetime(Duration),
    Depth(u32),
    Nodes(u64),
}

impl PositionLimit {
    pub fn from_args(args: &AnalyseArgs) -> PositionLimit {
        match (args.depth, args.nodes, args.movetime) {
            (Some(d), _, _) => PositionLimit::Depth(d.max(1)),
            (_, Some(n), _) => PositionLimit::Nodes(n.max(1)),
            (_, _, ms) => PositionLimit::Movetime(Duration::from_millis(ms.unwrap_or(DEFAULT_MOVETIME_MS).max(1))),
        }
    }

    fn limits(self, search_moves: Vec<Move>) -> Limits {
        let base = Limits { multipv: 1, search_moves, ..Limits::default() };
        match self {
            PositionLimit::Movetime(t) => Limits { movetime: Some(t), ..base },
            PositionLimit::Depth(d) => Limits { depth: Some(d), ..base },
            PositionLimit::Nodes(n) => Limits { nodes: Some(n), ..base },
        }
    }

    fn describe(self) -> String {
        match self {
            PositionLimit::Movetime(t) => format!("movetime {}", t.as_millis()),
            PositionLimit::Depth(d) => format!("depth {d}"),
            PositionLimit::Nodes(n) => format!("nodes {n}"),
        }
    }
}

/// `tandem analyse`: reads the game, analyses it, prints it, writes the JSON.
pub fn run(args: &AnalyseArgs) -> Result<(), String> {
    let text = std::fs::read_to_string(&args.file).map_err(|e| format!("cannot read {}: {e}", args.file.display()))?;
    let records = read_records(&text).map_err(|e| format!("{}: {e}", args.file.display()))?;
    if records.is_empty() {
        return Err(format!("{}: no game in the file", args.file.display()));
    }
    let record = records.get(args.game.wrapping_sub(1)).ok_or_else(|| {
        format!("--game {}: {} holds {} game(s), numbered from 1", args.game, args.file.display(), records.len())
    })?;
    let rules = match &args.rules {
        Some(spec) => spec.parse::<Rules>().map_err(|e| format!("--rules {spec}: {e}"))?,
        None => record_rules(record, if record.two_board { Rules::bughouse() } else { Rules::chess() }),
    };
    let engine = Engine::new();
    engine.set_threads(args.threads.max(1));
    let limit = PositionLimit::from_args(args);
    let mut progress = Progress::new(record.moves.len());
    let report = analyse(record, rules, &engine, limit, &mut |done| progress.update(done))?;
    progress.finish();
    print_report(&report, &mut std::io::stdout()).map_err(|e| format!("cannot write the report: {e}"))?;
    if let Some(path) = &args.json {
        let json = serde_json::to_string_pretty(&report).map_err(|e| format!("cannot encode the report: {e}"))?;
        std::fs::write(path, json + "\n").map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if let Some(path) = &args.html {
        let page = crate::analyse_html::render(&report)?;
        std::fs::write(path, page).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Analyses every position of `record` under `rules`; `on_progress` hears
/// how many positions are done after each.
pub fn analyse(
    record: &Record,
    rules: Rules,
    engine: &Engine,
    limit: PositionLimit,
    on_progress: &mut dyn FnMut(usize),
) -> Result<GameReport, String> {
    // The whole record must replay before any search is spent on it.
    let replayed = replay(record, rules)?;
    let verdict = judge(record, &replayed);
    let mut game = start_game(record, rules)?;
    let mut clocks = ClockBook::new(record);
    let start = game_text(&game, record.two_board);
    let mut positions = Vec::with_capacity(record.moves.len());
    for (index, rm) in record.moves.iter().enumerate() {
        let id = rm.board;
        let pos = game.board(id).clone();
        let m = parse_san(&pos, &rm.san).map_err(|e| format!("move {} ({}): {e}", index + 1, rm.san))?;
        let context = record.two_board.then(|| team_context(&game, id, &clocks));
        let history = history_before(&game, id);
        let mut best = search(engine, &pos, &history, context.as_ref(), limit.limits(Vec::new()));
        let played_score = if best.best == Some(m) {
            best.score
        } else {
            let played = search(engine, &pos, &history, context.as_ref(), limit.limits(vec![m]));
            // The search of the move played saw further than the free one did:
            // it is the best move known.
            let score = played.score;
            if internal(score) > internal(best.score) {
                best = Searched { depth: best.depth.max(played.depth), nodes: best.nodes + played.nodes, ..played };
            }
            score
        };
        let loss = loss_of(best.score, played_score);
        clocks.record(id, rm.color, rm.clock);
        let mut after = pos.clone();
        let effects = after.play(m);
        let to_board = if record.two_board { id.other() } else { id };
        let handed = effects
            .to_other_board
            .iter()
            .map(|p| Handed { piece: piece_letter(p.role, p.color), to_board: to_board.letter().to_string() })
            .collect();
        positions.push(PositionReport {
            index: index + 1,
            board: id.letter().to_string(),
            color: color_name(rm.color).to_ascii_lowercase(),
            number: rm.number,
            fen: to_fen(&pos),
            partner_fen: record.two_board.then(|| to_fen(game.board(id.other()))),
            played: MoveText::of(&pos, m),
            best: best.best.map(|b| MoveText::of(&pos, b)),
            pv: best.pv.iter().map(Move::to_string).collect(),
            eval: best.score.map(|s| Eval::white_view(s, pos.turn())),
            eval_played: played_score.map(|s| Eval::white_view(s, pos.turn())),
            loss,
            mark: Mark::of_loss(loss),
            handed,
            clocks: clocks.of_board(id),
            after: String::new(),
            depth: best.depth,
            nodes: best.nodes,
        });
        game.play(id, m).map_err(|e| format!("move {} ({}): {e}", index + 1, rm.san))?;
        if let Some(report) = positions.last_mut() {
            report.after = game_text(&game, record.two_board);
        }
        on_progress(index + 1);
    }
    Ok(GameReport {
        schema: SCHEMA_VERSION,
        engine: format!("tandem {}", env!("CARGO_PKG_VERSION")),
        tags: record.tags.iter().map(|(k, v)| [k.clone(), v.clone()]).collect(),
        rules: rules.to_string(),
        two_boards: record.two_board,
        start,
        result: verdict.result.to_string(),
        result_from: verdict.evidence.describe().to_string(),
        limit: limit.describe(),
        positions,
    })
}

/// The game at the record's start position (one-board records: board A).
fn start_game(record: &Record, rules: Rules) -> Result<Game, String> {
    let start = record.start_position();
    if record.two_board {
        return Game::from_bfen(&start, rules).map_err(|e| format!("FEN tag: {e}"));
    }
    let board = tandem_engine::parse_fen(&start, rules).map_err(|e| format!("FEN tag: {e}"))?;
    Ok(Game::from_boards(rules, [board.clone(), board]))
}

/// Both boards as BFEN, or board A's FEN for a one-board record.
fn game_text(game: &Game, two_boards: bool) -> String {
    if two_boards {
        game.to_bfen()
    } else {
        to_fen(game.board(BoardId::A))
    }
}

/// The hashes of the board's earlier positions, oldest first, without the current one.
fn history_before(game: &Game, id: BoardId) -> Vec<u64> {
    let mut hashes: Vec<u64> = game.history(id).hashes().collect();
    if hashes.last() == Some(&game.board(id).hash()) {
        hashes.pop();
    }
    hashes
}

/// The partner-board context of the side to move on board `id`.
fn team_context(game: &Game, id: BoardId, clocks: &ClockBook) -> TeamContext {
    let us = game.board(id).turn();
    // Partners play opposite colours: our partner is `!us` on the other board.
    let other = id.other();
    TeamContext {
        partner_board: Some(game.board(other).clone()),
        clocks: TeamClocks {
            ours: clocks.get(id, us),
            opponent: clocks.get(id, us.other()),
            partner: clocks.get(other, us.other()),
            partner_opponent: clocks.get(other, us),
        },
        ..TeamContext::default()
    }
}

/// One search, with the best line kept.
struct Searched {
    best: Option<Move>,
    score: Option<Score>,
    pv: Vec<Move>,
    depth: u32,
    nodes: u64,
}

fn search(engine: &Engine, pos: &Position, history: &[u64], team: Option<&TeamContext>, limits: Limits) -> Searched {
    let mut pv = Vec::new();
    let default_team = TeamContext::default();
    let result: SearchResult =
        engine.search_team(pos, history, &limits, &Control::new(), team.unwrap_or(&default_team), &mut |info| {
            pv = info.pv.clone();
        });
    if pv.first() != result.best.as_ref() {
        pv = result.best.into_iter().collect();
    }
    Searched { best: result.best, score: result.score, pv, depth: result.depth, nodes: result.nodes }
}

/// A score in internal units (a missing one is the worst).
fn internal(score: Option<Score>) -> i32 {
    score.map_or(i32::MIN, Score::internal)
}

/// Centipawns the played move lost against the best, in the mover's view.
fn loss_of(best: Option<Score>, played: Option<Score>) -> i32 {
    let clamp = |s: Score| s.internal().clamp(-DECIDED_CP, DECIDED_CP);
    match (best, played) {
        (Some(b), Some(p)) => (clamp(b) - clamp(p)).max(0),
        _ => 0,
    }
}

fn piece_letter(role: tandem_engine::Role, color: Color) -> String {
    let c = role.char();
    if color == Color::White { c.to_ascii_uppercase() } else { c }.to_string()
}

/// The last clock the record gave each player, starting from the time control.
struct ClockBook {
    /// `[board][white, black]` in seconds.
    seconds: [[Option<f64>; 2]; 2],
}

/// White first (shakmaty numbers Black 0).
fn color_slot(color: Color) -> usize {
    usize::from(color == Color::Black)
}

impl ClockBook {
    fn new(record: &Record) -> ClockBook {
        let base = |id, color| record.time_control(id, color).map(|tc| tc.base.as_secs_f64());
        ClockBook { seconds: [BoardId::A, BoardId::B].map(|id| [base(id, Color::White), base(id, Color::Black)]) }
    }

    fn record(&mut self, id: BoardId, color: Color, clock: Option<Duration>) {
        if let Some(clock) = clock {
            // Milliseconds, as records give them.
            self.seconds[id.index()][color_slot(color)] = Some((clock.as_secs_f64() * 1000.0).round() / 1000.0);
        }
    }

    fn get(&self, id: BoardId, color: Color) -> Option<Duration> {
        self.seconds[id.index()][color_slot(color)].map(|s| Duration::from_secs_f64(s.max(0.0)))
    }

    fn of_board(&self, id: BoardId) -> Clocks {
        let [white, black] = self.seconds[id.index()];
        Clocks { white, black }
    }
}

/// One line per move, under a header with the game's players and result.
pub fn print_report(report: &GameReport, out: &mut dyn Write) -> std::io::Result<()> {
    let tag = |name: &str| report.tags.iter().find(|[k, _]| k == name).map_or("?", |[_, v]| v.as_str());
    if report.two_boards {
        writeln!(
            out,
            "A: {} - {}   B: {} - {}   ({}, {})",
            tag("WhiteA"),
            tag("BlackA"),
            tag("WhiteB"),
            tag("BlackB"),
            report.rules,
            report.limit
        )?;
    } else {
        writeln!(out, "{} - {}   ({}, {})", tag("White"), tag("Black"), report.rules, report.limit)?;
    }
    writeln!(out, "{:>4}  {:<10} {:>7}  {:<22} {:>6}        {:<10} clock", "#", "move", "eval", "best", "loss", "gives")?;
    for p in &report.positions {
        let dots = if p.color == "white" { "." } else { "..." };
        let played = format!("{}{}{dots} {}", p.number, if report.two_boards { p.board.as_str() } else { "" }, p.played.san);
        let best = match (&p.best, p.eval) {
            (Some(b), Some(e)) if b.uci != p.played.uci => format!("{} {}", b.san, e.text()),
            (Some(_), _) => "(played)".to_string(),
            (None, _) => "-".to_string(),
        };
        let eval = p.eval_played.map_or("?".to_string(), Eval::text);
        let mark = p.mark.map_or("", Mark::symbol);
        let gives: Vec<String> = p.handed.iter().map(|h| format!("{}>{}", h.piece, h.to_board)).collect();
        let clock = if p.color == "white" { p.clocks.white } else { p.clocks.black };
        let clock = clock.map_or(String::new(), |s| format!("{s:.1}s"));
        writeln!(out, "{:>4}  {:<10} {:>7}  {:<22} {:>6}  {:<5} {:<10} {}", p.index, played, eval, best, p.loss, mark, gives.join(" "), clock)?;
    }
    writeln!(out, "Result {} (from {})", report.result, report.result_from)?;
    let mut counts = [[0usize; 3]; 2];
    for p in &report.positions {
        if let Some(mark) = p.mark {
            counts[usize::from(p.color == "black")][mark as usize] += 1;
        }
    }
    for (side, [inaccuracies, mistakes, blunders]) in ["White", "Black"].iter().zip(counts) {
        writeln!(out, "{side}: {inaccuracies} inaccuracies, {mistakes} mistakes, {blunders} blunders")?;
    }
    Ok(())
}

/// A progress bar on stderr when it is a terminal: positions done and the time left.
struct Progress {
    total: usize,
    start: Instant,
    on: bool,
}

impl Progress {
    fn new(total: usize) -> Progress {
        Progress { total, start: Instant::now(), on: std::io::stderr().is_terminal() && total > 0 }
    }

    fn update(&mut self, done: usize) {
        if !self.on {
            return;
        }
        const WIDTH: usize = 30;
        let filled = WIDTH * done / self.total;
        let elapsed = self.start.elapsed().as_secs_f64();
        let left = elapsed / done.max(1) as f64 * (self.total - done) as f64;
        let bar: String = "#".repeat(filled) + &"-".repeat(WIDTH - filled);
        eprint!("\r[{bar}] {done}/{} positions, ETA {}:{:02} ", self.total, left as u64 / 60, left as u64 % 60);
        let _ = std::io::stderr().flush();
    }

    fn finish(&mut self) {
        if self.on {
            eprintln!();
        }
    }
}
