//! Statistics against known values. The expected numbers come from an
//! independent implementation of the same textbook formulas (cutechess' Elo,
//! error margin and LOS; fishtest's / fastchess' logistic GSPRT with 0.001 for
//! empty cells), computed separately and pasted here.

use tandem_arena::stats::{elo_from_score, los_from_wins, score_from_elo, Model, Outcome, Sprt, Tally};

fn close(actual: f64, expected: f64, tolerance: f64) {
    assert!((actual - expected).abs() <= tolerance, "{actual} is not {expected} (±{tolerance})");
}

fn tally(wins: u32, losses: u32, draws: u32) -> Tally {
    Tally { wins, losses, draws, pentanomial: [0; 5] }
}

fn pairs(counts: [u32; 5]) -> Tally {
    Tally { pentanomial: counts, ..Tally::default() }
}

#[test]
fn elo_margin_and_los_match_cutechess() {
    let estimate = tally(10, 5, 5).elo(Model::Trinomial).unwrap();
    close(estimate.elo, 88.739_499_846_5, 1e-6);
    close(estimate.margin, 143.874_852_263_9, 1e-6);
    close(estimate.los, 0.901_647_198_770_5, 1e-9);
    let estimate = tally(120, 100, 80).elo(Model::Trinomial).unwrap();
    close(estimate.elo, 23.196_778_791_07, 1e-6);
    close(estimate.margin, 33.823_162_721_09, 1e-6);
    close(estimate.los, 0.911_235_073_793_9, 1e-9);
    close(los_from_wins(0, 0), 0.5, 0.0);
    close(tally(3, 3, 0).draw_ratio().unwrap(), 0.0, 0.0);
    close(tally(1, 1, 2).draw_ratio().unwrap(), 0.5, 0.0);
}

#[test]
fn perfect_scores_have_unbounded_margins() {
    let estimate = tally(4, 0, 0).elo(Model::Trinomial).unwrap();
    assert!(estimate.elo.is_infinite() && estimate.margin.is_infinite());
    close(score_from_elo(0.0), 0.5, 0.0);
    close(elo_from_score(0.75), 190.848_501_887_9, 1e-6);
}

#[test]
fn pentanomial_counts_pairs_and_their_elo() {
    let mut t = Tally::default();
    t.add_pair(Outcome::Win, Outcome::Win);
    t.add_pair(Outcome::Win, Outcome::Loss);
    t.add_pair(Outcome::Draw, Outcome::Draw);
    t.add_pair(Outcome::Loss, Outcome::Draw);
    t.add_pair(Outcome::Loss, Outcome::Loss);
    assert_eq!(t.pentanomial, [1, 1, 2, 0, 1]);
    let estimate = pairs([10, 20, 30, 25, 15]).elo(Model::Pentanomial).unwrap();
    close(estimate.elo, 26.106_692_605_04, 1e-6);
    close(estimate.margin, 41.104_012_059_70, 1e-6);
    close(estimate.los, 0.895_344_257_947_3, 1e-9);
}

#[test]
fn sprt_llr_matches_the_logistic_gsprt() {
    let sprt = |elo0, elo1| Sprt::new(elo0, elo1, 0.05, 0.05).unwrap();
    close(sprt(0.0, 10.0).llr(&tally(10, 5, 5), Model::Trinomial), 0.181_118_717_126_75, 1e-9);
    close(sprt(-10.0, 10.0).llr(&tally(12, 8, 0), Model::Trinomial), 0.230_270_019_173_35, 1e-9);
    close(sprt(0.0, 10.0).llr(&tally(3, 0, 0), Model::Trinomial), 0.085_103_632_098_43, 1e-9);
    close(sprt(0.0, 5.0).llr(&pairs([10, 20, 30, 25, 15]), Model::Pentanomial), 0.269_412_527_202_89, 1e-9);
    close(sprt(0.0, 5.0).llr(&pairs([3, 0, 9, 2, 0]), Model::Pentanomial), -0.170_434_174_409_85, 1e-9);
    let (lower, upper) = sprt(0.0, 5.0).bounds();
    close(lower, -2.944_438_979_166_44, 1e-12);
    close(upper, 2.944_438_979_166_44, 1e-12);
}

#[test]
fn sprt_decides_at_the_bounds() {
    let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
    assert_eq!(sprt.decision(0.0), None);
    assert!(sprt.decision(3.0).is_some());
    assert!(sprt.decision(-3.0).is_some());
    // A long, clearly winning run crosses the upper bound.
    let strong = tally(600, 400, 200);
    assert!(sprt.llr(&strong, Model::Trinomial) > sprt.bounds().1);
}
