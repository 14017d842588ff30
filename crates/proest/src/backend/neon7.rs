//! `neon` on ARMv7 (32-bit ARM with NEON, e.g. the Cortex-A8): Prøst-128 on four lane-sliced
//! states at once in generated assembly (`neon7.S`, written by `scripts/gen-neon7-proest.py`;
//! 32-bit NEON intrinsics and `#[target_feature(enable = "neon")]` are not stable Rust). Word k
//! of a batch (one q register) holds lane k of the four states in its low half and lane k + 8 in
//! its high half, the pairing of the `arm11` backend, so SubRows and MixSlices act on whole
//! registers; see the generator for the round.
//!
//! The modes' block-cipher layers (`em_many`) on Prøst-128 run in assembly loops, four blocks
//! per batch: the blocks are loaded as they are, XORed with the key and the masks and moved into
//! the batch layout by an 8 × 8 transpose of 16-bit lanes in NEON registers, and back the same
//! way, with the sums kept in NEON registers (see the generator). Single states, Prøst-256, jobs
//! of one block and a remainder of one block run on the `arm11` assembly, which counts fewer
//! instructions for one state. The backend is available when the kernel reports NEON
//! (`getauxval(AT_HWCAP) & HWCAP_NEON`). Constant time: fixed instruction sequences, no
//! secret-dependent memory access or branches (the em loops branch on the public block count).

#![allow(unsafe_code)]

use zeroize::Zeroize;

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

/// A padded batch of 4 Prøst-128 states costs less than 2 `arm11` calls (instruction counts,
/// `scripts/count-insns.sh armv7`), so only a remainder of 1 state goes state by state.
const MIN_REST128: usize = 2;

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

/// The argument block of the em loops (`EM_SUMS` in the generator): `arm11`'s, then the sums of
/// the source, post and output blocks as little-endian words, which the loops add to.
#[repr(C)]
struct Em4Args {
    em: arm11::EmArgs,
    sums: [[u32; 8]; 3],
}

const _: () = assert!(core::mem::offset_of!(Em4Args, sums) == 112);

arm11::em_loops!(EM4, Em4Args;
    slicewise_proest_neon7_em128_p000 slicewise_proest_neon7_em128_p001 slicewise_proest_neon7_em128_p010
    slicewise_proest_neon7_em128_p011 slicewise_proest_neon7_em128_p100 slicewise_proest_neon7_em128_p101
    slicewise_proest_neon7_em128_p110 slicewise_proest_neon7_em128_p111 slicewise_proest_neon7_em128_i000
    slicewise_proest_neon7_em128_i001 slicewise_proest_neon7_em128_i010 slicewise_proest_neon7_em128_i011
    slicewise_proest_neon7_em128_i100 slicewise_proest_neon7_em128_i101 slicewise_proest_neon7_em128_i110
    slicewise_proest_neon7_em128_i111
);

/// [`EmJob`] on Prøst-128 blocks (checked by the caller), four blocks per batch; a job of one
/// block takes `arm11`'s path for it ([`arm11::em128_by_count`], so it costs what it costs
/// there).
#[inline(always)]
pub(crate) fn em128(job: &mut EmJob<'_>) -> EmSums {
    arm11::em128_by_count(job, em128_batched)
}

/// [`em128`] on jobs of any length. Word-aligned jobs (the addresses are public) run
/// on the assembly em loops (`neon7.S`: loads, XORs, the transposition into the batch layout and
/// back, the mask doublings and the sums, around a local copy of the rounds), four blocks per
/// batch; a remainder of `MIN_REST128` blocks or more as a batch padded in a local buffer, a
/// shorter one on `arm11`'s loop. Other jobs go through [`batched::em`].
#[inline(never)]
fn em128_batched(job: &mut EmJob<'_>) -> EmSums {
    let n = job.blocks;
    if n == 0 {
        return EmSums::default();
    }
    let Some(b) = arm11::WordBlocks::of(job) else {
        return batched::em::<u16, 4>(job, batch128, arm11_128, MIN_REST128);
    };
    let (stride, full, rest) = (job.stride, n - n % 4, n % 4);
    let mut sums = EmSums::default();
    let mut a = Em4Args { em: arm11::EmArgs::new(job, arm11::words_of(job.mask)), sums: [[0; 8]; 3] };
    let f = EM4[job.inverse as usize][arm11::EmArgs::shape(job, b.post.is_some())];
    if full > 0 {
        a.em.aim(&b, full, stride);
        // SAFETY: the `full` (a multiple of 4) blocks of each sequence lie in their buffers
        // (`job.check`) and are 4-byte aligned (`WordBlocks::of`); output block j is written
        // after source and post block j are read, and blocks of different indices never overlap
        // (offset + S ≤ stride), as `EmJob` allows. The loop reads and writes `a` (8-byte
        // aligned), follows the AAPCS (r4–r11 and d8–d15 restored; 228 bytes of stack, its mask
        // slots wiped) and has no other effects; the caller checked NEON when the backend was
        // chosen.
        unsafe { f(&mut a, b.src, stride) };
    }
    let r = b.skip(full, stride);
    if rest >= MIN_REST128 {
        // A batch padded with zero blocks in `buf`: block j's source at word 16j, its post
        // block at 16j + 8, its output over its source.
        let mut buf = [[0u32; 16]; 4];
        for (j, x) in buf.iter_mut().enumerate().take(rest) {
            // SAFETY: blocks j < rest of `r`'s sequences, in their buffers and aligned (as above).
            unsafe {
                x[..8].copy_from_slice(&arm11::read_words::<8>(r.src.add(j * stride)));
                if let Some(p) = r.post {
                    x[8..].copy_from_slice(&arm11::read_words::<8>(p.add(j * stride)));
                }
            }
        }
        let mut mask = a.em.mask;
        let p = buf.as_mut_ptr().cast::<u8>();
        let pb = arm11::WordBlocks { src: p, dst: p, post: r.post.map(|_| p.wrapping_add(32).cast_const()) };
        a.em.aim(&pb, 4, 64);
        // SAFETY: as above, on 4 blocks of `buf` (stride 64), which the loop reads and writes.
        unsafe { f(&mut a, p, 64) };
        // The padding's outputs leave the output sum again, and the mask moves on by `rest`
        // doublings, not 4 (the padding's source and post blocks are zero).
        for x in &buf[rest..] {
            a.sums[2].iter_mut().zip(&x[..8]).for_each(|(s, y)| *s ^= y);
        }
        for _ in 0..rest {
            arm11::dbl_words(&mut mask, 0x425);
        }
        a.em.mask = mask;
        mask.zeroize();
        for (j, x) in buf.iter().enumerate().take(rest) {
            let o = r.dst.wrapping_add(j * stride).cast::<u32>();
            // SAFETY: output block j < rest of `r`, in `io` and aligned (as above).
            x[..8].iter().enumerate().for_each(|(i, y)| unsafe { o.add(i).write(*y) });
        }
        buf.zeroize();
    } else if rest > 0 {
        // The last blocks on `arm11`'s loop, their sums added here.
        let add = |s: &mut [u32; 8], p: *const u8| {
            for j in 0..rest {
                // SAFETY: block j < rest of one of `r`'s sequences, in its buffer and aligned (as
                // above).
                let x: [u32; 8] = unsafe { arm11::read_words(p.wrapping_add(j * stride)) };
                s.iter_mut().zip(x).for_each(|(s, x)| *s ^= x);
            }
        };
        add(&mut a.sums[0], r.src);
        if let Some(p) = r.post {
            add(&mut a.sums[1], p);
        }
        // SAFETY: the last `rest` blocks of each sequence, in their buffers and aligned (as above).
        unsafe { a.em.run(job, &r, rest) };
        add(&mut a.sums[2], r.dst);
    }
    arm11::finish(job, &mut sums, &mut a.sums, &a.em.mask);
    a.em.wipe();
    sums
}

/// [`EmJob`] on Prøst-256 blocks (checked by the caller): `arm11`'s, one at a time.
#[inline(always)]
pub(crate) fn em256(job: &mut EmJob<'_>) -> EmSums {
    arm11::em256(job)
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
