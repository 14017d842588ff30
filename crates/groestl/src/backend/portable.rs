//! `portable`: constant-time Grøstl in plain Rust, bitsliced in general-purpose registers.
//!
//! The state is kept as eight bit-planes: plane `k` holds bit `k` of every state byte, with
//! row `r`, column `c` of the 8 × 8 matrix at bit `8r + c` of a `u64`. The 8 × 16 state of
//! the 1024-bit permutations uses a pair of such words (columns 0–7 and 8–15). Then
//! - SubBytes is the Boyar–Peralta circuit on the eight planes (no table look-ups),
//! - ShiftBytes rotates each row's bits by σ[r], in three or four masked stages,
//! - MixBytes is the 48-XOR/16-MUL2 formula of spec §9.5 on whole planes, where aligning
//!   row `i + k` with row `i` is a rotation by `8k` bits and MUL2 is three XORs,
//! - AddRoundConstant XORs precomputed planes.
//!
//! Loading a block into planes swaps two 3-bit index fields (byte-in-column and bit-in-byte)
//! with nine delta swaps; the chaining value stays bitsliced across all blocks of one call, so
//! each block costs a single transposition.

use core::ops::{BitAnd, BitXor, Not};

use crate::consts::*;
use crate::sbox_circuit::sbox;

/// A bit-plane: one bit of every byte of the state.
pub(super) trait Plane: Copy + BitXor<Output = Self> + BitAnd<Output = Self> + Not<Output = Self> {
    /// Row `i` of the result is row `(i + k) mod 8` of `self`.
    fn rows(self, k: u32) -> Self;
    /// ShiftBytes: row `r` rotated left by `sigma[r]` columns.
    fn shift_bytes(self, sigma: &[u32; 8]) -> Self;
    /// Builds a plane from the words of the 8-column halves.
    fn from_halves(lo: u64, hi: u64) -> Self;
}

pub(super) const fn rep(b: u8) -> u64 {
    b as u64 * 0x0101_0101_0101_0101
}

/// Mask of all bits of the rows whose σ has bit `s` set.
#[inline(always)]
pub(super) fn rows_with(sigma: &[u32; 8], s: u32) -> u64 {
    let mut m = 0;
    for (r, &sg) in sigma.iter().enumerate() {
        if sg & s != 0 {
            m |= 0xff << (8 * r);
        }
    }
    m
}

impl Plane for u64 {
    #[inline(always)]
    fn rows(self, k: u32) -> Self {
        self.rotate_right(8 * k)
    }

    #[inline(always)]
    fn shift_bytes(self, sigma: &[u32; 8]) -> Self {
        let mut x = self;
        for s in [1u32, 2, 4] {
            let m = rows_with(sigma, s);
            if m == 0 {
                continue;
            }
            let y = x & m;
            let low = rep(0xff >> s);
            let high = rep(!(0xff >> s));
            let rot = ((y >> s) & low) | ((y << (8 - s)) & high);
            x = (x & !m) | rot;
        }
        x
    }

    #[inline(always)]
    fn from_halves(lo: u64, _hi: u64) -> Self {
        lo
    }
}

/// Plane of the 8 × 16 state: columns 0–7 in `lo`, 8–15 in `hi`, each laid out as a `u64` plane.
#[derive(Clone, Copy, Debug, Default)]
struct Pair {
    lo: u64,
    hi: u64,
}

impl BitXor for Pair {
    type Output = Pair;
    #[inline(always)]
    fn bitxor(self, o: Pair) -> Pair {
        Pair { lo: self.lo ^ o.lo, hi: self.hi ^ o.hi }
    }
}
impl BitAnd for Pair {
    type Output = Pair;
    #[inline(always)]
    fn bitand(self, o: Pair) -> Pair {
        Pair { lo: self.lo & o.lo, hi: self.hi & o.hi }
    }
}
impl Not for Pair {
    type Output = Pair;
    #[inline(always)]
    fn not(self) -> Pair {
        Pair { lo: !self.lo, hi: !self.hi }
    }
}

impl Plane for Pair {
    #[inline(always)]
    fn rows(self, k: u32) -> Self {
        Pair { lo: self.lo.rotate_right(8 * k), hi: self.hi.rotate_right(8 * k) }
    }

    #[inline(always)]
    fn shift_bytes(self, sigma: &[u32; 8]) -> Self {
        let (mut lo, mut hi) = (self.lo, self.hi);
        for s in [1u32, 2, 4] {
            let m = rows_with(sigma, s);
            if m == 0 {
                continue;
            }
            let (ylo, yhi) = (lo & m, hi & m);
            let low = rep(0xff >> s);
            let high = rep(!(0xff >> s));
            let nlo = ((ylo >> s) & low) | ((yhi << (8 - s)) & high);
            let nhi = ((yhi >> s) & low) | ((ylo << (8 - s)) & high);
            lo = (lo & !m) | nlo;
            hi = (hi & !m) | nhi;
        }
        let m = rows_with(sigma, 8);
        let t = (lo ^ hi) & m;
        Pair { lo: lo ^ t, hi: hi ^ t }
    }

    #[inline(always)]
    fn from_halves(lo: u64, hi: u64) -> Self {
        Pair { lo, hi }
    }
}

/// P's and Q's planes side by side (Grøstl-224/256 compression): every operation of a round
/// applies to both, so the compiler can keep the pair in one 128-bit vector register.
#[derive(Clone, Copy, Debug, Default)]
struct Pq {
    p: u64,
    q: u64,
}

impl BitXor for Pq {
    type Output = Pq;
    #[inline(always)]
    fn bitxor(self, o: Pq) -> Pq {
        Pq { p: self.p ^ o.p, q: self.q ^ o.q }
    }
}
impl BitAnd for Pq {
    type Output = Pq;
    #[inline(always)]
    fn bitand(self, o: Pq) -> Pq {
        Pq { p: self.p & o.p, q: self.q & o.q }
    }
}
impl Not for Pq {
    type Output = Pq;
    #[inline(always)]
    fn not(self) -> Pq {
        Pq { p: !self.p, q: !self.q }
    }
}

impl Plane for Pq {
    #[inline(always)]
    fn rows(self, k: u32) -> Self {
        Pq { p: self.p.rotate_right(8 * k), q: self.q.rotate_right(8 * k) }
    }

    /// Ignores `sigma`: P's half uses σ_P512 and Q's half σ_Q512.
    #[inline(always)]
    fn shift_bytes(self, _sigma: &[u32; 8]) -> Self {
        Pq { p: self.p.shift_bytes(&SIGMA_P512), q: self.q.shift_bytes(&SIGMA_Q512) }
    }

    #[inline(always)]
    fn from_halves(p: u64, q: u64) -> Self {
        Pq { p, q }
    }
}

/// Round constants of P512 and Q512 side by side, for [`Pq`] planes.
const fn pq_constants() -> [[(u64, u64); 8]; ROUNDS_1024] {
    let mut out = [[(0u64, 0u64); 8]; ROUNDS_1024];
    let mut i = 0;
    while i < ROUNDS_1024 {
        let mut k = 0;
        while k < 8 {
            out[i][k] = (RC_P512[i][k].0, RC_Q512[i][k].0);
            k += 1;
        }
        i += 1;
    }
    out
}

pub(super) const RC_PQ512: [[(u64, u64); 8]; ROUNDS_1024] = pq_constants();

/// MUL2 on a bitsliced byte vector (`a[k]` = bit `k`): x·a mod 0x11b is three XORs.
#[inline(always)]
fn mul2<T: Plane>(a: [T; 8]) -> [T; 8] {
    [a[7], a[0] ^ a[7], a[1], a[2] ^ a[7], a[3] ^ a[7], a[4], a[5], a[6]]
}

#[inline(always)]
fn xor8<T: Plane>(a: [T; 8], b: [T; 8]) -> [T; 8] {
    core::array::from_fn(|k| a[k] ^ b[k])
}

#[inline(always)]
fn rows8<T: Plane>(a: [T; 8], k: u32) -> [T; 8] {
    a.map(|p| p.rows(k))
}

/// MixBytes by the eight-step in-place form of spec §9.5, on all columns at once.
#[inline(always)]
fn mix_bytes<T: Plane>(a: [T; 8]) -> [T; 8] {
    let b = xor8(a, rows8(a, 1)); // t_i = a_i + a_{i+1}
    let y = xor8(xor8(b, rows8(a, 6)), rows8(b, 2)); // y_i = t_i + t_{i+2} + a_{i+6}
    let x = xor8(b, rows8(b, 3)); // x_i = t_i + t_{i+3}
    let y4 = rows8(y, 4);
    let z = mul2(xor8(mul2(x), y4)); // 2(2x_i + y_{i+4})
    xor8(rows8(z, 3), y4) // b_i = 2(2x_{i+3} + y_{i+7}) + y_{i+4}
}

#[inline(always)]
fn sub_bytes<T: Plane>(a: [T; 8]) -> [T; 8] {
    let s = sbox([a[7], a[6], a[5], a[4], a[3], a[2], a[1], a[0]]);
    [s[7], s[6], s[5], s[4], s[3], s[2], s[1], s[0]]
}

/// Round-constant planes `[round][plane] = (columns 0–7, columns 8–15)` (spec §9.2).
const fn round_constants(q: bool, cols: usize) -> [[(u64, u64); 8]; ROUNDS_1024] {
    let mut out = [[(0u64, 0u64); 8]; ROUNDS_1024];
    let mut i = 0;
    while i < ROUNDS_1024 {
        let mut k = 0;
        while k < 8 {
            let (mut lo, mut hi) = (0u64, 0u64);
            let mut j = 0;
            while j < cols {
                let c = (16 * j as u64) ^ i as u64;
                let bit = (c >> k) & 1;
                // P: row 0; Q: row 7, on top of the all-ones constant.
                let pos = if q { 56 + (j % 8) } else { j % 8 };
                if j < 8 {
                    lo |= bit << pos;
                } else {
                    hi |= bit << pos;
                }
                j += 1;
            }
            if q {
                lo = !lo;
                hi = !hi;
            }
            out[i][k] = (lo, hi);
            k += 1;
        }
        i += 1;
    }
    out
}

const RC_P512: [[(u64, u64); 8]; ROUNDS_1024] = round_constants(false, 8);
const RC_Q512: [[(u64, u64); 8]; ROUNDS_1024] = round_constants(true, 8);
pub(super) const RC_P1024: [[(u64, u64); 8]; ROUNDS_1024] = round_constants(false, 16);
pub(super) const RC_Q1024: [[(u64, u64); 8]; ROUNDS_1024] = round_constants(true, 16);

#[inline(always)]
pub(super) fn permute<T: Plane>(
    mut a: [T; 8],
    rc: &[[(u64, u64); 8]; ROUNDS_1024],
    sigma: &[u32; 8],
    rounds: usize,
) -> [T; 8] {
    for rci in rc.iter().take(rounds) {
        for k in 0..8 {
            a[k] = a[k] ^ T::from_halves(rci[k].0, rci[k].1);
        }
        a = sub_bytes(a);
        a = a.map(|p| p.shift_bytes(sigma));
        a = mix_bytes(a);
    }
    a
}

/// Swaps index bits 0–2 (bit within byte) with the word index, in place: turns eight words
/// whose byte `r` is the row-`r` byte of column `c` (word `c`) into eight planes (word `k` =
/// bit `k`), and back, since the map is an involution.
#[inline(always)]
fn transpose(w: &mut [u64; 8]) {
    const MASKS: [u64; 3] = [rep(0x55), rep(0x33), rep(0x0f)];
    for (j, &m) in MASKS.iter().enumerate() {
        let s = 1 << j;
        for c in 0..8 {
            if c & s == 0 {
                let (a, b) = (w[c], w[c + s]);
                let t = ((a >> s) ^ b) & m;
                w[c + s] = b ^ t;
                w[c] = a ^ (t << s);
            }
        }
    }
}

/// Eight column words (big-endian, row 0 first) -> planes.
#[inline(always)]
pub(super) fn planes_from_columns(h: &[u64]) -> [u64; 8] {
    let mut w: [u64; 8] = core::array::from_fn(|c| h[c].swap_bytes());
    transpose(&mut w);
    w
}

#[inline(always)]
pub(super) fn columns_from_planes(p: [u64; 8], out: &mut [u64]) {
    let mut w = p;
    transpose(&mut w);
    for c in 0..8 {
        out[c] = w[c].swap_bytes();
    }
}

#[inline(always)]
pub(super) fn planes_from_block(block: &[u8]) -> [u64; 8] {
    let mut w: [u64; 8] =
        core::array::from_fn(|c| u64::from_le_bytes(block[8 * c..8 * c + 8].try_into().unwrap()));
    transpose(&mut w);
    w
}

fn pairs(lo: [u64; 8], hi: [u64; 8]) -> [Pair; 8] {
    core::array::from_fn(|k| Pair { lo: lo[k], hi: hi[k] })
}

fn unpair(p: [Pair; 8]) -> ([u64; 8], [u64; 8]) {
    (p.map(|x| x.lo), p.map(|x| x.hi))
}

/// Compresses whole 64-byte blocks into the chaining value (Grøstl-224/256).
pub fn compress512(h: &mut [u64; 8], blocks: &[u8]) {
    debug_assert_eq!(blocks.len() % 64, 0);
    let mut hp = planes_from_columns(h);
    for block in blocks.chunks_exact(64) {
        let m = planes_from_block(block);
        // P(h + m) and Q(m) in one pass over paired planes.
        let pq: [Pq; 8] = core::array::from_fn(|k| Pq { p: hp[k] ^ m[k], q: m[k] });
        let out = permute(pq, &RC_PQ512, &SIGMA_P512, ROUNDS_512);
        hp = core::array::from_fn(|k| hp[k] ^ out[k].p ^ out[k].q);
    }
    columns_from_planes(hp, h);
}

/// Output transformation `P(h) ⊕ h` for Grøstl-224/256.
pub fn output512(h: &[u64; 8]) -> [u64; 8] {
    let hp = planes_from_columns(h);
    let mut out = [0u64; 8];
    columns_from_planes(xor8(permute(hp, &RC_P512, &SIGMA_P512, ROUNDS_512), hp), &mut out);
    out
}

/// Compresses whole 128-byte blocks into the chaining value (Grøstl-384/512).
pub fn compress1024(h: &mut [u64; 16], blocks: &[u8]) {
    debug_assert_eq!(blocks.len() % 128, 0);
    let mut hp = pairs(planes_from_columns(&h[..8]), planes_from_columns(&h[8..]));
    for block in blocks.chunks_exact(128) {
        let m = pairs(planes_from_block(&block[..64]), planes_from_block(&block[64..]));
        let p = permute(xor8(hp, m), &RC_P1024, &SIGMA_P1024, ROUNDS_1024);
        let q = permute(m, &RC_Q1024, &SIGMA_Q1024, ROUNDS_1024);
        hp = xor8(xor8(hp, p), q);
    }
    let (lo, hi) = unpair(hp);
    columns_from_planes(lo, &mut h[..8]);
    columns_from_planes(hi, &mut h[8..]);
}

/// Output transformation `P(h) ⊕ h` for Grøstl-384/512.
pub fn output1024(h: &[u64; 16]) -> [u64; 16] {
    let hp = pairs(planes_from_columns(&h[..8]), planes_from_columns(&h[8..]));
    let (lo, hi) = unpair(xor8(permute(hp, &RC_P1024, &SIGMA_P1024, ROUNDS_1024), hp));
    let mut out = [0u64; 16];
    columns_from_planes(lo, &mut out[..8]);
    columns_from_planes(hi, &mut out[8..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::needless_range_loop)] // (c, r, k) index three arrays at once
    fn transpose_is_an_involution_and_slices_bits() {
        let mut w: [u64; 8] = core::array::from_fn(|i| 0x0123_4567_89ab_cdefu64.rotate_left(7 * i as u32) ^ i as u64);
        let orig = w;
        transpose(&mut w);
        for c in 0..8 {
            for r in 0..8 {
                let byte = (orig[c] >> (8 * r)) as u8;
                for k in 0..8 {
                    assert_eq!((w[k] >> (8 * r + c)) & 1, ((byte >> k) & 1) as u64);
                }
            }
        }
        transpose(&mut w);
        assert_eq!(w, orig);
    }

    #[test]
    fn round0_of_p_on_zero_state_matches_spec_worked_example() {
        // Spec §11: the state after round 0 of P512 on the all-zero state.
        let want = "a5a5a5a5a5a5a5a5ecd79e459e3745ec16bf0cc20cd8c2166b8b450c45220c6b71a87c1b7c161b71c53555f55565f5c5d891ec6bec5f6bd8c13b5ff35f6df3c1";
        let a = permute([0u64; 8], &RC_P512, &SIGMA_P512, 1);
        let mut cols = [0u64; 8];
        columns_from_planes(a, &mut cols);
        let got: String = cols.iter().map(|c| format!("{c:016x}")).collect();
        assert_eq!(got, want);
    }
}
