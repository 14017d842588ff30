//! Prøst-COPA (`proest{128,256}copav1`): COPA over the Even–Mansour cipher `E_K`.
//! Spec: `shared/spec/proest.md` §3, §5. Both block-cipher layers are batched through
//! `permute_many`/`inverse_many` (the second layer only depends on a prefix XOR of the first).

use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroize;

use super::core_trait::ModeCore;
use super::{BATCH, Mask, wipe, Blk, Em, MAX_S, Mode, Sink, dbl, pad, times2, times3, xor, xor_into};
use crate::permutation::{Permutation, Proest128, Proest256};

/// Prøst-COPA over the permutation `P`. Use through [`crate::ProestAead`].
pub struct Copa<P: Permutation> {
    perm: P,
    key: [u8; MAX_S],
}

/// Per-message secrets: `L = E(0)`, the masks and the running state.
struct Ctx {
    l: Blk,
    d0: Blk,
    d1: Blk,
    sigma: Blk,
    v: Blk,
}

impl Drop for Ctx {
    fn drop(&mut self) {
        self.l.zeroize();
        self.d0.zeroize();
        self.d1.zeroize();
        self.sigma.zeroize();
        self.v.zeroize();
    }
}

impl<P: Permutation> Copa<P> {
    const S: usize = P::STATE_BYTES;

    fn em(&self) -> Em<'_, P> {
        Em { p: &self.perm, key: &self.key[..Self::S] }
    }

    /// Setup and the AD + nonce pass (spec §5): returns Δ0 = 3L, Δ1 = 2L, Σ = 0 and V.
    fn start(&self, nonce: &[u8], ad: &[u8]) -> Ctx {
        let s = Self::S;
        let em = self.em();
        let l = em.e_of(&[0u8; MAX_S]);
        let d0 = times3(&l, s);
        let d1 = times2(&l, s);
        let mut delta = times3(&times3(&d0, s), s);
        let mut v = [0u8; MAX_S];
        let mut blocks = ad.chunks_exact(s);
        let mut xs = [[0u8; MAX_S]; BATCH];
        loop {
            let mut n = 0;
            for a in blocks.by_ref().take(BATCH) {
                xs[n][..s].copy_from_slice(a);
                xor_into(&mut xs[n][..s], &delta[..s]);
                dbl(&mut delta, s);
                n += 1;
            }
            if n == 0 {
                break;
            }
            em.e_many(&mut xs[..n]);
            for x in &xs[..n] {
                xor_into(&mut v[..s], &x[..s]);
            }
        }
        wipe(&mut xs, [0u8; MAX_S]);
        // Z = rest || N, B/2 <= |Z| < 1.5 B.
        let rest = blocks.remainder();
        let mut z = [0u8; MAX_S * 3 / 2];
        z[..rest.len()].copy_from_slice(rest);
        z[rest.len()..rest.len() + nonce.len()].copy_from_slice(nonce);
        let zl = rest.len() + nonce.len();
        let mut y;
        if zl > s {
            let mut x = [0u8; MAX_S];
            x[..s].copy_from_slice(&z[..s]);
            xor_into(&mut x[..s], &delta[..s]);
            em.e(&mut x);
            xor_into(&mut v[..s], &x[..s]);
            dbl(&mut delta, s);
            delta = times3(&times3(&delta, s), s);
            y = pad(&z[s..zl]);
        } else if zl == s {
            delta = times3(&delta, s);
            y = [0u8; MAX_S];
            y[..s].copy_from_slice(&z[..s]);
        } else {
            delta = times3(&times3(&delta, s), s);
            y = pad(&z[..zl]);
        }
        xor_into(&mut y[..s], &delta[..s]);
        xor_into(&mut y[..s], &v[..s]);
        em.e(&mut y);
        xor_into(&mut y[..s], &l[..s]);
        z.zeroize();
        delta.zeroize();
        v.zeroize();
        Ctx { l, d0, d1, sigma: [0u8; MAX_S], v: y }
    }

    /// `T = E(E(3·Δ0 ^ Σ) ^ V) ^ (2·Δ1 ^ Δ0)` (first τ bytes used).
    fn tag(&self, c: &Ctx) -> Blk {
        let s = Self::S;
        let em = self.em();
        let mut t = xor(&times3(&c.d0, s), &c.sigma, s);
        em.e(&mut t);
        xor_into(&mut t[..s], &c.v[..s]);
        em.e(&mut t);
        xor_into(&mut t[..s], &times2(&c.d1, s)[..s]);
        xor_into(&mut t[..s], &c.d0[..s]);
        t
    }
}

impl<P: Permutation> ModeCore for Copa<P> {
    type Perm = P;

    fn from_parts(perm: P, key: &[u8]) -> Self {
        let mut k = [0u8; MAX_S];
        k[..key.len()].copy_from_slice(key);
        Copa { perm, key: k }
    }

    fn perm(&self) -> &P {
        &self.perm
    }

    fn seal(&self, nonce: &[u8], ad: &[u8], msg: &[u8], out: &mut [u8]) {
        let s = Self::S;
        let em = self.em();
        let mut c = self.start(nonce, ad);
        let full = msg.len() / s;
        let total = full + 1;
        let mut xs = [[0u8; MAX_S]; BATCH];
        let mut d1s = [Mask::ZERO; BATCH];
        let (mut d0, mut d1) = (Mask::from_blk(&c.d0, s), Mask::from_blk(&c.d1, s));
        let mut i = 0;
        while i < total {
            let n = BATCH.min(total - i);
            for j in 0..n {
                let k = i + j;
                if k < full {
                    xs[j][..s].copy_from_slice(&msg[k * s..(k + 1) * s]);
                } else {
                    xs[j] = pad(&msg[full * s..]);
                }
                xor_into(&mut c.sigma[..s], &xs[j][..s]);
                d0.xor_into(&mut xs[j][..s]);
                d1s[j] = d1;
                if k + 1 < total {
                    d0.dbl(s);
                    d1.dbl(s);
                }
            }
            em.e_many(&mut xs[..n]);
            for x in &mut xs[..n] {
                xor_into(&mut c.v[..s], &x[..s]);
                x[..s].copy_from_slice(&c.v[..s]);
            }
            em.e_many(&mut xs[..n]);
            for j in 0..n {
                let dst = &mut out[(i + j) * s..(i + j + 1) * s];
                dst.copy_from_slice(&xs[j][..s]);
                d1s[j].xor_into(dst);
            }
            i += n;
        }
        c.d0 = d0.to_blk(s);
        c.d1 = d1.to_blk(s);
        let mut t = self.tag(&c);
        let tau = s / 2;
        out[total * s..total * s + tau].copy_from_slice(&t[..tau]);
        t.zeroize();
        wipe(&mut xs, [0u8; MAX_S]);
        wipe(&mut d1s, Mask::ZERO);
        wipe(&mut [d0, d1], Mask::ZERO);
    }

    fn open(&self, nonce: &[u8], ad: &[u8], body: &[u8], tag: &[u8], out: &mut [u8], last: &mut [u8]) -> Choice {
        let s = Self::S;
        let em = self.em();
        let mut c = self.start(nonce, ad);
        let total = body.len() / s;
        let mut sink = Sink { out, last };
        let mut xs = [[0u8; MAX_S]; BATCH];
        let mut ys = [[0u8; MAX_S]; BATCH];
        let mut d0s = [Mask::ZERO; BATCH];
        let (mut d0, mut d1) = (Mask::from_blk(&c.d0, s), Mask::from_blk(&c.d1, s));
        let mut i = 0;
        while i < total {
            let n = BATCH.min(total - i);
            for j in 0..n {
                let k = i + j;
                xs[j][..s].copy_from_slice(&body[k * s..(k + 1) * s]);
                d1.xor_into(&mut xs[j][..s]);
                d0s[j] = d0;
                if k + 1 < total {
                    d0.dbl(s);
                    d1.dbl(s);
                }
            }
            // V_new = D(C ^ Δ1); M = D(V_new ^ V_old) ^ Δ0.
            em.d_many(&mut xs[..n]);
            for j in 0..n {
                ys[j] = xor(&xs[j], &c.v, s);
                c.v = xs[j];
            }
            em.d_many(&mut ys[..n]);
            for j in 0..n {
                d0s[j].xor_into(&mut ys[j][..s]);
                xor_into(&mut c.sigma[..s], &ys[j][..s]);
                sink.put((i + j) * s, &ys[j][..s]);
            }
            i += n;
        }
        c.d0 = d0.to_blk(s);
        c.d1 = d1.to_blk(s);
        let mut t = self.tag(&c);
        let ok = t[..s / 2].ct_eq(tag);
        t.zeroize();
        wipe(&mut xs, [0u8; MAX_S]);
        wipe(&mut ys, [0u8; MAX_S]);
        wipe(&mut d0s, Mask::ZERO);
        wipe(&mut [d0, d1], Mask::ZERO);
        ok
    }
}

macro_rules! copa_mode {
    ($p:ty, $alg:literal) => {
        impl Mode for Copa<$p> {
            const ALGORITHM: &'static str = $alg;
            const KEY_LEN: usize = <$p>::STATE_BYTES;
            const NONCE_LEN: usize = <$p>::STATE_BYTES / 2;
            const TAG_LEN: usize = <$p>::STATE_BYTES / 2;
            const LAST_BLOCK: usize = <$p>::STATE_BYTES;
            fn ciphertext_len(msg_len: usize) -> Option<usize> {
                let b = Self::LAST_BLOCK;
                (msg_len / b + 1).checked_mul(b)?.checked_add(Self::TAG_LEN)
            }
            fn is_valid_ciphertext_len(ct_len: usize) -> bool {
                let b = Self::LAST_BLOCK;
                ct_len >= b + Self::TAG_LEN && (ct_len - Self::TAG_LEN) % b == 0
            }
        }
    };
}
copa_mode!(Proest128, "proest128copav1");
copa_mode!(Proest256, "proest256copav1");

super::key_holder!(Copa);
