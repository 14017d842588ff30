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

mod print;
pub(crate) use platform::out;
pub(crate) use print::put_u32;

#[cfg(feature = "bench")]
fn run() -> ! {
    bench::run()
}

#[cfg(not(feature = "bench"))]
fn run() -> ! {
    tests::run()
}

// The entry points and panic handlers are the application's, over the platform layer
// (`platform/*.rs` imports nothing of the crate).
#[cfg(target_arch = "arm")]
#[cortex_m_rt::entry]
fn main() -> ! {
    run()
}

#[cfg(target_arch = "avr")]
#[unsafe(no_mangle)]
extern "C" fn main() -> ! {
    run()
}

#[cfg(target_arch = "arm")]
#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    out("PANIC ");
    if let Some(l) = info.location() {
        out(l.file());
        out(":");
        put_u32(l.line());
    }
    out("\n");
    platform::finish(false)
}

// AVR: no location (its file name strings would cost flash).
#[cfg(target_arch = "avr")]
#[panic_handler]
fn panic(_info: &core::panic::PanicInfo<'_>) -> ! {
    out("PANIC\n");
    platform::finish(false)
}
