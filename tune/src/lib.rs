//! Texel-style tuning of the evaluation weights.
//!
//! Each sample is a quiet position with a target score (Fairy-Stockfish's, from
//! `gen_positions.py`). Scores become win expectations through the logistic
//! curve `1 / (1 + 10^(-cp / 400))`; the error of a weight set is the mean
//! squared difference between the target's expectation and that of
//! `scale × evaluation`. The scale absorbs the difference between the two
//! engines' centipawns; it is refitted after every pass, so that the weights
//! (with the pawn on the board fixed at 100 as the unit) only change how the
//! evaluation ranks positions, not its size. Every weight is moved one step at
//! a time while the error falls: the local search Texel tuning is known by.

pub mod nnue;

use rayon::prelude::*;
use tandem_engine::search::{evaluate_params, EvalParams, Expected};
use tandem_engine::{parse_fen, Position, Rules};

/// One labelled position.
pub struct Sample {
    pub position: Position,
    /// Win expectation of the side to move, from the target score.
    pub target: f64,
}

/// A line of the position file that could not be read.
#[derive(Debug, PartialEq, Eq)]
pub struct LineError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Win expectation of a centipawn score.
pub fn expectation(cp: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-cp / 400.0))
}

/// Reads `FEN;score` lines (blank lines and `#` comments skipped).
pub fn parse_samples(text: &str, rules: Rules) -> Result<Vec<Sample>, LineError> {
    let mut samples = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let error = |message: String| LineError { line: i + 1, message };
        let (fen, score) = line.rsplit_once(';').ok_or_else(|| error("expected FEN;score".into()))?;
        let cp: f64 = score.trim().parse().map_err(|_| error(format!("bad score '{score}'")))?;
        let position = parse_fen(fen, rules).map_err(|e| error(format!("bad FEN: {e}")))?;
        samples.push(Sample { position, target: expectation(cp) });
    }
    Ok(samples)
}

/// Mean squared error of `params` over `samples` with the evaluation scaled by `scale`.
pub fn mean_error(samples: &[Sample], params: &EvalParams, scale: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let none = Expected::default();
    let total: f64 = samples
        .par_iter()
        .map(|s| {
            let eval = evaluate_params(&s.position, &none, params) as f64;
            (s.target - expectation(scale * eval)).powi(2)
        })
        .sum();
    total / samples.len() as f64
}

/// The scale that best maps our evaluation onto the targets, by golden-section search.
pub fn fit_scale(samples: &[Sample], params: &EvalParams) -> f64 {
    let (mut lo, mut hi) = (0.05f64, 5.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if mean_error(samples, params, a) < mean_error(samples, params, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Roughness of the piece-square tables: the mean squared difference, in
/// pawns, between neighbouring squares (rank and file neighbours of the half
/// board a table covers; a pawn's first and last ranks are never used). Rare
/// squares get their values from a few positions each, so a penalty on
/// roughness lets their neighbours, not noise, set them.
pub fn psqt_roughness(params: &EvalParams) -> f64 {
    let (mut total, mut pairs) = (0.0, 0usize);
    for (role, table) in params.psqt.iter().enumerate() {
        let ranks = if role == 0 { 1..7 } else { 0..8 };
        for rank in ranks.clone() {
            for file in 0..4 {
                let here = table[rank * 4 + file];
                let mut pair = |there: i32| {
                    total += (f64::from(here - there) / 100.0).powi(2);
                    pairs += 1;
                };
                if file < 3 {
                    pair(table[rank * 4 + file + 1]);
                }
                if ranks.contains(&(rank + 1)) {
                    pair(table[(rank + 1) * 4 + file]);
                }
            }
        }
    }
    total / pairs as f64
}

/// `smooth` times the tables' roughness (nothing to compute at 0).
fn roughness_penalty(params: &EvalParams, smooth: f64) -> f64 {
    if smooth > 0.0 { smooth * psqt_roughness(params) } else { 0.0 }
}

/// What the local search minimises: the fit error plus the roughness penalty.
fn objective(samples: &[Sample], params: &EvalParams, scale: f64, smooth: f64) -> f64 {
    mean_error(samples, params, scale) + roughness_penalty(params, smooth)
}

/// Progress of the local search, one line per pass.
pub struct Pass {
    pub number: usize,
    /// The fit error alone, without the roughness penalty.
    pub error: f64,
    pub roughness: f64,
    pub scale: f64,
    pub changed: usize,
}

/// Moves each weight whose name `tunable` accepts by its step while that
/// lowers the error; a step halves (down to 1) when neither direction helps.
/// The scale is refitted after each pass. Stops after `max_passes` passes or
/// a pass with every step at 1 and nothing changed. `smooth` weighs the
/// tables' roughness against the error ([`psqt_roughness`]; 0 for none).
pub fn local_search(
    samples: &[Sample],
    start: EvalParams,
    max_passes: usize,
    smooth: f64,
    tunable: impl Fn(&str) -> bool,
    mut report: impl FnMut(&Pass, &EvalParams),
) -> EvalParams {
    let mut scale = fit_scale(samples, &start);
    let mut best = start;
    let mut best_error = objective(samples, &best, scale, smooth);
    let count = best.named_weights_mut().len();
    let (mut steps, free): (Vec<i32>, Vec<bool>) = {
        let mut copy = best;
        copy.named_weights_mut().iter().map(|(name, w)| ((w.abs() / 8).max(8), tunable(name))).unzip()
    };
    for number in 1..=max_passes {
        let mut changed = 0;
        for i in (0..count).filter(|&i| free[i]) {
            let mut improved = false;
            for direction in [1, -1] {
                let mut candidate = best;
                *candidate.named_weights_mut()[i].1 += direction * steps[i];
                let error = objective(samples, &candidate, scale, smooth);
                if error < best_error {
                    (best, best_error, improved) = (candidate, error, true);
                    break;
                }
            }
            if improved {
                changed += 1;
            } else {
                steps[i] = (steps[i] / 2).max(1);
            }
        }
        scale = fit_scale(samples, &best);
        let pass = Pass { number, error: mean_error(samples, &best, scale), roughness: psqt_roughness(&best), scale, changed };
        best_error = pass.error + roughness_penalty(&best, smooth);
        report(&pass, &best);
        if changed == 0 && steps.iter().zip(&free).all(|(&s, &f)| s == 1 || !f) {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    const FEN: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 2";

    #[test]
    fn malformed_lines_name_their_number() {
        let text = format!("# comment\n{FEN};12\nnot a fen;3\n");
        let err = parse_samples(&text, Rules::crazyhouse()).err().unwrap();
        assert_eq!(err.line, 3);
        let err = parse_samples(&format!("{FEN};x"), Rules::crazyhouse()).err().unwrap();
        assert!(err.message.contains("bad score"), "{err}");
        assert!(parse_samples(FEN, Rules::crazyhouse()).is_err());
    }

    #[test]
    fn the_search_moves_a_weight_towards_the_targets() {
        // The side to move holds an extra knight in hand and the targets say
        // it is worth about 600 cp: the knight's hand value has to grow.
        let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[N] w KQkq - 0 2";
        let samples = parse_samples(&format!("{fen};630\n{FEN};30\n"), Rules::crazyhouse()).unwrap();
        let start = EvalParams::DROP_CHESS;
        let before = mean_error(&samples, &start, fit_scale(&samples, &start));
        let tuned = local_search(&samples, start, 50, 0.0, |_| true, |_, _| {});
        let after = mean_error(&samples, &tuned, fit_scale(&samples, &tuned));
        assert!(after < before / 10.0, "{before} -> {after}");
        assert!(tuned.hand[1] > start.hand[1], "{:?}", tuned.hand);
        let only_pawns = local_search(&samples, start, 50, 0.0, |name| name.starts_with("hand[0]"), |_, _| {});
        assert_eq!(only_pawns.hand[1], start.hand[1], "a weight left out does not move");
    }

    #[test]
    fn the_roughness_penalty_flattens_a_spike_no_position_supports() {
        let mut flat = EvalParams::DROP_CHESS;
        flat.psqt = [[0; 32]; 6];
        assert_eq!(psqt_roughness(&flat), 0.0);
        // A knight on b6 (rank 5, one file from the edge) in no position.
        let mut spiked = flat;
        spiked.psqt[1][5 * 4 + 1] = 400;
        assert!(psqt_roughness(&spiked) > 0.0);
        let samples = parse_samples(&format!("{FEN};30\n"), Rules::crazyhouse()).unwrap();
        let knights = |name: &str| name.starts_with("psqt_knight");
        let unpenalised = local_search(&samples, spiked, 5, 0.0, knights, |_, _| {});
        assert_eq!(unpenalised.psqt[1][21], 400, "the error alone cannot see the spike");
        let smoothed = local_search(&samples, spiked, 30, 1.0, knights, |_, _| {});
        assert!(smoothed.psqt[1][21] < 100, "{:?}", smoothed.psqt[1]);
    }

    #[test]
    fn the_fitted_scale_reproduces_a_known_scale() {
        let fens = [
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[N] w KQkq - 0 2",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[n] w KQkq - 0 2",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[Q] w KQkq - 0 2",
        ];
        let params = EvalParams::DROP_CHESS;
        let none = Expected::default();
        let text: String = fens
            .iter()
            .map(|fen| {
                let pos = parse_fen(fen, Rules::crazyhouse()).unwrap();
                format!("{fen};{}\n", 2 * evaluate_params(&pos, &none, &params))
            })
            .collect();
        let samples = parse_samples(&text, Rules::crazyhouse()).unwrap();
        assert!((fit_scale(&samples, &params) - 2.0).abs() < 0.01);
    }
}
