//! Backends for ARM targets (issue 10), detected at run time. AArch64: `armv8aes` (NEON + the
//! AES instructions of the ARMv8 Cryptographic Extension) and `armv8sha3` (the same with
//! MixBytes on the FEAT_SHA3 `BCAX` instruction), and `neon` for cores without the AES
//! instructions (vector-permute S-box with `TBL`). ARMv7 (32-bit Linux with NEON): `neon7bs`,
//! bitsliced, in generated assembly (`neon7.rs`).

#[cfg(target_arch = "aarch64")]
pub(crate) mod armv8aes;
#[cfg(slicewise_neon7)]
pub(crate) mod neon7;

/// The Grøstl-224/256 multi-buffer kernel of an AArch64 backend, with its lane count.
#[cfg(target_arch = "aarch64")]
pub(crate) fn many512(backend: super::Backend) -> Option<super::Many<8>> {
    match backend {
        super::Backend::Armv8Aes => Some((2, armv8aes::many512_2)),
        super::Backend::Armv8Sha3 => Some((2, armv8aes::sha3::many512_2)),
        super::Backend::Neon => Some((2, armv8aes::vperm::many512_2)),
        _ => None,
    }
}

/// The Grøstl-384/512 multi-buffer kernel of an AArch64 backend, with its lane count: only
/// `armv8aes`, where two messages per pass count fewer instructions than one at a time (on
/// `armv8sha3` and `neon` they count more; docs/benchmarks-arm.md).
#[cfg(target_arch = "aarch64")]
pub(crate) fn many1024(backend: super::Backend) -> Option<super::Many<16>> {
    match backend {
        super::Backend::Armv8Aes => Some((2, armv8aes::many1024_2)),
        _ => None,
    }
}
