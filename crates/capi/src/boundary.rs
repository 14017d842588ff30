//! The C boundary every entry point crosses: the return codes, [`guard`] (no panic unwinds into
//! C) and the checks that turn C pointers and lengths into slices. Below `groestl.rs` and
//! `proest.rs`, which use it, and `lib.rs`, which re-exports the codes.

use core::ffi::{CStr, c_char, c_int, c_ulonglong};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Mutex, PoisonError};

/// Success.
pub const SLICEWISE_OK: c_int = 0;
/// Decryption failed: the ciphertext (or its length), tag, nonce, associated data or key do
/// not match. The same value as SUPERCOP's `crypto_aead_decrypt` failure.
pub const SLICEWISE_ERR_VERIFY: c_int = -1;
/// A pointer that has to point to data (a non-zero length, an output, a state) is NULL.
pub const SLICEWISE_ERR_NULL: c_int = -2;
/// A length does not fit this platform's address space or its result would overflow.
pub const SLICEWISE_ERR_LENGTH: c_int = -3;
/// An argument is out of range: a digest size other than 224/256/384/512, or an input that
/// overlaps the hash state it is fed to.
pub const SLICEWISE_ERR_ARGUMENT: c_int = -4;
/// The backend named (by argument or by the `SLICEWISE_BACKEND` environment variable) is
/// unknown or this CPU cannot run it.
pub const SLICEWISE_ERR_BACKEND: c_int = -5;
/// The hash state was not initialised by `slicewise_groestl_init*`, or was already finalised.
pub const SLICEWISE_ERR_STATE: c_int = -6;
/// An internal error (a bug in slicewise, caught before it could reach the caller).
pub const SLICEWISE_ERR_INTERNAL: c_int = -7;
/// Memory for a private copy of an input that overlaps the output could not be allocated
/// (the only allocation the hashing and AEAD functions may make).
pub const SLICEWISE_ERR_NOMEM: c_int = -8;

/// Runs an entry point's body, mapping `Ok` to `SLICEWISE_OK`, `Err(code)` to `code` and a
/// panic to `SLICEWISE_ERR_INTERNAL`: no panic unwinds across the C boundary.
pub(crate) fn guard(body: impl FnOnce() -> Result<(), c_int>) -> c_int {
    // `AssertUnwindSafe`: after a panic the caller sees only an error code, and every output
    // is either rewritten by the caller's cleanup (decryption wipes its buffer) or documented
    // as unspecified on error.
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => SLICEWISE_OK,
        Ok(Err(code)) => code,
        Err(_) => SLICEWISE_ERR_INTERNAL,
    }
}

/// A C length as `usize`, or `SLICEWISE_ERR_LENGTH` if no buffer can be that long.
pub(crate) fn length(len: c_ulonglong) -> Result<usize, c_int> {
    usize::try_from(len)
        .ok()
        .filter(|&n| n <= isize::MAX as usize)
        .ok_or(SLICEWISE_ERR_LENGTH)
}

/// `len` bytes at `p` as a slice. NULL is accepted for an empty input only.
///
/// # Safety
/// If `len > 0` and `p` is not NULL, `p` must point to `len` readable bytes that nothing
/// writes to while the returned slice lives.
pub(crate) unsafe fn input<'a>(p: *const u8, len: usize) -> Result<&'a [u8], c_int> {
    if len == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(SLICEWISE_ERR_NULL);
    }
    // SAFETY: `p` is non-null and, by this function's contract, valid for `len` bytes that are
    // not written while the slice lives; `len <= isize::MAX` was checked by `length`.
    Ok(unsafe { core::slice::from_raw_parts(p, len) })
}

/// Whether the byte ranges `[a, a + a_len)` and `[b, b + b_len)` share a byte.
pub(crate) fn overlaps(a: *const u8, a_len: usize, b: *const u8, b_len: usize) -> bool {
    let (a, b) = (a as usize, b as usize);
    a_len > 0 && b_len > 0 && a < b.wrapping_add(b_len) && b < a.wrapping_add(a_len)
}

/// A static C string holding `name`; each distinct name is allocated once per process.
pub(crate) fn c_name(name: &'static str) -> *const c_char {
    static NAMES: Mutex<Vec<(&'static str, &'static CStr)>> = Mutex::new(Vec::new());
    let mut names = NAMES.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, c)) = names.iter().find(|(n, _)| *n == name) {
        return c.as_ptr();
    }
    let Ok(owned) = std::ffi::CString::new(name) else {
        return core::ptr::null();
    };
    // Leaked on purpose: the returned pointer is valid for the life of the process, and the
    // set of backend names is fixed, so at most one allocation per name is ever made.
    let c: &'static CStr = Box::leak(owned.into_boxed_c_str());
    names.push((name, c));
    c.as_ptr()
}
