//! Cortex-M under QEMU: output and exit through ARM semihosting, test data read in place.

use cortex_m_semihosting::{debug, hio};

/// Writes text to the host's stdout.
pub fn out(s: &str) {
    if let Ok(mut h) = hio::hstdout() {
        let _ = h.write_all(s.as_bytes());
    }
}

/// Copies `dst.len()` bytes of test data from `src` (flash is ordinary memory here).
pub fn rom_copy(src: &'static [u8], dst: &mut [u8]) {
    dst.copy_from_slice(src);
}

/// Ends the run: QEMU exits with status 0 on success, 1 otherwise.
pub fn finish(pass: bool) -> ! {
    debug::exit(if pass { debug::EXIT_SUCCESS } else { debug::EXIT_FAILURE });
    loop {
        cortex_m::asm::bkpt();
    }
}

/// The stack pointer.
#[cfg(feature = "bench")]
pub fn stack_pointer() -> usize {
    cortex_m::register::msp::read() as usize
}

/// Marks the start or end of a measured interval for the instruction-trace analysis
/// (`embedded/cycles.py` counts the instructions between consecutive calls).
#[inline(never)]
#[unsafe(no_mangle)]
pub extern "C" fn bench_mark() {
    cortex_m::asm::nop();
}

#[cfg(feature = "bench")]
pub fn cycles_start() {
    bench_mark();
}

/// No cycle counter under QEMU: 0 (the trace gives the count).
#[cfg(feature = "bench")]
pub fn cycles_stop() -> u32 {
    bench_mark();
    0
}
