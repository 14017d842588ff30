//! Exact search: "is there a program with exactly k XORs?" as SAT, solved by CaDiCaL (through
//! the crate's own C-API wrapper, [`crate::cadical`]), for k = (number of distinct non-trivial rows), k+1, … (incremental k).
//!
//! # Encoding (in the style of Fuhs and Schneider-Kamp)
//! Line i (signal n+i) has one-hot operand selectors `op1[i][s]`, `op2[i][s]` over the earlier
//! signals, with op1 < op2, operand values `u1[i][j]`, `u2[i][j]` and value `v[i][j] = u1 ⊕ u2`
//! for every input bit j. Output selectors `out[r][i]` put each distinct target of weight ≥ 2 on
//! some line. On top of that the CNF restricts the programs it admits to a normal form; each
//! restriction keeps at least one program of every length that computes the matrix:
//! 1. **no dead code**: every line is an output or an operand of a later line;
//! 2. **no redundant lines**: every line differs from zero and from every input, and (option
//!    `distinct`, on by default) from every other line;
//! 3. **canonical order**: for lines i < j, if line j uses no line at position ≥ i (so it could
//!    stand at position i), then v(i) < v(j) as integers (bit n−1 most significant). This is
//!    the topological order that always places the smallest-valued ready line next; with
//!    distinct values it is unique, so it also breaks the symmetry between the orderings of
//!    one program. With the option `targets_first` the greedy order's key is (the line holds
//!    no target, value) instead of the value: if j could stand at i and holds a target, so does
//!    i, and v(i) < v(j) unless i holds a target and j does not. Any fixed key gives one
//!    topological order per program, so the argument below is unchanged;
//! 4. **re-association** (option `associativity`, on by default; see [`associativity`]): a line
//!    t that is no output and has exactly one user u = t + c satisfies depth(c) ≥ depth(t) − 1;
//!    and an output of weight w sits on a line of depth ≥ ⌈log2 w⌉ (a true property of every
//!    program, not a restriction).
//!
//! Nothing else is constrained: in particular there is no ordering of consecutive independent
//! lines by their operand pairs.
//!
//! **Why UNSAT for every k < L proves that no program has fewer than L XORs.** Take any
//! program with k' < L lines and rewrite it: (a) delete dead lines and lines equal to zero, an
//! input or an earlier line (replacing their uses); (b) while some line violates rule 4,
//! re-associate it as described in [`associativity`], then go back to (a); (c) reorder the
//! lines into the canonical order of rule 3 (a topological order: values, uses and depths do
//! not change). Each step of (a) lowers the number of lines; each step of (b) keeps it and
//! lowers the pair (Σ depths, multiset of the depths of the violating lines) — the argument is
//! at [`associativity`] — so the rewriting ends, with a program of k'' ≤ k' lines in normal
//! form. Every distinct target of weight ≥ 2 needs its own line, so k'' is at least the first k
//! tried, and the CNF for k'' is satisfiable: a contradiction with UNSAT for k''.
//!
//! Each k gets a fresh solver; with a proof directory the CNF of every k and CaDiCaL's DRAT
//! proof of every UNSAT answer are kept together with the matrix (`matrix.txt`), the encoding
//! options (`options.json`) and the answers (`result.json`), so that [`check_proof_dir`] (or
//! `slicewise slp check-proof DIR`) can rebuild every CNF and check every proof independently.

#![allow(clippy::needless_range_loop)] // index-heavy CNF construction reads best with indices

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use crate::cadical::{Solver, Status};

use crate::matrix::{BitMatrix, Row};
use crate::paar::nontrivial_targets;
pub use crate::matrix::target_automorphisms;
use crate::program::{Program, outputs_from_values};
pub use crate::satcaps::{Cap, CapReport};

/// A CNF under construction (DIMACS literals).
#[derive(Debug, Default)]
pub struct Cnf {
    /// Number of variables.
    pub vars: i32,
    /// Clauses.
    pub clauses: Vec<Vec<i32>>,
}

impl Cnf {
    pub(crate) fn var(&mut self) -> i32 {
        self.vars += 1;
        self.vars
    }
    pub(crate) fn add(&mut self, c: &[i32]) {
        self.clauses.push(c.to_vec());
    }
    /// DIMACS text.
    pub fn dimacs(&self, comment: &str) -> String {
        let mut s = String::with_capacity(self.clauses.len() * 16);
        for l in comment.lines() {
            let _ = writeln!(s, "c {l}");
        }
        let _ = writeln!(s, "p cnf {} {}", self.vars, self.clauses.len());
        for c in &self.clauses {
            for l in c {
                let _ = write!(s, "{l} ");
            }
            s.push_str("0\n");
        }
        s
    }
}

/// Variables of the encoding, needed to decode a model.
struct Enc {
    n: usize,
    k: usize,
    op1: Vec<Vec<i32>>,
    op2: Vec<Vec<i32>>,
    /// Per cap, the indicators of the lines it counts (empty if it constrains nothing).
    capt: Vec<Vec<i32>>,
}

/// Which optional parts of the encoding are on, and the solver configuration: everything
/// needed, with the matrix, to rebuild the CNF of a proof directory bit for bit. Stored there
/// as `options.json`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EncodeOptions {
    /// Lines differ from each other (off with `SLP_SAT_NODISTINCT`).
    pub distinct: bool,
    /// The re-association normal form and the depth/weight bound (off with `SLP_SAT_NOASSOC`).
    pub associativity: bool,
    /// CaDiCaL configuration (`SLP_SAT_CONFIG`: `unsat`, `sat` or `plain`), if any.
    pub solver_config: Option<String>,
    /// Break the symmetry of input permutations that map the target set onto itself (see
    /// [`symmetry`]; off with `SLP_SAT_NOSYM`). Absent from proof directories written before
    /// it existed, which therefore read as `false`.
    #[serde(default)]
    pub automorphisms: bool,
    /// Rule 3 with targets first: the greedy order places a ready line that holds a target
    /// before any other ready line, and compares values only within the two kinds (opt-in with
    /// `SLP_SAT_TARGETFIRST`; measured 1.4–1.5× faster on the random 8×8 matrices, no gain on
    /// MixSlices). Absent from older proof directories, which read as `false`.
    #[serde(default)]
    pub targets_first: bool,
    /// Caps from the restriction lemma ([`crate::satcaps`]): at most k − LB lines take an
    /// operand from the cap's inputs. Empty by default; [`exact`] fills them in with
    /// [`ExactOptions::caps`]. Absent from older proof directories, which read as empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub caps: Vec<Cap>,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions { distinct: true, associativity: true, solver_config: None, automorphisms: true, targets_first: false, caps: Vec::new() }
    }
}

impl EncodeOptions {
    /// The defaults, changed by the experiment variables `SLP_SAT_NODISTINCT`,
    /// `SLP_SAT_NOASSOC`, `SLP_SAT_NOSYM`, `SLP_SAT_TARGETFIRST` and `SLP_SAT_CONFIG`.
    pub fn from_env() -> Self {
        EncodeOptions {
            distinct: std::env::var_os("SLP_SAT_NODISTINCT").is_none(),
            associativity: std::env::var_os("SLP_SAT_NOASSOC").is_none(),
            solver_config: std::env::var("SLP_SAT_CONFIG").ok().filter(|c| ["unsat", "sat", "plain"].contains(&c.as_str())),
            automorphisms: std::env::var_os("SLP_SAT_NOSYM").is_none(),
            targets_first: std::env::var_os("SLP_SAT_TARGETFIRST").is_some(),
            caps: Vec::new(),
        }
    }
}

/// Line `val.len()` of the encoding: one-hot operand selectors `a`, `b` over the `n` inputs and
/// the earlier lines (op1 < op2), the value bits `v` = u1 ⊕ u2, not zero and not an input, and,
/// with `distinct`, different from every earlier line. Returns `(a, b, v)`. Shared with the
/// window encoding of `satwin.rs`.
pub(crate) fn encode_line(f: &mut Cnf, n: usize, val: &[Vec<i32>], distinct: bool) -> (Vec<i32>, Vec<i32>, Vec<i32>) {
    let ns = n + val.len();
    let a: Vec<i32> = (0..ns).map(|_| f.var()).collect();
    let b: Vec<i32> = (0..ns).map(|_| f.var()).collect();
    // Exactly one each.
    for sel in [&a, &b] {
        f.add(sel);
        for x in 0..ns {
            for y in x + 1..ns {
                f.add(&[-sel[x], -sel[y]]);
            }
        }
    }
    // op1 < op2.
    for s in 0..ns {
        for t in 0..=s {
            f.add(&[-a[s], -b[t]]);
        }
    }
    let u1: Vec<i32> = (0..n).map(|_| f.var()).collect();
    let u2: Vec<i32> = (0..n).map(|_| f.var()).collect();
    let v: Vec<i32> = (0..n).map(|_| f.var()).collect();
    for (sel, u) in [(&a, &u1), (&b, &u2)] {
        for s in 0..ns {
            for j in 0..n {
                if s < n {
                    // Input s: bit j is 1 iff j == s.
                    f.add(&[-sel[s], if s == j { u[j] } else { -u[j] }]);
                } else {
                    let pv = val[s - n][j];
                    f.add(&[-sel[s], -pv, u[j]]);
                    f.add(&[-sel[s], pv, -u[j]]);
                }
            }
        }
    }
    for j in 0..n {
        f.add(&[-v[j], u1[j], u2[j]]);
        f.add(&[-v[j], -u1[j], -u2[j]]);
        f.add(&[v[j], -u1[j], u2[j]]);
        f.add(&[v[j], u1[j], -u2[j]]);
    }
    // Not zero, not an input.
    f.add(&v);
    for j in 0..n {
        let mut c: Vec<i32> = vec![-v[j]];
        c.extend((0..n).filter(|&x| x != j).map(|x| v[x]));
        f.add(&c);
    }
    // Different from every earlier line.
    for pv in val.iter().filter(|_| distinct) {
        let d: Vec<i32> = (0..n).map(|_| f.var()).collect();
        for j in 0..n {
            f.add(&[-d[j], v[j], pv[j]]);
            f.add(&[-d[j], -v[j], -pv[j]]);
        }
        f.add(&d);
    }
    (a, b, v)
}


/// Builds the CNF for "a program with exactly `k` XORs computes the distinct non-trivial rows".
fn encode(n: usize, targets: &[Row], k: usize, opts: &EncodeOptions) -> (Cnf, Enc) {
    let mut f = Cnf::default();
    let mut op1 = Vec::with_capacity(k);
    let mut op2 = Vec::with_capacity(k);
    let mut val: Vec<Vec<i32>> = Vec::with_capacity(k);
    for _ in 0..k {
        let (a, b, v) = encode_line(&mut f, n, &val, opts.distinct);
        op1.push(a);
        op2.push(b);
        val.push(v);
    }
    // Outputs. A target of weight w has a cone of at least w - 1 lines, all at or before the
    // line computing it, so it cannot stand on lines 0..w-2.
    let mut outs: Vec<Vec<i32>> = Vec::new();
    for t in targets {
        let o: Vec<i32> = (0..k).map(|_| f.var()).collect();
        f.add(&o);
        let w = t.count_ones() as usize;
        for &oi in o.iter().take(w.saturating_sub(2)) {
            f.add(&[-oi]);
        }
        for i in 0..k {
            for j in 0..n {
                f.add(&[-o[i], if t >> j & 1 == 1 { val[i][j] } else { -val[i][j] }]);
            }
        }
        outs.push(o);
    }
    // Counting (CDCL cannot count on its own: without this, "16 targets on the 13 lines that
    // can hold them" is a pigeonhole problem). A line holds at most one target, a target sits
    // on at most one line, and a sequential counter asserts that exactly |T| lines hold one.
    let nt = targets.len();
    let mut holds: Vec<i32> = Vec::with_capacity(k);
    for i in 0..k {
        for r in 0..nt {
            for r2 in r + 1..nt {
                f.add(&[-outs[r][i], -outs[r2][i]]);
            }
        }
        let h = f.var();
        let mut c = vec![-h];
        c.extend(outs.iter().map(|o| o[i]));
        f.add(&c);
        for o in &outs {
            f.add(&[-o[i], h]);
        }
        holds.push(h);
    }
    for o in &outs {
        for i in 0..k {
            for i2 in i + 1..k {
                f.add(&[-o[i], -o[i2]]);
            }
        }
    }
    if nt > 0 {
        // cnt[c] after line i: "at least c of holds[0..=i]" (only the sound direction).
        let t_true = f.var();
        f.add(&[t_true]);
        let mut prev: Vec<i32> = (0..=nt).map(|c| if c == 0 { t_true } else { -t_true }).collect();
        for &h in &holds {
            let mut cur = vec![t_true];
            for c in 1..=nt {
                let v = f.var();
                f.add(&[-v, prev[c], prev[c - 1]]);
                f.add(&[-v, prev[c], h]);
                // and the completing direction, so the counter also propagates forwards
                f.add(&[v, -prev[c]]);
                f.add(&[v, -prev[c - 1], -h]);
                cur.push(v);
            }
            prev = cur;
        }
        f.add(&[prev[nt]]);
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
    if opts.associativity {
        let dep = associativity(&mut f, n, k, &op1, &op2, &outs);
        // A line of depth d has weight at most 2^d.
        for (t, o) in targets.iter().zip(&outs) {
            let need = (t.count_ones() as usize).next_power_of_two().trailing_zeros() as usize;
            for i in 0..k {
                if need < dep[n + i].len() {
                    f.add(&[-o[i], dep[n + i][need]]);
                }
            }
        }
    }
    if opts.automorphisms {
        symmetry(&mut f, n, k, targets, &op1, &op2);
    }
    let capt = crate::satcaps::encode_caps(&mut f, n, k, &op1, &op2, &val, &opts.caps);
    // Canonical order: the greedy topological order that always places the smallest-valued
    // ready line next. If line j could stand at position i (it uses no line >= i), then
    // val(i) < val(j) as integers (bit n-1 most significant).
    for j in 1..k {
        for i in 0..j {
            let r = f.var();
            for s in 0..n + i {
                f.add(&[-op2[j][s], r]);
            }
            let mut g = r;
            if opts.targets_first {
                // Targets first (key: not a target, then the value): if j could stand at i and
                // holds a target, so does i; the value order applies unless i holds a target
                // and j does not.
                f.add(&[-r, -holds[j], holds[i]]);
                let g0 = f.var();
                f.add(&[-r, holds[i], g0]);
                f.add(&[-r, -holds[j], g0]);
                g = g0;
            }
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
    (f, Enc { n, k, op1, op2, capt })
}

/// Symmetry breaking for input permutations. If τ permutes the inputs and maps the target set
/// onto itself, renaming the inputs by τ turns a program into a program for the same targets
/// with the same number of lines and the same operand graph. That keeps rules 1, 2 and 4 of
/// the normal form (they refer to uses, depths, equalities and the set of outputs only), and
/// re-ordering the lines canonically restores rule 3. So the programs in normal form fall into
/// orbits of the group G of such τ, and the CNF may keep one program per orbit.
///
/// The invariant compared: the set B(P) of input pairs {a, b} that P adds directly (a line
/// with both operands inputs), as a bit vector u over all pairs in ascending order of the
/// value x_a ⊕ x_b (bit n−1 most significant). Renaming maps B(P) to τ(B(P)). The CNF
/// requires u(B) ≥lex u(τ(B)) (1 before 0 at the first difference) for every τ found. In
/// each orbit, the program whose vector is lexicographically largest satisfies this against
/// every element of G, so every orbit keeps a program, also when only a subset of G is used.
fn symmetry(f: &mut Cnf, n: usize, k: usize, targets: &[Row], op1: &[Vec<i32>], op2: &[Vec<i32>]) {
    let group = target_automorphisms(n, targets, 64);
    if group.len() <= 1 {
        return;
    }
    // Pairs a < b in ascending order of 2^a + 2^b.
    let mut pairs: Vec<(usize, usize)> = (0..n).flat_map(|b| (0..b).map(move |a| (a, b))).collect();
    pairs.sort_by_key(|&(a, b)| (1u128 << a) | (1u128 << b));
    let index = |a: usize, b: usize| pairs.iter().position(|&p| p == (a.min(b), a.max(b))).expect("pair");
    // u[p] <-> some line adds the inputs of pair p.
    let mut u = Vec::with_capacity(pairs.len());
    for &(a, b) in &pairs {
        let up = f.var();
        let mut any = vec![-up];
        for j in 0..k {
            let s = f.var();
            f.add(&[-s, op1[j][a]]);
            f.add(&[-s, op2[j][b]]);
            f.add(&[s, -op1[j][a], -op2[j][b]]);
            f.add(&[-s, up]);
            any.push(s);
        }
        f.add(&any);
        u.push(up);
    }
    for tau in group.iter().skip(1) {
        // The image set contains the pair {i, j} iff B contains {tau[i], tau[j]}.
        let w: Vec<i32> = pairs.iter().map(|&(a, b)| u[index(tau[a], tau[b])]).collect();
        // e: "u and w agree on all pairs so far" (0 stands for the constant true).
        let mut e = 0i32;
        for p in 0..pairs.len() {
            if u[p] == w[p] {
                continue;
            }
            let guard: Vec<i32> = if e == 0 { Vec::new() } else { vec![-e] };
            // e -> u[p] >= w[p]
            f.add(&[&guard[..], &[u[p], -w[p]]].concat());
            // e and u[p] == w[p] -> e2
            let e2 = f.var();
            f.add(&[&guard[..], &[u[p], w[p], e2]].concat());
            f.add(&[&guard[..], &[-u[p], -w[p], e2]].concat());
            e = e2;
        }
    }
}

/// Re-association normal form. Depth variables `dep[i][d]` ("line i has depth ≥ d") are
/// exact. For a line t that is no output and has a single user u = t + c, require
/// depth(c) ≥ depth(t) − 1: the single-use line combines the two shallowest of the three
/// operands of u.
///
/// Any program can be brought into this form without adding lines. Let t = a + b violate it,
/// with depth(a) ≤ depth(b), so depth(t) = depth(b) + 1 and depth(c) < depth(b). Re-pair
/// u = (a + b) + c as t' = a + c, u = t' + b: the line count and the value of u stay, only the
/// value of t changes (t had no other user and is no output).
/// * If depth(a) < depth(b): depth(t') = 1 + max(depth(a), depth(c)) < depth(t), so t' and u
///   (and possibly lines after u) get shallower and **Σ depths strictly decreases**.
/// * If depth(a) = depth(b): depth(t') = depth(t) and no depth changes, so Σ depths stays the
///   same; a second measure is needed. The violation at t is gone (t''s single user u now has
///   the other operand b, depth(b) = depth(t') − 1); the only line that can newly violate the
///   rule is a (its single user is now t', with the other operand c, and depth(c) may be
///   < depth(a) − 1); b's new partner t' is deeper than its old one, and c's new partner a
///   has depth(a) = depth(b) > depth(c), so neither violates it. So one violating line of
///   depth depth(t) is replaced by at most one of depth depth(t) − 1: **the multiset of the
///   depths of the violating lines strictly decreases** (multiset order, well-founded).
///
/// t' may equal zero, an input or another line; removing it lowers the line count. So the
/// triple (lines, Σ depths, multiset of violating depths) decreases lexicographically at every
/// step and the rewriting terminates.
fn associativity(f: &mut Cnf, n: usize, k: usize, op1: &[Vec<i32>], op2: &[Vec<i32>], outs: &[Vec<i32>]) -> Vec<Vec<i32>> {
    let dmax = k + 1;
    // dep[s][d] for every signal; inputs have depth 0 (constant false for d >= 1).
    let t_true = f.var();
    f.add(&[t_true]);
    let mut dep: Vec<Vec<i32>> = vec![vec![-t_true; dmax + 1]; n + k];
    for row in dep.iter_mut().take(n) {
        row[0] = t_true;
    }
    // od1[i][d], od2[i][d]: depth of operand ≥ d (d in 1..=dmax).
    let mut od: Vec<[Vec<i32>; 2]> = Vec::with_capacity(k);
    for i in 0..k {
        let ns = n + i;
        let mut pair: [Vec<i32>; 2] = [vec![-t_true; dmax + 1], vec![-t_true; dmax + 1]];
        for (w, sel) in [&op1[i], &op2[i]].into_iter().enumerate() {
            for d in 1..dmax {
                let v = f.var();
                for s in 0..ns {
                    let sd = dep[s][d];
                    // op selects s: v <-> dep[s][d]
                    f.add(&[-sel[s], -sd, v]);
                    f.add(&[-sel[s], sd, -v]);
                }
                pair[w][d] = v;
            }
        }
        let mut row = vec![-t_true; dmax + 1];
        row[0] = t_true;
        row[1] = t_true;
        for d in 2..=dmax {
            let v = f.var();
            // dep[i][d] <-> od1[d-1] or od2[d-1]
            f.add(&[-v, pair[0][d - 1], pair[1][d - 1]]);
            f.add(&[v, -pair[0][d - 1]]);
            f.add(&[v, -pair[1][d - 1]]);
            row[d] = v;
        }
        dep[n + i] = row;
        od.push(pair);
    }
    for t in 0..k {
        let ts = n + t;
        // isout -> some output selector on t.
        let isout = f.var();
        let mut c = vec![-isout];
        c.extend(outs.iter().map(|o| o[t]));
        f.add(&c);
        // use[u]: line u uses t. c1/c2: at least one / two users among t+1..=u (only the
        // "really" directions are needed: the solver must not claim two users falsely).
        let mut c1_prev = -t_true;
        let mut c2_prev = -t_true;
        for u in t + 1..k {
            let use_u = f.var();
            f.add(&[-use_u, op1[u][ts], op2[u][ts]]);
            f.add(&[use_u, -op1[u][ts]]);
            f.add(&[use_u, -op2[u][ts]]);
            let c1 = f.var();
            let c2 = f.var();
            f.add(&[-c1, c1_prev, use_u]);
            f.add(&[c1, -c1_prev]);
            f.add(&[c1, -use_u]);
            f.add(&[-c2, c2_prev, c1_prev]);
            f.add(&[-c2, c2_prev, use_u]);
            f.add(&[c2, -c2_prev]);
            f.add(&[c2, -c1_prev, -use_u]);
            c1_prev = c1;
            c2_prev = c2;
        }
        let multi = c2_prev;
        for u in t + 1..k {
            for d in 1..dmax {
                // t is op1 of u: other operand is op2 (od[u][1]); t is op2: other is op1.
                f.add(&[isout, multi, -op1[u][ts], -dep[ts][d + 1], od[u][1][d]]);
                f.add(&[isout, multi, -op2[u][ts], -dep[ts][d + 1], od[u][0][d]]);
            }
        }
    }
    dep
}

fn tag_of(r: &KResult) -> &'static str {
    match r {
        KResult::Sat(_) => "sat",
        KResult::Unsat => "unsat",
        KResult::Unknown => "timeout",
    }
}

/// Outcome of one k.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KResult {
    /// A program with k XORs.
    Sat(Program),
    /// Proven: no program with exactly k XORs (in normal form).
    Unsat,
    /// Time ran out.
    Unknown,
}

/// The DIMACS text of the CNF for `k` (as written to, and compared with, `kK.cnf`).
fn cnf_text(m: &BitMatrix, k: usize, opts: &EncodeOptions) -> String {
    let (cnf, _) = encode(m.cols(), &nontrivial_targets(m), k, opts);
    cnf_dimacs(&cnf, m, k)
}

fn cnf_dimacs(cnf: &Cnf, m: &BitMatrix, k: usize) -> String {
    cnf.dimacs(&format!("slicewise slp exact: is there a {k}-XOR program? {}x{} matrix {}", m.rows(), m.cols(), m.fingerprint()))
}

/// The cubes that split the CNF for k on `workers` > 1 threads, on the cap with the fewest
/// redundant lines allowed (at least one): cube `cC-J` says that line J is the first line
/// that cap C counts (its indicator true, those of the lines before it false), and `cC-none`
/// that the cap counts no line. They cover every assignment. Without such a cap, or with
/// `workers` ≤ 1, the single empty cube (the whole CNF).
fn cubes(enc: &Enc, caps: &[Cap], workers: usize) -> Vec<(String, Vec<i32>)> {
    let whole = vec![(String::new(), Vec::new())];
    if workers <= 1 {
        return whole;
    }
    let best = (0..caps.len()).filter(|&c| !enc.capt[c].is_empty() && enc.k > caps[c].sub_bound).min_by_key(|&c| (enc.k - caps[c].sub_bound, c));
    let Some(c) = best else { return whole };
    let t = &enc.capt[c];
    let mut v: Vec<(String, Vec<i32>)> = (0..t.len()).map(|j| (format!("c{c}-{j}"), t[..j].iter().map(|&x| -x).chain([t[j]]).collect())).collect();
    v.push((format!("c{c}-none"), t.iter().map(|&x| -x).collect()));
    v
}

/// Name of the DRAT proof of cube `cube` (empty: the whole CNF) for k.
fn drat_name(k: usize, cube: &str) -> String {
    if cube.is_empty() { format!("k{k}.drat") } else { format!("k{k}.{cube}.drat") }
}

/// One k, stopped at `deadline` or once `stop_above` falls below `k` (a smaller k ended the
/// chain). With `workers` > 1 the CNF is split into [`cubes`], each solved by a fresh solver
/// (with its own DRAT proof) on `workers` threads; otherwise one fresh solver takes it whole.
#[allow(clippy::too_many_arguments)]
fn solve_k(
    n: usize,
    targets: &[Row],
    k: usize,
    deadline: Instant,
    stop_above: Option<Arc<AtomicUsize>>,
    proof: Option<&Path>,
    m: &BitMatrix,
    opts: &EncodeOptions,
    workers: usize,
) -> Result<(KResult, Duration)> {
    let start = Instant::now();
    let (cnf, enc) = encode(n, targets, k, opts);
    if let Some(dir) = proof {
        let cnf_path = dir.join(format!("k{k}.cnf"));
        std::fs::write(&cnf_path, cnf_dimacs(&cnf, m, k)).with_context(|| format!("writing {}", cnf_path.display()))?;
    }
    let cubes = cubes(&enc, &opts.caps, workers);
    // Set when a cube is satisfiable or times out: the others need not go on.
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Result<KResult>>> = Mutex::new(Vec::new());
    let solve_cube = |cube: &(String, Vec<i32>)| -> Result<KResult> {
        let mut s = Solver::new();
        if let Some(cfg) = &opts.solver_config {
            s.configure(cfg)?;
        }
        if let Some(dir) = proof {
            s.trace_proof(&dir.join(drat_name(k, &cube.0)), true).context("attaching the DRAT tracer")?;
        }
        for c in &cnf.clauses {
            s.add_clause(c);
        }
        for &l in &cube.1 {
            s.add_clause(&[l]);
        }
        let (stop, done) = (stop_above.clone(), done.clone());
        s.set_terminator(move || Instant::now() >= deadline || done.load(Ordering::Relaxed) || stop.as_ref().is_some_and(|a| a.load(Ordering::Relaxed) < k));
        let res = s.solve();
        s.close_proof();
        Ok(match res {
            Status::Unsat => KResult::Unsat,
            Status::Interrupted => KResult::Unknown,
            Status::Sat => {
                let mut p = Program::new(enc.n, m.rows());
                for i in 0..enc.k {
                    let pick = |sel: &Vec<i32>| -> Result<usize> {
                        for (x, &l) in sel.iter().enumerate() {
                            if s.value(l) {
                                return Ok(x);
                            }
                        }
                        anyhow::bail!("model without operand")
                    };
                    let (a, b) = (pick(&enc.op1[i])?, pick(&enc.op2[i])?);
                    p.push(a, b);
                }
                let vals = p.values();
                outputs_from_values(&mut p, &vals, m.row_bits());
                p.verify(m).map_err(|e| anyhow::anyhow!("internal error: SAT model does not verify: {e}"))?;
                KResult::Sat(p)
            }
        })
    };
    std::thread::scope(|sc| {
        for _ in 0..workers.clamp(1, cubes.len()) {
            sc.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    let Some(cube) = cubes.get(next.fetch_add(1, Ordering::Relaxed)) else { break };
                    let r = solve_cube(cube);
                    if !matches!(r, Ok(KResult::Unsat)) {
                        done.store(true, Ordering::Relaxed);
                    }
                    results.lock().expect("cubes").push(r);
                }
            });
        }
    });
    // SAT wins; then an error; then a time-out (or a cube never started); else UNSAT.
    let results = results.into_inner().expect("cubes");
    let all = results.len() == cubes.len();
    let mut out = if all { KResult::Unsat } else { KResult::Unknown };
    let mut error = None;
    for r in results {
        match r {
            Ok(KResult::Sat(p)) => return Ok((KResult::Sat(p), start.elapsed())),
            Ok(KResult::Unknown) => out = KResult::Unknown,
            Ok(KResult::Unsat) => {}
            Err(e) => error = Some(e),
        }
    }
    match error {
        Some(e) => Err(e),
        None => Ok((out, start.elapsed())),
    }
}

/// Answers "is there a program with exactly `k` XORs?" for `m` (one fresh solver).
pub fn solve_exactly(m: &BitMatrix, k: usize, time_limit: Duration, proof: Option<&Path>) -> Result<(KResult, Duration)> {
    solve_k(m.cols(), &nontrivial_targets(m), k, Instant::now() + time_limit, None, proof, m, &EncodeOptions::from_env(), 1)
}

/// Options of [`exact`].
#[derive(Debug, Clone)]
pub struct ExactOptions {
    /// Overall deadline.
    pub time_limit: Duration,
    /// Keep CNFs and DRAT proofs here.
    pub proof_dir: Option<PathBuf>,
    /// A known program (upper bound); the search stops below its length.
    pub upper: Option<Program>,
    /// The encoding ([`EncodeOptions::from_env`] for the command line).
    pub encoding: EncodeOptions,
    /// Stop after this k (the lower bound is then at most `max_k + 1`).
    pub max_k: Option<usize>,
    /// Use a non-empty proof directory anyway, after deleting the files a previous run left
    /// there (`kK.cnf`, `kK.drat`, `matrix.txt`, `options.json`, `result.json`, `README.txt`,
    /// `restriction.json`, `cap-*` directories).
    pub force: bool,
    /// Solvers run at once: on the values of k (k, k + 1, … in parallel; a k that ends the
    /// chain stops the larger ones) and on the caps' searches.
    pub threads: usize,
    /// Levels of caps ([`crate::satcaps`]): 0 for none; 1 proves a bound for the matrix
    /// without each column first (in `cap-C` sub-directories of the proof directory) and adds
    /// the caps to every CNF; 2 does the same inside each of those searches.
    pub caps: usize,
    /// Share of the time limit for the caps' searches (their bounds are whatever they proved
    /// by then).
    pub cap_share: f64,
    /// With more than one thread and caps: split each k into cubes on the cap that allows
    /// the fewest lines (which line it counts first; cube-and-conquer, one DRAT proof per
    /// cube) and give the threads to the cubes, one k at a time, instead of running k, k + 1,
    /// … at once.
    pub split: bool,
}

impl ExactOptions {
    /// A search with this time limit, the default encoding, no proofs, no upper bound, one
    /// thread and no caps.
    pub fn new(time_limit: Duration) -> Self {
        ExactOptions { time_limit, proof_dir: None, upper: None, encoding: EncodeOptions::default(), max_k: None, force: false, threads: 1, caps: 0, cap_share: 0.3, split: false }
    }
}

/// Progress of [`exact_reporting`].
#[derive(Debug, Clone, Copy)]
pub enum Progress<'a> {
    /// The answer for k (`"sat"`, `"unsat"` or `"timeout"`) and its seconds.
    K(usize, &'a str, f64),
    /// A cap's search ended.
    Cap(&'a CapReport),
}

/// Whether `name` is a file that [`exact`] writes into a proof directory.
fn is_proof_file(name: &str) -> bool {
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    let k_file = |ext: &str| name.strip_prefix('k').and_then(|r| r.strip_suffix(ext)).is_some_and(digits);
    // kK.cA-B.drat: the proof of one cube.
    let cube_file = || {
        let Some((k, cube)) = name.strip_prefix('k').and_then(|r| r.strip_suffix(".drat")).and_then(|r| r.split_once(".c")) else { return false };
        digits(k) && cube.split_once('-').is_some_and(|(c, j)| digits(c) && (digits(j) || j == "none"))
    };
    k_file(".cnf") || k_file(".drat") || cube_file() || ["matrix.txt", "options.json", "result.json", "README.txt", crate::restrict::RESTRICTION_FILE].contains(&name)
}

/// Creates the proof directory, or empties one a previous run left (only with `force`; any
/// other file in it is an error, so that nothing else is ever deleted).
fn prepare_proof_dir(dir: &Path, force: bool) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut ours = Vec::new();
    let mut subdirs = Vec::new();
    for e in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        if e.file_type()?.is_dir() && crate::satcaps::is_cap_dir_name(&name) {
            subdirs.push(e.path());
            continue;
        }
        if !is_proof_file(&name) {
            anyhow::bail!("proof directory {} contains {name:?}, which slp exact did not write: use an empty directory", dir.display());
        }
        ours.push(e.path());
    }
    let empty = ours.is_empty() && subdirs.is_empty();
    if !empty && !force {
        anyhow::bail!("proof directory {} is not empty (a previous run's proofs): use --force to replace them", dir.display());
    }
    // A caps' sub-directory is emptied by the same rules (so nothing foreign goes), then removed.
    for d in subdirs {
        prepare_proof_dir(&d, true)?;
        std::fs::remove_dir(&d).with_context(|| format!("removing {}", d.display()))?;
    }
    for p in ours {
        std::fs::remove_file(&p).with_context(|| format!("removing {}", p.display()))?;
    }
    Ok(())
}

/// `options.json` of a proof directory.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct ProofOptions {
    format: String,
    rows: usize,
    cols: usize,
    fingerprint: String,
    encoding: EncodeOptions,
}

const PROOF_FORMAT: &str = "slicewise-slp-exact-proof-1";

/// `result.json` of a proof directory: the answer for every k tried, the bound claimed.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
struct ProofResult {
    answers: Vec<(usize, String)>,
    lower_bound: usize,
    optimal: bool,
    /// The k whose CNF was split into cubes: one proof `kK.cA-B.drat` per cube.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    split: Vec<usize>,
}

/// Result of [`exact`].
#[derive(Debug, Clone)]
pub struct ExactReport {
    /// Best program (from SAT, or the given upper bound).
    pub program: Option<Program>,
    /// Largest L proven: no program has fewer than L XORs.
    pub lower_bound: usize,
    /// Whether `program` is proven optimal.
    pub optimal: bool,
    /// (k, outcome, seconds) per solver call.
    pub log: Vec<(usize, &'static str, f64)>,
}

/// Runs the incremental-k exact search; `on_k` hears every k's answer.
pub fn exact(m: &BitMatrix, opts: &ExactOptions, mut on_k: impl FnMut(usize, &str, f64) + Send) -> Result<ExactReport> {
    exact_reporting(m, opts, |p| {
        if let Progress::K(k, tag, t) = p {
            on_k(k, tag, t);
        }
    })
}

/// [`exact`], reporting the caps' searches as well.
pub fn exact_reporting(m: &BitMatrix, opts: &ExactOptions, mut on: impl FnMut(Progress<'_>) + Send) -> Result<ExactReport> {
    let start = Instant::now();
    let deadline = start + opts.time_limit;
    let targets = nontrivial_targets(m);
    let n = m.cols();
    let mut lower = targets.len();
    let mut best = opts.upper.clone();
    let on: Mutex<&mut (dyn FnMut(Progress<'_>) + Send)> = Mutex::new(&mut on);
    if let Some(dir) = &opts.proof_dir {
        prepare_proof_dir(dir, opts.force)?;
        std::fs::write(dir.join("matrix.txt"), m.to_text())?;
    }
    let mut encoding = opts.encoding.clone();
    if opts.caps > 0 && best.as_ref().is_none_or(|b| b.xor_count() > lower) {
        let cap_deadline = start + opts.time_limit.mul_f64(opts.cap_share.clamp(0.0, 1.0));
        encoding.caps = crate::satcaps::prove_caps(m, opts, cap_deadline, &on)?;
    }
    if let Some(dir) = &opts.proof_dir {
        let o = ProofOptions { format: PROOF_FORMAT.into(), rows: m.rows(), cols: m.cols(), fingerprint: m.fingerprint(), encoding: encoding.clone() };
        std::fs::write(dir.join("options.json"), serde_json::to_string_pretty(&o)? + "\n")?;
    }
    // The chain: k = lower, lower + 1, … up to the known program's length minus one and
    // `max_k`, on `threads` workers that take the next k in turn. `stop` is the smallest k
    // that did not end UNSAT; larger k are then of no use, and their solvers stop.
    let last = best.as_ref().map_or(usize::MAX, |b| b.xor_count().saturating_sub(1)).min(opts.max_k.unwrap_or(usize::MAX));
    let next = AtomicUsize::new(lower);
    let stop = Arc::new(AtomicUsize::new(usize::MAX));
    let answers: Mutex<Vec<(usize, KResult, f64)>> = Mutex::new(Vec::new());
    let errors: Mutex<Vec<anyhow::Error>> = Mutex::new(Vec::new());
    // With `split` (and caps to split on), the threads go to the cubes of one k at a time.
    let split = opts.split && opts.threads > 1 && !encoding.caps.is_empty();
    let (chain_workers, cube_workers) = if split { (1, opts.threads) } else { (opts.threads.max(1), 1) };
    std::thread::scope(|s| {
        for _ in 0..chain_workers {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k > last || k > stop.load(Ordering::Relaxed) || Instant::now() >= deadline {
                        break;
                    }
                    match solve_k(n, &targets, k, deadline, Some(stop.clone()), opts.proof_dir.as_deref(), m, &encoding, cube_workers) {
                        Ok((r, t)) => {
                            if !matches!(r, KResult::Unsat) {
                                stop.fetch_min(k, Ordering::Relaxed);
                            }
                            let stopped = matches!(r, KResult::Unknown) && stop.load(Ordering::Relaxed) < k;
                            if !stopped {
                                (on.lock().expect("progress"))(Progress::K(k, tag_of(&r), t.as_secs_f64()));
                            }
                            answers.lock().expect("answers").push((k, r, t.as_secs_f64()));
                        }
                        Err(e) => {
                            stop.fetch_min(k, Ordering::Relaxed);
                            errors.lock().expect("errors").push(e);
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = errors.into_inner().expect("errors").into_iter().next() {
        return Err(e);
    }
    let mut answers = answers.into_inner().expect("answers");
    answers.sort_by_key(|a| a.0);
    let mut log = Vec::new();
    let mut optimal = false;
    let mut used = 0;
    for (k, r, t) in &answers {
        if *k != lower {
            break;
        }
        used += 1;
        log.push((*k, tag_of(r), *t));
        match r {
            KResult::Sat(p) => {
                let mut p = p.clone();
                p.meta.algorithm = "sat-cadical".into();
                best = Some(p);
                break;
            }
            KResult::Unsat => lower = k + 1,
            KResult::Unknown => break,
        }
    }
    if let Some(b) = &best
        && b.xor_count() <= lower
    {
        optimal = true;
    }
    // The files of k past the end of the chain (stopped, or answered after a smaller k ended
    // it) prove nothing: remove them.
    if let Some(dir) = &opts.proof_dir {
        let unused: Vec<String> = answers[used..].iter().map(|a| format!("k{}.", a.0)).collect();
        for e in std::fs::read_dir(dir)?.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if unused.iter().any(|u| name.starts_with(u.as_str())) && is_proof_file(&name) {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
    if let Some(b) = &mut best {
        b.set_bound_note(optimal, lower);
    }
    if let Some(dir) = &opts.proof_dir {
        let mut readme = String::from("CNF files kK.cnf ask \"is there a program with exactly K XORs?\" (see crates/slp/src/sat.rs)\n");
        readme.push_str("for the matrix in matrix.txt with the encoding in options.json.\n");
        readme.push_str("For every K answered UNSAT, kK.drat is CaDiCaL's binary DRAT proof. `slicewise slp check-proof DIR`\n");
        readme.push_str("re-encodes every kK.cnf from matrix.txt and options.json, compares, and checks each proof with\n");
        readme.push_str("the `rate` DRAT checker (`rate kK.cnf kK.drat`; `drat-trim kK.cnf kK.drat` works as well).\n");
        if !encoding.caps.is_empty() {
            readme.push_str("The CNFs carry caps (crates/slp/src/satcaps.rs, the `caps` of options.json): each cap-C directory is\n");
            readme.push_str("a proof directory of the same kind for the matrix without column(s) C, proving the cap's bound.\n");
        }
        for (k, tag, t) in &log {
            let _ = writeln!(readme, "k={k}: {tag} in {t:.2} s");
        }
        let _ = writeln!(readme, "lower bound: {lower}{}", if optimal { " (optimal program found)" } else { "" });
        std::fs::write(dir.join("README.txt"), readme)?;
        let answers = log.iter().map(|(k, tag, _)| (*k, tag.to_string())).collect();
        let split = if split { log.iter().map(|l| l.0).collect() } else { Vec::new() };
        let res = ProofResult { answers, lower_bound: lower, optimal, split };
        std::fs::write(dir.join("result.json"), serde_json::to_string_pretty(&res)? + "\n")?;
    }
    Ok(ExactReport { program: best, lower_bound: lower, optimal, log })
}

/// The exact method behind [`exact_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Helper-set enumeration ([`crate::enumerate`]): up to 20 inputs, far faster there, no proof.
    Enumerate,
    /// This module's SAT search, whose refutations can be kept as DRAT proofs.
    Sat,
}

impl Method {
    /// The method for a matrix with `cols` inputs: `requested`, or by default SAT when proofs
    /// are asked for or the matrix is too wide to enumerate, the enumeration otherwise.
    pub fn choose(requested: Option<Method>, cols: usize, proofs: bool) -> Result<Method> {
        use crate::enumerate::MAX_INPUTS;
        match requested {
            Some(Method::Enumerate) if proofs => anyhow::bail!("proofs need the SAT method: the enumeration leaves no proof"),
            Some(Method::Enumerate) if cols > MAX_INPUTS => {
                anyhow::bail!("the enumeration is limited to {MAX_INPUTS} inputs (this matrix has {cols})")
            }
            Some(x) => Ok(x),
            None if proofs || cols > MAX_INPUTS => Ok(Method::Sat),
            None => Ok(Method::Enumerate),
        }
    }

    /// Its name in messages.
    pub fn describe(self) -> &'static str {
        match self {
            Method::Enumerate => "helper-set enumeration",
            Method::Sat => "SAT",
        }
    }
}

/// [`exact`] with either method, on `threads` threads (the enumeration's workers, or SAT's
/// [`ExactOptions::threads`]). `on` hears [`Progress::K`] with `"sat"`, `"unsat"` or
/// `"timeout"`, where "unsat" means no program of k XORs (with the enumeration: of at most
/// k), and SAT's [`Progress::Cap`].
pub fn exact_with(m: &BitMatrix, method: Method, opts: &ExactOptions, threads: usize, mut on: impl FnMut(Progress<'_>) + Send) -> Result<ExactReport> {
    if method == Method::Sat {
        return exact_reporting(m, &ExactOptions { threads, ..opts.clone() }, on);
    }
    Method::choose(Some(method), m.cols(), opts.proof_dir.is_some())?;
    let tag = |t: &str| -> &'static str {
        match t {
            "found" => "sat",
            "none" => "unsat",
            _ => "timeout",
        }
    };
    let mut r = crate::enumerate::exact(m, threads, opts.time_limit, opts.upper.clone(), opts.max_k, |k, t, _, secs| on(Progress::K(k, tag(t), secs)));
    if let Some(p) = &mut r.program {
        p.meta.notes.push(format!(
            "{} by helper-set enumeration (exhaustive, no proof file; `--method sat --proof DIR` gives checkable DRAT proofs)",
            if r.optimal { "optimality" } else { "lower bound" }
        ));
    }
    Ok(ExactReport {
        program: r.program,
        lower_bound: r.lower_bound,
        optimal: r.optimal,
        log: r.log.iter().map(|&(k, t, _, secs)| (k, tag(t), secs)).collect(),
    })
}

/// Runs `checker cnf drat`, which must exit 0 and print `s VERIFIED`.
fn run_checker(checker: &Path, cnf: &Path, drat: &Path) -> Result<()> {
    let out = std::process::Command::new(checker)
        .arg(cnf)
        .arg(drat)
        .output()
        .with_context(|| format!("running the DRAT checker {}", checker.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    anyhow::ensure!(
        out.status.success() && stdout.lines().any(|l| l.trim() == "s VERIFIED"),
        "the DRAT checker did not verify {} ({}): {}{}",
        drat.file_name().map_or_else(String::new, |f| f.to_string_lossy().into_owned()),
        out.status,
        stdout.trim(),
        String::from_utf8_lossy(&out.stderr).trim()
    );
    Ok(())
}

/// A fresh path in the temporary directory ending in `name`.
fn tempfile_in_temp(name: &str) -> Result<PathBuf> {
    static N: AtomicUsize = AtomicUsize::new(0);
    Ok(std::env::temp_dir().join(format!("slicewise-check-{}-{}-{name}", std::process::id(), N.fetch_add(1, Ordering::Relaxed))))
}

/// What [`check_proof_dir`] established.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofCheck {
    /// The k whose CNF was rebuilt and found identical to `kK.cnf`.
    pub cnfs_matched: Vec<usize>,
    /// The k whose UNSAT proof the checker verified.
    pub proofs_verified: Vec<usize>,
    /// The lower bound the verified proofs establish: no program has fewer XORs.
    pub lower_bound: usize,
    /// With `restriction.json` ([`crate::restrict`]): the whole matrix, its dropped columns,
    /// and the bound the proofs establish for it (`lower_bound` + the number of columns).
    pub restriction: Option<(BitMatrix, Vec<usize>, usize)>,
    /// The checks of the caps' sub-directories ([`crate::satcaps`]), in the order of
    /// `options.json`.
    pub caps: Vec<ProofCheck>,
    /// DRAT proofs verified in this directory (one per k, or one per cube of a split k).
    pub drat_files: usize,
}

impl ProofCheck {
    /// DRAT proofs verified here (one per cube of a split k) and in the caps' sub-directories,
    /// all levels.
    pub fn total_proofs(&self) -> usize {
        self.drat_files + self.caps.iter().map(ProofCheck::total_proofs).sum::<usize>()
    }
}

/// Re-checks a proof directory written by [`exact`]: rebuilds the CNF of every `kK.cnf` from
/// `matrix.txt` and `options.json` and requires it to be byte-identical, runs `checker` (a
/// DRAT checker called as `checker kK.cnf kK.drat`, which must exit 0 and print
/// `s VERIFIED`) on the proof of every k that `result.json` lists as UNSAT, and requires those
/// k to run without a gap from the number of distinct targets, so that they prove the bound.
pub fn check_proof_dir(dir: &Path, checker: &Path) -> Result<ProofCheck> {
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).with_context(|| format!("reading {}", dir.join(name).display()));
    let m = crate::parse::parse_matrix(&read("matrix.txt")?).map_err(|e| anyhow::anyhow!("matrix.txt: {e}"))?;
    let o: ProofOptions = serde_json::from_str(&read("options.json")?).context("options.json")?;
    anyhow::ensure!(o.format == PROOF_FORMAT, "options.json: unknown format {:?}", o.format);
    anyhow::ensure!((o.rows, o.cols, o.fingerprint.as_str()) == (m.rows(), m.cols(), m.fingerprint().as_str()), "options.json does not describe matrix.txt");
    let res: ProofResult = serde_json::from_str(&read("result.json")?).context("result.json")?;
    // The caps' bounds first: the CNFs below are only sound with them.
    let caps = crate::satcaps::check_caps(dir, &m, &o.encoding.caps, checker)?;
    let mut ks: Vec<usize> = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let name = e?.file_name().to_string_lossy().into_owned();
        if let Some(k) = name.strip_prefix('k').and_then(|r| r.strip_suffix(".cnf")).and_then(|d| d.parse().ok()) {
            ks.push(k);
        }
    }
    ks.sort_unstable();
    for &k in &ks {
        anyhow::ensure!(read(&format!("k{k}.cnf"))? == cnf_text(&m, k, &o.encoding), "k{k}.cnf differs from the CNF that matrix.txt and options.json give");
    }
    let first = nontrivial_targets(&m).len();
    let mut bound = first;
    let mut verified = Vec::new();
    let mut drat_files = 0;
    for (k, answer) in &res.answers {
        if answer != "unsat" {
            continue;
        }
        anyhow::ensure!(*k == bound, "result.json: UNSAT for k = {k} does not continue the refuted range {first}..{bound}");
        anyhow::ensure!(ks.contains(k), "k{k}.cnf is missing");
        if res.split.contains(k) {
            // Every cube's CNF (the CNF with the cube's unit clauses) goes to the checker
            // through a temporary file; the cubes cover every model (see `cubes`).
            let (cnf, enc) = encode(m.cols(), &nontrivial_targets(&m), *k, &o.encoding);
            for (name, units) in cubes(&enc, &o.encoding.caps, 2) {
                let mut f = Cnf { vars: cnf.vars, clauses: cnf.clauses.clone() };
                for &l in &units {
                    f.add(&[l]);
                }
                let tmp = tempfile_in_temp(&format!("k{k}.{name}.cnf"))?;
                std::fs::write(&tmp, cnf_dimacs(&f, &m, *k))?;
                let r = run_checker(checker, &tmp, &dir.join(drat_name(*k, &name)));
                let _ = std::fs::remove_file(&tmp);
                r?;
                drat_files += 1;
            }
        } else {
            run_checker(checker, &dir.join(format!("k{k}.cnf")), &dir.join(drat_name(*k, "")))?;
            drat_files += 1;
        }
        verified.push(*k);
        bound = k + 1;
    }
    anyhow::ensure!(res.lower_bound == bound, "result.json claims lower bound {}, the proofs give {bound}", res.lower_bound);
    let restriction = crate::restrict::check_restriction(dir, &m, bound)?;
    Ok(ProofCheck { cnfs_matched: ks, proofs_verified: verified, lower_bound: bound, restriction, caps, drat_files })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_matrix;

    #[test]
    fn small_optimum_is_proven() {
        // y0 = x0+x1+x2, y1 = x0+x1+x3: optimum 3 (t = x0+x1 shared).
        let m = parse_matrix("1110\n1101\n").unwrap();
        let r = exact(&m, &ExactOptions::new(Duration::from_secs(20)), |_, _, _| {}).unwrap();
        assert!(r.optimal);
        assert_eq!(r.program.as_ref().unwrap().xor_count(), 3);
        assert_eq!(r.lower_bound, 3);
        r.program.unwrap().verify(&m).unwrap();
        assert_eq!(r.log[0], (2, "unsat", r.log[0].2));
    }

    #[test]
    fn four_rows_of_random8_s1() {
        let full = parse_matrix(include_str!("../../../test-vectors/slp/random8_s1.txt")).unwrap();
        let m = BitMatrix::from_rows(8, full.row_bits()[..4].to_vec());
        let r = exact(&m, &ExactOptions::new(Duration::from_secs(60)), |_, _, _| {}).unwrap();
        assert!(r.optimal, "{:?}", r.log);
        let p = r.program.unwrap();
        p.verify(&m).unwrap();
        assert!(p.meta.extra.contains(&"optimal".to_string()));
        // Every k below the optimum was refuted.
        assert!(r.log.iter().filter(|l| l.1 == "unsat").count() >= 1);
    }

    #[test]
    fn automorphisms_of_the_catalogue() {
        let mix = parse_matrix(include_str!("../../../test-vectors/slp/proest_mixslices.txt")).unwrap();
        let t = nontrivial_targets(&mix);
        let g = target_automorphisms(16, &t, 64);
        // MixSlices: a group of order 8; every element maps the target set onto itself.
        assert_eq!(g.len(), 8);
        assert_eq!(g[0], (0..16).collect::<Vec<_>>());
        let mut sorted = t.clone();
        sorted.sort_unstable();
        for tau in &g {
            let mut img: Vec<Row> = t.iter().map(|&r| (0..16).fold(0, |acc, i| acc | (((r >> tau[i]) & 1) << i))).collect();
            img.sort_unstable();
            assert_eq!(img, sorted, "{tau:?}");
        }
        // The random 8x8 matrices have only the identity.
        for text in [include_str!("../../../test-vectors/slp/random8_s1.txt"), include_str!("../../../test-vectors/slp/random8_s3.txt")] {
            let m = parse_matrix(text).unwrap();
            assert_eq!(target_automorphisms(8, &nontrivial_targets(&m), 64).len(), 1);
        }
    }

    #[test]
    fn symmetry_breaking_keeps_the_optimum() {
        // Circulant rows of weight 3 (rotations and reflections: a group of order 12): with
        // and without symmetry breaking, the same k must be refuted and the same optimum found.
        let m = parse_matrix("111000\n011100\n001110\n000111\n100011\n110001\n").unwrap();
        assert!(target_automorphisms(6, &nontrivial_targets(&m), 64).len() >= 6);
        let run = |sym: bool| {
            let opts = ExactOptions { encoding: EncodeOptions { automorphisms: sym, ..EncodeOptions::default() }, ..ExactOptions::new(Duration::from_secs(60)) };
            exact(&m, &opts, |_, _, _| {}).unwrap()
        };
        let (a, b) = (run(true), run(false));
        assert!(a.optimal && b.optimal);
        let (pa, pb) = (a.program.clone().unwrap(), b.program.clone().unwrap());
        pa.verify(&m).unwrap();
        assert_eq!(pa.xor_count(), pb.xor_count());
        let answers = |r: &ExactReport| r.log.iter().map(|l| (l.0, l.1)).collect::<Vec<_>>();
        assert_eq!(answers(&a), answers(&b));
    }

    #[test]
    fn targets_first_keeps_the_optimum() {
        // random8_s1's first four rows and the weight-3 circulant: the same answers for every k
        // with either canonical order.
        let a = parse_matrix("111000\n011100\n001110\n000111\n100011\n110001\n").unwrap();
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../test-vectors/slp/random8_s1.txt")).unwrap();
        let full = parse_matrix(&text).unwrap();
        let b = BitMatrix::from_rows(full.cols(), full.row_bits()[..4].to_vec());
        for m in [a, b] {
            let run = |tf: bool| {
                let opts = ExactOptions { encoding: EncodeOptions { targets_first: tf, ..EncodeOptions::default() }, ..ExactOptions::new(Duration::from_secs(60)) };
                exact(&m, &opts, |_, _, _| {}).unwrap()
            };
            let (x, y) = (run(true), run(false));
            assert!(x.optimal && y.optimal);
            x.program.clone().unwrap().verify(&m).unwrap();
            let answers = |r: &ExactReport| r.log.iter().map(|l| (l.0, l.1)).collect::<Vec<_>>();
            assert_eq!(answers(&x), answers(&y));
        }
    }

    /// The DRAT checker for the proof tests: `SLICEWISE_DRAT_CHECKER`, else `rate` on PATH
    /// (`cargo install --locked rate`; `scripts/test-trust.sh` installs it).
    fn drat_checker() -> PathBuf {
        std::env::var_os("SLICEWISE_DRAT_CHECKER").map_or_else(|| PathBuf::from("rate"), PathBuf::from)
    }

    /// `exact` with a proof directory on `m` (up to `max_k`), then [`check_proof_dir`] with
    /// the independent checker; returns the report and the check.
    fn prove_and_check(m: &BitMatrix, max_k: Option<usize>, tag: &str) -> (ExactReport, ProofCheck) {
        let dir = std::env::temp_dir().join(format!("slp-proof-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let opts = ExactOptions { proof_dir: Some(dir.clone()), max_k, ..ExactOptions::new(Duration::from_secs(600)) };
        let r = exact(m, &opts, |_, _, _| {}).unwrap();
        let c = check_proof_dir(&dir, &drat_checker()).unwrap_or_else(|e| panic!("{tag}: {e:#}"));
        // A second run into the same directory is refused without `force`, and works with it.
        let again = exact(m, &ExactOptions { max_k: Some(0), ..opts.clone() }, |_, _, _| {}).unwrap_err();
        assert!(again.to_string().contains("--force"), "{again}");
        let _ = std::fs::remove_dir_all(&dir);
        (r, c)
    }

    #[test]
    #[ignore = "needs the `rate` DRAT checker and 20-60 s; run by scripts/test-trust.sh"]
    fn random8_s1_optimum_12_with_checked_proofs() {
        let m = parse_matrix(include_str!("../../../test-vectors/slp/random8_s1.txt")).unwrap();
        let (r, c) = prove_and_check(&m, None, "random8_s1");
        assert!(r.optimal, "{:?}", r.log);
        assert_eq!(r.program.as_ref().unwrap().xor_count(), 12);
        // k = 7 (the number of distinct targets) … 11 refuted, each proof verified: bound 12.
        assert_eq!(c.proofs_verified, (7..=11).collect::<Vec<_>>());
        assert_eq!(c.lower_bound, 12);
        assert_eq!(c.cnfs_matched, (7..=12).collect::<Vec<_>>(), "k = 12 is SAT: its CNF is kept, no proof");
    }

    /// The same optimum with two levels of caps and cubes on two threads: every proof (the
    /// caps' directories, and one per cube) verified by the real checker.
    #[test]
    #[ignore = "needs the `rate` DRAT checker and about 10-30 s; run by scripts/test-trust.sh"]
    fn random8_s1_optimum_12_with_caps_cubes_and_checked_proofs() {
        let m = parse_matrix(include_str!("../../../test-vectors/slp/random8_s1.txt")).unwrap();
        let dir = std::env::temp_dir().join(format!("slp-proof-caps-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let upper = crate::search::quick_program(&m, 0.5);
        let opts = ExactOptions { proof_dir: Some(dir.clone()), upper, threads: 2, caps: 2, split: true, ..ExactOptions::new(Duration::from_secs(600)) };
        let r = exact(&m, &opts, |_, _, _| {}).unwrap();
        assert!(r.optimal && r.lower_bound == 12, "{:?}", r.log);
        let c = check_proof_dir(&dir, &drat_checker()).unwrap_or_else(|e| panic!("{e:#}"));
        assert_eq!(c.lower_bound, 12);
        assert_eq!(c.proofs_verified, (7..=11).collect::<Vec<_>>());
        assert_eq!(c.caps.len(), 8);
        assert!(c.total_proofs() > 40, "{}", c.total_proofs());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// MixSlices up to `max_k`: k = 16 (its distinct targets) … `max_k` refuted and checked.
    fn mixslices_bound(max_k: usize) {
        let m = parse_matrix(include_str!("../../../test-vectors/slp/proest_mixslices.txt")).unwrap();
        let (r, c) = prove_and_check(&m, Some(max_k), &format!("mixslices{max_k}"));
        assert_eq!(r.lower_bound, max_k + 1);
        assert_eq!(c.proofs_verified, (16..=max_k).collect::<Vec<_>>());
        assert_eq!(c.lower_bound, max_k + 1);
    }

    #[test]
    #[ignore = "needs the `rate` DRAT checker; run by scripts/test-trust.sh"]
    fn mixslices_lower_bound_19_with_checked_proofs() {
        mixslices_bound(18);
    }

    #[test]
    #[ignore = "needs the `rate` DRAT checker and about 30 s (solving and checking); run by scripts/test-trust.sh"]
    fn mixslices_lower_bound_21_with_checked_proofs() {
        mixslices_bound(20);
    }

    #[test]
    fn proof_dir_refuses_foreign_files_and_detects_tampering() {
        let m = parse_matrix("1110\n1101\n").unwrap();
        let dir = std::env::temp_dir().join(format!("slp-proof-small-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("notes.txt"), "mine").unwrap();
        let opts = ExactOptions { proof_dir: Some(dir.clone()), force: true, ..ExactOptions::new(Duration::from_secs(20)) };
        let e = exact(&m, &opts, |_, _, _| {}).unwrap_err();
        assert!(e.to_string().contains("notes.txt"), "{e}");
        std::fs::remove_file(dir.join("notes.txt")).unwrap();
        let r = exact(&m, &opts, |_, _, _| {}).unwrap();
        assert_eq!(r.lower_bound, 3);
        // A CNF that the stored matrix and options do not give is caught by the comparison,
        // which runs before any checker.
        std::fs::write(dir.join("k2.cnf"), "p cnf 1 1\n1 0\n").unwrap();
        let e = check_proof_dir(&dir, Path::new("true")).unwrap_err();
        assert!(e.to_string().contains("k2.cnf differs"), "{e}");
        let _ = std::fs::remove_dir_all(dir);
    }
}
