//! One search thread: iterative deepening over a principal variation search.
//!
//! Each node: mate distance pruning, transposition-table cutoffs (a quiet
//! TT move that cuts earns its history bonus), reverse futility pruning
//! (depth 7 and less), null move (reduced more the further the evaluation is
//! above beta), ProbCut (depth 5 and more: a capture that wins the exchange
//! and beats beta by 180 in a search four plies shallower cuts), internal
//! iterative reduction when the node has no TT move, a singular-extension
//! test of the TT move, then the moves in staged order with pruning of quiet
//! moves and drops that do not give check, late move reductions, one ply of
//! extension for checks that do not hang the checker and for a singular TT
//! move, and PVS re-searches. Late quiet root moves are reduced too.
//!
//! The pruning of a quiet move or drop, as Fairy-Stockfish does it, looks
//! at the depth the move would have after its late move reduction
//! (`lmr_depth`): it is skipped when the static evaluation plus a margin
//! growing with that depth stays below alpha (futility), when it loses more
//! than a depth-dependent amount by SEE (a drop onto a square the opponent
//! wins loses its piece: at `lmr_depth` 0 any loss prunes), and near the
//! leaves when both continuation histories say it fails after these moves.
//! Late move pruning by move count ((3 + d²) / (2 - improving), at every
//! depth, as Fairy-Stockfish counts) and history pruning come before. Quiet
//! checks escape the move count unless they hang the checking piece by SEE.
//! In check, once one evasion holds off mate, quiet evasions that lose material
//! by SEE (blocks by drops onto squares the checker's side wins, above all)
//! are skipped. Reduced are quiet moves and drops, quiet checks one ply less
//! (a third of the moves in drop chess give check: never reducing them kept
//! the tree wide), and captures that cannot lift the static evaluation to
//! alpha; never check evasions.
//!
//! The margins and move counts depend on whether the side to move is
//! *improving* (its evaluation rose since its last move); the pruning margins
//! start from the static evaluation, or from the TT score when its bound says
//! the static evaluation is too pessimistic or too optimistic.
//!
//! Quiescence search looks at captures that do not lose material and at
//! promotions, but not at a capture whose victim, plus a margin, cannot lift
//! the stand-pat score to alpha (futility); in check it looks at every
//! evasion until one holds off mate, then only at those that do not lose
//! material (with a full hand most blocks are drops that hang the piece:
//! these two rules cut a fifth of the nodes to depth 10). Its results go to
//! the TT at depth 0. Checking drops are *not* searched in
//! quiescence: in a position with a full hand they multiply the tree by the
//! number of empty squares around the king, and the check extension of the
//! main search already follows them. (Tried twice: all checks at the first
//! quiescence ply lost in self-play, and safe direct checks and checking drops
//! there scored 9 of 40 against Fairy-Stockfish where the build without them
//! scored 14.5 on the same openings.)

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};

use crate::moves::Move;
use crate::nnue::{AccumulatorStack, Network, Snapshot};
use crate::position::Position;
use crate::rules::{Mate, Repetition, Stalemate};
use crate::status::Status;

use super::eval::{arrival_value, evaluate_with, Expected};
use super::evalcache::EvalCache;
use crate::team::{FlowValues, TeamModel};
use super::limits::{Bound, Control, Info, Score};
use super::params::PARAMS;
use super::ordering::{history_bonus, is_quiet, order_noisy, Heuristics, Lineage, MovePicker, ScoredMove};
use super::see::{see_ge, victim_value};
use super::timeman::TimeManager;
use super::tt::{TranspositionTable, TtBound, TtEntry};

pub const MAX_PLY: usize = 128;
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
pub const INFINITY: i32 = 31_000;
/// A side with no legal move but not mated (RULES.md §3): grave danger, not a loss.
pub const FROZEN_IN_CHECK: i32 = -1_500;
pub const FROZEN_NOT_IN_CHECK: i32 = -400;
/// Frozen against a sitter with more time ([`crate::team::sits_out`]): lost on
/// time, short of a mate only because the sitter may not sit.
pub const FROZEN_SAT_OUT: i32 = -5_000;

/// State shared by all threads of one search.
pub struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a Control,
    /// Set by the main thread when the search must end (limits or `stop`).
    pub abort: AtomicBool,
    /// Nodes of every thread, for node limits and reports.
    pub nodes: Vec<AtomicU64>,
    pub node_limit: Option<u64>,
    /// The network that evaluates drop-chess positions; `None`: the classical evaluation.
    pub network: Option<Arc<Network>>,
}

impl Shared<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    fn should_abort(&self) -> bool {
        self.abort.load(Ordering::Relaxed) || self.control.is_stopped()
    }
}

/// A root move with the score of the latest iteration that searched it fully.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub m: Move,
    pub score: i32,
    pub previous_score: i32,
    pub pv: Vec<Move>,
    pub seldepth: u32,
}

pub struct Searcher<'a> {
    shared: &'a Shared<'a>,
    id: usize,
    root: Position,
    /// Hashes of the game before the root and of the current search path.
    path: Vec<u64>,
    pub root_moves: Vec<RootMove>,
    /// Move-ordering statistics, kept by the engine from one search to the next.
    heuristics: &'a mut Heuristics,
    /// Reusable move buffers, one per ply.
    buffers: Vec<Vec<ScoredMove>>,
    /// Triangular principal variation table.
    pv: Vec<Vec<Move>>,
    nodes: u64,
    seldepth: u32,
    pub time: Option<TimeManager>,
    pub completed_depth: u32,
    /// The best score of the last completed iteration (`-INFINITY` before one).
    pub completed_score: i32,
    /// The side to move at the root, for the team terms.
    root_color: shakmaty::Color,
    flow: Option<FlowValues>,
    expected: Expected,
    /// By colour: frozen on this board, that side loses the waiting game.
    frozen_loses: [bool; 2],
    /// What the search keeps for each ply of the current line.
    stack: Vec<PlyState>,
    eval_cache: EvalCache,
    /// The network and this thread's accumulators, when the network evaluates.
    nnue: Option<(Arc<Network>, AccumulatorStack)>,
}

/// One ply of the current line.
#[derive(Clone, Copy, Debug)]
struct PlyState {
    /// Static evaluation (`-INFINITY` when in check), for "improving".
    eval: i32,
    /// The move that led here (`Move::NONE` for the root and null moves).
    played: Move,
    /// Whether that move was quiet (false for the root and null moves, so
    /// true means a real quiet move).
    quiet_played: bool,
    /// The move a singular-extension search leaves out here.
    excluded: Move,
}

impl PlyState {
    const EMPTY: PlyState = PlyState { eval: -INFINITY, played: Move::NONE, quiet_played: false, excluded: Move::NONE };
}

/// What the transposition table said at a node that it did not cut.
struct TtProbe {
    entry: Option<TtEntry>,
    best: Move,
}

/// Depths and move numbers past these share the table's last row or column.
const REDUCTION_DEPTHS: usize = 64;
const REDUCTION_MOVES: usize = 256;

/// Reductions for late moves, `lmr_base + ln(depth) ln(move number) / lmr_divisor`,
/// computed once: every quiet move asks for one (its pruning depth), so two
/// logarithms per move showed in profiles.
static REDUCTIONS: LazyLock<Box<[[u8; REDUCTION_MOVES]; REDUCTION_DEPTHS]>> = LazyLock::new(|| {
    let mut table = Box::new([[0u8; REDUCTION_MOVES]; REDUCTION_DEPTHS]);
    for (depth, row) in table.iter_mut().enumerate() {
        for (move_number, r) in row.iter_mut().enumerate() {
            let d = (depth.max(1) as f64).ln();
            let n = (move_number.max(1) as f64).ln();
            *r = (PARAMS.lmr_base + d * n / PARAMS.lmr_divisor) as u8;
        }
    }
    table
});

/// Reductions for late moves, by depth and move number.
#[inline]
fn reduction(depth: i32, move_number: usize) -> i32 {
    let depth = (depth.max(0) as usize).min(REDUCTION_DEPTHS - 1);
    i32::from(REDUCTIONS[depth][move_number.min(REDUCTION_MOVES - 1)])
}

pub fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

pub fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Mate scores are stored relative to the node, not to the root.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The UCI form of an internal score.
pub fn to_uci_score(score: i32) -> Score {
    if score >= MATE_BOUND {
        Score::Mate((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Score::Mate(-(MATE + score) / 2)
    } else {
        Score::Cp(score)
    }
}

impl<'a> Searcher<'a> {
    pub fn new(shared: &'a Shared<'a>, id: usize, root: &Position, history: &[u64], root_moves: Vec<Move>, team: Option<&TeamModel>, heuristics: &'a mut Heuristics) -> Searcher<'a> {
        let mut path = history.to_vec();
        path.push(root.hash());
        Searcher {
            shared,
            id,
            root: root.clone(),
            path,
            root_moves: root_moves
                .into_iter()
                .map(|m| RootMove { m, score: -INFINITY, previous_score: -INFINITY, pv: vec![m], seldepth: 0 })
                .collect(),
            heuristics,
            buffers: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(256)).collect(),
            pv: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            nodes: 0,
            seldepth: 0,
            time: None,
            completed_depth: 0,
            completed_score: -INFINITY,
            root_color: root.turn(),
            flow: team.and_then(|t| t.flow),
            expected: team.map_or_else(Expected::default, |t| t.expected),
            frozen_loses: team.map_or([false; 2], |t| t.frozen_loses),
            stack: vec![PlyState::EMPTY; MAX_PLY + 2],
            eval_cache: EvalCache::default(),
            nnue: shared
                .network
                .clone()
                .filter(|_| root.rules().has_drops())
                .map(|net| (net, AccumulatorStack::new(MAX_PLY + 2))),
        }
    }

    /// Static evaluation plus the team balance of the line (`balance` is from
    /// the root side's point of view).
    /// The network, when one is set, evaluates every drop-chess position at
    /// `ply` (its accumulator follows the line); the team model's expected
    /// arrivals are added at the classical evaluation's value, which the
    /// network does not know: their forecast share and the king danger
    /// they raise.
    #[inline]
    fn evaluate(&mut self, pos: &Position, balance: i32, ply: usize) -> i32 {
        let balance = if pos.turn() == self.root_color { balance } else { -balance };
        let expected = &self.expected;
        let nnue = &mut self.nnue;
        let static_eval = || match nnue {
            Some((net, stack)) => {
                stack.evaluate(net, ply, &Snapshot::of(pos), pos.turn()) + arrival_value(pos, expected)
            }
            None => evaluate_with(pos, expected),
        };
        self.eval_cache.get_or_insert(pos.hash(), static_eval) + balance
    }

    /// What the capture made by `m` is worth to the root side's team beyond
    /// this board: the victim goes to the mover's partner.
    #[inline]
    fn flow_delta(&self, pos: &Position, m: Move) -> i32 {
        let Some(flow) = &self.flow else { return 0 };
        let Some(role) = pos.captured_role(m) else { return 0 };
        // A promoted piece reaches the partner's hand as a pawn.
        let victim = if pos.promoted().contains(m.to()) { shakmaty::Role::Pawn } else { role };
        if pos.turn() == self.root_color { flow.gain(victim) } else { -flow.loss(victim) }
    }

    pub fn control(&self) -> &'a Control {
        self.shared.control
    }

    /// Counts a node; every 1024 nodes publishes the count and checks limits.
    #[inline]
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
            if self.id == 0 {
                let over_nodes = self.shared.node_limit.is_some_and(|n| self.shared.total_nodes() >= n);
                let over_time = self.time.as_mut().is_some_and(|t| t.hard_limit_reached(self.shared.control));
                if over_nodes || over_time {
                    self.shared.abort.store(true, Ordering::Relaxed);
                }
            }
        }
        !self.shared.should_abort()
    }

    pub fn aborted(&self) -> bool {
        self.shared.should_abort()
    }

    pub fn flush_nodes(&self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
    }

    /// Searches the root moves from `pv_index` on to `depth` inside (alpha, beta);
    /// sorts them by score. Returns the best score, or `None` if aborted.
    pub fn search_root(&mut self, depth: i32, mut alpha: i32, beta: i32, pv_index: usize) -> Option<i32> {
        self.seldepth = 0;
        let root = self.root.clone();
        let mut best = -INFINITY;
        // Moves this call does not reach must not keep an older iteration's score.
        for rm in &mut self.root_moves[pv_index..] {
            rm.score = -INFINITY;
        }
        let root_in_check = root.is_check();
        self.stack[0].eval = if root_in_check { -INFINITY } else { self.evaluate(&root, 0, 0) };
        for i in pv_index..self.root_moves.len() {
            let m = self.root_moves[i].m;
            let balance = self.flow_delta(&root, m);
            let quiet = is_quiet(&root, m);
            let gives_check = root.gives_check(m);
            let extension = i32::from(gives_check && see_ge(&root, m, 0));
            let mut child = root.clone();
            child.play(m);
            self.path.push(child.hash());
            self.record_move(1, m, quiet);
            let new_depth = depth - 1 + extension;
            let score = if i == pv_index {
                -self.search(&child, new_depth, -beta, -alpha, 1, true, balance)
            } else {
                // Late quiet root moves are reduced like inner PV moves.
                let late = i - pv_index;
                let mut r = 0;
                if depth >= 3 && quiet && !gives_check && late >= 4 && !root_in_check {
                    r = (reduction(depth, late) - 1).clamp(0, new_depth - 1);
                }
                let mut s = -self.search(&child, new_depth - r, -alpha - 1, -alpha, 1, false, balance);
                if r > 0 && s > alpha {
                    s = -self.search(&child, new_depth, -alpha - 1, -alpha, 1, false, balance);
                }
                if s > alpha && s < beta {
                    s = -self.search(&child, new_depth, -beta, -alpha, 1, true, balance);
                }
                s
            };
            self.path.pop();
            if self.aborted() && i > pv_index {
                break;
            }
            if self.aborted() {
                return None;
            }
            let rm = &mut self.root_moves[i];
            if i == pv_index || score > alpha {
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.pv[1]);
            } else {
                rm.score = -INFINITY;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        // Stable sort keeps the previous order among equal (unsearched) moves.
        self.root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
        if let Some(rm) = self.root_moves.get(pv_index) {
            let key = self.root.hash();
            self.shared.tt.store(key, rm.m, score_to_tt(rm.score, 0), depth.max(0) as u32, TtBound::Exact);
        }
        Some(best)
    }

    /// Records the move that leads to `ply` (`Move::NONE` for a null move)
    /// and whether it was quiet, always together so neither goes stale.
    #[inline]
    fn record_move(&mut self, ply: usize, m: Move, quiet: bool) {
        self.stack[ply].played = m;
        self.stack[ply].quiet_played = quiet;
    }

    /// The two moves that led to `ply`.
    fn lineage(&self, ply: usize) -> Lineage {
        Lineage { last: self.stack[ply].played, before: if ply >= 1 { self.stack[ply - 1].played } else { Move::NONE } }
    }

    fn is_repetition(&self, pos: &Position) -> bool {
        if pos.rules().repetition == Repetition::None {
            return false;
        }
        let hash = pos.hash();
        let window = (pos.halfmoves() as usize).min(self.path.len().saturating_sub(1));
        let last = self.path.len() - 1;
        (2..=window).step_by(2).any(|back| self.path[last - back] == hash)
    }

    /// The score of a position without legal moves.
    fn terminal_score(&self, pos: &Position, in_check: bool, ply: usize) -> i32 {
        let rules = pos.rules();
        let frozen = if in_check {
            if !(rules.mate == Mate::Potential && pos.status() == Status::Frozen) {
                return mated_in(ply);
            }
            FROZEN_IN_CHECK
        } else if rules.stalemate == Stalemate::Wait && rules.has_drops() {
            FROZEN_NOT_IN_CHECK
        } else {
            return 0;
        };
        if self.frozen_loses[pos.turn() as usize] {
            FROZEN_SAT_OUT
        } else {
            frozen
        }
    }

    /// The principal variation search of one node, in phases: early exits,
    /// the TT probe, pruning before any move is searched, the singular test,
    /// the move loop, and storing what was learned.
    #[allow(clippy::too_many_arguments)]
    fn search(&mut self, pos: &Position, mut depth: i32, mut alpha: i32, mut beta: i32, ply: usize, is_pv: bool, balance: i32) -> i32 {
        self.pv[ply].clear();
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply, balance);
        }
        if !self.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        if self.is_repetition(pos) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, balance, ply);
        }
        // Mate distance pruning: no line from here beats a shorter mate already found.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        let excluded = self.stack[ply].excluded;
        let tt = match self.probe_tt(pos, depth, alpha, beta, ply, is_pv) {
            Ok(probe) => probe,
            Err(cutoff) => return cutoff,
        };

        let in_check = pos.is_check();
        let raw_eval = if in_check { -INFINITY } else { self.evaluate(pos, balance, ply) };
        let static_eval = if in_check { -INFINITY } else { raw_eval + self.heuristics.correction.of(pos) };
        self.stack[ply].eval = static_eval;
        // Improving: our evaluation rose since our previous move, so cutoffs
        // are likelier and pruning can be bolder.
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].eval;
        let eval = pruning_eval(tt.entry, static_eval, in_check);

        if !is_pv && !in_check && excluded == Move::NONE {
            if let Some(score) = self.prune_node(pos, depth, beta, ply, eval, static_eval, improving, tt.entry, balance) {
                return score;
            }
        }

        // Internal iterative reduction: without a TT move this node was never
        // searched, so a full-depth search here is likely to be wasted.
        if tt.best == Move::NONE && depth >= PARAMS.iir_min_depth {
            depth -= 1;
        }

        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        pos.generate(&mut moves);
        if moves.is_empty() {
            self.buffers[ply] = moves;
            return self.terminal_score(pos, in_check, ply);
        }
        let lineage = self.lineage(ply);

        let singular = match self.singular_test(pos, depth, beta, ply, tt.entry, balance) {
            Ok(singular) => singular,
            Err(score) => {
                self.buffers[ply] = moves;
                return score;
            }
        };
        self.heuristics.clear_killers(ply + 1);

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = Move::NONE;
        let mut quiets_tried: Vec<Move> = Vec::new();
        let us = pos.turn();

        let checks = pos.check_squares();
        let mut picker = MovePicker::new(pos, moves, tt.best);
        let mut next_index = 0;
        let late_move_limit = ((PARAMS.lmp_base + depth * depth) / if improving { 1 } else { 2 }) as usize;
        loop {
            // Near the leaves (where a check's place in the list does not
            // matter: no reduction) late move pruning leaves only the checks.
            if depth <= PARAMS.lmp_checks_only_depth && !is_pv && !in_check && best_score > -MATE_BOUND && next_index >= late_move_limit {
                picker.keep_only_checking_quiets(pos, &checks);
            }
            let Some(m) = picker.next(pos, self.heuristics, ply, lineage) else { break };
            let index = next_index;
            next_index += 1;
            if m == excluded {
                continue;
            }
            let quiet = is_quiet(pos, m);
            let gives_check = pos.gives_check_with(m, &checks);
            // A check that does not hang the checking piece: extended below,
            // and searched even past the move count.
            let safe_check = gives_check && see_ge(pos, m, 0);
            let node = NodeView { depth, ply, is_pv, in_check, improving, static_eval, alpha, best_score, late_move_limit, lineage };
            if self.skips_move(pos, m, index, quiet, gives_check, safe_check, &node) {
                continue;
            }

            let child_balance = balance + self.flow_delta(pos, m);
            let mut child = pos.clone();
            child.play(m);
            // Extend checks that do not simply hang the checking piece: in drop
            // chess almost every position has checking drops, and extending
            // them all would swamp the tree.
            let extension = i32::from((singular && m == tt.best) || (safe_check && ply < 2 * MAX_PLY / 3));
            let new_depth = depth - 1 + extension;
            self.path.push(child.hash());
            self.record_move(ply + 1, m, quiet);
            let score = if index == 0 {
                -self.search(&child, new_depth, -beta, -alpha, ply + 1, is_pv, child_balance)
            } else {
                let r = self.late_move_reduction(pos, m, index, quiet, gives_check, new_depth, &node);
                let mut s = -self.search(&child, new_depth - r, -alpha - 1, -alpha, ply + 1, false, child_balance);
                if r > 0 && s > alpha {
                    s = -self.search(&child, new_depth, -alpha - 1, -alpha, ply + 1, false, child_balance);
                    // A reduced quiet move that needed the full depth: its
                    // continuation histories learn how that search ended.
                    if quiet {
                        let bonus = history_bonus(new_depth);
                        self.heuristics.nudge_continuation(lineage, m, if s > alpha { bonus } else { -bonus });
                    }
                }
                if is_pv && s > alpha && s < beta {
                    s = -self.search(&child, new_depth, -beta, -alpha, ply + 1, true, child_balance);
                }
                s
            };
            self.path.pop();
            if self.aborted() {
                self.buffers[ply] = picker.into_moves();
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    if is_pv {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(m);
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    if score >= beta {
                        if quiet {
                            self.heuristics.reward(us, ply, lineage, m, &quiets_tried, depth);
                        }
                        break;
                    }
                }
            }
            if quiet && quiets_tried.len() < 64 {
                quiets_tried.push(m);
            }
        }
        self.buffers[ply] = picker.into_moves();

        if best_move == Move::NONE {
            // Every move was pruned: fail low with the bound we had.
            return alpha;
        }
        self.learn(pos, depth, ply, is_pv, in_check, (original_alpha, beta), best_move, best_score, (raw_eval, static_eval));
        best_score
    }

    /// The TT probe: `Err(score)` when the entry cuts this node, else the
    /// entry and its move. A quiet TT move that refutes here earns its history
    /// as a searched refutation would: TT hits are most cutoffs.
    fn probe_tt(&mut self, pos: &Position, depth: i32, alpha: i32, beta: i32, ply: usize, is_pv: bool) -> Result<TtProbe, i32> {
        let entry = self.shared.tt.probe(pos.hash());
        let Some(e) = entry else { return Ok(TtProbe { entry, best: Move::NONE }) };
        let score = score_from_tt(e.score, ply);
        let excluded = self.stack[ply].excluded;
        if !is_pv && excluded == Move::NONE && e.depth as i32 >= depth && e.bound.cuts(score, alpha, beta) {
            if score >= beta && e.best != Move::NONE && is_quiet(pos, e.best) {
                let lineage = self.lineage(ply);
                self.heuristics.reward(pos.turn(), ply, lineage, e.best, &[], depth);
            }
            return Err(score);
        }
        Ok(TtProbe { entry, best: e.best })
    }

    /// Pruning before any move is searched (not in check, not on the PV):
    /// reverse futility, null move, ProbCut. `Some(score)` ends the node.
    #[allow(clippy::too_many_arguments)]
    fn prune_node(&mut self, pos: &Position, depth: i32, beta: i32, ply: usize, eval: i32, static_eval: i32, improving: bool, tt_entry: Option<TtEntry>, balance: i32) -> Option<i32> {
        // Reverse futility: far above beta at low depth, trust the evaluation.
        let margin = PARAMS.rfp_margin * (depth - i32::from(improving));
        if depth <= PARAMS.rfp_max_depth && eval - margin >= beta && beta.abs() < MATE_BOUND {
            return Some(eval);
        }
        // Null move: give the opponent a free move; still above beta means a cutoff.
        if depth >= PARAMS.nmp_min_depth && eval >= beta && self.stack[ply].played != Move::NONE && has_material_to_move(pos) {
            let r = PARAMS.nmp_base_reduction
                + depth / PARAMS.nmp_depth_divisor
                + ((eval - beta) / PARAMS.nmp_eval_divisor).min(PARAMS.nmp_eval_max);
            let mut child = pos.clone();
            child.play_null();
            self.path.push(child.hash());
            self.record_move(ply + 1, Move::NONE, false);
            let score = -self.search(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, false, balance);
            self.path.pop();
            if self.aborted() {
                return Some(0);
            }
            if score >= beta {
                return Some(if score >= MATE_BOUND { beta } else { score });
            }
        }
        if depth >= PARAMS.probcut_min_depth && beta.abs() < MATE_BOUND {
            return self.probcut(pos, depth, beta, ply, static_eval, improving, tt_entry, balance);
        }
        None
    }

    /// Singular extension: when every move but the TT move fails well below
    /// its stored score, the TT move is forced (`Ok(true)`: searched a ply
    /// deeper); when even without it the node holds beta, `Err(score)` cuts.
    fn singular_test(&mut self, pos: &Position, depth: i32, beta: i32, ply: usize, tt_entry: Option<TtEntry>, balance: i32) -> Result<bool, i32> {
        let excluded = self.stack[ply].excluded;
        let Some(entry) = tt_entry.filter(|e| ply > 0 && depth >= PARAMS.se_min_depth && excluded == Move::NONE && e.best != Move::NONE) else {
            return Ok(false);
        };
        let score = score_from_tt(entry.score, ply);
        if (entry.depth as i32) < depth - PARAMS.se_depth_slack || entry.bound == TtBound::Upper || score.abs() >= MATE_BOUND {
            return Ok(false);
        }
        let singular_beta = score - PARAMS.se_margin_per_depth * depth;
        // The nested search at this ply uses a fresh move buffer: ours is still in use.
        self.stack[ply].excluded = entry.best;
        let without = self.search(pos, (depth - 1) / 2, singular_beta - 1, singular_beta, ply, false, balance);
        self.stack[ply].excluded = Move::NONE;
        if self.aborted() {
            return Err(0);
        }
        if without < singular_beta {
            Ok(true)
        } else if singular_beta >= beta {
            Err(singular_beta)
        } else {
            Ok(false)
        }
    }

    /// Whether the move loop skips `m` unsearched: losing quiet evasions once
    /// mate is held off, late move, history, futility, SEE and continuation
    /// pruning of quiet moves and drops, quiet checks that hang the checker
    /// past the move count, and captures that lose too much near the leaves.
    #[allow(clippy::too_many_arguments)]
    fn skips_move(&self, pos: &Position, m: Move, index: usize, quiet: bool, gives_check: bool, safe_check: bool, node: &NodeView) -> bool {
        let NodeView { depth, ply, is_pv, in_check, static_eval, alpha, best_score, late_move_limit, lineage, .. } = *node;
        if in_check && !gives_check && ply > 0 && is_losing_quiet_evasion(pos, m, best_score) {
            return true;
        }
        // Pruning of quiet moves and drops that do not give check.
        if !in_check && quiet && !gives_check && best_score > -MATE_BOUND {
            // Late move pruning by move count, and history pruning, near the leaves.
            if !is_pv {
                if index >= late_move_limit {
                    return true;
                }
                let history_floor = -PARAMS.history_prune_margin * depth;
                if depth <= PARAMS.history_prune_max_depth && index > 0 && self.heuristics.history(pos.turn(), m, lineage) < history_floor {
                    return true;
                }
            }
            // By the depth the move would get after its late move
            // reduction: futility, and moves that hang material (a drop
            // onto a square the opponent wins).
            if ply > 0 && index > 0 {
                let lmr_depth = (depth - 1 - reduction(depth, index)).max(0);
                let futile = static_eval + PARAMS.futility_base + PARAMS.futility_per_depth * lmr_depth <= alpha;
                if !is_pv && lmr_depth < PARAMS.futility_max_lmr_depth && futile {
                    return true;
                }
                if !see_ge(pos, m, -(15 - lmr_depth.min(18) / 2) * lmr_depth * lmr_depth) {
                    return true;
                }
                // Both continuation histories say this move fails after these moves.
                if lmr_depth < PARAMS.continuation_prune_max_lmr_depth && self.heuristics.continuation(m, lineage).iter().all(|&h| h < 0) {
                    return true;
                }
            }
        }
        // Quiet checks past the move count are searched unless they hang the
        // checking piece (most are drops next to the king onto a square the
        // opponent wins: a quarter of the tree to depth 10).
        if !is_pv && !in_check && quiet && gives_check && !safe_check && index >= late_move_limit && best_score > -MATE_BOUND {
            return true;
        }
        let capture_floor = -PARAMS.capture_see_margin * depth;
        !is_pv && !quiet && depth <= PARAMS.capture_see_max_depth && best_score > -MATE_BOUND && !see_ge(pos, m, capture_floor)
    }

    /// Late move reductions for quiet moves and drops (checks one ply less),
    /// and for captures that cannot lift the static evaluation to alpha.
    #[allow(clippy::too_many_arguments)]
    fn late_move_reduction(&self, pos: &Position, m: Move, index: usize, quiet: bool, gives_check: bool, new_depth: i32, node: &NodeView) -> i32 {
        let NodeView { depth, is_pv, in_check, improving, static_eval, alpha, lineage, .. } = *node;
        if depth < PARAMS.lmr_min_depth || in_check || index < PARAMS.lmr_min_index {
            return 0;
        }
        if quiet {
            let mut r = reduction(depth, index) - i32::from(gives_check);
            if is_pv {
                r -= 1;
            }
            if !improving {
                r += 1;
            }
            r -= self.heuristics.history(pos.turn(), m, lineage) / PARAMS.lmr_history_divisor;
            r.clamp(0, new_depth - 1)
        } else if !gives_check && static_eval + victim_value(pos, m) <= alpha {
            // A capture that cannot even lift the evaluation to alpha.
            (reduction(depth, index) - 1).clamp(0, new_depth - 1)
        } else {
            0
        }
    }

    /// After the move loop: continuation history for the opponent's quiet
    /// move that every reply failed against, the TT store, and the
    /// correction history.
    #[allow(clippy::too_many_arguments)]
    fn learn(&mut self, pos: &Position, depth: i32, ply: usize, is_pv: bool, in_check: bool, window: (i32, i32), best_move: Move, best_score: i32, evals: (i32, i32)) {
        let (original_alpha, beta) = window;
        let (raw_eval, static_eval) = evals;
        let excluded = self.stack[ply].excluded;
        // Every move failed low: the opponent's quiet move that led here
        // was a good one after its own predecessors.
        let quiet_previous = ply >= 1 && self.stack[ply].quiet_played;
        if best_score <= original_alpha && excluded == Move::NONE && quiet_previous && (depth >= 3 || is_pv) {
            self.heuristics.nudge_continuation(self.lineage(ply - 1), self.stack[ply].played, history_bonus(depth));
        }
        if excluded != Move::NONE {
            return;
        }
        let bound = TtBound::of(best_score, original_alpha, beta);
        self.shared.tt.store(pos.hash(), best_move, score_to_tt(best_score, ply), depth as u32, bound);
        // Teach the correction history only with scores whose bound
        // says which way the static evaluation was wrong.
        let trusted = match bound {
            TtBound::Lower => best_score > static_eval,
            TtBound::Upper => best_score < static_eval,
            TtBound::Exact => true,
        };
        if !in_check && trusted && is_quiet(pos, best_move) && best_score.abs() < MATE_BOUND {
            self.heuristics.correction.update(pos, depth, raw_eval, best_score);
        }
    }

    /// ProbCut: a capture that beats `beta` by a margin in a search four
    /// plies shallower almost surely refutes the opponent's last move.
    /// Only captures whose exchange already wins the margin are tried, each
    /// first in quiescence (cheap) and then at the reduced depth.
    #[allow(clippy::too_many_arguments)]
    fn probcut(&mut self, pos: &Position, depth: i32, beta: i32, ply: usize, static_eval: i32, improving: bool, tt_entry: Option<TtEntry>, balance: i32) -> Option<i32> {
        let probcut_beta = beta + PARAMS.probcut_margin - PARAMS.probcut_improving * i32::from(improving);
        let tt_says_below = tt_entry.is_some_and(|e| e.depth as i32 >= depth - 3 && score_from_tt(e.score, ply) < probcut_beta);
        if tt_says_below {
            return None;
        }
        let key = pos.hash();
        for m in pos.noisy_moves() {
            if !see_ge(pos, m, probcut_beta - static_eval) {
                continue;
            }
            let mut child = pos.clone();
            child.play(m);
            let child_balance = balance + self.flow_delta(pos, m);
            self.path.push(child.hash());
            self.record_move(ply + 1, m, false);
            let mut score = -self.quiescence(&child, -probcut_beta, -probcut_beta + 1, ply + 1, child_balance);
            if score >= probcut_beta {
                score = -self.search(&child, depth - PARAMS.probcut_reduction, -probcut_beta, -probcut_beta + 1, ply + 1, false, child_balance);
            }
            self.path.pop();
            if self.aborted() {
                return Some(0);
            }
            if score >= probcut_beta {
                self.shared.tt.store(key, m, score_to_tt(score, ply), (depth - 3) as u32, TtBound::Lower);
                return Some(score);
            }
        }
        None
    }

    fn quiescence(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize, balance: i32) -> i32 {
        if !self.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, balance, ply);
        }
        // Quiescence results are stored at depth 0, so any entry may cut here.
        let key = pos.hash();
        if let Some(entry) = self.shared.tt.probe(key) {
            let score = score_from_tt(entry.score, ply);
            if entry.bound.cuts(score, alpha, beta) {
                return score;
            }
        }
        let original_alpha = alpha;
        let in_check = pos.is_check();
        let mut best = -INFINITY;
        let mut best_move = Move::NONE;
        let mut stand_pat = -INFINITY;
        if !in_check {
            stand_pat = self.evaluate(pos, balance, ply) + self.heuristics.correction.of(pos);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        pos.generate_noisy(&mut moves);
        if moves.is_empty() && in_check {
            self.buffers[ply] = moves;
            return self.terminal_score(pos, true, ply);
        }
        order_noisy(pos, &mut moves);
        for sm in moves.iter() {
            let m = sm.m;
            if in_check {
                if is_losing_quiet_evasion(pos, m, best) {
                    continue;
                }
            } else {
                if !see_ge(pos, m, 0) {
                    continue;
                }
                // Futility: even the whole victim would not lift the score to alpha.
                let gain = stand_pat + PARAMS.quiescence_futility_margin + victim_value(pos, m);
                if !m.is_promotion_like() && gain <= alpha && !pos.gives_check(m) {
                    best = best.max(gain);
                    continue;
                }
            }
            let child_balance = balance + self.flow_delta(pos, m);
            let mut child = pos.clone();
            child.play(m);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, child_balance);
            if self.aborted() {
                self.buffers[ply] = moves;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        self.shared.tt.store(key, best_move, score_to_tt(best, ply), 0, TtBound::of(best, original_alpha, beta));
        best
    }

    /// The score to report for the root move at `index`: this iteration's,
    /// else the previous iteration's. A move that only an unfinished
    /// iteration brought to the front (a fail high at an aspiration bound,
    /// then the clock) has neither, and gets the last completed iteration's
    /// best score, never the `-INFINITY` placeholder (which reads as a mate).
    pub fn reported_score(&self, index: usize) -> Option<i32> {
        let rm = &self.root_moves[index];
        [rm.score, rm.previous_score, self.completed_score].into_iter().find(|&s| s != -INFINITY)
    }

    /// Info for the root move at `index` after an iteration.
    pub fn info(&self, depth: u32, index: usize, bound: Bound, elapsed: std::time::Duration) -> Info {
        let rm = &self.root_moves[index];
        Info {
            depth,
            seldepth: rm.seldepth.max(1),
            multipv: index + 1,
            score: to_uci_score(self.reported_score(index).unwrap_or(0)),
            bound,
            nodes: self.shared.total_nodes().max(self.nodes),
            time: elapsed,
            hashfull: self.shared.tt.hashfull(),
            pv: rm.pv.clone(),
        }
    }
}

/// What the move loop's pruning and reduction rules read about their node.
#[derive(Clone, Copy)]
struct NodeView {
    depth: i32,
    ply: usize,
    is_pv: bool,
    in_check: bool,
    improving: bool,
    static_eval: i32,
    alpha: i32,
    best_score: i32,
    late_move_limit: usize,
    lineage: Lineage,
}

/// The score the pruning margins start from: the static evaluation, or the
/// TT score when its bound says the static evaluation is too pessimistic or
/// too optimistic.
fn pruning_eval(tt_entry: Option<TtEntry>, static_eval: i32, in_check: bool) -> i32 {
    match tt_entry {
        Some(entry) if !in_check && entry.score.abs() < MATE_BOUND => {
            let better = match entry.bound {
                TtBound::Exact => true,
                TtBound::Lower => entry.score > static_eval,
                TtBound::Upper => entry.score < static_eval,
            };
            if better { entry.score } else { static_eval }
        }
        _ => static_eval,
    }
}

/// An evasion not worth searching once another one has held off mate
/// (`best` is above a mated score): a block or king move that loses material
/// by SEE. With a full hand most blocks are drops that hang the piece.
fn is_losing_quiet_evasion(pos: &Position, m: Move, best: i32) -> bool {
    best > -MATE_BOUND && is_quiet(pos, m) && !see_ge(pos, m, 0)
}

/// Null move is unsafe in zugzwang-prone positions: require a piece besides
/// king and pawns, on the board or in hand.
fn has_material_to_move(pos: &Position) -> bool {
    let us = pos.turn();
    let pieces = pos.by_color(us) & !pos.by_role(shakmaty::Role::King) & !pos.by_role(shakmaty::Role::Pawn);
    pieces.any() || !pos.reserve(us).is_empty()
}
