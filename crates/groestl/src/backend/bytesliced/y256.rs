//! Single-message Grøstl-224/256 on YMM registers (issue 36): the 8 × 16 P‖Q state in **four**
//! registers instead of eight XMM registers.
//!
//! **Layout.** Register `k` (0–3) holds P in its low and Q in its high 128-bit lane; inside each
//! lane, bytes 0–7 are one row (8 columns) and bytes 8–15 the row four further on. Between rounds
//! the state may sit at an *offset* `s` ∈ {0, 4}: 64-bit half `h` of register `k` holds row
//! `(k + s + 4h) mod 8`. ShiftBytes stays one `VPSHUFB` per register (every row's bytes are in
//! their own lane), SubBytes one `VAESENCLAST` per register (or two `AESENCLAST`).
//!
//! **MixBytes.** The 8 × 8 circulant is `[[A, B], [B, A]]` in 4 × 4 blocks, so the row shift
//! `v ↦ (v_{i+d})_i` of the papers' formula is, on registers, a rotation of the register index
//! in which the registers that wrap past row 8 get their 64-bit halves swapped (`VPSHUFD 0x4E`:
//! in-lane, latency 1, any shuffle port; a row pair across the 128-bit lanes, as the issue
//! sketches, would need `VPERM2I128`, latency 3 and port 5 only on Intel, and P and Q in one
//! lane). The formula `t_i = a_i ⊕ a_{i+1}`, `x_i = t_i ⊕ t_{i+3}`,
//! `y_i = t_i ⊕ t_{i+2} ⊕ a_{i+6}`, `b_i = 2(2x_{i+3} ⊕ y_{i+7}) ⊕ y_{i+4}` then costs 24 XOR
//! and 8 MUL2 on four registers (half of 48 + 16) plus the swaps. Each intermediate may be kept
//! at any offset (the next step's rotations absorb it); a search over the 8⁴ choices of offsets
//! for `t, x, y, b` gives at least 8 swaps, reached with `t` at 0, `x` at 7, `y` at 2 and `b` at
//! 4 (offsets relative to the input): one swap of `a`, four of `t`, three of `y`. Output offset 4
//! alternates with 0 round by round (10 rounds end at 0), so only two sets of shuffle masks and
//! round keys exist: table units 0–3 for rounds at offset 0, units 4–7 for offset 4. The other
//! choice considered, `A·R ⊕ B·swap(R)` on the four registers and their swaps (4 swaps), needs
//! 34 XOR for the same 8 MUL2. Letting each register of each intermediate take its own
//! orientation (not one offset for all four) brings the swaps to 7 per round (6.5 over a
//! two-round cycle), for per-round tables and a conversion back per block: not adopted.
//!
//! **Biased MUL2.** Lane types may double with `(a + a) ⊕ PSHUFB(0x1b…, a)` (`PSHUFB` gives 0
//! where the index byte's top bit is set, so this is `MUL2(a) ⊕ 0x1b`): 3 instructions instead
//! of 4 (`VPCMPGTB` + `VPAND` become one `VPSHUFB`). MixBytes then adds
//! `3·0x1b` to every byte, which is `MB` of the constant state `0x1b` (every matrix row sums to
//! 3), so XORing `MUL2_BIAS` into every round key (the last round's too) cancels it for free.
//!
//! **Count per round** (VAES): 4 `VPSHUFB` + 4 `VAESENCLAST` + 8 `VPSHUFD` + 24 XOR + 8 biased
//! MUL2 (`VPADDB`, `VPSHUFB`, `VPXOR`) = 64 instructions, against 8 + 8 + 48 + 16 × 4 = 128 for the XMM
//! kernel (`absorb512` with the formula; 123 with the 43-XOR program). Without VAES each
//! `VAESENCLAST` is `VEXTRACTI128` + 2 `AESENCLAST` + `VINSERTI128`: 76.
//!
//! **Figures.** 1 MiB, TSC cycles/byte, the XMM kernel before → this one, same run on a
//! Sapphire Rapids-class Xeon (the `ab` test below, least of 31 samples on a busy machine):
//! `vaes` 5.01 → 3.16, `avx2` 5.01 → 3.94, `avx512` 4.18 → 3.54, `gfniavx2` 3.66 → 2.90, `gfni`
//! 3.23 → 2.58. llvm-mca-19, cycles per round of the round loop with its table loads as
//! separate loads (the scheduling models put a folded load's latency on the `AESENCLAST` state
//! operand), XMM VEX kernel → `vaes`: znver3 34.1 → 20.5, alderlake 44.1 → 25.5, znver4 37.1 →
//! 26.0; `avx2` (no VAES): skylake 44.1 → 34.0, haswell 52.1 → 44.5. The round is throughput-
//! and latency-bound at once on Zen 3 (resource pressure 16.5 cycles, dependency chain about 15):
//! a variant one level shallower for one more XOR measured the same.
//!
//! The chaining value stays in four XMM registers (rows `k`, `k + 4` of `h`) across all blocks
//! of a call; the block is transposed with `PUNPCK*` as in `rows512` plus four `PUNPCK*QDQ`.
//! The output transformation runs the same rounds with `h` in both lanes and keeps the P lane
//! (64 instructions a round against 80 for `out512`'s packed XMM rows).

#![allow(unsafe_code)]
#![allow(clippy::needless_range_loop)]

use core::arch::x86_64::*;

use super::{Lanes, T512, Tables, Ymm, aes_mask, load4, transpose8x8, words512};
use crate::consts::ROUNDS_512;

/// `T512` repacked for this layout, the round keys without bias.
pub(crate) static Y512: Tables<32, ROUNDS_512> = pack_y(&T512, 0);
/// `T512` repacked, every round key XORed with `0x1b` (lane types with `MUL2_BIAS = 0x1b`).
pub(crate) static Y512B: Tables<32, ROUNDS_512> = pack_y(&T512, 0x1b);

/// Unit `u` holds register `u % 4` at offset `4 · (u / 4)`: lane `l` (P, Q), half `h`, column
/// `c` is byte `16l + 8h + c`, row `(u % 4 + 4 · (u / 4) + 4h) mod 8`.
const fn pack_y<const R: usize>(t: &Tables<16, R>, bias: u8) -> Tables<32, R> {
    let mut y = Tables { mask_aes: [[0; 32]; 8], mask_sh: [[0; 32]; 8], ac0: [[0; 32]; 8], key: [[[0; 32]; 8]; R] };
    let mut u = 0;
    while u < 8 {
        let mut l = 0;
        while l < 2 {
            let mut b = 0;
            while b < 16 {
                let (h, c) = (b / 8, b % 8);
                let row = (u % 4 + 4 * (u / 4) + 4 * h) % 8;
                let src = 8 * l + c;
                // T512's shuffle index points into the same permutation's half (8l..8l+8).
                y.mask_sh[u][16 * l + b] = (8 * h) as u8 + (t.mask_sh[row][src] - (8 * l) as u8);
                y.ac0[u][16 * l + b] = t.ac0[row][src];
                let mut r = 0;
                while r < R {
                    y.key[r][u][16 * l + b] = t.key[r][row][src] ^ bias;
                    r += 1;
                }
                b += 1;
            }
            aes_mask(&y.mask_sh[u], &mut y.mask_aes[u], 16 * l);
            l += 1;
        }
        u += 1;
    }
    y
}

#[inline(always)]
fn tables<V: Lanes>() -> &'static Tables<32, ROUNDS_512> {
    const { assert!(V::MUL2_BIAS == 0 || V::MUL2_BIAS == 0x1b, "no table for this MUL2 bias") };
    if V::MUL2_BIAS == 0 { &Y512 } else { &Y512B }
}

/// The four registers with their 64-bit halves swapped (unused ones are dropped by LLVM).
#[inline(always)]
unsafe fn swaps<V: Ymm>(v: [V; 4]) -> [V; 4] {
    // SAFETY: AVX2 (every YMM lane type requires it).
    unsafe {
        let mut s = v;
        for k in 0..4 {
            s[k] = V::from_ymm(_mm256_shuffle_epi32::<0x4e>(v[k].ymm()));
        }
        s
    }
}

/// The rows shifted by `d` (`(v_{i+d})_i`), given `v` and its swapped copy `s`.
#[inline(always)]
fn rot<V: Copy>(v: [V; 4], s: [V; 4], d: usize) -> [V; 4] {
    let mut o = v;
    for k in 0..4 {
        let m = (k + d) % 8;
        o[k] = if m < 4 { v[m] } else { s[m - 4] };
    }
    o
}

/// MixBytes on four registers (see the module notes): input at offset 0, output at offset 4,
/// plus `3·V::MUL2_BIAS` on every byte.
#[inline(always)]
pub(crate) unsafe fn mix_y<V: Ymm>(a: [V; 4]) -> [V; 4] {
    // SAFETY: V's features are present (caller).
    unsafe {
        let sa = swaps(a);
        let a1 = rot(a, sa, 1);
        let mut t = a;
        for k in 0..4 {
            t[k] = V::xor(a[k], a1[k]);
        }
        let st = swaps(t);
        let (t7, t2) = (rot(t, st, 7), rot(t, st, 2));
        let (mut x, mut y) = (a, a);
        for k in 0..4 {
            x[k] = V::xor(t7[k], t2[k]);
            y[k] = V::xor3(a[k], t2[k], st[k]);
        }
        let sy = swaps(y);
        let (y1, y6) = (rot(y, sy, 1), rot(y, sy, 6));
        let mut b = a;
        for k in 0..4 {
            b[k] = V::mb_outb(x[k], y1[k], y6[k]);
        }
        b
    }
}

/// One round at offset `o` (0 or 4) with round `r`'s keys.
#[inline(always)]
unsafe fn round_y<V: Ymm>(x: &mut [V; 4], masks: *const u8, keys: *const u8, r: usize, o: usize) {
    for k in 0..4 {
        // SAFETY: units o + k < 8 of round r < ROUNDS_512, 32 bytes each, inside the tables.
        unsafe {
            let m = V::ld(masks.add(32 * (o + k)));
            let key = V::ld(keys.add(32 * (8 * r + o + k)));
            x[k] = V::sub_bytes_xor(V::shuffle(x[k], m), key);
        }
    }
    // SAFETY: V's features are present (caller).
    *x = unsafe { mix_y(*x) };
}

/// The ten rounds of P and Q on four registers at offset 0 (round 0's constant already added),
/// two at a time so that both offsets' table addresses are constants.
#[inline(always)]
unsafe fn rounds_y<V: Ymm>(x: &mut [V; 4], t: &Tables<32, ROUNDS_512>) {
    const { assert!(ROUNDS_512.is_multiple_of(2)) };
    let masks = if V::AESENC { t.mask_aes.as_ptr() } else { t.mask_sh.as_ptr() } as *const u8;
    let keys = t.key.as_ptr() as *const u8;
    for r in (0..ROUNDS_512).step_by(2) {
        // SAFETY: as in `round_y`; the caller has V's features.
        unsafe {
            round_y(x, masks, keys, r, 0);
            round_y(x, masks, keys, r + 1, 4);
        }
    }
}

/// A 512-bit state (64 column-major bytes at `p`) as four registers of rows `k`, `k + 4`.
#[inline(always)]
pub(crate) unsafe fn rows_y(p: *const u8) -> [__m128i; 4] {
    // SAFETY: 64 readable bytes at `p`; SSSE3 present.
    unsafe {
        let r = transpose8x8(load4(p));
        [
            _mm_unpacklo_epi64(r[0], r[2]),
            _mm_unpackhi_epi64(r[0], r[2]),
            _mm_unpacklo_epi64(r[1], r[3]),
            _mm_unpackhi_epi64(r[1], r[3]),
        ]
    }
}

/// Rows `k`, `k + 4` back to the canonical chaining value.
#[inline(always)]
pub(crate) unsafe fn words_y(m: [__m128i; 4]) -> [u64; 8] {
    // SAFETY: SSSE3 present.
    unsafe {
        words512([
            _mm_unpacklo_epi64(m[0], m[1]),
            _mm_unpacklo_epi64(m[2], m[3]),
            _mm_unpackhi_epi64(m[0], m[1]),
            _mm_unpackhi_epi64(m[2], m[3]),
        ])
    }
}

/// Absorbs whole 64-byte blocks into the chaining value (rows `k`, `k + 4` in `hk[k]`).
#[inline(always)]
pub(crate) unsafe fn absorb512_y<V: Ymm>(hk: &mut [__m128i; 4], blocks: &[u8]) {
    let t = tables::<V>();
    // SAFETY: V's features are present (caller); loads read whole 64-byte chunks of `blocks`
    // and 32-byte units of the 64-byte-aligned tables.
    unsafe {
        for block in blocks.chunks_exact(64) {
            let m = rows_y(block.as_ptr());
            let mut x = [V::from_halves(m[0], m[0]); 4];
            for k in 0..4 {
                let pq = V::from_halves(_mm_xor_si128(hk[k], m[k]), m[k]);
                x[k] = V::xor(pq, V::ld(t.ac0[k].as_ptr()));
            }
            rounds_y(&mut x, t);
            for k in 0..4 {
                let (p, q) = x[k].halves();
                hk[k] = _mm_xor_si128(hk[k], _mm_xor_si128(p, q));
            }
        }
    }
}

/// `P(h) ⊕ h`: `h` in both lanes, the P lane kept.
#[inline(always)]
pub(crate) unsafe fn out512_y<V: Ymm>(hk: &[__m128i; 4]) -> [__m128i; 4] {
    let t = tables::<V>();
    // SAFETY: V's features are present (caller); table reads as in `absorb512_y`.
    unsafe {
        let mut x = [V::from_halves(hk[0], hk[0]); 4];
        for k in 0..4 {
            x[k] = V::xor(V::from_halves(hk[k], hk[k]), V::ld(t.ac0[k].as_ptr()));
        }
        rounds_y(&mut x, t);
        let mut out = *hk;
        for k in 0..4 {
            out[k] = _mm_xor_si128(x[k].halves().0, hk[k]);
        }
        out
    }
}

#[inline(always)]
pub(crate) unsafe fn compress512_y<V: Ymm>(h: &mut [u64; 8], blocks: &[u8]) {
    // SAFETY: V's features are present (caller); `rows_y` reads the local 64-byte buffer.
    unsafe {
        let hb: [u8; 64] = super::h_bytes(h);
        let mut hk = rows_y(hb.as_ptr());
        absorb512_y::<V>(&mut hk, blocks);
        *h = words_y(hk);
    }
}

#[inline(always)]
pub(crate) unsafe fn output512_y<V: Ymm>(h: &[u64; 8]) -> [u64; 8] {
    // SAFETY: as in `compress512_y`.
    unsafe {
        let hb: [u8; 64] = super::h_bytes(h);
        words_y(out512_y::<V>(&rows_y(hb.as_ptr())))
    }
}

/// The last blocks and the output transformation, the state converted once each way.
#[inline(always)]
pub(crate) unsafe fn finish512_y<V: Ymm>(h: &[u64; 8], blocks: &[u8]) -> [u64; 8] {
    // SAFETY: as in `compress512_y`.
    unsafe {
        let hb: [u8; 64] = super::h_bytes(h);
        let mut hk = rows_y(hb.as_ptr());
        absorb512_y::<V>(&mut hk, blocks);
        words_y(out512_y::<V>(&hk))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::avx2::A2;
    use crate::consts::gmul;
    use crate::consts::MB_ROW;

    #[target_feature(enable = "avx2")]
    unsafe fn mix_on<V: Ymm>(regs: [[u8; 32]; 4]) -> [[u8; 32]; 4] {
        // SAFETY: the caller checked the features; loads and stores use local arrays.
        unsafe {
            let mut a = [V::from_ymm(_mm256_setzero_si256()); 4];
            for k in 0..4 {
                a[k] = V::from_ymm(_mm256_loadu_si256(regs[k].as_ptr() as *const __m256i));
            }
            let b = mix_y(a);
            let mut out = [[0u8; 32]; 4];
            for k in 0..4 {
                _mm256_storeu_si256(out[k].as_mut_ptr() as *mut __m256i, b[k].ymm());
            }
            out
        }
    }

    /// `mix_y` against the matrix, byte by byte, offsets and bias included.
    fn check_mix<V: Ymm>() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..64 {
            let mut regs = [[0u8; 32]; 4];
            for v in regs.iter_mut().flatten() {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                *v = (seed >> 56) as u8;
            }
            // SAFETY: `check_mix` runs only where the features were detected.
            let got = unsafe { mix_on::<V>(regs) };
            // Row i at offset 0: register i % 4, half i / 4 of each lane.
            let at = |r: &[[u8; 32]; 4], row: usize, lane: usize, c: usize| r[row % 4][16 * lane + 8 * (row / 4) + c];
            for lane in 0..2 {
                for c in 0..8 {
                    for i in 0..8 {
                        let mut want = gmul(3, V::MUL2_BIAS);
                        for j in 0..8 {
                            want ^= gmul(MB_ROW[(j + 8 - i) % 8], at(&regs, j, lane, c));
                        }
                        // Output offset 4: row i sits where row i + 4 would at offset 0.
                        assert_eq!(at(&got, (i + 4) % 8, lane, c), want, "row {i} lane {lane} col {c}");
                    }
                }
            }
        }
    }

    #[test]
    fn mix_y_is_mixbytes() {
        if std::is_x86_feature_detected!("avx2") {
            check_mix::<A2<32, false>>();
            check_mix::<A2<32, true>>();
        } else {
            eprintln!("SKIPPED: mix_y_is_mixbytes needs AVX2");
        }
    }
}

/// Same-run timing of the kernels before and after issue 36 (`cargo test --release -p
/// slicewise-groestl --lib y256::ab -- --ignored --nocapture`): TSC cycles per byte, median of
/// interleaved samples, for a message of each size as the engine runs it (one `compress` of the
/// whole blocks, one `finish` of the padding block). `Plain<V>` is `V` with the unbiased MUL2
/// (`VPCMPGTB`/`VPAND` or the EVEX mask form), as before the biased one.
#[cfg(test)]
mod ab {
    use super::super::{compress512, compress1024_y, finish512, finish1024_y};
    use super::*;
    use crate::backend::aesni::Sse;
    use crate::backend::avx2::A2;
    use crate::backend::avx512::X512;
    use crate::backend::gfni::{Gx, Gy};

    #[derive(Clone, Copy)]
    struct Plain<V>(V);

    impl<V: Lanes> Lanes for Plain<V> {
        const AESENC: bool = V::AESENC;
        const MB_FORMULA: bool = V::MB_FORMULA;
        #[inline(always)]
        unsafe fn ld(p: *const u8) -> Self {
            // SAFETY: V's contract, which the caller meets.
            Plain(unsafe { V::ld(p) })
        }
        #[inline(always)]
        unsafe fn xor(a: Self, b: Self) -> Self {
            // SAFETY: V's contract, which the caller meets.
            Plain(unsafe { V::xor(a.0, b.0) })
        }
        #[inline(always)]
        unsafe fn xor3(a: Self, b: Self, c: Self) -> Self {
            // SAFETY: V's contract, which the caller meets.
            Plain(unsafe { V::xor3(a.0, b.0, c.0) })
        }
        #[inline(always)]
        unsafe fn mul2(a: Self) -> Self {
            // SAFETY: V's contract, which the caller meets.
            Plain(unsafe { V::mul2(a.0) })
        }
        #[inline(always)]
        unsafe fn mb_out(x: Self, y: Self, z: Self) -> Self {
            // SAFETY: V's contract, which the caller meets.
            Plain(unsafe { V::mb_out(x.0, y.0, z.0) })
        }
        #[inline(always)]
        unsafe fn shuffle(a: Self, m: Self) -> Self {
            // SAFETY: V's contract, which the caller meets.
            Plain(unsafe { V::shuffle(a.0, m.0) })
        }
        #[inline(always)]
        unsafe fn sub_bytes_xor(a: Self, k: Self) -> Self {
            // SAFETY: V's contract, which the caller meets.
            Plain(unsafe { V::sub_bytes_xor(a.0, k.0) })
        }
    }

    impl<V: Ymm> Ymm for Plain<V> {
        #[inline(always)]
        unsafe fn from_ymm(x: __m256i) -> Self {
            // SAFETY: V's contract, which the caller meets.
            Plain(unsafe { V::from_ymm(x) })
        }
        #[inline(always)]
        unsafe fn ymm(self) -> __m256i {
            // SAFETY: V's contract, which the caller meets.
            unsafe { self.0.ymm() }
        }
    }

    macro_rules! kernel {
        ($name:ident, $f:literal, $n:literal, $c:expr, $fin:expr) => {
            #[target_feature(enable = $f)]
            unsafe fn $name(data: &[u8], reps: usize) -> u64 {
                let pad = [0u8; 2 * $n];
                let mut acc = 0;
                // SAFETY: the caller checked the features.
                unsafe {
                    for _ in 0..reps {
                        let mut h = [0u64; $n];
                        h[$n - 1] = 8 * $n;
                        $c(&mut h, data);
                        acc ^= $fin(&h, &pad[..])[$n - 1];
                    }
                }
                acc
            }
        };
    }
    kernel!(aesni_xmm, "sse2,ssse3,aes", 8, compress512::<Sse>, finish512::<Sse>);
    kernel!(vaes_xmm, "sse2,ssse3,aes,avx,avx2,vaes", 8, compress512::<Sse<true>>, finish512::<Sse<true>>);
    kernel!(avx2_y, "sse2,ssse3,aes,avx,avx2", 8, compress512_y::<A2>, finish512_y::<A2>);
    kernel!(vaes_y_plain, "sse2,ssse3,aes,avx,avx2,vaes", 8, compress512_y::<Plain<A2<32, true>>>, finish512_y::<Plain<A2<32, true>>>);
    kernel!(vaes_y, "sse2,ssse3,aes,avx,avx2,vaes", 8, compress512_y::<A2<32, true>>, finish512_y::<A2<32, true>>);
    kernel!(avx512_xmm, "sse2,ssse3,aes,avx,avx2,avx512f,avx512bw,avx512vl", 8, compress512::<X512>, finish512::<X512>);
    kernel!(avx512_y, "sse2,ssse3,aes,avx,avx2,avx512f,avx512bw,avx512vl", 8, compress512_y::<A2<32, false, true>>, finish512_y::<A2<32, false, true>>);
    kernel!(gfni_xmm, "sse2,ssse3,aes,avx,avx2,avx512f,avx512bw,avx512vl,vaes,gfni", 8, compress512::<Gx>, finish512::<Gx>);
    kernel!(gfni_y, "sse2,ssse3,aes,avx,avx2,avx512f,avx512bw,avx512vl,vaes,gfni", 8, compress512_y::<Gy>, finish512_y::<Gy>);
    kernel!(gfniavx2_xmm, "sse2,ssse3,aes,avx,avx2,vaes,gfni", 8, compress512::<Gx<false>>, finish512::<Gx<false>>);
    kernel!(gfniavx2_y, "sse2,ssse3,aes,avx,avx2,vaes,gfni", 8, compress512_y::<Gy<32, false>>, finish512_y::<Gy<32, false>>);
    kernel!(g512_avx2_old, "sse2,ssse3,aes,avx,avx2", 16, compress1024_y::<Plain<A2>>, finish1024_y::<Plain<A2>, Sse<true>>);
    kernel!(g512_avx2_new, "sse2,ssse3,aes,avx,avx2", 16, compress1024_y::<A2>, finish1024_y::<A2, Sse<true>>);
    kernel!(g512_vaes_old, "sse2,ssse3,aes,avx,avx2,vaes", 16, compress1024_y::<Plain<A2<32, true>>>, finish1024_y::<Plain<A2<32, true>>, Sse<true>>);
    kernel!(g512_vaes_new, "sse2,ssse3,aes,avx,avx2,vaes", 16, compress1024_y::<A2<32, true>>, finish1024_y::<A2<32, true>, Sse<true>>);
    kernel!(g512_avx512_old, "sse2,ssse3,aes,avx,avx2,avx512f,avx512bw,avx512vl", 16, compress1024_y::<Plain<A2<32, false, true>>>, finish1024_y::<Plain<A2<32, false, true>>, X512>);
    kernel!(g512_avx512_new, "sse2,ssse3,aes,avx,avx2,avx512f,avx512bw,avx512vl", 16, compress1024_y::<A2<32, false, true>>, finish1024_y::<A2<32, false, true>, X512>);

    macro_rules! many {
        ($name:ident, $f:literal, $n:literal, $call:expr) => {
            #[target_feature(enable = $f)]
            unsafe fn $name(data: &[u8], reps: usize) -> u64 {
                let msgs = [data; 4];
                let mut out = [[0u64; $n]; 4];
                let mut acc = 0;
                for _ in 0..reps.div_ceil(4) {
                    // SAFETY: the caller checked the features.
                    unsafe { $call(&msgs[..], &mut out[..]) };
                    acc ^= out[3][$n - 1];
                }
                acc
            }
        };
    }
    many!(many256_avx2_old, "sse2,ssse3,aes,avx,avx2", 8, |m, o| super::super::many512_y::<Plain<A2<16>>, 2, 4>(m, &[0; 8], o));
    many!(many256_avx2_new, "sse2,ssse3,aes,avx,avx2", 8, |m, o| super::super::many512_y::<A2<16>, 2, 4>(m, &[0; 8], o));
    many!(many256_vaes_old, "sse2,ssse3,aes,avx,avx2,vaes", 8, |m, o| super::super::many512_y::<Plain<A2<16, true>>, 2, 4>(m, &[0; 8], o));
    many!(many256_vaes_new, "sse2,ssse3,aes,avx,avx2,vaes", 8, |m, o| super::super::many512_y::<A2<16, true>, 2, 4>(m, &[0; 8], o));

    type K = unsafe fn(&[u8], usize) -> u64;

    /// `hash_many` kernels (four messages per call) with and without the biased MUL2.
    #[test]
    #[ignore]
    fn ab_many() {
        if !(std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("vaes")) {
            return;
        }
        run(
            "Grøstl-256 hash_many, four messages a call",
            &[("avx2 cmpgt (before)", many256_avx2_old), ("avx2 biased", many256_avx2_new), ("vaes cmpgt (before)", many256_vaes_old), ("vaes biased", many256_vaes_new)],
        );
    }

    fn run(title: &str, ks: &[(&str, K)]) {
        println!("{title}");
        let sizes: Vec<usize> = std::env::var("AB_SIZES").map_or(vec![64, 16384, 1 << 20], |s| s.split(',').map(|v| v.parse().unwrap()).collect());
        let samples: usize = std::env::var("AB_SAMPLES").map_or(21, |s| s.parse().unwrap());
        for &size in &sizes {
            let data: Vec<u8> = (0..size).map(|i| (i * 7 + 3) as u8).collect();
            let reps = ((1 << 20) / size).max(1);
            let mut t = vec![Vec::new(); ks.len()];
            let mut sink = 0;
            for _ in 0..samples {
                for (i, (_, k)) in ks.iter().enumerate() {
                    let c0 = slicewise_platform::rdtsc();
                    // SAFETY: the features were checked by the caller.
                    sink ^= unsafe { k(&data, reps) };
                    let c1 = slicewise_platform::rdtsc();
                    t[i].push((c1 - c0) as f64 / (reps * size) as f64);
                }
            }
            std::hint::black_box(sink);
            for (i, (name, _)) in ks.iter().enumerate() {
                t[i].sort_by(|a, b| a.partial_cmp(b).unwrap());
                let n = t[i].len();
                println!("{size:>8} B  {name:<34} median {:6.2}  min {:6.2}  max {:6.2} c/B", t[i][n / 2], t[i][0], t[i][n - 1]);
            }
        }
    }

    #[test]
    #[ignore]
    fn ab() {
        if !(std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("vaes")) {
            eprintln!("SKIPPED: needs AVX2 and VAES");
            return;
        }
        let evex = std::is_x86_feature_detected!("avx512bw") && std::is_x86_feature_detected!("avx512vl");
        let mut g256: Vec<(&str, K)> = vec![
            ("aesni XMM (SSE)", aesni_xmm),
            ("vaes/avx2 XMM VEX (before)", vaes_xmm),
            ("avx2 YMM", avx2_y),
            ("vaes YMM, cmpgt MUL2", vaes_y_plain),
            ("vaes YMM", vaes_y),
        ];
        let mut g512: Vec<(&str, K)> = vec![
            ("avx2 YMM cmpgt MUL2 (before)", g512_avx2_old),
            ("avx2 YMM biased MUL2", g512_avx2_new),
            ("vaes YMM cmpgt MUL2 (before)", g512_vaes_old),
            ("vaes YMM biased MUL2", g512_vaes_new),
        ];
        if std::is_x86_feature_detected!("gfni") {
            g256.push(("gfniavx2 XMM (before)", gfniavx2_xmm));
            g256.push(("gfniavx2 YMM", gfniavx2_y));
            if evex {
                g256.push(("gfni XMM (before)", gfni_xmm));
                g256.push(("gfni YMM", gfni_y));
            }
        }
        if evex {
            g256.push(("avx512 XMM (before)", avx512_xmm));
            g256.push(("avx512 YMM", avx512_y));
            g512.push(("avx512 YMM mask MUL2 (before)", g512_avx512_old));
            g512.push(("avx512 YMM biased MUL2", g512_avx512_new));
        }
        if std::env::var("AB_ONLY").map_or(true, |v| v == "256") {
            run("Grøstl-256", &g256);
        }
        if std::env::var("AB_ONLY").map_or(true, |v| v == "512") {
            run("Grøstl-512", &g512);
        }
    }
}
