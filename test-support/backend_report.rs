//! Which backends a test suite ran and which it skipped, made visible (included with `#[path]`
//! by the tests of `slicewise-groestl` and `slicewise-proest`, unit and integration, and by the
//! constant-time checks `crates/cli/examples/ctgrind.rs` and `ctdudect.rs`).
//!
//! [`gate`] is called once per backend a test wants to run. It appends one line
//! `ran|skipped <TAB> primitive:backend <TAB> suite` to `<target>/backend-report/<suite>.tsv`
//! (`<target>` is `target`, or `target/<triple>` for a cross build), which
//! `scripts/backend-summary.sh` totals at the end of `scripts/test-all.sh`, and prints
//! `SKIPPED: …` on stderr for a skip. The scripts record the checks that need something outside
//! Rust the same way, as `check:NAME` (`scripts/backend-report.sh`: `check:pkg-config` in
//! `scripts/test-c.sh`, `check:groestlcoin-hash` in `scripts/test-python.sh`).
//!
//! With `SLICEWISE_REQUIRE_BACKENDS` set, a skip of a required item fails the test instead: the
//! value is `all` (every backend and every check must run) or a comma-separated list of
//! names, each `NAME` (any primitive: `gfni`, `pkg-config`) or `PRIMITIVE:NAME`
//! (`proest:avx512`, `check:groestlcoin-hash`).
//!
//! A backend of another architecture than the build's (the AArch64 Grøstl backends in an
//! x86-64 build, say) is neither run nor skipped here: [`gate`] returns `false` without a
//! record, so that `all` asks for what this architecture has. The cross suites
//! (`scripts/test-cross.sh`) record the ARM backends.
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

/// The backends each architecture builds, as `primitive:name`; a backend in none of the lists
/// exists everywhere (`portable`, the T-table ones, Prøst's `mixslp` and `u32x2`). Prøst's
/// `neon` is built for AArch64 and ARMv7, its `arm11` for 32-bit ARM. A backend missing here
/// errs on the loud side: it is recorded as skipped on the other architectures.
const X86_64: &[&str] = &[
    "groestl:gfni",
    "groestl:gfniavx2",
    "groestl:avx512",
    "groestl:vaes",
    "groestl:avx2",
    "groestl:aesni",
    "groestl:vperm",
    "groestl:bitsliced",
    "groestl:avx2gather",
    "proest:avx2",
    "proest:avx512",
];
const AARCH64: &[&str] = &["groestl:armv8aes", "groestl:armv8sha3", "groestl:neon", "proest:neon"];
const ARM: &[&str] = &["groestl:neon7bs", "groestl:neon7vp", "groestl:neon7tt", "groestl:mcu", "proest:neon", "proest:arm11"];

/// The constant-time backends Valgrind 3.19 cannot execute (AVX-512, VAES, GFNI): the trust
/// step times them with `crates/cli/examples/ctdudect.rs` instead of running them under
/// `ctgrind.rs`, which leaves them to it.
pub const TIMED_BY_DUDECT: &[&str] = &["groestl:gfni", "groestl:gfniavx2", "groestl:avx512", "groestl:vaes", "proest:avx512"];

/// Whether backend `name` of `primitive` is built for another architecture than this one.
pub fn other_arch(primitive: &str, name: &str) -> bool {
    let own: &[&[&str]] = if cfg!(target_arch = "x86_64") {
        &[X86_64]
    } else if cfg!(target_arch = "aarch64") {
        &[AARCH64]
    } else if cfg!(target_arch = "arm") {
        &[ARM]
    } else {
        &[]
    };
    let item = std::format!("{primitive}:{name}");
    let listed = |l: &&[&str]| l.contains(&item.as_str());
    [X86_64, AARCH64, ARM].iter().any(listed) && !own.iter().any(listed)
}

/// Records that the test `what` runs (`available`) or skips backend `name` of `primitive`;
/// returns `available`. Panics when the backend is skipped but required. A backend of another
/// architecture ([`other_arch`]) is not recorded: `false`.
pub fn gate(primitive: &str, name: &str, available: bool, what: &str) -> bool {
    if other_arch(primitive, name) {
        return false;
    }
    gate_item(primitive, name, available, "not available on this CPU", what)
}

/// [`gate`] for any item, with the reason of a skip: records `primitive:name` as ran or skipped
/// (`SKIPPED: primitive:name REASON (what)` on stderr, as `scripts/backend-report.sh` prints
/// it), panics when it is skipped but required.
pub fn gate_item(primitive: &str, name: &str, available: bool, reason: &str, what: &str) -> bool {
    let status = if available { "ran" } else { "skipped" };
    record(status, primitive, name);
    if !available {
        std::eprintln!("SKIPPED: {primitive}:{name} {reason} ({what})");
        if let Ok(req) = std::env::var(REQUIRE_VAR)
            && is_required(&req, primitive, name)
        {
            panic!("{primitive}:{name} is required by {REQUIRE_VAR}={req:?} but {reason} ({what})");
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
        assert!(is_required("all", "check", "pkg-config"));
        assert!(is_required("pkg-config", "check", "pkg-config"));
        assert!(is_required("check:groestlcoin-hash", "check", "groestlcoin-hash"));
        assert!(!is_required("check:groestlcoin-hash", "check", "pkg-config"));
    }

    #[test]
    fn architectures() {
        use super::other_arch;
        // Everywhere.
        assert!(!other_arch("groestl", "portable") && !other_arch("proest", "u32x2"));
        assert!(!other_arch("check", "pkg-config"));
        assert_eq!(other_arch("groestl", "avx512"), !cfg!(target_arch = "x86_64"));
        assert_eq!(other_arch("groestl", "armv8aes"), !cfg!(target_arch = "aarch64"));
        assert_eq!(other_arch("proest", "neon"), !cfg!(any(target_arch = "aarch64", target_arch = "arm")));
        assert_eq!(other_arch("groestl", "mcu"), !cfg!(target_arch = "arm"));
    }
}
