//! Exact search by enumerating *helper sets*: the fastest exact method for matrices with few
//! inputs (up to [`MAX_INPUTS`]), and the one `slicewise slp exact` uses by default there.
//!
//! # The idea
//! A program is determined, up to the order of its lines and the choice of operands, by the
//! set of values it computes. Split that set into the targets T (the distinct rows of weight
//! ≥ 2, each of which needs a line of its own) and the *helpers* H (every other line). Once H
//! is chosen nothing else is free: a target whose value is the sum of two values already
//! available is simply added, and adding it early never hurts. So a program with k XORs
//! exists iff some set of at most k − |T| helpers, added one at a time, each the sum of two
//! values available at that moment, makes every target reachable in that way. The search is
//! a depth-first enumeration of such helper sequences, with the state C (the inputs, the
//! helpers so far and every target they make reachable) kept closed under "add a reachable
//! target".
//!
//! Four rules cut the enumeration; each keeps at least one helper sequence of every program
//! (rules 1 and 2 below; rule 3 in `orbit_minima`; rule 4 is a plain necessary condition):
//! 1. **Greedy order.** Helpers are added in the order "the smallest (as an integer) helper
//!    that is reachable now": a helper h may follow h_0 … h_{i−1} only if h > h_j for every
//!    j at which h was already reachable. (Each set is then enumerated in one order only.)
//! 2. **The last helper serves a target.** When one helper is left in the budget, it must
//!    make some missing target t reachable, so it lies in t + C.
//! 3. **Symmetry.** Input permutations that map the target set onto itself map programs to
//!    programs; only the helper sequences whose first helper is smallest in their orbit are
//!    enumerated.
//! 4. **Targets that need the last helper.** With one helper h left, a missing target t with
//!    t + u in neither C nor the missing targets for every other missing target u can only be
//!    reached as h + c with c in C or missing, so h ∈ t + (C ∪ missing) for every such t.
//!
//! # Why an exhausted budget is a lower bound
//! Take any program with k XORs that computes the matrix. Drop its dead lines and lines that
//! repeat a value; its non-input values are V ⊇ T, and H = V \ T has at most k − |T|
//! elements. Run the greedy process: start from the inputs, closed under reachable targets;
//! while H ⊄ C, add the smallest element of H \ C that is the sum of two elements of C, and
//! close again. Such an element always exists: the first line of the program (in its own
//! order) whose value is not in C has both operands in C, and it is not a target, because C
//! is closed, so it is a helper. When H ⊆ C, every target follows in program order, so the
//! closure holds all of T. The sequence obeys rule 1 by construction, and its last helper
//! obeys rule 2 (the first target added after it is h + c for some c in C). The enumeration
//! tries every candidate the rules admit, so it reaches this sequence (or succeeds
//! earlier). Hence "no success within r helpers" proves that every program has at least
//! |T| + r + 1 XORs.
//!
//! The search is exhaustive but leaves no certificate beyond its own run: [`crate::sat`] is the
//! method whose refutations come with DRAT proofs that an independent checker verifies. The two
//! are compared on random matrices by this module's tests.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::matrix::{BitMatrix, Row};
use crate::paar::nontrivial_targets;
use crate::program::{Program, outputs_from_values};

/// The largest number of inputs the enumeration accepts (its sets are bit vectors of length
/// 2^n).
pub const MAX_INPUTS: usize = 20;

/// Set of values reachable as the sum of two elements of C, with the helper count at which each
/// became reachable, and everything needed to undo additions.
struct State {
    /// Values in C, in the order they were added (inputs first).
    list: Vec<u32>,
    in_c: Vec<u64>,
    /// Sums of two distinct elements of C (may include elements of C).
    reach: Vec<u64>,
    /// The values of `reach`, in the order they became reachable.
    reach_list: Vec<u32>,
    /// For a value in `reach`: the number of helpers in C when it became reachable.
    reach_time: Vec<u32>,
    /// Targets not in C.
    missing: Vec<u32>,
}

#[inline]
fn test(b: &[u64], v: u32) -> bool {
    b[(v >> 6) as usize] >> (v & 63) & 1 == 1
}

#[inline]
fn put(b: &mut [u64], v: u32) {
    b[(v >> 6) as usize] |= 1 << (v & 63);
}

#[inline]
fn clear(b: &mut [u64], v: u32) {
    b[(v >> 6) as usize] &= !(1 << (v & 63));
}

/// Where to roll a [`State`] back to.
struct Mark {
    list: usize,
    reach: usize,
    missing: Vec<u32>,
}

impl State {
    fn new(n: usize, targets: &[u32]) -> Self {
        let words = (1usize << n).div_ceil(64);
        let mut s = State {
            list: Vec::new(),
            in_c: vec![0; words],
            reach: vec![0; words],
            reach_list: Vec::new(),
            reach_time: vec![0; 1 << n],
            missing: targets.to_vec(),
        };
        for i in 0..n {
            s.add(1 << i, 0);
        }
        s.close(0);
        s
    }

    fn mark(&self) -> Mark {
        Mark { list: self.list.len(), reach: self.reach_list.len(), missing: self.missing.clone() }
    }

    fn undo(&mut self, m: Mark) {
        for &v in &self.reach_list[m.reach..] {
            clear(&mut self.reach, v);
        }
        self.reach_list.truncate(m.reach);
        for &v in &self.list[m.list..] {
            clear(&mut self.in_c, v);
        }
        self.list.truncate(m.list);
        self.missing = m.missing;
    }

    /// Adds `v` to C; `time` is the number of helpers in C afterwards.
    fn add(&mut self, v: u32, time: u32) {
        for i in 0..self.list.len() {
            let w = self.list[i] ^ v;
            if !test(&self.reach, w) {
                put(&mut self.reach, w);
                self.reach_list.push(w);
                self.reach_time[w as usize] = time;
            }
        }
        self.list.push(v);
        put(&mut self.in_c, v);
    }

    /// Adds every reachable target, repeatedly.
    fn close(&mut self, time: u32) {
        loop {
            let mut changed = false;
            let mut i = 0;
            while i < self.missing.len() {
                let t = self.missing[i];
                if test(&self.reach, t) {
                    self.missing.swap_remove(i);
                    self.add(t, time);
                    changed = true;
                } else {
                    i += 1;
                }
            }
            if !changed {
                break;
            }
        }
    }
}

/// Shared between the threads of one search.
struct Shared {
    deadline: Instant,
    /// Node budget (checked every 4096 nodes of a walker; deterministic on one thread).
    node_limit: u64,
    stop: AtomicBool,
    timed_out: AtomicBool,
    nodes: AtomicU64,
    found: Mutex<Option<Vec<u32>>>,
}

struct Walker<'a> {
    shared: &'a Shared,
    /// For a value reachable at the root: the smallest value of its orbit under the symmetry
    /// group (empty without symmetry).
    orbit_min: &'a [u32],
    st: State,
    /// Helpers chosen so far.
    helpers: Vec<u32>,
    nodes: u64,
    /// Scratch: candidate values of one node, per depth.
    scratch: Vec<Vec<u32>>,
    /// When set, the candidates of every node are tried in a random order.
    rng: Option<&'a mut ChaCha8Rng>,
}

impl Walker<'_> {
    /// Candidates at the current node with `r` helpers left (rules 1 and 2).
    fn candidates(&mut self, r: usize) -> Vec<u32> {
        let i = self.helpers.len();
        // suf[j] = max(h_j, …, h_{i-1}); suf[i] = none. On the stack for up to 31 helpers.
        let mut suf_stack = [0u32; 32];
        let mut suf_heap = Vec::new();
        let suf: &mut [u32] = if i < 32 {
            &mut suf_stack[..=i]
        } else {
            suf_heap.resize(i + 1, 0);
            &mut suf_heap
        };
        for j in (0..i).rev() {
            suf[j] = suf[j + 1].max(self.helpers[j]);
        }
        let suf = &*suf;
        let st = &self.st;
        let ok = |h: u32| -> bool {
            if h == 0 || test(&st.in_c, h) || !test(&st.reach, h) {
                return false;
            }
            let t = st.reach_time[h as usize] as usize;
            !(t < i && h < suf[t])
        };
        // Rule 3: symmetry (see `orbit_minima`).
        let sym = !self.orbit_min.is_empty();
        let h0 = self.helpers.first().copied();
        let orbit_ok = |h: u32| -> bool {
            match h0 {
                _ if !sym => true,
                None => self.orbit_min[h as usize] == h,
                Some(h0) => st.reach_time[h as usize] != 0 || self.orbit_min[h as usize] >= h0,
            }
        };
        let mut out = self.scratch.pop().unwrap_or_default();
        out.clear();
        if r == 1 {
            // Rule 2, and rule 4: a missing target t that no two other values of
            // C ∪ {missing targets} sum to needs the last helper h itself: h ∈ t + (C ∪ missing).
            let in_missing = |v: u32| st.missing.contains(&v);
            let hard: Vec<u32> = st
                .missing
                .iter()
                .copied()
                .filter(|&t| !st.missing.iter().any(|&u| u != t && (test(&st.in_c, t ^ u) || in_missing(t ^ u))))
                .collect();
            for &t in &st.missing {
                for &c in &st.list {
                    let h = t ^ c;
                    if ok(h) && orbit_ok(h) && hard.iter().all(|&u| test(&st.in_c, h ^ u) || in_missing(h ^ u)) {
                        out.push(h);
                    }
                }
            }
            out.sort_unstable();
            out.dedup();
        } else {
            out.extend(st.reach_list.iter().copied().filter(|&h| ok(h) && orbit_ok(h)));
        }
        out
    }

    /// Depth-first search with `r` helpers left. True when every target is in C.
    fn dfs(&mut self, r: usize) -> bool {
        self.nodes += 1;
        if self.nodes & 0xfff == 0 {
            if self.shared.stop.load(Ordering::Relaxed) {
                return false;
            }
            if self.nodes >= self.shared.node_limit || Instant::now() >= self.shared.deadline {
                self.shared.timed_out.store(true, Ordering::Relaxed);
                self.shared.stop.store(true, Ordering::Relaxed);
                return false;
            }
        }
        if self.st.missing.is_empty() {
            return true;
        }
        if r == 0 {
            return false;
        }
        let mut cands = self.candidates(r);
        if let Some(rng) = self.rng.as_deref_mut() {
            cands.shuffle(rng);
        }
        let mut ok = false;
        for &h in &cands {
            if self.step(h, r) {
                ok = true;
                break;
            }
            if self.shared.stop.load(Ordering::Relaxed) {
                break;
            }
        }
        self.scratch.push(cands);
        ok
    }

    /// Adds helper `h`, recurses, and rolls back unless the search succeeded.
    fn step(&mut self, h: u32, r: usize) -> bool {
        let mark = self.st.mark();
        let time = (self.helpers.len() + 1) as u32;
        self.st.add(h, time);
        self.st.close(time);
        self.helpers.push(h);
        if self.dfs(r - 1) {
            return true;
        }
        self.helpers.pop();
        self.st.undo(mark);
        false
    }
}

/// Outcome of one budget.
#[derive(Debug, Clone)]
pub enum Answer {
    /// A program with at most |T| + r XORs.
    Found(Program),
    /// No program with at most |T| + r XORs.
    Exhausted,
    /// The deadline came first.
    Timeout,
}

/// Looks for a program with at most `targets + helpers` XORs for `m` (at most
/// [`MAX_INPUTS`] columns), on `threads` threads (the first helpers are shared out). Returns
/// the answer and the number of search nodes.
pub fn search_helpers(m: &BitMatrix, helpers: usize, threads: usize, deadline: Instant) -> (Answer, u64) {
    let n = m.cols();
    assert!(n <= MAX_INPUTS, "helper-set enumeration is limited to {MAX_INPUTS} inputs");
    let targets: Vec<u32> = nontrivial_targets(m).iter().map(|&t| t as u32).collect();
    let (found, timed_out, nodes) = run(n, &targets, helpers, threads, deadline, u64::MAX, None);
    if let Some(list) = found {
        return (Answer::Found(program_from_values(m, &list)), nodes);
    }
    if timed_out { (Answer::Timeout, nodes) } else { (Answer::Exhausted, nodes) }
}

/// The search behind [`search_helpers`] and [`window_lines`]: the values of C when every target
/// is reached (inputs first), whether the deadline or node limit stopped it, and the node count.
fn run(
    n: usize,
    targets: &[u32],
    helpers: usize,
    threads: usize,
    deadline: Instant,
    node_limit: u64,
    mut rng: Option<&mut ChaCha8Rng>,
) -> (Option<Vec<u32>>, bool, u64) {
    let shared = Shared {
        node_limit,
        deadline,
        stop: AtomicBool::new(false),
        timed_out: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
        found: Mutex::new(None),
    };
    let root = State::new(n, targets);
    let orbit_min = cached_orbit_minima(n, targets, &root);
    let orbit_min = orbit_min.as_slice();
    let finish = |w: &Walker<'_>| {
        shared.nodes.fetch_add(w.nodes, Ordering::Relaxed);
    };
    if root.missing.is_empty() || helpers == 0 || threads <= 1 {
        let mut w = Walker { shared: &shared, orbit_min, st: root, helpers: Vec::new(), nodes: 0, scratch: Vec::new(), rng: rng.take() };
        if w.dfs(helpers) {
            *shared.found.lock().unwrap() = Some(w.st.list.clone());
        }
        finish(&w);
    } else {
        // The first helper's candidates are handed out one at a time.
        let mut w0 = Walker { shared: &shared, orbit_min, st: State::new(n, targets), helpers: Vec::new(), nodes: 0, scratch: Vec::new(), rng: None };
        let first = w0.candidates(helpers);
        let next = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| {
                    let mut w = Walker { shared: &shared, orbit_min, st: State::new(n, targets), helpers: Vec::new(), nodes: 0, scratch: Vec::new(), rng: None };
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= first.len() || shared.stop.load(Ordering::Relaxed) {
                            break;
                        }
                        w.nodes += 1;
                        if w.step(first[i], helpers) {
                            let mut f = shared.found.lock().unwrap();
                            if f.is_none() {
                                *f = Some(w.st.list.clone());
                            }
                            shared.stop.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                    finish(&w);
                });
            }
        });
    }
    let nodes = shared.nodes.load(Ordering::Relaxed);
    let found = shared.found.lock().unwrap().take();
    (found, shared.timed_out.load(Ordering::Relaxed), nodes)
}

/// Outcome of [`window_lines`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WindowAnswer {
    /// Lines `(a, b)` over signals `0..n` (inputs) and `n + i` (line i), every target on one.
    Found(Vec<(usize, usize)>),
    /// No program with at most that many XORs.
    None,
    /// The node budget ran out.
    Budget,
}

/// A program for the distinct `targets` (weight ≥ 2) over `n` inputs with at most
/// `targets.len() + helpers` XORs, on one thread, within `node_limit` search nodes: the exact
/// step of window polishing ([`crate::satwin`]). With `rng`, the candidates are tried in random
/// order, so that a budget with many solutions yields a random one. Deterministic.
pub fn window_lines(n: usize, targets: &[Row], helpers: usize, node_limit: u64, rng: Option<&mut ChaCha8Rng>) -> WindowAnswer {
    assert!(n <= MAX_INPUTS, "helper-set enumeration is limited to {MAX_INPUTS} inputs");
    let t: Vec<u32> = targets.iter().map(|&t| t as u32).collect();
    let far = Instant::now() + Duration::from_secs(1 << 30);
    match run(n, &t, helpers, 1, far, node_limit, rng) {
        (Some(list), _, _) => WindowAnswer::Found(program_from_values(&BitMatrix::from_rows(n, targets.to_vec()), &list).ops),
        (None, true, _) => WindowAnswer::Budget,
        (None, false, _) => WindowAnswer::None,
    }
}

/// Rule 3's table. The input permutations τ that map the target set onto itself (see
/// [`crate::matrix::target_automorphisms`]) map programs to programs with as many XORs, and the
/// root set C0 (inputs and the targets they reach) and its reachable set R0 onto themselves. In
/// the orbit of a program, take one whose first greedy helper h0 = min(H ∩ R0) is smallest.
/// Then min τ(H ∩ R0) ≥ h0 for every τ: h0 is the smallest value of its orbit, and every helper
/// in R0 has an orbit whose smallest value is ≥ h0. The enumeration keeps only such helper
/// sequences. The table holds the smallest orbit value of every value in R0; it is empty when
/// the group is trivial.
fn orbit_minima(n: usize, targets: &[u32], root: &State) -> Vec<u32> {
    let rows: Vec<Row> = targets.iter().map(|&t| Row::from(t)).collect();
    let group = crate::matrix::target_automorphisms(n, &rows, 64);
    if group.len() <= 1 {
        return Vec::new();
    }
    let apply = |tau: &[usize], v: u32| tau.iter().enumerate().fold(0u32, |acc, (i, &a)| acc | ((v >> a) & 1) << i);
    let mut table = vec![u32::MAX; 1 << n];
    for &v in &root.reach_list {
        table[v as usize] = group.iter().map(|tau| apply(tau, v)).min().unwrap_or(v);
    }
    table
}

/// [`orbit_minima`], remembered for the last target set of this thread: window polishing asks
/// for the same window with several budgets in a row, and finding the group costs more than a
/// small enumeration.
fn cached_orbit_minima(n: usize, targets: &[u32], root: &State) -> std::rc::Rc<Vec<u32>> {
    type Key = (usize, Vec<u32>);
    thread_local! {
        static LAST: std::cell::RefCell<Option<(Key, std::rc::Rc<Vec<u32>>)>> = const { std::cell::RefCell::new(None) };
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if let Some(((ln, lt), table)) = last.as_ref()
            && *ln == n
            && lt == targets
        {
            return table.clone();
        }
        let table = std::rc::Rc::new(orbit_minima(n, targets, root));
        *last = Some(((n, targets.to_vec()), table.clone()));
        table
    })
}

/// The program that adds the values of `list` (inputs first) in order, each as the sum of two
/// earlier ones.
fn program_from_values(m: &BitMatrix, list: &[u32]) -> Program {
    let n = m.cols();
    let mut p = Program::new(n, m.rows());
    let mut pos = std::collections::HashMap::new();
    let mut values: Vec<Row> = Vec::new();
    for (i, &v) in list.iter().enumerate() {
        if i >= n {
            let (a, b) = (0..i)
                .find_map(|a| pos.get(&(v ^ list[a])).map(|&b| (a, b)))
                .expect("every added value is the sum of two earlier ones");
            p.push(a.min(b), a.max(b));
        }
        pos.insert(v, i);
        values.push(Row::from(v));
    }
    outputs_from_values(&mut p, &values, m.row_bits());
    p.prune();
    p.meta.algorithm = "enumerate".into();
    p
}

/// Result of [`exact`].
#[derive(Debug, Clone)]
pub struct Report {
    /// The shortest program found (optimal when `optimal`).
    pub program: Option<Program>,
    /// Every program has at least this many XORs.
    pub lower_bound: usize,
    /// Whether `program` has `lower_bound` XORs.
    pub optimal: bool,
    /// (k, answer, nodes, seconds) per budget: "found" a program with ≤ k XORs, "none" or
    /// "timeout".
    pub log: Vec<(usize, &'static str, u64, f64)>,
}

/// Iterative deepening: budgets k = |T|, |T| + 1, … until a program is found, the deadline
/// passes, or k exceeds `max_k`. A known program `upper` ends the search one budget early: when
/// no program has fewer XORs than it, it is optimal. `on_k` hears each budget's answer.
pub fn exact(
    m: &BitMatrix,
    threads: usize,
    time_limit: Duration,
    upper: Option<Program>,
    max_k: Option<usize>,
    mut on_k: impl FnMut(usize, &str, u64, f64),
) -> Report {
    let deadline = Instant::now() + time_limit;
    let t = nontrivial_targets(m).len();
    let mut lower = t;
    let mut log = Vec::new();
    let mut program = upper;
    let mut optimal = false;
    for r in 0.. {
        let k = t + r;
        if program.as_ref().is_some_and(|p| p.xor_count() <= k) {
            optimal = true;
            break;
        }
        if max_k.is_some_and(|mk| k > mk) || Instant::now() >= deadline {
            break;
        }
        let start = Instant::now();
        let (a, nodes) = search_helpers(m, r, threads, deadline);
        let secs = start.elapsed().as_secs_f64();
        let tag = match &a {
            Answer::Found(_) => "found",
            Answer::Exhausted => "none",
            Answer::Timeout => "timeout",
        };
        on_k(k, tag, nodes, secs);
        log.push((k, tag, nodes, secs));
        match a {
            Answer::Found(p) => {
                lower = p.xor_count();
                program = Some(p);
                optimal = true;
                break;
            }
            Answer::Exhausted => lower = k + 1,
            Answer::Timeout => break,
        }
    }
    if let Some(p) = &mut program {
        p.set_bound_note(optimal, lower);
    }
    Report { program, lower_bound: lower, optimal, log }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_matrix;
    use rand::{Rng, SeedableRng};

    fn far() -> Instant {
        Instant::now() + Duration::from_secs(600)
    }

    #[test]
    fn random8_s1_optimum_is_12() {
        let m = parse_matrix(include_str!("../../../test-vectors/slp/random8_s1.txt")).unwrap();
        let r = exact(&m, 1, Duration::from_secs(600), None, None, |_, _, _, _| {});
        assert_eq!(r.lower_bound, 12);
        let p = r.program.unwrap();
        assert_eq!(p.xor_count(), 12);
        p.verify(&m).unwrap();
        // The same answer split across threads.
        assert!(matches!(search_helpers(&m, 4, 3, far()).0, Answer::Exhausted));
        assert!(matches!(search_helpers(&m, 5, 3, far()).0, Answer::Found(_)));
    }

    /// MixSlices has a symmetry group of order 8 (rule 3); its bound 22 agrees with the SAT
    /// refutations of k = 16…21, whose DRAT proofs `scripts/test-trust.sh` checks.
    #[test]
    fn mixslices_needs_22() {
        let m = parse_matrix(include_str!("../../../test-vectors/slp/proest_mixslices.txt")).unwrap();
        let t = nontrivial_targets(&m);
        assert_eq!(crate::matrix::target_automorphisms(16, &t, 64).len(), 8);
        let r = exact(&m, 2, Duration::from_secs(600), None, Some(21), |_, _, _, _| {});
        assert_eq!((r.lower_bound, r.optimal), (22, false));
    }

    #[test]
    fn trivial_matrices() {
        let m = parse_matrix("100\n010\n001\n").unwrap();
        let r = exact(&m, 1, Duration::from_secs(10), None, None, |_, _, _, _| {});
        assert_eq!((r.lower_bound, r.program.unwrap().xor_count()), (0, 0));
        let m = parse_matrix("110\n110\n000\n111\n").unwrap();
        let r = exact(&m, 2, Duration::from_secs(10), None, None, |_, _, _, _| {});
        let p = r.program.unwrap();
        p.verify(&m).unwrap();
        assert_eq!((r.lower_bound, p.xor_count()), (2, 2));
    }

    /// Brute force over all programs (every line the sum of two distinct earlier signals) of
    /// at most `k` lines: the reference for tiny matrices.
    fn brute_force_min(m: &BitMatrix, kmax: usize) -> Option<usize> {
        fn rec(vals: &mut Vec<u32>, targets: &[u32], left: usize) -> bool {
            if targets.iter().all(|t| vals.contains(t)) {
                return true;
            }
            if left == 0 {
                return false;
            }
            let len = vals.len();
            for a in 0..len {
                for b in a + 1..len {
                    let v = vals[a] ^ vals[b];
                    if v == 0 || vals.contains(&v) {
                        continue;
                    }
                    vals.push(v);
                    let ok = rec(vals, targets, left - 1);
                    vals.pop();
                    if ok {
                        return true;
                    }
                }
            }
            false
        }
        let targets: Vec<u32> = nontrivial_targets(m).iter().map(|&t| t as u32).collect();
        let mut vals: Vec<u32> = (0..m.cols()).map(|i| 1 << i).collect();
        (0..=kmax).find(|&k| rec(&mut vals, &targets, k))
    }

    #[test]
    fn agrees_with_brute_force_on_small_matrices() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(14);
        for case in 0..80 {
            let n = rng.random_range(3..=5);
            let rows = rng.random_range(2..=5);
            let m = if case % 4 == 3 {
                // Circulants: rotations of the inputs map their targets onto themselves (rule 3).
                let first: u128 = rng.random_range(0..1u128 << n);
                BitMatrix::from_rows(n, (0..n).map(|i| ((first << i) | (first >> (n - i))) & ((1 << n) - 1)).collect())
            } else {
                BitMatrix::from_rows(n, (0..rows).map(|_| rng.random_range(0..1u128 << n)).collect())
            };
            let want = brute_force_min(&m, 7);
            let r = exact(&m, 1 + case % 2, Duration::from_secs(60), None, Some(7), |_, _, _, _| {});
            match want {
                Some(w) => {
                    let p = r.program.as_ref().unwrap_or_else(|| panic!("case {case}: {m:?} needs {w}, enumeration found none"));
                    p.verify(&m).unwrap();
                    assert_eq!((p.xor_count(), r.lower_bound), (w, w), "case {case}: {m:?}");
                }
                None => assert!(r.program.is_none() && r.lower_bound == 8, "case {case}: {m:?}"),
            }
        }
    }
}
