//! Shared helpers for the integration tests: KAT loading and the list of variants.
#![allow(dead_code)]

use std::io::Read;
use std::path::PathBuf;

/// `test-vectors/proest/` at the workspace root.
pub fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-vectors/proest")
}

/// Reads a vector file, decompressing `.xz`.
pub fn read_vector_file(name: &str) -> String {
    let path = vectors_dir().join(name);
    let raw = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if name.ends_with(".xz") {
        let mut s = String::new();
        xz2::read::XzDecoder::new(&raw[..]).read_to_string(&mut s).expect("xz");
        s
    } else {
        String::from_utf8(raw).expect("utf-8")
    }
}

/// One genkat record.
#[derive(Debug, Clone)]
pub struct Kat {
    pub count: usize,
    pub key: Vec<u8>,
    pub nonce: Vec<u8>,
    pub pt: Vec<u8>,
    pub ad: Vec<u8>,
    pub ct: Vec<u8>,
}

/// Parses `Count = / Key = / Nonce = / PT = / AD = / CT =` records.
pub fn parse_kats(text: &str) -> Vec<Kat> {
    let mut out = Vec::new();
    for rec in text.split("\n\n").map(str::trim).filter(|r| !r.is_empty()) {
        let field = |name: &str| -> String {
            rec.lines()
                .find_map(|l| {
                    let (k, v) = l.split_once('=')?;
                    (k.trim() == name).then(|| v.trim().to_string())
                })
                .unwrap_or_else(|| panic!("record without {name}: {rec}"))
        };
        let hx = |name: &str| hex::decode(field(name)).expect("hex");
        out.push(Kat {
            count: field("Count").parse().expect("count"),
            key: hx("Key"),
            nonce: hx("Nonce"),
            pt: hx("PT"),
            ad: hx("AD"),
            ct: hx("CT"),
        });
    }
    out
}

/// Loads `<name>.txt.xz`, checking the record count.
pub fn load_kats(name: &str) -> Vec<Kat> {
    let kats = parse_kats(&read_vector_file(&format!("{name}.txt.xz")));
    assert_eq!(kats.len(), 1096, "{name}: record count");
    for (i, k) in kats.iter().enumerate() {
        assert_eq!(k.count, i + 1, "{name}: counts are consecutive");
    }
    kats
}

/// One permutation vector: input, P(input) and P^-1(input), or P^1000.
#[derive(Debug)]
pub struct PermVector {
    pub input: Vec<u8>,
    pub permute: Option<Vec<u8>>,
    pub inverse: Option<Vec<u8>>,
    pub permute_1000: Option<Vec<u8>>,
}

pub fn load_perm_vectors(name: &str) -> Vec<PermVector> {
    let text = read_vector_file(name);
    text.split("\n\n")
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(|rec| {
            let get = |n: &str| {
                rec.lines().find_map(|l| {
                    let (k, v) = l.split_once('=')?;
                    (k.trim() == n).then(|| hex::decode(v.trim()).expect("hex"))
                })
            };
            PermVector {
                input: get("In").expect("In"),
                permute: get("Permute"),
                inverse: get("InversePermute"),
                permute_1000: get("Permute^1000"),
            }
        })
        .collect()
}

/// The backends this CPU can run; prints `SKIPPED: …` for each one it cannot and records it for
/// `scripts/backend-summary.sh` (a failure if `SLICEWISE_REQUIRE_BACKENDS` names it), so that a
/// missing SIMD backend is visible, never passed silently.
#[allow(dead_code)]
pub fn available_backends(what: &str) -> Vec<slicewise_proest::Backend> {
    slicewise_proest::Backend::all().filter(|b| backend_report::gate("proest", b.name(), b.is_available(), what)).collect()
}

#[path = "../../../../test-support/backend_report.rs"]
pub mod backend_report;
