//! `slicewise bench`: median cycles/byte; the Rust comparison rows (RustCrypto `groestl`,
//! `groestl-aesni`) are measured in the same run (the Prøst reference C figures that
//! `bench proest` prints come from `shared/anchors.md`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use serde::Serialize;
use slicewise_groestl::{Backend, DigestBytes, Groestl, Variant, groestlcoin_hash_many, hash_many};

use crate::cycles::{self, Plan, keep};
use crate::plot;

#[derive(Debug, Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    target: BenchTarget,
}

#[derive(Debug, Subcommand)]
enum BenchTarget {
    /// Grøstl: every backend, plus RustCrypto `groestl` and `groestl-aesni` for comparison.
    Groestl(GroestlBenchArgs),
    /// Prøst: every mode (encrypt and decrypt) on every backend.
    Proest(crate::bench_proest::ProestBenchArgs),
    // [helper-bench] one variant per benchmark target
}

pub fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    match args.target {
        BenchTarget::Groestl(a) => run_groestl(a),
        BenchTarget::Proest(a) => crate::bench_proest::run_proest(a),
        // [helper-bench-dispatch]
    }
}

/// Options every benchmark target shares.
#[derive(Debug, Args)]
pub struct CommonBenchArgs {
    /// Message sizes: comma-separated, with optional KiB/MiB suffixes.
    #[arg(long, value_delimiter = ',', value_parser = parse_size, default_value = "64,576,1536,4096,1MiB")]
    pub sizes: Vec<usize>,
    /// Timed samples per cell; the median is reported.
    #[arg(long, default_value_t = 31)]
    pub samples: usize,
    /// Bytes processed per sample (small messages are repeated up to this).
    #[arg(long, value_parser = parse_size, default_value = "1MiB")]
    pub bytes_per_sample: usize,
    /// Print the results as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Also write the JSON, a Markdown table and an SVG plot into this directory.
    #[arg(long, value_name = "DIR")]
    pub save: Option<PathBuf>,
}

impl CommonBenchArgs {
    pub fn plan(&self) -> Plan {
        Plan { samples: self.samples, bytes_per_sample: self.bytes_per_sample }
    }
}

#[derive(Debug, Args)]
pub struct GroestlBenchArgs {
    /// `all`, or a comma-separated list of backend names.
    #[arg(long, default_value = "all")]
    backend: String,
    /// Digest sizes to measure.
    #[arg(long, value_delimiter = ',', value_parser = parse_variant, default_value = "groestl-256,groestl-512")]
    algorithms: Vec<Variant>,
    /// Leave out the RustCrypto `groestl` and `groestl-aesni` comparison rows.
    #[arg(long)]
    no_compare: bool,
    /// Also measure `hash_many` (rows `BACKEND (hash_many ×N)`) for every backend and size,
    /// and Groestlcoin's double Grøstl-512 of 80-byte headers through `groestlcoin_hash_many`
    /// (algorithm `groestlcoin`, cycles per byte and per header).
    #[arg(long)]
    many: bool,
    /// Messages per `hash_many` / `groestlcoin_hash_many` call with `--many`. For long messages
    /// the batch is cut to 16 MiB of input per call (at least 4 messages); the row label shows
    /// the batch actually used.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65536), requires = "many")]
    many_batch: u32,
    /// Repeat the whole measurement this many times and report each cell's median, so that
    /// a burst of load on a shared machine moves one run, not the figure.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// How a cell's figure is taken from its `--runs` runs: `median` (default), or `min`, the
    /// least-disturbed run, for comparisons on a machine whose other cores are busy.
    #[arg(long, value_enum, default_value_t = AcrossRuns::Median)]
    across_runs: AcrossRuns,
    #[command(flatten)]
    common: CommonBenchArgs,
}

/// The statistic taken across the `--runs` runs of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AcrossRuns {
    /// The median run.
    Median,
    /// The fastest run.
    Min,
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    Variant::from_name(s).ok_or_else(|| format!("unknown algorithm {s:?}"))
}

/// `64`, `4KiB`, `1MiB`, `16k`, `1m`.
pub fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let lower = t.to_ascii_lowercase();
    let (num, mult) = if let Some(n) = lower.strip_suffix("mib").or(lower.strip_suffix('m')) {
        (n, 1 << 20)
    } else if let Some(n) = lower.strip_suffix("kib").or(lower.strip_suffix('k')) {
        (n, 1 << 10)
    } else {
        (lower.as_str(), 1)
    };
    let n: usize = num.trim().parse().map_err(|_| format!("bad size {t:?} (examples: 64, 4KiB, 1MiB)"))?;
    if n == 0 {
        return Err(format!("bad size {t:?}: must be positive"));
    }
    n.checked_mul(mult).ok_or_else(|| format!("size {t:?} is too large"))
}

/// One measured cell.
#[derive(Debug, Clone, Serialize)]
#[serde(into = "CellJson")]
pub struct Cell {
    pub algorithm: String,
    pub implementation: String,
    pub constant_time: Option<bool>,
    pub bytes: usize,
    pub cycles_per_byte: f64,
}

/// The algorithm name of the Groestlcoin rows (`--many`): double Grøstl-512 of 80-byte headers.
pub const GROESTLCOIN: &str = "groestlcoin";
/// The length of a Groestlcoin block header.
const HEADER_LEN: usize = 80;

/// A [`Cell`] as written to JSON: Groestlcoin cells also carry cycles per header.
#[derive(Serialize)]
struct CellJson {
    algorithm: String,
    implementation: String,
    constant_time: Option<bool>,
    bytes: usize,
    cycles_per_byte: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    cycles_per_header: Option<f64>,
}

impl From<Cell> for CellJson {
    fn from(c: Cell) -> Self {
        let per_header = (c.algorithm == GROESTLCOIN).then_some(c.cycles_per_byte * c.bytes as f64);
        CellJson {
            algorithm: c.algorithm,
            implementation: c.implementation,
            constant_time: c.constant_time,
            bytes: c.bytes,
            cycles_per_byte: c.cycles_per_byte,
            cycles_per_header: per_header,
        }
    }
}

/// Messages per `hash_many` call for `len`-byte messages: `batch`, cut to 16 MiB of input per
/// call for long messages but never below 4 (one multi-buffer pass).
fn many_batch(batch: usize, len: usize) -> usize {
    batch.min(((16 << 20) / len.max(1)).max(4))
}

/// The message every benchmark hashes: bytes `i % 251`.
pub fn message(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i % 251) as u8).collect()
}

/// A named closure that hashes one message.
type Row<'a> = (&'static str, Box<dyn Fn() + 'a>);

/// The comparison rows: RustCrypto `groestl` everywhere, `groestl-aesni` on x86-64 only (the
/// crate does not build elsewhere).
fn comparison(v: Variant, data: &[u8]) -> Vec<Row<'_>> {
    macro_rules! one {
        ($t:ty) => {
            Box::new(move || {
                use groestl::Digest as _;
                keep(<$t>::digest(keep(data)));
            })
        };
    }
    #[cfg(target_arch = "x86_64")]
    macro_rules! aesni {
        ($t:ty) => {
            Box::new(move || {
                use groestl_aesni::Digest as _;
                keep(<$t>::digest(keep(data)));
            })
        };
    }
    #[allow(unused_mut)]
    let mut rows: Vec<Row<'_>> = match v {
        Variant::Groestl224 => vec![("rustcrypto-groestl", one!(groestl::Groestl224))],
        Variant::Groestl256 => vec![("rustcrypto-groestl", one!(groestl::Groestl256))],
        Variant::Groestl384 => vec![("rustcrypto-groestl", one!(groestl::Groestl384))],
        Variant::Groestl512 => vec![("rustcrypto-groestl", one!(groestl::Groestl512))],
    };
    #[cfg(target_arch = "x86_64")]
    rows.push(match v {
        Variant::Groestl224 => ("groestl-aesni", aesni!(groestl_aesni::Groestl224)),
        Variant::Groestl256 => ("groestl-aesni", aesni!(groestl_aesni::Groestl256)),
        Variant::Groestl384 => ("groestl-aesni", aesni!(groestl_aesni::Groestl384)),
        Variant::Groestl512 => ("groestl-aesni", aesni!(groestl_aesni::Groestl512)),
    });
    rows
}

fn run_groestl(args: GroestlBenchArgs) -> anyhow::Result<ExitCode> {
    let backends: Vec<Backend> = if args.backend == "all" {
        Backend::all().collect()
    } else {
        args.backend.split(',').map(|n| Backend::from_name(n.trim())).collect::<Result<_, _>>()?
    };
    let plan = args.common.plan();
    let mut first = true;
    let cells = combine_runs(args.runs as usize, args.across_runs, || {
        let cells = measure_groestl(&args, &backends, plan, first);
        first = false;
        cells
    });
    report_with("groestl", &cells, &args.common, args.runs as usize, args.across_runs)?;
    Ok(ExitCode::SUCCESS)
}

/// Runs `measure` `runs` times; each cell of the result is the median (or the minimum) of its
/// runs.
pub fn combine_runs(runs: usize, across: AcrossRuns, mut measure: impl FnMut() -> Vec<Cell>) -> Vec<Cell> {
    let all: Vec<Vec<Cell>> = (0..runs.max(1)).map(|_| measure()).collect();
    let mut out = all[0].clone();
    for cell in &mut out {
        let mut v: Vec<f64> = all
            .iter()
            .filter_map(|run| {
                run.iter()
                    .find(|c| c.algorithm == cell.algorithm && c.implementation == cell.implementation && c.bytes == cell.bytes)
                    .map(|c| c.cycles_per_byte)
            })
            .collect();
        v.sort_by(f64::total_cmp);
        cell.cycles_per_byte = match across {
            AcrossRuns::Median => v[v.len() / 2],
            AcrossRuns::Min => v[0],
        };
    }
    out
}

fn measure_groestl(args: &GroestlBenchArgs, backends: &[Backend], plan: Plan, announce: bool) -> Vec<Cell> {
    let mut cells = Vec::new();
    for &v in &args.algorithms {
        for &len in &args.common.sizes {
            let data = message(len);
            for &b in backends {
                if !b.is_available() {
                    if announce && len == args.common.sizes[0] {
                        eprintln!("skipped: backend {} is not available on this CPU", b.name());
                    }
                    continue;
                }
                let cpb = cycles::cycles_per_byte(plan, len, || {
                    let mut h = Groestl::with_backend(v, b).expect("available");
                    h.update(keep(&data));
                    keep(h.finalize());
                });
                cells.push(Cell {
                    algorithm: v.name().into(),
                    implementation: b.name().into(),
                    constant_time: Some(b.is_constant_time()),
                    bytes: len,
                    cycles_per_byte: cpb,
                });
            }
            if !args.no_compare {
                for (name, f) in comparison(v, &data) {
                    let cpb = cycles::cycles_per_byte(plan, len, &f);
                    cells.push(Cell {
                        algorithm: v.name().into(),
                        implementation: name.into(),
                        constant_time: None,
                        bytes: len,
                        cycles_per_byte: cpb,
                    });
                }
            }
            if args.many {
                // `n` different messages (consecutive slices of one painted buffer).
                let n = many_batch(args.many_batch as usize, len);
                let buf = message(n * len);
                let inputs: Vec<&[u8]> = buf.chunks_exact(len).collect();
                let mut out = vec![DigestBytes::default(); n];
                for &b in backends.iter().filter(|b| b.is_available()) {
                    let cpb = cycles::cycles_per_byte(plan, n * len, || {
                        hash_many(v, b, keep(&inputs), &mut out).expect("available");
                        keep(&out);
                    });
                    cells.push(Cell {
                        algorithm: v.name().into(),
                        implementation: format!("{} (hash_many ×{n})", b.name()),
                        constant_time: Some(b.is_constant_time()),
                        bytes: len,
                        cycles_per_byte: cpb,
                    });
                }
            }
        }
    }
    if args.many {
        groestlcoin_rows(backends, args.many_batch as usize, !args.no_compare, plan, &mut cells);
    }
    cells
}

/// Double Grøstl-512 of `batch` different 80-byte headers per call through
/// `groestlcoin_hash_many` on every available backend, and (unless `--no-compare`) the same
/// definition one header at a time with RustCrypto `groestl`.
fn groestlcoin_rows(backends: &[Backend], batch: usize, compare: bool, plan: Plan, cells: &mut Vec<Cell>) {
    let buf = message(batch * HEADER_LEN);
    let headers: Vec<[u8; HEADER_LEN]> = buf.chunks_exact(HEADER_LEN).map(|h| h.try_into().expect("80 bytes")).collect();
    let mut out = vec![[0u8; 32]; batch];
    let cell = |implementation: String, constant_time, cycles_per_byte| Cell {
        algorithm: GROESTLCOIN.into(),
        implementation,
        constant_time,
        bytes: HEADER_LEN,
        cycles_per_byte,
    };
    for &b in backends.iter().filter(|b| b.is_available()) {
        let cpb = cycles::cycles_per_byte(plan, batch * HEADER_LEN, || {
            groestlcoin_hash_many(b, keep(&headers), &mut out).expect("available");
            keep(&out);
        });
        cells.push(cell(format!("{} (groestlcoin_hash_many ×{batch})", b.name()), Some(b.is_constant_time()), cpb));
    }
    if compare {
        let cpb = cycles::cycles_per_byte(plan, batch * HEADER_LEN, || {
            use groestl::Digest as _;
            for (h, o) in keep(&headers).iter().zip(out.iter_mut()) {
                let twice = groestl::Groestl512::digest(groestl::Groestl512::digest(h));
                o.copy_from_slice(&twice[..32]);
            }
            keep(&out);
        });
        cells.push(cell("rustcrypto-groestl (one by one)".into(), None, cpb));
    }
}

fn size_label(n: usize) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} B")
    }
}

/// A Markdown table per algorithm: one row per implementation, one column per size.
pub fn markdown(cells: &[Cell]) -> String {
    let mut algs: Vec<&str> = cells.iter().map(|c| c.algorithm.as_str()).collect();
    algs.dedup();
    let mut out = String::new();
    for alg in algs {
        let these: Vec<&Cell> = cells.iter().filter(|c| c.algorithm == alg).collect();
        let mut sizes: Vec<usize> = these.iter().map(|c| c.bytes).collect();
        sizes.sort_unstable();
        sizes.dedup();
        let mut impls: Vec<&str> = Vec::new();
        for c in &these {
            if !impls.contains(&c.implementation.as_str()) {
                impls.push(&c.implementation);
            }
        }
        let coin = alg == GROESTLCOIN;
        if coin {
            out.push_str(&format!(
                "\n{alg} (double Grøstl-512 of {HEADER_LEN}-byte headers), median {} per byte and per header\n\n| implementation | constant-time |",
                cycles::tick_unit()
            ));
        } else {
            out.push_str(&format!("\n{alg}, median {} per byte\n\n| implementation | constant-time |", cycles::tick_unit()));
        }
        for &s in &sizes {
            out.push_str(&format!(" {} |", size_label(s)));
        }
        if coin {
            out.push_str(" per header |");
        }
        out.push_str("\n|---|---|");
        out.push_str(&"---:|".repeat(sizes.len() + coin as usize));
        out.push('\n');
        for imp in impls {
            let ct = these.iter().find(|c| c.implementation == imp).and_then(|c| c.constant_time);
            out.push_str(&format!(
                "| {imp} | {} |",
                match ct {
                    Some(true) => "yes",
                    Some(false) => "no",
                    None => "(comparison)",
                }
            ));
            for &s in &sizes {
                match these.iter().find(|c| c.implementation == imp && c.bytes == s) {
                    Some(c) => out.push_str(&format!(" {:.2} |", c.cycles_per_byte)),
                    None => out.push_str(" – |"),
                }
            }
            if coin {
                match these.iter().find(|c| c.implementation == imp) {
                    Some(c) => out.push_str(&format!(" {:.0} |", c.cycles_per_byte * c.bytes as f64)),
                    None => out.push_str(" – |"),
                }
            }
            out.push('\n');
        }
    }
    out
}

/// Prints the table or JSON and, with `--save`, writes JSON, Markdown and SVG files.
pub fn report(target: &str, cells: &[Cell], common: &CommonBenchArgs) -> anyhow::Result<()> {
    report_with(target, cells, common, 1, AcrossRuns::Median)
}

/// Splits a row label such as `gfni (hash_many ×256)` into the implementation (`gfni`) and
/// the kind of measurement (`hash_many`), dropping the batch size, which may vary with the
/// message length. Plain labels have no kind.
fn plot_key(label: &str) -> (&str, Option<String>) {
    match label.split_once(" (") {
        Some((name, rest)) => {
            let kind = rest.trim_end_matches(')');
            let kind = kind.split(" ×").next().unwrap_or(kind).trim();
            (name, Some(kind.to_string()))
        }
        None => (label, None),
    }
}

/// A file-name-safe form of a label: runs of anything but letters, digits, `_` and `.` become `-`.
fn slug(s: &str) -> String {
    let mut out = String::new();
    for ch in s.chars() {
        if ch.is_ascii_alphanumeric() || ch == '_' || ch == '.' {
            out.push(ch);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// [`report`] for a figure that is the median (or minimum) of `runs` whole runs.
pub fn report_with(
    target: &str,
    cells: &[Cell],
    common: &CommonBenchArgs,
    runs: usize,
    across: AcrossRuns,
) -> anyhow::Result<()> {
    let statistic = if runs > 1 {
        let across = match across {
            AcrossRuns::Median => "median",
            AcrossRuns::Min => "minimum",
        };
        format!("{across} of {runs} runs, each the median of {} samples", common.samples)
    } else {
        format!("median of {} samples", common.samples)
    };
    let json = serde_json::to_string_pretty(&serde_json::json!({
        "target": target,
        "unit": format!("{} per byte", cycles::tick_unit()),
        "statistic": statistic,
        "cpu": cpu_json(),
        "results": cells,
    }))?;
    let md = format!("CPU: {}; {statistic}\n{}", cpu_description(), markdown(cells));
    if common.json {
        println!("{json}");
    } else {
        print!("{md}");
    }
    if let Some(dir) = &common.save {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let write = |name: String, text: &str| -> anyhow::Result<()> {
            let p = dir.join(name);
            std::fs::write(&p, text).with_context(|| format!("writing {}", p.display()))
        };
        write(format!("bench-{target}.json"), &json)?;
        write(format!("bench-{target}.md"), &md)?;
        let mut algs: Vec<&str> = cells.iter().map(|c| c.algorithm.as_str()).collect();
        algs.dedup();
        for alg in algs {
            // One figure for the plain rows and one per kind of labelled row (`hash_many`…).
            let mut figures: Vec<(Option<String>, Vec<plot::Series>)> = Vec::new();
            for c in cells.iter().filter(|c| c.algorithm == alg) {
                let (name, kind) = plot_key(&c.implementation);
                let fig = match figures.iter().position(|f| f.0 == kind) {
                    Some(i) => &mut figures[i].1,
                    None => {
                        figures.push((kind.clone(), Vec::new()));
                        &mut figures.last_mut().unwrap().1
                    }
                };
                let point = (c.bytes as f64, c.cycles_per_byte);
                match fig.iter_mut().find(|s| s.0 == name) {
                    Some(s) => s.1.push(point),
                    None => fig.push((name.to_string(), vec![point])),
                }
            }
            for (kind, series) in figures {
                let (title, file) = match &kind {
                    Some(k) => (format!("{alg}, {k}"), format!("bench-{}-{}.svg", slug(alg), slug(k))),
                    None => (alg.to_string(), format!("bench-{}.svg", slug(alg))),
                };
                let svg = plot::svg(&format!("{title}: {} per byte (median)", cycles::tick_unit()), "cycles per byte", &series);
                write(file, &svg)?;
            }
        }
        eprintln!("wrote bench-{target}.json, bench-{target}.md and plots into {}", dir.display());
    }
    if cells.is_empty() {
        bail!("nothing was measured");
    }
    Ok(())
}

/// The CPU as the OS names it and as CPUID classifies it (the class orders `detect()`).
pub fn cpu_description() -> String {
    format!("{} — {}", cpu_model(), slicewise_groestl::cpu::cpu_info())
}

/// [`cpu_description`] as JSON fields.
pub fn cpu_json() -> serde_json::Value {
    let c = slicewise_groestl::cpu::cpu_info();
    serde_json::json!({
        "model": cpu_model(),
        "vendor": c.vendor_str(),
        "family": c.family,
        "model_number": c.model,
        "class": c.class.to_string(),
    })
}

/// The CPU model, for the record.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("model name")).map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string()))
        .unwrap_or_else(|| "unknown".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plot_keys_drop_the_batch_size() {
        assert_eq!(plot_key("gfni"), ("gfni", None));
        assert_eq!(plot_key("gfni (hash_many ×256)"), ("gfni", Some("hash_many".into())));
        assert_eq!(plot_key("gfni (hash_many ×16)"), ("gfni", Some("hash_many".into())));
        assert_eq!(plot_key("rustcrypto-groestl (one by one)"), ("rustcrypto-groestl", Some("one by one".into())));
    }

    #[test]
    fn file_names_are_slugs() {
        assert_eq!(slug("proest128apev1 decrypt"), "proest128apev1-decrypt");
        assert_eq!(slug("one by one"), "one-by-one");
        assert_eq!(slug("groestl-256"), "groestl-256");
    }

    #[test]
    fn runs_are_merged_by_median_or_minimum() {
        let c = |v| Cell {
            algorithm: "a".into(),
            implementation: "i".into(),
            constant_time: None,
            bytes: 64,
            cycles_per_byte: v,
        };
        let mut vals = [5.0, 1.0, 3.0].into_iter();
        let out = combine_runs(3, AcrossRuns::Median, || vec![c(vals.next().unwrap())]);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].cycles_per_byte, 3.0);
        // `--across-runs min`: the fastest run.
        let mut vals = [5.0, 1.0, 3.0, 4.0].into_iter();
        let out = combine_runs(4, AcrossRuns::Min, || vec![c(vals.next().unwrap())]);
        assert_eq!(out[0].cycles_per_byte, 1.0);
    }

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("64"), Ok(64));
        assert_eq!(parse_size("4KiB"), Ok(4096));
        assert_eq!(parse_size("1MiB"), Ok(1 << 20));
        assert_eq!(parse_size("16k"), Ok(16384));
        assert!(parse_size("0").is_err());
        assert!(parse_size("lots").is_err());
    }

    #[test]
    fn markdown_has_a_row_per_implementation() {
        let c = |i: &str, b, v| Cell {
            algorithm: "groestl-256".into(),
            implementation: i.into(),
            constant_time: Some(true),
            bytes: b,
            cycles_per_byte: v,
        };
        let md = markdown(&[c("portable", 64, 50.0), c("portable", 1 << 20, 30.0), c("x", 64, 9.0)]);
        assert!(md.contains("| portable | yes | 50.00 | 30.00 |"), "{md}");
        assert!(md.contains("| x | yes | 9.00 | – |"), "{md}");
    }

    #[test]
    fn groestlcoin_cells_carry_cycles_per_header() {
        let c = Cell {
            algorithm: GROESTLCOIN.into(),
            implementation: "gfni (groestlcoin_hash_many ×256)".into(),
            constant_time: Some(true),
            bytes: 80,
            cycles_per_byte: 6.0,
        };
        let md = markdown(std::slice::from_ref(&c));
        assert!(md.contains("| 80 B | per header |"), "{md}");
        assert!(md.contains("| gfni (groestlcoin_hash_many ×256) | yes | 6.00 | 480 |"), "{md}");
        let j = serde_json::to_value(&c).unwrap();
        assert_eq!(j["cycles_per_header"], 480.0);
        let mut other = c.clone();
        other.algorithm = "groestl-256".into();
        assert!(serde_json::to_value(&other).unwrap().get("cycles_per_header").is_none());
    }

    #[test]
    fn many_batch_is_capped_for_long_messages() {
        assert_eq!(many_batch(256, 64), 256);
        assert_eq!(many_batch(256, 1 << 20), 16);
        assert_eq!(many_batch(256, 64 << 20), 4);
        assert_eq!(many_batch(3, 1 << 20), 3);
    }
}
