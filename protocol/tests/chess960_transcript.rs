//! UCI_Chess960 against the real binary: the option, Shredder-FEN positions,
//! castling written and read king-takes-rook, and switching the mode off.

mod common;

use common::uci::{bestmove, fen, say};
use common::Tandem;

fn chess960(variant: &str) -> Tandem {
    let mut t = Tandem::start();
    assert_eq!(say(&mut t, &format!("setoption name UCI_Variant value {variant}")), Vec::<String>::new());
    assert_eq!(say(&mut t, "setoption name UCI_Chess960 value true"), Vec::<String>::new());
    t
}

/// Start position 296 (QBNRBKRN): the king on f1 beside the g1 rook, so it can castle at once.
const SP296: &str = "qbnrbkrn/pppppppp/8/8/8/8/PPPPPPPP/QBNRBKRN[] w GDgd - 0 1";
/// The Italian game up to the moment White castles.
const ITALIAN: &str = "position startpos moves e2e4 e7e5 g1f3 g8f6 f1c4 f8c5";

#[test]
fn the_option_is_offered_off_by_default() {
    let mut t = Tandem::start();
    t.send("uci");
    let lines = t.read_until(|l| l == "uciok");
    assert!(lines.iter().any(|l| l == "option name UCI_Chess960 type check default false"), "{lines:?}");
    say(&mut t, &format!("{ITALIAN} e1g1"));
    assert_eq!(fen(&mut t), "rnbqk2r/pppp1ppp/5n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4");
    let reply = say(&mut t, "setoption name UCI_Chess960 value maybe");
    assert!(reply.iter().any(|l| l.contains("error") && l.contains("true or false")), "{reply:?}");
}

#[test]
fn a_chess960_position_is_searched_and_castles_king_takes_rook() {
    let mut t = chess960("crazyhouse");
    say(&mut t, &format!("position fen {SP296}"));
    assert_eq!(fen(&mut t), SP296);
    t.send("go depth 3");
    let best = bestmove(&mut t);
    assert!(best.len() >= 4 && best != "(none)", "{best}");
    // The move it chose is legal here.
    assert_eq!(say(&mut t, &format!("position fen {SP296} moves {best}")), Vec::<String>::new());
    // Castling is read and written king-takes-rook.
    say(&mut t, &format!("position fen {SP296} moves f1g1 d7d5"));
    assert_eq!(fen(&mut t), "qbnrbkrn/ppp1pppp/8/3p4/8/8/PPPPPPPP/QBNRBRKN[] w gd - 0 2");
    say(&mut t, &format!("position fen {SP296}"));
    t.send("go depth 2 searchmoves f1g1");
    assert_eq!(bestmove(&mut t), "f1g1");
    let shown = say(&mut t, &format!("position fen {SP296} moves f1g1"));
    assert_eq!(shown, Vec::<String>::new());
    assert!(say(&mut t, "d").contains(&"info string moves f1g1".to_string()));
}

#[test]
fn the_standard_start_castles_king_takes_rook_in_chess960_mode() {
    let mut t = chess960("bughouse");
    say(&mut t, &format!("{ITALIAN} e1h1"));
    assert_eq!(fen(&mut t), "rnbqk2r/pppp1ppp/5n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1[] b ha - 5 4");
    assert!(say(&mut t, "d").contains(&"info string moves e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1h1".to_string()));
    // The king's target is read too where nothing else is written so.
    say(&mut t, &format!("{ITALIAN} e1g1"));
    assert!(say(&mut t, "d").contains(&"info string moves e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1h1".to_string()));
    say(&mut t, ITALIAN);
    t.send("go depth 1 searchmoves e1h1");
    assert_eq!(bestmove(&mut t), "e1h1");
    // Turned off, the same game is written the standard way.
    say(&mut t, &format!("{ITALIAN} e1h1"));
    assert_eq!(say(&mut t, "setoption name UCI_Chess960 value false"), Vec::<String>::new());
    assert_eq!(fen(&mut t), "rnbqk2r/pppp1ppp/5n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1[] b kq - 5 4");
    assert!(say(&mut t, "d").contains(&"info string moves e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1g1".to_string()));
    // A castled 960 game does not hold in standard mode: the board is reset, with a note.
    say(&mut t, "setoption name UCI_Chess960 value true");
    say(&mut t, &format!("position fen {SP296} moves f1g1"));
    let reply = say(&mut t, "setoption name UCI_Chess960 value false");
    assert!(reply.iter().any(|l| l.contains("reset to the start position")), "{reply:?}");
    assert_eq!(fen(&mut t), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1");
}

#[test]
fn partner_and_bfen_boards_follow_the_mode() {
    let mut t = chess960("bughouse");
    assert!(say(&mut t, "bughouse").contains(&"bughouseok".to_string()));
    let reply = say(&mut t, &format!("position bfen {SP296} | {SP296} moves f1g1"));
    assert_eq!(reply, Vec::<String>::new());
    let shown = say(&mut t, "d");
    assert!(shown.contains(&format!("info string partner fen {SP296}")), "{shown:?}");
    assert_eq!(say(&mut t, &format!("partner fen {SP296} moves f1g1")), Vec::<String>::new());
}
