#![allow(clippy::needless_range_loop)]
//! Permutation vectors on every backend, and a differential test of every backend against
//! `portable` (random states, wide calls with various counts).

mod common;

use common::load_perm_vectors;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use slicewise_proest::{Backend, Lane, Permutation, Proest128, Proest256, State};

fn check_vectors<P: Permutation>(file: &str) {
    let vectors = load_perm_vectors(file);
    assert_eq!(vectors.len(), 5, "{file}");
    for b in common::available_backends(file) {
        let p = P::with_backend(b).unwrap();
        let mut checked = 0;
        for v in &vectors {
            assert_eq!(v.input.len(), P::STATE_BYTES);
            if let Some(want) = &v.permute {
                let mut x = v.input.clone();
                p.permute_bytes(&mut x);
                assert_eq!(&x, want, "{} {} P", P::NAME, b.name());
                p.inverse_bytes(&mut x);
                assert_eq!(x, v.input, "{} {} P^-1(P(x))", P::NAME, b.name());
                checked += 1;
            }
            if let Some(want) = &v.inverse {
                let mut x = v.input.clone();
                p.inverse_bytes(&mut x);
                assert_eq!(&x, want, "{} {} P^-1", P::NAME, b.name());
                checked += 1;
            }
            if let Some(want) = &v.permute_1000 {
                let mut x = v.input.clone();
                for _ in 0..1000 {
                    p.permute_bytes(&mut x);
                }
                assert_eq!(&x, want, "{} {} P^1000", P::NAME, b.name());
                checked += 1;
            }
        }
        assert_eq!(checked, 9, "{file}: every vector field was checked");
    }
}

#[test]
fn proest128_permutation_vectors_on_every_backend() {
    check_vectors::<Proest128>("proest128_permutation.txt");
}

#[test]
fn proest256_permutation_vectors_on_every_backend() {
    check_vectors::<Proest256>("proest256_permutation.txt");
}

fn random_states<L: Lane>(rng: &mut ChaCha8Rng, n: usize) -> Vec<State<L>>
where
    rand::distr::StandardUniform: rand::distr::Distribution<L>,
{
    (0..n).map(|_| core::array::from_fn(|_| rng.random::<L>())).collect()
}

fn differential<P: Permutation>()
where
    rand::distr::StandardUniform: rand::distr::Distribution<P::Lane>,
{
    let mut rng = ChaCha8Rng::seed_from_u64(0x5052_4f45_5354);
    let reference = P::with_backend(Backend::Portable).unwrap();
    for b in common::available_backends(P::NAME) {
        let p = P::with_backend(b).unwrap();
        for &n in &[0usize, 1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 35, 64, 100] {
            let input = random_states::<P::Lane>(&mut rng, n);
            let mut want = input.clone();
            for s in &mut want {
                reference.permute(s);
            }
            let mut got = input.clone();
            p.permute_many(&mut got);
            assert_eq!(got, want, "{} {} permute_many({n})", P::NAME, b.name());
            // single calls agree with wide calls
            let mut single = input.clone();
            for s in &mut single {
                p.permute(s);
            }
            assert_eq!(single, want, "{} {} permute", P::NAME, b.name());
            p.inverse_many(&mut got);
            assert_eq!(got, input, "{} {} inverse_many(permute_many)", P::NAME, b.name());
            let mut inv_want = input.clone();
            for s in &mut inv_want {
                reference.inverse(s);
            }
            let mut inv_got = input.clone();
            p.inverse_many(&mut inv_got);
            assert_eq!(inv_got, inv_want, "{} {} inverse_many({n})", P::NAME, b.name());
        }
    }
}

#[test]
fn backends_agree_with_portable_proest128() {
    differential::<Proest128>();
}

#[test]
fn backends_agree_with_portable_proest256() {
    differential::<Proest256>();
}

#[test]
fn backend_names_round_trip() {
    for b in Backend::all() {
        assert_eq!(Backend::from_name(b.name()).unwrap(), b);
        assert!(b.is_constant_time());
    }
    assert!(Backend::from_name("avx9000").is_err());
    assert!(Backend::detect().is_available());
    assert_eq!(Backend::all().count(), 7);
    assert_eq!(Backend::NAMES.len(), Backend::ALL.len());
}
