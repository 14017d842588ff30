//! `hash_many` equals hashing one message at a time, on every backend, for random batches of
//! mixed lengths (the multi-buffer lanes run out at different blocks).

mod common;

use common::available_backends;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use slicewise_groestl::{DigestBytes, Groestl, Variant, hash_many};

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
