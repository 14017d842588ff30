//! Caps: the restriction lemma of [`crate::restrict`] used inside the SAT encoding of
//! [`crate::sat`].
//!
//! # The argument
//! Let P be any program with k XORs that computes the rows of M, and J a set of inputs. Set
//! the inputs of J to zero everywhere in P: every line now computes its value restricted to
//! the other columns. Go through the lines in order and delete each line whose restricted
//! value is zero, a single input, or the restricted value of an earlier line, letting its
//! users (and an output it holds) read that input or earlier line instead (a zero operand
//! makes its user a copy of the other operand, which is then deleted in turn, being equal to
//! it). The remaining lines compute the rows of M without the columns J, over the other
//! inputs. Call a line of P *redundant for J* if its value v satisfies one of
//! - v ⊕ v' has all its ones in J for some earlier line v' (the two become equal);
//! - v has at most one 1 outside J (it becomes zero or an input).
//!
//! Every deleted line is redundant for J, so with r_J(P) the number of redundant lines,
//!
//! > r_J(P) ≤ k − OPT(M without J) ≤ k − LB
//!
//! for any proven lower bound LB of the smaller matrix, and for *every* program P with k lines
//! — in particular for the program in normal form that the proof of [`crate::sat`] rewrites
//! any shorter program into. A line that adds an input of J directly is redundant (it equals
//! its other operand outside J), so this bounds those lines too, as in [`crate::restrict`];
//! but it also counts, for instance, any two lines that differ only in bits of J.
//!
//! The CNF for k therefore may require "at most k − LB lines are redundant for J" (an
//! indicator per line, implied by each of the conditions above, and a sequential counter)
//! without losing any program it has to keep; if k < LB it is unsatisfiable outright. The
//! caps are made for single columns; pairs were tried and gave nothing.
//!
//! Measured on the Zen 5 (docs/slp.md, "Caps and cubes"): random8_s2's k = 13 is refuted in 13 s
//! instead of 240–540 s, random8_s3's k = 14 in about 60 s instead of 550–1 756 s.
//!
//! The indicators also give the cubes of [`crate::sat`]'s cube-and-conquer: for the cap
//! that allows the fewest lines, "line j is the first redundant line" for each j, and "no
//! line is redundant".
//!
//! # Proofs
//! Each cap's LB is proven by its own exact search on the smaller matrix, in the
//! sub-directory `cap-<columns>` of the proof directory (for example `cap-3`), which is a
//! proof directory of its own (and may have caps of its own, one level down).
//! [`crate::sat::check_proof_dir`] checks those first, requires each one's matrix to be the
//! whole matrix without the cap's columns and its proven bound to be at least the cap's LB,
//! and only then rebuilds the CNFs that use the caps.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::matrix::BitMatrix;
use crate::sat::{Cnf, ExactOptions, Progress, exact_reporting};

/// One cap: at most `k − sub_bound` lines of a k-line program are redundant for `inputs`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Cap {
    /// The inputs (matrix columns, 0 is the first), sorted.
    pub inputs: Vec<usize>,
    /// A proven lower bound for the matrix without those columns.
    pub sub_bound: usize,
}

/// What one cap's sub-search found, as reported to [`Progress::Cap`].
#[derive(Debug, Clone, PartialEq)]
pub struct CapReport {
    /// The cap (columns and the bound proven for the matrix without them).
    pub cap: Cap,
    /// Whether that bound is the smaller matrix's optimum.
    pub optimal: bool,
    /// Seconds spent.
    pub secs: f64,
}

/// Name of the sub-directory of a proof directory that proves the bound of the cap on
/// `inputs`: `cap-3`, `cap-1-5`.
pub fn cap_dir_name(inputs: &[usize]) -> String {
    let cols: Vec<String> = inputs.iter().map(|c| c.to_string()).collect();
    format!("cap-{}", cols.join("-"))
}

/// Whether `name` has the form of [`cap_dir_name`].
pub(crate) fn is_cap_dir_name(name: &str) -> bool {
    name.strip_prefix("cap-").is_some_and(|r| !r.is_empty() && r.split('-').all(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())))
}

/// Adds the caps to the CNF for `k` lines with operand selectors `op1`, `op2` and values `val`
/// (inputs are the first `n` signals).
pub(crate) fn encode_caps(f: &mut Cnf, n: usize, k: usize, op1: &[Vec<i32>], op2: &[Vec<i32>], val: &[Vec<i32>], caps: &[Cap]) -> Vec<Vec<i32>> {
    let mut all = Vec::new();
    // diff[j][l][b] (l < j) implies that lines j and l differ in bit b (only that direction).
    let mut diff: Vec<Vec<Vec<i32>>> = Vec::new();
    if !caps.is_empty() {
        for j in 0..k {
            let row: Vec<Vec<i32>> = (0..j)
                .map(|l| {
                    (0..n)
                        .map(|b| {
                            let d = f.var();
                            f.add(&[-d, val[j][b], val[l][b]]);
                            f.add(&[-d, -val[j][b], -val[l][b]]);
                            d
                        })
                        .collect()
                })
                .collect();
            diff.push(row);
        }
    }
    for cap in caps {
        let Some(limit) = k.checked_sub(cap.sub_bound) else {
            // k < LB: no program with k lines exists.
            let x = f.var();
            f.add(&[x]);
            f.add(&[-x]);
            all.push(Vec::new());
            continue;
        };
        if limit >= k {
            all.push(Vec::new());
            continue;
        }
        // touch[j] is implied by line j being redundant for the inputs (only the direction the
        // upper bound needs): by taking an operand from them (which the conditions below
        // imply, but stated directly it propagates at once), by differing from an earlier
        // line only in them, or by being zero or an input outside them.
        let out: Vec<usize> = (0..n).filter(|b| !cap.inputs.contains(b)).collect();
        let touch: Vec<i32> = (0..k)
            .map(|j| {
                let t = f.var();
                for &s in &cap.inputs {
                    f.add(&[-op1[j][s], t]);
                    f.add(&[-op2[j][s], t]);
                }
                // j differs from an earlier line in bits of J only.
                for dl in &diff[j] {
                    let mut c = vec![t];
                    c.extend(out.iter().map(|&b| dl[b]));
                    f.add(&c);
                }
                // j is zero or a unit outside J.
                let mut c = vec![t];
                c.extend(out.iter().map(|&x| val[j][x]));
                f.add(&c);
                for &b in &out {
                    let mut c = vec![t, -val[j][b]];
                    c.extend(out.iter().filter(|&&x| x != b).map(|&x| val[j][x]));
                    f.add(&c);
                }
                t
            })
            .collect();
        at_most(f, &touch, limit);
        all.push(touch);
    }
    all
}

/// At most `c` of `xs` are true (Sinz's sequential counter).
fn at_most(f: &mut Cnf, xs: &[i32], c: usize) {
    if c == 0 {
        for &x in xs {
            f.add(&[-x]);
        }
        return;
    }
    // s[l]: at least l + 1 of the variables so far are true (l < c).
    let mut prev: Vec<i32> = Vec::new();
    for (j, &x) in xs.iter().enumerate() {
        let cur: Vec<i32> = (0..c).map(|_| f.var()).collect();
        f.add(&[-x, cur[0]]);
        if j > 0 {
            for l in 0..c {
                f.add(&[-prev[l], cur[l]]);
            }
            for l in 1..c {
                f.add(&[-x, -prev[l - 1], cur[l]]);
            }
            f.add(&[-x, -prev[c - 1]]);
        }
        prev = cur;
    }
}

/// Proves the caps' bounds for `m` within `deadline`: for each column that can be dropped
/// ([`crate::restrict::check_drop`]), an exact search on the matrix without it, on `opts.threads`
/// workers, each search on one thread and with `opts.caps - 1` levels of caps of its own, its
/// proofs (with a proof directory) in the sub-directory [`cap_dir_name`]. Returns every cap
/// with a bound above zero, in column order.
pub(crate) fn prove_caps(m: &BitMatrix, opts: &ExactOptions, deadline: Instant, on: &Mutex<&mut (dyn FnMut(Progress<'_>) + Send)>) -> Result<Vec<Cap>> {
    // Single columns only: caps on pairs of columns were measured and gave nothing (random8_s2,
    // k = 13: 45 s with the 28 pairs added, 40 s without, counting direct operands; 9.5 s
    // against 13.1 s with the redundant lines counted, but random8_s3's k = 14 went from 58 s
    // to 66 s).
    let cols: Vec<Vec<usize>> = (0..m.cols()).map(|c| vec![c]).filter(|d| crate::restrict::check_drop(m, d).is_ok()).collect();
    let next = AtomicUsize::new(0);
    let found: Mutex<Vec<Result<CapReport>>> = Mutex::new(Vec::new());
    let workers = opts.threads.clamp(1, cols.len().max(1));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(c) = cols.get(i) else { break };
                    // An equal share of what is left for the searches not started yet, so that a
                    // hard smaller matrix leaves time to the rest, and time that quick ones
                    // leave goes to the later ones.
                    let left = deadline.saturating_duration_since(Instant::now());
                    let slice = left.mul_f64(workers as f64 / (cols.len() - i) as f64);
                    let r = prove_one(m, c, opts, deadline.min(Instant::now() + slice));
                    if let Ok(rep) = &r {
                        (on.lock().expect("progress"))(Progress::Cap(rep));
                    }
                    found.lock().expect("caps").push(r);
                }
            });
        }
    });
    let mut caps = Vec::new();
    for r in found.into_inner().expect("caps") {
        let rep = r?;
        if rep.cap.sub_bound > 0 {
            caps.push(rep.cap);
        }
    }
    caps.sort_by(|a, b| a.inputs.cmp(&b.inputs));
    Ok(caps)
}

/// The exact search on `m` without column `c` (see [`prove_caps`]).
fn prove_one(m: &BitMatrix, c: &[usize], opts: &ExactOptions, deadline: Instant) -> Result<CapReport> {
    let start = Instant::now();
    let sub = crate::restrict::drop_columns(m, c);
    let left = deadline.saturating_duration_since(start);
    // An upper bound ends the chain without the SAT call that finds a program: a short
    // heuristic search, then (up to 20 inputs) the enumeration with a tenth of the time, which
    // usually finds the optimum at once. Only the refutations need proofs; a program is checked
    // by running it.
    let mut upper = crate::search::quick_program(&sub, (left.as_secs_f64() * 0.01).min(0.05));
    if sub.cols() <= crate::enumerate::MAX_INPUTS {
        let e = crate::enumerate::exact(&sub, 1, left.mul_f64(0.1), upper.clone(), None, |_, _, _, _| {});
        upper = e.program.or(upper);
    }
    let sub_opts = ExactOptions {
        time_limit: deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(1)),
        proof_dir: opts.proof_dir.as_ref().map(|d| d.join(cap_dir_name(c))),
        upper,
        encoding: crate::sat::EncodeOptions { caps: Vec::new(), ..opts.encoding.clone() },
        max_k: None,
        force: false,
        threads: 1,
        caps: opts.caps.saturating_sub(1),
        cap_share: opts.cap_share,
        split: false,
    };
    let r = exact_reporting(&sub, &sub_opts, |_| {})?;
    Ok(CapReport { cap: Cap { inputs: c.to_vec(), sub_bound: r.lower_bound }, optimal: r.optimal, secs: start.elapsed().as_secs_f64() })
}

/// Checks the caps of a proof directory `dir` for the matrix `m`: every cap names distinct,
/// sorted columns of `m`, its sub-directory checks ([`crate::sat::check_proof_dir`]), holds the
/// matrix `m` without those columns, and proves at least the cap's bound. Returns the checks of
/// the sub-directories.
pub(crate) fn check_caps(dir: &std::path::Path, m: &BitMatrix, caps: &[Cap], checker: &std::path::Path) -> Result<Vec<crate::sat::ProofCheck>> {
    let mut checks = Vec::new();
    for cap in caps {
        let name = cap_dir_name(&cap.inputs);
        anyhow::ensure!(
            !cap.inputs.is_empty() && cap.inputs.windows(2).all(|w| w[0] < w[1]) && cap.inputs.iter().all(|&c| c < m.cols()),
            "options.json: cap {:?} must list distinct columns of the matrix in increasing order",
            cap.inputs
        );
        let sub_dir = dir.join(&name);
        // The smaller matrix first: every level has fewer columns, so the recursion ends (even
        // if a directory links back to one above it).
        let text = std::fs::read_to_string(sub_dir.join("matrix.txt")).with_context(|| format!("{name}: reading matrix.txt"))?;
        let sub = crate::parse::parse_matrix(&text).map_err(|e| anyhow::anyhow!("{name}/matrix.txt: {e}"))?;
        anyhow::ensure!(sub == crate::restrict::drop_columns(m, &cap.inputs), "{name}/matrix.txt is not matrix.txt without columns {:?}", cap.inputs);
        let c = crate::sat::check_proof_dir(&sub_dir, checker).map_err(|e| anyhow::anyhow!("{name}: {e:#}"))?;
        anyhow::ensure!(
            c.restriction.is_none() && c.lower_bound >= cap.sub_bound,
            "options.json: the cap on columns {:?} claims {} XORs for the smaller matrix, {name} proves {}",
            cap.inputs,
            cap.sub_bound,
            c.lower_bound
        );
        checks.push(c);
    }
    Ok(checks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_matrix;
    use crate::sat::{EncodeOptions, Progress, exact};

    /// The caps never cut away an optimum: on random matrices, with caps from the exact optima
    /// of the smaller matrices, SAT gives the same answer for every k as without them.
    #[test]
    fn caps_keep_the_optimum() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(21);
        for _ in 0..12 {
            let n = rng.random_range(4..=6);
            let rows = rng.random_range(3..=5);
            let m = BitMatrix::from_rows(n, (0..rows).map(|_| rng.random_range(1..(1 << n)) as crate::matrix::Row).collect());
            let opt = |m: &BitMatrix| {
                let r = crate::enumerate::exact(m, 1, Duration::from_secs(60), None, None, |_, _, _, _| {});
                assert!(r.optimal);
                r.program.map_or(0, |p| p.xor_count())
            };
            let caps: Vec<Cap> = (0..n)
                .filter(|&c| crate::restrict::check_drop(&m, &[c]).is_ok())
                .map(|c| Cap { inputs: vec![c], sub_bound: opt(&crate::restrict::drop_columns(&m, &[c])) })
                .collect();
            let run = |caps: Vec<Cap>| {
                let o = ExactOptions { encoding: EncodeOptions { caps, ..EncodeOptions::default() }, ..ExactOptions::new(Duration::from_secs(60)) };
                exact(&m, &o, |_, _, _| {}).unwrap()
            };
            let (with, without) = (run(caps.clone()), run(Vec::new()));
            assert!(with.optimal && without.optimal);
            let p = with.program.unwrap();
            p.verify(&m).unwrap();
            assert_eq!(p.xor_count(), opt(&m), "{m:?} {caps:?}");
            assert_eq!(p.xor_count(), without.program.unwrap().xor_count());
        }
    }

    /// A cap whose bound is too large (the optimum of the matrix without one column, plus
    /// two) is not sound, and the search then "refutes" the true optimum: the caps do
    /// constrain the CNF.
    #[test]
    fn a_wrong_cap_changes_the_answer() {
        let m = parse_matrix("1110\n1101\n0111\n").unwrap();
        let plain = exact(&m, &ExactOptions::new(Duration::from_secs(20)), |_, _, _| {}).unwrap();
        let sub = crate::restrict::drop_columns(&m, &[0]);
        let sub_opt = exact(&sub, &ExactOptions::new(Duration::from_secs(20)), |_, _, _| {}).unwrap();
        let bad = Cap { inputs: vec![0], sub_bound: sub_opt.lower_bound + 2 };
        let opt = plain.program.unwrap().xor_count();
        let o = ExactOptions {
            encoding: EncodeOptions { caps: vec![bad], ..EncodeOptions::default() },
            max_k: Some(opt),
            ..ExactOptions::new(Duration::from_secs(20))
        };
        let r = exact(&m, &o, |_, _, _| {}).unwrap();
        assert_eq!(r.lower_bound, opt + 1, "{:?}", r.log);
    }

    /// A proof directory with caps (two levels) and cubes: written, checked with a stand-in
    /// checker (the real one runs in `sat::tests` under scripts/test-trust.sh), refused once
    /// a cap's claim, its directory or its matrix is wrong, and replaced with `force`.
    #[test]
    fn proof_dirs_with_caps_and_cubes() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = std::env::temp_dir().join(format!("slp-caps-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        std::fs::create_dir_all(&tmp).unwrap();
        let checker = tmp.join("accept-all");
        std::fs::write(&checker, "#!/bin/sh\necho 's VERIFIED'\n").unwrap();
        std::fs::set_permissions(&checker, std::fs::Permissions::from_mode(0o755)).unwrap();
        let text = include_str!("../../../test-vectors/slp/random8_s1.txt");
        let m = BitMatrix::from_rows(8, parse_matrix(text).unwrap().row_bits()[..5].to_vec());
        let dir = tmp.join("p");
        let opts = ExactOptions { proof_dir: Some(dir.clone()), threads: 2, caps: 2, split: true, ..ExactOptions::new(Duration::from_secs(120)) };
        let mut caps_seen = 0;
        let r = crate::sat::exact_reporting(&m, &opts, |p| caps_seen += usize::from(matches!(p, Progress::Cap(_)))).unwrap();
        assert!(r.optimal, "{:?}", r.log);
        let plain = exact(&m, &ExactOptions::new(Duration::from_secs(120)), |_, _, _| {}).unwrap();
        assert_eq!(r.program.as_ref().unwrap().xor_count(), plain.program.unwrap().xor_count());
        let c = crate::sat::check_proof_dir(&dir, &checker).unwrap();
        assert_eq!(c.lower_bound, r.lower_bound);
        assert_eq!(c.caps.len(), caps_seen);
        assert!(c.caps.iter().any(|s| !s.caps.is_empty()), "second level of caps");
        // The refuted k were split into cubes, each with its own proof.
        let cube_proofs = std::fs::read_dir(&dir).unwrap().flatten().filter(|e| e.file_name().to_string_lossy().matches('.').count() == 2).count();
        assert!(cube_proofs > 0 && c.total_proofs() > c.proofs_verified.len());
        // Tampering: a cap that claims more than its directory proves; a missing directory; a
        // directory for another matrix.
        let options = std::fs::read_to_string(dir.join("options.json")).unwrap();
        let o: serde_json::Value = serde_json::from_str(&options).unwrap();
        let cap0 = &o["encoding"]["caps"][0];
        let (col, sub) = (cap0["inputs"][0].as_u64().unwrap() as usize, cap0["sub_bound"].as_u64().unwrap());
        let mut bad = o.clone();
        bad["encoding"]["caps"][0]["sub_bound"] = (sub + 1).into();
        std::fs::write(dir.join("options.json"), serde_json::to_string_pretty(&bad).unwrap()).unwrap();
        let e = crate::sat::check_proof_dir(&dir, &checker).unwrap_err();
        assert!(format!("{e:#}").contains(&format!("claims {} XORs", sub + 1)), "{e:#}");
        std::fs::write(dir.join("options.json"), &options).unwrap();
        let cap_dir = dir.join(cap_dir_name(&[col]));
        let sub_matrix = std::fs::read_to_string(cap_dir.join("matrix.txt")).unwrap();
        std::fs::write(cap_dir.join("matrix.txt"), sub_matrix.replacen('1', "0", 1)).unwrap();
        assert!(crate::sat::check_proof_dir(&dir, &checker).is_err());
        std::fs::rename(&cap_dir, tmp.join("moved")).unwrap();
        let e = crate::sat::check_proof_dir(&dir, &checker).unwrap_err();
        assert!(format!("{e:#}").contains(&cap_dir_name(&[col])), "{e:#}");
        std::fs::rename(tmp.join("moved"), &cap_dir).unwrap();
        std::fs::write(cap_dir.join("matrix.txt"), &sub_matrix).unwrap();
        crate::sat::check_proof_dir(&dir, &checker).unwrap();
        // A cap directory that links back to the directory itself is refused, not followed.
        std::fs::rename(&cap_dir, tmp.join("moved")).unwrap();
        std::os::unix::fs::symlink(&dir, &cap_dir).unwrap();
        let e = crate::sat::check_proof_dir(&dir, &checker).unwrap_err();
        assert!(format!("{e:#}").contains("is not matrix.txt without columns"), "{e:#}");
        std::fs::remove_file(&cap_dir).unwrap();
        std::fs::rename(tmp.join("moved"), &cap_dir).unwrap();
        // Running again needs `force`; a foreign file in a cap directory is never deleted.
        assert!(exact(&m, &opts, |_, _, _| {}).unwrap_err().to_string().contains("--force"));
        std::fs::write(cap_dir.join("notes.txt"), "mine").unwrap();
        let forced = ExactOptions { force: true, ..opts.clone() };
        assert!(exact(&m, &forced, |_, _, _| {}).unwrap_err().to_string().contains("notes.txt"));
        std::fs::remove_file(cap_dir.join("notes.txt")).unwrap();
        let again = exact(&m, &forced, |_, _, _| {}).unwrap();
        assert_eq!(again.lower_bound, r.lower_bound);
        crate::sat::check_proof_dir(&dir, &checker).unwrap();
        let _ = std::fs::remove_dir_all(&tmp);
    }

    #[test]
    fn at_most_counts() {
        // All assignments of 5 variables: the counter admits exactly those with at most c true.
        for c in 0..=5usize {
            for mask in 0u32..32 {
                let mut f = Cnf::default();
                let xs: Vec<i32> = (0..5).map(|_| f.var()).collect();
                at_most(&mut f, &xs, c);
                for (i, &x) in xs.iter().enumerate() {
                    f.add(&[if mask >> i & 1 == 1 { x } else { -x }]);
                }
                let mut s = crate::cadical::Solver::new();
                for cl in &f.clauses {
                    s.add_clause(cl);
                }
                let sat = s.solve() == crate::cadical::Status::Sat;
                assert_eq!(sat, mask.count_ones() as usize <= c, "c = {c}, mask {mask:05b}");
            }
        }
    }

    #[test]
    fn cap_dir_names() {
        assert_eq!(cap_dir_name(&[3]), "cap-3");
        assert_eq!(cap_dir_name(&[1, 15]), "cap-1-15");
        assert!(is_cap_dir_name("cap-3") && is_cap_dir_name("cap-1-15"));
        assert!(!is_cap_dir_name("cap-") && !is_cap_dir_name("cap-1-") && !is_cap_dir_name("cap-x") && !is_cap_dir_name("k3.cnf"));
    }
}
