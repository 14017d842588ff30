//! `gfniavx2`: the `gfni` kernels with VEX encodings only, for CPUs that have GFNI and VAES but
//! no AVX-512 (Intel Alder Lake to Arrow Lake client cores and Gracemont, AMD Zen 4/5 in a VM that
//! hides AVX-512).
//!
//! - MUL2 and MUL4 are one VEX `VGF2P8AFFINEQB` each, as in `gfni`; the last line of the MixBytes
//!   formula is `4·x ⊕ 2·y ⊕ z` with the two products in parallel. Three-input XORs are two
//!   `VPXOR` (no `VPTERNLOGQ` without AVX-512).
//! - SubBytes is `AESENCLAST` (XMM) or the 256-bit `VAESENCLAST` (YMM) with the folded round
//!   constant as its key.
//! - Grøstl-224/256 runs on four YMM registers (`bytesliced::y256`, as `vaes`); Grøstl-384/512
//!   keeps P and Q in the two lanes of each YMM register, like `vaes`; the multi-buffer kernels
//!   put two messages in each YMM register.
//!
//! Constant-time: no table look-ups indexed by data, no data-dependent branches.

#![allow(unsafe_code)]

use super::bytesliced as bs;
use super::gfni::{Gx, Gy};

super::entry_points! {
    features = "sse2,ssse3,aes,avx,avx2,vaes,gfni";
    compress512(h: &mut [u64; 8], blocks: &[u8]) -> () = bs::y256::compress512_y::<Gy<32, false>>(h, blocks);
    compress1024(h: &mut [u64; 16], blocks: &[u8]) -> () = bs::compress1024_y::<Gy<32, false>>(h, blocks);
    output512(h: &[u64; 8]) -> [u64; 8] = bs::y256::output512_y::<Gy<32, false>>(h);
    output1024(h: &[u64; 16]) -> [u64; 16] = bs::output1024::<Gx<false>>(h);
    finish512(h: &[u64; 8], blocks: &[u8]) -> [u64; 8] = bs::y256::finish512_y::<Gy<32, false>>(h, blocks);
    finish1024(h: &[u64; 16], blocks: &[u8]) -> [u64; 16] = bs::finish1024_y::<Gy<32, false>, Gx<false>>(h, blocks);
    many512_4(msgs: &[&[u8]], h0: &[u64; 8], out: &mut [[u64; 8]]) -> () = bs::many512_y::<Gy<16, false>, 2, 4>(msgs, h0, out);
    many1024_2(msgs: &[&[u8]], h0: &[u64; 16], out: &mut [[u64; 16]]) -> () = bs::many1024_y::<Gy<32, false>, Gy<16, false>, 2, 1>(msgs, h0, out);
}
