//! Paar's cancellation-free heuristic ("Paar1"), with optional random tie-breaking (RPaar1).
//!
//! Each signal is a column of the target matrix, stored as a bitset over the targets that still
//! use it. The pair of columns shared by the most targets becomes a new signal, until no pair
//! is shared by two targets; the rest is computed by chains.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::matrix::{BitMatrix, Row};
use crate::program::{Program, outputs_from_values};

/// Distinct targets of weight ≥ 2 (weight 0/1 rows and duplicates are free aliases).
pub fn nontrivial_targets(m: &BitMatrix) -> Vec<Row> {
    let mut t: Vec<Row> = Vec::new();
    for &r in m.row_bits() {
        if r.count_ones() >= 2 && !t.contains(&r) {
            t.push(r);
        }
    }
    t
}

/// Runs Paar's algorithm. With `rng`, ties are broken uniformly at random; without, the first
/// pair in index order wins (the classic deterministic variant).
pub fn paar(m: &BitMatrix, mut rng: Option<&mut ChaCha8Rng>) -> Program {
    let n = m.cols();
    let targets = nontrivial_targets(m);
    let nt = targets.len();
    // Column c: the set of targets that (still) contain signal c.
    let mut cols: Vec<u128> = (0..n)
        .map(|c| targets.iter().enumerate().fold(0u128, |acc, (i, t)| if t >> c & 1 == 1 { acc | 1 << i } else { acc }))
        .collect();
    let mut p = Program::new(n, m.rows());
    let mut values: Vec<Row> = (0..n).map(|i| 1u128 << i).collect();
    let _ = nt;
    loop {
        let mut best = 1u32;
        let mut cands: Vec<(usize, usize)> = Vec::new();
        for a in 0..cols.len() {
            let ca = cols[a];
            if ca.count_ones() < best {
                continue;
            }
            for (b, cb) in cols.iter().enumerate().skip(a + 1) {
                let c = (ca & cb).count_ones();
                if c > best {
                    best = c;
                    cands.clear();
                    cands.push((a, b));
                } else if c == best && best >= 2 && (rng.is_some() || cands.is_empty()) {
                    cands.push((a, b));
                }
            }
        }
        if best < 2 || cands.is_empty() {
            break;
        }
        let (a, b) = match rng.as_deref_mut() {
            Some(r) => cands[r.random_range(0..cands.len())],
            None => cands[0],
        };
        let shared = cols[a] & cols[b];
        cols[a] &= !shared;
        cols[b] &= !shared;
        cols.push(shared);
        p.push(a, b);
        values.push(values[a] ^ values[b]);
    }
    // Finish every target with a chain over its remaining columns.
    for (i, t) in targets.iter().enumerate() {
        let parts: Vec<usize> = (0..cols.len()).filter(|&c| cols[c] >> i & 1 == 1).collect();
        let mut acc = parts[0];
        for &c in &parts[1..] {
            acc = p.push(acc, c);
            values.push(values[p.ops.last().unwrap().0] ^ values[c]);
        }
        debug_assert_eq!(values[acc], *t);
    }
    outputs_from_values(&mut p, &values, m.row_bits());
    p.meta.algorithm = if rng.is_some() { "rpaar".into() } else { "paar".into() };
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn paar_verifies_on_aes() {
        let m = crate::matrix::expand_gf256(&crate::matrix::circulant(&[2, 3, 1, 1]), 0x11b);
        let p = paar(&m, None);
        p.verify(&m).unwrap();
        assert!(p.xor_count() <= 110, "{}", p.xor_count());
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let q = paar(&m, Some(&mut rng));
        q.verify(&m).unwrap();
    }
}
