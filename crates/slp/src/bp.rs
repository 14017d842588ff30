//! The Boyar–Peralta distance heuristic and its variants (original tie-breaking, RNBP, and the
//! Tan–Peyrin A1/A2 selection criteria), with incremental distance updates.
//!
//! # Distances without exponential search
//! The distance δ(t) of a target t is (smallest number of base elements summing to t) − 1.
//! Adding the pair sum s = b_i ⊕ b_j lowers δ(t) by one exactly when {b_i, b_j} ⊆ D for some
//! *minimal decomposition* D of t (a set of δ(t)+1 base elements summing to t). So instead of
//! asking, for every candidate pair and every target, "is t ⊕ s a sum of δ−1 base elements?"
//! (the exponential `reachable` search of the public tools), we keep, per target, the
//! decompositions of size δ+1 … δ+L and update them when an element is added:
//!
//! * D ∋ i, j:        D − {i, j} + {s}       (one smaller)
//! * D ∋ i, D ∌ j:    D − {i} + {j, s}       (one larger; symmetric for j)
//!
//! Every decomposition that uses s arises this way from one of size ±1 (or +3, ignored), so
//! with all levels kept the minimal decompositions stay exact; we keep `levels` levels and at most
//! `max_sets` sets per target, which makes the distances upper bounds that are exact in the
//! common case. A candidate's score is then read off by counting the pairs inside minimal
//! decompositions: one hash-map pass per step, independent of the base size squared. Values
//! are `u128` bitsets, so all arithmetic is word XOR/popcount.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::{BuildHasherDefault, Hasher};

use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::matrix::{BitMatrix, Row};
use crate::paar::nontrivial_targets;
use crate::program::{Program, outputs_from_values};

/// A fast hasher for `u128` keys (values are already well mixed after one multiply).
#[derive(Default, Debug, Clone, Copy)]
pub struct RowHasher(u64);

impl Hasher for RowHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100000001b3);
        }
    }
    fn write_u128(&mut self, v: u128) {
        let x = (v as u64) ^ ((v >> 64) as u64).rotate_left(29);
        self.0 = (x ^ self.0).wrapping_mul(0x9E3779B97F4A7C15);
        self.0 ^= self.0 >> 29;
    }
    fn write_u64(&mut self, v: u64) {
        self.write_u128(u128::from(v));
    }
    fn write_usize(&mut self, v: usize) {
        self.write_u128(v as u128);
    }
}

/// A `HashMap` keyed by rows with [`RowHasher`].
pub type RowMap<V> = HashMap<Row, V, BuildHasherDefault<RowHasher>>;

/// How the next base element is chosen among the pairs that lower the total distance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Criterion {
    /// Boyar–Peralta: least total distance, then largest Euclidean norm, then first pair.
    Original,
    /// Tan–Peyrin RNBP: as `Original` but ties broken at random.
    Rnbp,
    /// Tan–Peyrin A1: only pairs that bring the nearest target closer; then as RNBP.
    A1,
    /// Tan–Peyrin A2: only pairs that bring the nearest target closer; least total distance, random ties.
    A2,
}

impl Criterion {
    /// Name printed in headers.
    pub fn name(self) -> &'static str {
        match self {
            Criterion::Original => "bp",
            Criterion::Rnbp => "rnbp",
            Criterion::A1 => "a1",
            Criterion::A2 => "a2",
        }
    }
}

/// Options of one BP run.
#[derive(Debug, Clone, Copy)]
pub struct BpOptions {
    /// Selection criterion.
    pub criterion: Criterion,
    /// Largest allowed XOR depth of any signal (None: unbounded).
    pub max_depth: Option<usize>,
    /// Decomposition levels kept per target (1 = only minimal ones).
    pub levels: usize,
    /// At most this many decompositions per target.
    pub max_sets: usize,
}

impl Default for BpOptions {
    fn default() -> Self {
        BpOptions { criterion: Criterion::Rnbp, max_depth: None, levels: 3, max_sets: 96 }
    }
}

#[derive(Clone, Copy)]
struct Cand {
    value: Row,
    pair: (u32, u32),
    depth: u32,
    count: u32,
    norm_delta: u32,
    nearest: bool,
    /// The last target whose decompositions counted this value (a value counts once per target).
    last_target: u32,
}

struct State {
    base: Vec<Row>,
    depth: Vec<u32>,
    pair: Vec<(u32, u32)>,
    index: RowMap<u32>,
    targets: Vec<Row>,
    found: Vec<bool>,
    dist: Vec<usize>,
    sets: Vec<Vec<Vec<u32>>>,
    /// Per target, the least-depth pair (i, j, depth) of base elements with b_i ⊕ b_j = t, ties to
    /// the least i; kept up to date in [`State::add`] (a new pair always involves the new element).
    easy: Vec<Option<(u32, u32, u32)>>,
}

impl State {
    fn add(&mut self, i: u32, j: u32, opts: &BpOptions, rng: &mut ChaCha8Rng) {
        let s = self.base[i as usize] ^ self.base[j as usize];
        let new = self.base.len() as u32;
        self.base.push(s);
        self.depth.push(self.depth[i as usize].max(self.depth[j as usize]) + 1);
        self.pair.push((i, j));
        self.index.insert(s, new);
        for t in 0..self.targets.len() {
            if self.found[t] {
                continue;
            }
            if self.targets[t] == s {
                self.found[t] = true;
                self.dist[t] = 0;
                self.sets[t].clear();
                continue;
            }
            if let Some(&k) = self.index.get(&(self.targets[t] ^ s))
                && k != new
            {
                let d = self.depth[k as usize].max(self.depth[new as usize]) + 1;
                if self.easy[t].is_none_or(|(bi, _, bd)| d < bd || (d == bd && k < bi)) {
                    self.easy[t] = Some((k, new, d));
                }
            }
            let old = std::mem::take(&mut self.sets[t]);
            let mut out: Vec<Vec<u32>> = Vec::with_capacity(old.len() * 2);
            for d in &old {
                let hi = d.binary_search(&i).is_ok();
                let hj = d.binary_search(&j).is_ok();
                if hi && hj {
                    let mut e: Vec<u32> = d.iter().copied().filter(|&x| x != i && x != j).collect();
                    e.push(new);
                    out.push(e);
                } else if hi || hj {
                    let (drop, add) = if hi { (i, j) } else { (j, i) };
                    let mut e: Vec<u32> = d.iter().copied().filter(|&x| x != drop).collect();
                    let pos = e.binary_search(&add).unwrap_err();
                    e.insert(pos, add);
                    e.push(new);
                    out.push(e);
                }
            }
            out.extend(old);
            let min = out.iter().map(Vec::len).min().expect("a target always has a decomposition");
            self.dist[t] = min - 1;
            let limit = min + opts.levels - 1;
            out.retain(|d| d.len() <= limit);
            out.sort_unstable();
            out.dedup();
            if out.len() > opts.max_sets {
                out.shuffle(rng);
                out.sort_by_key(Vec::len);
                out.truncate(opts.max_sets);
            }
            self.sets[t] = out;
        }
    }

    /// A pair of base elements summing to `t`, with the least depth, if any.
    fn easy_pair(&self, t: Row) -> Option<(u32, u32, u32)> {
        let mut best: Option<(u32, u32, u32)> = None;
        for (i, &b) in self.base.iter().enumerate() {
            if let Some(&j) = self.index.get(&(t ^ b))
                && (j as usize) > i
            {
                let d = self.depth[i].max(self.depth[j as usize]) + 1;
                if best.is_none_or(|(_, _, bd)| d < bd) {
                    best = Some((i as u32, j, d));
                }
            }
        }
        best
    }
}

/// One run of the Boyar–Peralta heuristic. Returns `None` only when a depth bound makes every
/// candidate illegal.
pub fn bp(m: &BitMatrix, opts: &BpOptions, rng: &mut ChaCha8Rng) -> Option<Program> {
    let n = m.cols();
    let targets = nontrivial_targets(m);
    let nt = targets.len();
    let mut st = State {
        base: (0..n).map(|i| 1u128 << i).collect(),
        depth: vec![0; n],
        pair: Vec::new(),
        index: RowMap::default(),
        found: vec![false; nt],
        dist: targets.iter().map(|t| t.count_ones() as usize - 1).collect(),
        sets: targets.iter().map(|t| vec![(0..n as u32).filter(|&c| t >> c & 1 == 1).collect()]).collect(),
        easy: vec![None; nt],
        targets,
    };
    for i in 0..n {
        st.index.insert(1u128 << i, i as u32);
    }
    for t in 0..nt {
        st.easy[t] = st.easy_pair(st.targets[t]);
    }
    let max_depth = opts.max_depth.map_or(u32::MAX, |d| d as u32);
    let bounded = opts.max_depth.is_some();
    let mut cand_index: RowMap<u32> = RowMap::default();
    let mut cands: Vec<Cand> = Vec::new();
    while st.found.iter().any(|f| !f) {
        // Easy move: a target that is the sum of two base elements.
        let mut easy = None;
        for t in 0..nt {
            if !st.found[t]
                && let Some((i, j, d)) = st.easy[t]
                && d <= max_depth
            {
                easy = Some((i, j));
                break;
            }
        }
        if let Some((i, j)) = easy {
            st.add(i, j, opts, rng);
            continue;
        }
        // Score every pair inside a minimal decomposition.
        let nearest = (0..nt).filter(|&t| !st.found[t]).map(|t| st.dist[t]).min().unwrap_or(0);
        cand_index.clear();
        cands.clear();
        let mut repair: Option<(usize, u32, u32, u32)> = None;
        'targets: for t in 0..nt {
            if st.found[t] {
                continue;
            }
            let d = st.dist[t];
            for set in &st.sets[t] {
                if set.len() != d + 1 {
                    continue;
                }
                // With a depth bound, a set can still become the target within the bound iff
                // Σ 2^depth ≤ 2^bound (Kraft); a pair is useful only if the new set still is.
                let kraft: u64 = if bounded { set.iter().map(|&x| 1u64 << st.depth[x as usize].min(62)).sum() } else { 0 };
                for (a, &i) in set.iter().enumerate() {
                    for &j in &set[a + 1..] {
                        if bounded {
                            let (di, dj) = (st.depth[i as usize], st.depth[j as usize]);
                            let dn = di.max(dj) + 1;
                            if dn > max_depth || kraft - (1 << di) - (1 << dj) + (1 << dn.min(62)) > 1u64 << max_depth.min(62) {
                                continue;
                            }
                        }
                        let v = st.base[i as usize] ^ st.base[j as usize];
                        let dep = st.depth[i as usize].max(st.depth[j as usize]) + 1;
                        // One hash operation per pair: a value is checked against the base the
                        // first time it appears in this step, and counts once per target.
                        let idx = match cand_index.entry(v) {
                            Entry::Occupied(o) => {
                                let idx = *o.get();
                                if cands[idx as usize].last_target == t as u32 {
                                    continue;
                                }
                                idx
                            }
                            Entry::Vacant(vac) => {
                                if let Some(&k) = st.index.get(&v) {
                                    repair = Some((t, i, j, k));
                                    break 'targets;
                                }
                                cands.push(Cand {
                                    value: v,
                                    pair: (i, j),
                                    depth: dep,
                                    count: 0,
                                    norm_delta: 0,
                                    nearest: false,
                                    last_target: t as u32,
                                });
                                *vac.insert((cands.len() - 1) as u32)
                            }
                        };
                        let c = &mut cands[idx as usize];
                        c.last_target = t as u32;
                        if dep < c.depth {
                            c.depth = dep;
                            c.pair = (i, j);
                        }
                        c.count += 1;
                        c.norm_delta += 2 * d as u32 - 1;
                        c.nearest |= d == nearest;
                    }
                }
            }
        }
        if let Some((t, i, j, k)) = repair {
            // A decomposition was not minimal: b_i ⊕ b_j is already in the base. Shrink it.
            let sets = &mut st.sets[t];
            for set in sets.iter_mut() {
                if set.binary_search(&i).is_ok() && set.binary_search(&j).is_ok() {
                    set.retain(|&x| x != i && x != j);
                    match set.binary_search(&k) {
                        Ok(p) => {
                            set.remove(p);
                        }
                        Err(p) => set.insert(p, k),
                    }
                }
            }
            let min = sets.iter().map(Vec::len).min().unwrap_or(1);
            st.dist[t] = min.saturating_sub(1);
            continue;
        }
        let pick = choose(&cands, opts.criterion, max_depth, rng)?;
        st.add(pick.pair.0, pick.pair.1, opts, rng);
        let _ = pick.value;
    }
    let mut p = Program::new(n, m.rows());
    for &(i, j) in &st.pair {
        p.push(i as usize, j as usize);
    }
    outputs_from_values(&mut p, &st.base, m.row_bits());
    p.prune();
    p.meta.algorithm = opts.criterion.name().to_string();
    Some(p)
}

fn choose(cands: &[Cand], crit: Criterion, max_depth: u32, rng: &mut ChaCha8Rng) -> Option<Cand> {
    let filter_nearest = matches!(crit, Criterion::A1 | Criterion::A2);
    let use_norm = !matches!(crit, Criterion::A2);
    let mut best: Vec<usize> = Vec::new();
    let mut key = (0u32, u32::MAX);
    for (idx, c) in cands.iter().enumerate() {
        if c.depth > max_depth || (filter_nearest && !c.nearest) {
            continue;
        }
        let k = (c.count, if use_norm { c.norm_delta } else { 0 });
        // More reduction first; then smaller norm loss (= larger resulting norm).
        let better = k.0 > key.0 || (k.0 == key.0 && k.1 < key.1);
        if better || best.is_empty() {
            key = k;
            best.clear();
            best.push(idx);
        } else if k == key {
            best.push(idx);
        }
    }
    if best.is_empty() {
        return None;
    }
    let i = if crit == Criterion::Original { best[0] } else { best[rng.random_range(0..best.len())] };
    Some(cands[i])
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn check(m: &BitMatrix, crit: Criterion) -> usize {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let p = bp(m, &BpOptions { criterion: crit, ..Default::default() }, &mut rng).unwrap();
        p.verify(m).unwrap();
        p.xor_count()
    }

    #[test]
    fn all_criteria_verify_on_aes() {
        let m = crate::matrix::expand_gf256(&crate::matrix::circulant(&[2, 3, 1, 1]), 0x11b);
        for c in [Criterion::Original, Criterion::Rnbp, Criterion::A1, Criterion::A2] {
            let x = check(&m, c);
            assert!(x < 120, "{c:?}: {x}");
        }
    }

    #[test]
    fn depth_bound_is_respected() {
        let m = crate::matrix::expand_gf256(&crate::matrix::circulant(&[2, 3, 1, 1]), 0x11b);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..20 {
            if let Some(p) = bp(&m, &BpOptions { max_depth: Some(4), ..Default::default() }, &mut rng) {
                p.verify(&m).unwrap();
                assert!(p.depth() <= 4);
                return;
            }
        }
        panic!("no depth-4 program in 20 runs");
    }
}
