//! Divide and conquer along block involutions (the `split:` arms of the portfolio).
//!
//! Most cipher matrices have a symmetry of order two: a fixed-point-free involution σ of the
//! rows and an involution π of the columns with `M[σ(r)][π(c)] = M[r][c]`. Circulants and
//! Hadamard matrices of even order have one at every level of their block structure
//! (`[[A, B], [B, A]]` with σ and π swapping the halves), and so do their binary expansions.
//!
//! Take one row `r` of each σ-pair (the "top" rows R). Because `M[σ(r)][c] = M[r][π(c)]`,
//!
//! ```text
//! y_σ(r) = y_r + Σ_{c < π(c)} (M[r][c] + M[r][π(c)]) · (x_c + x_π(c))
//! ```
//!
//! (the fixed columns `c = π(c)` cancel). So M is computed by
//! 1. the top rows R (a |R|×n matrix) on the inputs,
//! 2. one XOR `s_c = x_c + x_π(c)` per column pair,
//! 3. the matrix D of the coefficients `M[r][c] + M[r][π(c)]` on the `s_c`,
//! 4. one XOR per nonzero row of D: `y_σ(r) = y_r + (D·s)_r`.
//!
//! R and D are split again the same way, down to a given number of levels (the portfolio's
//! split runs go as deep as the splits go), and the leaves are solved by one run of a BP
//! heuristic. For a 2×2 block matrix this is the Karatsuba-like
//! `[[A, B], [B, A]]·(x, y) = (A·x + B·y, A·x + B·y + (A + B)·(x + y))`: three half-size
//! products instead of four. The assembled program is long (Khazad: about 530 XORs against
//! 490–500 for a BP run), but its structure is one that the greedy heuristics do not find, and
//! polishing takes it far below them (Khazad 365–398 in one chain of 25–36 s, Whirlwind_M1
//! 172–175 in the 15 s portfolio, where chains from BP runs end near 190). Only the row involutions that swap aligned blocks of `k` rows (`r ↔ r ± k`) are
//! tried; the column involution is then found by matching columns.

use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::matrix::{BitMatrix, Row};
use crate::program::{Out, Program};

/// One block involution of a matrix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// The top rows, in increasing order.
    pub top: Vec<usize>,
    /// `sigma[r]`: the partner of row `r`.
    pub sigma: Vec<usize>,
    /// `pi[c]`: the partner of column `c` (`pi[c] == c` for a fixed column).
    pub pi: Vec<usize>,
}

impl Split {
    /// The column pairs `(c, π(c))` with `c < π(c)`.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        self.pi.iter().enumerate().filter(|&(c, &p)| c < p).map(|(c, &p)| (c, p)).collect()
    }

    /// The top rows as a matrix on the inputs.
    pub fn top_matrix(&self, m: &BitMatrix) -> BitMatrix {
        BitMatrix::from_rows(m.cols(), self.top.iter().map(|&r| m.row_bits()[r]).collect())
    }

    /// D: row i has bit j set when top row i has exactly one of the columns of pair j.
    pub fn difference_matrix(&self, m: &BitMatrix) -> BitMatrix {
        let pairs = self.pairs();
        let rows = self
            .top
            .iter()
            .map(|&r| {
                let row = m.row_bits()[r];
                pairs.iter().enumerate().fold(0 as Row, |acc, (j, &(c, p))| acc | ((((row >> c) ^ (row >> p)) & 1) << j))
            })
            .collect();
        BitMatrix::from_rows(pairs.len(), rows)
    }
}

/// The block involutions of `m`: for every block size `k` (`rows / 2`, `rows / 4`, …, 1, as
/// long as `2k` divides the row count) whose row swap `r ↔ r ± k` has a matching column
/// involution. Columns with equal signatures are paired at random (`rng`), so the result may
/// differ between calls; the largest blocks come first.
pub fn find_splits(m: &BitMatrix, rng: &mut ChaCha8Rng) -> Vec<Split> {
    let n = m.rows();
    let mut out = Vec::new();
    if n < 2 || !n.is_multiple_of(2) {
        return out;
    }
    let mut k = n / 2;
    while k >= 1 {
        if n.is_multiple_of(2 * k) {
            let sigma: Vec<usize> = (0..n).map(|r| if (r / k).is_multiple_of(2) { r + k } else { r - k }).collect();
            if let Some(s) = column_involution(m, sigma, rng) {
                out.push(s);
            }
        }
        k /= 2;
    }
    out
}

/// How many levels deep `m` splits when the largest blocks are taken at every level: 0 without
/// a block involution; a level counts only if both of its pieces split that deep. Circulants of
/// even order split one level (their halves are not symmetric again), Hadamard matrices of
/// order 2^k over bytes k levels. The portfolio adds split arms from two levels on: one-level
/// splits (Grøstl, Whirlpool, M_8_8) polish worse than BP runs.
pub fn split_levels(m: &BitMatrix) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let Some(s) = find_splits(m, &mut rng).into_iter().next() else { return 0 };
    let top = split_levels(&s.top_matrix(m));
    if s.pairs().is_empty() {
        return 1 + top;
    }
    1 + top.min(split_levels(&s.difference_matrix(m)))
}

/// The column involution π that goes with the row involution `sigma`, if there is one.
fn column_involution(m: &BitMatrix, sigma: Vec<usize>, rng: &mut ChaCha8Rng) -> Option<Split> {
    let rows = m.row_bits();
    let top: Vec<usize> = (0..rows.len()).filter(|&r| r < sigma[r]).collect();
    // Column c's signature: (its bits in the top rows, its bits in their partners).
    let sig = |c: usize| -> (Row, Row) {
        let mut u = 0;
        let mut v = 0;
        for (i, &r) in top.iter().enumerate() {
            u |= ((rows[r] >> c) & 1) << i;
            v |= ((rows[sigma[r]] >> c) & 1) << i;
        }
        (u, v)
    };
    let cols = m.cols();
    let sigs: Vec<(Row, Row)> = (0..cols).map(sig).collect();
    let mut pi = vec![usize::MAX; cols];
    let mut open: std::collections::HashMap<(Row, Row), Vec<usize>> = std::collections::HashMap::new();
    let mut order: Vec<usize> = (0..cols).collect();
    // Random order, so that columns with equal signatures pair up differently.
    for i in (1..cols).rev() {
        order.swap(i, rng.random_range(0..=i));
    }
    for &c in &order {
        let (u, v) = sigs[c];
        if u == v {
            pi[c] = c;
        } else if let Some(d) = open.get_mut(&(v, u)).and_then(Vec::pop) {
            pi[c] = d;
            pi[d] = c;
        } else {
            open.entry((u, v)).or_default().push(c);
        }
    }
    pi.iter().all(|&p| p != usize::MAX).then_some(Split { top, sigma, pi })
}

/// Builds a program for `m` by splitting along block involutions down to `levels` levels
/// (choosing the largest blocks with probability 1/2, else a random split) and solving every
/// leaf with `leaf` (which must return a program computing its matrix). Equal values computed
/// twice are merged and unused operations removed. Deterministic for a given `rng` state and
/// a deterministic `leaf`.
pub fn split_program(
    m: &BitMatrix,
    levels: usize,
    rng: &mut ChaCha8Rng,
    leaf: &mut dyn FnMut(&BitMatrix, u64) -> Option<Program>,
) -> Option<Program> {
    let mut p = Program::new(m.cols(), m.rows());
    let inputs: Vec<usize> = (0..m.cols()).collect();
    p.outputs = build(m, &inputs, &mut p, levels, rng, leaf)?;
    merge_equal_values(&mut p);
    p.prune();
    Some(p)
}

fn build(
    m: &BitMatrix,
    inputs: &[usize],
    p: &mut Program,
    levels: usize,
    rng: &mut ChaCha8Rng,
    leaf: &mut dyn FnMut(&BitMatrix, u64) -> Option<Program>,
) -> Option<Vec<Out>> {
    if levels > 0 && m.rows() >= 4 && m.cols() >= 2 {
        let splits = find_splits(m, rng);
        if !splits.is_empty() {
            let i = if splits.len() == 1 || rng.random_bool(0.5) { 0 } else { rng.random_range(0..splits.len()) };
            let s = &splits[i];
            let pairs = s.pairs();
            let sums: Vec<usize> = pairs.iter().map(|&(c, d)| p.push(inputs[c], inputs[d])).collect();
            let top = build(&s.top_matrix(m), inputs, p, levels - 1, rng, leaf)?;
            let diff = if pairs.is_empty() {
                vec![Out::Zero; s.top.len()]
            } else {
                build(&s.difference_matrix(m), &sums, p, levels - 1, rng, leaf)?
            };
            let mut outs = vec![Out::Unset; m.rows()];
            for (i, &r) in s.top.iter().enumerate() {
                outs[r] = top[i];
                outs[s.sigma[r]] = match (top[i], diff[i]) {
                    (Out::Sig(a), Out::Sig(b)) => Out::Sig(p.push(a, b)),
                    (Out::Zero, o) | (o, Out::Zero) => o,
                    _ => return None,
                };
            }
            return Some(outs);
        }
    }
    let q = leaf(m, rng.next_u64())?;
    debug_assert!(q.verify(m).is_ok());
    let mut map: Vec<usize> = inputs.to_vec();
    for &(a, b) in &q.ops {
        map.push(p.push(map[a], map[b]));
    }
    Some(
        q.outputs
            .iter()
            .map(|o| match *o {
                Out::Sig(s) => Out::Sig(map[s]),
                other => other,
            })
            .collect(),
    )
}

/// Replaces every operation whose value an earlier signal already has by that signal (and
/// leaves the program unchanged if that would create an operation on two equal signals).
fn merge_equal_values(p: &mut Program) {
    let values = p.values();
    let n = p.n_inputs;
    let mut first: std::collections::HashMap<Row, usize> = std::collections::HashMap::new();
    let mut alias: Vec<usize> = (0..p.n_signals()).collect();
    for (s, &v) in values.iter().enumerate() {
        match first.get(&v) {
            Some(&f) if s >= n => alias[s] = f,
            _ => {
                first.entry(v).or_insert(s);
            }
        }
    }
    if alias.iter().enumerate().all(|(s, &a)| s == a) {
        return;
    }
    let mut ops = Vec::new();
    let mut map: Vec<usize> = (0..n).collect();
    for (i, &(a, b)) in p.ops.iter().enumerate() {
        let s = n + i;
        if alias[s] != s {
            map.push(map[alias[s]]);
            continue;
        }
        let (a, b) = (map[alias[a]], map[alias[b]]);
        if a == b {
            return;
        }
        ops.push((a, b));
        map.push(n + ops.len() - 1);
    }
    for o in &mut p.outputs {
        if let Out::Sig(s) = o {
            *s = map[alias[*s]];
        }
    }
    p.ops = ops;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::{circulant, expand_gf256};

    fn leaf_paar(m: &BitMatrix, _seed: u64) -> Option<Program> {
        Some(crate::paar::paar(m, None))
    }

    /// The symmetry condition and program checks for `m`; returns the number of splits.
    fn check_splits_and_programs(m: &BitMatrix) -> usize {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let splits = find_splits(m, &mut rng);
        for s in &splits {
            for r in 0..m.rows() {
                assert_ne!(s.sigma[r], r);
                assert_eq!(s.sigma[s.sigma[r]], r);
                for c in 0..m.cols() {
                    assert_eq!(s.pi[s.pi[c]], c);
                    assert_eq!(m.get(s.sigma[r], s.pi[c]), m.get(r, c));
                }
            }
        }
        for levels in [1, 2, 3, usize::MAX] {
            for seed in 0..3 {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let p = split_program(m, levels, &mut rng, &mut leaf_paar).expect("program");
                p.verify(m).unwrap();
                // No value is computed twice.
                let v = p.values();
                let mut u = v.clone();
                u.sort_unstable();
                u.dedup();
                assert_eq!(u.len(), v.len());
            }
        }
        splits.len()
    }

    #[test]
    fn hadamard_matrices_split_at_every_level_circulants_at_the_top() {
        // Khazad's involutory Hadamard matrix, entry (i, j) = h[i ^ j] over GF(2^8)/0x11d: the
        // byte blocks of 32, 16 and 8 rows swap (and no bit-level swap fits).
        let h = [1u8, 3, 4, 5, 6, 8, 0xb, 7];
        let bytes: Vec<Vec<u8>> = (0..8).map(|i| (0..8).map(|j| h[i ^ j]).collect()).collect();
        let khazad = expand_gf256(&bytes, 0x11d);
        assert_eq!(check_splits_and_programs(&khazad), 3);
        assert_eq!(split_levels(&khazad), 3);
        // Grøstl's MixBytes, a circulant: only the half rotation is an involution.
        let groestl = expand_gf256(&circulant(&[2, 2, 3, 4, 5, 3, 5, 7]), 0x11b);
        assert_eq!(check_splits_and_programs(&groestl), 1);
        assert_eq!(split_levels(&groestl), 1);
    }

    #[test]
    fn split_is_deterministic_and_handles_zero_and_single_rows() {
        // [[A, B], [B, A]] with A = I and B = 0 (D = I), and a matrix with zero rows.
        let id = BitMatrix::identity(8);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let p = split_program(&id, 4, &mut rng, &mut leaf_paar).unwrap();
        p.verify(&id).unwrap();
        assert_eq!(p.xor_count(), 0);
        let z = BitMatrix::from_rows(4, vec![0b0011, 0, 0b1100, 0]);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        split_program(&z, 4, &mut rng, &mut leaf_paar).unwrap().verify(&z).unwrap();
        let m = expand_gf256(&circulant(&[2, 3, 1, 1]), 0x11b);
        let run = |seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            split_program(&m, 3, &mut rng, &mut |m: &BitMatrix, s: u64| {
                let mut r = ChaCha8Rng::seed_from_u64(s);
                crate::bp::bp(m, &crate::bp::BpOptions::default(), &mut r)
            })
            .unwrap()
        };
        assert_eq!(run(7), run(7));
        run(7).verify(&m).unwrap();
    }

    #[test]
    fn unstructured_matrices_have_no_split_and_fall_back_to_the_leaf() {
        let m = BitMatrix::from_rows(4, vec![0b0111, 0b1011, 0b0001, 0b1000]);
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        assert!(find_splits(&m, &mut rng).is_empty());
        let p = split_program(&m, 3, &mut rng, &mut leaf_paar).unwrap();
        p.verify(&m).unwrap();
        assert_eq!(p.xor_count(), crate::paar::paar(&m, None).xor_count());
    }
}
