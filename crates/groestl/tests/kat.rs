//! Every record of the official Short and Long KAT files (byte- and bit-length), for all four
//! sizes, on every backend.

mod common;

use common::{available_backends, load_kat};
use slicewise_groestl::{Digest, Groestl224, Groestl256, Groestl384, Groestl512, Variant, hash_bits};

fn run(kind: &str, variant: Variant) {
    let records = load_kat(kind, variant);
    assert!(records.len() >= 513, "{kind} {variant:?}: only {} records", records.len());
    for backend in available_backends() {
        let mut bit_records = 0;
        for r in &records {
            let got = hash_bits(variant, backend, &r.msg, r.bits).unwrap();
            assert_eq!(
                got.as_ref(),
                &r.md[..],
                "{kind} {} Len={} on {}",
                variant.name(),
                r.bits,
                backend.name()
            );
            bit_records += (r.bits % 8 != 0) as usize;
        }
        eprintln!(
            "{kind}MsgKAT {}: {} records ({bit_records} bit-length) pass on {}",
            variant.name(),
            records.len(),
            backend.name()
        );
    }
}

macro_rules! kat_tests {
    ($($name:ident: $kind:literal, $v:ident;)*) => {$(
        #[test]
        fn $name() {
            run($kind, Variant::$v);
        }
    )*};
}

kat_tests! {
    short_224: "Short", Groestl224;
    short_256: "Short", Groestl256;
    short_384: "Short", Groestl384;
    short_512: "Short", Groestl512;
    long_224: "Long", Groestl224;
    long_256: "Long", Groestl256;
    long_384: "Long", Groestl384;
    long_512: "Long", Groestl512;
}

/// The typed `Digest` API and `finalize_bits` agree with the KATs too.
#[test]
fn typed_hashers_on_byte_and_bit_records() {
    fn check<D: Digest + Default>(variant: Variant, fin: impl Fn(D, u8, u32) -> Vec<u8>) {
        for r in load_kat("Short", variant).iter().step_by(7) {
            let whole = (r.bits / 8) as usize;
            let mut d = D::default();
            d.update(&r.msg[..whole]);
            let bits = (r.bits % 8) as u32;
            let last = if bits > 0 { r.msg[whole] } else { 0 };
            assert_eq!(fin(d, last, bits), r.md, "Len={}", r.bits);
        }
    }
    check::<Groestl224>(Variant::Groestl224, |d, l, b| d.finalize_bits(l, b).to_vec());
    check::<Groestl256>(Variant::Groestl256, |d, l, b| d.finalize_bits(l, b).to_vec());
    check::<Groestl384>(Variant::Groestl384, |d, l, b| d.finalize_bits(l, b).to_vec());
    check::<Groestl512>(Variant::Groestl512, |d, l, b| d.finalize_bits(l, b).to_vec());
}

/// The spec's §12 values, independent of the KAT files.
#[test]
fn spec_empty_and_short_values() {
    assert_eq!(
        hex::encode(Groestl256::digest(b"")),
        "1a52d11d550039be16107f9c58db9ebcc417f16f736adb2502567119f0083467"
    );
    assert_eq!(
        hex::encode(Groestl224::digest([0xcc])),
        "62e367662adf9317154f877fd740c23fc2356080b477dac847be2eb2"
    );
    assert_eq!(
        hex::encode(Groestl512::digest([0x41, 0xfb])),
        "272ba3fd8a6e392278f234e5053411e8267375a4f9b05d960afd2e664a67448f500f8bcdd5b8a68d0bddf3baf873cddde5c235943c58353ad90aed79a6c39cf3"
    );
    assert_eq!(
        hex::encode(Groestl384::digest(b"")),
        "ac353c1095ace21439251007862d6c62f829ddbe6de4f78e68d310a9205a736d8b11d99bffe448f57a1cfa2934f044a5"
    );
}

/// `test-vectors/groestl/SHA256SUMS` (SHA-256 of the uncompressed KAT files, which are stored
/// as `.txt.xz`) matches the files the tests read.
#[test]
fn vector_files_match_sha256sums() {
    use sha2::{Digest, Sha256};
    use std::io::Read;
    let sums = std::fs::read_to_string(common::vectors_dir().join("SHA256SUMS")).expect("SHA256SUMS");
    let mut checked = 0;
    for line in sums.lines().filter(|l| !l.trim().is_empty()) {
        let (hash, name) = line.split_once("  ").expect("sha256sum format");
        let raw = std::fs::read(common::vectors_dir().join(format!("{name}.xz"))).unwrap_or_else(|e| panic!("{name}.xz: {e}"));
        let mut text = Vec::new();
        xz2::read::XzDecoder::new(&raw[..]).read_to_end(&mut text).expect("xz");
        assert_eq!(hex::encode(Sha256::digest(&text)), hash, "{name}");
        checked += 1;
    }
    assert_eq!(checked, 8, "four sizes, short and long messages");
}
