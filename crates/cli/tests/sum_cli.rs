//! `slicewise sum` against coreutils `sha256sum`: the same scenarios run through both, and
//! their stdout, stderr and exit codes must agree once digests, the algorithm tag and the
//! program name are normalised.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

mod common;
use common::BIN;

struct Out {
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    code: i32,
}

fn run(cmd: &mut Command, stdin: &[u8]) -> Out {
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let o = child.wait_with_output().unwrap();
    Out { stdout: o.stdout, stderr: o.stderr, code: o.status.code().unwrap_or(-1) }
}

fn ours(dir: &Path, args: &[&str], stdin: &[u8]) -> Out {
    run(common::slicewise().current_dir(dir).arg("sum").args(args), stdin)
}

fn coreutils(dir: &Path, args: &[&str], stdin: &[u8]) -> Out {
    run(Command::new("sha256sum").current_dir(dir).args(args), stdin)
}

/// Replaces hex digests by `HASH`, the tag by `TAG` and the program name by `PROG`.
fn normalize(s: &[u8]) -> String {
    let s = String::from_utf8_lossy(s)
        .replace("sha256sum", "PROG")
        .replace("slicewise", "PROG")
        .replace("GROESTL-256", "TAG")
        .replace("SHA256", "TAG");
    let mut out = String::new();
    let mut run = String::new();
    for c in s.chars().chain(std::iter::once('\u{0}')) {
        if c.is_ascii_hexdigit() {
            run.push(c);
            continue;
        }
        out.push_str(if run.len() == 64 { "HASH" } else { &run });
        run.clear();
        out.push(c);
    }
    out.pop();
    // coreutils adds a "Try '... --help'" line after usage errors.
    out.lines().filter(|l| !l.starts_with("Try 'PROG --help'")).map(|l| format!("{l}\n")).collect()
}

fn assert_same(dir: &Path, args: &[&str], stdin: &[u8]) {
    let a = ours(dir, args, stdin);
    let b = coreutils(dir, args, stdin);
    assert_eq!(normalize(&a.stdout), normalize(&b.stdout), "stdout of {args:?}");
    assert_eq!(normalize(&a.stderr), normalize(&b.stderr), "stderr of {args:?}");
    assert_eq!(a.code, b.code, "exit code of {args:?}");
}

fn have_sha256sum() -> bool {
    Command::new("sha256sum").arg("--version").output().is_ok_and(|o| o.status.success())
}

/// A directory with awkward names: backslash, newline, carriage return, a space, a
/// subdirectory, an empty file.
fn fixture() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    fs::write(p.join("a"), b"hello").unwrap();
    fs::write(p.join("b\\c"), b"x").unwrap();
    fs::write(p.join("n\nl"), b"y").unwrap();
    fs::write(p.join("r\rr"), b"z").unwrap();
    fs::write(p.join("sp ace"), b"w").unwrap();
    fs::write(p.join("empty"), b"").unwrap();
    fs::write(p.join("big"), vec![7u8; 3 << 20]).unwrap();
    fs::create_dir(p.join("dir")).unwrap();
    d
}

const NAMES: [&str; 7] = ["a", "b\\c", "n\nl", "r\rr", "sp ace", "empty", "big"];

#[test]
fn hashing_output_matches_sha256sum() {
    if !have_sha256sum() {
        eprintln!("SKIPPED: sha256sum not installed");
        return;
    }
    let d = fixture();
    let p = d.path();
    let mut with_errors: Vec<&str> = NAMES.to_vec();
    with_errors.extend(["dir", "missing", "a"]);
    for extra in [&[][..], &["--tag"], &["-z"], &["-b"], &["--tag", "-z"]] {
        let mut args: Vec<&str> = extra.to_vec();
        args.extend(&with_errors);
        assert_same(p, &args, b"");
    }
    // Standard input, named and implied.
    assert_same(p, &["-"], b"some input");
    assert_same(p, &[], b"some input");
    assert_same(p, &["--tag", "-", "a"], b"");
    // Options that only make sense with --check, and --tag with --check: exit 1.
    for bad in [&["--quiet", "a"][..], &["--status", "a"], &["--strict", "a"], &["-w", "a"], &["--ignore-missing", "a"]] {
        assert_same(p, bad, b"");
    }
}

/// Builds a checksum file with each tool (so each holds its own digests) with the same
/// well-formed, mismatching, missing and malformed lines.
fn checkfile(p: &Path, tool: &str, name: &str) {
    let out = if tool == "ours" {
        ours(p, &NAMES, b"")
    } else {
        coreutils(p, &NAMES, b"")
    };
    let tagged = if tool == "ours" { ours(p, &["--tag", "a", "n\nl"], b"") } else { coreutils(p, &["--tag", "a", "n\nl"], b"") };
    let mut s = out.stdout;
    s.extend(tagged.stdout);
    let zeros = "0".repeat(64);
    // A mismatch, a missing file, a directory, a comment, a blank line, CRLF, BSD-reversed
    // and garbage.
    s.extend(format!("{zeros}  a\n{zeros}  missing\n{zeros}  dir\n# comment\n\n").as_bytes());
    let first = String::from_utf8_lossy(&s).lines().next().unwrap().to_string();
    s.extend(format!("{first}\r\n").as_bytes());
    s.extend(b"not a checksum line\n");
    s.extend(format!("{}\n", &first[..20]).as_bytes());
    fs::write(p.join(name), s).unwrap();
}

#[test]
fn check_mode_matches_sha256sum() {
    if !have_sha256sum() {
        eprintln!("SKIPPED: sha256sum not installed");
        return;
    }
    let d = fixture();
    let p = d.path();
    checkfile(p, "ours", "SUMS.ours");
    checkfile(p, "coreutils", "SUMS.core");
    let flag_sets: &[&[&str]] = &[
        &[],
        &["--quiet"],
        &["--status"],
        &["--strict"],
        &["-w"],
        &["--ignore-missing"],
        &["--ignore-missing", "--quiet"],
        &["-w", "--strict", "--ignore-missing"],
    ];
    for flags in flag_sets {
        let mut a: Vec<&str> = vec!["-c"];
        a.extend(*flags);
        a.push("SUMS.ours");
        let mut b = a.clone();
        *b.last_mut().unwrap() = "SUMS.core";
        let x = ours(p, &a, b"");
        let y = coreutils(p, &b, b"");
        let fix = |s: &[u8]| normalize(s).replace("SUMS.ours", "SUMS").replace("SUMS.core", "SUMS");
        assert_eq!(fix(&x.stdout), fix(&y.stdout), "stdout of -c {flags:?}");
        assert_eq!(fix(&x.stderr), fix(&y.stderr), "stderr of -c {flags:?}");
        assert_eq!(x.code, y.code, "exit code of -c {flags:?}");
    }
}

#[test]
fn check_mode_edge_cases_match_sha256sum() {
    if !have_sha256sum() {
        eprintln!("SKIPPED: sha256sum not installed");
        return;
    }
    let d = fixture();
    let p = d.path();
    // A check file that is missing, a directory, empty, or has no valid lines.
    fs::write(p.join("garbage"), b"hello\nworld\n").unwrap();
    fs::write(p.join("blank"), b"").unwrap();
    for args in [&["-c", "nonexistent"][..], &["-c", "dir"], &["-c", "garbage"], &["-c", "blank"], &["-c"], &["-c", "-"]] {
        assert_same(p, args, b"");
    }
    assert_same(p, &["--tag", "-c", "garbage"], b"");
    // All good: exit 0 with and without --quiet; --ignore-missing with only missing files.
    for tool_is_ours in [true, false] {
        let o = if tool_is_ours { ours(p, &["a", "b\\c"], b"") } else { coreutils(p, &["a", "b\\c"], b"") };
        fs::write(p.join(if tool_is_ours { "ok.ours" } else { "ok.core" }), o.stdout).unwrap();
    }
    for flags in [&["-c"][..], &["-c", "--quiet"], &["-c", "--status"]] {
        let mut a = flags.to_vec();
        a.push("ok.ours");
        let mut b = flags.to_vec();
        b.push("ok.core");
        let (x, y) = (ours(p, &a, b""), coreutils(p, &b, b""));
        assert_eq!((normalize(&x.stdout), x.code), (normalize(&y.stdout), y.code), "{flags:?}");
        assert_eq!(x.code, 0);
    }
    let zeros = "0".repeat(64);
    fs::write(p.join("onlymissing"), format!("{zeros}  gone\n")).unwrap();
    assert_same(p, &["-c", "--ignore-missing", "onlymissing"], b"");
    // Check lines read from standard input; a `-` line there is malformed.
    let line = ours(p, &["a"], b"").stdout;
    let core_line = coreutils(p, &["a"], b"").stdout;
    let x = ours(p, &["-c"], &line);
    let y = coreutils(p, &["-c"], &core_line);
    assert_eq!((normalize(&x.stdout), normalize(&x.stderr), x.code), (normalize(&y.stdout), normalize(&y.stderr), y.code));
}

#[test]
fn digests_are_groestl() {
    let d = fixture();
    let out = ours(d.path(), &[], b"");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "1a52d11d550039be16107f9c58db9ebcc417f16f736adb2502567119f0083467  -\n"
    );
    let out = ours(d.path(), &["-a", "groestl-224", "--tag", "-"], &[0xcc]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "GROESTL-224 (-) = 62e367662adf9317154f877fd740c23fc2356080b477dac847be2eb2\n"
    );
    // Every backend gives the same sums, and a bad backend name is an error.
    let base = ours(d.path(), &NAMES, b"").stdout;
    for b in ["portable", "ttable64", "ttable32"] {
        assert_eq!(ours(d.path(), &[&["--backend", b][..], &NAMES].concat(), b"").stdout, base, "{b}");
    }
    let bad = ours(d.path(), &["--backend", "nonsense", "a"], b"");
    assert_eq!(bad.code, 1);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown Grøstl backend"));
    let bad = ours(d.path(), &["-a", "sha256", "a"], b"");
    assert_ne!(bad.code, 0);
}

#[test]
fn check_reads_every_size_and_both_formats() {
    let d = fixture();
    let p = d.path();
    let mut sums = Vec::new();
    for alg in ["groestl-224", "groestl-256", "groestl-384", "groestl-512"] {
        sums.extend(ours(p, &["-a", alg, "a", "sp ace"], b"").stdout);
        sums.extend(ours(p, &["-a", alg, "--tag", "b\\c", "n\nl"], b"").stdout);
    }
    fs::write(p.join("ALL"), &sums).unwrap();
    let o = ours(p, &["-c", "ALL"], b"");
    assert_eq!(o.code, 0, "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout).matches(": OK").count(), 16);
    // With -a, lines of other sizes are improperly formatted.
    let o = ours(p, &["-c", "--strict", "-a", "groestl-512", "ALL"], b"");
    assert_eq!(o.code, 1);
    assert_eq!(String::from_utf8_lossy(&o.stdout).matches(": OK").count(), 4);
    assert!(String::from_utf8_lossy(&o.stderr).contains("WARNING: 12 lines are improperly formatted"));
}

#[test]
fn alias_names_select_the_algorithm() {
    let d = fixture();
    let p = d.path();
    for (alias, alg) in [("groestl224sum", "groestl-224"), ("groestl512sum", "groestl-512")] {
        let link = p.join(alias);
        std::os::unix::fs::symlink(BIN, &link).unwrap();
        let a = run(common::command(&link).current_dir(p).args(["a", "missing"]), b"");
        let b = ours(p, &["-a", alg, "a", "missing"], b"");
        assert_eq!(a.stdout, b.stdout);
        assert_eq!(a.code, 1);
        assert_eq!(String::from_utf8_lossy(&a.stderr), format!("{alias}: missing: No such file or directory\n"));
        fs::write(p.join("s"), &a.stdout).unwrap();
        let c = run(common::command(&link).current_dir(p).args(["-c", "s"]), b"");
        assert_eq!(String::from_utf8_lossy(&c.stdout), "a: OK\n");
    }
}

#[test]
fn backends_json_shape() {
    let o = run(common::slicewise().args(["backends", "--json"]), b"");
    assert_eq!(o.code, 0);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rows = v["groestl"].as_array().unwrap();
    assert!(rows.iter().any(|r| r["name"] == "portable" && r["constant_time"] == true));
    assert_eq!(rows.iter().filter(|r| r["default"] == true).count(), 1);
    for r in rows {
        assert!(r["available"].is_boolean() && r["name"].is_string());
        if r["default"] == true {
            assert_eq!(r["constant_time"], true);
        }
    }
}

#[test]
fn slicewise_backend_env_var_is_checked() {
    let d = fixture();
    let o = run(common::slicewise().current_dir(d.path()).env("SLICEWISE_BACKEND", "bogus").args(["sum", "a"]), b"");
    assert_eq!(o.code, 1);
    assert!(String::from_utf8_lossy(&o.stderr).contains("SLICEWISE_BACKEND"), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run(common::slicewise().current_dir(d.path()).env("SLICEWISE_BACKEND", "ttable64").args(["sum", "a"]), b"");
    assert_eq!(o.code, 0);
}

/// A reader that closes the pipe early (`slicewise sum FILES | head -1`) ends the process through
/// SIGPIPE, as it ends `sha256sum`, instead of a panic message about a failed `println!`.
#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    let dir = fixture();
    // Enough names that the output outgrows a pipe buffer (64 KiB) after the reader is gone.
    let names = vec!["a"; 4000];
    let mut child = common::slicewise()
        .current_dir(dir.path())
        .arg("sum")
        .args(&names)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The read end is dropped here, closed while the hasher still writes.
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    assert!(!err.contains("panicked"), "stderr: {err}");
    assert_eq!(status.signal(), Some(libc::SIGPIPE), "status {status:?}, stderr: {err}");
}
