//! `slicewise._slicewise`: the compiled half of the `slicewise` Python package.
//!
//! * [`hash`]: Grøstl hash objects shaped like `hashlib`'s, Groestlcoin's hash and its
//!   multi-buffer batch form;
//! * [`aead`]: the six Prøst AEADs, shaped like pyca/cryptography's AEAD classes;
//! * [`slp`]: the XOR-program synthesizer (heuristic restarts, SAT-exact search, programs that
//!   pickle through their text form).
//!
//! The pure-Python package (`python/slicewise`) re-exports these and adds the parts that are
//! Python by nature (the `groestlcoin_hash` compatibility module, the Dask fan-out).
//!
//! Built against the stable ABI (`abi3`, CPython ≥ 3.9). This crate has no `unsafe` code.
#![forbid(unsafe_code)]

mod aead;
mod bytes;
mod hash;
mod slp;

use pyo3::prelude::*;

/// Grøstl, Groestlcoin, Prøst and slp, implemented in Rust.
#[pymodule]
fn _slicewise(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("InvalidTag", m.py().get_type::<aead::InvalidTag>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    hash::register(m)?;
    aead::register(m)?;
    slp::register(m)?;
    Ok(())
}
