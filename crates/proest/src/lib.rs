#![doc = include_str!("../README.md")]
#![no_std]
// `unsafe` is confined to the SIMD kernels (`backend::avx2`, `backend::avx512`), each block
// with a `// SAFETY:` comment; the public API is safe.
#![deny(unsafe_code)]
#![warn(missing_docs)]
// Index loops mirror the specification's notation in the round and mode code.
#![allow(clippy::needless_range_loop)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod aead_api;
pub mod backend;
#[doc(hidden)]
pub mod ct;
#[cfg(test)]
#[path = "../../../test-support/backend_report.rs"]
mod backend_report;
pub mod em;
mod error;
pub mod generated;
pub mod lane;
pub mod modes;
mod permutation;

pub use aead_api::{
    ModeSizes, Packet, ProestAead, ProestApe128, ProestApe256, ProestCopa128, ProestCopa256, ProestOtr128,
    ProestOtr256,
};
pub use backend::Backend;
pub use error::Error;
#[cfg(not(feature = "alloc"))]
pub use error::Name;
pub use lane::{Lane, State};
pub use permutation::{Permutation, Proest128, Proest256};

/// The RustCrypto `aead` crate, re-exported for its traits.
pub use aead;
