//! On-target known-answer tests of slicewise (issue 11): Grøstl Short/Long KAT records, the
//! Groestlcoin double hash, Prøst AEAD vectors (encrypt, decrypt, rejection of a tampered
//! ciphertext) and the Prøst permutation, on every backend the target has. Prints one line
//! per group and `RESULT: PASS` or `RESULT: FAIL`; `embedded/run.sh` looks for the verdict.
//! With `--features bench` the image is the measurement firmware instead (`src/bench.rs`).
#![no_std]
#![no_main]
// The measurement build leaves the test helpers unused.
#![cfg_attr(feature = "bench", allow(dead_code))]
#![cfg_attr(target_arch = "avr", feature(asm_experimental_arch))]
#![cfg_attr(all(target_arch = "avr", feature = "bench"), feature(abi_avr_interrupt))]

#[cfg_attr(target_arch = "arm", path = "platform/arm.rs")]
#[cfg_attr(target_arch = "avr", path = "platform/avr.rs")]
mod platform;
#[cfg(feature = "bench")]
mod bench;
#[cfg(not(feature = "bench"))]
mod tests;

#[allow(dead_code)]
mod vectors {
    include!(concat!(env!("OUT_DIR"), "/vectors.rs"));
}

mod print;
pub(crate) use platform::out;
pub(crate) use print::put_u32;

/// Pass/fail counts of one group of checks.
pub(crate) struct Tally {
    pub pass: u32,
    pub fail: u32,
}

impl Tally {
    pub fn new() -> Tally {
        Tally { pass: 0, fail: 0 }
    }

    /// Records one check; a failure is printed with its group and record index.
    pub fn check(&mut self, ok: bool, what: &str, index: u32) {
        if ok {
            self.pass += 1;
        } else {
            self.fail += 1;
            if self.fail <= 8 {
                out("  FAIL ");
                out(what);
                out(" #");
                put_u32(index);
                out("\n");
            }
        }
    }

    /// Prints `name [extra]: N passed, M failed` and folds the counts into `total`.
    pub fn report(self, name: &str, extra: &str, total: &mut Tally) {
        out(name);
        out(" [");
        out(extra);
        out("]: ");
        put_u32(self.pass);
        out(" passed, ");
        put_u32(self.fail);
        out(" failed\n");
        total.pass += self.pass;
        total.fail += self.fail;
    }
}

#[cfg(feature = "bench")]
fn run() -> ! {
    bench::run()
}

#[cfg(not(feature = "bench"))]
fn run() -> ! {
    let mut total = Tally::new();
    tests::all(&mut total);
    out("total: ");
    put_u32(total.pass);
    out(" passed, ");
    put_u32(total.fail);
    out(" failed\n");
    let pass = total.fail == 0 && total.pass > 0;
    out(if pass { "RESULT: PASS\n" } else { "RESULT: FAIL\n" });
    platform::finish(pass)
}
