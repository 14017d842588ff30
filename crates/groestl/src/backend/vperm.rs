//! `vperm`: the bytesliced kernel of `aesni` for CPUs without AES-NI, with the AES S-box
//! computed by SSSE3 `PSHUFB` look-ups of 4-bit indices (Hamburg's vector-permute technique,
//! "Accelerating AES with Vector Permute Instructions", CHES 2009; [A] §5.1.8, [V] §5.3).
//!
//! A byte is split into nibbles; an input linear transform (two 16-entry tables) moves it to
//! Hamburg's GF(2^4)² basis, five look-ups in the GF(2^4) inverse tables invert it (index
//! 0x80 makes `PSHUFB` return 0, which handles the inverse of zero), and two output tables
//! (`sbou`, `sbot`) apply the affine map, giving `S(x) ⊕ 0x63`; the 0x63 is XORed back
//! together with the folded round constant. The tables are those of the public-domain
//! `vpaes` code (OpenSSL's `vpaes-x86_64.pl`, last round); the unit test below checks the whole
//! S-box. All look-ups are register shuffles with data-independent timing: constant-time.
//!
//! ShiftBytes is a plain `PSHUFB` (no AES ShiftRows to undo); MixBytes is the SSE2 formula.

#![allow(unsafe_code)]
#![allow(clippy::needless_range_loop)]

use core::arch::x86_64::*;

use super::bytesliced::{self as bs, Lanes, Xmm};

use crate::consts::vpaes::*;

#[inline(always)]
unsafe fn table(t: [u64; 2]) -> __m128i {
    // SAFETY: SSE2 (caller's contract).
    unsafe { _mm_set_epi64x(t[1] as i64, t[0] as i64) }
}

/// `S(x) ⊕ 0x63` on 16 bytes.
#[inline(always)]
unsafe fn sbox63(x: __m128i) -> __m128i {
    // SAFETY: SSSE3 (caller's contract).
    unsafe {
        let nib = _mm_set1_epi8(0x0f);
        let lo = _mm_and_si128(x, nib);
        let hi = _mm_and_si128(_mm_srli_epi32(x, 4), nib);
        let t = _mm_xor_si128(_mm_shuffle_epi8(table(IPT_LO), lo), _mm_shuffle_epi8(table(IPT_HI), hi));
        let k = _mm_and_si128(t, nib);
        let i = _mm_and_si128(_mm_srli_epi32(t, 4), nib);
        let j = _mm_xor_si128(i, k);
        let inv = table(INV);
        let ak = _mm_shuffle_epi8(table(INVA), k);
        let iak = _mm_xor_si128(_mm_shuffle_epi8(inv, i), ak);
        let jak = _mm_xor_si128(_mm_shuffle_epi8(inv, j), ak);
        let io = _mm_xor_si128(_mm_shuffle_epi8(inv, iak), j);
        let jo = _mm_xor_si128(_mm_shuffle_epi8(inv, jak), i);
        _mm_xor_si128(_mm_shuffle_epi8(table(SBOU), io), _mm_shuffle_epi8(table(SBOT), jo))
    }
}

#[derive(Clone, Copy)]
pub(crate) struct Vp(__m128i);

impl Lanes for Vp {
    const AESENC: bool = false;
    #[inline(always)]
    unsafe fn ld(p: *const u8) -> Self {
        // SAFETY: tables are 64-byte aligned and read in 16-byte units at 16-byte offsets.
        Vp(unsafe { _mm_load_si128(p as *const __m128i) })
    }
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        // SAFETY: SSE2 (trait contract).
        Vp(unsafe { _mm_xor_si128(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn mul2(a: Self) -> Self {
        // SAFETY: SSE2 (trait contract).
        unsafe {
            let hi = _mm_cmpgt_epi8(_mm_setzero_si128(), a.0);
            let d = _mm_add_epi8(a.0, a.0);
            Vp(_mm_xor_si128(d, _mm_and_si128(hi, _mm_set1_epi8(0x1b))))
        }
    }
    #[inline(always)]
    unsafe fn shuffle(a: Self, m: Self) -> Self {
        // SAFETY: SSSE3 (trait contract).
        Vp(unsafe { _mm_shuffle_epi8(a.0, m.0) })
    }
    #[inline(always)]
    unsafe fn sub_bytes_xor(a: Self, k: Self) -> Self {
        // SAFETY: SSSE3 (trait contract).
        unsafe { Vp(_mm_xor_si128(sbox63(a.0), _mm_xor_si128(k.0, _mm_set1_epi8(0x63)))) }
    }
}

impl Xmm for Vp {
    #[inline(always)]
    unsafe fn from(x: __m128i) -> Self {
        Vp(x)
    }
    #[inline(always)]
    unsafe fn into(self) -> __m128i {
        self.0
    }
}

super::entry_points! {
    features = "sse2,ssse3";
    compress512(h: &mut [u64; 8], blocks: &[u8]) -> () = bs::compress512::<Vp>(h, blocks);
    compress1024(h: &mut [u64; 16], blocks: &[u8]) -> () = bs::compress1024::<Vp>(h, blocks);
    output512(h: &[u64; 8]) -> [u64; 8] = bs::output512::<Vp>(h);
    output1024(h: &[u64; 16]) -> [u64; 16] = bs::output1024::<Vp>(h);
    finish512(h: &[u64; 8], blocks: &[u8]) -> [u64; 8] = bs::finish512::<Vp>(h, blocks);
    finish1024(h: &[u64; 16], blocks: &[u8]) -> [u64; 16] = bs::finish1024::<Vp>(h, blocks);
    many512_2(msgs: &[&[u8]], h0: &[u64; 8], out: &mut [[u64; 8]]) -> () = bs::many512::<Vp, 2>(msgs, h0, out);
    many1024_2(msgs: &[&[u8]], h0: &[u64; 16], out: &mut [[u64; 16]]) -> () = bs::many1024::<Vp, 2, 4>(msgs, h0, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::consts::SBOX;

    #[target_feature(enable = "sse2,ssse3")]
    fn all_256(out: &mut [u8; 256]) {
        for c in 0..16 {
            let x: [u8; 16] = core::array::from_fn(|i| (16 * c + i) as u8);
            // SAFETY: SSSE3 is enabled on this function; loads and stores stay in 16-byte arrays.
            unsafe {
                let v = sbox63(_mm_loadu_si128(x.as_ptr() as *const __m128i));
                _mm_storeu_si128(out[16 * c..].as_mut_ptr() as *mut __m128i, v);
            }
        }
    }

    #[test]
    fn vperm_sbox_is_the_aes_sbox() {
        if !crate::backend_report::gate("groestl", "vperm", available(), "S-box unit test") {
            return;
        }
        let mut out = [0u8; 256];
        // SAFETY: `available()` confirmed SSSE3.
        unsafe { all_256(&mut out) };
        for x in 0..256 {
            assert_eq!(out[x] ^ 0x63, SBOX[x], "S({x:#04x})");
        }
    }
}
