//! Differential tests: every backend against RustCrypto's `groestl` crate and against the
//! portable backend, over random lengths, random update splits, unaligned input, empty and
//! long messages.

mod common;

use common::{available_backends, paint};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use slicewise_groestl::{Backend, Digest, Groestl, Groestl224, Groestl256, Groestl384, Groestl512, Variant};

const ITERATIONS: usize = if cfg!(debug_assertions) { 60 } else { 300 };

fn reference(variant: Variant, data: &[u8]) -> Vec<u8> {
    match variant {
        Variant::Groestl224 => groestl::Groestl224::digest(data).to_vec(),
        Variant::Groestl256 => groestl::Groestl256::digest(data).to_vec(),
        Variant::Groestl384 => groestl::Groestl384::digest(data).to_vec(),
        Variant::Groestl512 => groestl::Groestl512::digest(data).to_vec(),
    }
}

/// Hashes `data` fed in pieces cut at `splits`.
fn ours(variant: Variant, backend: Backend, data: &[u8], splits: &[usize]) -> Vec<u8> {
    let mut h = Groestl::with_backend(variant, backend).unwrap();
    let mut prev = 0;
    for &s in splits {
        h.update(&data[prev..s]);
        prev = s;
    }
    h.update(&data[prev..]);
    h.finalize().as_ref().to_vec()
}

fn random_splits(rng: &mut ChaCha8Rng, len: usize) -> Vec<usize> {
    let n = rng.random_range(0..6);
    let mut s: Vec<usize> = (0..n).map(|_| rng.random_range(0..=len)).collect();
    s.sort_unstable();
    s
}

#[test]
fn random_lengths_and_splits_against_rustcrypto() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_0001);
    let backends = available_backends();
    for i in 0..ITERATIONS {
        let variant = Variant::ALL[i % 4];
        // Mostly short, sometimes several blocks, sometimes long.
        let len = match rng.random_range(0..10) {
            0..=5 => rng.random_range(0..300),
            6..=8 => rng.random_range(0..3000),
            _ => rng.random_range(0..70_000),
        };
        // Offset into a larger buffer so the input is at every alignment.
        let offset = rng.random_range(0..16);
        let mut buf = vec![0u8; len + offset];
        rng.fill(&mut buf[..]);
        let data = &buf[offset..];
        let want = reference(variant, data);
        let splits = random_splits(&mut rng, len);
        for &b in &backends {
            assert_eq!(ours(variant, b, data, &splits), want, "{} len={len} offset={offset} splits={splits:?} on {b}", variant.name());
        }
    }
}

#[test]
fn every_length_around_block_and_padding_boundaries() {
    let backends = available_backends();
    let data = paint(3 * 128 + 20);
    for variant in Variant::ALL {
        let bs = variant.block_len();
        for len in (0..=2 * bs + 10).chain([3 * bs - 9, 3 * bs - 8, 3 * bs]) {
            let want = reference(variant, &data[..len]);
            for &b in &backends {
                // One update, byte-at-a-time updates, and a split one byte before the end.
                assert_eq!(ours(variant, b, &data[..len], &[]), want, "{} len={len} on {b}", variant.name());
                let every: Vec<usize> = (1..len).collect();
                assert_eq!(ours(variant, b, &data[..len], &every), want, "{} len={len} bytewise on {b}", variant.name());
                assert_eq!(ours(variant, b, &data[..len], &[len.saturating_sub(1)]), want);
                // The one-shot form, into a buffer longer than the digest (the rest untouched).
                let mut out = [0xa5u8; 72];
                slicewise_groestl::hash_into(variant, b, &data[..len], &mut out).unwrap();
                assert_eq!(out[..want.len()], want[..], "{} len={len} hash_into on {b}", variant.name());
                assert!(out[want.len()..].iter().all(|&x| x == 0xa5));
            }
        }
    }
}

#[test]
fn backends_agree_with_portable_on_a_long_message() {
    let data = paint(1 << 20);
    for variant in Variant::ALL {
        let want = ours(variant, Backend::Portable, &data, &[]);
        assert_eq!(want, reference(variant, &data));
        for b in available_backends() {
            assert_eq!(ours(variant, b, &data, &[12345, 600_001]), want, "{} on {b}", variant.name());
        }
    }
}

#[test]
fn digest_trait_surface() {
    // new/update/finalize, finalize_reset, Reset, Clone, Default, chain_update.
    let mut h = Groestl512::new();
    h.update(b"abc");
    let c = h.clone();
    let a = h.finalize_reset();
    assert_eq!(a, c.finalize());
    assert_eq!(a, groestl::Groestl512::digest(b"abc"));
    h.update(b"abc");
    assert_eq!(h.finalize(), a);
    let mut d = Groestl224::default().chain_update(b"x");
    Digest::reset(&mut d);
    assert_eq!(d.finalize(), Groestl224::digest(b""));
    assert_eq!(Groestl256::output_size(), 32);
    assert_eq!(Groestl384::output_size(), 48);
}

#[test]
fn unavailable_or_unknown_backends_are_errors() {
    for b in Backend::all().filter(|b| !b.is_available()) {
        assert!(Groestl256::with_backend(b).is_err());
    }
    assert!(Backend::from_name("aesni-but-misspelt").is_err());
}

/// One `update` of more than 4 GiB. The Grøstl team's code truncates the length to an `int`
/// and is wrong from 2 GiB on. Slow (about a minute in release), so run on demand:
/// `cargo test --release -p slicewise-groestl --test differential -- --ignored`.
#[test]
#[ignore]
fn single_update_over_4_gib() {
    let len = (4usize << 30) + 12345;
    let data = paint(len);
    for variant in [Variant::Groestl256, Variant::Groestl512] {
        // Reference: RustCrypto fed in 1 MiB pieces.
        let mut r = groestl::Groestl512::default();
        let mut r256 = groestl::Groestl256::default();
        for chunk in data.chunks(1 << 20) {
            if variant == Variant::Groestl512 {
                r.update(chunk);
            } else {
                r256.update(chunk);
            }
        }
        let want = if variant == Variant::Groestl512 { r.finalize().to_vec() } else { r256.finalize().to_vec() };
        let got = ours(variant, Backend::detect(), &data, &[]);
        assert_eq!(got, want, "{} over 4 GiB", variant.name());
        eprintln!("{} of {len} bytes in one update: {}", variant.name(), hex::encode(&got));
    }
}
