//! Groestlcoin's double Grøstl-512 against vectors recorded from the PyPI package
//! `groestlcoin-hash` 1.0.3 (`test-vectors/groestl/groestlcoin.json`, see the README there).

mod common;

use common::{available_backends, vectors_dir};
use slicewise_groestl::{Digest, Groestl, Variant, groestlcoin_hash, groestlcoin_hash_many};

struct Vector {
    data: Vec<u8>,
    hash: Vec<u8>,
}

/// The file is machine-written JSON with one `"len"`, `"data"`, `"hash"` triple per record.
fn load() -> Vec<Vector> {
    let text = std::fs::read_to_string(vectors_dir().join("groestlcoin.json")).expect("groestlcoin.json");
    let field = |line: &str, key: &str| -> Option<String> {
        let rest = line.trim().strip_prefix(&format!("\"{key}\": "))?;
        Some(rest.trim_end_matches(',').trim_matches('"').to_string())
    };
    let mut out = Vec::new();
    let (mut len, mut data) = (None, None);
    for line in text.lines() {
        if let Some(v) = field(line, "len") {
            len = Some(v.parse::<usize>().unwrap());
        } else if let Some(v) = field(line, "data") {
            data = Some(hex::decode(v).unwrap());
        } else if let Some(v) = field(line, "hash") {
            let data = data.take().unwrap();
            assert_eq!(data.len(), len.take().unwrap());
            out.push(Vector { data, hash: hex::decode(v).unwrap() });
        }
    }
    out
}

#[test]
fn groestlcoin_hash_matches_pypi_package() {
    let vectors = load();
    assert_eq!(vectors.len(), 26);
    for v in &vectors {
        assert_eq!(groestlcoin_hash(&v.data).as_slice(), &v.hash[..], "len {}", v.data.len());
        // The definition, spelled out with RustCrypto's Grøstl-512.
        let twice = groestl::Groestl512::digest(groestl::Groestl512::digest(&v.data));
        assert_eq!(&twice[..32], &v.hash[..]);
    }
}

/// All 26 recorded vectors (every length, not only the 80-byte headers) on every available
/// backend: `groestlcoin_hash` itself runs on the selected backend only.
#[test]
fn groestlcoin_vectors_on_every_backend() {
    let vectors = load();
    for backend in available_backends() {
        for v in &vectors {
            let hash = |data: &[u8]| {
                let mut h = Groestl::with_backend(Variant::Groestl512, backend).unwrap();
                h.update(data);
                h.finalize()
            };
            let second = hash(hash(&v.data).as_ref());
            assert_eq!(&second.as_ref()[..32], &v.hash[..], "len {} on {backend}", v.data.len());
        }
    }
}

#[test]
fn groestlcoin_hash_many_on_every_backend() {
    let vectors = load();
    let headers: Vec<([u8; 80], Vec<u8>)> =
        vectors.iter().filter(|v| v.data.len() == 80).map(|v| (v.data[..].try_into().unwrap(), v.hash.clone())).collect();
    assert_eq!(headers.len(), 4);
    // Repeat the recorded headers to fill several multi-buffer passes, odd count included.
    let batch: Vec<([u8; 80], Vec<u8>)> = headers.iter().cycle().take(11).cloned().collect();
    let hs: Vec<[u8; 80]> = batch.iter().map(|(h, _)| *h).collect();
    for backend in available_backends() {
        let mut out = vec![[0u8; 32]; hs.len()];
        groestlcoin_hash_many(backend, &hs, &mut out).unwrap();
        for ((_, want), got) in batch.iter().zip(&out) {
            assert_eq!(&got[..], &want[..], "on {backend}");
        }
    }
}

/// Every batch length from 0 to 13 (each remainder of the four-header passes, and the single
/// last header left to the one-message path) on distinct pseudo-random headers, against
/// RustCrypto's Grøstl-512 applied twice.
#[test]
fn groestlcoin_hash_many_every_batch_length() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state as u8
    };
    let hs: Vec<[u8; 80]> = (0..13).map(|_| core::array::from_fn(|_| next())).collect();
    let want: Vec<[u8; 32]> = hs
        .iter()
        .map(|h| groestl::Groestl512::digest(groestl::Groestl512::digest(h))[..32].try_into().unwrap())
        .collect();
    for backend in available_backends() {
        for n in 0..=hs.len() {
            let mut out = vec![[0u8; 32]; n];
            groestlcoin_hash_many(backend, &hs[..n], &mut out).unwrap();
            assert_eq!(out, want[..n], "{n} headers on {backend}");
        }
    }
}
