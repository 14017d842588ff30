//! Shared XOR trees under a depth bound (issue 33): a constructor for programs of depth at
//! most `D` that searches over how each output is split, not over gate sequences.
//!
//! **The model.** Under a depth bound `D`, an output `t` is the XOR of two values of depth at
//! most `D − 1`. A value that is not an output is built at its least depth `⌈log₂ w⌉` (`w` its
//! weight) as the XOR of two parts of weight at most `2^(depth − 1)` that partition its bits,
//! and so on down to the inputs. Every signal is identified with its value (a row mask), so
//! two outputs that choose the same part share it, and the program's XOR count is the number
//! of distinct non-input values in use. An output may also cancel one input: its two parts
//! then share one input outside it (`t = (A ∪ {e}) ⊕ (B ∪ {e})`). For `D = 3` this covers
//! every depth-3 program whose non-output gates are at their least depth and whose only
//! cancellations are at the outputs, which is what the 97-XOR depth-3 AES MixColumns programs
//! look like (checked on `aes_mixcolumns.depth3.97.slp`).
//!
//! **Outputs as parts** (`D ≥ 4`, [`TreeOptions::output_parts`]): an output may also be
//! `t = t' ⊕ x` with `t'` another output and `x = t ⊕ t'` an output or a value the model builds
//! within the bound. `t'` must then stand at depth `D − 1` or less, so while an output is a part
//! it keeps a *shallow* split (both parts of weight at most `2^(D−2)`, neither an output), and an
//! output takes a split with an output part only while that part is shallow: no cycle can form.
//! The 92-XOR depth-4 program of `slp-plateau-search` builds 5 of its 14 depth-4 outputs so.
//! On AES MixColumns at depth 4 this takes the annealer from 98–99 to 96–98 (about 10 s a
//! run, 110 s before the values were interned; issue 33 in docs/slp-history.md).
//!
//! **The search.** Reference counts over values make a change of one split a local update (the
//! parts that gain their first or lose their last user, recursively). A value that comes into
//! use takes the split that needs the fewest new values, looking one level down ("greedy");
//! an output's split is the annealed choice. One run: simulated annealing (random output
//! splits with Metropolis acceptance; greedy re-splits of outputs and of parts), then a
//! descent (greedy re-splits until none helps), then iterated local search (a few random
//! output splits, descent, kept when not longer). Deterministic in its seed. Simulated
//! annealing with greedy descent and random kicks over output splits is how
//! `slp-plateau-search` reached 97 at depth 3 (its `anneal3`, Python); this is our own
//! implementation of that idea, generalised to any matrix and depth bound. Pricing splits is
//! most of a run's time, so values are interned (an id each, an in-use flag per id, split
//! lists as id pairs): no hash look-up on that path.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::bp::RowMap;
use crate::matrix::{BitMatrix, Row};
use crate::paar::nontrivial_targets;
use crate::program::{Program, outputs_from_values};

/// Options of one run.
#[derive(Debug, Clone, Copy)]
pub struct TreeOptions {
    /// The depth bound `D`.
    pub depth: usize,
    /// Annealing moves.
    pub moves: u64,
    /// Starting temperature (in XORs).
    pub t0: f64,
    /// Final temperature.
    pub t1: f64,
    /// Iterated-local-search rounds after the annealing.
    pub ils: u64,
    /// Stop when a program this short is found.
    pub target: usize,
    /// Outputs may be parts of other outputs (`t = t' ⊕ x`), `t'` then built at depth at most
    /// `D − 1` (a "shallow" split: both parts of weight at most `2^(D−2)`, no output among
    /// them).
    pub output_parts: bool,
}

impl TreeOptions {
    /// The defaults for depth bound `depth`.
    pub fn new(depth: usize) -> Self {
        TreeOptions { depth, moves: 150_000, t0: 2.0, t1: 0.05, ils: 2_500, target: 0, output_parts: depth >= 4 }
    }
}

/// Most candidate splits enumerated for one value; a value with more is not handled.
const MAX_SPLITS: usize = 1 << 16;

/// Least depth of a value of weight `w` (`⌈log₂ w⌉`).
fn least_depth(w: u32) -> usize {
    if w <= 1 { 0 } else { (32 - (w - 1).leading_zeros()) as usize }
}

fn bits(v: Row) -> Vec<u32> {
    let mut out = Vec::with_capacity(v.count_ones() as usize);
    let mut x = v;
    while x != 0 {
        out.push(x.trailing_zeros());
        x &= x - 1;
    }
    out
}

/// The splits `(A, B)` of `v` into parts of weight ≤ `cap` that partition its bits (`A` holds
/// the lowest bit), then, with `cancel` inputs, those with one input outside `v` in both parts.
/// Parts that are outputs (`forbidden`) are left out. `None` if there would be too many.
fn enumerate_splits(v: Row, cap: u32, cancel: Row, forbidden: &RowMap<usize>) -> Option<Vec<(Row, Row)>> {
    let b = bits(v);
    let w = b.len() as u32;
    if w < 2 || w > 2 * cap || w > 24 {
        return if w >= 2 && w <= 2 * cap { None } else { Some(Vec::new()) };
    }
    let ok = |p: Row| p.count_ones() <= 1 || !forbidden.contains_key(&p);
    let mut out = Vec::new();
    let rest = &b[1..];
    for sub in 0u64..(1u64 << rest.len()) {
        let k = sub.count_ones() + 1;
        if k > cap || w - k > cap || k == w {
            continue;
        }
        let mut a: Row = 1 << b[0];
        for (i, &bit) in rest.iter().enumerate() {
            if sub >> i & 1 == 1 {
                a |= 1 << bit;
            }
        }
        let bb = v ^ a;
        if ok(a) && ok(bb) {
            out.push((a, bb));
        }
        if out.len() > MAX_SPLITS {
            return None;
        }
    }
    if cancel != 0 {
        let parts: Vec<(Row, Row)> = out.iter().copied().filter(|(a, b)| a.count_ones() < cap && b.count_ones() < cap).collect();
        for (a, bb) in parts {
            for e in bits(cancel & !v) {
                let (x, y) = (a | 1 << e, bb | 1 << e);
                if ok(x) && ok(y) {
                    out.push((x, y));
                }
            }
            if out.len() > MAX_SPLITS {
                return None;
            }
        }
    }
    Some(out)
}

#[derive(Debug, Clone, Copy)]
struct Node {
    /// Users.
    rc: u32,
    /// Current split.
    a: Row,
    b: Row,
    /// Index in `State::parts` while in use.
    slot: usize,
    /// Its id in `State::val`.
    id: u32,
}

struct State {
    /// Output values and their candidate splits.
    outputs: Vec<Row>,
    out_splits: Vec<Vec<(Row, Row)>>,
    /// Current split of each output (index into `out_splits`).
    choice: Vec<usize>,
    /// Per output and split: whether the split is shallow (the output then at depth ≤ D − 1).
    shallow: Vec<Vec<bool>>,
    /// Outputs whose current split uses output `o` as a part (`o` must stay shallow).
    users: Vec<u32>,
    /// Output values (to keep them out of the parts of non-outputs) and their indices.
    is_output: RowMap<usize>,
    /// Non-output values ever used.
    nodes: RowMap<Node>,
    /// Non-output values in use of weight ≥ 3 (more than one split).
    parts: Vec<Row>,
    /// XOR count: the outputs plus the non-output values in use.
    cost: usize,
    rng: ChaCha8Rng,
    /// Interned values, so that pricing a split reads arrays, not hash maps (most of a run's
    /// time): value -> id, id -> value, whether it is in use (`in_use`), its candidate splits
    /// as ids (non-outputs, enumerated on demand), the outputs' splits as ids.
    ids: RowMap<u32>,
    val: Vec<Row>,
    live: Vec<bool>,
    /// Per id: the output index, `u32::MAX` for a non-output.
    oidx: Vec<u32>,
    split_ids: Vec<Option<IdSplits>>,
    out_ids: Vec<Vec<(u32, u32)>>,
}

/// Candidate splits as pairs of value ids.
type IdSplits = Box<[(u32, u32)]>;

impl State {
    /// The id of `v` (a new one, with its `live` flag, if `v` was not met before).
    fn intern(&mut self, v: Row) -> u32 {
        if let Some(&i) = self.ids.get(&v) {
            return i;
        }
        let i = u32::try_from(self.val.len()).expect("fewer than 2^32 values");
        let live = self.in_use(v);
        self.ids.insert(v, i);
        self.val.push(v);
        self.live.push(live);
        self.oidx.push(self.output_index(v).map_or(u32::MAX, |q| q as u32));
        self.split_ids.push(None);
        i
    }

    /// The candidate splits of the non-output with id `i` (at its least depth), as ids (cached).
    fn ensure_split_ids(&mut self, i: u32) {
        if self.split_ids[i as usize].is_none() {
            let v = self.val[i as usize];
            let cap = 1u32 << (least_depth(v.count_ones()) - 1);
            // Never `None`: parts are at most 2^(D−1) ≤ 2^23 heavy only if the outputs are, and
            // outputs that heavy are refused by `anneal`.
            let s = enumerate_splits(v, cap, 0, &self.is_output).unwrap_or_default();
            let ids: IdSplits = s.iter().map(|&(a, b)| (self.intern(a), self.intern(b))).collect();
            self.split_ids[i as usize] = Some(ids);
        }
    }

    /// New values among the parts of the split `(a, b)` (ids).
    fn missing(&self, (a, b): (u32, u32)) -> usize {
        usize::from(!self.live[a as usize]) + usize::from(!self.live[b as usize])
    }

    /// Whether `v` is in use: an input, an output or a non-output value with users (what
    /// `live` caches per id).
    fn in_use(&self, v: Row) -> bool {
        v.count_ones() <= 1 || self.is_output.contains_key(&v) || self.nodes.get(&v).is_some_and(|n| n.rc > 0)
    }

    /// The output index of `v`, if it is one.
    fn output_index(&self, v: Row) -> Option<usize> {
        self.is_output.get(&v).copied()
    }

    /// Whether output `o` may take its split `idx`: a used output only shallow splits; output
    /// parts only while they are shallow (so no cycle can form).
    fn allowed(&self, o: usize, idx: usize) -> bool {
        if self.users[o] > 0 && !self.shallow[o][idx] {
            return false;
        }
        let (a, b) = self.out_ids[o][idx];
        [a, b].iter().all(|&p| match self.oidx[p as usize] {
            u32::MAX => true,
            q => q as usize != o && self.shallow[q as usize][self.choice[q as usize]],
        })
    }

    /// New values that using the value with id `i` costs, looking one level down.
    fn cost_add(&mut self, i: u32) -> usize {
        if self.live[i as usize] {
            return 0;
        }
        self.ensure_split_ids(i);
        // The least over the splits, stopping at 0 (no split needs fewer).
        let mut least = 2;
        for &s in self.split_ids[i as usize].as_deref().unwrap_or_default() {
            least = least.min(self.missing(s));
            if least == 0 {
                break;
            }
        }
        1 + least
    }

    /// The split of the non-output `v` that needs the fewest new values, ties at random.
    fn greedy(&mut self, v: Row) -> (Row, Row) {
        let i = self.intern(v);
        self.ensure_split_ids(i);
        let splits = self.split_ids[i as usize].as_deref().unwrap_or_default();
        let least = splits.iter().map(|&s| self.missing(s)).min().unwrap_or(0);
        let ties = splits.iter().filter(|&&s| self.missing(s) == least).count();
        let mut k = self.rng.random_range(0..ties.max(1));
        for &s in splits {
            if self.missing(s) == least {
                if k == 0 {
                    return (self.val[s.0 as usize], self.val[s.1 as usize]);
                }
                k -= 1;
            }
        }
        unreachable!("a value in use has a split")
    }

    fn incref(&mut self, v: Row, forced: Option<&RowMap<(Row, Row)>>) {
        if v.count_ones() <= 1 {
            return;
        }
        if let Some(q) = self.output_index(v) {
            self.users[q] += 1;
            return;
        }
        let id = self.intern(v);
        let n = self.nodes.entry(v).or_insert(Node { rc: 0, a: 0, b: 0, slot: usize::MAX, id });
        n.rc += 1;
        if n.rc > 1 {
            return;
        }
        self.live[id as usize] = true;
        self.cost += 1;
        let (a, b) = match forced.and_then(|f| f.get(&v)) {
            Some(&s) => s,
            None => self.greedy(v),
        };
        let slot = if v.count_ones() >= 3 {
            self.parts.push(v);
            self.parts.len() - 1
        } else {
            usize::MAX
        };
        let n = self.nodes.get_mut(&v).unwrap();
        (n.a, n.b, n.slot) = (a, b, slot);
        self.incref(a, forced);
        self.incref(b, forced);
    }

    fn decref(&mut self, v: Row) {
        if v.count_ones() <= 1 {
            return;
        }
        if let Some(q) = self.output_index(v) {
            self.users[q] -= 1;
            return;
        }
        let n = self.nodes.get_mut(&v).expect("a value in use");
        n.rc -= 1;
        if n.rc > 0 {
            return;
        }
        let (a, b, slot, id) = (n.a, n.b, n.slot, n.id);
        n.slot = usize::MAX;
        self.live[id as usize] = false;
        self.cost -= 1;
        if slot != usize::MAX {
            self.parts.swap_remove(slot);
            if slot < self.parts.len() {
                let moved = self.parts[slot];
                self.nodes.get_mut(&moved).unwrap().slot = slot;
            }
        }
        self.decref(a);
        self.decref(b);
    }

    fn set_choice(&mut self, o: usize, idx: usize) {
        let (a, b) = self.out_splits[o][self.choice[o]];
        let (x, y) = self.out_splits[o][idx];
        self.choice[o] = idx;
        // The new parts first, so that parts both splits use are not released and rebuilt.
        self.incref(x, None);
        self.incref(y, None);
        self.decref(a);
        self.decref(b);
    }

    /// Output `o` takes the split that needs the fewest new values, ties at random.
    fn greedy_output(&mut self, o: usize) {
        let (a, b) = self.out_splits[o][self.choice[o]];
        self.decref(a);
        self.decref(b);
        let mut best = (usize::MAX, 0usize, 0);
        for i in 0..self.out_splits[o].len() {
            if !self.allowed(o, i) {
                continue;
            }
            let (x, y) = self.out_ids[o][i];
            // A split whose first part alone costs more than the best so far is neither the
            // least nor a tie: its second part need not be priced.
            let cx = self.cost_add(x);
            if cx > best.0 {
                continue;
            }
            let c = cx + self.cost_add(y);
            // Ties at random: reservoir sampling over the least.
            if c < best.0 {
                best = (c, 1, i);
            } else if c == best.0 {
                best.1 += 1;
                if self.rng.random_range(0..best.1) == 0 {
                    best.2 = i;
                }
            }
        }
        self.choice[o] = best.2;
        let (x, y) = self.out_splits[o][best.2];
        self.incref(x, None);
        self.incref(y, None);
    }

    /// The non-output `v` (in use) takes its greedy split.
    fn repair(&mut self, v: Row) {
        let n = self.nodes[&v];
        self.decref(n.a);
        self.decref(n.b);
        let (a, b) = self.greedy(v);
        let m = self.nodes.get_mut(&v).unwrap();
        (m.a, m.b) = (a, b);
        self.incref(a, None);
        self.incref(b, None);
    }

    fn snapshot(&self) -> Snapshot {
        let splits = self.nodes.iter().filter(|(_, n)| n.rc > 0).map(|(&v, n)| (v, (n.a, n.b))).collect();
        Snapshot { choice: self.choice.clone(), splits, cost: self.cost }
    }

    fn restore(&mut self, s: &Snapshot) {
        for n in self.nodes.values() {
            self.live[n.id as usize] = false;
        }
        self.nodes.clear();
        self.parts.clear();
        self.users.iter_mut().for_each(|u| *u = 0);
        self.cost = self.outputs.len();
        self.choice.clone_from(&s.choice);
        for o in 0..self.outputs.len() {
            let (a, b) = self.out_splits[o][self.choice[o]];
            self.incref(a, Some(&s.splits));
            self.incref(b, Some(&s.splits));
        }
        debug_assert_eq!(self.cost, s.cost);
    }

    /// Greedy re-splits of every output and part until a whole pass gains nothing.
    fn descend(&mut self) {
        loop {
            let before = self.cost;
            let mut order: Vec<usize> = (0..self.outputs.len()).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, self.rng.random_range(0..=i));
            }
            for o in order {
                self.greedy_output(o);
            }
            for v in self.parts.clone() {
                if self.nodes.get(&v).is_some_and(|n| n.rc > 0) {
                    self.repair(v);
                }
            }
            if self.cost >= before {
                return;
            }
        }
    }
}

#[derive(Debug, Clone)]
struct Snapshot {
    choice: Vec<usize>,
    splits: RowMap<(Row, Row)>,
    cost: usize,
}

/// The program of a state: values in order of depth, then the outputs.
fn program_of(m: &BitMatrix, st: &State) -> Program {
    let n = m.cols();
    let mut split: RowMap<(Row, Row)> = st.nodes.iter().filter(|(_, x)| x.rc > 0).map(|(&v, x)| (v, (x.a, x.b))).collect();
    for (o, &t) in st.outputs.iter().enumerate() {
        split.insert(t, st.out_splits[o][st.choice[o]]);
    }
    fn depth(v: Row, split: &RowMap<(Row, Row)>, memo: &mut RowMap<usize>) -> usize {
        if v.count_ones() <= 1 {
            return 0;
        }
        if let Some(&d) = memo.get(&v) {
            return d;
        }
        let (a, b) = split[&v];
        let d = 1 + depth(a, split, memo).max(depth(b, split, memo));
        memo.insert(v, d);
        d
    }
    let mut memo = RowMap::default();
    let mut order: Vec<(usize, Row)> = split.keys().map(|&v| (depth(v, &split, &mut memo), v)).collect();
    order.sort_unstable();
    let mut p = Program::new(n, m.rows());
    let mut sig: RowMap<usize> = (0..n).map(|i| (1 << i, i)).collect();
    let mut values: Vec<Row> = (0..n).map(|i| 1 << i).collect();
    for (_, v) in order {
        let (a, b) = split[&v];
        let s = p.push(sig[&a], sig[&b]);
        sig.insert(v, s);
        values.push(v);
    }
    outputs_from_values(&mut p, &values, m.row_bits());
    p
}

/// Whether [`anneal`] applies to `m` under depth bound `depth`: every row at most `2^depth`
/// heavy (and light enough to enumerate its splits).
pub fn applies(m: &BitMatrix, depth: usize) -> bool {
    (1..=24).contains(&depth) && nontrivial_targets(m).iter().all(|t| t.count_ones() <= 24 && u64::from(t.count_ones()) <= 1u64 << depth)
}

/// One run. `None` if the model does not apply: a row heavier than `2^D`, or one with too
/// many splits to enumerate.
pub fn anneal(m: &BitMatrix, o: &TreeOptions, seed: u64) -> Option<Program> {
    let targets = nontrivial_targets(m);
    if !applies(m, o.depth) {
        return None;
    }
    let all: Row = if m.cols() >= 128 { !0 } else { (1 << m.cols()) - 1 };
    let is_output: RowMap<usize> = targets.iter().enumerate().map(|(i, &t)| (t, i)).collect();
    let cap = 1u32 << (o.depth - 1);
    let mut out_splits = Vec::with_capacity(targets.len());
    for &t in &targets {
        let s = enumerate_splits(t, cap, all, &is_output)?;
        if s.is_empty() {
            return None;
        }
        out_splits.push(s);
    }
    // Splits of the model proper come first; `base[i]` of them for output `i`.
    let base: Vec<usize> = out_splits.iter().map(Vec::len).collect();
    if o.output_parts && o.depth >= 3 {
        for (i, &t) in targets.iter().enumerate() {
            for (j, &u) in targets.iter().enumerate() {
                let x = t ^ u;
                // `x` another output (its index above `j`: one of the two orders of the pair)
                // or a value the model builds within the bound.
                if j != i && (is_output.get(&x).is_some_and(|&k| k > j) || (!is_output.contains_key(&x) && x.count_ones() <= cap)) {
                    out_splits[i].push((u, x));
                }
            }
        }
    }
    let shallow_cap = 1u32 << o.depth.saturating_sub(2).min(31);
    let shallow: Vec<Vec<bool>> = out_splits
        .iter()
        .map(|v| v.iter().map(|&(a, b)| [a, b].iter().all(|p| !is_output.contains_key(p) && p.count_ones() <= shallow_cap)).collect())
        .collect();
    let mut st = State {
        outputs: targets.clone(),
        choice: vec![0; targets.len()],
        shallow,
        users: vec![0; targets.len()],
        out_splits,
        is_output,
        nodes: RowMap::default(),
        parts: Vec::new(),
        cost: targets.len(),
        rng: ChaCha8Rng::seed_from_u64(seed ^ 0x7472_6565_7300_0000),
        ids: RowMap::default(),
        val: Vec::new(),
        live: Vec::new(),
        oidx: Vec::new(),
        split_ids: Vec::new(),
        out_ids: Vec::new(),
    };
    for o in 0..targets.len() {
        let ids = st.out_splits[o].clone().into_iter().map(|(a, b)| (st.intern(a), st.intern(b))).collect();
        st.out_ids.push(ids);
    }
    for (i, &n) in base.iter().enumerate() {
        st.choice[i] = st.rng.random_range(0..n);
        let (a, b) = st.out_splits[i][st.choice[i]];
        st.incref(a, None);
        st.incref(b, None);
    }
    let nt = targets.len();
    // Annealing.
    let mut best = st.snapshot();
    let ratio = if o.moves > 1 { (o.t1 / o.t0).powf(1.0 / o.moves as f64) } else { 1.0 };
    let mut temp = o.t0;
    for _ in 0..o.moves {
        temp *= ratio;
        let r: f64 = st.rng.random();
        if r < 0.6 {
            let i = st.rng.random_range(0..nt);
            let old = st.choice[i];
            let idx = st.rng.random_range(0..st.out_splits[i].len());
            if idx == old || !st.allowed(i, idx) {
                continue;
            }
            let before = st.cost;
            st.set_choice(i, idx);
            let d = st.cost as f64 - before as f64;
            if d > 0.0 && st.rng.random::<f64>() >= (-d / temp).exp() {
                st.set_choice(i, old);
            }
        } else if r < 0.85 {
            if !st.parts.is_empty() {
                let v = st.parts[st.rng.random_range(0..st.parts.len())];
                st.repair(v);
            }
        } else {
            let i = st.rng.random_range(0..nt);
            st.greedy_output(i);
        }
        if st.cost < best.cost {
            best = st.snapshot();
        }
    }
    st.restore(&best);
    st.descend();
    // Iterated local search.
    let mut cur = st.snapshot();
    for _ in 0..o.ils {
        if cur.cost <= o.target {
            break;
        }
        st.restore(&cur);
        let kicks = st.rng.random_range(2..7);
        for _ in 0..kicks {
            let i = st.rng.random_range(0..nt);
            let idx = st.rng.random_range(0..st.out_splits[i].len());
            if st.allowed(i, idx) {
                st.set_choice(i, idx);
            }
        }
        st.descend();
        if st.cost <= cur.cost {
            cur = st.snapshot();
        }
    }
    st.restore(&cur);
    let mut p = program_of(m, &st);
    p.meta.algorithm = format!("trees{}", o.depth);
    p.meta.seed = seed;
    debug_assert_eq!(p.xor_count(), cur.cost);
    p.verify(m).ok()?;
    if p.depth() > o.depth {
        return None;
    }
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_matrix;

    fn aes() -> BitMatrix {
        parse_matrix(include_str!("../../../test-vectors/slp/aes_mixcolumns.txt")).unwrap()
    }

    #[test]
    fn least_depths() {
        assert_eq!([1, 2, 3, 4, 5, 8, 9].map(least_depth), [0, 1, 2, 2, 3, 3, 4]);
    }

    /// The split counts of AES MixColumns' outputs at depth 3: weight 7, the 35 partitions
    /// into 4 + 3; weight 5, the 5 + 10 partitions into 4 + 1 and 3 + 2, and the 3 + 2
    /// partitions with one of the 27 other inputs cancelled (270).
    #[test]
    fn aes_output_splits() {
        let m = aes();
        let t = nontrivial_targets(&m);
        let none = RowMap::default();
        for &v in &t {
            let n = enumerate_splits(v, 4, (1 << 32) - 1, &none).unwrap().len();
            match v.count_ones() {
                7 => assert_eq!(n, 35),
                5 => assert_eq!(n, 15 + 270),
                w => panic!("weight {w}"),
            }
        }
    }

    /// Every run gives a correct program within the bound, deterministically in its seed.
    #[test]
    fn programs_are_correct_and_repeat() {
        let m = aes();
        for d in [3, 4] {
            let o = TreeOptions { moves: 5_000, ils: 20, ..TreeOptions::new(d) };
            let p = anneal(&m, &o, 7).expect("a program");
            p.verify(&m).unwrap();
            assert!(p.depth() <= d);
            assert_eq!(anneal(&m, &o, 7).unwrap().ops, p.ops);
        }
    }

    /// The depth-3 figure of docs/slp.md: `slicewise slp optimize aes_mixcolumns.txt -a trees
    /// --max-depth 3 --runs 1 --seed 0` gives 97 XORs at depth 3 (under a second).
    #[test]
    fn aes_depth3_97_repeats() {
        let m = aes();
        let p = anneal(&m, &TreeOptions::new(3), 0).expect("a program");
        p.verify(&m).unwrap();
        assert_eq!((p.xor_count(), p.depth()), (97, 3));
    }

    /// With outputs as parts (the default from depth 4), some output is built from another;
    /// every such part stands at depth 3 or less, and the program is correct within the bound.
    #[test]
    fn outputs_as_parts_at_depth4() {
        let m = aes();
        let o = TreeOptions { moves: 5_000, ils: 20, ..TreeOptions::new(4) };
        assert!(o.output_parts && !TreeOptions::new(3).output_parts);
        let p = anneal(&m, &o, 7).expect("a program");
        p.verify(&m).unwrap();
        assert!(p.depth() <= 4);
        let outs: Vec<usize> = p.outputs.iter().filter_map(|o| if let crate::program::Out::Sig(s) = o { Some(*s) } else { None }).collect();
        let depths = p.signal_depths();
        let mut used = 0;
        for (i, &(a, b)) in p.ops.iter().enumerate() {
            let s = m.cols() + i;
            for x in [a, b] {
                if outs.contains(&s) && outs.contains(&x) {
                    used += 1;
                    assert!(depths[x] <= 3);
                }
            }
        }
        assert!(used > 0, "no output is a part of another");
        let q = anneal(&m, &TreeOptions { output_parts: false, ..o }, 7).expect("a program");
        q.verify(&m).unwrap();
        assert!(q.depth() <= 4);
    }

    #[test]
    fn too_heavy_rows_give_none() {
        let m = parse_matrix("11111\n").unwrap();
        assert!(anneal(&m, &TreeOptions::new(2), 1).is_none());
        assert!(anneal(&m, &TreeOptions::new(3), 1).is_some());
    }
}

#[cfg(test)]
mod explore {
    use super::*;
    use crate::parse::parse_matrix;

    /// `TREES_D=3 TREES_MOVES=… cargo test --release -p slicewise-slp trees::explore -- --ignored --nocapture`
    /// (also TREES_T0, TREES_T1, TREES_ILS, TREES_TARGET, TREES_OUTPUT_PARTS; seeds TREES_SEED0 ..
    /// TREES_SEED0 + TREES_SEEDS).
    #[test]
    #[ignore]
    fn explore() {
        let m = parse_matrix(include_str!("../../../test-vectors/slp/aes_mixcolumns.txt")).unwrap();
        let env = |k: &str, d: f64| std::env::var(k).map_or(d, |v| v.parse().unwrap());
        let d = env("TREES_D", 3.0) as usize;
        let base = TreeOptions::new(d);
        let o = TreeOptions {
            moves: env("TREES_MOVES", base.moves as f64) as u64,
            t0: env("TREES_T0", base.t0),
            t1: env("TREES_T1", base.t1),
            ils: env("TREES_ILS", base.ils as f64) as u64,
            target: env("TREES_TARGET", 0.0) as usize,
            output_parts: env("TREES_OUTPUT_PARTS", f64::from(u8::from(base.output_parts))) != 0.0,
            depth: d,
        };
        let seeds = env("TREES_SEEDS", 10.0) as u64;
        let first = env("TREES_SEED0", 0.0) as u64;
        let mut hist = std::collections::BTreeMap::new();
        for s in first..first + seeds {
            let t = std::time::Instant::now();
            let p = anneal(&m, &o, s).unwrap();
            println!("seed {s}: {} in {:.2} s", p.xor_count(), t.elapsed().as_secs_f64());
            *hist.entry(p.xor_count()).or_insert(0) += 1;
        }
        println!("depth {d} {o:?}: {hist:?}");
    }
}
