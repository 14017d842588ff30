//! Decimal output without `core::fmt` (which costs kilobytes of flash on AVR).

use crate::out;

/// Prints a number in decimal.
pub(crate) fn put_u32(mut n: u32) {
    let mut buf = [0u8; 10];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out(core::str::from_utf8(&buf[i..]).unwrap_or("?"));
}

