//! SAT-exact window re-synthesis ("peephole" polishing).
//!
//! A *window* is a convex set S of gates of a program (no path leaves S and comes back): the
//! signals S reads from outside are its inputs, the gates of S used outside S (or that are
//! program outputs) its outputs. Over its inputs, S computes a small matrix; if a program with
//! fewer than |S| XORs computes that matrix, S is replaced by it. The question "is there a
//! program with exactly k XORs for this small matrix?" goes to CaDiCaL with the encoding below
//! (in the style of [`crate::sat`], written here so that it can carry depth constraints and a
//! deterministic effort limit).
//!
//! Windows are grown from a random seed gate through its operands, users and siblings (other
//! users of its operands), then closed to be convex, so they need not be consecutive in any listing of the program; they are kept to
//! at most [`SatWinOptions::max_inputs`] inputs and [`SatWinOptions::max_window`] gates.
//!
//! # Depth
//! With a depth bound D every signal has an *arrival* depth (its depth in the program) and a
//! *required* depth (D for program outputs, else one less than the least required depth of its
//! users). Window inputs arrive at their arrival depth; every window output must sit at a depth
//! ≤ its required depth. These bounds are part of the CNF, so every splice keeps the program's
//! depth ≤ D.
//!
//! # Encoding (window with n inputs, k lines)
//! One-hot operand selectors (op1 < op2), value bits, lines non-zero, not an input and pairwise
//! distinct, every distinct target (weight ≥ 2) on some line, no dead lines, the canonical
//! topological order of [`crate::sat`] (rule 3: if line j could stand at position i < j, then
//! v(i) < v(j)), and, with depth bounds, "depth ≥ d" variables implied upwards from the
//! operands (only that direction is needed for upper bounds). Every restriction keeps some
//! program of each length (reordering keeps values, uses and depths), so the encoding only
//! speeds up the search; an UNSAT answer is never used as a claim here anyway.
//!
//! # Determinism
//! Each SAT call is limited by an *effort* budget: the number of times CaDiCaL polls its
//! terminator, which depends only on the CNF. So for a given seed the result does not depend on
//! the machine. A wall-clock safety limit per call ([`SatWinOptions::call_time_limit`]) also
//! applies; the statistics count the calls it interrupted (0 means the run was deterministic).

#![allow(clippy::needless_range_loop)] // index-heavy CNF construction reads best with indices

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::cadical::{Solver, Status};
use crate::cnf::Cnf;
use crate::sat::encode::encode_line;
use crate::matrix::{BitMatrix, Row};
use crate::program::{Out, Program};
use crate::resynth::{ResynthOptions, resynth};

/// Options of [`sat_polish`].
#[derive(Debug, Clone)]
pub struct SatWinOptions {
    /// Number of windows tried (reproducible). `None`: until `deadline`.
    pub rounds: Option<u64>,
    /// Stop here (also with `rounds`).
    pub deadline: Option<Instant>,
    /// Largest number of window inputs.
    pub max_inputs: usize,
    /// Largest window (gates).
    pub max_window: usize,
    /// Smallest window (gates).
    pub min_window: usize,
    /// Terminator polls per SAT call (deterministic effort limit).
    pub effort: u64,
    /// Wall-clock safety limit per SAT call.
    pub call_time_limit: Duration,
    /// Depth bound to keep (None: unbounded).
    pub max_depth: Option<usize>,
    /// Probability of accepting an equally long replacement (moves on the plateau).
    pub plateau: f64,
    /// Every this many windows, one round of BP window re-synthesis ([`crate::resynth`], 50
    /// attempts, windows up to `bp_window` gates) on the current program (0: never). The SAT
    /// windows move the program on its plateau; BP's larger windows find the shortenings.
    pub bp_every: u64,
    /// Largest BP window (gates).
    pub bp_window: usize,
    /// Solve windows by helper-set enumeration ([`crate::enumerate`]) instead of SAT, with
    /// `effort` × 100 search nodes per call (deterministic as well). The enumeration ignores
    /// depths: with a depth bound, a program it finds is kept only if it meets the window's
    /// depths (up to four candidate orders per length), so it may miss one that SAT finds.
    pub enumerate: bool,
}

impl Default for SatWinOptions {
    fn default() -> Self {
        SatWinOptions {
            rounds: None,
            deadline: None,
            max_inputs: 8,
            max_window: 10,
            min_window: 4,
            effort: 10_000,
            call_time_limit: Duration::from_secs(20),
            max_depth: None,
            plateau: 0.5,
            bp_every: 0,
            bp_window: 48,
            enumerate: false,
        }
    }
}

/// What [`sat_polish_stats`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SatWinStats {
    /// Windows tried.
    pub windows: u64,
    /// SAT calls.
    pub calls: u64,
    /// Calls stopped by the effort budget.
    pub effort_outs: u64,
    /// Calls stopped by the wall-clock safety limit (then the run is machine-dependent).
    pub time_outs: u64,
    /// Strictly shorter windows spliced in.
    pub improvements: u64,
    /// Equally long replacements accepted.
    pub plateau_moves: u64,
    /// Shortenings found by the interleaved BP re-synthesis.
    pub bp_improvements: u64,
}

/// A small synthesis problem: targets over `n` inputs with arrival depths, each target with a
/// required depth.
#[derive(Debug, Clone)]
pub struct WindowProblem {
    /// Number of inputs.
    pub n: usize,
    /// Distinct targets of weight ≥ 2.
    pub targets: Vec<Row>,
    /// Arrival depth of every input (all 0 without depth bounds).
    pub arrival: Vec<usize>,
    /// Largest allowed depth of every target (`usize::MAX`: none).
    pub required: Vec<usize>,
}

/// Outcome of [`solve_window`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WinResult {
    /// Lines `(a, b)` over signals `0..n` (inputs) and `n + i` (line i).
    Sat(Vec<(usize, usize)>),
    /// No such program (in the normal form).
    Unsat,
    /// Effort budget spent.
    Effort,
    /// Wall-clock limit hit.
    Timeout,
}

/// "A program with exactly `k` lines computes every target within its depth bound?", with an
/// effort budget (terminator polls) and a wall-clock limit.
pub fn solve_window(w: &WindowProblem, k: usize, effort: u64, time_limit: Duration) -> WinResult {
    let n = w.n;
    if k < w.targets.len() {
        return WinResult::Unsat;
    }
    let mut f = Cnf { vars: 0, clauses: Vec::new() };
    let t_true = f.var();
    f.add(&[t_true]);
    let depth_on = w.required.iter().any(|&r| r != usize::MAX);
    let dmax = if depth_on { w.required.iter().filter(|&&r| r != usize::MAX).max().copied().unwrap_or(0) + 1 } else { 0 };
    // dep[s][d] ("depth of s >= d") for d in 0..=dmax.
    let mut dep: Vec<Vec<i32>> = Vec::new();
    if depth_on {
        for j in 0..n {
            dep.push((0..=dmax).map(|d| if w.arrival[j] >= d { t_true } else { -t_true }).collect());
        }
    }
    let mut op1: Vec<Vec<i32>> = Vec::with_capacity(k);
    let mut op2: Vec<Vec<i32>> = Vec::with_capacity(k);
    let mut val: Vec<Vec<i32>> = Vec::with_capacity(k);
    for i in 0..k {
        let ns = n + i;
        let (a, b, v) = encode_line(&mut f, n, &val, true);
        if depth_on {
            let mut row = vec![t_true; dmax + 1];
            for d in 2..=dmax {
                let x = f.var();
                for sel in [&a, &b] {
                    for s in 0..ns {
                        let sd = dep[s][d - 1];
                        if sd == t_true {
                            f.add(&[-sel[s], x]);
                        } else if sd != -t_true {
                            f.add(&[-sel[s], -sd, x]);
                        }
                    }
                }
                row[d] = x;
            }
            dep.push(row);
        }
        op1.push(a);
        op2.push(b);
        val.push(v);
    }
    // Outputs.
    let mut outs: Vec<Vec<i32>> = Vec::new();
    for (ti, t) in w.targets.iter().enumerate() {
        let o: Vec<i32> = (0..k).map(|_| f.var()).collect();
        f.add(&o);
        let wgt = t.count_ones() as usize;
        for &oi in o.iter().take(wgt.saturating_sub(2)) {
            f.add(&[-oi]);
        }
        for i in 0..k {
            for j in 0..n {
                f.add(&[-o[i], if t >> j & 1 == 1 { val[i][j] } else { -val[i][j] }]);
            }
            if depth_on && w.required[ti] != usize::MAX {
                let r = w.required[ti];
                if r == 0 {
                    f.add(&[-o[i]]);
                } else if r < dmax {
                    f.add(&[-o[i], -dep[n + i][r + 1]]);
                }
            }
        }
        outs.push(o);
    }
    // No dead lines.
    for i in 0..k {
        let mut c: Vec<i32> = outs.iter().map(|o| o[i]).collect();
        for l in i + 1..k {
            c.push(op1[l][n + i]);
            c.push(op2[l][n + i]);
        }
        f.add(&c);
    }
    // Canonical order (see crate::sat::encode, rule 3).
    for j in 1..k {
        for i in 0..j {
            let r = f.var();
            for s in 0..n + i {
                f.add(&[-op2[j][s], r]);
            }
            let mut g = r;
            for bit in (0..n).rev() {
                let (x, y) = (val[i][bit], val[j][bit]);
                f.add(&[-g, -x, y]);
                let g2 = f.var();
                f.add(&[-g, -x, -y, g2]);
                f.add(&[-g, x, y, g2]);
                g = g2;
            }
            f.add(&[-g]);
        }
    }
    let mut s = Solver::new();
    for c in &f.clauses {
        s.add_clause(c);
    }
    let polls = Arc::new(AtomicU64::new(0));
    let p2 = Arc::clone(&polls);
    let deadline = Instant::now() + time_limit;
    let timed_out = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let t2 = Arc::clone(&timed_out);
    s.set_terminator(move || {
        let c = p2.fetch_add(1, Ordering::Relaxed) + 1;
        if c >= effort {
            return true;
        }
        if Instant::now() >= deadline {
            t2.store(true, Ordering::Relaxed);
            return true;
        }
        false
    });
    let res = s.solve();
    match res {
        Status::Unsat => WinResult::Unsat,
        Status::Interrupted => {
            if timed_out.load(Ordering::Relaxed) {
                WinResult::Timeout
            } else {
                WinResult::Effort
            }
        }
        Status::Sat => {
            let pick = |sel: &Vec<i32>| sel.iter().position(|&l| s.value(l)).expect("one-hot selector");
            WinResult::Sat((0..k).map(|i| (pick(&op1[i]), pick(&op2[i]))).collect())
        }
    }
}

/// Programs the enumeration tries per window length when a depth bound is on.
const DEPTH_TRIES: usize = 4;

/// Whether `lines` (over the window inputs `0..w.n`, line i = signal n + i) put every target at
/// a depth within its bound, the inputs arriving at their arrival depths.
fn meets_depths(w: &WindowProblem, lines: &[(usize, usize)]) -> bool {
    let mut val: Vec<Row> = (0..w.n).map(|j| 1 << j).collect();
    let mut dep: Vec<usize> = w.arrival.clone();
    for &(a, b) in lines {
        val.push(val[a] ^ val[b]);
        dep.push(dep[a].max(dep[b]) + 1);
    }
    w.targets.iter().zip(&w.required).all(|(&t, &r)| val.iter().zip(&dep).any(|(&v, &d)| v == t && d <= r))
}

/// What [`polish_walk`] needs of the current program besides the program itself.
struct Derived {
    /// [`users`].
    us: Users,
    /// Whether a signal is an output.
    is_out: Vec<bool>,
    /// [`required_depths`] under a depth bound.
    req: Option<Vec<usize>>,
    /// Signal depths (only read under a depth bound).
    arr: Vec<usize>,
}

impl Derived {
    fn of(p: &Program, depth_bound: Option<usize>) -> Self {
        let mut is_out = vec![false; p.n_signals()];
        for o in &p.outputs {
            if let Out::Sig(s) = o {
                is_out[*s] = true;
            }
        }
        let req = depth_bound.map(|d| required_depths(p, d));
        let arr = if depth_bound.is_some() { p.signal_depths() } else { Vec::new() };
        Derived { us: users(p), is_out, req, arr }
    }
}

/// The users of every signal (operation indices, ascending), in one allocation.
struct Users {
    /// Signal s's users are `list[start[s]..start[s + 1]]`.
    start: Vec<usize>,
    list: Vec<usize>,
}

impl std::ops::Index<usize> for Users {
    type Output = [usize];
    fn index(&self, s: usize) -> &[usize] {
        &self.list[self.start[s]..self.start[s + 1]]
    }
}

/// Users of every signal (operation indices).
fn users(p: &Program) -> Users {
    let mut start = vec![0usize; p.n_signals() + 1];
    for &(a, b) in &p.ops {
        start[a + 1] += 1;
        start[b + 1] += 1;
    }
    for s in 0..p.n_signals() {
        start[s + 1] += start[s];
    }
    let mut fill = start.clone();
    let mut list = vec![0usize; 2 * p.ops.len()];
    for (i, &(a, b)) in p.ops.iter().enumerate() {
        for s in [a, b] {
            list[fill[s]] = i;
            fill[s] += 1;
        }
    }
    Users { start, list }
}

/// Required depth of every signal for a program depth bound `d` (`usize::MAX` for dead ones).
fn required_depths(p: &Program, d: usize) -> Vec<usize> {
    let n = p.n_inputs;
    let mut req = vec![usize::MAX; p.n_signals()];
    for o in &p.outputs {
        if let Out::Sig(s) = o {
            req[*s] = req[*s].min(d);
        }
    }
    for i in (0..p.ops.len()).rev() {
        let r = req[n + i];
        if r == usize::MAX {
            continue;
        }
        let (a, b) = p.ops[i];
        let r1 = r.saturating_sub(1);
        req[a] = req[a].min(r1);
        req[b] = req[b].min(r1);
    }
    req
}

/// A convex window grown from a random gate: sorted operation indices.
fn grow_window(p: &Program, us: &Users, opts: &SatWinOptions, rng: &mut ChaCha8Rng) -> Option<Vec<usize>> {
    let n = p.n_inputs;
    let k = p.ops.len();
    if k == 0 {
        return None;
    }
    let size = rng.random_range(opts.min_window.min(k)..=opts.max_window.min(k));
    let mut inw = vec![false; k];
    let mut mark = vec![0u8; k];
    let seed = rng.random_range(0..k);
    inw[seed] = true;
    // The window's gates, ascending.
    let mut members = vec![seed];
    let mut trial: Vec<usize> = Vec::new();
    let mut cand: Vec<usize> = Vec::new();
    let mut fails = 0;
    while members.len() < size && fails < 8 {
        // Candidates: operands and users of the window's gates.
        cand.clear();
        for &g in &members {
            let (a, b) = p.ops[g];
            for s in [a, b] {
                if s >= n && !inw[s - n] {
                    cand.push(s - n);
                }
            }
            for &u in &us[n + g] {
                if !inw[u] {
                    cand.push(u);
                }
            }
            // Siblings: other users of the gate's operands (windows that share inputs).
            for s in [a, b] {
                for &u in &us[s] {
                    if !inw[u] {
                        cand.push(u);
                    }
                }
            }
        }
        if cand.is_empty() {
            break;
        }
        let c = cand[rng.random_range(0..cand.len())];
        // The trial window: the members, c, and every gate on a path between two of them.
        inw[c] = true;
        trial.clear();
        trial.extend_from_slice(&members);
        trial.push(c);
        let lo = members[0].min(c);
        let old = trial.len();
        close_convex(p, &mut inw, &mut trial, lo, &mut mark);
        if trial.len() > opts.max_window || window_inputs(p, &inw, &trial).len() > opts.max_inputs {
            for &g in &trial[old - 1..] {
                inw[g] = false;
            }
            fails += 1;
            continue;
        }
        trial.sort_unstable();
        std::mem::swap(&mut members, &mut trial);
    }
    if members.len() < 2 {
        return None;
    }
    Some(members)
}

/// Makes the window `win` (its gates, marked in `inw`, the smallest of them `lo`) convex: appends
/// to `win`, and marks, every gate on a path between two window gates. Such a gate reaches the
/// window, so it is found among the window's ancestors from `lo` on; of those, the ones some
/// window gate reaches are the path gates. The work is in the ancestors only, not in the whole
/// range of the window (which in a program of hundreds of gates can be most of it). `mark` is
/// scratch space, all zero before and after.
fn close_convex(p: &Program, inw: &mut [bool], win: &mut Vec<usize>, lo: usize, mark: &mut [u8]) {
    const ANCESTOR: u8 = 1;
    const ON_PATH: u8 = 2;
    let n = p.n_inputs;
    let mut stack: Vec<usize> = win.clone();
    let mut anc: Vec<usize> = Vec::new();
    while let Some(g) = stack.pop() {
        let (a, b) = p.ops[g];
        for s in [a, b] {
            if s >= n + lo && !inw[s - n] && mark[s - n] == 0 {
                mark[s - n] = ANCESTOR;
                anc.push(s - n);
                stack.push(s - n);
            }
        }
    }
    anc.sort_unstable();
    for &g in &anc {
        let (a, b) = p.ops[g];
        if [a, b].into_iter().any(|s| s >= n + lo && (inw[s - n] || mark[s - n] == ON_PATH)) {
            mark[g] = ON_PATH;
        }
    }
    for &g in &anc {
        if mark[g] == ON_PATH {
            inw[g] = true;
            win.push(g);
        }
        mark[g] = 0;
    }
}

/// The inputs of the window of gates `win` (marked in `inw`), ascending.
fn window_inputs(p: &Program, inw: &[bool], win: &[usize]) -> Vec<usize> {
    let n = p.n_inputs;
    let mut ins = Vec::new();
    for &i in win {
        let (a, b) = p.ops[i];
        for s in [a, b] {
            if (s < n || !inw[s - n]) && !ins.contains(&s) {
                ins.push(s);
            }
        }
    }
    ins.sort_unstable();
    ins
}

/// Replaces the window `win` (operation indices) of `p`, whose outputs `outs` (signals) get the
/// values `targets` over the window inputs `ins`, by the lines `lines` (over `ins` and the new
/// lines). Returns the re-sorted, pruned program.
fn splice(p: &Program, win: &[usize], ins: &[usize], outs: &[(usize, Row)], lines: &[(usize, usize)]) -> Option<Program> {
    let n = p.n_inputs;
    let k = p.ops.len();
    let ni = ins.len();
    // Node ids: 0..n+k as in p (window gates unused), then n+k+i for new line i.
    let total = n + k + lines.len();
    let mut ops: Vec<(usize, usize)> = vec![(usize::MAX, usize::MAX); total];
    let mut inw = vec![false; k];
    for &g in win {
        inw[g] = true;
    }
    let map_sub = |s: usize| if s < ni { ins[s] } else { n + k + s - ni };
    for (i, &(a, b)) in lines.iter().enumerate() {
        ops[n + k + i] = (map_sub(a), map_sub(b));
    }
    // Values of the new lines (over window inputs) to find each window output.
    let mut vals: Vec<Row> = (0..ni).map(|j| 1u128 << j).collect();
    for &(a, b) in lines {
        vals.push(vals[a] ^ vals[b]);
    }
    let mut redirect: Vec<usize> = (0..total).collect();
    for &(o, t) in outs {
        let pos = vals.iter().position(|&v| v == t)?;
        redirect[o] = map_sub(pos);
    }
    for (i, &(a, b)) in p.ops.iter().enumerate() {
        if !inw[i] {
            ops[n + i] = (redirect[a], redirect[b]);
        }
    }
    // Topological emission from the outputs (iterative DFS).
    let mut newid = vec![usize::MAX; total];
    for (j, id) in newid.iter_mut().enumerate().take(n) {
        *id = j;
    }
    let mut q = Program::new(n, p.outputs.len());
    q.meta = p.meta.clone();
    let mut stack = Vec::new();
    for o in &p.outputs {
        if let Out::Sig(s) = o {
            let root = redirect[*s];
            stack.push((root, false));
            while let Some((x, expanded)) = stack.pop() {
                if newid[x] != usize::MAX {
                    continue;
                }
                let (a, b) = ops[x];
                if expanded {
                    newid[x] = q.push(newid[a], newid[b]);
                } else {
                    stack.push((x, true));
                    for c in [b, a] {
                        if newid[c] == usize::MAX {
                            stack.push((c, false));
                        }
                    }
                }
            }
        }
    }
    q.outputs = p.outputs.iter().map(|o| if let Out::Sig(s) = o { Out::Sig(newid[redirect[*s]]) } else { *o }).collect();
    Some(q)
}

/// Polishes `p` (which computes `m`) by SAT-exact window re-synthesis; never longer, and within
/// `opts.max_depth` when `p` is.
pub fn sat_polish(p: &Program, m: &BitMatrix, opts: &SatWinOptions, rng: &mut ChaCha8Rng) -> Program {
    sat_polish_stats(p, m, opts, rng).0
}

/// [`sat_polish`] with statistics.
pub fn sat_polish_stats(p: &Program, m: &BitMatrix, opts: &SatWinOptions, rng: &mut ChaCha8Rng) -> (Program, SatWinStats) {
    let (best, _, st) = polish_walk(p, m, opts, rng);
    (best, st)
}

/// Where a walk of [`sat_polish`] ends: as short as the best program it met (it never gets
/// longer), but after all its moves on the plateau, so a later walk can go on from there.
pub fn sat_walk(p: &Program, m: &BitMatrix, opts: &SatWinOptions, rng: &mut ChaCha8Rng) -> Program {
    polish_walk(p, m, opts, rng).1
}

/// The walk: (best program, last program, statistics).
fn polish_walk(p: &Program, m: &BitMatrix, opts: &SatWinOptions, rng: &mut ChaCha8Rng) -> (Program, Program, SatWinStats) {
    let mut st = SatWinStats::default();
    let mut cur = p.clone();
    cur.prune();
    let depth_bound = opts.max_depth.map(|d| d.max(cur.depth()));
    let mut best = cur.clone();
    let target = m;
    // What the windows need to know of `cur`, recomputed only when `cur` changes.
    let mut derived: Option<Derived> = None;
    let mut local: Vec<Row> = Vec::new();
    loop {
        if opts.rounds.is_some_and(|r| st.windows >= r) || opts.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        if opts.rounds.is_none() && opts.deadline.is_none() {
            break;
        }
        st.windows += 1;
        if opts.bp_every > 0 && st.windows % opts.bp_every == 0 {
            let ro = ResynthOptions { iterations: 50, max_window: opts.bp_window, tries: 4, max_depth: depth_bound, walk: false };
            let q = resynth(&cur, &ro, rng);
            if q.xor_count() < cur.xor_count() && q.matrix() == *target && depth_bound.is_none_or(|d| q.depth() <= d) {
                st.bp_improvements += 1;
                cur = q;
                derived = None;
                if cur.xor_count() < best.xor_count() {
                    best = cur.clone();
                }
            }
        }
        let n = cur.n_inputs;
        let Derived { us, is_out, req, arr } = derived.get_or_insert_with(|| Derived::of(&cur, depth_bound));
        let (us, is_out, req, arr) = (&*us, &*is_out, &*req, &*arr);
        let Some(win) = grow_window(&cur, us, opts, rng) else {
            continue;
        };
        let mut inw = vec![false; cur.ops.len()];
        for &g in &win {
            inw[g] = true;
        }
        let ins = window_inputs(&cur, &inw, &win);
        // Window-local values (every entry read below is written first: the operands of a
        // window gate are window inputs or earlier window gates).
        local.resize(cur.n_signals(), 0);
        for (j, &s) in ins.iter().enumerate() {
            local[s] = 1u128 << j;
        }
        for &g in &win {
            let (a, b) = cur.ops[g];
            local[n + g] = local[a] ^ local[b];
        }
        let mut outs: Vec<(usize, Row)> = Vec::new();
        let mut targets: Vec<Row> = Vec::new();
        let mut required: Vec<usize> = Vec::new();
        let mut bad = false;
        for &g in &win {
            let s = n + g;
            if is_out[s] || us[s].iter().any(|&u| !inw[u]) {
                let v = local[s];
                if v == 0 {
                    bad = true;
                    break;
                }
                outs.push((s, v));
                let r = req.as_ref().map_or(usize::MAX, |r| r[s]);
                if v.count_ones() == 1 {
                    // Equals a window input: only fine if that input is early enough.
                    let j = v.trailing_zeros() as usize;
                    if req.is_some() && arr[ins[j]] > r {
                        bad = true;
                        break;
                    }
                    continue;
                }
                if let Some(pos) = targets.iter().position(|&t| t == v) {
                    required[pos] = required[pos].min(r);
                } else {
                    targets.push(v);
                    required.push(r);
                }
            }
        }
        if bad {
            continue;
        }
        let len = win.len();
        let plateau = rng.random_bool(opts.plateau.clamp(0.0, 1.0));
        let arrival: Vec<usize> = if req.is_some() { ins.iter().map(|&s| arr[s]).collect() } else { vec![0; ins.len()] };
        let wp = WindowProblem { n: ins.len(), targets, arrival, required };
        let mut found: Option<Vec<(usize, usize)>> = None;
        let mut is_plateau = false;
        if opts.enumerate && wp.n <= crate::enumerate::MAX_INPUTS {
            use crate::enumerate::{WindowAnswer, window_lines};
            let t = wp.targets.len();
            let nodes = opts.effort.saturating_mul(100);
            // The enumeration ignores depths: with a depth bound, a program it finds is kept
            // only if it meets them, and up to DEPTH_TRIES orders of the candidates are tried
            // (a heuristic: a program within the bound may be missed).
            let tries = if depth_bound.is_some() { DEPTH_TRIES } else { 1 };
            let fits = |l: &[(usize, usize)]| depth_bound.is_none() || meets_depths(&wp, l);
            // The shortest program with fewer than len XORs, if any; else, on the plateau, a
            // random one with len.
            let mut budget_out = false;
            'k: for k in t..len {
                for attempt in 0..tries {
                    st.calls += 1;
                    match window_lines(wp.n, &wp.targets, k - t, nodes, if attempt == 0 { None } else { Some(&mut *rng) }) {
                        WindowAnswer::Found(l) if fits(&l) => {
                            found = Some(l);
                            break 'k;
                        }
                        WindowAnswer::Found(_) => {}
                        WindowAnswer::None => continue 'k,
                        WindowAnswer::Budget => {
                            st.effort_outs += 1;
                            budget_out = true;
                            break 'k;
                        }
                    }
                }
            }
            if found.is_none() && !budget_out && plateau && t <= len {
                for _ in 0..tries {
                    st.calls += 1;
                    match window_lines(wp.n, &wp.targets, len - t, nodes, Some(&mut *rng)) {
                        WindowAnswer::Found(l) if fits(&l) => {
                            found = Some(l);
                            is_plateau = true;
                            break;
                        }
                        WindowAnswer::Found(_) => {}
                        WindowAnswer::Budget => {
                            st.effort_outs += 1;
                            break;
                        }
                        WindowAnswer::None => break,
                    }
                }
            }
        } else {
            // Try k = len-1 (then shorter while it works); on the plateau k = len.
            let mut k = len - 1;
            if wp.targets.len() <= k {
                loop {
                    st.calls += 1;
                    match solve_window(&wp, k, opts.effort, opts.call_time_limit) {
                        WinResult::Sat(l) => {
                            found = Some(l);
                            if k == 0 || k - 1 < wp.targets.len() {
                                break;
                            }
                            k -= 1;
                        }
                        WinResult::Effort => {
                            st.effort_outs += 1;
                            break;
                        }
                        WinResult::Timeout => {
                            st.time_outs += 1;
                            break;
                        }
                        WinResult::Unsat => break,
                    }
                }
            }
            if found.is_none() && plateau && wp.targets.len() <= len {
                st.calls += 1;
                match solve_window(&wp, len, opts.effort, opts.call_time_limit) {
                    WinResult::Sat(l) => {
                        found = Some(l);
                        is_plateau = true;
                    }
                    WinResult::Effort => st.effort_outs += 1,
                    WinResult::Timeout => st.time_outs += 1,
                    WinResult::Unsat => {}
                }
            }
        }
        let Some(lines) = found else { continue };
        let Some(q) = splice(&cur, &win, &ins, &outs, &lines) else {
            continue;
        };
        if q.matrix() != *target || depth_bound.is_some_and(|d| q.depth() > d) || q.xor_count() > cur.xor_count() {
            debug_assert!(false, "window splice broke the program");
            continue;
        }
        if is_plateau && q.ops == cur.ops {
            continue;
        }
        if q.xor_count() < cur.xor_count() {
            st.improvements += 1;
        } else {
            st.plateau_moves += 1;
        }
        cur = q;
        derived = None;
        if cur.xor_count() < best.xor_count() || (cur.xor_count() == best.xor_count() && cur.depth() < best.depth()) {
            best = cur.clone();
        }
    }
    if let Err(e) = best.verify(m) {
        panic!("internal error: SAT window polishing produced a wrong program: {e}");
    }
    (best, cur, st)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn window_sat_finds_shared_pair() {
        // y0 = x0+x1+x2, y1 = x0+x1+x3 in 3 lines, not 2; with depth bound 1 on y0: impossible.
        let w = WindowProblem { n: 4, targets: vec![0b0111, 0b1011], arrival: vec![0; 4], required: vec![usize::MAX; 2] };
        assert_eq!(solve_window(&w, 2, 1 << 20, Duration::from_secs(10)), WinResult::Unsat);
        let WinResult::Sat(l) = solve_window(&w, 3, 1 << 20, Duration::from_secs(10)) else { panic!() };
        assert_eq!(l.len(), 3);
        let w2 = WindowProblem { required: vec![1, usize::MAX], ..w.clone() };
        assert_eq!(solve_window(&w2, 3, 1 << 20, Duration::from_secs(10)), WinResult::Unsat);
        // Depth 2 for both, but x3 arrives at depth 2: y1 cannot be at depth 2.
        let w3 = WindowProblem { arrival: vec![0, 0, 0, 2], required: vec![2, 2], ..w };
        assert_eq!(solve_window(&w3, 3, 1 << 20, Duration::from_secs(10)), WinResult::Unsat);
        let w4 = WindowProblem { required: vec![2, 3], ..w3 };
        assert!(matches!(solve_window(&w4, 3, 1 << 20, Duration::from_secs(10)), WinResult::Sat(_)));
    }

    #[test]
    fn grown_windows_are_convex_and_small() {
        // Random programs: every grown window must contain each gate that lies on a path
        // between two of its gates (checked by plain reachability), and keep its limits.
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for case in 0..200 {
            let n = 6 + case % 10;
            let k = 20 + case * 3 % 150;
            let mut p = Program::new(n, 1);
            for i in 0..k {
                let a = rng.random_range(0..n + i);
                let mut b = rng.random_range(0..n + i);
                while b == a {
                    b = rng.random_range(0..n + i);
                }
                p.push(a, b);
            }
            p.outputs = vec![Out::Sig(n + k - 1)];
            // reach[g][h]: gate g reaches gate h (g == h included).
            let mut reach = vec![vec![false; k]; k];
            for h in 0..k {
                reach[h][h] = true;
                let (a, b) = p.ops[h];
                for s in [a, b].into_iter().filter(|&s| s >= n) {
                    for g in 0..k {
                        if reach[g][s - n] {
                            reach[g][h] = true;
                        }
                    }
                }
            }
            let opts = SatWinOptions { max_window: 4 + case % 9, max_inputs: 4 + case % 5, ..Default::default() };
            let us = users(&p);
            for _ in 0..20 {
                let Some(win) = grow_window(&p, &us, &opts, &mut rng) else { continue };
                assert!(win.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats: {win:?}");
                assert!(win.len() <= opts.max_window);
                let mut inw = vec![false; k];
                win.iter().for_each(|&g| inw[g] = true);
                assert!(window_inputs(&p, &inw, &win).len() <= opts.max_inputs);
                for g in 0..k {
                    let on_path = win.iter().any(|&a| reach[a][g]) && win.iter().any(|&b| reach[g][b]);
                    assert_eq!(inw[g], on_path, "case {case}, gate {g}, window {win:?}");
                }
            }
        }
    }

    #[test]
    fn polish_shortens_naive_mixslices_and_is_reproducible() {
        let m = crate::parse::parse_matrix(include_str!("../../../test-vectors/slp/proest_mixslices.txt")).unwrap();
        let p = Program::naive(&m);
        assert_eq!(p.xor_count(), 72);
        let opts = SatWinOptions { rounds: Some(80), max_window: 8, max_inputs: 6, effort: 2000, ..Default::default() };
        let (q, st) = sat_polish_stats(&p, &m, &opts, &mut ChaCha8Rng::seed_from_u64(3));
        q.verify(&m).unwrap();
        assert!(q.xor_count() < p.xor_count() - 5, "{} {st:?}", q.xor_count());
        assert!(st.improvements > 0);
        if st.time_outs == 0 {
            let (q2, st2) = sat_polish_stats(&p, &m, &opts, &mut ChaCha8Rng::seed_from_u64(3));
            if st2.time_outs == 0 {
                assert_eq!(q, q2);
            }
        }
    }

    /// The same with windows solved by helper-set enumeration: far more windows per second,
    /// bit-for-bit reproducible (node budgets). (The portfolio's exact-windows polisher on the
    /// same program is tested in `portfolio::tests`.)
    #[test]
    fn enumerated_windows_shorten_naive_mixslices() {
        let m = crate::parse::parse_matrix(include_str!("../../../test-vectors/slp/proest_mixslices.txt")).unwrap();
        let p = Program::naive(&m);
        let opts = SatWinOptions { rounds: Some(3000), enumerate: true, ..Default::default() };
        let (q, st) = sat_polish_stats(&p, &m, &opts, &mut ChaCha8Rng::seed_from_u64(3));
        q.verify(&m).unwrap();
        assert!(q.xor_count() <= 52 && st.improvements > 0 && st.plateau_moves > 0, "{} {st:?}", q.xor_count());
        let (q2, _) = sat_polish_stats(&p, &m, &opts, &mut ChaCha8Rng::seed_from_u64(3));
        assert_eq!(q, q2);
    }

    #[test]
    fn polish_keeps_depth_bound() {
        let m = crate::matrix::expand_gf256(&crate::matrix::circulant(&[2, 3, 1, 1]), 0x11b);
        let p = crate::paar::paar(&m, None);
        let d = p.depth();
        let opts = SatWinOptions { rounds: Some(60), max_depth: Some(d), max_window: 8, max_inputs: 6, effort: 2000, ..Default::default() };
        let (q, _) = sat_polish_stats(&p, &m, &opts, &mut ChaCha8Rng::seed_from_u64(5));
        q.verify(&m).unwrap();
        assert!(q.depth() <= d);
        assert!(q.xor_count() <= p.xor_count());
    }

    /// Enumerated windows under a depth bound: a found program is kept only when it meets the
    /// window's depths, so the bound holds, and the program still gets shorter.
    #[test]
    fn enumerated_windows_keep_depth_bound() {
        let w = WindowProblem { n: 3, targets: vec![0b111], arrival: vec![0, 0, 1], required: vec![2] };
        // (x0 + x1) + x2: depth 2; (x1 + x2) + x0: depth 3 because x2 arrives at depth 1.
        assert!(meets_depths(&w, &[(0, 1), (3, 2)]));
        assert!(!meets_depths(&w, &[(1, 2), (3, 0)]));
        let m = crate::matrix::expand_gf256(&crate::matrix::circulant(&[2, 3, 1, 1]), 0x11b);
        let p = crate::paar::paar(&m, None);
        let d = p.depth();
        let opts = SatWinOptions { rounds: Some(3000), max_depth: Some(d), enumerate: true, ..Default::default() };
        let (q, st) = sat_polish_stats(&p, &m, &opts, &mut ChaCha8Rng::seed_from_u64(5));
        q.verify(&m).unwrap();
        assert!(q.depth() <= d && q.xor_count() < p.xor_count(), "depth {d}: {} XORs, depth {} {st:?}", q.xor_count(), q.depth());
    }
}
