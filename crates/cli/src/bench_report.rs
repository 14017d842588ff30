//! What every `slicewise bench` target shares: the common options, the measured [`Cell`], the
//! Markdown and JSON reports, and `--save DIR`, which keeps one file per CPU model.
//!
//! `bench.rs` (the dispatcher and Grøstl) and `bench_proest.rs` both build on this module; it
//! imports neither of them.
//!
//! # The file per CPU
//!
//! `--save DIR` writes `DIR/<slug>.md`, the slug naming the CPU ([`machine::cpu_slug`], e.g.
//! `amd-zen4-19h-11h`). The file holds one section per benchmark target (`groestl`, `proest`),
//! each between `<!-- bench: TARGET -->` and `<!-- /bench: TARGET -->`, with the date, the exact
//! command, the machine header and the tables of that target's latest run. A run replaces its
//! own target's section and keeps the others, so a Grøstl and a Prøst run on the same CPU land
//! in the same file. Next to it go `DIR/<slug>-<target>.json` and one SVG plot per algorithm
//! (`DIR/<slug>-<algorithm>[-<kind>].svg`). Every file is written to a temporary file in `DIR`
//! first and renamed into place only when all of them were written, and `DIR` is checked
//! before anything is measured.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Args;
use serde::Serialize;

use crate::cycles::{self, Plan};
use crate::machine::{self, Machine};
use crate::plot;

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
    /// Also record the run in DIR/<cpu>.md (one file per CPU model, one section per benchmark
    /// target, replaced by the next run of the same target), with its JSON and SVG plots.
    #[arg(long, value_name = "DIR")]
    pub save: Option<PathBuf>,
}

impl CommonBenchArgs {
    pub fn plan(&self) -> Plan {
        Plan { samples: self.samples, bytes_per_sample: self.bytes_per_sample }
    }
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

/// The message every benchmark processes: bytes `i % 251`.
pub fn message(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i % 251) as u8).collect()
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

/// The algorithm name of the Groestlcoin rows (`bench groestl --many`): double Grøstl-512 of
/// 80-byte headers; their tables add a column of cycles per header.
pub const GROESTLCOIN: &str = "groestlcoin";
/// The length of a Groestlcoin block header.
pub const HEADER_LEN: usize = 80;

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

/// The statistic taken across the `--runs` runs of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AcrossRuns {
    /// The median run.
    Median,
    /// The fastest run.
    Min,
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

fn size_label(n: usize) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} B")
    }
}

/// The algorithms of `cells` in order of first appearance.
fn algorithms(cells: &[Cell]) -> Vec<&str> {
    let mut algs: Vec<&str> = Vec::new();
    for c in cells {
        if !algs.contains(&c.algorithm.as_str()) {
            algs.push(&c.algorithm);
        }
    }
    algs
}

/// A Markdown table per algorithm: one row per implementation, one column per size.
pub fn markdown(cells: &[Cell]) -> String {
    let mut out = String::new();
    for alg in algorithms(cells) {
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

/// One SVG per algorithm and kind of row: `(file name suffix, title, SVG)`.
fn plots(cells: &[Cell]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for alg in algorithms(cells) {
        // One figure for the plain rows and one per kind of labelled row (`hash_many`…).
        let mut figures: Vec<(Option<String>, Vec<plot::Series>)> = Vec::new();
        for c in cells.iter().filter(|c| c.algorithm == alg) {
            let (name, kind) = plot_key(&c.implementation);
            let i = match figures.iter().position(|f| f.0 == kind) {
                Some(i) => i,
                None => {
                    figures.push((kind.clone(), Vec::new()));
                    figures.len() - 1
                }
            };
            let fig = &mut figures[i].1;
            let point = (c.bytes as f64, c.cycles_per_byte);
            match fig.iter_mut().find(|s| s.0 == name) {
                Some(s) => s.1.push(point),
                None => fig.push((name.to_string(), vec![point])),
            }
        }
        for (kind, series) in figures {
            let (title, suffix) = match &kind {
                Some(k) => (format!("{alg}, {k}"), format!("{}-{}", machine::file_slug(alg), machine::file_slug(k))),
                None => (alg.to_string(), machine::file_slug(alg)),
            };
            let svg = plot::svg(&format!("{title}: {} per byte (median)", cycles::tick_unit()), "cycles per byte", &series);
            out.push((suffix, svg));
        }
    }
    out
}

/// One benchmark run, ready to print and save.
pub struct Report<'a> {
    /// The benchmark target (`groestl`, `proest`): the JSON `target` and the section name.
    pub target: &'a str,
    pub cells: &'a [Cell],
    pub samples: usize,
    /// Whole runs merged into each cell, and how.
    pub runs: usize,
    pub across: AcrossRuns,
    /// Tables that come before the per-algorithm ones (Markdown), with their JSON field.
    pub extra: Option<(String, &'static str, serde_json::Value)>,
}

impl Report<'_> {
    fn statistic(&self) -> String {
        if self.runs > 1 {
            let across = match self.across {
                AcrossRuns::Median => "median",
                AcrossRuns::Min => "minimum",
            };
            format!("{across} of {} runs, each the median of {} samples", self.runs, self.samples)
        } else {
            format!("median of {} samples", self.samples)
        }
    }

    /// The tables, without the CPU line.
    fn tables(&self) -> String {
        let extra = self.extra.as_ref().map_or("", |e| e.0.as_str());
        format!("{extra}{}", markdown(self.cells))
    }

    /// Prints the table (or JSON) and, with `save`, records the run in the CPU's file.
    pub fn emit(&self, json: bool, save: Option<&SaveDir>) -> anyhow::Result<()> {
        if self.cells.is_empty() {
            bail!("nothing was measured");
        }
        let statistic = self.statistic();
        let command = command_line();
        let date = machine::utc_now();
        let mut j = serde_json::json!({
            "target": self.target,
            "unit": format!("{} per byte", cycles::tick_unit()),
            "statistic": statistic,
            "command": command,
            "date": date,
            "cpu": machine::cpu_json(),
            "results": self.cells,
        });
        if let Some((_, key, value)) = &self.extra {
            j[*key] = value.clone();
        }
        let json_text = serde_json::to_string_pretty(&j)?;
        if json {
            println!("{json_text}");
        } else {
            print!("CPU: {}; {statistic}\n{}", machine::cpu_description(), self.tables());
        }
        if let Some(dir) = save {
            dir.write(self, &statistic, &command, &date, &json_text)?;
        }
        Ok(())
    }
}

/// This process's command line, quoted for a POSIX shell where needed.
fn command_line() -> String {
    std::env::args().map(|a| shell_quote(&a)).collect::<Vec<_>>().join(" ")
}

fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "_-./,:=@%+".contains(c));
    if plain { s.to_string() } else { format!("'{}'", s.replace('\'', r"'\''")) }
}

const FILE_MARK: &str = "<!-- slicewise bench file: generated by `slicewise bench … --save DIR`; do not edit, re-run instead -->";

/// A checked `--save` directory and the CPU file in it.
#[derive(Debug)]
pub struct SaveDir {
    dir: PathBuf,
    slug: String,
}

impl SaveDir {
    /// Creates `dir` if needed and checks, before anything is measured, that files can be
    /// written there and that an existing CPU file is one `--save` wrote.
    pub fn prepare(dir: &Path) -> anyhow::Result<SaveDir> {
        let bad = || format!("--save {}", dir.display());
        if dir.exists() && !dir.is_dir() {
            bail!("{}: not a directory", bad());
        }
        std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create the directory", bad()))?;
        tempfile::NamedTempFile::new_in(dir).with_context(|| format!("{}: cannot write into the directory", bad()))?;
        let saver = SaveDir { dir: dir.to_path_buf(), slug: machine::cpu_slug() };
        saver.sections()?;
        Ok(saver)
    }

    /// The CPU file.
    pub fn file(&self) -> PathBuf {
        self.dir.join(format!("{}.md", self.slug))
    }

    /// The sections of the existing CPU file (none if there is no file yet).
    fn sections(&self) -> anyhow::Result<Vec<(String, String)>> {
        let path = self.file();
        match std::fs::read_to_string(&path) {
            Ok(text) => parse_sections(&text).with_context(|| format!("{}: refusing to overwrite it", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
            Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
        }
    }

    fn write(&self, report: &Report<'_>, statistic: &str, command: &str, date: &str, json: &str) -> anyhow::Result<()> {
        let target = report.target;
        let json_name = format!("{}-{target}.json", self.slug);
        let svgs: Vec<(String, String)> =
            plots(report.cells).into_iter().map(|(suffix, svg)| (format!("{}-{suffix}.svg", self.slug), svg)).collect();
        let plot_links: Vec<String> = svgs.iter().map(|(name, _)| format!("[{name}]({name})")).collect();
        let body = format!(
            "## `slicewise bench {target}`\n\nRun {date}:\n\n```sh\n{command}\n```\n\n{}- statistic: {statistic}, {} per byte\n- files: [{json_name}]({json_name}); plots: {}\n{}\n",
            Machine::detect().markdown(),
            cycles::tick_unit(),
            plot_links.join(", "),
            report.tables(),
        );
        let mut sections = self.sections()?;
        match sections.iter_mut().find(|s| s.0 == target) {
            Some(s) => s.1 = body,
            None => sections.push((target.to_string(), body)),
        }
        let md = render_file(&self.slug, &machine::cpu_model(), &sections);
        // All files into temporary files first; renamed into place only when all are written.
        let mut files = vec![(format!("{}.md", self.slug), md), (json_name, json.to_string())];
        files.extend(svgs);
        let mut staged = Vec::new();
        for (name, text) in &files {
            let mut tmp = tempfile::NamedTempFile::new_in(&self.dir).with_context(|| format!("writing into {}", self.dir.display()))?;
            tmp.write_all(text.as_bytes()).with_context(|| format!("writing {name} into {}", self.dir.display()))?;
            staged.push((tmp, self.dir.join(name)));
        }
        for (tmp, path) in staged {
            tmp.persist(&path).with_context(|| format!("writing {}", path.display()))?;
        }
        eprintln!("wrote section `{target}` of {}, {} and {} plots", self.file().display(), files[1].0, files.len() - 2);
        Ok(())
    }
}

fn render_file(slug: &str, model: &str, sections: &[(String, String)]) -> String {
    let mut out = format!(
        "{FILE_MARK}\n# Benchmarks on {model} (`{slug}`)\n\n\
         Median {} per byte of the slicewise backends on this CPU, written by `slicewise bench … --save`. Each \
         section holds the latest run of one benchmark target, with its command and machine; \
         re-running a target replaces its section only.\n",
        cycles::tick_unit()
    );
    for (name, body) in sections {
        out.push_str(&format!("\n<!-- bench: {name} -->\n{}<!-- /bench: {name} -->\n", body));
    }
    out
}

/// The `(target, body)` sections of a CPU file; an error for a file `--save` did not write.
fn parse_sections(text: &str) -> anyhow::Result<Vec<(String, String)>> {
    if text.lines().next() != Some(FILE_MARK) {
        bail!("it was not written by `slicewise bench --save`");
    }
    let mut sections = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("<!-- bench: ").and_then(|l| l.strip_suffix(" -->")) {
            if open.is_some() {
                bail!("section `{name}` starts inside another section");
            }
            open = Some((name.to_string(), String::new()));
        } else if let Some(name) = line.strip_prefix("<!-- /bench: ").and_then(|l| l.strip_suffix(" -->")) {
            match open.take() {
                Some(s) if s.0 == name => sections.push(s),
                _ => bail!("section end `{name}` without its start"),
            }
        } else if let Some(s) = &mut open {
            s.1.push_str(line);
            s.1.push('\n');
        }
    }
    if let Some(s) = open {
        bail!("section `{}` has no end", s.0);
    }
    Ok(sections)
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
        assert_eq!(machine::file_slug("proest128apev1 decrypt"), "proest128apev1-decrypt");
        assert_eq!(machine::file_slug("one by one"), "one-by-one");
        assert_eq!(machine::file_slug("groestl-256"), "groestl-256");
    }

    fn cell(alg: &str, imp: &str, bytes: usize, v: f64) -> Cell {
        Cell { algorithm: alg.into(), implementation: imp.into(), constant_time: Some(true), bytes, cycles_per_byte: v }
    }

    #[test]
    fn runs_are_merged_by_median_or_minimum() {
        let c = |v| cell("a", "i", 64, v);
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
        let md = markdown(&[
            cell("groestl-256", "portable", 64, 50.0),
            cell("groestl-256", "portable", 1 << 20, 30.0),
            cell("groestl-256", "x", 64, 9.0),
        ]);
        assert!(md.contains("| portable | yes | 50.00 | 30.00 |"), "{md}");
        assert!(md.contains("| x | yes | 9.00 | – |"), "{md}");
    }

    #[test]
    fn groestlcoin_cells_carry_cycles_per_header() {
        let c = cell(GROESTLCOIN, "gfni (groestlcoin_hash_many ×256)", 80, 6.0);
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
    fn sections_round_trip_and_reject_foreign_files() {
        let sections = vec![("groestl".to_string(), "a\n\nb\n".to_string()), ("proest".to_string(), "c\n".to_string())];
        let text = render_file("intel-06h-a7h", "Xeon", &sections);
        assert_eq!(parse_sections(&text).unwrap(), sections);
        assert!(parse_sections("# Benchmarks\n").is_err());
        let unterminated = format!("{FILE_MARK}\n<!-- bench: groestl -->\nx\n");
        assert!(parse_sections(&unterminated).is_err());
    }

    #[test]
    fn arguments_are_quoted_for_the_shell() {
        assert_eq!(shell_quote("--sizes"), "--sizes");
        assert_eq!(shell_quote("64,16KiB"), "64,16KiB");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }
}
