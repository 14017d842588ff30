//! Prøst AEADs with SUPERCOP's `crypto_aead_encrypt` / `crypto_aead_decrypt` signatures.

use core::ffi::{c_char, c_int, c_uchar, c_ulonglong};
use core::ops::Deref;
use core::ptr;
use std::sync::OnceLock;

use slicewise_proest::modes::{Ape, Copa, Mode, Otr};
use slicewise_proest::{Backend, Error, Proest128, Proest256, ProestAead};
use zeroize::Zeroizing;

use crate::boundary::{
    SLICEWISE_ERR_ARGUMENT, SLICEWISE_ERR_BACKEND, SLICEWISE_ERR_INTERNAL, SLICEWISE_ERR_LENGTH,
    SLICEWISE_ERR_NOMEM, SLICEWISE_ERR_NULL, SLICEWISE_ERR_VERIFY, SLICEWISE_OK, c_name, guard,
    input, length, overlaps,
};

/// An input buffer: borrowed from the caller, or (when it overlaps the output) a private copy
/// that is wiped when dropped.
enum Bytes<'a> {
    Borrowed(&'a [u8]),
    Copied(Zeroizing<Vec<u8>>),
}

impl Deref for Bytes<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Borrowed(s) => s,
            Bytes::Copied(v) => v,
        }
    }
}

/// `len` bytes at `p`, copied if they overlap the `out_len` output bytes at `out`, so that the
/// output can then be borrowed mutably without aliasing any input.
///
/// # Safety
/// As [`input`]; nothing but this library may write the output region meanwhile.
unsafe fn input_beside<'a>(
    p: *const u8,
    len: usize,
    out: *const u8,
    out_len: usize,
) -> Result<Bytes<'a>, c_int> {
    // SAFETY: the caller's contract; the output is not borrowed yet.
    let s = unsafe { input(p, len) }?;
    if !overlaps(p, len, out, out_len) {
        return Ok(Bytes::Borrowed(s));
    }
    // `try_reserve_exact`: running out of memory is an error code, not an abort.
    let mut copy = Zeroizing::new(Vec::new());
    copy.try_reserve_exact(len)
        .map_err(|_| SLICEWISE_ERR_NOMEM)?;
    copy.extend_from_slice(s);
    Ok(Bytes::Copied(copy))
}

/// The inputs of one encryption or decryption, none overlapping its output, and the cipher.
struct Call<'a, M: Mode> {
    /// The message (encryption) or the ciphertext (decryption).
    data: Bytes<'a>,
    ad: Bytes<'a>,
    nonce: Bytes<'a>,
    cipher: ProestAead<M>,
}

impl<M: Mode> Call<'_, M> {
    /// Borrows (or copies, where they overlap the `out_len` output bytes at `out`) the inputs
    /// and keys the cipher on the process-wide backend.
    ///
    /// # Safety
    /// `data`, `ad` point to `data_len`, `adlen` readable bytes (or are NULL with length 0);
    /// `npub`, `k` to `M::NONCE_LEN`, `M::KEY_LEN` readable bytes (or are NULL).
    #[allow(clippy::too_many_arguments)]
    unsafe fn new(
        data: *const u8,
        data_len: usize,
        ad: *const u8,
        adlen: c_ulonglong,
        npub: *const u8,
        k: *const u8,
        out: *const u8,
        out_len: usize,
    ) -> Result<Self, c_int> {
        if npub.is_null() || k.is_null() {
            return Err(SLICEWISE_ERR_NULL);
        }
        // SAFETY: the caller's contract (for all four reads); the output is not borrowed yet.
        let data = unsafe { input_beside(data, data_len, out, out_len) }?;
        // SAFETY: as above.
        let ad = unsafe { input_beside(ad, length(adlen)?, out, out_len) }?;
        // SAFETY: as above.
        let nonce = unsafe { input_beside(npub, M::NONCE_LEN, out, out_len) }?;
        // SAFETY: as above.
        let key = unsafe { input_beside(k, M::KEY_LEN, out, out_len) }?;
        let cipher = ProestAead::<M>::with_backend(&key, backend()?).map_err(code)?;
        Ok(Call {
            data,
            ad,
            nonce,
            cipher,
        })
    }
}

fn code(e: Error) -> c_int {
    match e {
        Error::Authentication | Error::InvalidCiphertextLength { .. } => SLICEWISE_ERR_VERIFY,
        Error::MessageTooLong => SLICEWISE_ERR_LENGTH,
        Error::UnknownBackend(_) | Error::BackendUnavailable(_) => SLICEWISE_ERR_BACKEND,
        Error::InvalidKeyLength { .. } | Error::InvalidNonceLength { .. } => SLICEWISE_ERR_ARGUMENT,
        _ => SLICEWISE_ERR_INTERNAL,
    }
}

/// SUPERCOP's `crypto_aead_encrypt` for mode `M`. Prøst has no secret message number
/// (`NSECBYTES` = 0): `_nsec` is ignored.
///
/// # Safety
/// As for the exported `*_encrypt` functions.
#[allow(clippy::too_many_arguments)]
unsafe fn encrypt<M: Mode>(
    c: *mut c_uchar,
    clen: *mut c_ulonglong,
    m: *const c_uchar,
    mlen: c_ulonglong,
    ad: *const c_uchar,
    adlen: c_ulonglong,
    _nsec: *const c_uchar,
    npub: *const c_uchar,
    k: *const c_uchar,
) -> c_int {
    let rc = guard(|| {
        if c.is_null() || clen.is_null() {
            return Err(SLICEWISE_ERR_NULL);
        }
        let mlen = length(mlen)?;
        let ct_len = ProestAead::<M>::ciphertext_len(mlen).ok_or(SLICEWISE_ERR_LENGTH)?;
        length(ct_len as c_ulonglong)?;
        // SAFETY: the caller passes readable buffers of these lengths.
        let call = unsafe { Call::<M>::new(m, mlen, ad, adlen, npub, k, c, ct_len) }?;
        // SAFETY: `c` is non-null and the caller provides `mlen + ABYTES >= ct_len` writable
        // bytes there; no input borrowed by `call` overlaps them.
        let out = unsafe { core::slice::from_raw_parts_mut(c, ct_len) };
        let n = call
            .cipher
            .encrypt_into(&call.nonce, &call.ad, &call.data, out)
            .map_err(code)?;
        // SAFETY: `clen` is non-null and writable (the caller's contract).
        unsafe { clen.write(n as c_ulonglong) };
        Ok(())
    });
    if rc != SLICEWISE_OK && !clen.is_null() {
        // SAFETY: as above.
        unsafe { clen.write(0) };
    }
    rc
}

/// SUPERCOP's `crypto_aead_decrypt` for mode `M` (`_nsec` is ignored). On every failure
/// `*mlen` (if `mlen` is not NULL) is 0 and the `max_plaintext_len(clen)` bytes at `m` (if `m`
/// is not NULL) are zero.
///
/// # Safety
/// As for the exported `*_decrypt` functions.
#[allow(clippy::too_many_arguments)]
unsafe fn decrypt<M: Mode>(
    m: *mut c_uchar,
    mlen: *mut c_ulonglong,
    _nsec: *mut c_uchar,
    c: *const c_uchar,
    clen: c_ulonglong,
    ad: *const c_uchar,
    adlen: c_ulonglong,
    npub: *const c_uchar,
    k: *const c_uchar,
) -> c_int {
    // The most plaintext bytes a ciphertext of this length can carry (0 for a length that no
    // ciphertext has): the region of `m` this call may write, and wipes on failure.
    let max = usize::try_from(clen)
        .ok()
        .and_then(ProestAead::<M>::max_plaintext_len)
        .unwrap_or(0);
    let rc = guard(|| {
        if mlen.is_null() {
            return Err(SLICEWISE_ERR_NULL);
        }
        let clen = length(clen)?;
        if max == 0 {
            return Err(SLICEWISE_ERR_VERIFY);
        }
        if m.is_null() {
            return Err(SLICEWISE_ERR_NULL);
        }
        // SAFETY: the caller passes readable buffers of these lengths.
        let call = unsafe { Call::<M>::new(c, clen, ad, adlen, npub, k, m, max) }?;
        // SAFETY: `m` is non-null and the caller provides `clen >= max` writable bytes there;
        // no input borrowed by `call` overlaps them.
        let out = unsafe { core::slice::from_raw_parts_mut(m, max) };
        let n = call
            .cipher
            .decrypt_into(&call.nonce, &call.ad, &call.data, out)
            .map_err(code)?;
        // SAFETY: `mlen` is non-null and writable (the caller's contract).
        unsafe { mlen.write(n as c_ulonglong) };
        Ok(())
    });
    if rc != SLICEWISE_OK {
        if !mlen.is_null() {
            // SAFETY: `mlen` is writable (the caller's contract).
            unsafe { mlen.write(0) };
        }
        if !m.is_null() {
            // SAFETY: the caller provides `clen >= max` writable bytes at `m`. `decrypt_into`
            // already wiped them on an authentication failure; this covers every other path.
            unsafe { ptr::write_bytes(m, 0, max) };
        }
    }
    rc
}

/// The process-wide Prøst backend: `SLICEWISE_BACKEND` or the detected one, read once (as
/// the Grøstl crate does), so that no call reads the environment while C code may be changing
/// it.
fn backend() -> Result<Backend, c_int> {
    static CHOSEN: OnceLock<Result<Backend, Error>> = OnceLock::new();
    CHOSEN
        .get_or_init(Backend::preferred)
        .clone()
        .map_err(|_| SLICEWISE_ERR_BACKEND)
}

/// The name of the Prøst backend the AEAD functions use (`SLICEWISE_BACKEND` or the detected
/// one), as a static string; NULL if `SLICEWISE_BACKEND` names an unknown or unavailable one.
#[unsafe(no_mangle)]
pub extern "C" fn slicewise_proest_backend_name() -> *const c_char {
    let mut name = ptr::null();
    guard(|| {
        name = c_name(
            Backend::preferred()
                .map_err(|_| SLICEWISE_ERR_BACKEND)?
                .name(),
        );
        Ok(())
    });
    name
}

// Sizes, as in SUPERCOP's `api.h` of each variant: CRYPTO_ABYTES is the largest ciphertext
// expansion (the final padded block plus the tag), not the tag length.

/// Prøst-APE-128 (`proest128apev1`) key length (`CRYPTO_KEYBYTES`).
pub const SLICEWISE_PROEST128APE_KEYBYTES: usize = 16;
/// Secret message number length (`CRYPTO_NSECBYTES`): unused.
pub const SLICEWISE_PROEST128APE_NSECBYTES: usize = 0;
/// Nonce length (`CRYPTO_NPUBBYTES`).
pub const SLICEWISE_PROEST128APE_NPUBBYTES: usize = 32;
/// Largest ciphertext expansion, `clen - mlen` (`CRYPTO_ABYTES`).
pub const SLICEWISE_PROEST128APE_ABYTES: usize = 32;
/// Tag length (part of the expansion).
pub const SLICEWISE_PROEST128APE_TAGBYTES: usize = 16;

/// Prøst-COPA-128 (`proest128copav1`) key length (`CRYPTO_KEYBYTES`).
pub const SLICEWISE_PROEST128COPA_KEYBYTES: usize = 32;
/// Secret message number length (`CRYPTO_NSECBYTES`): unused.
pub const SLICEWISE_PROEST128COPA_NSECBYTES: usize = 0;
/// Nonce length (`CRYPTO_NPUBBYTES`).
pub const SLICEWISE_PROEST128COPA_NPUBBYTES: usize = 16;
/// Largest ciphertext expansion, `clen - mlen` (`CRYPTO_ABYTES`).
pub const SLICEWISE_PROEST128COPA_ABYTES: usize = 48;
/// Tag length (part of the expansion).
pub const SLICEWISE_PROEST128COPA_TAGBYTES: usize = 16;

/// Prøst-OTR-128 (`proest128otrv1`) key length (`CRYPTO_KEYBYTES`).
pub const SLICEWISE_PROEST128OTR_KEYBYTES: usize = 32;
/// Secret message number length (`CRYPTO_NSECBYTES`): unused.
pub const SLICEWISE_PROEST128OTR_NSECBYTES: usize = 0;
/// Nonce length (`CRYPTO_NPUBBYTES`).
pub const SLICEWISE_PROEST128OTR_NPUBBYTES: usize = 16;
/// Largest ciphertext expansion, `clen - mlen` (`CRYPTO_ABYTES`).
pub const SLICEWISE_PROEST128OTR_ABYTES: usize = 48;
/// Tag length (part of the expansion).
pub const SLICEWISE_PROEST128OTR_TAGBYTES: usize = 16;

/// Prøst-APE-256 (`proest256apev1`) key length (`CRYPTO_KEYBYTES`).
pub const SLICEWISE_PROEST256APE_KEYBYTES: usize = 32;
/// Secret message number length (`CRYPTO_NSECBYTES`): unused.
pub const SLICEWISE_PROEST256APE_NSECBYTES: usize = 0;
/// Nonce length (`CRYPTO_NPUBBYTES`).
pub const SLICEWISE_PROEST256APE_NPUBBYTES: usize = 64;
/// Largest ciphertext expansion, `clen - mlen` (`CRYPTO_ABYTES`).
pub const SLICEWISE_PROEST256APE_ABYTES: usize = 64;
/// Tag length (part of the expansion).
pub const SLICEWISE_PROEST256APE_TAGBYTES: usize = 32;

/// Prøst-COPA-256 (`proest256copav1`) key length (`CRYPTO_KEYBYTES`).
pub const SLICEWISE_PROEST256COPA_KEYBYTES: usize = 64;
/// Secret message number length (`CRYPTO_NSECBYTES`): unused.
pub const SLICEWISE_PROEST256COPA_NSECBYTES: usize = 0;
/// Nonce length (`CRYPTO_NPUBBYTES`).
pub const SLICEWISE_PROEST256COPA_NPUBBYTES: usize = 32;
/// Largest ciphertext expansion, `clen - mlen` (`CRYPTO_ABYTES`).
pub const SLICEWISE_PROEST256COPA_ABYTES: usize = 96;
/// Tag length (part of the expansion).
pub const SLICEWISE_PROEST256COPA_TAGBYTES: usize = 32;

/// Prøst-OTR-256 (`proest256otrv1`) key length (`CRYPTO_KEYBYTES`).
pub const SLICEWISE_PROEST256OTR_KEYBYTES: usize = 64;
/// Secret message number length (`CRYPTO_NSECBYTES`): unused.
pub const SLICEWISE_PROEST256OTR_NSECBYTES: usize = 0;
/// Nonce length (`CRYPTO_NPUBBYTES`).
pub const SLICEWISE_PROEST256OTR_NPUBBYTES: usize = 32;
/// Largest ciphertext expansion, `clen - mlen` (`CRYPTO_ABYTES`).
pub const SLICEWISE_PROEST256OTR_ABYTES: usize = 96;
/// Tag length (part of the expansion).
pub const SLICEWISE_PROEST256OTR_TAGBYTES: usize = 32;

/// The header's literals against the Rust crate's constants: key, nonce, largest expansion
/// (that of the empty message) and tag.
const fn sizes_match<M: Mode>(
    key: usize,
    nsec: usize,
    npub: usize,
    abytes: usize,
    tag: usize,
) -> bool {
    key == M::KEY_LEN
        && nsec == 0
        && npub == M::NONCE_LEN
        && abytes == ProestAead::<M>::MIN_CIPHERTEXT_LEN
        && abytes == M::LAST_BLOCK + M::TAG_LEN
        && tag == M::TAG_LEN
}

const _: () = {
    assert!(sizes_match::<Ape<Proest128>>(
        SLICEWISE_PROEST128APE_KEYBYTES,
        SLICEWISE_PROEST128APE_NSECBYTES,
        SLICEWISE_PROEST128APE_NPUBBYTES,
        SLICEWISE_PROEST128APE_ABYTES,
        SLICEWISE_PROEST128APE_TAGBYTES
    ));
    assert!(sizes_match::<Copa<Proest128>>(
        SLICEWISE_PROEST128COPA_KEYBYTES,
        SLICEWISE_PROEST128COPA_NSECBYTES,
        SLICEWISE_PROEST128COPA_NPUBBYTES,
        SLICEWISE_PROEST128COPA_ABYTES,
        SLICEWISE_PROEST128COPA_TAGBYTES
    ));
    assert!(sizes_match::<Otr<Proest128>>(
        SLICEWISE_PROEST128OTR_KEYBYTES,
        SLICEWISE_PROEST128OTR_NSECBYTES,
        SLICEWISE_PROEST128OTR_NPUBBYTES,
        SLICEWISE_PROEST128OTR_ABYTES,
        SLICEWISE_PROEST128OTR_TAGBYTES
    ));
    assert!(sizes_match::<Ape<Proest256>>(
        SLICEWISE_PROEST256APE_KEYBYTES,
        SLICEWISE_PROEST256APE_NSECBYTES,
        SLICEWISE_PROEST256APE_NPUBBYTES,
        SLICEWISE_PROEST256APE_ABYTES,
        SLICEWISE_PROEST256APE_TAGBYTES
    ));
    assert!(sizes_match::<Copa<Proest256>>(
        SLICEWISE_PROEST256COPA_KEYBYTES,
        SLICEWISE_PROEST256COPA_NSECBYTES,
        SLICEWISE_PROEST256COPA_NPUBBYTES,
        SLICEWISE_PROEST256COPA_ABYTES,
        SLICEWISE_PROEST256COPA_TAGBYTES
    ));
    assert!(sizes_match::<Otr<Proest256>>(
        SLICEWISE_PROEST256OTR_KEYBYTES,
        SLICEWISE_PROEST256OTR_NSECBYTES,
        SLICEWISE_PROEST256OTR_NPUBBYTES,
        SLICEWISE_PROEST256OTR_ABYTES,
        SLICEWISE_PROEST256OTR_TAGBYTES
    ));
};

// The twelve entry points. Contract shared by all (see the header's introduction):
// encryption writes at most `mlen + ABYTES` bytes to `c` and the length to `*clen`;
// decryption writes at most `clen - TAGBYTES - 1` bytes to `m` and the length to `*mlen`,
// returns -1 on any verification failure, and then leaves those bytes zero and `*mlen` 0.

/// Prøst-APE-128 encryption (SUPERCOP `proest128apev1` `crypto_aead_encrypt`).
///
/// # Safety
/// `c`: `mlen + SLICEWISE_PROEST128APE_ABYTES` writable bytes; `m`, `ad`: `mlen`, `adlen`
/// readable bytes (NULL if the length is 0); `npub`, `k`: NPUBBYTES, KEYBYTES readable bytes;
/// `nsec` is ignored. Buffers may overlap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn slicewise_proest128ape_encrypt(
    c: *mut c_uchar,
    clen: *mut c_ulonglong,
    m: *const c_uchar,
    mlen: c_ulonglong,
    ad: *const c_uchar,
    adlen: c_ulonglong,
    nsec: *const c_uchar,
    npub: *const c_uchar,
    k: *const c_uchar,
) -> c_int {
    // SAFETY: same contract.
    unsafe { encrypt::<Ape<Proest128>>(c, clen, m, mlen, ad, adlen, nsec, npub, k) }
}

/// Prøst-APE-128 decryption (SUPERCOP `proest128apev1` `crypto_aead_decrypt`): 0, or -1 if
/// the ciphertext does not verify (then `*mlen` = 0 and `m[0 .. clen - TAGBYTES - 1]` is zero).
///
/// # Safety
/// `m`: `clen` writable bytes; `mlen` writable; `c`, `ad`: `clen`, `adlen` readable bytes;
/// `npub`, `k`: NPUBBYTES, KEYBYTES readable bytes; `nsec` is ignored. Buffers may overlap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn slicewise_proest128ape_decrypt(
    m: *mut c_uchar,
    mlen: *mut c_ulonglong,
    nsec: *mut c_uchar,
    c: *const c_uchar,
    clen: c_ulonglong,
    ad: *const c_uchar,
    adlen: c_ulonglong,
    npub: *const c_uchar,
    k: *const c_uchar,
) -> c_int {
    // SAFETY: same contract.
    unsafe { decrypt::<Ape<Proest128>>(m, mlen, nsec, c, clen, ad, adlen, npub, k) }
}

/// Prøst-COPA-128 encryption (`proest128copav1`); as `slicewise_proest128ape_encrypt`.
///
/// # Safety
/// As `slicewise_proest128ape_encrypt`, with this variant's sizes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn slicewise_proest128copa_encrypt(
    c: *mut c_uchar,
    clen: *mut c_ulonglong,
    m: *const c_uchar,
    mlen: c_ulonglong,
    ad: *const c_uchar,
    adlen: c_ulonglong,
    nsec: *const c_uchar,
    npub: *const c_uchar,
    k: *const c_uchar,
) -> c_int {
    // SAFETY: same contract.
    unsafe { encrypt::<Copa<Proest128>>(c, clen, m, mlen, ad, adlen, nsec, npub, k) }
}

/// Prøst-COPA-128 decryption (`proest128copav1`); as `slicewise_proest128ape_decrypt`.
///
/// # Safety
/// As `slicewise_proest128ape_decrypt`, with this variant's sizes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn slicewise_proest128copa_decrypt(
    m: *mut c_uchar,
    mlen: *mut c_ulonglong,
    nsec: *mut c_uchar,
    c: *const c_uchar,
    clen: c_ulonglong,
    ad: *const c_uchar,
    adlen: c_ulonglong,
    npub: *const c_uchar,
    k: *const c_uchar,
) -> c_int {
    // SAFETY: same contract.
    unsafe { decrypt::<Copa<Proest128>>(m, mlen, nsec, c, clen, ad, adlen, npub, k) }
}

/// Prøst-OTR-128 encryption (`proest128otrv1`); as `slicewise_proest128ape_encrypt`.
///
/// # Safety
/// As `slicewise_proest128ape_encrypt`, with this variant's sizes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn slicewise_proest128otr_encrypt(
    c: *mut c_uchar,
    clen: *mut c_ulonglong,
    m: *const c_uchar,
    mlen: c_ulonglong,
    ad: *const c_uchar,
    adlen: c_ulonglong,
    nsec: *const c_uchar,
    npub: *const c_uchar,
    k: *const c_uchar,
) -> c_int {
    // SAFETY: same contract.
    unsafe { encrypt::<Otr<Proest128>>(c, clen, m, mlen, ad, adlen, nsec, npub, k) }
}

/// Prøst-OTR-128 decryption (`proest128otrv1`); as `slicewise_proest128ape_decrypt`.
///
/// # Safety
/// As `slicewise_proest128ape_decrypt`, with this variant's sizes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn slicewise_proest128otr_decrypt(
    m: *mut c_uchar,
    mlen: *mut c_ulonglong,
    nsec: *mut c_uchar,
    c: *const c_uchar,
    clen: c_ulonglong,
    ad: *const c_uchar,
    adlen: c_ulonglong,
    npub: *const c_uchar,
    k: *const c_uchar,
) -> c_int {
    // SAFETY: same contract.
    unsafe { decrypt::<Otr<Proest128>>(m, mlen, nsec, c, clen, ad, adlen, npub, k) }
}

/// Prøst-APE-256 encryption (`proest256apev1`); as `slicewise_proest128ape_encrypt`.
///
/// # Safety
/// As `slicewise_proest128ape_encrypt`, with this variant's sizes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn slicewise_proest256ape_encrypt(
    c: *mut c_uchar,
    clen: *mut c_ulonglong,
    m: *const c_uchar,
    mlen: c_ulonglong,
    ad: *const c_uchar,
    adlen: c_ulonglong,
    nsec: *const c_uchar,
    npub: *const c_uchar,
    k: *const c_uchar,
) -> c_int {
    // SAFETY: same contract.
    unsafe { encrypt::<Ape<Proest256>>(c, clen, m, mlen, ad, adlen, nsec, npub, k) }
}

/// Prøst-APE-256 decryption (`proest256apev1`); as `slicewise_proest128ape_decrypt`.
///
/// # Safety
/// As `slicewise_proest128ape_decrypt`, with this variant's sizes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn slicewise_proest256ape_decrypt(
    m: *mut c_uchar,
    mlen: *mut c_ulonglong,
    nsec: *mut c_uchar,
    c: *const c_uchar,
    clen: c_ulonglong,
    ad: *const c_uchar,
    adlen: c_ulonglong,
    npub: *const c_uchar,
    k: *const c_uchar,
) -> c_int {
    // SAFETY: same contract.
    unsafe { decrypt::<Ape<Proest256>>(m, mlen, nsec, c, clen, ad, adlen, npub, k) }
}

/// Prøst-COPA-256 encryption (`proest256copav1`); as `slicewise_proest128ape_encrypt`.
///
/// # Safety
/// As `slicewise_proest128ape_encrypt`, with this variant's sizes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn slicewise_proest256copa_encrypt(
    c: *mut c_uchar,
    clen: *mut c_ulonglong,
    m: *const c_uchar,
    mlen: c_ulonglong,
    ad: *const c_uchar,
    adlen: c_ulonglong,
    nsec: *const c_uchar,
    npub: *const c_uchar,
    k: *const c_uchar,
) -> c_int {
    // SAFETY: same contract.
    unsafe { encrypt::<Copa<Proest256>>(c, clen, m, mlen, ad, adlen, nsec, npub, k) }
}

/// Prøst-COPA-256 decryption (`proest256copav1`); as `slicewise_proest128ape_decrypt`.
///
/// # Safety
/// As `slicewise_proest128ape_decrypt`, with this variant's sizes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn slicewise_proest256copa_decrypt(
    m: *mut c_uchar,
    mlen: *mut c_ulonglong,
    nsec: *mut c_uchar,
    c: *const c_uchar,
    clen: c_ulonglong,
    ad: *const c_uchar,
    adlen: c_ulonglong,
    npub: *const c_uchar,
    k: *const c_uchar,
) -> c_int {
    // SAFETY: same contract.
    unsafe { decrypt::<Copa<Proest256>>(m, mlen, nsec, c, clen, ad, adlen, npub, k) }
}

/// Prøst-OTR-256 encryption (`proest256otrv1`); as `slicewise_proest128ape_encrypt`.
///
/// # Safety
/// As `slicewise_proest128ape_encrypt`, with this variant's sizes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn slicewise_proest256otr_encrypt(
    c: *mut c_uchar,
    clen: *mut c_ulonglong,
    m: *const c_uchar,
    mlen: c_ulonglong,
    ad: *const c_uchar,
    adlen: c_ulonglong,
    nsec: *const c_uchar,
    npub: *const c_uchar,
    k: *const c_uchar,
) -> c_int {
    // SAFETY: same contract.
    unsafe { encrypt::<Otr<Proest256>>(c, clen, m, mlen, ad, adlen, nsec, npub, k) }
}

/// Prøst-OTR-256 decryption (`proest256otrv1`); as `slicewise_proest128ape_decrypt`.
///
/// # Safety
/// As `slicewise_proest128ape_decrypt`, with this variant's sizes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn slicewise_proest256otr_decrypt(
    m: *mut c_uchar,
    mlen: *mut c_ulonglong,
    nsec: *mut c_uchar,
    c: *const c_uchar,
    clen: c_ulonglong,
    ad: *const c_uchar,
    adlen: c_ulonglong,
    npub: *const c_uchar,
    k: *const c_uchar,
) -> c_int {
    // SAFETY: same contract.
    unsafe { decrypt::<Otr<Proest256>>(m, mlen, nsec, c, clen, ad, adlen, npub, k) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slicewise_proest::ProestOtr128;

    #[test]
    fn round_trip_in_place_and_failure_wipes() {
        let key = [7u8; SLICEWISE_PROEST128OTR_KEYBYTES];
        let nonce = [9u8; SLICEWISE_PROEST128OTR_NPUBBYTES];
        let msg: Vec<u8> = (0..77u8).collect();
        let want = ProestOtr128::new(&key)
            .unwrap()
            .encrypt(&nonce, b"ad", &msg)
            .unwrap();
        let mut buf = vec![0u8; msg.len() + SLICEWISE_PROEST128OTR_ABYTES];
        buf[..msg.len()].copy_from_slice(&msg);
        let (mut clen, mut mlen) = (0u64, 0u64);
        let p = buf.as_mut_ptr();
        // SAFETY: `buf` and `out` have room for every output below; in-place use is allowed.
        unsafe {
            let rc = slicewise_proest128otr_encrypt(
                p,
                &mut clen,
                p,
                77,
                b"ad".as_ptr(),
                2,
                ptr::null(),
                nonce.as_ptr(),
                key.as_ptr(),
            );
            assert_eq!(rc, 0);
            assert_eq!(&buf[..clen as usize], &want[..]);
            let rc = slicewise_proest128otr_decrypt(
                p,
                &mut mlen,
                ptr::null_mut(),
                p,
                clen,
                b"ad".as_ptr(),
                2,
                nonce.as_ptr(),
                key.as_ptr(),
            );
            assert_eq!((rc, mlen), (0, 77));
            assert_eq!(&buf[..77], &msg[..]);
            // Wrong AD: -1, *mlen = 0, the plaintext region zero.
            buf[..want.len()].copy_from_slice(&want);
            let mut out = vec![0xEEu8; want.len()];
            let rc = slicewise_proest128otr_decrypt(
                out.as_mut_ptr(),
                &mut mlen,
                ptr::null_mut(),
                want.as_ptr(),
                clen,
                b"aD".as_ptr(),
                2,
                nonce.as_ptr(),
                key.as_ptr(),
            );
            assert_eq!((rc, mlen), (SLICEWISE_ERR_VERIFY, 0));
            let max = ProestOtr128::max_plaintext_len(want.len()).unwrap();
            assert!(out[..max].iter().all(|&b| b == 0));
            assert!(out[max..].iter().all(|&b| b == 0xEE));
            // A key pointer of NULL is an argument error and still wipes.
            out.fill(0xEE);
            let rc = slicewise_proest128otr_decrypt(
                out.as_mut_ptr(),
                &mut mlen,
                ptr::null_mut(),
                want.as_ptr(),
                clen,
                ptr::null(),
                0,
                nonce.as_ptr(),
                ptr::null(),
            );
            assert_eq!(rc, SLICEWISE_ERR_NULL);
            assert!(out[..max].iter().all(|&b| b == 0));
            // An impossible ciphertext length is a verification failure and writes nothing.
            out.fill(0xEE);
            let rc = slicewise_proest128otr_decrypt(
                out.as_mut_ptr(),
                &mut mlen,
                ptr::null_mut(),
                want.as_ptr(),
                clen - 1,
                ptr::null(),
                0,
                nonce.as_ptr(),
                key.as_ptr(),
            );
            assert_eq!(rc, SLICEWISE_ERR_VERIFY);
            assert!(out.iter().all(|&b| b == 0xEE));
            // NULL message with length 0 is fine; NULL with a length is not.
            let rc = slicewise_proest128otr_encrypt(
                out.as_mut_ptr(),
                &mut clen,
                ptr::null(),
                0,
                ptr::null(),
                0,
                ptr::null(),
                nonce.as_ptr(),
                key.as_ptr(),
            );
            assert_eq!((rc, clen as usize), (0, SLICEWISE_PROEST128OTR_ABYTES));
            let rc = slicewise_proest128otr_encrypt(
                out.as_mut_ptr(),
                &mut clen,
                ptr::null(),
                1,
                ptr::null(),
                0,
                ptr::null(),
                nonce.as_ptr(),
                key.as_ptr(),
            );
            assert_eq!((rc, clen), (SLICEWISE_ERR_NULL, 0));
        }
    }
}
