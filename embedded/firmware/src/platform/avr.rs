//! ATmega1284P under simavr: output on USART0 (simavr prints it on stderr), test data in
//! program memory read with `LPM`, exit by sleeping with interrupts off (simavr then stops).

use core::arch::asm;
use core::ptr::{read_volatile, write_volatile};

const UCSR0A: *mut u8 = 0xC0 as *mut u8;
const UCSR0B: *mut u8 = 0xC1 as *mut u8;
const UDR0: *mut u8 = 0xC6 as *mut u8;
const UDRE0: u8 = 1 << 5;
const TXEN0: u8 = 1 << 3;

fn put_byte(b: u8) {
    // SAFETY: USART0 registers of the ATmega1284P, memory-mapped at these data addresses.
    unsafe {
        write_volatile(UCSR0B, TXEN0);
        while read_volatile(UCSR0A) & UDRE0 == 0 {}
        write_volatile(UDR0, b);
    }
}

/// Writes text to USART0.
pub fn out(s: &str) {
    s.bytes().for_each(put_byte);
}

/// Copies `dst.len()` bytes of test data from program memory. `src` is a `.progmem.data`
/// static: its address is a flash byte address below 64 KiB (the linker places `.progmem`
/// right after the vectors), never dereferenced as data memory.
pub fn rom_copy(src: &'static [u8], dst: &mut [u8]) {
    assert!(dst.len() <= src.len());
    let mut z = src.as_ptr() as u16;
    for d in dst.iter_mut() {
        let b: u8;
        // SAFETY: `LPM r, Z+` reads one flash byte at Z and increments Z; `z` stays within
        // `src`, a progmem object, because `dst` is no longer than `src`.
        unsafe { asm!("lpm {b}, Z+", b = out(reg) b, inout("Z") z, options(nostack, preserves_flags, readonly)) };
        *d = b;
    }
}

/// Ends the run: interrupts off and `SLEEP`, which simavr takes as the end of the program.
pub fn finish(_pass: bool) -> ! {
    loop {
        // SAFETY: disables interrupts and sleeps; nothing runs afterwards.
        unsafe { asm!("cli", "sleep") };
    }
}

#[unsafe(no_mangle)]
extern "C" fn main() -> ! {
    crate::run()
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo<'_>) -> ! {
    out("PANIC\n");
    finish(false)
}
