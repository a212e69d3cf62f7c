//! Chess960 castling: FEN conventions (Shredder-FEN written, X-FEN read too),
//! king-takes-rook move text, the castling rules on constructed positions, a
//! rook dropped back on its home square, and random 960 games against shakmaty.
//! (Perft counts from fairy-stockfish: tests/data/chess960.perft.)

use shakmaty::fen::Fen;
use shakmaty::variant::Crazyhouse;
use shakmaty::{CastlingMode, Chess, PositionError};
use tandem_engine::{parse_fen, parse_fen_with, to_fen, Game, MoveKind, Position, Rules};
use tandem_tests::Rng;

fn pos960(fen: &str, rules: &str) -> Position {
    parse_fen_with(fen, rules.parse().unwrap(), true).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn moves(p: &Position) -> Vec<String> {
    p.legal_moves().iter().map(|m| m.to_string()).collect()
}

fn castlings(p: &Position) -> Vec<String> {
    p.legal_moves().iter().filter(|m| m.kind() == MoveKind::Castle).map(|m| m.to_string()).collect()
}

fn play(p: &mut Position, text: &str) {
    let m = p.parse_move(text).unwrap_or_else(|e| panic!("{e} in {p}"));
    p.play(m);
}

/// The back rank of start position `n` (0-959) in the Scharnagl numbering.
fn start_rank(mut n: usize) -> String {
    fn empty(rank: &[char; 8]) -> Vec<usize> {
        (0..8).filter(|&i| rank[i] == ' ').collect()
    }
    let mut rank = [' '; 8];
    rank[2 * (n % 4) + 1] = 'B';
    n /= 4;
    rank[2 * (n % 4)] = 'B';
    n /= 4;
    rank[empty(&rank)[n % 6]] = 'Q';
    n /= 6;
    const KNIGHTS: [(usize, usize); 10] = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
    let (a, b) = KNIGHTS[n];
    let free = empty(&rank);
    rank[free[a]] = 'N';
    rank[free[b]] = 'N';
    for (square, piece) in empty(&rank).into_iter().zip(['R', 'K', 'R']) {
        rank[square] = piece;
    }
    rank.iter().collect()
}

/// The FEN of start position `n` with Shredder-FEN castling rights.
fn start_fen(n: usize, reserve: &str) -> String {
    let white = start_rank(n);
    let rooks: String = white.char_indices().rev().filter(|&(_, c)| c == 'R').map(|(i, _)| (b'A' + i as u8) as char).collect();
    format!("{}/pppppppp/8/8/8/8/PPPPPPPP/{white}{reserve} w {rooks}{} - 0 1", white.to_lowercase(), rooks.to_lowercase())
}

#[test]
fn start_positions_follow_the_scharnagl_numbering() {
    assert_eq!(start_rank(0), "BBQNNRKR");
    assert_eq!(start_rank(518), "RNBQKBNR");
    assert_eq!(start_rank(959), "RKRNNQBB");
    assert_eq!(start_fen(0, ""), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
}

#[test]
fn shredder_fen_is_read_and_written_in_chess960_mode() {
    for n in [0, 1, 296, 518, 777, 959] {
        let fen = start_fen(n, "[]");
        let p = pos960(&fen, "crazyhouse");
        assert_eq!(to_fen(&p), fen);
        assert_eq!(p.castling_rooks().count(), 4, "{fen}");
        assert!(p.chess960());
    }
    // The standard start position keeps its letters in Chess960 mode.
    let p = parse_fen_with(tandem_engine::STARTPOS, Rules::crazyhouse(), true).unwrap();
    assert_eq!(to_fen(&p), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w HAha - 0 1");
}

#[test]
fn x_fen_means_the_outermost_rook_and_letters_name_an_inner_one() {
    // King b1 with rooks a1, e1 and h1: K is h1, Q is a1; E names the inner rook.
    let board = "rk2r2r/8/8/8/8/8/8/RK2R2R[] w";
    assert_eq!(to_fen(&pos960(&format!("{board} KQkq - 0 1"), "crazyhouse")), format!("{board} HAha - 0 1"));
    assert_eq!(to_fen(&pos960(&format!("{board} EAea - 0 1"), "crazyhouse")), format!("{board} EAea - 0 1"));
    assert_eq!(to_fen(&pos960(&format!("{board} Eq - 0 1"), "crazyhouse")), format!("{board} Ea - 0 1"));
    // Rights without their rook (or with the king off the back rank) are dropped.
    assert_eq!(to_fen(&pos960("r3k3/8/8/8/8/8/4K3/R6R[] w HBq - 0 1", "crazyhouse")), "r3k3/8/8/8/8/8/4K3/R6R[] w a - 0 1");
    // Two rights on one side are refused.
    let err = parse_fen_with(&format!("{board} HE - 0 1"), Rules::crazyhouse(), true).unwrap_err();
    assert!(err.to_string().contains("second king-side castling right"), "{err}");
}

#[test]
fn standard_mode_reads_file_letters_as_kqkq_and_keeps_only_standard_rights() {
    let p = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", Rules::chess()).unwrap();
    assert_eq!(to_fen(&p), tandem_engine::STARTPOS.replace("[]", ""));
    assert!(!p.chess960());
    // A 960 start position read without Chess960 mode has no castling rights.
    let p = parse_fen(&start_fen(0, "[]"), Rules::crazyhouse()).unwrap();
    assert_eq!(p.castling_rooks().count(), 0);
    assert!(castlings(&p).is_empty());
}

#[test]
fn castling_is_written_king_takes_rook_in_chess960_mode() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R[] w HAha - 0 1";
    let mut p = pos960(fen, "crazyhouse");
    assert_eq!(castlings(&p), ["e1a1", "e1h1"]);
    assert!(!moves(&p).contains(&"e1g1".to_string()));
    // The king's target is still understood where no other move is written so.
    assert_eq!(p.parse_move("e1g1").unwrap(), p.parse_move("e1h1").unwrap());
    play(&mut p, "e1h1");
    assert_eq!(to_fen(&p), "r3k2r/8/8/8/8/8/8/R4RK1[] b ha - 1 1");
    play(&mut p, "e8a8");
    assert_eq!(to_fen(&p), "2kr3r/8/8/8/8/8/8/R4RK1[] w - - 2 2");

    // Standard mode: the same castlings written e1g1 / e1c1, king-takes-rook still read.
    let mut s = parse_fen(fen, Rules::crazyhouse()).unwrap();
    assert_eq!(castlings(&s), ["e1c1", "e1g1"]);
    assert_eq!(s.parse_move("e1h1").unwrap(), s.parse_move("e1g1").unwrap());
    play(&mut s, "e1h1");
    assert_eq!(to_fen(&s), "r3k2r/8/8/8/8/8/8/R4RK1[] b kq - 1 1");
}

#[test]
fn a_king_beside_its_rook_castles_and_steps_with_different_texts() {
    // King f1, castling rook h1: f1h1 castles (king to g1, rook to f1), f1g1 is a king step.
    let mut p = pos960("4k3/8/8/8/8/8/8/5K1R[] w H - 0 1", "crazyhouse");
    assert_eq!(castlings(&p), ["f1h1"]);
    assert_eq!(p.parse_move("f1g1").unwrap().kind(), MoveKind::Normal);
    play(&mut p, "f1h1");
    assert_eq!(to_fen(&p), "4k3/8/8/8/8/8/8/5RK1[] b - - 1 1");

    // King f1, rook g1 (SP 296): king-side castling swaps them.
    let mut p = pos960(&start_fen(296, "[]"), "bughouse");
    assert_eq!(castlings(&p), ["f1g1"]);
    play(&mut p, "f1g1");
    assert!(to_fen(&p).starts_with("qbnrbkrn/pppppppp/8/8/8/8/PPPPPPPP/QBNRBRKN[] b gd "), "{p}");

    // King g1, rook h1: king-side castling leaves the king on g1, but f1 must be empty.
    assert!(castlings(&pos960("k7/8/8/8/8/8/8/4RRKR[] w HE - 0 1", "crazyhouse")).is_empty());
    let mut p = pos960("k7/8/8/8/8/8/8/4R1KR[] w HE - 0 1", "crazyhouse");
    assert_eq!(castlings(&p), ["g1e1", "g1h1"]);
    play(&mut p, "g1h1");
    assert_eq!(to_fen(&p), "k7/8/8/8/8/8/8/4RRK1[] b - - 1 1");
}

#[test]
fn the_king_may_not_cross_an_attacked_square_and_the_rook_does_not_shield() {
    // The b1 rook shields c1 from the black rook on a1 only until it castles to d1.
    let shielded = "1rk3r1/6p1/8/8/8/8/6P1/rRK3R1[] w GBgb - 0 1";
    assert_eq!(castlings(&pos960(shielded, "crazyhouse")), ["c1g1"]);
    assert_eq!(castlings(&pos960(&shielded.replace("rRK", "1RK"), "crazyhouse")), ["c1b1", "c1g1"]);
    // A square the king crosses (e1) or lands on (g1) is attacked: no king-side castling.
    assert_eq!(castlings(&pos960("1rk1r3/8/8/8/8/8/8/1RK3R1[] w GB - 0 1", "crazyhouse")), ["c1b1"]);
    assert_eq!(castlings(&pos960("1rk3r1/8/8/8/8/8/8/1RK3R1[] w GB - 0 1", "crazyhouse")), ["c1b1"]);
    // In check: no castling at all.
    assert!(castlings(&pos960("1rr4k/8/8/8/8/8/8/1RK3R1[] w GB - 0 1", "crazyhouse")).is_empty());
}

#[test]
fn a_rook_dropped_on_its_home_square_castles_again_in_tandem() {
    // King c1 with castling rooks b1 and g1. The b1 rook leaves; a rook dropped
    // back on b1 (its square in the FEN) regains the right, one on a1 does not.
    let fen = "1rk3r1/8/8/8/8/8/8/1RK3R1[RR] w GBgb - 0 1";
    for (rules, castles) in [("tandem", true), ("bughouse", false)] {
        let mut p = pos960(fen, rules);
        play(&mut p, "b1b5");
        play(&mut p, "g8h8");
        play(&mut p, "R@a1");
        play(&mut p, "h8g8");
        play(&mut p, "R@b1");
        play(&mut p, "g8h8");
        let found = castlings(&p);
        assert_eq!(found.contains(&"c1b1".to_string()), castles, "{rules}: {found:?}");
        assert!(!found.contains(&"c1a1".to_string()), "{rules}: {found:?}");
        assert!(found.contains(&"c1g1".to_string()), "{rules}: {found:?}");
    }
}

#[test]
fn bfen_and_games_keep_the_chess960_mode() {
    let fen = start_fen(0, "[]");
    let mut g = Game::from_bfen_with(&format!("{fen} | {fen}"), Rules::bughouse(), true).unwrap();
    assert_eq!(g.to_bfen(), format!("{fen} | {fen}"));
    g.play_uci(tandem_engine::BoardId::A, "f2f4").unwrap();
    assert!(g.board(tandem_engine::BoardId::B).chess960());
}

fn shakmaty_moves<P: shakmaty::Position>(pos: &P) -> Vec<String> {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_uci(CastlingMode::Chess960).to_string()).collect();
    moves.sort();
    moves
}

/// Random games from random start positions: our move sets (castling written
/// king-takes-rook) equal shakmaty's in Chess960 mode, the FEN reads back to the
/// same hash, and `gives_check` is exact.
fn check_against<P: shakmaty::Position>(rules: Rules, reserve: &str, games: usize, plies: usize, seed: u64, parse: impl Fn(&str) -> P) {
    let mut rng = Rng::new(seed);
    let mut castled = 0;
    for _ in 0..games {
        let mut ours = parse_fen_with(&start_fen(rng.below(960), reserve), rules, true).unwrap();
        for _ in 0..plies {
            let fen = to_fen(&ours);
            let mut expected = shakmaty_moves(&parse(&fen));
            let mut got = moves(&ours);
            got.sort();
            expected.sort();
            assert_eq!(got, expected, "move sets differ in {fen}");
            assert_eq!(parse_fen_with(&fen, rules, true).unwrap().hash(), ours.hash(), "hash not canonical in {fen}");
            let list = ours.legal_moves();
            for &m in &list {
                let mut after = ours.clone();
                after.play(m);
                assert_eq!(ours.gives_check(m), after.is_check(), "gives_check({m}) wrong in {fen}");
                assert_eq!(after.hash(), after.compute_hash(), "incremental hash drifted after {m} in {fen}");
            }
            if list.is_empty() {
                break;
            }
            // Castle whenever we can, half of the time, so that games reach castled positions.
            let castles: Vec<_> = list.iter().copied().filter(|m| m.kind() == MoveKind::Castle).collect();
            let m = if !castles.is_empty() && rng.below(2) == 0 { castles[rng.below(castles.len())] } else { list[rng.below(list.len())] };
            castled += usize::from(m.kind() == MoveKind::Castle);
            ours.play(m);
        }
    }
    assert!(castled > games / 2, "only {castled} castlings in {games} games");
}

#[test]
fn chess960_move_sets_match_shakmaty() {
    check_against(Rules::chess(), "", 300, 80, 960, |fen| {
        fen.parse::<Fen>().unwrap().into_position::<Chess>(CastlingMode::Chess960).unwrap()
    });
}

#[test]
fn crazyhouse960_move_sets_match_shakmaty() {
    check_against(Rules::crazyhouse(), "[]", 300, 100, 961, |fen| {
        fen.parse::<Fen>()
            .unwrap()
            .into_position::<Crazyhouse>(CastlingMode::Chess960)
            .or_else(PositionError::ignore_too_much_material)
            .unwrap()
    });
}
