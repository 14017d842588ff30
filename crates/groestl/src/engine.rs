//! The Grøstl mode (spec §4–§8): buffering, padding, chaining and truncation, written once
//! over the backends.

use crate::backend::Backend;

/// The four standard sizes (and, internally, the permutation width they use).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Grøstl-224: 512-bit state, 28-byte digest.
    Groestl224,
    /// Grøstl-256: 512-bit state, 32-byte digest.
    Groestl256,
    /// Grøstl-384: 1024-bit state, 48-byte digest.
    Groestl384,
    /// Grøstl-512: 1024-bit state, 64-byte digest.
    Groestl512,
}

impl Variant {
    /// All four, shortest first.
    pub const ALL: [Variant; 4] = [Variant::Groestl224, Variant::Groestl256, Variant::Groestl384, Variant::Groestl512];

    /// Digest length in bytes.
    pub const fn output_len(self) -> usize {
        match self {
            Variant::Groestl224 => 28,
            Variant::Groestl256 => 32,
            Variant::Groestl384 => 48,
            Variant::Groestl512 => 64,
        }
    }

    /// Block (and state) length in bytes: 64 or 128.
    pub const fn block_len(self) -> usize {
        if self.is_wide() { 128 } else { 64 }
    }

    /// Whether the 1024-bit permutations are used.
    pub const fn is_wide(self) -> bool {
        matches!(self, Variant::Groestl384 | Variant::Groestl512)
    }

    /// The name as the CLI spells it (`groestl-256`).
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Groestl224 => "groestl-224",
            Variant::Groestl256 => "groestl-256",
            Variant::Groestl384 => "groestl-384",
            Variant::Groestl512 => "groestl-512",
        }
    }

    /// Looks a variant up by its CLI name.
    pub fn from_name(name: &str) -> Option<Variant> {
        Self::ALL.into_iter().find(|v| v.name() == name)
    }
}

/// Hashing state shared by all four sizes. `H` words of chaining value and a `B`-byte block
/// buffer: 16 and 128 hold every size (`Groestl`, Grøstl-384/512); the fixed-size Grøstl-224/256
/// hashers use 8 and 64, half the memory (136 bytes less on a microcontroller).
/// Whether `update` keeps a message's last whole block for `finalize` (see `update_general`).
const HOLD_LAST_BLOCK: bool = cfg!(not(any(target_arch = "arm", target_arch = "avr")));

#[derive(Clone)]
pub(crate) struct Engine<const H: usize = 16, const B: usize = 128> {
    /// Chaining value, one big-endian word per column (only the first 8 for 512-bit states).
    h: [u64; H],
    buf: [u8; B],
    pos: usize,
    /// Whole blocks compressed so far.
    blocks: u64,
    variant: Variant,
    backend: Backend,
}

// The Thumb-1 `mcu-small` routine uses the block buffer as its state with word accesses: the
// layout the compiler chose must put it at a multiple of 4 (the struct is 8-aligned). Checked
// here rather than forced with `repr(C)`, whose field order costs 2–9 bytes of stack on AVR.
#[cfg(all(feature = "mcu-small", target_arch = "arm", target_os = "none"))]
const _: () = assert!(core::mem::offset_of!(Engine<8, 64>, buf) % 4 == 0, "the mcu-small state must be 4-aligned");

impl<const H: usize, const B: usize> Engine<H, B> {
    pub(crate) fn new(variant: Variant, backend: Backend) -> Self {
        assert!(variant.block_len() <= B && variant.block_len() / 8 <= H, "buffers too small for {}", variant.name());
        let mut h = [0u64; H];
        h[variant.block_len() / 8 - 1] = 8 * variant.output_len() as u64;
        Engine { h, buf: [0; B], pos: 0, blocks: 0, variant, backend }
    }

    pub(crate) fn backend(&self) -> Backend {
        self.backend
    }

    pub(crate) fn variant(&self) -> Variant {
        self.variant
    }

    /// Back to the initial state, field by field (no temporary copy of the state: RAM on
    /// microcontrollers).
    pub(crate) fn reset(&mut self) {
        self.h.fill(0);
        self.h[self.variant.block_len() / 8 - 1] = 8 * self.variant.output_len() as u64;
        self.buf.fill(0);
        self.pos = 0;
        self.blocks = 0;
    }

    /// Whether the `mcu` kernels take the block buffer as their state (`mcu-small` on AVR and
    /// bare-metal ARM, Grøstl-224/256), when it holds no data: no state on the stack (RAM,
    /// docs/embedded.md).
    #[cfg(all(feature = "mcu-small", any(target_arch = "avr", all(target_arch = "arm", target_os = "none"))))]
    #[inline(always)]
    fn buf_is_state(&self) -> bool {
        self.backend == Backend::Mcu && !self.variant.is_wide()
    }

    /// Compresses whole blocks of the caller's data (the block buffer is empty).
    fn compress_blocks(&mut self, blocks: &[u8]) {
        #[cfg(all(feature = "mcu-small", any(target_arch = "avr", all(target_arch = "arm", target_os = "none"))))]
        if self.buf_is_state() {
            let (h, st) = (&mut self.h[..8], &mut self.buf[..64]);
            return crate::backend::mcu::compress512_in(h.try_into().unwrap(), blocks, st.try_into().unwrap());
        }
        if self.variant.is_wide() {
            self.backend.compress1024((&mut self.h[..16]).try_into().unwrap(), blocks);
        } else {
            self.backend.compress512((&mut self.h[..8]).try_into().unwrap(), blocks);
        }
    }

    /// Compresses the block buffer (full).
    fn compress_buf(&mut self) {
        let bs = self.variant.block_len();
        if self.variant.is_wide() {
            self.backend.compress1024((&mut self.h[..16]).try_into().unwrap(), &self.buf[..bs]);
        } else {
            self.backend.compress512((&mut self.h[..8]).try_into().unwrap(), &self.buf[..bs]);
        }
    }

    // AVR: inlined into the caller with the fast kernel (measured: separate frames each save
    // 18 registers); with `mcu-small` out of line: its lean path keeps little live across the
    // kernel (4 saved registers in `update`, 2 in `finalize_into`), and the caller, without the
    // engine inlined, saves 14 instead of 18 (measured, docs/embedded.md).
    #[cfg_attr(all(target_arch = "avr", not(feature = "mcu-small")), inline(always))]
    #[cfg_attr(all(target_arch = "avr", feature = "mcu-small"), inline(never))]
    pub(crate) fn update(&mut self, data: &[u8]) {
        // `mcu-small` (AVR, Cortex-M), Grøstl-224/256 with an empty buffer: a lean path, which keeps
        // few values and so few saved registers in the frame around the kernel (the peak RAM);
        // the general path is a separate function.
        #[cfg(all(feature = "mcu-small", any(target_arch = "avr", all(target_arch = "arm", target_os = "none"))))]
        if B == 64 {
            if self.pos == 0 && self.buf_is_state() {
                // AVR: one call compresses the whole blocks and copies the rest into the buffer
                // (`mcu::update512_in`), then the counters, from the length parked in `pos`
                // across the call: only `self` is live there (fewer saved registers in this
                // frame, around the kernel's: the peak RAM).
                #[cfg(target_arch = "avr")]
                {
                    self.pos = data.len();
                    let (h, st) = (&mut self.h[..8], &mut self.buf[..64]);
                    crate::backend::mcu::update512_in(h.try_into().unwrap(), data, st.try_into().unwrap());
                    crate::backend::mcu::add(&mut self.blocks, self.pos / 64);
                    self.pos %= 64;
                }
                #[cfg(not(target_arch = "avr"))]
                {
                    let full = data.len() - data.len() % 64;
                    let (h, st) = (&mut self.h[..8], &mut self.buf[..64]);
                    crate::backend::mcu::compress512_in(h.try_into().unwrap(), &data[..full], st.try_into().unwrap());
                    self.blocks += (full / 64) as u64;
                    let rest = &data[full..];
                    self.buf[..rest.len()].copy_from_slice(rest);
                    self.pos = rest.len();
                }
            } else {
                self.update_outlined(data);
            }
            return;
        }
        self.update_general(data);
    }

    /// `update_general`, not inlined (see `update`).
    #[cfg(all(feature = "mcu-small", any(target_arch = "avr", all(target_arch = "arm", target_os = "none"))))]
    #[inline(never)]
    fn update_outlined(&mut self, data: &[u8]) {
        self.update_general(data);
    }

    #[inline(always)]
    fn update_general(&mut self, mut data: &[u8]) {
        let bs = self.variant.block_len();
        if self.pos > 0 {
            let take = (bs - self.pos).min(data.len());
            self.buf[self.pos..self.pos + take].copy_from_slice(&data[..take]);
            self.pos += take;
            data = &data[take..];
            if self.pos < bs {
                return;
            }
            self.compress_buf();
            self.blocks += 1;
            self.pos = 0;
        }
        let mut full = data.len() - data.len() % bs;
        // Data that ends on a block boundary keeps its last block in the buffer (`pos == bs`):
        // if the message ends there, `finalize` hands it to the backend together with the
        // padding block, one `finish` call and one layout conversion each way instead of two
        // (a 64-byte Grøstl-256 message on `vaes`: 14.1 -> 13.1 TSC cycles/byte, same run, on a
        // Sapphire Rapids-class Xeon). Not on 32-bit ARM and AVR, whose `mcu` paths keep the
        // block buffer as their state.
        if HOLD_LAST_BLOCK && full > 0 && full == data.len() {
            full -= bs;
        }
        if full > 0 {
            self.compress_blocks(&data[..full]);
            self.blocks += (full / bs) as u64;
        }
        let rest = &data[full..];
        if HOLD_LAST_BLOCK && rest.len() == bs {
            // The held-back block as a copy of constant length, which LLVM inlines as vector
            // moves; a `memcpy` call was 4 % of a 64-byte Grøstl-256 hash on Zen 4.
            if bs == 64 {
                self.buf[..64].copy_from_slice(&rest[..64]);
            } else {
                self.buf[..128].copy_from_slice(&rest[..128]);
            }
        } else {
            self.buf[..rest.len()].copy_from_slice(rest);
        }
        self.pos = rest.len();
    }

    /// Pads (spec §6), compresses the last block(s) and applies the output transformation.
    /// `bits` (0..=7) high bits of `last` are appended to the message first. Writes the
    /// digest into `out[..output_len]`. Pads in the block buffer and leaves the output in the
    /// chaining value (no copies of either: the state is reset or dropped afterwards).
    // AVR: inlined into the caller with the fast kernel (measured: separate frames each save
    // 18 registers); with `mcu-small` out of line: its lean path keeps little live across the
    // kernel (4 saved registers in `update`, 2 in `finalize_into`), and the caller, without the
    // engine inlined, saves 14 instead of 18 (measured, docs/embedded.md).
    #[cfg_attr(all(target_arch = "avr", not(feature = "mcu-small")), inline(always))]
    #[cfg_attr(all(target_arch = "avr", feature = "mcu-small"), inline(never))]
    pub(crate) fn finalize_into(&mut self, last: u8, bits: u32, out: &mut [u8]) {
        // `mcu-small` (AVR, Cortex-M): a message of whole blocks ends in a padding-only block, generated
        // by the kernel (lean path, as in `update`).
        #[cfg(all(feature = "mcu-small", any(target_arch = "avr", all(target_arch = "arm", target_os = "none"))))]
        if B == 64 {
            if self.pos == 0 && bits == 0 && self.buf_is_state() {
                self.blocks += 1;
                let (h, st) = (&mut self.h[..8], &mut self.buf[..64]);
                crate::backend::mcu::finish_padding512_in(
                    h.try_into().unwrap(),
                    0x80,
                    &self.blocks,
                    st.try_into().unwrap(),
                );
                self.digest(out);
            } else {
                self.finalize_outlined(last, bits, out);
            }
            return;
        }
        self.finalize_general(last, bits, out);
    }

    /// `finalize_general`, not inlined (see `finalize_into`).
    #[cfg(all(feature = "mcu-small", any(target_arch = "avr", all(target_arch = "arm", target_os = "none"))))]
    #[inline(never)]
    fn finalize_outlined(&mut self, last: u8, bits: u32, out: &mut [u8]) {
        self.finalize_general(last, bits, out);
    }

    #[inline(always)]
    fn finalize_general(&mut self, last: u8, bits: u32, out: &mut [u8]) {
        assert!(bits < 8, "a final partial byte holds 0 to 7 bits, not {bits}");
        let bs = self.variant.block_len();
        let mask = !(0xffu8 >> bits);
        let pos = self.pos;
        if HOLD_LAST_BLOCK && (pos == bs || pos + 1 + 8 > bs) {
            // A held-back whole block, or a partial one whose length field does not fit: the
            // buffered data and the padding (two blocks in all) in one `finish` call, padded in
            // the block buffer when it holds two blocks (`Groestl` at 224/256 bits), else in a
            // copy.
            let pad = (last & mask) | (0x80 >> bits);
            let t = (self.blocks + 2).to_be_bytes();
            let mut tail = [0u8; 2 * 128];
            let tail = if 2 * bs <= B {
                self.buf[pos + 1..2 * bs].fill(0);
                &mut self.buf[..2 * bs]
            } else {
                tail[..pos].copy_from_slice(&self.buf[..pos]);
                &mut tail[..2 * bs]
            };
            tail[pos] = pad;
            tail[2 * bs - 8..].copy_from_slice(&t);
            if self.variant.is_wide() {
                self.backend.finish1024_in_place((&mut self.h[..16]).try_into().unwrap(), tail);
            } else {
                self.backend.finish512_in_place((&mut self.h[..8]).try_into().unwrap(), tail);
            }
            return self.digest(out);
        }
        // The padding fits after the data in the block buffer: pad in place (no copy of the
        // buffer; before 2026-11-28 every message went through a zeroed 384-byte copy, +12 % at
        // 64 bytes of Grøstl-512 on `gfni`).
        self.buf[pos] = (last & mask) | (0x80 >> bits);
        self.buf[pos + 1..bs].fill(0);
        let n = if pos + 1 + 8 <= bs { 1 } else { 2 };
        if n == 2 {
            self.compress_buf();
            self.buf[..bs].fill(0);
        }
        let t = self.blocks + n as u64;
        // A last block of padding only (none of the message's bits in it) is generated by
        // `mcu-small`, with the block buffer as the kernels' state; `blocks` holds the count
        // it reads (the state is reset or dropped afterwards).
        #[cfg(all(feature = "mcu-small", any(target_arch = "avr", all(target_arch = "arm", target_os = "none"))))]
        if self.buf_is_state() && (n == 2 || (pos == 0 && bits == 0)) {
            let lead = if n == 2 { 0 } else { 0x80 };
            self.blocks = t;
            let (h, st) = (&mut self.h[..8], &mut self.buf[..64]);
            crate::backend::mcu::finish_padding512_in(
                h.try_into().unwrap(),
                lead,
                &self.blocks,
                st.try_into().unwrap(),
            );
            return self.digest(out);
        }
        self.finish_buf(t, out);
    }

    /// The last block, in the block buffer but for its length field `t`, and the output
    /// transformation.
    #[inline(always)]
    fn finish_buf(&mut self, t: u64, out: &mut [u8]) {
        let bs = self.variant.block_len();
        self.buf[bs - 8..bs].copy_from_slice(&t.to_be_bytes());
        if self.variant.is_wide() {
            self.backend.finish1024_in_place((&mut self.h[..16]).try_into().unwrap(), &self.buf[..bs]);
        } else {
            self.backend.finish512_in_place((&mut self.h[..8]).try_into().unwrap(), &self.buf[..bs]);
        }
        self.digest(out);
    }

    /// The digest (the last `len` bytes of the big-endian serialisation of the columns of the
    /// output in `h`) into `out[..len]`.
    // Not inlined on AVR: it runs after the kernels, in a frame of its own (no saved register)
    // around a leaf routine, so it adds nothing to the frame that calls them (the peak RAM).
    #[cfg_attr(target_arch = "avr", inline(never))]
    #[cfg_attr(not(target_arch = "avr"), inline)]
    fn digest(&self, out: &mut [u8]) {
        let (bs, len) = (self.variant.block_len(), self.variant.output_len());
        // Word by word from the last column back (the first chunk is partial for Grøstl-224):
        // a byte loop indexing the words' serialisations cost about 100 cycles per Grøstl-512
        // digest (Zen 4).
        #[cfg(not(target_arch = "avr"))]
        for (o, w) in out[..len].rchunks_mut(8).zip(self.h[..bs / 8].iter().rev()) {
            match <&mut [u8; 8]>::try_from(&mut *o) {
                Ok(o) => *o = w.to_be_bytes(),
                Err(_) => o.copy_from_slice(&w.to_be_bytes()[8 - o.len()..]),
            }
        }
        // AVR: the bytes straight from memory, where byte `k % 8` (big-endian) of word `k / 8`
        // is at `k ^ 7`, by a leaf routine: the 64-bit shifts of the words kept 18 registers
        // (saved) in this frame, the deepest of a hash in whole blocks with `mcu-small`.
        #[cfg(target_arch = "avr")]
        crate::backend::mcu::digest(&mut out[..len], &self.h[..bs / 8], bs - len);
    }
}

/// Hashes independent messages; `emit(i, words)` receives message `i`'s `P(h) ⊕ h` (before
/// truncation). The backend's multi-buffer kernels take as many as they can
/// (`backend::hash_many_prefix`), the rest go one at a time through an [`Engine`].
/// `backend` must be available.
pub(crate) fn hash_many(variant: Variant, backend: Backend, inputs: &[&[u8]], mut emit: impl FnMut(usize, &[u64])) {
    let mut iv = [0u64; 16];
    iv[variant.block_len() / 8 - 1] = 8 * variant.output_len() as u64;
    let done = crate::backend::hash_many_prefix(backend, variant.is_wide(), &iv, inputs, &mut emit);
    for (i, msg) in inputs.iter().enumerate().skip(done) {
        let mut e: Engine = Engine::new(variant, backend);
        e.update(msg);
        let mut bytes = [0u8; 64];
        e.finalize_into(0, 0, &mut bytes);
        // One-message fallback: re-expand the digest to words at the end of the state.
        let bs = variant.block_len();
        let len = variant.output_len();
        let mut state = [0u8; 128];
        state[bs - len..bs].copy_from_slice(&bytes[..len]);
        let words: [u64; 16] = core::array::from_fn(|c| u64::from_be_bytes(state[8 * c..8 * c + 8].try_into().unwrap()));
        emit(i, &words[..bs / 8]);
    }
}
