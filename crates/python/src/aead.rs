//! The Prøst AEADs, shaped like pyca/cryptography's AEAD classes (`AESGCM`, `ChaCha20Poly1305`):
//! `Cls(key)`, `encrypt(nonce, data, associated_data)`, `decrypt(nonce, data, associated_data)`,
//! `Cls.generate_key()`.
//!
//! The key lives inside the Rust cipher object, which wipes it when dropped (the
//! `slicewise-proest` types zeroize their key material); this module makes no other copy of a
//! `bytes` key (a key given as another bytes-like type passes through a temporary `bytes` object,
//! which Python frees without wiping, as it does the caller's own key object), and
//! `generate_key` wipes its buffer. Decryption returns no plaintext unless the tag and the padding verify (the Rust
//! crate checks both in constant time and wipes its output on failure); the failure is
//! `slicewise.InvalidTag`, whatever check failed.

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyOverflowError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyType};
use slicewise_proest::{Backend, Error};
use zeroize::Zeroizing;

use crate::bytes::{as_bytes, maybe_detach};

create_exception!(
    slicewise,
    InvalidTag,
    PyException,
    "Decryption failed: the ciphertext, tag, nonce, associated data or key do not match. \
     No plaintext is returned."
);

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ProestApe128>()?;
    m.add_class::<ProestCopa128>()?;
    m.add_class::<ProestOtr128>()?;
    m.add_class::<ProestApe256>()?;
    m.add_class::<ProestCopa256>()?;
    m.add_class::<ProestOtr256>()?;
    m.add_function(wrap_pyfunction!(proest_backends, m)?)?;
    Ok(())
}

/// Names of every Prøst backend this CPU can run.
#[pyfunction]
fn proest_backends() -> Vec<&'static str> {
    Backend::available().map(Backend::name).collect()
}

/// Maps the Rust error of class `cls` to the Python exception pyca/cryptography would raise.
fn to_py(cls: &str, e: Error) -> PyErr {
    match e {
        Error::InvalidKeyLength { expected, got } => {
            PyValueError::new_err(format!("{cls} key must be {expected} bytes, got {got}"))
        }
        Error::InvalidNonceLength { expected, got } => {
            PyValueError::new_err(format!("{cls} nonce must be {expected} bytes, got {got}"))
        }
        // A ciphertext that cannot be one (too short, wrong length form) fails like a bad tag,
        // as in pyca/cryptography.
        Error::Authentication | Error::InvalidCiphertextLength { .. } => InvalidTag::new_err(()),
        Error::MessageTooLong => PyOverflowError::new_err("message too long"),
        other => PyValueError::new_err(other.to_string()),
    }
}

fn backend(name: Option<&str>) -> Result<Backend, Error> {
    match name {
        Some(n) => Backend::from_name(n)?.check(),
        None => Backend::preferred(),
    }
}

/// Runs `op(nonce, associated_data, data)` of class `cls` on the bytes of the Python arguments
/// (with the interpreter released for long inputs) and returns its output as `bytes`. The
/// intermediate output buffer is wiped (it may be a plaintext).
fn apply<'py>(
    py: Python<'py>,
    cls: &str,
    (nonce, data, ad): (&Bound<'py, PyAny>, &Bound<'py, PyAny>, Option<&Bound<'py, PyAny>>),
    op: impl FnOnce(&[u8], &[u8], &[u8]) -> Result<Vec<u8>, Error> + Send,
) -> PyResult<Bound<'py, PyBytes>> {
    let (n, d) = (as_bytes(nonce)?, as_bytes(data)?);
    let a = match ad {
        Some(a) => as_bytes(a)?,
        None => PyBytes::new(py, b""),
    };
    let (n, d, a) = (n.as_bytes(), d.as_bytes(), a.as_bytes());
    let out = maybe_detach(py, d.len() + a.len(), || op(n, a, d).map(Zeroizing::new)).map_err(|e| to_py(cls, e))?;
    Ok(PyBytes::new(py, &out))
}

macro_rules! aead_class {
    ($name:ident, $doc:literal) => {
        #[doc = $doc]
        #[pyclass(frozen, module = "slicewise")]
        pub(crate) struct $name {
            inner: slicewise_proest::$name,
        }

        #[pymethods]
        impl $name {
            /// Key length in bytes.
            #[classattr]
            const KEY_SIZE: usize = slicewise_proest::$name::KEY_LEN;
            /// Nonce length in bytes.
            #[classattr]
            const NONCE_SIZE: usize = slicewise_proest::$name::NONCE_LEN;
            /// Tag length in bytes.
            #[classattr]
            const TAG_SIZE: usize = slicewise_proest::$name::TAG_LEN;
            /// SUPERCOP name of the algorithm.
            #[classattr]
            const ALGORITHM: &'static str = slicewise_proest::$name::ALGORITHM;

            /// A cipher under `key` (a bytes-like object of `KEY_SIZE` bytes). `backend` names a
            /// Prøst backend; by default `SLICEWISE_BACKEND`, else the fastest for this CPU.
            #[new]
            #[pyo3(signature = (key, *, backend = None))]
            fn new(key: &Bound<'_, PyAny>, backend: Option<&str>) -> PyResult<Self> {
                let k = as_bytes(key)?;
                let b = self::backend(backend).map_err(|e| to_py(stringify!($name), e))?;
                let inner = slicewise_proest::$name::with_backend(k.as_bytes(), b).map_err(|e| to_py(stringify!($name), e))?;
                Ok($name { inner })
            }

            /// A fresh random key from the operating system's generator.
            #[classmethod]
            fn generate_key<'py>(cls: &Bound<'py, PyType>) -> PyResult<Bound<'py, PyBytes>> {
                let mut key = Zeroizing::new([0u8; slicewise_proest::$name::KEY_LEN]);
                getrandom::fill(&mut key[..])
                    .map_err(|e| pyo3::exceptions::PyOSError::new_err(format!("operating system randomness: {e}")))?;
                Ok(PyBytes::new(cls.py(), &key[..]))
            }

            /// Encrypts and authenticates `data` with `associated_data` (may be `None`). Returns
            /// the SUPERCOP ciphertext: the encrypted padded message followed by the tag. Never
            /// reuse a nonce under one key.
            #[pyo3(signature = (nonce, data, associated_data = None))]
            fn encrypt<'py>(
                &self,
                py: Python<'py>,
                nonce: &Bound<'py, PyAny>,
                data: &Bound<'py, PyAny>,
                associated_data: Option<&Bound<'py, PyAny>>,
            ) -> PyResult<Bound<'py, PyBytes>> {
                apply(py, stringify!($name), (nonce, data, associated_data), |n, a, m| self.inner.encrypt(n, a, m))
            }

            /// Verifies and decrypts `data`. Raises `slicewise.InvalidTag`, and returns nothing,
            /// unless the ciphertext, nonce, associated data and key all match.
            #[pyo3(signature = (nonce, data, associated_data = None))]
            fn decrypt<'py>(
                &self,
                py: Python<'py>,
                nonce: &Bound<'py, PyAny>,
                data: &Bound<'py, PyAny>,
                associated_data: Option<&Bound<'py, PyAny>>,
            ) -> PyResult<Bound<'py, PyBytes>> {
                apply(py, stringify!($name), (nonce, data, associated_data), |n, a, c| self.inner.decrypt(n, a, c))
            }

            /// The name of the permutation backend in use.
            #[getter]
            fn backend(&self) -> &'static str {
                self.inner.backend().name()
            }

            fn __repr__(&self) -> String {
                format!("<{} (backend {}), key hidden>", stringify!($name), self.backend())
            }
        }
    };
}

aead_class!(ProestApe128, "Prøst-APE-128 (`proest128apev1`): key 16, nonce 32, tag 16 bytes.");
aead_class!(ProestCopa128, "Prøst-COPA-128 (`proest128copav1`): key 32, nonce 16, tag 16 bytes.");
aead_class!(ProestOtr128, "Prøst-OTR-128 (`proest128otrv1`): key 32, nonce 16, tag 16 bytes.");
aead_class!(ProestApe256, "Prøst-APE-256 (`proest256apev1`): key 32, nonce 64, tag 32 bytes.");
aead_class!(ProestCopa256, "Prøst-COPA-256 (`proest256copav1`): key 64, nonce 32, tag 32 bytes.");
aead_class!(ProestOtr256, "Prøst-OTR-256 (`proest256otrv1`): key 64, nonce 32, tag 32 bytes.");
