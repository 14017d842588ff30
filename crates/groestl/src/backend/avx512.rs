//! `avx512`: the bytesliced AES-NI kernel of `aesni` with AVX-512BW/VL instructions in
//! MixBytes ([V] §2.2 formula; spec §14): the three-input XORs of the formula are one
//! `VPTERNLOGQ` each, and MUL2 takes the carry bits into a mask register (`VPMOVB2M`) and
//! selects the reduction byte with a zero-masked move, so `MUL2(v) ⊕ w` is four instructions
//! (`VPMOVB2M`, `VPADDB`, `VMOVDQU8{k}{z}`, `VPTERNLOGQ`) instead of six.
//!
//! Grøstl-224/256 runs on four YMM registers (`bytesliced::y256`, SubBytes on the extracted halves,
//! the biased MUL2 `VPADDB` + `VPSHUFB` + `VPTERNLOGQ`): 4.48 -> 3.94 TSC cycles/byte at 1 MiB
//! against the XMM kernel on a Sapphire Rapids-class Xeon (llvm-mca: better on Skylake-X and
//! Zen 4 too). Grøstl-384/512 and the multi-buffer kernels keep the mask-register MUL2
//! (`A2<_, _, true, false>`): the biased one measured 4.41 -> 3.62 here at 1 MiB, but llvm-mca
//! puts it 8 % behind on Zen 4. Grøstl-384/512 runs P and Q in the
//! two lanes of YMM registers ([V] §4.1, the `avx2` layout with these EVEX instructions; SubBytes
//! on the extracted halves): 4.45 against 5.41 cycles/byte for two XMM groups on Zen 5. The
//! multi-buffer kernels put two messages in each YMM register and, with 32 registers, keep four
//! groups in flight. Needs no VAES or GFNI (runs on Skylake-X/Cascade Lake). Constant-time.

#![allow(unsafe_code)]
// Index loops over fixed register arrays are deliberate: closures (iterator adapters,
// `array::from_fn`) that LLVM leaves out of line lose the kernel's target features.
#![allow(clippy::needless_range_loop)]

use core::arch::x86_64::*;

use super::avx2::A2;
use super::bytesliced::{self as bs, Lanes, Xmm};

#[derive(Clone, Copy)]
pub(crate) struct X512(__m128i);

impl Lanes for X512 {
    const AESENC: bool = true;
    const MB_FORMULA: bool = true;
    #[inline(always)]
    unsafe fn ld(p: *const u8) -> Self {
        // SAFETY: tables are 64-byte aligned and read in 16-byte units at 16-byte offsets.
        X512(unsafe { _mm_load_si128(p as *const __m128i) })
    }
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        // SAFETY: SSE2 (trait contract).
        X512(unsafe { _mm_xor_si128(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn xor3(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: AVX-512F/VL (trait contract).
        X512(unsafe { _mm_ternarylogic_epi64::<0x96>(a.0, b.0, c.0) })
    }
    #[inline(always)]
    unsafe fn mul2(a: Self) -> Self {
        // SAFETY: AVX-512BW/VL (trait contract).
        unsafe {
            let k = _mm_movepi8_mask(a.0);
            X512(_mm_xor_si128(_mm_add_epi8(a.0, a.0), _mm_maskz_mov_epi8(k, _mm_set1_epi8(0x1b))))
        }
    }
    #[inline(always)]
    unsafe fn mb_out(x: Self, y: Self, z: Self) -> Self {
        // SAFETY: AVX-512F/BW/VL (trait contract).
        unsafe {
            let c = _mm_set1_epi8(0x1b);
            let k = _mm_movepi8_mask(x.0);
            let u = _mm_ternarylogic_epi64::<0x96>(_mm_add_epi8(x.0, x.0), _mm_maskz_mov_epi8(k, c), y.0);
            let k = _mm_movepi8_mask(u);
            X512(_mm_ternarylogic_epi64::<0x96>(_mm_add_epi8(u, u), _mm_maskz_mov_epi8(k, c), z.0))
        }
    }
    #[inline(always)]
    unsafe fn shuffle(a: Self, m: Self) -> Self {
        // SAFETY: SSSE3 (trait contract).
        X512(unsafe { _mm_shuffle_epi8(a.0, m.0) })
    }
    #[inline(always)]
    unsafe fn sub_bytes_xor(a: Self, k: Self) -> Self {
        // SAFETY: AES-NI (trait contract).
        X512(unsafe { _mm_aesenclast_si128(a.0, k.0) })
    }
}

impl Xmm for X512 {
    #[inline(always)]
    unsafe fn from(x: __m128i) -> Self {
        X512(x)
    }
    #[inline(always)]
    unsafe fn into(self) -> __m128i {
        self.0
    }
}

super::entry_points! {
    features = "sse2,ssse3,aes,avx,avx2,avx512f,avx512bw,avx512vl";
    compress512(h: &mut [u64; 8], blocks: &[u8]) -> () = bs::y256::compress512_y::<A2<32, false, true>>(h, blocks);
    output512(h: &[u64; 8]) -> [u64; 8] = bs::y256::output512_y::<A2<32, false, true>>(h);
    output1024(h: &[u64; 16]) -> [u64; 16] = bs::output1024::<X512>(h);
    finish512(h: &[u64; 8], blocks: &[u8]) -> [u64; 8] = bs::y256::finish512_y::<A2<32, false, true>>(h, blocks);
    compress1024(h: &mut [u64; 16], blocks: &[u8]) -> () = bs::compress1024_y::<A2<32, false, true, false>>(h, blocks);
    finish1024(h: &[u64; 16], blocks: &[u8]) -> [u64; 16] = bs::finish1024_y::<A2<32, false, true, false>, X512>(h, blocks);
    many512_8(msgs: &[&[u8]], h0: &[u64; 8], out: &mut [[u64; 8]]) -> () = bs::many512_y::<A2<16, false, true, false>, 4, 8>(msgs, h0, out);
    many1024_4(msgs: &[&[u8]], h0: &[u64; 16], out: &mut [[u64; 16]]) -> () = bs::many1024_y::<A2<32, false, true, false>, A2<16, false, true, false>, 4, 2>(msgs, h0, out);
}
