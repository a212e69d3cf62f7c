//! Exhaustive mate proofs: does the side to move force checkmate within n
//! moves, against every defence?
//!
//! Alpha-beta prunes and reduces, so the first mate it reports need not be the
//! shortest, and a quiet first move (a king step that clears a square for a
//! drop, a quiet knight drop under no-check rules) can hide a short mate from it
//! until several plies past the mate's length. The prover visits every move of
//! the attacker and every defence (an AND/OR tree, no pruning beyond cutoffs),
//! so "mate within n" proven after "no mate within n - 1" is the shortest mate.
//!
//! Drop chess is wide (100 to 200 moves a side), so proofs are for short mates
//! under a deadline: a mate in 1 or 2, or its refutation, takes milliseconds; a
//! refuted mate in 3 up to seconds; a refuted mate in 4 far more.
//!
//! What it models: one board, as its rules say (a capture fills the partner's
//! hand in bughouse). Pieces that may arrive from the other board are not
//! modelled, as in every single-board mate search. Only
//! [`Status::Checkmate`] ends a line as mate: a frozen king (a potential mate,
//! RULES.md §3) or a stalemate ends it in the defender's favour. History is not
//! consulted: a shortest forced mate never needs a repeated position.
//!
//! Proven bounds are kept per position (by Zobrist hash, attacker to move): the
//! smallest n with a proven mate and the largest n with a proven refutation,
//! so iterating n = 1, 2, … reuses the earlier iterations' work.

use std::collections::HashMap;
use std::time::Instant;

use super::limits::Control;
use crate::moves::Move;
use crate::position::Position;
use crate::status::Status;

/// The answer of one proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateProof {
    /// A forced mate: the attacker's moves and the longest-resisting defences,
    /// ending with the mating move.
    Mate(Vec<Move>),
    /// Every attacker move has a defence that avoids mate within the limit.
    NoMate,
    /// Stopped (control, deadline or node budget) before an answer.
    Stopped,
}

/// What is known of one position with the attacker to move.
#[derive(Clone, Copy, Default)]
struct Known {
    /// Smallest n with a proven mate within n (0: none proven).
    mate_within: u8,
    /// The first move of that mate.
    mate_move: Option<Move>,
    /// Largest n with a proven absence of mate within n (0: none proven).
    none_within: u8,
}

/// Positions visited between checks of the clock and the stop flag (the first visit checks).
const CHECK_EVERY: u64 = 1024;
/// Entries kept before the table is cleared: about 40 MB at most, freed with the prover.
const TABLE_LIMIT: usize = 1_000_000;
/// Longest mate the prover accepts (u8 bounds in the table, and far beyond what it can refute).
pub const PROVER_MAX_MOVES: u32 = 20;

/// An exhaustive mate prover that `control`, a deadline and a node budget can stop.
pub struct MateProver<'a> {
    control: &'a Control,
    deadline: Option<Instant>,
    node_budget: Option<u64>,
    nodes: u64,
    stopped: bool,
    table: HashMap<u64, Known>,
    /// The last refutation found for each number of moves left: tried first.
    refutations: [Option<Move>; PROVER_MAX_MOVES as usize + 1],
}

impl<'a> MateProver<'a> {
    pub fn new(control: &'a Control, deadline: Option<Instant>, node_budget: Option<u64>) -> MateProver<'a> {
        MateProver {
            control,
            deadline,
            node_budget,
            nodes: 0,
            stopped: false,
            table: HashMap::new(),
            refutations: [None; PROVER_MAX_MOVES as usize + 1],
        }
    }

    /// Lets a stopped prover go on until `deadline`, keeping what it proved.
    pub fn extend_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.stopped = false;
    }

    /// Positions visited so far, over all proofs of this prover.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the side to move of `root` mates within `n` moves, starting
    /// with one of `first_moves` (all legal moves when empty).
    pub fn prove(&mut self, root: &Position, n: u32, first_moves: &[Move]) -> MateProof {
        let n = n.clamp(1, PROVER_MAX_MOVES);
        let legal = root.legal_moves();
        let moves: Vec<Move> = legal.iter().copied().filter(|m| first_moves.is_empty() || first_moves.contains(m)).collect();
        let moves = self.attacker_order(root, &moves, n);
        match self.first_mating_move(root, &moves, n) {
            None => MateProof::Stopped,
            Some(None) => MateProof::NoMate,
            Some(Some(first)) => MateProof::Mate(self.line(root, first, n)),
        }
    }

    /// The shortest mate of at most `max` moves, trying 1, 2, … in turn: the
    /// mate and its length, or how far the absence of a mate was proven (with
    /// `Stopped` or `NoMate` as the proof).
    pub fn shortest(&mut self, root: &Position, max: u32, first_moves: &[Move]) -> (MateProof, u32) {
        for n in 1..=max.min(PROVER_MAX_MOVES) {
            match self.prove(root, n, first_moves) {
                MateProof::NoMate => {}
                proof => return (proof, n),
            }
        }
        (MateProof::NoMate, max.min(PROVER_MAX_MOVES))
    }

    /// One more position visited; false once the search must stop.
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes % CHECK_EVERY == 1 {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            let spent = self.node_budget.is_some_and(|b| self.nodes >= b);
            if late || spent || self.control.is_stopped() {
                self.stopped = true;
            }
        }
        !self.stopped
    }

    /// Attacker to move: a mate within `n` moves? `None` when stopped.
    fn attacker_mates(&mut self, pos: &Position, n: u32) -> Option<bool> {
        if !self.visit() {
            return None;
        }
        let known = self.table.get(&pos.hash()).copied().unwrap_or_default();
        if known.mate_within != 0 && u32::from(known.mate_within) <= n {
            return Some(true);
        }
        if u32::from(known.none_within) >= n {
            return Some(false);
        }
        if n == 1 {
            let checks = pos.check_squares();
            let mate = pos.legal_moves().iter().copied().find(|&m| pos.gives_check_with(m, &checks) && mates(pos, m));
            self.remember(pos, n, mate);
            return Some(mate.is_some());
        }
        let moves = self.attacker_order(pos, &pos.legal_moves(), n);
        // The table entry may be gone once this returns (a full table is cleared).
        let mate = self.first_mating_move(pos, &moves, n)?;
        self.remember(pos, n, mate);
        Some(mate.is_some())
    }

    fn first_mating_move(&mut self, pos: &Position, moves: &[Move], n: u32) -> Option<Option<Move>> {
        for &m in moves {
            let mut after = pos.clone();
            after.play(m);
            if self.defender_is_mated(&after, n - 1)? {
                return Some(Some(m));
            }
        }
        Some(None)
    }

    /// Defender to move, the attacker with `n` moves left after the reply: is
    /// every defence mated? `None` when stopped.
    fn defender_is_mated(&mut self, pos: &Position, n: u32) -> Option<bool> {
        if !self.visit() {
            return None;
        }
        let mut replies = pos.legal_moves();
        if replies.is_empty() {
            return Some(pos.status() == Status::Checkmate);
        }
        if n == 0 {
            return Some(false);
        }
        if let Some(i) = self.refutations[n as usize].and_then(|r| replies.iter().position(|&m| m == r)) {
            replies.swap(0, i);
        }
        for &r in replies.iter() {
            let mut after = pos.clone();
            after.play(r);
            if !self.attacker_mates(&after, n)? {
                self.refutations[n as usize] = Some(r);
                return Some(false);
            }
        }
        Some(true)
    }

    fn remember(&mut self, pos: &Position, n: u32, mate: Option<Move>) {
        if self.table.len() >= TABLE_LIMIT {
            self.table.clear();
        }
        let entry = self.table.entry(pos.hash()).or_default();
        let n = n as u8;
        match mate {
            Some(m) if entry.mate_within == 0 || n < entry.mate_within => {
                entry.mate_within = n;
                entry.mate_move = Some(m);
            }
            Some(_) => {}
            None => entry.none_within = entry.none_within.max(n),
        }
    }

    /// Checks first (the only moves that can mate at once, and the usual start
    /// of a forced mate), then captures, then the rest; only checks for n = 1.
    fn attacker_order(&self, pos: &Position, moves: &[Move], n: u32) -> Vec<Move> {
        let checks = pos.check_squares();
        let rank = |m: Move| -> u8 {
            if pos.gives_check_with(m, &checks) {
                0
            } else if pos.is_capture(m) {
                1
            } else {
                2
            }
        };
        let mut ranked: Vec<(u8, Move)> = moves.iter().map(|&m| (rank(m), m)).filter(|&(r, _)| n > 1 || r == 0).collect();
        ranked.sort_by_key(|&(r, _)| r);
        ranked.into_iter().map(|(_, m)| m).collect()
    }

    /// The line of a proven mate in `n` starting with `first`: each defence is
    /// the one that delays mate longest, each attack the shortest mate left.
    fn line(&mut self, root: &Position, first: Move, n: u32) -> Vec<Move> {
        let mut line = vec![first];
        let mut pos = root.clone();
        pos.play(first);
        let mut left = n - 1;
        while left > 0 {
            let Some((reply, need)) = self.longest_defence(&pos, left) else {
                break;
            };
            line.push(reply);
            pos.play(reply);
            let Some(attack) = self.mating_move(&pos, need) else {
                break;
            };
            line.push(attack);
            pos.play(attack);
            left = need - 1;
        }
        line
    }

    /// The defence whose mate needs the most moves (every defence is mated within `left`).
    fn longest_defence(&mut self, pos: &Position, left: u32) -> Option<(Move, u32)> {
        let mut longest: Option<(Move, u32)> = None;
        for &r in pos.legal_moves().iter() {
            let mut after = pos.clone();
            after.play(r);
            let need = (1..=left).find(|&k| self.attacker_mates(&after, k) == Some(true))?;
            if longest.is_none_or(|(_, l)| need > l) {
                longest = Some((r, need));
            }
        }
        longest
    }

    /// The first move of a proven mate within `n` (searched again if the table lost it).
    fn mating_move(&mut self, pos: &Position, n: u32) -> Option<Move> {
        if !self.attacker_mates(pos, n)? {
            return None;
        }
        if let Some(m) = self.table.get(&pos.hash()).and_then(|k| k.mate_move) {
            return Some(m);
        }
        let moves = self.attacker_order(pos, &pos.legal_moves(), n);
        self.first_mating_move(pos, &moves, n)?
    }
}

/// Whether `m` checkmates (the caller knows it gives check).
fn mates(pos: &Position, m: Move) -> bool {
    let mut after = pos.clone();
    after.play(m);
    after.status() == Status::Checkmate
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse_fen, Rules};

    fn board(fen: &str, rules: &str) -> Position {
        parse_fen(fen, rules.parse::<Rules>().expect("rules")).expect("FEN")
    }

    fn shortest(pos: &Position, max: u32) -> (MateProof, u32) {
        let control = Control::new();
        MateProver::new(&control, None, None).shortest(pos, max, &[])
    }

    /// Plays `line` and says whether it ends in checkmate.
    fn ends_in_mate(pos: &Position, line: &[Move]) -> bool {
        let mut end = pos.clone();
        for &m in line {
            assert!(end.legal_moves().contains(&m), "{m} is not legal in the line");
            end.play(m);
        }
        end.status() == Status::Checkmate
    }

    #[test]
    fn back_rank_mate_is_a_mate_only_where_no_piece_can_arrive() {
        let fen = "6k1/5ppp/8/8/8/8/8/R5K1[] w - - 0 1";
        for rules in ["crazyhouse", "bughouse,mate=standard"] {
            let pos = board(fen, rules);
            let (MateProof::Mate(line), 1) = shortest(&pos, 1) else { panic!("{rules}: no mate in 1") };
            assert_eq!(line.iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["a1a8"], "{rules}");
            assert!(ends_in_mate(&pos, &line), "{rules}");
        }
        // Under potential mate a piece could still arrive to block on b8-f8: the king is frozen, not mated.
        assert_eq!(shortest(&board(fen, "bughouse"), 1), (MateProof::NoMate, 1));
    }

    #[test]
    fn a_quiet_first_move_mate_in_two_is_found_and_its_line_ends_in_mate() {
        // Fairy-Stockfish self-play, crazyhouse: 1. e1e2 (quiet) … 2. g6g8#.
        let pos = board("2bk2nN/rp1p4/2pQ2Qp/p2p1pp1/4pP2/N1N3P1/PPP2p1P/R1B1KB1R[RB] w KQ - 0 23", "crazyhouse");
        let (MateProof::Mate(line), n) = shortest(&pos, 3) else { panic!("no mate") };
        assert_eq!(n, 2);
        assert_eq!(line.len(), 3);
        assert!(!pos.gives_check(line[0]));
        assert!(ends_in_mate(&pos, &line));
    }

    #[test]
    fn no_mate_is_proven_absent_and_a_budget_stops_the_proof() {
        let start = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1", "crazyhouse");
        assert_eq!(shortest(&start, 2), (MateProof::NoMate, 2));
        // Full hands: many checking drops, far more than a thousand positions to refute.
        let wide = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QRBNPqrbnp] w KQkq - 0 1", "crazyhouse");
        let control = Control::new();
        let mut prover = MateProver::new(&control, None, Some(CHECK_EVERY));
        assert_eq!(prover.prove(&wide, 3, &[]), MateProof::Stopped);
        let stopped = Control::new();
        stopped.stop();
        assert_eq!(MateProver::new(&stopped, None, None).prove(&start, 3, &[]), MateProof::Stopped);
    }

    #[test]
    fn first_moves_restrict_the_proof() {
        let pos = board("6k1/5ppp/8/8/8/8/8/R5K1[] w - - 0 1", "crazyhouse");
        let a1a7 = pos.parse_move("a1a7").expect("legal");
        let control = Control::new();
        let mut prover = MateProver::new(&control, None, None);
        assert_eq!(prover.prove(&pos, 1, &[a1a7]), MateProof::NoMate);
    }
}
