//! `vaes`: the `avx2` kernels with 256-bit `VAESENCLAST`, for CPUs that have VAES but no
//! AVX-512 (AMD Zen 3, Intel Alder Lake and later client cores, or any VM that hides AVX-512).
//!
//! Grøstl-384/512 keeps P and Q in the two lanes of each YMM register as `avx2` does ([V] §4.1),
//! but SubBytes is one `VAESENCLAST` per register instead of `VEXTRACTI128` + two `AESENCLAST` +
//! `VINSERTI128`. The multi-buffer kernels put two messages in each register the same way.
//! Grøstl-224/256 for one message runs on four YMM registers, one `VAESENCLAST` each
//! (`bytesliced::y256`), and so does the Grøstl-384/512 output transformation
//! (`bytesliced::y1024`, ShiftBytes across the lanes by `VPERM2I128` + two `VPSHUFB`).
//! Constant-time.

#![allow(unsafe_code)]

use super::avx2::A2;
use super::bytesliced as bs;

super::entry_points! {
    features = "sse2,ssse3,aes,avx,avx2,vaes";
    compress512(h: &mut [u64; 8], blocks: &[u8]) -> () = bs::y256::compress512_y::<A2<32, true>>(h, blocks);
    compress1024(h: &mut [u64; 16], blocks: &[u8]) -> () = bs::compress1024_y::<A2<32, true>>(h, blocks);
    output512(h: &[u64; 8]) -> [u64; 8] = bs::y256::output512_y::<A2<32, true>>(h);
    output1024(h: &[u64; 16]) -> [u64; 16] = bs::y1024::output1024_y::<A2<32, true>>(h);
    finish512(h: &[u64; 8], blocks: &[u8]) -> [u64; 8] = bs::y256::finish512_y::<A2<32, true>>(h, blocks);
    finish1024(h: &[u64; 16], blocks: &[u8]) -> [u64; 16] = bs::y1024::finish1024_y::<A2<32, true>>(h, blocks);
    many512_4(msgs: &[&[u8]], h0: &[u64; 8], out: &mut [[u64; 8]]) -> () = bs::many512_y::<A2<16, true>, 2, 4>(msgs, h0, out);
    many1024_2(msgs: &[&[u8]], h0: &[u64; 16], out: &mut [[u64; 16]]) -> () = bs::many1024_y::<A2<32, true>, A2<16, true>, 2, 1>(msgs, h0, out);
}
