//! `Permutation::em_many` (wide Even–Mansour jobs on byte blocks) on every available backend
//! against a naive serial model built from `permute_bytes` / `inverse_bytes` of `portable`,
//! for batch sizes 0..100 (fewer under emulation, see `batch_sizes`) and every job shape the modes use.

use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use slicewise_proest::em::{At, Buf, EmJob};
use slicewise_proest::{Backend, Permutation, Proest128, Proest256};

#[path = "../../../test-support/backend_report.rs"]
mod backend_report;

/// Multiplication by 2 in GF(2^(8s)) bit by bit, straight from spec §3.
fn double(x: &mut [u8]) {
    let s = x.len();
    let carry = x[s - 1] >> 7;
    for i in (1..s).rev() {
        x[i] = (x[i] << 1) | (x[i - 1] >> 7);
    }
    x[0] <<= 1;
    if carry == 1 {
        x[0] ^= 0x25;
        x[1] ^= if s == 32 { 0x04 } else { 0x01 };
    }
}

struct Shape {
    inverse: bool,
    stride_extra: usize,
    src: At,
    post: Option<At>,
    dst: usize,
    mask_in: bool,
    mask_out: bool,
}

/// The model: returns (io after, mask after, [sum src, sum post, sum out]).
#[allow(clippy::too_many_arguments)]
fn model<P: Permutation>(
    p: &P,
    shape: &Shape,
    n: usize,
    ext: &[u8],
    io: &[u8],
    pre: &[u8],
    post_c: &[u8],
    mask: &[u8],
) -> (Vec<u8>, Vec<u8>, [Vec<u8>; 3]) {
    let s = P::STATE_BYTES;
    let stride = s + shape.stride_extra;
    let mut io = io.to_vec();
    let mut m = mask.to_vec();
    let mut sums = [vec![0u8; s], vec![0u8; s], vec![0u8; s]];
    let xor = |a: &mut [u8], b: &[u8]| a.iter_mut().zip(b).for_each(|(a, b)| *a ^= b);
    for j in 0..n {
        let get = |io: &[u8], at: At| {
            let o = at.offset + j * stride;
            match at.buf {
                Buf::Ext => ext[o..o + s].to_vec(),
                Buf::Io => io[o..o + s].to_vec(),
            }
        };
        let mut x = get(&io, shape.src);
        xor(&mut sums[0], &x);
        xor(&mut x, pre);
        if shape.mask_in {
            xor(&mut x, &m);
        }
        if shape.inverse {
            p.inverse_bytes(&mut x);
        } else {
            p.permute_bytes(&mut x);
        }
        xor(&mut x, post_c);
        if shape.mask_out {
            xor(&mut x, &m);
        }
        if let Some(at) = shape.post {
            let y = get(&io, at);
            xor(&mut sums[1], &y);
            xor(&mut x, &y);
        }
        xor(&mut sums[2], &x);
        let o = shape.dst + j * stride;
        io[o..o + s].copy_from_slice(&x);
        double(&mut m);
    }
    (io, m, sums)
}

fn shapes(s: usize) -> Vec<Shape> {
    vec![
        // COPA layers: consecutive blocks, mask on input or output, in place or from ext.
        Shape { inverse: false, stride_extra: 0, src: At::ext(0), post: None, dst: 0, mask_in: true, mask_out: false },
        Shape { inverse: true, stride_extra: 0, src: At::io(0), post: None, dst: 0, mask_in: false, mask_out: true },
        // OTR layers: double blocks, a post sequence, writes to the second half.
        Shape {
            inverse: false,
            stride_extra: s,
            src: At::ext(0),
            post: Some(At::ext(s)),
            dst: 0,
            mask_in: true,
            mask_out: false,
        },
        Shape {
            inverse: false,
            stride_extra: s,
            src: At::io(0),
            post: Some(At::ext(0)),
            dst: s,
            mask_in: true,
            mask_out: false,
        },
        // Odd strides and offsets, both masks, post from io, inverse.
        Shape {
            inverse: true,
            stride_extra: 7,
            src: At::ext(3),
            post: Some(At::io(5)),
            dst: 5,
            mask_in: true,
            mask_out: true,
        },
        Shape { inverse: false, stride_extra: 3, src: At::io(1), post: None, dst: 2, mask_in: false, mask_out: false },
    ]
}

/// Batch sizes: 0..100 on x86-64 (32-state avx512 batches and every remainder); under emulation
/// (the ARM cross runs, where the widest batch is 8 states) 0..=40 and a few beyond, which
/// covers every remainder of every batch width at a third of the qemu time.
/// Under Miri (no SIMD backend runs there) a few sizes keep it to seconds.
fn batch_sizes() -> Vec<usize> {
    if cfg!(miri) {
        (0..3).collect()
    } else if cfg!(target_arch = "x86_64") {
        (0..100).collect()
    } else {
        (0..=40).chain([63, 64, 65, 99]).collect()
    }
}

fn check<P: Permutation>(b: Backend) {
    let p = P::with_backend(b).unwrap();
    let reference = P::with_backend(Backend::Portable).unwrap();
    let s = P::STATE_BYTES;
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed ^ s as u64);
    for (k, shape) in shapes(s).iter().enumerate() {
        let stride = s + shape.stride_extra;
        for n in batch_sizes() {
            let len = n * stride + rng.random_range(0..3);
            let mut ext = vec![0u8; len];
            let mut io = vec![0u8; len];
            rng.fill_bytes(&mut ext);
            rng.fill_bytes(&mut io);
            let mut pre = vec![0u8; s];
            let mut post_c = vec![0u8; s];
            let mut mask = vec![0u8; s];
            rng.fill_bytes(&mut pre);
            rng.fill_bytes(&mut post_c);
            rng.fill_bytes(&mut mask);
            if n % 5 == 0 {
                mask[s - 1] |= 0x80; // the reduction on the first doubling
            }
            let (want_io, want_mask, want_sums) = model(&reference, shape, n, &ext, &io, &pre, &post_c, &mask);
            let sums = p.em_many(&mut EmJob {
                inverse: shape.inverse,
                blocks: n,
                stride,
                ext: &ext,
                io: &mut io,
                src: shape.src,
                post: shape.post,
                dst: shape.dst,
                pre: &pre,
                post_const: &post_c,
                mask: &mut mask,
                mask_in: shape.mask_in,
                mask_out: shape.mask_out,
            });
            let what = format!("{} {b} shape {k} n={n}", P::NAME);
            assert_eq!(io, want_io, "{what}: outputs (and untouched bytes)");
            assert_eq!(mask, want_mask, "{what}: final mask");
            assert_eq!(&sums.src[..s], &want_sums[0][..], "{what}: src sum");
            assert_eq!(&sums.post[..s], &want_sums[1][..], "{what}: post sum");
            assert_eq!(&sums.out[..s], &want_sums[2][..], "{what}: out sum");
            assert!(sums.src[s..].iter().chain(&sums.post[s..]).chain(&sums.out[s..]).all(|&x| x == 0));
        }
    }
}

#[test]
fn em_many_matches_serial_model_on_every_backend() {
    for b in Backend::all().filter(|b| backend_report::gate("proest", b.name(), b.is_available(), "em_many")) {
        check::<Proest128>(b);
        check::<Proest256>(b);
    }
}

#[test]
fn em_many_rejects_blocks_outside_the_buffers() {
    let p = Proest128::with_backend(Backend::detect()).unwrap();
    let (pre, post) = ([0u8; 32], [0u8; 32]);
    let run = |blocks: usize, stride: usize, ext_len: usize, io_len: usize, dst: usize| {
        std::panic::catch_unwind(move || {
            let ext = vec![0u8; ext_len];
            let mut io = vec![0u8; io_len];
            let mut mask = [0u8; 32];
            p.em_many(&mut EmJob {
                inverse: false,
                blocks,
                stride,
                ext: &ext,
                io: &mut io,
                src: At::ext(0),
                post: None,
                dst,
                pre: &pre,
                post_const: &post,
                mask: &mut mask,
                mask_in: true,
                mask_out: false,
            });
        })
        .is_ok()
    };
    assert!(run(40, 32, 40 * 32, 40 * 32, 0));
    assert!(!run(40, 32, 40 * 32 - 1, 40 * 32, 0), "ext too short");
    assert!(!run(40, 32, 40 * 32, 40 * 32 - 1, 0), "io too short");
    assert!(!run(40, 31, 40 * 32, 40 * 32, 0), "stride below a block");
    assert!(!run(2, 40, 80, 80, 9), "offset + S beyond the stride");
}
