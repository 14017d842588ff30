//! `mcu`: a low-memory bytesliced backend for microcontrollers (Cortex-M0/M4, AVR), after the
//! Cortex-M0 implementation of paper [V] §6, but constant-time.
//!
//! The state is kept as its eight rows, one word per row (`u64` for the 512-bit permutations,
//! `u128` for the 1024-bit ones; column `c` in byte `c` of the word), so that
//!
//! * AddRoundConstant is one XOR on row 0 (P) or on every row (Q),
//! * ShiftBytes is one rotation per row,
//! * MixBytes works on whole rows: 48 row XORs and 16 row doublings with the shared-term
//!   formula (`t = a_i ⊕ a_{i+1}`, `x = t_i ⊕ t_{i+3}`, `y = t_i ⊕ t_{i+2} ⊕ a_{i+6}`,
//!   `b_i = 2·(2·x_{i+3} ⊕ y_{i+7}) ⊕ y_{i+4}`),
//! * SubBytes has no table: the eight row words are transposed into eight bit planes (three
//!   SWAPMOVE stages, an involution), the Boyar–Peralta circuit (`crate::sbox_circuit`) runs on
//!   the planes, and the same network transposes back. No secret-dependent branch or address,
//!   on any target.
//!
//! Memory: the compression function computes `P(h ⊕ m)` and then `Q(m)` in one state buffer
//! (8 rows), folding each into `h` as it finishes, so its RAM is one state plus the chaining
//! value, never a P and a Q state at once.

use crate::consts::{ROUNDS_512, ROUNDS_1024, SIGMA_P512, SIGMA_P1024, SIGMA_Q512, SIGMA_Q1024};
use crate::sbox_circuit::sbox;
use core::ops::{BitAnd, BitXor, Not, Shl, Shr};

/// A row of the state: 8 (`u64`) or 16 (`u128`) byte columns.
trait Row: Copy + BitXor<Output = Self> + BitAnd<Output = Self> + Not<Output = Self> + Shl<u32, Output = Self> + Shr<u32, Output = Self> {
    const COLS: usize;
    const ZERO: Self;
    /// Every byte equal to `b`.
    fn splat(b: u8) -> Self;
    fn byte(self, c: usize) -> u8;
    fn with_byte(self, c: usize, b: u8) -> Self;
    /// Column `c` of the result is column `(c + k) mod COLS` of `self`.
    fn shift_cols(self, k: u32) -> Self;
    /// 32-bit parts (4 columns each): every step but ShiftBytes is column-wise, so it runs on
    /// one part of all eight rows at a time, in 32-bit registers.
    const PARTS: usize = Self::COLS / 4;
    fn part(self, i: usize) -> u32;
    fn set_part(&mut self, i: usize, w: u32);
}

macro_rules! row {
    ($t:ty, $cols:expr) => {
        impl Row for $t {
            const COLS: usize = $cols;
            const ZERO: Self = 0;
            #[inline(always)]
            fn splat(b: u8) -> Self {
                <$t>::from_ne_bytes([b; $cols])
            }
            #[inline(always)]
            fn byte(self, c: usize) -> u8 {
                (self >> (8 * c)) as u8
            }
            #[inline(always)]
            fn with_byte(self, c: usize, b: u8) -> Self {
                self | (<$t>::from(b) << (8 * c))
            }
            #[inline(always)]
            fn shift_cols(self, k: u32) -> Self {
                self.rotate_right(8 * k)
            }
            #[inline(always)]
            fn part(self, i: usize) -> u32 {
                (self >> (32 * i)) as u32
            }
            #[inline(always)]
            fn set_part(&mut self, i: usize, w: u32) {
                *self = (*self & !(<$t>::from(u32::MAX) << (32 * i))) | (<$t>::from(w) << (32 * i));
            }
        }
    };
}
row!(u32, 4);
row!(u64, 8);
row!(u128, 16);

/// Doubles every byte in GF(2^8) (AES polynomial), without branches.
#[inline(always)]
fn mul2<R: Row>(x: R) -> R {
    let hi = x & R::splat(0x80);
    let lo = (x ^ hi) << 1;
    let carry = hi >> 7;
    // 0x1b = bits 0, 1, 3, 4.
    lo ^ carry ^ (carry << 1) ^ (carry << 3) ^ (carry << 4)
}

#[inline(always)]
fn swapmove<R: Row>(s: &mut [R; 8], a: usize, b: usize, shift: u32, mask: u8) {
    let t = ((s[a] >> shift) ^ s[b]) & R::splat(mask);
    s[b] = s[b] ^ t;
    s[a] = s[a] ^ (t << shift);
}

/// Transposes the 8×8 bit matrix in every byte column: afterwards word `i` holds bit `i` of
/// every byte of the eight rows (and byte `c`, bit `r` of it came from row `r`, column `c`).
/// Its own inverse.
#[inline(always)]
fn transpose<R: Row>(s: &mut [R; 8]) {
    for (shift, mask, pairs) in [(1, 0x55, [(1, 0), (3, 2), (5, 4), (7, 6)]), (2, 0x33, [(2, 0), (3, 1), (6, 4), (7, 5)]), (4, 0x0f, [(4, 0), (5, 1), (6, 2), (7, 3)])] {
        for (a, b) in pairs {
            swapmove(s, b, a, shift, mask);
        }
    }
}

/// SubBytes then MixBytes (ShiftBytes commutes with SubBytes and is done first by the caller),
/// one 32-bit part of the rows at a time.
#[inline(never)]
fn sub_mix<R: Row>(s: &mut [R; 8]) {
    // AVR has 8-bit registers: splitting buys nothing there and costs byte moves.
    if cfg!(target_arch = "avr") {
        sub_bytes(s);
        mix_bytes(s);
        return;
    }
    for i in 0..R::PARTS {
        let mut p: [u32; 8] = core::array::from_fn(|r| s[r].part(i));
        sub_bytes(&mut p);
        mix_bytes(&mut p);
        for (row, w) in s.iter_mut().zip(p) {
            row.set_part(i, w);
        }
    }
}

#[inline(always)]
fn sub_bytes<R: Row>(s: &mut [R; 8]) {
    transpose(s);
    // Word i is bit i; the circuit wants the most significant bit first.
    let out = sbox([s[7], s[6], s[5], s[4], s[3], s[2], s[1], s[0]]);
    *s = [out[7], out[6], out[5], out[4], out[3], out[2], out[1], out[0]];
    transpose(s);
}

#[inline(always)]
fn mix_bytes<R: Row>(a: &mut [R; 8]) {
    let t: [R; 8] = core::array::from_fn(|i| a[i] ^ a[(i + 1) % 8]);
    let x: [R; 8] = core::array::from_fn(|i| t[i] ^ t[(i + 3) % 8]);
    let y: [R; 8] = core::array::from_fn(|i| t[i] ^ t[(i + 2) % 8] ^ a[(i + 6) % 8]);
    let w: [R; 8] = core::array::from_fn(|i| mul2(x[i]) ^ y[(i + 4) % 8]);
    *a = core::array::from_fn(|i| mul2(w[(i + 3) % 8]) ^ y[(i + 4) % 8]);
}

/// P (`q == false`) or Q on the rows `s`.
fn permute<R: Row>(s: &mut [R; 8], q: bool, rounds: usize, sigma: &[u32; 8]) {
    // Column c of the constant row holds c << 4 (P, row 0) or its complement (Q, row 7).
    let mut base = R::ZERO;
    for c in 0..R::COLS {
        base = base.with_byte(c, (c as u8) << 4);
    }
    for round in 0..rounds {
        let rc = base ^ R::splat(round as u8);
        if q {
            for row in s.iter_mut() {
                *row = !*row;
            }
            s[7] = s[7] ^ rc;
        } else {
            s[0] = s[0] ^ rc;
        }
        // ShiftBytes before SubBytes: both are byte-wise, so they commute.
        for (row, &k) in s.iter_mut().zip(sigma) {
            *row = row.shift_cols(k);
        }
        sub_mix(s);
    }
}

/// Rows of a state given column-wise as bytes (`bytes[8c + r]`, the message layout).
#[inline(always)]
fn rows_of_bytes<R: Row>(bytes: &[u8]) -> [R; 8] {
    core::array::from_fn(|r| (0..R::COLS).fold(R::ZERO, |row, c| row.with_byte(c, bytes[8 * c + r])))
}

/// Rows of a chaining value (one big-endian word per column) XORed with a block.
#[inline(always)]
fn rows_of_words<R: Row>(h: &[u64], m: Option<&[u8]>) -> [R; 8] {
    core::array::from_fn(|r| {
        (0..R::COLS).fold(R::ZERO, |row, c| {
            let b = (h[c] >> (56 - 8 * r)) as u8 ^ m.map_or(0, |m| m[8 * c + r]);
            row.with_byte(c, b)
        })
    })
}

/// `h[c] ^=` column `c` of the rows.
#[inline(always)]
fn fold_into<R: Row>(h: &mut [u64], s: &[R; 8]) {
    for (c, w) in h.iter_mut().enumerate() {
        for (r, row) in s.iter().enumerate() {
            *w ^= u64::from(row.byte(c)) << (56 - 8 * r);
        }
    }
}

#[inline(always)]
fn compress<R: Row>(h: &mut [u64], blocks: &[u8], rounds: usize, sp: &[u32; 8], sq: &[u32; 8]) {
    for m in blocks.chunks_exact(8 * R::COLS) {
        let mut s: [R; 8] = rows_of_words(h, Some(m));
        permute(&mut s, false, rounds, sp);
        fold_into(h, &s);
        s = rows_of_bytes(m);
        permute(&mut s, true, rounds, sq);
        fold_into(h, &s);
    }
}

#[cfg(not(all(target_arch = "arm", target_os = "none")))]
pub(crate) fn compress512(h: &mut [u64; 8], blocks: &[u8]) {
    compress::<u64>(h, blocks, ROUNDS_512, &SIGMA_P512, &SIGMA_Q512);
}

#[cfg(not(all(target_arch = "arm", target_os = "none")))]
pub(crate) fn compress1024(h: &mut [u64; 16], blocks: &[u8]) {
    compress::<u128>(h, blocks, ROUNDS_1024, &SIGMA_P1024, &SIGMA_Q1024);
}

/// `P(h) ⊕ h`.
#[cfg(not(all(target_arch = "arm", target_os = "none")))]
fn output<R: Row, const N: usize>(h: &[u64; N], rounds: usize, sigma: &[u32; 8]) -> [u64; N] {
    let mut s: [R; 8] = rows_of_words(h, None);
    permute(&mut s, false, rounds, sigma);
    let mut out = *h;
    fold_into(&mut out, &s);
    out
}

#[cfg(not(all(target_arch = "arm", target_os = "none")))]
pub(crate) fn output512(h: &[u64; 8]) -> [u64; 8] {
    output::<u64, 8>(h, ROUNDS_512, &SIGMA_P512)
}

#[cfg(not(all(target_arch = "arm", target_os = "none")))]
pub(crate) fn output1024(h: &[u64; 16]) -> [u64; 16] {
    output::<u128, 16>(h, ROUNDS_1024, &SIGMA_P1024)
}

/// The last block(s) and the output transformation (no fused form: the state buffer is reused).
#[cfg(not(all(target_arch = "arm", target_os = "none")))]
pub(crate) fn finish512(h: &[u64; 8], blocks: &[u8]) -> [u64; 8] {
    let mut h = *h;
    compress512(&mut h, blocks);
    output512(&h)
}

#[cfg(not(all(target_arch = "arm", target_os = "none")))]
pub(crate) fn finish1024(h: &[u64; 16], blocks: &[u8]) -> [u64; 16] {
    let mut h = *h;
    compress1024(&mut h, blocks);
    output1024(&h)
}

// On bare-metal ARM the permutations are the Thumb-1 assembly of `mcu_thumb`.
#[cfg(all(target_arch = "arm", target_os = "none"))]
pub(crate) use super::mcu_thumb::{compress512, compress1024, finish512, finish1024, output512, output512_in_place, output1024, output1024_in_place};
#[cfg(all(target_arch = "arm", target_os = "none", feature = "mcu-small"))]
pub(crate) use super::mcu_thumb::{compress512_in, finish_padding512_in};

#[cfg(all(target_arch = "arm", not(target_os = "none")))]
pub(crate) fn output512_in_place(h: &mut [u64; 8]) {
    *h = output512(h);
}

#[cfg(all(target_arch = "arm", not(target_os = "none")))]
pub(crate) fn output1024_in_place(h: &mut [u64; 16]) {
    *h = output1024(h);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(seed: u64) {
        let mut x = seed;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let h8: [u64; 8] = core::array::from_fn(|_| next());
        let h16: [u64; 16] = core::array::from_fn(|_| next());
        let blocks: [u8; 256] = core::array::from_fn(|_| next() as u8);
        // Under Miri one block per compression (the same paths, a fraction of the time).
        let (n512, n1024) = if cfg!(miri) { (64, 128) } else { (256, 256) };
        let (mut a, mut b) = (h8, h8);
        compress512(&mut a, &blocks[..n512]);
        super::super::portable::compress512(&mut b, &blocks[..n512]);
        assert_eq!(a, b);
        assert_eq!(output512(&h8), super::super::portable::output512(&h8));
        let (mut a, mut b) = (h16, h16);
        compress1024(&mut a, &blocks[..n1024]);
        super::super::portable::compress1024(&mut b, &blocks[..n1024]);
        assert_eq!(a, b);
        assert_eq!(output1024(&h16), super::super::portable::output1024(&h16));
        let f512 = n512.min(128);
        assert_eq!(finish512(&h8, &blocks[..f512]), {
            let mut h = h8;
            super::super::portable::compress512(&mut h, &blocks[..f512]);
            super::super::portable::output512(&h)
        });
        assert_eq!(finish1024(&h16, &blocks[..n1024]), {
            let mut h = h16;
            super::super::portable::compress1024(&mut h, &blocks[..n1024]);
            super::super::portable::output1024(&h)
        });
    }

    #[test]
    fn equals_portable() {
        // One seed under Miri (seconds instead of many minutes), nineteen otherwise.
        for seed in 1..if cfg!(miri) { 2 } else { 20 } {
            check((seed as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        }
    }

    #[test]
    fn transpose_is_an_involution_that_slices_bits() {
        let s0: [u64; 8] = core::array::from_fn(|r| 0x0123_4567_89ab_cdef_u64.rotate_left(8 * r as u32 + 3));
        let mut s = s0;
        transpose(&mut s);
        for (i, plane) in s.iter().enumerate() {
            for c in 0..8 {
                for (r, row) in s0.iter().enumerate() {
                    assert_eq!((plane.byte(c) >> r) & 1, (row.byte(c) >> i) & 1);
                }
            }
        }
        transpose(&mut s);
        assert_eq!(s, s0);
    }
}
