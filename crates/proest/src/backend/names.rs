//! The backends' names, in the order of [`super::Backend::ALL`]: a leaf module, so that the
//! error type (`crate::error`, below the backends) can list them without importing the backends.

/// Every backend's name, in the order of [`super::Backend::ALL`].
pub(crate) const NAMES: [&str; 7] = ["portable", "mixslp", "u32x2", "avx2", "avx512", "neon", "arm11"];
