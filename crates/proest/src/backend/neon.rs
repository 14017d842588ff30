//! `neon`: lane-sliced many-state kernels on AArch64 NEON (8 Prøst-128 or 4 Prøst-256 states per
//! batch), single states by `u32x2`.
//!
//! Register `k` of a batch holds lane `k` of every state: 8 × 16-bit elements (Prøst-128) or
//! 4 × 32-bit elements (Prøst-256) per 128-bit register, so a batch is 16 registers and leaves
//! the other 16 for temporaries. The round is [`super::sliced`]: SubRows and MixSlices are
//! `AND`/`EOR` on whole registers; ShiftPlanes is `SHL` + `SRI` (shift right and insert) per
//! register, `REV16`/`REV32` for a rotation by half the lane; AddConstants one `LD1R`
//! (load-and-broadcast) and one `EOR` per register. The states enter and leave through
//! `TRN1`/`TRN2` transposes (8 × 8 of 16-bit or 4 × 4 of 32-bit elements).
//!
//! NEON is part of the AArch64 baseline, so the backend is always available there; there is no
//! run-time check and no `#[target_feature]`. Constant time: fixed instruction sequences, no
//! secret-dependent memory access or branches.

#![allow(unsafe_code)]

use core::arch::aarch64::*;

use super::sliced::{self, RC128_DUP};
use crate::em::{EmJob, EmSums, Words};
use crate::lane::{Lane, State};

sliced::simd_word!(V16, uint16x8_t, veorq_u16, vandq_u16);
sliced::simd_word!(V32, uint32x4_t, veorq_u32, vandq_u32);

/// Rotates the 16-bit elements of `$x` right by the literal `$n`.
macro_rules! ror16 {
    ($x:expr, 0) => {
        $x
    };
    ($x:expr, 8) => {
        vreinterpretq_u16_u8(vrev16q_u8(vreinterpretq_u8_u16($x)))
    };
    ($x:expr, $n:literal) => {
        vsriq_n_u16::<$n>(vshlq_n_u16::<{ 16 - $n }>($x), $x)
    };
}

/// Rotates the 32-bit elements of `$x` right by the literal `$n`.
macro_rules! ror32 {
    ($x:expr, 0) => {
        $x
    };
    ($x:expr, $n:literal) => {
        vsriq_n_u32::<$n>(vshlq_n_u32::<{ 32 - $n }>($x), $x)
    };
}

sliced::word_impl!(V16, u16, ror16, |r: usize, k: usize| vreinterpretq_u16_u32(vld1q_dup_u32(&RC128_DUP[r][k])));
sliced::word_impl!(V32, u32, ror32, |r: usize, k: usize| vld1q_dup_u32(&<u32 as Lane>::RC[r][k]));

/// 8 × 8 transpose of 16-bit elements: `out[k]` element `s` = `a[s]` element `k`.
#[inline(always)]
fn transpose8x8_u16(a: [uint16x8_t; 8]) -> [uint16x8_t; 8] {
    // SAFETY: NEON is baseline on AArch64; register-only operations.
    unsafe {
        let w32 = vreinterpretq_u32_u16;
        let w64 = vreinterpretq_u64_u32;
        let mut b = [vdupq_n_u32(0); 8];
        for i in 0..4 {
            b[2 * i] = w32(vtrn1q_u16(a[2 * i], a[2 * i + 1]));
            b[2 * i + 1] = w32(vtrn2q_u16(a[2 * i], a[2 * i + 1]));
        }
        // c[q] holds columns q and q + 4 of rows 0–3 (q < 4) or rows 4–7 (q ≥ 4).
        let mut c = [vdupq_n_u64(0); 8];
        for h in [0, 4] {
            c[h] = w64(vtrn1q_u32(b[h], b[h + 2]));
            c[h + 2] = w64(vtrn2q_u32(b[h], b[h + 2]));
            c[h + 1] = w64(vtrn1q_u32(b[h + 1], b[h + 3]));
            c[h + 3] = w64(vtrn2q_u32(b[h + 1], b[h + 3]));
        }
        let mut d = a;
        for q in 0..4 {
            d[q] = vreinterpretq_u16_u64(vtrn1q_u64(c[q], c[q + 4]));
            d[q + 4] = vreinterpretq_u16_u64(vtrn2q_u64(c[q], c[q + 4]));
        }
        d
    }
}

/// 4 × 4 transpose of 32-bit elements.
#[inline(always)]
fn transpose4x4_u32(a: [uint32x4_t; 4]) -> [uint32x4_t; 4] {
    // SAFETY: NEON is baseline on AArch64; register-only operations.
    unsafe {
        let w64 = vreinterpretq_u64_u32;
        let b = [vtrn1q_u32(a[0], a[1]), vtrn2q_u32(a[0], a[1]), vtrn1q_u32(a[2], a[3]), vtrn2q_u32(a[2], a[3])];
        let t = |x: uint64x2_t| vreinterpretq_u32_u64(x);
        [
            t(vtrn1q_u64(w64(b[0]), w64(b[2]))),
            t(vtrn1q_u64(w64(b[1]), w64(b[3]))),
            t(vtrn2q_u64(w64(b[0]), w64(b[2]))),
            t(vtrn2q_u64(w64(b[1]), w64(b[3]))),
        ]
    }
}

/// 8 Prøst-128 states at once.
#[inline(never)]
fn batch128(states: &mut [State<u16>; 8], inverse: bool) {
    // SAFETY: NEON is baseline; every load and store covers 8 `u16` inside one 16-lane state.
    unsafe {
        let half = |h: usize| transpose8x8_u16(core::array::from_fn(|s| vld1q_u16(states[s].as_ptr().add(8 * h))));
        let (lo, hi) = (half(0), half(1));
        let mut w: [V16; 16] = core::array::from_fn(|k| V16(if k < 8 { lo[k] } else { hi[k - 8] }));
        if inverse {
            sliced::inverse(&mut w);
        } else {
            sliced::permute(&mut w);
        }
        for h in 0..2 {
            let rows = transpose8x8_u16(core::array::from_fn(|k| w[8 * h + k].0));
            for (s, r) in states.iter_mut().zip(rows) {
                vst1q_u16(s.as_mut_ptr().add(8 * h), r);
            }
        }
    }
}

/// 4 Prøst-256 states at once.
#[inline(never)]
fn batch256(states: &mut [State<u32>; 4], inverse: bool) {
    // SAFETY: NEON is baseline; every load and store covers 4 `u32` inside one 16-lane state.
    unsafe {
        let mut w = [V32(vdupq_n_u32(0)); 16];
        for q in 0..4 {
            let t = transpose4x4_u32(core::array::from_fn(|s| vld1q_u32(states[s].as_ptr().add(4 * q))));
            for k in 0..4 {
                w[4 * q + k] = V32(t[k]);
            }
        }
        if inverse {
            sliced::inverse(&mut w);
        } else {
            sliced::permute(&mut w);
        }
        for q in 0..4 {
            let t = transpose4x4_u32(core::array::from_fn(|k| w[4 * q + k].0));
            for (s, r) in states.iter_mut().zip(t) {
                vst1q_u32(s.as_mut_ptr().add(4 * q), r);
            }
        }
    }
}

/// Remainders of at least `min_rest(N)` states go through a padded batch, smaller ones through
/// single `u32x2` calls: by instruction counts (`scripts/count-insns.sh`), a batch of 8
/// Prøst-128 states costs about 2.5 single calls, a batch of 4 Prøst-256 states about 2.
const fn min_rest(n: usize) -> usize {
    if n == 8 { 3 } else { 2 }
}

/// P or P⁻¹ on one state (`u32x2`), called directly so that it inlines into the serial loop.
#[inline(always)]
fn one<L: super::Kernels>(s: &mut State<L>, inverse: bool) {
    if inverse { super::u32x2::inverse(s) } else { super::u32x2::permute(s) }
}

/// P or P⁻¹ on many states: whole batches of `N`, a padded batch for a remainder of at least
/// [`min_rest`] states, single states otherwise.
fn many<L: super::Kernels, const N: usize>(states: &mut [State<L>], inverse: bool, batch: fn(&mut [State<L>; N], bool)) {
    let mut chunks = states.chunks_exact_mut(N);
    for c in &mut chunks {
        batch(c.try_into().expect("chunk of N"), inverse);
    }
    let rest = chunks.into_remainder();
    if rest.len() < min_rest(N) {
        rest.iter_mut().for_each(|s| one(s, inverse));
        return;
    }
    let mut buf = [[L::ZERO; 16]; N];
    buf[..rest.len()].copy_from_slice(rest);
    batch(&mut buf, inverse);
    rest.copy_from_slice(&buf[..rest.len()]);
    zeroize::Zeroize::zeroize(&mut buf);
}

/// P or P⁻¹ on many Prøst-128 states.
pub(crate) fn many128(states: &mut [State<u16>], inverse: bool) {
    many::<u16, 8>(states, inverse, batch128)
}

/// P or P⁻¹ on many Prøst-256 states.
pub(crate) fn many256(states: &mut [State<u32>], inverse: bool) {
    many::<u32, 4>(states, inverse, batch256)
}

/// An [`EmJob`] through the batches: the blocks of a batch are gathered (with the key and mask
/// XORs) into a state array, permuted together, and scattered (with the post XORs) to `io`; the
/// masks are doubled in general registers. A remainder shorter than [`min_rest`] goes to
/// [`crate::em::em_serial`].
fn em<L: super::Kernels, const N: usize>(job: &mut EmJob<'_>, batch: fn(&mut [State<L>; N], bool)) -> EmSums {
    let s = 16 * L::BYTES;
    let n = job.blocks;
    let batched = if n % N >= min_rest(N) { n } else { n - n % N };
    let mut sums = EmSums::default();
    if batched == 0 {
        // Nothing to batch: no state arrays to fill and wipe.
        crate::em::em_serial::<L>(job, 0, &mut sums, one::<L>);
        return sums;
    }
    let (pre, post) = (Words::from_bytes(job.pre), Words::from_bytes(job.post_const));
    let mut m = Words::from_bytes(job.mask);
    let mut acc = [Words::zero(s); 3];
    let mut states = [[L::ZERO; 16]; N];
    let mut masks = [Words::zero(s); N];
    for base in (0..batched).step_by(N) {
        let cnt = N.min(batched - base);
        for j in 0..cnt {
            let mut x = Words::from_bytes(job.block(job.src, base + j, s));
            acc[0].xor(&x);
            x.xor(&pre);
            if job.mask_in {
                x.xor(&m);
            }
            states[j] = x.to_state::<L>();
            x.wipe();
            masks[j] = m;
            m.dbl();
        }
        batch(&mut states, job.inverse);
        for j in 0..cnt {
            let mut y = Words::from_state(&states[j]);
            y.xor(&post);
            if job.mask_out {
                y.xor(&masks[j]);
            }
            if let Some(at) = job.post {
                let pb = Words::from_bytes(job.block(at, base + j, s));
                acc[1].xor(&pb);
                y.xor(&pb);
            }
            acc[2].xor(&y);
            let o = job.dst + (base + j) * job.stride;
            y.store(&mut job.io[o..o + s]);
            y.wipe();
        }
    }
    m.store(job.mask);
    m.wipe();
    masks.iter_mut().for_each(Words::wipe);
    zeroize::Zeroize::zeroize(&mut states);
    for (a, dst) in acc.iter_mut().zip([&mut sums.src, &mut sums.post, &mut sums.out]) {
        a.xor_into(&mut dst[..s]);
        a.wipe();
    }
    crate::em::em_serial::<L>(job, batched, &mut sums, one::<L>);
    sums
}

/// [`EmJob`] on Prøst-128 blocks (checked by the caller).
pub(crate) fn em128(job: &mut EmJob<'_>) -> EmSums {
    em::<u16, 8>(job, batch128)
}

/// [`EmJob`] on Prøst-256 blocks (checked by the caller).
pub(crate) fn em256(job: &mut EmJob<'_>) -> EmSums {
    em::<u32, 4>(job, batch256)
}
