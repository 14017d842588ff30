//! Binary matrices over GF(2) with rows stored as `u128` bitsets.
//!
//! Row `r` is output `y_r`, bit `c` of a row is the coefficient of input `x_c`, so `y = M·x`.
//! Every heuristic in this crate works on at most [`MAX_DIM`] inputs (one `u128` per signal).

use std::fmt;

/// The largest number of inputs (columns) and outputs (rows) the synthesizer accepts.
pub const MAX_DIM: usize = 128;

/// One GF(2)-linear form: bit `c` set means input `x_c` takes part.
pub type Row = u128;

/// A binary matrix, `rows × cols`, at most [`MAX_DIM`] × [`MAX_DIM`].
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct BitMatrix {
    cols: usize,
    rows: Vec<Row>,
}

impl fmt::Debug for BitMatrix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "BitMatrix {}x{}", self.rows.len(), self.cols)?;
        f.write_str(&self.to_text())
    }
}

impl BitMatrix {
    /// Builds a matrix from its rows; bits at or above `cols` must be clear.
    ///
    /// # Panics
    /// If `cols` or the number of rows exceeds [`MAX_DIM`] or a row has a bit at or above `cols`.
    pub fn from_rows(cols: usize, rows: Vec<Row>) -> Self {
        assert!(cols <= MAX_DIM && rows.len() <= MAX_DIM, "matrix larger than {MAX_DIM}x{MAX_DIM}");
        for r in &rows {
            assert!(cols == MAX_DIM || *r >> cols == 0, "row has bits beyond column {cols}");
        }
        BitMatrix { cols, rows }
    }

    /// The identity matrix of size `n`.
    pub fn identity(n: usize) -> Self {
        Self::from_rows(n, (0..n).map(|i| 1u128 << i).collect())
    }

    /// Number of inputs.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Number of outputs.
    pub fn rows(&self) -> usize {
        self.rows.len()
    }

    /// The rows as bitsets.
    pub fn row_bits(&self) -> &[Row] {
        &self.rows
    }

    /// Entry `(r, c)`.
    pub fn get(&self, r: usize, c: usize) -> bool {
        self.rows[r] >> c & 1 == 1
    }

    /// XOR count of the naive implementation: Σ max(weight(row) − 1, 0).
    pub fn naive_xor_count(&self) -> usize {
        self.rows.iter().map(|r| (r.count_ones() as usize).saturating_sub(1)).sum()
    }

    /// Number of ones.
    pub fn weight(&self) -> usize {
        self.rows.iter().map(|r| r.count_ones() as usize).sum()
    }

    /// The transpose.
    pub fn transpose(&self) -> BitMatrix {
        let mut t = vec![0u128; self.cols];
        for (r, row) in self.rows.iter().enumerate() {
            for (c, tc) in t.iter_mut().enumerate() {
                if row >> c & 1 == 1 {
                    *tc |= 1 << r;
                }
            }
        }
        BitMatrix::from_rows(self.rows.len(), t)
    }

    /// Rank over GF(2).
    pub fn rank(&self) -> usize {
        let mut rows = self.rows.clone();
        let mut rank = 0;
        for c in 0..self.cols {
            let Some(p) = (rank..rows.len()).find(|&i| rows[i] >> c & 1 == 1) else { continue };
            rows.swap(rank, p);
            let pivot = rows[rank];
            for (i, r) in rows.iter_mut().enumerate() {
                if i != rank && *r >> c & 1 == 1 {
                    *r ^= pivot;
                }
            }
            rank += 1;
        }
        rank
    }

    /// True for square matrices of full rank.
    pub fn is_invertible(&self) -> bool {
        self.rows.len() == self.cols && self.rank() == self.cols
    }

    /// The matrix as 0/1 text, one row per line, column 0 first.
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity(self.rows.len() * (self.cols + 1));
        for r in &self.rows {
            for c in 0..self.cols {
                s.push(if r >> c & 1 == 1 { '1' } else { '0' });
            }
            s.push('\n');
        }
        s
    }

    /// A short hex fingerprint (FNV-1a over the 0/1 text), printed in program headers.
    pub fn fingerprint(&self) -> String {
        let mut h: u64 = 0xcbf29ce484222325;
        for b in self.to_text().bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x100000001b3);
        }
        format!("{h:016x}")
    }
}

/// Multiplication in GF(2^8) modulo `poly` (e.g. `0x11b`).
pub fn gf_mul(mut a: u8, mut b: u8, poly: u16) -> u8 {
    let mut acc = 0u8;
    let red = (poly & 0xff) as u8;
    while b != 0 {
        if b & 1 == 1 {
            acc ^= a;
        }
        let hi = a & 0x80 != 0;
        a <<= 1;
        if hi {
            a ^= red;
        }
        b >>= 1;
    }
    acc
}

/// Expands a matrix of GF(2^8) elements (given row-major, `rows × cols` bytes) into a binary
/// matrix of size `8·rows × 8·cols`. Bit `8b + j` is bit `j` of byte `b` (coefficient of `x^j`)
/// for inputs and outputs alike.
pub fn expand_gf256(bytes: &[Vec<u8>], poly: u16) -> BitMatrix {
    let rows = bytes.len();
    let cols = bytes.first().map_or(0, Vec::len);
    let mut out = vec![0u128; 8 * rows];
    for (i, brow) in bytes.iter().enumerate() {
        for (j, &c) in brow.iter().enumerate() {
            for l in 0..8 {
                let v = gf_mul(c, 1 << l, poly);
                for k in 0..8 {
                    if v >> k & 1 == 1 {
                        out[8 * i + k] |= 1u128 << (8 * j + l);
                    }
                }
            }
        }
    }
    BitMatrix::from_rows(8 * cols, out)
}

/// The circulant matrix whose row `r` is `first` rotated right by `r`: `M[r][k] = v[(k − r) mod n]`.
pub fn circulant(first: &[u8]) -> Vec<Vec<u8>> {
    let n = first.len();
    (0..n).map(|r| (0..n).map(|k| first[(k + n - r) % n]).collect()).collect()
}

/// The permutations τ of the inputs that map the target set onto itself, at most `cap` of
/// them, the identity first. `tau[i] = a` means that bit a of a value moves to bit i (input
/// x_a becomes x_i); the search backtracks over tau[0], tau[1], … and prunes when the
/// multiset of the targets restricted to the columns fixed so far differs from the multiset
/// of their restrictions to the image columns. Any subset of the group serves the symmetry breaking of `sat` and `enumerate`.
pub fn target_automorphisms(n: usize, targets: &[Row], cap: usize) -> Vec<Vec<usize>> {
    // The window polisher calls this for every window, so the search allocates nothing per
    // node: level c keeps every target's restriction to the image columns pre[0..c] in
    // `img[c]`, and `dom[c]` holds the sorted restrictions to the columns 0..c.
    let nt = targets.len();
    struct Search<'a> {
        n: usize,
        targets: &'a [Row],
        cap: usize,
        budget: usize,
        out: Vec<Vec<usize>>,
        /// `img[c * nt + j]`: target j restricted to pre[0..c], bit i from column pre[i].
        img: Vec<u128>,
        /// `dom[c * nt ..][..nt]`: the sorted restrictions of the targets to columns 0..c.
        dom: Vec<u128>,
        scratch: Vec<u128>,
        /// Number of targets with bit c, per column.
        weight: Vec<usize>,
    }
    fn rec(s: &mut Search<'_>, pre: &mut Vec<usize>, used: &mut [bool]) {
        if s.out.len() >= s.cap || s.budget == 0 {
            return;
        }
        s.budget -= 1;
        let c = pre.len();
        let nt = s.targets.len();
        if c > 0 {
            let d = pre[c - 1];
            for j in 0..nt {
                s.img[c * nt + j] = s.img[(c - 1) * nt + j] | (((s.targets[j] >> d) & 1) << (c - 1));
            }
        }
        s.scratch.clear();
        s.scratch.extend_from_slice(&s.img[c * nt..(c + 1) * nt]);
        s.scratch.sort_unstable();
        if s.scratch[..] != s.dom[c * nt..(c + 1) * nt] {
            return;
        }
        if c == s.n {
            s.out.push(pre.clone());
            return;
        }
        // The identity is tried first (d = c before the others). A column d whose number of
        // targets differs from column c's fails the test above at once; skipping it changes
        // nothing while the node budget cannot run out (n ≤ 8: fewer than 110 000 nodes).
        for d in std::iter::once(c).chain((0..s.n).filter(|&d| d != c)) {
            if s.n <= 8 && s.weight[d] != s.weight[c] {
                continue;
            }
            if !used[d] {
                used[d] = true;
                pre.push(d);
                rec(s, pre, used);
                pre.pop();
                used[d] = false;
            }
        }
    }
    let weight: Vec<usize> = (0..n).map(|c| targets.iter().filter(|&&t| (t >> c) & 1 == 1).count()).collect();
    let mut dom = vec![0u128; (n + 1) * nt];
    for c in 0..=n {
        let level = &mut dom[c * nt..(c + 1) * nt];
        for (slot, &t) in level.iter_mut().zip(targets) {
            *slot = if c >= 128 { t } else { t & ((1u128 << c) - 1) };
        }
        level.sort_unstable();
    }
    // A node budget keeps matrices with huge groups (or none, but many partial matches) fast.
    let mut s = Search { n, targets, cap, budget: 200_000, out: Vec::new(), img: vec![0; (n + 1) * nt], dom, scratch: Vec::with_capacity(nt), weight };
    rec(&mut s, &mut Vec::with_capacity(n), &mut vec![false; n]);
    s.out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every permutation of `n` columns, by brute force, that maps the target multiset onto
    /// itself.
    fn automorphisms_brute(n: usize, targets: &[Row]) -> Vec<Vec<usize>> {
        fn perms(n: usize, pre: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            if pre.len() == n {
                out.push(pre.clone());
                return;
            }
            for d in 0..n {
                if !pre.contains(&d) {
                    pre.push(d);
                    perms(n, pre, out);
                    pre.pop();
                }
            }
        }
        let mut all = Vec::new();
        perms(n, &mut Vec::new(), &mut all);
        let mut want: Vec<Row> = targets.to_vec();
        want.sort_unstable();
        all.into_iter()
            .filter(|tau| {
                let mut got: Vec<Row> = targets.iter().map(|&t| tau.iter().enumerate().fold(0, |acc, (i, &a)| acc | (((t >> a) & 1) << i))).collect();
                got.sort_unstable();
                got == want
            })
            .collect()
    }

    #[test]
    fn target_automorphisms_match_brute_force() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut nontrivial = 0;
        for case in 0..300 {
            let n = 2 + case % 6;
            // Circulant-like sets (rotations of a few rows) have large groups; random ones
            // mostly the identity.
            let mut targets: Vec<Row> = Vec::new();
            for _ in 0..rng.random_range(1..=4) {
                let r: Row = rng.random_range(1..(1u128 << n));
                if case % 2 == 0 {
                    for k in 0..n {
                        targets.push(((r << k) | (r >> (n - k))) & ((1 << n) - 1));
                    }
                } else {
                    targets.push(r);
                }
            }
            let mut got = target_automorphisms(n, &targets, usize::MAX);
            assert_eq!(got[0], (0..n).collect::<Vec<_>>(), "identity first");
            let mut want = automorphisms_brute(n, &targets);
            got.sort();
            want.sort();
            assert_eq!(got, want, "targets {targets:?} over {n} columns");
            nontrivial += usize::from(want.len() > 1);
        }
        assert!(nontrivial > 100, "only {nontrivial} sets with symmetry");
    }

    #[test]
    fn gf_mul_matches_xtime() {
        assert_eq!(gf_mul(0x57, 0x83, 0x11b), 0xc1);
        assert_eq!(gf_mul(0x80, 2, 0x11b), 0x1b);
    }

    #[test]
    fn aes_mixcolumns_first_row() {
        let m = expand_gf256(&circulant(&[2, 3, 1, 1]), 0x11b);
        assert_eq!(m.rows(), 32);
        // y0 bit 0 = a0_7 + a1_0 + a1_7 + a2_0 + a3_0
        let want = (1u128 << 7) | (1 << 8) | (1 << 15) | (1 << 16) | (1 << 24);
        assert_eq!(m.row_bits()[0], want);
        assert_eq!(m.naive_xor_count(), 152);
        assert!(m.is_invertible());
    }

    #[test]
    fn transpose_twice_is_identity() {
        let m = expand_gf256(&circulant(&[2, 3, 1, 1]), 0x11b);
        assert_eq!(m.transpose().transpose(), m);
    }
}
