//! Exact search: "is there a program with exactly k XORs?" as SAT, solved by CaDiCaL (through
//! the crate's own C-API wrapper, [`crate::cadical`]), for k = (number of distinct non-trivial rows), k+1, … (incremental k).
//!
//! # Encoding (in the style of Fuhs and Schneider-Kamp)
//! Line i (signal n+i) has one-hot operand selectors `op1[i][s]`, `op2[i][s]` over the earlier
//! signals, with op1 < op2, operand values `u1[i][j]`, `u2[i][j]` and value `v[i][j] = u1 ⊕ u2`
//! for every input bit j. Output selectors `out[r][i]` put each distinct target of weight ≥ 2 on
//! some line. Normal-form constraints (each one keeps at least one optimal program):
//! * every line is an output or used by a later line (no dead code);
//! * every line differs from every input, from zero, and from every other line;
//! * two consecutive lines where the later one does not use the earlier one are ordered by
//!   their operand pair (lexicographically increasing).
//!
//! A program with fewer lines can always be brought into this form without adding lines (drop
//! dead and duplicate lines, then sort adjacent independent lines, which only decreases the
//! sequence of operand pairs), so UNSAT for every k < L proves that no program has fewer than L
//! XORs. Each k gets a fresh solver; with a proof directory the CNF of every k and CaDiCaL's
//! DRAT proof of every UNSAT answer are kept, so the bound can be checked independently
//! (`drat-trim kK.cnf kK.drat`).

#![allow(clippy::needless_range_loop)] // index-heavy CNF construction reads best with indices

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use crate::cadical::{Solver, Status};

use crate::matrix::{BitMatrix, Row};
use crate::paar::nontrivial_targets;
use crate::program::{Program, outputs_from_values};

/// A CNF under construction (DIMACS literals).
#[derive(Debug, Default)]
pub struct Cnf {
    /// Number of variables.
    pub vars: i32,
    /// Clauses.
    pub clauses: Vec<Vec<i32>>,
}

impl Cnf {
    fn var(&mut self) -> i32 {
        self.vars += 1;
        self.vars
    }
    fn add(&mut self, c: &[i32]) {
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
}

/// Builds the CNF for "a program with exactly `k` XORs computes the distinct non-trivial rows".
fn encode(n: usize, targets: &[Row], k: usize) -> (Cnf, Enc) {
    let mut f = Cnf::default();
    let mut op1 = Vec::with_capacity(k);
    let mut op2 = Vec::with_capacity(k);
    let mut val: Vec<Vec<i32>> = Vec::with_capacity(k);
    for i in 0..k {
        let ns = n + i;
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
        let distinct = std::env::var("SLP_SAT_NODISTINCT").is_err();
        for pv in val.iter().filter(|_| distinct) {
            let d: Vec<i32> = (0..n).map(|_| f.var()).collect();
            for j in 0..n {
                f.add(&[-d[j], v[j], pv[j]]);
                f.add(&[-d[j], -v[j], -pv[j]]);
            }
            f.add(&d);
        }
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
    if std::env::var("SLP_SAT_NOASSOC").is_err() {
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
    (f, Enc { n, k, op1, op2 })
}

/// Re-association normal form. Depth variables `dep[i][d]` ("line i has depth ≥ d") are
/// exact. For a line t that is no output and has a single user u = t + c, require
/// depth(c) ≥ depth(t) − 1: the single-use line combines the two shallowest of the three
/// operands of u. Any program can be brought into this form without adding lines: re-pairing
/// (a+b)+c as (a+c)+b when b is strictly deeper than c keeps the line count and strictly lowers
/// the sum of all depths, and removing the dead or duplicate lines this may create lowers the
/// line count; the pair (lines, Σ depth) decreases, so the rewriting terminates.
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

fn solve_k(n: usize, targets: &[Row], k: usize, deadline: Instant, proof: Option<&Path>, m: &BitMatrix) -> Result<(KResult, Duration)> {
    let start = Instant::now();
    let (cnf, enc) = encode(n, targets, k);
    let mut s = Solver::new();
    if let Ok(cfg @ ("unsat" | "sat" | "plain")) = std::env::var("SLP_SAT_CONFIG").as_deref() {
        s.configure(cfg)?;
    }
    if let Some(dir) = proof {
        let cnf_path = dir.join(format!("k{k}.cnf"));
        std::fs::write(&cnf_path, cnf.dimacs(&format!("slicewise slp exact: is there a {k}-XOR program? {}x{} matrix {}", m.rows(), m.cols(), m.fingerprint())))
            .with_context(|| format!("writing {}", cnf_path.display()))?;
        s.trace_proof(&dir.join(format!("k{k}.drat")), true).context("attaching the DRAT tracer")?;
    }
    for c in &cnf.clauses {
        s.add_clause(c);
    }
    s.set_terminator(move || Instant::now() >= deadline);
    let res = s.solve();
    s.close_proof();
    let out = match res {
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
    };
    Ok((out, start.elapsed()))
}

/// Answers "is there a program with exactly `k` XORs?" for `m` (one fresh solver).
pub fn solve_exactly(m: &BitMatrix, k: usize, time_limit: Duration, proof: Option<&Path>) -> Result<(KResult, Duration)> {
    solve_k(m.cols(), &nontrivial_targets(m), k, Instant::now() + time_limit, proof, m)
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

/// Runs the incremental-k exact search.
pub fn exact(m: &BitMatrix, opts: &ExactOptions, mut on_k: impl FnMut(usize, &str, f64)) -> Result<ExactReport> {
    let start = Instant::now();
    let deadline = start + opts.time_limit;
    let targets = nontrivial_targets(m);
    let n = m.cols();
    let mut lower = targets.len();
    let mut best = opts.upper.clone();
    if let Some(dir) = &opts.proof_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut log = Vec::new();
    let mut optimal = false;
    loop {
        if let Some(b) = &best
            && b.xor_count() <= lower
        {
            optimal = true;
            break;
        }
        if Instant::now() >= deadline {
            break;
        }
        let k = lower;
        let (r, t) = solve_k(n, &targets, k, deadline, opts.proof_dir.as_deref(), m)?;
        let tag = match &r {
            KResult::Sat(_) => "sat",
            KResult::Unsat => "unsat",
            KResult::Unknown => "timeout",
        };
        on_k(k, tag, t.as_secs_f64());
        log.push((k, tag, t.as_secs_f64()));
        match r {
            KResult::Sat(mut p) => {
                p.meta.algorithm = "sat-cadical".into();
                best = Some(p);
                optimal = true;
                break;
            }
            KResult::Unsat => lower = k + 1,
            KResult::Unknown => break,
        }
    }
    if let Some(b) = &mut best {
        b.meta.extra.retain(|e| e != "optimal" && !e.starts_with("lower-bound"));
        if optimal {
            b.meta.extra.push("optimal".into());
        } else {
            b.meta.extra.push(format!("lower-bound: {lower}"));
        }
    }
    if let Some(dir) = &opts.proof_dir {
        let mut readme = String::from("CNF files kK.cnf ask \"is there a program with exactly K XORs?\" (see crates/slp/src/sat.rs).\n");
        readme.push_str("For every K answered UNSAT, kK.drat is CaDiCaL's binary DRAT proof; check with `drat-trim kK.cnf kK.drat`.\n");
        for (k, tag, t) in &log {
            let _ = writeln!(readme, "k={k}: {tag} in {t:.2} s");
        }
        let _ = writeln!(readme, "lower bound: {lower}{}", if optimal { " (optimal program found)" } else { "" });
        std::fs::write(dir.join("README.txt"), readme)?;
    }
    Ok(ExactReport { program: best, lower_bound: lower, optimal, log })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_matrix;

    #[test]
    fn small_optimum_is_proven() {
        // y0 = x0+x1+x2, y1 = x0+x1+x3: optimum 3 (t = x0+x1 shared).
        let m = parse_matrix("1110\n1101\n").unwrap();
        let r = exact(&m, &ExactOptions { time_limit: Duration::from_secs(20), proof_dir: None, upper: None }, |_, _, _| {}).unwrap();
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
        let r = exact(&m, &ExactOptions { time_limit: Duration::from_secs(60), proof_dir: None, upper: None }, |_, _, _| {}).unwrap();
        assert!(r.optimal, "{:?}", r.log);
        let p = r.program.unwrap();
        p.verify(&m).unwrap();
        assert!(p.meta.extra.contains(&"optimal".to_string()));
        // Every k below the optimum was refuted.
        assert!(r.log.iter().filter(|l| l.1 == "unsat").count() >= 1);
    }

    #[test]
    #[ignore = "about 15-30 s of SAT solving; run with --ignored"]
    fn random8_s1_optimum_is_12() {
        let m = parse_matrix(include_str!("../../../test-vectors/slp/random8_s1.txt")).unwrap();
        let dir = std::env::temp_dir().join(format!("slp-proof-test-{}", std::process::id()));
        let r = exact(&m, &ExactOptions { time_limit: Duration::from_secs(120), proof_dir: Some(dir.clone()), upper: None }, |_, _, _| {}).unwrap();
        assert!(r.optimal, "{:?}", r.log);
        assert_eq!(r.program.as_ref().unwrap().xor_count(), 12);
        assert!(dir.join("k11.cnf").exists() && dir.join("k11.drat").exists());
        let _ = std::fs::remove_dir_all(dir);
    }
}
