//! Grøstl hash objects with the `hashlib` interface, and Groestlcoin's hash.

use std::sync::{Mutex, MutexGuard, PoisonError};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use slicewise_groestl::{Backend, DigestBytes, Groestl, Variant};

use crate::bytes::{RELEASE_THRESHOLD, as_bytes, maybe_detach};

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<GroestlHash>()?;
    m.add_function(wrap_pyfunction!(groestl224, m)?)?;
    m.add_function(wrap_pyfunction!(groestl256, m)?)?;
    m.add_function(wrap_pyfunction!(groestl384, m)?)?;
    m.add_function(wrap_pyfunction!(groestl512, m)?)?;
    m.add_function(wrap_pyfunction!(new, m)?)?;
    m.add_function(wrap_pyfunction!(groestlcoin_hash, m)?)?;
    m.add_function(wrap_pyfunction!(groestlcoin_hash_many, m)?)?;
    m.add_function(wrap_pyfunction!(hash_bits, m)?)?;
    m.add_function(wrap_pyfunction!(groestl_backends, m)?)?;
    m.add_function(wrap_pyfunction!(groestl_default_backend, m)?)?;
    m.add("AUTO", AUTO)?;
    m.add("algorithms_available", ("groestl224", "groestl256", "groestl384", "groestl512"))?;
    Ok(())
}

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The backend named by `name`, or the process-wide one (`SLICEWISE_BACKEND`, else the fastest
/// constant-time backend of this CPU). Unknown or unavailable names raise `ValueError`.
fn backend(name: Option<&str>) -> PyResult<Backend> {
    match name {
        Some(n) => Backend::from_name(n).and_then(Backend::check).map_err(value_error),
        None => Backend::selected().map_err(value_error),
    }
}

/// The hashlib-style name of a variant: `groestl256`.
fn py_name(v: Variant) -> &'static str {
    match v {
        Variant::Groestl224 => "groestl224",
        Variant::Groestl256 => "groestl256",
        Variant::Groestl384 => "groestl384",
        Variant::Groestl512 => "groestl512",
    }
}

/// Accepts `groestl256`, `groestl-256`, `groestl_256` and `GROESTL256`.
fn variant_from_name(name: &str) -> Option<Variant> {
    let norm: String = name.chars().filter(|c| *c != '-' && *c != '_').collect::<String>().to_ascii_lowercase();
    Variant::ALL.into_iter().find(|v| py_name(*v) == norm)
}

fn lock(m: &Mutex<Groestl>) -> MutexGuard<'_, Groestl> {
    // A panic while holding the lock can only come from a bug in the hash code; the state is
    // plain data, so carry on with it rather than poison every later call.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A Grøstl hash object (`hashlib` interface). Safe to share between threads: the state is
/// behind a lock, and `update` of large inputs runs with the interpreter released.
#[pyclass(frozen, module = "slicewise", name = "GroestlHash")]
pub(crate) struct GroestlHash {
    state: Mutex<Groestl>,
    variant: Variant,
    backend: Backend,
}

impl GroestlHash {
    fn create(
        py: Python<'_>,
        variant: Variant,
        data: Option<&Bound<'_, PyAny>>,
        backend_name: Option<&str>,
    ) -> PyResult<Self> {
        let backend = backend(backend_name)?;
        let h = Groestl::with_backend(variant, backend).map_err(value_error)?;
        let obj = GroestlHash { state: Mutex::new(h), variant, backend };
        if let Some(d) = data {
            obj.absorb(py, d)?;
        }
        Ok(obj)
    }

    /// Runs `f` on the state. If another thread holds the lock (it is hashing a long input with
    /// the interpreter released), waits for it with the interpreter released too, so that
    /// other Python threads are not stalled meanwhile.
    fn with_state<T: Send>(&self, py: Python<'_>, f: impl FnOnce(&mut Groestl) -> T + Send) -> T {
        if let Ok(mut g) = self.state.try_lock() {
            return f(&mut g);
        }
        py.detach(|| f(&mut lock(&self.state)))
    }

    fn absorb(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let b = as_bytes(data)?;
        let s = b.as_bytes();
        if s.len() >= RELEASE_THRESHOLD {
            py.detach(|| {
                lock(&self.state).update(s);
            });
        } else {
            self.with_state(py, |g| {
                g.update(s);
            });
        }
        Ok(())
    }

    fn finish(&self, py: Python<'_>) -> DigestBytes {
        self.with_state(py, |g| g.clone()).finalize()
    }
}

#[pymethods]
impl GroestlHash {
    /// Hashes more data (any bytes-like object).
    fn update(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        self.absorb(py, data)
    }

    /// The digest of the data so far (the object can still be updated).
    fn digest<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.finish(py).as_ref())
    }

    /// The digest as a string of hexadecimal digits.
    fn hexdigest(&self, py: Python<'_>) -> String {
        format!("{:x}", self.finish(py))
    }

    /// An independent copy of this hash object.
    fn copy(&self, py: Python<'_>) -> Self {
        GroestlHash {
            state: Mutex::new(self.with_state(py, |g| g.clone())),
            variant: self.variant,
            backend: self.backend,
        }
    }

    /// The hashlib-style name, e.g. `groestl256`.
    #[getter]
    fn name(&self) -> &'static str {
        py_name(self.variant)
    }

    /// Digest length in bytes.
    #[getter]
    fn digest_size(&self) -> usize {
        self.variant.output_len()
    }

    /// Internal block length in bytes (64 for Grøstl-224/256, 128 for Grøstl-384/512).
    #[getter]
    fn block_size(&self) -> usize {
        self.variant.block_len()
    }

    /// The name of the backend that computes this hash.
    #[getter]
    fn backend(&self) -> &'static str {
        self.backend.name()
    }

    fn __repr__(&self) -> String {
        format!("<{} hash object (backend {})>", py_name(self.variant), self.backend())
    }
}

macro_rules! constructor {
    ($fn:ident, $variant:ident, $doc:literal) => {
        #[doc = $doc]
        #[pyfunction]
        #[pyo3(signature = (data = None, *, backend = None, usedforsecurity = true))]
        fn $fn(
            py: Python<'_>,
            data: Option<&Bound<'_, PyAny>>,
            backend: Option<&str>,
            usedforsecurity: bool,
        ) -> PyResult<GroestlHash> {
            let _ = usedforsecurity;
            GroestlHash::create(py, Variant::$variant, data, backend)
        }
    };
}

constructor!(groestl224, Groestl224, "A Grøstl-224 hash object, optionally fed `data`.");
constructor!(groestl256, Groestl256, "A Grøstl-256 hash object, optionally fed `data`.");
constructor!(groestl384, Groestl384, "A Grøstl-384 hash object, optionally fed `data`.");
constructor!(groestl512, Groestl512, "A Grøstl-512 hash object, optionally fed `data`.");

/// A hash object for the named algorithm (`groestl224` … `groestl512`; `groestl-256` and
/// `groestl_256` are accepted too), like `hashlib.new`.
#[pyfunction]
#[pyo3(signature = (name, data = None, *, backend = None, usedforsecurity = true))]
fn new(
    py: Python<'_>,
    name: &str,
    data: Option<&Bound<'_, PyAny>>,
    backend: Option<&str>,
    usedforsecurity: bool,
) -> PyResult<GroestlHash> {
    let _ = usedforsecurity;
    let v = variant_from_name(name).ok_or_else(|| PyValueError::new_err(format!("unsupported hash type {name}")))?;
    GroestlHash::create(py, v, data, backend)
}

/// The digest of a message of `bit_length` bits (the NIST KAT convention: `data` holds
/// `ceil(bit_length / 8)` bytes, the final partial byte's bits in its high positions). For
/// messages that are not a whole number of bytes, which `hashlib`-style objects cannot express.
#[pyfunction]
#[pyo3(signature = (name, data, bit_length, *, backend = None))]
fn hash_bits<'py>(
    py: Python<'py>,
    name: &str,
    data: &Bound<'py, PyAny>,
    bit_length: u64,
    backend: Option<&str>,
) -> PyResult<Bound<'py, PyBytes>> {
    let v = variant_from_name(name).ok_or_else(|| PyValueError::new_err(format!("unsupported hash type {name}")))?;
    let b = self::backend(backend)?;
    let input = as_bytes(data)?;
    let s = input.as_bytes();
    if (s.len() as u64) < bit_length.div_ceil(8) {
        return Err(PyValueError::new_err(format!(
            "{bit_length} bits need {} bytes of data, got {}",
            bit_length.div_ceil(8),
            s.len()
        )));
    }
    let d = maybe_detach(py, s.len(), || slicewise_groestl::hash_bits(v, b, s, bit_length)).map_err(value_error)?;
    Ok(PyBytes::new(py, d.as_ref()))
}

/// Names of every Grøstl backend this CPU can run, fastest constant-time first.
#[pyfunction]
fn groestl_backends() -> Vec<&'static str> {
    Backend::all().filter(|b| b.is_available()).map(Backend::name).collect()
}

/// The backend new hash objects use when none is named.
#[pyfunction]
fn groestl_default_backend() -> PyResult<&'static str> {
    Ok(backend(None)?.name())
}

fn g512(b: Backend, data: &[u8]) -> DigestBytes {
    let mut h = Groestl::with_backend(Variant::Groestl512, b).expect("backend checked");
    h.update(data);
    h.finalize()
}

fn coin_hash(b: Backend, data: &[u8]) -> [u8; 32] {
    let second = g512(b, g512(b, data).as_ref());
    let mut out = [0u8; 32];
    out.copy_from_slice(&second.as_ref()[..32]);
    out
}

/// Groestlcoin's hash: the first 32 bytes of Grøstl-512(Grøstl-512(`data`)), equal to
/// `groestlcoin_hash.getHash(data, len(data))`.
#[pyfunction]
#[pyo3(signature = (data, *, backend = None))]
fn groestlcoin_hash<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    backend: Option<&str>,
) -> PyResult<Bound<'py, PyBytes>> {
    let b = self::backend(backend)?;
    let input = as_bytes(data)?;
    let s = input.as_bytes();
    let out = maybe_detach(py, s.len(), || coin_hash(b, s));
    Ok(PyBytes::new(py, &out))
}

/// Groestlcoin's hash of every item of `items` (bytes-like objects), as a list of 32-byte
/// digests, through the multi-buffer kernels (several messages in lockstep; on `gfni` four per
/// pass). 80-byte block headers take the `groestlcoin_hash_many` path of the Rust crate; other
/// lengths two rounds of `hash_many`. The work runs with the interpreter released.
///
/// `max_threads` (as in blake3-py): 1, the default, hashes on the calling thread; `n > 1` splits
/// a large batch into up to `n` contiguous parts hashed on scoped threads; `AUTO` (-1) uses the
/// machine's available parallelism. A part is never smaller than [`MIN_PER_THREAD`] messages,
/// so small batches stay on one thread whatever the setting.
#[pyfunction]
#[pyo3(signature = (items, *, backend = None, max_threads = 1))]
fn groestlcoin_hash_many<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    backend: Option<&str>,
    max_threads: isize,
) -> PyResult<Bound<'py, PyList>> {
    if items.is_instance_of::<PyBytes>() || items.is_instance_of::<pyo3::types::PyString>() {
        return Err(PyTypeError::new_err(
            "groestlcoin_hash_many takes an iterable of bytes-like objects, not a single one",
        ));
    }
    let threads = match max_threads {
        AUTO => std::thread::available_parallelism().map_or(1, usize::from),
        n if n >= 1 => n as usize,
        n => return Err(PyValueError::new_err(format!("max_threads must be >= 1 or AUTO (-1), not {n}"))),
    };
    let b = self::backend(backend)?;
    let objs: Vec<Bound<'py, PyBytes>> = items.try_iter()?.map(|it| as_bytes(&it?)).collect::<PyResult<_>>()?;
    let slices: Vec<&[u8]> = objs.iter().map(|o| o.as_bytes()).collect();
    let parts = threads.min(slices.len() / MIN_PER_THREAD).max(1);
    // Each message costs at least two Grøstl-512 blocks (256 bytes of work), whatever its length.
    let work: usize = slices.iter().map(|s| s.len().max(256)).sum();
    let digests = if parts == 1 {
        maybe_detach(py, work, || many(b, &slices))
    } else {
        py.detach(|| many_threaded(b, &slices, parts))
    };
    PyList::new(py, digests.iter().map(|d| PyBytes::new(py, d)))
}

/// `max_threads` value meaning "the machine's available parallelism" (blake3-py's `AUTO`).
pub(crate) const AUTO: isize = -1;

/// Fewest messages one thread of `groestlcoin_hash_many` gets: 256 headers are about 0.1 ms of
/// work, several times the cost of starting a thread.
const MIN_PER_THREAD: usize = 256;

/// `many` over `parts` contiguous parts of `inputs` on scoped threads, results in input order.
fn many_threaded(b: Backend, inputs: &[&[u8]], parts: usize) -> Vec<[u8; 32]> {
    let chunk = inputs.len().div_ceil(parts);
    std::thread::scope(|s| {
        let handles: Vec<_> = inputs.chunks(chunk).map(|c| s.spawn(move || many(b, c))).collect();
        // A panic in a part (a broken invariant, never bad input) is re-raised here.
        handles.into_iter().flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    })
}

fn many(b: Backend, inputs: &[&[u8]]) -> Vec<[u8; 32]> {
    let mut out = vec![[0u8; 32]; inputs.len()];
    if inputs.iter().all(|s| s.len() == 80) {
        let headers: Vec<[u8; 80]> = inputs.iter().map(|s| <[u8; 80]>::try_from(*s).expect("80 bytes")).collect();
        slicewise_groestl::groestlcoin_hash_many(b, &headers, &mut out).expect("backend checked");
        return out;
    }
    let mut first = vec![DigestBytes::default(); inputs.len()];
    slicewise_groestl::hash_many(Variant::Groestl512, b, inputs, &mut first).expect("backend checked");
    let mids: Vec<&[u8]> = first.iter().map(AsRef::as_ref).collect();
    let mut second = vec![DigestBytes::default(); inputs.len()];
    slicewise_groestl::hash_many(Variant::Groestl512, b, &mids, &mut second).expect("backend checked");
    for (o, d) in out.iter_mut().zip(&second) {
        o.copy_from_slice(&d.as_ref()[..32]);
    }
    out
}
