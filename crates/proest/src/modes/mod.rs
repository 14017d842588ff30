//! The three Prøst modes, written once over the [`crate::Permutation`] trait.
//!
//! Each mode type (`Ape<P>`, `Copa<P>`, `Otr<P>`) holds the key and a permutation and implements
//! the public [`Mode`] trait (constants) and a sealed core trait (the raw encryption and
//! decryption, which release unverified plaintext and are therefore not callable from outside
//! the crate). The public AEAD API is [`crate::ProestAead`].

mod ape;
mod common;
mod copa;
mod otr;

pub use ape::Ape;
pub(crate) use common::*;
pub use common::Mode;
pub use copa::Copa;
pub use otr::Otr;
