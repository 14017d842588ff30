//! `slicewise`: hash files, encrypt and decrypt with Prøst, synthesize XOR programs, benchmark.

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod backends;
mod bench;
mod checkline;
mod cycles;
mod keyparse;
mod plot;
mod sum;
mod aead_cmd;
mod bench_proest;
mod bench_report;
mod machine;
mod slp_cmd;
mod interrupt;
mod outfile;

#[derive(Debug, Parser)]
#[command(name = "slicewise", version, about = "Grøstl, Prøst and the linear-layer synthesizer")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print or check Grøstl checksums, like sha256sum.
    Sum(sum::SumArgs),
    /// List the backends of every primitive.
    Backends(backends::BackendsArgs),
    /// Measure median cycles/byte of every backend (and comparison implementations).
    Bench(bench::BenchArgs),
    /// Encrypt a file with a Prøst AEAD (key from a file, never argv).
    Encrypt(aead_cmd::EncryptArgs),
    /// Decrypt and verify; exits 1 and writes nothing if verification fails.
    Decrypt(aead_cmd::DecryptArgs),
    /// Write a random key for a Prøst AEAD (hex text, file mode 0600).
    Keygen(aead_cmd::KeygenArgs),
    /// Synthesize short XOR programs for linear layers (SLP heuristics, SAT, word level).
    Slp(slp_cmd::SlpArgs),
}

/// Writing into a closed pipe (`slicewise backends | head -3`) ends the process quietly through
/// SIGPIPE, as it ends coreutils: Rust starts programs with SIGPIPE ignored, so `println!` would
/// panic on the EPIPE error instead.
#[cfg(unix)]
fn default_sigpipe() {
    // SAFETY: `signal` with `SIG_DFL` only resets the disposition; no thread has started yet and
    // no handler of this program is replaced.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    #[cfg(unix)]
    default_sigpipe();
    let args: Vec<OsString> = std::env::args_os().collect();
    // `groestl256sum` etc. behave as `slicewise sum -a groestl-256`.
    if let Some(alg) = args.first().and_then(|a| sum::alias_algorithm(a)) {
        return sum::main_as_alias(alg, &args[1..]);
    }
    let cli = Cli::parse_from(args);
    let result = match cli.command {
        Command::Sum(a) => sum::run(a),
        Command::Backends(a) => backends::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Encrypt(a) => aead_cmd::encrypt(a),
        Command::Decrypt(a) => aead_cmd::decrypt(a),
        Command::Keygen(a) => aead_cmd::keygen(a),
        Command::Slp(a) => slp_cmd::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("slicewise: {e:#}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
