//! `neon`: lane-sliced many-state kernels on AArch64 NEON (8 Prøst-128 or 4 Prøst-256 states per
//! batch), and single-state kernels with one state in two (Prøst-128) or four (Prøst-256)
//! registers (see "Single states" below).
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

use super::batched;
use super::sliced::{self, RC128_DUP};
use crate::em::{EmJob, EmSums};
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
        let (mut lo, mut hi) = (half(0), half(1));
        let mut w: [V16; 16] = core::array::from_fn(|k| V16(if k < 8 { lo[k] } else { hi[k - 8] }));
        if inverse {
            sliced::inverse(&mut w);
        } else {
            sliced::permute(&mut w);
        }
        for h in 0..2 {
            let mut rows = transpose8x8_u16(core::array::from_fn(|k| w[8 * h + k].0));
            for (s, r) in states.iter_mut().zip(rows) {
                vst1q_u16(s.as_mut_ptr().add(8 * h), r);
            }
            zeroize::Zeroize::zeroize(&mut rows);
        }
        // The batch's copies (spilled to the stack when registers run out) are secret: wiped,
        // as the x86 and ARMv7 kernels wipe theirs.
        zeroize::Zeroize::zeroize(&mut w);
        zeroize::Zeroize::zeroize(&mut lo);
        zeroize::Zeroize::zeroize(&mut hi);
    }
}

/// 4 Prøst-256 states at once.
#[inline(never)]
fn batch256(states: &mut [State<u32>; 4], inverse: bool) {
    // SAFETY: NEON is baseline; every load and store covers 4 `u32` inside one 16-lane state.
    unsafe {
        let mut w = [V32(vdupq_n_u32(0)); 16];
        for q in 0..4 {
            let mut t = transpose4x4_u32(core::array::from_fn(|s| vld1q_u32(states[s].as_ptr().add(4 * q))));
            for k in 0..4 {
                w[4 * q + k] = V32(t[k]);
            }
            zeroize::Zeroize::zeroize(&mut t);
        }
        if inverse {
            sliced::inverse(&mut w);
        } else {
            sliced::permute(&mut w);
        }
        for q in 0..4 {
            let mut t = transpose4x4_u32(core::array::from_fn(|k| w[4 * q + k].0));
            for (s, r) in states.iter_mut().zip(t) {
                vst1q_u32(s.as_mut_ptr().add(4 * q), r);
            }
            zeroize::Zeroize::zeroize(&mut t);
        }
        // As in `batch128`: the batch's copies are wiped.
        zeroize::Zeroize::zeroize(&mut w);
    }
}

// ---------------------------------------------------------------------------------------------
// Single states (APE, short messages, remainders), with the lanes ordered as `LD4` loads them:
// `X_j` = position `j` of the four planes (element `p` = lane `4p + j`).
//
// * SubRows: positions 0–3 are the S-box inputs (a, b, c, d) of every plane.
// * MixSlices: the matrix is dyadic in its 4 × 4 plane blocks, block (p, q) = `F[p ⊕ q]`,
//   `F[0] = I`. With `ρd` moving element `p ⊕ d` to `p` (plane-wise, inside 64 bits) and
//   `Y = ρ2(X)`: `out = X ⊕ F2·Y ⊕ ρ1(F1·X ⊕ F3·Y)`, where `Fd·` mixes positions only
//   (`F1·X = [x0⊕x3, x0, x1, x2]`, `F2·Y = [y2, y3, y0⊕y1, y1⊕y2]`,
//   `F3·Y = [y0⊕y2⊕y3, y0⊕y3, y0, y1]`).
// * ShiftPlanes: plane p is element p, so a rotation is two `USHL` by per-element amounts
//   (right by t, left by w − t) and an `ORR`.
// * AddConstants: one `LD1` of the round's constants in the same layout, and `EOR`s.
//
// Prøst-128 (16-bit elements) keeps two positions per register, `[X0 | X1]` and `[X2 | X3]`,
// so every step but the S-box's pairing works on 8 lanes per instruction (about 36
// instructions per round). Prøst-256 keeps one position per register (4 × 32 bits).

/// `RC` in the `LD4` layout: `t[r][j][p] = rc[r][4p + j]`.
const fn rcx<L: Lane, const R: usize>(rc: [[L; 16]; R]) -> [[[L; 4]; 4]; R] {
    let mut t = [[[L::ZERO; 4]; 4]; R];
    let mut r = 0;
    while r < R {
        let mut k = 0;
        while k < 16 {
            t[r][k % 4][k / 4] = rc[r][k];
            k += 1;
        }
        r += 1;
    }
    t
}

static RCX128: [[[u16; 4]; 4]; 16] = rcx(crate::lane::rc128());
static RCX256: [[[u32; 4]; 4]; 18] = rcx(crate::lane::rc256());

/// `USHL` amounts for ShiftPlanes in the single-state layout, for `[P even, P odd, P⁻¹ even,
/// P⁻¹ odd]` rounds: `[right, left]` shifts per plane (`−t` and `w − t` for a rotation right
/// by `t`; P⁻¹ rotates right by `w − t`; a shift by ±w gives 0, so t = 0 is the identity),
/// repeated to `E` elements.
const fn shift_table<L: Lane, const E: usize>() -> [[[i32; E]; 2]; 4] {
    let w = L::BITS;
    let mut out = [[[0i32; E]; 2]; 4];
    let mut k = 0;
    while k < 4 {
        let mut e = 0;
        while e < E {
            let t = L::SHIFTS[k % 2][e % 4];
            let t = if k >= 2 { (w - t) % w } else { t };
            out[k][0][e] = -(t as i32);
            out[k][1][e] = (w - t) as i32;
            e += 1;
        }
        k += 1;
    }
    out
}

static SH128: [[[i16; 8]; 2]; 4] = {
    let t = shift_table::<u16, 8>();
    let mut h = [[[0i16; 8]; 2]; 4];
    let mut i = 0;
    while i < 64 {
        h[i / 16][i / 8 % 2][i % 8] = t[i / 16][i / 8 % 2][i % 8] as i16;
        i += 1;
    }
    h
};
static SH256: [[[i32; 4]; 2]; 4] = shift_table::<u32, 4>();

/// A single-state kernel `$name` on `$lane` states held as `$regs` (`$load`/`$store`), with
/// rounds `$round`/`$round_inv` (round index, shift vectors made by `$mk_sh`).
macro_rules! single_kernel {
    ($name:ident, $lane:ty, $sh:ty, $regs:ty, $load:ident, $store:ident, $round:ident, $round_inv:ident, $mk_sh:expr) => {
        /// P or P⁻¹ on one state (see the notes above).
        #[inline(never)]
        pub(crate) fn $name(s: &mut State<$lane>, inverse: bool) {
            // SAFETY: NEON is baseline on AArch64; `$load`/`$store` cover the 16 lanes of `s`;
            // round indices stay below ROUNDS; `$mk_sh` reads one entry of the shift table.
            unsafe {
                let (e, o): ($sh, $sh) = ($mk_sh(2 * inverse as usize), $mk_sh(2 * inverse as usize + 1));
                let mut x: $regs = $load(s);
                let rounds = <$lane as Lane>::ROUNDS;
                if inverse {
                    let mut r = rounds;
                    while r > 0 {
                        $round_inv(&mut x, r - 1, o);
                        $round_inv(&mut x, r - 2, e);
                        r -= 2;
                    }
                } else {
                    let mut r = 0;
                    while r < rounds {
                        $round(&mut x, r, e);
                        $round(&mut x, r + 1, o);
                        r += 2;
                    }
                }
                $store(s, x);
            }
        }
    };
}

// Prøst-128: `q[0] = [X0 | X1]`, `q[1] = [X2 | X3]`.

type Q128 = [uint16x8_t; 2];
type Sh128 = (int16x8_t, int16x8_t);

#[inline(always)]
unsafe fn load128(s: &State<u16>) -> Q128 {
    // SAFETY: 16 readable `u16`; NEON is baseline.
    unsafe {
        let v = vld4_u16(s.as_ptr());
        [vcombine_u16(v.0, v.1), vcombine_u16(v.2, v.3)]
    }
}

#[inline(always)]
unsafe fn store128(s: &mut State<u16>, q: Q128) {
    // SAFETY: 16 writable `u16`; NEON is baseline.
    unsafe {
        let v = uint16x4x4_t(vget_low_u16(q[0]), vget_high_u16(q[0]), vget_low_u16(q[1]), vget_high_u16(q[1]));
        vst4_u16(s.as_mut_ptr(), v)
    }
}

#[inline(always)]
unsafe fn sh128(k: usize) -> Sh128 {
    // SAFETY: k < 4 (the kernel's parity and direction); 8 readable `i16` each.
    unsafe { (vld1q_s16(SH128[k][0].as_ptr()), vld1q_s16(SH128[k][1].as_ptr())) }
}

/// The upper half of `a` then the lower half of `b`.
#[inline(always)]
unsafe fn mid16(a: uint16x8_t, b: uint16x8_t) -> uint16x8_t {
    // SAFETY: NEON is baseline.
    unsafe { vextq_u16::<4>(a, b) }
}

/// SubRows on `[a | b]`, `[c | d]`: 9 instructions.
#[inline(always)]
unsafe fn sbox128(q: &mut Q128) {
    // SAFETY: NEON is baseline.
    unsafe {
        let [ab, cd] = *q;
        // [a2 | b2] = [c ⊕ a·b | d ⊕ b·c]
        let ab2 = veorq_u16(cd, vandq_u16(ab, mid16(ab, cd)));
        // low half: c2 = a ⊕ a2·b2
        let c2 = veorq_u16(ab, vandq_u16(ab2, mid16(ab2, ab2)));
        // [a ⊕ a2·b2 | b ⊕ b2·c2] = [c2 | d2]
        let cd2 = veorq_u16(ab, vandq_u16(ab2, mid16(ab2, c2)));
        *q = [ab2, cd2];
    }
}

/// MixSlices on `[X0 | X1]`, `[X2 | X3]`: 18 instructions.
#[inline(always)]
unsafe fn mix128(q: &mut Q128) {
    // SAFETY: NEON is baseline.
    unsafe {
        let [x01, x23] = *q;
        let rho1 = |v: uint16x8_t| vrev32q_u16(v);
        let rho2 = |v: uint16x8_t| vreinterpretq_u16_u32(vrev64q_u32(vreinterpretq_u32_u16(v)));
        let (y01, y23) = (rho2(x01), rho2(x23));
        // B = X ⊕ F2·Y: [x0⊕y2 | x1⊕y3], [x2⊕y0⊕y1 | x3⊕y1⊕y2].
        let b01 = veorq_u16(x01, y23);
        let b23 = veorq_u16(veorq_u16(x23, y01), mid16(y01, y23));
        // A = F1·X ⊕ F3·Y: [x0⊕x3⊕y0⊕y2⊕y3 | x0⊕y0⊕y3], [x1⊕y0 | x2⊕y1].
        let a23 = veorq_u16(mid16(x01, x23), y01);
        let p = veorq_u16(x01, y01);
        let d0 = vreinterpretq_u16_u64(vdupq_laneq_u64::<0>(vreinterpretq_u64_u16(p)));
        let e = mid16(veorq_u16(x23, y23), vdupq_n_u16(0));
        let a01 = veorq_u16(veorq_u16(d0, e), y23);
        *q = [veorq_u16(b01, rho1(a01)), veorq_u16(b23, rho1(a23))];
    }
}

#[inline(always)]
unsafe fn rot128(q: &mut Q128, sh: Sh128) {
    // SAFETY: NEON is baseline.
    unsafe {
        for v in q.iter_mut() {
            *v = vorrq_u16(vshlq_u16(*v, sh.0), vshlq_u16(*v, sh.1));
        }
    }
}

#[inline(always)]
unsafe fn rc128(q: &mut Q128, r: usize) {
    // SAFETY: `RCX128[r]` is 16 `u16` (r < 16); NEON is baseline.
    unsafe {
        let k = vld1q_u16_x2(RCX128[r].as_ptr() as *const u16);
        *q = [veorq_u16(q[0], k.0), veorq_u16(q[1], k.1)];
    }
}

#[inline(always)]
unsafe fn round128(q: &mut Q128, r: usize, sh: Sh128) {
    // SAFETY: NEON is baseline; r < 16 (caller).
    unsafe {
        sbox128(q);
        mix128(q);
        rot128(q, sh);
        rc128(q, r);
    }
}

#[inline(always)]
unsafe fn round128_inv(q: &mut Q128, r: usize, sh: Sh128) {
    // SAFETY: NEON is baseline; r < 16 (caller).
    unsafe {
        rc128(q, r);
        rot128(q, sh);
        mix128(q);
        sbox128(q);
    }
}

single_kernel!(one128, u16, Sh128, Q128, load128, store128, round128, round128_inv, sh128);

// Prøst-256: `x[j] = X_j`.

type Q256 = [uint32x4_t; 4];
type Sh256 = (int32x4_t, int32x4_t);

#[inline(always)]
unsafe fn load256(s: &State<u32>) -> Q256 {
    // SAFETY: 16 readable `u32`; NEON is baseline.
    let v = unsafe { vld4q_u32(s.as_ptr()) };
    [v.0, v.1, v.2, v.3]
}

#[inline(always)]
unsafe fn store256(s: &mut State<u32>, x: Q256) {
    // SAFETY: 16 writable `u32`; NEON is baseline.
    unsafe { vst4q_u32(s.as_mut_ptr(), uint32x4x4_t(x[0], x[1], x[2], x[3])) }
}

#[inline(always)]
unsafe fn sh256(k: usize) -> Sh256 {
    // SAFETY: k < 4; 4 readable `i32` each.
    unsafe { (vld1q_s32(SH256[k][0].as_ptr()), vld1q_s32(SH256[k][1].as_ptr())) }
}

/// SubRows: 8 instructions.
#[inline(always)]
unsafe fn sbox256(x: &mut Q256) {
    // SAFETY: NEON is baseline.
    unsafe {
        let [a, b, c, d] = *x;
        let a2 = veorq_u32(c, vandq_u32(a, b));
        let b2 = veorq_u32(d, vandq_u32(b, c));
        let c2 = veorq_u32(a, vandq_u32(a2, b2));
        let d2 = veorq_u32(b, vandq_u32(b2, c2));
        *x = [a2, b2, c2, d2];
    }
}

/// MixSlices: 25 instructions.
#[inline(always)]
unsafe fn mix256(x: &mut Q256) {
    // SAFETY: NEON is baseline.
    unsafe {
        let [x0, x1, x2, x3] = *x;
        let y = x.map(|v| vextq_u32::<2>(v, v));
        let (x03, y03) = (veorq_u32(x0, x3), veorq_u32(y[0], y[3]));
        let f2 = [y[2], y[3], veorq_u32(y[0], y[1]), veorq_u32(y[1], y[2])];
        let a = [veorq_u32(veorq_u32(x03, y03), y[2]), veorq_u32(x0, y03), veorq_u32(x1, y[0]), veorq_u32(x2, y[1])];
        for i in 0..4 {
            x[i] = veorq_u32(veorq_u32(x[i], f2[i]), vrev64q_u32(a[i]));
        }
    }
}

#[inline(always)]
unsafe fn round256(x: &mut Q256, r: usize, sh: Sh256) {
    // SAFETY: NEON is baseline; r < 18 (caller): `RCX256[r]` is 16 `u32`.
    unsafe {
        sbox256(x);
        mix256(x);
        let k = vld1q_u32_x4(RCX256[r].as_ptr() as *const u32);
        let k = [k.0, k.1, k.2, k.3];
        for j in 0..4 {
            x[j] = veorq_u32(vorrq_u32(vshlq_u32(x[j], sh.0), vshlq_u32(x[j], sh.1)), k[j]);
        }
    }
}

#[inline(always)]
unsafe fn round256_inv(x: &mut Q256, r: usize, sh: Sh256) {
    // SAFETY: NEON is baseline; r < 18 (caller): `RCX256[r]` is 16 `u32`.
    unsafe {
        let k = vld1q_u32_x4(RCX256[r].as_ptr() as *const u32);
        let k = [k.0, k.1, k.2, k.3];
        for j in 0..4 {
            let v = veorq_u32(x[j], k[j]);
            x[j] = vorrq_u32(vshlq_u32(v, sh.0), vshlq_u32(v, sh.1));
        }
        mix256(x);
        sbox256(x);
    }
}

single_kernel!(one256, u32, Sh256, Q256, load256, store256, round256, round256_inv, sh256);

/// Remainders of at least `min_rest(N)` states go through a padded batch, smaller ones through
/// single-state calls: by instruction counts (`scripts/count-insns.sh`, ops `pmany128` and
/// `pmany256`), a padded batch of 8 Prøst-128 states costs about 4.1 calls of [`one128`]
/// (2 772 against 678), a batch of 4 Prøst-256 states about 3.1 of [`one256`] (3 062 against
/// 1 003), so a Prøst-256 remainder (at most 3) always goes state by state.
const fn min_rest(n: usize) -> usize {
    if n == 8 { 5 } else { 4 }
}

/// P or P⁻¹ on one state ([`one128`], [`one256`]).
#[inline(always)]
fn one<L: super::Kernels>(s: &mut State<L>, inverse: bool) {
    L::neon_one(s, inverse)
}

/// P or P⁻¹ on many Prøst-128 states.
pub(crate) fn many128(states: &mut [State<u16>], inverse: bool) {
    batched::many::<u16, 8>(states, inverse, batch128, one::<u16>, min_rest(8))
}

/// P or P⁻¹ on many Prøst-256 states.
pub(crate) fn many256(states: &mut [State<u32>], inverse: bool) {
    batched::many::<u32, 4>(states, inverse, batch256, one::<u32>, min_rest(4))
}

/// [`EmJob`] on Prøst-128 blocks (checked by the caller).
pub(crate) fn em128(job: &mut EmJob<'_>) -> EmSums {
    batched::em::<u16, 8>(job, batch128, one::<u16>, min_rest(8))
}

/// [`EmJob`] on Prøst-256 blocks (checked by the caller).
pub(crate) fn em256(job: &mut EmJob<'_>) -> EmSums {
    batched::em::<u32, 4>(job, batch256, one::<u32>, min_rest(4))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::portable;

    fn states<L: Lane>(seed: u32, f: impl Fn(u32) -> L) -> [State<L>; 8] {
        core::array::from_fn(|k| core::array::from_fn(|i| f((seed ^ (k * 16 + i) as u32).wrapping_mul(0x9e37_79b9))))
    }

    /// Each step of the single-state layouts against `portable` (the dyadic block form of
    /// MixSlices, the paired S-box), through `LD4`/`ST4`.
    #[test]
    fn single_state_steps_match_portable() {
        for s in states::<u16>(1, |x| (x >> 7) as u16) {
            // SAFETY: NEON is baseline on AArch64.
            unsafe {
                let step = |f: &dyn Fn(&mut Q128)| {
                    let mut q = load128(&s);
                    f(&mut q);
                    let mut out = [0u16; 16];
                    store128(&mut out, q);
                    out
                };
                assert_eq!(step(&|_| ()), s, "load128/store128");
                let mut want = s;
                portable::sub_rows(&mut want);
                assert_eq!(step(&|q| sbox128(q)), want, "sbox128");
                assert_eq!(step(&|q| mix128(q)), portable::mix_slices_naive(s), "mix128");
            }
        }
        for s in states::<u32>(2, |x| x) {
            // SAFETY: NEON is baseline on AArch64.
            unsafe {
                let step = |f: &dyn Fn(&mut Q256)| {
                    let mut q = load256(&s);
                    f(&mut q);
                    let mut out = [0u32; 16];
                    store256(&mut out, q);
                    out
                };
                let mut want = s;
                portable::sub_rows(&mut want);
                assert_eq!(step(&|q| sbox256(q)), want, "sbox256");
                assert_eq!(step(&|q| mix256(q)), portable::mix_slices_naive(s), "mix256");
            }
        }
    }

    #[test]
    fn single_state_permutations_match_portable() {
        fn check<L: Lane>(s: State<L>, one: fn(&mut State<L>, bool)) {
            let (mut a, mut b) = (s, s);
            one(&mut a, false);
            portable::permute(&mut b);
            assert_eq!(a, b, "P");
            one(&mut a, true);
            assert_eq!(a, s, "P⁻¹(P(x))");
            let (mut a, mut b) = (s, s);
            one(&mut a, true);
            portable::inverse(&mut b);
            assert_eq!(a, b, "P⁻¹");
        }
        for s in states::<u16>(3, |x| (x >> 9) as u16) {
            check(s, one128);
        }
        for s in states::<u32>(4, |x| x) {
            check(s, one256);
        }
    }
}
