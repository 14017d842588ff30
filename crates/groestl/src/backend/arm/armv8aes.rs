//! `armv8aes`: bytesliced Grøstl on AArch64 with the ARMv8 Cryptographic Extension (`AESE`)
//! and NEON (spec §14; the layout of paper [A] §5.1, the S-box of [V] §5 done by the AES unit).
//!
//! **Layout.** Rows in 128-bit registers. Grøstl-224/256: register `i` holds row `i` of P
//! (bytes 0–7) and row `i` of Q (bytes 8–15), so one group of eight registers computes both
//! permutations of a compression. Grøstl-384/512: P and Q are two groups of eight registers of
//! 16 columns each. The chaining value stays in row form between blocks (row pairs
//! `[row 2k | row 2k+1]` for the 512-bit state); the column-major ↔ row conversion is one
//! `TBL` of four registers per output register (the 8 × 8 byte transposition is one fixed
//! index vector).
//!
//! **Multi-buffer** (`hash_many`): two Grøstl-224/256 messages per pass (two P|Q groups); on
//! `armv8aes` also two Grøstl-384/512 messages, the two P groups and then the two Q groups of
//! each round sharing one load per row of `[TBL indices | key]` ([`Pairs`]).
//!
//! **One round** per register: `TBL` (ShiftBytes merged with the inverse of the AES ShiftRows),
//! `AESE` (AddRoundKey, then ShiftRows + SubBytes) and MixBytes. Unlike x86 `AESENCLAST`, `AESE`
//! XORs its key *before* the S-box, which is where Grøstl's AddRoundConstant sits: the key of
//! round `r`, row `i` is that round's constant permuted like the state by the `TBL`, so the
//! constants cost nothing. MixBytes is the synthesizer's 43-XOR/16-MUL2 program
//! (`crate::generated::mixbytes`, 107 instructions with the 4-instruction doubling
//! `ADD`/`CMLT`/`AND`/`EOR`) rather than the papers' 48-XOR formula (112).
//!
//! Constant-time: no data-dependent table indices (the `TBL` indices are constants), no
//! data-dependent branches; `AESE` runs in fixed time on every ARMv8 core.

#![allow(unsafe_code)]
// Index loops over fixed register arrays are deliberate: closures (iterator adapters,
// `array::from_fn`) that LLVM leaves out of line lose the kernel's target features.
#![allow(clippy::needless_range_loop)]

use core::arch::aarch64::*;

use crate::consts::*;

cpufeatures::new!(cpu, "aes");

/// Whether this CPU has the AES instructions (`AT_HWCAP` on Linux, cached).
pub(crate) fn available() -> bool {
    cpu::get()
}

/// Per-round `TBL` indices and `AESE` keys. A unit is one register of each permutation:
/// 16 bytes `[P row | Q row]` (512) or 32 bytes `[P row | Q row]` (1024).
#[repr(C, align(64))]
struct Tables<const U: usize, const R: usize> {
    /// `mask[i]`: ShiftBytes of row `i` composed with the inverse AES ShiftRows.
    mask: [[u8; U]; 8],
    /// `key[r][i]`: AddRoundConstant of round `r`, row `i`, at the positions `mask` moves it to.
    key: [[[u8; U]; 8]; R],
}

static T512: Tables<16, ROUNDS_512> = build(true);
static T1024: Tables<32, ROUNDS_1024> = build(true);
/// The tables without the AES ShiftRows (for the `neon` backend's vector-permute S-box).
static T512_SH: Tables<16, ROUNDS_512> = build(false);
static T1024_SH: Tables<32, ROUNDS_1024> = build(false);

/// The Grøstl-384/512 tables of the multi-buffer kernel: `[TBL indices | AESE key]` of round
/// `r`, half `h` (0: P, 1: Q), row `i` side by side, one 32-byte load for both.
#[repr(C, align(64))]
struct Pairs<const R: usize>([[[[u8; 32]; 8]; 2]; R]);

static P1024: Pairs<ROUNDS_1024> = pairs(&T1024);
static P1024_SH: Pairs<ROUNDS_1024> = pairs(&T1024_SH);

const fn pairs<const R: usize>(t: &Tables<32, R>) -> Pairs<R> {
    let mut p = Pairs([[[[0; 32]; 8]; 2]; R]);
    let mut r = 0;
    while r < R {
        let mut h = 0;
        while h < 2 {
            let mut i = 0;
            while i < 8 {
                let mut b = 0;
                while b < 16 {
                    p.0[r][h][i][b] = t.mask[i][16 * h + b];
                    p.0[r][h][i][16 + b] = t.key[r][i][16 * h + b];
                    b += 1;
                }
                i += 1;
            }
            h += 1;
        }
        r += 1;
    }
    p
}

/// AddRoundConstant (spec §9.2) of round `r` at row `row`, column `col` of P or Q.
const fn round_constant(q: bool, r: usize, row: usize, col: usize) -> u8 {
    let v = ((col << 4) as u8) ^ r as u8;
    match (q, row) {
        (false, 0) => v,
        (false, _) => 0,
        (true, 7) => 0xff ^ v,
        (true, _) => 0xff,
    }
}

const fn build<const U: usize, const R: usize>(aes: bool) -> Tables<U, R> {
    let cols = U / 2;
    let mut t = Tables { mask: [[0; U]; 8], key: [[[0; U]; 8]; R] };
    let mut row = 0;
    while row < 8 {
        let mut p = 0;
        while p < U {
            let q = p >= cols;
            let sigma = match (U, q) {
                (16, false) => SIGMA_P512[row],
                (16, true) => SIGMA_Q512[row],
                (_, false) => SIGMA_P1024[row],
                (_, true) => SIGMA_Q1024[row],
            } as usize;
            // Output column `p % cols` of this row comes from column `src` (ShiftBytes).
            let src = (p % cols + sigma) % cols;
            // `AESE` applies ShiftRows to what `TBL` produced: out[i] = in[sr(i)] within a
            // 16-byte AES state, byte i = 4·column + row. So `TBL` must put at `sr(i)` what
            // belongs at `i` (without `AESE`, at `i` itself).
            let (lane, i) = (p / 16, p % 16);
            let at = if aes { 16 * lane + 4 * ((i / 4 + i % 4) % 4) + i % 4 } else { p };
            t.mask[row][at] = ((p - p % cols + src) % 16) as u8;
            let mut r = 0;
            while r < R {
                t.key[r][row][at] = round_constant(q, r, row, src);
                r += 1;
            }
            p += 1;
        }
        row += 1;
    }
    t
}

/// The 8 × 8 byte transposition of 64 bytes (an involution): byte `p` of the result is byte
/// `8·(p mod 8) + p/8` of the input. Column-major state bytes become row pairs and back.
static TRANSPOSE: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut p = 0;
    while p < 64 {
        t[p] = (8 * (p % 8) + p / 8) as u8;
        p += 1;
    }
    t
};

// ---------------------------------------------------------------------------------------------
// Register operations. Every function below is only called from the `#[target_feature(enable
// = "aes")]` (or `"aes,sha3"`) kernels of `entry_points!`, which run after `available()`; NEON
// itself is part of the AArch64 baseline.

#[inline(always)]
unsafe fn xor(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    // SAFETY: NEON is baseline on AArch64.
    unsafe { veorq_u8(a, b) }
}

/// MixBytes arithmetic: the doubling and the program's output step, on plain NEON or with the
/// three-input instructions of FEAT_SHA3.
trait Arith {
    /// Whether `sub_shift` is `AESE` (which applies the AES ShiftRows after the `TBL`).
    const AES: bool = true;
    /// AddRoundConstant, SubBytes and ShiftBytes of one row register (`m`: `TBL` indices, `k`:
    /// the round constant at the positions `m` moves it to).
    #[inline(always)]
    unsafe fn sub_shift(x: uint8x16_t, m: uint8x16_t, k: uint8x16_t) -> uint8x16_t {
        // SAFETY: the kernels of AES backends have the `aes` feature (caller).
        unsafe { aese_shift(x, m, k) }
    }
    /// The tables this `sub_shift` needs.
    fn t512() -> &'static Tables<16, ROUNDS_512> {
        if Self::AES { &T512 } else { &T512_SH }
    }
    fn t1024() -> &'static Tables<32, ROUNDS_1024> {
        if Self::AES { &T1024 } else { &T1024_SH }
    }
    fn p1024() -> &'static Pairs<ROUNDS_1024> {
        if Self::AES { &P1024 } else { &P1024_SH }
    }
    /// Multiplication by 2 in GF(2^8)/0x11b on every byte.
    unsafe fn mul2(a: uint8x16_t) -> uint8x16_t;
    /// `MUL2(MUL2(x) ⊕ y) ⊕ z`, the output step of the MixBytes program.
    unsafe fn mb_out(x: uint8x16_t, y: uint8x16_t, z: uint8x16_t) -> uint8x16_t;
}

/// Plain NEON: `(a + a) ⊕ (0x1b ∧ (a <ₛ 0))`, 4 instructions.
#[derive(Clone, Copy, Debug)]
struct Plain;

impl Arith for Plain {
    #[inline(always)]
    unsafe fn mul2(a: uint8x16_t) -> uint8x16_t {
        // SAFETY: NEON is baseline on AArch64.
        unsafe {
            let hi = vcltzq_s8(vreinterpretq_s8_u8(a));
            veorq_u8(vaddq_u8(a, a), vandq_u8(hi, vdupq_n_u8(0x1b)))
        }
    }
    #[inline(always)]
    unsafe fn mb_out(x: uint8x16_t, y: uint8x16_t, z: uint8x16_t) -> uint8x16_t {
        // SAFETY: NEON is baseline on AArch64.
        unsafe { xor(Self::mul2(xor(Self::mul2(x), y)), z) }
    }
}

/// FEAT_SHA3: `BCAX(a + a, 0x1b, a ≥ₛ 0)` (bit clear and XOR), 3 instructions; a doubling
/// followed by an XOR is `BCAX(EOR(a + a, b), 0x1b, a ≥ₛ 0)`, 4 instead of 5.
#[derive(Clone, Copy, Debug)]
struct Sha3;

impl Arith for Sha3 {
    #[inline]
    #[target_feature(enable = "sha3")]
    unsafe fn mul2(a: uint8x16_t) -> uint8x16_t {
        vbcaxq_u8(vaddq_u8(a, a), vdupq_n_u8(0x1b), vcgezq_s8(vreinterpretq_s8_u8(a)))
    }
    #[inline]
    #[target_feature(enable = "sha3")]
    unsafe fn mb_out(x: uint8x16_t, y: uint8x16_t, z: uint8x16_t) -> uint8x16_t {
        let k = vdupq_n_u8(0x1b);
        let w = vbcaxq_u8(veorq_u8(vaddq_u8(x, x), y), k, vcgezq_s8(vreinterpretq_s8_u8(x)));
        vbcaxq_u8(veorq_u8(vaddq_u8(w, w), z), k, vcgezq_s8(vreinterpretq_s8_u8(w)))
    }
}

/// The AES S-box without the AES instructions: Hamburg's vector-permute method ("Accelerating
/// AES with Vector Permute Instructions", CHES 2009; [V] §5.3) with `TBL` look-ups of 4-bit
/// indices, as the x86 `vperm` backend does with `PSHUFB`. The nibbles go to Hamburg's GF(2^4)²
/// basis (two 16-entry tables), five look-ups in the GF(2^4) inverse tables invert (an entry
/// 0x80 is an out-of-range `TBL` index, which gives 0, as `PSHUFB` gives 0 for it), and two
/// output tables apply the affine map, giving `S(x) ⊕ 0x63`. The table constants are the
/// public-domain `vpaes` ones the `vperm` backend uses; a unit test checks all 256 inputs.
/// Register permutes with data-independent timing: constant-time.
#[derive(Clone, Copy, Debug)]
struct Vperm;

use crate::consts::vpaes::*;

#[inline(always)]
unsafe fn table(t: [u64; 2]) -> uint8x16_t {
    // SAFETY: NEON is baseline on AArch64.
    unsafe { vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(t[0]), vcreate_u64(t[1]))) }
}

/// `S(x) ⊕ 0x63` on 16 bytes.
#[inline(always)]
unsafe fn sbox63(x: uint8x16_t) -> uint8x16_t {
    // SAFETY: NEON is baseline on AArch64.
    unsafe {
        let tbl = |t: [u64; 2], i: uint8x16_t| vqtbl1q_u8(table(t), i);
        let lo = vandq_u8(x, vdupq_n_u8(0x0f));
        let hi = vshrq_n_u8::<4>(x);
        let t = xor(tbl(IPT_LO, lo), tbl(IPT_HI, hi));
        let k = vandq_u8(t, vdupq_n_u8(0x0f));
        let i = vshrq_n_u8::<4>(t);
        let j = xor(i, k);
        let ak = tbl(INVA, k);
        let iak = xor(tbl(INV, i), ak);
        let jak = xor(tbl(INV, j), ak);
        let io = xor(tbl(INV, iak), j);
        let jo = xor(tbl(INV, jak), i);
        xor(tbl(SBOU, io), tbl(SBOT, jo))
    }
}

impl Arith for Vperm {
    const AES: bool = false;
    #[inline(always)]
    unsafe fn sub_shift(x: uint8x16_t, m: uint8x16_t, k: uint8x16_t) -> uint8x16_t {
        // SAFETY: NEON is baseline on AArch64.
        unsafe { xor(sbox63(xor(vqtbl1q_u8(x, m), k)), vdupq_n_u8(0x63)) }
    }
    #[inline(always)]
    unsafe fn mul2(a: uint8x16_t) -> uint8x16_t {
        // SAFETY: NEON is baseline on AArch64.
        unsafe { Plain::mul2(a) }
    }
    #[inline(always)]
    unsafe fn mb_out(x: uint8x16_t, y: uint8x16_t, z: uint8x16_t) -> uint8x16_t {
        // SAFETY: NEON is baseline on AArch64.
        unsafe { Plain::mb_out(x, y, z) }
    }
}

/// AddRoundConstant, SubBytes and ShiftBytes of one row register: `AESE(TBL(x, m), k)`.
#[inline]
#[target_feature(enable = "aes")]
unsafe fn aese_shift(x: uint8x16_t, m: uint8x16_t, k: uint8x16_t) -> uint8x16_t {
    vaeseq_u8(vqtbl1q_u8(x, m), k)
}

/// `rounds` rounds of AC+SB+SH (`TBL`, `AESE` or the vector-permute S-box) and MB on `G` groups of eight row registers;
/// group `g` reads the bytes at offset `goff[g]` (0 or 16) of the `U`-byte table units.
#[inline(always)]
unsafe fn rounds<A: Arith, const G: usize, const U: usize, const R: usize>(
    x: &mut [[uint8x16_t; 8]; G],
    t: &Tables<U, R>,
    goff: [usize; G],
) {
    // SAFETY: same contract.
    unsafe { rounds_to::<A, G, U, R, true, true>(x, t, goff) }
}

/// [`rounds`], the last round's MixBytes left out when `LAST_MB` is false: the compression
/// functions XOR P's and Q's states first and run that MixBytes once (it is linear and the same
/// for both, so `MB(y_P) ⊕ MB(y_Q) = MB(y_P ⊕ y_Q)`).
#[inline(always)]
unsafe fn rounds_to<A: Arith, const G: usize, const U: usize, const R: usize, const LAST_MB: bool, const PEEL: bool>(
    x: &mut [[uint8x16_t; 8]; G],
    t: &Tables<U, R>,
    goff: [usize; G],
) {
    // SAFETY: the caller has the `aes` feature (and `sha3` for `A = Sha3`); offsets stay inside
    // the tables (i < 8, r < R, goff[g] + 16 ≤ U).
    unsafe {
        // Two shapes of the same rounds, chosen per kernel by the instructions LLVM makes of
        // them (docs/benchmarks-arm.md, AArch64): with `PEEL` a loop of whole rounds, then the
        // last S-box layer alone; without, one loop that leaves the last round before its
        // MixBytes.
        if PEEL || LAST_MB {
            for r in 0..(if LAST_MB { R } else { R - 1 }) {
                sub_layer::<A, G, U, R>(x, t, goff, r);
                for g in 0..G {
                    x[g] = mix_bytes_program!(x[g], xor, A::mul2, A::mb_out);
                }
            }
            if !LAST_MB {
                sub_layer::<A, G, U, R>(x, t, goff, R - 1);
            }
        } else {
            for r in 0..R {
                sub_layer::<A, G, U, R>(x, t, goff, r);
                if r + 1 == R {
                    break;
                }
                for g in 0..G {
                    x[g] = mix_bytes_program!(x[g], xor, A::mul2, A::mb_out);
                }
            }
        }
    }
}

/// AddRoundConstant, SubBytes and ShiftBytes of round `r` on every row register.
#[inline(always)]
unsafe fn sub_layer<A: Arith, const G: usize, const U: usize, const R: usize>(
    x: &mut [[uint8x16_t; 8]; G],
    t: &Tables<U, R>,
    goff: [usize; G],
    r: usize,
) {
    // SAFETY: as in `rounds_to` (r < R).
    unsafe {
        for g in 0..G {
            for i in 0..8 {
                let m = vld1q_u8(t.mask[i].as_ptr().add(goff[g]));
                let k = vld1q_u8(t.key[r][i].as_ptr().add(goff[g]));
                x[g][i] = A::sub_shift(x[g][i], m, k);
            }
        }
    }
}

/// MixBytes on row pairs (`a[k]` = `[row 2k | row 2k+1]`, 8 columns): the papers' formula
/// `t_i = a_i ⊕ a_{i+1}`, `x_i = t_i ⊕ t_{i+3}`, `y_i = t_i ⊕ t_{i+2} ⊕ a_{i+6}`,
/// `b_i = 2(2x_{i+3} ⊕ y_{i+7}) ⊕ y_{i+4}` (spec §9.5) with rows advanced by one through `EXT`
/// (`[row 2k+1 | row 2k+2]`): 16 `EXT`, 24 XORs and 8 doublings for 8 rows, where eight P|Q
/// row registers take 43 XORs and 16 doublings.
#[inline(always)]
unsafe fn mix_bytes_pairs<A: Arith>(a: [uint8x16_t; 4]) -> [uint8x16_t; 4] {
    // SAFETY: NEON is baseline on AArch64; `A`'s features are the caller's.
    unsafe {
        let next = |v: [uint8x16_t; 4]| [0, 1, 2, 3].map(|k| vextq_u8::<8>(v[k], v[(k + 1) % 4]));
        let a1 = next(a);
        let t = [0, 1, 2, 3].map(|k| xor(a[k], a1[k]));
        let t1 = next(t);
        let x = [0, 1, 2, 3].map(|k| xor(t[k], t1[(k + 1) % 4]));
        let y = [0, 1, 2, 3].map(|k| xor(xor(t[k], t[(k + 1) % 4]), a[(k + 3) % 4]));
        let (x1, y1) = (next(x), next(y));
        [0, 1, 2, 3].map(|k| A::mb_out(x1[(k + 1) % 4], y1[(k + 3) % 4], y[(k + 2) % 4]))
    }
}

/// `rounds` of Grøstl-384/512 for the multi-buffer kernels: `H` halves (P, then Q) of `M`
/// groups each. One 32-byte load of [`Pairs`] gives a row's `TBL` indices and key for the `M`
/// groups of a half, and a half's groups finish the round (S-box layer, then MixBytes) before
/// the next half starts, so that only one half needs to be in registers at a time. The last
/// round's MixBytes is left to the caller (see [`rounds_to`]).
#[inline(always)]
unsafe fn rounds_shared<A: Arith, const H: usize, const M: usize>(
    x: &mut [[[uint8x16_t; 8]; M]; H],
    t: &Pairs<ROUNDS_1024>,
) {
    // SAFETY: as in `rounds` (r < ROUNDS_1024, h < H ≤ 2, i < 8: 32 bytes inside `t`).
    unsafe {
        for r in 0..ROUNDS_1024 {
            for h in 0..H {
                for i in 0..8 {
                    let mk = vld1q_u8_x2(t.0[r][h][i].as_ptr());
                    for j in 0..M {
                        x[h][j][i] = A::sub_shift(x[h][j][i], mk.0, mk.1);
                    }
                }
                if r + 1 == ROUNDS_1024 {
                    continue;
                }
                for j in 0..M {
                    x[h][j] = mix_bytes_program!(x[h][j], xor, A::mul2, A::mb_out);
                }
            }
        }
    }
}

/// 64 bytes at `p` transposed (see [`TRANSPOSE`]).
#[inline(always)]
unsafe fn transpose(v: uint8x16x4_t) -> [uint8x16_t; 4] {
    // SAFETY: NEON; `TRANSPOSE` is 64 readable bytes.
    unsafe {
        let idx = vld1q_u8_x4(TRANSPOSE.as_ptr());
        [vqtbl4q_u8(v, idx.0), vqtbl4q_u8(v, idx.1), vqtbl4q_u8(v, idx.2), vqtbl4q_u8(v, idx.3)]
    }
}

/// Canonical words (big-endian columns) as column-major bytes, four registers per 64 bytes.
#[inline(always)]
unsafe fn col_bytes(w: *const u64) -> uint8x16x4_t {
    // SAFETY: the caller passes 8 readable words.
    unsafe {
        let b = |k: usize| vrev64q_u8(vreinterpretq_u8_u64(vld1q_u64(w.add(2 * k))));
        uint8x16x4_t(b(0), b(1), b(2), b(3))
    }
}

/// Column-major bytes back to 8 canonical words at `w`.
#[inline(always)]
unsafe fn store_words(w: *mut u64, c: [uint8x16_t; 4]) {
    // SAFETY: the caller passes 8 writable words.
    unsafe {
        for k in 0..4 {
            vst1q_u64(w.add(2 * k), vreinterpretq_u64_u8(vrev64q_u8(c[k])));
        }
    }
}

#[inline(always)]
unsafe fn zip1(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    // SAFETY: NEON.
    unsafe { vreinterpretq_u8_u64(vzip1q_u64(vreinterpretq_u64_u8(a), vreinterpretq_u64_u8(b))) }
}

#[inline(always)]
unsafe fn zip2(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    // SAFETY: NEON.
    unsafe { vreinterpretq_u8_u64(vzip2q_u64(vreinterpretq_u64_u8(a), vreinterpretq_u64_u8(b))) }
}

// ---------------------------------------------------------------------------------------------
// Grøstl-224/256: P and Q side by side; the chaining value as row pairs `hp[k] = [row 2k | row
// 2k+1]`.

/// The eight P|Q row registers of one compression: `[h ⊕ m | m]` row by row.
#[inline(always)]
unsafe fn input512(hp: &[uint8x16_t; 4], block: *const u8) -> [uint8x16_t; 8] {
    // SAFETY: the caller passes 64 readable bytes at `block`.
    unsafe {
        let m = transpose(vld1q_u8_x4(block));
        let mut x = [m[0]; 8];
        for k in 0..4 {
            let p = xor(hp[k], m[k]);
            x[2 * k] = zip1(p, m[k]);
            x[2 * k + 1] = zip2(p, m[k]);
        }
        x
    }
}

/// `h ← h ⊕ P ⊕ Q` from the row registers as the last ShiftBytes leaves them: P's and Q's
/// halves XORed into row pairs, then the last MixBytes once, on four registers.
#[inline(always)]
unsafe fn update512<A: Arith>(hp: &mut [uint8x16_t; 4], x: &[uint8x16_t; 8]) {
    // SAFETY: NEON; `A`'s features are the caller's.
    unsafe {
        let d = [0, 1, 2, 3].map(|k| {
            let (a, b) = (x[2 * k], x[2 * k + 1]);
            xor(zip1(a, b), zip2(a, b))
        });
        let d = mix_bytes_pairs::<A>(d);
        for k in 0..4 {
            hp[k] = xor(hp[k], d[k]);
        }
    }
}

#[inline(always)]
unsafe fn absorb512<A: Arith>(hp: &mut [uint8x16_t; 4], blocks: &[u8]) {
    // SAFETY: `aes` present (caller); `input512` reads whole 64-byte chunks of `blocks`.
    unsafe {
        for block in blocks.chunks_exact(64) {
            let mut x = [input512(hp, block.as_ptr())];
            rounds_to::<A, _, _, _, false, false>(&mut x, A::t512(), [0]);
            update512::<A>(hp, &x[0]);
        }
    }
}

/// The output transformation's input: `[h | h]` row by row (the Q halves compute an unused
/// value).
#[inline(always)]
unsafe fn out_input512(hp: &[uint8x16_t; 4]) -> [uint8x16_t; 8] {
    // SAFETY: NEON.
    unsafe {
        let mut x = [hp[0]; 8];
        for k in 0..4 {
            x[2 * k] = zip1(hp[k], hp[k]);
            x[2 * k + 1] = zip2(hp[k], hp[k]);
        }
        x
    }
}

/// `P(h) ⊕ h` as row pairs, from the permuted registers.
#[inline(always)]
unsafe fn out_result512(hp: &[uint8x16_t; 4], x: &[uint8x16_t; 8]) -> [uint8x16_t; 4] {
    // SAFETY: NEON.
    unsafe { [0, 1, 2, 3].map(|k| xor(zip1(x[2 * k], x[2 * k + 1]), hp[k])) }
}

/// `P(h) ⊕ h` on row pairs.
#[inline(always)]
unsafe fn out512<A: Arith>(hp: &[uint8x16_t; 4]) -> [uint8x16_t; 4] {
    // SAFETY: `aes` present (caller).
    unsafe {
        let mut x = [out_input512(hp)];
        rounds::<A, _, _, _>(&mut x, A::t512(), [0]);
        out_result512(hp, &x[0])
    }
}

#[inline(always)]
unsafe fn rows512(h: &[u64; 8]) -> [uint8x16_t; 4] {
    // SAFETY: `h` is 8 words.
    unsafe { transpose(col_bytes(h.as_ptr())) }
}

#[inline(always)]
unsafe fn words512(hp: [uint8x16_t; 4]) -> [u64; 8] {
    let mut h = [0u64; 8];
    // SAFETY: `h` is 8 writable words.
    unsafe { store_words(h.as_mut_ptr(), transpose(uint8x16x4_t(hp[0], hp[1], hp[2], hp[3]))) };
    h
}

#[inline(always)]
unsafe fn compress512_k<A: Arith>(h: &mut [u64; 8], blocks: &[u8]) {
    // SAFETY: `aes` present (caller).
    unsafe {
        let mut hp = rows512(h);
        absorb512::<A>(&mut hp, blocks);
        *h = words512(hp);
    }
}

#[inline(always)]
unsafe fn output512_k<A: Arith>(h: &[u64; 8]) -> [u64; 8] {
    // SAFETY: `aes` present (caller).
    unsafe { words512(out512::<A>(&rows512(h))) }
}

#[inline(always)]
unsafe fn finish512_k<A: Arith>(h: &[u64; 8], blocks: &[u8]) -> [u64; 8] {
    // SAFETY: `aes` present (caller).
    unsafe {
        let mut hp = rows512(h);
        absorb512::<A>(&mut hp, blocks);
        words512(out512::<A>(&hp))
    }
}

/// A message as its whole blocks of `B` bytes (64 or 128), in place, and its padded last one or
/// two blocks (spec §6), for the multi-buffer kernels.
struct Padded<'a, const B: usize> {
    whole: &'a [u8],
    tail: [[u8; B]; 2],
    /// Blocks of the padded message.
    blocks: usize,
}

impl<'a, const B: usize> Padded<'a, B> {
    fn new(msg: &'a [u8]) -> Self {
        let (whole, rest) = msg.split_at(msg.len() - msg.len() % B);
        let mut tail = [[0u8; B]; 2];
        let t = tail.as_flattened_mut();
        t[..rest.len()].copy_from_slice(rest);
        t[rest.len()] = 0x80;
        let end = if rest.len() < B - 8 { B } else { 2 * B };
        let blocks = (whole.len() + end) / B;
        t[end - 8..end].copy_from_slice(&(blocks as u64).to_be_bytes());
        Padded { whole, tail, blocks }
    }

    /// `B` readable bytes: block `b`, or (past the end) the last block again.
    fn block(&self, b: usize) -> *const u8 {
        let w = self.whole.len() / B;
        match b.checked_sub(w) {
            None => self.whole[B * b..].as_ptr(),
            Some(t) => self.tail[t.min(self.blocks - w - 1)].as_ptr(),
        }
    }

    /// Up to `M` messages padded (missing ones as empty messages) and the most blocks of the
    /// first `n = min(M, msgs.len())`.
    fn many<const M: usize>(msgs: &[&'a [u8]]) -> ([Self; M], usize) {
        let pads: [Self; M] = core::array::from_fn(|j| Self::new(msgs.get(j).copied().unwrap_or(&[])));
        let nmax = pads[..msgs.len().min(M)].iter().map(|p| p.blocks).max().unwrap_or(0);
        (pads, nmax)
    }
}

/// Up to `M` Grøstl-224/256 messages in lockstep, one group of eight row registers each (the
/// `TBL` indices and `AESE` keys are loaded once per round for all of them); `out[j]` receives
/// `P(h) ⊕ h` of message `j` (canonical words, before truncation), from the IV `h0`.
#[inline(always)]
unsafe fn many512_k<A: Arith, const M: usize>(msgs: &[&[u8]], h0: &[u64; 8], out: &mut [[u64; 8]]) {
    // SAFETY: `aes` present (caller); `Padded::block` returns 64 readable bytes.
    unsafe {
        let n = msgs.len().min(M);
        let (pads, nmax) = Padded::<64>::many::<M>(msgs);
        let mut hp = [rows512(h0); M];
        for b in 0..nmax {
            let mut x = [[hp[0][0]; 8]; M];
            for j in 0..M {
                x[j] = input512(&hp[j], pads[j].block(b));
            }
            rounds_to::<A, _, _, _, false, false>(&mut x, A::t512(), [0; M]);
            for j in 0..n {
                // Public lengths: a message that is done keeps its chaining value.
                if b < pads[j].blocks {
                    update512::<A>(&mut hp[j], &x[j]);
                }
            }
        }
        let mut x = [[hp[0][0]; 8]; M];
        for j in 0..M {
            x[j] = out_input512(&hp[j]);
        }
        rounds::<A, _, _, _>(&mut x, A::t512(), [0; M]);
        for j in 0..n {
            out[j] = words512(out_result512(&hp[j], &x[j]));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Grøstl-384/512: P and Q as two groups; the chaining value as eight 16-column rows.

/// 128 column-major bytes (`lo` = columns 0–7, `hi` = columns 8–15) as eight rows.
#[inline(always)]
unsafe fn rows_of(lo: uint8x16x4_t, hi: uint8x16x4_t) -> [uint8x16_t; 8] {
    // SAFETY: NEON.
    unsafe {
        let (l, h) = (transpose(lo), transpose(hi));
        let mut r = [l[0]; 8];
        for k in 0..4 {
            r[2 * k] = zip1(l[k], h[k]);
            r[2 * k + 1] = zip2(l[k], h[k]);
        }
        r
    }
}

#[inline(always)]
unsafe fn rows1024(h: &[u64; 16]) -> [uint8x16_t; 8] {
    // SAFETY: `h` is 16 words.
    unsafe { rows_of(col_bytes(h.as_ptr()), col_bytes(h.as_ptr().add(8))) }
}

#[inline(always)]
unsafe fn words1024(r: [uint8x16_t; 8]) -> [u64; 16] {
    let mut h = [0u64; 16];
    // SAFETY: NEON; `h` is 16 writable words.
    unsafe {
        let lo = [0, 1, 2, 3].map(|k| zip1(r[2 * k], r[2 * k + 1]));
        let hi = [0, 1, 2, 3].map(|k| zip2(r[2 * k], r[2 * k + 1]));
        store_words(h.as_mut_ptr(), transpose(uint8x16x4_t(lo[0], lo[1], lo[2], lo[3])));
        store_words(h.as_mut_ptr().add(8), transpose(uint8x16x4_t(hi[0], hi[1], hi[2], hi[3])));
    }
    h
}

#[inline(always)]
unsafe fn absorb1024<A: Arith>(hr: &mut [uint8x16_t; 8], blocks: &[u8]) {
    // SAFETY: `aes` present (caller); loads read whole 128-byte chunks of `blocks`.
    unsafe {
        for block in blocks.chunks_exact(128) {
            let m = rows_of(vld1q_u8_x4(block.as_ptr()), vld1q_u8_x4(block.as_ptr().add(64)));
            let mut x = [m; 2];
            for i in 0..8 {
                x[0][i] = xor(hr[i], m[i]);
            }
            rounds_to::<A, _, _, _, false, true>(&mut x, A::t1024(), [0, 16]);
            // The last MixBytes once, on P ^ Q (see `rounds_to`).
            let mut d = x[0];
            for i in 0..8 {
                d[i] = xor(x[0][i], x[1][i]);
            }
            let d = mix_bytes_program!(d, xor, A::mul2, A::mb_out);
            for i in 0..8 {
                hr[i] = xor(hr[i], d[i]);
            }
        }
    }
}

#[inline(always)]
unsafe fn out1024<A: Arith>(hr: &[uint8x16_t; 8]) -> [uint8x16_t; 8] {
    // SAFETY: `aes` present (caller).
    unsafe {
        let mut x = [*hr; 1];
        rounds::<A, _, _, _>(&mut x, A::t1024(), [0]);
        let mut o = *hr;
        for i in 0..8 {
            o[i] = xor(x[0][i], hr[i]);
        }
        o
    }
}

#[inline(always)]
unsafe fn compress1024_k<A: Arith>(h: &mut [u64; 16], blocks: &[u8]) {
    // SAFETY: `aes` present (caller).
    unsafe {
        let mut hr = rows1024(h);
        absorb1024::<A>(&mut hr, blocks);
        *h = words1024(hr);
    }
}

#[inline(always)]
unsafe fn output1024_k<A: Arith>(h: &[u64; 16]) -> [u64; 16] {
    // SAFETY: `aes` present (caller).
    unsafe { words1024(out1024::<A>(&rows1024(h))) }
}

#[inline(always)]
unsafe fn finish1024_k<A: Arith>(h: &[u64; 16], blocks: &[u8]) -> [u64; 16] {
    // SAFETY: `aes` present (caller).
    unsafe {
        let mut hr = rows1024(h);
        absorb1024::<A>(&mut hr, blocks);
        words1024(out1024::<A>(&hr))
    }
}

/// Up to `M` Grøstl-384/512 messages in lockstep: the P states of all messages as one half of
/// `M` groups, the Q states as the other (see [`rounds_shared`]), so the `TBL` indices and
/// `AESE` keys of a round are loaded once for all messages; the output transformation runs one
/// message at a time. `out[j]` receives `P(h) ⊕ h` of message `j` (canonical words, before
/// truncation), from the IV `h0`.
#[inline(always)]
unsafe fn many1024_k<A: Arith, const M: usize>(msgs: &[&[u8]], h0: &[u64; 16], out: &mut [[u64; 16]]) {
    // SAFETY: `aes` present (caller); `Padded::block` returns 128 readable bytes.
    unsafe {
        let n = msgs.len().min(M);
        assert!(out.len() >= n, "many1024: {} outputs for {n} messages", out.len());
        let (pads, nmax) = Padded::<128>::many::<M>(msgs);
        let mut hr = [rows1024(h0); M];
        for b in 0..nmax {
            let mut x = [hr; 2];
            for j in 0..M {
                let p = pads[j].block(b);
                let m = rows_of(vld1q_u8_x4(p), vld1q_u8_x4(p.add(64)));
                for i in 0..8 {
                    x[0][j][i] = xor(hr[j][i], m[i]);
                    x[1][j][i] = m[i];
                }
            }
            rounds_shared::<A, 2, M>(&mut x, A::p1024());
            for j in 0..n {
                // Public lengths: a message that is done keeps its chaining value.
                if b < pads[j].blocks {
                    let mut d = x[0][j];
                    for i in 0..8 {
                        d[i] = xor(x[0][j][i], x[1][j][i]);
                    }
                    let d = mix_bytes_program!(d, xor, A::mul2, A::mb_out);
                    for i in 0..8 {
                        hr[j][i] = xor(hr[j][i], d[i]);
                    }
                }
            }
        }
        // The output transformation one message at a time: with one group in flight the
        // `TBL` indices stay in registers for all rounds, which costs fewer instructions than
        // sharing the loads between two groups.
        for j in 0..n {
            out[j] = words1024(out1024::<A>(&hr[j]));
        }
    }
}

/// The safe entry points of one MixBytes arithmetic `$a` compiled with `$f`.
macro_rules! kernels {
    ($f:literal, $a:ty) => {
        crate::backend::entry_points! {
            features = $f;
            compress512(h: &mut [u64; 8], blocks: &[u8]) -> () = compress512_k::<$a>(h, blocks);
            compress1024(h: &mut [u64; 16], blocks: &[u8]) -> () = compress1024_k::<$a>(h, blocks);
            output512(h: &[u64; 8]) -> [u64; 8] = output512_k::<$a>(h);
            output1024(h: &[u64; 16]) -> [u64; 16] = output1024_k::<$a>(h);
            finish512(h: &[u64; 8], blocks: &[u8]) -> [u64; 8] = finish512_k::<$a>(h, blocks);
            finish1024(h: &[u64; 16], blocks: &[u8]) -> [u64; 16] = finish1024_k::<$a>(h, blocks);
            many512_2(msgs: &[&[u8]], h0: &[u64; 8], out: &mut [[u64; 8]]) -> () = many512_k::<$a, 2>(msgs, h0, out);
        }
    };
}

kernels!("aes", Plain);

// Grøstl-384/512 multi-buffer: `armv8aes` only. With `Sha3` and `Vperm` the two-message
// kernel counts 2–5 % more instructions than one message at a time (docs/benchmarks-arm.md:
// their MixBytes and S-box keep more values live, and LLVM spills inside a half).
crate::backend::entry_points! {
    features = "aes";
    many1024_2(msgs: &[&[u8]], h0: &[u64; 16], out: &mut [[u64; 16]]) -> () = many1024_k::<Plain, 2>(msgs, h0, out);
}

/// `armv8sha3`: the same kernels with MixBytes on the FEAT_SHA3 instructions (`BCAX`), for
/// CPUs with both extensions (Cortex-A710/X2 and later, Neoverse V1/N2, Apple M1 and later).
pub(crate) mod sha3 {
    use super::*;

    cpufeatures::new!(cpu, "aes", "sha3");

    /// Whether this CPU has the AES and SHA3 instructions (`AT_HWCAP`, cached).
    pub(crate) fn available() -> bool {
        cpu::get()
    }

    kernels!("aes,sha3", Sha3);
}

/// `neon`: the same kernels without the AES instructions, S-box by [`Vperm`], for AArch64 cores
/// without the Cryptographic Extension (NEON is baseline: always available).
pub(crate) mod vperm {
    use super::*;

    /// Always: NEON is part of the AArch64 baseline.
    pub(crate) fn available() -> bool {
        true
    }

    kernels!("neon", Vperm);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Row 0 has σ = 0 in P and 1 in Q; with Q's rotation undone the mask is the inverse
    /// AES ShiftRows, the constant 0x0306090c0f0205080b0e0104070a0d00 of [A] §5.1.
    #[test]
    fn row0_mask_is_inverse_shiftrows_up_to_q_rotation() {
        let want: [u8; 16] =
            [0x00, 0x0d, 0x0a, 0x07, 0x04, 0x01, 0x0e, 0x0b, 0x08, 0x05, 0x02, 0x0f, 0x0c, 0x09, 0x06, 0x03];
        let got = T512.mask[0].map(|v| if v >= 8 { 8 + (v - 8 + 7) % 8 } else { v });
        assert_eq!(got, want);
    }

    /// Round 0, row 0: P's constant is the column index in the high nibble; each key byte is
    /// the constant of the column its `TBL` source byte comes from.
    #[test]
    fn keys_follow_the_mask() {
        for r in 0..ROUNDS_512 {
            for i in 0..8 {
                for p in 0..16 {
                    let src = T512.mask[i][p] as usize;
                    let q = src >= 8;
                    assert_eq!(T512.key[r][i][p], round_constant(q, r, i, src % 8), "round {r} row {i} byte {p}");
                }
            }
        }
    }

    #[test]
    fn vperm_sbox_is_the_aes_sbox() {
        for c in 0..16 {
            let x: [u8; 16] = core::array::from_fn(|i| (16 * c + i) as u8);
            let mut y = [0u8; 16];
            // SAFETY: NEON is baseline on AArch64; the load and store stay in 16-byte arrays.
            unsafe { vst1q_u8(y.as_mut_ptr(), sbox63(vld1q_u8(x.as_ptr()))) };
            for i in 0..16 {
                assert_eq!(y[i] ^ 0x63, crate::consts::SBOX[x[i] as usize], "S({:#04x})", x[i]);
            }
        }
    }

    /// `msg` padded to whole blocks of `bs` bytes (spec §6), written out independently of
    /// `Padded`.
    fn pad(msg: &[u8], bs: usize) -> Vec<u8> {
        let mut v = msg.to_vec();
        v.push(0x80);
        while v.len() % bs != bs - 8 {
            v.push(0);
        }
        let blocks = (v.len() + 8) / bs;
        v.extend_from_slice(&(blocks as u64).to_be_bytes());
        v
    }

    /// The multi-buffer kernels called directly with one and two messages of every pair of
    /// lengths below (`hash_many` never passes a single message, and gives equal lanes the
    /// same work), against `portable`'s compression and output transformation.
    #[test]
    fn many_kernels_every_lane_count_and_unequal_lengths() {
        use crate::backend::{Backend, arm_many512, arm_many1024};
        let data: Vec<u8> = (0..600u32).map(|i| (i * 29 + 3) as u8).collect();
        let (mut iv8, mut iv16) = ([0u64; 8], [0u64; 16]);
        iv8[7] = 256;
        iv16[15] = 512;
        let lens = [0, 55, 56, 64, 119, 120, 128, 200, 385];
        for b in [Backend::Armv8Aes, Backend::Armv8Sha3, Backend::Neon] {
            if !crate::backend_report::gate("groestl", b.name(), b.is_available(), "many kernels unit test") {
                continue;
            }
            let (k512, k1024) = (arm_many512(b).expect("every AArch64 backend"), arm_many1024(b));
            for &la in &lens {
                for &lb in &lens {
                    let msgs: [&[u8]; 2] = [&data[..la], &data[100..100 + lb]];
                    for n in 1..=2 {
                        let mut o8 = [[0u64; 8]; 2];
                        k512.1(&msgs[..n], &iv8, &mut o8[..n]);
                        for j in 0..n {
                            let want = Backend::Portable.finish512(&iv8, &pad(msgs[j], 64));
                            assert_eq!(o8[j], want, "{b} many512 n={n} lane {j} len={}", msgs[j].len());
                        }
                        if let Some((_, k)) = k1024 {
                            let mut o16 = [[0u64; 16]; 2];
                            k(&msgs[..n], &iv16, &mut o16[..n]);
                            for j in 0..n {
                                let want = Backend::Portable.finish1024(&iv16, &pad(msgs[j], 128));
                                assert_eq!(o16[j], want, "{b} many1024 n={n} lane {j} len={}", msgs[j].len());
                            }
                        }
                    }
                }
            }
        }
        assert!(arm_many1024(Backend::Armv8Aes).is_some());
    }

    #[test]
    fn transpose_is_an_involution() {
        for p in 0..64 {
            assert_eq!(TRANSPOSE[TRANSPOSE[p] as usize] as usize, p);
        }
    }
}
