//! Permutation backends: one file per backend, one [`Backend`] enum, chosen once per object.
//!
//! | name | technique | Prøst-128 | Prøst-256 | constant time |
//! |---|---|---|---|---|
//! | `portable` | reference round function, 72-XOR MixSlices | yes | yes | yes |
//! | `mixslp` | same, MixSlices as a short XOR program (`src/generated/mixslices.rs`) | yes | yes | yes |
//! | `u32x2` | two lanes per word (ARM11 technique): 16-bit pairs in `u32`; for Prøst-256 32-bit pairs in `u64` | yes | yes | yes |
//!
//! All three are plain Rust and available on every CPU. The environment variable
//! `SLICEWISE_BACKEND=<name>` overrides [`Backend::detect`] process-wide for constructors that
//! do not name a backend ([`Backend::preferred`]); an unknown or unavailable name is an error.

use crate::error::Error;
use crate::lane::State;

pub(crate) mod mixslp;
pub(crate) mod portable;
pub(crate) mod u32x2;

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
}

impl Backend {
    /// Every backend, in a fixed order.
    pub const ALL: [Backend; 3] = [Backend::Portable, Backend::MixSlp, Backend::U32x2];
    /// Every backend's name, in the order of [`Backend::ALL`].
    pub const NAMES: [&'static str; 3] = ["portable", "mixslp", "u32x2"];

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
        }
    }

    /// A one-line description.
    pub const fn description(self) -> &'static str {
        match self {
            Backend::Portable => "reference round function, 72-XOR MixSlices",
            Backend::MixSlp => "short XOR program for MixSlices (generated SLP)",
            Backend::U32x2 => "two lanes per machine word (ARM11 technique)",
        }
    }

    /// Looks a backend up by [`Backend::name`] (ASCII case-insensitive).
    pub fn from_name(name: &str) -> Result<Backend, Error> {
        Self::all()
            .find(|b| b.name().eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| Error::UnknownBackend(name.into()))
    }

    /// Whether this CPU can run the backend. (All current backends are portable Rust.)
    pub fn is_available(self) -> bool {
        match self {
            Backend::Portable | Backend::MixSlp | Backend::U32x2 => true,
        }
    }

    /// Whether the backend runs in time independent of secret data. Every backend is.
    pub const fn is_constant_time(self) -> bool {
        match self {
            Backend::Portable | Backend::MixSlp | Backend::U32x2 => true,
        }
    }

    /// The fastest available constant-time backend for this CPU (ignores `SLICEWISE_BACKEND`;
    /// see [`Backend::preferred`]). Today that is `u32x2` everywhere: on the project's x86-64
    /// machines it is 10–25 % faster than `mixslp` and `portable` for every mode and size
    /// (`docs/benchmarks.md`).
    pub fn detect() -> Backend {
        Backend::U32x2
    }

    /// `Ok(backend)` if this CPU can run it, else [`Error::BackendUnavailable`].
    pub fn check(self) -> Result<Backend, Error> {
        if self.is_available() { Ok(self) } else { Err(Error::BackendUnavailable(self.name())) }
    }

    /// The backend named by `SLICEWISE_BACKEND`, if set: `Ok(None)` when unset or empty, an error
    /// when it names an unknown or unavailable backend. Read once per process.
    #[cfg(feature = "std")]
    pub fn from_env() -> Result<Option<Backend>, Error> {
        use std::sync::OnceLock;
        static ENV: OnceLock<Result<Option<Backend>, Error>> = OnceLock::new();
        ENV.get_or_init(|| match std::env::var(ENV_VAR) {
            Ok(v) if v.trim().is_empty() => Ok(None),
            Ok(v) => Backend::from_name(&v).and_then(Backend::check).map(Some),
            Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(v)) => {
                Err(Error::UnknownBackend(v.to_string_lossy().into_owned()))
            }
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
    pub(crate) fn permute<L: u32x2::Paired>(self, s: &mut State<L>) {
        match self {
            Backend::Portable => portable::permute(s),
            Backend::MixSlp => mixslp::permute(s),
            Backend::U32x2 => u32x2::permute(s),
        }
    }

    /// P^-1 on one state.
    #[inline]
    pub(crate) fn inverse<L: u32x2::Paired>(self, s: &mut State<L>) {
        match self {
            Backend::Portable => portable::inverse(s),
            Backend::MixSlp => mixslp::inverse(s),
            Backend::U32x2 => u32x2::inverse(s),
        }
    }

    /// P on many states: one dispatch per call.
    #[inline]
    pub(crate) fn permute_many<L: u32x2::Paired>(self, states: &mut [State<L>]) {
        match self {
            Backend::Portable => states.iter_mut().for_each(portable::permute),
            Backend::MixSlp => states.iter_mut().for_each(mixslp::permute),
            Backend::U32x2 => states.iter_mut().for_each(u32x2::permute),
        }
    }

    /// P^-1 on many states.
    #[inline]
    pub(crate) fn inverse_many<L: u32x2::Paired>(self, states: &mut [State<L>]) {
        match self {
            Backend::Portable => states.iter_mut().for_each(portable::inverse),
            Backend::MixSlp => states.iter_mut().for_each(mixslp::inverse),
            Backend::U32x2 => states.iter_mut().for_each(u32x2::inverse),
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

