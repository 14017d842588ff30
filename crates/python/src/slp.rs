//! The XOR-program synthesizer: matrices, programs, heuristic search and SAT-exact search.
//!
//! Programs pickle through their text form (`__reduce__`), so they cross process boundaries
//! (Dask workers, `multiprocessing`) and come back equal.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use slicewise_slp::BitMatrix;
use slicewise_slp::emit::{Emit, EmitContext, emit};
use slicewise_slp::matrix::MAX_DIM;
use slicewise_slp::parse::{ParseOptions, parse_input};
use slicewise_slp::program::Program as RsProgram;
use slicewise_slp::auto::AutoOptions;
use slicewise_slp::exact::{DropInputs, ExactSearch, Method};
use slicewise_slp::search::{Algorithm, SearchOptions, search};
use slicewise_slp::split::SplitChoice;

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Matrix>()?;
    m.add_class::<Program>()?;
    m.add_class::<ExactResult>()?;
    m.add_function(wrap_pyfunction!(optimize, m)?)?;
    m.add_function(wrap_pyfunction!(exact, m)?)?;
    let names: Vec<&str> = std::iter::once("auto").chain(Algorithm::NAMES.iter().copied()).collect();
    m.add("slp_algorithms", PyTuple::new(m.py(), names)?)?;
    m.add("slp_max_seconds", slicewise_slp::budget::MAX_SECONDS)?;
    Ok(())
}

/// `__reduce__`'s answer: a callable and its arguments.
type Reduced<'py, Args> = (Bound<'py, PyAny>, Args);

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A binary matrix (at most 128×128): row `r` is output `y_r`, entry `(r, c)` the coefficient of
/// input `x_c`.
#[pyclass(frozen, module = "slicewise.slp", name = "Matrix", eq)]
#[derive(Clone, PartialEq)]
pub(crate) struct Matrix {
    m: BitMatrix,
}

/// Matrix text in any format the CLI reads (0/1 rows, BP format, hex bytes over GF(2^8)).
fn parse_text(text: &str) -> PyResult<BitMatrix> {
    parse_input(text, &ParseOptions::default()).map(|i| i.matrix).map_err(value_error)
}

fn read_matrix_file(path: PathBuf) -> PyResult<BitMatrix> {
    let meta = std::fs::metadata(&path).map_err(|e| pyo3::exceptions::PyOSError::new_err(format!("{}: {e}", path.display())))?;
    if meta.len() > 16 << 20 {
        return Err(PyValueError::new_err(format!("{}: file larger than 16 MiB", path.display())));
    }
    let text = std::fs::read_to_string(&path).map_err(|e| pyo3::exceptions::PyOSError::new_err(format!("{}: {e}", path.display())))?;
    parse_input(&text, &ParseOptions::default()).map(|i| i.matrix).map_err(|e| PyValueError::new_err(format!("{}: {e}", path.display())))
}

/// A matrix from rows of 0/1 (any sequence of sequences of ints or bools).
fn from_rows(obj: &Bound<'_, PyAny>) -> PyResult<BitMatrix> {
    let mut rows = Vec::new();
    let mut cols: Option<usize> = None;
    for (r, row) in obj.try_iter()?.enumerate() {
        let row = row?;
        if row.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err("matrix rows must be sequences of 0/1 integers, not str (use Matrix.parse for text)"));
        }
        let mut bits = 0u128;
        let mut n = 0usize;
        for (c, v) in row.try_iter().map_err(|_| PyTypeError::new_err("a matrix is a sequence of rows of 0/1 values"))?.enumerate() {
            let v: i64 = v?.extract().map_err(|_| PyTypeError::new_err(format!("entry ({r}, {c}) is not an integer")))?;
            if c >= MAX_DIM {
                return Err(PyValueError::new_err(format!("more than {MAX_DIM} columns")));
            }
            match v {
                0 => {}
                1 => bits |= 1 << c,
                _ => return Err(PyValueError::new_err(format!("entry ({r}, {c}) is {v}, not 0 or 1"))),
            }
            n = c + 1;
        }
        match cols {
            None => cols = Some(n),
            Some(k) if k != n => return Err(PyValueError::new_err(format!("row {r} has {n} entries, row 0 has {k}"))),
            _ => {}
        }
        if r >= MAX_DIM {
            return Err(PyValueError::new_err(format!("more than {MAX_DIM} rows")));
        }
        rows.push(bits);
    }
    let cols = cols.ok_or_else(|| PyValueError::new_err("empty matrix"))?;
    if cols == 0 {
        return Err(PyValueError::new_err("matrix rows are empty"));
    }
    Ok(BitMatrix::from_rows(cols, rows))
}

/// Any accepted matrix form: a `Matrix`, a path (`str` or `os.PathLike`) of a matrix file, an
/// object with `tolist()` (a NumPy array), or a sequence of 0/1 rows.
fn to_matrix(obj: &Bound<'_, PyAny>) -> PyResult<BitMatrix> {
    if let Ok(m) = obj.cast::<Matrix>() {
        return Ok(m.get().m.clone());
    }
    if obj.is_instance_of::<PyString>() || obj.hasattr("__fspath__")? {
        return read_matrix_file(obj.extract::<PathBuf>()?);
    }
    if obj.hasattr("tolist")? {
        return from_rows(&obj.call_method0("tolist")?);
    }
    from_rows(obj)
}

#[pymethods]
impl Matrix {
    /// A matrix from rows of 0/1, a NumPy array, another `Matrix` or a file path.
    #[new]
    fn new(rows: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(Matrix { m: to_matrix(rows)? })
    }

    /// Parses matrix text (0/1 rows, BP format, or hex bytes over GF(2^8) with polynomial 0x11b).
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        Ok(Matrix { m: parse_text(text)? })
    }

    /// Number of rows (outputs).
    #[getter]
    fn rows(&self) -> usize {
        self.m.rows()
    }

    /// Number of columns (inputs).
    #[getter]
    fn cols(&self) -> usize {
        self.m.cols()
    }

    /// XORs of the naive implementation (each row on its own).
    #[getter]
    fn naive_xor_count(&self) -> usize {
        self.m.naive_xor_count()
    }

    /// The entries as a list of rows of 0/1 integers (`int`, not `bytes`).
    fn tolist(&self) -> Vec<Vec<u32>> {
        (0..self.m.rows()).map(|r| (0..self.m.cols()).map(|c| u32::from(self.m.get(r, c))).collect()).collect()
    }

    /// The matrix as 0/1 text, one row per line.
    fn text(&self) -> String {
        self.m.to_text()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py, (Vec<Vec<u32>>,)>> {
        Ok((slf.get_type().into_any(), (slf.get().tolist(),)))
    }

    fn __repr__(&self) -> String {
        format!("<Matrix {}x{} fingerprint {}>", self.m.rows(), self.m.cols(), self.m.fingerprint())
    }
}

/// A linear straight-line program: every operation XORs two earlier signals.
#[pyclass(frozen, module = "slicewise.slp", name = "Program")]
#[derive(Clone)]
pub(crate) struct Program {
    p: RsProgram,
}

#[pymethods]
impl Program {
    /// Parses the program text format (`t0 = x1 + x2` …, `yJ = …`, `#` comments and header).
    #[staticmethod]
    #[pyo3(signature = (text, n_inputs = None))]
    fn from_text(text: &str, n_inputs: Option<usize>) -> PyResult<Self> {
        Ok(Program { p: RsProgram::parse(text, n_inputs).map_err(value_error)? })
    }

    /// Number of XOR gates.
    #[getter]
    fn xor_count(&self) -> usize {
        self.p.xor_count()
    }

    /// Longest chain of XORs from an input to an output.
    #[getter]
    fn depth(&self) -> usize {
        self.p.depth()
    }

    /// Number of inputs.
    #[getter]
    fn n_inputs(&self) -> usize {
        self.p.n_inputs
    }

    /// Number of outputs.
    #[getter]
    fn n_outputs(&self) -> usize {
        self.p.outputs.len()
    }

    /// The algorithm that produced the program (from its header).
    #[getter]
    fn algorithm(&self) -> &str {
        &self.p.meta.algorithm
    }

    /// The seed of the run that produced the program.
    #[getter]
    fn seed(&self) -> u64 {
        self.p.meta.seed
    }

    /// The operations as `(a, b)` signal pairs: signals `0..n_inputs` are the inputs, signal
    /// `n_inputs + i` is operation `i`.
    #[getter]
    fn ops(&self) -> Vec<(usize, usize)> {
        self.p.ops.clone()
    }

    /// The matrix the program computes.
    fn matrix(&self) -> Matrix {
        Matrix { m: self.p.matrix() }
    }

    /// Whether the program computes `matrix` exactly (any accepted matrix form).
    fn verify(&self, matrix: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.p.verify(&to_matrix(matrix)?).is_ok())
    }

    /// The program in the text format (header line, notes, one operation per line).
    fn text(&self) -> String {
        self.p.to_text()
    }

    /// The program as `text`, `inplace`, `json`, `rust` or `c`; `name` is the function name of
    /// the Rust and C forms.
    #[pyo3(signature = (fmt = "text", *, name = "slp"))]
    fn emit(&self, fmt: &str, name: &str) -> PyResult<String> {
        let f: Emit = fmt.parse().map_err(PyValueError::new_err)?;
        let ctx = EmitContext { name: name.to_string(), command: None, matrix_desc: None };
        Ok(emit(&self.p, &self.p.matrix(), f, &ctx))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py, (String, usize)>> {
        let p = &slf.get().p;
        Ok((slf.get_type().getattr("from_text")?, (p.to_text(), p.n_inputs)))
    }

    /// Programs are equal when their gates and outputs are (the header is not compared).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Program>().is_ok_and(|o| {
            let q = &o.get().p;
            (self.p.n_inputs, &self.p.ops, &self.p.outputs) == (q.n_inputs, &q.ops, &q.outputs)
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "<Program {} XORs, depth {}, {} -> {} ({}, seed {})>",
            self.p.xor_count(),
            self.p.depth(),
            self.p.n_inputs,
            self.p.outputs.len(),
            self.p.meta.algorithm,
            self.p.meta.seed
        )
    }
}

fn seconds(name: &str, s: Option<f64>) -> PyResult<Option<Duration>> {
    slicewise_slp::budget::optional_seconds(name, s).map_err(PyValueError::new_err)
}

fn all_cores(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1)
}

/// Runs `work` on a thread of its own while this one waits without the interpreter, a tenth
/// of a second at a time, and lets Python handle signals in between: on Ctrl-C
/// (KeyboardInterrupt, or any exception a signal handler raises) it sets `cancel`, waits for
/// `work` to end early and raises that exception.
fn interruptible<T: Send>(py: Python<'_>, cancel: &AtomicBool, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel();
        s.spawn(move || {
            let _ = tx.send(work());
        });
        let mut rx = rx;
        loop {
            let (back, got) = py.detach(move || {
                let got = rx.recv_timeout(Duration::from_millis(100));
                (rx, got)
            });
            rx = back;
            match got {
                Ok(r) => return Ok(r),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        cancel.store(true, Ordering::SeqCst);
                        py.detach(move || {
                            let _ = rx.recv();
                        });
                        return Err(e);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => return Err(PyRuntimeError::new_err("internal error: the search ended without a result")),
            }
        }
    })
}

/// Searches for a short XOR program computing `matrix`. The default `algorithm="auto"` is the
/// portfolio of `slicewise slp optimize` (the same arms, polish chains and header, from
/// `slicewise_slp::auto`): random restarts over A2/A1/RNBP/s-XOR with re-synthesis budgets
/// (plus split arms for large matrices that split, and word arms for matrices over GF(2^8)),
/// then polishing of the best programs; run `r` uses seed `seed + r`, and the header names the
/// command that repeats the winner alone. Any other algorithm (`slp_algorithms`) runs seeded
/// restarts of that heuristic, each reproducible on its own, with `resynth` iterations of local
/// re-synthesis per run and, with `split`, every run first split along the matrix's block
/// involutions (the CLI's `--split`), chosen at each level by `split_choice`: `"cheapest"` (the
/// smallest estimated count) or `"random"` (the CLI's `--split-choice`).
///
/// The search stops after `seconds` (for `"auto"`: exploring and polishing together) or
/// after `runs` runs, whichever comes first; with `runs` and `seconds=None` the result is
/// deterministic for any number of threads. Runs with the interpreter released, on `threads`
/// threads (default: all cores). Returns the best program, verified. With `"auto"`, Ctrl-C
/// (KeyboardInterrupt) ends the search within a run or polish round and raises.
#[pyfunction]
#[pyo3(signature = (matrix, *, algorithm = "auto", seconds = 10.0, threads = None, seed = 0, runs = None, max_depth = None, resynth = 0, split = false, split_choice = "cheapest"))]
#[allow(clippy::too_many_arguments)]
fn optimize(
    py: Python<'_>,
    matrix: &Bound<'_, PyAny>,
    algorithm: &str,
    seconds: Option<f64>,
    threads: Option<usize>,
    seed: u64,
    runs: Option<u64>,
    max_depth: Option<usize>,
    resynth: usize,
    split: bool,
    split_choice: &str,
) -> PyResult<Program> {
    let m = to_matrix(matrix)?;
    let auto = algorithm.eq_ignore_ascii_case("auto");
    let algorithm: Algorithm = if auto { Algorithm::Mix } else { algorithm.parse().map_err(|e: String| PyValueError::new_err(format!("{e}, or auto")))? };
    let split_choice = SplitChoice::parse(split_choice)
        .ok_or_else(|| PyValueError::new_err(format!("split_choice must be \"cheapest\" or \"random\", not {split_choice:?}")))?;
    let time_limit = self::seconds("seconds", seconds)?;
    if time_limit.is_none() && runs.is_none() {
        return Err(PyValueError::new_err("give seconds or runs (or both): the search needs a bound"));
    }
    if runs == Some(0) {
        return Err(PyValueError::new_err("runs must be at least 1"));
    }
    let threads = all_cores(threads);
    if auto {
        if split || resynth > 0 {
            return Err(PyValueError::new_err("split and resynth are options of a single algorithm: algorithm=\"auto\" has its own split arms and re-synthesis budgets"));
        }
        let cancel = Arc::new(AtomicBool::new(false));
        let opts = AutoOptions {
            threads,
            seed,
            time_limit: seconds,
            default_time_limit: false,
            runs,
            max_depth,
            split_choice,
            cancel: Some(cancel.clone()),
            ..AutoOptions::new(&m)
        };
        let r = interruptible(py, &cancel, || slicewise_slp::auto::optimize(&m, &opts, &|_, _| {}))?;
        return Ok(Program { p: r.map_err(|e| PyValueError::new_err(format!("{e:#}")))?.program });
    }
    let opts = SearchOptions { algorithm, threads, seed, time_limit, runs, max_depth, resynth, split, split_choice };
    let report = py.detach(|| search(&m, &opts, &|_, _| {}, &|_| {}));
    let report = report.ok_or_else(|| PyValueError::new_err(format!("no program found (is the depth bound {max_depth:?} achievable?)")))?;
    report.program.verify(&m).map_err(|e| PyRuntimeError::new_err(format!("internal error: program does not verify: {e}")))?;
    Ok(Program { p: report.program })
}

/// The outcome of `exact`.
#[pyclass(frozen, module = "slicewise.slp", name = "ExactResult", get_all)]
pub(crate) struct ExactResult {
    /// The best program found (by the exact search, or the heuristic upper bound), or `None`.
    program: Option<Program>,
    /// No program computing the matrix has fewer XORs than this.
    lower_bound: usize,
    /// Whether `program` is proven optimal (`program.xor_count == lower_bound`).
    optimal: bool,
    /// `(k, outcome, seconds)` per solver call, outcome `sat`, `unsat` or `timeout`
    /// (with the enumeration, `unsat` means no program of at most k XORs).
    log: Py<PyList>,
}

#[pymethods]
impl ExactResult {
    fn __repr__(&self) -> String {
        let prog = self.program.as_ref().map_or("no program".to_string(), |p| format!("{} XORs", p.p.xor_count()));
        format!("<ExactResult {prog}, lower bound {}, optimal {}>", self.lower_bound, if self.optimal { "True" } else { "False" })
    }
}

/// Exact search: the optimal XOR count, or a proven lower bound when `seconds` run out (the
/// options of `slicewise slp exact`, through the same library struct,
/// `slicewise_slp::exact::ExactSearch`). A heuristic search of `heuristic_seconds` first gives
/// the upper bound. `method` is `"enumerate"` (helper-set enumeration: up to 20 inputs, fast
/// there, no proof) or `"sat"` (CaDiCaL; with `proof_dir`, the CNF of every k and the DRAT
/// proof of every UNSAT answer are kept there; `force` replaces a previous run's files); by
/// default `"sat"` with `proof_dir`, a SAT option or above 20 inputs, `"enumerate"`
/// otherwise. `threads` (default: all cores): the enumeration's workers, or SAT solvers at
/// once. `max_k` stops after refuting that k. Matrices up to 64×64.
///
/// `drop_inputs` (a list of columns, 0 first, or `"auto"`) proves the bound through the matrix
/// without those columns: setting an input to 0 removes at least one XOR, so the whole matrix
/// needs as many more (`crates/slp/src/restrict.rs`). The search then runs on the smaller
/// matrix (its proofs, with `proof_dir`, come with `restriction.json`); `lower_bound` is the
/// lifted bound, `program` the heuristic program for the whole matrix, and `log` the smaller
/// matrix's. `"auto"` tries column sets with the enumeration (no proofs); its `log` lists
/// `(columns, bound for the smaller matrix, seconds)` per set tried.
///
/// SAT only: `caps` (levels, 0 for none) first proves a bound for the matrix without each
/// column (with `proof_dir`, in `cap-C` sub-directories; `cap_share` of the time) and caps, in
/// every CNF, the lines that setting that input to zero would make redundant
/// (`crates/slp/src/satcaps.rs`); `cubes` splits each k into cubes on a cap, one solver per
/// thread; `targets_first` orders lines that hold a target first. With `caps=2, cubes=True,
/// targets_first=True` the random 8×8 optima get checkable proofs within a minute on two cores.
#[pyfunction]
#[pyo3(signature = (matrix, *, seconds = 60.0, proof_dir = None, heuristic_seconds = 2.0, method = None, threads = None, drop_inputs = None, caps = 0, cubes = false, targets_first = false, max_k = None, force = false, cap_share = 0.3))]
#[allow(clippy::too_many_arguments)]
fn exact(
    py: Python<'_>,
    matrix: &Bound<'_, PyAny>,
    seconds: f64,
    proof_dir: Option<PathBuf>,
    heuristic_seconds: f64,
    method: Option<&str>,
    threads: Option<usize>,
    drop_inputs: Option<&Bound<'_, PyAny>>,
    caps: usize,
    cubes: bool,
    targets_first: bool,
    max_k: Option<usize>,
    force: bool,
    cap_share: f64,
) -> PyResult<ExactResult> {
    let m = to_matrix(matrix)?;
    let drop_inputs = match drop_inputs {
        None => None,
        Some(d) if d.extract::<String>().is_ok_and(|s| s == "auto") => Some(DropInputs::Auto),
        Some(d) => Some(DropInputs::Columns(d.extract().map_err(|_| PyTypeError::new_err("drop_inputs must be a list of column numbers or \"auto\""))?)),
    };
    let method = match method {
        None => None,
        Some(x) => Some(Method::parse(x).ok_or_else(|| PyValueError::new_err(format!("method must be \"enumerate\" or \"sat\", not {x:?}")))?),
    };
    let opts = ExactSearch {
        time_limit: seconds,
        heuristic_time: heuristic_seconds,
        method,
        threads: all_cores(threads),
        proof_dir,
        force,
        max_k,
        caps,
        cap_share,
        cubes,
        targets_first,
        drop_inputs,
    };
    // Errors of the options and of the search alike are the caller's (a bad column list, a
    // proof directory in use, a budget out of range): ValueError.
    let outcome = py.detach(|| slicewise_slp::exact::run(&m, &opts, |_| {})).map_err(|e| PyValueError::new_err(format!("{e:#}")))?;
    let log = PyList::empty(py);
    if matches!(opts.drop_inputs, Some(DropInputs::Auto)) {
        for t in &outcome.tried {
            log.append((t.drop.clone(), t.sub_bound, t.secs))?;
        }
    } else {
        for (k, tag, t) in &outcome.log {
            log.append((*k, *tag, *t))?;
        }
    }
    Ok(ExactResult { program: outcome.program.map(|p| Program { p }), lower_bound: outcome.lower_bound, optimal: outcome.optimal, log: log.unbind() })
}
