//! `mcu` on AVR: the Grøstl permutations in hand-written assembly (`mcu_avr.S`), one
//! compression per call.
//!
//! * The state is 64 or 128 bytes in RAM, column by column, each column laid out like one
//!   little-endian `u64` of the chaining value (row 0 in its last byte), so `h` is XORed in and
//!   out without reordering; the message is reordered while it is XORed in.
//! * SubBytes and the doublings of MixBytes are look-ups in 256-byte tables (S-box, S-box of
//!   the complement for Q, `2·x`): `LPM` from flash, except the fast Grøstl-224/256 kernel's
//!   doublings, which are `LD` from a copy of the `2·x` table in SRAM (`.data`, 256-byte
//!   aligned: the high address byte selects the table, the low one is the operand). On AVR
//!   `LPM` takes 3 cycles at every address and `LD` from internal SRAM 2 at every address: no
//!   AVR core has a data cache, a flash buffer or SRAM wait states whose state depends on the
//!   address, so an SRAM look-up is exactly as constant-time as a flash one, and the kernels
//!   are constant-time (no secret-dependent branch either; the only branches count rounds and
//!   columns). The SRAM table costs 256 B of static RAM in images that use the fast kernel
//!   (its section is dropped by `--gc-sections` otherwise: not in `mcu-small` images) and is
//!   initialised from flash at reset by the C runtime's `__do_copy_data`.
//! * MixBytes uses the 40-XOR, 16-doubling program of `slicewise slp`
//!   (`crates/slp/programs/groestl_mixbytes.word`) for Grøstl-224/256 and the shared-term
//!   formula of paper [A] §4.3 (48 XORs, 16 doublings per column) for Grøstl-384/512, the
//!   column in 8 registers and its temporaries in 5 to 8 more.
//! * The compression computes `P(h ⊕ m)` and then `Q(m)` in one state area, folding each into
//!   `h` as it finishes.
//!
//! Two Grøstl-224/256 kernels: by default the fast one reads each round from one 64-byte buffer
//! and writes the next (ShiftBytes folded into the load displacements, columns unrolled, 128
//! bytes of state); with the `mcu-small` feature one 64-byte state, each output column written
//! back to the 8 bytes it read (rows stored rotated, two unrolled round bodies, a rotation
//! pass every second round). Grøstl-384/512 always uses the in-place kernel (128 bytes: a
//! rotation pass per round, then a column loop).
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
    /// The `len / 64` whole blocks at `m` compressed into `h`, with `st` (64 bytes) as the
    /// state, written before read; then the `len % 64` bytes after them copied to `st`.
    #[cfg(feature = "mcu-small")]
    fn sw_groestl_avr_small_update512(h: *mut u8, m: *const u8, len: u16, st: *mut u8);
    /// The last compression of a padding-only block (`lead` in its first byte, the 8 bytes at
    /// `t` (a little-endian `u64`) big-endian in its last 8, zeros between) and the output
    /// transformation, in `h`, with `st` (64 bytes) as the state.
    #[cfg(feature = "mcu-small")]
    fn sw_groestl_avr_small_pad512(h: *mut u8, st: *mut u8, t: *const u8, lead: u8);
    /// As `block512` with 128-byte `h`, `m` and `st`.
    fn sw_groestl_avr_block1024(h: *mut u8, m: *const u8, st: *mut u8);
    /// `h ← h ⊕ P(st)` (1024-bit), `st` 128 bytes, clobbered.
    fn sw_groestl_avr_p1024(h: *mut u8, st: *mut u8);
    /// `*x += n` (a leaf).
    #[cfg(feature = "mcu-small")]
    fn sw_groestl_avr_add(x: *mut u64, n: u16);
    /// `out[i] = h[(first + i) ^ 7]` for `i < len` (`len ≥ 1`, `first + len ≤ 256`; a leaf).
    fn sw_groestl_avr_digest(out: *mut u8, h: *const u8, first: u8, len: u8);
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
/// blocks are read from the caller's memory. The block loop is in the assembly, so the caller
/// keeps no value live across the call (fewer saved registers in its frame).
#[cfg(feature = "mcu-small")]
#[inline(always)]
pub(crate) fn compress512_in(h: &mut [u64; 8], blocks: &[u8], st: &mut [u8; 64]) {
    debug_assert!(blocks.len() % 64 == 0);
    update512_in(h, blocks, st);
}

/// The whole blocks of `data` compressed into `h` with `st` (the engine's empty block buffer)
/// as the kernel's state, then the rest of `data` (`data.len() % 64` bytes) copied to `st`,
/// which becomes the buffered data: the engine's `update` of an empty buffer in one call, after
/// which the caller needs none of its values (the peak RAM of `mcu-small` is in that frame).
#[cfg(feature = "mcu-small")]
#[inline(always)]
pub(crate) fn update512_in(h: &mut [u64; 8], data: &[u8], st: &mut [u8; 64]) {
    // SAFETY: `h` and `st` are 64 bytes each and do not overlap (two `&mut`); `data` overlaps
    // neither, and its length fits `u16` (`usize` is 16 bits on AVR; a slice holds at most
    // 32 767 bytes). The kernel reads `data[..len]`, writes `st` before reading it and writes
    // only `h` and `st`.
    unsafe { sw_groestl_avr_small_update512(h.as_mut_ptr().cast(), data.as_ptr(), data.len() as u16, st.as_mut_ptr()) };
}

/// The last compression of a message whose final block is padding only (`lead` = 0x80, or 0
/// after a block that ended in the 0x80; `t` = the block count), then the output
/// transformation: `h ← P(h') ⊕ h'` with `h' = h ⊕ P(h ⊕ m) ⊕ Q(m)`. The kernel generates the
/// padding block in `st` (the engine's block buffer) from `lead` and the bytes of `t`, so `st`
/// is the only state and the caller keeps nothing live across the call.
#[cfg(feature = "mcu-small")]
#[inline(always)]
pub(crate) fn finish_padding512_in(h: &mut [u64; 8], lead: u8, t: &u64, st: &mut [u8; 64]) {
    // SAFETY: `h` and `st` are 64 bytes each and do not overlap; `t` is 8 readable bytes (a
    // `u64`, little-endian on AVR: the state layout of the block's last column) that overlap
    // neither. The kernel writes only `h` and `st`.
    unsafe { sw_groestl_avr_small_pad512(h.as_mut_ptr().cast(), st.as_mut_ptr(), (t as *const u64).cast(), lead) };
}

/// `*x += n`, by a leaf routine (the compiled 64-bit addition takes 8 more registers than
/// the caller has free, saved in its frame).
#[cfg(feature = "mcu-small")]
#[inline(always)]
pub(crate) fn add(x: &mut u64, n: usize) {
    // SAFETY: `x` is a reference, valid for reads and writes of its 8 bytes, the only memory
    // the routine touches; `n` fits `u16` (`usize` is 16 bits on AVR).
    unsafe { sw_groestl_avr_add(x, n as u16) };
}

/// The digest: `out[i]` = byte `first + i` of the big-endian serialisation of the words of `h`
/// (word `k / 8`, byte `k % 8` from the most significant: at address `k ^ 7` in AVR memory).
#[inline(always)]
pub(crate) fn digest(out: &mut [u8], h: &[u64], first: usize) {
    assert!(!out.is_empty() && first + out.len() <= (8 * h.len()).min(256));
    // SAFETY: the routine reads bytes `(first + i) ^ 7 < 8 * len(h)` of `h` (the XOR stays
    // inside the 8-byte word of `first + i`) and writes `out[..len]`; `out` and `h` do not
    // overlap (`&mut` and `&`).
    unsafe { sw_groestl_avr_digest(out.as_mut_ptr(), h.as_ptr().cast(), first as u8, out.len() as u8) };
}
