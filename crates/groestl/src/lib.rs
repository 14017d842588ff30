//! Grøstl-224, -256, -384 and -512 (the SHA-3 final-round version, January 2011 tweak).
//!
//! The four hashers implement the RustCrypto [`digest`] 0.11 traits and are drop-in
//! replacements for the `groestl` crate:
//!
//! ```
//! use slicewise_groestl::{Digest, Groestl256};
//! let d = Groestl256::digest(b"");
//! assert_eq!(hex(&d), "1a52d11d550039be16107f9c58db9ebcc417f16f736adb2502567119f0083467");
//! # fn hex(b: &[u8]) -> String { b.iter().map(|x| format!("{x:02x}")).collect() }
//! ```
//!
//! Each hasher runs on one [`Backend`], chosen when it is created: [`Backend::selected`],
//! i.e. the `SLICEWISE_BACKEND` environment variable if set, otherwise
//! [`Backend::detect`], the fastest constant-time backend on this CPU. `with_backend`
//! picks one explicitly. The T-table backends are not constant-time and are only used when
//! asked for by name.
//!
//! Messages whose length is not a whole number of bytes (the NIST bit-length KAT records)
//! are hashed with `finalize_bits`: the final 1–7 bits go in the high bits of one last byte.
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(unsafe_code)]
// The `mcu` backend's AVR kernels are `global_asm!` (AVR builds use nightly: `-Zbuild-std`).
#![cfg_attr(target_arch = "avr", feature(asm_experimental_arch))]

#[cfg(all(feature = "alloc", not(feature = "std")))]
extern crate alloc;

#[macro_use]
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_macros))]
mod generated;
mod backend;
// The S-box table and field helpers serve the T-table backends, which AVR does not build.
#[cfg_attr(target_arch = "avr", allow(dead_code))]
mod consts;
pub mod cpu;
mod engine;
// On AVR no backend uses the circuit (`mcu` is table-based assembly there).
#[cfg_attr(target_arch = "avr", allow(dead_code))]
mod sbox_circuit;
#[cfg(not(feature = "alloc"))]
mod text;
#[cfg(test)]
#[path = "../../../test-support/backend_report.rs"]
mod backend_report;

use core::fmt;

pub use backend::{Backend, ENV_VAR, Error};
pub use digest::{self, Digest};
pub use engine::Variant;
#[cfg(not(feature = "alloc"))]
pub use text::InlineStr;

use digest::common::BlockSizeUser;
use digest::consts::{U28, U32, U48, U64, U128};
use digest::{FixedOutput, FixedOutputReset, HashMarker, Output, OutputSizeUser, Reset, Update};
use engine::Engine;

fn selected_or_panic() -> Backend {
    Backend::selected().unwrap_or_else(|e| panic!("{e}"))
}

macro_rules! hasher {
    ($(#[$doc:meta])* $name:ident, $variant:ident, $out:ty, $block:ty, $words:literal) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name {
            engine: Engine<$words, { 8 * $words }>,
        }

        impl $name {
            /// A hasher on the process-wide backend ([`Backend::selected`]).
            ///
            /// # Panics
            /// If `SLICEWISE_BACKEND` names an unknown or unavailable backend.
            pub fn new() -> Self {
                Self::with_backend(selected_or_panic()).expect("selected backend is available")
            }

            /// A hasher on the given backend, or an error if this CPU cannot run it.
            #[cfg_attr(not(any(target_arch = "avr", target_arch = "arm")), inline)]
            pub fn with_backend(backend: Backend) -> Result<Self, Error> {
                Ok(Self { engine: Engine::new(Variant::$variant, backend.check()?) })
            }

            /// The backend this hasher runs on.
            pub fn backend(&self) -> Backend {
                self.engine.backend()
            }

            /// Finishes a message whose last `bits` bits (0–7) are the high bits of `last`
            /// (the NIST KAT convention for bit-length messages; the low bits of `last` are
            /// ignored). With `bits == 0` this is plain `finalize`.
            ///
            /// # Panics
            /// If `bits > 7`.
            #[cfg_attr(not(any(target_arch = "avr", target_arch = "arm")), inline)]
            pub fn finalize_bits(mut self, last: u8, bits: u32) -> Output<Self> {
                let mut out = Output::<Self>::default();
                self.engine.finalize_into(last, bits, &mut out);
                out
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($name)).field("backend", &self.engine.backend()).finish_non_exhaustive()
            }
        }

        impl HashMarker for $name {}

        impl OutputSizeUser for $name {
            type OutputSize = $out;
        }

        impl BlockSizeUser for $name {
            type BlockSize = $block;
        }

        impl Update for $name {
            #[cfg_attr(not(any(target_arch = "avr", target_arch = "arm")), inline)]
            fn update(&mut self, data: &[u8]) {
                self.engine.update(data);
            }
        }

        impl FixedOutput for $name {
            #[cfg_attr(not(any(target_arch = "avr", target_arch = "arm")), inline)]
            fn finalize_into(mut self, out: &mut Output<Self>) {
                self.engine.finalize_into(0, 0, out);
            }
        }

        impl Reset for $name {
            fn reset(&mut self) {
                self.engine.reset();
            }
        }

        impl FixedOutputReset for $name {
            #[cfg_attr(not(any(target_arch = "avr", target_arch = "arm")), inline)]
            fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
                self.engine.finalize_into(0, 0, out);
                self.engine.reset();
            }
        }
    };
}

hasher!(
    /// Grøstl-224.
    Groestl224, Groestl224, U28, U64, 8
);
hasher!(
    /// Grøstl-256.
    Groestl256, Groestl256, U32, U64, 8
);
hasher!(
    /// Grøstl-384.
    Groestl384, Groestl384, U48, U128, 16
);
hasher!(
    /// Grøstl-512.
    Groestl512, Groestl512, U64, U128, 16
);

/// A hasher whose size is chosen at run time (for tools such as the CLI).
#[derive(Clone)]
pub struct Groestl {
    engine: Engine,
}

impl Groestl {
    /// A hasher of the given size on the process-wide backend.
    #[cfg_attr(not(any(target_arch = "avr", target_arch = "arm")), inline)]
    pub fn new(variant: Variant) -> Result<Self, Error> {
        Self::with_backend(variant, Backend::selected()?)
    }

    /// A hasher of the given size on the given backend.
    #[cfg_attr(not(any(target_arch = "avr", target_arch = "arm")), inline)]
    pub fn with_backend(variant: Variant, backend: Backend) -> Result<Self, Error> {
        Ok(Groestl { engine: Engine::new(variant, backend.check()?) })
    }

    /// The size this hasher computes.
    pub fn variant(&self) -> Variant {
        self.engine.variant()
    }

    /// The backend this hasher runs on.
    pub fn backend(&self) -> Backend {
        self.engine.backend()
    }

    /// Absorbs more message bytes.
    #[cfg_attr(not(any(target_arch = "avr", target_arch = "arm")), inline)]
    pub fn update(&mut self, data: &[u8]) -> &mut Self {
        self.engine.update(data);
        self
    }

    /// Writes the digest into the first `variant().output_len()` bytes of `out` and resets
    /// the hasher. `bits` (0–7) high bits of `last` end the message, as in `finalize_bits`.
    ///
    /// # Panics
    /// If `out` is shorter than the digest or `bits > 7`.
    #[cfg_attr(not(any(target_arch = "avr", target_arch = "arm")), inline)]
    pub fn finalize_bits_into_reset(&mut self, last: u8, bits: u32, out: &mut [u8]) {
        self.engine.finalize_into(last, bits, out);
        self.engine.reset();
    }

    /// Writes the digest into `out[..output_len]` and resets the hasher.
    #[cfg_attr(not(any(target_arch = "avr", target_arch = "arm")), inline)]
    pub fn finalize_into_reset(&mut self, out: &mut [u8]) {
        self.finalize_bits_into_reset(0, 0, out);
    }

    /// The digest as an owned array and its length.
    #[cfg_attr(not(any(target_arch = "avr", target_arch = "arm")), inline)]
    pub fn finalize(mut self) -> DigestBytes {
        let mut d = DigestBytes { bytes: [0; 64], len: self.variant().output_len() };
        self.engine.finalize_into(0, 0, &mut d.bytes);
        d
    }
}

impl fmt::Debug for Groestl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Groestl")
            .field("variant", &self.engine.variant())
            .field("backend", &self.engine.backend())
            .finish_non_exhaustive()
    }
}

/// A digest of any of the four sizes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct DigestBytes {
    bytes: [u8; 64],
    len: usize,
}

impl AsRef<[u8]> for DigestBytes {
    fn as_ref(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl fmt::Debug for DigestBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DigestBytes(")?;
        fmt::LowerHex::fmt(self, f)?;
        write!(f, ")")
    }
}

impl fmt::LowerHex for DigestBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.as_ref() {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// Hashes a message of `bit_len` bits given as `ceil(bit_len / 8)` bytes (the final partial
/// byte's message bits in its high positions, as in the NIST KAT files).
///
/// # Panics
/// If `data` is shorter than `ceil(bit_len / 8)` bytes.
pub fn hash_bits(variant: Variant, backend: Backend, data: &[u8], bit_len: u64) -> Result<DigestBytes, Error> {
    let mut h = Groestl::with_backend(variant, backend)?;
    let whole = (bit_len / 8) as usize;
    h.update(&data[..whole]);
    let bits = (bit_len % 8) as u32;
    let last = if bits > 0 { data[whole] } else { 0 };
    let mut d = DigestBytes { bytes: [0; 64], len: variant.output_len() };
    h.finalize_bits_into_reset(last, bits, &mut d.bytes);
    Ok(d)
}

/// One message's digest into `out[..variant.output_len()]`, on `backend`: the one-shot form of
/// [`Groestl`], for callers that hash whole messages (the C API's `slicewise_groestl*_hash`).
/// The hasher is built in place (no move of its ~300 bytes out of a `Result`) and the digest
/// written where it is wanted (a copy reloaded right after the digest's 8-byte stores stalls
/// on store forwarding). A 64-byte Grøstl-256 hash on `vaes` through the C API: 11.88 -> 10.37
/// TSC cycles/byte (Zen 4, docs/benchmarks.md).
///
/// # Errors
/// If `backend` cannot run on this CPU.
///
/// # Panics
/// If `out` is shorter than the digest.
#[cfg_attr(not(any(target_arch = "avr", target_arch = "arm")), inline)]
pub fn hash_into(variant: Variant, backend: Backend, data: &[u8], out: &mut [u8]) -> Result<(), Error> {
    let mut e: Engine = Engine::new(variant, backend.check()?);
    e.update(data);
    e.finalize_into(0, 0, out);
    Ok(())
}

/// Hashes many independent messages at once: `outputs[i]` becomes the digest of `inputs[i]`.
///
/// On `gfni`, `avx512` and `aesni` the messages run through multi-buffer kernels that advance
/// several messages in lockstep (any mix of lengths): `gfni` four per pass in the lanes of ZMM
/// registers, `avx512` two and `aesni` four (Grøstl-224/256) or two (Grøstl-384/512) as
/// interleaved XMM register groups. On AArch64, `armv8aes` runs two messages per pass,
/// `armv8sha3` and `neon` two Grøstl-224/256 messages. Other backends (and the other variants)
/// hash them one by one. The result equals hashing each message separately.
///
/// # Panics
/// If `inputs` and `outputs` differ in length.
pub fn hash_many(variant: Variant, backend: Backend, inputs: &[&[u8]], outputs: &mut [DigestBytes]) -> Result<(), Error> {
    let backend = backend.check()?;
    assert_eq!(inputs.len(), outputs.len(), "hash_many: one output per input");
    let (bs, len) = (variant.block_len(), variant.output_len());
    engine::hash_many(variant, backend, inputs, |i, words| {
        let mut state = [0u8; 128];
        for (c, w) in words.iter().enumerate() {
            state[8 * c..8 * c + 8].copy_from_slice(&w.to_be_bytes());
        }
        let d = &mut outputs[i];
        d.len = len;
        d.bytes = [0; 64];
        d.bytes[..len].copy_from_slice(&state[bs - len..bs]);
    });
    Ok(())
}

impl Default for DigestBytes {
    /// An empty digest (length 0), to be filled by [`hash_many`].
    fn default() -> Self {
        DigestBytes { bytes: [0; 64], len: 0 }
    }
}

/// Groestlcoin's hash: the first 32 bytes of Grøstl-512(Grøstl-512(`data`)), as
/// `groestlcoin_hash.getHash(data, len)` of the PyPI package `groestlcoin-hash` computes it.
/// Runs on [`Backend::selected`].
///
/// # Panics
/// If `SLICEWISE_BACKEND` names an unknown or unavailable backend.
pub fn groestlcoin_hash(data: &[u8]) -> [u8; 32] {
    // The two forms compute the same; they differ in the peak stack the compiler gives them
    // on microcontrollers (measured, docs/embedded.md): on AVR one hasher reset between the
    // passes (539 B against 947 B), elsewhere two `digest` calls (Cortex-M0: 476 B against 868 B).
    let mut out = [0u8; 32];
    if cfg!(target_arch = "avr") {
        let mut h = Groestl512::new();
        let mut d = Output::<Groestl512>::default();
        Update::update(&mut h, data);
        FixedOutputReset::finalize_into_reset(&mut h, &mut d);
        Update::update(&mut h, &d);
        FixedOutputReset::finalize_into_reset(&mut h, &mut d);
        out.copy_from_slice(&d[..32]);
    } else {
        let first = Groestl512::digest(data);
        out.copy_from_slice(&Groestl512::digest(first)[..32]);
    }
    out
}

/// [`groestlcoin_hash`] of many 80-byte block headers on the given backend: on `gfni` a fused
/// kernel (eight headers per pass, both hashes in row registers), elsewhere through
/// [`hash_many`] (the multi-buffer path on `avx512`, `aesni` and `armv8aes`, both Grøstl-512
/// passes).
///
/// # Panics
/// If `headers` and `out` differ in length.
pub fn groestlcoin_hash_many(backend: Backend, headers: &[[u8; 80]], out: &mut [[u8; 32]]) -> Result<(), Error> {
    assert_eq!(headers.len(), out.len(), "groestlcoin_hash_many: one output per header");
    let backend = backend.check()?;
    let done = backend::groestlcoin_many(backend, headers, out);
    let (headers, out) = (&headers[done..], &mut out[done..]);
    const CHUNK: usize = 64;
    let mut first = [DigestBytes::default(); CHUNK];
    let mut second = [DigestBytes::default(); CHUNK];
    for (hs, os) in headers.chunks(CHUNK).zip(out.chunks_mut(CHUNK)) {
        let n = hs.len();
        let mut inputs: [&[u8]; CHUNK] = [&[]; CHUNK];
        for (i, h) in hs.iter().enumerate() {
            inputs[i] = h;
        }
        hash_many(Variant::Groestl512, backend, &inputs[..n], &mut first[..n])?;
        for (i, d) in first[..n].iter().enumerate() {
            inputs[i] = &d.bytes[..64];
        }
        hash_many(Variant::Groestl512, backend, &inputs[..n], &mut second[..n])?;
        for (o, d) in os.iter_mut().zip(&second[..n]) {
            o.copy_from_slice(&d.bytes[..32]);
        }
    }
    Ok(())
}
