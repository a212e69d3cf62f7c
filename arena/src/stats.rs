//! Rating statistics of a run, as cutechess and fastchess report them.
//!
//! - Elo from the score fraction with the logistic model: `-400 log10(1/s - 1)`.
//! - Error bars: a 95 % normal-approximation interval on the mean score, mapped
//!   through the same logistic curve (half the width of the Elo interval).
//! - LOS: `½(1 + erf((W − L) / √(2(W + L))))` over games (cutechess), or the
//!   normal approximation on the pair mean when pentanomial counts are used.
//! - SPRT: the generalised SPRT of fishtest and fastchess with the logistic Elo
//!   model, over trinomial game counts or pentanomial pair counts: the
//!   log-likelihood ratio of the maximum-likelihood score distributions with
//!   mean `s1` and `s0` (Van den Bergh). Empty cells count 0.001, so a short
//!   run has a small, finite LLR rather than a runaway one.
//!
//! Every score is from the point of view of the first team named on the command line.

use std::fmt;

/// The 97.5 % quantile of the standard normal distribution (two-sided 95 %).
const Z_95: f64 = 1.959_963_984_540_054;

/// Added to empty cells before a variance is taken, so a run with no draws
/// (or no losses) yet still has a usable, finite log-likelihood ratio.
const EMPTY_CELL: f64 = 1e-3;

/// One match, seen from the first team.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win,
    Loss,
    Draw,
}

impl Outcome {
    /// Points: 1, ½ or 0, counted in half points.
    pub fn half_points(self) -> u32 {
        match self {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        }
    }

    pub fn flipped(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
        }
    }
}

/// Win/loss/draw counts over matches and pentanomial counts over pairs
/// (the two matches of one opening with the teams swapped).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    /// Pairs by total half points of the pair's two matches for the first
    /// team: `[LL, LD, DD+WL, WD, WW]`.
    pub pentanomial: [u32; 5],
}

impl Tally {
    pub fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win => self.wins += 1,
            Outcome::Loss => self.losses += 1,
            Outcome::Draw => self.draws += 1,
        }
    }

    pub fn add_pair(&mut self, first: Outcome, second: Outcome) {
        let index = (first.half_points() + second.half_points()) as usize;
        self.pentanomial[index] += 1;
    }

    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    pub fn pairs(&self) -> u32 {
        self.pentanomial.iter().sum()
    }

    /// The first team's points (wins plus half the draws).
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// Score fraction; `None` before the first match.
    pub fn score(&self) -> Option<f64> {
        (self.games() > 0).then(|| self.points() / f64::from(self.games()))
    }

    pub fn draw_ratio(&self) -> Option<f64> {
        (self.games() > 0).then(|| f64::from(self.draws) / f64::from(self.games()))
    }

    /// The score distribution per match: (score, weight) for W, D, L.
    fn trinomial(&self) -> Distribution {
        Distribution::new(&[(1.0, f64::from(self.wins)), (0.5, f64::from(self.draws)), (0.0, f64::from(self.losses))])
    }

    /// The score distribution per pair, each pair's score halved into 0..=1.
    fn pentanomial_distribution(&self) -> Distribution {
        let cells: Vec<(f64, f64)> =
            self.pentanomial.iter().enumerate().map(|(i, &n)| (i as f64 / 4.0, f64::from(n))).collect();
        Distribution::new(&cells)
    }
}

/// A discrete score distribution with its sample size.
struct Distribution {
    /// (score in 0..=1, observed count) per cell.
    cells: Vec<(f64, f64)>,
    samples: f64,
}

impl Distribution {
    fn new(cells: &[(f64, f64)]) -> Distribution {
        Distribution { cells: cells.to_vec(), samples: cells.iter().map(|c| c.1).sum() }
    }

    fn mean(&self) -> f64 {
        self.cells.iter().map(|(s, n)| s * n).sum::<f64>() / self.samples
    }

    /// Variance of one sample's score.
    fn variance(&self) -> f64 {
        let mean = self.mean();
        self.cells.iter().map(|(s, n)| n * (s - mean).powi(2)).sum::<f64>() / self.samples
    }

    /// The same distribution with empty cells filled by a tiny weight.
    fn regularized(&self) -> Distribution {
        let cells: Vec<(f64, f64)> =
            self.cells.iter().map(|&(s, n)| (s, if n == 0.0 { EMPTY_CELL } else { n })).collect();
        Distribution::new(&cells)
    }
}

/// Elo difference for a score fraction (logistic model).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Score fraction expected at an Elo difference (logistic model).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference and its 95 % error margin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    /// Half the width of the 95 % interval; infinite when the score is 0 or 1.
    pub margin: f64,
    /// Likelihood of superiority, 0..=1.
    pub los: f64,
}

/// Which counts the estimate is built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Match by match (W/D/L).
    Trinomial,
    /// Pair by pair (openings played twice with the teams swapped).
    Pentanomial,
}

impl Tally {
    /// The Elo estimate over the chosen counts; `None` without data.
    pub fn elo(&self, model: Model) -> Option<EloEstimate> {
        let dist = match model {
            Model::Trinomial => self.trinomial(),
            Model::Pentanomial => self.pentanomial_distribution(),
        };
        if dist.samples == 0.0 {
            return None;
        }
        let mean = dist.mean();
        let stdev = (dist.variance() / dist.samples).sqrt();
        let low = elo_from_score(mean - Z_95 * stdev);
        let high = elo_from_score(mean + Z_95 * stdev);
        // No spread seen (one pair, or every sample alike) is no evidence of a
        // small error: the margin is unknown, as when the interval leaves 0..1.
        let known = low.is_finite() && high.is_finite() && stdev > 0.0;
        let margin = if known { (high - low) / 2.0 } else { f64::INFINITY };
        let los = match model {
            Model::Trinomial => los_from_wins(self.wins, self.losses),
            Model::Pentanomial => los_from_normal(mean, stdev),
        };
        Some(EloEstimate { elo: elo_from_score(mean), margin, los })
    }
}

/// cutechess' likelihood of superiority from wins and losses (draws carry no information).
pub fn los_from_wins(wins: u32, losses: u32) -> f64 {
    let decisive = f64::from(wins + losses);
    if decisive == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + libm::erf((f64::from(wins) - f64::from(losses)) / (2.0 * decisive).sqrt()))
}

/// Probability that the true mean score exceeds ½ under a normal approximation.
fn los_from_normal(mean: f64, stdev: f64) -> f64 {
    if stdev == 0.0 {
        return if mean > 0.5 {
            1.0
        } else if mean < 0.5 {
            0.0
        } else {
            0.5
        };
    }
    0.5 * (1.0 + libm::erf((mean - 0.5) / (stdev * std::f64::consts::SQRT_2)))
}

/// A sequential probability ratio test between two Elo hypotheses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// H0 accepted: the first team is not stronger by `elo1`.
    AcceptH0,
    /// H1 accepted: the first team is stronger by at least `elo0`.
    AcceptH1,
}

impl Sprt {
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        let probability = |p: f64| p > 0.0 && p < 0.5;
        if elo0.partial_cmp(&elo1) != Some(std::cmp::Ordering::Less) {
            return Err(format!("SPRT needs elo0 < elo1 (got {elo0} and {elo1})"));
        }
        if !probability(alpha) || !probability(beta) {
            return Err(format!("SPRT alpha and beta must lie in (0, 0.5) (got {alpha} and {beta})"));
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// `(lower, upper)`: accept H0 at or below `lower`, H1 at or above `upper`.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The GSPRT log-likelihood ratio of the counts.
    pub fn llr(&self, tally: &Tally, model: Model) -> f64 {
        let dist = match model {
            Model::Trinomial => tally.trinomial(),
            Model::Pentanomial => tally.pentanomial_distribution(),
        };
        if dist.samples == 0.0 {
            return 0.0;
        }
        let dist = dist.regularized();
        let observed: Vec<f64> = dist.cells.iter().map(|(_, n)| n / dist.samples).collect();
        let scores: Vec<f64> = dist.cells.iter().map(|(s, _)| *s).collect();
        let (Some(h0), Some(h1)) = (
            constrained_mle(&scores, &observed, score_from_elo(self.elo0)),
            constrained_mle(&scores, &observed, score_from_elo(self.elo1)),
        ) else {
            return 0.0;
        };
        let per_sample: f64 = observed.iter().zip(h0.iter().zip(&h1)).map(|(p, (q0, q1))| p * (q1 / q0).ln()).sum();
        dist.samples * per_sample
    }

    pub fn decision(&self, llr: f64) -> Option<SprtDecision> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtDecision::AcceptH1)
        } else if llr <= lower {
            Some(SprtDecision::AcceptH0)
        } else {
            None
        }
    }
}

impl std::str::FromStr for Sprt {
    type Err = String;

    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05` (spaces or commas between).
    fn from_str(text: &str) -> Result<Sprt, String> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
        for part in text.split([' ', ',']).filter(|p| !p.is_empty()) {
            let (key, value) = part.split_once('=').ok_or_else(|| format!("SPRT setting '{part}' needs '=value'"))?;
            let number: f64 = value.parse().map_err(|_| format!("SPRT setting '{key}': '{value}' is not a number"))?;
            match key {
                "elo0" => elo0 = Some(number),
                "elo1" => elo1 = Some(number),
                "alpha" => alpha = number,
                "beta" => beta = number,
                _ => return Err(format!("unknown SPRT setting '{key}' (expected elo0, elo1, alpha, beta)")),
            }
        }
        let elo0 = elo0.ok_or("SPRT needs elo0=…")?;
        let elo1 = elo1.ok_or("SPRT needs elo1=…")?;
        Sprt::new(elo0, elo1, alpha, beta)
    }
}

impl fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtDecision::AcceptH0 => write!(f, "H0 was accepted"),
            SprtDecision::AcceptH1 => write!(f, "H1 was accepted"),
        }
    }
}

/// The distribution over `scores` closest to `observed` (maximum likelihood)
/// whose mean is `mean`: `q_i = p_i / (1 + x (a_i − mean))`, with `x` found by
/// bisection of the mean condition, which falls monotonically in `x`.
fn constrained_mle(scores: &[f64], observed: &[f64], mean: f64) -> Option<Vec<f64>> {
    let offsets: Vec<f64> = scores.iter().map(|a| a - mean).collect();
    let highest = offsets.iter().copied().fold(f64::MIN, f64::max);
    let lowest = offsets.iter().copied().fold(f64::MAX, f64::min);
    if highest <= 0.0 || lowest >= 0.0 {
        return None; // the mean lies outside the possible scores
    }
    let condition = |x: f64| observed.iter().zip(&offsets).map(|(p, d)| p * d / (1.0 + x * d)).sum::<f64>();
    let (mut low, mut high) = (-1.0 / highest, -1.0 / lowest);
    for _ in 0..200 {
        let middle = (low + high) / 2.0;
        if condition(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    let x = (low + high) / 2.0;
    Some(observed.iter().zip(&offsets).map(|(p, d)| p / (1.0 + x * d)).collect())
}

/// Formats an Elo margin the way cutechess does (`inf` for an unbounded one).
pub fn format_margin(margin: f64) -> String {
    if margin.is_finite() {
        format!("{:.1}", margin + 0.0)
    } else {
        "inf".to_string()
    }
}

/// Formats an Elo value, with `inf` / `-inf` for a perfect or null score.
pub fn format_elo(elo: f64) -> String {
    if elo.is_finite() {
        // `+ 0.0` turns a negative zero into a plain one.
        format!("{:.1}", elo + 0.0)
    } else if elo > 0.0 {
        "inf".to_string()
    } else {
        "-inf".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-400.0, -35.0, 0.0, 12.5, 800.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
        }
        assert_eq!(elo_from_score(0.5), 0.0);
    }

    #[test]
    fn empty_tally_has_no_estimate() {
        let tally = Tally::default();
        assert_eq!(tally.elo(Model::Trinomial), None);
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        assert_eq!(sprt.llr(&tally, Model::Trinomial), 0.0);
    }

    #[test]
    fn one_pair_has_no_error_bar_under_either_model() {
        let mut tally = Tally::default();
        tally.add(Outcome::Win);
        tally.add(Outcome::Loss);
        tally.add_pair(Outcome::Win, Outcome::Loss);
        for model in [Model::Trinomial, Model::Pentanomial] {
            let estimate = tally.elo(model).unwrap();
            assert_eq!(estimate.elo, 0.0);
            assert_eq!(format_margin(estimate.margin), "inf", "{model:?}");
        }
    }

    #[test]
    fn sprt_settings_parse_and_validate() {
        let sprt: Sprt = "elo0=0 elo1=5 alpha=0.05 beta=0.1".parse().unwrap();
        assert_eq!((sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta), (0.0, 5.0, 0.05, 0.1));
        assert!("elo0=5 elo1=0".parse::<Sprt>().is_err());
        assert!("elo0=0 elo1=5 alpha=0.7".parse::<Sprt>().is_err());
        assert!("elo0=0 elo1=x".parse::<Sprt>().is_err());
        assert!("elo1=5".parse::<Sprt>().is_err());
        assert!("elo0=0 elo1=5 gamma=1".parse::<Sprt>().is_err());
    }
}
