//! Backends for ARM targets (issue 10), detected at run time. AArch64: `armv8aes` (NEON + the
//! AES instructions of the ARMv8 Cryptographic Extension) and `armv8sha3` (the same with
//! MixBytes on the FEAT_SHA3 `BCAX` instruction), and `neon` for cores without the AES
//! instructions (vector-permute S-box with `TBL`). ARMv7 (32-bit Linux with NEON): `neon7bs`,
//! bitsliced, in generated assembly (`neon7.rs`).

#[cfg(target_arch = "aarch64")]
pub(crate) mod armv8aes;
#[cfg(slicewise_neon7)]
pub(crate) mod neon7;
