//! What the three modes share: the public [`Mode`] trait, the sealed core trait, the block
//! helpers and the Even–Mansour block cipher. Below the mode files, which import it through
//! `super::` (the re-exports of `modes/mod.rs`).

use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};

use crate::lane::{Lane, State, load_state, store_state};
use crate::permutation::Permutation;

/// `Drop` (wipes the key) and a `Debug` that hides it, for a mode type `$t<P>`.
macro_rules! key_holder {
    ($t:ident) => {
        impl<P: Permutation> Drop for $t<P> {
            fn drop(&mut self) {
                zeroize::Zeroize::zeroize(&mut self.key);
            }
        }

        impl<P: Permutation> core::fmt::Debug for $t<P> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($t)).field("perm", &self.perm).field("key", &"<hidden>").finish()
            }
        }
    };
}
pub(crate) use key_holder;

/// Largest state size in bytes (Prøst-256).
pub(crate) const MAX_S: usize = 64;
/// A block; only the first `P::STATE_BYTES` bytes are used.
pub(crate) type Blk = [u8; MAX_S];
/// How many independent block-cipher calls the modes hand to `permute_many` at once.
pub(crate) const BATCH: usize = 32;

/// The low-RAM mode paths (one block at a time, no batch arrays; same bytes): on
/// microcontrollers (`target_os = "none"`: bare-metal Cortex-M, AVR) and with the `low-ram`
/// feature (which runs the tests through them on the host). OTR's wide path needs a 3.5 KiB
/// frame on a Cortex-M0; the serial one a few hundred bytes (docs/embedded.md).
pub(crate) const LOW_RAM: bool = cfg!(any(target_os = "none", feature = "low-ram"));

/// Constants of a Prøst AEAD mode instance (e.g. `Ape<Proest128>`).
pub trait Mode: core_trait::ModeCore {
    /// SUPERCOP name, e.g. `proest128apev1`.
    const ALGORITHM: &'static str;
    /// Key length in bytes.
    const KEY_LEN: usize;
    /// Nonce length in bytes.
    const NONCE_LEN: usize;
    /// Tag length in bytes.
    const TAG_LEN: usize;
    /// Length of the final block that carries the 10* padding (APE: the rate; COPA/OTR: B).
    const LAST_BLOCK: usize;
    /// Ciphertext length for a message of `msg_len` bytes (`None` on overflow). Always longer
    /// than the message: every mode pads with at least one byte.
    fn ciphertext_len(msg_len: usize) -> Option<usize>;
    /// Whether `ct_len` is a possible ciphertext length of this mode (a whole number, at least
    /// one, of blocks plus the tag).
    fn is_valid_ciphertext_len(ct_len: usize) -> bool;
}

pub(crate) mod core_trait {
    use super::*;

    /// The raw mode operations. Sealed: `open` writes unverified plaintext.
    pub trait ModeCore: Sized + Send + Sync {
        /// The permutation.
        type Perm: Permutation;
        /// Builds the mode from a key of exactly `KEY_LEN` bytes.
        fn from_parts(perm: Self::Perm, key: &[u8]) -> Self;
        /// The permutation in use.
        fn perm(&self) -> &Self::Perm;
        /// Encrypts; `out.len() == ciphertext_len(msg.len())`, nonce of the right length.
        fn seal(&self, nonce: &[u8], ad: &[u8], msg: &[u8], out: &mut [u8]);
        /// Decrypts a ciphertext of valid length form: `body` is the ciphertext without the tag.
        /// The padded plaintext is written to `out` (its first `body.len() - LAST_BLOCK` bytes)
        /// and `last` (the final `LAST_BLOCK` bytes). Returns whether the tag (APE: the
        /// recovered capacity) verifies; the caller checks the padding and releases nothing
        /// unless both hold.
        fn open(&self, nonce: &[u8], ad: &[u8], body: &[u8], tag: &[u8], out: &mut [u8], last: &mut [u8]) -> Choice;
        /// [`ModeCore::seal`] on every job (lengths already checked). The default runs them
        /// one after the other (COPA and OTR are wide within each message); APE overrides it
        /// to run the messages in lockstep through `permute_many`.
        fn seal_batch(&self, jobs: &mut [SealJob<'_>]) {
            for j in jobs {
                self.seal(j.nonce, j.ad, j.msg, j.out);
            }
        }
        /// [`ModeCore::open`] on every job (lengths already checked); one verification
        /// result per job. The default runs them one after the other; APE overrides it to run
        /// the messages in lockstep through the wide calls.
        #[cfg(feature = "alloc")]
        fn open_batch(&self, jobs: &mut [OpenJob<'_>]) -> alloc::vec::Vec<Choice> {
            jobs.iter_mut().map(|j| self.open(j.nonce, j.ad, j.body, j.tag, j.out, j.last)).collect()
        }
    }

    /// One ciphertext of a batch, split as for [`ModeCore::open`].
    #[cfg(feature = "alloc")]
    pub struct OpenJob<'a> {
        pub(crate) nonce: &'a [u8],
        pub(crate) ad: &'a [u8],
        pub(crate) body: &'a [u8],
        pub(crate) tag: &'a [u8],
        pub(crate) out: &'a mut [u8],
        pub(crate) last: &'a mut [u8],
    }

    #[cfg(feature = "alloc")]
    impl core::fmt::Debug for OpenJob<'_> {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.debug_struct("OpenJob").field("ad_len", &self.ad.len()).field("body_len", &self.body.len()).finish()
        }
    }

    /// One message of a batch: inputs and its exactly sized ciphertext buffer.
    pub struct SealJob<'a> {
        pub(crate) nonce: &'a [u8],
        pub(crate) ad: &'a [u8],
        pub(crate) msg: &'a [u8],
        pub(crate) out: &'a mut [u8],
    }

    impl core::fmt::Debug for SealJob<'_> {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.debug_struct("SealJob").field("ad_len", &self.ad.len()).field("msg_len", &self.msg.len()).finish()
        }
    }
}

/// Writes the padded plaintext during decryption: blocks before `split` go to `out`, the final
/// block to `last`.
pub(crate) struct Sink<'a> {
    pub(crate) out: &'a mut [u8],
    pub(crate) last: &'a mut [u8],
}

impl Sink<'_> {
    #[inline]
    pub(crate) fn put(&mut self, pos: usize, data: &[u8]) {
        let split = self.out.len();
        if pos >= split {
            self.last[pos - split..pos - split + data.len()].copy_from_slice(data);
        } else {
            self.out[pos..pos + data.len()].copy_from_slice(data);
        }
    }
}

#[inline]
pub(crate) fn xor_into(dst: &mut [u8], src: &[u8]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= *s;
    }
}

/// `a ^ b` on the first `s` bytes.
#[inline]
pub(crate) fn xor(a: &Blk, b: &Blk, s: usize) -> Blk {
    let mut r = *a;
    xor_into(&mut r[..s], &b[..s]);
    r
}

/// Multiplication by 2 in GF(2^(8s)) (little-endian bytes), s = 32 or 64, constant time
/// (see [`crate::em::dbl_bytes`]).
#[inline]
pub(crate) fn dbl(x: &mut Blk, s: usize) {
    debug_assert!(s == 32 || s == 64);
    crate::em::dbl_bytes(&mut x[..s]);
}

/// How many blocks (COPA) or double blocks (OTR) go into one [`Permutation::em_many`] call.
pub(crate) const CHUNK: usize = 256;

/// The COPA V chain on a run of blocks: `v ^= b_j; b_j = v` for every block in order.
#[inline]
pub(crate) fn prefix_xor(buf: &mut [u8], s: usize, v: &mut Blk) {
    for blk in buf.chunks_exact_mut(s) {
        for (b, x) in blk.iter_mut().zip(v[..s].iter_mut()) {
            *x ^= *b;
            *b = *x;
        }
    }
}

/// COPA decryption's differences: `b_j ← b_j ^ b_(j-1)` (with `b_(-1) = v`), and `v ←` the
/// last original block.
#[inline]
pub(crate) fn diff_xor(buf: &mut [u8], s: usize, v: &mut Blk) {
    let n = buf.len() / s;
    if n == 0 {
        return;
    }
    let mut last = [0u8; MAX_S];
    last[..s].copy_from_slice(&buf[(n - 1) * s..n * s]);
    for j in (1..n).rev() {
        let (a, b) = buf.split_at_mut(j * s);
        xor_into(&mut b[..s], &a[(j - 1) * s..]);
    }
    xor_into(&mut buf[..s], &v[..s]);
    *v = last;
    wipe(&mut last);
}

/// Wipes scratch blocks with `zeroize` (volatile stores the compiler cannot remove as dead).
#[inline]
pub(crate) fn wipe<T: zeroize::Zeroize>(x: &mut [T]) {
    zeroize::Zeroize::zeroize(&mut x.iter_mut());
}

/// `2·x`.
#[inline]
pub(crate) fn times2(x: &Blk, s: usize) -> Blk {
    let mut r = *x;
    dbl(&mut r, s);
    r
}

/// `3·x`.
#[inline]
pub(crate) fn times3(x: &Blk, s: usize) -> Blk {
    let mut r = times2(x, s);
    xor_into(&mut r[..s], &x[..s]);
    r
}

/// `pad_n(x)` = x || 0x80 || 0…, for |x| < n (n ≤ 64).
#[inline]
pub(crate) fn pad(x: &[u8]) -> Blk {
    let mut b = [0u8; MAX_S];
    b[..x.len()].copy_from_slice(x);
    b[x.len()] = 0x80;
    b
}

/// Locates the 10* padding of the final block in constant time: `(valid, index of the 0x80)`.
/// Valid iff the last non-zero byte is 0x80. (The reference code scans on past an all-zero
/// final block; an encryption never produces one, so rejecting it changes nothing for
/// authentic ciphertexts.)
pub(crate) fn unpad_ct(last: &[u8]) -> (Choice, usize) {
    let mut found = Choice::from(0);
    let mut bad = Choice::from(0);
    let mut pos = 0u64;
    for i in (0..last.len()).rev() {
        let b = last[i];
        let nonzero = !b.ct_eq(&0);
        let first = nonzero & !found;
        bad |= first & !b.ct_eq(&0x80);
        pos = u64::conditional_select(&pos, &(i as u64), first);
        found |= nonzero;
    }
    (found & !bad, pos as usize)
}

/// The Even–Mansour block cipher `E_K(X) = P(X ^ K) ^ K` used by COPA and OTR.
pub(crate) struct Em<'a, P: Permutation> {
    pub(crate) p: &'a P,
    pub(crate) key: &'a [u8],
}

impl<P: Permutation> Em<'_, P> {
    const S: usize = P::STATE_BYTES;

    #[inline]
    pub(crate) fn e(&self, x: &mut Blk) {
        xor_into(&mut x[..Self::S], self.key);
        self.p.permute_bytes(&mut x[..Self::S]);
        xor_into(&mut x[..Self::S], self.key);
    }

    /// `E` on a copy.
    #[inline]
    pub(crate) fn e_of(&self, x: &Blk) -> Blk {
        let mut r = *x;
        self.e(&mut r);
        r
    }

    /// `E` on every block, `BATCH` states per `permute_many` call.
    pub(crate) fn e_many(&self, xs: &mut [Blk]) {
        self.many(xs, false)
    }

    fn many(&self, xs: &mut [Blk], inverse: bool) {
        let s = Self::S;
        for chunk in xs.chunks_mut(BATCH) {
            let mut st: [State<P::Lane>; BATCH] = [[<P::Lane as Lane>::ZERO; 16]; BATCH];
            for (state, x) in st.iter_mut().zip(chunk.iter_mut()) {
                xor_into(&mut x[..s], self.key);
                *state = load_state(&x[..s]);
            }
            let n = chunk.len();
            if inverse {
                self.p.inverse_many(&mut st[..n]);
            } else {
                self.p.permute_many(&mut st[..n]);
            }
            for (state, x) in st.iter().zip(chunk.iter_mut()) {
                store_state(state, &mut x[..s]);
                xor_into(&mut x[..s], self.key);
            }
            wipe(&mut st[..n]);
        }
    }
}
