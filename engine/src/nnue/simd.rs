//! The network's inner loops, written once as plain loops the compiler
//! vectorises, and compiled twice: for the x86-64 baseline (SSE2) and for
//! AVX2, chosen at run time. Integer arithmetic, so both give
//! identical results; other targets get the plain loops.

use super::network::HIDDEN;

#[inline(always)]
fn add_into(values: &mut [i16; HIDDEN], weights: &[i16]) {
    for (v, &w) in values.iter_mut().zip(&weights[..HIDDEN]) {
        *v = v.wrapping_add(w);
    }
}

#[inline(always)]
fn subtract_from(values: &mut [i16; HIDDEN], weights: &[i16]) {
    for (v, &w) in values.iter_mut().zip(&weights[..HIDDEN]) {
        *v = v.wrapping_sub(w);
    }
}

#[inline(always)]
fn clipped_dot(values: &[i16; HIDDEN], weights: &[i16], clip: i32) -> i32 {
    values.iter().zip(&weights[..HIDDEN]).map(|(&v, &w)| i32::from(v).clamp(0, clip) * i32::from(w)).sum()
}

/// Whether this CPU runs AVX2 (asked once).
#[cfg(target_arch = "x86_64")]
fn has_avx2() -> bool {
    use std::sync::OnceLock;
    static AVX2: OnceLock<bool> = OnceLock::new();
    *AVX2.get_or_init(|| std::arch::is_x86_feature_detected!("avx2"))
}

/// Defines `$name` to call `$plain` compiled with AVX2 when the CPU has it
/// (the `#[inline(always)]` loop is inlined into a function built for AVX2),
/// else the baseline build.
macro_rules! dispatched {
    ($(#[$doc:meta])* $name:ident => $plain:ident ($($arg:ident: $ty:ty),*) -> $ret:ty) => {
        $(#[$doc])*
        #[inline]
        pub fn $name($($arg: $ty),*) -> $ret {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx2")]
                unsafe fn avx2($($arg: $ty),*) -> $ret {
                    $plain($($arg),*)
                }
                if has_avx2() {
                    // SAFETY: the CPU was asked for AVX2 just above.
                    return unsafe { avx2($($arg),*) };
                }
            }
            $plain($($arg),*)
        }
    };
}

dispatched!(
    /// `values += weights`.
    add => add_into(values: &mut [i16; HIDDEN], weights: &[i16]) -> ()
);
dispatched!(
    /// `values -= weights`.
    subtract => subtract_from(values: &mut [i16; HIDDEN], weights: &[i16]) -> ()
);
dispatched!(
    /// `Σ clamp(value, 0, clip) × weight`.
    dot => clipped_dot(values: &[i16; HIDDEN], weights: &[i16], clip: i32) -> i32
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dispatched_loops_equal_the_plain_ones() {
        let mut state = 0x1234_5678_9abc_def1u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as i16
        };
        let values: [i16; HIDDEN] = std::array::from_fn(|_| next() / 64);
        let weights: Vec<i16> = (0..HIDDEN).map(|_| next()).collect();
        let (mut plain, mut fast) = (values, values);
        add_into(&mut plain, &weights);
        add(&mut fast, &weights);
        assert_eq!(plain, fast);
        subtract_from(&mut plain, &weights);
        subtract(&mut fast, &weights);
        assert_eq!(plain, values);
        assert_eq!(fast, values);
        let small: Vec<i16> = weights.iter().map(|w| w / 64).collect();
        assert_eq!(dot(&values, &small, 255), clipped_dot(&values, &small, 255));
    }
}
