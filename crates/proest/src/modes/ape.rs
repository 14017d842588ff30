//! Prøst-APE (`proest{128,256}apev1`): APE over P directly, rate r = S/2, capacity S/2.
//! Spec: `shared/spec/proest.md` §4. Decryption runs backwards with P^-1, as APE prescribes.

use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroize;

use super::core_trait::ModeCore;
use super::{Blk, MAX_S, Mode, Sink, xor_into};
use crate::permutation::{Permutation, Proest128, Proest256};

/// Prøst-APE over the permutation `P`. Use through [`crate::ProestAead`].
pub struct Ape<P: Permutation> {
    perm: P,
    /// The key (S/2 bytes used).
    key: [u8; MAX_S / 2],
}

impl<P: Permutation> Ape<P> {
    const S: usize = P::STATE_BYTES;
    const R: usize = P::STATE_BYTES / 2;

    /// Steps 1–4 of encryption: key, nonce and associated data into the state.
    fn init(&self, nonce: &[u8], ad: &[u8]) -> Blk {
        let (s, r) = (Self::S, Self::R);
        let mut v = [0u8; MAX_S];
        v[r..s].copy_from_slice(&self.key[..r]);
        xor_into(&mut v[..r], &nonce[..r]);
        self.perm.permute_bytes(&mut v[..s]);
        xor_into(&mut v[..r], &nonce[r..2 * r]);
        self.perm.permute_bytes(&mut v[..s]);
        let mut blocks = ad.chunks_exact(r);
        for a in &mut blocks {
            xor_into(&mut v[..r], a);
            self.perm.permute_bytes(&mut v[..s]);
        }
        let rest = blocks.remainder();
        xor_into(&mut v[..rest.len()], rest);
        v[rest.len()] ^= 0x80;
        self.perm.permute_bytes(&mut v[..s]);
        v[s - 1] ^= 0x01;
        v
    }
}

impl<P: Permutation> ModeCore for Ape<P> {
    type Perm = P;

    fn from_parts(perm: P, key: &[u8]) -> Self {
        let mut k = [0u8; MAX_S / 2];
        k[..key.len()].copy_from_slice(key);
        Ape { perm, key: k }
    }

    fn perm(&self) -> &P {
        &self.perm
    }

    fn seal(&self, nonce: &[u8], ad: &[u8], msg: &[u8], out: &mut [u8]) {
        let (s, r) = (Self::S, Self::R);
        let mut v = self.init(nonce, ad);
        let mut pos = 0;
        let mut blocks = msg.chunks_exact(r);
        for m in &mut blocks {
            xor_into(&mut v[..r], m);
            self.perm.permute_bytes(&mut v[..s]);
            out[pos..pos + r].copy_from_slice(&v[..r]);
            pos += r;
        }
        let rest = blocks.remainder();
        xor_into(&mut v[..rest.len()], rest);
        v[rest.len()] ^= 0x80;
        self.perm.permute_bytes(&mut v[..s]);
        out[pos..pos + r].copy_from_slice(&v[..r]);
        pos += r;
        let tag = &mut out[pos..pos + r];
        tag.copy_from_slice(&v[r..s]);
        xor_into(tag, &self.key[..r]);
        v.zeroize();
    }

    fn open(&self, nonce: &[u8], ad: &[u8], body: &[u8], tag: &[u8], out: &mut [u8], last: &mut [u8]) -> Choice {
        let (s, r) = (Self::S, Self::R);
        let mut iv = self.init(nonce, ad);
        let n = body.len() / r;
        let mut sink = Sink { out, last };
        let c = |i: usize| &body[i * r..(i + 1) * r];
        let mut v = [0u8; MAX_S];
        v[..r].copy_from_slice(c(n - 1));
        v[r..s].copy_from_slice(tag);
        xor_into(&mut v[r..s], &self.key[..r]);
        self.perm.inverse_bytes(&mut v[..s]);
        let mut p = [0u8; MAX_S / 2];
        for i in (1..n).rev() {
            p[..r].copy_from_slice(&v[..r]);
            xor_into(&mut p[..r], c(i - 1));
            sink.put(i * r, &p[..r]);
            v[..r].copy_from_slice(c(i - 1));
            self.perm.inverse_bytes(&mut v[..s]);
        }
        p[..r].copy_from_slice(&v[..r]);
        xor_into(&mut p[..r], &iv[..r]);
        sink.put(0, &p[..r]);
        let ok = v[r..s].ct_eq(&iv[r..s]);
        v.zeroize();
        iv.zeroize();
        p.zeroize();
        ok
    }
}

macro_rules! ape_mode {
    ($p:ty, $alg:literal) => {
        impl Mode for Ape<$p> {
            const ALGORITHM: &'static str = $alg;
            const KEY_LEN: usize = <$p>::STATE_BYTES / 2;
            const NONCE_LEN: usize = <$p>::STATE_BYTES;
            const TAG_LEN: usize = <$p>::STATE_BYTES / 2;
            const LAST_BLOCK: usize = <$p>::STATE_BYTES / 2;
            fn ciphertext_len(msg_len: usize) -> Option<usize> {
                let r = Self::LAST_BLOCK;
                (msg_len / r + 1).checked_mul(r)?.checked_add(Self::TAG_LEN)
            }
            fn is_valid_ciphertext_len(ct_len: usize) -> bool {
                let r = Self::LAST_BLOCK;
                ct_len >= r + Self::TAG_LEN && (ct_len - Self::TAG_LEN) % r == 0
            }
        }
    };
}
ape_mode!(Proest128, "proest128apev1");
ape_mode!(Proest256, "proest256apev1");

super::key_holder!(Ape);
