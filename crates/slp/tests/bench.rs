//! The benchmark set of public cipher linear layers (`test-vectors/slp/bench`, see its README):
//! every matrix listed in `manifest.tsv` parses with the listed size, rank, naive XOR count and
//! fingerprint, so the data cannot rot; the manifest lists every file; and a few matrices are
//! re-derived from their definitions (AES and Grøstl from their circulants, ARIA from RFC 5794).

use slicewise_slp::BitMatrix;
use slicewise_slp::matrix::{circulant, expand_gf256};
use slicewise_slp::parse::parse_matrix;

fn dir() -> String {
    format!("{}/../../test-vectors/slp/bench", env!("CARGO_MANIFEST_DIR"))
}

fn load(name: &str) -> BitMatrix {
    let path = format!("{}/{name}.txt", dir());
    parse_matrix(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// (name, rows, cols, rank, naive XORs, fingerprint, Kranz 2017 count, Xiang 2020 count).
fn manifest() -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(format!("{}/manifest.tsv", dir())).unwrap();
    text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).map(|l| l.split('\t').map(str::to_string).collect()).collect()
}

#[test]
fn every_bench_matrix_matches_the_manifest() {
    let entries = manifest();
    assert!(entries.len() >= 60, "manifest has {} entries", entries.len());
    for e in &entries {
        assert_eq!(e.len(), 8, "{e:?}");
        let m = load(&e[0]);
        let num = |i: usize| e[i].parse::<usize>().unwrap();
        assert_eq!((m.rows(), m.cols()), (num(1), num(2)), "{}", e[0]);
        assert_eq!(m.rank(), num(3), "{}", e[0]);
        assert_eq!(m.naive_xor_count(), num(4), "{}", e[0]);
        assert_eq!(m.fingerprint(), e[5], "{}", e[0]);
        // A published count is a program, so it is at least the number of distinct rows of
        // weight >= 2 (s-XOR counts may exceed the naive count).
        let distinct: std::collections::HashSet<_> = m.row_bits().iter().filter(|r| r.count_ones() >= 2).collect();
        for c in [&e[6], &e[7]] {
            if c != "-" {
                let c: usize = c.parse().unwrap();
                assert!(c >= distinct.len(), "{}: published {c}", e[0]);
            }
        }
    }
}

#[test]
fn manifest_lists_every_matrix_file() {
    let listed: std::collections::HashSet<String> = manifest().into_iter().map(|e| format!("{}.txt", e[0])).collect();
    for f in std::fs::read_dir(dir()).unwrap() {
        let name = f.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".txt") {
            assert!(listed.contains(&name), "{name} is not in manifest.tsv");
        }
    }
}

#[test]
fn byte_matrices_match_their_definitions() {
    assert_eq!(load("AES"), expand_gf256(&circulant(&[2, 3, 1, 1]), 0x11b));
    assert_eq!(load("Grostl"), expand_gf256(&circulant(&[2, 2, 3, 4, 5, 3, 5, 7]), 0x11b));
    // Whirlpool: circ(01, 01, 04, 01, 08, 05, 02, 09) over GF(2^8)/0x11d.
    assert_eq!(load("Whirlpool"), expand_gf256(&circulant(&[1, 1, 4, 1, 8, 5, 2, 9]), 0x11d));
}

#[test]
fn aria_is_rfc5794_diffusion_layer() {
    // RFC 5794, section 2.4.3: y_i is the XOR of the bytes x_j listed in row i.
    const A: [[usize; 7]; 16] = [
        [3, 4, 6, 8, 9, 13, 14],
        [2, 5, 7, 8, 9, 12, 15],
        [1, 4, 6, 10, 11, 12, 15],
        [0, 5, 7, 10, 11, 13, 14],
        [0, 2, 5, 8, 11, 14, 15],
        [1, 3, 4, 9, 10, 14, 15],
        [0, 2, 7, 9, 10, 12, 13],
        [1, 3, 6, 8, 11, 12, 13],
        [0, 1, 4, 7, 10, 13, 15],
        [0, 1, 5, 6, 11, 12, 14],
        [2, 3, 5, 6, 8, 13, 15],
        [2, 3, 4, 7, 9, 12, 14],
        [1, 2, 6, 7, 9, 11, 12],
        [0, 3, 6, 7, 8, 10, 13],
        [0, 3, 4, 5, 9, 11, 14],
        [1, 2, 4, 5, 8, 10, 15],
    ];
    let bytes: Vec<Vec<u8>> = A.iter().map(|r| (0..16).map(|j| u8::from(r.contains(&j))).collect()).collect();
    let m = load("ARIA");
    assert_eq!(m, expand_gf256(&bytes, 0x11b));
    // A is an involution, so the bit matrix squares to the identity.
    let rows = m.row_bits();
    for (r, row) in rows.iter().enumerate() {
        let sq = (0..128).filter(|c| row >> c & 1 == 1).fold(0u128, |acc, c| acc ^ rows[c]);
        assert_eq!(sq, 1u128 << r, "row {r}");
    }
}
