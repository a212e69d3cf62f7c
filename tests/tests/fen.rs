//! FEN and BFEN: every accepted reserve form, canonical output, typed errors,
//! and no panic on any input.

use tandem_engine::{parse_bfen, parse_fen, to_fen, Color, Role, Rules};
use tandem_tests::Rng;

const CANONICAL: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Np] w KQkq - 2 3";

#[test]
fn every_reserve_form_reads_the_same() {
    let forms = [
        CANONICAL,
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R/Np w KQkq - 2 3",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[pN] w KQkq - 2 3",
    ];
    for form in forms {
        let p = parse_fen(form, Rules::bughouse()).unwrap();
        assert_eq!(to_fen(&p), CANONICAL, "{form}");
        assert_eq!(p.reserve(Color::White).count(Role::Knight), 1);
        assert_eq!(p.reserve(Color::Black).count(Role::Pawn), 1);
    }
    let empty = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
    for form in [
        empty,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-] w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
    ] {
        assert_eq!(to_fen(&parse_fen(form, Rules::bughouse()).unwrap()), empty, "{form}");
    }
}

#[test]
fn promoted_marks_survive_a_round_trip() {
    let fen = "4k3/8/8/8/8/8/8/Q~3K2N~[] w - - 0 1";
    let p = parse_fen(fen, Rules::crazyhouse()).unwrap();
    assert_eq!(p.promoted().count(), 2);
    assert_eq!(to_fen(&p), fen);
}

#[test]
fn chess_fens_are_written_without_a_reserve() {
    let p = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Rules::chess()).unwrap();
    assert_eq!(to_fen(&p), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}

#[test]
fn chess_refuses_pieces_in_hand() {
    let err = parse_fen("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", Rules::chess()).unwrap_err();
    assert!(err.to_string().contains("pieces in hand, but chess has no drops"), "{err}");
    assert!(parse_fen("4k3/8/8/8/8/8/8/4K3[] w - - 0 1", Rules::chess()).is_ok());
}

#[test]
fn impossible_castling_and_en_passant_are_dropped() {
    let p = parse_fen("4k3/8/8/8/8/8/8/4K3[] w KQkq e6 0 1", Rules::bughouse()).unwrap();
    assert_eq!(to_fen(&p), "4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
}

#[test]
fn errors_say_what_and_where() {
    let cases = [
        ("", "empty FEN"),
        ("rnbqkbnr/pppppppp/8/8/8/8/RNBQKBNR w - - 0 1", "7 ranks instead of 8"),
        ("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "rank 7 has more than 8 squares"),
        ("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "rank 7 has 7 squares instead of 8"),
        ("~nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "'~' must follow a piece"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w - - 0 1", "unexpected character 'X'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[K] w - - 0 1", "'K' is not a piece that can be held"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[N w - - 0 1", "without a closing ']'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] x - - 0 1", "expected 'w' or 'b'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQxq - 0 1", "unexpected 'x'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - e4 0 1", "not on the rank a pawn just skipped"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - x 1", "'x' is not a number"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR[] w - - 0 1", "0 white kings"),
        ("rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR[] w - - 0 1", "pawn on h8"),
        ("4k3/8/8/8/8/8/8/R3K3[] w - - 0 1 extra", "unexpected 'extra'"),
        ("4k3/4R3/8/8/8/8/8/4K3[] w - - 0 1", "side not to move is in check"),
        ("4k3/8/8/1B5Q/8/8/4R3/4K3[] b - - 0 1", "in check from 3 pieces"),
        ("rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1", "rank 6 has two digits in a row"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB11[] w KQkq - 0 1", "two digits in a row"),
    ];
    for (fen, expected) in cases {
        let err = parse_fen(fen, Rules::bughouse()).expect_err(fen);
        assert!(err.to_string().contains(expected), "{fen}: got '{err}', wanted '{expected}'");
    }
    let err = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1x", Rules::bughouse());
    assert!(err.is_err());
}

#[test]
fn only_a_steal_can_leave_the_side_not_to_move_in_check() {
    let exposed = "4k3/4R3/8/8/8/8/8/4K3[] w - - 0 1";
    assert!(parse_fen(exposed, Rules::bughouse()).is_err());
    assert!(parse_fen(exposed, "bughouse,promotion=steal".parse().unwrap()).is_ok());
    assert!(parse_fen(exposed, "crazyhouse,promotion=steal".parse().unwrap()).is_err(), "one board: nothing to steal from");
}

#[test]
fn bfen_reads_both_boards_and_locates_errors_on_b() {
    let text = "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1 | 4k3/8/8/8/8/8/8/4K3[n] b - - 0 1";
    let [a, b] = parse_bfen(text, Rules::bughouse()).unwrap();
    assert_eq!(a.reserve(Color::White).count(Role::Queen), 1);
    assert_eq!(b.reserve(Color::Black).count(Role::Knight), 1);
    assert_eq!(tandem_engine::to_bfen(&[a, b]), text);
    let err = parse_bfen("4k3/8/8/8/8/8/8/4K3[] w - - 0 1 | 4k3/8/8/8/8/8/8/4K4[] w - - 0 1", Rules::bughouse())
        .unwrap_err();
    assert_eq!(err.field, "board B");
    assert!(parse_bfen("4k3/8/8/8/8/8/8/4K3[] w - - 0 1", Rules::bughouse()).is_err());
}

/// Random garbage and random mutations of valid FENs: always a result, never a panic.
#[test]
fn no_input_panics() {
    let mut rng = Rng::new(7);
    let alphabet: Vec<char> = "pnbrqkPNBRQK12345678/[]-~ wbKQkqa-h0123456789|é\u{0}".chars().collect();
    let seeds = [CANONICAL, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq e3 0 1"];
    for i in 0..100_000 {
        let text: String = if i % 2 == 0 {
            (0..rng.below(90)).map(|_| alphabet[rng.below(alphabet.len())]).collect()
        } else {
            let mut chars: Vec<char> = seeds[rng.below(2)].chars().collect();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(chars.len());
                match rng.below(3) {
                    0 => chars[at] = alphabet[rng.below(alphabet.len())],
                    1 => {
                        chars.remove(at);
                    }
                    _ => chars.insert(at, alphabet[rng.below(alphabet.len())]),
                }
            }
            chars.into_iter().collect()
        };
        if let Ok(p) = parse_fen(&text, Rules::bughouse()) {
            // Whatever parses must round-trip and generate moves.
            let again = parse_fen(&to_fen(&p), Rules::bughouse()).unwrap();
            assert_eq!(again.hash(), p.hash(), "{text}");
            let _ = p.legal_moves();
        }
        let _ = parse_bfen(&text, Rules::bughouse());
    }
}
