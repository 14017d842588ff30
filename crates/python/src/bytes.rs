//! Bytes-like arguments, and running work with the interpreter released.
//!
//! The module is built for the stable ABI of CPython 3.9, whose limited API has no buffer
//! protocol (`PyObject_GetBuffer` joined it in 3.11). `bytes` arguments are therefore read in
//! place, through `PyBytes_AsString`, and every other object that supports the buffer protocol
//! (`bytearray`, `memoryview`, `array.array`, NumPy arrays, `mmap`, …) is copied once into a
//! `bytes` object by `memoryview(obj).tobytes()` (C order for non-contiguous views). The copy
//! runs at memory speed, several times faster than any of the hashes or ciphers here.
//!
//! A side effect the thread-safety argument relies on: what Rust reads is always an immutable
//! `bytes` object kept alive by the caller's frame, so nothing can change under a computation
//! that runs with the interpreter released.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyMemoryView, PyString};

/// Inputs at least this long are processed with the interpreter released (`Python::detach`), so
/// that other Python threads run meanwhile. Below it, releasing and re-taking the interpreter
/// costs more than the work (a Grøstl block takes well under a microsecond).
pub(crate) const RELEASE_THRESHOLD: usize = 8 * 1024;

/// The bytes of a bytes-like object, as an immutable `bytes` object.
///
/// `str` raises `TypeError` ("Strings must be encoded before hashing", as `hashlib` says), and
/// so does any object without the buffer protocol.
pub(crate) fn as_bytes<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(b.clone());
    }
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err("Strings must be encoded before hashing"));
    }
    let view = PyMemoryView::from(obj).map_err(|_| {
        let ty = obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into());
        PyTypeError::new_err(format!("a bytes-like object is required, not '{ty}'"))
    })?;
    Ok(view.call_method0("tobytes")?.cast_into::<PyBytes>()?)
}

/// Runs `f` with the interpreter released when `len` is at least [`RELEASE_THRESHOLD`].
pub(crate) fn maybe_detach<T: Send>(py: Python<'_>, len: usize, f: impl FnOnce() -> T + Send) -> T {
    if len >= RELEASE_THRESHOLD { py.detach(f) } else { f() }
}
