//! Builds the firmware's test data from the repository's KAT files (`test-vectors/`), sized to
//! the target's flash, and picks the memory map for cortex-m-rt.
//!
//! Nothing generated is committed: the vectors are read (through `xz -dc`) at build time and
//! written to `$OUT_DIR/vectors.rs` as byte strings in a compact stream format that the
//! firmware walks (`src/vectors.rs` reads it):
//!
//! * Grøstl Short/Long KAT: `len_bits: u16 LE`, `⌈len_bits/8⌉` message bytes, then the 28-,
//!   32-, 48- and 64-byte digests (the KAT messages are the same in all four files; this
//!   script checks that).
//! * Groestlcoin: `len: u16 LE`, data, 32-byte hash.
//! * Prøst AEAD, per variant: `ad_len: u16 LE`, `pt_len: u16 LE`, the ciphertext. Key, nonce,
//!   AD and PT of every vector are `00 01 02 …` (this script checks that), so the firmware
//!   regenerates them instead of storing them.
//! * Prøst permutation: input, P(input), P⁻¹(input), per state of the permutation file, and
//!   input, P¹⁰⁰⁰(input).
//!
//! Which records fit is decided per target by a byte budget ([`Budget`]): whole-byte messages
//! first, shortest first, then bit-length messages, shortest first, until the budget is spent.
//! The counts are printed by the firmware and recorded in `docs/embedded.md`.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

struct Budget {
    /// Bytes of Grøstl Short KAT records.
    groestl: usize,
    /// Longest Groestlcoin / Long KAT message, bytes.
    long_max: usize,
    /// Long KAT records (the first ones, 2048 bits and up).
    long_count: usize,
    /// Bytes of Prøst AEAD vectors per variant.
    proest: usize,
    /// Longest Prøst plaintext / AD, bytes.
    proest_max: usize,
}

fn budget(target: &str) -> Budget {
    match target {
        // mps2-an386: 4 MiB of code memory. Everything but the 64 KiB Prøst messages.
        t if t.starts_with("thumbv7em") => Budget { groestl: usize::MAX, long_max: 4096, long_count: 64, proest: usize::MAX, proest_max: 4096 },
        // micro:bit (nRF51): 256 KiB flash, 16 KiB RAM.
        t if t.starts_with("thumbv6m") => Budget { groestl: 88_000, long_max: 1000, long_count: 1, proest: 6_000, proest_max: 1000 },
        // ATmega1284P: 128 KiB flash (data kept below 64 KiB for LPM), 16 KiB RAM. One static
        // array holds at most 32 767 bytes there (16-bit `isize`).
        _ => Budget { groestl: 32_000, long_max: 256, long_count: 1, proest: 1_400, proest_max: 64 },
    }
}

fn xz(path: &Path) -> String {
    let out = Command::new("xz").arg("-dc").arg(path).output().unwrap_or_else(|e| panic!("running xz -dc {}: {e} (install xz-utils)", path.display()));
    assert!(out.status.success(), "xz -dc {} failed", path.display());
    String::from_utf8(out.stdout).expect("KAT files are ASCII")
}

fn unhex(s: &str) -> Vec<u8> {
    let s = s.trim();
    assert!(s.len().is_multiple_of(2), "odd hex {s:?}");
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex")).collect()
}

/// `key = value` records, separated by blank lines or by the first key coming again (the Long
/// KAT files have no blank lines), comments skipped.
fn records(text: &str) -> Vec<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        } else if !line.starts_with('#') {
            let (k, v) = line.split_once('=').unwrap_or_else(|| panic!("bad line {line:?}"));
            if cur.first().is_some_and(|(first, _): &(String, String)| first == k.trim()) {
                out.push(std::mem::take(&mut cur));
            }
            cur.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn field<'a>(r: &'a [(String, String)], k: &str) -> &'a str {
    &r.iter().find(|(key, _)| key == k).unwrap_or_else(|| panic!("record without {k}")).1
}

/// Messages (len_bits, bytes) and the four digests of a KAT family (`ShortMsgKAT` or
/// `LongMsgKAT`).
fn groestl_family(dir: &Path, family: &str) -> Vec<(u16, Vec<u8>, Vec<Vec<u8>>)> {
    let files: Vec<_> = [224, 256, 384, 512].iter().map(|s| records(&xz(&dir.join(format!("{family}_{s}.txt.xz"))))).collect();
    let n = files[0].len();
    assert!(files.iter().all(|f| f.len() == n), "{family}: record counts differ");
    (0..n)
        .map(|i| {
            let len: usize = field(&files[0][i], "Len").parse().expect("Len");
            let mut msg = unhex(field(&files[0][i], "Msg"));
            for f in &files[1..] {
                assert_eq!(field(&f[i], "Len"), field(&files[0][i], "Len"), "{family} record {i}: Len differs between sizes");
                assert_eq!(field(&f[i], "Msg"), field(&files[0][i], "Msg"), "{family} record {i}: Msg differs between sizes");
            }
            msg.truncate(len.div_ceil(8));
            let mds = files.iter().map(|f| unhex(field(&f[i], "MD"))).collect();
            (u16::try_from(len).expect("length fits u16"), msg, mds)
        })
        .collect()
}

fn put_groestl(blob: &mut Vec<u8>, len: u16, msg: &[u8], mds: &[Vec<u8>]) {
    blob.extend_from_slice(&len.to_le_bytes());
    blob.extend_from_slice(msg);
    for (md, n) in mds.iter().zip([28, 32, 48, 64]) {
        assert_eq!(md.len(), n);
        blob.extend_from_slice(md);
    }
}

fn counting(n: usize) -> Vec<u8> {
    (0..n).map(|i| i as u8).collect()
}

fn emit(out: &mut String, name: &str, count: usize, blob: &[u8]) {
    writeln!(out, "pub const {name}_COUNT: u16 = {count};").unwrap();
    writeln!(out, "#[cfg_attr(target_arch = \"avr\", unsafe(link_section = \".progmem.data\"))]").unwrap();
    write!(out, "pub static {name}: [u8; {}] = *b\"", blob.len()).unwrap();
    for b in blob {
        write!(out, "\\x{b:02x}").unwrap();
    }
    writeln!(out, "\";").unwrap();
}

fn main() {
    let target = env::var("TARGET").unwrap();
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest.join("../..");
    let tv = root.join("test-vectors");
    let out_dir = PathBuf::from(env::var("OUT_DIR").unwrap());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={}", tv.display());

    // Memory map for cortex-m-rt's link.x.
    if target.starts_with("thumb") {
        let memory = if target.starts_with("thumbv6m") { "memory-microbit.x" } else { "memory-mps2-an386.x" };
        fs::copy(manifest.join(memory), out_dir.join("memory.x")).unwrap();
        println!("cargo:rustc-link-search={}", out_dir.display());
        println!("cargo:rerun-if-changed={memory}");
    }

    let b = budget(&target);
    let mut out = String::from("// Generated by build.rs from test-vectors/; do not edit.\n");

    // Grøstl Short KAT: whole-byte records first, then bit-length ones, shortest first.
    let short = groestl_family(&tv.join("groestl"), "ShortMsgKAT");
    let mut order: Vec<_> = (0..short.len()).collect();
    order.sort_by_key(|&i| (!short[i].0.is_multiple_of(8), short[i].0));
    let (mut blob, mut count, mut whole) = (Vec::new(), 0, 0);
    for i in order {
        let (len, msg, mds) = &short[i];
        let cost = 2 + msg.len() + 172;
        if blob.len() + cost > b.groestl {
            break;
        }
        put_groestl(&mut blob, *len, msg, mds);
        count += 1;
        whole += usize::from(len % 8 == 0);
    }
    writeln!(out, "/// Short KAT records included: {count} of {} ({whole} whole-byte).", short.len()).unwrap();
    emit(&mut out, "GROESTL_SHORT", count, &blob);

    // Long KAT: the records up to `long_max` bytes (multi-block messages).
    let long = groestl_family(&tv.join("groestl"), "LongMsgKAT");
    let (mut blob, mut count) = (Vec::new(), 0);
    for (len, msg, mds) in long.iter().filter(|r| usize::from(r.0).div_ceil(8) <= b.long_max).take(b.long_count) {
        put_groestl(&mut blob, *len, msg, mds);
        count += 1;
    }
    writeln!(out, "/// Long KAT records included: {count} of {}.", long.len()).unwrap();
    emit(&mut out, "GROESTL_LONG", count, &blob);

    // Groestlcoin double hash.
    let json = fs::read_to_string(tv.join("groestl/groestlcoin.json")).unwrap();
    let (mut blob, mut count) = (Vec::new(), 0);
    for rec in json.split('{').skip(2) {
        let get = |k: &str| {
            let at = rec.find(&format!("\"{k}\":")).unwrap_or_else(|| panic!("groestlcoin.json: no {k}"));
            let v = rec[at + k.len() + 3..].trim_start();
            let end = v.find([',', '\n', '}']).unwrap();
            v[..end].trim().trim_matches('"').to_string()
        };
        let len: usize = get("len").parse().unwrap();
        let data = unhex(&get("data"));
        assert_eq!(data.len(), len);
        if len > b.long_max {
            continue;
        }
        blob.extend_from_slice(&u16::try_from(len).unwrap().to_le_bytes());
        blob.extend_from_slice(&data);
        blob.extend_from_slice(&unhex(&get("hash")));
        count += 1;
    }
    emit(&mut out, "GROESTLCOIN", count, &blob);

    // Prøst AEAD vectors, per variant.
    for (name, file, key_len, nonce_len) in [
        ("APE128", "proest128apev1", 16, 32),
        ("COPA128", "proest128copav1", 32, 16),
        ("OTR128", "proest128otrv1", 32, 16),
        ("APE256", "proest256apev1", 32, 64),
        ("COPA256", "proest256copav1", 64, 32),
        ("OTR256", "proest256otrv1", 64, 32),
    ] {
        let recs = records(&xz(&tv.join(format!("proest/{file}.txt.xz"))));
        let mut order: Vec<_> = (0..recs.len()).collect();
        let lens = |i: usize| (unhex(field(&recs[i], "AD")).len(), unhex(field(&recs[i], "PT")).len());
        // Smallest max(AD, PT) first, so that the subset is a square of short lengths.
        order.sort_by_key(|&i| (lens(i).0.max(lens(i).1), i));
        let (mut blob, mut count) = (Vec::new(), 0);
        for i in order {
            let r = &recs[i];
            let (key, nonce, ad, pt, ct) = (unhex(field(r, "Key")), unhex(field(r, "Nonce")), unhex(field(r, "AD")), unhex(field(r, "PT")), unhex(field(r, "CT")));
            assert_eq!((key.clone(), nonce.clone()), (counting(key_len), counting(nonce_len)), "{file}: key/nonce not 00 01 02 …");
            assert!(ad == counting(ad.len()) && pt == counting(pt.len()), "{file}: AD/PT not 00 01 02 …");
            if ad.len().max(pt.len()) > b.proest_max || blob.len() + 4 + ct.len() > b.proest {
                continue;
            }
            blob.extend_from_slice(&u16::try_from(ad.len()).unwrap().to_le_bytes());
            blob.extend_from_slice(&u16::try_from(pt.len()).unwrap().to_le_bytes());
            blob.extend_from_slice(&ct);
            count += 1;
        }
        writeln!(out, "/// {file}: {count} of {} vectors.", recs.len()).unwrap();
        emit(&mut out, name, count, &blob);
    }

    // Prøst permutation: In, Permute, InversePermute per 16-round record; In, P^1000(In).
    for (name, file) in [("PERM128", "proest128_permutation.txt"), ("PERM256", "proest256_permutation.txt")] {
        let text = fs::read_to_string(tv.join("proest").join(file)).unwrap();
        let (mut blob, mut count) = (Vec::new(), 0);
        for r in records(&text).iter().filter(|r| r.iter().any(|(k, _)| k == "Permute")) {
            for k in ["In", "Permute", "InversePermute"] {
                blob.extend_from_slice(&unhex(field(r, k)));
            }
            count += 1;
        }
        emit(&mut out, name, count, &blob);
        let (mut blob, mut count) = (Vec::new(), 0);
        for r in records(&text).iter().filter(|r| r.iter().any(|(k, _)| k == "Permute^1000")) {
            blob.extend_from_slice(&unhex(field(r, "In")));
            blob.extend_from_slice(&unhex(field(r, "Permute^1000")));
            count += 1;
        }
        emit(&mut out, &format!("{name}_POW1000"), count, &blob);
    }

    // Scratch buffers of the firmware: the longest message it is given, plus room for padding
    // and the longest tag.
    writeln!(out, "pub const BUF: usize = {};", b.long_max.max(b.proest_max) + 128).unwrap();
    fs::write(out_dir.join("vectors.rs"), out).unwrap();
}
