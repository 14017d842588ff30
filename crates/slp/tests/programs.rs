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

/// XOR counts of the record programs (docs/slp.md, "What you get"; their stories in docs/slp-history.md, "Results").
const RECORD_AES_DEPTH3: usize = 100;
const RECORD_AES_DEPTH4: usize = 96;
const RECORD_WHIRLPOOL: usize = 421;

/// The matrix `test-vectors/slp/NAME.txt`, or for `whirlpool_mds` (not in the catalogue) the
/// circulant circ(01,01,04,01,08,05,02,09) over GF(2^8)/0x11D of the Whirlpool specification,
/// or for `khazad` and `fse_skop15_i_8x8_8` the benchmark matrices
/// `test-vectors/slp/bench/Khazad.txt` and `FSE_SKOP15_i_8x8_8.txt`.
fn matrix_named(name: &str) -> slicewise_slp::BitMatrix {
    if name == "whirlpool_mds" {
        return expand_gf256(&circulant(&[1, 1, 4, 1, 8, 5, 2, 9]), 0x11d);
    }
    let bench = match name {
        "khazad" => Some("Khazad"),
        "fse_skop15_i_8x8_8" => Some("FSE_SKOP15_i_8x8_8"),
        _ => None,
    };
    if let Some(b) = bench {
        return parse_matrix(&std::fs::read_to_string(root().join(format!("test-vectors/slp/bench/{b}.txt"))).unwrap()).unwrap();
    }
    parse_matrix(&std::fs::read_to_string(root().join(format!("test-vectors/slp/{name}.txt"))).unwrap()).unwrap()
}

/// The record programs of docs/slp.md ("What you get"): each verifies against its matrix (also in
/// `checked_in_bit_programs_verify`) and meets the XOR count and depth claimed there.
#[test]
fn record_programs_meet_their_claims() {
    // (file, matrix, at most this many XORs, at most this depth)
    let claims: &[(&str, &str, usize, usize)] = &[
        ("aes_mixcolumns.slp", "aes_mixcolumns", 92, 8),
        ("aes_mixcolumns.90.slp", "aes_mixcolumns", 90, 8),
        ("aes_mixcolumns.89.slp", "aes_mixcolumns", 89, 5),
        ("aes_mixcolumns.88.slp", "aes_mixcolumns", 88, 7),
        ("aes_mixcolumns.88.walk.slp", "aes_mixcolumns", 88, 8),
        ("aes_mixcolumns.88.defaults.slp", "aes_mixcolumns", 88, 7),
        ("aes_mixcolumns.depth3.slp", "aes_mixcolumns", RECORD_AES_DEPTH3, 3),
        ("aes_mixcolumns.depth3.97.slp", "aes_mixcolumns", 97, 3),
        ("aes_mixcolumns.depth4.slp", "aes_mixcolumns", RECORD_AES_DEPTH4, 4),
        ("aes_mixcolumns.depth4.93.slp", "aes_mixcolumns", 93, 4),
        ("aes_mixcolumns.depth4.94.slp", "aes_mixcolumns", 94, 4),
        ("aes_mixcolumns.depth4.92.slp", "aes_mixcolumns", 92, 4),
        ("aes_mixcolumns.depth4.93.trees.slp", "aes_mixcolumns", 93, 4),
        ("aes_mixcolumns.depth4.90.slp", "aes_mixcolumns", 90, 4),
        ("aes_mixcolumns.depth4.90.defaults.slp", "aes_mixcolumns", 90, 4),
        ("aes_mixcolumns.depth6.slp", "aes_mixcolumns", 92, 6),
        ("aes_invmixcolumns.88.slp", "aes_invmixcolumns", 88, 23),
        ("groestl_mixbytes.slp", "groestl_mixbytes", 360, 14),
        ("groestl_mixbytes.359.slp", "groestl_mixbytes", 359, 13),
        ("groestl_mixbytes.358.slp", "groestl_mixbytes", 358, 17),
        ("groestl_mixbytes.357.slp", "groestl_mixbytes", 357, 18),
        ("whirlpool_mds.slp", "whirlpool_mds", RECORD_WHIRLPOOL, usize::MAX),
        ("whirlpool_mds.420.slp", "whirlpool_mds", 420, 7),
        ("whirlpool_mds.399.slp", "whirlpool_mds", 399, 13),
        ("khazad.365.slp", "khazad", 365, 25),
        ("khazad.359.slp", "khazad", 359, 23),
        ("khazad.357.slp", "khazad", 357, 22),
        ("fse_skop15_i_8x8_8.341.slp", "fse_skop15_i_8x8_8", 341, 14),
    ];
    for &(file, matrix, xors, depth) in claims {
        let path = root().join("crates/slp/programs").join(file);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let m = matrix_named(matrix);
        let p = Program::parse(&text, Some(m.cols())).unwrap();
        p.verify(&m).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(p.xor_count() <= xors, "{file}: {} XORs, claimed {xors}", p.xor_count());
        assert!(p.depth() <= depth, "{file}: depth {}, claimed {depth}", p.depth());
        assert!(text.lines().any(|l| l.starts_with("# command: slicewise slp optimize")), "{file}: no command line");
    }
}

#[test]
fn checked_in_bit_programs_verify() {
    let files = programs("slp");
    assert!(files.len() >= 5, "expected the checked-in programs, found {files:?}");
    for f in files {
        let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
        let matrix_name = stem.split('.').next().unwrap();
        let m = matrix_named(matrix_name);
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
            "groestl_mixbytes" | "groestl_mixbytes_depth8" => (&[2, 2, 3, 4, 5, 3, 5, 7], "groestl_mixbytes.txt"),
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

/// The MixBytes macro in the Grøstl crate is this tool's output for the checked-in word-level
/// program `groestl_mixbytes_depth8.word` (43 XOR + 16 xtime at depth 8: measured faster in
/// the two-operand SIMD kernels than both the papers' 48-XOR formula and the 40-XOR program of
/// depth 13). `SLICEWISE_REGENERATE=1 cargo test -p slicewise-slp --test programs` rewrites it.
#[test]
fn generated_mixbytes_in_groestl_matches_the_word_program() {
    let word = root().join("crates/slp/programs/groestl_mixbytes_depth8.word");
    let text = std::fs::read_to_string(&word).unwrap();
    let wp = WordProgram::parse(&text, 8, 0x11b).unwrap();
    wp.verify(&circulant(&[2, 2, 3, 4, 5, 3, 5, 7])).unwrap();
    let mut header = vec![
        "Generated by slicewise slp (`WordProgram::to_rust_macro`) from".to_string(),
        "crates/slp/programs/groestl_mixbytes_depth8.word:".to_string(),
    ];
    for line in text.lines().take_while(|l| l.starts_with('#')) {
        header.push(format!("  {}", line.trim_start_matches('#').trim()));
    }
    header.extend([
        "Regenerate: SLICEWISE_REGENERATE=1 cargo test -p slicewise-slp --test programs".to_string(),
        "Grøstl MixBytes over the eight row registers: x = rows a_0..a_7, outputs b_0..b_7.".to_string(),
    ]);
    let code = wp.to_rust_macro("mix_bytes_program", &header).unwrap();
    let target = root().join("crates/groestl/src/generated/mixbytes.rs");
    if std::env::var_os("SLICEWISE_REGENERATE").is_some() {
        std::fs::write(&target, &code).unwrap();
    }
    let checked_in = std::fs::read_to_string(&target).unwrap_or_else(|e| panic!("{}: {e}", target.display()));
    assert_eq!(checked_in, code, "{} is stale: regenerate it", target.display());
    assert!(code.contains(&format!("xor-count: {}", wp.xor_count())));
}
