//! `slicewise encrypt | decrypt | keygen` end to end.

use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

mod common;

const ALGS: [(&str, &str, usize); 6] = [
    ("proest128-ape", "proest128apev1", 16),
    ("proest128-copa", "proest128copav1", 32),
    ("proest128-otr", "proest128otrv1", 32),
    ("proest256-ape", "proest256apev1", 32),
    ("proest256-copa", "proest256copav1", 64),
    ("proest256-otr", "proest256otrv1", 64),
];

fn run(args: &[&str], dir: &Path, stdin: Option<&[u8]>, env: &[(&str, &str)]) -> Output {
    let mut cmd = common::slicewise();
    cmd.args(args).current_dir(dir).env_remove("SLICEWISE_BACKEND");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() });
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn slicewise");
    if let Some(data) = stdin {
        // The command may exit (on an error) before reading its input.
        let _ = child.stdin.take().unwrap().write_all(data);
    }
    child.wait_with_output().unwrap()
}

fn ok(o: &Output) -> &[u8] {
    assert!(o.status.success(), "failed: {}", String::from_utf8_lossy(&o.stderr));
    &o.stdout
}

fn failed(o: &Output, what: &str) -> String {
    assert_eq!(o.status.code(), Some(1), "{what}: expected exit 1, stderr {}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stdout.is_empty(), "{what}: wrote to stdout");
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!err.trim().is_empty(), "{what}: no message");
    err
}

fn files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

fn key_file(dir: &Path, name: &str, alg: &str) -> PathBuf {
    let o = run(&["keygen", "-a", alg, "-o", name], dir, None, &[]);
    ok(&o);
    dir.join(name)
}

#[test]
fn round_trip_every_algorithm_files_and_pipes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let msg: Vec<u8> = (0..5000u32).map(|i| (i * 7 % 256) as u8).collect();
    std::fs::write(d.join("msg"), &msg).unwrap();
    std::fs::write(d.join("ad"), b"header").unwrap();
    for (alg, _, _) in ALGS {
        key_file(d, "key", alg);
        ok(&run(&["encrypt", "-a", alg, "--key-file", "key", "--ad-file", "ad", "-o", "ct", "msg"], d, None, &[]));
        ok(&run(&["decrypt", "-a", alg, "--key-file", "key", "--ad-file", "ad", "-o", "pt", "ct"], d, None, &[]));
        assert_eq!(std::fs::read(d.join("pt")).unwrap(), msg, "{alg}");
        // random nonces: two encryptions differ
        let c1 = run(&["encrypt", "-a", alg, "--key-file", "key", "-"], d, Some(&msg), &[]);
        let c2 = run(&["encrypt", "-a", alg, "--key-file", "key"], d, Some(&msg), &[]);
        assert_ne!(ok(&c1), ok(&c2), "{alg}: random nonce");
        for b in ["portable", "mixslp", "u32x2"] {
            let pt = run(&["decrypt", "-a", alg, "--key-file", "key", "--backend", b], d, Some(&c1.stdout), &[]);
            assert_eq!(ok(&pt), &msg[..], "{alg} {b}");
        }
        for f in ["key", "ct", "pt"] {
            std::fs::remove_file(d.join(f)).unwrap();
        }
    }
    assert_eq!(files(d), ["ad", "msg"], "no temporary files left behind");
}

fn kats(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../test-vectors/proest/{name}.txt.xz"));
    let raw = std::fs::read(&path).unwrap();
    let mut s = String::new();
    xz2::read::XzDecoder::new(&raw[..]).read_to_string(&mut s).unwrap();
    s
}

#[test]
fn kat_interoperability_with_explicit_nonce() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut checked = 0;
    for (alg, file, _) in ALGS {
        let text = kats(file);
        for rec in text.split("\n\n").filter(|r| {
            // a sample of vectors: a few short ones with AD and the 1000-byte message
            ["Count = 1\n", "Count = 36\n", "Count = 570\n", "Count = 1089\n", "Count = 1090\n"].iter().any(|c| r.trim_start().starts_with(c))
        }) {
            let get = |k: &str| {
                rec.lines().find_map(|l| l.strip_prefix(&format!("{k} = ")).map(str::to_string)).unwrap_or_default()
            };
            std::fs::write(d.join("key"), format!("  {}\n", get("Key"))).unwrap();
            std::fs::write(d.join("ad"), hex::decode(get("AD")).unwrap()).unwrap();
            let pt = hex::decode(get("PT")).unwrap();
            let ct = hex::decode(get("CT")).unwrap();
            let nonce = get("Nonce");
            let out = run(&["encrypt", "-a", alg, "--key-file", "key", "--ad-file", "ad", "--nonce", &nonce], d, Some(&pt), &[]);
            assert_eq!(ok(&out), &ct[..], "{alg}: {}", get("Count"));
            let back = run(&["decrypt", "-a", alg, "--key-file", "key", "--ad-file", "ad", "--nonce", &nonce], d, Some(&ct), &[]);
            assert_eq!(ok(&back), &pt[..], "{alg}: {}", get("Count"));
            checked += 1;
        }
    }
    assert_eq!(checked, 30);
}

#[test]
fn raw_binary_key_file_works() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("key"), [b' '; 32]).unwrap(); // 32 raw bytes, all whitespace
    let c = run(&["encrypt", "-a", "proest128-copa", "--key-file", "key"], d, Some(b"x"), &[]);
    let p = run(&["decrypt", "-a", "proest128-copa", "--key-file", "key"], d, Some(ok(&c)), &[]);
    assert_eq!(ok(&p), b"x");
}

#[test]
fn tampering_exits_1_and_leaves_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (alg, _, _) in ALGS {
        key_file(d, "key", alg);
        let ct = ok(&run(&["encrypt", "-a", alg, "--key-file", "key"], d, Some(b"attack at dawn"), &[])).to_vec();
        for i in [0, ct.len() / 2, ct.len() - 1] {
            let mut bad = ct.clone();
            bad[i] ^= 4;
            std::fs::write(d.join("bad"), &bad).unwrap();
            let o = run(&["decrypt", "-a", alg, "--key-file", "key", "-o", "out", "bad"], d, None, &[]);
            let err = failed(&o, alg);
            assert!(err.contains("decryption failed"), "{err}");
            assert!(!d.join("out").exists(), "{alg}: output file left behind");
            let o = run(&["decrypt", "-a", alg, "--key-file", "key"], d, Some(&bad), &[]);
            failed(&o, alg);
        }
        // truncated, extended and empty inputs
        for bad in [&ct[..ct.len() - 1], &ct[..10], &[][..], &[ct.clone(), vec![0; 3]].concat()[..]] {
            let o = run(&["decrypt", "-a", alg, "--key-file", "key", "-o", "out"], d, Some(bad), &[]);
            failed(&o, alg);
            assert!(!d.join("out").exists());
        }
        // an existing output file is left untouched on failure
        std::fs::write(d.join("out"), b"old").unwrap();
        let mut bad = ct.clone();
        bad[3] ^= 1;
        failed(&run(&["decrypt", "-a", alg, "--key-file", "key", "-o", "out"], d, Some(&bad), &[]), alg);
        assert_eq!(std::fs::read(d.join("out")).unwrap(), b"old");
        std::fs::remove_file(d.join("out")).unwrap();
        std::fs::remove_file(d.join("key")).unwrap();
    }
    assert_eq!(files(d), ["bad"], "no temporary files left behind");
}

#[test]
fn bad_keys_nonces_and_files_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("short"), "00112233").unwrap();
    let e = failed(&run(&["encrypt", "-a", "proest128-ape", "--key-file", "short"], d, Some(b"x"), &[]), "short key");
    assert!(e.contains("bad key") && e.contains("16 raw bytes or 32 hex digits"), "{e}");
    std::fs::write(d.join("k16"), "000102030405060708090a0b0c0d0e0f").unwrap();
    // a 16-byte key is too short for COPA-128
    failed(&run(&["encrypt", "-a", "proest128-copa", "--key-file", "k16"], d, Some(b"x"), &[]), "copa key");
    let e = failed(&run(&["encrypt", "-a", "proest128-ape", "--key-file", "k16", "--nonce", "zz"], d, Some(b"x"), &[]), "hex");
    assert!(e.contains("--nonce"), "{e}");
    let e = failed(&run(&["encrypt", "-a", "proest128-ape", "--key-file", "k16", "--nonce", "0011"], d, Some(b"x"), &[]), "len");
    assert!(e.contains("expected 32 bytes"), "{e}");
    let e = failed(&run(&["encrypt", "-a", "proest128-ape", "--key-file", "missing"], d, Some(b"x"), &[]), "missing key");
    assert!(e.contains("missing"), "{e}");
    let e = failed(&run(&["encrypt", "-a", "proest128-ape", "--key-file", "k16", "nofile"], d, None, &[]), "missing input");
    assert!(e.contains("nofile"), "{e}");
    let e = failed(&run(&["encrypt", "-a", "proest128-ape", "--key-file", "k16", "--ad-file", "noad"], d, Some(b"x"), &[]), "ad");
    assert!(e.contains("noad"), "{e}");
    let e = failed(&run(&["encrypt", "-a", "proest128-ape", "--key-file", "k16", "--backend", "avx9000"], d, Some(b"x"), &[]), "backend");
    assert!(e.contains("avx9000"), "{e}");
    let e = failed(&run(&["encrypt", "-a", "proest128-ape", "--key-file", "k16"], d, Some(b"x"), &[("SLICEWISE_BACKEND", "bogus")]), "env");
    assert!(e.contains("bogus"), "{e}");
    // a valid override is honoured and gives the same ciphertext
    let n = "000102030405060708090a0b0c0d0e0f000102030405060708090a0b0c0d0e0f";
    let a = run(&["encrypt", "-a", "proest128-ape", "--key-file", "k16", "--nonce", n], d, Some(b"x"), &[("SLICEWISE_BACKEND", "u32x2")]);
    let b = run(&["encrypt", "-a", "proest128-ape", "--key-file", "k16", "--nonce", n], d, Some(b"x"), &[]);
    assert_eq!(ok(&a), ok(&b));
    // unknown algorithm is a usage error (clap exits 2)
    let o = run(&["encrypt", "-a", "aes-gcm", "--key-file", "k16"], d, Some(b"x"), &[]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn keygen_mode_0600_and_no_overwrite_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (alg, _, len) in ALGS {
        let p = key_file(d, "k", alg);
        let text = std::fs::read_to_string(&p).unwrap();
        assert_eq!(text.trim().len(), 2 * len, "{alg}");
        assert!(hex::decode(text.trim()).is_ok());
        assert_eq!(std::fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o600);
        let e = failed(&run(&["keygen", "-a", alg, "-o", "k"], d, None, &[]), "overwrite");
        assert!(e.contains("--force"), "{e}");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), text, "key file untouched");
        ok(&run(&["keygen", "-a", alg, "-o", "k", "--force"], d, None, &[]));
        let new = std::fs::read_to_string(&p).unwrap();
        assert_ne!(new, text);
        assert_eq!(std::fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o600);
        std::fs::remove_file(&p).unwrap();
    }
    let out = run(&["keygen", "-a", "proest256-otr"], d, None, &[]);
    assert_eq!(String::from_utf8_lossy(ok(&out)).trim().len(), 128);
    assert!(files(d).is_empty());
}
