//! `slicewise encrypt | decrypt | keygen`: the Prøst AEADs on files.
//!
//! * Keys come from a file (`--key-file`), never from argv: raw bytes, or hex text
//!   (surrounding whitespace ignored). Key buffers are wiped after use.
//! * With `--nonce HEX` the output is exactly the SUPERCOP ciphertext (encrypted padded message,
//!   then the tag), interoperable with the KAT files. Without it, `encrypt` draws a random
//!   nonce from the OS and writes it in front of the ciphertext, and `decrypt` reads it back.
//! * `decrypt` verifies before it writes anything: on failure it prints a message, exits 1,
//!   writes nothing to stdout and leaves no output file. Output files are written under a
//!   temporary name in the target directory and renamed into place only on success.
//! * `keygen` writes a fresh random key as hex text (mode 0600) and refuses to overwrite an
//!   existing file without `--force`.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, anyhow, bail};
use clap::{Args, ValueEnum};
use slicewise_proest::modes::Mode;
use slicewise_proest::{
    Backend, ProestAead, ProestApe128, ProestApe256, ProestCopa128, ProestCopa256, ProestOtr128,
    ProestOtr256,
};
use zeroize::{Zeroize, Zeroizing};

use crate::keyparse::{parse_key, parse_nonce};

/// The six Prøst AEADs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Alg {
    #[value(name = "proest128-ape")]
    Proest128Ape,
    #[value(name = "proest128-copa")]
    Proest128Copa,
    #[value(name = "proest128-otr")]
    Proest128Otr,
    #[value(name = "proest256-ape")]
    Proest256Ape,
    #[value(name = "proest256-copa")]
    Proest256Copa,
    #[value(name = "proest256-otr")]
    Proest256Otr,
}

/// What the commands need from a cipher, independent of its type.
trait Cipher {
    fn nonce_len(&self) -> usize;
    fn encrypt(&self, nonce: &[u8], ad: &[u8], msg: &[u8]) -> Result<Vec<u8>, slicewise_proest::Error>;
    fn decrypt(&self, nonce: &[u8], ad: &[u8], ct: &[u8]) -> Result<Vec<u8>, slicewise_proest::Error>;
}

impl<M: Mode> Cipher for ProestAead<M> {
    fn nonce_len(&self) -> usize {
        M::NONCE_LEN
    }
    fn encrypt(&self, nonce: &[u8], ad: &[u8], msg: &[u8]) -> Result<Vec<u8>, slicewise_proest::Error> {
        ProestAead::encrypt(self, nonce, ad, msg)
    }
    fn decrypt(&self, nonce: &[u8], ad: &[u8], ct: &[u8]) -> Result<Vec<u8>, slicewise_proest::Error> {
        ProestAead::decrypt(self, nonce, ad, ct)
    }
}

impl Alg {
    pub fn key_len(self) -> usize {
        match self {
            Alg::Proest128Ape => ProestApe128::KEY_LEN,
            Alg::Proest128Copa => ProestCopa128::KEY_LEN,
            Alg::Proest128Otr => ProestOtr128::KEY_LEN,
            Alg::Proest256Ape => ProestApe256::KEY_LEN,
            Alg::Proest256Copa => ProestCopa256::KEY_LEN,
            Alg::Proest256Otr => ProestOtr256::KEY_LEN,
        }
    }

    fn cipher(self, key: &[u8], backend: Backend) -> Result<Box<dyn Cipher>, slicewise_proest::Error> {
        fn boxed<M: Mode + 'static>(key: &[u8], b: Backend) -> Result<Box<dyn Cipher>, slicewise_proest::Error> {
            Ok(Box::new(ProestAead::<M>::with_backend(key, b)?))
        }
        use slicewise_proest::modes::{Ape, Copa, Otr};
        use slicewise_proest::{Proest128, Proest256};
        match self {
            Alg::Proest128Ape => boxed::<Ape<Proest128>>(key, backend),
            Alg::Proest128Copa => boxed::<Copa<Proest128>>(key, backend),
            Alg::Proest128Otr => boxed::<Otr<Proest128>>(key, backend),
            Alg::Proest256Ape => boxed::<Ape<Proest256>>(key, backend),
            Alg::Proest256Copa => boxed::<Copa<Proest256>>(key, backend),
            Alg::Proest256Otr => boxed::<Otr<Proest256>>(key, backend),
        }
    }
}

/// Options shared by `encrypt` and `decrypt`.
#[derive(Debug, Args)]
pub struct AeadArgs {
    /// Algorithm.
    #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
    algorithm: Alg,
    /// File holding the key: raw bytes, or hex text (whitespace-trimmed).
    #[arg(short = 'k', long, value_name = "FILE")]
    key_file: PathBuf,
    /// Nonce in hex. With it the output is exactly the SUPERCOP ciphertext; without it a
    /// random nonce is generated and stored in front of the ciphertext.
    #[arg(long, value_name = "HEX")]
    nonce: Option<String>,
    /// File holding the associated data (default: empty).
    #[arg(long, value_name = "FILE")]
    ad_file: Option<PathBuf>,
    /// Prøst backend (see `slicewise backends`); default: $SLICEWISE_BACKEND or the fastest.
    #[arg(long, value_name = "NAME")]
    backend: Option<String>,
    /// Output file (default: stdout). Written under a temporary name, renamed on success.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Input file, or `-` for stdin (the default).
    #[arg(value_name = "IN")]
    input: Option<PathBuf>,
}

/// `slicewise encrypt`.
#[derive(Debug, Args)]
pub struct EncryptArgs {
    #[command(flatten)]
    common: AeadArgs,
}

/// `slicewise decrypt`.
#[derive(Debug, Args)]
pub struct DecryptArgs {
    #[command(flatten)]
    common: AeadArgs,
}

/// `slicewise keygen`.
#[derive(Debug, Args)]
pub struct KeygenArgs {
    /// Algorithm the key is for (sets the length).
    #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
    algorithm: Alg,
    /// Key file to create (mode 0600); default: print to stdout.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Overwrite an existing key file.
    #[arg(long)]
    force: bool,
}

/// Reads a key file ([`crate::keyparse::parse_key`] says which contents are accepted).
fn read_key(path: &Path, len: usize) -> anyhow::Result<Zeroizing<Vec<u8>>> {
    let raw = Zeroizing::new(fs::read(path).with_context(|| format!("reading key file {}", path.display()))?);
    parse_key(&raw, len).map_err(|e| anyhow!("bad key in {}: {e}", path.display()))
}

fn read_input(input: Option<&Path>) -> anyhow::Result<Vec<u8>> {
    let mut data = Vec::new();
    match input {
        None => io::stdin().lock().read_to_end(&mut data).context("reading stdin")?,
        Some(p) if p == Path::new("-") => io::stdin().lock().read_to_end(&mut data).context("reading stdin")?,
        Some(p) => File::open(p)
            .and_then(|mut f| f.read_to_end(&mut data))
            .with_context(|| format!("reading {}", p.display()))?,
    };
    Ok(data)
}

/// Writes `parts` to stdout, or atomically to `path` (temporary file in the same directory,
/// renamed into place only once everything is written).
fn write_output(path: Option<&Path>, parts: &[&[u8]]) -> anyhow::Result<()> {
    match path {
        None => {
            let mut out = io::stdout().lock();
            for p in parts {
                out.write_all(p).context("writing stdout")?;
            }
            out.flush().context("writing stdout")?;
        }
        Some(path) => crate::outfile::write_atomic(path, parts)?,
    }
    Ok(())
}

/// The cipher, the nonce given on the command line (if any) and the associated data.
type Setup = (Box<dyn Cipher>, Option<Vec<u8>>, Vec<u8>);

fn setup(a: &AeadArgs) -> anyhow::Result<Setup> {
    let backend = match &a.backend {
        Some(name) => Backend::from_name(name)?.check()?,
        None => Backend::preferred()?,
    };
    let key = read_key(&a.key_file, a.algorithm.key_len())?;
    let cipher = a.algorithm.cipher(&key, backend)?;
    drop(key);
    let nonce = match &a.nonce {
        None => None,
        Some(h) => Some(parse_nonce(h, cipher.nonce_len()).map_err(|e| anyhow!(e))?),
    };
    let ad = match &a.ad_file {
        None => Vec::new(),
        Some(p) => fs::read(p).with_context(|| format!("reading associated data {}", p.display()))?,
    };
    Ok((cipher, nonce, ad))
}

pub fn encrypt(args: EncryptArgs) -> anyhow::Result<ExitCode> {
    let a = &args.common;
    let (cipher, nonce, ad) = setup(a)?;
    let msg = Zeroizing::new(read_input(a.input.as_deref())?);
    match nonce {
        Some(n) => {
            let ct = cipher.encrypt(&n, &ad, &msg)?;
            write_output(a.output.as_deref(), &[&ct])?;
        }
        None => {
            let mut n = vec![0u8; cipher.nonce_len()];
            getrandom::fill(&mut n).map_err(|e| anyhow!("no randomness for the nonce: {e}"))?;
            let ct = cipher.encrypt(&n, &ad, &msg)?;
            write_output(a.output.as_deref(), &[&n, &ct])?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub fn decrypt(args: DecryptArgs) -> anyhow::Result<ExitCode> {
    let a = &args.common;
    let (cipher, nonce, ad) = setup(a)?;
    let input = read_input(a.input.as_deref())?;
    let (nonce, ct) = match nonce {
        Some(n) => (n, &input[..]),
        None => {
            let nl = cipher.nonce_len();
            if input.len() < nl {
                bail!("decryption failed: input is shorter than the {nl}-byte nonce that should precede the ciphertext");
            }
            (input[..nl].to_vec(), &input[nl..])
        }
    };
    // Decrypt and verify completely before writing a single byte.
    let pt = Zeroizing::new(cipher.decrypt(&nonce, &ad, ct).map_err(|e| match e {
        slicewise_proest::Error::Authentication => anyhow!(e),
        other => anyhow!("decryption failed: {other}"),
    })?);
    write_output(a.output.as_deref(), &[&pt])?;
    Ok(ExitCode::SUCCESS)
}

pub fn keygen(args: KeygenArgs) -> anyhow::Result<ExitCode> {
    let mut key = Zeroizing::new(vec![0u8; args.algorithm.key_len()]);
    getrandom::fill(&mut key).map_err(|e| anyhow!("no randomness for the key: {e}"))?;
    let mut text = Zeroizing::new(hex::encode(&*key));
    text.push('\n');
    match &args.output {
        None => {
            io::stdout().lock().write_all(text.as_bytes()).context("writing stdout")?;
        }
        Some(path) if !args.force => {
            let mut f = OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(path)
                .map_err(|e| match e.kind() {
                    io::ErrorKind::AlreadyExists => {
                        anyhow!("{} exists; not overwriting it (use --force)", path.display())
                    }
                    _ => anyhow!(e).context(format!("creating {}", path.display())),
                })?;
            f.write_all(text.as_bytes()).with_context(|| format!("writing {}", path.display()))?;
            f.sync_all().ok();
        }
        Some(path) => {
            // NamedTempFile is created with mode 0600; the rename replaces the old file.
            write_output(Some(path), &[text.as_bytes()])?;
        }
    }
    key.zeroize();
    Ok(ExitCode::SUCCESS)
}
