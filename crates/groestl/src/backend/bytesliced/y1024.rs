//! The Grøstl-384/512 output transformation `P(h) ⊕ h` on four YMM registers (issue 36), for
//! lane types that permute bytes across the 128-bit lanes (`VPERMB` with AVX-512VBMI + VL, or
//! an AVX2 sequence).
//!
//! **Layout.** P alone is 8 rows × 16 columns. Register `k` (0–3) holds columns 0–7 in its low
//! lane and columns 8–15 in its high lane; inside each lane bytes 0–7 are one row and bytes
//! 8–15 the row four further on, so the offset scheme of `y256` applies unchanged: at offset
//! `s` ∈ {0, 4}, half `h` of register `k` holds row `(k + s + 4h) mod 8`. MixBytes mixes the
//! rows of each column, which never leave their lane: `y256::mix_y` runs as it is (24 XOR, 8
//! MUL2 and 8 in-lane swaps a round, the output at offset 4).
//!
//! **ShiftBytes** moves a row's bytes across the two lanes (row 7 shifts by 11 of 16 columns):
//! one `VPERMB` per register, its index vector composed with the inverse AES ShiftRows for
//! `VAESENCLAST` as the `PSHUFB` masks are. Without `VPERMB` (AVX2) it is a lane swap
//! (`VPERM2I128`), two `VPSHUFB` and a `VPOR` per register ([`permb_avx2`]).
//!
//! **Who uses it** (Zen 4, forced backends, Grøstl-512 64 B, TSC c/B, two alternating rounds of
//! `slicewise bench groestl --algorithms groestl-512 --sizes 64,576 --runs 3`, XMM → YMM):
//! `gfni` (VPERMB) 11.94/11.76 → 10.92/10.68; `vaes` (split) 15.15/15.35 → 13.98/14.04. Kept on
//! the XMM `out1024`: `gfniavx2` 12.44/12.36 → 12.87/12.75 and `avx512` 15.51/15.38 →
//! 16.31/16.30 (their XMM MixBytes is cheaper: `GF2P8AFFINEQB` or mask-register MUL2, so the
//! extra shuffles outweigh it), `avx2` unchanged (16.77/16.91 → 16.84/16.86: two `AESENCLAST`
//! per register either way).
//!
//! Per round this is half the registers of `out1024` (four YMM instead of eight XMM) for one
//! cross-lane shuffle per register in place of a `PSHUFB`, plus `mix_y`'s eight in-lane swaps.

#![allow(unsafe_code)]
#![allow(clippy::needless_range_loop)]

use core::arch::x86_64::*;

use super::y256::mix_y;
use super::{Lanes, T1024, Tables, Ymm, aes_mask};
use crate::consts::ROUNDS_1024;

/// A YMM lane type with a byte permutation across its two lanes.
///
/// # Safety
/// As [`Lanes`]: only on a CPU with the implementing type's features.
pub(crate) trait Permb: Ymm {
    /// ShiftBytes of unit `u` (see [`Shuffles`]): `out[i] = a[idx[i]]`.
    unsafe fn permb(a: Self, s: &Shuffles, u: usize) -> Self;
}

/// ShiftBytes (composed with the inverse AES ShiftRows for `AESENCLAST` lanes) of every unit,
/// as one cross-lane index (`VPERMB`) and as two `PSHUFB` masks: `same` picks the bytes that
/// come from the byte's own lane, `cross` those from the other lane of the register with its
/// lanes swapped (0x80, "zero", elsewhere), ORed together.
#[repr(C, align(64))]
pub(crate) struct Shuffles {
    pub idx: [[u8; 32]; 8],
    pub same: [[u8; 32]; 8],
    pub cross: [[u8; 32]; 8],
}

const fn shuffles(idx: &[[u8; 32]; 8]) -> Shuffles {
    let mut s = Shuffles { idx: *idx, same: [[0x80; 32]; 8], cross: [[0x80; 32]; 8] };
    let mut u = 0;
    while u < 8 {
        let mut b = 0;
        while b < 32 {
            let i = idx[u][b];
            if (i / 16) as usize == b / 16 {
                s.same[u][b] = i % 16;
            } else {
                s.cross[u][b] = i % 16;
            }
            b += 1;
        }
        u += 1;
    }
    s
}

static SH_AES: Shuffles = shuffles(&YP1024.mask_aes);
static SH_PLAIN: Shuffles = shuffles(&YP1024.mask_sh);

/// P's tables of `T1024` repacked for this layout, the round keys without bias.
static YP1024: Tables<32, ROUNDS_1024> = pack(&T1024, 0);
/// The same with every round key XORed with `0x1b` (lane types with `MUL2_BIAS = 0x1b`).
static YP1024B: Tables<32, ROUNDS_1024> = pack(&T1024, 0x1b);

/// Unit `u` holds register `u % 4` at offset `4 · (u / 4)`: lane `l`, half `h`, byte `c` is
/// column `8l + c` of row `(u % 4 + 4 · (u / 4) + 4h) mod 8`. The shuffle index of a byte is
/// the register byte that holds the source column of the same row.
const fn pack<const R: usize>(t: &Tables<32, R>, bias: u8) -> Tables<32, R> {
    let mut y = Tables { mask_aes: [[0; 32]; 8], mask_sh: [[0; 32]; 8], ac0: [[0; 32]; 8], key: [[[0; 32]; 8]; R] };
    let mut u = 0;
    while u < 8 {
        let mut b = 0;
        while b < 32 {
            let (l, h, c) = (b / 16, (b / 8) % 2, b % 8);
            let row = (u % 4 + 4 * (u / 4) + 4 * h) % 8;
            let col = 8 * l + c;
            // P's lane of a `T1024` unit is bytes 0–15, one per column.
            let src = t.mask_sh[row][col] as usize;
            y.mask_sh[u][b] = (16 * (src / 8) + 8 * h + src % 8) as u8;
            y.ac0[u][b] = t.ac0[row][col];
            let mut r = 0;
            while r < R {
                y.key[r][u][b] = t.key[r][row][col] ^ bias;
                r += 1;
            }
            b += 1;
        }
        aes_mask(&y.mask_sh[u], &mut y.mask_aes[u], 0);
        aes_mask(&y.mask_sh[u], &mut y.mask_aes[u], 16);
        u += 1;
    }
    y
}

#[inline(always)]
fn tables<V: Lanes>() -> &'static Tables<32, ROUNDS_1024> {
    const { assert!(V::MUL2_BIAS == 0 || V::MUL2_BIAS == 0x1b, "no table for this MUL2 bias") };
    if V::MUL2_BIAS == 0 { &YP1024 } else { &YP1024B }
}

/// One round at offset `o` (0 or 4) with round `r`'s keys.
#[inline(always)]
unsafe fn round<V: Permb>(x: &mut [V; 4], sh: &Shuffles, keys: *const u8, r: usize, o: usize) {
    for k in 0..4 {
        // SAFETY: units o + k < 8 of round r < ROUNDS_1024, 32 bytes each, inside the tables.
        unsafe {
            let key = V::ld(keys.add(32 * (8 * r + o + k)));
            x[k] = V::sub_bytes_xor(V::permb(x[k], sh, o + k), key);
        }
    }
    // SAFETY: V's features are present (caller).
    *x = unsafe { mix_y(*x) };
}

/// `P(h) ⊕ h` of the 1024-bit chaining value in row registers (`hr[i]` = row `i`).
#[inline(always)]
pub(crate) unsafe fn out1024_y<V: Permb>(hr: &[__m128i; 8]) -> [__m128i; 8] {
    const { assert!(ROUNDS_1024.is_multiple_of(2)) };
    let t = tables::<V>();
    let sh = if V::AESENC { &SH_AES } else { &SH_PLAIN };
    let keys = t.key.as_ptr() as *const u8;
    // SAFETY: V's features are present (caller); table reads are 32-byte units of the
    // 64-byte-aligned tables.
    unsafe {
        let mut x = [V::from_ymm(_mm256_setzero_si256()); 4];
        for k in 0..4 {
            let (lo, hi) = (_mm_unpacklo_epi64(hr[k], hr[k + 4]), _mm_unpackhi_epi64(hr[k], hr[k + 4]));
            x[k] = V::xor(V::from_halves(lo, hi), V::ld(t.ac0[k].as_ptr()));
        }
        for r in (0..ROUNDS_1024).step_by(2) {
            round(&mut x, sh, keys, r, 0);
            round(&mut x, sh, keys, r + 1, 4);
        }
        let mut out = *hr;
        for k in 0..4 {
            let (lo, hi) = x[k].halves();
            out[k] = _mm_xor_si128(_mm_unpacklo_epi64(lo, hi), hr[k]);
            out[k + 4] = _mm_xor_si128(_mm_unpackhi_epi64(lo, hi), hr[k + 4]);
        }
        out
    }
}

#[inline(always)]
pub(crate) unsafe fn output1024_y<V: Permb>(h: &[u64; 16]) -> [u64; 16] {
    // SAFETY: V's features are present (caller); `rows1024` reads the local 128-byte buffer.
    unsafe {
        let hb: [u8; 128] = super::h_bytes(h);
        super::words1024(out1024_y::<V>(&super::rows1024(hb.as_ptr())))
    }
}

/// The last blocks on YMM (`absorb1024_y`: P and Q in the two lanes), then the output
/// transformation on YMM; the state converted once each way.
#[inline(always)]
pub(crate) unsafe fn finish1024_y<V: Permb>(h: &[u64; 16], blocks: &[u8]) -> [u64; 16] {
    // SAFETY: as in `output1024_y`.
    unsafe {
        let hb: [u8; 128] = super::h_bytes(h);
        let mut hr = super::rows1024(hb.as_ptr());
        super::absorb1024_y::<V>(&mut hr, blocks);
        super::words1024(out1024_y::<V>(&hr))
    }
}

/// [`Permb::permb`] on AVX2: the two lanes' own bytes by one `VPSHUFB`, the other lane's by a
/// second on the lane-swapped register (`VPERM2I128`: latency 3 on Zen 3/4 in llvm-mca-19's
/// models, where `VPERMQ` has 6), ORed.
///
/// # Safety
/// AVX2 must be present; `u < 8`.
#[inline(always)]
pub(crate) unsafe fn permb_avx2(a: __m256i, s: &Shuffles, u: usize) -> __m256i {
    // SAFETY: AVX2 (caller); 32-byte aligned loads of unit `u` of the 64-byte-aligned tables.
    unsafe {
        let same = _mm256_load_si256(s.same[u].as_ptr() as *const __m256i);
        let cross = _mm256_load_si256(s.cross[u].as_ptr() as *const __m256i);
        let swapped = _mm256_permute2x128_si256::<0x01>(a, a);
        _mm256_or_si256(_mm256_shuffle_epi8(a, same), _mm256_shuffle_epi8(swapped, cross))
    }
}
