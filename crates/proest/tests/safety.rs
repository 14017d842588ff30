#![allow(clippy::needless_range_loop)]
//! Decryption safety beyond the reference: tampering, lengths, buffer wiping, API misuse.

mod common;

use common::{Kat, load_kats};
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use slicewise_proest::modes::{Ape, Copa, Mode, Otr};
use slicewise_proest::{Backend, Error, Proest128, Proest256, ProestAead};

/// Counts chosen to cover empty/short/block-boundary/long messages and AD.
const SAMPLE: &[usize] = &[1, 2, 34, 50, 67, 545, 561, 1089, 1090, 1093];

fn expect_auth_failure<M: Mode>(c: &ProestAead<M>, nonce: &[u8], ad: &[u8], ct: &[u8], what: &str) {
    let max = ProestAead::<M>::max_plaintext_len(ct.len()).expect("length form kept");
    let mut out = vec![0xAAu8; max + 5];
    assert_eq!(c.decrypt_into(nonce, ad, ct, &mut out), Err(Error::Authentication), "{what}");
    assert!(out[..max].iter().all(|&b| b == 0), "{what}: output buffer not wiped");
    assert!(out[max..].iter().all(|&b| b == 0xAA), "{what}: wrote past max_plaintext_len");
    assert_eq!(c.decrypt(nonce, ad, ct), Err(Error::Authentication), "{what}");
}

fn flips<M: Mode>(k: &Kat, b: Backend) -> usize {
    let c = ProestAead::<M>::with_backend(&k.key, b).unwrap();
    let mut n = 0;
    for bit in 0..k.ct.len() * 8 {
        let mut ct = k.ct.clone();
        ct[bit / 8] ^= 1 << (bit % 8);
        expect_auth_failure(&c, &k.nonce, &k.ad, &ct, &format!("{} ct bit {bit}", M::ALGORITHM));
        n += 1;
    }
    for bit in 0..k.ad.len() * 8 {
        let mut ad = k.ad.clone();
        ad[bit / 8] ^= 1 << (bit % 8);
        expect_auth_failure(&c, &k.nonce, &ad, &k.ct, &format!("{} ad bit {bit}", M::ALGORITHM));
        n += 1;
    }
    for bit in 0..k.nonce.len() * 8 {
        let mut nonce = k.nonce.clone();
        nonce[bit / 8] ^= 1 << (bit % 8);
        expect_auth_failure(&c, &nonce, &k.ad, &k.ct, &format!("{} nonce bit {bit}", M::ALGORITHM));
        n += 1;
    }
    // AD extended or shortened by one byte
    let mut ad = k.ad.clone();
    ad.push(0);
    expect_auth_failure(&c, &k.nonce, &ad, &k.ct, "ad extended");
    if !k.ad.is_empty() {
        expect_auth_failure(&c, &k.nonce, &k.ad[..k.ad.len() - 1], &k.ct, "ad truncated");
    }
    // a different key
    let mut key = k.key.clone();
    key[0] ^= 0x80;
    let other = ProestAead::<M>::with_backend(&key, b).unwrap();
    expect_auth_failure(&other, &k.nonce, &k.ad, &k.ct, "other key");
    n
}

fn lengths<M: Mode>(k: &Kat, b: Backend) {
    let c = ProestAead::<M>::with_backend(&k.key, b).unwrap();
    let mut out = vec![0u8; k.ct.len() + 200];
    // every truncation, including the empty ciphertext
    for len in 0..k.ct.len() {
        let r = c.decrypt(&k.nonce, &k.ad, &k.ct[..len]);
        assert!(
            matches!(r, Err(Error::InvalidCiphertextLength { .. } | Error::Authentication)),
            "{} truncated to {len}: {r:?}",
            M::ALGORITHM
        );
        if len < ProestAead::<M>::MIN_CIPHERTEXT_LEN {
            assert_eq!(r, Err(Error::InvalidCiphertextLength { len }));
        }
        assert!(c.decrypt_into(&k.nonce, &k.ad, &k.ct[..len], &mut out).is_err());
    }
    // extensions by 1..=2B+1 bytes
    for extra in 1..=2 * M::LAST_BLOCK + 1 {
        let mut ct = k.ct.clone();
        ct.extend((0..extra).map(|i| i as u8));
        let r = c.decrypt(&k.nonce, &k.ad, &ct);
        assert!(
            matches!(r, Err(Error::InvalidCiphertextLength { .. } | Error::Authentication)),
            "{} extended by {extra}: {r:?}",
            M::ALGORITHM
        );
        if !M::is_valid_ciphertext_len(ct.len()) {
            assert_eq!(r, Err(Error::InvalidCiphertextLength { len: ct.len() }));
        }
    }
}

fn run<M: Mode>() {
    let kats = load_kats(M::ALGORITHM);
    let mut total = 0;
    for b in common::available_backends(M::ALGORITHM) {
        for &count in SAMPLE {
            let k = &kats[count - 1];
            total += flips::<M>(k, b);
            lengths::<M>(k, b);
        }
    }
    assert!(total > 1000);
}

#[test]
fn tamper_proest128apev1() {
    run::<Ape<Proest128>>();
}
#[test]
fn tamper_proest128copav1() {
    run::<Copa<Proest128>>();
}
#[test]
fn tamper_proest128otrv1() {
    run::<Otr<Proest128>>();
}
#[test]
fn tamper_proest256apev1() {
    run::<Ape<Proest256>>();
}
#[test]
fn tamper_proest256copav1() {
    run::<Copa<Proest256>>();
}
#[test]
fn tamper_proest256otrv1() {
    run::<Otr<Proest256>>();
}

fn round_trips<M: Mode>() {
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    for b in common::available_backends(M::ALGORITHM) {
        let mut key = vec![0u8; M::KEY_LEN];
        rng.fill_bytes(&mut key);
        let c = ProestAead::<M>::with_backend(&key, b).unwrap();
        assert_eq!(c.backend(), b);
        // Under Miri (memory-safety check of the mode code): a few short lengths only.
        let lens: Vec<usize> = if cfg!(miri) { vec![1, 70] } else { (0..300).chain([1000, 4095, 4096, 4097, 20_000]).collect() };
        for len in lens {
            let mut msg = vec![0u8; len];
            rng.fill_bytes(&mut msg);
            // now and then an AD of many blocks (several wide batches)
            let ad_max = if cfg!(miri) { 40 } else if len % 37 == 0 { 5000 } else { 150 };
            let mut ad = vec![0u8; rng.random_range(0..ad_max)];
            rng.fill_bytes(&mut ad);
            let mut nonce = vec![0u8; M::NONCE_LEN];
            rng.fill_bytes(&mut nonce);
            let ct = c.encrypt(&nonce, &ad, &msg).unwrap();
            assert_eq!(Some(ct.len()), ProestAead::<M>::ciphertext_len(len));
            assert!(ct.len() > len + M::TAG_LEN && ct.len() <= len + M::TAG_LEN + M::LAST_BLOCK);
            assert!(M::is_valid_ciphertext_len(ct.len()));
            assert_eq!(c.decrypt(&nonce, &ad, &ct).unwrap(), msg, "{} {} len {len}", M::ALGORITHM, b);
            // other backends agree (not under Miri, which checks memory safety: the
            // differential tests run natively on every target)
            if !cfg!(miri) {
                let portable = ProestAead::<M>::with_backend(&key, Backend::Portable).unwrap();
                assert_eq!(portable.encrypt(&nonce, &ad, &msg).unwrap(), ct);
            }
        }
    }
}

#[test]
fn round_trips_all_variants() {
    round_trips::<Ape<Proest128>>();
    round_trips::<Copa<Proest128>>();
    round_trips::<Otr<Proest128>>();
    round_trips::<Ape<Proest256>>();
    round_trips::<Copa<Proest256>>();
    round_trips::<Otr<Proest256>>();
}

#[test]
fn a_message_whose_last_block_ends_in_0x80_round_trips() {
    // The padding search must take the *last* non-zero byte, not the first 0x80.
    let c = slicewise_proest::ProestOtr128::new(&[7u8; 32]).unwrap();
    for len in 1..70 {
        let msg = vec![0x80u8; len];
        let ct = c.encrypt(&[1u8; 16], b"", &msg).unwrap();
        assert_eq!(c.decrypt(&[1u8; 16], b"", &ct).unwrap(), msg);
        let msg0 = vec![0u8; len];
        let ct = c.encrypt(&[1u8; 16], b"", &msg0).unwrap();
        assert_eq!(c.decrypt(&[1u8; 16], b"", &ct).unwrap(), msg0);
    }
}

#[test]
fn api_misuse_is_an_error_not_a_panic() {
    use slicewise_proest::ProestCopa256 as C;
    assert_eq!(C::new(&[0u8; 63]).unwrap_err(), Error::InvalidKeyLength { expected: 64, got: 63 });
    assert_eq!(C::new(&[]).unwrap_err(), Error::InvalidKeyLength { expected: 64, got: 0 });
    let c = C::new(&[0u8; 64]).unwrap();
    assert_eq!(c.encrypt(&[0u8; 31], b"", b"x").unwrap_err(), Error::InvalidNonceLength { expected: 32, got: 31 });
    assert_eq!(c.decrypt(&[0u8; 33], b"", &[0u8; 96]).unwrap_err(), Error::InvalidNonceLength { expected: 32, got: 33 });
    let ct = c.encrypt(&[0u8; 32], b"", b"hello").unwrap();
    let mut small = [0u8; 10];
    assert_eq!(
        c.encrypt_into(&[0u8; 32], b"", b"hello", &mut small).unwrap_err(),
        Error::BufferTooSmall { needed: 96, got: 10 }
    );
    assert_eq!(c.decrypt_into(&[0u8; 32], b"", &ct, &mut small).unwrap_err(), Error::BufferTooSmall { needed: 63, got: 10 });
    assert_eq!(C::max_plaintext_len(95), None);
    assert_eq!(C::max_plaintext_len(96), Some(63));
    assert_eq!(C::ciphertext_len(usize::MAX), None);
    assert_eq!(C::KEY_LEN, 64);
    assert_eq!(C::NONCE_LEN, 32);
    assert_eq!(C::TAG_LEN, 32);
    assert_eq!(C::ALGORITHM, "proest256copav1");
}

#[test]
fn debug_hides_the_key() {
    let key: Vec<u8> = (0x41..0x41 + 16).collect();
    let c = slicewise_proest::ProestApe128::with_backend(&key, Backend::U32x2).unwrap();
    let s = format!("{c:?}");
    assert!(s.contains("<hidden>"), "{s}");
    assert!(s.contains("proest128apev1") && s.contains("U32x2"), "{s}");
    assert!(!s.contains("65") && !s.contains("41") && !s.contains("ABC"), "{s}");
}

#[test]
fn rustcrypto_traits() {
    use slicewise_proest::aead::{Aead, AeadCore, KeyInit, Payload};
    type C = slicewise_proest::ProestOtr256;
    let key = slicewise_proest::aead::Key::<C>::from([3u8; 64]);
    let c = <C as KeyInit>::new(&key);
    let nonce = slicewise_proest::aead::Nonce::<C>::from([9u8; 32]);
    let ct = Aead::encrypt(&c, &nonce, Payload { msg: b"message", aad: b"header" }).unwrap();
    assert_eq!(ct, c.encrypt(&nonce, b"header", b"message").unwrap());
    assert_eq!(Aead::decrypt(&c, &nonce, Payload { msg: &ct, aad: b"header" }).unwrap(), b"message");
    assert!(Aead::decrypt(&c, &nonce, Payload { msg: &ct, aad: b"Header" }).is_err());
    assert_eq!(<C as AeadCore>::TAG_POSITION, slicewise_proest::aead::TagPosition::Postfix);
}

/// A key and 45 (nonce, AD, message) triples: lengths around block boundaries and a few long
/// ones; more packets than one wide batch.
#[allow(clippy::type_complexity)]
fn random_packets<M: Mode>(rng: &mut ChaCha8Rng) -> (Vec<u8>, Vec<(Vec<u8>, Vec<u8>, Vec<u8>)>) {
    let mut key = vec![0u8; M::KEY_LEN];
    rng.fill_bytes(&mut key);
    // Under Miri: six short packets (packet 4 is made invalid below, so at least five).
    let count = if cfg!(miri) { 6 } else { 45 };
    let lens: Vec<(usize, usize)> = (0..count).map(|i| ((i * 7) % 70 + (i / 40) * 3000, (i * 5) % 90)).collect();
    let data: Vec<(Vec<u8>, Vec<u8>, Vec<u8>)> = lens
        .iter()
        .map(|&(m, a)| {
            let mut n = vec![0u8; M::NONCE_LEN];
            let mut ad = vec![0u8; a];
            let mut msg = vec![0u8; m];
            rng.fill_bytes(&mut n);
            rng.fill_bytes(&mut ad);
            rng.fill_bytes(&mut msg);
            (n, ad, msg)
        })
        .collect();
    (key, data)
}

fn batch_matches_single<M: Mode>() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (key, data) = random_packets::<M>(&mut rng);
    let packets: Vec<slicewise_proest::Packet<'_>> =
        data.iter().map(|(n, a, m)| slicewise_proest::Packet { nonce: n, ad: a, msg: m }).collect();
    for b in common::available_backends(M::ALGORITHM) {
        let c = ProestAead::<M>::with_backend(&key, b).unwrap();
        let cts = c.encrypt_batch(&packets).unwrap();
        assert_eq!(cts.len(), packets.len());
        for (p, ct) in packets.iter().zip(&cts) {
            assert_eq!(ct, &c.encrypt(p.nonce, p.ad, p.msg).unwrap(), "{} {b} len {}", M::ALGORITHM, p.msg.len());
            assert_eq!(c.decrypt(p.nonce, p.ad, ct).unwrap(), p.msg);
        }
        assert!(c.encrypt_batch(&[]).unwrap().is_empty());
        let bad = [packets[0], slicewise_proest::Packet { nonce: &[0u8; 3], ad: b"", msg: b"x" }];
        assert!(matches!(c.encrypt_batch(&bad), Err(Error::InvalidNonceLength { got: 3, .. })));
    }
}

#[test]
fn encrypt_batch_equals_one_at_a_time() {
    batch_matches_single::<Ape<Proest128>>();
    batch_matches_single::<Copa<Proest128>>();
    batch_matches_single::<Otr<Proest128>>();
    batch_matches_single::<Ape<Proest256>>();
    batch_matches_single::<Copa<Proest256>>();
    batch_matches_single::<Otr<Proest256>>();
}

fn decrypt_batch_matches_single<M: Mode>() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (key, data) = random_packets::<M>(&mut rng);
    for b in common::available_backends(M::ALGORITHM) {
        let c = ProestAead::<M>::with_backend(&key, b).unwrap();
        let mut cts: Vec<Vec<u8>> = data.iter().map(|(n, a, m)| c.encrypt(n, a, m).unwrap()).collect();
        // Tamper with every third packet in a different way; packet 1 gets a bad nonce length,
        // packet 4 an invalid ciphertext length.
        let mut want_err = vec![None; cts.len()];
        for i in (0..cts.len()).step_by(3) {
            let ct = &mut cts[i];
            let bit = rng.random_range(0..ct.len() * 8);
            ct[bit / 8] ^= 1 << (bit % 8);
            want_err[i] = Some(Error::Authentication);
        }
        cts[4].pop();
        want_err[4] = Some(Error::InvalidCiphertextLength { len: cts[4].len() });
        let short_nonce = [0u8; 3];
        let packets: Vec<slicewise_proest::Packet<'_>> = data
            .iter()
            .zip(&cts)
            .enumerate()
            .map(|(i, ((n, a, _), ct))| slicewise_proest::Packet {
                nonce: if i == 1 { &short_nonce[..] } else { n },
                ad: a,
                msg: ct,
            })
            .collect();
        want_err[1] = Some(Error::InvalidNonceLength { expected: M::NONCE_LEN, got: 3 });
        let got = c.decrypt_batch(&packets);
        assert_eq!(got.len(), packets.len());
        let mut rejected = 0;
        for (i, (p, r)) in packets.iter().zip(&got).enumerate() {
            // Each result is exactly the one-at-a-time result.
            assert_eq!(r, &c.decrypt(p.nonce, p.ad, p.msg), "{} {b} packet {i}", M::ALGORITHM);
            match &want_err[i] {
                Some(e) => {
                    assert_eq!(r.as_ref().unwrap_err(), e, "{} {b} packet {i}", M::ALGORITHM);
                    rejected += 1;
                }
                None => assert_eq!(r.as_ref().unwrap(), &data[i].2, "{} {b} packet {i}", M::ALGORITHM),
            }
        }
        assert!(rejected >= 15);
        assert!(c.decrypt_batch(&[]).is_empty());
        // A batch in which every packet fails, and one of a single packet.
        let all_bad: Vec<_> = packets.iter().step_by(3).copied().collect();
        assert!(c.decrypt_batch(&all_bad).iter().all(|r| r == &Err(Error::Authentication)));
        assert_eq!(c.decrypt_batch(&packets[2..3])[0].as_ref().unwrap(), &data[2].2);
    }
}

#[test]
fn decrypt_batch_equals_one_at_a_time_and_rejects_each_bad_packet() {
    decrypt_batch_matches_single::<Ape<Proest128>>();
    decrypt_batch_matches_single::<Copa<Proest128>>();
    decrypt_batch_matches_single::<Otr<Proest128>>();
    decrypt_batch_matches_single::<Ape<Proest256>>();
    decrypt_batch_matches_single::<Copa<Proest256>>();
    decrypt_batch_matches_single::<Otr<Proest256>>();
}
