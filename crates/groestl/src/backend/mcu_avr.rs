//! `mcu` on AVR: the Grøstl permutations in hand-written assembly (`mcu_avr.S`), one
//! compression per call.
//!
//! * The state is 64 or 128 bytes in RAM, column by column, each column laid out like one
//!   little-endian `u64` of the chaining value (row 0 in its last byte), so `h` is XORed in and
//!   out without reordering; the message is reordered while it is XORed in.
//! * SubBytes and the doublings of MixBytes are `LPM` look-ups in 256-byte tables in flash
//!   (S-box, S-box of the complement for Q, `2·x`). On AVR `LPM` takes 3 cycles at every
//!   address: no AVR core has a data cache or a flash buffer whose state depends on the
//!   address, so the kernels are constant-time (no secret-dependent branch either; the only
//!   branches count rounds and columns).
//! * MixBytes uses the shared-term formula of paper [A] §4.3 (48 XORs, 16 doublings per
//!   column), the column in 8 registers and its 8 temporaries in 8 more.
//! * The compression computes `P(h ⊕ m)` and then `Q(m)` in one state area, folding each into
//!   `h` as it finishes.
//!
//! Two Grøstl-224/256 kernels: by default the fast one reads each round from one 64-byte buffer
//! and writes the next (ShiftBytes folded into the load displacements, columns unrolled, 128
//! bytes of state); with the `mcu-small` feature the in-place one rotates the rows in place and
//! then runs the column pass on the same 64 bytes. Grøstl-384/512 always uses the in-place
//! kernel (128 bytes).
#![allow(unsafe_code)]

use core::mem::MaybeUninit;

core::arch::global_asm!(include_str!("mcu_avr.S"), options(raw));

// SAFETY (for every declaration): the symbols are defined in `mcu_avr.S` with avr-gcc's
// calling convention (`extern "C"` on AVR): arguments in r25:r24, r23:r22, r21:r20; r2–r17
// and r28–r29 saved and restored, r1 cleared before returning.
unsafe extern "C" {
    /// One compression: `h` (64 bytes, as `[u64; 8]` in memory) ← `h ⊕ P(h ⊕ m) ⊕ Q(m)`;
    /// `m` 64 bytes; `st` 128 bytes of scratch (fast) or 64 (small), written before read.
    #[cfg(not(feature = "mcu-small"))]
    fn sw_groestl_avr_fast_block512(h: *mut u8, m: *const u8, st: *mut u8);
    /// `h ← h ⊕ P(st)`, `st` (128 bytes, the state in the first 64) clobbered.
    #[cfg(not(feature = "mcu-small"))]
    fn sw_groestl_avr_fast_p512(h: *mut u8, st: *mut u8);
    #[cfg(feature = "mcu-small")]
    fn sw_groestl_avr_small_block512(h: *mut u8, m: *const u8, st: *mut u8);
    /// `h ← h ⊕ P(st)`, `st` (64 bytes) clobbered.
    #[cfg(feature = "mcu-small")]
    fn sw_groestl_avr_small_p512(h: *mut u8, st: *mut u8);
    /// `h ← h ⊕ Q(st)`, `st` (64 bytes) clobbered.
    #[cfg(feature = "mcu-small")]
    fn sw_groestl_avr_small_q512(h: *mut u8, st: *mut u8);
    /// As `block512` with 128-byte `h`, `m` and `st`.
    fn sw_groestl_avr_block1024(h: *mut u8, m: *const u8, st: *mut u8);
    /// `h ← h ⊕ P(st)` (1024-bit), `st` 128 bytes, clobbered.
    fn sw_groestl_avr_p1024(h: *mut u8, st: *mut u8);
}

#[cfg(not(feature = "mcu-small"))]
use {sw_groestl_avr_fast_block512 as block512, sw_groestl_avr_fast_p512 as p512};
#[cfg(feature = "mcu-small")]
use {sw_groestl_avr_small_block512 as block512, sw_groestl_avr_small_p512 as p512};

/// Bytes of state the Grøstl-224/256 kernel needs.
const ST512: usize = if cfg!(feature = "mcu-small") { 64 } else { 128 };
const ST1024: usize = 128;

type Block = unsafe extern "C" fn(*mut u8, *const u8, *mut u8);
type Perm = unsafe extern "C" fn(*mut u8, *mut u8);

/// Compresses the whole blocks of `blocks` (block length `8 * N`) into `h`, with `st` as the
/// kernel's scratch (`ST` bytes).
#[inline(always)]
fn compress_with<const N: usize, const ST: usize>(
    h: &mut [u64; N],
    blocks: &[u8],
    st: &mut MaybeUninit<[u8; ST]>,
    kernel: Block,
) {
    for m in blocks.chunks_exact(8 * N) {
        // SAFETY: `h` is `8 * N` bytes, `m` is one block of `8 * N` bytes, `st` is the scratch
        // size this kernel needs (`ST512`/`ST1024`); the kernel writes `st` before reading it,
        // writes only `h` and `st`, and returns with the ABI's registers restored.
        unsafe { kernel(h.as_mut_ptr().cast(), m.as_ptr(), st.as_mut_ptr().cast()) };
    }
}

/// `h ⊕ P(h)` into `h`, with `st` as the kernel's scratch.
#[inline(always)]
fn output_with<const N: usize, const ST: usize>(h: &mut [u64; N], st: &mut MaybeUninit<[u8; ST]>, perm: Perm) {
    let bytes: *mut u8 = st.as_mut_ptr().cast();
    // SAFETY: `st` has `ST >= 8 * N` bytes; the copy fills the first `8 * N` with the state
    // (`h`'s bytes: the kernels' layout), `h` and `st` do not overlap. The kernel reads `st`,
    // XORs `P(st)` into the `8 * N` bytes of `h` and writes only `h` and `st`.
    unsafe {
        core::ptr::copy_nonoverlapping(h.as_ptr().cast::<u8>(), bytes, 8 * N);
        perm(h.as_mut_ptr().cast(), bytes);
    }
}

#[inline(never)]
pub(crate) fn compress512(h: &mut [u64; 8], blocks: &[u8]) {
    compress_with(h, blocks, &mut MaybeUninit::<[u8; ST512]>::uninit(), block512);
}

#[inline(never)]
pub(crate) fn compress1024(h: &mut [u64; 16], blocks: &[u8]) {
    compress_with(h, blocks, &mut MaybeUninit::<[u8; ST1024]>::uninit(), sw_groestl_avr_block1024);
}

/// The last block(s) (any whole number, none for the output transformation alone) and the
/// output transformation, in the returned words and one scratch area (no second copy of the
/// chaining value or of the state).
#[inline(always)]
fn finish<const N: usize, const ST: usize>(h: &[u64; N], blocks: &[u8], kernel: Block, perm: Perm) -> [u64; N] {
    let (mut out, mut st) = (*h, MaybeUninit::<[u8; ST]>::uninit());
    compress_with(&mut out, blocks, &mut st, kernel);
    output_with(&mut out, &mut st, perm);
    out
}

// The entry points are `#[inline(never)]`: inlined into the dispatcher, the frames of both
// widths would add up in every caller's stack.

#[inline(never)]
pub(crate) fn finish512(h: &[u64; 8], blocks: &[u8]) -> [u64; 8] {
    finish::<8, ST512>(h, blocks, block512, p512)
}

#[inline(never)]
pub(crate) fn finish1024(h: &[u64; 16], blocks: &[u8]) -> [u64; 16] {
    finish::<16, ST1024>(h, blocks, sw_groestl_avr_block1024, sw_groestl_avr_p1024)
}

/// `P(h) ⊕ h`.
pub(crate) fn output512(h: &[u64; 8]) -> [u64; 8] {
    finish512(h, &[])
}

pub(crate) fn output1024(h: &[u64; 16]) -> [u64; 16] {
    finish1024(h, &[])
}

/// `h ← P(h) ⊕ h` in place (the engine's finalisation: no second copy of the chaining value).
#[inline(never)]
pub(crate) fn output512_in_place(h: &mut [u64; 8]) {
    output_with(h, &mut MaybeUninit::<[u8; ST512]>::uninit(), p512);
}

#[inline(never)]
pub(crate) fn output1024_in_place(h: &mut [u64; 16]) {
    output_with(h, &mut MaybeUninit::<[u8; ST1024]>::uninit(), sw_groestl_avr_p1024);
}

// `mcu-small`: the kernel's 64-byte state in memory the caller lends (the engine's block buffer
// while it holds no data), so that hashing needs no state of its own on the stack: the
// chaining value, the block buffer and the kernel's saved registers are all the RAM.

/// As `compress512`, with `st` (the engine's empty block buffer) as the kernel's state; the
/// blocks are read from the caller's memory.
#[cfg(feature = "mcu-small")]
#[inline(always)]
pub(crate) fn compress512_in(h: &mut [u64; 8], blocks: &[u8], st: &mut [u8; 64]) {
    for m in blocks.chunks_exact(64) {
        // SAFETY: `h` and `st` are 64 bytes each and do not overlap (two `&mut`), `m` is one
        // 64-byte block that overlaps neither; the kernel writes `st` before reading it and
        // writes only `h` and `st`.
        unsafe { sw_groestl_avr_small_block512(h.as_mut_ptr().cast(), m.as_ptr(), st.as_mut_ptr()) };
    }
}

/// Writes the kernels' layout of `h ⊕ m` (of `m` without `h`) into `st`, where the block `m` is zero but for its
/// first byte `lead` and its last 8 bytes, the big-endian `t` (a padding block).
#[cfg(feature = "mcu-small")]
#[inline(always)]
fn pad_block(h: Option<&[u64; 8]>, lead: u8, t: u64, st: &mut [u8; 64]) {
    for (c, col) in st.chunks_exact_mut(8).enumerate() {
        // Column c of the block as the kernels store it: `u64::from_be_bytes` of its 8 bytes.
        let m = match c {
            0 => u64::from(lead) << 56,
            7 => t,
            _ => 0,
        };
        col.copy_from_slice(&(h.map_or(0, |h| h[c]) ^ m).to_le_bytes());
    }
}

/// The last compression of a message whose final block is padding only (`lead` = 0x80, or 0
/// after a block that ended in the 0x80; `t` = the block count), then the output
/// transformation: `h ← P(h') ⊕ h'` with `h' = h ⊕ P(h ⊕ m) ⊕ Q(m)`. The padding block is
/// generated, never stored, so `st` (the engine's block buffer) is the only state.
#[cfg(feature = "mcu-small")]
#[inline(always)]
pub(crate) fn finish_padding512_in(h: &mut [u64; 8], lead: u8, t: u64, st: &mut [u8; 64]) {
    pad_block(Some(h), lead, t, st);
    // SAFETY (both calls): `h` and `st` are 64 bytes each and do not overlap; the kernel reads
    // `st`, XORs the permutation of it into `h` and writes only `h` and `st`.
    unsafe { sw_groestl_avr_small_p512(h.as_mut_ptr().cast(), st.as_mut_ptr()) };
    pad_block(None, lead, t, st);
    unsafe { sw_groestl_avr_small_q512(h.as_mut_ptr().cast(), st.as_mut_ptr()) };
    output512_in(h, st);
}

/// `h ← P(h) ⊕ h` with `st` as the state.
#[cfg(feature = "mcu-small")]
#[inline(always)]
pub(crate) fn output512_in(h: &mut [u64; 8], st: &mut [u8; 64]) {
    for (w, col) in h.iter().zip(st.chunks_exact_mut(8)) {
        col.copy_from_slice(&w.to_le_bytes());
    }
    // SAFETY: as in `finish_padding512_in`.
    unsafe { sw_groestl_avr_small_p512(h.as_mut_ptr().cast(), st.as_mut_ptr()) };
}
