//! `slicewise slp`: the linear-layer synthesizer (shortest XOR programs for binary matrices).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, bail, ensure};
use clap::{Args, Subcommand};
use slicewise_slp::emit::{Emit, EmitContext, emit, program_from_rust};
use slicewise_slp::parse::{Input, MatrixFormat, ParseOptions, circulant_input, parse_field, parse_input};
use slicewise_slp::program::Program;
use slicewise_slp::search::{Algorithm, SearchOptions, search};
use slicewise_slp::split::SplitChoice;
use slicewise_slp::word::{ByteForm, detect_bytes};

use crate::interrupt;

/// Arguments of `slicewise slp`.
#[derive(Debug, Args)]
pub struct SlpArgs {
    #[command(subcommand)]
    command: SlpCommand,
}

#[derive(Debug, Subcommand)]
enum SlpCommand {
    /// Find a short XOR program with heuristics (random restarts).
    Optimize(Box<OptimizeArgs>),
    /// Exact search with a SAT solver: the optimum, or a proven lower bound.
    Exact(ExactArgs),
    /// Check a program (SLP text or generated Rust) against a matrix.
    Verify(VerifyArgs),
    /// Re-check an `exact --proof` directory: rebuild every CNF from the stored matrix and
    /// options, compare, and verify every UNSAT proof with a DRAT checker.
    CheckProof(CheckProofArgs),
}

#[derive(Debug, Args)]
struct MatrixArgs {
    /// Matrix file (0/1 rows, BP format, `rows cols` header, or hex bytes); `-` for stdin.
    matrix: Option<String>,
    /// Input format.
    #[arg(long, value_parser = ["auto", "bits", "bp", "hex"], default_value = "auto")]
    format: String,
    /// Field polynomial for hex-byte and circulant matrices.
    #[arg(long, default_value = "0x11b")]
    field: String,
    /// First row of a circulant matrix over GF(2^8), e.g. `02,02,03,04,05,03,05,07` (instead of a file).
    #[arg(long, conflicts_with = "matrix")]
    circulant: Option<String>,
    /// Which matrix of a multi-matrix BP file (0-based).
    #[arg(long, default_value_t = 0)]
    index: usize,
}

#[derive(Debug, Args)]
struct OutputArgs {
    /// Output format.
    #[arg(long, value_parser = ["text", "inplace", "json", "rust", "c"], default_value = "text")]
    emit: String,
    /// Function name for `--emit rust` / `--emit c`.
    #[arg(long, default_value = "slp")]
    name: String,
    /// Write the program here instead of standard output.
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
    /// No progress bar or summary on standard error.
    #[arg(short, long)]
    quiet: bool,
}

#[derive(Debug, Args)]
struct OptimizeArgs {
    #[command(flatten)]
    input: MatrixArgs,
    /// Heuristic: auto (the default: a portfolio over A2/A1/RNBP/s-XOR with re-synthesis, then
    /// polishing of the best programs), paar, rpaar, bp, rnbp, a1, a2, sxor, sxor-rows, mix (cycles
    /// A2/RNBP/A1/sxor-rows), trees (shared XOR trees under --max-depth, which it needs) or
    /// trees-walk (trees, then 400 000 plateau-walk moves; also needs --max-depth).
    #[arg(long, short = 'a', default_value = "auto")]
    algorithm: String,
    /// Time budget in seconds (default: 10 s, or none when --runs is given). With `-a auto` it
    /// covers exploring and polishing; otherwise no new runs start after it.
    #[arg(long, short = 't', value_parser = seconds_arg)]
    time_limit: Option<f64>,
    /// Worker threads (default: all cores).
    #[arg(long, short = 'j')]
    threads: Option<usize>,
    /// Seed of run 0; run r uses seed + r.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Stop after this many runs (with `-a auto`: exploration runs, followed by polish rounds).
    #[arg(long)]
    runs: Option<u64>,
    /// Largest XOR depth allowed.
    #[arg(long)]
    max_depth: Option<usize>,
    /// Local re-synthesis iterations applied to every run's program (0: off).
    #[arg(long, default_value_t = 0)]
    resynth: usize,
    /// After the search, polish the best program by local re-synthesis for this many seconds
    /// (with `-a auto`: the part of --time-limit kept for polishing, default 40 %).
    #[arg(long, value_parser = seconds_arg)]
    polish: Option<f64>,
    /// Polish for exactly this many rounds instead (reproducible; with `-a auto`: over all
    /// polish chains, default two thirds of --runs). A list `R1,R2,…` with as many
    /// --polish-seed values polishes in segments, each continuing from where the one before
    /// ended (how a portfolio winner descended from another chain repeats).
    #[arg(long, value_delimiter = ',')]
    polish_rounds: Vec<u64>,
    /// Seed of polish round 0 (round r uses seed + r; default: --seed); a list with
    /// --polish-rounds R1,R2,…
    #[arg(long, value_delimiter = ',')]
    polish_seed: Vec<u64>,
    /// Largest window (gates) for --polish and the polish chains [default: 24 up to 32x32
    /// matrices, 48 above].
    #[arg(long)]
    window: Option<usize>,
    /// Polish with BP windows only: no rounds of exact re-synthesis of small windows (helper-set
    /// enumeration) between them. Programs made before the exact rounds existed repeat with it.
    #[arg(long)]
    no_exact_windows: bool,
    /// Share (0 to 1) of the exact polish rounds whose windows are small (at most 8 gates and
    /// 6 inputs instead of 10 and 8): they move faster, the large ones find longer rewrites.
    /// Programs made before the small windows existed repeat with `--small-windows 0`.
    #[arg(long, default_value_t = 0.5, value_parser = share)]
    small_windows: f64,
    /// Share (0 to 1) of the windows of the exact polish rounds (--polish and the polish
    /// chains; not --sat-polish) without a shorter program that are replaced by a random
    /// equally long one (moves on the plateau) [default: 0.5 up to 16x16 matrices, 0.8 above].
    /// Programs made before this option existed repeat with `--plateau 0.5`.
    #[arg(long, value_parser = share)]
    plateau: Option<f64>,
    /// Whether the BP polish rounds (--polish and the polish chains) walk on across rounds: a
    /// round that ends on a program as short as the best it saw passes that program on, and
    /// the next round continues from it [default: false up to 32x32 matrices, true above].
    /// Programs made before this option existed repeat with `--bp-walk false`.
    #[arg(long, value_name = "BOOL", num_args = 1, value_parser = clap::value_parser!(bool))]
    bp_walk: Option<bool>,
    /// Moves of a plateau-walk round after each exact round of the polish chains (--polish and
    /// the portfolio's chains): the chain goes on from where the walk ends; 0: no walk rounds
    /// [default: 1000 up to 32x32 matrices, 0 above]. Programs made before this option existed
    /// repeat with `--walk-polish 0`.
    #[arg(long, value_name = "MOVES")]
    walk_polish: Option<u64>,
    /// Start from this program (SLP text) instead of searching: only the polishing phases
    /// (--polish, --sat-polish) run on it.
    #[arg(long, value_name = "PROGRAM")]
    start: Option<PathBuf>,
    /// After the search (and --polish), walk on the plateau of value sets for this many
    /// seconds (`slicewise_slp::plateau`): remove a value, repair with one new value; respects
    /// --max-depth (a --start deeper than it descends to it: moves keep size + levels above
    /// the bound from rising, and the result is the shortest program within the bound).
    #[arg(long, value_name = "SECONDS", value_parser = seconds_arg)]
    walk: Option<f64>,
    /// Walk exactly this many moves instead (reproducible).
    #[arg(long, value_name = "N")]
    walk_moves: Option<u64>,
    /// Seed of the plateau walk (default: --seed).
    #[arg(long, value_name = "N")]
    walk_seed: Option<u64>,
    /// Values a walk move may remove (each move removes k of them, k uniform in 1..=K, and
    /// repairs with at most k new ones; 1: the single-value move).
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=8))]
    walk_remove: u64,
    /// With --walk-remove: remove a connected cone of the program (a value and random values
    /// next to it: parents, or values built from it) instead of unrelated values.
    #[arg(long)]
    walk_cone: bool,
    /// With --walk-remove: the probability that a move repairs with one value more than it
    /// removed (uphill by one; the walk returns to its best when two above it).
    #[arg(long, value_name = "P", default_value_t = 0.0, value_parser = share)]
    walk_uphill: f64,
    /// After the search (and --polish), polish by SAT-exact window re-synthesis for this many
    /// seconds: convex windows of up to --sat-window gates and --sat-inputs inputs are re-solved
    /// by CaDiCaL for a shorter (or, at random, equally long) replacement; respects --max-depth.
    #[arg(long, value_name = "SECONDS", value_parser = seconds_arg)]
    sat_polish: Option<f64>,
    /// SAT-polish exactly this many windows instead (reproducible: each SAT call has a
    /// deterministic effort budget).
    #[arg(long, value_name = "N")]
    sat_polish_rounds: Option<u64>,
    /// With --sat-polish: one round of BP window re-synthesis (windows up to --window gates)
    /// every N SAT windows (0: none).
    #[arg(long, default_value_t = 0, value_name = "N")]
    sat_bp_every: u64,
    /// Largest window (gates) for --sat-polish.
    #[arg(long, default_value_t = 10)]
    sat_window: usize,
    /// How --sat-polish solves windows: `sat` (CaDiCaL) or `enumerate` (helper-set
    /// enumeration, effort × 100 nodes per call, far faster; with --max-depth it keeps only the
    /// programs it finds that meet the depths, trying four orders per length).
    #[arg(long, value_enum, default_value = "sat")]
    window_solver: ExactMethod,
    /// Largest number of window inputs for --sat-polish.
    #[arg(long, default_value_t = 8)]
    sat_inputs: usize,
    /// Effort budget of each --sat-polish SAT call (solver terminator polls).
    #[arg(long, default_value_t = 10_000)]
    sat_effort: u64,
    /// Wall-clock safety limit of each --sat-polish SAT call, in seconds (the header counts the
    /// calls it stopped; with none the polish is reproducible on any machine).
    #[arg(long, default_value_t = 20.0, value_name = "SECONDS", value_parser = seconds_arg)]
    sat_call_limit: f64,
    /// Optimize a GF(2^8) matrix at word level (XOR and xtime), print the byte program.
    #[arg(long)]
    word_level: bool,
    /// With --word-level: expand to bit level and optimize the bit program further by local
    /// re-synthesis (`--runs N` rounds for a reproducible result, else until the time limit).
    #[arg(long, requires = "word_level")]
    expand: bool,
    /// Every run first splits the matrix along its block involutions (a row swap r <-> r +- k
    /// with a matching column swap, as in circulant and Hadamard matrices), recursively, solves
    /// the pieces with the algorithm and re-synthesizes the assembled program. The portfolio
    /// (`-a auto`) has such `split:` arms for matrices of at least 32x32 that split two levels
    /// deep (Hadamard-like), when no depth bound is given.
    #[arg(long, conflicts_with = "word_level")]
    split: bool,
    /// How a split (--split, and the split arms of -a auto) chooses its involution at each
    /// level: `cheapest` takes, among all row involutions r <-> r xor k with a matching column
    /// involution, the one whose whole split has the smallest estimated XOR count (leaves
    /// counted naively), ties at random; `random` takes aligned block swaps (k a power of two)
    /// only, the largest with probability 1/2. Programs made before this option existed repeat
    /// with `--split-choice random`.
    #[arg(long, value_name = "CHOICE", default_value = "cheapest", value_parser = ["cheapest", "random"])]
    split_choice: String,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Args)]
struct ExactArgs {
    #[command(flatten)]
    input: MatrixArgs,
    /// Overall time budget in seconds.
    #[arg(long, short = 't', default_value_t = 60.0, value_parser = seconds_arg)]
    time_limit: f64,
    /// Keep the CNF of every k and CaDiCaL's DRAT proof of every UNSAT answer in this directory,
    /// with the matrix (`matrix.txt`), the encoding options (`options.json`) and the answers
    /// (`result.json`). The directory must be empty or new.
    #[arg(long)]
    proof: Option<PathBuf>,
    /// With --proof: replace the files of a previous run in the directory.
    #[arg(long, requires = "proof")]
    force: bool,
    /// Stop after refuting this k (a lower bound of at most K + 1).
    #[arg(long, value_name = "K")]
    max_k: Option<usize>,
    /// Seconds of heuristic search for the initial upper bound.
    #[arg(long, default_value_t = 2.0, value_parser = seconds_arg)]
    heuristic_time: f64,
    /// `enumerate`: exhaustive helper-set enumeration (up to 20 inputs; far faster there, but
    /// it leaves no proof). `sat`: CaDiCaL, whose refutations can be kept as DRAT proofs with
    /// --proof. Default: `sat` with --proof or above 20 inputs, `enumerate` otherwise.
    #[arg(long, value_enum)]
    method: Option<ExactMethod>,
    /// Worker threads (default: all cores): the enumeration's workers, or SAT solvers run at
    /// once (on k, k + 1, …, and on the caps' searches).
    #[arg(long, short = 'j')]
    threads: Option<usize>,
    /// SAT: levels of caps from the restriction lemma (0: none). At level 1 the search first
    /// proves a bound for the matrix without each column (with --proof, in `cap-C`
    /// sub-directories that `check-proof` checks too); in every CNF, at most k minus that bound
    /// lines may then become redundant when the column's input is set to zero (those that add
    /// it directly, or differ from an earlier line only in it). Level 2 does the same inside
    /// each of those searches. Worth it where the smaller matrices solve quickly (random 8x8:
    /// 10-30x faster), not on MixSlices.
    #[arg(long, value_name = "LEVELS", default_value_t = 0)]
    caps: usize,
    /// SAT with caps: share of the time limit for the caps' searches.
    #[arg(long, value_name = "SHARE", default_value_t = 0.3, value_parser = share)]
    cap_share: f64,
    /// SAT with caps on more than one thread: split each k into cubes on the cap that allows
    /// the fewest lines (which line it counts first), one solver (and one DRAT proof) per
    /// cube, the threads on the cubes of one k at a time (instead of on k, k + 1, … at once).
    #[arg(long)]
    cubes: bool,
    /// SAT: the canonical line order places lines that hold a target first (faster on the
    /// random 8x8 matrices, no gain on MixSlices).
    #[arg(long)]
    targets_first: bool,
    /// Prove a lower bound through the matrix without these columns (`1,5,9`; 0 is the first
    /// column of the file): setting an input to 0 removes at least one XOR of any program, so
    /// the matrix needs as many XORs more than the smaller one, whose bound the search then
    /// proves (with --proof, with DRAT proofs and `restriction.json`, which `check-proof`
    /// checks too; --max-k then counts XORs of the smaller matrix). Each column must have a 1
    /// in a row that has a 1 in a kept column. `auto` tries column sets by the enumeration
    /// within the time limit and keeps the best. One XOR more where a rotation of the column
    /// indices is a symmetry of the matrix whose images of the kept columns have none in common
    /// (and every row has weight ≥ 2, the columns are distinct): `restrict::rotation_bonus`.
    #[arg(long, value_name = "COLS|auto")]
    drop_inputs: Option<String>,
    #[command(flatten)]
    out: OutputArgs,
}

/// `slp exact --method`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ExactMethod {
    Enumerate,
    Sat,
}

#[derive(Debug, Args)]
struct CheckProofArgs {
    /// A directory written by `slicewise slp exact --proof DIR`.
    dir: PathBuf,
    /// The DRAT checker, called as `CHECKER kK.cnf kK.drat` (it must print `s VERIFIED`).
    #[arg(long, default_value = "rate")]
    checker: PathBuf,
}

#[derive(Debug, Args)]
struct VerifyArgs {
    #[command(flatten)]
    input: MatrixArgs,
    /// Program: SLP text, a word-level program, or Rust generated by `--emit rust`.
    #[arg(long, short = 'p')]
    program: Option<PathBuf>,
    /// The program file (positional, after MATRIX).
    program_pos: Option<PathBuf>,
}

/// Runs `slicewise slp`.
pub fn run(args: SlpArgs) -> Result<ExitCode> {
    match args.command {
        SlpCommand::Optimize(a) => optimize(*a),
        SlpCommand::Exact(a) => exact(a),
        SlpCommand::Verify(a) => verify(a),
        SlpCommand::CheckProof(a) => check_proof(a),
    }
}

fn read_text(path: &str) -> Result<String> {
    if path == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).context("reading standard input")?;
        return Ok(s);
    }
    let meta = std::fs::metadata(path).with_context(|| format!("cannot read {path}"))?;
    if meta.len() > 16 << 20 {
        bail!("{path}: file larger than 16 MiB");
    }
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {path}"))?;
    String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{path}: not UTF-8 text"))
}

fn load_matrix(a: &MatrixArgs) -> Result<(Input, String)> {
    let field = parse_field(&a.field).map_err(|e| anyhow::anyhow!("--field: {e}"))?;
    if let Some(c) = &a.circulant {
        let input = circulant_input(c, field).map_err(|e| anyhow::anyhow!("--circulant: {e}"))?;
        return Ok((input, format!("circ({c}) over GF(2^8)/{:#x}", field)));
    }
    let Some(path) = &a.matrix else { bail!("give a MATRIX file or --circulant") };
    let text = read_text(path)?;
    let format = match a.format.as_str() {
        "bits" => MatrixFormat::Bits,
        "bp" => MatrixFormat::Bp,
        "hex" => MatrixFormat::Hex,
        _ => MatrixFormat::Auto,
    };
    let input = parse_input(&text, &ParseOptions { format, field, index: a.index }).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
    let name = Path::new(path).file_name().map_or(path.clone(), |f| f.to_string_lossy().into_owned());
    Ok((input, name))
}

fn write_output(out: &OutputArgs, text: &str) -> Result<()> {
    match &out.output {
        Some(p) => crate::outfile::write_atomic(p, &[text.as_bytes()]).with_context(|| format!("cannot write {}", p.display())),
        None => {
            let mut so = std::io::stdout().lock();
            so.write_all(text.as_bytes())?;
            so.flush()?;
            Ok(())
        }
    }
}

/// The command line as given (for the regeneration line of headers).
fn command_line() -> String {
    let mut v: Vec<String> = std::env::args().skip(1).collect();
    v.insert(0, "slicewise".into());
    v.iter().map(|a| if a.contains(' ') || a.is_empty() { format!("'{a}'") } else { a.clone() }).collect::<Vec<_>>().join(" ")
}

fn render(p: &Program, input: &Input, desc: &str, out: &OutputArgs) -> Result<String> {
    p.verify(&input.matrix).map_err(|e| anyhow::anyhow!("internal error: program does not verify: {e}"))?;
    let fmt: Emit = out.emit.parse().map_err(|e: String| anyhow::anyhow!(e))?;
    let ctx = EmitContext { name: out.name.clone(), command: Some(command_line()), matrix_desc: Some(desc.to_string()) };
    Ok(emit(p, &input.matrix, fmt, &ctx))
}

fn progress(quiet: bool, limit: f64) -> Option<indicatif::ProgressBar> {
    if quiet || !std::io::stderr().is_terminal() {
        return None;
    }
    let pb = indicatif::ProgressBar::new((limit * 10.0) as u64);
    pb.set_style(
        indicatif::ProgressStyle::with_template("{spinner} [{elapsed_precise}] {wide_bar} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    pb.enable_steady_tick(Duration::from_millis(100));
    Some(pb)
}

impl OptimizeArgs {
    /// `--window`, or the default for the matrix (set by `optimize` once it is loaded).
    fn window(&self) -> usize {
        self.window.unwrap_or(48)
    }

    fn plateau(&self) -> f64 {
        self.plateau.unwrap_or(slicewise_slp::portfolio::PLATEAU)
    }

    fn bp_walk(&self) -> bool {
        self.bp_walk.unwrap_or(false)
    }

    fn split_choice(&self) -> SplitChoice {
        SplitChoice::parse(&self.split_choice).unwrap_or_default()
    }
}

fn optimize(mut a: OptimizeArgs) -> Result<ExitCode> {
    let (input, desc) = load_matrix(&a.input)?;
    a.window = Some(a.window.unwrap_or_else(|| slicewise_slp::portfolio::default_window(input.matrix.rows(), input.matrix.cols())));
    a.plateau = Some(a.plateau.unwrap_or_else(|| slicewise_slp::portfolio::default_plateau(input.matrix.rows(), input.matrix.cols())));
    a.bp_walk = Some(a.bp_walk.unwrap_or_else(|| slicewise_slp::portfolio::default_bp_walk(input.matrix.rows(), input.matrix.cols())));
    a.walk_polish = Some(a.walk_polish.unwrap_or_else(|| slicewise_slp::portfolio::default_walk_polish(input.matrix.rows(), input.matrix.cols())));
    let m = &input.matrix;
    let auto = a.algorithm.eq_ignore_ascii_case("auto");
    let algorithm: Algorithm = if auto { Algorithm::Mix } else { a.algorithm.parse().map_err(|e: String| anyhow::anyhow!(e))? };
    if matches!(algorithm, Algorithm::Trees | Algorithm::TreesWalk) && a.max_depth.is_none() {
        bail!("-a {} needs a depth bound (--max-depth D)", algorithm.name());
    }
    if (a.walk_cone || a.walk_uphill > 0.0) && a.walk_remove < 2 {
        bail!("--walk-cone and --walk-uphill shape multi-value moves: give --walk-remove K with K >= 2");
    }
    // With --runs and no explicit --time-limit the search is bounded by runs only (reproducible).
    let limit = match (a.time_limit, a.runs) {
        (Some(t), _) => Some(t),
        (None, Some(_)) => None,
        (None, None) => Some(10.0),
    };
    let threads = a.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    if a.word_level {
        return word_level(&a, &input, &desc, threads, limit);
    }
    if auto && a.split {
        bail!("--split runs one algorithm split along block involutions (-a a2, rnbp, ...); -a auto already has split arms");
    }
    // `--start` polishes a given program: no search, so no portfolio.
    if auto && a.start.is_none() {
        return optimize_auto(&a, &input, &desc, threads, limit, false);
    }
    let opts = SearchOptions {
        algorithm,
        threads,
        seed: a.seed,
        time_limit: limit.map(Duration::from_secs_f64),
        runs: a.runs,
        max_depth: a.max_depth,
        resynth: a.resynth,
        split: a.split,
        split_choice: a.split_choice(),
    };
    let pb = progress(a.out.quiet, limit.unwrap_or(0.0));
    let start = std::time::Instant::now();
    let report = if let Some(path) = &a.start {
        let text = read_text(&path.to_string_lossy())?;
        let mut p = Program::parse(&text, Some(m.cols())).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        p.verify(m).map_err(|e| anyhow::anyhow!("{}: does not compute the matrix: {e}", path.display()))?;
        p.meta.algorithm = "start".into();
        p.meta.seed = a.seed;
        p.meta.notes.push(format!("started from {} ({} XORs, depth {})", path.display(), p.xor_count(), p.depth()));
        Some(slicewise_slp::search::SearchReport { program: p, runs: 0, elapsed: Duration::ZERO, found_after: Duration::ZERO })
    } else {
        search(
        m,
        &opts,
        &|p, runs| {
            if let Some(pb) = &pb {
                pb.set_message(format!("best {} XORs (depth {}), {runs} runs", p.xor_count(), p.depth()));
            }
        },
        &|_| {
            if let Some(pb) = &pb {
                pb.set_position((start.elapsed().as_secs_f64() * 10.0) as u64);
            }
        },
    )
    };
    if let Some(pb) = &pb {
        pb.finish_and_clear();
    }
    let Some(report) = report else {
        bail!("no program found (is the depth bound {:?} achievable?)", a.max_depth);
    };
    let mut p = report.program.clone();
    if a.polish.is_some() || !a.polish_rounds.is_empty() {
        p = polish_cli(&a, p, m)?;
    }
    if a.walk.is_some() || a.walk_moves.is_some() {
        p = walk_cli(&a, p, m);
    }
    if a.sat_polish.is_some() || a.sat_polish_rounds.is_some() {
        p = sat_polish_cli(&a, p, m)?;
    }
    let p = &p;
    let text = render(p, &input, &desc, &a.out)?;
    write_output(&a.out, &text)?;
    if !a.out.quiet {
        eprintln!(
            "slp: {} XORs, depth {} ({}, seed {}); naive {}; {} runs in {:.1} s, best after {:.1} s, {threads} threads",
            p.xor_count(),
            p.depth(),
            p.meta.algorithm,
            p.meta.seed,
            m.naive_xor_count(),
            report.runs,
            report.elapsed.as_secs_f64(),
            report.found_after.as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `--sat-polish` / `--sat-polish-rounds`: SAT-exact window re-synthesis of `p`.
fn sat_polish_cli(a: &OptimizeArgs, p: Program, m: &slicewise_slp::BitMatrix) -> Result<Program> {
    use rand::SeedableRng;
    use slicewise_slp::satwin::{SatWinOptions, sat_polish_stats};
    if a.sat_call_limit <= 0.0 {
        bail!("--sat-call-limit must be a positive number of seconds");
    }
    if a.sat_window < 2 || a.sat_inputs < 2 {
        bail!("--sat-window and --sat-inputs must be at least 2");
    }
    let before = (p.xor_count(), p.depth());
    let opts = SatWinOptions {
        rounds: a.sat_polish_rounds,
        deadline: a.sat_polish.map(|s| std::time::Instant::now() + Duration::from_secs_f64(s)),
        max_inputs: a.sat_inputs,
        max_window: a.sat_window,
        effort: a.sat_effort,
        max_depth: a.max_depth,
        bp_every: a.sat_bp_every,
        bp_window: a.window().max(3),
        call_time_limit: Duration::from_secs_f64(a.sat_call_limit),
        enumerate: a.window_solver == ExactMethod::Enumerate,
        ..Default::default()
    };
    let start = std::time::Instant::now();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(a.seed ^ 0x5a7_0001);
    let (mut q, st) = sat_polish_stats(&p, m, &opts, &mut rng);
    q.meta.algorithm = format!("{}+satwin", q.meta.algorithm);
    q.meta.notes.push(format!(
        "SAT-window polish from {} XORs (depth {}): {} windows, {} SAT calls, {} shorter, {} plateau moves, {} BP shortenings (every {} windows), {} effort-outs, {} time-outs{}; windows <= {} gates, <= {} inputs, effort {}",
        before.0,
        before.1,
        st.windows,
        st.calls,
        st.improvements,
        st.plateau_moves,
        st.bp_improvements,
        a.sat_bp_every,
        st.effort_outs,
        st.time_outs,
        if st.time_outs > 0 { " (time-outs make the result machine-dependent)" } else { "" },
        a.sat_window,
        a.sat_inputs,
        a.sat_effort
    ));
    if !a.out.quiet {
        eprintln!(
            "slp sat-polish: {} -> {} XORs, depth {} -> {}; {} windows, {} calls, {} time-outs, {:.1} s",
            before.0,
            q.xor_count(),
            before.1,
            q.depth(),
            st.windows,
            st.calls,
            st.time_outs,
            start.elapsed().as_secs_f64()
        );
    }
    Ok(q)
}

/// `--window`, `--no-exact-windows`, `--small-windows`, `--plateau`, `--bp-walk`, `--walk-polish`.
fn polish_config(a: &OptimizeArgs) -> slicewise_slp::portfolio::PolishConfig {
    slicewise_slp::portfolio::PolishConfig { window: a.window(), exact: !a.no_exact_windows, small_windows: a.small_windows, plateau: a.plateau(), bp_walk: a.bp_walk(), walk_moves: a.walk_polish.unwrap_or(0) }
}

/// A time budget in seconds: non-negative and at most `slicewise_slp::budget::MAX_SECONDS`
/// (a usage error otherwise, like any malformed option).
fn seconds_arg(s: &str) -> std::result::Result<f64, String> {
    let x: f64 = s.trim().parse().map_err(|_| format!("expected a number of seconds, got {s:?}"))?;
    slicewise_slp::budget::seconds("a time budget", x)?;
    Ok(x)
}

/// A number from 0 to 1.
fn share(s: &str) -> std::result::Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("expected a number from 0 to 1, got {s:?}")),
    }
}

/// `--polish S` / `--polish-rounds N` on one program (seeds `--polish-seed`, default `--seed`),
/// or the segments `--polish-rounds R1,R2,… --polish-seed S1,S2,…`.
fn polish_cli(a: &OptimizeArgs, p: Program, m: &slicewise_slp::BitMatrix) -> Result<Program> {
    let before = p.xor_count();
    let c = polish_config(a);
    if a.polish_rounds.len() > 1 || a.polish_seed.len() > 1 {
        ensure!(
            a.polish_rounds.len() == a.polish_seed.len(),
            "polish segments need as many --polish-rounds as --polish-seed values (got {} and {})",
            a.polish_rounds.len(),
            a.polish_seed.len()
        );
        ensure!(a.polish.is_none(), "--polish (seconds) cannot be combined with polish segments");
        let segments: Vec<(u64, u64)> = a.polish_seed.iter().copied().zip(a.polish_rounds.iter().copied()).collect();
        let mut q = slicewise_slp::portfolio::polish_segments(&p, m, &segments, &c, a.max_depth);
        q.meta.algorithm = format!("{}+polish", q.meta.algorithm);
        let list: Vec<String> = segments.iter().map(|(s, r)| format!("{r} rounds from seed {s}")).collect();
        q.meta.notes.push(format!("polished from {before} XORs in segments: {}, windows <= {}, BP walk {}{}", list.join(", then "), a.window(), a.bp_walk(), walk_note(&c)));
        return Ok(q);
    }
    let secs = a.polish.unwrap_or(0.0);
    let seed = a.polish_seed.first().copied().unwrap_or(a.seed);
    let deadline = std::time::Instant::now() + Duration::from_secs_f64(secs);
    let (mut q, rounds) = slicewise_slp::portfolio::polish(&p, m, seed, a.polish_rounds.first().copied(), deadline, &c, a.max_depth);
    q.meta.algorithm = format!("{}+polish", q.meta.algorithm);
    q.meta.notes.push(format!("polished from {before} XORs: {rounds} rounds (seeds {seed}..), windows <= {}, BP walk {}{}", a.window(), a.bp_walk(), walk_note(&c)));
    Ok(q)
}

/// `, walk rounds of N moves` for the polish note when the chain has plateau-walk rounds.
fn walk_note(c: &slicewise_slp::portfolio::PolishConfig) -> String {
    if c.walk_moves > 0 { format!(", walk rounds of {} moves", c.walk_moves) } else { String::new() }
}

/// `--walk` / `--walk-moves`: the value-set plateau walk on `p`.
fn walk_cli(a: &OptimizeArgs, p: Program, m: &slicewise_slp::BitMatrix) -> Program {
    let before = (p.xor_count(), p.depth());
    let p_ops = p.ops.clone();
    let seed = a.walk_seed.unwrap_or(a.seed);
    let o = slicewise_slp::plateau::WalkOptions { iters: a.walk_moves, max_depth: a.max_depth, target: None, end: false, remove: a.walk_remove as usize, cone: a.walk_cone, uphill: a.walk_uphill };
    let start = std::time::Instant::now();
    let deadline = a.walk.map(|s| start + Duration::from_secs_f64(s));
    let quiet = a.out.quiet;
    let (mut q, st) = slicewise_slp::plateau::walk(m, &p, &o, seed, deadline, &mut |q| {
        if !quiet {
            eprintln!("walk: {} XORs, depth {} after {:.1} s", q.xor_count(), q.depth(), start.elapsed().as_secs_f64());
        }
    });
    if q.ops != p_ops {
        q.meta.algorithm = format!("{}+walk", q.meta.algorithm);
    }
    if let Some(d) = a.max_depth.filter(|&d| q.depth() > d) {
        eprintln!("slicewise: warning: the walk found no program of depth <= {d}; the start (depth {}) is kept", q.depth());
    }
    q.meta.notes.push(format!(
        "plateau walk from {} XORs (depth {}): {} moves (seed {seed}{}), {} accepted, {} shorter, best at move {}",
        before.0,
        before.1,
        st.iters,
        if a.walk_remove > 1 {
            format!(", --walk-remove {}{}{}", a.walk_remove, if a.walk_cone { " --walk-cone" } else { "" }, if a.walk_uphill > 0.0 { format!(" --walk-uphill {}", a.walk_uphill) } else { String::new() })
        } else {
            String::new()
        },
        st.accepted,
        st.improvements,
        st.best_at
    ));
    q
}

/// The matrix part of a command line that repeats this input.
fn matrix_flags(i: &MatrixArgs) -> String {
    let mut v = Vec::new();
    if let Some(c) = &i.circulant {
        v.push(format!("--circulant {c}"));
    } else if let Some(m) = &i.matrix {
        v.push(if m.contains(' ') { format!("'{m}'") } else { m.clone() });
    }
    if i.format != "auto" {
        v.push(format!("--format {}", i.format));
    }
    if i.field != "0x11b" {
        v.push(format!("--field {}", i.field));
    }
    if i.index != 0 {
        v.push(format!("--index {}", i.index));
    }
    v.join(" ")
}

/// The matrix over GF(2^8) behind the input: the given bytes (hex file, `--circulant`), or a
/// binary matrix recognised as one (`word::detect_bytes`).
fn byte_form(input: &Input) -> Option<ByteForm> {
    match (&input.bytes, input.field) {
        (Some(b), Some(f)) => Some(ByteForm::from_bytes(b.clone(), f)),
        _ => detect_bytes(&input.matrix),
    }
}

/// `-a auto`: [`slicewise_slp::auto::optimize`], the portfolio with the arms the matrix gets.
/// With `word_only` (the explicit `--word-level --expand`) every arm is a word arm; otherwise a
/// matrix over GF(2^8) (given as bytes, or recognised in the binary matrix) gets the word arms
/// beside the bit arms.
fn optimize_auto(a: &OptimizeArgs, input: &Input, desc: &str, threads: usize, limit: Option<f64>, word_only: bool) -> Result<ExitCode> {
    use slicewise_slp::auto::{AutoOptions, optimize};
    let m = &input.matrix;
    ensure!(
        a.polish_rounds.len() <= 1 && a.polish_seed.len() <= 1,
        "polish segments (lists in --polish-rounds / --polish-seed) repeat one winner: give them with its arm (-a ALG --runs 1), not with -a auto"
    );
    let cancel = Arc::new(AtomicBool::new(false));
    let opts = AutoOptions {
        threads,
        seed: a.seed,
        time_limit: limit,
        default_time_limit: a.time_limit.is_none(),
        runs: a.runs,
        polish_rounds: a.polish_rounds.first().copied(),
        polish_time: a.polish,
        max_depth: a.max_depth,
        polish: polish_config(a),
        split_choice: a.split_choice(),
        byte_form: byte_form(input),
        bytes_given: input.bytes.is_some(),
        word_only,
        matrix_flags: matrix_flags(&a.input),
        cancel: Some(cancel.clone()),
    };
    let pb = progress(a.out.quiet, limit.unwrap_or(0.0));
    let start = std::time::Instant::now();
    // Ctrl-C or SIGTERM: a watcher thread passes the signal on to the portfolio, which then
    // ends as at its time limit; the best program so far is written as usual (its header says
    // it was interrupted) and the exit status is 130.
    let finished = AtomicBool::new(false);
    let watch = interrupt::install();
    let r = std::thread::scope(|s| {
        if watch {
            s.spawn(|| {
                while !finished.load(Ordering::SeqCst) {
                    if interrupt::hit() {
                        cancel.store(true, Ordering::SeqCst);
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
            });
        }
        let r = optimize(m, &opts, &|p, runs| {
            if let Some(pb) = &pb {
                pb.set_position((start.elapsed().as_secs_f64() * 10.0) as u64);
                pb.set_message(format!("best {} XORs (depth {}), {runs} runs", p.xor_count(), p.depth()));
            }
        });
        finished.store(true, Ordering::SeqCst);
        r
    });
    interrupt::restore();
    if let Some(pb) = &pb {
        pb.finish_and_clear();
    }
    let interrupted = cancel.load(Ordering::SeqCst);
    let r = match r {
        Err(e) if interrupted => {
            eprintln!("slp: interrupted after {:.1} s, before any program was found: nothing written ({e:#})", start.elapsed().as_secs_f64());
            return Ok(ExitCode::from(130));
        }
        r => r?,
    };
    let (rep, w) = (&r.report, &r.report.winner);
    let (polish_seeds, polish_rounds) = r.polish_lists();
    let mut p = r.program.clone();
    // After an interrupt the user wants the result now: no SAT polishing.
    if (a.sat_polish.is_some() || a.sat_polish_rounds.is_some()) && !interrupted {
        p = sat_polish_cli(a, p, m)?;
    }
    let text = render(&p, input, desc, &a.out)?;
    write_output(&a.out, &text)?;
    if !a.out.quiet {
        eprintln!(
            "slp: {} XORs, depth {} (auto: arm {}, seed {}{}); naive {}; {} runs + {} polish rounds in {:.1} s, best after {:.1} s, {threads} threads",
            p.xor_count(),
            p.depth(),
            w.arm.name(),
            w.run_seed,
            if w.polish.is_empty() { String::new() } else { format!(", polish seed {polish_seeds} rounds {polish_rounds}") },
            m.naive_xor_count(),
            rep.runs,
            rep.polish_rounds,
            rep.elapsed.as_secs_f64(),
            rep.found_after.as_secs_f64()
        );
        eprintln!("slp: arms (runs): {}", r.arm_list());
    }
    if interrupted {
        eprintln!("slp: interrupted after {:.1} s: wrote the best program found until then", rep.elapsed.as_secs_f64());
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

fn word_level(a: &OptimizeArgs, input: &Input, desc: &str, threads: usize, limit: Option<f64>) -> Result<ExitCode> {
    use rand::SeedableRng;
    use slicewise_slp::resynth::{ResynthOptions, resynth};
    use slicewise_slp::word::synthesize;
    let Some(form) = byte_form(input) else {
        bail!("--word-level needs a matrix over GF(2^8): a hex-byte file, --circulant, or a binary matrix made of 8x8 multiplication blocks");
    };
    if a.expand && a.algorithm.eq_ignore_ascii_case("auto") {
        return optimize_auto(a, input, desc, threads, limit, true);
    }
    let (bytes, field) = (&form.bytes, form.poly);
    let algorithm: Algorithm =
        if a.algorithm.eq_ignore_ascii_case("auto") { Algorithm::Mix } else { a.algorithm.parse().map_err(|e: String| anyhow::anyhow!(e))? };
    let start = std::time::Instant::now();
    let word_time = limit.map(|t| if a.expand { (t / 4.0).min(5.0) } else { t });
    let opts = SearchOptions {
        algorithm,
        threads,
        seed: a.seed,
        time_limit: word_time.map(Duration::from_secs_f64),
        runs: a.runs,
        max_depth: None,
        resynth: a.resynth,
        split: false,
        split_choice: SplitChoice::Cheapest,
    };
    let Some(mut wp) = synthesize(bytes, field, &opts) else { bail!("word-level synthesis failed (matrix too large?)") };
    wp.meta.notes.push(format!("matrix: {} ({desc}); verified on unit vectors", form.note(input.bytes.is_some())));
    wp.meta.notes.push(format!("command: {}", command_line()));
    wp.verify(bytes).map_err(|e| anyhow::anyhow!("internal error: word program does not verify: {e}"))?;
    if !a.expand {
        if a.out.emit != "text" {
            bail!("word-level programs are printed as text; add --expand for --emit {}", a.out.emit);
        }
        write_output(&a.out, &wp.to_text())?;
        if !a.out.quiet {
            eprintln!(
                "slp word-level: {} XOR + {} xtime (bit cost {}), depth {}; {:.1} s",
                wp.xor_count(),
                wp.xtime_count(),
                wp.bit_cost(),
                wp.depth(),
                start.elapsed().as_secs_f64()
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut best = form.to_matrix_order(wp.expand());
    best.verify(&input.matrix).map_err(|e| anyhow::anyhow!("internal error: expansion does not verify: {e}"))?;
    let expanded = best.xor_count();
    if a.polish.is_some() || !a.polish_rounds.is_empty() {
        // Polish the expanded program instead of the re-synthesis rounds below (this is how
        // `-a auto` works on it, so its winners repeat with `--runs 1 --polish-rounds N`).
        let mut best = polish_cli(a, best, &input.matrix)?;
        best.meta.notes.push(format!("from the word program: {} XOR + {} xtime = {expanded} bit XORs", wp.xor_count(), wp.xtime_count()));
        let text = render(&best, input, desc, &a.out)?;
        write_output(&a.out, &text)?;
        if !a.out.quiet {
            eprintln!(
                "slp word-level: {} XOR + {} xtime = {expanded} bit XORs; after polishing {} XORs, depth {}; {:.1} s",
                wp.xor_count(),
                wp.xtime_count(),
                best.xor_count(),
                best.depth(),
                start.elapsed().as_secs_f64()
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    // Local re-synthesis of the expanded program with seeds seed, seed+1, ...: `--runs N`
    // rounds (reproducible), otherwise until the time limit.
    let deadline = start + Duration::from_secs_f64(limit.unwrap_or(0.0));
    let mut round = 0u64;
    while a.runs.map_or(std::time::Instant::now() < deadline, |r| round < r) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(a.seed.wrapping_add(round));
        let q = resynth(&best, &ResynthOptions { iterations: a.resynth.max(50), ..Default::default() }, &mut rng);
        if q.xor_count() < best.xor_count() {
            best = q;
        }
        round += 1;
    }
    best.meta.algorithm = format!("{}+resynth", wp.meta.algorithm);
    best.meta.seed = a.seed;
    best.meta.notes.push(format!("from the word program: {} XOR + {} xtime = {expanded} bit XORs; {round} re-synthesis rounds", wp.xor_count(), wp.xtime_count()));
    if a.sat_polish.is_some() || a.sat_polish_rounds.is_some() {
        best = sat_polish_cli(a, best, &input.matrix)?;
    }
    let text = render(&best, input, desc, &a.out)?;
    write_output(&a.out, &text)?;
    if !a.out.quiet {
        eprintln!(
            "slp word-level: {} XOR + {} xtime = {expanded} bit XORs; after re-synthesis {} XORs, depth {}; {:.1} s",
            wp.xor_count(),
            wp.xtime_count(),
            best.xor_count(),
            best.depth(),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The options of `slp exact` as the library's [`slicewise_slp::exact::ExactSearch`] (the struct
/// Python's `exact()` fills in too).
fn exact_search(a: &ExactArgs) -> Result<slicewise_slp::exact::ExactSearch> {
    use slicewise_slp::exact::{DropInputs, ExactSearch, Method};
    Ok(ExactSearch {
        time_limit: a.time_limit,
        heuristic_time: a.heuristic_time,
        method: a.method.map(|x| if x == ExactMethod::Sat { Method::Sat } else { Method::Enumerate }),
        threads: a.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1),
        proof_dir: a.proof.clone(),
        force: a.force,
        max_k: a.max_k,
        caps: a.caps,
        cap_share: a.cap_share,
        cubes: a.cubes,
        targets_first: a.targets_first,
        drop_inputs: a.drop_inputs.as_deref().map(DropInputs::parse).transpose()?,
    })
}

fn exact(a: ExactArgs) -> Result<ExitCode> {
    use slicewise_slp::exact::{Event, run};
    use slicewise_slp::sat::Progress;
    let (input, desc) = load_matrix(&a.input)?;
    let opts = exact_search(&a)?;
    let start = std::time::Instant::now();
    let quiet = a.out.quiet;
    let outcome = run(&input.matrix, &opts, |e| {
        if quiet {
            return;
        }
        match e {
            Event::Upper { whole, searched, restriction } => {
                if let Some(u) = whole {
                    eprintln!("slp exact: heuristic upper bound {} XORs", u.xor_count());
                }
                if let Some((d, s)) = restriction {
                    let u = searched.map_or("none".to_string(), |u| format!("{} XORs", u.xor_count()));
                    eprintln!("slp exact: searching the {}x{} matrix without columns {d:?} (heuristic upper bound {u})", s.rows(), s.cols());
                } else if let Some(u) = searched {
                    eprintln!("slp exact: heuristic upper bound {} XORs", u.xor_count());
                }
            }
            Event::Progress(Progress::K(k, tag, t)) => eprintln!("slp exact: k = {k}: {tag} ({t:.2} s)"),
            Event::Progress(Progress::Cap(c)) => eprintln!(
                "slp exact: cap: without column{} {:?}: {} {} XORs ({:.2} s)",
                if c.cap.inputs.len() > 1 { "s" } else { "" },
                c.cap.inputs,
                if c.optimal { "optimum" } else { "at least" },
                c.cap.sub_bound,
                c.secs
            ),
            Event::Tried(t) => eprintln!(
                "slp exact: without columns {:?}: {} {} ({:.2} s) -> lower bound {}",
                t.drop,
                if t.optimal { "optimum" } else { "at least" },
                t.sub_bound,
                t.secs,
                t.bound()
            ),
        }
    })?;
    let Some(r) = &outcome.restriction else {
        let Some(p) = &outcome.program else { bail!("no program found within the time limit") };
        let text = render(p, &input, &desc, &a.out)?;
        write_output(&a.out, &text)?;
        if !a.out.quiet {
            eprintln!(
                "slp exact: {} XORs, {} ({}); {:.1} s",
                p.xor_count(),
                if outcome.optimal { "optimal".to_string() } else { format!("lower bound {}", outcome.lower_bound) },
                outcome.method.describe(),
                start.elapsed().as_secs_f64()
            );
        }
        return Ok(ExitCode::SUCCESS);
    };
    // With a restriction: the heuristic program for the whole matrix, with the lifted bound.
    let Some(p) = &outcome.program else { bail!("no program found for the whole matrix within the heuristic time") };
    let text = render(p, &input, &desc, &a.out)?;
    write_output(&a.out, &text)?;
    if !a.out.quiet {
        let symmetry = slicewise_slp::restrict::rotation_bonus(&input.matrix, &r.columns)
            .map_or(String::new(), |s| format!(" + 1 (the column rotation by {s} is a symmetry; restrict::rotation_bonus)"));
        eprintln!(
            "slp exact: {} XORs, lower bound {} = {} + {} dropped columns{symmetry} (smaller matrix: {}); {:.1} s",
            p.xor_count(),
            outcome.lower_bound,
            r.sub_bound,
            r.columns.len(),
            r.how,
            start.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn check_proof(a: CheckProofArgs) -> Result<ExitCode> {
    let r = slicewise_slp::sat::check::check_proof_dir(&a.dir, &a.checker)?;
    let mut head = format!(
        "OK: {} CNFs rebuilt identically (k = {:?}), {} UNSAT proofs verified by {} (k = {:?})",
        r.cnfs_matched.len(),
        r.cnfs_matched,
        r.proofs_verified.len(),
        a.checker.display(),
        r.proofs_verified
    );
    if !r.caps.is_empty() {
        head.push_str(&format!(
            ", with {} caps whose directories check too ({} DRAT proofs in all, cubes and caps included)",
            r.caps.len(),
            r.total_proofs()
        ));
    }
    match &r.restriction {
        Some((m, d, bound)) => println!(
            "{head}: the matrix without columns {d:?} needs at least {} XORs, so the {}x{} matrix (fingerprint {}) needs at least {bound}",
            r.lower_bound,
            m.rows(),
            m.cols(),
            m.fingerprint()
        ),
        None => println!("{head}: no program has fewer than {} XORs", r.lower_bound),
    }
    Ok(ExitCode::SUCCESS)
}

fn verify(a: VerifyArgs) -> Result<ExitCode> {
    let (input, _desc) = load_matrix(&a.input)?;
    let Some(path) = a.program.as_ref().or(a.program_pos.as_ref()) else { bail!("give the PROGRAM file to verify") };
    let text = read_text(&path.to_string_lossy())?;
    let is_rust = path.extension().is_some_and(|e| e == "rs") || text.contains("pub fn ");
    let p = if is_rust { program_from_rust(&text) } else { Program::parse(&text, Some(input.matrix.cols())) }
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    match p.verify(&input.matrix).and_then(|()| p.check_header(&text)) {
        Ok(()) => {
            println!("OK: {} XORs, depth {}, computes the {}x{} matrix", p.xor_count(), p.depth(), input.matrix.rows(), input.matrix.cols());
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            println!("FAILED: {e}");
            Ok(ExitCode::FAILURE)
        }
    }
}
