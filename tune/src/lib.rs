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

use rayon::prelude::*;
use tandem_engine::search::eval::{evaluate_params, EvalParams, Expected};
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

/// Progress of the local search, one line per pass.
pub struct Pass {
    pub number: usize,
    pub error: f64,
    pub scale: f64,
    pub changed: usize,
}

/// Moves each weight whose name `tunable` accepts by its step while that
/// lowers the error; a step halves (down to 1) when neither direction helps.
/// The scale is refitted after each pass. Stops after `max_passes` passes or
/// a pass with every step at 1 and nothing changed.
pub fn local_search(
    samples: &[Sample],
    start: EvalParams,
    max_passes: usize,
    tunable: impl Fn(&str) -> bool,
    mut report: impl FnMut(&Pass, &EvalParams),
) -> EvalParams {
    let mut scale = fit_scale(samples, &start);
    let mut best = start;
    let mut best_error = mean_error(samples, &best, scale);
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
                let error = mean_error(samples, &candidate, scale);
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
        best_error = mean_error(samples, &best, scale);
        report(&Pass { number, error: best_error, scale, changed }, &best);
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
        let tuned = local_search(&samples, start, 50, |_| true, |_, _| {});
        let after = mean_error(&samples, &tuned, fit_scale(&samples, &tuned));
        assert!(after < before / 10.0, "{before} -> {after}");
        assert!(tuned.hand[1] > start.hand[1], "{:?}", tuned.hand);
        let only_pawns = local_search(&samples, start, 50, |name| name.starts_with("hand[0]"), |_, _| {});
        assert_eq!(only_pawns.hand[1], start.hand[1], "a weight left out does not move");
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
