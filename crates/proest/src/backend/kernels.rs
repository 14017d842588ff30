//! The per-variant kernel interface of the SIMD backends: below both the kernels (`neon`
//! calls its single-state kernel through it) and the dispatch in `backend/mod.rs`, which
//! implements it for `u16` (Prøst-128) and `u32` (Prøst-256).

use crate::em::{EmJob, EmSums};
use crate::lane::State;

/// The per-variant SIMD kernels (lane-sliced many-state calls and single-state calls). Only
/// called for backends that [`super::Backend::is_available`] confirmed.
pub(crate) trait Kernels: super::u32x2::Paired {
    /// `avx2` backend: P or P^-1 on many states.
    fn avx2_many(states: &mut [State<Self>], inverse: bool);
    /// `avx512` backend: P or P^-1 on many states.
    fn avx512_many(states: &mut [State<Self>], inverse: bool);
    /// `avx512` backend: P or P^-1 on one state.
    fn avx512_one(state: &mut State<Self>, inverse: bool);
    /// `avx512` backend: a wide Even–Mansour job (already checked).
    fn avx512_em(job: &mut EmJob<'_>) -> EmSums;
    /// `avx2` backend: a wide Even–Mansour job (already checked).
    fn avx2_em(job: &mut EmJob<'_>) -> EmSums;
    /// `neon` backend (AArch64): P or P^-1 on many states.
    #[cfg(any(target_arch = "aarch64", slicewise_neon7))]
    fn neon_many(states: &mut [State<Self>], inverse: bool);
    /// `neon` backend (AArch64): a wide Even–Mansour job (already checked).
    #[cfg(any(target_arch = "aarch64", slicewise_neon7))]
    fn neon_em(job: &mut EmJob<'_>) -> EmSums;
    /// `neon` backend (AArch64): P or P^-1 on one state.
    #[cfg(any(target_arch = "aarch64", slicewise_neon7))]
    fn neon_one(state: &mut State<Self>, inverse: bool);
    /// The `arm11` backend on one state (assembly).
    #[cfg(slicewise_arm11)]
    fn arm11_one(state: &mut State<Self>, inverse: bool);
    /// The `arm11` backend on a state's byte string in place, if its alignment allows (else
    /// `false`, nothing done).
    #[cfg(slicewise_arm11)]
    fn arm11_bytes(bytes: &mut [u8], inverse: bool) -> bool;
    /// The `arm11` backend: a wide Even–Mansour job (already checked).
    #[cfg(slicewise_arm11)]
    fn arm11_em(job: &mut EmJob<'_>) -> EmSums;
}
