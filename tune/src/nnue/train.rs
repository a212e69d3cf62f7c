//! The trainer: the engine's network in floats, fitted by Adam to
//! `λ × sigmoid(score / SCALE) + (1 − λ) × result` with the squared error of
//! `sigmoid(output)`, then quantised to the engine's integers.
//!
//! In Rust rather than PyTorch: the inputs, the clipped ReLU and the file
//! format are the engine's own code, so trainer and engine cannot drift
//! apart, and a clone needs nothing but cargo (no 200 MB wheel, no GPU). The
//! net is small and its inputs sparse, so two cores train a million
//! positions an epoch in well under a minute.

use rayon::prelude::*;
use tandem_engine::nnue::features::{active, piece_kind, MAX_ACTIVE, PIECE_KINDS};
use tandem_engine::nnue::{Network, HIDDEN, INPUTS, QA, QB, SCALE};

use super::data::Record;
use super::gen::Rng;

/// Weights are kept within this so that the quantised values fit: the
/// first layer's in i16 accumulators, the output's within 255 × 507 × 512 in the i32 sum.
const WEIGHT_CLIP: f32 = 1.98;

/// The learning rate at the end of training, as a share of the first: a
/// constant rate stops improving the held-out error half way (the first
/// net's run), a decaying one keeps refining.
const FINAL_RATE_SHARE: f32 = 0.05;

/// The rate at `progress` (0 at the first step, 1 at the last).
fn rate_at(first: f32, progress: f32) -> f32 {
    let cosine = 0.5 * (1.0 + (std::f32::consts::PI * progress.clamp(0.0, 1.0)).cos());
    first * (FINAL_RATE_SHARE + (1.0 - FINAL_RATE_SHARE) * cosine)
}

#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub epochs: usize,
    pub batch: usize,
    /// The rate of the first step; it falls along a half cosine to
    /// [`FINAL_RATE_SHARE`] of itself at the last step.
    pub learning_rate: f32,
    /// The share of the search score in the target (the rest: the result).
    pub lambda: f32,
    /// Also train on every training position mirrored left to right
    /// ([`Record::mirrored`]); the held-out positions stay as played.
    pub mirror: bool,
    pub seed: u64,
}

/// The network in floats, laid out as [`Network`], with one more set of
/// first-layer weights: a factor per piece kind that every square of it
/// adds to its own weight. A knight's value is then learnt from every
/// knight, wherever it stands, and the 64 square weights only learn where
/// it stands better; with a few million positions most squares of most
/// pieces are seen too rarely to learn the piece's worth alone.
///
/// The factors are folded into the square weights once a batch
/// ([`FloatNet::folded_w1`], clipped as the quantiser clips them), and the
/// batch runs on that folded layer, the one the engine will hold; a folded
/// weight's gradient goes to its square weight and, summed over the 64
/// squares, to its factor ([`FloatNet::gather_factor_gradients`]).
#[derive(Clone)]
pub struct FloatNet {
    pub w1: Vec<f32>,
    pub factors: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: f32,
}

/// One position's inputs from both sides: the side to move's first.
pub struct Inputs {
    pub us: Vec<usize>,
    pub them: Vec<usize>,
}

impl Inputs {
    pub fn of(record: &Record) -> Inputs {
        let (mut us, mut them) = (Vec::with_capacity(MAX_ACTIVE), Vec::with_capacity(MAX_ACTIVE));
        active(&record.snapshot, record.turn, &mut us);
        active(&record.snapshot, record.turn.other(), &mut them);
        Inputs { us, them }
    }
}

/// Row `index` (one input's or one factor's weights, a hidden unit each) of a first-layer matrix.
fn row(matrix: &[f32], index: usize) -> &[f32] {
    &matrix[index * HIDDEN..(index + 1) * HIDDEN]
}

fn row_mut(matrix: &mut [f32], index: usize) -> &mut [f32] {
    &mut matrix[index * HIDDEN..(index + 1) * HIDDEN]
}

fn add_into(sum: &mut [f32], values: &[f32]) {
    for (s, v) in sum.iter_mut().zip(values) {
        *s += v;
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What training aims at for `record`, a win expectation.
pub fn target(record: &Record, lambda: f32) -> f32 {
    let from_score = sigmoid(f32::from(record.score) / SCALE as f32);
    let from_result = (f32::from(record.result) + 1.0) / 2.0;
    lambda * from_score + (1.0 - lambda) * from_result
}

impl FloatNet {
    pub fn random(seed: u64) -> FloatNet {
        let mut rng = Rng::new(seed);
        let mut uniform = |range: f32| (rng.below(1 << 20) as f32 / (1 << 20) as f32 * 2.0 - 1.0) * range;
        FloatNet {
            w1: (0..INPUTS * HIDDEN).map(|_| uniform(0.1)).collect(),
            factors: vec![0.0; PIECE_KINDS * HIDDEN],
            b1: (0..HIDDEN).map(|_| uniform(0.1).abs()).collect(),
            w2: (0..2 * HIDDEN).map(|_| uniform(1.0 / (2.0 * HIDDEN as f32).sqrt())).collect(),
            b2: 0.0,
        }
    }

    /// The engine's network back in floats, to train on from where it
    /// stands (the loop's next generation fine-tunes the last net): every
    /// weight is its integer over its scale, the factors start at zero, so
    /// quantising it again gives the same network.
    pub fn from_network(net: &Network) -> FloatNet {
        let dequantise = |w: &i16, scale: i32| f32::from(*w) / scale as f32;
        FloatNet {
            w1: net.feature_weights.iter().map(|w| dequantise(w, QA)).collect(),
            factors: vec![0.0; PIECE_KINDS * HIDDEN],
            b1: net.feature_bias.iter().map(|w| dequantise(w, QA)).collect(),
            w2: net.output_weights.iter().map(|w| dequantise(w, QB)).collect(),
            b2: net.output_bias as f32 / (QA * QB) as f32,
        }
    }

    /// The first-layer weights as the engine holds them: each input's own
    /// plus its piece kind's factor, clipped so that they quantise exactly.
    pub fn folded_w1(&self) -> Vec<f32> {
        let mut folded = self.w1.clone();
        for input in 0..INPUTS {
            if let Some(kind) = piece_kind(input) {
                add_into(row_mut(&mut folded, input), row(&self.factors, kind));
            }
        }
        folded.iter_mut().for_each(|w| *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP));
        folded
    }

    /// Adds each piece input's first-layer gradient to its kind's factor (a
    /// factor moves every square weight of its kind alike).
    fn gather_factor_gradients(&mut self) {
        let (w1, factors) = (&self.w1, &mut self.factors);
        for input in 0..INPUTS {
            if let Some(kind) = piece_kind(input) {
                add_into(row_mut(factors, kind), row(w1, input));
            }
        }
    }

    fn accumulate(&self, w1: &[f32], inputs: &[usize]) -> Vec<f32> {
        let mut acc = self.b1.clone();
        for &input in inputs {
            add_into(&mut acc, row(w1, input));
        }
        acc
    }

    /// The output (in units of `SCALE` centipawns) and the two accumulators,
    /// with `w1` the folded first layer.
    fn forward(&self, w1: &[f32], inputs: &Inputs) -> (f32, [Vec<f32>; 2]) {
        let accs = [self.accumulate(w1, &inputs.us), self.accumulate(w1, &inputs.them)];
        let mut out = self.b2;
        for (half, acc) in accs.iter().enumerate() {
            for (a, w) in acc.iter().zip(&self.w2[half * HIDDEN..(half + 1) * HIDDEN]) {
                out += a.clamp(0.0, 1.0) * w;
            }
        }
        (out, accs)
    }

    /// The evaluation in centipawns for the side to move.
    pub fn evaluate(&self, record: &Record) -> f32 {
        self.forward(&self.folded_w1(), &Inputs::of(record)).0 * SCALE as f32
    }

    /// The squared error on `records`.
    pub fn loss(&self, records: &[(Inputs, f32)]) -> f32 {
        let w1 = self.folded_w1();
        let sum: f64 = records.par_iter().map(|(inputs, t)| f64::from((sigmoid(self.forward(&w1, inputs).0) - t).powi(2))).sum();
        (sum / records.len().max(1) as f64) as f32
    }

    /// Adds the gradient of one position's squared error to `grad`, the
    /// first layer's to `grad.w1` as if `w1` (the folded layer) were the weights.
    fn backward(&self, w1: &[f32], inputs: &Inputs, target: f32, grad: &mut FloatNet) -> f32 {
        let (out, accs) = self.forward(w1, inputs);
        let p = sigmoid(out);
        let d_out = 2.0 * (p - target) * p * (1.0 - p);
        grad.b2 += d_out;
        for (half, (acc, features)) in accs.iter().zip([&inputs.us, &inputs.them]).enumerate() {
            let w2 = &self.w2[half * HIDDEN..(half + 1) * HIDDEN];
            let mut d_acc = [0.0f32; HIDDEN];
            for i in 0..HIDDEN {
                grad.w2[half * HIDDEN + i] += d_out * acc[i].clamp(0.0, 1.0);
                if acc[i] > 0.0 && acc[i] < 1.0 {
                    d_acc[i] = d_out * w2[i];
                }
            }
            for (g, d) in grad.b1.iter_mut().zip(&d_acc) {
                *g += d;
            }
            for &input in features.iter() {
                add_into(row_mut(&mut grad.w1, input), &d_acc);
            }
        }
        (p - target).powi(2)
    }

    fn zeros() -> FloatNet {
        FloatNet { w1: vec![0.0; INPUTS * HIDDEN], factors: vec![0.0; PIECE_KINDS * HIDDEN], b1: vec![0.0; HIDDEN], w2: vec![0.0; 2 * HIDDEN], b2: 0.0 }
    }

    fn add(&mut self, other: &FloatNet) {
        for (a, b) in self.params_mut().into_iter().zip(other.params()) {
            add_into(a, b);
        }
    }

    fn params(&self) -> [&[f32]; 5] {
        [&self.w1, &self.factors, &self.b1, &self.w2, std::slice::from_ref(&self.b2)]
    }

    fn params_mut(&mut self) -> [&mut [f32]; 5] {
        [&mut self.w1, &mut self.factors, &mut self.b1, &mut self.w2, std::slice::from_mut(&mut self.b2)]
    }

    /// The engine's integer network.
    pub fn quantise(&self) -> Network {
        let q = |w: &f32, scale: i32| (w * scale as f32).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        Network {
            feature_weights: self.folded_w1().iter().map(|w| q(w, QA)).collect(),
            feature_bias: self.b1.iter().map(|w| q(w, QA)).collect(),
            output_weights: self.w2.iter().map(|w| q(w, QB)).collect(),
            output_bias: (self.b2 * (QA * QB) as f32).round() as i32,
        }
    }
}

/// Adam's moment estimates, one per weight.
struct Adam {
    m: FloatNet,
    v: FloatNet,
    step: i32,
}

impl Adam {
    fn apply(&mut self, net: &mut FloatNet, grad: &FloatNet, rate: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.step += 1;
        let (c1, c2) = (1.0 - B1.powi(self.step), 1.0 - B2.powi(self.step));
        let moments = self.m.params_mut().into_iter().zip(self.v.params_mut());
        for ((w, g), (m, v)) in net.params_mut().into_iter().zip(grad.params()).zip(moments) {
            for i in 0..w.len() {
                m[i] = B1 * m[i] + (1.0 - B1) * g[i];
                v[i] = B2 * v[i] + (1.0 - B2) * g[i] * g[i];
                w[i] = (w[i] - rate * (m[i] / c1) / ((v[i] / c2).sqrt() + 1e-8)).clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
            }
        }
    }
}

/// Positions are held out in runs of this many, one run in twenty: a file
/// holds a game's positions together, so a run is mostly whole games and the
/// held-out error measures positions of games never trained on (single
/// positions held out would share their games with the training set, and
/// over-fitting would go unseen). Small sets use shorter runs, down to one
/// position, so that each still holds out at least ten runs.
const HELD_OUT_RUN: usize = 1000;

/// Trains `net` on `records` (a twentieth held out), reporting the held-out
/// loss of the start (epoch 0, no training loss yet) and each epoch's
/// training and held-out loss to `report`; returns the net with the lowest held-out
/// loss, the start included: a fine-tune never comes back worse than it went in.
pub fn train(records: &[Record], config: &TrainConfig, mut net: FloatNet, mut report: impl FnMut(usize, Option<f32>, f32, &FloatNet)) -> FloatNet {
    let prepared: Vec<(Inputs, f32)> = records.par_iter().map(|r| (Inputs::of(r), target(r, config.lambda))).collect();
    let run = HELD_OUT_RUN.min(prepared.len() / 200).max(1);
    let (held, mut training): (Vec<_>, Vec<_>) = prepared.into_iter().enumerate().partition(|(i, _)| (i / run) % 20 == 0);
    let held: Vec<(Inputs, f32)> = held.into_iter().map(|(_, x)| x).collect();
    if config.mirror {
        let mirrored: Vec<_> = training.par_iter().map(|&(i, (_, t))| (i, (Inputs::of(&records[i].mirrored()), t))).collect();
        training.extend(mirrored);
    }
    let mut adam = Adam { m: FloatNet::zeros(), v: FloatNet::zeros(), step: 0 };
    let mut rng = Rng::new(config.seed ^ 0x5eed);
    let start_loss = net.loss(&held);
    report(0, None, start_loss, &net);
    let (mut best, mut best_loss) = (net.clone(), start_loss);
    let batch_size = config.batch.max(1);
    let total_steps = (config.epochs * training.len().div_ceil(batch_size)).max(1);
    for epoch in 1..=config.epochs {
        for i in (1..training.len()).rev() {
            training.swap(i, rng.below(i + 1));
        }
        let mut error = 0.0f64;
        for batch in training.chunks(batch_size) {
            let threads = rayon::current_num_threads().max(1);
            let w1 = net.folded_w1();
            let (mut grad, batch_error) = batch
                .par_chunks(batch.len().div_ceil(threads))
                .map(|part| {
                    let mut grad = FloatNet::zeros();
                    let err: f32 = part.iter().map(|(_, (inputs, t))| net.backward(&w1, inputs, *t, &mut grad)).sum();
                    (grad, err)
                })
                .reduce(|| (FloatNet::zeros(), 0.0), |(mut a, ea), (b, eb)| {
                    a.add(&b);
                    (a, ea + eb)
                });
            error += f64::from(batch_error);
            grad.gather_factor_gradients();
            let scale = 1.0 / batch.len() as f32;
            for p in grad.params_mut() {
                p.iter_mut().for_each(|g| *g *= scale);
            }
            let progress = adam.step as f32 / total_steps as f32;
            adam.apply(&mut net, &grad, rate_at(config.learning_rate, progress));
        }
        let held_loss = net.loss(&held);
        if held_loss < best_loss {
            (best, best_loss) = (net.clone(), held_loss);
        }
        report(epoch, Some((error / training.len().max(1) as f64) as f32), held_loss, &net);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use tandem_engine::nnue::Accumulator;
    use tandem_engine::parse_fen;

    fn records() -> Vec<Record> {
        let rules = "crazyhouse".parse().unwrap();
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R[] w KQkq - 6 5",
            "r1b2rk1/pppp1ppp/2n5/2b1p3/2B1P1n1/2NP4/PPP2PPP/R1BQ1RK1[QNp] b - - 0 9",
            "2kr3r/ppp2ppp/2n5/3q4/3P4/2P2N2/P4PPP/R1BQ1RK1[BNPbpp] w - - 0 14",
            "r2q1rk1/ppp2ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPP2PPP/R2Q1RK1[] w - - 2 8",
        ];
        fens.iter().map(|f| Record::new(&parse_fen(f, rules).unwrap(), 0, 0)).collect()
    }

    #[test]
    fn the_engine_computes_what_the_trainer_does_within_quantisation_error() {
        let mut net = FloatNet::random(5);
        net.b2 = 0.3;
        // Factors as training leaves them, folded into the engine's square weights.
        net.factors = (0..net.factors.len()).map(|i| if i % 3 == 0 { 0.02 } else { -0.01 }).collect();
        let quantised = net.quantise();
        for record in records() {
            let float = net.evaluate(&record);
            let int = Accumulator::refresh(&quantised, &record.snapshot).evaluate(&quantised, record.turn);
            // Rounding errors are uniform within half a step (σ = 0.29 step):
            // an accumulator sums one per input and its bias, the output one
            // per weight; allow four σ of their sum, and the engine's last
            // division truncates (one centipawn).
            let inputs = Inputs::of(&record);
            let acc_sigma = ((inputs.us.len().max(inputs.them.len()) + 1) as f32).sqrt() * 0.29 / QA as f32;
            let w2_norm = net.w2.iter().map(|w| w * w).sum::<f32>().sqrt();
            let (_, accs) = net.forward(&net.folded_w1(), &inputs);
            let h_norm = accs.iter().flatten().map(|a| a.clamp(0.0, 1.0).powi(2)).sum::<f32>().sqrt();
            let out_sigma = w2_norm * acc_sigma + h_norm * 0.29 / QB as f32;
            let bound = 4.0 * SCALE as f32 * out_sigma + 1.0;
            assert!((float - int as f32).abs() <= bound, "float {float}, engine {int}, bound {bound}");
            assert!(bound < 20.0, "a bound this loose ({bound}) proves little");
        }
    }

    #[test]
    fn the_gradient_of_square_weights_and_factors_matches_finite_differences() {
        let record = &records()[2];
        let inputs = Inputs::of(record);
        let target = 0.8;
        let mut net = FloatNet::random(3);
        net.factors = (0..net.factors.len()).map(|i| (i % 7) as f32 * 0.01 - 0.03).collect();
        let mut grad = FloatNet::zeros();
        net.backward(&net.folded_w1(), &inputs, target, &mut grad);
        grad.gather_factor_gradients();
        let error = |net: &FloatNet| f64::from((sigmoid(net.forward(&net.folded_w1(), &inputs).0) - target).powi(2));
        let input = *inputs.us.iter().find(|&&i| piece_kind(i).is_some()).unwrap();
        let kind = piece_kind(input).unwrap();
        // The hidden unit where this piece kind's factor matters most.
        let unit = (0..HIDDEN).max_by(|&a, &b| grad.factors[kind * HIDDEN + a].abs().total_cmp(&grad.factors[kind * HIDDEN + b].abs())).unwrap();
        let slots: [(fn(&mut FloatNet) -> &mut Vec<f32>, usize, f32); 2] = [
            (|n| &mut n.w1, input * HIDDEN + unit, grad.w1[input * HIDDEN + unit]),
            (|n| &mut n.factors, kind * HIDDEN + unit, grad.factors[kind * HIDDEN + unit]),
        ];
        for (weights, index, analytic) in slots {
            assert!(analytic.abs() > 1e-4, "a vanishing gradient ({analytic}) proves little");
            let eps = 1e-3;
            let shifted = |by: f32| {
                let mut moved = net.clone();
                weights(&mut moved)[index] += by;
                error(&moved)
            };
            let numeric = ((shifted(eps) - shifted(-eps)) / (2.0 * f64::from(eps))) as f32;
            assert!((numeric - analytic).abs() <= 0.02 * analytic.abs() + 1e-5, "numeric {numeric}, analytic {analytic}");
        }
    }

    #[test]
    fn a_network_read_back_into_floats_quantises_to_itself() {
        let network = FloatNet::random(3).quantise();
        assert_eq!(FloatNet::from_network(&network).quantise().to_bytes(), network.to_bytes());
    }

    #[test]
    fn the_rate_falls_from_the_first_to_its_final_share() {
        assert_eq!(rate_at(0.002, 0.0), 0.002);
        assert!((rate_at(0.002, 1.0) - 0.002 * FINAL_RATE_SHARE).abs() < 1e-9);
        let rates: Vec<f32> = (0..=10).map(|i| rate_at(1.0, i as f32 / 10.0)).collect();
        assert!(rates.windows(2).all(|w| w[1] < w[0]), "{rates:?}");
    }

    #[test]
    fn training_lowers_the_error_on_the_positions_it_sees() {
        let mut data = Vec::new();
        for (i, mut record) in records().into_iter().enumerate() {
            record.score = [300, -200, 150, -400, 50][i];
            record.result = [1, -1, 0, -1, 1][i];
            data.extend(std::iter::repeat_n(record, 40));
        }
        let config = TrainConfig { epochs: 30, batch: 16, learning_rate: 0.01, lambda: 0.5, mirror: false, seed: 1 };
        let prepared: Vec<(Inputs, f32)> = data.iter().map(|r| (Inputs::of(r), target(r, 0.5))).collect();
        let before = FloatNet::random(1).loss(&prepared);
        let trained = train(&data, &config, FloatNet::random(config.seed), |_, _, _, _| {});
        let after = trained.loss(&prepared);
        assert!(after < before / 4.0, "before {before}, after {after}");
    }
}
