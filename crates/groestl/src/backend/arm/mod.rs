//! Backends for ARM targets (issue 10). AArch64: `armv8aes` (NEON + the AES instructions of the
//! ARMv8 Cryptographic Extension), detected at run time.

#[cfg(target_arch = "aarch64")]
pub(crate) mod armv8aes;
