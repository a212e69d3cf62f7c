//! The façade a front end talks to: options, and a blocking `search`.
//!
//! ## Lazy SMP
//!
//! `Threads` searches run the same iterative deepening on the same root in a
//! `rayon` pool and share only the transposition table. Thread 0 is the main
//! thread: it alone checks the clock, reports `info`, decides when to stop, and
//! its root move is the answer. Helper threads with an odd index search one ply
//! deeper than the main thread's current depth, so the threads spread over
//! different parts of the tree and fill the table with results the main thread
//! then hits. A single thread is deterministic for a given position, depth and
//! hash size (after `clear`).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use crate::moves::Move;
use crate::nnue::Networks;
use crate::position::Position;

use super::alphabeta::{Searcher, Shared, INFINITY, MATE, MATE_BOUND, MAX_PLY};
use super::eval::hand_value;
use super::limits::{Bound, Control, Info, Limits, SearchResult};
use super::ordering::{order_moves, Heuristics, Lineage, ScoredMove};
use super::prove::{MateProof, MateProver};
use super::timeman::TimeManager;
use super::tt::TranspositionTable;
use crate::reserve::HAND_ROLES;
use crate::team::{sit_allowance, ModelSwitches, PartnerMessage, TeamContext, TeamModel, Trades};
use shakmaty::Role;

use super::limits::Score;

pub const DEFAULT_HASH_MB: usize = 16;
pub const MAX_HASH_MB: usize = 65_536;
pub const MAX_THREADS: usize = 256;
/// Search threads need deep stacks: every ply keeps a position and move buffers.
const THREAD_STACK: usize = 32 * 1024 * 1024;

pub struct Engine {
    tt: RwLock<Arc<TranspositionTable>>,
    pool: Mutex<Arc<rayon::ThreadPool>>,
    threads: AtomicU64,
    /// Each thread's history tables, carried from one search to the next like
    /// the TT (what refuted moves last turn mostly still does) and cleared with it.
    heuristics: Mutex<Vec<Heuristics>>,
    /// The networks for drop-chess positions (`None`: the classical evaluation).
    network: RwLock<Option<Networks>>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

fn build_pool(threads: usize) -> Arc<rayon::ThreadPool> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(THREAD_STACK)
        .thread_name(|i| format!("tandem-search-{i}"))
        .build();
    // Building a pool only fails when the OS refuses threads; fall back to one.
    match pool {
        Ok(pool) => Arc::new(pool),
        Err(_) => Arc::new(
            rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .stack_size(THREAD_STACK)
                .build()
                .expect("the OS gives at least one thread"),
        ),
    }
}

impl Engine {
    pub fn new() -> Engine {
        Engine {
            tt: RwLock::new(Arc::new(
                TranspositionTable::new(DEFAULT_HASH_MB).expect("the default hash table fits in memory"),
            )),
            pool: Mutex::new(build_pool(1)),
            threads: AtomicU64::new(1),
            heuristics: Mutex::new(Vec::new()),
            network: RwLock::new(None),
        }
    }

    /// Evaluates drop-chess positions with `network` from the next search on
    /// (`None`: with the classical evaluation). Chess and relay5 always use the classical one.
    pub fn set_network(&self, network: Option<Networks>) {
        *self.network.write().unwrap_or_else(|e| e.into_inner()) = network;
    }

    pub fn network(&self) -> Option<Networks> {
        self.network.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Resizes (and clears) the transposition table. If the memory cannot be
    /// had, the old table stays and the error says so.
    pub fn set_hash_mb(&self, megabytes: usize) -> Result<(), String> {
        let table = Arc::new(TranspositionTable::new(megabytes.clamp(1, MAX_HASH_MB))?);
        *self.tt.write().unwrap_or_else(|e| e.into_inner()) = table;
        Ok(())
    }

    pub fn set_threads(&self, threads: usize) {
        let threads = threads.clamp(1, MAX_THREADS);
        if self.threads.swap(threads as u64, Ordering::Relaxed) != threads as u64 {
            *self.pool.lock().unwrap_or_else(|e| e.into_inner()) = build_pool(threads);
        }
    }

    pub fn threads(&self) -> usize {
        self.threads.load(Ordering::Relaxed) as usize
    }

    /// Forgets everything learnt (UCI `ucinewgame`).
    pub fn clear(&self) {
        self.table().clear();
        self.heuristics.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    fn table(&self) -> Arc<TranspositionTable> {
        self.tt.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Searches `root` within `limits`. Blocking: call it from a search thread.
    /// `history` holds the hashes of the positions before `root` on this board,
    /// oldest first, for repetitions. `report` runs for every finished
    /// iteration and MultiPV line.
    pub fn search(
        &self,
        root: &Position,
        history: &[u64],
        limits: &Limits,
        control: &Control,
        report: &mut (dyn FnMut(&Info) + Send),
    ) -> SearchResult {
        self.search_team(root, history, limits, control, &TeamContext::default(), report)
    }

    /// [`Engine::search`] for a bughouse seat: the partner board, clocks and
    /// requests in `team` shape the search through the partner-board model.
    pub fn search_team(
        &self,
        root: &Position,
        history: &[u64],
        limits: &Limits,
        control: &Control,
        team: &TeamContext,
        report: &mut (dyn FnMut(&Info) + Send),
    ) -> SearchResult {
        let proof_start = Instant::now();
        // Where a shorter mate than alpha-beta's stops being looked for: the end of `movetime`.
        let shorten_deadline = proof_start + limits.movetime.unwrap_or_else(|| 2 * prover_share(limits, root));
        let mut unfinished_proof = match prove_mate_first(root, limits, control, report) {
            ProverVerdict::Mate(result) => {
                wait_while_required(limits, control);
                return result;
            }
            ProverVerdict::NoneWithin(moves, prover) => Some((moves, prover)),
            ProverVerdict::NotAsked => None,
        };
        // The prover's time counts against `movetime`.
        let after_proof;
        let limits = match limits.movetime {
            Some(t) if unfinished_proof.is_some() => {
                after_proof = Limits { movetime: Some(t.saturating_sub(proof_start.elapsed())), ..limits.clone() };
                &after_proof
            }
            _ => limits,
        };
        let model = TeamModel::new(root, team);
        let hurry = model.hurry;
        let model = model.shapes_search().then_some(model);
        let tt = self.table();
        tt.new_search();
        let root_moves = self.root_moves(root, limits, &tt);
        if root_moves.is_empty() {
            wait_while_required(limits, control);
            return SearchResult::default();
        }
        let threads = self.threads();
        let shared = Shared {
            tt: &tt,
            control,
            abort: AtomicBool::new(false),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            node_limit: limits.nodes,
            network: self.network().map(|networks| networks.for_rules(*root.rules())),
        };
        let pool = self.pool.lock().unwrap_or_else(|e| e.into_inner()).clone();
        // Taken out for the search and put back after: a search running at the
        // same time (none does in the protocol) would start with fresh tables.
        let mut tables = std::mem::take(&mut *self.heuristics.lock().unwrap_or_else(|e| e.into_inner()));
        tables.resize_with(threads, || Heuristics::new(MAX_PLY));
        tables.iter_mut().for_each(Heuristics::new_search);
        let (main_table, helper_tables) = tables.split_first_mut().expect("at least one thread");
        let start = Instant::now();
        let result = pool.scope(|scope| {
            for (id, table) in (1..threads).zip(helper_tables.iter_mut()) {
                let shared = &shared;
                let root_moves = root_moves.clone();
                let model = model.as_ref();
                scope.spawn(move |_| {
                    let mut helper = Searcher::new(shared, id, root, history, root_moves, model, table);
                    iterate(&mut helper, id, limits, start, None);
                });
            }
            let mut main = Searcher::new(&shared, 0, root, history, root_moves, model.as_ref(), main_table);
            let two_board = root.rules().is_two_board();
            let pace = limits.opponent_pace.filter(|_| two_board);
            main.time = Some(TimeManager::new(limits, root.turn(), two_board, hurry, pace));
            iterate(&mut main, 0, limits, start, Some(report));
            shared.abort.store(true, Ordering::Relaxed);
            main.flush_nodes();
            let best = &main.root_moves[0];
            SearchResult {
                best: Some(best.m),
                ponder: best.pv.get(1).copied(),
                score: main.reported_score(0).map(super::alphabeta::to_uci_score),
                depth: main.completed_depth,
                nodes: 0,
            }
        });
        *self.heuristics.lock().unwrap_or_else(|e| e.into_inner()) = tables;
        let result = SearchResult { nodes: shared.total_nodes(), ..result };
        let shorter = unfinished_proof.as_mut().and_then(|(none_within, prover)| {
            prover.extend_deadline(Some(shorten_deadline));
            shorten_mate(prover, root, &limits.search_moves, *none_within, &result, proof_start, report)
        });
        wait_while_required(limits, control);
        shorter.unwrap_or(result)
    }

    /// The partner-board model's advice for the side to move on `root`, after
    /// its search scored `score` (internal centipawns, side to move): whether to
    /// sit for a piece, and what to tell the partner. Each "what if this piece
    /// were in a hand" question is a small search of `probe_nodes` nodes,
    /// compared with the same search without the piece.
    pub fn advise(&self, root: &Position, history: &[u64], team: &TeamContext, score: i32, probe_nodes: u64) -> Advice {
        self.advise_with_control(root, history, team, score, probe_nodes, &Control::new())
    }

    /// [`Engine::advise`] that `control` can stop: a stopped control ends each
    /// probe at once (the advice is then meaningless and should be dropped).
    pub fn advise_with_control(
        &self,
        root: &Position,
        history: &[u64],
        team: &TeamContext,
        score: i32,
        probe_nodes: u64,
        control: &Control,
    ) -> Advice {
        let mut advice = Advice::default();
        if !root.rules().is_two_board() {
            return advice;
        }
        let us = root.turn();
        let probe = |pos: &Position| -> i32 {
            let limits = Limits { nodes: Some(probe_nodes), depth: Some(6), multipv: 1, ..Limits::default() };
            let result = self.search(pos, history, &limits, control, &mut |_| {});
            result.score.map_or(0, Score::internal)
        };
        let mut need = Vec::new();
        let mut dont_give = Vec::new();
        let mut pawn_sinks_us = false;
        let mut best_arrival: Option<(Role, i32)> = None;
        // Each "with the piece" probe is compared with the same small search
        // without it: the main search's score is deeper and differently
        // biased, and passing the move hands the opponent the tempo.
        let baseline = probe(root);
        let passed_baseline = (!root.is_check()).then(|| {
            let mut passed = root.clone();
            passed.play_null();
            probe(&passed)
        });
        for role in HAND_ROLES {
            let mut ours = root.clone();
            ours.add_to_reserve(us, role);
            // What the piece does beyond its own material value: a queen in
            // hand is always worth a queen; we ask for it only if it does more.
            let gain = probe(&ours) - baseline - hand_value(role);
            if gain >= NEED_GAIN {
                need.push(role);
            }
            if gain >= SIT_GAIN && best_arrival.is_none_or(|(_, g)| gain > g) {
                best_arrival = Some((role, gain));
            }
            // The piece may reach the opponent while it is their move: probe
            // with the turn passed to them (when we are not in check).
            if let Some(passed_baseline) = passed_baseline {
                let mut theirs = root.clone();
                theirs.add_to_reserve(us.other(), role);
                theirs.play_null();
                let loss = probe(&theirs) - passed_baseline - hand_value(role);
                if loss >= DONT_GIVE_LOSS {
                    dont_give.push(role);
                }
                if role == Role::Pawn {
                    pawn_sinks_us = loss >= SINKING_LOSS;
                }
            }
        }
        if team.switches.sitting {
            advice.sit = sit_decision(root, team, best_arrival);
        }
        if team.switches.messages {
            advice.messages = partner_messages(score, &need, &dont_give, pawn_sinks_us);
        }
        advice
    }

    /// Legal root moves (restricted to `searchmoves`), best guess first.
    fn root_moves(&self, root: &Position, limits: &Limits, tt: &TranspositionTable) -> Vec<Move> {
        let mut moves: Vec<ScoredMove> = root
            .legal_moves()
            .into_iter()
            .filter(|m| limits.search_moves.is_empty() || limits.search_moves.contains(m))
            .map(|m| ScoredMove { m, score: 0 })
            .collect();
        let tt_move = tt.probe(root.hash()).map_or(Move::NONE, |e| e.best);
        order_moves(root, &mut moves, tt_move, &Heuristics::new(1), 0, Lineage::ROOT);
        moves.into_iter().map(|sm| sm.m).collect()
    }
}

/// UCI forbids a `bestmove` during `go infinite` or pondering before `stop`/`ponderhit`.
fn wait_while_required(limits: &Limits, control: &Control) {
    while (limits.infinite || control.is_pondering()) && !control.is_stopped() {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The prover's longest time for `go mate N` before the alpha-beta search.
const PROVER_TIME_WITHOUT_LIMIT: Duration = Duration::from_secs(10);

/// What the prover settled before the alpha-beta search of `go mate N`.
enum ProverVerdict<'a> {
    /// Not a `go mate`, or MultiPV: the prover was not asked.
    NotAsked,
    /// The shortest mate, proven.
    Mate(SearchResult),
    /// No mate within this many moves, proven (the prover stopped or found none
    /// within N); the prover keeps what it proved for [`shorten_mate`].
    NoneWithin(u32, Box<MateProver<'a>>),
}

/// The prover's time for `go mate N` before the alpha-beta search: three
/// quarters of `movetime` (the depth-limited alpha-beta search of `go mate`
/// mostly ends in milliseconds), or a 40th of the clock, and at most [`PROVER_TIME_WITHOUT_LIMIT`].
fn prover_share(limits: &Limits, root: &Position) -> Duration {
    let on_clock = limits.clock.and_then(|c| c.time(root.turn())).map(|t| t / 40);
    let share = limits.movetime.map(|t| t * 3 / 4).or(on_clock).unwrap_or(PROVER_TIME_WITHOUT_LIMIT);
    share.min(PROVER_TIME_WITHOUT_LIMIT)
}

/// `go mate N`: the exhaustive prover ([`MateProver`]) looks for the shortest
/// mate first, trying 1, 2, … N moves. Alpha-beta stops at the first mate within
/// N, which may be longer than the shortest, and its pruning can hide a mate
/// behind a quiet first move or a checking sacrifice; the prover's mate is the
/// shortest by proof. Otherwise the alpha-beta search answers, in the time left.
fn prove_mate_first<'a>(root: &Position, limits: &Limits, control: &'a Control, report: &mut (dyn FnMut(&Info) + Send)) -> ProverVerdict<'a> {
    let Some(max) = limits.mate else {
        return ProverVerdict::NotAsked;
    };
    if limits.multipv > 1 {
        return ProverVerdict::NotAsked;
    }
    let start = Instant::now();
    let mut prover = MateProver::new(control, Some(start + prover_share(limits, root)), limits.nodes);
    match prover.shortest(root, max, &limits.search_moves) {
        (MateProof::Mate(line), moves) => ProverVerdict::Mate(proven_mate_result(line, moves, prover.nodes(), start, report)),
        (MateProof::NoMate, moves) => ProverVerdict::NoneWithin(moves, Box::new(prover)),
        (MateProof::Stopped, moves) => ProverVerdict::NoneWithin(moves - 1, Box::new(prover)),
    }
}

/// The alpha-beta search found a mate in j moves where the prover had shown
/// none within `none_within`: until its deadline, the prover tries the lengths
/// in between, shortest first, and returns a shorter mate if it proves one.
fn shorten_mate(
    prover: &mut MateProver,
    root: &Position,
    first_moves: &[Move],
    none_within: u32,
    found: &SearchResult,
    start: Instant,
    report: &mut (dyn FnMut(&Info) + Send),
) -> Option<SearchResult> {
    let Some(Score::Mate(found_moves)) = found.score else {
        return None;
    };
    let found_moves = u32::try_from(found_moves).ok()?;
    for moves in none_within + 1..found_moves {
        match prover.prove(root, moves, first_moves) {
            MateProof::Mate(line) => return Some(proven_mate_result(line, moves, found.nodes + prover.nodes(), start, report)),
            MateProof::NoMate => {}
            MateProof::Stopped => return None,
        }
    }
    None
}

/// A proven mate as one `info` line and the search's result.
fn proven_mate_result(line: Vec<Move>, moves: u32, nodes: u64, start: Instant, report: &mut (dyn FnMut(&Info) + Send)) -> SearchResult {
    let plies = 2 * moves - 1;
    let score = Score::Mate(moves as i32);
    report(&Info { depth: plies, seldepth: plies, multipv: 1, score, bound: Bound::Exact, nodes, time: start.elapsed(), hashfull: 0, pv: line.clone() });
    SearchResult { best: line.first().copied(), ponder: line.get(1).copied(), score: Some(score), depth: plies, nodes }
}

/// Plies that `go mate N` searches beyond the mate's own 2N - 1: pruning
/// and reductions can hide the shortest mate until a few plies past it (a
/// mate in 3 of the suite shows at depth 11, a mate in 4 at depth 12).
const MATE_SEARCH_SLACK: i32 = 6;

/// Deepest iteration the limits allow.
fn max_depth(limits: &Limits) -> i32 {
    let cap = (MAX_PLY - 8) as i32;
    match (limits.depth, limits.mate) {
        (Some(d), _) => (d as i32).clamp(1, cap),
        (None, Some(mate)) => (2 * mate as i32 - 1 + MATE_SEARCH_SLACK).clamp(1, cap),
        (None, None) => cap,
    }
}

/// A long MultiPV iteration reports the lines done so far after this long.
const MULTIPV_REPORT_AFTER: Duration = Duration::from_secs(3);

/// Iterative deepening with aspiration windows and MultiPV for one thread.
fn iterate(searcher: &mut Searcher, id: usize, limits: &Limits, start: Instant, mut report: Option<&mut (dyn FnMut(&Info) + Send)>) {
    let multipv = if id == 0 { limits.multipv.clamp(1, searcher.root_moves.len()) } else { 1 };
    let mut best_changes = 0.0f64;
    let mut last_best = searcher.root_moves[0].m;
    let mut iteration_start = start.elapsed();
    for iteration in 1..=max_depth(limits) {
        let depth = iteration + i32::from(id % 2 == 1 && iteration > 1);
        for rm in searcher.root_moves.iter_mut() {
            if rm.score != -INFINITY {
                rm.previous_score = rm.score;
            }
        }
        for pv_index in 0..multipv {
            if !aspiration(searcher, depth, pv_index, start, &mut report) {
                break;
            }
            // A later line may score above an earlier one (it was searched with
            // a wider window): the lines come out best first, and line 1 is
            // the move played. Stable, so equal scores keep their order.
            searcher.root_moves[..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            let last_line = pv_index + 1 == multipv;
            if let Some(report) = report.as_deref_mut().filter(|_| last_line || start.elapsed() > MULTIPV_REPORT_AFTER) {
                for line in 0..=pv_index {
                    report(&searcher.info(depth as u32, line, Bound::Exact, start.elapsed()));
                }
            }
        }
        if searcher.aborted() {
            break;
        }
        searcher.completed_depth = depth as u32;
        searcher.completed_score = searcher.root_moves[0].score;
        if id != 0 {
            continue;
        }
        let best = &searcher.root_moves[0];
        if best.m != last_best {
            best_changes += 1.0;
            last_best = best.m;
        }
        best_changes *= 0.5;
        if mate_limit_reached(limits, best.score) || proven_mate_done(best.score, depth) && limits.depth.is_none() && !limits.infinite {
            break;
        }
        let instability = 1.0 + best_changes;
        let control = searcher.control();
        let now = start.elapsed();
        let last_iteration = now - iteration_start;
        iteration_start = now;
        if searcher.time.as_mut().is_some_and(|t| t.stop_iterating(control, instability, last_iteration)) {
            break;
        }
    }
}

/// Searches one MultiPV line with a window that widens on failure.
/// Returns false if the search was aborted.
fn aspiration(searcher: &mut Searcher, depth: i32, pv_index: usize, start: Instant, report: &mut Option<&mut (dyn FnMut(&Info) + Send)>) -> bool {
    let previous = searcher.root_moves[pv_index].previous_score;
    let mut delta = 30;
    let (mut alpha, mut beta) = if depth >= 4 && previous.abs() < MATE_BOUND {
        ((previous - delta).max(-INFINITY), (previous + delta).min(INFINITY))
    } else {
        (-INFINITY, INFINITY)
    };
    loop {
        let Some(score) = searcher.search_root(depth, alpha, beta, pv_index) else {
            return false;
        };
        let bound = if score <= alpha {
            beta = (alpha + beta) / 2;
            alpha = (score - delta).max(-INFINITY);
            Bound::Upper
        } else if score >= beta {
            beta = (score + delta).min(INFINITY);
            Bound::Lower
        } else {
            return true;
        };
        if let Some(report) = report.as_deref_mut() {
            if start.elapsed() > Duration::from_secs(1) {
                report(&searcher.info(depth as u32, pv_index, bound, start.elapsed()));
            }
        }
        delta += delta / 2;
    }
}

/// `go mate N`: a mate in at most N moves for the side to move is found.
fn mate_limit_reached(limits: &Limits, score: i32) -> bool {
    limits.mate.is_some_and(|n| score >= MATE_BOUND && (MATE - score + 1) / 2 <= n as i32)
}

/// A mate was found and the search has gone well past its length.
fn proven_mate_done(score: i32, depth: i32) -> bool {
    score.abs() >= MATE_BOUND && depth >= 2 * (MATE - score.abs()) + 6
}

/// A piece in hand worth this much more (centipawns) than its own value is worth asking for.
const NEED_GAIN: i32 = 600;
/// A piece in the opponent's hand costing this much beyond its value must not reach them.
const DONT_GIVE_LOSS: i32 = 800;
/// A likely arrival worth this much beyond its value is worth waiting for:
/// only decisive pieces (waiting costs time on a clock that both boards share
/// in effect, since the first board to end decides).
const SIT_GAIN: i32 = 600;
/// A pawn for the opponent costing this much beyond its value sinks us:
/// then the partner is asked to sit rather than trade.
const SINKING_LOSS: i32 = 800;
/// Forecast probability (percent) from which an arrival is waited for.
const SIT_LIKELIHOOD: i32 = 40;

/// What the partner-board model suggests besides the move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Advice {
    /// Wait (do not move) for at most this long, for this piece.
    pub sit: Option<Sit>,
    /// Messages for the partner.
    pub messages: Vec<PartnerMessage>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sit {
    /// The piece we wait for (`None`: the partner asked us to sit).
    pub waiting_for: Option<Role>,
    pub up_to: Duration,
}

/// Sit when a piece that pays is likely to arrive (or the partner asked us to),
/// and only while our time lead over the opponent lasts.
fn sit_decision(root: &Position, team: &TeamContext, best_arrival: Option<(Role, i32)>) -> Option<Sit> {
    let up_to = sit_allowance(&team.clocks)?;
    let expected = TeamModel::new(root, &TeamContext { switches: ModelSwitches::default(), ..team.clone() }).expected;
    let likely = best_arrival.filter(|&(role, _)| expected.get(root.turn(), role) >= SIT_LIKELIHOOD);
    match likely {
        Some((role, _)) => Some(Sit { waiting_for: Some(role), up_to }),
        None if team.requests.sit => Some(Sit { waiting_for: None, up_to }),
        None => None,
    }
}

/// `need`, `dontgive`, `trades`, `dead` and `sit` from the probes.
fn partner_messages(score: i32, need: &[Role], dont_give: &[Role], pawn_sinks_us: bool) -> Vec<PartnerMessage> {
    let mut messages = Vec::new();
    if score <= -MATE_BOUND {
        messages.push(PartnerMessage::Dead);
    }
    if !need.is_empty() {
        messages.push(PartnerMessage::Need(need.to_vec()));
    }
    if !dont_give.is_empty() {
        messages.push(PartnerMessage::DontGive(dont_give.to_vec()));
    }
    match (need.is_empty(), dont_give.is_empty()) {
        (false, true) => messages.push(PartnerMessage::Trades(Trades::Good)),
        (true, false) => messages.push(PartnerMessage::Trades(Trades::Bad)),
        _ => {}
    }
    // A pawn is the piece that reaches the opponent most easily: if even a pawn
    // would sink us, the partner should not trade at all for now.
    if pawn_sinks_us {
        messages.push(PartnerMessage::Sit);
    }
    messages
}
