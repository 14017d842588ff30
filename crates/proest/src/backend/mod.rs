//! Permutation backends: one file per backend, one [`Backend`] enum, chosen once per object.
//!
//! | name | technique | Prøst-128 | Prøst-256 | constant time |
//! |---|---|---|---|---|
//! | `portable` | reference round function, 72-XOR MixSlices | yes | yes | yes |
//! | `mixslp` | same, MixSlices as a short XOR program (`src/generated/mixslices.rs`) | yes | yes | yes |
//! | `u32x2` | two lanes per word (ARM11 technique): 16-bit pairs in `u32`; for Prøst-256 32-bit pairs in `u64` | yes | yes | yes |
//! | `avx2` | lane-sliced many-state kernels (16 / 8 states per YMM batch) and the `em_many` kernel; single states by `u32x2` | yes | yes | yes |
//! | `avx512` | lane-sliced many-state kernels (32 / 16 states per ZMM batch) and the `em_many` kernel; single Prøst-128 P in one YMM | yes | yes | yes |
//! | `neon` | AArch64: lane-sliced many-state kernels (8 / 4 states per batch of 16 NEON registers) and the `em_many` kernel; single states in 2 / 4 NEON registers (the planes as elements). ARMv7 with NEON: 4 Prøst-128 states per batch in generated assembly (`neon7.rs`, `neon7.S`), everything else on `arm11` | yes | yes | yes |
//!
//! The first three are plain Rust and available on every CPU; `avx2` and `avx512` are detected
//! at run time. The environment variable `SLICEWISE_BACKEND` overrides [`Backend::detect`]
//! process-wide for constructors that do not name a backend ([`Backend::preferred`]), with the
//! list syntax of [`Backend::parse_override`]; an unknown or unavailable name is an error.

use crate::em::{EmJob, EmSums};
use crate::error::Error;
use crate::lane::State;

#[cfg(slicewise_arm11)]
pub(crate) mod arm11;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512;
pub(crate) mod kernels;
pub(crate) mod mixslp;
pub(crate) mod names;
#[cfg(any(target_arch = "aarch64", slicewise_neon7))]
pub(crate) mod batched;
#[cfg(target_arch = "aarch64")]
pub(crate) mod neon;
#[cfg(slicewise_neon7)]
#[path = "neon7.rs"]
pub(crate) mod neon;
pub(crate) mod portable;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(crate) mod sliced;
pub(crate) mod u32x2;

pub(crate) use kernels::Kernels;

macro_rules! kernels {
    ($lane:ty, $many:ident, $one:ident, $em:ident, $arm11_p:path, $arm11_i:path, $arm11_em:path, $arm11_bytes:path) => {
        impl Kernels for $lane {
            #[cfg(slicewise_arm11)]
            #[inline]
            fn arm11_one(state: &mut State<Self>, inverse: bool) {
                if inverse { $arm11_i(state) } else { $arm11_p(state) }
            }
            #[cfg(slicewise_arm11)]
            #[inline]
            fn arm11_em(job: &mut EmJob<'_>) -> EmSums {
                $arm11_em(job)
            }
            #[cfg(slicewise_arm11)]
            #[inline]
            fn arm11_bytes(bytes: &mut [u8], inverse: bool) -> bool {
                $arm11_bytes(bytes, inverse)
            }
            #[cfg(target_arch = "x86_64")]
            #[inline]
            fn avx2_many(states: &mut [State<Self>], inverse: bool) {
                avx2::$many(states, inverse)
            }
            #[cfg(target_arch = "x86_64")]
            #[inline]
            fn avx512_many(states: &mut [State<Self>], inverse: bool) {
                avx512::$many(states, inverse)
            }
            #[cfg(target_arch = "x86_64")]
            #[inline]
            fn avx512_one(state: &mut State<Self>, inverse: bool) {
                avx512::$one(state, inverse)
            }
            #[cfg(target_arch = "x86_64")]
            #[inline]
            fn avx512_em(job: &mut EmJob<'_>) -> EmSums {
                avx512::$em(job)
            }
            #[cfg(target_arch = "x86_64")]
            #[inline]
            fn avx2_em(job: &mut EmJob<'_>) -> EmSums {
                avx2::$em(job)
            }
            #[cfg(not(target_arch = "x86_64"))]
            fn avx2_em(_: &mut EmJob<'_>) -> EmSums {
                unreachable!("the avx2 backend is never available off x86-64")
            }
            #[cfg(not(target_arch = "x86_64"))]
            fn avx512_em(_: &mut EmJob<'_>) -> EmSums {
                unreachable!("the avx512 backend is never available off x86-64")
            }
            #[cfg(not(target_arch = "x86_64"))]
            fn avx2_many(_: &mut [State<Self>], _: bool) {
                unreachable!("the avx2 backend is never available off x86-64")
            }
            #[cfg(not(target_arch = "x86_64"))]
            fn avx512_many(_: &mut [State<Self>], _: bool) {
                unreachable!("the avx512 backend is never available off x86-64")
            }
            #[cfg(not(target_arch = "x86_64"))]
            fn avx512_one(_: &mut State<Self>, _: bool) {
                unreachable!("the avx512 backend is never available off x86-64")
            }
            #[cfg(any(target_arch = "aarch64", slicewise_neon7))]
            #[inline]
            fn neon_many(states: &mut [State<Self>], inverse: bool) {
                neon::$many(states, inverse)
            }
            #[cfg(any(target_arch = "aarch64", slicewise_neon7))]
            #[inline]
            fn neon_em(job: &mut EmJob<'_>) -> EmSums {
                neon::$em(job)
            }
            #[cfg(any(target_arch = "aarch64", slicewise_neon7))]
            #[inline]
            fn neon_one(state: &mut State<Self>, inverse: bool) {
                neon::$one(state, inverse)
            }
        }
    };
}
kernels!(u16, many128, one128, em128, arm11::permute128, arm11::inverse128, arm11::em128, arm11::bytes128);
kernels!(u32, many256, one256, em256, arm11::permute256, arm11::inverse256, arm11::em256, arm11::bytes256);

/// Name of the environment variable that overrides backend detection.
pub const ENV_VAR: &str = "SLICEWISE_BACKEND";

/// A Prøst permutation backend.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// The reference round function with the 72-XOR MixSlices.
    Portable,
    /// MixSlices as a short generated XOR program.
    MixSlp,
    /// Two lanes per machine word (the ARM11 paper's technique).
    U32x2,
    /// Lane-sliced AVX2 many-state kernels (16 Prøst-128 / 8 Prøst-256 states per batch);
    /// single states by `u32x2`.
    Avx2,
    /// Lane-sliced AVX-512 many-state kernels (32 Prøst-128 / 16 Prøst-256 states per batch)
    /// and a single-state AVX-512 kernel.
    Avx512,
    /// AArch64: lane-sliced NEON many-state kernels (8 Prøst-128 / 4 Prøst-256 states per
    /// batch) and single-state NEON kernels (one state in 2 / 4 registers).
    Neon,
    /// 32-bit ARM (ARMv6+, ARM state): P and P^-1 in generated assembly, the ARM11 paper's
    /// techniques (`scripts/gen-arm11-proest.py`), Prøst-128 and Prøst-256.
    Arm11,
}

impl Backend {
    /// Every backend, in a fixed order.
    pub const ALL: [Backend; 7] = [
        Backend::Portable,
        Backend::MixSlp,
        Backend::U32x2,
        Backend::Avx2,
        Backend::Avx512,
        Backend::Neon,
        Backend::Arm11,
    ];
    /// Every backend's name, in the order of [`Backend::ALL`].
    pub const NAMES: [&'static str; 7] = names::NAMES;

    /// Iterates over every backend (available or not).
    pub fn all() -> impl Iterator<Item = Backend> {
        Self::ALL.into_iter()
    }

    /// Iterates over the backends this CPU can run.
    pub fn available() -> impl Iterator<Item = Backend> {
        Self::all().filter(|b| b.is_available())
    }

    /// The backend's stable name (used by `SLICEWISE_BACKEND`, the CLI and benchmarks).
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::MixSlp => "mixslp",
            Backend::U32x2 => "u32x2",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
            Backend::Neon => "neon",
            Backend::Arm11 => "arm11",
        }
    }

    /// A one-line description.
    pub const fn description(self) -> &'static str {
        match self {
            Backend::Portable => "reference round function, 72-XOR MixSlices",
            Backend::MixSlp => "short XOR program for MixSlices (generated SLP)",
            Backend::U32x2 => "two lanes per machine word (ARM11 technique)",
            Backend::Avx2 => "lane-sliced AVX2 (16/8 states per batch); single states by u32x2",
            Backend::Avx512 => "lane-sliced AVX-512 (32/16 states per batch) and a single-state AVX-512 kernel",
            Backend::Neon => {
                "lane-sliced NEON: AArch64 8/4 states per batch, single states in 2/4 NEON registers; ARMv7 4 Prøst-128 states per batch (assembly), the rest on arm11"
            }
            Backend::Arm11 => {
                "ARMv6 assembly (ARM11 techniques: paired 16-bit lanes, 23-XOR in-place MixSlices, free rotations)"
            }
        }
    }

    /// Looks a backend up by [`Backend::name`] (ASCII case-insensitive).
    pub fn from_name(name: &str) -> Result<Backend, Error> {
        Self::all()
            .find(|b| b.name().eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| Error::UnknownBackend(name.into()))
    }

    /// Whether this CPU can run the backend (runtime CPUID detection for the SIMD backends;
    /// never on other architectures).
    pub fn is_available(self) -> bool {
        match self {
            Backend::Portable | Backend::MixSlp | Backend::U32x2 => true,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => avx2::available(),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => avx512::available(),
            #[cfg(not(target_arch = "x86_64"))]
            Backend::Avx2 | Backend::Avx512 => false,
            // NEON is part of the AArch64 baseline; on ARMv7 the kernel reports it.
            #[cfg(target_arch = "aarch64")]
            Backend::Neon => true,
            #[cfg(slicewise_neon7)]
            Backend::Neon => neon::available(),
            #[cfg(not(any(target_arch = "aarch64", slicewise_neon7)))]
            Backend::Neon => false,
            Backend::Arm11 => cfg!(slicewise_arm11),
        }
    }

    /// Whether the backend runs in time independent of secret data. Every backend is.
    pub const fn is_constant_time(self) -> bool {
        match self {
            Backend::Portable
            | Backend::MixSlp
            | Backend::U32x2
            | Backend::Avx2
            | Backend::Avx512
            | Backend::Neon
            | Backend::Arm11 => true,
        }
    }

    /// The fastest available constant-time backend for this CPU (ignores `SLICEWISE_BACKEND`;
    /// see [`Backend::preferred`]): `avx512`, else `avx2`, else `u32x2` (`docs/benchmarks.md`:
    /// on the project's AVX-512 machines (Zen 4 when this was measured) `avx512` is the fastest for every mode and size, 10–25×
    /// faster than `u32x2` for COPA and OTR at 16 KiB, and no slower for APE).
    pub fn detect() -> Backend {
        // AArch64 (separate from the x86 order): NEON is baseline; `neon` batches many states
        // and runs single states on `u32x2`, so it is never slower than `u32x2`.
        #[cfg(target_arch = "aarch64")]
        return Backend::Neon;
        // ARMv7 with NEON: `neon` batches four Prøst-128 states (`permute_many` and the
        // `em_many` loops) and runs everything else on `arm11`, its em jobs of one block through
        // the same call as `arm11`'s, so it executes no more instructions than `arm11` in any row
        // of docs/benchmarks-arm.md (ARMv7, `scripts/count-insns.sh armv7`).
        #[cfg(slicewise_neon7)]
        if Backend::Neon.is_available() {
            return Backend::Neon;
        }
        // 32-bit ARM (ARMv6 and ARMv7 in ARM state): the assembly backend, by instruction counts
        // under qemu (docs/benchmarks-arm.md); no ARM hardware was available to time it.
        #[cfg(slicewise_arm11)]
        return Backend::Arm11;
        #[allow(unreachable_code)]
        if Backend::Avx512.is_available() {
            Backend::Avx512
        } else if Backend::Avx2.is_available() {
            Backend::Avx2
        } else {
            Backend::U32x2
        }
    }

    /// `Ok(backend)` if this CPU can run it, else [`Error::BackendUnavailable`].
    pub fn check(self) -> Result<Backend, Error> {
        if self.is_available() { Ok(self) } else { Err(Error::BackendUnavailable(self.name())) }
    }

    /// Parses a `SLICEWISE_BACKEND` value, with the syntax every slicewise crate shares: a
    /// comma-separated list whose entries are `NAME` (applies to every primitive) or
    /// `proest:NAME`; entries for other primitives (`groestl:NAME`, …) are ignored; the last
    /// applicable entry wins. `Ok(None)` if no entry applies; an error if an applicable entry
    /// names an unknown backend or one this CPU cannot run.
    pub fn parse_override(value: &str) -> Result<Option<Backend>, Error> {
        let mut chosen = None;
        for entry in value.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let name = match entry.split_once(':') {
                Some((prim, name)) if prim.trim().eq_ignore_ascii_case("proest") => name,
                Some(_) => continue,
                None => entry,
            };
            chosen = Some(Backend::from_name(name)?.check()?);
        }
        Ok(chosen)
    }

    /// The backend named by `SLICEWISE_BACKEND` (see [`Backend::parse_override`]): `Ok(None)`
    /// when unset or when no entry applies to Prøst, an error when an applicable entry names an
    /// unknown or unavailable backend. Read once per process.
    #[cfg(feature = "std")]
    pub fn from_env() -> Result<Option<Backend>, Error> {
        use std::sync::OnceLock;
        static ENV: OnceLock<Result<Option<Backend>, Error>> = OnceLock::new();
        ENV.get_or_init(|| match std::env::var(ENV_VAR) {
            Ok(v) => Backend::parse_override(&v),
            Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(v)) => Err(Error::UnknownBackend(v.to_string_lossy().into_owned())),
        })
        .clone()
    }

    /// Without `std` there is no environment: always `Ok(None)`.
    #[cfg(not(feature = "std"))]
    pub fn from_env() -> Result<Option<Backend>, Error> {
        Ok(None)
    }

    /// The backend constructors use when none is named: `SLICEWISE_BACKEND` if set (an error
    /// if it is unknown or unavailable, never a silent fallback), else [`Backend::detect`].
    pub fn preferred() -> Result<Backend, Error> {
        Ok(Self::from_env()?.unwrap_or_else(Backend::detect))
    }

    /// P on one state. `self` must be available (checked at construction).
    #[inline]
    pub(crate) fn permute<L: Kernels>(self, s: &mut State<L>) {
        match self {
            Backend::Portable => portable::permute(s),
            Backend::MixSlp => mixslp::permute(s),
            Backend::U32x2 | Backend::Avx2 => u32x2::permute(s),
            #[cfg(any(target_arch = "aarch64", slicewise_neon7))]
            Backend::Neon => L::neon_one(s, false),
            #[cfg(not(any(target_arch = "aarch64", slicewise_neon7)))]
            Backend::Neon => unreachable!("the neon backend is only available on AArch64 and ARMv7 with NEON"),
            Backend::Avx512 => L::avx512_one(s, false),
            #[cfg(slicewise_arm11)]
            Backend::Arm11 => L::arm11_one(s, false),
            #[cfg(not(slicewise_arm11))]
            Backend::Arm11 => unreachable!("the arm11 backend is only available on 32-bit ARM"),
        }
    }

    /// P^-1 on one state.
    #[inline]
    pub(crate) fn inverse<L: Kernels>(self, s: &mut State<L>) {
        match self {
            Backend::Portable => portable::inverse(s),
            Backend::MixSlp => mixslp::inverse(s),
            Backend::U32x2 | Backend::Avx2 => u32x2::inverse(s),
            #[cfg(any(target_arch = "aarch64", slicewise_neon7))]
            Backend::Neon => L::neon_one(s, true),
            #[cfg(not(any(target_arch = "aarch64", slicewise_neon7)))]
            Backend::Neon => unreachable!("the neon backend is only available on AArch64 and ARMv7 with NEON"),
            Backend::Avx512 => L::avx512_one(s, true),
            #[cfg(slicewise_arm11)]
            Backend::Arm11 => L::arm11_one(s, true),
            #[cfg(not(slicewise_arm11))]
            Backend::Arm11 => unreachable!("the arm11 backend is only available on 32-bit ARM"),
        }
    }

    /// P on many states: one dispatch per call.
    #[inline]
    pub(crate) fn permute_many<L: Kernels>(self, states: &mut [State<L>]) {
        match self {
            Backend::Portable => states.iter_mut().for_each(portable::permute),
            Backend::MixSlp => states.iter_mut().for_each(mixslp::permute),
            Backend::U32x2 => states.iter_mut().for_each(u32x2::permute),
            Backend::Avx2 => L::avx2_many(states, false),
            Backend::Avx512 => L::avx512_many(states, false),
            #[cfg(any(target_arch = "aarch64", slicewise_neon7))]
            Backend::Neon => L::neon_many(states, false),
            #[cfg(not(any(target_arch = "aarch64", slicewise_neon7)))]
            Backend::Neon => unreachable!("the neon backend is only available on AArch64 and ARMv7 with NEON"),
            #[cfg(slicewise_arm11)]
            Backend::Arm11 => states.iter_mut().for_each(|s| L::arm11_one(s, false)),
            #[cfg(not(slicewise_arm11))]
            Backend::Arm11 => unreachable!("the arm11 backend is only available on 32-bit ARM"),
        }
    }

    /// P^-1 on many states.
    #[inline]
    pub(crate) fn inverse_many<L: Kernels>(self, states: &mut [State<L>]) {
        match self {
            Backend::Portable => states.iter_mut().for_each(portable::inverse),
            Backend::MixSlp => states.iter_mut().for_each(mixslp::inverse),
            Backend::U32x2 => states.iter_mut().for_each(u32x2::inverse),
            Backend::Avx2 => L::avx2_many(states, true),
            Backend::Avx512 => L::avx512_many(states, true),
            #[cfg(any(target_arch = "aarch64", slicewise_neon7))]
            Backend::Neon => L::neon_many(states, true),
            #[cfg(not(any(target_arch = "aarch64", slicewise_neon7)))]
            Backend::Neon => unreachable!("the neon backend is only available on AArch64 and ARMv7 with NEON"),
            #[cfg(slicewise_arm11)]
            Backend::Arm11 => states.iter_mut().for_each(|s| L::arm11_one(s, true)),
            #[cfg(not(slicewise_arm11))]
            Backend::Arm11 => unreachable!("the arm11 backend is only available on 32-bit ARM"),
        }
    }
}

impl core::fmt::Display for Backend {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for Backend {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Backend::from_name(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_the_order_of_all() {
        for (b, name) in Backend::ALL.into_iter().zip(Backend::NAMES) {
            assert_eq!(b.name(), name);
        }
    }

    #[test]
    fn override_syntax_matches_groestl() {
        assert_eq!(Backend::parse_override("groestl:aesni,proest:portable"), Ok(Some(Backend::Portable)));
        assert_eq!(Backend::parse_override("groestl:aesni"), Ok(None));
        assert_eq!(Backend::parse_override(""), Ok(None));
        assert_eq!(Backend::parse_override(" , "), Ok(None));
        assert_eq!(Backend::parse_override("mixslp"), Ok(Some(Backend::MixSlp)));
        assert_eq!(Backend::parse_override("u32x2, proest:mixslp"), Ok(Some(Backend::MixSlp)));
        assert_eq!(Backend::parse_override("Proest:U32X2,groestl:whatever"), Ok(Some(Backend::U32x2)));
        // A bare name applies to every primitive, so an unknown one is an error here too.
        assert_eq!(Backend::parse_override("groestl:aesni,nosuch"), Err(Error::UnknownBackend("nosuch".into())));
        assert_eq!(Backend::parse_override("proest:nosuch"), Err(Error::UnknownBackend("nosuch".into())));
        assert!(Backend::parse_override("proest:").is_err());
        for b in Backend::all() {
            let got = Backend::parse_override(&alloc::format!("groestl:portable,proest:{}", b.name()));
            if b.is_available() {
                assert_eq!(got, Ok(Some(b)));
            } else {
                assert_eq!(got, Err(Error::BackendUnavailable(b.name())));
            }
        }
    }
}
