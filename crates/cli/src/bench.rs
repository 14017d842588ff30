//! `slicewise bench`: the benchmark targets, and the Grøstl benchmark: median cycles/byte of
//! every backend, with RustCrypto `groestl` and `groestl-aesni` measured in the same run for
//! comparison. The Prøst benchmark is `bench_proest.rs`; the options, tables and `--save` files
//! both share are `bench_report.rs`.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use slicewise_groestl::{Backend, DigestBytes, Variant, groestlcoin_hash_many, hash_into, hash_many};

use crate::bench_report::{AcrossRuns, Cell, CommonBenchArgs, GROESTLCOIN, HEADER_LEN, Report, SaveDir, combine_runs, message};
use crate::cycles::{self, Plan, keep};

/// `slicewise backends` prints the CPU the same way the bench tables do.
pub use crate::machine::{cpu_description, cpu_json};

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
}

pub fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    match args.target {
        BenchTarget::Groestl(a) => run_groestl(a),
        BenchTarget::Proest(a) => crate::bench_proest::run_proest(a),
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

fn parse_variant(s: &str) -> Result<Variant, String> {
    Variant::from_name(s).ok_or_else(|| format!("unknown algorithm {s:?}"))
}

/// Messages per `hash_many` call for `len`-byte messages: `batch`, cut to 16 MiB of input per
/// call for long messages but never below 4 (one multi-buffer pass).
fn many_batch(batch: usize, len: usize) -> usize {
    batch.min(((16 << 20) / len.max(1)).max(4))
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
    let save = args.common.save.as_deref().map(SaveDir::prepare).transpose()?;
    let plan = args.common.plan();
    let mut first = true;
    let cells = combine_runs(args.runs as usize, args.across_runs, || {
        let cells = measure_groestl(&args, &backends, plan, first);
        first = false;
        cells
    });
    let report = Report {
        target: "groestl",
        cells: &cells,
        samples: args.common.samples,
        runs: args.runs as usize,
        across: args.across_runs,
        extra: None,
    };
    report.emit(args.common.json, save.as_ref())?;
    Ok(ExitCode::SUCCESS)
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
                // The one-shot form, as the peers' rows below (`Digest::digest`) and the C API's
                // `slicewise_groestl*_hash`; until 2026-11-28 the streaming `Groestl` with
                // `finalize()`, whose returned copy of the digest costs ~50 cycles a hash
                // (64-byte Grøstl-256 on `gfni`, Zen 4: 615 against 562 cycles).
                let cpb = cycles::cycles_per_byte(plan, len, || {
                    let mut out = [0u8; 64];
                    hash_into(v, b, keep(&data), &mut out).expect("available");
                    keep(&out);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_batch_is_capped_for_long_messages() {
        assert_eq!(many_batch(256, 64), 256);
        assert_eq!(many_batch(256, 1 << 20), 16);
        assert_eq!(many_batch(256, 64 << 20), 4);
        assert_eq!(many_batch(3, 1 << 20), 3);
    }
}
