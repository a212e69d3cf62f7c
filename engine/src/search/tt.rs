//! The shared, lock-free transposition table.
//!
//! ## Entry layout
//!
//! An entry is two `AtomicU64` words: `check = key ^ data` and `data`. A reader
//! loads both and accepts the entry only if `check ^ data == key`; a torn write
//! by another thread (one word new, one old) fails the test and reads as a miss,
//! so no lock is needed (Hyatt and Mann's "lockless hashing").
//!
//! `data` packs, from the low bit:
//!
//! | bits  | field |
//! |-------|-------|
//! | 0-24  | best move (the 25 significant bits of [`Move`]) |
//! | 25-40 | score (`i16`, mate scores relative to the node) |
//! | 41-48 | depth (`u8`) |
//! | 49-50 | bound: 1 upper, 2 lower, 3 exact |
//! | 51-56 | generation (6 bits, advanced once per search) |
//! | 57-63 | unused |
//!
//! Entries sit in buckets of four (64 bytes, aligned to one cache line, so a
//! probe costs one memory access). A store replaces the entry with the same
//! key, else the one least worth keeping: shallow and from an old search.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use crate::moves::Move;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TtBound {
    Upper = 1,
    Lower = 2,
    Exact = 3,
}

impl TtBound {
    /// The bound a search result gives, from the window it was searched with.
    pub fn of(score: i32, alpha: i32, beta: i32) -> TtBound {
        if score >= beta {
            TtBound::Lower
        } else if score > alpha {
            TtBound::Exact
        } else {
            TtBound::Upper
        }
    }

    /// Does a stored `score` with this bound decide the window (alpha, beta)?
    pub fn cuts(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            TtBound::Exact => true,
            TtBound::Lower => score >= beta,
            TtBound::Upper => score <= alpha,
        }
    }
}

/// A decoded entry.
#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    pub best: Move,
    pub score: i32,
    pub depth: u32,
    pub bound: TtBound,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 4;
const MOVE_BITS: u64 = (1 << 25) - 1;

/// One cache line of slots. (A `Vec<Slot>` is only 8-byte aligned: most of
/// its 4-slot buckets would straddle two cache lines.)
#[derive(Default)]
#[repr(align(64))]
struct Bucket([Slot; BUCKET]);

pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    /// Number of buckets minus one (a power of two).
    mask: usize,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of at most `megabytes` (rounded down to a power of two of buckets).
    /// Fails, instead of aborting the process, when the memory cannot be had.
    pub fn new(megabytes: usize) -> Result<TranspositionTable, String> {
        let bytes = megabytes.max(1).saturating_mul(1024 * 1024);
        let fitting = (bytes / std::mem::size_of::<Bucket>()).max(1);
        // The largest power of two that fits (`next_power_of_two() / 2`
        // halved sizes that already were one: `Hash 16` gave 8 MB).
        let count = 1usize << (usize::BITS - 1 - fitting.leading_zeros());
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(count)
            .map_err(|_| format!("cannot allocate a {megabytes} MB hash table"))?;
        buckets.resize_with(count, Bucket::default);
        Ok(TranspositionTable { buckets, mask: count - 1, generation: AtomicU8::new(0) })
    }

    pub fn clear(&self) {
        for slot in self.slots() {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Called once per search, so that old entries give way.
    pub fn new_search(&self) {
        let next = (self.generation.load(Ordering::Relaxed) + 1) & 63;
        self.generation.store(next, Ordering::Relaxed);
    }

    /// Every slot, bucket by bucket.
    fn slots(&self) -> impl Iterator<Item = &Slot> {
        self.buckets.iter().flat_map(|b| &b.0)
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Slot; BUCKET] {
        &self.buckets[key as usize & self.mask].0
    }

    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for slot in self.bucket(key) {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data == key && data != 0 {
                return decode(data);
            }
        }
        None
    }

    pub fn store(&self, key: u64, best: Move, score: i32, depth: u32, bound: TtBound) {
        let generation = u64::from(self.generation.load(Ordering::Relaxed));
        let bucket = self.bucket(key);
        let mut victim = &bucket[0];
        let mut victim_worth = i32::MAX;
        for slot in bucket {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data == key {
                // Same position: keep the old move if the new search found none,
                // and keep a much deeper result from this search (or from any
                // search, against a quiescence store).
                let old = decode(data);
                if let Some(old) = old {
                    let same_search = (data >> 51) & 63 == generation;
                    let keep_deeper = same_search && bound != TtBound::Exact || depth == 0;
                    if keep_deeper && old.depth > depth + 2 {
                        return;
                    }
                    let best = if best == Move::NONE { old.best } else { best };
                    write(slot, key, encode(best, score, depth, bound, generation));
                    return;
                }
                victim = slot;
                break;
            }
            let worth = if data == 0 {
                i32::MIN
            } else {
                let age = ((generation + 64 - ((data >> 51) & 63)) & 63) as i32;
                ((data >> 41) & 0xff) as i32 - 8 * age
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        write(victim, key, encode(best, score, depth, bound, generation));
    }

    /// Permille of sampled entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = u64::from(self.generation.load(Ordering::Relaxed));
        let sample = (self.buckets.len() * BUCKET).min(1000);
        let used = self
            .slots()
            .take(sample)
            .filter(|s| {
                let data = s.data.load(Ordering::Relaxed);
                data != 0 && (data >> 51) & 63 == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[inline]
fn write(slot: &Slot, key: u64, data: u64) {
    slot.check.store(key ^ data, Ordering::Relaxed);
    slot.data.store(data, Ordering::Relaxed);
}

#[inline]
fn encode(best: Move, score: i32, depth: u32, bound: TtBound, generation: u64) -> u64 {
    let score = score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16 as u16 as u64;
    (u64::from(best.bits()) & MOVE_BITS)
        | score << 25
        | u64::from(depth.min(255)) << 41
        | (bound as u64) << 49
        | generation << 51
}

#[inline]
fn decode(data: u64) -> Option<TtEntry> {
    let bound = match (data >> 49) & 3 {
        1 => TtBound::Upper,
        2 => TtBound::Lower,
        3 => TtBound::Exact,
        _ => return None,
    };
    Some(TtEntry {
        best: Move::from_bits((data & MOVE_BITS) as u32),
        score: i32::from(((data >> 25) & 0xffff) as u16 as i16),
        depth: ((data >> 41) & 0xff) as u32,
        bound,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Role, Square};

    #[test]
    fn stores_and_probes_round_trip() {
        let tt = TranspositionTable::new(1).unwrap();
        let m = Move::drop(Role::Knight, Square::F7);
        tt.store(0xDEAD_BEEF_1234_5678, m, -31_500, 12, TtBound::Lower);
        let e = tt.probe(0xDEAD_BEEF_1234_5678).unwrap();
        assert_eq!((e.best, e.score, e.depth, e.bound), (m, -31_500, 12, TtBound::Lower));
        assert!(tt.probe(0x1234).is_none());
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF_1234_5678).is_none());
    }

    #[test]
    fn a_power_of_two_size_is_used_whole() {
        let bucket = std::mem::size_of::<Bucket>();
        for (megabytes, expected) in [(16, 16 << 20), (1, 1 << 20), (24, 16 << 20)] {
            let tt = TranspositionTable::new(megabytes).unwrap();
            assert_eq!(tt.buckets.len() * bucket, expected, "{megabytes} MB");
        }
    }
}
