//! Constant-time check under Valgrind Memcheck (TIMECOP style): keys, messages and associated
//! data are marked undefined (`slicewise_proest::ct::poison`), so Memcheck reports every
//! branch and every memory address that depends on them. The only value the library marks
//! public again is the decryption verdict (and, after a verified decryption, the plaintext
//! length). Run by `scripts/test-trust.sh`:
//!
//! ```text
//! cargo build --profile ctgrind -p slicewise-cli --features ct-valgrind --example ctgrind
//! valgrind --error-exitcode=1 target/ctgrind/examples/ctgrind            # must report 0 errors
//! valgrind --error-exitcode=1 target/ctgrind/examples/ctgrind negative ttable64  # must fail
//! ```
//!
//! `check` (the default) runs every constant-time Grøstl and Prøst backend that the CPU
//! *as Valgrind presents it* has. Valgrind 3.19 emulates SSE4.2/AVX2/AES-NI but not AVX-512,
//! VAES or GFNI, so those backends report themselves unavailable: they are the dudect test's
//! (`backend_report::TIMED_BY_DUDECT`, `ctdudect.rs`), listed as left to it and not recorded here. Every other
//! constant-time backend of this architecture goes into the backend report
//! (`test-support/backend_report.rs`) as ran or skipped, and `SLICEWISE_REQUIRE_BACKENDS` makes
//! a skip fail. The output names what was checked (`ctgrind check: checked …`), which
//! `scripts/test-trust.sh` quotes in its verdict.
//! `negative` runs the T-table Grøstl backends, which index tables with secret bytes: the
//! check must flag them, which shows that it can see such leaks.

use slicewise_groestl::{Backend as GBackend, DigestBytes, Groestl, Variant, hash_many};
use slicewise_proest::ct::{poison, running_on_valgrind, unpoison};
use slicewise_proest::modes::{Ape, Copa, Mode, Otr};
use slicewise_proest::{Backend as PBackend, Error, Packet, ProestAead, Proest128, Proest256};

#[path = "../../../test-support/backend_report.rs"]
mod backend_report;

/// Whether the check runs backend `name` of `primitive`: records it in the backend report
/// (ran, or skipped when unavailable), except a backend left to ctdudect or of another
/// architecture. Panics when a required backend is skipped.
fn gate(primitive: &str, name: &str, available: bool, left: &mut Vec<String>) -> bool {
    let item = format!("{primitive}:{name}");
    if !available && backend_report::TIMED_BY_DUDECT.contains(&item.as_str()) {
        left.push(item);
        return false;
    }
    backend_report::gate(primitive, name, available, "ctgrind under Valgrind")
}

/// Deterministic filler bytes (the values do not matter, only their definedness).
fn bytes(n: usize, seed: u8) -> Vec<u8> {
    (0..n).map(|i| (i as u8).wrapping_mul(29).wrapping_add(seed)).collect()
}

/// Every Grøstl size on `b`: one-shot with several lengths, and `hash_many` (the multi-buffer
/// kernels), with secret messages.
fn groestl(b: GBackend) {
    for v in Variant::ALL {
        for len in [0, 1, 63, 64, 129, 300] {
            let msg = bytes(len, 7);
            poison(&msg);
            let mut h = Groestl::with_backend(v, b).expect("available");
            h.update(&msg[..len / 2]).update(&msg[len / 2..]);
            let d = h.finalize();
            unpoison(d.as_ref());
        }
        let msgs: Vec<Vec<u8>> = (0..5).map(|i| bytes(100 + i, i as u8)).collect();
        msgs.iter().for_each(|m| poison(m));
        let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
        let mut out = vec![DigestBytes::default(); refs.len()];
        hash_many(v, b, &refs, &mut out).expect("available");
        out.iter().for_each(|d| unpoison(d.as_ref()));
    }
}

/// One AEAD variant on `b`: encryption (single and batch), a verified decryption, decryptions
/// with a bad tag and with a bad last block (the padding check), and the batch decryption.
fn aead<M: Mode>(b: PBackend) {
    let key = bytes(ProestAead::<M>::KEY_LEN, 1);
    let nonce = bytes(ProestAead::<M>::NONCE_LEN, 2);
    poison(&key);
    let c = ProestAead::<M>::with_backend(&key, b).expect("available");
    // Lengths: empty, partial block, and enough blocks for the wide kernels.
    for len in [0, 17, 1500] {
        let msg = bytes(len, 3);
        let ad = bytes(len / 3, 4);
        poison(&msg);
        poison(&ad);
        let mut ct = c.encrypt(&nonce, &ad, &msg).expect("encrypt");
        unpoison(&ct); // a ciphertext is public
        let mut out = vec![0u8; ProestAead::<M>::max_plaintext_len(ct.len()).unwrap()];
        let n = c.decrypt_into(&nonce, &ad, &ct, &mut out).expect("authentic");
        assert_eq!(n, len);
        // Bad tag (last byte), then a bad body byte in the final block (tag and padding fail).
        for i in [ct.len() - 1, ct.len() - ProestAead::<M>::TAG_LEN - 1] {
            ct[i] ^= 1;
            assert_eq!(c.decrypt_into(&nonce, &ad, &ct, &mut out), Err(Error::Authentication));
            ct[i] ^= 1;
        }
        let packets = [Packet { nonce: &nonce, ad: &ad, msg: &msg }; 3];
        let cts = c.encrypt_batch(&packets).expect("encrypt_batch");
        cts.iter().for_each(|x| unpoison(x));
        let mut bad = cts[1].clone();
        *bad.last_mut().unwrap() ^= 1;
        let packets = [cts[0].as_slice(), bad.as_slice(), cts[2].as_slice()].map(|m| Packet { nonce: &nonce, ad: &ad, msg: m });
        let r = c.decrypt_batch(&packets);
        assert!(r[0].is_ok() && r[1] == Err(Error::Authentication) && r[2].is_ok());
    }
}

fn proest(b: PBackend) {
    aead::<Ape<Proest128>>(b);
    aead::<Copa<Proest128>>(b);
    aead::<Otr<Proest128>>(b);
    aead::<Ape<Proest256>>(b);
    aead::<Copa<Proest256>>(b);
    aead::<Otr<Proest256>>(b);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let negative = args.first().map(String::as_str) == Some("negative");
    // `negative NAME` checks one T-table backend alone (each must be caught on its own).
    let only = args.get(1).map(|n| GBackend::from_name(n).expect("a Grøstl backend name"));
    if !running_on_valgrind() {
        eprintln!("ctgrind: not running under Valgrind: the marks have no effect (run it with `valgrind --error-exitcode=1`)");
    }
    let (mut ran, mut skipped, mut left) = (Vec::new(), Vec::new(), Vec::new());
    for b in GBackend::all().filter(|b| b.is_constant_time() != negative && only.is_none_or(|o| o == *b)) {
        // The negative controls are not backends under test: not recorded.
        let run = if negative { b.is_available() } else { gate("groestl", b.name(), b.is_available(), &mut left) };
        if run {
            groestl(b);
            ran.push(format!("groestl:{b}"));
        } else if !backend_report::other_arch("groestl", b.name()) && !left.contains(&format!("groestl:{b}")) {
            skipped.push(format!("groestl:{b}"));
        }
    }
    if !negative {
        for b in PBackend::all().filter(|b| b.is_constant_time()) {
            if gate("proest", b.name(), b.is_available(), &mut left) {
                proest(b);
                ran.push(format!("proest:{b}"));
            } else if !backend_report::other_arch("proest", b.name()) && !left.contains(&format!("proest:{b}")) {
                skipped.push(format!("proest:{b}"));
            }
        }
    }
    let list = |v: &[String]| if v.is_empty() { "none".to_string() } else { v.join(" ") };
    let mode = if negative { "negative control" } else { "check" };
    println!("ctgrind {mode}: checked {}", list(&ran));
    println!("ctgrind {mode}: skipped (unavailable under Valgrind) {}", list(&skipped));
    if !negative {
        println!("ctgrind {mode}: left to ctdudect (Valgrind cannot run them) {}", list(&left));
    }
    if ran.is_empty() {
        eprintln!("ctgrind {mode}: no backend checked");
        std::process::exit(2);
    }
}
