//! `hash_many` equals hashing one message at a time, on every backend, for random batches of
//! mixed lengths (the multi-buffer lanes run out at different blocks). The multi-buffer kernels
//! (messages per pass for Grøstl-224/256 and -384/512: `gfni` 4/4, `avx512` 8/4, `vaes` and
//! `avx2` 4/2, `aesni` 4/2) are reached through every backend in `Backend::all()`; batch sizes
//! 0–13 cover full passes, partial last passes and the single leftover message that takes the
//! one-message path.

mod common;

use common::available_backends;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use slicewise_groestl::{Backend, DigestBytes, Groestl, Variant, hash_many};

/// Checks `hash_many` of `msgs` against one-at-a-time hashing on `backend` and on `portable`.
fn check(variant: Variant, backend: Backend, msgs: &[Vec<u8>], what: &str) {
    let inputs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
    // Pre-filled with a wrong length so that an unwritten output cannot pass.
    let mut out = vec![hash_many_sentinel(); msgs.len()];
    hash_many(variant, backend, &inputs, &mut out).unwrap();
    for (i, (m, d)) in msgs.iter().zip(&out).enumerate() {
        for reference in [backend, Backend::Portable] {
            let mut h = Groestl::with_backend(variant, reference).unwrap();
            h.update(m);
            assert_eq!(
                d.as_ref(),
                h.finalize().as_ref(),
                "{} message {i}/{} len={} on {backend} (vs {reference}) {what}",
                variant.name(),
                msgs.len(),
                m.len()
            );
        }
    }
}

fn hash_many_sentinel() -> DigestBytes {
    let mut d = [DigestBytes::default(); 1];
    hash_many(Variant::Groestl224, Backend::Portable, &[b"sentinel"], &mut d).unwrap();
    d[0]
}

#[test]
fn hash_many_equals_one_by_one() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x6d61_6e79);
    for backend in available_backends() {
        for round in 0..24 {
            let variant = Variant::ALL[round % 4];
            let n = rng.random_range(0..14);
            let msgs: Vec<Vec<u8>> = (0..n)
                .map(|_| {
                    let len = match rng.random_range(0..4) {
                        0 => rng.random_range(0..20),
                        1 => rng.random_range(50..300),
                        2 => 80,
                        _ => rng.random_range(0..2000),
                    };
                    let mut m = vec![0u8; len];
                    rng.fill(&mut m[..]);
                    m
                })
                .collect();
            let inputs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
            let mut out = vec![DigestBytes::default(); n];
            hash_many(variant, backend, &inputs, &mut out).unwrap();
            for (m, d) in msgs.iter().zip(&out) {
                let mut h = Groestl::with_backend(variant, backend).unwrap();
                h.update(m);
                assert_eq!(d.as_ref(), h.finalize().as_ref(), "{} len={} n={n} on {backend}", variant.name(), m.len());
            }
        }
    }
}

#[test]
fn hash_many_equal_lengths_and_block_boundaries() {
    // Every lane with the same number of blocks, and lanes that end exactly on a padding split.
    for backend in available_backends() {
        for variant in Variant::ALL {
            let bs = variant.block_len();
            for len in [0, bs - 9, bs - 8, bs, 2 * bs + 1] {
                let msgs: Vec<Vec<u8>> = (0..9).map(|k| (0..len + k % 3).map(|i| (i * 13 + k) as u8).collect()).collect();
                let inputs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
                let mut out = vec![DigestBytes::default(); msgs.len()];
                hash_many(variant, backend, &inputs, &mut out).unwrap();
                for (m, d) in msgs.iter().zip(&out) {
                    let mut h = Groestl::with_backend(variant, backend).unwrap();
                    h.update(m);
                    assert_eq!(d.as_ref(), h.finalize().as_ref(), "{} len={} on {backend}", variant.name(), m.len());
                }
            }
        }
    }
}

#[test]
fn hash_many_batch_sizes_0_to_9_mixed_lengths() {
    // For each batch size, lengths cycle through block-boundary cases (empty, one byte short of
    // the one-block padding limit, exactly at it, a whole block, a block plus one, several
    // blocks), rotated per size so that the longest message sits in every lane position.
    for backend in available_backends() {
        for variant in Variant::ALL {
            let bs = variant.block_len();
            let lens = [0, 1, bs - 9, bs - 8, bs - 1, bs, bs + 1, 2 * bs - 9, 3 * bs, 5 * bs + 17];
            for n in 0..=9 {
                let msgs: Vec<Vec<u8>> = (0..n)
                    .map(|k| {
                        let len = lens[(k + 3 * n) % lens.len()];
                        (0..len).map(|i| (i * 31 + 7 * k + n) as u8).collect()
                    })
                    .collect();
                check(variant, backend, &msgs, &format!("batch {n}"));
            }
        }
    }
}

#[test]
fn hash_many_identical_and_duplicate_inputs() {
    // The same slice several times in one pass, and one long message among empty ones.
    let long: Vec<u8> = (0..1000u32).map(|i| (i * 7) as u8).collect();
    for backend in available_backends() {
        for variant in Variant::ALL {
            check(variant, backend, &vec![long.clone(); 5], "identical");
            let mut msgs = vec![Vec::new(); 7];
            msgs[3] = long.clone();
            check(variant, backend, &msgs, "one long among empty");
        }
    }
}
