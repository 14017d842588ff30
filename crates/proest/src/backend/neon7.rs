//! `neon` on ARMv7 (32-bit ARM with NEON, e.g. the Cortex-A8): Prøst-128 on four lane-sliced
//! states at once in generated assembly (`neon7.S`, written by `scripts/gen-neon7-proest.py`;
//! 32-bit NEON intrinsics and `#[target_feature(enable = "neon")]` are not stable Rust). Word k
//! of a batch (one q register) holds lane k of the four states in its low half and lane k + 8 in
//! its high half, the pairing of the `arm11` backend, so SubRows and MixSlices act on whole
//! registers; see the generator for the round.
//!
//! Single states, Prøst-256 and short remainders run on the `arm11` assembly, which counts
//! fewer instructions for one state. The backend is available when the kernel reports NEON
//! (`getauxval(AT_HWCAP) & HWCAP_NEON`). Constant time: fixed instruction sequences, no
//! secret-dependent memory access or branches.

#![allow(unsafe_code)]

use super::{arm11, batched};
use crate::em::{EmJob, EmSums};
use crate::lane::State;

core::arch::global_asm!(include_str!("neon7.S"), options(raw));

unsafe extern "C" {
    fn slicewise_proest_neon7_p128(batch: *mut u16);
    fn slicewise_proest_neon7_i128(batch: *mut u16);
}

/// Whether the CPU has NEON (`getauxval`, read once per process; `slicewise-platform`).
pub(crate) fn available() -> bool {
    slicewise_platform::arm_linux_has_neon()
}

/// A padded batch of 4 Prøst-128 states costs about as much as 3 `arm11` calls (instruction
/// counts, `scripts/count-insns.sh armv7`), so remainders of 1 or 2 states go state by state.
const MIN_REST128: usize = 3;

/// Four Prøst-128 states at once.
#[inline(never)]
fn batch128(states: &mut [State<u16>; 4], inverse: bool) {
    let mut w = [0u16; 64];
    for k in 0..8 {
        for (s, st) in states.iter().enumerate() {
            w[8 * k + s] = st[k];
            w[8 * k + 4 + s] = st[k + 8];
        }
    }
    // SAFETY: `w` is the 128-byte batch the functions read and write (2-byte aligned is enough
    // for their `VLD1.16`/`VST1.16` without alignment hints); they follow the AAPCS (d8–d15
    // saved with `VPUSH`, 64 bytes of stack; r0, r1 and the other NEON registers are
    // caller-saved) and have no other effects; the caller checked NEON when the backend was
    // chosen.
    unsafe {
        if inverse {
            slicewise_proest_neon7_i128(w.as_mut_ptr());
        } else {
            slicewise_proest_neon7_p128(w.as_mut_ptr());
        }
    }
    for k in 0..8 {
        for (s, st) in states.iter_mut().enumerate() {
            st[k] = w[8 * k + s];
            st[k + 8] = w[8 * k + 4 + s];
        }
    }
    zeroize::Zeroize::zeroize(&mut w);
}

fn arm11_128(s: &mut State<u16>, inverse: bool) {
    if inverse { arm11::inverse128(s) } else { arm11::permute128(s) }
}

fn arm11_256(s: &mut State<u32>, inverse: bool) {
    if inverse { arm11::inverse256(s) } else { arm11::permute256(s) }
}

/// P or P⁻¹ on one Prøst-128 state (`arm11`).
pub(crate) fn one128(s: &mut State<u16>, inverse: bool) {
    arm11_128(s, inverse)
}

/// P or P⁻¹ on one Prøst-256 state (`arm11`).
pub(crate) fn one256(s: &mut State<u32>, inverse: bool) {
    arm11_256(s, inverse)
}

/// P or P⁻¹ on many Prøst-128 states, four at a time.
pub(crate) fn many128(states: &mut [State<u16>], inverse: bool) {
    batched::many::<u16, 4>(states, inverse, batch128, arm11_128, MIN_REST128)
}

/// P or P⁻¹ on many Prøst-256 states (`arm11`, one at a time).
pub(crate) fn many256(states: &mut [State<u32>], inverse: bool) {
    states.iter_mut().for_each(|s| arm11_256(s, inverse))
}

/// [`EmJob`] on Prøst-128 blocks (checked by the caller), four blocks per batch.
pub(crate) fn em128(job: &mut EmJob<'_>) -> EmSums {
    batched::em::<u16, 4>(job, batch128, arm11_128, MIN_REST128)
}

/// [`EmJob`] on Prøst-256 blocks (checked by the caller), one at a time on `arm11`.
pub(crate) fn em256(job: &mut EmJob<'_>) -> EmSums {
    let mut sums = EmSums::default();
    crate::em::em_serial::<u32>(job, 0, &mut sums, arm11_256);
    sums
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::portable;

    #[test]
    fn batches_match_portable() {
        if !available() {
            std::println!("neon7: this CPU has no NEON; the batch kernel was not run");
            return;
        }
        let mut x = 0x1234_5678u32;
        for _ in 0..8 {
            let s: [State<u16>; 4] = core::array::from_fn(|_| {
                core::array::from_fn(|_| {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    x as u16
                })
            });
            let mut a = s;
            batch128(&mut a, false);
            let mut b = s;
            b.iter_mut().for_each(portable::permute);
            assert_eq!(a, b, "P");
            batch128(&mut a, true);
            assert_eq!(a, s, "P⁻¹(P(x))");
        }
    }
}
