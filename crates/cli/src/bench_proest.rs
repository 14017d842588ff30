//! `slicewise bench proest`: median cycles/byte of every Prøst AEAD (encrypt and decrypt) on
//! every backend, plus the cost of one bare permutation call.
//!
//! Messages are bytes `i % 251` with empty associated data, the setting of SUPERCOP's Prøst
//! figures. Cycles per byte are per *message* byte.

use std::process::ExitCode;

use clap::Args;
use slicewise_proest::modes::{Ape, Copa, Mode, Otr};
use slicewise_proest::{Backend, Permutation, Proest128, Proest256, ProestAead};

use crate::aead_cmd::Alg;
use crate::bench_report::{AcrossRuns, Cell, Report, SaveDir, message, parse_size};
use crate::cycles::{self, Plan, keep};

#[derive(Debug, Args)]
pub struct ProestBenchArgs {
    /// `all`, or a comma-separated list of backend names.
    #[arg(long, default_value = "all")]
    backend: String,
    /// Algorithms to measure.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "proest128-ape,proest128-copa,proest128-otr,proest256-ape,proest256-copa,proest256-otr"
    )]
    algorithms: Vec<Alg>,
    /// Message sizes: comma-separated, with optional KiB/MiB suffixes.
    #[arg(long, value_delimiter = ',', value_parser = parse_size, default_value = "64,1536,16KiB,1MiB")]
    sizes: Vec<usize>,
    /// Measure only encryption (default: encryption and decryption).
    #[arg(long)]
    encrypt_only: bool,
    /// Timed samples per cell; the median is reported.
    #[arg(long, default_value_t = 101)]
    samples: usize,
    /// Bytes processed per sample (small messages are repeated up to this).
    #[arg(long, value_parser = parse_size, default_value = "32KiB")]
    bytes_per_sample: usize,
    /// Print the results as JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Also record the run in DIR/<cpu>.md (one file per CPU model, one section per benchmark
    /// target, replaced by the next run of the same target), with its JSON and SVG plots.
    #[arg(long, value_name = "DIR")]
    save: Option<std::path::PathBuf>,
}

fn measure<M: Mode>(b: Backend, len: usize, plan: Plan, decrypt_too: bool, cells: &mut Vec<Cell>) -> anyhow::Result<()> {
    let key: Vec<u8> = (0..M::KEY_LEN as u8).collect();
    let nonce: Vec<u8> = (0..M::NONCE_LEN as u8).collect();
    let c = ProestAead::<M>::with_backend(&key, b)?;
    let msg = message(len);
    let ct_len = ProestAead::<M>::ciphertext_len(len).expect("small");
    let mut ct = vec![0u8; ct_len];
    let enc = cycles::cycles_per_byte(plan, len, || {
        keep(c.encrypt_into(&nonce, b"", keep(&msg), &mut ct).expect("encrypt"));
    });
    let mut push = |op: &str, cpb: f64| {
        cells.push(Cell {
            algorithm: format!("{} {op}", M::ALGORITHM),
            implementation: b.name().into(),
            constant_time: Some(b.is_constant_time()),
            bytes: len,
            cycles_per_byte: cpb,
        })
    };
    push("encrypt", enc);
    if M::ALGORITHM.contains("ape") && len <= 16 << 10 {
        // 32 independent packets of `len` bytes through `encrypt_batch` (lockstep APE).
        let msgs: Vec<Vec<u8>> = (0..32).map(|_| msg.clone()).collect();
        let packets: Vec<slicewise_proest::Packet<'_>> =
            msgs.iter().map(|m| slicewise_proest::Packet { nonce: &nonce, ad: b"", msg: m }).collect();
        let batch = cycles::cycles_per_byte(plan, 32 * len, || {
            keep(c.encrypt_batch(keep(&packets)).expect("encrypt_batch"));
        });
        push("encrypt_batch32", batch);
    }
    if decrypt_too {
        let mut pt = vec![0u8; ct_len];
        let dec = cycles::cycles_per_byte(plan, len, || {
            keep(c.decrypt_into(&nonce, b"", keep(&ct), &mut pt).expect("decrypt"));
        });
        push("decrypt", dec);
        if M::ALGORITHM.contains("ape") && len <= 16 << 10 {
            // 32 independent ciphertexts through `decrypt_batch` (lockstep APE, P^-1 wide).
            let packets: Vec<slicewise_proest::Packet<'_>> =
                (0..32).map(|_| slicewise_proest::Packet { nonce: &nonce, ad: b"", msg: &ct }).collect();
            let batch = cycles::cycles_per_byte(plan, 32 * len, || {
                let r = c.decrypt_batch(keep(&packets));
                assert!(r.iter().all(|p| p.is_ok()), "decrypt_batch");
                keep(r);
            });
            push("decrypt_batch32", batch);
        }
    }
    Ok(())
}

fn perm_cycles<P: Permutation>(b: Backend, plan: Plan) -> anyhow::Result<f64> {
    let p = P::with_backend(b)?;
    let mut s = [<P::Lane as slicewise_proest::Lane>::ZERO; 16];
    let plan = Plan { samples: plan.samples, bytes_per_sample: 2000 };
    Ok(cycles::cycles_per_call(plan, || {
        p.permute(keep(&mut s));
    }))
}

/// Cycles per permutation of `permute_many` on `n` independent states.
fn perm_many_cycles<P: Permutation>(b: Backend, plan: Plan, n: usize) -> anyhow::Result<f64> {
    let p = P::with_backend(b)?;
    let mut s = vec![[<P::Lane as slicewise_proest::Lane>::ZERO; 16]; n];
    let plan = Plan { samples: plan.samples, bytes_per_sample: 200 };
    Ok(cycles::cycles_per_call(plan, || {
        p.permute_many(keep(&mut s[..]));
    }) / n as f64)
}

pub fn run_proest(args: ProestBenchArgs) -> anyhow::Result<ExitCode> {
    let backends: Vec<Backend> = if args.backend == "all" {
        Backend::all().collect()
    } else {
        args.backend.split(',').map(Backend::from_name).collect::<Result<_, _>>()?
    };
    let save = args.save.as_deref().map(SaveDir::prepare).transpose()?;
    let plan = Plan { samples: args.samples, bytes_per_sample: args.bytes_per_sample };
    let decrypt_too = !args.encrypt_only;
    for b in backends.iter().filter(|b| !b.is_available()) {
        eprintln!("skipped: backend {} is not available on this CPU", b.name());
    }
    let backends: Vec<Backend> = backends.into_iter().filter(|b| b.is_available()).collect();
    let mut cells = Vec::new();
    for &alg in &args.algorithms {
        for &len in &args.sizes {
            for &b in &backends {
                match alg {
                    Alg::Proest128Ape => measure::<Ape<Proest128>>(b, len, plan, decrypt_too, &mut cells)?,
                    Alg::Proest128Copa => measure::<Copa<Proest128>>(b, len, plan, decrypt_too, &mut cells)?,
                    Alg::Proest128Otr => measure::<Otr<Proest128>>(b, len, plan, decrypt_too, &mut cells)?,
                    Alg::Proest256Ape => measure::<Ape<Proest256>>(b, len, plan, decrypt_too, &mut cells)?,
                    Alg::Proest256Copa => measure::<Copa<Proest256>>(b, len, plan, decrypt_too, &mut cells)?,
                    Alg::Proest256Otr => measure::<Otr<Proest256>>(b, len, plan, decrypt_too, &mut cells)?,
                }
            }
        }
    }
    // One table per "algorithm operation": group the cells (stable, first-appearance order).
    let mut order: Vec<String> = Vec::new();
    for c in &cells {
        if !order.contains(&c.algorithm) {
            order.push(c.algorithm.clone());
        }
    }
    cells.sort_by_key(|c| order.iter().position(|a| *a == c.algorithm));
    let report = Report {
        target: "proest",
        cells: &cells,
        samples: args.samples,
        runs: 1,
        across: AcrossRuns::Median,
        extra: Some(permutation_table(&backends, plan)?),
    };
    report.emit(args.json, save.as_ref())?;
    Ok(ExitCode::SUCCESS)
}

/// The cost of one permutation call and of one state in `permute_many` of 64, per available
/// backend: the Markdown table and its JSON.
fn permutation_table(backends: &[Backend], plan: Plan) -> anyhow::Result<(String, &'static str, serde_json::Value)> {
    let mut md = format!(
        "\nOne permutation call, median {} per call\n\n| backend | Prøst-128 | Prøst-256 | Prøst-128, `permute_many` of 64 | Prøst-256, `permute_many` of 64 |\n|---|---:|---:|---:|---:|\n",
        cycles::tick_unit()
    );
    let mut rows = Vec::new();
    for &b in backends {
        let (p128, p256) = (perm_cycles::<Proest128>(b, plan)?, perm_cycles::<Proest256>(b, plan)?);
        let (m128, m256) = (perm_many_cycles::<Proest128>(b, plan, 64)?, perm_many_cycles::<Proest256>(b, plan, 64)?);
        md.push_str(&format!("| {} | {p128:.0} | {p256:.0} | {m128:.1} | {m256:.1} |\n", b.name()));
        rows.push(serde_json::json!({
            "backend": b.name(),
            "proest128_per_call": p128,
            "proest256_per_call": p256,
            "proest128_per_state_in_permute_many_64": m128,
            "proest256_per_state_in_permute_many_64": m256,
        }));
    }
    Ok((md, "permutation", serde_json::Value::Array(rows)))
}
