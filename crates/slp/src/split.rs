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
//! 172–175 in the 15 s portfolio, where chains from BP runs end near 190).
//!
//! The row involutions tried are `r ↔ r ⊕ k` (the column involution is then found by matching
//! columns). A Hadamard matrix of 8 bytes has seven at the top (one per byte translation
//! `i ↔ i ⊕ t`), and the pieces have their own. Which one a level takes decides the pieces and
//! their coefficients, so [`SplitChoice::Cheapest`] (the default) takes the one whose whole
//! split has the smallest estimated count ([`estimate`]). [`SplitChoice::Random`] is the choice
//! made before: aligned block swaps only (`k` a power of two), the largest with probability ½.

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

/// How [`split_program`] chooses the involution at each level (`--split-choice`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SplitChoice {
    /// Every row involution `r ↔ r ⊕ k` with a matching column involution
    /// ([`find_xor_splits`]); each level takes the one with the smallest [`estimate`] of the
    /// whole split below it, ties at random. On FSE_SKOP15_i_8x8_8 its split programs start
    /// 7–14 XORs lower, and 40 s polish chains from them end lower (means 347.1 and 340.0
    /// against 353.4 and 361.25 from two sets of starting programs; docs/slp-history.md).
    #[default]
    Cheapest,
    /// Aligned block swaps only ([`find_splits`]): the largest blocks with probability ½, else
    /// a random one. Programs made before the cheapest choice existed repeat with it.
    Random,
}

impl SplitChoice {
    /// The `--split-choice` value.
    pub fn name(self) -> &'static str {
        match self {
            SplitChoice::Cheapest => "cheapest",
            SplitChoice::Random => "random",
        }
    }

    /// Parses a `--split-choice` value.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "cheapest" => Some(SplitChoice::Cheapest),
            "random" => Some(SplitChoice::Random),
            _ => None,
        }
    }
}

/// The block involutions of `m` along every row involution `r ↔ r ⊕ k` (`1 ≤ k < rows`, with
/// `r ⊕ k < rows` for every row) that has a matching column involution: first those of
/// [`find_splits`] (`k` a power of two, largest first), then the other `k` in increasing order.
/// On a Hadamard matrix of 2^j bytes these are the 2^j − 1 byte translations.
pub fn find_xor_splits(m: &BitMatrix, rng: &mut ChaCha8Rng) -> Vec<Split> {
    let n = m.rows();
    let mut out = find_splits(m, rng);
    for k in 1..n {
        if k.is_power_of_two() || (0..n).any(|r| r ^ k >= n) {
            continue;
        }
        let sigma: Vec<usize> = (0..n).map(|r| r ^ k).collect();
        if let Some(s) = column_involution(m, sigma, rng) {
            out.push(s);
        }
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
/// (chosen by `choice` at each level) and solving every leaf with `leaf` (which must return a
/// program computing its matrix). Equal values computed twice are merged and unused
/// operations removed. Deterministic for a given `rng` state and a deterministic `leaf`.
pub fn split_program(
    m: &BitMatrix,
    levels: usize,
    choice: SplitChoice,
    rng: &mut ChaCha8Rng,
    leaf: &mut dyn FnMut(&BitMatrix, u64) -> Option<Program>,
) -> Option<Program> {
    let mut p = Program::new(m.cols(), m.rows());
    let inputs: Vec<usize> = (0..m.cols()).collect();
    let mut b = Builder { choice, rng, leaf, est: Estimates::new() };
    p.outputs = b.build(m, &inputs, &mut p, levels)?;
    merge_equal_values(&mut p);
    p.prune();
    Some(p)
}

/// Most split nodes one [`split_program`] call (or one [`estimate`]) examines for its
/// estimates. The 64×64 Hadamard matrices of the benchmark need 55, the 32×32 ones about 50;
/// ARIA's 128×128 matrix (sixteen bytes with a large symmetry group) would need 333 397, about
/// 3.6 s per split run. When the budget runs out, the levels still to choose fall back to the
/// random choice among the same involutions.
pub const ESTIMATE_NODES: usize = 4096;

/// Estimates already made, by (levels, columns, rows), and the nodes left to examine.
struct Estimates {
    memo: std::collections::HashMap<(usize, usize, Vec<Row>), usize>,
    left: usize,
}

impl Estimates {
    fn new() -> Self {
        Estimates { memo: std::collections::HashMap::new(), left: ESTIMATE_NODES }
    }
}

/// Whether [`Builder::build`] splits `m` (given that it has a split) or solves it as a leaf.
fn splits_further(m: &BitMatrix, levels: usize) -> bool {
    levels > 0 && m.rows() >= 4 && m.cols() >= 2
}

/// The estimated count of splitting `m` the cheapest way down to `levels` levels: a leaf
/// counts [`BitMatrix::naive_xor_count`] (row weight − 1 per nonzero row), a split its two
/// pieces, one XOR per column pair and one per nonzero row of D (as [`Builder::build`]
/// assembles it). Column pairs with equal signatures
/// are drawn from `rng`, as in the build. `None` when that takes more than
/// [`ESTIMATE_NODES`] split nodes.
pub fn estimate(m: &BitMatrix, levels: usize, rng: &mut ChaCha8Rng) -> Option<usize> {
    estimate_with(m, levels, rng, &mut Estimates::new())
}

fn estimate_with(m: &BitMatrix, levels: usize, rng: &mut ChaCha8Rng, est: &mut Estimates) -> Option<usize> {
    let key = (levels, m.cols(), m.row_bits().to_vec());
    if let Some(&c) = est.memo.get(&key) {
        return Some(c);
    }
    let c = if splits_further(m, levels) {
        est.left = est.left.checked_sub(1)?;
        let splits = find_xor_splits(m, rng);
        let mut best: Option<usize> = None;
        for s in &splits {
            let c = split_estimate(m, s, levels, rng, est)?;
            best = Some(best.map_or(c, |b| b.min(c)));
        }
        best.unwrap_or_else(|| m.naive_xor_count())
    } else {
        m.naive_xor_count()
    };
    est.memo.insert(key, c);
    Some(c)
}

/// [`estimate`] of splitting `m` (at `levels`) along `s`.
fn split_estimate(m: &BitMatrix, s: &Split, levels: usize, rng: &mut ChaCha8Rng, est: &mut Estimates) -> Option<usize> {
    let d = s.difference_matrix(m);
    let top = estimate_with(&s.top_matrix(m), levels - 1, rng, est)?;
    let diff = if d.cols() == 0 { 0 } else { estimate_with(&d, levels - 1, rng, est)? };
    Some(top + diff + d.cols() + d.row_bits().iter().filter(|&&r| r != 0).count())
}

/// The state of one [`split_program`] call.
struct Builder<'a> {
    choice: SplitChoice,
    rng: &'a mut ChaCha8Rng,
    leaf: &'a mut dyn FnMut(&BitMatrix, u64) -> Option<Program>,
    est: Estimates,
}

impl Builder<'_> {
    /// The split of `m` to take, if it has one.
    fn choose(&mut self, m: &BitMatrix, levels: usize) -> Option<Split> {
        let rng = &mut *self.rng;
        let mut splits = match self.choice {
            SplitChoice::Random => find_splits(m, rng),
            SplitChoice::Cheapest => find_xor_splits(m, rng),
        };
        if splits.is_empty() {
            return None;
        }
        let costs: Option<Vec<usize>> = match self.choice {
            SplitChoice::Random => None,
            SplitChoice::Cheapest => splits.iter().map(|s| split_estimate(m, s, levels, rng, &mut self.est)).collect(),
        };
        let i = match costs {
            Some(costs) => {
                let lo = costs.iter().copied().min().unwrap_or(0);
                let best: Vec<usize> = (0..splits.len()).filter(|&i| costs[i] == lo).collect();
                best[rng.random_range(0..best.len())]
            }
            // The random choice, or the estimates ran out of nodes.
            None if splits.len() == 1 || rng.random_bool(0.5) => 0,
            None => rng.random_range(0..splits.len()),
        };
        Some(splits.swap_remove(i))
    }

    fn build(&mut self, m: &BitMatrix, inputs: &[usize], p: &mut Program, levels: usize) -> Option<Vec<Out>> {
        if splits_further(m, levels)
            && let Some(s) = self.choose(m, levels)
        {
            let pairs = s.pairs();
            let sums: Vec<usize> = pairs.iter().map(|&(c, d)| p.push(inputs[c], inputs[d])).collect();
            let top = self.build(&s.top_matrix(m), inputs, p, levels - 1)?;
            let diff = if pairs.is_empty() {
                vec![Out::Zero; s.top.len()]
            } else {
                self.build(&s.difference_matrix(m), &sums, p, levels - 1)?
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
        let q = (self.leaf)(m, self.rng.next_u64())?;
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
        let xor_splits = find_xor_splits(m, &mut rng);
        assert!(xor_splits.len() >= splits.len());
        for s in splits.iter().chain(&xor_splits) {
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
            for (seed, choice) in (0..3).flat_map(|s| [(s, SplitChoice::Cheapest), (s, SplitChoice::Random)]) {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let p = split_program(m, levels, choice, &mut rng, &mut leaf_paar).expect("program");
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
        let p = split_program(&id, 4, SplitChoice::Cheapest, &mut rng, &mut leaf_paar).unwrap();
        p.verify(&id).unwrap();
        assert_eq!(p.xor_count(), 0);
        let z = BitMatrix::from_rows(4, vec![0b0011, 0, 0b1100, 0]);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        split_program(&z, 4, SplitChoice::Random, &mut rng, &mut leaf_paar).unwrap().verify(&z).unwrap();
        let m = expand_gf256(&circulant(&[2, 3, 1, 1]), 0x11b);
        let run = |seed, choice| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            split_program(&m, 3, choice, &mut rng, &mut |m: &BitMatrix, s: u64| {
                let mut r = ChaCha8Rng::seed_from_u64(s);
                crate::bp::bp(m, &crate::bp::BpOptions::default(), &mut r)
            })
            .unwrap()
        };
        for choice in [SplitChoice::Cheapest, SplitChoice::Random] {
            assert_eq!(run(7, choice), run(7, choice));
            run(7, choice).verify(&m).unwrap();
        }
    }

    #[test]
    fn unstructured_matrices_have_no_split_and_fall_back_to_the_leaf() {
        let m = BitMatrix::from_rows(4, vec![0b0111, 0b1011, 0b0001, 0b1000]);
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        assert!(find_splits(&m, &mut rng).is_empty());
        assert!(find_xor_splits(&m, &mut rng).is_empty());
        assert_eq!(estimate(&m, 3, &mut rng), Some(m.naive_xor_count()));
        let p = split_program(&m, 3, SplitChoice::Cheapest, &mut rng, &mut leaf_paar).unwrap();
        p.verify(&m).unwrap();
        assert_eq!(p.xor_count(), crate::paar::paar(&m, None).xor_count());
    }

    /// FSE_SKOP15_i_8x8_8 (Sim, Khoo, Oggier, Peyrin, FSE 2015): the involutory Hadamard matrix
    /// of 8 bytes whose coefficients span only five dimensions, from the benchmark set.
    fn skop15_i_8x8_8() -> BitMatrix {
        let text = include_str!("../../../test-vectors/slp/bench/FSE_SKOP15_i_8x8_8.txt");
        crate::parse::parse_matrix(text).unwrap()
    }

    /// A leaf solved row by row (row weight − 1 XORs each): what [`estimate`] counts.
    fn leaf_naive(m: &BitMatrix, _seed: u64) -> Option<Program> {
        let mut p = Program::new(m.cols(), m.rows());
        p.outputs = m
            .row_bits()
            .iter()
            .map(|&r| {
                let mut cols = (0..m.cols()).filter(|&c| (r >> c) & 1 == 1);
                match cols.next() {
                    None => Out::Zero,
                    Some(c0) => Out::Sig(cols.fold(c0, |acc, c| p.push(acc, c))),
                }
            })
            .collect();
        Some(p)
    }

    #[test]
    fn a_hadamard_matrix_of_8_bytes_splits_along_all_7_byte_translations() {
        let m = skop15_i_8x8_8();
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        // Block swaps: bytes i <-> i ^ 4, i ^ 2, i ^ 1; the XOR splits add i ^ 3, 5, 6, 7.
        assert_eq!(find_splits(&m, &mut rng).len(), 3);
        let xs = find_xor_splits(&m, &mut rng);
        assert_eq!(xs.len(), 7);
        let mut masks: Vec<usize> = xs.iter().map(|s| s.sigma[0]).collect();
        masks.sort_unstable();
        assert_eq!(masks, vec![8, 16, 24, 32, 40, 48, 56]);
        assert_eq!(check_splits_and_programs(&m), 3);
    }

    #[test]
    fn the_cheapest_choice_takes_the_split_with_the_least_estimate() {
        let m = skop15_i_8x8_8();
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let e = estimate(&m, usize::MAX, &mut rng).unwrap();
        let tops: Vec<usize> =
            find_xor_splits(&m, &mut rng).iter().map(|s| split_estimate(&m, s, usize::MAX, &mut rng, &mut Estimates::new()).unwrap()).collect();
        assert_eq!(Some(e), tops.iter().copied().min());
        // The translations differ: the coefficients' linear relations make some pieces cheap.
        assert!(tops.iter().any(|&c| c > e + 20), "{tops:?}");
        // Built with naive leaves, the program costs what was estimated (merging equal values
        // may only lower it); the block swaps alone cost more.
        let mut naive_random = Vec::new();
        for seed in 0..4 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let p = split_program(&m, usize::MAX, SplitChoice::Cheapest, &mut rng, &mut leaf_naive).unwrap();
            p.verify(&m).unwrap();
            assert!(p.xor_count() <= e, "{} > {e}", p.xor_count());
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let q = split_program(&m, usize::MAX, SplitChoice::Random, &mut rng, &mut leaf_naive).unwrap();
            q.verify(&m).unwrap();
            naive_random.push(q.xor_count());
        }
        assert!(naive_random.iter().all(|&c| c > e), "{naive_random:?} against {e}");
    }

    #[test]
    fn estimates_stop_at_their_node_budget_and_the_split_still_builds() {
        // ARIA's diffusion layer (16 bytes, 0/1 coefficients) has so many involutions at every
        // level that its full estimate would examine 333 397 nodes: the estimate gives up, and
        // the cheapest choice falls back to the random one, whose programs still verify.
        let text = include_str!("../../../test-vectors/slp/bench/ARIA.txt");
        let m = crate::parse::parse_matrix(text).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert_eq!(estimate(&m, usize::MAX, &mut rng), None);
        assert!(find_xor_splits(&m, &mut rng).len() > find_splits(&m, &mut rng).len());
        let p = split_program(&m, usize::MAX, SplitChoice::Cheapest, &mut rng, &mut leaf_paar).unwrap();
        p.verify(&m).unwrap();
        // The Hadamard matrices of 8 bytes stay far inside the budget.
        assert!(estimate(&skop15_i_8x8_8(), usize::MAX, &mut rng).is_some());
    }

    #[test]
    fn split_choice_names_round_trip() {
        for c in [SplitChoice::Cheapest, SplitChoice::Random] {
            assert_eq!(SplitChoice::parse(c.name()), Some(c));
        }
        assert_eq!(SplitChoice::parse("Cheapest"), None);
        assert_eq!(SplitChoice::default(), SplitChoice::Cheapest);
    }
}
