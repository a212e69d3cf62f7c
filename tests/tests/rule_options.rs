//! One test (or more) per option of RULES.md §2 and per **(choice)** the rules
//! reference asks us to make, on small constructed positions.

use tandem_engine::{
    parse_fen, BoardId, Color, Game, MoveKind, Position, Role, Rules, Square, Status,
};

fn pos(fen: &str, rules: &str) -> Position {
    parse_fen(fen, rules.parse().unwrap()).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn game(bfen: &str, rules: &str) -> Game {
    Game::from_bfen(bfen, rules.parse().unwrap()).unwrap_or_else(|e| panic!("{bfen}: {e}"))
}

fn moves(p: &Position) -> Vec<String> {
    p.legal_moves().iter().map(|m| m.to_string()).collect()
}

fn drops_of(p: &Position, role: Role) -> usize {
    p.legal_moves().iter().filter(|m| m.is_drop() && m.role() == role).count()
}

const LONE_KINGS_WHITE_HOLDS_N: &str = "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1";

#[test]
fn drop_checks_allow_counts_every_empty_square() {
    assert_eq!(drops_of(&pos(LONE_KINGS_WHITE_HOLDS_N, "bughouse"), Role::Knight), 62);
}

#[test]
fn drop_checks_no_check_forbids_the_four_checking_knight_squares() {
    let p = pos(LONE_KINGS_WHITE_HOLDS_N, "tandemschach");
    assert_eq!(drops_of(&p, Role::Knight), 58);
    for square in ["N@d6", "N@f6", "N@c7", "N@g7"] {
        assert!(!moves(&p).contains(&square.to_string()), "{square} gives check");
    }
}

/// Black king h8 behind its pawns; a rook dropped on a8-f8 mates, on g8 it is taken.
const BACK_RANK: &str = "7k/6pp/8/8/8/8/8/K7[R] w - - 0 1";

#[test]
fn drop_checks_no_mate_forbids_only_the_mating_drops() {
    assert_eq!(drops_of(&pos(BACK_RANK, "crazyhouse"), Role::Rook), 60);
    assert_eq!(drops_of(&pos(BACK_RANK, "crazyhouse,drop_checks=no-check"), Role::Rook), 53);
    let no_mate = pos(BACK_RANK, "crazyhouse,drop_checks=no-mate");
    assert_eq!(drops_of(&no_mate, Role::Rook), 54);
    assert!(moves(&no_mate).contains(&"R@g8".to_string()), "a check that is not mate stays legal");
}

#[test]
fn no_mate_uses_the_mate_rule_in_force() {
    // (choice) Under `mate = potential` the back-rank drop only freezes Black
    // (a piece could still arrive to block on f8/g8), so it is not a mate.
    let p = pos(BACK_RANK, "bughouse,drop_checks=no-mate");
    assert_eq!(drops_of(&p, Role::Rook), 60);
}

const LONE_KINGS_WHITE_HOLDS_P: &str = "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1";

#[test]
fn pawn_drop_ranks() {
    assert_eq!(drops_of(&pos(LONE_KINGS_WHITE_HOLDS_P, "bughouse"), Role::Pawn), 48);
    assert_eq!(drops_of(&pos(LONE_KINGS_WHITE_HOLDS_P, "bughouse,pawn_drops=ranks-2-6"), Role::Pawn), 40);
    assert_eq!(drops_of(&pos(LONE_KINGS_WHITE_HOLDS_P, "bughouse,pawn_drops=none"), Role::Pawn), 0);
    // The 7th rank is counted from the dropper's side: Black may not drop on rank 2.
    let black = pos("4k3/8/8/8/8/8/8/4K3[p] b - - 0 1", "bughouse,pawn_drops=ranks-2-6");
    assert!(black.legal_moves().iter().all(|m| !m.is_drop() || m.to().rank() != shakmaty::Rank::Second));
    assert_eq!(drops_of(&black, Role::Pawn), 40);
}

#[test]
fn dropped_pawn_double_step_can_be_taken_en_passant() {
    let mut g = game(
        "4k3/8/8/8/3p4/8/8/4K3[P] w - - 0 1 | 4k3/8/8/8/8/8/8/4K3[] w - - 0 1",
        "bughouse",
    );
    for m in ["P@e2", "e8d8", "e2e4"] {
        g.play_uci(BoardId::A, m).unwrap();
    }
    assert_eq!(g.board(BoardId::A).ep_square(), Some(Square::E3));
    let ep = g.play_uci(BoardId::A, "d4e3").unwrap();
    assert_eq!(ep.kind(), MoveKind::EnPassant);
    // The captured pawn goes to Black's partner, White on B... as a white pawn.
    assert_eq!(g.board(BoardId::B).reserve(Color::White).count(Role::Pawn), 1);
}

#[test]
fn promotion_revert_marks_the_piece_and_it_goes_over_as_a_pawn() {
    let mut g = game(
        "1r2k3/P7/8/8/8/8/8/4K3[] w - - 0 1 | 4k3/8/8/8/8/8/8/4K3[] w - - 0 1",
        "bughouse",
    );
    g.play_uci(BoardId::A, "a7a8q").unwrap();
    assert!(g.board(BoardId::A).promoted().contains(Square::A8));
    assert!(g.to_bfen().starts_with("Q~r2k3/"), "{}", g.to_bfen());
    g.play_uci(BoardId::A, "b8a8").unwrap();
    // Captured by Black on A: goes to White on B as a pawn, not a queen.
    let reserve = g.board(BoardId::B).reserve(Color::White);
    assert_eq!((reserve.count(Role::Pawn), reserve.count(Role::Queen)), (1, 0));
}

#[test]
fn crazyhouse_captures_go_to_the_capturer_in_its_colour() {
    let mut p = pos("4k2r/8/8/8/8/8/8/4K2Q~[] b - - 0 1", "crazyhouse");
    p.play(p.parse_move("h8h1").unwrap());
    assert_eq!(p.reserve(Color::Black).count(Role::Pawn), 1, "promoted queen comes back as a pawn");
    assert_eq!(p.to_string(), "4k3/8/8/8/8/8/8/4K2r[p] w - - 0 2");
}

const STEAL: &str = "k7/4P3/8/8/8/8/8/4K3[] w - - 0 1 | 4k3/8/8/8/8/8/8/1N2K3[] w - - 0 1";

#[test]
fn steal_takes_a_piece_of_the_promoters_colour_from_the_other_board() {
    let mut g = game(STEAL, "bughouse,promotion=steal");
    let promotions: Vec<String> = g
        .legal_moves(BoardId::A)
        .iter()
        .filter(|m| m.is_promotion_like())
        .map(|m| m.to_string())
        .collect();
    assert_eq!(promotions, vec!["e7e8n"]);
    g.play_uci(BoardId::A, "e7e8n").unwrap();
    assert_eq!(g.board(BoardId::A).piece_at(Square::E8).map(|p| p.role), Some(Role::Knight));
    assert!(g.board(BoardId::B).pieces(Color::White, Role::Knight).is_empty());
    assert_eq!(g.board(BoardId::B).reserve(Color::White).count(Role::Pawn), 1);
}

#[test]
fn steal_with_nothing_to_take_blocks_the_pawn() {
    // (choice) No white piece on B: the pawn cannot move to the last rank.
    let g = game(
        "k7/4P3/8/8/8/8/8/4K3[] w - - 0 1 | 4k3/8/8/8/8/8/8/4K3[] w - - 0 1",
        "bughouse,promotion=steal",
    );
    assert!(g.legal_moves(BoardId::A).iter().all(|m| m.from() != Square::E7));
    // A single board without the other board's position generates no steal either.
    let alone = pos("k7/4P3/8/8/8/8/8/4K3[] w - - 0 1", "bughouse,promotion=steal");
    assert!(alone.legal_moves().iter().all(|m| m.from() != Square::E7));
}

#[test]
fn fall_through_sends_the_pawn_to_the_opponents_partner() {
    let mut g = game(
        "k2r4/4P3/8/8/8/8/8/4K3[] w - - 0 1 | 4k3/8/8/8/8/8/8/4K3[] w - - 0 1",
        "bughouse,promotion=fall-through",
    );
    let texts: Vec<String> = g.legal_moves(BoardId::A).iter().filter(|m| m.is_promotion_like()).map(|m| m.to_string()).collect();
    assert_eq!(texts.len(), 2, "{texts:?}");
    g.play_uci(BoardId::A, "e7d8").unwrap();
    let a = g.board(BoardId::A);
    assert!(a.by_role(Role::Pawn).is_empty() && a.by_role(Role::Rook).is_empty());
    let b = g.board(BoardId::B);
    // (choice) The pawn goes as if Black had captured it: to White on B.
    assert_eq!(b.reserve(Color::White).count(Role::Pawn), 1);
    // The captured rook flows normally: to White-A's partner, Black on B.
    assert_eq!(b.reserve(Color::Black).count(Role::Rook), 1);
}

#[test]
fn fall_through_must_not_open_a_line_to_the_own_king() {
    // The bishop on c8 shields the king on h8 from the rook on a8; taking it
    // and falling through would leave the king in check.
    let p = pos("r1b4K/1P6/8/8/8/8/8/k7[] w - - 0 1", "bughouse,promotion=fall-through");
    assert!(!moves(&p).contains(&"b7c8".to_string()));
    let revert = pos("r1b4K/1P6/8/8/8/8/8/k7[] w - - 0 1", "bughouse");
    assert!(moves(&revert).contains(&"b7c8q".to_string()));
}

#[test]
fn reenter_puts_the_pawn_back_or_into_the_reserve() {
    let p = pos("k7/4P3/8/8/8/8/8/4K3[] w - - 0 1", "bughouse,promotion=reenter");
    let texts = moves(&p);
    assert!(texts.contains(&"e7e8@".to_string()));
    assert!(texts.contains(&"e7e8@d4".to_string()));
    // 48 empty squares on ranks 2-7 (e7 included once the pawn has left), the
    // reserve, and five king moves.
    assert_eq!(texts.len(), 48 + 1 + 5);
    let mut after = p.clone();
    after.play(p.parse_move("e7e8@").unwrap());
    assert_eq!(after.reserve(Color::White).count(Role::Pawn), 1);
}

#[test]
fn reentry_must_leave_the_own_king_safe() {
    // In check along the first rank, where no pawn may re-enter: no promotion helps.
    let p = pos("k7/4P3/8/8/8/8/8/r3K3[] w - - 0 1", "bughouse,promotion=reenter");
    assert!(p.legal_moves().iter().all(|m| !m.is_promotion_like()));
    // In check along the e-file: only re-entry on e2..e7 blocks it.
    let q = pos("4r2k/1P6/8/8/8/8/8/4K3[] w - - 0 1", "bughouse,promotion=reenter");
    let reentries: Vec<String> = q.legal_moves().iter().filter(|m| m.is_promotion_like()).map(|m| m.to_string()).collect();
    assert_eq!(reentries, ["b7b8@e2", "b7b8@e3", "b7b8@e4", "b7b8@e5", "b7b8@e6", "b7b8@e7"]);
}

#[test]
fn dropped_rook_on_its_corner_may_castle_in_tandem_only() {
    let fen = "4k3/8/8/8/8/8/8/R3K3[R] w Q - 0 1";
    for (rules, castles) in [("tandem", true), ("bughouse", false)] {
        let mut p = pos(fen, rules);
        p.play(p.parse_move("R@h1").unwrap());
        p.play(p.parse_move("e8d8").unwrap());
        assert_eq!(moves(&p).contains(&"e1g1".to_string()), castles, "{rules}");
        assert!(moves(&p).contains(&"e1c1".to_string()));
    }
}

/// White king h1 checked along the first rank by a distant rook, no move.
const DISTANT_CHECK: &str = "4k3/8/8/8/8/8/6PP/r6K[] w - - 0 1";
/// White king h1 checked by a protected queen on g1: no square to block.
const CONTACT_MATE: &str = "4k3/8/8/8/8/5n2/6PP/6qK[] w - - 0 1";

#[test]
fn potential_mate_freezes_a_blockable_check() {
    assert_eq!(pos(DISTANT_CHECK, "bughouse").status(), Status::Frozen);
    assert_eq!(pos(DISTANT_CHECK, "french").status(), Status::Frozen);
    assert_eq!(pos(DISTANT_CHECK, "tandem").status(), Status::Checkmate);
    assert_eq!(pos(DISTANT_CHECK, "crazyhouse").status(), Status::Checkmate);
}

#[test]
fn potential_mate_still_mates_a_contact_check() {
    assert_eq!(pos(CONTACT_MATE, "bughouse").status(), Status::Checkmate);
}

#[test]
fn potential_material_counts_two_sets_per_colour() {
    let p = pos(DISTANT_CHECK, "bughouse");
    let potential = p.potential_reserve(Color::White);
    assert_eq!(potential.count(Role::Pawn), 14);
    assert_eq!(potential.count(Role::Queen), 2);
    // Promoted pieces on the board count as pawns.
    let q = pos("4k3/8/8/8/8/8/8/Q~Q~Q~K4[] w - - 0 1", "bughouse");
    assert_eq!(q.potential_reserve(Color::White).count(Role::Queen), 2);
    assert_eq!(q.potential_reserve(Color::White).count(Role::Pawn), 13);
}

const STALEMATE: &str = "7k/5Q2/6K1/8/8/8/8/8[] b - - 0 1";

#[test]
fn stalemate_wait_freezes_stalemate_draw_draws() {
    assert_eq!(pos(STALEMATE, "bughouse").status(), Status::Frozen);
    assert_eq!(pos(STALEMATE, "tandem").status(), Status::Stalemate);
    assert_eq!(pos(STALEMATE, "crazyhouse").status(), Status::Stalemate);
    assert_eq!(pos(STALEMATE, "chess").status(), Status::Stalemate);
}

#[test]
fn threefold_and_fourfold_without_drops() {
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for (rules, draws_after) in [("bughouse", 2), ("french", 3)] {
        let mut g = Game::new(rules.parse().unwrap());
        for cycle in 1..=3 {
            for m in shuffle {
                g.play_uci(BoardId::A, m).unwrap();
            }
            let drawn = g.status(BoardId::A) == Status::Repetition;
            assert_eq!(drawn, cycle >= draws_after, "{rules} after {cycle} cycles");
        }
    }
    let mut g = Game::new("bughouse,repetition=none".parse().unwrap());
    for _ in 0..3 {
        for m in shuffle {
            g.play_uci(BoardId::A, m).unwrap();
        }
    }
    assert_eq!(g.status(BoardId::A), Status::Ongoing);
}

#[test]
fn fourfold_counts_the_positions_since_the_last_drop() {
    let mut g = game(
        "r3k3/8/8/8/8/8/8/R3K3[Nn] w - - 0 1 | 4k3/8/8/8/8/8/8/4K3[] w - - 0 1",
        "french",
    );
    let shuffle = ["a1a2", "a8a7", "a2a1", "a7a8"];
    for m in shuffle.iter().chain(&shuffle) {
        g.play_uci(BoardId::A, m).unwrap();
    }
    g.play_uci(BoardId::A, "N@c3").unwrap();
    g.play_uci(BoardId::A, "N@c6").unwrap();
    for m in shuffle.iter().chain(&shuffle).chain(&shuffle) {
        g.play_uci(BoardId::A, m).unwrap();
    }
    assert_eq!(g.status(BoardId::A), Status::Repetition, "four times since the drops");
}

#[test]
fn insufficient_material_only_where_no_material_can_arrive() {
    let bare = "4k3/8/8/8/8/8/8/4K3[] w - - 0 1";
    assert_eq!(pos(bare, "chess").status(), Status::InsufficientMaterial);
    assert_eq!(pos(bare, "crazyhouse").status(), Status::InsufficientMaterial);
    assert_eq!(pos(bare, "bughouse").status(), Status::Ongoing);
    assert_eq!(pos("4k3/8/8/8/8/8/8/2B1K3[] w - - 0 1", "chess").status(), Status::InsufficientMaterial);
    assert_eq!(pos("4k3/8/8/8/8/8/8/2R1K3[] w - - 0 1", "chess").status(), Status::Ongoing);
}

#[test]
fn captures_flow_to_the_partner_in_the_same_colour() {
    // (choice) Partners sit on opposite colours: White on A feeds Black on B.
    let mut g = Game::new(Rules::bughouse());
    for m in ["e2e4", "d7d5", "e4d5"] {
        g.play_uci(BoardId::A, m).unwrap();
    }
    assert_eq!(g.board(BoardId::B).reserve(Color::Black).count(Role::Pawn), 1);
    assert!(g.board(BoardId::A).reserve(Color::White).is_empty());
    for m in ["d8d5"] {
        g.play_uci(BoardId::A, m).unwrap();
    }
    assert_eq!(g.board(BoardId::B).reserve(Color::White).count(Role::Pawn), 1);
    assert!(g.to_bfen().ends_with("RNBQKBNR[Pp] w KQkq - 0 1"), "{}", g.to_bfen());
}

#[test]
fn chess_has_no_drops_and_plain_promotions() {
    let p = pos("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "chess");
    let mut after = p.clone();
    after.play(p.parse_move("e7e8q").unwrap());
    assert!(after.promoted().is_empty());
    assert_eq!(after.to_string(), "k3Q3/8/8/8/8/8/8/4K3 b - - 0 1");
}

#[test]
fn illegal_and_malformed_moves_are_refused_with_the_text() {
    let mut g = Game::new(Rules::bughouse());
    let err = g.play_uci(BoardId::A, "e2e5").unwrap_err();
    assert_eq!(err.to_string(), "illegal move 'e2e5' on board A");
    assert!(g.play_uci(BoardId::A, "zz").is_err());
    assert!(g.play_uci(BoardId::A, "Q@e4").is_err(), "nothing in hand");
    assert_eq!(g.history(BoardId::A).len(), 1, "refused moves leave no trace");
    // Castling as king-takes-rook is accepted.
    let p = pos("4k3/8/8/8/8/8/8/4K2R[] w K - 0 1", "bughouse");
    assert_eq!(p.parse_move("e1h1").unwrap().to_string(), "e1g1");
    assert_eq!(p.parse_move("e1g1").unwrap().kind(), MoveKind::Castle);
}

/// Board B's White rook screens its king from Black's rook on e8; White on A
/// promotes on e8 and steals that rook.
const STEAL_EXPOSES: &str = "k7/4P3/8/8/8/8/8/4K3[] w - - 0 1 | 4r1k1/8/8/8/8/8/4R3/4K3[] b - - 0 1";

#[test]
fn a_steal_may_expose_the_other_king_which_then_must_answer_the_check() {
    let mut g = game(STEAL_EXPOSES, "bughouse,promotion=steal");
    g.play_uci(BoardId::A, "e7e8r").unwrap();
    let b = g.board(BoardId::B);
    assert!(b.pieces(Color::White, Role::Rook).is_empty(), "the rook went to board A");
    // Black to move on B: White's king stands in check, but a king is never captured.
    assert!(!moves(b).contains(&"e8e1".to_string()), "{:?}", moves(b));
    assert!(g.play_uci(BoardId::B, "e8e1").is_err());
    g.play_uci(BoardId::B, "g8g7").unwrap();
    // White must answer the check: only king moves and blocks on the e-file (a drop of the pawn it got).
    let answers = moves(g.board(BoardId::B));
    assert!(!answers.is_empty() && g.board(BoardId::B).is_check());
    assert!(answers.iter().all(|m| m.starts_with("e1") || m.starts_with("P@e")), "{answers:?}");
}

#[test]
fn nothing_flows_to_or_from_an_ended_board() {
    let mut g = game(STEAL, "tandem,promotion=steal");
    g.end_board(BoardId::B);
    // No steal from an ended board: the pawn cannot promote.
    assert!(g.legal_moves(BoardId::A).iter().all(|m| !m.is_promotion_like()));
    let mut g = game(
        "4k3/8/8/8/3p4/4P3/8/4K3[] w - - 0 1 | 4k3/8/8/8/8/8/8/4K3[] w - - 0 1",
        "tandem",
    );
    g.end_board(BoardId::B);
    g.play_uci(BoardId::A, "e3d4").unwrap();
    assert!(g.board(BoardId::B).reserve(Color::Black).is_empty(), "the captured pawn leaves the game");
}

#[test]
fn a_frozen_player_is_mated_once_the_other_board_has_ended() {
    // Black on A is in check by a rook with an empty square between: frozen
    // while a blocking piece could still arrive from board B.
    let bfen = "k7/8/R7/8/8/8/8/1R2K3[] b - - 0 1 | 4k3/8/8/8/8/8/8/4K3[] w - - 0 1";
    let mut g = game(bfen, "bughouse,match_end=both");
    assert_eq!(g.status(BoardId::A), Status::Frozen);
    g.end_board(BoardId::B);
    assert_eq!(g.status(BoardId::A), Status::Checkmate);
}

#[test]
fn tandemschach_drops_pawns_up_to_the_sixth_rank() {
    let p = pos("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "tandemschach");
    assert_eq!(drops_of(&p, Role::Pawn), 40, "ranks 2 to 6");
    assert!(!moves(&p).contains(&"P@d7".to_string()));
}
