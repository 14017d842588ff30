//! Exact search: "is there a program with exactly k XORs?" as SAT, solved by CaDiCaL (through
//! the crate's own C-API wrapper, [`crate::cadical`]), for k = (number of distinct non-trivial rows), k+1, … (incremental k).
//!
//! The search ([`exact`], [`exact_reporting`]): a fresh solver per k, on several threads, with
//! the caps' bounds proven first ([`crate::satcaps`]) and, with cubes, each k split among the
//! threads. Its parts:
//! * [`encode`]: the CNF and its normal form (the argument why UNSAT proves a bound);
//! * [`proof`]: the proof-directory format;
//! * [`check`]: the checker of proof directories.
//!
//! Each k gets a fresh solver; with a proof directory the CNF of every k and CaDiCaL's DRAT
//! proof of every UNSAT answer are kept together with the matrix (`matrix.txt`), the encoding
//! options (`options.json`) and the answers (`result.json`), so that [`check_proof_dir`] (or
//! `slicewise slp check-proof DIR`) can rebuild every CNF and check every proof independently.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::cadical::{Solver, Status};
use crate::matrix::{BitMatrix, Row};
use crate::paar::nontrivial_targets;
use crate::program::{Program, outputs_from_values};
use crate::satcaps::{Cap, CapReport, cap_dir_name};
use encode::{EncodeOptions, cnf_dimacs, cubes, encode};
use proof::{PROOF_FORMAT, ProofOptions, drat_name, is_proof_file, prepare_proof_dir, write_answers};

pub mod check;
pub mod encode;
pub mod proof;

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
    solve_k(m.cols(), &nontrivial_targets(m), k, Instant::now() + time_limit, None, proof, m, &EncodeOptions::default(), 1)
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
    /// The encoding.
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
        encoding.caps = prove_caps(m, opts, cap_deadline, &on)?;
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
        write_answers(dir, &log, lower, optimal, !encoding.caps.is_empty(), split)?;
    }
    Ok(ExactReport { program: best, lower_bound: lower, optimal, log })
}

/// Proves the caps' bounds for `m` within `deadline`: for each column that can be dropped
/// ([`crate::restrict::check_drop`]), an exact search on the matrix without it, on `opts.threads`
/// workers, each search on one thread and with `opts.caps - 1` levels of caps of its own, its
/// proofs (with a proof directory) in the sub-directory [`cap_dir_name`]. Returns every cap
/// with a bound above zero, in column order.
fn prove_caps(m: &BitMatrix, opts: &ExactOptions, deadline: Instant, on: &Mutex<&mut (dyn FnMut(Progress<'_>) + Send)>) -> Result<Vec<Cap>> {
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
        encoding: EncodeOptions { caps: Vec::new(), ..opts.encoding.clone() },
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::target_automorphisms;
    use crate::parse::parse_matrix;
    use check::{ProofCheck, check_proof_dir};

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
        let r = exact_reporting(&m, &opts, |p| caps_seen += usize::from(matches!(p, Progress::Cap(_)))).unwrap();
        assert!(r.optimal, "{:?}", r.log);
        let plain = exact(&m, &ExactOptions::new(Duration::from_secs(120)), |_, _, _| {}).unwrap();
        assert_eq!(r.program.as_ref().unwrap().xor_count(), plain.program.unwrap().xor_count());
        let c = check_proof_dir(&dir, &checker).unwrap();
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
        let e = check_proof_dir(&dir, &checker).unwrap_err();
        assert!(format!("{e:#}").contains(&format!("claims {} XORs", sub + 1)), "{e:#}");
        std::fs::write(dir.join("options.json"), &options).unwrap();
        let cap_dir = dir.join(cap_dir_name(&[col]));
        let sub_matrix = std::fs::read_to_string(cap_dir.join("matrix.txt")).unwrap();
        std::fs::write(cap_dir.join("matrix.txt"), sub_matrix.replacen('1', "0", 1)).unwrap();
        assert!(check_proof_dir(&dir, &checker).is_err());
        std::fs::rename(&cap_dir, tmp.join("moved")).unwrap();
        let e = check_proof_dir(&dir, &checker).unwrap_err();
        assert!(format!("{e:#}").contains(&cap_dir_name(&[col])), "{e:#}");
        std::fs::rename(tmp.join("moved"), &cap_dir).unwrap();
        std::fs::write(cap_dir.join("matrix.txt"), &sub_matrix).unwrap();
        check_proof_dir(&dir, &checker).unwrap();
        // A cap directory that links back to the directory itself is refused, not followed.
        std::fs::rename(&cap_dir, tmp.join("moved")).unwrap();
        std::os::unix::fs::symlink(&dir, &cap_dir).unwrap();
        let e = check_proof_dir(&dir, &checker).unwrap_err();
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
        check_proof_dir(&dir, &checker).unwrap();
        let _ = std::fs::remove_dir_all(&tmp);
    }
}
