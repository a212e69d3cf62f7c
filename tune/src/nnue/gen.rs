//! Self-play games that label positions for training: each move a search
//! of a fixed node count, each kept position saved with that search's score
//! and the game's result.
//!
//! Games start from an opening line with a few random moves after it, so no
//! two games repeat. Kept are quiet positions only: not in check, the best
//! move not a capture, the score not a mate. Two-board games move on a board
//! picked at random (a frozen board waits); the first board to end decides
//! the match, and every position of both boards gets its team's result.
//!
//! The search may play by other rules than the game (`search_rules`): a
//! bughouse position searched as crazyhouse keeps what its captures win in
//! the capturer's hand, so its score sees pieces arrive in the hands, as
//! they do in bughouse from the other board, where a bughouse search of one
//! board sees every hand fixed for the rest of the game.

use std::collections::HashSet;

use tandem_engine::search::{Control, Engine, Limits, Score};
use tandem_engine::{parse_fen, BoardId, Color, Game, Position, Rules, Seat, Status, Team};

use super::data::Record;

/// Mates, and scores beyond this, end the game for the side they favour.
const DECISIVE_CP: i32 = 2500;
/// A game still going after this many moves (both boards together) is a draw.
const MAX_MOVES: usize = 400;

#[derive(Clone, Debug)]
pub struct GenConfig {
    pub rules: Rules,
    /// The rules each position is searched by (the game's own when `None`).
    pub search_rules: Option<Rules>,
    pub nodes: u64,
    /// Random moves played after the opening line.
    pub random_moves: usize,
}

/// A small deterministic generator (xorshift64*), one per game.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }
}

/// Plays one game from `opening` (a FEN, or a BFEN for two-board rules) and
/// returns its labelled positions (none if the opening does not parse).
pub fn play_game(engine: &Engine, config: &GenConfig, opening: &str, seed: u64) -> Vec<Record> {
    let Some(mut game) = start(opening, config.rules) else { return Vec::new() };
    let mut rng = Rng::new(seed);
    let boards: &[BoardId] = if config.rules.is_two_board() { &BoardId::BOTH } else { &[BoardId::A] };
    for _ in 0..config.random_moves {
        let Some(board) = pick_board(&game, boards, &mut rng) else { return Vec::new() };
        let moves = game.legal_moves(board);
        if game.play(board, moves[rng.below(moves.len())]).is_err() {
            return Vec::new();
        }
    }
    // Each kept position: its board's side to move (as a team: a board A
    // white is on team 1, a board B white on team 2) and the record.
    let mut kept: Vec<(bool, Record)> = Vec::new();
    let limits = Limits { nodes: Some(config.nodes), multipv: 1, ..Limits::default() };
    let mut team1_score = None;
    for _ in 0..MAX_MOVES {
        let ended = boards.iter().any(|&b| !matches!(game.status(b), Status::Ongoing | Status::Frozen));
        let Some(board) = pick_board(&game, boards, &mut rng).filter(|_| !ended) else {
            team1_score = Some(ended_result(&game, boards));
            break;
        };
        let pos = game.board(board).clone();
        let history: Vec<u64> = game.history(board).hashes().collect();
        let before = &history[..history.len().saturating_sub(1)];
        let searched = searched_as(&pos, config.search_rules);
        let result = engine.search(searched.as_ref().unwrap_or(&pos), before, &limits, &Control::new(), &mut |_| {});
        let Some(best) = result.best else { break };
        let team1 = on_team1(board, pos.turn());
        match result.score {
            Some(Score::Mate(n)) => {
                team1_score = Some(if (n > 0) == team1 { 1 } else { -1 });
                break;
            }
            Some(Score::Cp(cp)) if cp.abs() >= DECISIVE_CP => {
                team1_score = Some(if (cp > 0) == team1 { 1 } else { -1 });
                break;
            }
            Some(Score::Cp(cp)) if !pos.is_check() && !pos.is_capture(best) => {
                kept.push((team1, Record::new(&pos, cp as i16, 0)));
            }
            _ => {}
        }
        if game.play(board, best).is_err() {
            break;
        }
    }
    let team1_score = team1_score.unwrap_or(0);
    kept.into_iter()
        .map(|(team1, mut record)| {
            record.result = if team1 { team1_score } else { -team1_score };
            record
        })
        .collect()
}

/// `pos` under other rules (its pieces, hands, promotions, castling and
/// counters unchanged), or `None` when no rules are given or it is not a
/// position under them (a search by the game's rules then labels it).
fn searched_as(pos: &Position, rules: Option<Rules>) -> Option<Position> {
    parse_fen(&pos.to_string(), rules?).ok()
}

/// The game of an opening from `tandem_arena::openings` (a BFEN for two-board rules, else a FEN).
fn start(opening: &str, rules: Rules) -> Option<Game> {
    if rules.is_two_board() {
        return Game::from_bfen(opening, rules).ok();
    }
    let board = parse_fen(opening, rules).ok()?;
    Some(Game::from_boards(rules, [board, Position::startpos(rules)]))
}

/// Whether `color` on `board` plays for team 1 (the first board to end decides for both teams).
fn on_team1(board: BoardId, color: Color) -> bool {
    Seat { board, color }.team() == Team::One
}

/// A board whose side to move can move, at random; `None` when none can.
fn pick_board(game: &Game, boards: &[BoardId], rng: &mut Rng) -> Option<BoardId> {
    let movable: Vec<BoardId> = boards.iter().copied().filter(|&b| game.status(b) == Status::Ongoing).collect();
    (!movable.is_empty()).then(|| movable[rng.below(movable.len())])
}

/// Team 1's result once a board has ended or none can move: a mated side's
/// team loses, anything else is a draw.
fn ended_result(game: &Game, boards: &[BoardId]) -> i8 {
    for &board in boards {
        if game.status(board) == Status::Checkmate {
            return if on_team1(board, game.board(board).turn()) { -1 } else { 1 };
        }
    }
    0
}

/// Keeps each position once (by its pieces, hands and side to move).
#[derive(Default)]
pub struct Dedup {
    seen: HashSet<u64>,
    hasher: std::hash::RandomState,
}

impl Dedup {
    pub fn first_time(&mut self, record: &Record) -> bool {
        use std::hash::BuildHasher;
        self.seen.insert(self.hasher.hash_one((&record.snapshot, record.turn)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPENING: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 2";

    fn config(rules: &str, search_rules: Option<&str>) -> GenConfig {
        GenConfig { rules: rules.parse().unwrap(), search_rules: search_rules.map(|r| r.parse().unwrap()), nodes: 300, random_moves: 4 }
    }

    #[test]
    fn a_bughouse_position_searched_as_crazyhouse_keeps_its_pieces_and_hands() {
        let bughouse: Rules = "bughouse".parse().unwrap();
        let fen = "r1bqk2r/ppp2ppp/2n5/3Q~4/8/8/PPP2PPP/RNB1KB1R[NNbpp] w KQkq - 0 9";
        let pos = parse_fen(fen, bughouse).unwrap();
        let crazyhouse = searched_as(&pos, Some("crazyhouse".parse().unwrap())).unwrap();
        assert_eq!(crazyhouse.to_string(), pos.to_string());
        assert!(!crazyhouse.rules().is_two_board());
        assert!(searched_as(&pos, None).is_none());
    }

    #[test]
    fn every_rule_family_of_the_loop_generates_positions_with_a_result() {
        for (rules, search_rules) in [("crazyhouse", None), ("bughouse", None), ("bughouse", Some("crazyhouse"))] {
            let engine = Engine::new();
            let config = config(rules, search_rules);
            let opening = if config.rules.is_two_board() { format!("{OPENING} | {OPENING}") } else { OPENING.to_string() };
            let records: Vec<Record> = (0..3).flat_map(|seed| play_game(&engine, &config, &opening, seed)).collect();
            assert!(records.len() > 20, "{rules}/{search_rules:?}: {} positions", records.len());
            for record in &records {
                assert!((-1..=1).contains(&record.result));
            }
        }
    }
}
