//! `avx512`: lane-sliced many-state kernels on AVX-512 (32 Prøst-128 or 16 Prøst-256 states
//! per batch) and a single-state kernel for the serial calls (APE, setup and tag).
//!
//! **Many states.** Register `k` holds lane `k` of every state: 32 × 16-bit or 16 × 32-bit
//! elements per ZMM register, 16 registers per batch (32 ZMM registers: no spills). The round is
//! [`super::sliced`]; LLVM fuses the S-box AND/XOR pairs and the MixSlices XOR chains into
//! `VPTERNLOG`. ShiftPlanes is one instruction per register: `VPRORD` for 32-bit lanes,
//! `VPSHRDW` (AVX512-VBMI2 funnel shift of a register with itself) for 16-bit lanes.
//! AddConstants is one `VPXORD` with an embedded 32-bit broadcast. The transposes in and out
//! are four stages of 16 two-source permutes (`VPERMT2W` / `VPERMT2D`), each trading one
//! register-index bit for one element-index bit.
//!
//! **One state** (see [`super::single`]): the whole Prøst-128 state in one YMM register or the
//! Prøst-256 state in one ZMM register.
//!
//! Constant time: fixed instruction sequences, no secret-dependent memory access or branches.

#![allow(unsafe_code)]

use core::arch::x86_64::*;
use super::avx2::chunked;
use super::sliced::{self, RC128_DUP};
use crate::lane::{Lane, State};

cpufeatures::new!(cpu, "avx", "avx2", "avx512f", "avx512bw", "avx512vl", "avx512vbmi2");

/// Whether this CPU has AVX-512 F/BW/VL/VBMI2 (cached CPUID).
pub(crate) fn available() -> bool {
    cpu::get()
}

sliced::simd_word!(Z16, __m512i, _mm512_xor_si512, _mm512_and_si512);
sliced::simd_word!(Z32, __m512i, _mm512_xor_si512, _mm512_and_si512);

macro_rules! ror16 {
    ($x:expr, 0) => {
        $x
    };
    ($x:expr, $n:literal) => {
        _mm512_shrdi_epi16::<$n>($x, $x)
    };
}

macro_rules! ror32 {
    ($x:expr, 0) => {
        $x
    };
    ($x:expr, $n:literal) => {
        _mm512_ror_epi32::<$n>($x)
    };
}

sliced::word_impl!(Z16, u16, ror16, |r: usize, k: usize| _mm512_set1_epi32(RC128_DUP[r][k] as i32));
sliced::word_impl!(Z32, u32, ror32, |r: usize, k: usize| _mm512_set1_epi32(u32::RC[r][k] as i32));

/// Index vectors of a two-source permute that swaps register-index bit `j` with element-index
/// bit `p` (elements of `1 << ebits` per register): for the output register whose bit `j` is
/// `v`, element `e` comes from the source register with bit `j` = bit `p` of `e` (the index's
/// bit `ebits` selects the second source), element `e` with bit `p` set to `v`.
const fn swap_index<const E: usize>(p: usize, v: usize) -> [u32; E] {
    let ebits = E.trailing_zeros() as usize;
    let mut t = [0u32; E];
    let mut e = 0;
    while e < E {
        let src = ((e >> p) & 1) << ebits;
        t[e] = (src | (e & !(1 << p)) | (v << p)) as u32;
        e += 1;
    }
    t
}

const fn swap_tables16() -> [[[u16; 32]; 2]; 4] {
    let mut t = [[[0u16; 32]; 2]; 4];
    let mut p = 0;
    while p < 4 {
        let mut v = 0;
        while v < 2 {
            let x = swap_index::<32>(p, v);
            let mut e = 0;
            while e < 32 {
                t[p][v][e] = x[e] as u16;
                e += 1;
            }
            v += 1;
        }
        p += 1;
    }
    t
}

const fn swap_tables32() -> [[[u32; 16]; 2]; 4] {
    let mut t = [[[0u32; 16]; 2]; 4];
    let mut p = 0;
    while p < 4 {
        t[p][0] = swap_index::<16>(p, 0);
        t[p][1] = swap_index::<16>(p, 1);
        p += 1;
    }
    t
}

static SWAP16: [[[u16; 32]; 2]; 4] = swap_tables16();
static SWAP32: [[[u32; 16]; 2]; 4] = swap_tables32();

/// Swaps register-index bit `j` with element-index bit `j`: 16-bit elements (`VPERMT2W`) if
/// `words16`, else 32-bit elements (`VPERMT2D`).
#[target_feature(enable = "avx,avx2,avx512f,avx512bw,avx512vl,avx512vbmi2")]
fn swap_stage(x: &mut [__m512i; 16], j: usize, words16: bool) {
    let (t0, t1): (*const u8, *const u8) = if words16 {
        (SWAP16[j][0].as_ptr().cast(), SWAP16[j][1].as_ptr().cast())
    } else {
        (SWAP32[j][0].as_ptr().cast(), SWAP32[j][1].as_ptr().cast())
    };
    // SAFETY: each table entry is 64 readable bytes; `loadu` has no alignment requirement.
    let (i0, i1) = unsafe { (_mm512_loadu_si512(t0.cast()), _mm512_loadu_si512(t1.cast())) };
    for q in (0..16).filter(|q| q & (1 << j) == 0) {
        let (a, b) = (x[q], x[q | 1 << j]);
        if words16 {
            x[q] = _mm512_permutex2var_epi16(a, i0, b);
            x[q | 1 << j] = _mm512_permutex2var_epi16(a, i1, b);
        } else {
            x[q] = _mm512_permutex2var_epi32(a, i0, b);
            x[q | 1 << j] = _mm512_permutex2var_epi32(a, i1, b);
        }
    }
}

/// One batch: 1 KiB of states (32 Prøst-128 or 16 Prøst-256 states), i.e. 16 ZMM rows.
///
/// Prøst-128 (`words16`): row `i` holds states `2i`, `2i + 1` (register bits = state bits 1..4,
/// element bits = lane bits 0..3 and state bit 0). Prøst-256: row `i` is state `i`. In both
/// cases swapping register bit j with element bit j for j = 0..3 leaves lane `k` in register
/// `k`; each swap is an involution, so the way back is the same stages in reverse order.
#[target_feature(enable = "avx,avx2,avx512f,avx512bw,avx512vl,avx512vbmi2")]
fn batch<L: Lane, W: sliced::Word, const N: usize>(
    states: &mut [State<L>; N],
    inverse: bool,
    wrap: fn(__m512i) -> W,
    unwrap: fn(W) -> __m512i,
) {
    assert_eq!(N * 16 * L::BYTES, 1024, "a batch is 16 ZMM rows");
    let words16 = L::BITS == 16;
    let p: *mut u8 = states.as_mut_ptr().cast();
    let mut x: [__m512i; 16] = core::array::from_fn(|i| {
        // SAFETY: `states` is 1024 contiguous bytes (asserted above); row i is bytes 64i..64i+64.
        unsafe { _mm512_loadu_si512(p.add(64 * i).cast()) }
    });
    for j in 0..4 {
        swap_stage(&mut x, j, words16);
    }
    let mut w = x.map(wrap);
    if inverse {
        sliced::inverse(&mut w);
    } else {
        sliced::permute(&mut w);
    }
    let mut x = w.map(unwrap);
    for j in (0..4).rev() {
        swap_stage(&mut x, j, words16);
    }
    for (i, v) in x.into_iter().enumerate() {
        // SAFETY: as for the loads; `states` is borrowed mutably.
        unsafe { _mm512_storeu_si512(p.add(64 * i).cast(), v) }
    }
}

/// Remainders of at least this many states go through a padded batch.
const MIN_REST: usize = 3;

/// P or P^-1 on many Prøst-128 states. Panics if the CPU lacks the features.
pub(crate) fn many128(states: &mut [State<u16>], inverse: bool) {
    assert!(available(), "CPU lacks AVX-512 F/BW/VL/VBMI2");
    let single = |s: &mut State<u16>| one128(s, inverse);
    // SAFETY: `available()` just confirmed every feature the kernel enables.
    chunked::<u16, 32>(states, MIN_REST, |b| unsafe { batch(b, inverse, Z16, |z| z.0) }, single);
}

/// P or P^-1 on many Prøst-256 states. Panics if the CPU lacks the features.
pub(crate) fn many256(states: &mut [State<u32>], inverse: bool) {
    assert!(available(), "CPU lacks AVX-512 F/BW/VL/VBMI2");
    let single = |s: &mut State<u32>| one256(s, inverse);
    // SAFETY: `available()` just confirmed every feature the kernel enables.
    chunked::<u32, 16>(states, MIN_REST, |b| unsafe { batch(b, inverse, Z32, |z| z.0) }, single);
}

/// P or P^-1 on one Prøst-128 state.
pub(crate) fn one128(s: &mut State<u16>, inverse: bool) {
    if inverse { super::u32x2::inverse(s) } else { super::u32x2::permute(s) }
}

/// P or P^-1 on one Prøst-256 state.
pub(crate) fn one256(s: &mut State<u32>, inverse: bool) {
    if inverse { super::u32x2::inverse(s) } else { super::u32x2::permute(s) }
}
