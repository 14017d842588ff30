//! `avx2`: AVX2 + AES-NI without VAES (Haswell to Cascade Lake), paper [V] §4.1.
//!
//! Grøstl-384/512 keeps row `i` of P in the low and row `i` of Q in the high 128-bit lane of
//! one YMM register, so ShiftBytes (`VPSHUFB`), the round-0 constant and all 48 XOR + 16 MUL2 of
//! MixBytes (`VPCMPGTB`/`VPADDB`/`VPAND`/`VPXOR`) work on both permutations at once; only
//! SubBytes needs the lanes apart: `VEXTRACTI128`, two 128-bit `AESENCLAST`, `VINSERTI128`.
//! Grøstl-224/256 runs on four YMM registers (`bytesliced::y256`: P and Q in the two lanes, rows
//! `k` and `k + 4` in the halves of each lane, 64 instructions a round with VAES, 76 here against
//! 128 for the XMM kernel), MUL2 as `VPADDB` + `VPSHUFB` + `VPXOR` with the bias folded into the
//! round keys ([`Lanes::MUL2_BIAS`]). Constant-time.
//!
//! `hash_many` runs two messages per YMM register, one in each lane (Grøstl-224/256: four
//! messages per pass in two groups; Grøstl-384/512: two messages, each P‖Q in one group), see
//! `bytesliced::many512_y`/`many1024_y`.

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::aesni::Sse;
use super::bytesliced::y1024::{Permb, Shuffles};
use super::bytesliced::{self as bs, Lanes, Ymm};

/// A YMM register for the bytesliced kernels, reading `U`-byte table units: 32 (P's unit in the
/// low lane, Q's in the high lane: one message's P‖Q) or 16 (one unit broadcast to both lanes:
/// two messages side by side). SubBytes is one `VAESENCLAST` on the whole register when `VAES`
/// (the `vaes` backend), else two `AESENCLAST` on the extracted halves. With `EVEX` (the
/// `avx512` backend's YMM kernels) three-input XORs are `VPTERNLOGQ` and MUL2 selects its
/// reduction byte through a mask register, as in `avx512::X512`. With `BIAS` (the default)
/// MixBytes doubles with the biased `VPADDB` + `VPSHUFB` ([`Lanes::MUL2_BIAS`]); without, with
/// the compare (or, with `EVEX`, the mask register) as before issue 36.
#[derive(Clone, Copy)]
pub(crate) struct A2<const U: usize = 32, const VAES: bool = false, const EVEX: bool = false, const BIAS: bool = true>(__m256i);

impl<const U: usize, const VAES: bool, const EVEX: bool, const BIAS: bool> Lanes for A2<U, VAES, EVEX, BIAS> {
    const AESENC: bool = true;
    const MB_FORMULA: bool = true;
    #[inline(always)]
    unsafe fn ld(p: *const u8) -> Self {
        // SAFETY: tables are 64-byte aligned and read in U-byte units at U-byte offsets.
        unsafe {
            if U == 16 {
                A2(_mm256_broadcastsi128_si256(_mm_load_si128(p as *const __m128i)))
            } else {
                A2(_mm256_load_si256(p as *const __m256i))
            }
        }
    }
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        // SAFETY: AVX2 (trait contract).
        A2(unsafe { _mm256_xor_si256(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn xor3(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: AVX2, and AVX-512F/VL when `EVEX` (only the `avx512` kernels set it).
        unsafe {
            if EVEX {
                A2(_mm256_ternarylogic_epi64::<0x96>(a.0, b.0, c.0))
            } else {
                A2(_mm256_xor_si256(_mm256_xor_si256(a.0, b.0), c.0))
            }
        }
    }
    #[inline(always)]
    unsafe fn mul2(a: Self) -> Self {
        // SAFETY: AVX2, and AVX-512BW/VL when `EVEX` (trait contract).
        unsafe {
            let d = _mm256_add_epi8(a.0, a.0);
            if EVEX {
                let k = _mm256_movepi8_mask(a.0);
                return A2(_mm256_xor_si256(d, _mm256_maskz_mov_epi8(k, _mm256_set1_epi8(0x1b))));
            }
            let hi = _mm256_cmpgt_epi8(_mm256_setzero_si256(), a.0);
            A2(_mm256_xor_si256(d, _mm256_and_si256(hi, _mm256_set1_epi8(0x1b))))
        }
    }
    #[inline(always)]
    unsafe fn mb_out(x: Self, y: Self, z: Self) -> Self {
        // SAFETY: as in `xor3` and `mul2`.
        unsafe {
            if EVEX {
                let c = _mm256_set1_epi8(0x1b);
                let k = _mm256_movepi8_mask(x.0);
                let u = _mm256_ternarylogic_epi64::<0x96>(_mm256_add_epi8(x.0, x.0), _mm256_maskz_mov_epi8(k, c), y.0);
                let k = _mm256_movepi8_mask(u);
                return A2(_mm256_ternarylogic_epi64::<0x96>(_mm256_add_epi8(u, u), _mm256_maskz_mov_epi8(k, c), z.0));
            }
            Self::xor(Self::mul2(Self::xor(Self::mul2(x), y)), z)
        }
    }
    const MUL2_BIAS: u8 = if BIAS { 0x1b } else { 0 };
    #[inline(always)]
    unsafe fn mb_outb(x: Self, y: Self, z: Self) -> Self {
        // SAFETY: as in `xor3` and `mul2`. `VPSHUFB` of the all-0x1b table gives 0x1b where the
        // index byte is below 0x80 and 0 where its top bit is set: `MUL2(v) ⊕ 0x1b` is
        // `VPADDB` + `VPSHUFB` + `VPXOR`. With u = MUL2(x) ⊕ 0x1b ⊕ y the result is
        // MUL2(u) ⊕ 0x1b ⊕ z.
        unsafe {
            if !BIAS {
                return Self::mb_out(x, y, z);
            }
            let c = _mm256_set1_epi8(0x1b);
            if EVEX {
                let u = Self::xor3(A2(_mm256_add_epi8(x.0, x.0)), A2(_mm256_shuffle_epi8(c, x.0)), y);
                return Self::xor3(A2(_mm256_add_epi8(u.0, u.0)), A2(_mm256_shuffle_epi8(c, u.0)), z);
            }
            // Without three-input XORs, the same eight instructions one level shallower: u and
            // v = x + x ⊕ y have the same top bits (the 0x1b term has none), so the second
            // look-up reads v, and u + u = (v + v) ⊕ PSHUFB(0x36…, x) (doubling is linear).
            let v = _mm256_xor_si256(_mm256_add_epi8(x.0, x.0), y.0);
            let w = _mm256_xor_si256(z.0, _mm256_shuffle_epi8(_mm256_set1_epi8(0x36), x.0));
            let r = _mm256_xor_si256(_mm256_add_epi8(v, v), _mm256_shuffle_epi8(c, v));
            A2(_mm256_xor_si256(r, w))
        }
    }
    #[inline(always)]
    unsafe fn shuffle(a: Self, m: Self) -> Self {
        // SAFETY: AVX2 (trait contract).
        A2(unsafe { _mm256_shuffle_epi8(a.0, m.0) })
    }
    #[inline(always)]
    unsafe fn sub_bytes_xor(a: Self, k: Self) -> Self {
        // SAFETY: AVX2 + AES-NI, and VAES when `VAES` (trait contract: only the `vaes` kernels
        // instantiate `VAES = true`).
        unsafe {
            if VAES {
                return A2(_mm256_aesenclast_epi128(a.0, k.0));
            }
            let lo = _mm_aesenclast_si128(_mm256_castsi256_si128(a.0), _mm256_castsi256_si128(k.0));
            let hi = _mm_aesenclast_si128(_mm256_extracti128_si256::<1>(a.0), _mm256_extracti128_si256::<1>(k.0));
            A2(_mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lo), hi))
        }
    }
}

impl<const U: usize, const VAES: bool, const EVEX: bool, const BIAS: bool> Ymm for A2<U, VAES, EVEX, BIAS> {
    #[inline(always)]
    unsafe fn from_ymm(x: __m256i) -> Self {
        A2(x)
    }
    #[inline(always)]
    unsafe fn ymm(self) -> __m256i {
        self.0
    }
}

impl<const U: usize, const VAES: bool, const EVEX: bool, const BIAS: bool> Permb for A2<U, VAES, EVEX, BIAS> {
    #[inline(always)]
    unsafe fn permb(a: Self, s: &Shuffles, u: usize) -> Self {
        // SAFETY: AVX2 (trait contract), unit `u < 8`.
        A2(unsafe { bs::y1024::permb_avx2(a.0, s, u) })
    }
}

super::entry_points! {
    features = "sse2,ssse3,aes,avx,avx2";
    compress512(h: &mut [u64; 8], blocks: &[u8]) -> () = bs::y256::compress512_y::<A2>(h, blocks);
    compress1024(h: &mut [u64; 16], blocks: &[u8]) -> () = bs::compress1024_y::<A2>(h, blocks);
    output512(h: &[u64; 8]) -> [u64; 8] = bs::y256::output512_y::<A2>(h);
    output1024(h: &[u64; 16]) -> [u64; 16] = bs::output1024::<Sse<true>>(h);
    finish512(h: &[u64; 8], blocks: &[u8]) -> [u64; 8] = bs::y256::finish512_y::<A2>(h, blocks);
    finish1024(h: &[u64; 16], blocks: &[u8]) -> [u64; 16] = bs::finish1024_y::<A2, Sse<true>>(h, blocks);
    many512_4(msgs: &[&[u8]], h0: &[u64; 8], out: &mut [[u64; 8]]) -> () = bs::many512_y::<A2<16>, 2, 4>(msgs, h0, out);
    many1024_2(msgs: &[&[u8]], h0: &[u64; 16], out: &mut [[u64; 16]]) -> () = bs::many1024_y::<A2, A2<16>, 2, 1>(msgs, h0, out);
}
