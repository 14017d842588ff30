//! The checker of proof directories ([`super::proof`]): rebuilds every CNF from the stored
//! matrix and options, compares it byte for byte, and runs an independent DRAT checker on
//! every refutation, in the caps' sub-directories first (`slicewise slp check-proof DIR`).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, Result};

use crate::cnf::Cnf;
use super::encode::{cnf_dimacs, cnf_text, cubes, encode};
use super::proof::{PROOF_FORMAT, ProofOptions, ProofResult, drat_name};
use crate::matrix::BitMatrix;
use crate::paar::nontrivial_targets;
use crate::satcaps::{Cap, cap_dir_name};

/// Runs `checker cnf drat`, which must exit 0 and print `s VERIFIED`.
fn run_checker(checker: &Path, cnf: &Path, drat: &Path) -> Result<()> {
    let out = std::process::Command::new(checker)
        .arg(cnf)
        .arg(drat)
        .output()
        .with_context(|| format!("running the DRAT checker {}", checker.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    anyhow::ensure!(
        out.status.success() && stdout.lines().any(|l| l.trim() == "s VERIFIED"),
        "the DRAT checker did not verify {} ({}): {}{}",
        drat.file_name().map_or_else(String::new, |f| f.to_string_lossy().into_owned()),
        out.status,
        stdout.trim(),
        String::from_utf8_lossy(&out.stderr).trim()
    );
    Ok(())
}

/// A fresh path in the temporary directory ending in `name`.
fn tempfile_in_temp(name: &str) -> Result<PathBuf> {
    static N: AtomicUsize = AtomicUsize::new(0);
    Ok(std::env::temp_dir().join(format!("slicewise-check-{}-{}-{name}", std::process::id(), N.fetch_add(1, Ordering::Relaxed))))
}

/// What [`check_proof_dir`] established.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofCheck {
    /// The k whose CNF was rebuilt and found identical to `kK.cnf`.
    pub cnfs_matched: Vec<usize>,
    /// The k whose UNSAT proof the checker verified.
    pub proofs_verified: Vec<usize>,
    /// The lower bound the verified proofs establish: no program has fewer XORs.
    pub lower_bound: usize,
    /// With `restriction.json` ([`crate::restrict`]): the whole matrix, its dropped columns,
    /// and the bound the proofs establish for it (`lower_bound` + the number of columns).
    pub restriction: Option<(BitMatrix, Vec<usize>, usize)>,
    /// The checks of the caps' sub-directories ([`crate::satcaps`]), in the order of
    /// `options.json`.
    pub caps: Vec<ProofCheck>,
    /// DRAT proofs verified in this directory (one per k, or one per cube of a split k).
    pub drat_files: usize,
}

impl ProofCheck {
    /// DRAT proofs verified here (one per cube of a split k) and in the caps' sub-directories,
    /// all levels.
    pub fn total_proofs(&self) -> usize {
        self.drat_files + self.caps.iter().map(ProofCheck::total_proofs).sum::<usize>()
    }
}

/// Re-checks a proof directory written by [`super::exact`]: rebuilds the CNF of every `kK.cnf` from
/// `matrix.txt` and `options.json` and requires it to be byte-identical, runs `checker` (a
/// DRAT checker called as `checker kK.cnf kK.drat`, which must exit 0 and print
/// `s VERIFIED`) on the proof of every k that `result.json` lists as UNSAT, and requires those
/// k to run without a gap from the number of distinct targets, so that they prove the bound.
pub fn check_proof_dir(dir: &Path, checker: &Path) -> Result<ProofCheck> {
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).with_context(|| format!("reading {}", dir.join(name).display()));
    let m = crate::parse::parse_matrix(&read("matrix.txt")?).map_err(|e| anyhow::anyhow!("matrix.txt: {e}"))?;
    let o: ProofOptions = serde_json::from_str(&read("options.json")?).context("options.json")?;
    anyhow::ensure!(o.format == PROOF_FORMAT, "options.json: unknown format {:?}", o.format);
    anyhow::ensure!((o.rows, o.cols, o.fingerprint.as_str()) == (m.rows(), m.cols(), m.fingerprint().as_str()), "options.json does not describe matrix.txt");
    let res: ProofResult = serde_json::from_str(&read("result.json")?).context("result.json")?;
    // The caps' bounds first: the CNFs below are only sound with them.
    let caps = check_caps(dir, &m, &o.encoding.caps, checker)?;
    let mut ks: Vec<usize> = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let name = e?.file_name().to_string_lossy().into_owned();
        if let Some(k) = name.strip_prefix('k').and_then(|r| r.strip_suffix(".cnf")).and_then(|d| d.parse().ok()) {
            ks.push(k);
        }
    }
    ks.sort_unstable();
    for &k in &ks {
        anyhow::ensure!(read(&format!("k{k}.cnf"))? == cnf_text(&m, k, &o.encoding), "k{k}.cnf differs from the CNF that matrix.txt and options.json give");
    }
    let first = nontrivial_targets(&m).len();
    let mut bound = first;
    let mut verified = Vec::new();
    let mut drat_files = 0;
    for (k, answer) in &res.answers {
        if answer != "unsat" {
            continue;
        }
        anyhow::ensure!(*k == bound, "result.json: UNSAT for k = {k} does not continue the refuted range {first}..{bound}");
        anyhow::ensure!(ks.contains(k), "k{k}.cnf is missing");
        if res.split.contains(k) {
            // Every cube's CNF (the CNF with the cube's unit clauses) goes to the checker
            // through a temporary file; the cubes cover every model (see `cubes`).
            let (cnf, enc) = encode(m.cols(), &nontrivial_targets(&m), *k, &o.encoding);
            for (name, units) in cubes(&enc, &o.encoding.caps, 2) {
                let mut f = Cnf { vars: cnf.vars, clauses: cnf.clauses.clone() };
                for &l in &units {
                    f.add(&[l]);
                }
                let tmp = tempfile_in_temp(&format!("k{k}.{name}.cnf"))?;
                std::fs::write(&tmp, cnf_dimacs(&f, &m, *k))?;
                let r = run_checker(checker, &tmp, &dir.join(drat_name(*k, &name)));
                let _ = std::fs::remove_file(&tmp);
                r?;
                drat_files += 1;
            }
        } else {
            run_checker(checker, &dir.join(format!("k{k}.cnf")), &dir.join(drat_name(*k, "")))?;
            drat_files += 1;
        }
        verified.push(*k);
        bound = k + 1;
    }
    anyhow::ensure!(res.lower_bound == bound, "result.json claims lower bound {}, the proofs give {bound}", res.lower_bound);
    let restriction = crate::restrict::check_restriction(dir, &m, bound)?;
    Ok(ProofCheck { cnfs_matched: ks, proofs_verified: verified, lower_bound: bound, restriction, caps, drat_files })
}

/// Checks the caps of a proof directory `dir` for the matrix `m`: every cap names distinct,
/// sorted columns of `m`, its sub-directory checks ([`check_proof_dir`]), holds the
/// matrix `m` without those columns, and proves at least the cap's bound. Returns the checks of
/// the sub-directories.
fn check_caps(dir: &Path, m: &BitMatrix, caps: &[Cap], checker: &Path) -> Result<Vec<ProofCheck>> {
    let mut checks = Vec::new();
    for cap in caps {
        let name = cap_dir_name(&cap.inputs);
        anyhow::ensure!(
            !cap.inputs.is_empty() && cap.inputs.windows(2).all(|w| w[0] < w[1]) && cap.inputs.iter().all(|&c| c < m.cols()),
            "options.json: cap {:?} must list distinct columns of the matrix in increasing order",
            cap.inputs
        );
        let sub_dir = dir.join(&name);
        // The smaller matrix first: every level has fewer columns, so the recursion ends (even
        // if a directory links back to one above it).
        let text = std::fs::read_to_string(sub_dir.join("matrix.txt")).with_context(|| format!("{name}: reading matrix.txt"))?;
        let sub = crate::parse::parse_matrix(&text).map_err(|e| anyhow::anyhow!("{name}/matrix.txt: {e}"))?;
        anyhow::ensure!(sub == crate::restrict::drop_columns(m, &cap.inputs), "{name}/matrix.txt is not matrix.txt without columns {:?}", cap.inputs);
        let c = check_proof_dir(&sub_dir, checker).map_err(|e| anyhow::anyhow!("{name}: {e:#}"))?;
        anyhow::ensure!(
            c.restriction.is_none() && c.lower_bound >= cap.sub_bound,
            "options.json: the cap on columns {:?} claims {} XORs for the smaller matrix, {name} proves {}",
            cap.inputs,
            cap.sub_bound,
            c.lower_bound
        );
        checks.push(c);
    }
    Ok(checks)
}
