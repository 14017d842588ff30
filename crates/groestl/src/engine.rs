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

    pub(crate) fn reset(&mut self) {
        *self = Engine::new(self.variant, self.backend);
    }

    fn compress(&mut self, blocks: &[u8]) {
        if self.variant.is_wide() {
            self.backend.compress1024(&mut self.h, blocks);
        } else {
            let h: &mut [u64; 8] = (&mut self.h[..8]).try_into().unwrap();
            self.backend.compress512(h, blocks);
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
            let block = self.buf;
            self.compress(&block[..bs]);
            self.blocks += 1;
            self.pos = 0;
        }
        let full = data.len() - data.len() % bs;
        if full > 0 {
            self.compress(&data[..full]);
            self.blocks += (full / bs) as u64;
        }
        let rest = &data[full..];
        self.buf[..rest.len()].copy_from_slice(rest);
        self.pos = rest.len();
    }

    /// Pads (spec §6), compresses the last block(s) and applies the output transformation.
    /// `bits` (0..=7) high bits of `last` are appended to the message first. Writes the
    /// digest into `out[..output_len]`.
    pub(crate) fn finalize_into(&mut self, last: u8, bits: u32, out: &mut [u8]) {
        assert!(bits < 8, "a final partial byte holds 0 to 7 bits, not {bits}");
        let bs = self.variant.block_len();
        let mut tail = [0u8; 256];
        tail[..self.pos].copy_from_slice(&self.buf[..self.pos]);
        let mask = !(0xffu8 >> bits);
        tail[self.pos] = (last & mask) | (0x80 >> bits);
        let n = if self.pos + 1 + 8 <= bs { 1 } else { 2 };
        let t = self.blocks + n as u64;
        tail[n * bs - 8..n * bs].copy_from_slice(&t.to_be_bytes());
        let last_blocks = &tail[..n * bs];

        let mut bytes = [0u8; 128];
        if self.variant.is_wide() {
            let o = self.backend.finish1024(&self.h, last_blocks);
            for (c, w) in o.iter().enumerate() {
                bytes[8 * c..8 * c + 8].copy_from_slice(&w.to_be_bytes());
            }
        } else {
            let h: &[u64; 8] = self.h[..8].try_into().unwrap();
            let o = self.backend.finish512(h, last_blocks);
            for (c, w) in o.iter().enumerate() {
                bytes[8 * c..8 * c + 8].copy_from_slice(&w.to_be_bytes());
            }
        }
        let len = self.variant.output_len();
        out[..len].copy_from_slice(&bytes[bs - len..bs]);
    }
}
