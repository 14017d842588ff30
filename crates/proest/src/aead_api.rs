//! The public AEAD type [`ProestAead`] and the six named variants.

#[cfg(feature = "alloc")]
use alloc::{vec, vec::Vec};
use core::fmt;

use aead::array::ArraySize;
use aead::consts::{U16, U32, U64};
use subtle::Choice;
use zeroize::Zeroize;

use crate::backend::Backend;
use crate::error::Error;
#[cfg(feature = "alloc")]
use crate::modes::core_trait::{OpenJob, SealJob};
use crate::modes::{Ape, Copa, MAX_S, Mode, Otr, unpad_ct};
use crate::permutation::{Permutation, Proest128, Proest256};

/// A Prøst AEAD: key, permutation backend and mode. Use the aliases [`ProestApe128`] …
/// [`ProestOtr256`].
///
/// Ciphertexts are exactly SUPERCOP's: the encrypted *padded* message followed by the tag, so
/// a ciphertext is between `TAG_LEN + 1` and `TAG_LEN + LAST_BLOCK` bytes longer than its
/// message (see [`ProestAead::ciphertext_len`]).
///
/// Decryption is stricter than the reference code: ciphertexts that are too short or not of
/// the mode's length form are rejected before any work; padding and tag are checked together
/// in constant time; no plaintext is released unless both hold, and the output buffer is wiped
/// on failure.
pub struct ProestAead<M: Mode> {
    mode: M,
}

/// Prøst-APE-128 (`proest128apev1`): key 16, nonce 32, tag 16 bytes.
pub type ProestApe128 = ProestAead<Ape<Proest128>>;
/// Prøst-COPA-128 (`proest128copav1`): key 32, nonce 16, tag 16 bytes.
pub type ProestCopa128 = ProestAead<Copa<Proest128>>;
/// Prøst-OTR-128 (`proest128otrv1`): key 32, nonce 16, tag 16 bytes.
pub type ProestOtr128 = ProestAead<Otr<Proest128>>;
/// Prøst-APE-256 (`proest256apev1`): key 32, nonce 64, tag 32 bytes.
pub type ProestApe256 = ProestAead<Ape<Proest256>>;
/// Prøst-COPA-256 (`proest256copav1`): key 64, nonce 32, tag 32 bytes.
pub type ProestCopa256 = ProestAead<Copa<Proest256>>;
/// Prøst-OTR-256 (`proest256otrv1`): key 64, nonce 32, tag 32 bytes.
pub type ProestOtr256 = ProestAead<Otr<Proest256>>;

impl<M: Mode> ProestAead<M> {
    /// SUPERCOP name of the variant, e.g. `proest128apev1`.
    pub const ALGORITHM: &'static str = M::ALGORITHM;
    /// Key length in bytes.
    pub const KEY_LEN: usize = M::KEY_LEN;
    /// Nonce length in bytes.
    pub const NONCE_LEN: usize = M::NONCE_LEN;
    /// Tag length in bytes.
    pub const TAG_LEN: usize = M::TAG_LEN;
    /// Shortest possible ciphertext (empty message).
    pub const MIN_CIPHERTEXT_LEN: usize = M::LAST_BLOCK + M::TAG_LEN;

    /// A cipher with the [`Backend::preferred`] backend (honours `SLICEWISE_BACKEND`).
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        Self::with_backend(key, Backend::preferred()?)
    }

    /// A cipher with the given backend; an error if this CPU cannot run it or the key length
    /// is wrong.
    pub fn with_backend(key: &[u8], backend: Backend) -> Result<Self, Error> {
        if key.len() != M::KEY_LEN {
            return Err(Error::InvalidKeyLength { expected: M::KEY_LEN, got: key.len() });
        }
        let perm = M::Perm::with_backend(backend)?;
        Ok(ProestAead { mode: M::from_parts(perm, key) })
    }

    /// The backend in use.
    pub fn backend(&self) -> Backend {
        self.mode.perm().backend()
    }

    /// Ciphertext length (padded message plus tag) for a message of `msg_len` bytes; `None`
    /// on arithmetic overflow.
    pub fn ciphertext_len(msg_len: usize) -> Option<usize> {
        M::ciphertext_len(msg_len)
    }

    /// An upper bound on the plaintext length of a ciphertext of `ct_len` bytes (the padded
    /// length minus one): the output size [`ProestAead::decrypt_into`] requires. `None` if
    /// `ct_len` is not a possible ciphertext length of this mode.
    pub fn max_plaintext_len(ct_len: usize) -> Option<usize> {
        M::is_valid_ciphertext_len(ct_len).then(|| ct_len - M::TAG_LEN - 1)
    }

    fn check_nonce(nonce: &[u8]) -> Result<(), Error> {
        if nonce.len() != M::NONCE_LEN {
            return Err(Error::InvalidNonceLength { expected: M::NONCE_LEN, got: nonce.len() });
        }
        Ok(())
    }

    /// Encrypts `msg` with associated data `ad` into `out`, which needs at least
    /// [`ProestAead::ciphertext_len`] bytes; returns the ciphertext length. Allocates nothing.
    pub fn encrypt_into(&self, nonce: &[u8], ad: &[u8], msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        Self::check_nonce(nonce)?;
        let len = M::ciphertext_len(msg.len()).ok_or(Error::MessageTooLong)?;
        if out.len() < len {
            return Err(Error::BufferTooSmall { needed: len, got: out.len() });
        }
        self.mode.seal(nonce, ad, msg, &mut out[..len]);
        Ok(len)
    }

    #[cfg(feature = "alloc")]
    /// Encrypts `msg`; returns the SUPERCOP ciphertext (padded message, then the tag).
    pub fn encrypt(&self, nonce: &[u8], ad: &[u8], msg: &[u8]) -> Result<Vec<u8>, Error> {
        Self::check_nonce(nonce)?;
        let len = M::ciphertext_len(msg.len()).ok_or(Error::MessageTooLong)?;
        let mut out = vec![0u8; len];
        self.encrypt_into(nonce, ad, msg, &mut out)?;
        Ok(out)
    }

    /// Decrypts and verifies `ct` into `out`, which needs at least
    /// [`ProestAead::max_plaintext_len`]`(ct.len())` bytes; returns the plaintext length.
    /// Allocates nothing. On any failure the first `max_plaintext_len` bytes of `out` are
    /// zero and an error is returned; no unverified plaintext is ever left in `out`.
    pub fn decrypt_into(&self, nonce: &[u8], ad: &[u8], ct: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        Self::check_nonce(nonce)?;
        let max = Self::max_plaintext_len(ct.len()).ok_or(Error::InvalidCiphertextLength { len: ct.len() })?;
        if out.len() < max {
            return Err(Error::BufferTooSmall { needed: max, got: out.len() });
        }
        let body_len = ct.len() - M::TAG_LEN;
        let split = body_len - M::LAST_BLOCK;
        let mut last = [0u8; MAX_S];
        let tag_ok = self.mode.open(
            nonce,
            ad,
            &ct[..body_len],
            &ct[body_len..],
            &mut out[..split],
            &mut last[..M::LAST_BLOCK],
        );
        Self::conclude(tag_ok, out, &mut last, split, max)
    }

    /// Releases the plaintext if both the tag (`tag_ok`) and the padding of the final block
    /// `last` verify: `out[..split]` holds the other blocks; otherwise wipes `out[..max]`.
    /// Wipes `last` in either case.
    fn conclude(tag_ok: Choice, out: &mut [u8], last: &mut [u8; MAX_S], split: usize, max: usize) -> Result<usize, Error> {
        let (pad_ok, pos) = unpad_ct(&last[..M::LAST_BLOCK]);
        // One decision on both checks, computed without branches. The verdict is public (the
        // caller learns it), and so is the length of a verified plaintext: `declassify` says so
        // to the constant-time checker (`crate::ct`) and is the identity otherwise.
        let ok = crate::ct::declassify(tag_ok & pad_ok);
        let result = if bool::from(ok) {
            let pos = crate::ct::declassify(pos);
            out[split..split + pos].copy_from_slice(&last[..pos]);
            Ok(split + pos)
        } else {
            out[..max].zeroize();
            Err(Error::Authentication)
        };
        last.zeroize();
        result
    }

    #[cfg(feature = "alloc")]
    /// Decrypts and verifies `ct`; returns the plaintext, or [`Error::Authentication`] (or a
    /// length error) and no plaintext at all.
    pub fn decrypt(&self, nonce: &[u8], ad: &[u8], ct: &[u8]) -> Result<Vec<u8>, Error> {
        Self::check_nonce(nonce)?;
        let max = Self::max_plaintext_len(ct.len()).ok_or(Error::InvalidCiphertextLength { len: ct.len() })?;
        let mut out = vec![0u8; max];
        let n = self.decrypt_into(nonce, ad, ct, &mut out)?;
        out.truncate(n);
        Ok(out)
    }
}

/// One message of a batch for [`ProestAead::encrypt_batch`], or one ciphertext for
/// [`ProestAead::decrypt_batch`].
#[derive(Clone, Copy, Debug)]
pub struct Packet<'a> {
    /// The nonce (`NONCE_LEN` bytes; never reuse one under the same key).
    pub nonce: &'a [u8],
    /// Associated data.
    pub ad: &'a [u8],
    /// The message ([`ProestAead::encrypt_batch`]) or the ciphertext
    /// ([`ProestAead::decrypt_batch`]).
    pub msg: &'a [u8],
}

#[cfg(feature = "alloc")]
impl<M: Mode> ProestAead<M> {
    /// Encrypts many independent messages under this key at once (packets, for example);
    /// returns one ciphertext per packet, each exactly what [`ProestAead::encrypt`] returns.
    ///
    /// APE runs the messages in lockstep, so its permutation calls go to the backend's wide
    /// `permute_many` (a lane-sliced SIMD backend computes up to 32 of them at once) instead of
    /// one serial chain per message; COPA and OTR are already wide within each message and run
    /// the packets one after the other. Every nonce is checked before any work is done.
    pub fn encrypt_batch(&self, packets: &[Packet<'_>]) -> Result<Vec<Vec<u8>>, Error> {
        let mut outs = Vec::with_capacity(packets.len());
        for p in packets {
            Self::check_nonce(p.nonce)?;
            outs.push(vec![0u8; M::ciphertext_len(p.msg.len()).ok_or(Error::MessageTooLong)?]);
        }
        let mut jobs: Vec<SealJob<'_>> = packets
            .iter()
            .zip(outs.iter_mut())
            .map(|(p, out)| SealJob { nonce: p.nonce, ad: p.ad, msg: p.msg, out })
            .collect();
        self.mode.seal_batch(&mut jobs);
        drop(jobs);
        Ok(outs)
    }
}

#[cfg(feature = "alloc")]
impl<M: Mode> ProestAead<M> {
    /// Decrypts and verifies many independent ciphertexts under this key at once (`msg` of
    /// each [`Packet`] is the ciphertext); returns one result per packet, each exactly what
    /// [`ProestAead::decrypt`] returns for it.
    ///
    /// Every packet is verified on its own: a packet with a wrong nonce length, an invalid
    /// ciphertext length, a bad tag or bad padding gets its error and releases no plaintext
    /// (its scratch buffer is wiped), without affecting the others. APE runs the packets in
    /// lockstep (IVs through `permute_many`, the backwards P⁻¹ chains through
    /// `inverse_many`); COPA and OTR are wide within each message and run one after the other.
    pub fn decrypt_batch(&self, packets: &[Packet<'_>]) -> Vec<Result<Vec<u8>, Error>> {
        let mut results: Vec<Result<Vec<u8>, Error>> = Vec::with_capacity(packets.len());
        // (packet index, max plaintext length, body length) of the packets that go through.
        let mut valid = Vec::new();
        for (i, p) in packets.iter().enumerate() {
            let checked = Self::check_nonce(p.nonce).and_then(|()| {
                Self::max_plaintext_len(p.msg.len()).ok_or(Error::InvalidCiphertextLength { len: p.msg.len() })
            });
            match checked {
                Ok(max) => {
                    results.push(Ok(vec![0u8; max]));
                    valid.push((i, max, p.msg.len() - M::TAG_LEN));
                }
                Err(e) => results.push(Err(e)),
            }
        }
        let mut lasts = vec![[0u8; MAX_S]; valid.len()];
        let mut outs: Vec<Vec<u8>> = Vec::with_capacity(valid.len());
        for &(i, ..) in &valid {
            outs.push(core::mem::replace(&mut results[i], Ok(Vec::new())).expect("valid packet"));
        }
        let oks = {
            let mut jobs: Vec<OpenJob<'_>> = valid
                .iter()
                .zip(outs.iter_mut())
                .zip(lasts.iter_mut())
                .map(|((&(i, _, body_len), out), last)| {
                    let ct = packets[i].msg;
                    OpenJob {
                        nonce: packets[i].nonce,
                        ad: packets[i].ad,
                        body: &ct[..body_len],
                        tag: &ct[body_len..],
                        out: &mut out[..body_len - M::LAST_BLOCK],
                        last: &mut last[..M::LAST_BLOCK],
                    }
                })
                .collect();
            self.mode.open_batch(&mut jobs)
        };
        for (((&(i, max, body_len), mut out), last), ok) in valid.iter().zip(outs).zip(lasts.iter_mut()).zip(oks) {
            let split = body_len - M::LAST_BLOCK;
            results[i] = match Self::conclude(ok, &mut out, last, split, max) {
                Ok(n) => {
                    out.truncate(n);
                    Ok(out)
                }
                Err(e) => Err(e),
            };
        }
        results
    }
}

impl<M: Mode> fmt::Debug for ProestAead<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProestAead")
            .field("algorithm", &M::ALGORITHM)
            .field("backend", &self.backend())
            .field("key", &"<hidden>")
            .finish()
    }
}

// ---------------------------------------------------------------------------------------------
// RustCrypto `aead` 0.6 traits.
//
// `KeySizeUser`, `KeyInit` and `AeadCore` fit. `AeadInOut` does not: it encrypts in place or
// in/out buffers of the message's length with a detached tag, while a Prøst ciphertext body is
// the encrypted *padded* message, 1 to B bytes longer than the message (and the decryptor needs
// all of it to find the padding). The allocating `aead::Aead` trait has the right shape
// (ciphertext = body || tag, any length), but is blanket-implemented for every `AeadInOut` type,
// so it is implemented here directly.

/// Typenum sizes of a mode (for the RustCrypto traits).
pub trait ModeSizes: Mode {
    /// `KEY_LEN` as a typenum.
    type KeySize: ArraySize;
    /// `NONCE_LEN` as a typenum.
    type NonceSize: ArraySize;
    /// `TAG_LEN` as a typenum.
    type TagSize: ArraySize;
}

macro_rules! sizes {
    ($m:ty, $k:ty, $n:ty, $t:ty) => {
        impl ModeSizes for $m {
            type KeySize = $k;
            type NonceSize = $n;
            type TagSize = $t;
        }
    };
}
sizes!(Ape<Proest128>, U16, U32, U16);
sizes!(Copa<Proest128>, U32, U16, U16);
sizes!(Otr<Proest128>, U32, U16, U16);
sizes!(Ape<Proest256>, U32, U64, U32);
sizes!(Copa<Proest256>, U64, U32, U32);
sizes!(Otr<Proest256>, U64, U32, U32);

impl<M: ModeSizes> aead::KeySizeUser for ProestAead<M> {
    type KeySize = M::KeySize;
}

impl<M: ModeSizes> aead::KeyInit for ProestAead<M> {
    /// Uses [`Backend::preferred`].
    ///
    /// # Panics
    /// If `SLICEWISE_BACKEND` names an unknown or unavailable backend (this trait method
    /// cannot return an error, and falling back silently is not allowed). Use
    /// [`ProestAead::new`] to get an `Err` instead.
    fn new(key: &aead::Key<Self>) -> Self {
        let backend = Backend::preferred().unwrap_or_else(|e| panic!("{e}"));
        Self::with_backend(key, backend).expect("typenum key size equals KEY_LEN")
    }
}

impl<M: ModeSizes> aead::AeadCore for ProestAead<M> {
    type NonceSize = M::NonceSize;
    type TagSize = M::TagSize;
    const TAG_POSITION: aead::TagPosition = aead::TagPosition::Postfix;
}

#[cfg(feature = "alloc")]
impl<M: ModeSizes> aead::Aead for ProestAead<M> {
    fn encrypt<'msg, 'aad>(
        &self,
        nonce: &aead::Nonce<Self>,
        plaintext: impl Into<aead::Payload<'msg, 'aad>>,
    ) -> aead::Result<Vec<u8>> {
        let p = plaintext.into();
        ProestAead::encrypt(self, nonce, p.aad, p.msg).map_err(|_| aead::Error)
    }

    fn decrypt<'msg, 'aad>(
        &self,
        nonce: &aead::Nonce<Self>,
        ciphertext: impl Into<aead::Payload<'msg, 'aad>>,
    ) -> aead::Result<Vec<u8>> {
        let p = ciphertext.into();
        ProestAead::decrypt(self, nonce, p.aad, p.msg).map_err(|_| aead::Error)
    }
}
