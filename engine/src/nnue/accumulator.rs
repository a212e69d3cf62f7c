//! The first layer's output for both perspectives, kept up to date as the
//! search moves instead of recomputed: a position's accumulator is another
//! position's plus the weights of the inputs that came on, minus those that
//! went off.

use shakmaty::Color;

use super::features::{active, difference, distance, Snapshot, MAX_ACTIVE};
use super::network::{Network, HIDDEN};
use super::simd;

/// The hidden values seen by each colour (`values[color as usize]`).
#[derive(Clone)]
pub struct Accumulator {
    values: [[i16; HIDDEN]; 2],
}

impl Accumulator {
    /// Computed from scratch.
    pub fn refresh(net: &Network, snapshot: &Snapshot) -> Accumulator {
        let mut inputs = Vec::with_capacity(MAX_ACTIVE);
        let mut acc = Accumulator { values: [[0; HIDDEN]; 2] };
        for color in Color::ALL {
            let values = &mut acc.values[color as usize];
            values.copy_from_slice(&net.feature_bias);
            active(snapshot, color, &mut inputs);
            for &input in &inputs {
                add(values, net.weights_of(input));
            }
        }
        acc
    }

    /// Moved from the position of `from` to that of `to`.
    pub fn update(&mut self, net: &Network, from: &Snapshot, to: &Snapshot, scratch: &mut Scratch) {
        for color in Color::ALL {
            difference(from, to, color, &mut scratch.removed, &mut scratch.added);
            let values = &mut self.values[color as usize];
            for &input in &scratch.removed {
                subtract(values, net.weights_of(input));
            }
            for &input in &scratch.added {
                add(values, net.weights_of(input));
            }
        }
    }

    /// The network's output for `turn` to move, in centipawns.
    pub fn evaluate(&self, net: &Network, turn: Color) -> i32 {
        net.output(&self.values[turn as usize], &self.values[turn.other() as usize])
    }

    pub fn values(&self, perspective: Color) -> &[i16; HIDDEN] {
        &self.values[perspective as usize]
    }
}

fn add(values: &mut [i16; HIDDEN], weights: &[i16]) {
    simd::add(values, weights)
}

fn subtract(values: &mut [i16; HIDDEN], weights: &[i16]) {
    simd::subtract(values, weights)
}

/// Buffers for the inputs that change, reused from one update to the next.
#[derive(Default)]
pub struct Scratch {
    removed: Vec<usize>,
    added: Vec<usize>,
}

/// Beyond this many changed inputs a refresh is as cheap as an update.
const REFRESH_DISTANCE: u32 = 24;

struct Entry {
    snapshot: Snapshot,
    acc: Accumulator,
}

/// One search thread's accumulators, one per ply. A position is evaluated
/// from the accumulator of its ply or the ply above, whichever is nearer:
/// usually its parent or a sibling. Either is exact, related or not (see
/// [`difference`]), so nothing needs to be invalidated when the search
/// backtracks or a cached evaluation skips a ply.
pub struct AccumulatorStack {
    entries: Vec<Option<Entry>>,
    scratch: Scratch,
}

impl AccumulatorStack {
    pub fn new(plies: usize) -> AccumulatorStack {
        AccumulatorStack { entries: (0..plies).map(|_| None).collect(), scratch: Scratch::default() }
    }

    /// The network's evaluation of `snapshot` (`turn` to move) at `ply`.
    pub fn evaluate(&mut self, net: &Network, ply: usize, snapshot: &Snapshot, turn: Color) -> i32 {
        let (above, here) = self.entries.split_at_mut(ply);
        let (own, parent) = (&mut here[0], above.last().and_then(Option::as_ref));
        let near = |entry: Option<&Entry>| entry.map(|e| distance(&e.snapshot, snapshot)).filter(|&d| d <= REFRESH_DISTANCE);
        let (own_near, parent_near) = (near(own.as_ref()), near(parent));
        // The own ply on a tie: it is updated in place, without a copy.
        let from_parent = parent_near.is_some_and(|p| own_near.is_none_or(|o| p < o));
        let entry = match (own, parent) {
            (Some(entry), _) if own_near.is_some() && !from_parent => entry,
            (slot, Some(parent)) if from_parent => slot.insert(Entry { snapshot: parent.snapshot, acc: parent.acc.clone() }),
            (slot, _) => slot.insert(Entry { snapshot: *snapshot, acc: Accumulator::refresh(net, snapshot) }),
        };
        entry.acc.update(net, &entry.snapshot, snapshot, &mut self.scratch);
        entry.snapshot = *snapshot;
        entry.acc.evaluate(net, turn)
    }
}
