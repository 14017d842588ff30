//! The cycle-counting harness every `slicewise bench` subcommand uses.
//!
//! Figures are TSC cycles (rdtsc), the unit SUPERCOP uses (elsewhere nanoseconds). One
//! sample times `reps` back-to-back calls, so that short messages are not swamped by the
//! cost of reading the counter; the figure reported is the median over many samples. Each
//! cell (one function, one size) starts with one warm-up of about 20 ms before its first
//! sample; the samples themselves follow back to back, without a warm-up of their own.

use std::hint::black_box;
use std::time::Instant;

/// The clock, `ticks()`: the time-stamp counter (rdtsc) on x86-64, a nanosecond clock
/// elsewhere; `tick_unit()` names its unit. From `slicewise-platform`, shared with the timing
/// test (`examples/ctdudect.rs`) and the Grøstl quick bench.
pub use slicewise_platform::{tick_unit, ticks};

/// How much measuring to do.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    /// Number of timed samples; the median is reported.
    pub samples: usize,
    /// Minimum number of bytes processed per sample (sets the repetitions per sample).
    pub bytes_per_sample: usize,
}

impl Default for Plan {
    fn default() -> Self {
        Plan { samples: 31, bytes_per_sample: 1 << 20 }
    }
}

/// Median cycles per byte of `f`, which processes `len` bytes per call.
pub fn cycles_per_byte<F: FnMut()>(plan: Plan, len: usize, mut f: F) -> f64 {
    let reps = plan.bytes_per_sample.div_ceil(len.max(1)).max(1);
    // Warm up caches, branch predictors and the clock.
    let warm = Instant::now();
    while warm.elapsed().as_millis() < 20 {
        f();
    }
    let mut samples: Vec<u64> = Vec::with_capacity(plan.samples);
    for _ in 0..plan.samples.max(1) {
        let t0 = ticks();
        for _ in 0..reps {
            f();
        }
        let t1 = ticks();
        samples.push(t1.wrapping_sub(t0));
    }
    let med = median(&mut samples);
    med as f64 / (reps as f64 * len.max(1) as f64)
}

/// Median cycles per call of `f`.
pub fn cycles_per_call<F: FnMut()>(plan: Plan, mut f: F) -> f64 {
    cycles_per_byte(plan, 1, &mut f)
}

fn median(v: &mut [u64]) -> u64 {
    v.sort_unstable();
    v[v.len() / 2]
}

/// Keeps the optimiser from discarding a result.
#[inline(always)]
pub fn keep<T>(x: T) -> T {
    black_box(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_picks_the_middle() {
        assert_eq!(median(&mut [5, 1, 3]), 3);
        assert_eq!(median(&mut [9, 1, 3, 7, 5]), 5);
    }

    #[test]
    fn ticks_advance() {
        let a = ticks();
        let mut x = 0u64;
        for i in 0..10_000u64 {
            x = keep(x.wrapping_add(i));
        }
        assert!(ticks() > a, "{x}");
    }
}
