//! The [`Permutation`] trait (the narrow interface between modes and backends) and the two Prøst
//! permutations.

use core::fmt::Debug;

use crate::backend::{Backend, Kernels};
use crate::em::{EmJob, EmSums, em_serial};
use crate::error::Error;
use crate::lane::{Lane, State, load_state, store_state};

/// A Prøst permutation with a chosen backend: the interface the modes are written against.
///
/// The wide methods ([`Permutation::permute_many`], [`Permutation::inverse_many`]) take any
/// number of independent states. Their default bodies loop serially; backends that process many
/// states at once (lane-sliced SIMD: lane k of N states in one register) override them, and the
/// modes call them wherever the mode has independent permutation calls (COPA and OTR batch their
/// block-cipher layers; APE is inherently serial).
pub trait Permutation: Copy + Debug + Send + Sync + 'static {
    /// Lane type: `u16` for Prøst-128, `u32` for Prøst-256.
    type Lane: Lane;
    /// "Prøst-128" or "Prøst-256".
    const NAME: &'static str;
    /// State size in bytes (32 or 64).
    const STATE_BYTES: usize = 16 * <Self::Lane as Lane>::BYTES;

    /// The permutation computed by `backend`; an error if this CPU cannot run it.
    fn with_backend(backend: Backend) -> Result<Self, Error>;
    /// The backend in use.
    fn backend(&self) -> Backend;
    /// P on one state.
    fn permute(&self, state: &mut State<Self::Lane>);
    /// P^-1 on one state.
    fn inverse(&self, state: &mut State<Self::Lane>);

    /// P on every state of `states`.
    fn permute_many(&self, states: &mut [State<Self::Lane>]) {
        for s in states {
            self.permute(s);
        }
    }
    /// P^-1 on every state of `states`.
    fn inverse_many(&self, states: &mut [State<Self::Lane>]) {
        for s in states {
            self.inverse(s);
        }
    }
    /// A wide Even–Mansour job on byte blocks (see [`crate::em`]): every
    /// `out_j = F(src_j ⊕ pre ⊕ [2^j·L]) ⊕ post ⊕ [2^j·L] ⊕ [post_j]`, returning the XOR sums of
    /// the source, `post` and output blocks and leaving `2^n·L` in `job.mask`. Panics if a block
    /// lies outside its buffer. The default runs the blocks one at a time; the lane-sliced
    /// backends batch them.
    fn em_many(&self, job: &mut EmJob<'_>) -> EmSums {
        em_many_serial(self, job)
    }
    /// P on a state given as its `STATE_BYTES`-byte string (lanes little-endian). Panics if
    /// `bytes.len() != STATE_BYTES`.
    fn permute_bytes(&self, bytes: &mut [u8]) {
        let mut s = load_state::<Self::Lane>(bytes);
        self.permute(&mut s);
        store_state(&s, bytes);
    }
    /// P^-1 on a state given as its byte string.
    fn inverse_bytes(&self, bytes: &mut [u8]) {
        let mut s = load_state::<Self::Lane>(bytes);
        self.inverse(&mut s);
        store_state(&s, bytes);
    }
}

/// The serial default of [`Permutation::em_many`] (single-state calls of `p`).
fn em_many_serial<P: Permutation>(p: &P, job: &mut EmJob<'_>) -> EmSums {
    let mut sums = EmSums::default();
    job.check(P::STATE_BYTES);
    em_serial::<P::Lane>(job, 0, &mut sums, |st, inv| if inv { p.inverse(st) } else { p.permute(st) });
    sums
}

macro_rules! permutation_type {
    ($(#[$doc:meta])* $name:ident, $lane:ty, $label:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name {
            backend: Backend,
        }

        impl $name {
            /// The permutation with [`Backend::preferred`].
            pub fn new() -> Result<Self, Error> {
                Self::with_backend(Backend::preferred()?)
            }

            /// P or P^-1 on a byte string: `arm11` (and ARMv7's `neon`, whose single states are
            /// `arm11`'s) lets the assembly read and write it when it is aligned (no lane
            /// conversion in Rust); otherwise the trait's default steps.
            #[cfg(slicewise_arm11)]
            fn on_bytes(&self, bytes: &mut [u8], inverse: bool) {
                let arm11 = self.backend == Backend::Arm11 || (cfg!(slicewise_neon7) && self.backend == Backend::Neon);
                if arm11 && <$lane as Kernels>::arm11_bytes(bytes, inverse) {
                    return;
                }
                let mut s = load_state::<$lane>(bytes);
                if inverse { self.inverse(&mut s) } else { self.permute(&mut s) }
                store_state(&s, bytes);
            }
        }

        impl Permutation for $name {
            type Lane = $lane;
            const NAME: &'static str = $label;

            fn with_backend(backend: Backend) -> Result<Self, Error> {
                Ok(Self { backend: backend.check()? })
            }
            #[inline]
            fn backend(&self) -> Backend {
                self.backend
            }
            #[inline]
            fn permute(&self, state: &mut State<$lane>) {
                self.backend.permute(state)
            }
            #[inline]
            fn inverse(&self, state: &mut State<$lane>) {
                self.backend.inverse(state)
            }
            #[inline]
            fn permute_many(&self, states: &mut [State<$lane>]) {
                self.backend.permute_many(states)
            }
            #[inline]
            fn inverse_many(&self, states: &mut [State<$lane>]) {
                self.backend.inverse_many(states)
            }
            #[cfg(slicewise_arm11)]
            fn permute_bytes(&self, bytes: &mut [u8]) {
                self.on_bytes(bytes, false)
            }
            #[cfg(slicewise_arm11)]
            fn inverse_bytes(&self, bytes: &mut [u8]) {
                self.on_bytes(bytes, true)
            }
            fn em_many(&self, job: &mut EmJob<'_>) -> EmSums {
                match self.backend {
                    Backend::Avx512 => {
                        job.check(Self::STATE_BYTES);
                        <$lane as Kernels>::avx512_em(job)
                    }
                    Backend::Avx2 => {
                        job.check(Self::STATE_BYTES);
                        <$lane as Kernels>::avx2_em(job)
                    }
                    #[cfg(any(target_arch = "aarch64", slicewise_neon7))]
                    Backend::Neon => {
                        job.check(Self::STATE_BYTES);
                        <$lane as Kernels>::neon_em(job)
                    }
                    #[cfg(slicewise_arm11)]
                    Backend::Arm11 => {
                        job.check(Self::STATE_BYTES);
                        <$lane as Kernels>::arm11_em(job)
                    }
                    _ => em_many_serial(self, job),
                }
            }
        }
    };
}

permutation_type!(
    /// Prøst-128: 16 lanes of 16 bits (256-bit state), 16 rounds.
    Proest128, u16, "Prøst-128"
);
permutation_type!(
    /// Prøst-256: 16 lanes of 32 bits (512-bit state), 18 rounds.
    Proest256, u32, "Prøst-256"
);
