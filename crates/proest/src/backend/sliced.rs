//! The lane-sliced round function, written once for every SIMD word type.
//!
//! A lane-sliced state is 16 words; word `k` holds lane `k` of N independent states (one state
//! per SIMD element). Then every step of a round is a handful of whole-register operations:
//!
//! * **SubRows**: the bitsliced S-box of [`crate::backend::portable::sbox_row`] on the four
//!   registers of each plane (LLVM turns the AND/XOR pairs into `vpternlog` when AVX-512 is on);
//! * **MixSlices**: the generated XOR program [`crate::generated::mixslices::mix_slices`] on the
//!   registers (again fused into 3-input `vpternlog` XORs with AVX-512);
//! * **ShiftPlanes**: one rotation per register ([`Word::shift_planes`]);
//! * **AddConstants**: one XOR per register with the round constant broadcast to every element.
//!
//! Everything here is `#[inline(always)]`: it is instantiated inside the `#[target_feature]`
//! kernels of the SIMD backends and compiled with their features.

use core::ops::{BitAnd, BitXor};

use crate::backend::portable::sbox_row;
use crate::generated::mixslices::mix_slices;
use crate::lane::Lane;

/// A SIMD register holding one lane of several states.
pub(crate) trait Word: Copy + BitXor<Output = Self> + BitAnd<Output = Self> {
    /// The lane type (fixes the variant).
    type L: Lane;
    /// The round constant `RC[r][k]` in every element.
    fn rc(r: usize, k: usize) -> Self;
    /// ShiftPlanes of an even (`odd == false`) or odd round: rotate plane `i` right by
    /// `L::SHIFTS[odd][i]`.
    fn shift_planes(s: &mut [Self; 16], odd: bool);
    /// Inverse ShiftPlanes (rotate left).
    fn shift_planes_inv(s: &mut [Self; 16], odd: bool);
}

#[inline(always)]
fn sub_rows<W: Word>(s: &mut [W; 16]) {
    for row in s.chunks_exact_mut(4) {
        sbox_row(row);
    }
}

#[inline(always)]
fn add_constants<W: Word>(s: &mut [W; 16], r: usize) {
    for k in 0..16 {
        s[k] = s[k] ^ W::rc(r, k);
    }
}

#[inline(always)]
fn round<W: Word>(s: &mut [W; 16], r: usize, odd: bool) {
    sub_rows(s);
    *s = mix_slices(*s);
    W::shift_planes(s, odd);
    add_constants(s, r);
}

#[inline(always)]
fn round_inv<W: Word>(s: &mut [W; 16], r: usize, odd: bool) {
    add_constants(s, r);
    W::shift_planes_inv(s, odd);
    *s = mix_slices(*s);
    sub_rows(s);
}

/// P on every state of a lane-sliced batch (rounds two at a time, so the rotation amounts are
/// compile-time constants).
#[inline(always)]
pub(crate) fn permute<W: Word>(s: &mut [W; 16]) {
    let mut r = 0;
    while r < W::L::ROUNDS {
        round(s, r, false);
        round(s, r + 1, true);
        r += 2;
    }
}

/// P^-1 on every state of a lane-sliced batch.
#[inline(always)]
pub(crate) fn inverse<W: Word>(s: &mut [W; 16]) {
    let mut r = W::L::ROUNDS;
    while r > 0 {
        round_inv(s, r - 1, true);
        round_inv(s, r - 2, false);
        r -= 2;
    }
}

/// Defines a SIMD word newtype `$w` over the register type `$reg` with `^` and `&` from the
/// given intrinsics. The type's invariant: values exist only inside the `#[target_feature]`
/// kernels of the defining module, which run only after its `available()` confirmed the
/// features.
macro_rules! simd_word {
    ($w:ident, $reg:ty, $xor:ident, $and:ident) => {
        /// A register of lane-sliced states (see `sliced::simd_word!` for the invariant).
        #[derive(Clone, Copy)]
        #[repr(transparent)]
        struct $w($reg);

        impl core::ops::BitXor for $w {
            type Output = Self;
            #[inline(always)]
            fn bitxor(self, o: Self) -> Self {
                // SAFETY: a value of this type exists only inside a kernel whose features
                // `available()` confirmed (the type's invariant).
                $w(unsafe { $xor(self.0, o.0) })
            }
        }

        impl core::ops::BitAnd for $w {
            type Output = Self;
            #[inline(always)]
            fn bitand(self, o: Self) -> Self {
                // SAFETY: as for `bitxor`.
                $w(unsafe { $and(self.0, o.0) })
            }
        }

        impl zeroize::Zeroize for $w {
            #[inline]
            fn zeroize(&mut self) {
                self.0.zeroize();
            }
        }
    };
}
pub(crate) use simd_word;

/// Implements [`Word`] for a newtype made by `simd_word!`: `$rot!(x, n)` rotates every element
/// right by the literal `n`; `$rc(r, k)` broadcasts the round constant. The rotation amounts are
/// `L::SHIFTS` spelled out as literals (right rotations, and `w - t` for the inverse), checked
/// against `L::SHIFTS` by the unit test below.
macro_rules! word_impl {
    ($w:ident, u16, $rot:ident, $rc:expr) => {
        $crate::backend::sliced::word_impl!(@ $w, u16, $rot, $rc,
            [0, 2, 4, 6], [0, 1, 8, 9], [0, 14, 12, 10], [0, 15, 8, 7]);
    };
    ($w:ident, u32, $rot:ident, $rc:expr) => {
        $crate::backend::sliced::word_impl!(@ $w, u32, $rot, $rc,
            [0, 4, 12, 26], [1, 24, 26, 31], [0, 28, 20, 6], [31, 8, 6, 1]);
    };
    (@ $w:ident, $lane:ty, $rot:ident, $rc:expr, $even:tt, $odd:tt, $even_inv:tt, $odd_inv:tt) => {
        impl $crate::backend::sliced::Word for $w {
            type L = $lane;
            #[inline(always)]
            fn rc(r: usize, k: usize) -> Self {
                // SAFETY: a value of this type exists only inside a kernel whose features
                // `available()` confirmed (the type's invariant).
                $w(unsafe { $rc(r, k) })
            }
            #[inline(always)]
            fn shift_planes(s: &mut [Self; 16], odd: bool) {
                if odd {
                    $crate::backend::sliced::word_impl!(@planes s, $w, $rot, $odd);
                } else {
                    $crate::backend::sliced::word_impl!(@planes s, $w, $rot, $even);
                }
            }
            #[inline(always)]
            fn shift_planes_inv(s: &mut [Self; 16], odd: bool) {
                if odd {
                    $crate::backend::sliced::word_impl!(@planes s, $w, $rot, $odd_inv);
                } else {
                    $crate::backend::sliced::word_impl!(@planes s, $w, $rot, $even_inv);
                }
            }
        }
    };
    (@planes $s:ident, $w:ident, $rot:ident, [$t0:tt, $t1:tt, $t2:tt, $t3:tt]) => {{
        // SAFETY: a value of `$w` exists only inside a kernel whose features `available()`
        // confirmed (the type's invariant).
        unsafe {
            for k in 0..4 {
                $s[k] = $w($rot!($s[k].0, $t0));
                $s[4 + k] = $w($rot!($s[4 + k].0, $t1));
                $s[8 + k] = $w($rot!($s[8 + k].0, $t2));
                $s[12 + k] = $w($rot!($s[12 + k].0, $t3));
            }
        }
    }};
}
pub(crate) use word_impl;

/// `RC[r][k]` of Prøst-128 doubled into a 32-bit word (`c · 0x10001`), so that a 16-bit
/// constant can be broadcast with a 32-bit broadcast (an embedded `{1to16}` operand on AVX-512).
pub(crate) static RC128_DUP: [[u32; 16]; 16] = {
    let rc = crate::lane::rc128();
    let mut t = [[0u32; 16]; 16];
    let mut r = 0;
    while r < 16 {
        let mut k = 0;
        while k < 16 {
            t[r][k] = rc[r][k] as u32 * 0x1_0001;
            k += 1;
        }
        r += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use crate::lane::Lane;

    /// The literal rotation amounts in `word_impl!` are `L::SHIFTS` (and `w - t` inverses).
    #[test]
    fn word_impl_shift_literals_match_the_lane_tables() {
        assert_eq!(u16::SHIFTS, [[0, 2, 4, 6], [0, 1, 8, 9]]);
        assert_eq!(u32::SHIFTS, [[0, 4, 12, 26], [1, 24, 26, 31]]);
        let inv = |t: [u32; 4], w: u32| t.map(|x| (w - x) % w);
        assert_eq!(inv(u16::SHIFTS[0], 16), [0, 14, 12, 10]);
        assert_eq!(inv(u16::SHIFTS[1], 16), [0, 15, 8, 7]);
        assert_eq!(inv(u32::SHIFTS[0], 32), [0, 28, 20, 6]);
        assert_eq!(inv(u32::SHIFTS[1], 32), [31, 8, 6, 1]);
    }
}
