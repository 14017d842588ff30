//! In-place ("s-XOR") programs in the style of Xiang, Zeng, Lin, Bao and Zhang (ToSC 2020).
//!
//! An invertible matrix is reduced to a permutation matrix by row operations `R_i ^= R_j`,
//! each chosen greedily to remove the most ones (random among ties, random neutral moves when
//! stuck). Read backwards and relabelled by the permutation, the operations are an in-place
//! program `x[a] ^= x[b]` that leaves output `y_s` in register σ(s). Each operation is one XOR,
//! so the same sequence is also an ordinary SLP.

use std::fmt::Write as _;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::matrix::{BitMatrix, Row};
use crate::program::{Out, Program};

/// An in-place program: registers start as the inputs, each step is `reg[a] ^= reg[b]`, and
/// output `y_s` ends in register `out_reg[s]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InPlace {
    /// Number of registers (= inputs = outputs).
    pub n: usize,
    /// Steps `(a, b)`: `reg[a] ^= reg[b]`.
    pub ops: Vec<(usize, usize)>,
    /// Register holding each output at the end.
    pub out_reg: Vec<usize>,
}

impl InPlace {
    /// The equivalent straight-line program (one XOR per step).
    pub fn to_program(&self) -> Program {
        let mut p = Program::new(self.n, self.n);
        let mut cur: Vec<usize> = (0..self.n).collect();
        for &(a, b) in &self.ops {
            cur[a] = p.push(cur[a], cur[b]);
        }
        p.outputs = self.out_reg.iter().map(|&r| Out::Sig(cur[r])).collect();
        p.prune();
        p
    }

    /// The text form: `x[a] = x[a] ^ x[b]` lines, then where each output ends up.
    pub fn to_text(&self, header: &str) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{header}");
        let _ = writeln!(s, "# in-place form: registers x[0..{}] start as the inputs", self.n);
        for &(a, b) in &self.ops {
            let _ = writeln!(s, "x[{a}] = x[{a}] ^ x[{b}]");
        }
        for (o, r) in self.out_reg.iter().enumerate() {
            let _ = writeln!(s, "y{o} = x[{r}]");
        }
        s
    }
}

/// One randomized s-XOR reduction. Returns `None` for singular or non-square matrices.
pub fn sxor(m: &BitMatrix, rng: &mut ChaCha8Rng) -> Option<InPlace> {
    let n = m.cols();
    if !m.is_invertible() {
        return None;
    }
    let mut r: Vec<Row> = m.row_bits().to_vec();
    let mut steps: Vec<(usize, usize)> = Vec::new();
    let mut neutral = 0usize;
    let budget = 4 * m.naive_xor_count() + 4 * n;
    let mut cands: Vec<(usize, usize)> = Vec::new();
    // The state of least total weight seen so far: when the greedy gives up, elimination goes on
    // from there instead of from M itself.
    let weight = |r: &[Row]| r.iter().map(|x| x.count_ones()).sum::<u32>();
    let mut snap = (weight(&r), r.clone(), 0usize);
    while r.iter().any(|x| x.count_ones() != 1) {
        let mut best = i32::MIN;
        cands.clear();
        for i in 0..n {
            let wi = r[i].count_ones() as i32;
            if wi == 1 {
                continue;
            }
            for j in 0..n {
                if i == j {
                    continue;
                }
                let gain = wi - (r[i] ^ r[j]).count_ones() as i32;
                if gain > best {
                    best = gain;
                    cands.clear();
                }
                if gain == best {
                    cands.push((i, j));
                }
            }
        }
        if best <= 0 {
            neutral += 1;
            if steps.len() > budget || neutral > budget {
                return [
                    gauss_finish(m.row_bits(), Vec::new(), false),
                    gauss_finish(m.row_bits(), Vec::new(), true),
                    gauss_finish(&snap.1, steps[..snap.2].to_vec(), true),
                ]
                .into_iter()
                .flatten()
                .min_by_key(|p| p.ops.len());
            }
            if best < 0 {
                // Escape: any move on a heavy row.
                cands.retain(|_| true);
            }
        }
        let (i, j) = cands[rng.random_range(0..cands.len())];
        r[i] ^= r[j];
        steps.push((i, j));
        let w = weight(&r);
        if w < snap.0 {
            snap = (w, r.clone(), steps.len());
        }
    }
    Some(finish(n, &r, &steps))
}

/// Turns reduction steps on `M` (ending at permutation rows `r`) into the in-place program.
fn finish(n: usize, r: &[Row], steps: &[(usize, usize)]) -> InPlace {
    let sigma: Vec<usize> = r.iter().map(|x| x.trailing_zeros() as usize).collect();
    let ops = steps.iter().rev().map(|&(i, j)| (sigma[i], sigma[j])).collect();
    InPlace { n, ops, out_reg: sigma }
}

/// Fallback: Gauss–Jordan elimination of the invertible rows `r`, after the reduction `steps`
/// that led to them (always terminates). The pivot of each column is the first free row, or with
/// `lightest` the lightest.
fn gauss_finish(r: &[Row], mut steps: Vec<(usize, usize)>, lightest: bool) -> Option<InPlace> {
    let n = r.len();
    let mut r = r.to_vec();
    let mut used = vec![false; n];
    for c in 0..n {
        let free = (0..n).filter(|&i| !used[i] && r[i] >> c & 1 == 1);
        let p = if lightest { free.min_by_key(|&i| (r[i].count_ones(), i)) } else { free.min() }?;
        used[p] = true;
        for i in 0..n {
            if i != p && r[i] >> c & 1 == 1 {
                r[i] ^= r[p];
                steps.push((i, p));
            }
        }
    }
    Some(finish(n, &r, &steps))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn sxor_aes_verifies() {
        let m = crate::matrix::expand_gf256(&crate::matrix::circulant(&[2, 3, 1, 1]), 0x11b);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let ip = sxor(&m, &mut rng).unwrap();
        let p = ip.to_program();
        p.verify(&m).unwrap();
        assert!(p.xor_count() < 1000, "{}", p.xor_count());
        assert!(ip.to_text("# x").contains("x["));
    }

    #[test]
    fn singular_is_rejected() {
        let m = crate::parse::parse_matrix("11\n11\n").unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        assert!(sxor(&m, &mut rng).is_none());
    }
}
