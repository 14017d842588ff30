//! Many states and Even–Mansour jobs through a fixed-size batch kernel, shared by the `neon`
//! backends of AArch64 (`neon.rs`, intrinsics) and ARMv7 (`neon7.rs`, assembly): whole batches
//! of `N` states, a padded batch for a remainder of at least `min_rest` states, single-state
//! calls (`one`) for the rest.

use crate::em::{EmJob, EmSums, Words};
use crate::lane::{Lane, State};

/// P or P⁻¹ on many states: whole batches of `N`, a padded batch for a remainder of at least
/// `min_rest` states, single states otherwise.
pub(crate) fn many<L: Lane, const N: usize>(
    states: &mut [State<L>],
    inverse: bool,
    batch: fn(&mut [State<L>; N], bool),
    one: fn(&mut State<L>, bool),
    min_rest: usize,
) {
    let mut chunks = states.chunks_exact_mut(N);
    for c in &mut chunks {
        batch(c.try_into().expect("chunk of N"), inverse);
    }
    let rest = chunks.into_remainder();
    if rest.len() < min_rest {
        rest.iter_mut().for_each(|s| one(s, inverse));
        return;
    }
    let mut buf = [[L::ZERO; 16]; N];
    buf[..rest.len()].copy_from_slice(rest);
    batch(&mut buf, inverse);
    rest.copy_from_slice(&buf[..rest.len()]);
    zeroize::Zeroize::zeroize(&mut buf);
}

/// An [`EmJob`] through the batches: the blocks of a batch are gathered (with the key and mask
/// XORs) into a state array, permuted together, and scattered (with the post XORs) to `io`; the
/// masks are doubled in general registers. A remainder shorter than `min_rest` goes to
/// [`crate::em::em_serial`].
pub(crate) fn em<L: Lane, const N: usize>(
    job: &mut EmJob<'_>,
    batch: fn(&mut [State<L>; N], bool),
    one: fn(&mut State<L>, bool),
    min_rest: usize,
) -> EmSums {
    let s = 16 * L::BYTES;
    let n = job.blocks;
    let batched = if n % N >= min_rest { n } else { n - n % N };
    let mut sums = EmSums::default();
    if batched == 0 {
        // Nothing to batch: no state arrays to fill and wipe.
        crate::em::em_serial::<L>(job, 0, &mut sums, one);
        return sums;
    }
    let (pre, post) = (Words::from_bytes(job.pre), Words::from_bytes(job.post_const));
    let mut m = Words::from_bytes(job.mask);
    let mut acc = [Words::zero(s); 3];
    let mut states = [[L::ZERO; 16]; N];
    let mut masks = [Words::zero(s); N];
    for base in (0..batched).step_by(N) {
        let cnt = N.min(batched - base);
        for j in 0..cnt {
            let mut x = Words::from_bytes(job.block(job.src, base + j, s));
            acc[0].xor(&x);
            x.xor(&pre);
            if job.mask_in {
                x.xor(&m);
            }
            states[j] = x.to_state::<L>();
            x.wipe();
            masks[j] = m;
            m.dbl();
        }
        batch(&mut states, job.inverse);
        for j in 0..cnt {
            let mut y = Words::from_state(&states[j]);
            y.xor(&post);
            if job.mask_out {
                y.xor(&masks[j]);
            }
            if let Some(at) = job.post {
                let pb = Words::from_bytes(job.block(at, base + j, s));
                acc[1].xor(&pb);
                y.xor(&pb);
            }
            acc[2].xor(&y);
            let o = job.dst + (base + j) * job.stride;
            y.store(&mut job.io[o..o + s]);
            y.wipe();
        }
    }
    m.store(job.mask);
    m.wipe();
    masks.iter_mut().for_each(Words::wipe);
    zeroize::Zeroize::zeroize(&mut states);
    for (a, dst) in acc.iter_mut().zip([&mut sums.src, &mut sums.post, &mut sums.out]) {
        a.xor_into(&mut dst[..s]);
        a.wipe();
    }
    crate::em::em_serial::<L>(job, batched, &mut sums, one);
    sums
}
