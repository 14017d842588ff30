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

/// Hashing state shared by all four sizes.
#[derive(Clone)]
pub(crate) struct Engine {
    /// Chaining value, one big-endian word per column (only the first 8 for 512-bit states).
    h: [u64; 16],
    buf: [u8; 128],
    pos: usize,
    /// Whole blocks compressed so far.
    blocks: u64,
    variant: Variant,
    backend: Backend,
}

impl Engine {
    pub(crate) fn new(variant: Variant, backend: Backend) -> Engine {
        let mut h = [0u64; 16];
        h[variant.block_len() / 8 - 1] = 8 * variant.output_len() as u64;
        Engine { h, buf: [0; 128], pos: 0, blocks: 0, variant, backend }
    }

    pub(crate) fn backend(&self) -> Backend {
        self.backend
    }

    pub(crate) fn variant(&self) -> Variant {
        self.variant
    }

    /// Back to the initial state, field by field (no temporary `Engine` on the stack).
    pub(crate) fn reset(&mut self) {
        self.h = [0; 16];
        self.h[self.variant.block_len() / 8 - 1] = 8 * self.variant.output_len() as u64;
        self.buf = [0; 128];
        self.pos = 0;
        self.blocks = 0;
    }

    /// Compresses whole blocks into `h` (an associated function, so that the block buffer can
    /// be passed without copying it out of `self`).
    fn compress(variant: Variant, backend: Backend, h: &mut [u64; 16], blocks: &[u8]) {
        if variant.is_wide() {
            backend.compress1024(h, blocks);
        } else {
            let h: &mut [u64; 8] = (&mut h[..8]).try_into().unwrap();
            backend.compress512(h, blocks);
        }
    }

    pub(crate) fn update(&mut self, mut data: &[u8]) {
        let bs = self.variant.block_len();
        if self.pos > 0 {
            let take = (bs - self.pos).min(data.len());
            self.buf[self.pos..self.pos + take].copy_from_slice(&data[..take]);
            self.pos += take;
            data = &data[take..];
            if self.pos < bs {
                return;
            }
            Self::compress(self.variant, self.backend, &mut self.h, &self.buf[..bs]);
            self.blocks += 1;
            self.pos = 0;
        }
        let full = data.len() - data.len() % bs;
        if full > 0 {
            Self::compress(self.variant, self.backend, &mut self.h, &data[..full]);
            self.blocks += (full / bs) as u64;
        }
        let rest = &data[full..];
        self.buf[..rest.len()].copy_from_slice(rest);
        self.pos = rest.len();
    }

    /// Pads (spec §6), compresses the last block(s) and applies the output transformation.
    /// `bits` (0..=7) high bits of `last` are appended to the message first. Writes the
    /// digest into `out[..output_len]`. Leaves the message state as it was (only the unused
    /// part of the block buffer changes).
    pub(crate) fn finalize_into(&mut self, last: u8, bits: u32, out: &mut [u8]) {
        assert!(bits < 8, "a final partial byte holds 0 to 7 bits, not {bits}");
        let bs = self.variant.block_len();
        let mask = !(0xffu8 >> bits);
        let pad = (last & mask) | (0x80 >> bits);
        let n = if self.pos + 1 + 8 <= bs { 1 } else { 2 };
        let t = (self.blocks + n as u64).to_be_bytes();
        if n * bs > self.buf.len() {
            return self.finalize_wide_two_blocks(pad, t, out);
        }
        // The padding block(s) fit in the block buffer (always for 512-bit states): pad in
        // place, no copy of the buffer (this matters on microcontrollers).
        self.buf[self.pos] = pad;
        self.buf[self.pos + 1..n * bs - 8].fill(0);
        self.buf[n * bs - 8..n * bs].copy_from_slice(&t);
        Self::finish_into(self.variant, self.backend, &self.h, &self.buf[..n * bs], out);
    }

    /// `finalize_into` of a 1024-bit state whose padding takes two blocks (256 bytes, more
    /// than the block buffer): out of line so that its buffer is on the stack only then.
    #[inline(never)]
    fn finalize_wide_two_blocks(&mut self, pad: u8, t: [u8; 8], out: &mut [u8]) {
        let mut tail = [0u8; 256];
        tail[..self.pos].copy_from_slice(&self.buf[..self.pos]);
        tail[self.pos] = pad;
        tail[248..].copy_from_slice(&t);
        Self::finish_into(self.variant, self.backend, &self.h, &tail, out);
    }

    /// The last blocks and the output transformation; writes the truncated digest.
    fn finish_into(variant: Variant, backend: Backend, h: &[u64; 16], last_blocks: &[u8], out: &mut [u8]) {
        let len = variant.output_len();
        if variant.is_wide() {
            Self::finish_wide(backend, h, last_blocks, &mut out[..len]);
        } else {
            Self::finish_narrow(backend, h[..8].try_into().unwrap(), last_blocks, &mut out[..len]);
        }
    }

    // On microcontrollers the two widths are out of line, so that a Grøstl-224/256 hash does
    // not reserve stack for a 1024-bit result.
    #[cfg_attr(any(target_arch = "avr", target_arch = "arm"), inline(never))]
    fn finish_narrow(backend: Backend, h: &[u64; 8], last_blocks: &[u8], out: &mut [u8]) {
        Self::emit(&backend.finish512(h, last_blocks), out);
    }

    #[cfg_attr(any(target_arch = "avr", target_arch = "arm"), inline(never))]
    fn finish_wide(backend: Backend, h: &[u64; 16], last_blocks: &[u8], out: &mut [u8]) {
        Self::emit(&backend.finish1024(h, last_blocks), out);
    }

    /// Writes the last `out.len()` bytes of `P(h) ⊕ h` (big-endian words, column-wise).
    fn emit(o: &[u64], out: &mut [u8]) {
        let skip = 8 * o.len() - out.len();
        for (i, b) in out.iter_mut().enumerate() {
            let k = skip + i;
            *b = o[k / 8].to_be_bytes()[k % 8];
        }
    }
}
