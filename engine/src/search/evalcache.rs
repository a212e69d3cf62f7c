//! A per-thread cache of static evaluations.
//!
//! Iterative deepening, re-searches and transpositions evaluate the same
//! positions again and again, and the drop-chess evaluation (attack maps,
//! safe checking drops, drop mobility) is a third of the search's time. Each
//! slot packs the upper 32 bits of the position's hash with the evaluation in
//! one `u64`; the slot is chosen by the lower bits, so a hit compares 32 +
//! [`BITS`] bits of the key. The evaluation depends only on the position and
//! on the team model's expected arrivals, which are fixed for one search; a
//! cache lives for one search, so it changes a search's speed, never its
//! result.

/// log2 of the number of slots (2^17 slots of 8 bytes: 1 MiB per thread).
const BITS: u32 = 17;
const MASK: u64 = (1 << BITS) - 1;

pub struct EvalCache {
    slots: Vec<u64>,
}

impl Default for EvalCache {
    fn default() -> EvalCache {
        EvalCache { slots: vec![0; 1 << BITS] }
    }
}

impl EvalCache {
    /// The cached evaluation of the position with this hash, or `evaluate()`
    /// (stored for next time).
    #[inline]
    pub fn get_or_insert(&mut self, hash: u64, evaluate: impl FnOnce() -> i32) -> i32 {
        let slot = &mut self.slots[(hash & MASK) as usize];
        let check = (hash >> 32) as u32;
        // 0 marks an empty slot; an entry that packs to 0 is just recomputed.
        if *slot != 0 && (*slot >> 32) as u32 == check {
            return *slot as u32 as i32;
        }
        let value = evaluate();
        *slot = (u64::from(check) << 32) | u64::from(value as u32);
        value
    }
}
