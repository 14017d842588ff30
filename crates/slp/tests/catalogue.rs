//! The checked-in matrix catalogue (`test-vectors/slp`) parses, has the documented sizes and
//! naive XOR counts, and the byte-oriented matrices match their circulant definitions.

use slicewise_slp::matrix::{circulant, expand_gf256};
use slicewise_slp::parse::parse_matrix;

fn load(name: &str) -> slicewise_slp::BitMatrix {
    let path = format!("{}/../../test-vectors/slp/{name}", env!("CARGO_MANIFEST_DIR"));
    parse_matrix(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

#[test]
fn sizes_and_naive_counts() {
    for (name, n, naive) in [
        ("proest_mixslices.txt", 16, 72),
        ("aes_mixcolumns.txt", 32, 152),
        ("aes_invmixcolumns.txt", 32, 440),
        ("groestl_mixbytes.txt", 64, 1112),
        ("random8_s1.txt", 8, 18),
        ("random8_s2.txt", 8, 24),
        ("random8_s3.txt", 8, 30),
        ("random16_s1.txt", 16, 122),
        ("random16_s2.txt", 16, 117),
        ("random32_s1.txt", 32, 476),
        ("random32_s2.txt", 32, 487),
    ] {
        let m = load(name);
        assert_eq!((m.rows(), m.cols()), (n, n), "{name}");
        assert_eq!(m.naive_xor_count(), naive, "{name}");
        assert!(m.is_invertible(), "{name}");
    }
}

#[test]
fn byte_matrices_match_their_definitions() {
    assert_eq!(load("aes_mixcolumns.txt"), expand_gf256(&circulant(&[2, 3, 1, 1]), 0x11b));
    assert_eq!(load("groestl_mixbytes.txt"), expand_gf256(&circulant(&[2, 2, 3, 4, 5, 3, 5, 7]), 0x11b));
    let inv = load("aes_invmixcolumns.txt");
    assert_eq!(inv, expand_gf256(&circulant(&[0x0e, 0x0b, 0x0d, 0x09]), 0x11b));
    // InvMixColumns · MixColumns = identity: row r of the product is the XOR of the
    // MixColumns rows c with inv[r][c] = 1.
    let mc = load("aes_mixcolumns.txt");
    for (r, row) in inv.row_bits().iter().enumerate() {
        let p = (0..32).filter(|c| row >> c & 1 == 1).fold(0u128, |acc, c| acc ^ mc.row_bits()[c]);
        assert_eq!(p, 1 << r, "row {r}");
    }
}

#[test]
fn mixslices_is_an_involution() {
    let m = load("proest_mixslices.txt");
    let rows = m.row_bits();
    // (M·M) row r = XOR of rows c of M for which M[r][c] = 1.
    for (r, row) in rows.iter().enumerate() {
        let sq = (0..16).filter(|c| row >> c & 1 == 1).fold(0u128, |acc, c| acc ^ rows[c]);
        assert_eq!(sq, 1 << r);
    }
}
