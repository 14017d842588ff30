//! Multi-buffer hashing: independent messages in the 128-bit lanes of ZMM registers, so one
//! instruction stream advances several compressions and `VAESENCLAST`/`GF2P8AFFINEQB` latency
//! is hidden by independent work (needs the `gfni` backend's features plus AVX-512F/BW on ZMM).
//!
//! - Grøstl-224/256: four messages per ZMM, each lane `[P row i | Q row i]` of one message.
//! - Grøstl-384/512: two messages per ZMM (`[P_a | Q_a | P_b | Q_b]`), two groups of eight
//!   registers in flight, so four messages per pass; the output transformation (P only) runs
//!   four messages per ZMM.
//!
//! Messages of different lengths share a pass: a lane whose message has no block left keeps its
//! chaining value (masked blend) until every lane is done. Every message is padded into its own
//! tail buffer, so the kernel only ever reads whole blocks.

#![allow(unsafe_code)]
// Index loops over fixed register arrays are deliberate: closures (iterator adapters,
// `array::from_fn`) that LLVM leaves out of line lose the kernel's target features.
#![allow(clippy::needless_range_loop)]

use core::arch::x86_64::*;

use super::bytesliced::{self as bs, Lanes, T512, T1024, Tail, affine_mul};

const M2: i64 = affine_mul(2) as i64;
const M4: i64 = affine_mul(4) as i64;

/// ZMM lanes reading `U`-byte table units (16: broadcast to all four lanes; 32: to both halves).
#[derive(Clone, Copy)]
pub(crate) struct Z<const U: usize>(__m512i);

impl<const U: usize> Lanes for Z<U> {
    const AESENC: bool = true;
    const MB_FORMULA: bool = true;
    #[inline(always)]
    unsafe fn ld(p: *const u8) -> Self {
        // SAFETY: aligned table units of U bytes; AVX-512F (trait contract).
        unsafe {
            if U == 16 {
                Z(_mm512_broadcast_i32x4(_mm_load_si128(p as *const __m128i)))
            } else {
                Z(_mm512_broadcast_i64x4(_mm256_load_si256(p as *const __m256i)))
            }
        }
    }
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        // SAFETY: AVX-512F (trait contract).
        Z(unsafe { _mm512_xor_si512(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn xor3(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: AVX-512F (trait contract).
        Z(unsafe { _mm512_ternarylogic_epi64::<0x96>(a.0, b.0, c.0) })
    }
    #[inline(always)]
    unsafe fn mul2(a: Self) -> Self {
        // SAFETY: GFNI + AVX-512F (trait contract).
        Z(unsafe { _mm512_gf2p8affine_epi64_epi8::<0>(a.0, _mm512_set1_epi64(M2)) })
    }
    #[inline(always)]
    unsafe fn mb_out(x: Self, y: Self, z: Self) -> Self {
        // SAFETY: GFNI + AVX-512F (trait contract).
        unsafe {
            let x4 = _mm512_gf2p8affine_epi64_epi8::<0>(x.0, _mm512_set1_epi64(M4));
            let y2 = _mm512_gf2p8affine_epi64_epi8::<0>(y.0, _mm512_set1_epi64(M2));
            Z(_mm512_ternarylogic_epi64::<0x96>(x4, y2, z.0))
        }
    }
    #[inline(always)]
    unsafe fn shuffle(a: Self, m: Self) -> Self {
        // SAFETY: AVX-512BW (trait contract).
        Z(unsafe { _mm512_shuffle_epi8(a.0, m.0) })
    }
    #[inline(always)]
    unsafe fn sub_bytes_xor(a: Self, k: Self) -> Self {
        // SAFETY: VAES + AVX-512F (trait contract).
        Z(unsafe { _mm512_aesenclast_epi128(a.0, k.0) })
    }
}

#[inline(always)]
unsafe fn lanes4(p: [*const u8; 4]) -> __m512i {
    // SAFETY: 16 readable bytes at each pointer; AVX-512F.
    unsafe {
        let v = _mm512_castsi128_si512(_mm_loadu_si128(p[0] as *const __m128i));
        let v = _mm512_inserti32x4::<1>(v, _mm_loadu_si128(p[1] as *const __m128i));
        let v = _mm512_inserti32x4::<2>(v, _mm_loadu_si128(p[2] as *const __m128i));
        _mm512_inserti32x4::<3>(v, _mm_loadu_si128(p[3] as *const __m128i))
    }
}

/// `bs::transpose8x8` on every lane of four ZMM registers.
#[inline(always)]
unsafe fn transpose8x8_z(x: [__m512i; 4]) -> [__m512i; 4] {
    // SAFETY: AVX-512F/BW.
    unsafe {
        let il = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15));
        let s = [
            _mm512_shuffle_epi8(x[0], il),
            _mm512_shuffle_epi8(x[1], il),
            _mm512_shuffle_epi8(x[2], il),
            _mm512_shuffle_epi8(x[3], il),
        ];
        let a0 = _mm512_unpacklo_epi16(s[0], s[1]);
        let a1 = _mm512_unpackhi_epi16(s[0], s[1]);
        let a2 = _mm512_unpacklo_epi16(s[2], s[3]);
        let a3 = _mm512_unpackhi_epi16(s[2], s[3]);
        [
            _mm512_unpacklo_epi32(a0, a2),
            _mm512_unpackhi_epi32(a0, a2),
            _mm512_unpacklo_epi32(a1, a3),
            _mm512_unpackhi_epi32(a1, a3),
        ]
    }
}

/// Up to four Grøstl-224/256 messages; `out[j]` gets the final `P(h) ⊕ h` of message `j`
/// (canonical words). `h0` is the IV.
#[inline(always)]
unsafe fn many512(msgs: &[&[u8]], h0: &[u64; 8], out: &mut [[u64; 8]]) {
    let n = msgs.len().min(LANES);
    assert!(out.len() >= n, "many512: {} outputs for {n} messages", out.len());
    // SAFETY: the caller has checked the gfni backend's features; block pointers come from
    // `Tail::block`, which only returns whole blocks inside the message or its padding buffer.
    unsafe {
        let (lanes, nmax) = Tail::many::<LANES>(msgs, 64);
        let hb: [u8; 64] = bs::h_bytes(h0);
        let iv = bs::rows512(hb.as_ptr());
        let mut hp = [_mm512_setzero_si512(); 4];
        for k in 0..4 {
            hp[k] = _mm512_broadcast_i32x4(iv[k]);
        }
        for b in 0..nmax {
            let ptr: [*const u8; 4] = [0, 1, 2, 3].map(|j| lanes[j].block(b, 64));
            let mut active: __mmask8 = 0;
            for (j, l) in lanes.iter().enumerate().take(msgs.len()) {
                if b < l.blocks {
                    active |= 3 << (2 * j);
                }
            }
            let mut raw = [_mm512_setzero_si512(); 4];
            for k in 0..4 {
                raw[k] = lanes4(ptr.map(|p| p.add(16 * k)));
            }
            let m = transpose8x8_z(raw);
            let mut x = [[Z::<16>(m[0]); 8]; 1];
            for k in 0..4 {
                let p = _mm512_xor_si512(hp[k], m[k]);
                x[0][2 * k] = Z(_mm512_unpacklo_epi64(p, m[k]));
                x[0][2 * k + 1] = Z(_mm512_unpackhi_epi64(p, m[k]));
            }
            for i in 0..8 {
                x[0][i] = Z::xor(x[0][i], Z::ld(T512.ac0[i].as_ptr()));
            }
            bs::rounds(&mut x, &T512, [0]);
            for k in 0..4 {
                let (a, c) = (x[0][2 * k].0, x[0][2 * k + 1].0);
                let pq = _mm512_ternarylogic_epi64::<0x96>(hp[k], _mm512_unpacklo_epi64(a, c), _mm512_unpackhi_epi64(a, c));
                hp[k] = _mm512_mask_mov_epi64(hp[k], active, pq);
            }
        }
        // Output transformation: P only, the Q halves compute an unused value.
        let mut x = [[Z::<16>(hp[0]); 8]; 1];
        for k in 0..4 {
            x[0][2 * k] = Z::xor(Z(_mm512_unpacklo_epi64(hp[k], hp[k])), Z::ld(T512.ac0[2 * k].as_ptr()));
            x[0][2 * k + 1] = Z::xor(Z(_mm512_unpackhi_epi64(hp[k], hp[k])), Z::ld(T512.ac0[2 * k + 1].as_ptr()));
        }
        bs::rounds(&mut x, &T512, [0]);
        let mut o = hp;
        for k in 0..4 {
            o[k] = _mm512_xor_si512(_mm512_unpacklo_epi64(x[0][2 * k].0, x[0][2 * k + 1].0), hp[k]);
        }
        let cols = transpose8x8_z(o);
        let mut bytes = [0u8; 256];
        for k in 0..4 {
            _mm512_storeu_si512(bytes.as_mut_ptr().add(64 * k) as *mut __m512i, cols[k]);
        }
        // Register k lane j holds bytes 16k..16k+16 of message j's state.
        for (j, o) in out.iter_mut().enumerate().take(n) {
            let mut s = [0u8; 64];
            for k in 0..4 {
                s[16 * k..16 * k + 16].copy_from_slice(&bytes[64 * k + 16 * j..64 * k + 16 * j + 16]);
            }
            *o = bs::h_words(&s);
        }
    }
}

/// Up to four Grøstl-384/512 messages (two per ZMM, two groups in flight).
#[inline(always)]
unsafe fn many1024(msgs: &[&[u8]], h0: &[u64; 16], out: &mut [[u64; 16]]) {
    let n = msgs.len().min(LANES);
    assert!(out.len() >= n, "many1024: {} outputs for {n} messages", out.len());
    // SAFETY: as in `many512`, with 128-byte blocks.
    unsafe {
        let (lanes, nmax) = Tail::many::<LANES>(msgs, 128);
        let hb: [u8; 128] = bs::h_bytes(h0);
        let iv = bs::rows1024(hb.as_ptr());
        // hz[g][i] = [h_{2g} row i | 0 | h_{2g+1} row i | 0].
        let mut hz = [[_mm512_setzero_si512(); 8]; 2];
        for g in 0..2 {
            for i in 0..8 {
                hz[g][i] = _mm512_maskz_broadcast_i32x4(0x0f0f, iv[i]);
            }
        }
        for b in 0..nmax {
            let mut active: [__mmask8; 2] = [0; 2];
            for (j, l) in lanes.iter().enumerate().take(msgs.len()) {
                if b < l.blocks {
                    active[j / 2] |= 3 << (4 * (j % 2));
                }
            }
            let mut m = [[_mm_setzero_si128(); 8]; 4];
            for j in 0..4 {
                m[j] = bs::rows1024(lanes[j].block(b, 128));
            }
            let mut x = [[Z::<32>(hz[0][0]); 8]; 2];
            for g in 0..2 {
                for i in 0..8 {
                    let a = _mm256_broadcastsi128_si256(m[2 * g][i]);
                    let c = _mm256_broadcastsi128_si256(m[2 * g + 1][i]);
                    let mm = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(a), c);
                    let v = _mm512_ternarylogic_epi64::<0x96>(hz[g][i], mm, Z::<32>::ld(T1024.ac0[i].as_ptr()).0);
                    x[g][i] = Z(v);
                }
            }
            bs::rounds(&mut x, &T1024, [0, 0]);
            for g in 0..2 {
                for i in 0..8 {
                    // (h ⊕ P', Q', …) then each lane pair XORed into its P lane.
                    let y = _mm512_xor_si512(x[g][i].0, hz[g][i]);
                    let s = _mm512_shuffle_i64x2::<0b10_11_00_01>(y, y);
                    hz[g][i] = _mm512_mask_xor_epi64(hz[g][i], active[g] & 0x33, y, s);
                }
            }
        }
        // Output transformation: the four P lanes in one group.
        let mut x = [[Z::<16>(hz[0][0]); 8]; 1];
        let mut hc = [_mm512_setzero_si512(); 8];
        for i in 0..8 {
            hc[i] = _mm512_shuffle_i64x2::<0b10_00_10_00>(hz[0][i], hz[1][i]);
            x[0][i] = Z::xor(Z(hc[i]), Z::ld(T1024.ac0[i].as_ptr()));
        }
        bs::rounds(&mut x, &T1024, [0]);
        let mut rows = [[0u8; 64]; 8];
        for i in 0..8 {
            _mm512_storeu_si512(rows[i].as_mut_ptr() as *mut __m512i, _mm512_xor_si512(x[0][i].0, hc[i]));
        }
        // Row i of message j is bytes 16j..16j+16 of `rows[i]`; `j < n ≤ 4` keeps the slice
        // inside the 64-byte row.
        for (j, o) in out.iter_mut().enumerate().take(n) {
            let mut r = [_mm_setzero_si128(); 8];
            for i in 0..8 {
                r[i] = _mm_loadu_si128(rows[i][16 * j..16 * j + 16].as_ptr() as *const __m128i);
            }
            *o = bs::words1024(r);
        }
    }
}

/// Groestlcoin's hash (the first 32 bytes of Grøstl-512 of the Grøstl-512 digest) of up to
/// `4·G` 80-byte headers in one pass, fused: both blocks are single (80 and 64 bytes with
/// their padding), so each message is built in row form directly: the header block once
/// through the transposition, the second block from the first output's row registers with one
/// `VPUNPCKHQDQ` per row (the digest is columns 8–15, the padding is constant). No tail
/// buffers, no conversion to words between the two hashes, and only the 32 output bytes are
/// transposed back. The compressions run one group of four headers at a time (P and Q of two
/// headers per register, 16 registers), the output transformations (P only, four headers per
/// register) of all `G` groups together, so that they too have 16 registers of work in flight
/// when `G = 2`.
#[inline(always)]
unsafe fn groestlcoin_pass<const G: usize>(headers: &[[u8; 80]], out: &mut [[u8; 32]]) {
    let n = headers.len().min(LANES * G);
    assert!(n > 0 && out.len() >= n, "groestlcoin_pass: {} outputs for {n} headers", out.len());
    // SAFETY: the caller has checked the gfni backend's features; every load reads a local
    // 128-byte block or an aligned table.
    unsafe {
        let mut ivw = [0u64; 16];
        ivw[15] = 512;
        let hb: [u8; 128] = bs::h_bytes(&ivw);
        let iv = bs::rows1024(hb.as_ptr());
        // hz[i] = [IV row i | 0 | IV row i | 0]; ivb[i] = IV row i in every lane.
        let mut hz = [_mm512_setzero_si512(); 8];
        let mut ivb = [_mm512_setzero_si512(); 8];
        for i in 0..8 {
            hz[i] = _mm512_maskz_broadcast_i32x4(0x0f0f, iv[i]);
            ivb[i] = _mm512_broadcast_i32x4(iv[i]);
        }
        // First block: the header, 0x80, zeros, the block count 1 (big-endian, last byte).
        // Missing headers repeat the first one; their lanes are not written out.
        let mut h = [[_mm512_setzero_si512(); 8]; G];
        for (g, hg) in h.iter_mut().enumerate() {
            let mut blk = [[0u8; 128]; 4];
            for (j, b) in blk.iter_mut().enumerate() {
                let k = LANES * g + j;
                b[..80].copy_from_slice(&headers[if k < n { k } else { 0 }]);
                b[80] = 0x80;
                b[127] = 1;
            }
            let m = [0, 1, 2, 3].map(|j| bs::rows1024(blk[j].as_ptr()));
            let mut mz = [_mm512_setzero_si512(); 8];
            for i in 0..8 {
                let v = _mm512_castsi128_si512(m[0][i]);
                let v = _mm512_inserti32x4::<1>(v, m[1][i]);
                let v = _mm512_inserti32x4::<2>(v, m[2][i]);
                mz[i] = _mm512_inserti32x4::<3>(v, m[3][i]);
            }
            *hg = compress_iv(&hz, &ivb, &mz);
        }
        let f = output_transform(h);
        // Second block, row i of message j: [first digest's row i (state columns 8–15) |
        // padding: 0x80 in column 8 of row 0, the block count 1 in column 15 of row 7].
        for g in 0..G {
            let mut mz = [_mm512_setzero_si512(); 8];
            for i in 0..8 {
                let pad = match i {
                    0 => _mm512_set1_epi64(0x80),
                    7 => _mm512_set1_epi64(1 << 56),
                    _ => _mm512_setzero_si512(),
                };
                mz[i] = _mm512_unpackhi_epi64(f[g][i], pad);
            }
            h[g] = compress_iv(&hz, &ivb, &mz);
        }
        let f = output_transform(h);
        // The output is the digest's first 32 bytes: columns 8–11 of the state.
        for g in 0..G {
            let hi = [0, 1, 2, 3].map(|k| _mm512_unpackhi_epi64(f[g][2 * k], f[g][2 * k + 1]));
            let cols = transpose8x8_z(hi);
            let mut bytes = [0u8; 128];
            _mm512_storeu_si512(bytes.as_mut_ptr() as *mut __m512i, cols[0]);
            _mm512_storeu_si512(bytes.as_mut_ptr().add(64) as *mut __m512i, cols[1]);
            // Register k lane j holds digest bytes 16k..16k+16 of message j.
            for j in 0..LANES {
                if let Some(o) = out.get_mut(LANES * g + j).filter(|_| LANES * g + j < n) {
                    o[..16].copy_from_slice(&bytes[16 * j..16 * j + 16]);
                    o[16..].copy_from_slice(&bytes[64 + 16 * j..64 + 16 * j + 16]);
                }
            }
        }
    }
}

/// One Grøstl-512 compression of four messages from the IV: `mz[i]` holds row `i` of message
/// `j`'s block in lane `j`; returns `IV ⊕ P(IV ⊕ m) ⊕ Q(m)` in the same layout.
#[inline(always)]
unsafe fn compress_iv(hz: &[__m512i; 8], ivb: &[__m512i; 8], mz: &[__m512i; 8]) -> [__m512i; 8] {
    // SAFETY: the caller has the gfni backend's features; table loads are aligned units.
    unsafe {
        let mut x = [[Z::<32>(hz[0]); 8]; 2];
        for i in 0..8 {
            let ac = Z::<32>::ld(T1024.ac0[i].as_ptr()).0;
            // Group g: [P_2g | Q_2g | P_2g+1 | Q_2g+1].
            let m0 = _mm512_shuffle_i64x2::<0b01_01_00_00>(mz[i], mz[i]);
            let m1 = _mm512_shuffle_i64x2::<0b11_11_10_10>(mz[i], mz[i]);
            x[0][i] = Z(_mm512_ternarylogic_epi64::<0x96>(hz[i], m0, ac));
            x[1][i] = Z(_mm512_ternarylogic_epi64::<0x96>(hz[i], m1, ac));
        }
        bs::rounds(&mut x, &T1024, [0, 0]);
        let mut h = [_mm512_setzero_si512(); 8];
        for i in 0..8 {
            let p = _mm512_shuffle_i64x2::<0b10_00_10_00>(x[0][i].0, x[1][i].0);
            let q = _mm512_shuffle_i64x2::<0b11_01_11_01>(x[0][i].0, x[1][i].0);
            h[i] = _mm512_ternarylogic_epi64::<0x96>(p, q, ivb[i]);
        }
        h
    }
}

/// `P(h) ⊕ h` of `4·G` Grøstl-512 chaining values, one per lane of each row register.
#[inline(always)]
unsafe fn output_transform<const G: usize>(h: [[__m512i; 8]; G]) -> [[__m512i; 8]; G] {
    // SAFETY: the caller has the gfni backend's features; table loads are aligned units.
    unsafe {
        let mut x = [[Z::<16>(h[0][0]); 8]; G];
        for g in 0..G {
            for i in 0..8 {
                x[g][i] = Z::xor(Z(h[g][i]), Z::ld(T1024.ac0[i].as_ptr()));
            }
        }
        bs::rounds(&mut x, &T1024, [0; G]);
        let mut f = h;
        for g in 0..G {
            for i in 0..8 {
                f[g][i] = _mm512_xor_si512(x[g][i].0, h[g][i]);
            }
        }
        f
    }
}

/// Groestlcoin hashes of whole chunks of eight headers, then a pass of four or eight for the
/// rest (2–8 headers; a single last header is the caller's).
#[inline(always)]
unsafe fn groestlcoin_many(headers: &[[u8; 80]], out: &mut [[u8; 32]]) {
    assert_eq!(headers.len(), out.len(), "groestlcoin_many: one output per header");
    for (h, o) in headers.chunks(2 * LANES).zip(out.chunks_mut(2 * LANES)) {
        // SAFETY: the caller's features (entry point).
        unsafe {
            if h.len() > LANES {
                groestlcoin_pass::<2>(h, o)
            } else {
                groestlcoin_pass::<1>(h, o)
            }
        }
    }
}

super::entry_points! {
    features = "sse2,ssse3,aes,avx,avx2,avx512f,avx512bw,avx512vl,vaes,gfni";
    many512_gfni(msgs: &[&[u8]], h0: &[u64; 8], out: &mut [[u64; 8]]) -> () = many512(msgs, h0, out);
    many1024_gfni(msgs: &[&[u8]], h0: &[u64; 16], out: &mut [[u64; 16]]) -> () = many1024(msgs, h0, out);
    groestlcoin_gfni(headers: &[[u8; 80]], out: &mut [[u8; 32]]) -> () = groestlcoin_many(headers, out);
}

/// Messages per pass of the multi-buffer kernels.
pub(crate) const LANES: usize = 4;
