//! The searcher: mates found, limits obeyed, MultiPV, threads, determinism.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tandem_engine::bench::run_bench;
use tandem_engine::search::{Control, Engine, Info, Limits, Score};
use tandem_engine::{parse_fen, Position, Rules};

fn pos(fen: &str, rules: &str) -> Position {
    parse_fen(fen, rules.parse::<Rules>().unwrap()).unwrap()
}

fn search(p: &Position, limits: Limits) -> (tandem_engine::search::SearchResult, Vec<Info>) {
    let engine = Engine::new();
    let mut infos = Vec::new();
    let result = engine.search(p, &[], &limits, &Control::new(), &mut |i: &Info| infos.push(i.clone()));
    (result, infos)
}

fn depth(d: u32) -> Limits {
    Limits { depth: Some(d), multipv: 1, ..Limits::default() }
}

#[test]
fn finds_a_smothered_drop_mate() {
    let (r, _) = search(&pos("6rk/6pp/8/8/8/8/8/K7[N] w - - 0 1", "crazyhouse"), depth(3));
    assert_eq!(r.best.unwrap().to_string(), "N@f7");
    assert_eq!(r.score, Some(Score::Mate(1)));
}

#[test]
fn a_blockable_check_only_freezes_under_potential_mate() {
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1[] w - - 0 1";
    let (r, _) = search(&pos(fen, "crazyhouse"), depth(3));
    assert_eq!(r.score, Some(Score::Mate(1)));
    let (r, _) = search(&pos(fen, "bughouse"), depth(3));
    assert!(matches!(r.score, Some(Score::Cp(cp)) if cp > 1000), "frozen is grave danger, not mate: {:?}", r.score);
}

#[test]
fn no_check_rules_forbid_the_mating_drop() {
    // Under tandemschach a knight drop may not give check: no smothered mate.
    let (r, _) = search(&pos("6rk/6pp/8/8/8/8/8/K7[N] w - - 0 1", "tandemschach"), depth(3));
    assert_ne!(r.best.unwrap().to_string(), "N@f7");
    assert!(!matches!(r.score, Some(Score::Mate(_))));
}

#[test]
fn go_mate_stops_at_the_mate() {
    let limits = Limits { mate: Some(1), multipv: 1, ..Limits::default() };
    let (r, _) = search(&pos("6rk/6pp/8/8/8/8/8/K7[N] w - - 0 1", "crazyhouse"), limits);
    assert_eq!(r.score, Some(Score::Mate(1)));
}

#[test]
fn a_mated_side_has_no_best_move() {
    let (r, _) = search(&pos("6rk/5Npp/8/8/8/8/8/K7[] b - - 0 1", "crazyhouse"), depth(3));
    assert_eq!(r.best, None);
}

/// A comparable number for a score: mates above every centipawn value.
fn order_key(score: Score) -> i64 {
    match score {
        Score::Cp(cp) => i64::from(cp),
        Score::Mate(n) if n > 0 => 1_000_000 - i64::from(n),
        Score::Mate(n) => -1_000_000 - i64::from(n),
    }
}

#[test]
fn multipv_lines_come_best_first_at_every_depth_and_line_one_is_played() {
    let positions = [
        ("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Nb] w KQkq - 2 3", "crazyhouse"),
        ("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Nb] w KQkq - 2 3", "bughouse"),
        ("rnbqkb1r/ppp2ppp/4pn2/3p4/3P4/2N2N2/PPP1PPPP/R1BQKB1R[] w KQkq - 0 4", "crazyhouse"),
    ];
    for (fen, rules) in positions {
        let (result, infos) = search(&pos(fen, rules), Limits { depth: Some(10), multipv: 3, ..Limits::default() });
        for depth in 1..=10 {
            let lines: Vec<&Info> = infos.iter().filter(|i| i.depth == depth && i.bound == tandem_engine::search::Bound::Exact).collect();
            let keys: Vec<i64> = lines.iter().map(|i| order_key(i.score)).collect();
            assert!(keys.windows(2).all(|w| w[0] >= w[1]), "{rules} depth {depth}: {keys:?}");
        }
        let last = infos.iter().rev().find(|i| i.multipv == 1).unwrap();
        assert_eq!(Some(last.pv[0]), result.best, "{rules}: bestmove is line 1");
    }
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let p = Position::startpos(Rules::crazyhouse());
    let (_, infos) = search(&p, Limits { depth: Some(4), multipv: 3, ..Limits::default() });
    let last: Vec<&Info> = infos.iter().filter(|i| i.depth == 4).collect();
    assert_eq!(last.iter().map(|i| i.multipv).collect::<Vec<_>>(), vec![1, 2, 3]);
    let firsts: std::collections::HashSet<_> = last.iter().map(|i| i.pv[0]).collect();
    assert_eq!(firsts.len(), 3);
}

#[test]
fn searchmoves_restricts_the_root() {
    let p = Position::startpos(Rules::chess());
    let only = p.parse_move("a2a3").unwrap();
    let (r, _) = search(&p, Limits { depth: Some(3), search_moves: vec![only], multipv: 1, ..Limits::default() });
    assert_eq!(r.best, Some(only));
}

#[test]
fn node_limit_ends_the_search() {
    let p = Position::startpos(Rules::crazyhouse());
    let (r, _) = search(&p, Limits { nodes: Some(20_000), multipv: 1, ..Limits::default() });
    assert!(r.best.is_some());
    assert!(r.nodes < 40_000, "{} nodes", r.nodes);
}

#[test]
fn stop_ends_an_infinite_search_with_a_move() {
    let engine = Arc::new(Engine::new());
    let control = Arc::new(Control::new());
    let p = Position::startpos(Rules::bughouse());
    let handle = {
        let (engine, control) = (engine.clone(), control.clone());
        std::thread::spawn(move || {
            let limits = Limits { infinite: true, multipv: 1, ..Limits::default() };
            engine.search(&p, &[], &limits, &control, &mut |_| {})
        })
    };
    std::thread::sleep(Duration::from_millis(100));
    control.stop();
    let r = handle.join().unwrap();
    assert!(r.best.is_some());
}

#[test]
fn two_threads_agree_on_a_forced_mate() {
    let engine = Engine::new();
    engine.set_threads(2);
    let p = pos("6rk/6pp/8/8/8/8/8/K7[N] w - - 0 1", "crazyhouse");
    let r = engine.search(&p, &[], &depth(5), &Control::new(), &mut |_| {});
    assert_eq!(r.best.unwrap().to_string(), "N@f7");
}

#[test]
fn movetime_is_respected_roughly() {
    // Not a timing assertion on speed: only that a timed search returns.
    let p = Position::startpos(Rules::crazyhouse());
    let start = Instant::now();
    let (r, _) = search(&p, Limits { movetime: Some(Duration::from_millis(50)), multipv: 1, ..Limits::default() });
    assert!(r.best.is_some());
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[test]
fn the_losing_side_takes_a_repetition() {
    // Queen and rook down, Black can repeat the position of two moves ago.
    let rules = Rules::chess();
    let mut p = parse_fen("6nk/1R6/2Q5/8/8/8/8/K7 w - - 10 40", rules).unwrap();
    let mut history = Vec::new();
    for m in ["c6c5", "g8f6", "c5c6"] {
        history.push(p.hash());
        let mv = p.parse_move(m).unwrap();
        p.play(mv);
    }
    let engine = Engine::new();
    let r = engine.search(&p, &history, &depth(4), &Control::new(), &mut |_| {});
    assert_eq!(r.best.unwrap().to_string(), "f6g8");
    assert_eq!(r.score, Some(Score::Cp(0)));
    // Without the history there is no repetition and Black is simply lost.
    let r = engine.search(&p, &[], &depth(4), &Control::new(), &mut |_| {});
    assert!(matches!(r.score, Some(Score::Cp(cp)) if cp < -500) || matches!(r.score, Some(Score::Mate(n)) if n < 0));
}

#[test]
fn bench_signature_is_deterministic() {
    let first = run_bench(4, 1, None).nodes;
    let second = run_bench(4, 1, None).nodes;
    assert_eq!(first, second);
    let network = || Some(tandem_engine::nnue::Networks::BuiltIn);
    assert_eq!(run_bench(4, 1, network()).nodes, run_bench(4, 1, network()).nodes, "with the network too");
}

/// A search cut by its node limit right after an aspiration fail high has
/// brought a new move to the front: that move has no score of its own yet,
/// and the placeholder must not be reported (it read as a mate in 500).
#[test]
fn a_search_cut_short_never_reports_a_false_mate() {
    let quiet = [
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[B] w KQkq - 0 2",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[N] w KQkq - 0 2",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Pp] w KQkq - 2 3",
    ];
    for fen in quiet {
        let p = pos(fen, "bughouse");
        for nodes in (1_000..6_000).step_by(250) {
            let (r, infos) = search(&p, Limits { nodes: Some(nodes), multipv: 1, ..Limits::default() });
            assert!(matches!(r.score, Some(Score::Cp(_))), "{fen} at {nodes} nodes: {:?}", r.score);
            assert!(infos.iter().all(|i| matches!(i.score, Score::Cp(_))), "{fen} at {nodes} nodes");
        }
    }
}
