//! `avx2gather`: the T-table method with four look-ups per AVX2 `VPGATHERQQ` (paper [V] §4.2,
//! spec §14). **NOT constant-time** (the gather addresses are state bytes), never chosen by
//! `Backend::detect()`; a measured experiment (docs/groestl-backends.md, "Experiment:
//! vpgatherqq T-tables").
//!
//! The state is kept column-wise, one 64-bit word per column as in `ttable64` (row 0 in the most
//! significant byte): a 512-bit state is two YMM registers (columns 0–3, 4–7), a 1024-bit state
//! four. One round computes output column `j` as `⊕_r T_r[a_{r, j+σ_r}]` with the tables of
//! `ttable64`. Per table `r` and register: one `VPSHUFB` moves byte `r` of every column to the
//! low byte of its 64-bit lane and clears the rest; ShiftBytes is then a rotation of the column
//! sequence by `σ_r` (per register `VPERMQ` + `VPBLENDD`, free when `σ_r` is a multiple of 4);
//! one `VPGATHERQQ` fetches the four table words and one `VPXOR` accumulates them.
//! AddRoundConstant is one `VPXOR` per register from a precomputed table. P and Q of a
//! compression run in the same loop, so their gathers can overlap.
//!
//! Instruction count per round of Grøstl-256 (P and Q): 2 × (16 `VPSHUFB` + 16 gathers + 16
//! mask restores (`VPCMPEQD`, emitted by the compiler for the unmasked gather) + 16 `VPXOR` +
//! 2 AC + 4 `VPERMQ`/`VPBLENDD` per table whose `σ` is not a multiple of 4: 6 tables of P
//! and 6 of Q → 24) ≈ 2 × 90 = 180, against the paper's 144, which does ShiftBytes once on
//! the whole state (8 instructions) instead of per table.

#![allow(unsafe_code)]
// Index loops over fixed register arrays are deliberate: closures (iterator adapters,
// `array::from_fn`) that LLVM leaves out of line lose the kernel's target features.
#![allow(clippy::needless_range_loop)]

use core::arch::x86_64::*;

use super::ttable64::T;
use crate::consts::*;

/// AddRoundConstant as XOR masks on column words: `[round][column]`, P and Q.
#[repr(C, align(32))]
struct Ac {
    p: [[u64; 16]; ROUNDS_1024],
    q: [[u64; 16]; ROUNDS_1024],
}

static AC: Ac = {
    let mut a = Ac { p: [[0; 16]; ROUNDS_1024], q: [[0; 16]; ROUNDS_1024] };
    let mut i = 0;
    while i < ROUNDS_1024 {
        let mut j = 0;
        while j < 16 {
            let v = ((16 * j) ^ i) as u64;
            a.p[i][j] = v << 56;
            a.q[i][j] = !v;
            j += 1;
        }
        i += 1;
    }
    a
};

/// `PSHUFB` masks: byte `r` (big-endian) of each 64-bit lane to byte 0, the other bytes zero.
#[repr(C, align(32))]
struct Extract([[u8; 32]; 8]);

static EXTRACT: Extract = {
    let mut m = [[0x80u8; 32]; 8];
    let mut r = 0;
    while r < 8 {
        let mut q = 0;
        while q < 4 {
            m[r][8 * q] = (8 * (q % 2) + 7 - r) as u8;
            q += 1;
        }
        r += 1;
    }
    Extract(m)
};

/// Qword `k` of the result is qword `(k + s) % 4` of `v`.
#[inline(always)]
unsafe fn rot4(v: __m256i, s: usize) -> __m256i {
    // SAFETY: AVX2 (caller).
    unsafe {
        match s {
            1 => _mm256_permute4x64_epi64::<0x39>(v),
            2 => _mm256_permute4x64_epi64::<0x4e>(v),
            3 => _mm256_permute4x64_epi64::<0x93>(v),
            _ => v,
        }
    }
}

/// Qwords `k < 4 - s` from `a`, the others from `b`.
#[inline(always)]
unsafe fn blend_hi(a: __m256i, b: __m256i, s: usize) -> __m256i {
    // SAFETY: AVX2 (caller).
    unsafe {
        match s {
            1 => _mm256_blend_epi32::<0xc0>(a, b),
            2 => _mm256_blend_epi32::<0xf0>(a, b),
            3 => _mm256_blend_epi32::<0xfc>(a, b),
            _ => a,
        }
    }
}

/// One round (SubBytes, ShiftBytes, MixBytes; AC is applied by the caller) on `NR` registers of
/// four columns each.
#[inline(always)]
unsafe fn round<const NR: usize>(x: &[__m256i; NR], sigma: &[u32; 8]) -> [__m256i; NR] {
    // SAFETY: AVX2 (caller); gather indices are bytes (0..=255), inside each 256-entry table.
    unsafe {
        let mut acc = [_mm256_setzero_si256(); NR];
        for r in 0..8 {
            let m = _mm256_load_si256(EXTRACT.0[r].as_ptr() as *const __m256i);
            let mut e = [_mm256_setzero_si256(); NR];
            for k in 0..NR {
                e[k] = _mm256_shuffle_epi8(x[k], m);
            }
            // Rotate the column sequence by σ_r: register k takes columns 4k + σ_r … 4k + σ_r + 3.
            let s = sigma[r] as usize % (4 * NR);
            let (q, s1) = (s / 4, s % 4);
            let mut p = e;
            for k in 0..NR {
                p[k] = rot4(e[k], s1);
            }
            let t = T[r].as_ptr() as *const i64;
            for k in 0..NR {
                let idx = blend_hi(p[(k + q) % NR], p[(k + q + 1) % NR], s1);
                acc[k] = _mm256_xor_si256(acc[k], _mm256_i64gather_epi64::<8>(t, idx));
            }
        }
        acc
    }
}

#[inline(always)]
unsafe fn ac<const NR: usize>(x: &mut [__m256i; NR], c: &[u64; 16]) {
    // SAFETY: AVX2 (caller); reads 4·NR ≤ 16 words of `c`.
    unsafe {
        for k in 0..NR {
            x[k] = _mm256_xor_si256(x[k], _mm256_load_si256(c.as_ptr().add(4 * k) as *const __m256i));
        }
    }
}

/// `4·NR` big-endian column words at `p`.
#[inline(always)]
unsafe fn load_be<const NR: usize>(p: *const u8) -> [__m256i; NR] {
    // SAFETY: 32·NR readable bytes at `p`; AVX2 (caller).
    unsafe {
        let bswap = _mm256_setr_epi8(
            7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,
        );
        let mut v = [_mm256_setzero_si256(); NR];
        for k in 0..NR {
            v[k] = _mm256_shuffle_epi8(_mm256_loadu_si256(p.add(32 * k) as *const __m256i), bswap);
        }
        v
    }
}

#[inline(always)]
unsafe fn load_words<const NR: usize>(h: &[u64]) -> [__m256i; NR] {
    // SAFETY: `h` has 4·NR words (callers pass [u64; 4·NR]); AVX (caller).
    unsafe {
        let mut v = [_mm256_setzero_si256(); NR];
        for k in 0..NR {
            v[k] = _mm256_loadu_si256(h.as_ptr().add(4 * k) as *const __m256i);
        }
        v
    }
}

#[inline(always)]
unsafe fn store_words<const NR: usize>(v: &[__m256i; NR], h: &mut [u64]) {
    // SAFETY: `h` has 4·NR words; AVX (caller).
    unsafe {
        for k in 0..NR {
            _mm256_storeu_si256(h.as_mut_ptr().add(4 * k) as *mut __m256i, v[k]);
        }
    }
}

#[inline(always)]
unsafe fn compress<const NR: usize>(h: &mut [u64], blocks: &[u8], rounds: usize, sp: &[u32; 8], sq: &[u32; 8]) {
    // SAFETY: AVX2 (caller); `load_be` reads whole blocks of 32·NR bytes.
    unsafe {
        let mut hv: [__m256i; NR] = load_words(h);
        for block in blocks.chunks_exact(32 * NR) {
            let m: [__m256i; NR] = load_be(block.as_ptr());
            let (mut p, mut q) = (m, m);
            for k in 0..NR {
                p[k] = _mm256_xor_si256(hv[k], m[k]);
            }
            for i in 0..rounds {
                ac(&mut p, &AC.p[i]);
                ac(&mut q, &AC.q[i]);
                p = round(&p, sp);
                q = round(&q, sq);
            }
            for k in 0..NR {
                hv[k] = _mm256_xor_si256(hv[k], _mm256_xor_si256(p[k], q[k]));
            }
        }
        store_words(&hv, h);
    }
}

#[inline(always)]
unsafe fn output<const NR: usize>(h: &[u64], out: &mut [u64], rounds: usize, sp: &[u32; 8]) {
    // SAFETY: AVX2 (caller).
    unsafe {
        let hv: [__m256i; NR] = load_words(h);
        let mut p = hv;
        for i in 0..rounds {
            ac(&mut p, &AC.p[i]);
            p = round(&p, sp);
        }
        for k in 0..NR {
            p[k] = _mm256_xor_si256(p[k], hv[k]);
        }
        store_words(&p, out);
    }
}

#[inline(always)]
unsafe fn output512_k(h: &[u64; 8]) -> [u64; 8] {
    let mut o = [0u64; 8];
    // SAFETY: AVX2 (caller).
    unsafe { output::<2>(h, &mut o, ROUNDS_512, &SIGMA_P512) };
    o
}

#[inline(always)]
unsafe fn output1024_k(h: &[u64; 16]) -> [u64; 16] {
    let mut o = [0u64; 16];
    // SAFETY: AVX2 (caller).
    unsafe { output::<4>(h, &mut o, ROUNDS_1024, &SIGMA_P1024) };
    o
}

super::entry_points! {
    features = "avx,avx2";
    compress512(h: &mut [u64; 8], blocks: &[u8]) -> () = compress::<2>(h, blocks, ROUNDS_512, &SIGMA_P512, &SIGMA_Q512);
    compress1024(h: &mut [u64; 16], blocks: &[u8]) -> () = compress::<4>(h, blocks, ROUNDS_1024, &SIGMA_P1024, &SIGMA_Q1024);
    output512(h: &[u64; 8]) -> [u64; 8] = output512_k(h);
    output1024(h: &[u64; 16]) -> [u64; 16] = output1024_k(h);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_of_the_column_sequence() {
        if !crate::backend_report::gate("groestl", "avx2gather", available(), "rotation unit test") {
            return;
        }
        #[target_feature(enable = "avx,avx2")]
        unsafe fn rotated<const NR: usize>(s: usize) -> [u64; 16] {
            let words: [u64; 16] = core::array::from_fn(|i| i as u64);
            // SAFETY: AVX2 is enabled; the loads and stores stay in 16-word arrays.
            unsafe {
                let e: [__m256i; NR] = load_words(&words);
                let (q, s1) = (s / 4, s % 4);
                let mut p = e;
                for k in 0..NR {
                    p[k] = rot4(e[k], s1);
                }
                let mut r = e;
                for k in 0..NR {
                    r[k] = blend_hi(p[(k + q) % NR], p[(k + q + 1) % NR], s1);
                }
                let mut out = [0u64; 16];
                store_words(&r, &mut out);
                out
            }
        }
        for s in 0..8 {
            // SAFETY: `available()` confirmed AVX2.
            let got = unsafe { rotated::<2>(s) };
            assert_eq!(got[..8], core::array::from_fn::<u64, 8, _>(|j| ((j + s) % 8) as u64), "8 columns, σ={s}");
        }
        for s in 0..16 {
            // SAFETY: as above.
            let got = unsafe { rotated::<4>(s) };
            assert_eq!(got, core::array::from_fn::<u64, 16, _>(|j| ((j + s) % 16) as u64), "16 columns, σ={s}");
        }
    }
}
