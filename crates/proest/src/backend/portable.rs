//! `portable`: a direct transcription of the reference round function.
//!
//! SubRows on whole lanes, MixSlices as the 72-XOR row-by-row product with the matrix (as in the
//! SUPERCOP `ref` code), ShiftPlanes as lane rotations, AddConstants from the round table.
//! Branch-free and table-free apart from the public round-constant table indexed by the
//! round number: constant time.

use core::ops::{BitAnd, BitXor};

use crate::lane::{Lane, State};

/// The S-box on one row `(a, b, c, d)` of whole words, bitsliced (any word type: lanes, paired
/// lanes, SIMD registers).
#[inline(always)]
pub(crate) fn sbox_row<T>(row: &mut [T]) where T: Copy + BitAnd<Output = T> + BitXor<Output = T> {
    let (a, b, c, d) = (row[0], row[1], row[2], row[3]);
    let a2 = c ^ (a & b);
    let b2 = d ^ (b & c);
    row[0] = a2;
    row[1] = b2;
    row[2] = a ^ (a2 & b2);
    row[3] = b ^ (b2 & row[2]);
}

/// SubRows: the 4-bit S-box applied bitsliced to every row (a, b, c, d) of every plane.
#[inline(always)]
pub(crate) fn sub_rows<L: Lane>(s: &mut State<L>) {
    for row in s.chunks_exact_mut(4) {
        sbox_row(row);
    }
}

/// MixSlices, one output lane per matrix row: 16 rows, 88 ones, 72 XORs.
#[inline(always)]
pub(crate) fn mix_slices_naive<T: Copy + core::ops::BitXor<Output = T>>(x: [T; 16]) -> [T; 16] {
    [
        x[0] ^ x[4] ^ x[7] ^ x[10] ^ x[12] ^ x[14] ^ x[15],
        x[1] ^ x[4] ^ x[11] ^ x[12] ^ x[15],
        x[2] ^ x[5] ^ x[8] ^ x[9] ^ x[12],
        x[3] ^ x[6] ^ x[9] ^ x[10] ^ x[13],
        x[0] ^ x[3] ^ x[4] ^ x[8] ^ x[10] ^ x[11] ^ x[14],
        x[0] ^ x[5] ^ x[8] ^ x[11] ^ x[15],
        x[1] ^ x[6] ^ x[8] ^ x[12] ^ x[13],
        x[2] ^ x[7] ^ x[9] ^ x[13] ^ x[14],
        x[2] ^ x[4] ^ x[6] ^ x[7] ^ x[8] ^ x[12] ^ x[15],
        x[3] ^ x[4] ^ x[7] ^ x[9] ^ x[12],
        x[0] ^ x[1] ^ x[4] ^ x[10] ^ x[13],
        x[1] ^ x[2] ^ x[5] ^ x[11] ^ x[14],
        x[0] ^ x[2] ^ x[3] ^ x[6] ^ x[8] ^ x[11] ^ x[12],
        x[0] ^ x[3] ^ x[7] ^ x[8] ^ x[13],
        x[0] ^ x[4] ^ x[5] ^ x[9] ^ x[14],
        x[1] ^ x[5] ^ x[6] ^ x[10] ^ x[15],
    ]
}

/// ShiftPlanes of round `r`: rotate every lane of plane i right by `T[r mod 2][i]`.
#[inline(always)]
pub(crate) fn shift_planes<L: Lane>(s: &mut State<L>, r: usize) {
    let t = L::SHIFTS[r % 2];
    for k in 0..16 {
        s[k] = s[k].rotr(t[k / 4]);
    }
}

/// Inverse ShiftPlanes of round `r` (rotate left).
#[inline(always)]
pub(crate) fn shift_planes_inv<L: Lane>(s: &mut State<L>, r: usize) {
    let t = L::SHIFTS[r % 2];
    for k in 0..16 {
        s[k] = s[k].rotl(t[k / 4]);
    }
}

/// AddConstants of round `r`.
#[inline(always)]
pub(crate) fn add_constants<L: Lane>(s: &mut State<L>, r: usize) {
    let rc = &L::RC[r];
    for k in 0..16 {
        s[k] ^= rc[k];
    }
}

/// The permutation P with the given MixSlices implementation.
#[inline(always)]
pub(crate) fn permute_with<L: Lane>(s: &mut State<L>, mix: impl Fn([L; 16]) -> [L; 16]) {
    for r in 0..L::ROUNDS {
        sub_rows(s);
        *s = mix(*s);
        shift_planes(s, r);
        add_constants(s, r);
    }
}

/// The inverse permutation P^-1 with the given MixSlices implementation (M is an involution,
/// the S-box too).
#[inline(always)]
pub(crate) fn inverse_with<L: Lane>(s: &mut State<L>, mix: impl Fn([L; 16]) -> [L; 16]) {
    for r in (0..L::ROUNDS).rev() {
        add_constants(s, r);
        shift_planes_inv(s, r);
        *s = mix(*s);
        sub_rows(s);
    }
}

/// P, portable backend.
#[inline(never)]
pub(crate) fn permute<L: Lane>(s: &mut State<L>) {
    permute_with(s, mix_slices_naive::<L>);
}

/// P^-1, portable backend.
#[inline(never)]
pub(crate) fn inverse<L: Lane>(s: &mut State<L>) {
    inverse_with(s, mix_slices_naive::<L>);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sbox_matches_spec_and_is_an_involution() {
        // Bit z of lanes (a, b, c, d) forms the nibble a·8 + b·4 + c·2 + d.
        const S: [u16; 16] = [0x0, 0x4, 0x8, 0xF, 0x1, 0x5, 0xE, 0x9, 0x2, 0x7, 0xA, 0xC, 0xB, 0xD, 0x6, 0x3];
        let mut s = [0u16; 16];
        for x in 0..16u16 {
            for j in 0..4 {
                // put nibble x into bit position x of plane 0
                if x >> (3 - j) & 1 == 1 {
                    s[j] |= 1 << x;
                }
            }
        }
        sub_rows(&mut s);
        for x in 0..16u16 {
            let y = (0..4).fold(0u16, |acc, j| acc << 1 | (s[j] >> x & 1));
            assert_eq!(y, S[x as usize], "S({x:#x})");
            assert_eq!(S[S[x as usize] as usize], x);
        }
    }

    #[test]
    fn mix_slices_is_an_involution() {
        let x: [u32; 16] = core::array::from_fn(|i| 0x9e37_79b9u32.wrapping_mul(i as u32 + 1));
        assert_eq!(mix_slices_naive(mix_slices_naive(x)), x);
    }
}
