//! `slicewise slp`: the linear-layer synthesizer (shortest XOR programs for binary matrices).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use slicewise_slp::emit::{Emit, EmitContext, emit, program_from_rust};
use slicewise_slp::parse::{Input, MatrixFormat, ParseOptions, circulant_input, parse_field, parse_input};
use slicewise_slp::program::Program;
use slicewise_slp::search::{Algorithm, SearchOptions, search};

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
    /// Heuristic: paar, rpaar, bp, rnbp, a1, a2, sxor, or mix (cycles A2/RNBP/A1/s-XOR).
    #[arg(long, short = 'a', default_value = "mix")]
    algorithm: String,
    /// Stop starting new runs after this many seconds (default: 10, or none when --runs is given).
    #[arg(long, short = 't')]
    time_limit: Option<f64>,
    /// Worker threads (default: all cores).
    #[arg(long, short = 'j')]
    threads: Option<usize>,
    /// Seed of run 0; run r uses seed + r.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Stop after this many runs.
    #[arg(long)]
    runs: Option<u64>,
    /// Largest XOR depth allowed.
    #[arg(long)]
    max_depth: Option<usize>,
    /// Local re-synthesis iterations applied to every run's program (0: off).
    #[arg(long, default_value_t = 0)]
    resynth: usize,
    /// After the search, polish the best program by local re-synthesis for this many seconds.
    #[arg(long)]
    polish: Option<f64>,
    /// Polish for exactly this many rounds instead (reproducible).
    #[arg(long)]
    polish_rounds: Option<u64>,
    /// Largest window (gates) for --polish.
    #[arg(long, default_value_t = 48)]
    window: usize,
    /// Start from this program (SLP text) instead of searching: only the polishing phases
    /// (--polish, --sat-polish) run on it.
    #[arg(long, value_name = "PROGRAM")]
    start: Option<PathBuf>,
    /// After the search (and --polish), polish by SAT-exact window re-synthesis for this many
    /// seconds: convex windows of up to --sat-window gates and --sat-inputs inputs are re-solved
    /// by CaDiCaL for a shorter (or, at random, equally long) replacement; respects --max-depth.
    #[arg(long, value_name = "SECONDS")]
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
    /// Largest number of window inputs for --sat-polish.
    #[arg(long, default_value_t = 8)]
    sat_inputs: usize,
    /// Effort budget of each --sat-polish SAT call (solver terminator polls).
    #[arg(long, default_value_t = 10_000)]
    sat_effort: u64,
    /// Wall-clock safety limit of each --sat-polish SAT call, in seconds (the header counts the
    /// calls it stopped; with none the polish is reproducible on any machine).
    #[arg(long, default_value_t = 20.0, value_name = "SECONDS")]
    sat_call_limit: f64,
    /// Optimize a GF(2^8) matrix at word level (XOR and xtime), print the byte program.
    #[arg(long)]
    word_level: bool,
    /// With --word-level: expand to bit level and optimize the bit program further by local
    /// re-synthesis (`--runs N` rounds for a reproducible result, else until the time limit).
    #[arg(long, requires = "word_level")]
    expand: bool,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Args)]
struct ExactArgs {
    #[command(flatten)]
    input: MatrixArgs,
    /// Overall time budget in seconds.
    #[arg(long, short = 't', default_value_t = 60.0)]
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
    #[arg(long, default_value_t = 2.0)]
    heuristic_time: f64,
    #[command(flatten)]
    out: OutputArgs,
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
        Some(p) => std::fs::write(p, text).with_context(|| format!("cannot write {}", p.display())),
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

fn optimize(a: OptimizeArgs) -> Result<ExitCode> {
    let (input, desc) = load_matrix(&a.input)?;
    let m = &input.matrix;
    let algorithm: Algorithm = a.algorithm.parse().map_err(|e: String| anyhow::anyhow!(e))?;
    if let Some(t) = a.time_limit
        && !(t.is_finite() && t >= 0.0)
    {
        bail!("--time-limit must be a non-negative number of seconds");
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
    let opts = SearchOptions {
        algorithm,
        threads,
        seed: a.seed,
        time_limit: limit.map(Duration::from_secs_f64),
        runs: a.runs,
        max_depth: a.max_depth,
        resynth: a.resynth,
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
    if a.polish.is_some() || a.polish_rounds.is_some() {
        let secs = a.polish.unwrap_or(0.0);
        if !(secs.is_finite() && secs >= 0.0) {
            bail!("--polish must be a non-negative number of seconds");
        }
        let before = p.xor_count();
        let deadline = std::time::Instant::now() + Duration::from_secs_f64(secs);
        let (q, rounds) = slicewise_slp::search::polish(&p, m, a.seed, a.polish_rounds, deadline, a.window.max(3), a.max_depth);
        p = q;
        p.meta.algorithm = format!("{}+polish", p.meta.algorithm);
        p.meta.notes.push(format!("polished from {before} XORs: {rounds} rounds (seeds {}..), windows <= {}", a.seed, a.window));
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
    let secs = a.sat_polish.unwrap_or(0.0);
    if !(secs.is_finite() && secs >= 0.0) {
        bail!("--sat-polish must be a non-negative number of seconds");
    }
    if !(a.sat_call_limit.is_finite() && a.sat_call_limit > 0.0) {
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
        bp_window: a.window.max(3),
        call_time_limit: Duration::from_secs_f64(a.sat_call_limit),
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

fn word_level(a: &OptimizeArgs, input: &Input, desc: &str, threads: usize, limit: Option<f64>) -> Result<ExitCode> {
    use rand::SeedableRng;
    use slicewise_slp::resynth::{ResynthOptions, resynth};
    use slicewise_slp::word::synthesize;
    let (Some(bytes), Some(field)) = (&input.bytes, input.field) else {
        bail!("--word-level needs a GF(2^8) matrix: a hex-byte file or --circulant");
    };
    let algorithm: Algorithm = a.algorithm.parse().map_err(|e: String| anyhow::anyhow!(e))?;
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
    };
    let Some(mut wp) = synthesize(bytes, field, &opts) else { bail!("word-level synthesis failed (matrix too large?)") };
    wp.meta.notes.push(format!("matrix: {}x{} bytes over GF(2^8)/{field:#x} ({desc}); verified on unit vectors", bytes.len(), bytes[0].len()));
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
    let mut best = wp.expand();
    best.verify(&input.matrix).map_err(|e| anyhow::anyhow!("internal error: expansion does not verify: {e}"))?;
    let expanded = best.xor_count();
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

fn exact(a: ExactArgs) -> Result<ExitCode> {
    use slicewise_slp::sat::{EncodeOptions, ExactOptions, exact as sat_exact};
    let (input, desc) = load_matrix(&a.input)?;
    let m = &input.matrix;
    if !(a.time_limit.is_finite() && a.time_limit > 0.0 && a.heuristic_time.is_finite() && a.heuristic_time >= 0.0) {
        bail!("--time-limit and --heuristic-time must be positive numbers of seconds");
    }
    if m.cols() > 64 || m.rows() > 64 {
        bail!("exact search is limited to 64x64 matrices (this one is {}x{})", m.rows(), m.cols());
    }
    let start = std::time::Instant::now();
    // Upper bound from a short heuristic search.
    let h = SearchOptions {
        algorithm: Algorithm::Mix,
        threads: 1,
        seed: 0,
        time_limit: Some(Duration::from_secs_f64(a.heuristic_time.min(a.time_limit / 2.0))),
        runs: None,
        max_depth: None,
        resynth: 0,
    };
    let upper = search(m, &h, &|_, _| {}, &|_| {}).map(|r| r.program);
    if !a.out.quiet
        && let Some(u) = &upper
    {
        eprintln!("slp exact: heuristic upper bound {} XORs", u.xor_count());
    }
    let remaining = Duration::from_secs_f64(a.time_limit).saturating_sub(start.elapsed());
    let quiet = a.out.quiet;
    let opts = ExactOptions {
        proof_dir: a.proof.clone(),
        upper,
        encoding: EncodeOptions::from_env(),
        max_k: a.max_k,
        force: a.force,
        ..ExactOptions::new(remaining)
    };
    let report = sat_exact(m, &opts, |k, tag, t| {
        if !quiet {
            eprintln!("slp exact: k = {k}: {tag} ({t:.2} s)");
        }
    })?;
    let Some(p) = &report.program else { bail!("no program found within the time limit") };
    let text = render(p, &input, &desc, &a.out)?;
    write_output(&a.out, &text)?;
    if !a.out.quiet {
        eprintln!(
            "slp exact: {} XORs, {}; {:.1} s",
            p.xor_count(),
            if report.optimal { "optimal".to_string() } else { format!("lower bound {}", report.lower_bound) },
            start.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn check_proof(a: CheckProofArgs) -> Result<ExitCode> {
    let r = slicewise_slp::sat::check_proof_dir(&a.dir, &a.checker)?;
    println!(
        "OK: {} CNFs rebuilt identically (k = {:?}), {} UNSAT proofs verified by {} (k = {:?}): no program has fewer than {} XORs",
        r.cnfs_matched.len(),
        r.cnfs_matched,
        r.proofs_verified.len(),
        a.checker.display(),
        r.proofs_verified,
        r.lower_bound
    );
    Ok(ExitCode::SUCCESS)
}

fn verify(a: VerifyArgs) -> Result<ExitCode> {
    let (input, _desc) = load_matrix(&a.input)?;
    let Some(path) = a.program.as_ref().or(a.program_pos.as_ref()) else { bail!("give the PROGRAM file to verify") };
    let text = read_text(&path.to_string_lossy())?;
    let is_rust = path.extension().is_some_and(|e| e == "rs") || text.contains("pub fn ");
    let p = if is_rust { program_from_rust(&text) } else { Program::parse(&text, Some(input.matrix.cols())) }
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    match p.verify(&input.matrix) {
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
