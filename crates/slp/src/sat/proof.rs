//! The proof-directory format of `slicewise slp exact --proof DIR`: which files [`super`]'s
//! search writes there (`matrix.txt`, `options.json`, `kK.cnf`, `kK.drat` or one
//! `kK.cC-J.drat` per cube, `result.json`, `README.txt`, `cap-C` sub-directories,
//! `restriction.json`), how a directory is prepared for a run, and the JSON files that
//! [`super::check`] reads back.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};

use super::encode::EncodeOptions;

/// Whether `name` is a file that [`exact`] writes into a proof directory.
pub(crate) fn is_proof_file(name: &str) -> bool {
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    let k_file = |ext: &str| name.strip_prefix('k').and_then(|r| r.strip_suffix(ext)).is_some_and(digits);
    // kK.cA-B.drat: the proof of one cube.
    let cube_file = || {
        let Some((k, cube)) = name.strip_prefix('k').and_then(|r| r.strip_suffix(".drat")).and_then(|r| r.split_once(".c")) else { return false };
        digits(k) && cube.split_once('-').is_some_and(|(c, j)| digits(c) && (digits(j) || j == "none"))
    };
    k_file(".cnf") || k_file(".drat") || cube_file() || ["matrix.txt", "options.json", "result.json", "README.txt", crate::restrict::RESTRICTION_FILE].contains(&name)
}

/// Creates the proof directory, or empties one a previous run left (only with `force`; any
/// other file in it is an error, so that nothing else is ever deleted).
pub(crate) fn prepare_proof_dir(dir: &Path, force: bool) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut ours = Vec::new();
    let mut subdirs = Vec::new();
    for e in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        if e.file_type()?.is_dir() && crate::satcaps::is_cap_dir_name(&name) {
            subdirs.push(e.path());
            continue;
        }
        if !is_proof_file(&name) {
            anyhow::bail!("proof directory {} contains {name:?}, which slp exact did not write: use an empty directory", dir.display());
        }
        ours.push(e.path());
    }
    let empty = ours.is_empty() && subdirs.is_empty();
    if !empty && !force {
        anyhow::bail!("proof directory {} is not empty (a previous run's proofs): use --force to replace them", dir.display());
    }
    // A caps' sub-directory is emptied by the same rules (so nothing foreign goes), then removed.
    for d in subdirs {
        prepare_proof_dir(&d, true)?;
        std::fs::remove_dir(&d).with_context(|| format!("removing {}", d.display()))?;
    }
    for p in ours {
        std::fs::remove_file(&p).with_context(|| format!("removing {}", p.display()))?;
    }
    Ok(())
}

/// `options.json` of a proof directory.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct ProofOptions {
    pub(crate) format: String,
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    pub(crate) fingerprint: String,
    pub(crate) encoding: EncodeOptions,
}

pub(crate) const PROOF_FORMAT: &str = "slicewise-slp-exact-proof-1";

/// `result.json` of a proof directory: the answer for every k tried, the bound claimed.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct ProofResult {
    pub(crate) answers: Vec<(usize, String)>,
    pub(crate) lower_bound: usize,
    pub(crate) optimal: bool,
    /// The k whose CNF was split into cubes: one proof `kK.cA-B.drat` per cube.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) split: Vec<usize>,
}

/// Name of the DRAT proof of cube `cube` (empty: the whole CNF) for k.
pub(crate) fn drat_name(k: usize, cube: &str) -> String {
    if cube.is_empty() { format!("k{k}.drat") } else { format!("k{k}.{cube}.drat") }
}

/// Writes `README.txt` and `result.json` of a proof directory: the answers `log` of the chain
/// (k, outcome, seconds), the bound `lower` (and whether a program meets it), whether the CNFs
/// carry caps, and the k split into cubes.
pub(crate) fn write_answers(dir: &Path, log: &[(usize, &'static str, f64)], lower: usize, optimal: bool, caps: bool, split: bool) -> Result<()> {
    let mut readme = String::from("CNF files kK.cnf ask \"is there a program with exactly K XORs?\" (see crates/slp/src/sat/encode.rs)\n");
    readme.push_str("for the matrix in matrix.txt with the encoding in options.json.\n");
    readme.push_str("For every K answered UNSAT, kK.drat is CaDiCaL's binary DRAT proof. `slicewise slp check-proof DIR`\n");
    readme.push_str("re-encodes every kK.cnf from matrix.txt and options.json, compares, and checks each proof with\n");
    readme.push_str("the `rate` DRAT checker (`rate kK.cnf kK.drat`; `drat-trim kK.cnf kK.drat` works as well).\n");
    if caps {
        readme.push_str("The CNFs carry caps (crates/slp/src/satcaps.rs, the `caps` of options.json): each cap-C directory is\n");
        readme.push_str("a proof directory of the same kind for the matrix without column(s) C, proving the cap's bound.\n");
    }
    for (k, tag, t) in log {
        let _ = writeln!(readme, "k={k}: {tag} in {t:.2} s");
    }
    let _ = writeln!(readme, "lower bound: {lower}{}", if optimal { " (optimal program found)" } else { "" });
    std::fs::write(dir.join("README.txt"), readme)?;
    let answers = log.iter().map(|(k, tag, _)| (*k, tag.to_string())).collect();
    let split = if split { log.iter().map(|l| l.0).collect() } else { Vec::new() };
    let res = ProofResult { answers, lower_bound: lower, optimal, split };
    std::fs::write(dir.join("result.json"), serde_json::to_string_pretty(&res)? + "\n")?;
    Ok(())
}
