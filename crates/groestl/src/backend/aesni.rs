//! `aesni`: bytesliced Grøstl with AES-NI on SSSE3 (paper [A] §5.1; spec §14).
//!
//! Rows in XMM registers; for Grøstl-224/256 row `i` of P and row `i` of Q share one register,
//! so every instruction works on 16 columns; Grøstl-384/512 runs P and Q as two groups of eight
//! registers, interleaved by the compiler. SubBytes+ShiftBytes is one `PSHUFB` (ShiftBytes merged
//! with the inverse AES ShiftRows) and one `AESENCLAST` whose round key is the next round's
//! constant pulled back through MixBytes. MixBytes is the synthesizer's 43-XOR/16-MUL2 program
//! (`crate::generated::mixbytes`, chosen by `Sse<false>`; it measured faster here than the
//! papers' 48-XOR formula, which the VEX copy in `avx2` keeps) with the 5-instruction
//! `PCMPGTB`/`PADDB`/`PAND`/`PXOR` doubling. Constant-time: no table look-ups
//! indexed by data, no data-dependent branches.

#![allow(unsafe_code)]
// Index loops over fixed register arrays are deliberate: closures (iterator adapters,
// `array::from_fn`) that LLVM leaves out of line lose the kernel's target features.
#![allow(clippy::needless_range_loop)]

use core::arch::x86_64::*;

use super::bytesliced::{self as bs, Lanes, Xmm};

/// An XMM register for the bytesliced kernels. `FORMULA` picks the MixBytes form
/// ([`Lanes::MB_FORMULA`]): the synthesized program for the legacy-SSE `aesni` kernel, the
/// papers' formula for the VEX-encoded copy that `avx2` compiles (measured both ways).
#[derive(Clone, Copy)]
pub(crate) struct Sse<const FORMULA: bool = false>(pub(crate) __m128i);

impl<const FORMULA: bool> Lanes for Sse<FORMULA> {
    const AESENC: bool = true;
    const MB_FORMULA: bool = FORMULA;
    #[inline(always)]
    unsafe fn ld(p: *const u8) -> Self {
        // SAFETY: tables are 64-byte aligned and read in 16-byte units at 16-byte offsets.
        Self(unsafe { _mm_load_si128(p as *const __m128i) })
    }
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        // SAFETY: SSE2 (trait contract).
        Self(unsafe { _mm_xor_si128(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn mul2(a: Self) -> Self {
        // SAFETY: SSE2 (trait contract).
        unsafe {
            let hi = _mm_cmpgt_epi8(_mm_setzero_si128(), a.0);
            let d = _mm_add_epi8(a.0, a.0);
            Self(_mm_xor_si128(d, _mm_and_si128(hi, _mm_set1_epi8(0x1b))))
        }
    }
    #[inline(always)]
    unsafe fn shuffle(a: Self, m: Self) -> Self {
        // SAFETY: SSSE3 (trait contract).
        Self(unsafe { _mm_shuffle_epi8(a.0, m.0) })
    }
    #[inline(always)]
    unsafe fn sub_bytes_xor(a: Self, k: Self) -> Self {
        // SAFETY: AES-NI (trait contract).
        Self(unsafe { _mm_aesenclast_si128(a.0, k.0) })
    }
}

impl<const FORMULA: bool> Xmm for Sse<FORMULA> {
    #[inline(always)]
    unsafe fn from(x: __m128i) -> Self {
        Self(x)
    }
    #[inline(always)]
    unsafe fn into(self) -> __m128i {
        self.0
    }
}

super::entry_points! {
    features = "sse2,ssse3,aes";
    compress512(h: &mut [u64; 8], blocks: &[u8]) -> () = bs::compress512::<Sse>(h, blocks);
    compress1024(h: &mut [u64; 16], blocks: &[u8]) -> () = bs::compress1024::<Sse>(h, blocks);
    output512(h: &[u64; 8]) -> [u64; 8] = bs::output512::<Sse>(h);
    output1024(h: &[u64; 16]) -> [u64; 16] = bs::output1024::<Sse>(h);
    finish512(h: &[u64; 8], blocks: &[u8]) -> [u64; 8] = bs::finish512::<Sse>(h, blocks);
    finish1024(h: &[u64; 16], blocks: &[u8]) -> [u64; 16] = bs::finish1024::<Sse>(h, blocks);
    many512_4(msgs: &[&[u8]], h0: &[u64; 8], out: &mut [[u64; 8]]) -> () = bs::many512::<Sse, 4>(msgs, h0, out);
    many1024_2(msgs: &[&[u8]], h0: &[u64; 16], out: &mut [[u64; 16]]) -> () = bs::many1024::<Sse, 2, 4>(msgs, h0, out);
}
