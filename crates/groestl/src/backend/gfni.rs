//! `gfni`: bytesliced Grøstl for CPUs with AVX-512VL, VAES and GFNI (Ice Lake and later, AMD
//! Zen 4/5).
//!
//! - MUL2 and MUL4 are one `GF2P8AFFINEQB` each (multiplication by 2 or 4 in the AES field is
//!   linear over GF(2), so it is the affine map with the constant bit matrix `M2` / `M4` and
//!   no additive constant; `GF2P8MULB` would need a second register of 2s or 4s), so the
//!   last line of the MixBytes formula becomes `b_i = 4·x_{i+3} ⊕ 2·y_{i+7} ⊕ y_{i+4}`: two
//!   multiplications and one `VPTERNLOGQ`, with the two products computed in parallel.
//! - SubBytes stays `AESENCLAST` (its key input carries the folded round constant; the GFNI
//!   S-box `GF2P8AFFINEINVQB` has no per-byte key and measured no faster).
//! - Grøstl-384/512 keeps row `i` of P and of Q in the two lanes of one YMM register and uses
//!   the 256-bit `VAESENCLAST` ([V] §4.1 without the lane juggling VAES makes unnecessary), and
//!   its output transformation (P alone) on four YMM registers with `VPERMB` ShiftBytes
//!   (`bytesliced::y1024`: Grøstl-512 64 B 11.85 -> 10.80 TSC c/B against the eight XMM
//!   registers of `out1024`, Zen 4, same run);
//!   Grøstl-224/256 runs on four YMM registers (`bytesliced::y256`, rows `k` and `k + 4` of P
//!   and of Q per register), which measured 2.83 against 3.42 TSC cycles/byte at 1 MiB for the
//!   XMM kernel with P and Q in the halves of eight registers (Sapphire Rapids-class Xeon; see
//!   docs/groestl-backends.md).
//!
//! Constant-time.

#![allow(unsafe_code)]
// Index loops over fixed register arrays are deliberate: closures (iterator adapters,
// `array::from_fn`) that LLVM leaves out of line lose the kernel's target features.
#![allow(clippy::needless_range_loop)]

use core::arch::x86_64::*;

use super::bytesliced::y1024::{Permb, Shuffles};
use super::bytesliced::{self as bs, Lanes, Xmm, Ymm, affine_mul};

const M2: i64 = affine_mul(2) as i64;
const M4: i64 = affine_mul(4) as i64;

/// An XMM register with GFNI doublings. `EVEX`: three-input XORs are `VPTERNLOGQ` (the `gfni`
/// backend, AVX-512VL); without it two `VPXOR` (the `gfniavx2` backend, VEX only).
#[derive(Clone, Copy)]
pub(crate) struct Gx<const EVEX: bool = true>(__m128i);

impl<const EVEX: bool> Lanes for Gx<EVEX> {
    const AESENC: bool = true;
    const MB_FORMULA: bool = true;
    #[inline(always)]
    unsafe fn ld(p: *const u8) -> Self {
        // SAFETY: tables are 64-byte aligned and read in 16-byte units at 16-byte offsets.
        Gx(unsafe { _mm_load_si128(p as *const __m128i) })
    }
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        // SAFETY: SSE2 (trait contract).
        Gx(unsafe { _mm_xor_si128(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn xor3(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: SSE2, and AVX-512F/VL when `EVEX` (trait contract).
        unsafe {
            if EVEX {
                Gx(_mm_ternarylogic_epi64::<0x96>(a.0, b.0, c.0))
            } else {
                Gx(_mm_xor_si128(_mm_xor_si128(a.0, b.0), c.0))
            }
        }
    }
    #[inline(always)]
    unsafe fn mul2(a: Self) -> Self {
        // SAFETY: GFNI (trait contract).
        Gx(unsafe { _mm_gf2p8affine_epi64_epi8::<0>(a.0, _mm_set1_epi64x(M2)) })
    }
    #[inline(always)]
    unsafe fn mb_out(x: Self, y: Self, z: Self) -> Self {
        // SAFETY: GFNI, and AVX-512F/VL when `EVEX` (trait contract).
        unsafe {
            let x4 = Gx(_mm_gf2p8affine_epi64_epi8::<0>(x.0, _mm_set1_epi64x(M4)));
            let y2 = Gx(_mm_gf2p8affine_epi64_epi8::<0>(y.0, _mm_set1_epi64x(M2)));
            Self::xor3(x4, y2, z)
        }
    }
    #[inline(always)]
    unsafe fn shuffle(a: Self, m: Self) -> Self {
        // SAFETY: SSSE3 (trait contract).
        Gx(unsafe { _mm_shuffle_epi8(a.0, m.0) })
    }
    #[inline(always)]
    unsafe fn sub_bytes_xor(a: Self, k: Self) -> Self {
        // SAFETY: AES-NI (trait contract).
        Gx(unsafe { _mm_aesenclast_si128(a.0, k.0) })
    }
}

impl<const EVEX: bool> Xmm for Gx<EVEX> {
    #[inline(always)]
    unsafe fn from(x: __m128i) -> Self {
        Gx(x)
    }
    #[inline(always)]
    unsafe fn into(self) -> __m128i {
        self.0
    }
}

/// A YMM register with GFNI doublings and 256-bit `VAESENCLAST`; `EVEX` as in [`Gx`]. `U` is
/// the table unit it reads, as in `avx2::A2`: 32 bytes (P‖Q of one message) or 16 (broadcast to
/// both lanes: two messages side by side).
#[derive(Clone, Copy)]
pub(crate) struct Gy<const U: usize = 32, const EVEX: bool = true>(__m256i);

impl<const U: usize, const EVEX: bool> Lanes for Gy<U, EVEX> {
    const AESENC: bool = true;
    const MB_FORMULA: bool = true;
    #[inline(always)]
    unsafe fn ld(p: *const u8) -> Self {
        // SAFETY: tables are 64-byte aligned and read in U-byte units at U-byte offsets.
        unsafe {
            if U == 16 {
                Gy(_mm256_broadcastsi128_si256(_mm_load_si128(p as *const __m128i)))
            } else {
                Gy(_mm256_load_si256(p as *const __m256i))
            }
        }
    }
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        // SAFETY: AVX2 (trait contract).
        Gy(unsafe { _mm256_xor_si256(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn xor3(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: AVX2, and AVX-512F/VL when `EVEX` (trait contract).
        unsafe {
            if EVEX {
                Gy(_mm256_ternarylogic_epi64::<0x96>(a.0, b.0, c.0))
            } else {
                Gy(_mm256_xor_si256(_mm256_xor_si256(a.0, b.0), c.0))
            }
        }
    }
    #[inline(always)]
    unsafe fn mul2(a: Self) -> Self {
        // SAFETY: GFNI, AVX (trait contract).
        Gy(unsafe { _mm256_gf2p8affine_epi64_epi8::<0>(a.0, _mm256_set1_epi64x(M2)) })
    }
    #[inline(always)]
    unsafe fn mb_out(x: Self, y: Self, z: Self) -> Self {
        // SAFETY: GFNI + AVX, and AVX-512F/VL when `EVEX` (trait contract).
        unsafe {
            let x4 = Gy(_mm256_gf2p8affine_epi64_epi8::<0>(x.0, _mm256_set1_epi64x(M4)));
            let y2 = Gy(_mm256_gf2p8affine_epi64_epi8::<0>(y.0, _mm256_set1_epi64x(M2)));
            Self::xor3(x4, y2, z)
        }
    }
    #[inline(always)]
    unsafe fn shuffle(a: Self, m: Self) -> Self {
        // SAFETY: AVX2 (trait contract).
        Gy(unsafe { _mm256_shuffle_epi8(a.0, m.0) })
    }
    #[inline(always)]
    unsafe fn sub_bytes_xor(a: Self, k: Self) -> Self {
        // SAFETY: VAES (trait contract).
        Gy(unsafe { _mm256_aesenclast_epi128(a.0, k.0) })
    }
}

impl<const U: usize, const EVEX: bool> Ymm for Gy<U, EVEX> {
    #[inline(always)]
    unsafe fn from_ymm(x: __m256i) -> Self {
        Gy(x)
    }
    #[inline(always)]
    unsafe fn ymm(self) -> __m256i {
        self.0
    }
}

impl Permb for Gy<32, true> {
    #[inline(always)]
    unsafe fn permb(a: Self, s: &Shuffles, u: usize) -> Self {
        // SAFETY: AVX-512VBMI + VL (the `gfni` backend's features; trait contract); the
        // tables are 64-byte aligned, unit `u < 8`.
        unsafe {
            let idx = _mm256_load_si256(s.idx[u].as_ptr() as *const __m256i);
            Gy(_mm256_permutexvar_epi8(idx, a.0))
        }
    }
}

super::entry_points! {
    features = "sse2,ssse3,aes,avx,avx2,avx512f,avx512bw,avx512vl,avx512vbmi,vaes,gfni";
    compress512(h: &mut [u64; 8], blocks: &[u8]) -> () = bs::y256::compress512_y::<Gy>(h, blocks);
    compress1024(h: &mut [u64; 16], blocks: &[u8]) -> () = bs::compress1024_y::<Gy>(h, blocks);
    output512(h: &[u64; 8]) -> [u64; 8] = bs::y256::output512_y::<Gy>(h);
    output1024(h: &[u64; 16]) -> [u64; 16] = bs::y1024::output1024_y::<Gy>(h);
    finish512(h: &[u64; 8], blocks: &[u8]) -> [u64; 8] = bs::y256::finish512_y::<Gy>(h, blocks);
    finish1024(h: &[u64; 16], blocks: &[u8]) -> [u64; 16] = bs::y1024::finish1024_y::<Gy>(h, blocks);
}
