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
//! **Byte blocks** ([`crate::em`]): the same batches loaded from and stored to strided byte
//! buffers, with the key, mask and post XORs fused in and the GF(2^n) doubling masks made in
//! registers.
//!
//! **One state**: P and P⁻¹ on the whole Prøst-128 state in one YMM register; Prøst-256 by
//! `u32x2` (faster here than the one-ZMM kernel, which is kept for the tests).
//!
//! Constant time: fixed instruction sequences, no secret-dependent memory access or branches.

#![allow(unsafe_code)]

use core::arch::x86_64::*;
use super::avx2::chunked;
use super::sliced::{self, RC128_DUP};
use crate::em::{At, EmJob, EmSums};
use crate::lane::{Lane, State};
use zeroize::Zeroize;

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
fn batch<L: Lane, W: sliced::Word + Zeroize, const N: usize>(
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
    w.zeroize();
    for j in (0..4).rev() {
        swap_stage(&mut x, j, words16);
    }
    for (i, v) in x.iter().enumerate() {
        // SAFETY: as for the loads; `states` is borrowed mutably.
        unsafe { _mm512_storeu_si512(p.add(64 * i).cast(), *v) }
    }
    x.zeroize();
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

// ---------------------------------------------------------------------------------------------
// Wide Even–Mansour calls on byte blocks (`crate::em`).

/// `x · X^2` for both 256-bit halves of `x` (two Prøst-128 blocks, little-endian): a 2-bit
/// funnel shift of every 64-bit word with its predecessor in the same half (the top word
/// wraps round to word 0, which supplies the `+1` term of the reduction), then the rest of
/// `t · (X^10 + X^5 + X^2 + 1)` for the two bits `t` shifted out.
#[target_feature(enable = "avx,avx2,avx512f,avx512bw,avx512vl,avx512vbmi2")]
fn mul_x2_halves(x: __m512i) -> __m512i {
    let prev = _mm512_permutexvar_epi64(_mm512_setr_epi64(3, 0, 1, 2, 7, 4, 5, 6), x);
    let r = _mm512_shldi_epi64::<2>(x, prev);
    let t = _mm512_maskz_srli_epi64::<62>(0x11, prev);
    let u = _mm512_ternarylogic_epi64::<XOR3>(_mm512_slli_epi64::<2>(t), _mm512_slli_epi64::<5>(t), _mm512_slli_epi64::<10>(t));
    _mm512_xor_si512(r, u)
}

/// `x · X` for the 512-bit `x` (one Prøst-256 block): reduction `X^8 + X^5 + X^2 + 1`.
#[target_feature(enable = "avx,avx2,avx512f,avx512bw,avx512vl,avx512vbmi2")]
fn mul_x1_full(x: __m512i) -> __m512i {
    let prev = _mm512_permutexvar_epi64(_mm512_setr_epi64(7, 0, 1, 2, 3, 4, 5, 6), x);
    let r = _mm512_shldi_epi64::<1>(x, prev);
    let t = _mm512_maskz_srli_epi64::<63>(0x01, prev);
    let u = _mm512_ternarylogic_epi64::<XOR3>(_mm512_slli_epi64::<2>(t), _mm512_slli_epi64::<5>(t), _mm512_slli_epi64::<8>(t));
    _mm512_xor_si512(r, u)
}

/// Loads row `i` of a batch starting at block `base` with `cnt` valid blocks: two 32-byte
/// blocks (`w16`, Prøst-128) or one 64-byte block; blocks past `cnt` read as zero.
#[target_feature(enable = "avx,avx2,avx512f,avx512bw,avx512vl,avx512vbmi2")]
fn load_row(job: &EmJob<'_>, at: At, base: usize, i: usize, cnt: usize, w16: bool) -> __m512i {
    if w16 {
        let half = |j: usize| {
            if j < cnt {
                let b = job.block(at, base + j, 32);
                // SAFETY: `b` is 32 readable bytes; `loadu` needs no alignment.
                unsafe { _mm256_loadu_si256(b.as_ptr().cast()) }
            } else {
                _mm256_setzero_si256()
            }
        };
        _mm512_inserti64x4::<1>(_mm512_castsi256_si512(half(2 * i)), half(2 * i + 1))
    } else if i < cnt {
        let b = job.block(at, base + i, 64);
        // SAFETY: `b` is 64 readable bytes.
        unsafe { _mm512_loadu_si512(b.as_ptr().cast()) }
    } else {
        _mm512_setzero_si512()
    }
}

/// The 32-byte constant `c` in both halves (`w16`) or the 64-byte `c`.
#[target_feature(enable = "avx,avx2,avx512f,avx512bw,avx512vl,avx512vbmi2")]
fn load_const(c: &[u8], w16: bool) -> __m512i {
    if w16 {
        assert_eq!(c.len(), 32);
        // SAFETY: 32 readable bytes.
        _mm512_broadcast_i64x4(unsafe { _mm256_loadu_si256(c.as_ptr().cast()) })
    } else {
        assert_eq!(c.len(), 64);
        // SAFETY: 64 readable bytes.
        unsafe { _mm512_loadu_si512(c.as_ptr().cast()) }
    }
}

/// One batch of an [`EmJob`]: blocks `base .. base + cnt` (`cnt` ≤ 32 Prøst-128 / 16
/// Prøst-256 blocks), mask row 0 `m0` (`[2^base L, 2^(base+1) L]` or `2^base L`). Returns the
/// 17 mask rows (row 16 starts the next batch).
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx,avx2,avx512f,avx512bw,avx512vl,avx512vbmi2")]
fn em_batch<W: sliced::Word + Zeroize>(
    job: &mut EmJob<'_>,
    base: usize,
    cnt: usize,
    pre: __m512i,
    post: __m512i,
    m0: __m512i,
    sums: &mut [__m512i; 3],
    wrap: fn(__m512i) -> W,
    unwrap: fn(W) -> __m512i,
) -> [__m512i; 17] {
    let w16 = <W::L as Lane>::BITS == 16;
    let mut masks = [m0; 17];
    for i in 0..16 {
        masks[i + 1] = if w16 { mul_x2_halves(masks[i]) } else { mul_x1_full(masks[i]) };
    }
    let zero = _mm512_setzero_si512();
    let mut x: [__m512i; 16] = core::array::from_fn(|i| {
        let r = load_row(job, job.src, base, i, cnt, w16);
        sums[0] = _mm512_xor_si512(sums[0], r);
        let m = if job.mask_in { masks[i] } else { zero };
        _mm512_ternarylogic_epi64::<XOR3>(r, m, pre)
    });
    for j in 0..4 {
        swap_stage(&mut x, j, w16);
    }
    let mut w = x.map(wrap);
    if job.inverse {
        sliced::inverse(&mut w);
    } else {
        sliced::permute(&mut w);
    }
    let mut x = w.map(unwrap);
    w.zeroize();
    for j in (0..4).rev() {
        swap_stage(&mut x, j, w16);
    }
    let per = if w16 { 2 } else { 1 };
    let s = if w16 { 32 } else { 64 };
    for (i, &xi) in x.iter().enumerate() {
        if per * i >= cnt {
            break;
        }
        let m = if job.mask_out { masks[i] } else { zero };
        let mut y = _mm512_ternarylogic_epi64::<XOR3>(xi, post, m);
        if let Some(p) = job.post {
            let r = load_row(job, p, base, i, cnt, w16);
            sums[1] = _mm512_xor_si512(sums[1], r);
            y = _mm512_xor_si512(y, r);
        }
        // Only the low block of a half-valid last row counts.
        let valid: __mmask8 = if per * i + 1 < cnt || !w16 { 0xff } else { 0x0f };
        sums[2] = _mm512_xor_si512(sums[2], _mm512_maskz_mov_epi64(valid, y));
        let j = base + per * i;
        let o = job.dst + j * job.stride;
        let d = &mut job.io[o..o + s];
        if w16 {
            // SAFETY: `d` is 32 writable bytes; `storeu` needs no alignment.
            unsafe { _mm256_storeu_si256(d.as_mut_ptr().cast(), _mm512_castsi512_si256(y)) };
            if per * i + 1 < cnt {
                let o = o + job.stride;
                let d = &mut job.io[o..o + s];
                // SAFETY: as above.
                unsafe { _mm256_storeu_si256(d.as_mut_ptr().cast(), _mm512_extracti64x4_epi64::<1>(y)) };
            }
        } else {
            // SAFETY: `d` is 64 writable bytes.
            unsafe { _mm512_storeu_si512(d.as_mut_ptr().cast(), y) };
        }
    }
    x.zeroize();
    masks
}

/// Stores the mask of block `cnt` of a batch (from its mask rows) into `job.mask`.
#[target_feature(enable = "avx,avx2,avx512f,avx512bw,avx512vl,avx512vbmi2")]
fn store_mask(job: &mut EmJob<'_>, masks: &[__m512i; 17], cnt: usize, w16: bool) {
    let mut b = [0u8; 64];
    if w16 {
        let row = masks[cnt / 2];
        let h = if cnt.is_multiple_of(2) { _mm512_castsi512_si256(row) } else { _mm512_extracti64x4_epi64::<1>(row) };
        // SAFETY: `b` is 64 writable bytes.
        unsafe { _mm256_storeu_si256(b.as_mut_ptr().cast(), h) };
        job.mask.copy_from_slice(&b[..32]);
    } else {
        // SAFETY: `b` is 64 writable bytes.
        unsafe { _mm512_storeu_si512(b.as_mut_ptr().cast(), masks[cnt]) };
        job.mask.copy_from_slice(&b);
    }
    crate::em::wipe(&mut b);
}

/// The lane-sliced [`EmJob`] driver: full batches, a padded batch for a remainder of at least
/// [`MIN_REST`] blocks, single-state calls for a shorter one.
#[target_feature(enable = "avx,avx2,avx512f,avx512bw,avx512vl,avx512vbmi2")]
fn em_impl<W: sliced::Word + Zeroize>(
    job: &mut EmJob<'_>,
    wrap: fn(__m512i) -> W,
    unwrap: fn(W) -> __m512i,
    single: fn(&mut State<W::L>, bool),
) -> EmSums {
    let w16 = <W::L as Lane>::BITS == 16;
    let s = 16 * <W::L as Lane>::BYTES;
    let nb = if w16 { 32 } else { 16 };
    let n = job.blocks;
    let rest = n % nb;
    let batched = n - rest + if rest >= MIN_REST { rest } else { 0 };
    let mut sums = EmSums::default();
    if batched > 0 {
        let mut pre = load_const(job.pre, w16);
        let mut post = load_const(job.post_const, w16);
        let mut m0 = if w16 {
            let mut two = [0u8; 64];
            two[..32].copy_from_slice(job.mask);
            two[32..].copy_from_slice(job.mask);
            crate::em::dbl_bytes(&mut two[32..]);
            // SAFETY: 64 readable bytes.
            let v = unsafe { _mm512_loadu_si512(two.as_ptr().cast()) };
            crate::em::wipe(&mut two);
            v
        } else {
            load_const(job.mask, false)
        };
        let mut acc = [_mm512_setzero_si512(); 3];
        let mut base = 0;
        while base < batched {
            let cnt = nb.min(batched - base);
            let mut masks = em_batch(job, base, cnt, pre, post, m0, &mut acc, wrap, unwrap);
            store_mask(job, &masks, cnt, w16);
            m0 = masks[16];
            masks.zeroize();
            base += cnt;
        }
        // Key-derived rows: the mask of the next block and the pre/post constants.
        for r in [&mut m0, &mut pre, &mut post] {
            r.zeroize();
        }
        let mut b = [[0u8; 64]; 3];
        for (b, a) in b.iter_mut().zip(&mut acc) {
            // SAFETY: 64 writable bytes.
            unsafe { _mm512_storeu_si512(b.as_mut_ptr().cast(), *a) };
            a.zeroize();
            if w16 {
                for i in 0..32 {
                    b[i] ^= b[i + 32];
                    b[i + 32] = 0;
                }
            }
        }
        sums.src[..s].copy_from_slice(&b[0][..s]);
        sums.post[..s].copy_from_slice(&b[1][..s]);
        sums.out[..s].copy_from_slice(&b[2][..s]);
        crate::em::wipe(b.as_flattened_mut());
    }
    crate::em::em_serial::<W::L>(job, batched, &mut sums, single);
    sums
}

/// [`EmJob`] on Prøst-128 blocks (checked by the caller). Panics if the CPU lacks the features.
pub(crate) fn em128(job: &mut EmJob<'_>) -> EmSums {
    assert!(available(), "CPU lacks AVX-512 F/BW/VL/VBMI2");
    // SAFETY: `available()` just confirmed every feature the kernel enables.
    unsafe { em_impl(job, Z16, |z| z.0, one128) }
}

/// [`EmJob`] on Prøst-256 blocks (checked by the caller). Panics if the CPU lacks the features.
pub(crate) fn em256(job: &mut EmJob<'_>) -> EmSums {
    assert!(available(), "CPU lacks AVX-512 F/BW/VL/VBMI2");
    // SAFETY: `available()` just confirmed every feature the kernel enables.
    unsafe { em_impl(job, Z32, |z| z.0, one256) }
}

/// MixSlices of one state as `x ^ Σ_j (x permuted by P_j, masked by K_j)`: `M ⊕ I` (row
/// weights 6 and 4) split into six partial permutations (a 6-edge-colouring of its bipartite
/// graph; found offline, re-verified against the matrix by the unit test below). Entry `j`:
/// `(P_j, K_j)` with output lane `k` = input lane `P_j[k]` if bit `k` of `K_j` is set.
pub(crate) const MIX_LAYERS: [([u8; 16], u16); 6] = [
    ([10, 11, 9, 6, 0, 15, 8, 14, 2, 12, 13, 5, 3, 7, 4, 1], 0xffff),
    ([14, 4, 8, 13, 3, 11, 12, 2, 15, 7, 10, 1, 6, 0, 9, 5], 0xfbff),
    ([7, 15, 12, 9, 10, 5, 1, 13, 4, 3, 0, 2, 11, 8, 14, 6], 0xbfdf),
    ([15, 12, 5, 3, 11, 8, 6, 9, 7, 4, 1, 14, 2, 13, 0, 10], 0xdfb7),
    ([12, 1, 2, 10, 14, 0, 13, 7, 6, 9, 4, 11, 8, 3, 5, 15], 0x7579),
    ([4, 1, 2, 3, 8, 5, 6, 7, 12, 9, 10, 11, 0, 13, 14, 15], 0x1111),
];

/// `vpternlog` truth table of `A ^ (B & C)`.
const A_XOR_B_AND_C: i32 = 0x78;
/// `vpternlog` truth table of `A ^ C ^ (A & B)`.
const A_XOR_C_XOR_AB: i32 = 0x9A;
/// `vpternlog` truth table of `A ^ B ^ C`.
const XOR3: i32 = 0x96;
/// Lanes at row position 2 and 3 of every plane.
const POS2: u16 = 0x4444;
const POS3: u16 = 0x8888;

/// Per-lane rotation amounts of ShiftPlanes (`[even, odd]`), lane `k` in plane `k / 4`.
const fn shift_vectors<const N: usize>(t: [[u32; 4]; 2]) -> [[u32; 16]; 2] {
    let mut v = [[0u32; 16]; 2];
    let mut k = 0;
    while k < 16 {
        v[0][k] = t[0][k / 4];
        v[1][k] = t[1][k / 4];
        k += 1;
    }
    v
}
static SHIFT128: [[u32; 16]; 2] = shift_vectors::<16>(<u16 as Lane>::SHIFTS);
#[cfg_attr(not(test), allow(dead_code))] // the measured one-ZMM alternative (unit-tested)
static SHIFT256: [[u32; 16]; 2] = shift_vectors::<16>(<u32 as Lane>::SHIFTS);

/// Byte shuffle rotating every group of four 16-bit lanes by `n` positions
/// (lane `4p + i` ← lane `4p + (i + n) mod 4`).
const fn rot_groups16(n: usize) -> [u8; 32] {
    let mut t = [0u8; 32];
    let mut b = 0;
    while b < 32 {
        let w = (b % 16) / 2;
        let src = (w & !3) | ((w + n) & 3);
        t[b] = (2 * src + b % 2) as u8;
        b += 1;
    }
    t
}
static ROT16: [[u8; 32]; 4] = [rot_groups16(0), rot_groups16(1), rot_groups16(2), rot_groups16(3)];

#[cfg_attr(not(test), allow(dead_code))] // the measured one-ZMM alternative (unit-tested)
const fn shuffle_imm(n: i32) -> i32 {
    ((n) & 3) | (((1 + n) & 3) << 2) | (((2 + n) & 3) << 4) | (((3 + n) & 3) << 6)
}

/// The whole Prøst-128 state in one YMM register (lane k = 16-bit element k).
///
/// The round is latency-bound (one dependent chain), so it is arranged for a short chain:
/// SubRows in four steps (rotated copies of the state within each plane-wise group of four
/// lanes, `VPTERNLOG`s that compute the S-box outputs of row positions 0, 1 and of 2, 3 from
/// them directly, one blend), MixSlices as six unmasked two-source `VPERMT2W`s over the two
/// S-box halves ([`mix_halves`]) and two levels of 3-input XORs that also absorb the round
/// constant (pre-rotated, so AddConstants costs nothing), and ShiftPlanes one `VPSHRDVW`.
/// The inverse runs the same steps backwards with the constant `M(rotl(RC_r))` folded into
/// MixSlices.
#[target_feature(enable = "avx,avx2,avx512f,avx512bw,avx512vl,avx512vbmi2")]
fn single128(s: &mut State<u16>, inverse: bool) {
    // SAFETY: every pointer below is to 32 readable bytes; `loadu` needs no alignment.
    let ld = |p: *const u8| unsafe { _mm256_loadu_si256(p.cast()) };
    let rot: [__m256i; 4] = core::array::from_fn(|n| ld(ROT16[n].as_ptr()));
    let amt: [__m256i; 2] = core::array::from_fn(|o| ld(SHIFT128[o].map(|t| t as u16).as_ptr().cast()));
    // SubRows in two halves: `t` holds a' = c ^ ab, b' = d ^ bc at row positions 0, 1, and `w`
    // holds c' = a ^ a'b' and d' = b ^ b'c' = b ^ b'(a ^ a') at positions 2, 3. Every
    // operand of `w` comes straight from rotated copies of the input (a', b' at positions 2
    // and 3 are `x ^ (x2 & x3)`, b' at position 2 is `x1 ^ (x3 & x)`, a ^ a' at position 3
    // is `x1 ^ x3 ^ (x1 & x2)`), so the dependency depth is four steps.
    let sbox = |x: __m256i| {
        let x1 = _mm256_shuffle_epi8(x, rot[1]);
        let x2 = _mm256_shuffle_epi8(x, rot[2]);
        let x3 = _mm256_shuffle_epi8(x, rot[3]);
        let t = _mm256_ternarylogic_epi32::<A_XOR_B_AND_C>(x2, x, x1);
        let t2 = _mm256_ternarylogic_epi32::<A_XOR_B_AND_C>(x, x2, x3);
        let t3 = _mm256_ternarylogic_epi32::<A_XOR_B_AND_C>(x1, x3, x);
        let e = _mm256_ternarylogic_epi32::<A_XOR_C_XOR_AB>(x1, x2, x3);
        let z = _mm256_mask_blend_epi16(POS3, t3, e);
        let w = _mm256_ternarylogic_epi32::<A_XOR_B_AND_C>(x2, t2, z);
        (t, w)
    };
    let join = |(t, w): (__m256i, __m256i)| _mm256_mask_blend_epi16(POS2 | POS3, t, w);
    // MixSlices plus a constant `c` on the S-box halves: each lane permutation takes its lanes
    // from `t` or `w` (two-source `VPERMT2W`), so the halves are never joined on the critical
    // path, and needs no mask ([`mix_halves`]).
    let idx2: [__m256i; 6] = core::array::from_fn(|j| ld(MIX_HALVES[j].as_ptr().cast()));
    let mix = |tw: (__m256i, __m256i), c: __m256i| {
        let p: [__m256i; 6] =
            core::array::from_fn(|j| _mm256_permutex2var_epi16(tw.0, idx2[j], tw.1));
        let a = _mm256_ternarylogic_epi32::<XOR3>(join(tw), c, p[0]);
        let b = _mm256_ternarylogic_epi32::<XOR3>(p[1], p[2], p[3]);
        let d = _mm256_xor_si256(p[4], p[5]);
        _mm256_ternarylogic_epi32::<XOR3>(a, b, d)
    };
    let rc = |r: usize| ld(u16::RC[r].as_ptr().cast());
    let mut x = ld(s.as_ptr().cast());
    if inverse {
        // Round r: x ← SubRows(M(rotl(x ^ RC_r))) = SubRows(M(rotl x) ^ M(rotl RC_r)).
        // (Rotating both S-box halves instead of joining them measured slower.)
        for r in (0..16).rev() {
            x = _mm256_shldv_epi16(x, x, amt[r % 2]);
            x = join(sbox(mix((x, x), ld(INV_RC128[r].as_ptr().cast()))));
        }
    } else {
        // Round r: x ← rotr(M(S(x))) ^ RC_r = rotr(M(S(x)) ^ rotl(RC_r)).
        let c: [__m256i; 16] = core::array::from_fn(|r| _mm256_shldv_epi16(rc(r), rc(r), amt[r % 2]));
        for r in 0..16 {
            x = mix(sbox(x), c[r]);
            x = _mm256_shrdv_epi16(x, x, amt[r % 2]);
        }
    }
    // SAFETY: `s` is 32 writable bytes.
    unsafe { _mm256_storeu_si256(s.as_mut_ptr().cast(), x) }
}

/// [`MIX_LAYERS`] as two-source `VPERMT2W` indices over the S-box halves `(t, w)`: source
/// lane `P_j[k]` from `t` (row positions 0, 1) or `w` (positions 2, 3, index + 16). Without
/// masks: an output lane that a layer leaves out is left out by exactly two layers (rows of
/// `M ⊕ I` have weight 6 or 4), and both of them read the same lane, which cancels.
const fn mix_halves() -> [[u16; 16]; 6] {
    let mut t = [[0u16; 16]; 6];
    let mut k = 0;
    while k < 16 {
        let mut unset = 0;
        let mut j = 0;
        while j < 6 {
            let (p, m) = MIX_LAYERS[j];
            let src = if m >> k & 1 == 1 {
                p[k] as u16
            } else {
                unset += 1;
                k as u16
            };
            t[j][k] = src + if src % 4 >= 2 { 16 } else { 0 };
            j += 1;
        }
        assert!(unset == 0 || unset == 2, "left-out lanes must pair up");
        k += 1;
    }
    t
}
static MIX_HALVES: [[u16; 16]; 6] = mix_halves();

/// `const fn $name() -> [[$t; 16]; $rounds]`: `M(rotl(RC_r))` per round (lane `k` rotated
/// left by its plane's amount), the constant that the inverse single-state kernels fold into
/// MixSlices.
macro_rules! inv_rc {
    ($name:ident, $t:ty, $rounds:literal, $rc:path) => {
        const fn $name() -> [[$t; 16]; $rounds] {
            let rc = $rc();
            let sh = <$t as Lane>::SHIFTS;
            let mut t = [[0; 16]; $rounds];
            let mut r = 0;
            while r < $rounds {
                let mut y = [0; 16];
                let mut k = 0;
                while k < 16 {
                    y[k] = rc[r][k].rotate_left(sh[r % 2][k / 4]);
                    k += 1;
                }
                let mut z = y;
                let mut j = 0;
                while j < 6 {
                    let (p, m) = MIX_LAYERS[j];
                    let mut k = 0;
                    while k < 16 {
                        if m >> k & 1 == 1 {
                            z[k] ^= y[p[k] as usize];
                        }
                        k += 1;
                    }
                    j += 1;
                }
                t[r] = z;
                r += 1;
            }
            t
        }
    };
}
inv_rc!(inv_rc128, u16, 16, crate::lane::rc128);
inv_rc!(inv_rc256, u32, 18, crate::lane::rc256);
static INV_RC128: [[u16; 16]; 16] = inv_rc128();
#[cfg_attr(not(test), allow(dead_code))] // the one-ZMM Prøst-256 kernel
static INV_RC256: [[u32; 16]; 18] = inv_rc256();

/// The whole Prøst-256 state in one ZMM register (lane k = 32-bit element k): as
/// [`single128`], with `VPSHUFD` for the in-group rotations (a group of four 32-bit lanes is a
/// 128-bit lane), `VPERMT2D` for MixSlices and `VPRORVD` for ShiftPlanes.
#[cfg_attr(not(test), allow(dead_code))] // the measured one-ZMM alternative (unit-tested)
#[target_feature(enable = "avx,avx2,avx512f,avx512bw,avx512vl,avx512vbmi2")]
fn single256(s: &mut State<u32>, inverse: bool) {
    // SAFETY: every pointer below is to 64 readable bytes; `loadu` needs no alignment.
    let ld = |p: *const u32| unsafe { _mm512_loadu_si512(p.cast()) };
    let amt: [__m512i; 2] = core::array::from_fn(|o| ld(SHIFT256[o].as_ptr()));
    let sbox = |x: __m512i| {
        let x1 = _mm512_shuffle_epi32::<{ shuffle_imm(1) }>(x);
        let x2 = _mm512_shuffle_epi32::<{ shuffle_imm(2) }>(x);
        let x3 = _mm512_shuffle_epi32::<{ shuffle_imm(3) }>(x);
        let t = _mm512_ternarylogic_epi32::<A_XOR_B_AND_C>(x2, x, x1);
        let t2 = _mm512_ternarylogic_epi32::<A_XOR_B_AND_C>(x, x2, x3);
        let t3 = _mm512_ternarylogic_epi32::<A_XOR_B_AND_C>(x1, x3, x);
        let e = _mm512_ternarylogic_epi32::<A_XOR_C_XOR_AB>(x1, x2, x3);
        let z = _mm512_mask_blend_epi32(POS3, t3, e);
        let w = _mm512_ternarylogic_epi32::<A_XOR_B_AND_C>(x2, t2, z);
        (t, w)
    };
    let join = |(t, w): (__m512i, __m512i)| _mm512_mask_blend_epi32(POS2 | POS3, t, w);
    let idx2: [__m512i; 6] = core::array::from_fn(|j| ld(MIX_HALVES[j].map(u32::from).as_ptr()));
    let mix = |tw: (__m512i, __m512i), c: __m512i| {
        let p: [__m512i; 6] = core::array::from_fn(|j| _mm512_permutex2var_epi32(tw.0, idx2[j], tw.1));
        let a = _mm512_ternarylogic_epi32::<XOR3>(join(tw), c, p[0]);
        let b = _mm512_ternarylogic_epi32::<XOR3>(p[1], p[2], p[3]);
        let d = _mm512_xor_si512(p[4], p[5]);
        _mm512_ternarylogic_epi32::<XOR3>(a, b, d)
    };
    let rc = |r: usize| ld(u32::RC[r].as_ptr());
    let mut x = ld(s.as_ptr());
    if inverse {
        let mut tw = (x, x);
        for r in (0..18).rev() {
            tw = (_mm512_rolv_epi32(tw.0, amt[r % 2]), _mm512_rolv_epi32(tw.1, amt[r % 2]));
            tw = sbox(mix(tw, ld(INV_RC256[r].as_ptr())));
        }
        x = join(tw);
    } else {
        let c: [__m512i; 18] = core::array::from_fn(|r| _mm512_rolv_epi32(rc(r), amt[r % 2]));
        for r in 0..18 {
            x = mix(sbox(x), c[r]);
            x = _mm512_rorv_epi32(x, amt[r % 2]);
        }
    }
    // SAFETY: `s` is 64 writable bytes.
    unsafe { _mm512_storeu_si512(s.as_mut_ptr().cast(), x) }
}

/// P or P^-1 on one Prøst-128 state (one YMM register). Panics if the CPU lacks the features.
pub(crate) fn one128(s: &mut State<u16>, inverse: bool) {
    assert!(available(), "CPU lacks AVX-512 F/BW/VL/VBMI2");
    // SAFETY: `available()` just confirmed every feature the kernel enables.
    unsafe { single128(s, inverse) }
}

/// P or P^-1 on one Prøst-256 state: `u32x2` in general registers, which measured faster
/// (278 against 290 TSC cycles for P) than the one-ZMM kernel [`single256_zmm`] on the
/// project's Zen 4 machine (when measured), where the `VPERMT2D` ZMM latencies dominate.
pub(crate) fn one256(s: &mut State<u32>, inverse: bool) {
    if inverse { super::u32x2::inverse(s) } else { super::u32x2::permute(s) }
}

/// P or P^-1 on one Prøst-256 state in one ZMM register (kept for the benchmark and the
/// tests). Panics if the CPU lacks the features.
#[cfg_attr(not(test), allow(dead_code))] // the measured one-ZMM alternative (unit-tested)
pub(crate) fn single256_zmm(s: &mut State<u32>, inverse: bool) {
    assert!(available(), "CPU lacks AVX-512 F/BW/VL/VBMI2");
    // SAFETY: `available()` just confirmed every feature the kernel enables.
    unsafe { single256(s, inverse) }
}

#[cfg(test)]
mod tests {
    use super::MIX_LAYERS;
    use crate::backend::portable::{self, mix_slices_naive};

    /// The one-ZMM Prøst-256 kernel (not the `avx512` backend's single-state choice, so not
    /// covered by the integration tests) agrees with `portable`.
    #[test]
    fn single256_zmm_matches_portable() {
        if !crate::backend_report::gate("proest", "avx512", super::available(), "single256_zmm unit test") {
            return;
        }
        let mut x: [u32; 16] = core::array::from_fn(|i| 0x9e37_79b9u32.wrapping_mul(i as u32 + 7));
        for _ in 0..20 {
            let mut want = x;
            portable::permute(&mut want);
            let mut got = x;
            super::single256_zmm(&mut got, false);
            assert_eq!(got, want);
            super::single256_zmm(&mut got, true);
            assert_eq!(got, x);
            x = want;
        }
    }

    /// `x ^ Σ_j masked permutations` equals the MixSlices matrix.
    #[test]
    fn mix_layers_are_the_matrix() {
        for i in 0..16 {
            let x: [u32; 16] = core::array::from_fn(|k| (k == i) as u32);
            let mut y = x;
            for (p, m) in MIX_LAYERS {
                for k in 0..16 {
                    if m >> k & 1 == 1 {
                        y[k] ^= x[p[k] as usize];
                    }
                }
            }
            assert_eq!(y, mix_slices_naive(x), "column {i}");
        }
    }
}
