//! Re-verifies every checked-in program: `crates/slp/programs/*.slp` against
//! `test-vectors/slp/<stem>.txt`, the word-level programs `*.word` against their GF(2^8)
//! matrices, and the generated Rust in `crates/proest/src/generated/mixslices.rs` (when that
//! crate is present) against the MixSlices matrix.

use std::path::{Path, PathBuf};

use slicewise_slp::emit::program_from_rust;
use slicewise_slp::matrix::{circulant, expand_gf256};
use slicewise_slp::parse::parse_matrix;
use slicewise_slp::program::Program;
use slicewise_slp::word::WordProgram;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn header_value(text: &str, key: &str) -> usize {
    let h = text.lines().next().expect("header");
    h.split(key).nth(1).unwrap_or_else(|| panic!("no {key} in {h}")).split_whitespace().next().unwrap().parse().unwrap()
}

fn programs(ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("crates/slp/programs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    v.sort();
    v
}

#[test]
fn checked_in_bit_programs_verify() {
    let files = programs("slp");
    assert!(files.len() >= 5, "expected the checked-in programs, found {files:?}");
    for f in files {
        let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
        let matrix_name = stem.split('.').next().unwrap();
        let m = parse_matrix(&std::fs::read_to_string(root().join(format!("test-vectors/slp/{matrix_name}.txt"))).unwrap()).unwrap();
        let text = std::fs::read_to_string(&f).unwrap();
        let p = Program::parse(&text, Some(m.cols())).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        p.verify(&m).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert_eq!(p.xor_count(), header_value(&text, "xor-count:"), "{}", f.display());
        assert_eq!(p.depth(), header_value(&text, "depth:"), "{}", f.display());
        assert!(p.xor_count() < m.naive_xor_count());
    }
}

#[test]
fn checked_in_word_programs_verify() {
    let files = programs("word");
    assert!(!files.is_empty());
    for f in files {
        let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
        let (first, bits): (&[u8], &str) = match stem.as_str() {
            "groestl_mixbytes" => (&[2, 2, 3, 4, 5, 3, 5, 7], "groestl_mixbytes.txt"),
            "aes_mixcolumns" => (&[2, 3, 1, 1], "aes_mixcolumns.txt"),
            other => panic!("unknown word program {other}"),
        };
        let bytes = circulant(first);
        let text = std::fs::read_to_string(&f).unwrap();
        let wp = WordProgram::parse(&text, first.len(), 0x11b).unwrap();
        wp.verify(&bytes).unwrap();
        assert_eq!(wp.xor_count(), header_value(&text, "xor-count:"));
        assert_eq!(wp.xtime_count(), header_value(&text, "xtime-count:"));
        let m = parse_matrix(&std::fs::read_to_string(root().join("test-vectors/slp").join(bits)).unwrap()).unwrap();
        assert_eq!(m, expand_gf256(&bytes, 0x11b));
        let e = wp.expand();
        e.verify(&m).unwrap();
        assert_eq!(e.xor_count(), wp.bit_cost());
    }
}

#[test]
fn generated_mixslices_in_proest_verifies() {
    let gen_file = root().join("crates/proest/src/generated/mixslices.rs");
    let Ok(code) = std::fs::read_to_string(&gen_file) else {
        eprintln!("{} not present; skipped", gen_file.display());
        return;
    };
    let m = parse_matrix(&std::fs::read_to_string(root().join("test-vectors/slp/proest_mixslices.txt")).unwrap()).unwrap();
    let p = program_from_rust(&code).unwrap();
    p.verify(&m).unwrap();
    let first = code.lines().next().unwrap();
    assert!(first.contains(&format!("xor-count {}", p.xor_count())), "{first}");
    assert!(p.xor_count() <= 48);
}
