//! The value-set plateau walk (issue 33).
//!
//! A program is read as the SET of the values it computes (each an XOR of inputs): a set is a
//! program when, from the inputs, every value in it is the XOR of two values available before
//! it, and it holds every output. Its XOR count is its size; its depth is the least depth of
//! any schedule of the set (each value at its least build depth, [`Walk::relax`]).
//!
//! One move removes a random non-output value `r`. If the rest still builds every value, the
//! program lost a gate. Otherwise the values left stuck (`S`) need one repair value `w` that is
//! buildable now (`w = a ^ b`, `a`, `b` available) and unlocks a stuck value (`w = u ^ a`, `u` in
//! `S`, `a` available); that finite candidate set holds every single-value repair, and the walk
//! tries it in random order until one rebuilds all stuck values (and, under a depth bound, keeps
//! every output within it). The new set has the same size (a plateau move), or fewer values
//! when the repair leaves some value unused. Moves never go uphill, so the walk's current
//! program is always one of the shortest it has seen. The idea is the plateau search of
//! Jean-style value sets described by J. (Joe-b-20/slp-plateau-search, METHODS.md §4); this
//! is an independent implementation over `u128` values with open-addressing tables.

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::matrix::{BitMatrix, Row};
use crate::program::{Program, outputs_from_values};

/// An open-addressing set of non-zero values with a `u32` payload, cleared in time
/// proportional to its size.
struct VMap {
    keys: Vec<Row>,
    vals: Vec<u32>,
    shift: u32,
    used: Vec<usize>,
}

impl VMap {
    fn new(min_cap: usize) -> Self {
        let cap = (min_cap * 4).next_power_of_two().max(64);
        VMap { keys: vec![0; cap], vals: vec![0; cap], shift: 64 - cap.trailing_zeros(), used: Vec::new() }
    }

    #[inline]
    fn slot(&self, v: Row) -> usize {
        let x = (v as u64) ^ ((v >> 64) as u64).rotate_left(29);
        (x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    #[inline]
    fn get(&self, v: Row) -> Option<u32> {
        let m = self.keys.len() - 1;
        let mut i = self.slot(v);
        loop {
            let k = self.keys[i];
            if k == v {
                return Some(self.vals[i]);
            }
            if k == 0 {
                return None;
            }
            i = (i + 1) & m;
        }
    }

    #[inline]
    fn contains(&self, v: Row) -> bool {
        self.get(v).is_some()
    }

    /// Inserts or overwrites; `false` if `v` was there.
    #[inline]
    fn insert(&mut self, v: Row, val: u32) -> bool {
        debug_assert!(v != 0);
        let m = self.keys.len() - 1;
        let mut i = self.slot(v);
        loop {
            let k = self.keys[i];
            if k == v {
                self.vals[i] = val;
                return false;
            }
            if k == 0 {
                self.keys[i] = v;
                self.vals[i] = val;
                self.used.push(i);
                return true;
            }
            i = (i + 1) & m;
        }
    }

    fn clear(&mut self) {
        for &i in &self.used {
            self.keys[i] = 0;
        }
        self.used.clear();
    }
}

/// Options of [`walk`].
#[derive(Debug, Clone, PartialEq)]
pub struct WalkOptions {
    /// Moves to try (`None`: until the deadline).
    pub iters: Option<u64>,
    /// Depth bound on the outputs.
    pub max_depth: Option<usize>,
    /// Stop as soon as a program of at most this many XORs is found.
    pub target: Option<usize>,
    /// Return where the walk ends rather than the best program seen. The count never rises,
    /// so the end is as short as the best; it is another point of the plateau (a polish
    /// chain continues from it, [`crate::portfolio::WalkPolisher`]). Ignored when the end is
    /// longer than `start` (it cannot be) or deeper than the bound.
    pub end: bool,
    /// Values a move may remove: each move removes k of them, k uniform in 1..=`remove`, and
    /// repairs with at most k new ones (1: the single-value move; larger values reach further
    /// across the plateau at a lower acceptance rate).
    pub remove: usize,
    /// Multi-value moves remove a connected cone of the program's DAG (a value, then random
    /// parents and values built from the cone) instead of unrelated values.
    pub cone: bool,
    /// Probability that a multi-value move may repair with one value more than it removed (the
    /// program grows by one; the walk goes back to its best program when it is 2 above it).
    /// 0: the walk never goes uphill.
    pub uphill: f64,
}

impl Default for WalkOptions {
    fn default() -> WalkOptions {
        WalkOptions { iters: None, max_depth: None, target: None, end: false, remove: 1, cone: false, uphill: 0.0 }
    }
}

/// What a walk did.
#[derive(Debug, Clone, Default)]
pub struct WalkStats {
    /// Moves tried.
    pub iters: u64,
    /// Moves that changed the set.
    pub accepted: u64,
    /// Moves that shortened the program.
    pub improvements: u64,
    /// The move that found the returned program (0: the start): a walk of that many moves
    /// with the same seed returns the same program.
    pub best_at: u64,
}

struct Walk {
    n: usize,
    /// Every distinct output of weight ≥ 2.
    targets: Vec<Row>,
    is_target: VMap,
    /// The values (inputs excluded), outputs included.
    set: Vec<Row>,
    max_depth: Option<usize>,
    rng: ChaCha8Rng,
    // Scratch.
    avail: VMap,
    avail_list: Vec<Row>,
    stuck: Vec<Row>,
    pairs: VMap,
    cands: VMap,
    cand_list: Vec<Row>,
    trial: Vec<Row>,
    pend: Vec<Row>,
    depth: VMap,
    parent: Vec<(Row, Row)>,
    /// `parent` of the current set (kept when a trial set overwrites `parent`), for cones.
    cur_parent: Vec<(Row, Row)>,
}

impl Walk {
    fn new(m: &BitMatrix, p: &Program, max_depth: Option<usize>, seed: u64) -> Walk {
        let n = m.cols();
        let mut targets: Vec<Row> = m.row_bits().iter().copied().filter(|r| r.count_ones() >= 2).collect();
        targets.sort_unstable();
        targets.dedup();
        let cap = n + p.ops.len() + targets.len() + 8;
        let mut is_target = VMap::new(targets.len() + 1);
        for &t in &targets {
            is_target.insert(t, 1);
        }
        let mut set: Vec<Row> = p.values()[n..].iter().copied().filter(|v| v.count_ones() >= 2).collect();
        set.sort_unstable();
        set.dedup();
        Walk {
            n,
            targets,
            is_target,
            set,
            max_depth,
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x706c_6174_6561_7500),
            avail: VMap::new(cap),
            avail_list: Vec::new(),
            stuck: Vec::new(),
            pairs: VMap::new(cap * cap / 2),
            // Candidates are pair sums: never more than `pairs` holds.
            cands: VMap::new(cap * cap / 2),
            cand_list: Vec::new(),
            trial: Vec::new(),
            pend: Vec::new(),
            depth: VMap::new(cap),
            parent: Vec::new(),
            cur_parent: Vec::new(),
        }
    }

    /// The closure of the inputs under the set without `skip`: `avail`, `avail_list`, and the
    /// values it does not reach in `stuck`.
    fn closure(&mut self, skip: Row) {
        self.closure_without(&[skip]);
    }

    /// [`Walk::closure`] without every value of `skip`.
    fn closure_without(&mut self, skip: &[Row]) {
        self.avail.clear();
        self.avail_list.clear();
        for i in 0..self.n {
            self.avail.insert(1 << i, 0);
            self.avail_list.push(1 << i);
        }
        self.stuck.clear();
        self.stuck.extend(self.set.iter().copied().filter(|v| !skip.contains(v)));
        self.propagate(0);
    }

    /// Moves the stuck values that the available values from `avail_list[from..]` on (with the
    /// earlier ones) build into `avail`. A stuck `p` built by `x ^ y` with both available is
    /// found when the later of the two is scanned: `p ^ later` is the earlier.
    fn propagate(&mut self, from: usize) {
        let mut q = from;
        while q < self.avail_list.len() && !self.stuck.is_empty() {
            let x = self.avail_list[q];
            q += 1;
            let mut j = 0;
            while j < self.stuck.len() {
                let p = self.stuck[j];
                if self.avail.contains(p ^ x) {
                    self.avail.insert(p, 0);
                    self.avail_list.push(p);
                    self.stuck.swap_remove(j);
                } else {
                    j += 1;
                }
            }
        }
    }

    /// Whether adding `w` to `avail` rebuilds every stuck value.
    fn repairs(&mut self, w: Row) -> bool {
        self.trial.clear();
        self.trial.push(w);
        self.pend.clear();
        self.pend.extend_from_slice(&self.stuck);
        let mut q = 0;
        while q < self.trial.len() && !self.pend.is_empty() {
            let x = self.trial[q];
            q += 1;
            let mut j = 0;
            while j < self.pend.len() {
                let p = self.pend[j];
                let y = p ^ x;
                if self.avail.contains(y) || self.trial.contains(&y) {
                    self.trial.push(p);
                    self.pend.swap_remove(j);
                } else {
                    j += 1;
                }
            }
        }
        self.pend.is_empty()
    }

    /// Least build depth of every value of `set` (in `depth`) with one parent pair each (in
    /// `parent`, in level order); `None` if some value cannot be built.
    fn relax(&mut self, set: &[Row]) -> Option<usize> {
        self.depth.clear();
        self.parent.clear();
        let mut level: Vec<Row> = (0..self.n).map(|i| 1 << i).collect();
        for &v in &level {
            self.depth.insert(v, 0);
        }
        let mut rest: Vec<Row> = set.to_vec();
        let mut d = 0u32;
        let mut max = 0;
        while !rest.is_empty() {
            d += 1;
            let mut next = Vec::new();
            let mut j = 0;
            while j < rest.len() {
                let p = rest[j];
                let mut found = None;
                for &a in &level {
                    if let Some(da) = self.depth.get(p ^ a)
                        && da < d
                    {
                        found = Some(a);
                        break;
                    }
                }
                if let Some(a) = found {
                    self.parent.push((a, p ^ a));
                    next.push(p);
                    rest.swap_remove(j);
                } else {
                    j += 1;
                }
            }
            if next.is_empty() {
                return None;
            }
            for &v in &next {
                self.depth.insert(v, d);
            }
            max = d as usize;
            level = next;
        }
        Some(max)
    }

    /// Relaxes `set`, checks the depth bound, drops the values no output needs (following the
    /// least-depth parents) and returns the set and its depth.
    fn settle(&mut self, set: Vec<Row>) -> Option<(Vec<Row>, usize)> {
        self.relax(&set)?;
        let dt = self.targets.iter().map(|&t| self.depth.get(t).unwrap_or(0) as usize).max().unwrap_or(0);
        if self.max_depth.is_some_and(|b| dt > b) {
            return None;
        }
        // Parents are in level order: a backwards sweep marks the cone of the outputs.
        let mut need = VMap::new(set.len() + 1);
        for &t in &self.targets {
            need.insert(t, 1);
        }
        // `parent[i]` belongs to the i-th value relax placed; rebuild that order.
        let order: Vec<Row> = self.parent.iter().map(|&(a, b)| a ^ b).collect();
        for (i, &v) in order.iter().enumerate().rev() {
            if need.contains(v) {
                let (a, b) = self.parent[i];
                if a.count_ones() >= 2 {
                    need.insert(a, 1);
                }
                if b.count_ones() >= 2 {
                    need.insert(b, 1);
                }
            }
        }
        let kept: Vec<Row> = set.iter().copied().filter(|&v| need.contains(v)).collect();
        if kept.len() < set.len() {
            // The kept values are built by the same parents, at the same depths.
            self.relax(&kept)?;
        }
        Some((kept, dt))
    }

    /// The program of `set` (relaxed): values in level order, outputs attached.
    fn program(&mut self, m: &BitMatrix, set: &[Row]) -> Program {
        self.relax(set).expect("a settled set builds");
        let mut p = Program::new(self.n, m.rows());
        let mut idx = VMap::new(self.n + set.len() + 1);
        for i in 0..self.n {
            idx.insert(1 << i, i as u32);
        }
        let mut values: Vec<Row> = (0..self.n).map(|i| 1u128 << i).collect();
        for &(a, b) in &self.parent.clone() {
            let s = p.push(idx.get(a).unwrap() as usize, idx.get(b).unwrap() as usize);
            idx.insert(a ^ b, s as u32);
            values.push(a ^ b);
        }
        outputs_from_values(&mut p, &values, m.row_bits());
        p
    }

    /// The repair candidates: pair sums of available values that build a stuck value with an
    /// available one (`w = u ^ a`), not available, not in `not`; into `cand_list`.
    fn candidates(&mut self, not: &[Row]) {
        self.pairs.clear();
        for i in 0..self.avail_list.len() {
            let a = self.avail_list[i];
            for &b in &self.avail_list[i + 1..] {
                self.pairs.insert(a ^ b, 0);
            }
        }
        self.cands.clear();
        self.cand_list.clear();
        for &u in &self.stuck {
            for &a in &self.avail_list {
                let w = u ^ a;
                if !not.contains(&w) && !self.avail.contains(w) && self.pairs.contains(w) && self.cands.insert(w, 0) {
                    self.cand_list.push(w);
                }
            }
        }
    }

    /// A move that removes `k` ≥ 2 non-output values and repairs with at most `k + extra` new
    /// ones: the repairs but the last are random candidates (each builds at least one stuck
    /// value), the last must rebuild everything left (tried in random order, as in
    /// [`Walk::step`]). With `extra` = 1 the set may grow by one (an uphill move).
    fn step_multi(&mut self, k: usize, cone: bool, extra: usize) -> Option<usize> {
        let free: Vec<usize> = (0..self.set.len()).filter(|&i| !self.is_target.contains(self.set[i])).collect();
        if free.len() < k {
            return None;
        }
        let mut rm: Vec<Row> = Vec::with_capacity(k);
        if cone {
            let r = self.set[free[self.rng.random_range(0..free.len())]];
            self.cone(r, k, &mut rm);
        }
        while rm.len() < k {
            let r = self.set[free[self.rng.random_range(0..free.len())]];
            if !rm.contains(&r) {
                rm.push(r);
            }
        }
        self.closure_without(&rm);
        let mut added: Vec<Row> = Vec::with_capacity(k);
        while !self.stuck.is_empty() {
            if added.len() == k + extra {
                return None;
            }
            self.candidates(&rm);
            if self.cand_list.is_empty() {
                return None;
            }
            if added.len() + 1 < k + extra {
                let w = self.cand_list[self.rng.random_range(0..self.cand_list.len())];
                let from = self.avail_list.len();
                self.avail.insert(w, 0);
                self.avail_list.push(w);
                self.propagate(from);
                added.push(w);
                continue;
            }
            let mut left = self.cand_list.len();
            let mut found = None;
            while left > 0 {
                let j = self.rng.random_range(0..left);
                let w = self.cand_list[j];
                self.cand_list.swap(j, left - 1);
                left -= 1;
                if self.repairs(w) {
                    found = Some(w);
                    break;
                }
            }
            added.push(found?);
            break;
        }
        let mut set: Vec<Row> = self.set.iter().copied().filter(|v| !rm.contains(v)).collect();
        for w in added {
            if !set.contains(&w) {
                set.push(w);
            }
        }
        let (set, _) = self.settle(set)?;
        self.set = set;
        self.cur_parent.clone_from(&self.parent);
        Some(self.set.len())
    }

    /// A connected cone of `k` non-output values around `r` in the current program's DAG (the
    /// least-depth parents of `cur_parent`): grown from `r` by random neighbours (a parent of a
    /// value in the cone, or a value built from one) into `rm`, fewer if none is left.
    fn cone(&mut self, r: Row, k: usize, rm: &mut Vec<Row>) {
        rm.push(r);
        let mut nb: Vec<Row> = Vec::new();
        while rm.len() < k {
            nb.clear();
            for &(a, b) in &self.cur_parent {
                let v = a ^ b;
                let inside = rm.contains(&v);
                for x in [a, b] {
                    let cand = if inside {
                        x
                    } else if rm.contains(&x) {
                        v
                    } else {
                        continue;
                    };
                    if cand.count_ones() >= 2 && !self.is_target.contains(cand) && !rm.contains(&cand) && !nb.contains(&cand) {
                        nb.push(cand);
                    }
                }
            }
            if nb.is_empty() {
                return;
            }
            rm.push(nb[self.rng.random_range(0..nb.len())]);
        }
    }

    /// One move; `Some(new size)` if the set changed.
    fn step(&mut self) -> Option<usize> {
        let free: Vec<usize> = (0..self.set.len()).filter(|&i| !self.is_target.contains(self.set[i])).collect();
        if free.is_empty() {
            return None;
        }
        let r = self.set[free[self.rng.random_range(0..free.len())]];
        self.closure(r);
        if self.stuck.is_empty() {
            let set: Vec<Row> = self.set.iter().copied().filter(|&v| v != r).collect();
            let (set, _) = self.settle(set)?;
            self.set = set;
            self.cur_parent.clone_from(&self.parent);
            return Some(self.set.len());
        }
        self.candidates(&[r]);
        let mut left = self.cand_list.len();
        while left > 0 {
            let k = self.rng.random_range(0..left);
            let w = self.cand_list[k];
            self.cand_list.swap(k, left - 1);
            left -= 1;
            if !self.repairs(w) {
                continue;
            }
            let mut set: Vec<Row> = self.set.iter().copied().filter(|&v| v != r).collect();
            set.push(w);
            if let Some((set, _)) = self.settle(set) {
                self.set = set;
                self.cur_parent.clone_from(&self.parent);
                return Some(self.set.len());
            }
        }
        None
    }
}

/// Walks on the plateau of `start` (a program for `m`) and returns the shortest program seen
/// (ties: the shallowest), verified, with the walk's statistics. `deadline` stops it early.
/// A `start` deeper than `max_depth` is first re-scheduled at its least depth; if that is
/// still too deep the walk descends to the bound ([`descend`]) and returns the shortest
/// program within it that it found, or `start` unchanged if it found none.
pub fn walk(
    m: &BitMatrix,
    start: &Program,
    o: &WalkOptions,
    seed: u64,
    deadline: Option<Instant>,
    on_improve: &mut dyn FnMut(&Program),
) -> (Program, WalkStats) {
    let mut w = Walk::new(m, start, None, seed);
    let mut stats = WalkStats::default();
    let set = std::mem::take(&mut w.set);
    let Some((set, d0)) = w.settle(set) else {
        return (start.clone(), stats);
    };
    w.set = set;
    w.cur_parent.clone_from(&w.parent);
    if let Some(bound) = o.max_depth.filter(|&b| d0 > b) {
        return descend(m, start, o, w, bound, deadline, on_improve);
    }
    w.max_depth = o.max_depth;
    let mut best = (w.set.len(), d0);
    let mut best_set = w.set.clone();
    if (best.0, best.1) < (start.xor_count(), start.depth()) {
        on_improve(&w.program(m, &best_set));
    }
    loop {
        if o.iters.is_some_and(|n| stats.iters >= n) || o.target.is_some_and(|t| best.0 <= t) {
            break;
        }
        if stats.iters % 64 == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        stats.iters += 1;
        let k = if o.remove <= 1 { 1 } else { w.rng.random_range(1..=o.remove) };
        let extra = usize::from(k > 1 && o.uphill > 0.0 && w.rng.random::<f64>() < o.uphill);
        let Some(len) = (if k == 1 { w.step() } else { w.step_multi(k, o.cone, extra) }) else { continue };
        if len > best.0 + 1 {
            // Two above the best: back to it.
            w.set.clone_from(&best_set);
            w.relax(&best_set);
            w.cur_parent.clone_from(&w.parent);
            continue;
        }
        stats.accepted += 1;
        if len <= best.0 {
            let d = w.relax(&w.set.clone()).unwrap_or(usize::MAX);
            let d = w.targets.iter().map(|&t| w.depth.get(t).unwrap_or(0) as usize).max().unwrap_or(d);
            if (len, d) < best {
                if len < best.0 {
                    stats.improvements += 1;
                }
                best = (len, d);
                best_set = w.set.clone();
                stats.best_at = stats.iters;
                on_improve(&w.program(m, &best_set));
            }
        }
    }
    if o.end && w.set.len() <= start.xor_count() {
        let end = w.set.clone();
        let mut p = w.program(m, &end);
        if p.verify(m).is_ok() && p.xor_count() <= start.xor_count() && o.max_depth.is_none_or(|d| p.depth() <= d) {
            p.meta = start.meta.clone();
            return (p, stats);
        }
    }
    let mut p = w.program(m, &best_set);
    if p.verify(m).is_err() || (p.xor_count(), p.depth()) >= (start.xor_count(), start.depth()) {
        return (start.clone(), stats);
    }
    p.meta = start.meta.clone();
    (p, stats)
}

/// How far the outputs' depths are above `bound`: the sum over the outputs of the levels above
/// it (of the last relaxed set).
fn excess(w: &Walk, bound: usize) -> usize {
    w.targets.iter().map(|&t| (w.depth.get(t).unwrap_or(0) as usize).saturating_sub(bound)).sum()
}

/// The walk of a start deeper than `bound` (a soft bound): moves are those of [`walk`] with no
/// depth bound, and one is kept only when the cost *size + excess* ([`excess`]: output levels
/// above the bound) does not rise, so a move may trade one more value for one level less. The
/// walk goes back to the cheapest set seen when it stands two above it. Every set within the
/// bound (excess 0) is a candidate result: the shortest (ties: the shallowest) is returned,
/// or `start` if the walk never reached the bound.
fn descend(
    m: &BitMatrix,
    start: &Program,
    o: &WalkOptions,
    mut w: Walk,
    bound: usize,
    deadline: Option<Instant>,
    on_improve: &mut dyn FnMut(&Program),
) -> (Program, WalkStats) {
    let mut stats = WalkStats::default();
    let mut cost = w.set.len() + excess(&w, bound);
    let mut cheapest = (cost, w.set.clone());
    let mut best: Option<((usize, usize), Vec<Row>)> = None;
    let (mut prev, mut prev_parent) = (Vec::new(), Vec::new());
    loop {
        if o.iters.is_some_and(|n| stats.iters >= n) || o.target.is_some_and(|t| best.as_ref().is_some_and(|b| b.0.0 <= t)) {
            break;
        }
        if stats.iters % 64 == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        stats.iters += 1;
        prev.clone_from(&w.set);
        prev_parent.clone_from(&w.cur_parent);
        let k = if o.remove <= 1 { 1 } else { w.rng.random_range(1..=o.remove) };
        let extra = usize::from(k > 1 && o.uphill > 0.0 && w.rng.random::<f64>() < o.uphill);
        let Some(len) = (if k == 1 { w.step() } else { w.step_multi(k, o.cone, extra) }) else { continue };
        // `settle` left the depths of the new set in `w.depth`.
        let e = excess(&w, bound);
        let c = len + e;
        if c > cost + extra {
            // Dearer than the move allows: undo it.
            std::mem::swap(&mut w.set, &mut prev);
            std::mem::swap(&mut w.cur_parent, &mut prev_parent);
            continue;
        }
        if c > cheapest.0 + 1 {
            w.set.clone_from(&cheapest.1);
            w.relax(&cheapest.1);
            w.cur_parent.clone_from(&w.parent);
            cost = cheapest.0;
            continue;
        }
        stats.accepted += 1;
        cost = c;
        if c < cheapest.0 {
            cheapest = (c, w.set.clone());
        }
        if e == 0 {
            let d = w.targets.iter().map(|&t| w.depth.get(t).unwrap_or(0) as usize).max().unwrap_or(0);
            if best.as_ref().is_none_or(|b| (len, d) < b.0) {
                if len < start.xor_count() && best.as_ref().is_none_or(|b| len < b.0.0) {
                    stats.improvements += 1;
                }
                best = Some(((len, d), w.set.clone()));
                stats.best_at = stats.iters;
                on_improve(&w.program(m, &w.set.clone()));
            }
        }
    }
    let Some((_, set)) = best else {
        return (start.clone(), stats);
    };
    let mut p = w.program(m, &set);
    if p.verify(m).is_err() || p.depth() > bound {
        return (start.clone(), stats);
    }
    p.meta = start.meta.clone();
    (p, stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_matrix;
    use crate::program::Out;

    fn mat(text: &str) -> BitMatrix {
        parse_matrix(text).unwrap()
    }

    #[test]
    fn vmap_basics() {
        let mut s = VMap::new(256);
        assert!(s.insert(5, 1));
        assert!(!s.insert(5, 2));
        assert_eq!(s.get(5), Some(2));
        assert!(!s.contains(6));
        for v in 1..200u128 {
            s.insert(v << 70 | v, v as u32);
        }
        assert_eq!(s.get(7 << 70 | 7), Some(7));
        s.clear();
        assert!(!s.contains(5));
    }

    /// From the naive program of random8_s1 (optimum 12) the walk reaches 12.
    #[test]
    fn random8_reaches_the_optimum() {
        let m = mat(include_str!("../../../test-vectors/slp/random8_s1.txt"));
        let start = Program::naive(&m);
        let mut reached = Vec::new();
        for seed in 0..4 {
            let o = WalkOptions { iters: Some(20_000), max_depth: None, target: Some(12), end: false, remove: 1, cone: false, uphill: 0.0 };
            let (p, _) = walk(&m, &start, &o, seed, None, &mut |_| {});
            p.verify(&m).unwrap();
            reached.push(p.xor_count());
        }
        assert!(reached.contains(&12), "{reached:?}");
        assert!(reached.iter().all(|&c| c >= 12), "{reached:?}");
    }

    /// Moves that remove up to three values reach the optimum too, accept moves (some of them
    /// multi-value ones: the walk leaves the start) and never lengthen the program; under a
    /// depth bound they keep it.
    #[test]
    fn multi_value_moves_reach_the_optimum_and_keep_the_bound() {
        let m = mat(include_str!("../../../test-vectors/slp/random8_s1.txt"));
        let start = Program::naive(&m);
        let mut reached = Vec::new();
        for seed in 0..4 {
            let o = WalkOptions { iters: Some(20_000), target: Some(12), remove: 3, ..WalkOptions::default() };
            let (p, st) = walk(&m, &start, &o, seed, None, &mut |_| {});
            p.verify(&m).unwrap();
            assert!(st.accepted > 0);
            reached.push(p.xor_count());
        }
        assert!(reached.contains(&12), "{reached:?}");
        assert!(reached.iter().all(|&c| c >= 12), "{reached:?}");
        // Cones and uphill moves: the optimum too, and never more than two above the best.
        let start = Program::naive(&m);
        let o = WalkOptions { iters: Some(20_000), target: Some(12), remove: 3, cone: true, uphill: 0.3, ..WalkOptions::default() };
        let mut best = start.xor_count();
        let (p, st) = walk(&m, &start, &o, 1, None, &mut |q| {
            assert!(q.xor_count() <= best);
            best = q.xor_count();
        });
        p.verify(&m).unwrap();
        assert!(p.xor_count() == 12 && st.accepted > 0, "{}", p.xor_count());
        let start = balanced(&m);
        let o = WalkOptions { iters: Some(5_000), max_depth: Some(3), remove: 3, ..WalkOptions::default() };
        let (p, st) = walk(&m, &start, &o, 2, None, &mut |q| assert!(q.depth() <= 3 && q.xor_count() <= start.xor_count()));
        p.verify(&m).unwrap();
        assert!(p.depth() <= 3 && st.accepted > 0);
    }

    /// Two-value moves by themselves (uniform and cone removals alternately) from the balanced
    /// trees of random8_s1: every set a move leaves builds every output and is never longer.
    #[test]
    fn step_multi_keeps_every_output() {
        let m = mat(include_str!("../../../test-vectors/slp/random8_s1.txt"));
        let start = balanced(&m);
        let mut w = Walk::new(&m, &start, None, 5);
        let set = std::mem::take(&mut w.set);
        w.set = w.settle(set).unwrap().0;
        w.cur_parent.clone_from(&w.parent);
        let mut moved = 0;
        for _ in 0..2_000 {
            let before = w.set.len();
            if let Some(len) = w.step_multi(2, moved % 2 == 1, 0) {
                moved += 1;
                assert!(len <= before);
                let set = w.set.clone();
                let p = w.program(&m, &set);
                p.verify(&m).unwrap();
            }
        }
        assert!(moved > 0);
    }

    /// Each row as a balanced tree of its inputs.
    fn balanced(m: &BitMatrix) -> Program {
        let mut p = Program::new(m.cols(), m.rows());
        for (j, r) in m.row_bits().iter().enumerate() {
            let mut layer: Vec<usize> = (0..m.cols()).filter(|c| r >> c & 1 == 1).collect();
            while layer.len() > 1 {
                layer = layer.chunks(2).map(|c| if c.len() == 2 { p.push(c[0], c[1]) } else { c[0] }).collect();
            }
            p.outputs[j] = layer.first().map_or(Out::Zero, |&s| Out::Sig(s));
        }
        p
    }

    /// The row x0 + x1 + x2 + x3 and the chain ((x0 + x1) + x2) + x3 (3 XORs, depth 3).
    fn chain4() -> (BitMatrix, Program) {
        let m = mat("1111\n");
        let mut start = Program::new(4, 1);
        let a = start.push(0, 1);
        let b = start.push(a, 2);
        let c = start.push(b, 3);
        start.outputs[0] = Out::Sig(c);
        (m, start)
    }

    /// Under a depth bound too, an equally short program of lower depth counts as better: the
    /// chain ((x0 + x1) + x2) + x3 (3 XORs, depth 3) walks to a 3-XOR program of depth 2.
    #[test]
    fn ties_go_to_the_shallower_under_a_bound() {
        let (m, start) = chain4();
        start.verify(&m).unwrap();
        assert_eq!((start.xor_count(), start.depth()), (3, 3));
        let o = WalkOptions { iters: Some(200), max_depth: Some(3), target: None, end: false, remove: 1, cone: false, uphill: 0.0 };
        let (p, _) = walk(&m, &start, &o, 1, None, &mut |q| assert!(q.depth() <= 3));
        p.verify(&m).unwrap();
        assert_eq!((p.xor_count(), p.depth()), (3, 2));
    }

    /// A start deeper than the bound descends to it: the chain ((x0 + x1) + x2) + x3 (depth 3)
    /// under the bound 2 gives (x0 + x1) + (x2 + x3); under the bound 1 there is none, and the
    /// start comes back unchanged.
    #[test]
    fn a_deep_start_descends_to_the_bound() {
        let (m, start) = chain4();
        let o = WalkOptions { iters: Some(200), max_depth: Some(2), ..WalkOptions::default() };
        let mut seen = 0;
        let (p, st) = walk(&m, &start, &o, 1, None, &mut |q| {
            assert!(q.depth() <= 2);
            seen += 1;
        });
        p.verify(&m).unwrap();
        assert_eq!((p.xor_count(), p.depth(), seen), (3, 2, 1));
        assert!(st.best_at > 0);
        let o = WalkOptions { max_depth: Some(1), ..o };
        let (p, _) = walk(&m, &start, &o, 1, None, &mut |_| panic!("no program of depth 1 exists"));
        assert_eq!(p.ops, start.ops);
    }

    /// From a random matrix's chain-built rows (deep), the descent reaches depth 3 with every
    /// output, and nothing it reports is deeper.
    #[test]
    fn descent_reaches_the_bound_on_random8() {
        let m = mat(include_str!("../../../test-vectors/slp/random8_s1.txt"));
        let mut start = Program::new(m.cols(), m.rows());
        for (j, r) in m.row_bits().iter().enumerate() {
            let cols: Vec<usize> = (0..m.cols()).filter(|c| r >> c & 1 == 1).collect();
            let mut s = cols[0];
            for &c in &cols[1..] {
                s = start.push(s, c);
            }
            start.outputs[j] = Out::Sig(s);
        }
        start.verify(&m).unwrap();
        assert!(start.depth() > 3);
        let o = WalkOptions { iters: Some(20_000), max_depth: Some(3), remove: 3, uphill: 0.3, ..WalkOptions::default() };
        let (p, _) = walk(&m, &start, &o, 3, None, &mut |q| assert!(q.depth() <= 3));
        p.verify(&m).unwrap();
        assert!(p.depth() <= 3);
    }

    /// Under a depth bound every program the walk reports keeps it.
    #[test]
    fn depth_bound_is_kept() {
        let m = mat(include_str!("../../../test-vectors/slp/random8_s1.txt"));
        let start = balanced(&m);
        assert!(start.depth() <= 3);
        let o = WalkOptions { iters: Some(5_000), max_depth: Some(3), target: None, end: false, remove: 1, cone: false, uphill: 0.0 };
        let (p, _) = walk(&m, &start, &o, 1, None, &mut |q| assert!(q.depth() <= 3));
        p.verify(&m).unwrap();
        assert!(p.depth() <= 3);
    }
}
