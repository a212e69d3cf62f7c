//! Differential tests against shakmaty: the legal move sets of thousands of
//! random positions must agree, and copy-make must keep the hash exact.

use shakmaty::fen::Fen;
use shakmaty::variant::Crazyhouse;
use shakmaty::{CastlingMode, Chess};
use tandem_engine::{parse_fen, to_fen, Position, Rules};
use tandem_tests::Rng;

fn shakmaty_moves<P: shakmaty::Position>(pos: &P) -> Vec<String> {
    let mut moves: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect();
    moves.sort();
    moves
}

fn our_moves(pos: &Position) -> Vec<String> {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    moves.sort();
    moves
}

fn check_against<P: shakmaty::Position + Clone>(rules: Rules, games: usize, plies: usize, seed: u64, parse: impl Fn(&str) -> P) {
    let mut rng = Rng::new(seed);
    let mut positions = 0;
    for _ in 0..games {
        let mut ours = Position::startpos(rules);
        for _ in 0..plies {
            let fen = to_fen(&ours);
            let theirs = parse(&fen);
            assert_eq!(our_moves(&ours), shakmaty_moves(&theirs), "move sets differ in {fen}");
            assert_eq!(ours.count_legal() as usize, theirs.legal_moves().len(), "count differs in {fen}");
            let reparsed = parse_fen(&fen, rules).unwrap();
            assert_eq!(reparsed.hash(), ours.hash(), "hash not canonical in {fen}");
            positions += 1;
            let moves = ours.legal_moves();
            let checks = ours.check_squares();
            for &m in &moves {
                let mut after = ours.clone();
                after.play(m);
                assert_eq!(ours.gives_check(m), after.is_check(), "gives_check({m}) wrong in {fen}");
                assert_eq!(ours.gives_check_with(m, &checks), after.is_check(), "gives_check_with({m}) wrong in {fen}");
            }
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            let before = ours.clone();
            let mut child = ours.clone();
            child.play(m);
            assert_eq!(ours, before, "copy-make changed the parent");
            assert_eq!(child.hash(), child.compute_hash(), "incremental hash drifted after {m} in {fen}");
            ours = child;
        }
    }
    assert!(positions > games);
}

#[test]
fn chess_move_sets_match_shakmaty() {
    check_against(Rules::chess(), 300, 120, 1, |fen| {
        fen.parse::<Fen>().unwrap().into_position::<Chess>(CastlingMode::Standard).unwrap()
    });
}

#[test]
fn crazyhouse_move_sets_match_shakmaty() {
    check_against(Rules::crazyhouse(), 300, 160, 2, |fen| {
        fen.parse::<Fen>().unwrap().into_position::<Crazyhouse>(CastlingMode::Standard).unwrap()
    });
}

