//! `u32x2`: two lanes per machine word, the ARM11 technique of Wiggers' "Prøst on ARM11".
//!
//! Prøst-128 keeps two 16-bit lanes in each `u32`; Prøst-256 applies the same layout with two
//! 32-bit lanes in each `u64` (so this backend is available for both variants). Word `k`
//! (k = 0..8) holds lane `k` (planes 0 and 1) in its low half and lane `k + 8` (planes 2 and 3)
//! in its high half. This pairing makes every step word-parallel:
//!
//! * **SubRows** acts on rows of one plane, and the paired lanes come from planes `i` and `i + 2`
//!   at the same row position, so the S-box runs on both halves at once (4 words per plane pair).
//! * **MixSlices** has block form `M = [[A, B], [B, A]]` with 8 × 8 blocks (row `k + 8` of M is
//!   row `k` with its halves swapped), so with `W = (v_lo | v_hi << w)` the layer is
//!   `W' = A·W ^ swap(B·W)`: 10 + 18 XORs for the two blocks, 8 half-swaps (rotations by w) and
//!   8 combining XORs, i.e. 36 word XORs for 16 lanes.
//! * **ShiftPlanes** rotates each half by its own plane's amount.
//! * **AddConstants** XORs a table of pre-paired round constants (public, indexed by round).
//!
//! Constant time: no tables indexed by secrets, no secret-dependent branches.

use crate::lane::{Lane, State};
use core::ops::{BitAnd, BitXor};

/// A lane type that can be paired into a double-width word.
pub(crate) trait Paired: Lane {
    /// The double-width word.
    type W: Copy + BitXor<Output = Self::W> + BitAnd<Output = Self::W>;
    /// Paired round constants: `RC2[r][k] = RC[r][k] | RC[r][k + 8] << w`.
    const RC2: &'static [[Self::W; 8]];
    /// `lo | hi << w`.
    fn pack(lo: Self, hi: Self) -> Self::W;
    /// Inverse of [`Paired::pack`].
    fn unpack(w: Self::W) -> (Self, Self);
    /// Swaps the halves (rotation by w bits).
    fn swap(w: Self::W) -> Self::W;
    /// Rotates the low half right by `lo` and the high half right by `hi` bits.
    fn rotr2(w: Self::W, lo: u32, hi: u32) -> Self::W;
    /// Rotates the low half left by `lo` and the high half left by `hi` bits.
    fn rotl2(w: Self::W, lo: u32, hi: u32) -> Self::W;
}

const fn rc2_128() -> [[u32; 8]; 16] {
    let mut t = [[0u32; 8]; 16];
    let rc = crate::lane::C128;
    let mut r = 0;
    while r < 16 {
        let mut k = 0;
        while k < 8 {
            let lo = rc[k % 2].rotate_left(((r + k) % 16) as u32) as u32;
            let hi = rc[(k + 8) % 2].rotate_left(((r + k + 8) % 16) as u32) as u32;
            t[r][k] = lo | hi << 16;
            k += 1;
        }
        r += 1;
    }
    t
}

const fn rc2_256() -> [[u64; 8]; 18] {
    let mut t = [[0u64; 8]; 18];
    let rc = crate::lane::C256;
    let mut r = 0;
    while r < 18 {
        let mut k = 0;
        while k < 8 {
            let lo = rc[k % 2].rotate_left(((r + k) % 32) as u32) as u64;
            let hi = rc[(k + 8) % 2].rotate_left(((r + k + 8) % 32) as u32) as u64;
            t[r][k] = lo | hi << 32;
            k += 1;
        }
        r += 1;
    }
    t
}

static RC2_128: [[u32; 8]; 16] = rc2_128();
static RC2_256: [[u64; 8]; 18] = rc2_256();

impl Paired for u16 {
    type W = u32;
    const RC2: &'static [[u32; 8]] = &RC2_128;
    #[inline(always)]
    fn pack(lo: u16, hi: u16) -> u32 {
        lo as u32 | (hi as u32) << 16
    }
    #[inline(always)]
    fn unpack(w: u32) -> (u16, u16) {
        (w as u16, (w >> 16) as u16)
    }
    #[inline(always)]
    fn swap(w: u32) -> u32 {
        w.rotate_left(16)
    }
    #[inline(always)]
    fn rotr2(w: u32, lo: u32, hi: u32) -> u32 {
        let (l, h) = Self::unpack(w);
        Self::pack(l.rotate_right(lo), h.rotate_right(hi))
    }
    #[inline(always)]
    fn rotl2(w: u32, lo: u32, hi: u32) -> u32 {
        let (l, h) = Self::unpack(w);
        Self::pack(l.rotate_left(lo), h.rotate_left(hi))
    }
}

impl Paired for u32 {
    type W = u64;
    const RC2: &'static [[u64; 8]] = &RC2_256;
    #[inline(always)]
    fn pack(lo: u32, hi: u32) -> u64 {
        lo as u64 | (hi as u64) << 32
    }
    #[inline(always)]
    fn unpack(w: u64) -> (u32, u32) {
        (w as u32, (w >> 32) as u32)
    }
    #[inline(always)]
    fn swap(w: u64) -> u64 {
        w.rotate_left(32)
    }
    #[inline(always)]
    fn rotr2(w: u64, lo: u32, hi: u32) -> u64 {
        let (l, h) = Self::unpack(w);
        Self::pack(l.rotate_right(lo), h.rotate_right(hi))
    }
    #[inline(always)]
    fn rotl2(w: u64, lo: u32, hi: u32) -> u64 {
        let (l, h) = Self::unpack(w);
        Self::pack(l.rotate_left(lo), h.rotate_left(hi))
    }
}

#[inline(always)]
fn sub_rows<L: Paired>(w: &mut [L::W; 8]) {
    for row in w.chunks_exact_mut(4) {
        crate::backend::portable::sbox_row(row);
    }
}

/// `W' = A·W ^ swap(B·W)`, where `M = [[A, B], [B, A]]`.
#[inline(always)]
fn mix_slices<L: Paired>(w: &mut [L::W; 8]) {
    let x = *w;
    let a = [
        x[0] ^ x[4] ^ x[7],
        x[1] ^ x[4],
        x[2] ^ x[5],
        x[3] ^ x[6],
        x[0] ^ x[3] ^ x[4],
        x[0] ^ x[5],
        x[1] ^ x[6],
        x[2] ^ x[7],
    ];
    let b = [
        x[2] ^ x[4] ^ x[6] ^ x[7],
        x[3] ^ x[4] ^ x[7],
        x[0] ^ x[1] ^ x[4],
        x[1] ^ x[2] ^ x[5],
        x[0] ^ x[2] ^ x[3] ^ x[6],
        x[0] ^ x[3] ^ x[7],
        x[0] ^ x[4] ^ x[5],
        x[1] ^ x[5] ^ x[6],
    ];
    for k in 0..8 {
        w[k] = a[k] ^ L::swap(b[k]);
    }
}

#[inline(always)]
fn shift_planes<L: Paired>(w: &mut [L::W; 8], r: usize) {
    let t = L::SHIFTS[r % 2];
    for k in 0..8 {
        // word k: plane k/4 in the low half, plane k/4 + 2 in the high half
        w[k] = L::rotr2(w[k], t[k / 4], t[k / 4 + 2]);
    }
}

#[inline(always)]
fn shift_planes_inv<L: Paired>(w: &mut [L::W; 8], r: usize) {
    let t = L::SHIFTS[r % 2];
    for k in 0..8 {
        w[k] = L::rotl2(w[k], t[k / 4], t[k / 4 + 2]);
    }
}

#[inline(always)]
fn add_constants<L: Paired>(w: &mut [L::W; 8], r: usize) {
    let rc = &L::RC2[r];
    for k in 0..8 {
        w[k] = w[k] ^ rc[k];
    }
}

#[inline(always)]
fn pack_state<L: Paired>(s: &State<L>) -> [L::W; 8] {
    core::array::from_fn(|k| L::pack(s[k], s[k + 8]))
}

#[inline(always)]
fn unpack_state<L: Paired>(w: &[L::W; 8], s: &mut State<L>) {
    for k in 0..8 {
        let (lo, hi) = L::unpack(w[k]);
        s[k] = lo;
        s[k + 8] = hi;
    }
}

/// P, paired lanes.
#[inline(never)]
pub(crate) fn permute<L: Paired>(s: &mut State<L>) {
    let mut w = pack_state(s);
    // Rounds in (even, odd) pairs: the rotation amounts are compile-time constants.
    let mut r = 0;
    while r < L::ROUNDS {
        for (rr, parity) in [(r, 0), (r + 1, 1)] {
            sub_rows::<L>(&mut w);
            mix_slices::<L>(&mut w);
            shift_planes::<L>(&mut w, parity);
            add_constants::<L>(&mut w, rr);
        }
        r += 2;
    }
    unpack_state(&w, s);
}

/// P^-1, paired lanes.
#[inline(never)]
pub(crate) fn inverse<L: Paired>(s: &mut State<L>) {
    let mut w = pack_state(s);
    let mut r = L::ROUNDS;
    while r > 0 {
        for (rr, parity) in [(r - 1, 1), (r - 2, 0)] {
            add_constants::<L>(&mut w, rr);
            shift_planes_inv::<L>(&mut w, parity);
            mix_slices::<L>(&mut w);
            sub_rows::<L>(&mut w);
        }
        r -= 2;
    }
    unpack_state(&w, s);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paired_mix_slices_equals_the_matrix() {
        let x: [u16; 16] = core::array::from_fn(|i| 0x9e37u16.wrapping_mul(i as u16 + 3));
        let mut w = pack_state::<u16>(&x);
        mix_slices::<u16>(&mut w);
        let mut y = [0u16; 16];
        unpack_state(&w, &mut y);
        assert_eq!(y, crate::backend::portable::mix_slices_naive(x));
    }

    #[test]
    fn paired_constants_match_the_lane_table() {
        for r in 0..16 {
            for k in 0..8 {
                assert_eq!(RC2_128[r][k], <u16 as Paired>::pack(u16::RC[r][k], u16::RC[r][k + 8]));
            }
        }
        for r in 0..18 {
            for k in 0..8 {
                assert_eq!(RC2_256[r][k], <u32 as Paired>::pack(u32::RC[r][k], u32::RC[r][k + 8]));
            }
        }
    }
}
