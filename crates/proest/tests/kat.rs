#![allow(clippy::needless_range_loop)]
//! The SUPERCOP reference KATs (6 × 1096 vectors) on every backend, through every API.

mod common;

use common::{Kat, load_kats};
use slicewise_proest::modes::{Ape, Copa, Mode, Otr};
use slicewise_proest::{Backend, Error, Proest128, Proest256, ProestAead};

fn check_variant<M: Mode>(kats: &[Kat], backend: Backend) -> usize {
    let mut passed = 0;
    let mut buf = vec![0xAAu8; 70_000];
    let mut cipher: Option<(Vec<u8>, ProestAead<M>)> = None;
    for k in kats {
        // Key is the same for all vectors; build once, but check it anyway.
        if cipher.as_ref().is_none_or(|(key, _)| key != &k.key) {
            cipher = Some((k.key.clone(), ProestAead::<M>::with_backend(&k.key, backend).unwrap()));
        }
        let c = &cipher.as_ref().unwrap().1;
        let what = format!("{} {} Count = {}", M::ALGORITHM, backend.name(), k.count);
        assert_eq!(ProestAead::<M>::ciphertext_len(k.pt.len()), Some(k.ct.len()), "{what}: length");
        let ct = c.encrypt(&k.nonce, &k.ad, &k.pt).unwrap();
        assert!(ct == k.ct, "{what}: encrypt\n got {}\nwant {}", hex::encode(&ct), hex::encode(&k.ct));
        let n = c.encrypt_into(&k.nonce, &k.ad, &k.pt, &mut buf).unwrap();
        assert_eq!(&buf[..n], &k.ct[..], "{what}: encrypt_into");
        let pt = c.decrypt(&k.nonce, &k.ad, &k.ct).unwrap_or_else(|e| panic!("{what}: decrypt: {e}"));
        assert_eq!(pt, k.pt, "{what}: decrypt");
        // decrypt_into with exactly max_plaintext_len bytes of room
        let max = ProestAead::<M>::max_plaintext_len(k.ct.len()).unwrap();
        let n = c.decrypt_into(&k.nonce, &k.ad, &k.ct, &mut buf[..max]).unwrap();
        assert_eq!(&buf[..n], &k.pt[..], "{what}: decrypt_into");
        passed += 1;
    }
    passed
}

fn run<M: Mode>() {
    let kats = load_kats(M::ALGORITHM);
    for b in common::available_backends(M::ALGORITHM) {
        let n = check_variant::<M>(&kats, b);
        assert_eq!(n, 1096);
        println!("{} {}: {n}/1096 vectors pass", M::ALGORITHM, b.name());
    }
}

#[test]
fn kat_proest128apev1() {
    run::<Ape<Proest128>>();
}
#[test]
fn kat_proest128copav1() {
    run::<Copa<Proest128>>();
}
#[test]
fn kat_proest128otrv1() {
    run::<Otr<Proest128>>();
}
#[test]
fn kat_proest256apev1() {
    run::<Ape<Proest256>>();
}
#[test]
fn kat_proest256copav1() {
    run::<Copa<Proest256>>();
}
#[test]
fn kat_proest256otrv1() {
    run::<Otr<Proest256>>();
}

#[test]
fn first_vector_matches_the_spec_quick_reference() {
    let k = &load_kats("proest128apev1")[0];
    assert_eq!(hex::encode_upper(&k.ct), "19EFB7B4881F397DD96FE1EEE0867A95A5374D8542E742B0C912977BF52BED08");
    let c = slicewise_proest::ProestApe128::with_backend(&k.key, Backend::Portable).unwrap();
    assert_eq!(c.encrypt(&k.nonce, &[], &[]).unwrap(), k.ct);
    assert!(matches!(c.decrypt(&k.nonce, &[], &k.ct[..31]), Err(Error::InvalidCiphertextLength { len: 31 })));
}

#[test]
fn vector_files_match_sha256sums() {
    use sha2::{Digest, Sha256};
    let sums = common::read_vector_file("SHA256SUMS");
    let mut checked = 0;
    for line in sums.lines().filter(|l| !l.trim().is_empty()) {
        let (hash, name) = line.split_once("  ").expect("sha256sum format");
        // SHA256SUMS covers the uncompressed files; the .txt KATs are stored as .txt.xz.
        let text = if name.ends_with("_permutation.txt") {
            common::read_vector_file(name)
        } else {
            common::read_vector_file(&format!("{name}.xz"))
        };
        assert_eq!(hex::encode(Sha256::digest(text.as_bytes())), hash, "{name}");
        checked += 1;
    }
    assert_eq!(checked, 8);
}
