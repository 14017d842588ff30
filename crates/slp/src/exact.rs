//! Exact search as `slicewise slp exact` and Python's `slicewise.slp.exact()` run it: one
//! options struct ([`ExactSearch`]) and one entry point ([`run`]) for the whole setup — the
//! heuristic upper bound, the choice of method ([`Method`]), the SAT options (proof directory,
//! caps, cubes, targets first, `max_k`), and the restriction to a matrix without some columns
//! ([`DropInputs`], [`crate::restrict`]) with its lifted bound.
//!
//! [`exact_with`] is the layer below: one matrix, one method, no restriction.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Result, bail, ensure};

use crate::matrix::BitMatrix;
use crate::program::Program;
use crate::restrict::Tried;
use crate::sat::encode::EncodeOptions;
use crate::sat::{ExactOptions, ExactReport, Progress, exact_reporting};

/// The exact method behind [`exact_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Helper-set enumeration ([`crate::enumerate`]): up to 20 inputs, far faster there, no proof.
    Enumerate,
    /// The SAT search of [`crate::sat`], whose refutations can be kept as DRAT proofs.
    Sat,
}

impl Method {
    /// The method for a matrix with `cols` inputs: `requested`, or by default SAT when proofs
    /// are asked for or the matrix is too wide to enumerate, the enumeration otherwise.
    pub fn choose(requested: Option<Method>, cols: usize, proofs: bool) -> Result<Method> {
        use crate::enumerate::MAX_INPUTS;
        match requested {
            Some(Method::Enumerate) if proofs => bail!("proofs need the SAT method: the enumeration leaves no proof"),
            Some(Method::Enumerate) if cols > MAX_INPUTS => {
                bail!("the enumeration is limited to {MAX_INPUTS} inputs (this matrix has {cols})")
            }
            Some(x) => Ok(x),
            None if proofs || cols > MAX_INPUTS => Ok(Method::Sat),
            None => Ok(Method::Enumerate),
        }
    }

    /// `enumerate` or `sat` (the CLI's `--method`, Python's `method=`).
    pub fn parse(s: &str) -> Option<Method> {
        match s {
            "enumerate" => Some(Method::Enumerate),
            "sat" => Some(Method::Sat),
            _ => None,
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

/// [`crate::sat::exact`] or [`crate::enumerate::exact`] on `threads` threads (the enumeration's
/// workers, or SAT's [`ExactOptions::threads`]). `on` hears [`Progress::K`] with `"sat"`,
/// `"unsat"` or `"timeout"`, where "unsat" means no program of k XORs (with the enumeration: of
/// at most k), and SAT's [`Progress::Cap`].
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

/// Columns to drop before the search ([`crate::restrict`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DropInputs {
    /// These columns (0 is the first), checked by [`crate::restrict::check_drop`].
    Columns(Vec<usize>),
    /// Try column sets by the enumeration within the time limit and keep the best
    /// ([`crate::restrict::search_drop`]; no proofs).
    Auto,
}

impl DropInputs {
    /// `auto` or a list of column numbers `1,5,9` (the CLI's `--drop-inputs`).
    pub fn parse(s: &str) -> Result<DropInputs> {
        if s == "auto" {
            return Ok(DropInputs::Auto);
        }
        let cols = s
            .split(',')
            .map(|c| c.trim().parse::<usize>().map_err(|_| anyhow::anyhow!("drop-inputs: expected `auto` or column numbers like 1,5,9, got {c:?}")))
            .collect::<Result<Vec<_>>>()?;
        Ok(DropInputs::Columns(cols))
    }
}

/// Everything an exact search takes: the options of `slicewise slp exact` and of Python's
/// `exact()`. [`Default`] gives their defaults.
#[derive(Debug, Clone)]
pub struct ExactSearch {
    /// Overall time budget in seconds (positive, at most [`crate::budget::MAX_SECONDS`]).
    pub time_limit: f64,
    /// Seconds of heuristic search for the upper bound (at most half the time limit is used).
    pub heuristic_time: f64,
    /// The method; `None`: [`Method::choose`]'s default (SAT with proofs, with a SAT option
    /// or above 20 inputs, the enumeration otherwise).
    pub method: Option<Method>,
    /// Threads: the enumeration's workers, or SAT solvers at once.
    pub threads: usize,
    /// Keep the CNFs and DRAT proofs here (SAT).
    pub proof_dir: Option<PathBuf>,
    /// Replace the files of a previous run in `proof_dir`.
    pub force: bool,
    /// Stop after refuting this k (with a restriction: XORs of the smaller matrix).
    pub max_k: Option<usize>,
    /// SAT: levels of caps from the restriction lemma ([`crate::satcaps`]; 0 for none).
    pub caps: usize,
    /// SAT with caps: share of the time limit for the caps' searches (0 to 1).
    pub cap_share: f64,
    /// SAT with caps on more than one thread: split each k into cubes on a cap.
    pub cubes: bool,
    /// SAT: the canonical line order places lines that hold a target first.
    pub targets_first: bool,
    /// Prove the bound through the matrix without these columns.
    pub drop_inputs: Option<DropInputs>,
}

impl Default for ExactSearch {
    fn default() -> Self {
        ExactSearch {
            time_limit: 60.0,
            heuristic_time: 2.0,
            method: None,
            threads: 1,
            proof_dir: None,
            force: false,
            max_k: None,
            caps: 0,
            cap_share: 0.3,
            cubes: false,
            targets_first: false,
            drop_inputs: None,
        }
    }
}

impl ExactSearch {
    /// Whether a SAT-only option is set (it chooses SAT, as a proof directory does).
    fn sat_options(&self) -> bool {
        self.caps > 0 || self.cubes || self.targets_first
    }
}

/// What [`run`] reports while it works.
#[derive(Debug, Clone, Copy)]
pub enum Event<'a> {
    /// The heuristic upper bounds: with a restriction (or `DropInputs::Auto`) `whole` is the
    /// whole matrix's program; `searched` is that of the matrix searched, with the columns
    /// dropped and the smaller matrix when there is a restriction.
    Upper { whole: Option<&'a Program>, searched: Option<&'a Program>, restriction: Option<(&'a [usize], &'a BitMatrix)> },
    /// The exact search's progress (k answered, cap proven).
    Progress(Progress<'a>),
    /// `DropInputs::Auto`: a column set tried.
    Tried(&'a Tried),
}

/// A bound proven through a smaller matrix.
#[derive(Debug, Clone)]
pub struct Restriction {
    /// The dropped columns, sorted.
    pub columns: Vec<usize>,
    /// Rows and columns of the smaller matrix.
    pub size: (usize, usize),
    /// The bound proven for the smaller matrix (the whole matrix's is that plus one per column).
    pub sub_bound: usize,
    /// How it was proven (the method, and whether proofs were kept), for messages.
    pub how: String,
}

/// Result of [`run`].
#[derive(Debug, Clone)]
pub struct ExactOutcome {
    /// The best program for the whole matrix (with a restriction: the heuristic one, its
    /// header carrying the lifted bound), verified; `None` if none was found in time.
    pub program: Option<Program>,
    /// No program for the whole matrix has fewer XORs.
    pub lower_bound: usize,
    /// Whether `program` meets `lower_bound`.
    pub optimal: bool,
    /// The method used.
    pub method: Method,
    /// `(k, "sat" | "unsat" | "timeout", seconds)` of the matrix searched.
    pub log: Vec<(usize, &'static str, f64)>,
    /// With a restriction: what it proved.
    pub restriction: Option<Restriction>,
    /// With `DropInputs::Auto`: the column sets tried, best first.
    pub tried: Vec<Tried>,
}

/// The exact search of `m` with `o`; `on` hears the upper bounds, the progress, and the
/// column sets tried. Errors: bad options (a time budget out of range, SAT options with the
/// enumeration, a bad column list, a matrix above 64×64), or a failure of the search.
pub fn run(m: &BitMatrix, o: &ExactSearch, mut on: impl FnMut(Event<'_>) + Send) -> Result<ExactOutcome> {
    let time_limit = crate::budget::seconds("the time limit", o.time_limit).map_err(anyhow::Error::msg)?;
    crate::budget::seconds("the heuristic time", o.heuristic_time).map_err(anyhow::Error::msg)?;
    ensure!(o.time_limit > 0.0, "the time limit must be positive");
    ensure!((0.0..=1.0).contains(&o.cap_share), "cap-share must be a number from 0 to 1");
    ensure!(m.cols() <= 64 && m.rows() <= 64, "exact search is limited to 64x64 matrices (this one is {}x{})", m.rows(), m.cols());
    let threads = o.threads.max(1);
    let drop = match &o.drop_inputs {
        None => None,
        Some(DropInputs::Auto) => return run_drop_auto(m, o, time_limit, threads, on),
        Some(DropInputs::Columns(cols)) => Some(crate::restrict::check_drop(m, cols).map_err(|e| anyhow::anyhow!("drop-inputs: {e}"))?),
    };
    let smaller = drop.as_ref().map(|d| crate::restrict::drop_columns(m, d));
    let sm = smaller.as_ref().unwrap_or(m);
    ensure!(
        !(o.sat_options() && o.method == Some(Method::Enumerate)),
        "caps, cubes and targets-first are options of the SAT method, not of the enumeration"
    );
    let method = Method::choose(o.method, sm.cols(), o.proof_dir.is_some() || o.sat_options())?;
    let start = Instant::now();
    // Upper bound from a short heuristic search (for each matrix with a restriction).
    let hsecs = o.heuristic_time.min(o.time_limit / 2.0);
    let (whole, upper) = match &smaller {
        None => (None, crate::search::quick_program(m, hsecs)),
        Some(s) => (crate::search::quick_program(m, hsecs / 2.0), crate::search::quick_program(s, hsecs / 2.0)),
    };
    on(Event::Upper { whole: whole.as_ref(), searched: upper.as_ref(), restriction: drop.as_deref().zip(smaller.as_ref()) });
    let opts = ExactOptions {
        proof_dir: o.proof_dir.clone(),
        upper,
        encoding: EncodeOptions { targets_first: o.targets_first, ..EncodeOptions::default() },
        max_k: o.max_k,
        force: o.force,
        caps: o.caps,
        cap_share: o.cap_share,
        split: o.cubes,
        ..ExactOptions::new(time_limit.saturating_sub(start.elapsed()))
    };
    let report = exact_with(sm, method, &opts, threads, |p| on(Event::Progress(p)))?;
    let (Some(d), Some(s)) = (drop, &smaller) else {
        if let Some(p) = &report.program {
            p.verify(m).map_err(|e| anyhow::anyhow!("internal error: program does not verify: {e}"))?;
        }
        return Ok(ExactOutcome {
            program: report.program,
            lower_bound: report.lower_bound,
            optimal: report.optimal,
            method,
            log: report.log,
            restriction: None,
            tried: Vec::new(),
        });
    };
    if let Some(dir) = &o.proof_dir {
        crate::restrict::write_restriction(dir, m, &d, report.lower_bound)?;
    }
    let how = format!("{}{}", method.describe(), if o.proof_dir.is_some() { ", DRAT proofs kept" } else { "" });
    let r = Restriction { columns: d, size: (s.rows(), s.cols()), sub_bound: report.lower_bound, how };
    restricted(m, whole, r, method, report.log, Vec::new())
}

/// `DropInputs::Auto`: [`crate::restrict::search_drop`] within the time limit, after a short
/// heuristic search for the whole matrix's program.
fn run_drop_auto(m: &BitMatrix, o: &ExactSearch, time_limit: Duration, threads: usize, mut on: impl FnMut(Event<'_>) + Send) -> Result<ExactOutcome> {
    ensure!(
        o.proof_dir.is_none(),
        "drop-inputs auto searches with the enumeration, which keeps no proofs: run it without a proof directory, then give the columns it prints as a list with one"
    );
    ensure!(
        o.method != Some(Method::Sat) && !o.sat_options(),
        "drop-inputs auto searches with the enumeration (not --method sat, and none of the SAT options --caps, --cubes, --targets-first)"
    );
    ensure!(
        m.cols() <= crate::enumerate::MAX_INPUTS,
        "drop-inputs auto uses the enumeration, limited to {} inputs (this matrix has {})",
        crate::enumerate::MAX_INPUTS,
        m.cols()
    );
    let start = Instant::now();
    let whole = crate::search::quick_program(m, o.heuristic_time.min(o.time_limit / 2.0));
    on(Event::Upper { whole: whole.as_ref(), searched: None, restriction: None });
    let tried = crate::restrict::search_drop(m, threads, time_limit.saturating_sub(start.elapsed()), 0, |t| on(Event::Tried(t)));
    let Some(best) = tried.first() else { bail!("no column set can be dropped from this matrix") };
    let how = "helper-set enumeration; columns chosen by --drop-inputs auto".to_string();
    let r = Restriction { columns: best.drop.clone(), size: (m.rows(), m.cols() - best.drop.len()), sub_bound: best.sub_bound, how };
    restricted(m, whole, r, Method::Enumerate, Vec::new(), tried)
}

/// The outcome of a restricted search: the whole matrix's heuristic program `whole` with the
/// lifted bound in its header.
fn restricted(m: &BitMatrix, whole: Option<Program>, r: Restriction, method: Method, log: Vec<(usize, &'static str, f64)>, tried: Vec<Tried>) -> Result<ExactOutcome> {
    let bound = crate::restrict::lift_with_symmetry(m, &r.columns, r.sub_bound);
    let symmetry = match crate::restrict::rotation_bonus(m, &r.columns) {
        Some(s) => format!(", plus one: the column rotation by {s} is a symmetry whose images of the kept columns have none in common (restrict::rotation_bonus)"),
        None => String::new(),
    };
    let program = whole.map(|mut p| {
        p.set_bound_note(p.xor_count() <= bound, bound);
        p.meta.notes.push(format!(
            "lower bound {bound} by restriction (crates/slp/src/restrict.rs): setting inputs {:?} to 0 removes at least one XOR each, and the {}x{} matrix without them needs at least {} XORs ({}){symmetry}",
            r.columns, r.size.0, r.size.1, r.sub_bound, r.how
        ));
        p
    });
    if let Some(p) = &program {
        p.verify(m).map_err(|e| anyhow::anyhow!("internal error: program does not verify: {e}"))?;
    }
    let optimal = program.as_ref().is_some_and(|p| p.xor_count() <= bound);
    Ok(ExactOutcome { program, lower_bound: bound, optimal, method, log, restriction: Some(r), tried })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_matrix;

    #[test]
    fn one_struct_for_every_method_and_option_errors() {
        let m = parse_matrix("1110\n1101\n").unwrap();
        let o = ExactSearch { time_limit: 20.0, heuristic_time: 0.1, ..ExactSearch::default() };
        let e = run(&m, &o, |_| {}).unwrap();
        assert!(e.optimal && e.lower_bound == 3 && e.method == Method::Enumerate, "{e:?}");
        let s = run(&m, &ExactSearch { targets_first: true, ..o.clone() }, |_| {}).unwrap();
        assert!(s.optimal && s.lower_bound == 3 && s.method == Method::Sat, "a SAT option chooses SAT");
        let mut events = 0;
        let r = run(&m, &ExactSearch { drop_inputs: Some(DropInputs::Columns(vec![3])), ..o.clone() }, |_| events += 1).unwrap();
        assert!(r.restriction.as_ref().is_some_and(|x| x.columns == [3]) && r.lower_bound <= 3 && events > 0, "{r:?}");
        let err = |x: ExactSearch| run(&m, &x, |_| {}).unwrap_err().to_string();
        assert!(err(ExactSearch { time_limit: 1e30, ..o.clone() }).contains("at most 1e9"));
        assert!(err(ExactSearch { time_limit: 0.0, ..o.clone() }).contains("positive"));
        assert!(err(ExactSearch { caps: 1, method: Some(Method::Enumerate), ..o.clone() }).contains("options of the SAT method"));
        assert!(err(ExactSearch { drop_inputs: Some(DropInputs::Auto), proof_dir: Some("unused".into()), ..o.clone() }).contains("keeps no proofs"));
        assert!(err(ExactSearch { drop_inputs: Some(DropInputs::Columns(vec![1, 1])), ..o.clone() }).contains("listed twice"));
        assert!(DropInputs::parse("1,x").is_err());
        assert_eq!(DropInputs::parse(" auto".trim()).unwrap(), DropInputs::Auto);
    }

    /// The two methods agree: the enumeration's optimum is SAT's on random small matrices.
    #[test]
    fn agrees_with_sat_on_random_matrices() {
        use crate::sat::{ExactOptions, exact as sat_exact};
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1414);
        for case in 0..12 {
            let n = rng.random_range(5..=7);
            let rows = rng.random_range(4..=7);
            let m = BitMatrix::from_rows(n, (0..rows).map(|_| rng.random_range(0..1u128 << n)).collect());
            let sat = sat_exact(&m, &ExactOptions::new(Duration::from_secs(120)), |_, _, _| {}).unwrap();
            assert!(sat.optimal, "case {case}: SAT did not finish");
            let r = crate::enumerate::exact(&m, 2, Duration::from_secs(120), None, None, |_, _, _, _| {});
            let p = r.program.unwrap();
            p.verify(&m).unwrap();
            assert_eq!((p.xor_count(), r.lower_bound), (sat.lower_bound, sat.lower_bound), "case {case}: {m:?}");
        }
    }
}
