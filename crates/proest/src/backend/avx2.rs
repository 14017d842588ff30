//! `avx2`: lane-sliced many-state kernels on AVX2 (16 Prøst-128 or 8 Prøst-256 states per
//! batch), single states by `u32x2`.
//!
//! Register `k` of a batch holds lane `k` of every state: 16 × 16-bit elements (Prøst-128) or
//! 8 × 32-bit elements (Prøst-256) per YMM register. The round is [`super::sliced`]: SubRows and
//! MixSlices are `VPAND`/`VPXOR` on whole registers, ShiftPlanes is a shift pair and `VPOR` per
//! register (`VPSHUFB` for rotations by a multiple of 8 bits), AddConstants one `VPXOR` with a
//! broadcast constant. The states enter and leave through in-register transposes
//! (`VPUNPCK{L,H}{WD,DQ,QDQ}` and `VPERM2I128`): a 16 × 16 transpose of 16-bit words, or two
//! 8 × 8 transposes of 32-bit words.
//!
//! Constant time: fixed instruction sequences, no secret-dependent memory access or branches.

#![allow(unsafe_code)]

use core::arch::x86_64::*;
use super::sliced::{self, RC128_DUP};
use crate::em::{EmJob, EmSums, Words};
use crate::lane::{Lane, State};

cpufeatures::new!(cpu, "avx", "avx2");

/// Whether this CPU has AVX2 (cached CPUID).
pub(crate) fn available() -> bool {
    cpu::get()
}

sliced::simd_word!(Y16, __m256i, _mm256_xor_si256, _mm256_and_si256);
sliced::simd_word!(Y32, __m256i, _mm256_xor_si256, _mm256_and_si256);

/// Rotates the 16-bit elements of `$x` right by the literal `$n`.
macro_rules! ror16 {
    ($x:expr, 0) => {
        $x
    };
    ($x:expr, 8) => {
        _mm256_shuffle_epi8($x, _mm256_setr_epi8(
            1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,
            1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,
        ))
    };
    ($x:expr, $n:literal) => {
        _mm256_or_si256(_mm256_srli_epi16::<$n>($x), _mm256_slli_epi16::<{ 16 - $n }>($x))
    };
}

/// Rotates the 32-bit elements of `$x` right by the literal `$n`.
macro_rules! ror32 {
    ($x:expr, 0) => {
        $x
    };
    ($x:expr, 24) => {
        // right by 24 = left by 8: bytes (0,1,2,3) -> (3,0,1,2)
        _mm256_shuffle_epi8($x, _mm256_setr_epi8(
            3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
            3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
        ))
    };
    ($x:expr, 8) => {
        // right by 8: bytes (0,1,2,3) -> (1,2,3,0)
        _mm256_shuffle_epi8($x, _mm256_setr_epi8(
            1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12,
            1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12,
        ))
    };
    ($x:expr, $n:literal) => {
        _mm256_or_si256(_mm256_srli_epi32::<$n>($x), _mm256_slli_epi32::<{ 32 - $n }>($x))
    };
}

sliced::word_impl!(Y16, u16, ror16, |r: usize, k: usize| _mm256_set1_epi32(RC128_DUP[r][k] as i32));
sliced::word_impl!(Y32, u32, ror32, |r: usize, k: usize| _mm256_set1_epi32(u32::RC[r][k] as i32));

/// 16 × 16 transpose of 16-bit words: `out[k]` element `s` = `a[s]` element `k`.
#[target_feature(enable = "avx,avx2")]
fn transpose16x16_epi16(a: [__m256i; 16]) -> [__m256i; 16] {
    // Each stage pairs registers that differ in one index bit and trades that bit for an
    // element-index bit; after four stages register r holds lane (r2, r1, r0, r3) (bits, low
    // first), hence the reordering at the end.
    let mut b = [_mm256_setzero_si256(); 16];
    for i in 0..8 {
        b[2 * i] = _mm256_unpacklo_epi16(a[2 * i], a[2 * i + 1]);
        b[2 * i + 1] = _mm256_unpackhi_epi16(a[2 * i], a[2 * i + 1]);
    }
    let mut c = [_mm256_setzero_si256(); 16];
    for q in [0, 1, 4, 5, 8, 9, 12, 13] {
        c[q] = _mm256_unpacklo_epi32(b[q], b[q | 2]);
        c[q | 2] = _mm256_unpackhi_epi32(b[q], b[q | 2]);
    }
    let mut d = [_mm256_setzero_si256(); 16];
    for q in [0, 1, 2, 3, 8, 9, 10, 11] {
        d[q] = _mm256_unpacklo_epi64(c[q], c[q | 4]);
        d[q | 4] = _mm256_unpackhi_epi64(c[q], c[q | 4]);
    }
    let mut e = [_mm256_setzero_si256(); 16];
    for q in 0..8 {
        e[q] = _mm256_permute2x128_si256::<0x20>(d[q], d[q | 8]);
        e[q | 8] = _mm256_permute2x128_si256::<0x31>(d[q], d[q | 8]);
    }
    core::array::from_fn(|k| e[((k >> 2) & 1) | (k & 2) | ((k & 1) << 2) | (k & 8)])
}

/// 8 × 8 transpose of 32-bit words: `out[k]` element `s` = `a[s]` element `k`.
#[target_feature(enable = "avx,avx2")]
fn transpose8x8_epi32(a: [__m256i; 8]) -> [__m256i; 8] {
    let mut b = [_mm256_setzero_si256(); 8];
    for i in 0..4 {
        b[2 * i] = _mm256_unpacklo_epi32(a[2 * i], a[2 * i + 1]);
        b[2 * i + 1] = _mm256_unpackhi_epi32(a[2 * i], a[2 * i + 1]);
    }
    let mut c = [_mm256_setzero_si256(); 8];
    for q in [0, 1, 4, 5] {
        c[q] = _mm256_unpacklo_epi64(b[q], b[q | 2]);
        c[q | 2] = _mm256_unpackhi_epi64(b[q], b[q | 2]);
    }
    let mut d = [_mm256_setzero_si256(); 8];
    for q in 0..4 {
        d[q] = _mm256_permute2x128_si256::<0x20>(c[q], c[q | 4]);
        d[q | 4] = _mm256_permute2x128_si256::<0x31>(c[q], c[q | 4]);
    }
    // register r holds lane (r1, r0, r2)
    core::array::from_fn(|k| d[((k & 1) << 1) | ((k >> 1) & 1) | (k & 4)])
}

#[target_feature(enable = "avx,avx2")]
fn load(p: &[u32; 8]) -> __m256i {
    // SAFETY: `p` is 32 readable bytes; `loadu` has no alignment requirement.
    unsafe { _mm256_loadu_si256(p.as_ptr().cast()) }
}

#[target_feature(enable = "avx,avx2")]
fn load16(p: &[u16; 16]) -> __m256i {
    // SAFETY: `p` is 32 readable bytes; `loadu` has no alignment requirement.
    unsafe { _mm256_loadu_si256(p.as_ptr().cast()) }
}

#[target_feature(enable = "avx,avx2")]
fn store16(p: &mut [u16; 16], x: __m256i) {
    // SAFETY: `p` is 32 writable bytes; `storeu` has no alignment requirement.
    unsafe { _mm256_storeu_si256(p.as_mut_ptr().cast(), x) }
}

#[target_feature(enable = "avx,avx2")]
fn store(p: &mut [u32; 8], x: __m256i) {
    // SAFETY: `p` is 32 writable bytes; `storeu` has no alignment requirement.
    unsafe { _mm256_storeu_si256(p.as_mut_ptr().cast(), x) }
}

/// 16 Prøst-128 states at once.
#[target_feature(enable = "avx,avx2")]
fn batch128(states: &mut [State<u16>; 16], inverse: bool) {
    let mut rows: [__m256i; 16] = core::array::from_fn(|s| load16(&states[s]));
    let mut w = transpose16x16_epi16(rows).map(Y16);
    if inverse {
        sliced::inverse(&mut w);
    } else {
        sliced::permute(&mut w);
    }
    let mut out = transpose16x16_epi16(w.map(|y| y.0));
    for (s, r) in states.iter_mut().zip(out) {
        store16(s, r);
    }
    // The batch's copies (spilled to the stack when registers run out) are secret: wiped, as
    // the AArch64 and ARMv7 kernels wipe theirs.
    zeroize::Zeroize::zeroize(&mut rows);
    zeroize::Zeroize::zeroize(&mut w);
    zeroize::Zeroize::zeroize(&mut out);
}

fn halves(s: &State<u32>) -> (&[u32; 8], &[u32; 8]) {
    let (lo, hi) = s.split_at(8);
    (lo.try_into().expect("8 lanes"), hi.try_into().expect("8 lanes"))
}

fn halves_mut(s: &mut State<u32>) -> (&mut [u32; 8], &mut [u32; 8]) {
    let (lo, hi) = s.split_at_mut(8);
    (lo.try_into().expect("8 lanes"), hi.try_into().expect("8 lanes"))
}

/// 8 Prøst-256 states at once.
#[target_feature(enable = "avx,avx2")]
fn batch256(states: &mut [State<u32>; 8], inverse: bool) {
    let mut lo = transpose8x8_epi32(core::array::from_fn(|s| load(halves(&states[s]).0)));
    let mut hi = transpose8x8_epi32(core::array::from_fn(|s| load(halves(&states[s]).1)));
    let mut w: [Y32; 16] = core::array::from_fn(|k| Y32(if k < 8 { lo[k] } else { hi[k - 8] }));
    if inverse {
        sliced::inverse(&mut w);
    } else {
        sliced::permute(&mut w);
    }
    let mut lo2 = transpose8x8_epi32(core::array::from_fn(|k| w[k].0));
    let mut hi2 = transpose8x8_epi32(core::array::from_fn(|k| w[8 + k].0));
    for (s, st) in states.iter_mut().enumerate() {
        let (l, h) = halves_mut(st);
        store(l, lo2[s]);
        store(h, hi2[s]);
    }
    // As in `batch128`: the batch's copies are wiped.
    for x in [&mut lo, &mut hi, &mut lo2, &mut hi2] {
        zeroize::Zeroize::zeroize(x);
    }
    zeroize::Zeroize::zeroize(&mut w);
}

/// Runs `batch` on full groups of `N` states, and on a zero-padded copy of the remainder if
/// it has at least `min_rest` states (smaller remainders go one by one to `single`).
#[inline(always)]
pub(crate) fn chunked<L: Lane, const N: usize>(
    states: &mut [State<L>],
    min_rest: usize,
    mut batch: impl FnMut(&mut [State<L>; N]),
    single: impl FnMut(&mut State<L>),
) {
    let mut chunks = states.chunks_exact_mut(N);
    for c in &mut chunks {
        batch(c.try_into().expect("chunk of N"));
    }
    let rest = chunks.into_remainder();
    if rest.len() >= min_rest.max(1) {
        let mut buf = [[L::ZERO; 16]; N];
        buf[..rest.len()].copy_from_slice(rest);
        batch(&mut buf);
        rest.copy_from_slice(&buf[..rest.len()]);
        zeroize::Zeroize::zeroize(&mut buf);
    } else {
        rest.iter_mut().for_each(single);
    }
}

/// Remainders of at least this many states go through a padded batch (a batch costs about as
/// much as two single `u32x2` calls).
const MIN_REST: usize = 2;

/// An [`EmJob`] through the lane-sliced batches: every block goes straight from its byte
/// buffer into the batch array and back as YMM rows with the key, mask and post XORs applied
/// on the way (no byte-wise passes, no store-forwarding stalls); the masks are doubled in
/// general registers. Remainders shorter than [`MIN_REST`] go through `single`.
#[target_feature(enable = "avx,avx2")]
fn em_impl<L: Lane, const N: usize>(
    job: &mut EmJob<'_>,
    mut batch: impl FnMut(&mut [State<L>; N]),
    single: impl Fn(&mut State<L>, bool),
) -> EmSums {
    let s = 16 * L::BYTES;
    let halves = s / 32;
    let n = job.blocks;
    let rest = n % N;
    let batched = n - rest + if rest >= MIN_REST { rest } else { 0 };
    let zero = _mm256_setzero_si256();
    let ld = |b: &[u8]| {
        assert!(b.len() >= 32);
        // SAFETY: at least 32 readable bytes (asserted); `loadu` needs no alignment.
        unsafe { _mm256_loadu_si256(b.as_ptr().cast()) }
    };
    let half = |b: &[u8], h: usize| if h < halves { ld(&b[32 * h..]) } else { zero };
    let pre = [half(job.pre, 0), half(job.pre, 1)];
    let post = [half(job.post_const, 0), half(job.post_const, 1)];
    let mut m = Words::from_bytes(job.mask);
    let mut acc = [[zero; 2]; 3];
    let mut states = [[L::ZERO; 16]; N];
    let mut masks = [[zero; 2]; N];
    let mut base = 0;
    while base < batched {
        let cnt = N.min(batched - base);
        for j in 0..cnt {
            masks[j] = to_ymm(m.words());
            m.dbl();
            let src = job.block(job.src, base + j, s);
            let p: *mut u8 = states[j].as_mut_ptr().cast();
            for h in 0..halves {
                let x = ld(&src[32 * h..]);
                acc[0][h] = _mm256_xor_si256(acc[0][h], x);
                let mut y = _mm256_xor_si256(x, pre[h]);
                if job.mask_in {
                    y = _mm256_xor_si256(y, masks[j][h]);
                }
                // SAFETY: state j is `s` = 32·halves writable bytes.
                unsafe { _mm256_storeu_si256(p.add(32 * h).cast(), y) };
            }
        }
        batch(&mut states);
        for j in 0..cnt {
            let p: *const u8 = states[j].as_ptr().cast();
            let o = job.dst + (base + j) * job.stride;
            for h in 0..halves {
                // SAFETY: state j is `s` readable bytes.
                let mut y = _mm256_xor_si256(unsafe { _mm256_loadu_si256(p.add(32 * h).cast()) }, post[h]);
                if job.mask_out {
                    y = _mm256_xor_si256(y, masks[j][h]);
                }
                if let Some(at) = job.post {
                    let pb = ld(&job.block(at, base + j, s)[32 * h..]);
                    acc[1][h] = _mm256_xor_si256(acc[1][h], pb);
                    y = _mm256_xor_si256(y, pb);
                }
                acc[2][h] = _mm256_xor_si256(acc[2][h], y);
                let d = &mut job.io[o + 32 * h..o + 32 * h + 32];
                // SAFETY: `d` is 32 writable bytes.
                unsafe { _mm256_storeu_si256(d.as_mut_ptr().cast(), y) };
            }
        }
        base += cnt;
    }
    m.store(job.mask);
    m.wipe();
    zeroize::Zeroize::zeroize(&mut states);
    zeroize::Zeroize::zeroize(&mut masks);
    let mut sums = EmSums::default();
    for (dst, a) in [&mut sums.src, &mut sums.post, &mut sums.out].into_iter().zip(acc) {
        for h in 0..halves {
            // SAFETY: `dst` is 64 writable bytes, h < 2.
            unsafe { _mm256_storeu_si256(dst.as_mut_ptr().add(32 * h).cast(), a[h]) };
        }
    }
    crate::em::em_serial::<L>(job, batched, &mut sums, single);
    sums
}

/// Eight little-endian words as two YMM registers.
#[target_feature(enable = "avx,avx2")]
fn to_ymm(w: [u64; 8]) -> [__m256i; 2] {
    let w = w.map(|x| x as i64);
    [_mm256_set_epi64x(w[3], w[2], w[1], w[0]), _mm256_set_epi64x(w[7], w[6], w[5], w[4])]
}

/// [`EmJob`] on Prøst-128 blocks (checked by the caller). Panics if AVX2 is missing.
pub(crate) fn em128(job: &mut EmJob<'_>) -> EmSums {
    assert!(available(), "CPU lacks AVX2");
    let inverse = job.inverse;
    let single = |s: &mut State<u16>, inv: bool| if inv { super::u32x2::inverse(s) } else { super::u32x2::permute(s) };
    // SAFETY: `available()` just confirmed AVX2 (and AVX).
    unsafe { em_impl::<u16, 16>(job, |b| batch128(b, inverse), single) }
}

/// [`EmJob`] on Prøst-256 blocks (checked by the caller). Panics if AVX2 is missing.
pub(crate) fn em256(job: &mut EmJob<'_>) -> EmSums {
    assert!(available(), "CPU lacks AVX2");
    let inverse = job.inverse;
    let single = |s: &mut State<u32>, inv: bool| if inv { super::u32x2::inverse(s) } else { super::u32x2::permute(s) };
    // SAFETY: `available()` just confirmed AVX2 (and AVX).
    unsafe { em_impl::<u32, 8>(job, |b| batch256(b, inverse), single) }
}

/// P or P^-1 on many Prøst-128 states. Panics if AVX2 is missing.
pub(crate) fn many128(states: &mut [State<u16>], inverse: bool) {
    assert!(available(), "CPU lacks AVX2");
    let single = if inverse { super::u32x2::inverse::<u16> } else { super::u32x2::permute::<u16> };
    // SAFETY: `available()` just confirmed AVX2 (and AVX).
    chunked::<u16, 16>(states, MIN_REST, |b| unsafe { batch128(b, inverse) }, single);
}

/// P or P^-1 on many Prøst-256 states. Panics if AVX2 is missing.
pub(crate) fn many256(states: &mut [State<u32>], inverse: bool) {
    assert!(available(), "CPU lacks AVX2");
    let single = if inverse { super::u32x2::inverse::<u32> } else { super::u32x2::permute::<u32> };
    // SAFETY: `available()` just confirmed AVX2 (and AVX).
    chunked::<u32, 8>(states, MIN_REST, |b| unsafe { batch256(b, inverse) }, single);
}
