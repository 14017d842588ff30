//! Which backends a test suite ran and which it skipped, made visible (included with `#[path]`
//! by the tests of `slicewise-groestl` and `slicewise-proest`, unit and integration).
//!
//! [`gate`] is called once per backend a test wants to run. It appends one line
//! `ran|skipped <TAB> primitive:backend <TAB> test binary` to
//! `target/backend-report/<test binary>.tsv`, which `scripts/backend-summary.sh` totals at the
//! end of `scripts/test-all.sh`, and prints `SKIPPED: …` on stderr for a skip. With
//! `SLICEWISE_REQUIRE_BACKENDS` set, a skip of a required backend fails the test instead:
//! the value is `all` (every backend must run) or a comma-separated list of names, each
//! `NAME` (any primitive) or `groestl:NAME` / `proest:NAME`.
#![allow(dead_code)]

use std::io::Write as _;
use std::string::{String, ToString};

/// Name of the variable that turns skips into failures.
pub const REQUIRE_VAR: &str = "SLICEWISE_REQUIRE_BACKENDS";

/// Whether `SLICEWISE_REQUIRE_BACKENDS` (value `required`) asks for `primitive:name`.
pub fn is_required(required: &str, primitive: &str, name: &str) -> bool {
    required.split(',').map(str::trim).any(|e| match e.split_once(':') {
        _ if e == "all" => true,
        Some((p, n)) => p == primitive && n == name,
        None => e == name,
    })
}

/// Records that the test `what` runs (`available`) or skips backend `name` of `primitive`;
/// returns `available`. Panics when the backend is skipped but required.
pub fn gate(primitive: &str, name: &str, available: bool, what: &str) -> bool {
    let status = if available { "ran" } else { "skipped" };
    record(status, primitive, name);
    if !available {
        std::eprintln!("SKIPPED: {primitive} backend {name} not available on this CPU ({what})");
        if let Ok(req) = std::env::var(REQUIRE_VAR)
            && is_required(&req, primitive, name)
        {
            panic!("{primitive} backend {name} is required by {REQUIRE_VAR}={req:?} but not available on this CPU ({what})");
        }
    }
    available
}

/// Appends the line to `target/backend-report/<binary>.tsv` (best effort: a report that
/// cannot be written does not fail the test). The target directory is found from the test
/// binary's path, `<target>/<profile>/deps/<binary>`.
fn record(status: &str, primitive: &str, name: &str) {
    if cfg!(miri) {
        return;
    }
    let Ok(exe) = std::env::current_exe() else { return };
    let Some(target) = exe.parent().and_then(|d| d.parent()).and_then(|d| d.parent()) else { return };
    let dir = target.join("backend-report");
    let bin = exe.file_name().map_or_else(|| "unknown".to_string(), |n| n.to_string_lossy().into_owned());
    // Drop cargo's hash suffix so that one suite keeps one file across rebuilds; prefix the
    // package, since two crates may have test binaries of the same name.
    let suite: String = std::format!("{}/{}", env!("CARGO_PKG_NAME"), bin.rsplit_once('-').map_or(bin.as_str(), |(s, _)| s));
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    let line = std::format!("{status}\t{primitive}:{name}\t{suite}\n");
    let file = dir.join(std::format!("{}.tsv", suite.replace('/', "--")));
    if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(file) {
        // One write of one short line: appends from parallel tests do not interleave.
        let _ = f.write_all(line.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::is_required;

    #[test]
    fn require_syntax() {
        assert!(is_required("all", "groestl", "gfni"));
        assert!(is_required("gfni,avx512", "proest", "avx512"));
        assert!(is_required("proest:avx2", "proest", "avx2"));
        assert!(!is_required("proest:avx2", "groestl", "avx2"));
        assert!(!is_required("", "groestl", "gfni"));
    }
}
