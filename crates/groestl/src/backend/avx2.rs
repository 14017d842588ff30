//! `avx2`: AVX2 + AES-NI without VAES (Haswell to Cascade Lake), paper [V] §4.1.
//!
//! Grøstl-384/512 keeps row `i` of P in the low and row `i` of Q in the high 128-bit lane of
//! one YMM register, so ShiftBytes (`VPSHUFB`), the round-0 constant and all 48 XOR + 16 MUL2 of
//! MixBytes (`VPCMPGTB`/`VPADDB`/`VPAND`/`VPXOR`) work on both permutations at once; only
//! SubBytes needs the lanes apart: `VEXTRACTI128`, two 128-bit `AESENCLAST`, `VINSERTI128`.
//! Grøstl-224/256 is the `aesni` kernel compiled with VEX three-operand encodings (P and Q
//! already share each XMM register). Constant-time.

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::aesni::Sse;
use super::bytesliced::{self as bs, Lanes, Ymm};

cpufeatures::new!(cpu, "sse2", "ssse3", "aes", "avx", "avx2");

pub(crate) fn available() -> bool {
    cpu::get()
}

#[derive(Clone, Copy)]
pub(crate) struct A2(__m256i);

impl Lanes for A2 {
    const AESENC: bool = true;
    const MB_FORMULA: bool = true;
    #[inline(always)]
    unsafe fn ld(p: *const u8) -> Self {
        // SAFETY: tables are 64-byte aligned and read in 32-byte units at 32-byte offsets.
        A2(unsafe { _mm256_load_si256(p as *const __m256i) })
    }
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        // SAFETY: AVX2 (trait contract).
        A2(unsafe { _mm256_xor_si256(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn mul2(a: Self) -> Self {
        // SAFETY: AVX2 (trait contract).
        unsafe {
            let hi = _mm256_cmpgt_epi8(_mm256_setzero_si256(), a.0);
            let d = _mm256_add_epi8(a.0, a.0);
            A2(_mm256_xor_si256(d, _mm256_and_si256(hi, _mm256_set1_epi8(0x1b))))
        }
    }
    #[inline(always)]
    unsafe fn shuffle(a: Self, m: Self) -> Self {
        // SAFETY: AVX2 (trait contract).
        A2(unsafe { _mm256_shuffle_epi8(a.0, m.0) })
    }
    #[inline(always)]
    unsafe fn sub_bytes_xor(a: Self, k: Self) -> Self {
        // SAFETY: AVX2 + AES-NI (trait contract).
        unsafe {
            let lo = _mm_aesenclast_si128(_mm256_castsi256_si128(a.0), _mm256_castsi256_si128(k.0));
            let hi = _mm_aesenclast_si128(_mm256_extracti128_si256::<1>(a.0), _mm256_extracti128_si256::<1>(k.0));
            A2(_mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lo), hi))
        }
    }
}

impl Ymm for A2 {
    #[inline(always)]
    unsafe fn from_halves(lo: __m128i, hi: __m128i) -> Self {
        // SAFETY: AVX (trait contract).
        A2(unsafe { _mm256_set_m128i(hi, lo) })
    }
    #[inline(always)]
    unsafe fn halves(self) -> (__m128i, __m128i) {
        // SAFETY: AVX2 (trait contract).
        unsafe { (_mm256_castsi256_si128(self.0), _mm256_extracti128_si256::<1>(self.0)) }
    }
}

super::entry_points! {
    features = "sse2,ssse3,aes,avx,avx2";
    compress512(h: &mut [u64; 8], blocks: &[u8]) -> () = bs::compress512::<Sse<true>>(h, blocks);
    compress1024(h: &mut [u64; 16], blocks: &[u8]) -> () = bs::compress1024_y::<A2>(h, blocks);
    output512(h: &[u64; 8]) -> [u64; 8] = bs::output512::<Sse<true>>(h);
    output1024(h: &[u64; 16]) -> [u64; 16] = bs::output1024::<Sse<true>>(h);
    finish512(h: &[u64; 8], blocks: &[u8]) -> [u64; 8] = bs::finish512::<Sse<true>>(h, blocks);
    finish1024(h: &[u64; 16], blocks: &[u8]) -> [u64; 16] = bs::finish1024_y::<A2, Sse<true>>(h, blocks);
}
