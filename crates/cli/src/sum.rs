//! `slicewise sum`: print or check Grøstl checksums, exactly as coreutils `sha256sum` does.
//!
//! Output lines are `HEX  NAME` (or `HEX *NAME` with `-b`), or `GROESTL-256 (NAME) = HEX`
//! with `--tag`. A name containing a backslash, newline or carriage return is escaped
//! (`\\`, `\n`, `\r`) and its line starts with a backslash, unless `-z` is given. In check
//! mode the messages, warnings and exit codes are those of `sha256sum -c` (coreutils 9.1):
//! see `docs/check.md`. Files are streamed through a fixed-size buffer.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::process::ExitCode;
use std::sync::OnceLock;

use anyhow::bail;
use clap::{Args, CommandFactory, FromArgMatches, Parser};
use slicewise_groestl::{Backend, DigestBytes, Groestl, Variant};

use crate::checkline::{Parser3, tag_name};

/// Read buffer: files stream through this much memory.
const BUF_LEN: usize = 256 * 1024;

#[derive(Debug, Args)]
pub struct SumArgs {
    /// Digest algorithm.
    #[arg(short = 'a', long = "algorithm", value_name = "ALG", value_parser = parse_variant)]
    algorithm: Option<Variant>,
    /// Grøstl backend (see `slicewise backends`); default: the fastest constant-time one.
    #[arg(long, value_name = "NAME")]
    backend: Option<String>,
    /// Read in binary mode (marks lines with `*`; no other effect, as on GNU systems).
    #[arg(short = 'b', long, overrides_with = "text")]
    binary: bool,
    /// Read in text mode (the default).
    #[arg(short = 't', long)]
    text: bool,
    /// Create a BSD-style checksum: `GROESTL-256 (NAME) = HEX`.
    #[arg(long)]
    tag: bool,
    /// End each output line with NUL, not newline, and do not escape file names.
    #[arg(short = 'z', long)]
    zero: bool,
    /// Read checksums from the FILEs and check them.
    #[arg(short = 'c', long)]
    check: bool,
    /// With --check: don't fail or report status for missing files.
    #[arg(long)]
    ignore_missing: bool,
    /// With --check: don't print OK for each successfully verified file.
    #[arg(long)]
    quiet: bool,
    /// With --check: don't output anything, the exit code shows success.
    #[arg(long)]
    status: bool,
    /// With --check: exit non-zero for improperly formatted checksum lines.
    #[arg(long)]
    strict: bool,
    /// With --check: warn about improperly formatted checksum lines.
    #[arg(short = 'w', long)]
    warn: bool,
    /// Files to hash (or checksum files with --check); `-` or none means standard input.
    #[arg(value_name = "FILE")]
    files: Vec<OsString>,
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    Variant::from_name(s).ok_or_else(|| {
        format!("unknown algorithm {s:?} (expected groestl-224, groestl-256, groestl-384 or groestl-512)")
    })
}

static PROG: OnceLock<String> = OnceLock::new();

/// The program name diagnostics start with (`slicewise` or the alias it was called as).
fn prog() -> &'static str {
    PROG.get().map(String::as_str).unwrap_or("slicewise")
}

/// `groestl256sum` etc.: the algorithm an alias name stands for.
pub fn alias_algorithm(argv0: &OsStr) -> Option<Variant> {
    let base = std::path::Path::new(argv0).file_name()?.to_str()?;
    match base {
        "groestl224sum" => Some(Variant::Groestl224),
        "groestl256sum" => Some(Variant::Groestl256),
        "groestl384sum" => Some(Variant::Groestl384),
        "groestl512sum" => Some(Variant::Groestl512),
        _ => None,
    }
}

#[derive(Debug, Parser)]
struct AliasCli {
    #[command(flatten)]
    args: SumArgs,
}

/// Runs as `slicewise sum -a ALG`, for a binary invoked as `groestl256sum` and the like.
pub fn main_as_alias(alg: Variant, rest: &[OsString]) -> ExitCode {
    // Leaked once per process: clap wants a 'static name.
    let name: &'static str = format!("groestl{}sum", alg.output_len() * 8).leak();
    let _ = PROG.set(name.to_string());
    let cmd = AliasCli::command().name(name).bin_name(name);
    let matches = cmd.get_matches_from(std::iter::once(OsString::from(name)).chain(rest.iter().cloned()));
    let mut cli = match AliasCli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    if cli.args.algorithm.is_some_and(|a| a != alg) {
        eprintln!("{name}: -a cannot change the algorithm of {name}");
        return ExitCode::FAILURE;
    }
    cli.args.algorithm = Some(alg);
    match run(cli.args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{name}: {e:#}");
            ExitCode::FAILURE
        }
    }
}

pub fn run(args: SumArgs) -> anyhow::Result<ExitCode> {
    let backend = match &args.backend {
        Some(name) => Backend::from_name(name)?.check()?,
        None => Backend::selected()?,
    };
    if args.check {
        if args.tag {
            bail!("the --tag option is meaningless when verifying checksums");
        }
        if args.binary || args.text {
            bail!("the --binary and --text options are meaningless when verifying checksums");
        }
        return check(&args, backend);
    }
    for (set, name) in [
        (args.ignore_missing, "--ignore-missing"),
        (args.quiet, "--quiet"),
        (args.status, "--status"),
        (args.strict, "--strict"),
        (args.warn, "--warn"),
    ] {
        if set {
            bail!("the {name} option is meaningful only when verifying checksums");
        }
    }
    if args.tag && args.binary {
        bail!("--binary and --tag are mutually exclusive");
    }
    let variant = args.algorithm.unwrap_or(Variant::Groestl256);
    let files = if args.files.is_empty() { vec![OsString::from("-")] } else { args.files.clone() };
    let mut hasher = Hasher::new(variant, backend)?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut ok = true;
    for name in &files {
        match hasher.hash_path(name) {
            Ok(d) => write_line(&mut out, &args, variant, name.as_bytes(), &d)?,
            Err(e) => {
                out.flush()?;
                report_io(name.as_bytes(), &e);
                ok = false;
            }
        }
    }
    out.flush()?;
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

fn write_line(out: &mut impl Write, args: &SumArgs, v: Variant, name: &[u8], d: &DigestBytes) -> io::Result<()> {
    let escape = !args.zero && name.iter().any(|&b| matches!(b, b'\\' | b'\n' | b'\r'));
    if escape {
        out.write_all(b"\\")?;
    }
    if args.tag {
        write!(out, "{} (", tag_name(v))?;
        write_name(out, name, escape)?;
        write!(out, ") = {d:x}")?;
    } else {
        write!(out, "{d:x} {}", if args.binary { '*' } else { ' ' })?;
        write_name(out, name, escape)?;
    }
    out.write_all(if args.zero { b"\0" } else { b"\n" })
}

fn write_name(out: &mut impl Write, name: &[u8], escape: bool) -> io::Result<()> {
    if !escape {
        return out.write_all(name);
    }
    for &b in name {
        match b {
            b'\\' => out.write_all(b"\\\\")?,
            b'\n' => out.write_all(b"\\n")?,
            b'\r' => out.write_all(b"\\r")?,
            _ => out.write_all(&[b])?,
        }
    }
    Ok(())
}

/// `strerror`-style text: the `io::Error` message without Rust's ` (os error N)`.
fn strerror(e: &io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

fn report_io(name: &[u8], e: &io::Error) {
    eprintln!("{}: {}: {}", prog(), quote(name), strerror(e));
}

/// Quotes a file name for a diagnostic the way coreutils' `quotef` does: bare if it is made
/// of characters safe in a shell word, otherwise in single quotes.
fn quote(name: &[u8]) -> String {
    let safe = |b: u8| b.is_ascii_alphanumeric() || b"%+,-./:=@_^".contains(&b);
    if !name.is_empty() && name.iter().all(|&b| safe(b)) {
        return String::from_utf8_lossy(name).into_owned();
    }
    let mut s = String::from("'");
    for ch in String::from_utf8_lossy(name).chars() {
        match ch {
            '\'' => s.push_str("'\\''"),
            '\n' => s.push_str("'$'\\n''"),
            '\r' => s.push_str("'$'\\r''"),
            '\t' => s.push_str("'$'\\t''"),
            c => s.push(c),
        }
    }
    s.push('\'');
    s
}

/// A hasher plus its read buffer, reused for every file.
struct Hasher {
    variant: Variant,
    backend: Backend,
    buf: Vec<u8>,
}

impl Hasher {
    fn new(variant: Variant, backend: Backend) -> anyhow::Result<Hasher> {
        Groestl::with_backend(variant, backend)?;
        Ok(Hasher { variant, backend, buf: vec![0; BUF_LEN] })
    }

    fn hash_path(&mut self, name: &OsStr) -> io::Result<DigestBytes> {
        if name == "-" {
            self.hash_reader(&mut io::stdin().lock())
        } else {
            self.hash_reader(&mut File::open(name)?)
        }
    }

    fn hash_reader(&mut self, r: &mut dyn Read) -> io::Result<DigestBytes> {
        let mut h = Groestl::with_backend(self.variant, self.backend).map_err(io::Error::other)?;
        loop {
            match r.read(&mut self.buf) {
                Ok(0) => return Ok(h.finalize()),
                Ok(n) => {
                    h.update(&self.buf[..n]);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn check(args: &SumArgs, backend: Backend) -> anyhow::Result<ExitCode> {
    let files = if args.files.is_empty() { vec![OsString::from("-")] } else { args.files.clone() };
    let mut all_ok = true;
    for f in &files {
        all_ok &= check_one(args, backend, f)?;
    }
    Ok(if all_ok { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

fn check_one(args: &SumArgs, backend: Backend, checkfile: &OsStr) -> anyhow::Result<bool> {
    let is_stdin = checkfile == "-";
    let display_name: Vec<u8> = if is_stdin { b"standard input".to_vec() } else { checkfile.as_bytes().to_vec() };
    let mut reader: Box<dyn BufRead> = if is_stdin {
        Box::new(BufReader::new(io::stdin().lock()))
    } else {
        match File::open(checkfile) {
            Ok(f) => Box::new(BufReader::new(f)),
            Err(e) => {
                report_io(&display_name, &e);
                return Ok(false);
            }
        }
    };
    let status_only = args.status;
    let mut parser = Parser3::new(args.algorithm);
    let default_tag = tag_name(args.algorithm.unwrap_or(Variant::Groestl256));
    let mut hashers: Vec<Hasher> = Vec::new();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let (mut misformatted, mut unreadable, mut mismatched) = (0u64, 0u64, 0u64);
    let mut properly_formatted = false;
    let mut matched = false;
    let mut line = Vec::new();
    let mut line_no = 0u64;
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                out.flush()?;
                // A directory or unreadable check file: coreutils says "read error".
                let _ = e;
                eprintln!("{}: {}: read error", prog(), quote(&display_name));
                return Ok(false);
            }
        }
        line_no += 1;
        if line[0] == b'#' {
            continue;
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.is_empty() {
            continue;
        }
        let entry = parser.split(&line).filter(|e| !(is_stdin && e.name == b"-"));
        let Some(entry) = entry else {
            misformatted += 1;
            if args.warn {
                out.flush()?;
                eprintln!(
                    "{}: {}: {line_no}: improperly formatted {default_tag} checksum line",
                    prog(),
                    quote(&display_name)
                );
            }
            continue;
        };
        properly_formatted = true;
        let needs_escape = !status_only && entry.name.contains(&b'\n');
        let hasher = match hashers.iter().position(|h| h.variant == entry.variant) {
            Some(i) => &mut hashers[i],
            None => {
                hashers.push(Hasher::new(entry.variant, backend)?);
                hashers.last_mut().unwrap()
            }
        };
        let name_os = OsString::from_vec(entry.name.clone());
        let result = hasher.hash_path(&name_os);
        let print_name = |out: &mut io::BufWriter<io::StdoutLock<'_>>| -> io::Result<()> {
            if needs_escape {
                out.write_all(b"\\")?;
            }
            write_name(out, &entry.name, needs_escape)
        };
        match result {
            Err(e) if args.ignore_missing && e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => {
                out.flush()?;
                report_io(&entry.name, &e);
                unreadable += 1;
                if !status_only {
                    print_name(&mut out)?;
                    out.write_all(b": FAILED open or read\n")?;
                }
            }
            Ok(d) => {
                let ok = d.as_ref() == &entry.digest[..];
                if ok {
                    matched = true;
                } else {
                    mismatched += 1;
                }
                if !status_only && (!ok || !args.quiet) {
                    print_name(&mut out)?;
                    out.write_all(if ok { b": OK\n" } else { b": FAILED\n" })?;
                }
            }
        }
    }
    out.flush()?;
    drop(out);
    if !properly_formatted {
        eprintln!("{}: {}: no properly formatted checksum lines found", prog(), quote(&display_name));
    } else if !status_only {
        let p = prog();
        if misformatted > 0 {
            eprintln!("{p}: WARNING: {}", plural(misformatted, "line is improperly formatted", "lines are improperly formatted"));
        }
        if unreadable > 0 {
            eprintln!("{p}: WARNING: {}", plural(unreadable, "listed file could not be read", "listed files could not be read"));
        }
        if mismatched > 0 {
            eprintln!(
                "{p}: WARNING: {}",
                plural(mismatched, "computed checksum did NOT match", "computed checksums did NOT match")
            );
        }
        if args.ignore_missing && !matched {
            eprintln!("{p}: {}: no file was verified", quote(&display_name));
        }
    }
    Ok(properly_formatted
        && (!args.ignore_missing || matched)
        && mismatched == 0
        && unreadable == 0
        && (!args.strict || misformatted == 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_matches_coreutils_for_common_names() {
        assert_eq!(quote(b"a/b.txt"), "a/b.txt");
        assert_eq!(quote(b"standard input"), "'standard input'");
        assert_eq!(quote(b" "), "' '");
    }
}
