//! Lane words and the constants of the two Prøst permutations.
//!
//! The lane width fixes the variant: `u16` lanes are Prøst-128, `u32` lanes are Prøst-256, so the
//! round count, the constants and the rotation amounts hang off the lane type and every backend is
//! written once, generic over [`Lane`].

use core::fmt::Debug;
use core::ops::{BitAnd, BitXor, BitXorAssign};

mod sealed {
    pub trait Sealed {}
    impl Sealed for u16 {}
    impl Sealed for u32 {}
}

/// A Prøst lane: `u16` (Prøst-128) or `u32` (Prøst-256). Sealed.
pub trait Lane:
    sealed::Sealed
    + Copy
    + Debug
    + Default
    + Eq
    + Send
    + Sync
    + 'static
    + BitXor<Output = Self>
    + BitXorAssign
    + BitAnd<Output = Self>
    + zeroize::Zeroize
{
    /// Lane width in bits (16 or 32).
    const BITS: u32;
    /// Lane width in bytes.
    const BYTES: usize;
    /// Number of rounds R (16 or 18).
    const ROUNDS: usize;
    /// The all-zero lane.
    const ZERO: Self;
    /// ShiftPlanes rotation amounts (to the right) `T[r mod 2][plane]`.
    const SHIFTS: [[u32; 4]; 2];
    /// AddConstants values `RC[r][k] = ROTL(C_(k mod 2), (r + k) mod w)`: public constants, indexed
    /// only by the (public) round number.
    const RC: &'static [[Self; 16]];

    /// Rotates right by `n` bits (`n < BITS`).
    fn rotr(self, n: u32) -> Self;
    /// Rotates left by `n` bits (`n < BITS`).
    fn rotl(self, n: u32) -> Self;
    /// Reads a little-endian lane from `b` (`b.len() == BYTES`).
    fn load_le(b: &[u8]) -> Self;
    /// Writes the lane little-endian into `b` (`b.len() == BYTES`).
    fn store_le(self, b: &mut [u8]);
}

/// Prøst-128 round constants C0, C1.
pub const C128: [u16; 2] = [0x7581, 0xb2c5];
/// Prøst-256 round constants C0, C1.
pub const C256: [u32; 2] = [0x7581_7b9d, 0xb2c5_fef0];

pub(crate) const fn rc128() -> [[u16; 16]; 16] {
    let mut t = [[0u16; 16]; 16];
    let mut r = 0;
    while r < 16 {
        let mut k = 0;
        while k < 16 {
            t[r][k] = C128[k % 2].rotate_left(((r + k) % 16) as u32);
            k += 1;
        }
        r += 1;
    }
    t
}

pub(crate) const fn rc256() -> [[u32; 16]; 18] {
    let mut t = [[0u32; 16]; 18];
    let mut r = 0;
    while r < 18 {
        let mut k = 0;
        while k < 16 {
            t[r][k] = C256[k % 2].rotate_left(((r + k) % 32) as u32);
            k += 1;
        }
        r += 1;
    }
    t
}

static RC128: [[u16; 16]; 16] = rc128();
static RC256: [[u32; 16]; 18] = rc256();

impl Lane for u16 {
    const BITS: u32 = 16;
    const BYTES: usize = 2;
    const ROUNDS: usize = 16;
    const ZERO: Self = 0;
    const SHIFTS: [[u32; 4]; 2] = [[0, 2, 4, 6], [0, 1, 8, 9]];
    const RC: &'static [[Self; 16]] = &RC128;
    #[inline(always)]
    fn rotr(self, n: u32) -> Self {
        self.rotate_right(n)
    }
    #[inline(always)]
    fn rotl(self, n: u32) -> Self {
        self.rotate_left(n)
    }
    #[inline(always)]
    fn load_le(b: &[u8]) -> Self {
        u16::from_le_bytes([b[0], b[1]])
    }
    #[inline(always)]
    fn store_le(self, b: &mut [u8]) {
        b.copy_from_slice(&self.to_le_bytes());
    }
}

impl Lane for u32 {
    const BITS: u32 = 32;
    const BYTES: usize = 4;
    const ROUNDS: usize = 18;
    const ZERO: Self = 0;
    const SHIFTS: [[u32; 4]; 2] = [[0, 4, 12, 26], [1, 24, 26, 31]];
    const RC: &'static [[Self; 16]] = &RC256;
    #[inline(always)]
    fn rotr(self, n: u32) -> Self {
        self.rotate_right(n)
    }
    #[inline(always)]
    fn rotl(self, n: u32) -> Self {
        self.rotate_left(n)
    }
    #[inline(always)]
    fn load_le(b: &[u8]) -> Self {
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }
    #[inline(always)]
    fn store_le(self, b: &mut [u8]) {
        b.copy_from_slice(&self.to_le_bytes());
    }
}

/// A Prøst state: 16 lanes, lane `k = 4·plane + position`.
pub type State<L> = [L; 16];

/// Reads a state from its byte string (`bytes.len() == 16 * L::BYTES`), lanes little-endian.
#[inline]
pub fn load_state<L: Lane>(bytes: &[u8]) -> State<L> {
    assert_eq!(bytes.len(), 16 * L::BYTES, "state byte length");
    let mut s = [L::ZERO; 16];
    for (lane, chunk) in s.iter_mut().zip(bytes.chunks_exact(L::BYTES)) {
        *lane = L::load_le(chunk);
    }
    s
}

/// Writes a state as its byte string (`bytes.len() == 16 * L::BYTES`).
#[inline]
pub fn store_state<L: Lane>(s: &State<L>, bytes: &mut [u8]) {
    assert_eq!(bytes.len(), 16 * L::BYTES, "state byte length");
    for (lane, chunk) in s.iter().zip(bytes.chunks_exact_mut(L::BYTES)) {
        lane.store_le(chunk);
    }
}
