//! ATmega1284P under simavr: output on USART0 (simavr prints it on stderr), test data in
//! program memory read with `LPM`, exit by sleeping with interrupts off (simavr then stops).

// The Timer1 items serve the measurement build only.
#![cfg_attr(not(feature = "bench"), allow(dead_code))]

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

/// Timer1 overflows since `cycles_start` (Timer1 counts CPU cycles, prescaler 1).
static mut OVERFLOWS: u16 = 0;

#[cfg(feature = "bench")]
#[unsafe(no_mangle)]
extern "avr-interrupt" fn __vector_15() {
    // SAFETY: the only writer; `cycles` reads it with interrupts off.
    unsafe { OVERFLOWS = OVERFLOWS.wrapping_add(1) };
}

const TCCR1A: *mut u8 = 0x80 as *mut u8;
const TCCR1B: *mut u8 = 0x81 as *mut u8;
const TCNT1L: *mut u8 = 0x84 as *mut u8;
const TCNT1H: *mut u8 = 0x85 as *mut u8;
const TIMSK1: *mut u8 = 0x6F as *mut u8;
const TIFR1: *mut u8 = 0x36 as *mut u8;

/// Starts counting CPU cycles: Timer1 from 0 at prescaler 1, its overflow interrupt on.
#[cfg(feature = "bench")]
pub fn cycles_start() {
    // SAFETY: Timer1 registers of the ATmega1284P; OVERFLOWS is only touched with interrupts
    // off or from its ISR.
    unsafe {
        asm!("cli");
        write_volatile(TCCR1B, 0);
        write_volatile(TCCR1A, 0);
        write_volatile(TCNT1H, 0);
        write_volatile(TCNT1L, 0);
        write_volatile(TIFR1, 1);
        OVERFLOWS = 0;
        write_volatile(TIMSK1, 1);
        write_volatile(TCCR1B, 1);
        asm!("sei");
    }
}

/// Cycles since `cycles_start` (then stops the timer).
#[cfg(feature = "bench")]
pub fn cycles_stop() -> u32 {
    // SAFETY: as in `cycles_start`; TCNT1L is read first (it latches TCNT1H).
    // The timer keeps running while it is read (simavr loses the count of a stopped timer); an
    // overflow pending but not yet serviced counts if the read value is from after it.
    unsafe {
        asm!("cli");
        let lo = read_volatile(TCNT1L);
        let hi = read_volatile(TCNT1H);
        let mut n = OVERFLOWS;
        if read_volatile(TIFR1) & 1 != 0 && hi < 0x80 {
            n += 1;
        }
        write_volatile(TCCR1B, 0);
        (u32::from(n) << 16) | (u32::from(hi) << 8) | u32::from(lo)
    }
}

/// The stack pointer.
#[cfg(feature = "bench")]
pub fn stack_pointer() -> usize {
    // SAFETY: SPL/SPH, read-only here.
    unsafe { usize::from(read_volatile(0x5D as *const u8)) | (usize::from(read_volatile(0x5E as *const u8)) << 8) }
}
