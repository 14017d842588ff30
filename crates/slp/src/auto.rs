//! The default optimizer: the portfolio of [`crate::portfolio`] with the arms a matrix gets, as
//! `slicewise slp optimize` (`-a auto`), Python's `slicewise.slp.optimize()` and each task of
//! `optimize_distributed` run it. This is the one place that decides the arms (bit arms, split
//! arms for large matrices that split two levels deep, word arms for matrices over GF(2^8)),
//! the share of the time for polishing and the number of chains, and that writes the winner's
//! header: its arm, polish segments and the command that repeats it alone.


use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Result, bail, ensure};

use crate::matrix::BitMatrix;
use crate::portfolio::{Arm, PolishConfig, PortfolioOptions, PortfolioReport, default_arms, default_polishers, portfolio, split_arms, word_arms};
use crate::program::Program;
use crate::search::{Algorithm, SearchOptions, run_once, run_split};
use crate::split::SplitChoice;
use crate::word::{ByteForm, detect_bytes, synthesize};

/// Under a depth bound, a polish chain (not the leading one) that has not improved for this
/// long continues from a fresh exploration run ([`PortfolioOptions::refill_idle`]): there the
/// trees arms' starts differ more than polishing moves them (AES MixColumns at depth 5: 46
/// trees-walk runs gave 89 to 92, and chains polished the same 89s for hours). Chosen, not
/// tuned: long enough for a chain from a fresh start to come down (hundreds of rounds).
const REFILL_IDLE: std::time::Duration = std::time::Duration::from_secs(180);

/// Options of [`optimize`]. [`AutoOptions::new`] gives the defaults for a matrix.
#[derive(Debug, Clone)]
pub struct AutoOptions {
    /// Worker threads.
    pub threads: usize,
    /// Seed: run `r` uses seed `seed + r`.
    pub seed: u64,
    /// Seconds for exploring and polishing together (checked by [`crate::budget::seconds`]);
    /// `None`: bounded by `runs` alone.
    pub time_limit: Option<f64>,
    /// Whether `time_limit` is the front's default rather than the user's (for the header).
    pub default_time_limit: bool,
    /// Exploration runs (without a time limit: exactly this many, followed by polish rounds).
    pub runs: Option<u64>,
    /// Polish rounds over all chains (default with `runs`: two thirds of them).
    pub polish_rounds: Option<u64>,
    /// Seconds of the time limit kept for polishing (default: a share that depends on the
    /// matrix and the arms).
    pub polish_time: Option<f64>,
    /// Depth bound (split and word arms then stay out).
    pub max_depth: Option<usize>,
    /// The polish chains' polishers.
    pub polish: PolishConfig,
    /// How the split arms choose their involutions.
    pub split_choice: SplitChoice,
    /// The matrix over GF(2^8) behind the binary matrix, if any: it brings the word arms.
    pub byte_form: Option<ByteForm>,
    /// Whether `byte_form` was given as bytes (a hex file, a circulant) rather than recognised
    /// in the binary matrix (for the header).
    pub bytes_given: bool,
    /// Word arms only (the CLI's `--word-level --expand`); needs `byte_form`.
    pub word_only: bool,
    /// How the header's "repeat the winner alone" command names the matrix (the CLI's matrix
    /// arguments; `MATRIX` by default).
    pub matrix_flags: String,
    /// Set to `true` from another thread (a Ctrl-C watcher) to end the search early; the best
    /// program so far is the winner, with its repeat line, and its header says it was
    /// interrupted ([`PortfolioOptions::cancel`]).
    pub cancel: Option<Arc<AtomicBool>>,
}

impl AutoOptions {
    /// The defaults for `m`: one thread, seed 0, 10 seconds, the polish configuration for its
    /// size ([`PolishConfig::for_size`]), split choice `cheapest`, and word arms when `m` reads
    /// as a matrix over GF(2^8) ([`detect_bytes`]).
    pub fn new(m: &BitMatrix) -> Self {
        AutoOptions {
            threads: 1,
            seed: 0,
            time_limit: Some(10.0),
            default_time_limit: true,
            runs: None,
            polish_rounds: None,
            polish_time: None,
            max_depth: None,
            polish: PolishConfig::for_size(m.rows(), m.cols()),
            split_choice: SplitChoice::Cheapest,
            byte_form: detect_bytes(m),
            bytes_given: false,
            word_only: false,
            matrix_flags: "MATRIX".into(),
            cancel: None,
        }
    }
}

/// Result of [`optimize`].
#[derive(Debug, Clone)]
pub struct AutoResult {
    /// The winner, verified, with its header: algorithm `auto:…`, the arm, the polish
    /// segments, the portfolio's notes and the command that repeats it.
    pub program: Program,
    /// The portfolio's report (arms, runs, winner, times).
    pub report: PortfolioReport,
}

impl AutoResult {
    /// `a1+resynth300 12 (best 97), …`: the runs and best count of every arm.
    pub fn arm_list(&self) -> String {
        let v: Vec<String> =
            self.report.arms.iter().map(|r| format!("{} {}{}", r.arm.name(), r.runs, r.best.map_or(String::new(), |b| format!(" (best {b})")))).collect();
        v.join(", ")
    }

    /// The winner's polish segments as `(seeds, rounds)`, comma-separated (empty: no polish).
    pub fn polish_lists(&self) -> (String, String) {
        let join = |f: fn(&(u64, u64)) -> u64| self.report.winner.polish.iter().map(|x| f(x).to_string()).collect::<Vec<_>>().join(",");
        (join(|x| x.0), join(|x| x.1))
    }
}

/// The arms for `m` under `o`: the bit arms ([`default_arms`]) unless word only, the split arms
/// without a depth bound, and the word arms when the byte form fits (two of them beside the
/// bit arms below 64×64).
fn arms(m: &BitMatrix, o: &AutoOptions, form: Option<&ByteForm>) -> Vec<Arm> {
    let mut arms = if o.word_only { Vec::new() } else { default_arms(m.rows(), m.cols(), m.is_invertible()) };
    // Split programs are deep (the pieces are stacked), so they join only without a depth bound.
    if !o.word_only && o.max_depth.is_none() {
        arms.extend(split_arms(m));
    }
    // Under the least depth bound the heaviest row allows, the shared-tree annealer
    // (crate::trees): AES MixColumns at depth 3, 97 in under a second, where the other arms stop at
    // 103 (the polish chains took minutes to 97). One depth more, its model (every non-output
    // value at its least depth, outputs as parts) gives 96-98 in about 10 s a run against the
    // other arms' 95 in milliseconds, but a plateau walk takes them to 93-95 and polishing to
    // 90-94 (docs/slp-history.md, issue 33, "90 at depth 4"): there, and one level higher
    // (depth 5: 89-92 walked, 89-91 polished, against 90 for the other arms), the arm is
    // trees + walk. Higher bounds were not measured.
    if let Some(d) = o.max_depth
        && !o.word_only
        && let Some(least) = (1..=d).find(|&k| crate::trees::applies(m, k))
    {
        if d == least {
            arms.push(Arm::bits(Algorithm::Trees, 0));
        } else if d <= least + 2 {
            arms.push(Arm::bits(Algorithm::TreesWalk, 0));
        }
    }
    if let Some(f) = form {
        // The word stage works on the binary layers (rows x bits of the coefficients) over the byte inputs.
        // Below 64x64 the word arms rarely win (AES: 108 against 95), so only two join the bit arms.
        let few = !o.word_only && m.rows().max(m.cols()) < 64;
        arms.extend(word_arms(f.bytes.len() * f.layers(), f.bytes[0].len(), few));
    }
    arms
}

/// Runs the portfolio on `m`. `on_improve(program, runs)` hears every new best count. Errors:
/// a time budget out of range, `word_only` without a byte form, no program (a depth bound that
/// cannot be met).
pub fn optimize(m: &BitMatrix, o: &AutoOptions, on_improve: &(dyn Fn(&Program, u64) + Sync)) -> Result<AutoResult> {
    let time_limit = crate::budget::optional_seconds("the time limit", o.time_limit).map_err(anyhow::Error::msg)?;
    let polish_time = crate::budget::optional_seconds("the polish time", o.polish_time).map_err(anyhow::Error::msg)?;
    ensure!(time_limit.is_some() || o.runs.is_some(), "the portfolio needs a time limit or a number of runs");
    ensure!(o.runs != Some(0), "runs must be at least 1");
    let max_depth = if o.word_only { None } else { o.max_depth };
    // Word arms ignore depth bounds, and the Horner layers must fit one 128-column matrix.
    let form = o.byte_form.as_ref().filter(|f| (o.word_only || max_depth.is_none()) && f.layers() > 0 && f.bytes.len() * f.layers() <= 128);
    if o.word_only && form.is_none() {
        bail!("--word-level needs a matrix over GF(2^8): a hex-byte file, --circulant, or a binary matrix made of 8x8 multiplication blocks");
    }
    let arms = arms(m, &AutoOptions { max_depth, ..o.clone() }, form);
    let any_word = arms.iter().any(|a| a.word);
    let any_split = arms.iter().any(|a| a.split);
    let large = m.rows().max(m.cols()) >= 64;
    let opts = PortfolioOptions {
        threads: o.threads.max(1),
        seed: o.seed,
        time_limit,
        runs: o.runs,
        polish_rounds: o.polish_rounds,
        polish_time,
        // Programs of 64x64 matrices are large (~370 gates) and a chain needs hundreds of
        // rounds to come down, so polishing gets more of the time there; most of it when split
        // arms are in, whose programs start long and polish lowest.
        polish_fraction: match (large, any_split, any_word) {
            (true, true, _) => 0.9,
            (true, false, true) => 0.6,
            _ => 0.4,
        },
        max_depth,
        arms,
        polishers: default_polishers(&o.polish),
        // Against the clock, a 64x64 matrix gets one chain per thread: each chain then runs at
        // full speed (FSE_SKOP15_i_8x8_8, prototype runs of 60 s: 351-352 with 2 chains against
        // 357-359 with 4).
        // With runs the count stays fixed, so that the result does not depend on the threads.
        chains: if large && time_limit.is_some() && o.runs.is_none() { o.threads.max(1) } else { 4 },
        refill_idle: if max_depth.is_some() { Some(REFILL_IDLE) } else { None },
        cancel: o.cancel.clone(),
    };
    let generate = |arm: Arm, seed: u64| -> Option<Program> {
        match (form, arm.word) {
            (Some(f), true) => {
                let so = SearchOptions { algorithm: arm.algorithm, threads: 1, seed, time_limit: None, runs: Some(1), max_depth: None, resynth: arm.resynth, split: false, split_choice: SplitChoice::Cheapest };
                let wp = synthesize(&f.bytes, f.poly, &so)?;
                let mut p = f.to_matrix_order(wp.expand());
                p.verify(m).ok()?;
                p.meta.notes.push(format!("from the word program: {} XOR + {} xtime = {} bit XORs", wp.xor_count(), wp.xtime_count(), wp.bit_cost()));
                Some(p)
            }
            _ if arm.split => run_split(m, arm.algorithm, seed, max_depth, arm.resynth, o.split_choice),
            _ => run_once(m, arm.algorithm, seed, max_depth, arm.resynth),
        }
    };
    let Some(report) = portfolio(m, &opts, &generate, on_improve) else {
        bail!("no program found (is the depth bound {:?} achievable?)", o.max_depth);
    };
    let mut r = AutoResult { program: report.program.clone(), report };
    annotate(&mut r, o, form, max_depth);
    if o.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
        let t = r.report.elapsed.as_secs_f64();
        r.program.meta.notes.push(format!("interrupted after {t:.1} s: the best program found until then (the repeat line repeats it)"));
    }
    r.program.verify(m).map_err(|e| anyhow::anyhow!("internal error: the portfolio's program does not verify: {e}"))?;
    Ok(r)
}

/// The winner's header: algorithm and seed, the arm and polish segments, the byte form of a
/// word arm, the portfolio's budget and arms, and the command that repeats the winner.
fn annotate(r: &mut AutoResult, o: &AutoOptions, form: Option<&ByteForm>, max_depth: Option<usize>) {
    let (polish_seeds, polish_rounds) = r.polish_lists();
    let arm_list = r.arm_list();
    let (rep, p) = (&r.report, &mut r.program);
    let w = &rep.winner;
    let polished = !w.polish.is_empty();
    p.meta.algorithm = format!("auto:{}{}", p.meta.algorithm, if polished { "+polish" } else { "" });
    p.meta.seed = w.run_seed;
    p.meta.extra.push(format!("arm: {}", w.arm.name()));
    if polished {
        p.meta.extra.push(format!("polish-seed: {polish_seeds}  polish-rounds: {polish_rounds}"));
    }
    if w.arm.word
        && let Some(f) = form
    {
        p.meta.notes.push(f.note(o.bytes_given));
    }
    let mut repeat = format!("slicewise slp optimize {} {} --seed {} --runs 1", o.matrix_flags, w.arm.flags(), w.run_seed);
    if w.arm.split {
        repeat.push_str(&format!(" --split-choice {}", o.split_choice.name()));
    }
    if let Some(d) = max_depth {
        repeat.push_str(&format!(" --max-depth {d}"));
    }
    let c = &o.polish;
    if polished {
        repeat.push_str(&format!(" --polish-rounds {polish_rounds} --polish-seed {polish_seeds} --window {} --bp-walk {}", c.window, c.bp_walk));
        if c.exact {
            repeat.push_str(&format!(" --small-windows {} --plateau {}", c.small_windows, c.plateau));
        } else {
            repeat.push_str(" --no-exact-windows");
        }
        if c.walk_moves > 0 {
            repeat.push_str(&format!(" --walk-polish {}", c.walk_moves));
        }
    }
    let budget = match (o.time_limit, o.default_time_limit) {
        (Some(t), false) => format!("time limit {t} s"),
        (Some(t), true) => format!("time limit {t} s (the default without --time-limit and --runs)"),
        (None, _) => format!("--runs {}", o.runs.unwrap_or(0)),
    };
    let explored = rep.runs - rep.refill_runs;
    let refills = if rep.refill_runs > 0 { format!(" ({} more refilled idle chains)", rep.refill_runs) } else { String::new() };
    p.meta.notes.push(format!(
        "portfolio: {budget}, {} threads; {explored} runs in {:.1} s (best {}), {} polish rounds in {} chains{refills}",
        o.threads,
        rep.explore_time.as_secs_f64(),
        rep.explore_best,
        rep.polish_rounds,
        rep.chains_started
    ));
    p.meta.notes.push(format!("arms (runs): {arm_list}"));
    p.meta.notes.push(format!(
        "winner: run seed {} of arm {} ({} XORs){}",
        w.run_seed,
        w.arm.name(),
        w.run_count,
        if polished {
            let list: Vec<String> = w.polish.iter().map(|(s, r)| format!("{r} polish rounds from seed {s}")).collect();
            format!(", then {}", list.join(", then "))
        } else {
            String::new()
        }
    ));
    p.meta.notes.push(format!("repeat the winner alone: {repeat}"));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_matrix;

    fn random8() -> BitMatrix {
        parse_matrix(include_str!("../../../test-vectors/slp/random8_s1.txt")).unwrap()
    }

    #[test]
    fn runs_bound_portfolio_is_reproducible_and_annotated() {
        let m = random8();
        let o = AutoOptions { time_limit: None, runs: Some(24), ..AutoOptions::new(&m) };
        let a = optimize(&m, &o, &|_, _| {}).unwrap();
        let b = optimize(&m, &AutoOptions { threads: 2, ..o.clone() }, &|_, _| {}).unwrap();
        // The thread count does not change a run-bounded portfolio (only the notes' timings).
        let key = |p: &Program| (p.ops.clone(), p.outputs.clone(), p.meta.algorithm.clone(), p.meta.seed, p.meta.extra.clone());
        assert_eq!(key(&a.program), key(&b.program));
        a.program.verify(&m).unwrap();
        assert!(a.program.meta.algorithm.starts_with("auto:"));
        let repeat = a.program.meta.notes.iter().find(|n| n.starts_with("repeat the winner alone: slicewise slp optimize MATRIX -a ")).expect("repeat line");
        assert!(repeat.contains(&format!("--seed {} --runs 1", a.report.winner.run_seed)), "{repeat}");
        assert!(a.program.meta.notes.iter().any(|n| n.starts_with("portfolio: --runs 24, 1 threads;")));
        assert_eq!(a.arm_list().split(", ").count(), a.report.arms.len());
    }

    /// The tree annealer joins the arms at the least depth the heaviest row allows, trees +
    /// walk one and two levels above it, neither elsewhere.
    #[test]
    fn trees_arms_at_the_least_depth_and_two_above() {
        let m = parse_matrix(include_str!("../../../test-vectors/slp/aes_mixcolumns.txt")).unwrap();
        let m = &m;
        let has = |alg: Algorithm| {
            move |d: Option<usize>| arms(m, &AutoOptions { max_depth: d, ..AutoOptions::new(m) }, None).iter().any(|a| a.algorithm == alg)
        };
        // AES MixColumns: rows of weight 5 and 7, so depth 3 at least.
        let ds = [None, Some(2), Some(3), Some(4), Some(5)];
        assert_eq!(ds.map(has(Algorithm::Trees)), [false, false, true, false, false]);
        assert_eq!(ds.map(has(Algorithm::TreesWalk)), [false, false, false, true, true]);
        assert!(!has(Algorithm::TreesWalk)(Some(6)) && !has(Algorithm::Trees)(Some(6)));
    }

    #[test]
    fn bad_budgets_are_errors_not_panics() {
        let m = random8();
        for t in [1e30, u64::MAX as f64, f64::INFINITY, -1.0] {
            let e = optimize(&m, &AutoOptions { time_limit: Some(t), ..AutoOptions::new(&m) }, &|_, _| {}).unwrap_err();
            assert!(e.to_string().contains("the time limit must be a non-negative number of seconds"), "{e}");
        }
        let e = optimize(&m, &AutoOptions { time_limit: None, runs: None, ..AutoOptions::new(&m) }, &|_, _| {}).unwrap_err();
        assert!(e.to_string().contains("time limit or a number of runs"), "{e}");
        let e = optimize(&m, &AutoOptions { word_only: true, ..AutoOptions::new(&m) }, &|_, _| {}).unwrap_err();
        assert!(e.to_string().contains("matrix over GF(2^8)"), "{e}");
    }
}
