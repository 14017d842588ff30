//! dudect-style timing test (Reparaz, Balasch, Verbauwhede, "Dude, is my code constant time?",
//! 2017) for the kernels Valgrind 3.19 cannot run (AVX-512, VAES, GFNI): the `gfni`, `avx512`
//! and `vaes` Grøstl backends and the `avx512` Prøst backend (AEAD encryption and a failing
//! decryption). Inputs of two classes, one fixed and one random, are timed in random order
//! with `rdtsc`; Welch's t statistic of the two timing distributions is computed on the raw
//! samples and on samples cropped at several percentiles (dudect's post-processing). |t| above
//! 10 is dudect's "definitely not constant time" verdict; below 4.5 there is no evidence of a
//! leak. A statistical test can miss a leak that it was not given the inputs to see, so this
//! complements, and does not replace, the Valgrind check of the other backends.
//!
//! The negative control (`negative`) is an early-exit byte comparison, which must be flagged.
//!
//! Every backend of the list (`backend_report::TIMED_BY_DUDECT`) goes into the backend report
//! (`test-support/backend_report.rs`) as ran or skipped, `SLICEWISE_REQUIRE_BACKENDS` makes a
//! skip fail, and the output names what was timed (`ctdudect checked: …`), which
//! `scripts/test-trust.sh` quotes in its verdict.
//!
//! ```text
//! cargo run --profile ctgrind -p slicewise-cli --example ctdudect            # exit 1 if |t| > 10
//! cargo run --profile ctgrind -p slicewise-cli --example ctdudect negative   # must exit 1
//! ```

use std::hint::black_box;

use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use slicewise_groestl::{Backend as GBackend, Groestl, Variant};
use slicewise_proest::{Backend as PBackend, ProestApe256, ProestCopa128, ProestOtr256};

#[path = "../../../test-support/backend_report.rs"]
mod backend_report;

/// Number of timed calls per target (both classes together).
const N: usize = 100_000;
/// dudect's threshold for a leak.
const T_LEAK: f64 = 10.0;

// The clock: rdtsc on x86-64; elsewhere a nanosecond clock (the kernels under test are x86-64
// only, the negative control runs).
use slicewise_platform::ticks;

/// Welch's t of two samples.
fn welch(a: &[f64], b: &[f64]) -> f64 {
    let stats = |x: &[f64]| {
        let n = x.len() as f64;
        let m = x.iter().sum::<f64>() / n;
        let v = x.iter().map(|y| (y - m) * (y - m)).sum::<f64>() / (n - 1.0);
        (n, m, v)
    };
    let ((na, ma, va), (nb, mb, vb)) = (stats(a), stats(b));
    (ma - mb) / (va / na + vb / nb).sqrt()
}

/// Times `f(class, input)` for `N` random class choices; `input(class, rng)` makes the input.
/// Returns the largest |t| over the raw and cropped samples.
fn dudect<I>(name: &str, mut input: impl FnMut(bool, &mut ChaCha8Rng) -> I, mut f: impl FnMut(&I)) -> f64 {
    let mut rng = ChaCha8Rng::seed_from_u64(0xd0de);
    let classes: Vec<bool> = (0..N).map(|_| rng.random()).collect();
    let inputs: Vec<I> = classes.iter().map(|&c| input(c, &mut rng)).collect();
    for x in inputs.iter().take(1000) {
        f(x); // warm-up
    }
    let times: Vec<u64> = inputs
        .iter()
        .map(|x| {
            let t0 = ticks();
            f(x);
            ticks() - t0
        })
        .collect();
    let mut sorted = times.clone();
    sorted.sort_unstable();
    let mut worst: f64 = 0.0;
    for pct in [100.0, 99.0, 95.0, 90.0, 75.0, 50.0] {
        let cut = sorted[((sorted.len() - 1) as f64 * pct / 100.0) as usize];
        let (a, b): (Vec<(bool, f64)>, Vec<(bool, f64)>) =
            classes.iter().zip(&times).filter(|&(_, &t)| t <= cut).map(|(&c, &t)| (c, t as f64)).partition(|&(c, _)| c);
        let t = welch(&a.iter().map(|x| x.1).collect::<Vec<_>>(), &b.iter().map(|x| x.1).collect::<Vec<_>>());
        worst = worst.max(t.abs());
    }
    println!("ctdudect {name:<34} max |t| = {worst:6.2} over {N} calls {}", if worst > T_LEAK { "LEAK" } else { "ok" });
    worst
}

/// Fixed class: all-zero bytes; random class: random bytes.
fn bytes(fixed: bool, n: usize, rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut v = vec![0u8; n];
    if !fixed {
        rng.fill_bytes(&mut v);
    }
    v
}

fn main() {
    let negative = std::env::args().nth(1).as_deref() == Some("negative");
    let mut worst: f64 = 0.0;
    if negative {
        // Early-exit comparison against zeros: the fixed class (all zeros) runs to the end, the
        // random class stops at the first byte.
        worst = dudect("negative control: early-exit compare", |c, r| bytes(c, 512, r), |x| {
            black_box(x.iter().position(|&b| b != 0));
        });
    } else {
        let (mut ran, mut skipped) = (Vec::<String>::new(), Vec::new());
        let timed = |p: &str, name: &str| backend_report::TIMED_BY_DUDECT.contains(&format!("{p}:{name}").as_str());
        for b in GBackend::all().filter(|b| timed("groestl", b.name())) {
            if !backend_report::gate("groestl", b.name(), b.is_available(), "ctdudect") {
                if !backend_report::other_arch("groestl", b.name()) {
                    skipped.push(format!("groestl:{b}"));
                }
                continue;
            }
            ran.push(format!("groestl:{b}"));
            for v in [Variant::Groestl256, Variant::Groestl512] {
                worst = worst.max(dudect(&format!("groestl:{b} {v:?} 200 B"), |c, r| bytes(c, 200, r), |m| {
                    let mut h = Groestl::with_backend(v, b).unwrap();
                    h.update(m);
                    black_box(h.finalize());
                }));
            }
        }
        if timed("proest", PBackend::Avx512.name()) && backend_report::gate("proest", PBackend::Avx512.name(), PBackend::Avx512.is_available(), "ctdudect") {
            ran.push("proest:avx512".into());
            let key = [7u8; 32];
            let ape = ProestApe256::with_backend(&key, PBackend::Avx512).unwrap();
            worst = worst.max(dudect("proest:avx512 APE-256 encrypt 256 B", |c, r| bytes(c, 256, r), |m| {
                black_box(ape.encrypt(&[1u8; 64], &[], m).unwrap());
            }));
            let copa = ProestCopa128::with_backend(&key, PBackend::Avx512).unwrap();
            worst = worst.max(dudect("proest:avx512 COPA-128 encrypt 1 KiB", |c, r| bytes(c, 1024, r), |m| {
                black_box(copa.encrypt(&[1u8; 16], &[], m).unwrap());
            }));
            // Decryption of forgeries: the verdict is always "reject", so the timing may depend
            // on nothing; fixed class all-zero ciphertext, random class random ciphertext.
            let otr = ProestOtr256::with_backend(&[9u8; 64], PBackend::Avx512).unwrap();
            let mut out = vec![0u8; 2048];
            let ct_len = ProestOtr256::ciphertext_len(1000).unwrap();
            worst = worst.max(dudect("proest:avx512 OTR-256 decrypt forgery", |c, r| bytes(c, ct_len, r), |ct| {
                black_box(otr.decrypt_into(&[1u8; 32], &[], ct, &mut out).unwrap_err());
            }));
        } else if !backend_report::other_arch("proest", PBackend::Avx512.name()) {
            skipped.push("proest:avx512".into());
        }
        let list = |v: &[String]| if v.is_empty() { "none".to_string() } else { v.join(" ") };
        println!("ctdudect checked: {}", list(&ran));
        println!("ctdudect skipped (not available on this CPU): {}", list(&skipped));
    }
    println!("ctdudect: max |t| = {worst:.2} (threshold {T_LEAK})");
    std::process::exit(if worst > T_LEAK { 1 } else { 0 });
}
