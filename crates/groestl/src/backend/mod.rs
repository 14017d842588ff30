//! Backends: one file per technique, one `Backend` value chosen per hasher.
//!
//! Every backend implements the same four operations on the canonical chaining value (one
//! big-endian `u64` per column, row 0 in the most significant byte):
//! `compress512(h, blocks)`, `compress1024(h, blocks)` take any number of whole blocks per
//! call, so that a backend's layout conversion is paid once per call, and `output512(h)`,
//! `output1024(h)` return `P(h) ⊕ h`.

use core::fmt;

#[cfg(all(feature = "alloc", not(feature = "std")))]
use alloc::string::{String, ToString};
#[cfg(not(feature = "alloc"))]
use crate::text::{InlineStr as String, ToInlineString as _};

// The safe entry points of the SIMD kernels (`entry_points!`), in a file below both the kernels
// and this dispatcher.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod entry;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(crate) use entry::entry_points;

/// Calls `$f` of the backend's module; SIMD backends exist only on their architecture (x86-64
/// or AArch64; elsewhere they are never available, so never selected).
macro_rules! dispatch {
    ($b:expr, $f:ident($($a:expr),*)) => {
        match $b {
            #[cfg(not(target_arch = "avr"))]
            Backend::Portable => portable::$f($($a),*),
            #[cfg(not(target_arch = "avr"))]
            Backend::TTable64 => ttable64::$f($($a),*),
            #[cfg(not(target_arch = "avr"))]
            Backend::TTable32 => ttable32::$f($($a),*),
            #[cfg(target_arch = "x86_64")]
            Backend::Bitsliced => bitsliced::$f($($a),*),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2Gather => avx2gather::$f($($a),*),
            b => simd_dispatch!(b, $f($($a),*)),
        }
    };
}

/// The SIMD half of `dispatch!` (functions only the SIMD backends have).
macro_rules! simd_dispatch {
    ($b:expr, $f:ident($($a:expr),*)) => {
        match $b {
            #[cfg(target_arch = "x86_64")]
            Backend::Aesni => aesni::$f($($a),*),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => avx512::$f($($a),*),
            #[cfg(target_arch = "x86_64")]
            Backend::Gfni => gfni::$f($($a),*),
            #[cfg(target_arch = "x86_64")]
            Backend::GfniAvx2 => gfniavx2::$f($($a),*),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => avx2::$f($($a),*),
            #[cfg(target_arch = "x86_64")]
            Backend::Vaes => vaes::$f($($a),*),
            #[cfg(target_arch = "x86_64")]
            Backend::Vperm => vperm::$f($($a),*),
            #[cfg(target_arch = "aarch64")]
            Backend::Armv8Aes => arm::armv8aes::$f($($a),*),
            #[cfg(target_arch = "aarch64")]
            Backend::Armv8Sha3 => arm::armv8aes::sha3::$f($($a),*),
            #[cfg(target_arch = "aarch64")]
            Backend::Neon => arm::armv8aes::vperm::$f($($a),*),
            #[cfg(any(target_arch = "arm", target_arch = "avr"))]
            Backend::Mcu => mcu::$f($($a),*),
            #[cfg(slicewise_neon7)]
            Backend::Neon7Bs => arm::neon7::bs::$f($($a),*),
            #[cfg(slicewise_neon7)]
            Backend::Neon7Tt => arm::neon7::tt::$f($($a),*),
            #[cfg(slicewise_neon7)]
            Backend::Neon7Vp => arm::neon7::vp::$f($($a),*),
            b => unreachable!("backend {} has no {}", b.name(), stringify!($f)),
        }
    };
}

#[cfg(any(target_arch = "aarch64", slicewise_neon7))]
pub(crate) mod arm;
#[cfg(target_arch = "x86_64")]
pub(crate) mod aesni;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2gather;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512;
#[cfg(target_arch = "x86_64")]
pub(crate) mod gfni;
#[cfg(target_arch = "x86_64")]
pub(crate) mod gfniavx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod multi;
#[cfg(target_arch = "x86_64")]
pub(crate) mod vaes;
#[cfg(target_arch = "x86_64")]
pub(crate) mod vperm;
#[cfg(target_arch = "x86_64")]
pub(crate) mod bitsliced;
#[cfg(target_arch = "x86_64")]
pub(crate) mod bytesliced;
// The bitsliced `u64` code unrolls to more code than an AVR has flash (about 160 KiB for the
// two widths); `mcu` is the AVR backend.
#[cfg(not(target_arch = "avr"))]
pub(crate) mod portable;
#[cfg(any(target_arch = "arm", test))]
#[cfg_attr(all(target_arch = "arm", target_os = "none"), allow(dead_code, unused_imports))]
pub(crate) mod mcu;
// On AVR, `mcu` is the assembly kernels (the Rust row code above compiles to 64/128-bit
// arithmetic on 8-bit registers, 37× slower).
#[cfg(target_arch = "avr")]
#[path = "mcu_avr.rs"]
pub(crate) mod mcu;
// `mcu`'s compression function in Thumb-1 assembly (bare-metal ARM; checked by
// `scripts/gen-mcu-groestl.py` and by the on-target KATs, `scripts/test-embedded.sh`).
#[cfg(all(target_arch = "arm", target_os = "none"))]
pub(crate) mod mcu_thumb;
// The T-tables (24 KiB) do not fit an AVR's RAM, where `.rodata` is copied to.
#[cfg(not(target_arch = "avr"))]
pub(crate) mod ttable32;
#[cfg(not(target_arch = "avr"))]
pub(crate) mod ttable64;

/// The name of the environment variable that overrides backend detection.
pub const ENV_VAR: &str = "SLICEWISE_BACKEND";

/// An implementation technique for the Grøstl permutations.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// Bytesliced with AES-NI and SSSE3, P and Q rows side by side in XMM registers
    /// (paper [A] §5.1). Constant-time.
    Aesni,
    /// AVX2 + AES-NI: Grøstl-384/512 with P and Q in the two lanes of YMM registers
    /// (paper [V] §4.1). Constant-time.
    Avx2,
    /// `avx2` with 256-bit `VAESENCLAST` (VAES without AVX-512: Zen 3, Alder Lake): SubBytes of
    /// P and Q (or of two messages) in one instruction. Constant-time.
    Vaes,
    /// `aesni` with AVX-512BW/VL MixBytes: `VPTERNLOGQ` three-input XORs, mask-register MUL2,
    /// 32 registers. Constant-time.
    Avx512,
    /// AVX-512VL/VBMI + VAES + GFNI: `GF2P8AFFINEQB` doublings, P and Q of Grøstl-384/512 in the
    /// two lanes of a YMM register, the Grøstl-384/512 output transformation on four YMM
    /// registers (`VPERMB`). Constant-time.
    Gfni,
    /// `gfni` in VEX encodings only (AVX2 + VAES + GFNI, no AVX-512: Alder Lake and later client
    /// cores, AVX-512-less VMs on Zen 4/5): `VGF2P8AFFINEQB` doublings on XMM/YMM registers,
    /// three-input XORs as two `VPXOR`. Constant-time.
    GfniAvx2,
    /// Bytesliced like `aesni`, AES S-box from SSSE3 `PSHUFB` nibble look-ups (Hamburg's
    /// vector permute), for CPUs without AES-NI. Constant-time.
    Vperm,
    /// Bit planes in SSE2 registers, P and Q side by side, Boyar–Peralta S-box circuit
    /// (paper [V] §3.3, §5.2). Constant-time; x86-64 only (SSE2 is baseline there).
    Bitsliced,
    /// Bitsliced in general-purpose registers; constant-time, runs everywhere.
    Portable,
    /// AArch64: bytesliced like `aesni`, S-box by `AESE` (which also adds the round constant),
    /// ShiftBytes by `TBL`, MixBytes on NEON. Constant-time.
    Armv8Aes,
    /// AArch64: `armv8aes` with MixBytes on the FEAT_SHA3 `BCAX` instruction (doubling in 3
    /// instructions instead of 4). Constant-time.
    Armv8Sha3,
    /// AArch64 without the AES instructions: `armv8aes` with the S-box from `TBL` nibble
    /// look-ups (the vector-permute method of `vperm`). Constant-time.
    Neon,
    /// Eight 2 KiB tables of 64-bit words (paper [V] §3.1). Not constant-time.
    TTable64,
    /// Eight 1 KiB tables of 32-bit words, lower halves by index rotation. Not constant-time.
    TTable32,
    /// The `ttable64` tables with four look-ups per AVX2 `VPGATHERQQ`, column-wise state in YMM
    /// registers (paper [V] §4.2). Not constant-time; an experiment.
    Avx2Gather,
    /// Low-memory bytesliced for microcontrollers, one state buffer. Cortex-M: one row per
    /// word, S-box as a Boyar–Peralta circuit on bit planes. AVR: assembly, S-box and doublings
    /// by `LPM` from flash tables (3 cycles at any address on every AVR: no cache). Constant-time.
    #[cfg(any(target_arch = "arm", target_arch = "avr"))]
    Mcu,
    /// ARMv7 NEON (32-bit ARM Linux, run-time detected): bit planes in q registers, P and Q side
    /// by side, Boyar–Peralta S-box, ShiftBytes by `VSHL`, MixBytes with `VEXT` row rotations
    /// (paper [V] §5.2; generated assembly). Constant-time.
    #[cfg(target_arch = "arm")]
    Neon7Bs,
    /// ARMv7 NEON T-tables (paper [V] §5.1): the `ttable64` tables, look-ups loaded and XORed
    /// in NEON registers (generated assembly). Not constant-time; never detected.
    #[cfg(target_arch = "arm")]
    Neon7Tt,
    /// ARMv7 NEON bytesliced (paper [V] §5.3): one row per q register, S-box by `VTBL` nibble
    /// look-ups (vector permute), ShiftBytes by `VTBL` (generated assembly). Constant-time.
    #[cfg(target_arch = "arm")]
    Neon7Vp,
}

/// Why a backend could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// No backend has this name.
    UnknownBackend(String),
    /// The backend exists but this CPU lacks the instructions it needs.
    Unavailable(Backend),
    /// `SLICEWISE_BACKEND` holds something this crate cannot use.
    BadEnvironment { value: String, reason: String },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnknownBackend(name) => {
                write!(f, "unknown Grøstl backend {name:?} (known: ")?;
                for (i, b) in Backend::all().enumerate() {
                    write!(f, "{}{}", if i > 0 { ", " } else { "" }, b.name())?;
                }
                write!(f, ")")
            }
            Error::Unavailable(b) => write!(f, "Grøstl backend {:?} is not available on this CPU", b.name()),
            Error::BadEnvironment { value, reason } => write!(f, "{ENV_VAR}={value:?}: {reason}"),
        }
    }
}

impl core::error::Error for Error {}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for Backend {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Backend::from_name(s)
    }
}

impl Backend {
    /// Every backend, available or not, fastest-first among the constant-time ones.
    #[cfg(not(any(target_arch = "arm", target_arch = "avr")))]
    pub const ALL: &'static [Backend] = &[Backend::Gfni, Backend::Avx512, Backend::GfniAvx2, Backend::Vaes, Backend::Avx2, Backend::Aesni, Backend::Vperm, Backend::Bitsliced, Backend::Armv8Sha3, Backend::Armv8Aes, Backend::Neon, Backend::Portable, Backend::TTable64, Backend::TTable32, Backend::Avx2Gather];
    /// Every backend, available or not, fastest-first among the constant-time ones.
    #[cfg(target_arch = "arm")]
    pub const ALL: &'static [Backend] =
        &[Backend::Neon7Bs, Backend::Neon7Vp, Backend::Mcu, Backend::Portable, Backend::TTable64, Backend::TTable32, Backend::Neon7Tt];
    /// Every backend, available or not, fastest-first among the constant-time ones.
    #[cfg(target_arch = "avr")]
    pub const ALL: &'static [Backend] = &[Backend::Mcu, Backend::Portable, Backend::TTable64, Backend::TTable32];

    /// Iterates over every backend this crate has, whether or not this CPU can run it.
    pub fn all() -> impl Iterator<Item = Backend> {
        Self::ALL.iter().copied()
    }

    /// The backend's name, as `--backend` and `SLICEWISE_BACKEND` spell it.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Aesni => "aesni",
            Backend::Avx512 => "avx512",
            Backend::Gfni => "gfni",
            Backend::GfniAvx2 => "gfniavx2",
            Backend::Avx2 => "avx2",
            Backend::Vaes => "vaes",
            Backend::Vperm => "vperm",
            Backend::Bitsliced => "bitsliced",
            Backend::Portable => "portable",
            Backend::TTable64 => "ttable64",
            Backend::TTable32 => "ttable32",
            Backend::Avx2Gather => "avx2gather",
            Backend::Armv8Aes => "armv8aes",
            Backend::Armv8Sha3 => "armv8sha3",
            Backend::Neon => "neon",
            #[cfg(any(target_arch = "arm", target_arch = "avr"))]
            Backend::Mcu => "mcu",
            #[cfg(target_arch = "arm")]
            Backend::Neon7Bs => "neon7bs",
            #[cfg(target_arch = "arm")]
            Backend::Neon7Tt => "neon7tt",
            #[cfg(target_arch = "arm")]
            Backend::Neon7Vp => "neon7vp",
        }
    }

    /// Looks a backend up by name (whether or not it is available).
    pub fn from_name(name: &str) -> Result<Backend, Error> {
        Self::all().find(|b| b.name() == name).ok_or_else(|| Error::UnknownBackend(name.into()))
    }

    /// Whether this CPU has the instructions the backend needs.
    pub fn is_available(self) -> bool {
        match self {
            Backend::Portable | Backend::TTable64 | Backend::TTable32 => cfg!(not(target_arch = "avr")),
            #[cfg(target_arch = "x86_64")]
            Backend::Aesni => aesni::available(),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => avx512::available(),
            #[cfg(target_arch = "x86_64")]
            Backend::Gfni => gfni::available(),
            #[cfg(target_arch = "x86_64")]
            Backend::GfniAvx2 => gfniavx2::available(),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => avx2::available(),
            #[cfg(target_arch = "x86_64")]
            Backend::Vaes => vaes::available(),
            #[cfg(target_arch = "x86_64")]
            Backend::Vperm => vperm::available(),
            #[cfg(target_arch = "x86_64")]
            Backend::Bitsliced => bitsliced::available(),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2Gather => avx2gather::available(),
            #[cfg(target_arch = "aarch64")]
            Backend::Armv8Aes => arm::armv8aes::available(),
            #[cfg(target_arch = "aarch64")]
            Backend::Armv8Sha3 => arm::armv8aes::sha3::available(),
            #[cfg(target_arch = "aarch64")]
            Backend::Neon => arm::armv8aes::vperm::available(),
            #[cfg(any(target_arch = "arm", target_arch = "avr"))]
            Backend::Mcu => true,
            #[cfg(slicewise_neon7)]
            Backend::Neon7Bs | Backend::Neon7Tt | Backend::Neon7Vp => arm::neon7::available(),
            _ => false,
        }
    }

    /// Whether the running time and memory access pattern are independent of the data.
    pub const fn is_constant_time(self) -> bool {
        match self {
            Backend::Portable | Backend::Aesni | Backend::Avx512 | Backend::Gfni | Backend::GfniAvx2 | Backend::Vperm | Backend::Avx2 | Backend::Vaes | Backend::Bitsliced | Backend::Armv8Aes | Backend::Armv8Sha3 | Backend::Neon => true,
            Backend::TTable64 | Backend::TTable32 | Backend::Avx2Gather => false,
            #[cfg(any(target_arch = "arm", target_arch = "avr"))]
            Backend::Mcu => true,
            #[cfg(target_arch = "arm")]
            Backend::Neon7Bs => true,
            #[cfg(target_arch = "arm")]
            Backend::Neon7Tt => false,
            #[cfg(target_arch = "arm")]
            Backend::Neon7Vp => true,
        }
    }

    /// Returns `self` if available, an error otherwise.
    pub fn check(self) -> Result<Backend, Error> {
        if self.is_available() { Ok(self) } else { Err(Error::Unavailable(self)) }
    }

    /// The fastest constant-time backend this CPU can run (ignores `SLICEWISE_BACKEND`): the
    /// first available one in the preference order of this CPU's class ([`Backend::preference`]).
    pub fn detect() -> Backend {
        Self::detect_for(crate::cpu::cpu_info().class)
    }

    /// [`Backend::detect`] as it would answer on a CPU of `class` with this CPU's features.
    pub fn detect_for(class: crate::cpu::CpuClass) -> Backend {
        Self::preference(class).iter().copied().find(|b| b.is_constant_time() && b.is_available()).unwrap_or(Backend::Portable)
    }

    /// [`Backend::detect`] as it would answer on an x86-64 CPU of `class` with `features`: the
    /// first constant-time backend of the class's order whose kernels need no feature beyond
    /// `features`. Pure, so that every class can be checked on any machine.
    #[cfg(target_arch = "x86_64")]
    pub fn detect_with(class: crate::cpu::CpuClass, features: crate::cpu::Features) -> Backend {
        Self::preference(class)
            .iter()
            .copied()
            .find(|b| b.is_constant_time() && b.required().is_some_and(|r| features.contains(r)))
            .unwrap_or(Backend::Portable)
    }

    /// The x86-64 instruction-set features the backend's kernels are compiled with (`None` for
    /// the ARM backends, which x86-64 never runs).
    #[cfg(target_arch = "x86_64")]
    pub fn required(self) -> Option<crate::cpu::Features> {
        use crate::cpu::Features;
        Some(match self {
            // SSE2 is part of the x86-64 baseline.
            Backend::Portable | Backend::TTable64 | Backend::TTable32 | Backend::Bitsliced => Features::NONE,
            Backend::Aesni => aesni::FEATURES,
            Backend::Avx2 => avx2::FEATURES,
            Backend::Vaes => vaes::FEATURES,
            Backend::Avx512 => avx512::FEATURES,
            Backend::Gfni => gfni::FEATURES,
            Backend::GfniAvx2 => gfniavx2::FEATURES,
            Backend::Vperm => vperm::FEATURES,
            Backend::Avx2Gather => avx2gather::FEATURES,
            Backend::Armv8Aes | Backend::Armv8Sha3 | Backend::Neon => return None,
        })
    }

    /// The constant-time backends fastest-first for a CPU class, as measured where the class
    /// could be measured (`docs/groestl-backends.md` has the figures and says which orders come
    /// from which machine). A backend the CPU lacks is skipped, so one order serves every
    /// feature subset of a class (a VM that hides AVX-512 included).
    pub fn preference(class: crate::cpu::CpuClass) -> &'static [Backend] {
        use crate::cpu::CpuClass;
        use Backend::*;
        // 32-bit ARM: `neon7bs` where the kernel reports NEON (ARMv7 Linux; fewest instructions
        // under qemu, docs/benchmarks-arm.md), then `mcu` (Cortex-M, ARMv6, ARMv7 without NEON),
        // 7.0× faster than `portable` on the Cortex-M0 (docs/embedded.md). AVR: `mcu`.
        #[cfg(target_arch = "arm")]
        const MCU: Option<&[Backend]> = Some(&[Neon7Bs, Neon7Vp, Mcu, Portable]);
        #[cfg(target_arch = "avr")]
        const MCU: Option<&[Backend]> = Some(&[Mcu, Portable]);
        #[cfg(not(any(target_arch = "arm", target_arch = "avr")))]
        const MCU: Option<&[Backend]> = None;
        if let Some(order) = MCU {
            return order;
        }
        match class {
            // Measured on Zen 5 (issue 3) and Zen 4 (issue 9): gfni wins every size. Without
            // AVX-512 (Zen 3; a Zen 4/5 VM that hides it, which classifies as Zen 3) the VEX
            // kernels come next: gfniavx2 where GFNI is there, else vaes. Without GFNI
            // (a VM that hides it) vaes beats avx512 on Grøstl-512 and in hash_many on Zen 4,
            // avx512 wins only one Grøstl-256 stream.
            CpuClass::AmdZen5 | CpuClass::AmdZen4 | CpuClass::AmdZen3 => &[Gfni, GfniAvx2, Vaes, Avx512, Avx2, Aesni, Vperm, Bitsliced, Portable],
            // Split 256-bit datapaths: a YMM instruction costs two micro-ops, so the YMM kernels
            // gain only decode bandwidth; measured in issue 9 on an EPYC 7001, avx2 and aesni
            // are within a few percent (avx2 ahead at 1 MiB), so avx2 stays first.
            CpuClass::AmdZen1 => &[Avx2, Aesni, Vperm, Bitsliced, Portable],
            // Every other x86 class, and AArch64 (class `Other`): the ARM order is by instruction
            // counts under qemu (docs/benchmarks-arm.md), there being no ARM hardware to time.
            _ => &[Gfni, Avx512, GfniAvx2, Vaes, Avx2, Aesni, Vperm, Bitsliced, Armv8Sha3, Armv8Aes, Neon, Portable],
        }
    }

    /// Parses a `SLICEWISE_BACKEND` value. It is a comma-separated list whose entries are
    /// either `NAME`, which applies to every primitive, or `groestl:NAME`; entries for other
    /// primitives (`proest:NAME`) are ignored here. Returns `Ok(None)` when no entry applies.
    pub fn parse_override(value: &str) -> Result<Option<Backend>, Error> {
        let mut chosen = None;
        for entry in value.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let name = match entry.split_once(':') {
                Some(("groestl", name)) => name,
                Some((_, _)) => continue,
                None => entry,
            };
            let b = Backend::from_name(name).map_err(|e| Error::BadEnvironment {
                value: value.into(),
                reason: e.to_string(),
            })?;
            if !b.is_available() {
                return Err(Error::BadEnvironment {
                    value: value.into(),
                    reason: Error::Unavailable(b).to_string(),
                });
            }
            chosen = Some(b);
        }
        Ok(chosen)
    }

    /// The backend new hashers use: `SLICEWISE_BACKEND` if set, otherwise [`Backend::detect`].
    /// Read once per process.
    #[cfg(feature = "std")]
    pub fn selected() -> Result<Backend, Error> {
        use std::sync::OnceLock;
        static SELECTED: OnceLock<Result<Backend, Error>> = OnceLock::new();
        SELECTED
            .get_or_init(|| match std::env::var(ENV_VAR) {
                Ok(v) => Ok(Backend::parse_override(&v)?.unwrap_or_else(Backend::detect)),
                Err(std::env::VarError::NotPresent) => Ok(Backend::detect()),
                Err(std::env::VarError::NotUnicode(v)) => Err(Error::BadEnvironment {
                    value: v.to_string_lossy().into_owned(),
                    reason: "not valid UTF-8".into(),
                }),
            })
            .clone()
    }

    /// Without `std` there is no environment: the detected backend.
    #[cfg(not(feature = "std"))]
    pub fn selected() -> Result<Backend, Error> {
        Ok(Backend::detect())
    }

    #[inline]
    pub(crate) fn compress512(self, h: &mut [u64; 8], blocks: &[u8]) {
        #[cfg(any(target_arch = "arm", target_arch = "avr"))]
        if self == Backend::Mcu {
            return mcu::compress512(h, blocks);
        }
        self.compress512_other(h, blocks)
    }

    /// The other backends' dispatch. On microcontrollers it is never inlined, so that the
    /// `mcu` path does not carry their stack frames (the inlined `portable` needs ~0.9 KiB).
    #[cfg_attr(any(target_arch = "arm", target_arch = "avr"), inline(never))]
    #[cfg_attr(not(any(target_arch = "arm", target_arch = "avr")), inline)]
    fn compress512_other(self, h: &mut [u64; 8], blocks: &[u8]) {
        dispatch!(self, compress512(h, blocks))
    }

    #[inline]
    pub(crate) fn compress1024(self, h: &mut [u64; 16], blocks: &[u8]) {
        #[cfg(any(target_arch = "arm", target_arch = "avr"))]
        if self == Backend::Mcu {
            return mcu::compress1024(h, blocks);
        }
        self.compress1024_other(h, blocks)
    }

    /// As `compress512_other`.
    #[cfg_attr(any(target_arch = "arm", target_arch = "avr"), inline(never))]
    #[cfg_attr(not(any(target_arch = "arm", target_arch = "avr")), inline)]
    fn compress1024_other(self, h: &mut [u64; 16], blocks: &[u8]) {
        dispatch!(self, compress1024(h, blocks))
    }

    /// `P(h) ⊕ h` alone (the engine uses the fused `finish*`; kept for tests and tools).
    #[inline]
    pub(crate) fn output512(self, h: &[u64; 8]) -> [u64; 8] {
        dispatch!(self, output512(h))
    }

    /// Compresses the last block(s) and applies the output transformation (one layout
    /// conversion each way for the SIMD backends).
    #[inline]
    pub(crate) fn finish512(self, h: &[u64; 8], blocks: &[u8]) -> [u64; 8] {
        match self {
            Backend::Portable | Backend::TTable64 | Backend::TTable32 | Backend::Bitsliced | Backend::Avx2Gather => {
                let mut h = *h;
                self.compress512(&mut h, blocks);
                self.output512(&h)
            }
            b => simd_dispatch!(b, finish512(h, blocks)),
        }
    }

    /// `finish512` into `h` itself: on `mcu` without a copy of the state (its RAM figure).
    #[inline]
    pub(crate) fn finish512_in_place(self, h: &mut [u64; 8], blocks: &[u8]) {
        match self {
            #[cfg(any(target_arch = "arm", target_arch = "avr"))]
            Backend::Mcu => {
                mcu::compress512(h, blocks);
                mcu::output512_in_place(h);
            }
            b => b.finish512_other(h, blocks),
        }
    }

    /// `finish512` into `h` for the other backends (not inlined on microcontrollers, as
    /// `compress512_other`).
    #[cfg_attr(any(target_arch = "arm", target_arch = "avr"), inline(never))]
    #[cfg_attr(not(any(target_arch = "arm", target_arch = "avr")), inline)]
    fn finish512_other(self, h: &mut [u64; 8], blocks: &[u8]) {
        *h = self.finish512(h, blocks);
    }

    /// `finish1024` into `h` itself.
    #[inline]
    pub(crate) fn finish1024_in_place(self, h: &mut [u64; 16], blocks: &[u8]) {
        match self {
            #[cfg(any(target_arch = "arm", target_arch = "avr"))]
            Backend::Mcu => {
                mcu::compress1024(h, blocks);
                mcu::output1024_in_place(h);
            }
            b => b.finish1024_other(h, blocks),
        }
    }

    /// `finish1024` into `h` for the other backends (not inlined on microcontrollers, as
    /// `compress512_other`).
    #[cfg_attr(any(target_arch = "arm", target_arch = "avr"), inline(never))]
    #[cfg_attr(not(any(target_arch = "arm", target_arch = "avr")), inline)]
    fn finish1024_other(self, h: &mut [u64; 16], blocks: &[u8]) {
        *h = self.finish1024(h, blocks);
    }

    #[inline]
    pub(crate) fn finish1024(self, h: &[u64; 16], blocks: &[u8]) -> [u64; 16] {
        match self {
            Backend::Portable | Backend::TTable64 | Backend::TTable32 | Backend::Bitsliced | Backend::Avx2Gather => {
                let mut h = *h;
                self.compress1024(&mut h, blocks);
                self.output1024(&h)
            }
            b => simd_dispatch!(b, finish1024(h, blocks)),
        }
    }

    /// `P(h) ⊕ h` alone (the engine uses the fused `finish*`; kept for tests and tools).
    #[inline]
    pub(crate) fn output1024(self, h: &[u64; 16]) -> [u64; 16] {
        dispatch!(self, output1024(h))
    }
}

/// A multi-buffer kernel: up to `lanes` messages per call, `out[j]` = `P(h) ⊕ h` of message `j`.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
type Many<const N: usize> = (usize, fn(&[&[u8]], &[u64; N], &mut [[u64; N]]));

/// The multi-buffer kernels of a backend (Grøstl-224/256, Grøstl-384/512), if it has them.
#[cfg(target_arch = "x86_64")]
fn many_kernels(backend: Backend) -> Option<(Many<8>, Many<16>)> {
    match backend {
        Backend::Gfni => Some(((multi::LANES, multi::many512_gfni), (multi::LANES, multi::many1024_gfni))),
        // Lane counts as measured on Zen 5 (docs/groestl-backends.md): two messages per YMM
        // register; with 32 registers `avx512` keeps four groups in flight (8 Grøstl-256 or 4
        // Grøstl-512 messages), the 16-register `avx2`/`vaes` two (4 or 2). `aesni` gains from
        // four Grøstl-256 states despite spills.
        Backend::Avx512 => Some(((8, avx512::many512_8), (4, avx512::many1024_4))),
        Backend::Aesni => Some(((4, aesni::many512_4), (2, aesni::many1024_2))),
        Backend::Avx2 => Some(((4, avx2::many512_4), (2, avx2::many1024_2))),
        Backend::Vaes => Some(((4, vaes::many512_4), (2, vaes::many1024_2))),
        Backend::GfniAvx2 => Some(((4, gfniavx2::many512_4), (2, gfniavx2::many1024_2))),
        // Throughput-bound on its nibble look-ups: two messages in lockstep gain 3–5 % (Zen 4).
        Backend::Vperm => Some(((2, vperm::many512_2), (2, vperm::many1024_2))),
        _ => None,
    }
}

/// The Grøstl-224/256 multi-buffer kernel of an AArch64 backend, with its lane count.
#[cfg(target_arch = "aarch64")]
pub(crate) fn arm_many512(backend: Backend) -> Option<Many<8>> {
    use arm::armv8aes;
    match backend {
        Backend::Armv8Aes => Some((2, armv8aes::many512_2)),
        Backend::Armv8Sha3 => Some((2, armv8aes::sha3::many512_2)),
        Backend::Neon => Some((2, armv8aes::vperm::many512_2)),
        _ => None,
    }
}

/// The Grøstl-384/512 multi-buffer kernel of an AArch64 backend, with its lane count: only
/// `armv8aes`, where two messages per pass count fewer instructions than one at a time (on
/// `armv8sha3` and `neon` they count more; docs/benchmarks-arm.md).
#[cfg(target_arch = "aarch64")]
pub(crate) fn arm_many1024(backend: Backend) -> Option<Many<16>> {
    match backend {
        Backend::Armv8Aes => Some((2, arm::armv8aes::many1024_2)),
        _ => None,
    }
}

/// Runs `kernel` over `inputs` in chunks of its lane count; a last chunk of one message is left
/// to the one-message path (a pass costs nearly as much with idle lanes). Returns how many
/// messages were hashed.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn many_chunks<const N: usize>((lanes, kernel): Many<N>, iv: &[u64; N], inputs: &[&[u8]], emit: &mut impl FnMut(usize, &[u64])) -> usize {
    let mut out = [[0u64; N]; 8];
    assert!((2..=8).contains(&lanes));
    let done = if inputs.len() % lanes == 1 { inputs.len() - 1 } else { inputs.len() };
    for (c, chunk) in inputs[..done].chunks(lanes).enumerate() {
        kernel(chunk, iv, &mut out[..chunk.len()]);
        for (j, o) in out[..chunk.len()].iter().enumerate() {
            emit(c * lanes + j, o);
        }
    }
    done
}

/// Groestlcoin hashes of 80-byte headers through a fused multi-buffer kernel, where the backend
/// has one (`gfni`: eight headers per pass, both hashes without leaving the row registers).
/// Returns how many headers were hashed (a last single header is left to the caller, as in
/// [`many_chunks`]). `backend` must be available.
pub(crate) fn groestlcoin_many(backend: Backend, headers: &[[u8; 80]], out: &mut [[u8; 32]]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if backend == Backend::Gfni {
        let n = headers.len();
        let done = if n % multi::LANES == 1 { n - 1 } else { n };
        multi::groestlcoin_gfni(&headers[..done], &mut out[..done]);
        return done;
    }
    let _ = (backend, headers, out);
    0
}

/// Hashes a prefix of independent messages with the backend's multi-buffer kernels, where it
/// has them (`gfni`: four messages per ZMM pass; `avx512`, `aesni`: interleaved XMM groups;
/// `armv8aes`, `armv8sha3`, `neon`: two Grøstl-224/256 messages per pass, `armv8aes` also two
/// Grøstl-384/512). `iv` is the initial chaining value (its first 8 words when not `wide`);
/// `emit(i, words)` receives message `i`'s `P(h) ⊕ h` (before truncation). Returns how many
/// messages were hashed: the engine hashes the rest one at a time (`engine::hash_many`).
/// `backend` must be available.
pub(crate) fn hash_many_prefix(
    backend: Backend,
    wide: bool,
    iv: &[u64; 16],
    inputs: &[&[u8]],
    mut emit: impl FnMut(usize, &[u64]),
) -> usize {
    #[allow(unused_mut)]
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    if let Some((k512, k1024)) = many_kernels(backend) {
        done = if wide {
            many_chunks(k1024, iv, inputs, &mut emit)
        } else {
            many_chunks(k512, iv[..8].try_into().unwrap(), inputs, &mut emit)
        };
    }
    // AArch64: two messages per pass (Grøstl-224/256: two P|Q groups; Grøstl-384/512 on
    // `armv8aes`: the P groups of both messages, then the Q groups).
    #[cfg(target_arch = "aarch64")]
    if wide {
        if let Some(k) = arm_many1024(backend) {
            done = many_chunks(k, iv, inputs, &mut emit);
        }
    } else if let Some(k) = arm_many512(backend) {
        done = many_chunks(k, iv[..8].try_into().unwrap(), inputs, &mut emit);
    }
    let _ = (backend, wide, iv, inputs, &mut emit);
    done
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for b in Backend::all() {
            assert_eq!(Backend::from_name(b.name()), Ok(b));
        }
        assert!(matches!(Backend::from_name("nope"), Err(Error::UnknownBackend(_))));
    }

    #[test]
    fn detect_picks_a_constant_time_available_backend() {
        let b = Backend::detect();
        assert!(b.is_constant_time() && b.is_available());
        use crate::cpu::CpuClass::*;
        for class in [AmdZen1, AmdZen2, AmdZen3, AmdZen4, AmdZen5, IntelAvx512, IntelAvx2, Other] {
            let order = Backend::preference(class);
            assert!(order.iter().all(|b| b.is_constant_time()), "{class}");
            assert_eq!(order.last(), Some(&Backend::Portable), "{class}");
            let d = Backend::detect_for(class);
            assert!(d.is_available() && d.is_constant_time(), "{class}");
        }
        assert!(!Backend::TTable64.is_constant_time());
        assert!(!Backend::TTable32.is_constant_time());
        assert!(!Backend::Avx2Gather.is_constant_time());
        #[cfg(target_arch = "arm")]
        {
            assert!(!Backend::Neon7Tt.is_constant_time());
            assert!(Backend::preference(Other).iter().all(|&b| b != Backend::Neon7Tt));
        }
    }

    #[test]
    fn fused_finish_equals_compress_then_output() {
        let data: Vec<u8> = (0..512u32).map(|i| (i * 37 + 11) as u8).collect();
        // Under Miri one block (the paths with data; each compression is slow there; about
        // 45 s of CI's Miri step saved against zero and one).
        let blocks = if cfg!(miri) { 1..2 } else { 0..3 };
        for b in Backend::all().filter(|b| crate::backend_report::gate("groestl", b.name(), b.is_available(), "fused finish unit test")) {
            for nblocks in blocks.clone() {
                let mut h8 = [0x0123_4567_89ab_cdefu64; 8];
                h8[3] = 7;
                let mut c8 = h8;
                b.compress512(&mut c8, &data[..64 * nblocks]);
                assert_eq!(b.finish512(&h8, &data[..64 * nblocks]), b.output512(&c8), "{b} 512 {nblocks}");
                assert_eq!(b.output512(&h8), Backend::Portable.output512(&h8), "{b}");
                let mut h16 = [0xfedc_ba98_7654_3210u64; 16];
                h16[9] = 1;
                let mut c16 = h16;
                b.compress1024(&mut c16, &data[..128 * nblocks]);
                assert_eq!(b.finish1024(&h16, &data[..128 * nblocks]), b.output1024(&c16), "{b} 1024 {nblocks}");
                assert_eq!(b.output1024(&h16), Backend::Portable.output1024(&h16), "{b}");
            }
        }
    }

    #[test]
    fn override_syntax() {
        assert_eq!(Backend::parse_override("ttable64"), Ok(Some(Backend::TTable64)));
        assert_eq!(Backend::parse_override("proest:portable,groestl:ttable32"), Ok(Some(Backend::TTable32)));
        assert_eq!(Backend::parse_override("proest:u32x2"), Ok(None));
        assert_eq!(Backend::parse_override(""), Ok(None));
        let e = Backend::parse_override("groestl:bogus").unwrap_err();
        assert!(e.to_string().contains("unknown Grøstl backend \"bogus\""), "{e}");
    }
}
