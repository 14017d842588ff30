//! Random restarts: seeded, time-limited, multi-threaded (rayon).
//!
//! Run `r` of a search with `--seed S` uses the seed `S + r` for its own ChaCha8 generator, so
//! every run is reproducible on its own: `--seed S+r --runs 1` repeats it exactly. Which runs
//! complete within a time limit depends on the machine; the printed header names the seed of
//! the run that produced the program.

use std::str::FromStr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::bp::{BpOptions, Criterion, bp};
use crate::matrix::BitMatrix;
use crate::paar::paar;
use crate::program::Program;
use crate::resynth::{ResynthOptions, resynth};
use crate::split::SplitChoice;
use crate::sxor::{sxor, sxor_rows};

/// A heuristic for `slicewise slp optimize`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algorithm {
    /// Paar's cancellation-free algorithm (deterministic).
    Paar,
    /// Paar with random tie-breaking.
    RPaar,
    /// Boyar–Peralta with its original tie-breaking.
    Bp,
    /// Randomized BP (Tan–Peyrin RNBP).
    Rnbp,
    /// Tan–Peyrin A1.
    A1,
    /// Tan–Peyrin A2.
    A2,
    /// Xiang et al. in-place s-XOR: decomposition with row and column operations, product
    /// rules, window re-synthesis.
    Sxor,
    /// The earlier s-XOR greedy with row operations only (kept for checked-in programs).
    SxorRows,
    /// Cycle through A2, RNBP, A1 and the row-only s-XOR run by run.
    Mix,
    /// Shared XOR trees under the depth bound ([`crate::trees`]; needs `--max-depth`).
    Trees,
    /// A `Trees` run followed by [`TREES_WALK_MOVES`] moves of the value-set plateau walk
    /// ([`crate::plateau::walk`], seeded with the run's seed), within the bound: the portfolio's
    /// arm one and two levels above the least depth, where the raw trees programs are longer
    /// than the other arms' but walk to shorter ones.
    TreesWalk,
}

/// Plateau-walk moves of an [`Algorithm::TreesWalk`] run: about 30 s on AES MixColumns at depth
/// 4 (Zen 4), where the walks of the trees programs found their best after 62 000 and 306 100
/// moves (seeds 1 and 0) and 310 498 (seed 8, the start of the 90; docs/slp-history.md).
pub const TREES_WALK_MOVES: u64 = 400_000;

impl Algorithm {
    /// All names accepted by `--algorithm`.
    pub const NAMES: &'static [&'static str] = &["paar", "rpaar", "bp", "rnbp", "a1", "a2", "sxor", "sxor-rows", "mix", "trees", "trees-walk"];

    /// The name used on the command line and in headers.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Paar => "paar",
            Algorithm::RPaar => "rpaar",
            Algorithm::Bp => "bp",
            Algorithm::Rnbp => "rnbp",
            Algorithm::A1 => "a1",
            Algorithm::A2 => "a2",
            Algorithm::Sxor => "sxor",
            Algorithm::SxorRows => "sxor-rows",
            Algorithm::Mix => "mix",
            Algorithm::Trees => "trees",
            Algorithm::TreesWalk => "trees-walk",
        }
    }

    /// Deterministic algorithms need only one run.
    pub fn is_deterministic(self) -> bool {
        matches!(self, Algorithm::Paar | Algorithm::Bp)
    }
}

impl FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "paar" | "paar1" => Algorithm::Paar,
            "rpaar" | "rpaar1" => Algorithm::RPaar,
            "bp" => Algorithm::Bp,
            "rnbp" => Algorithm::Rnbp,
            "a1" => Algorithm::A1,
            "a2" => Algorithm::A2,
            "sxor" | "s-xor" | "xiang" => Algorithm::Sxor,
            "sxor-rows" => Algorithm::SxorRows,
            "mix" => Algorithm::Mix,
            "trees" => Algorithm::Trees,
            "trees-walk" => Algorithm::TreesWalk,
            other => return Err(format!("unknown algorithm {other:?} (one of {})", Algorithm::NAMES.join(", "))),
        })
    }
}

/// Options of [`search`].
#[derive(Debug, Clone)]
pub struct SearchOptions {
    /// The heuristic.
    pub algorithm: Algorithm,
    /// Worker threads.
    pub threads: usize,
    /// Seed of run 0.
    pub seed: u64,
    /// Stop starting runs after this long.
    pub time_limit: Option<Duration>,
    /// Stop after this many runs.
    pub runs: Option<u64>,
    /// Depth bound.
    pub max_depth: Option<usize>,
    /// Local re-synthesis iterations applied to each run's program (0: off).
    pub resynth: usize,
    /// Split along block involutions first ([`run_split`]; `--split`).
    pub split: bool,
    /// How the split chooses its involutions (`--split-choice`).
    pub split_choice: SplitChoice,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions { algorithm: Algorithm::A2, threads: 1, seed: 0, time_limit: None, runs: Some(1), max_depth: None, resynth: 0, split: false, split_choice: SplitChoice::Cheapest }
    }
}

/// Result of a search.
#[derive(Debug, Clone)]
pub struct SearchReport {
    /// Best verified program.
    pub program: Program,
    /// Completed runs.
    pub runs: u64,
    /// Total time.
    pub elapsed: Duration,
    /// Time at which the best program was found.
    pub found_after: Duration,
}

/// One run with the given seed. The program is verified against `m`.
pub fn run_once(m: &BitMatrix, alg: Algorithm, seed: u64, max_depth: Option<usize>, resynth_iters: usize) -> Option<Program> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let alg = if alg == Algorithm::Mix {
        let cycle = if m.is_invertible() { 4 } else { 3 };
        // The row-only s-XOR, as before the faithful one, so that recorded `-a mix` seeds repeat.
        [Algorithm::A2, Algorithm::Rnbp, Algorithm::A1, Algorithm::SxorRows][(seed % cycle) as usize]
    } else {
        alg
    };
    let bp_with = |c: Criterion, rng: &mut ChaCha8Rng| bp(m, &BpOptions { criterion: c, max_depth, ..Default::default() }, rng);
    let mut p = match alg {
        Algorithm::Paar => Some(paar(m, None)),
        Algorithm::RPaar => Some(paar(m, Some(&mut rng))),
        Algorithm::Bp => bp_with(Criterion::Original, &mut rng),
        Algorithm::Rnbp => bp_with(Criterion::Rnbp, &mut rng),
        Algorithm::A1 => bp_with(Criterion::A1, &mut rng),
        Algorithm::A2 => bp_with(Criterion::A2, &mut rng),
        Algorithm::Sxor => sxor(m, &mut rng).map(|ip| ip.to_program()),
        Algorithm::SxorRows => sxor_rows(m, &mut rng).map(|ip| ip.to_program()),
        Algorithm::Mix => unreachable!(),
        // A run of its own generator (seeded from `seed`); no program without a depth bound.
        Algorithm::Trees => crate::trees::anneal(m, &crate::trees::TreeOptions::new(max_depth?), seed),
        Algorithm::TreesWalk => crate::trees::anneal(m, &crate::trees::TreeOptions::new(max_depth?), seed).map(|p| {
            let o = crate::plateau::WalkOptions { iters: Some(TREES_WALK_MOVES), max_depth, ..Default::default() };
            crate::plateau::walk(m, &p, &o, seed, None, &mut |_| {}).0
        }),
    }?;
    if let Some(d) = max_depth
        && p.depth() > d
    {
        return None;
    }
    if resynth_iters > 0 {
        let name = alg.name();
        p = resynth(&p, &ResynthOptions { iterations: resynth_iters, max_depth, ..Default::default() }, &mut rng);
        p.meta.algorithm = format!("{name}+resynth");
    } else {
        p.meta.algorithm = alg.name().to_string();
    }
    p.meta.seed = seed;
    if let Err(e) = p.verify(m) {
        panic!("internal error: {} produced a wrong program (seed {seed}): {e}", alg.name());
    }
    Some(p)
}

/// One run of a split arm ([`crate::split`]): the matrix is split along block involutions
/// as far as they go (deeper splits polish lower: Khazad 373–398 after 25 s of polishing,
/// against 402–427 with two levels), every leaf is one run of `alg` (falling
/// back to A2 where `alg` does not apply), and the assembled program gets `resynth_iters`
/// iterations of local re-synthesis. `choice` picks the involution at each level. Without a
/// block involution this is a plain run. The program is verified against `m`; `None` if it
/// exceeds `max_depth`.
pub fn run_split(m: &BitMatrix, alg: Algorithm, seed: u64, max_depth: Option<usize>, resynth_iters: usize, choice: SplitChoice) -> Option<Program> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x7370_6c69_7400_0000);
    let mut leaf = |sub: &BitMatrix, s: u64| run_once(sub, alg, s, None, 0).or_else(|| run_once(sub, Algorithm::A2, s, None, 0));
    let mut p = crate::split::split_program(m, usize::MAX, choice, &mut rng, &mut leaf)?;
    let name = format!("split:{}", alg.name());
    if resynth_iters > 0 {
        p = resynth(&p, &ResynthOptions { iterations: resynth_iters, max_depth, ..Default::default() }, &mut rng);
        p.meta.algorithm = format!("{name}+resynth");
    } else {
        p.meta.algorithm = name;
    }
    if max_depth.is_some_and(|d| p.depth() > d) {
        return None;
    }
    p.meta.seed = seed;
    p.meta.notes.push(format!("split choice: {}", choice.name()));
    if let Err(e) = p.verify(m) {
        panic!("internal error: split:{} produced a wrong program (seed {seed}): {e}", alg.name());
    }
    Some(p)
}

fn better(a: &Program, b: &Program) -> bool {
    (a.xor_count(), a.depth(), a.meta.seed) < (b.xor_count(), b.depth(), b.meta.seed)
}

/// A quick upper bound for the exact searches: restarts of [`Algorithm::Mix`] on one thread,
/// seed 0, for `seconds`.
pub fn quick_program(m: &BitMatrix, seconds: f64) -> Option<Program> {
    let o = SearchOptions {
        algorithm: Algorithm::Mix,
        threads: 1,
        seed: 0,
        time_limit: Some(std::time::Duration::from_secs_f64(seconds.max(0.0))),
        runs: None,
        max_depth: None,
        resynth: 0,
        split: false,
        split_choice: SplitChoice::Cheapest,
    };
    search(m, &o, &|_, _| {}, &|_| {}).map(|r| r.program)
}

/// Runs restarts until the time limit or run count is reached. `on_improve` is called with
/// every new best program and the number of completed runs; `on_run` after every run.
pub fn search(
    m: &BitMatrix,
    opts: &SearchOptions,
    on_improve: &(dyn Fn(&Program, u64) + Sync),
    on_run: &(dyn Fn(u64) + Sync),
) -> Option<SearchReport> {
    let start = Instant::now();
    let runs_limit = if opts.algorithm.is_deterministic() && opts.resynth == 0 && !opts.split { Some(1) } else { opts.runs };
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let best: Mutex<Option<(Program, Duration)>> = Mutex::new(None);
    let worker = || {
        loop {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            if let Some(t) = opts.time_limit
                && start.elapsed() >= t
                && done.load(Ordering::Relaxed) > 0
            {
                break;
            }
            let r = next.fetch_add(1, Ordering::Relaxed);
            if runs_limit.is_some_and(|l| r >= l) {
                break;
            }
            let seed = opts.seed.wrapping_add(r);
            let p = if opts.split {
                run_split(m, opts.algorithm, seed, opts.max_depth, opts.resynth, opts.split_choice)
            } else {
                run_once(m, opts.algorithm, seed, opts.max_depth, opts.resynth)
            };
            let d = done.fetch_add(1, Ordering::Relaxed) + 1;
            if let Some(p) = p {
                let mut g = best.lock().expect("poisoned");
                if g.as_ref().is_none_or(|(b, _)| better(&p, b)) {
                    on_improve(&p, d);
                    *g = Some((p, start.elapsed()));
                }
            }
            on_run(d);
        }
    };
    let threads = opts.threads.max(1);
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.broadcast(|_| worker()),
        Err(_) => vec![worker()],
    };
    stop.store(true, Ordering::Relaxed);
    let (program, found_after) = best.into_inner().expect("poisoned")?;
    Some(SearchReport { program, runs: done.load(Ordering::Relaxed), elapsed: start.elapsed(), found_after })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_reproducible() {
        let m = crate::matrix::expand_gf256(&crate::matrix::circulant(&[2, 3, 1, 1]), 0x11b);
        let a = run_once(&m, Algorithm::Rnbp, 42, None, 0).unwrap();
        let b = run_once(&m, Algorithm::Rnbp, 42, None, 0).unwrap();
        assert_eq!(a, b);
        let opts = SearchOptions { algorithm: Algorithm::Mix, threads: 2, seed: 1, runs: Some(6), ..Default::default() };
        let r = search(&m, &opts, &|_, _| {}, &|_| {}).unwrap();
        assert_eq!(r.runs, 6);
        r.program.verify(&m).unwrap();
        let again = run_once(&m, Algorithm::Mix, r.program.meta.seed, None, 0).unwrap();
        assert_eq!(again.xor_count(), r.program.xor_count());
    }
}
