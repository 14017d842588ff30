//! The crate's error type.

#[cfg(feature = "alloc")]
use alloc::string::String;
use core::fmt;

/// Without `alloc`, [`Error::UnknownBackend`] holds the name in this fixed buffer instead of a
/// `String`: its first [`Name::CAPACITY`] bytes, cut at a character boundary.
#[cfg(not(feature = "alloc"))]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Name {
    bytes: [u8; Name::CAPACITY],
    len: usize,
}

#[cfg(not(feature = "alloc"))]
impl Name {
    /// Bytes of the name kept.
    pub const CAPACITY: usize = 32;

    /// The kept name.
    pub fn as_str(&self) -> &str {
        core::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }
}

#[cfg(not(feature = "alloc"))]
impl From<&str> for Name {
    fn from(s: &str) -> Name {
        let len = (0..=s.len().min(Name::CAPACITY)).rev().find(|&i| s.is_char_boundary(i)).unwrap_or(0);
        let mut bytes = [0; Name::CAPACITY];
        bytes[..len].copy_from_slice(&s.as_bytes()[..len]);
        Name { bytes, len }
    }
}

#[cfg(not(feature = "alloc"))]
impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

#[cfg(not(feature = "alloc"))]
type String = Name;

/// Everything that can go wrong in this crate.
///
/// Decryption failures caused by the ciphertext, tag, nonce or associated data are all reported
/// as [`Error::Authentication`]; the variants never say *which* check failed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The key does not have the variant's `KEY_LEN`.
    InvalidKeyLength {
        /// Required length in bytes.
        expected: usize,
        /// Length given.
        got: usize,
    },
    /// The nonce does not have the variant's `NONCE_LEN`.
    InvalidNonceLength {
        /// Required length in bytes.
        expected: usize,
        /// Length given.
        got: usize,
    },
    /// The ciphertext is shorter than the shortest ciphertext of the mode, or its length does
    /// not have the mode's form (a whole number of blocks plus the tag). Rejected before any
    /// cryptographic work.
    InvalidCiphertextLength {
        /// Length given.
        len: usize,
    },
    /// An output buffer is too small.
    BufferTooSmall {
        /// Bytes needed.
        needed: usize,
        /// Bytes given.
        got: usize,
    },
    /// The message is so long that its ciphertext length overflows `usize`.
    MessageTooLong,
    /// Decryption failed: the ciphertext, tag, nonce, associated data or key do not match.
    /// No plaintext was released and the output buffer was wiped.
    Authentication,
    /// `Backend::from_name` or `SLICEWISE_BACKEND` named no known backend.
    UnknownBackend(String),
    /// The backend exists but this CPU cannot run it.
    BackendUnavailable(&'static str),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidKeyLength { expected, got } => {
                write!(f, "invalid key length: expected {expected} bytes, got {got}")
            }
            Error::InvalidNonceLength { expected, got } => {
                write!(f, "invalid nonce length: expected {expected} bytes, got {got}")
            }
            Error::InvalidCiphertextLength { len } => {
                write!(f, "invalid ciphertext length {len}: too short or not a whole number of blocks plus the tag")
            }
            Error::BufferTooSmall { needed, got } => {
                write!(f, "output buffer too small: need {needed} bytes, got {got}")
            }
            Error::MessageTooLong => f.write_str("message too long"),
            Error::Authentication => f.write_str(
                "decryption failed: the ciphertext, tag, nonce, associated data or key do not match",
            ),
            Error::UnknownBackend(name) => {
                write!(f, "unknown Prøst backend {name:?} (known: ")?;
                for (i, known) in crate::backend::names::NAMES.iter().enumerate() {
                    write!(f, "{}{known}", if i > 0 { ", " } else { "" })?;
                }
                f.write_str(")")
            }
            Error::BackendUnavailable(name) => {
                write!(f, "Prøst backend {name:?} is not available on this CPU")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
