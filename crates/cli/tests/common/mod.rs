//! Shared by the CLI tests: how to start the `slicewise` binary, also when it was cross-compiled.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::Path;
use std::process::Command;

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_slicewise");

/// A `Command` for the binary under test.
pub fn slicewise() -> Command {
    command(BIN)
}

/// A `Command` for `program`, the binary under test or a link to it. A cross-compiled binary
/// (`target/<triple>/<profile>/slicewise`) cannot be started by the host, and cargo runs only the
/// test executables through the target's runner: so when `CARGO_TARGET_<TRIPLE>_RUNNER` is set
/// (`scripts/test-cross.sh` sets it from `.cargo/config.toml`, e.g. `qemu-aarch64 -cpu max -L
/// /usr/aarch64-linux-gnu`), it is put in front, split on white space as cargo splits it. With
/// qemu registered in binfmt_misc the binary would start without it; the prefix does no harm then.
pub fn command(program: impl AsRef<OsStr>) -> Command {
    let runner = Path::new(BIN)
        .parent()
        .and_then(Path::parent)
        .and_then(Path::file_name)
        .and_then(OsStr::to_str)
        .map(|triple| format!("CARGO_TARGET_{}_RUNNER", triple.to_uppercase().replace(['-', '.'], "_")))
        .and_then(|var| std::env::var(var).ok())
        .filter(|r| !r.trim().is_empty());
    match runner {
        Some(r) => {
            let mut words = r.split_whitespace();
            let mut cmd = Command::new(words.next().unwrap());
            cmd.args(words).arg(program);
            cmd
        }
        None => Command::new(program),
    }
}
