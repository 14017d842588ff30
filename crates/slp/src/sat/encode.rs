//! The CNF of "is there a program with exactly k XORs?" (in the style of Fuhs and
//! Schneider-Kamp), its optional parts ([`EncodeOptions`]) and the cubes that split it.
//!
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

#![allow(clippy::needless_range_loop)] // index-heavy CNF construction reads best with indices

use crate::cnf::Cnf;
use crate::matrix::{BitMatrix, Row, target_automorphisms};
use crate::paar::nontrivial_targets;
use crate::satcaps::Cap;

/// Variables of the encoding, needed to decode a model.
pub(crate) struct Enc {
    pub(crate) n: usize,
    pub(crate) k: usize,
    pub(crate) op1: Vec<Vec<i32>>,
    pub(crate) op2: Vec<Vec<i32>>,
    /// Per cap, the indicators of the lines it counts (empty if it constrains nothing).
    pub(crate) capt: Vec<Vec<i32>>,
}

/// Which optional parts of the encoding are on, and the solver configuration: everything
/// needed, with the matrix, to rebuild the CNF of a proof directory bit for bit. Stored there
/// as `options.json`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EncodeOptions {
    /// Lines differ from each other (on by default; off only for experiments).
    pub distinct: bool,
    /// The re-association normal form and the depth/weight bound (on by default).
    pub associativity: bool,
    /// CaDiCaL configuration (`unsat`, `sat` or `plain`), if any (none by default).
    pub solver_config: Option<String>,
    /// Break the symmetry of input permutations that map the target set onto itself (see
    /// [`symmetry`]; on by default). Absent from proof directories written before
    /// it existed, which therefore read as `false`.
    #[serde(default)]
    pub automorphisms: bool,
    /// Rule 3 with targets first: the greedy order places a ready line that holds a target
    /// before any other ready line, and compares values only within the two kinds (opt-in, the
    /// CLI's `--targets-first`; measured 1.4–1.5× faster on the random 8×8 matrices, no gain on
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
pub(crate) fn encode(n: usize, targets: &[Row], k: usize, opts: &EncodeOptions) -> (Cnf, Enc) {
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

/// The DIMACS text of the CNF for `k` (as written to, and compared with, `kK.cnf`).
pub(crate) fn cnf_text(m: &BitMatrix, k: usize, opts: &EncodeOptions) -> String {
    let (cnf, _) = encode(m.cols(), &nontrivial_targets(m), k, opts);
    cnf_dimacs(&cnf, m, k)
}

pub(crate) fn cnf_dimacs(cnf: &Cnf, m: &BitMatrix, k: usize) -> String {
    cnf.dimacs(&format!("slicewise slp exact: is there a {k}-XOR program? {}x{} matrix {}", m.rows(), m.cols(), m.fingerprint()))
}

/// The cubes that split the CNF for k on `workers` > 1 threads, on the cap with the fewest
/// redundant lines allowed (at least one): cube `cC-J` says that line J is the first line
/// that cap C counts (its indicator true, those of the lines before it false), and `cC-none`
/// that the cap counts no line. They cover every assignment. Without such a cap, or with
/// `workers` ≤ 1, the single empty cube (the whole CNF).
pub(crate) fn cubes(enc: &Enc, caps: &[Cap], workers: usize) -> Vec<(String, Vec<i32>)> {
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
