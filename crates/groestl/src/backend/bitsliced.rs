//! `bitsliced`: the bit-plane representation of paper [V] §3.3/§5.2 in SSE2 vector registers.
//!
//! Plane `k` holds bit `k` of every state byte; within a 64-bit half, row `r`, column `c` is bit
//! `8r + c` ("one bit of an 8-byte row within one byte", as in [V]'s NEON code). For
//! Grøstl-224/256 the low half of each XMM plane is P and the high half Q, so one pass computes
//! all 128 S-boxes of both permutations with the Boyar–Peralta circuit
//! (`crate::sbox_circuit::sbox`, 113 gates on whole registers); ShiftBytes rotates the bits of
//! each row byte by σ[r] (masked shift stages, P and Q with their own masks); MixBytes aligns row
//! `i + k` by rotating each half by `8k` bits and multiplies by 2 with three plane XORs. For
//! Grøstl-384/512 an XMM plane holds columns 0–7 and 8–15 of one permutation.
//!
//! The round structure (`permute`, the bitslice transposition, the constants) is the `portable`
//! backend's, instantiated with vector planes. SSE2 is part of x86-64, so this backend needs no
//! run-time detection; the only `unsafe` is in the thin SSE2 wrappers below. Constant-time:
//! Boolean operations and shifts only.

#![allow(unsafe_code)]
#![allow(clippy::needless_range_loop)]

use core::arch::x86_64::__m128i;
use core::ops::{BitAnd, BitXor, Not};

use super::portable::{
    Plane, RC_P1024, RC_PQ512, RC_Q1024, columns_from_planes, permute, planes_from_block, planes_from_columns,
    rep, rows_with,
};
use crate::consts::*;

/// Safe wrappers of the SSE2 intrinsics used here.
macro_rules! sse2 {
    ($($name:ident($($a:ident: $t:ty),*) -> $r:ty;)*) => {$(
        #[inline(always)]
        fn $name($($a: $t),*) -> $r {
            // SAFETY: SSE2 is part of the x86-64 baseline and this module exists only on x86-64.
            unsafe { core::arch::x86_64::$name($($a),*) }
        }
    )*};
}

sse2! {
    _mm_xor_si128(a: __m128i, b: __m128i) -> __m128i;
    _mm_and_si128(a: __m128i, b: __m128i) -> __m128i;
    _mm_or_si128(a: __m128i, b: __m128i) -> __m128i;
    _mm_andnot_si128(a: __m128i, b: __m128i) -> __m128i;
    _mm_srl_epi64(a: __m128i, c: __m128i) -> __m128i;
    _mm_sll_epi64(a: __m128i, c: __m128i) -> __m128i;
    _mm_cvtsi32_si128(a: i32) -> __m128i;
    _mm_cvtsi128_si64(a: __m128i) -> i64;
    _mm_set_epi64x(hi: i64, lo: i64) -> __m128i;
    _mm_set1_epi64x(a: i64) -> __m128i;
    _mm_set1_epi32(a: i32) -> __m128i;
}

#[inline(always)]
fn swap_halves(x: __m128i) -> __m128i {
    // SAFETY: SSE2 is part of the x86-64 baseline.
    unsafe { core::arch::x86_64::_mm_shuffle_epi32::<0x4e>(x) }
}

pub(crate) fn available() -> bool {
    true
}

macro_rules! vector_plane {
    ($t:ident) => {
        impl BitXor for $t {
            type Output = $t;
            #[inline(always)]
            fn bitxor(self, o: $t) -> $t {
                $t(_mm_xor_si128(self.0, o.0))
            }
        }
        impl BitAnd for $t {
            type Output = $t;
            #[inline(always)]
            fn bitand(self, o: $t) -> $t {
                $t(_mm_and_si128(self.0, o.0))
            }
        }
        impl Not for $t {
            type Output = $t;
            #[inline(always)]
            fn not(self) -> $t {
                $t(_mm_xor_si128(self.0, _mm_set1_epi32(-1)))
            }
        }
    };
}

/// Rotates each 64-bit half right by `8k` bits: row `i` becomes row `i + k`.
#[inline(always)]
fn rot_rows(x: __m128i, k: u32) -> __m128i {
    if k == 0 {
        return x;
    }
    let r = _mm_cvtsi32_si128(8 * k as i32);
    let l = _mm_cvtsi32_si128(64 - 8 * k as i32);
    _mm_or_si128(_mm_srl_epi64(x, r), _mm_sll_epi64(x, l))
}

/// One ShiftBytes stage: bytes selected by `m` have their bits rotated right by `s` (columns
/// move left), with `sw` the register whose bits wrap around (itself, or the other half).
#[inline(always)]
fn stage(x: __m128i, sw_of: impl Fn(__m128i) -> __m128i, m: __m128i, s: u32) -> __m128i {
    let y = _mm_and_si128(x, m);
    let low = _mm_set1_epi64x(rep(0xff >> s) as i64);
    let high = _mm_set1_epi64x(rep(!(0xff >> s)) as i64);
    let a = _mm_and_si128(_mm_srl_epi64(y, _mm_cvtsi32_si128(s as i32)), low);
    let b = _mm_and_si128(_mm_sll_epi64(sw_of(y), _mm_cvtsi32_si128(8 - s as i32)), high);
    _mm_or_si128(_mm_andnot_si128(m, x), _mm_or_si128(a, b))
}

/// Grøstl-224/256 planes: P in the low half, Q in the high half.
#[derive(Clone, Copy)]
struct PqPlane(__m128i);
vector_plane!(PqPlane);

impl Plane for PqPlane {
    #[inline(always)]
    fn rows(self, k: u32) -> Self {
        PqPlane(rot_rows(self.0, k))
    }
    /// Ignores `sigma`: the P half uses σ_P512, the Q half σ_Q512.
    #[inline(always)]
    fn shift_bytes(self, _sigma: &[u32; 8]) -> Self {
        let mut x = self.0;
        for s in [1u32, 2, 4] {
            let m = _mm_set_epi64x(rows_with(&SIGMA_Q512, s) as i64, rows_with(&SIGMA_P512, s) as i64);
            x = stage(x, |y| y, m, s);
        }
        PqPlane(x)
    }
    #[inline(always)]
    fn from_halves(lo: u64, hi: u64) -> Self {
        PqPlane(_mm_set_epi64x(hi as i64, lo as i64))
    }
}

/// Grøstl-384/512 planes: columns 0–7 in the low half, 8–15 in the high half.
#[derive(Clone, Copy)]
struct WidePlane(__m128i);
vector_plane!(WidePlane);

impl Plane for WidePlane {
    #[inline(always)]
    fn rows(self, k: u32) -> Self {
        WidePlane(rot_rows(self.0, k))
    }
    #[inline(always)]
    fn shift_bytes(self, sigma: &[u32; 8]) -> Self {
        let mut x = self.0;
        for s in [1u32, 2, 4] {
            let m = rows_with(sigma, s);
            if m != 0 {
                x = stage(x, swap_halves, _mm_set1_epi64x(m as i64), s);
            }
        }
        let m8 = _mm_set1_epi64x(rows_with(sigma, 8) as i64);
        let t = _mm_and_si128(_mm_xor_si128(x, swap_halves(x)), m8);
        WidePlane(_mm_xor_si128(x, t))
    }
    #[inline(always)]
    fn from_halves(lo: u64, hi: u64) -> Self {
        WidePlane(_mm_set_epi64x(hi as i64, lo as i64))
    }
}

#[inline(always)]
fn halves(x: __m128i) -> (u64, u64) {
    (_mm_cvtsi128_si64(x) as u64, _mm_cvtsi128_si64(swap_halves(x)) as u64)
}

pub(crate) fn compress512(h: &mut [u64; 8], blocks: &[u8]) {
    let mut hp = planes_from_columns(h);
    for block in blocks.chunks_exact(64) {
        let m = planes_from_block(block);
        let mut pq = [PqPlane::from_halves(0, 0); 8];
        for k in 0..8 {
            pq[k] = PqPlane::from_halves(hp[k] ^ m[k], m[k]);
        }
        let out = permute(pq, &RC_PQ512, &SIGMA_P512, ROUNDS_512);
        for k in 0..8 {
            let (p, q) = halves(out[k].0);
            hp[k] ^= p ^ q;
        }
    }
    columns_from_planes(hp, h);
}

pub(crate) fn output512(h: &[u64; 8]) -> [u64; 8] {
    let hp = planes_from_columns(h);
    let mut x = [PqPlane::from_halves(0, 0); 8];
    for k in 0..8 {
        x[k] = PqPlane::from_halves(hp[k], hp[k]);
    }
    // The Q half computes Q(h), unused.
    let out = permute(x, &RC_PQ512, &SIGMA_P512, ROUNDS_512);
    let mut p = [0u64; 8];
    for k in 0..8 {
        p[k] = halves(out[k].0).0 ^ hp[k];
    }
    let mut o = [0u64; 8];
    columns_from_planes(p, &mut o);
    o
}

fn wide(h: &[u64]) -> [WidePlane; 8] {
    let (lo, hi) = (planes_from_columns(&h[..8]), planes_from_columns(&h[8..]));
    let mut w = [WidePlane::from_halves(0, 0); 8];
    for k in 0..8 {
        w[k] = WidePlane::from_halves(lo[k], hi[k]);
    }
    w
}

fn unwide(w: [WidePlane; 8], out: &mut [u64]) {
    let (mut lo, mut hi) = ([0u64; 8], [0u64; 8]);
    for k in 0..8 {
        (lo[k], hi[k]) = halves(w[k].0);
    }
    columns_from_planes(lo, &mut out[..8]);
    columns_from_planes(hi, &mut out[8..]);
}

pub(crate) fn compress1024(h: &mut [u64; 16], blocks: &[u8]) {
    let mut hp = wide(h);
    for block in blocks.chunks_exact(128) {
        let (lo, hi) = (planes_from_block(&block[..64]), planes_from_block(&block[64..]));
        let mut m = [WidePlane::from_halves(0, 0); 8];
        let mut hm = m;
        for k in 0..8 {
            m[k] = WidePlane::from_halves(lo[k], hi[k]);
            hm[k] = hp[k] ^ m[k];
        }
        let p = permute(hm, &RC_P1024, &SIGMA_P1024, ROUNDS_1024);
        let q = permute(m, &RC_Q1024, &SIGMA_Q1024, ROUNDS_1024);
        for k in 0..8 {
            hp[k] = hp[k] ^ p[k] ^ q[k];
        }
    }
    unwide(hp, h);
}

pub(crate) fn output1024(h: &[u64; 16]) -> [u64; 16] {
    let hp = wide(h);
    let mut p = permute(hp, &RC_P1024, &SIGMA_P1024, ROUNDS_1024);
    for k in 0..8 {
        p[k] = p[k] ^ hp[k];
    }
    let mut out = [0u64; 16];
    unwide(p, &mut out);
    out
}
