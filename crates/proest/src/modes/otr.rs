//! Prøst-OTR (`proest{128,256}otrv1`): OTR (two-round Feistel per double block) over `E_K`.
//! Spec: `shared/spec/proest.md` §3, §6. Both Feistel rounds are batched across double blocks
//! through `permute_many`, and so are the AD blocks. With [`LOW_RAM`] (microcontrollers) the
//! serial path of `otr_serial.rs` runs instead: one block at a time, same bytes.

use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, ZeroizeOnDrop};

use super::core_trait::ModeCore;
use super::{BATCH, CHUNK, LOW_RAM, wipe, Blk, Em, MAX_S, Mode, dbl, pad, times2, times3, xor, xor_into};
use crate::em::{At, EmJob};
use crate::permutation::{Permutation, Proest128, Proest256};

#[path = "otr_serial.rs"]
mod serial;

/// Prøst-OTR over the permutation `P`. Use through [`crate::ProestAead`].
pub struct Otr<P: Permutation> {
    perm: P,
    key: [u8; MAX_S],
}

/// Per-message secrets.
#[derive(Zeroize, ZeroizeOnDrop)]
struct Ctx {
    delta: Blk,
    l: Blk,
    sigma: Blk,
    ta: Blk,
}

impl<P: Permutation> Otr<P> {
    const S: usize = P::STATE_BYTES;

    fn em(&self) -> Em<'_, P> {
        Em { p: &self.perm, key: &self.key[..Self::S] }
    }

    /// Δ = E(pad(N)), L = 4Δ, Σ = 0, and TA from the associated data.
    fn start(&self, nonce: &[u8], ad: &[u8]) -> Ctx {
        let s = Self::S;
        let em = self.em();
        let delta = em.e_of(&pad(nonce));
        let l = times2(&times2(&delta, s), s);
        Ctx { delta, l, sigma: [0u8; MAX_S], ta: self.auth_ad(ad) }
    }

    fn auth_ad(&self, ad: &[u8]) -> Blk {
        let s = Self::S;
        if ad.is_empty() {
            return [0u8; MAX_S];
        }
        let em = self.em();
        let mut gamma = em.e_of(&[0u8; MAX_S]);
        let mut q = times2(&times2(&gamma, s), s);
        let mut xi = [0u8; MAX_S];
        // every block but the last (which has 1..=B bytes) goes through E
        let nfull = (ad.len() - 1) / s;
        let mut xs = [[0u8; MAX_S]; BATCH];
        let mut i = 0;
        while i < nfull {
            let n = BATCH.min(nfull - i);
            for j in 0..n {
                let k = i + j;
                xs[j][..s].copy_from_slice(&ad[k * s..(k + 1) * s]);
                xor_into(&mut xs[j][..s], &q[..s]);
                dbl(&mut q, s);
            }
            em.e_many(&mut xs[..n]);
            for x in &xs[..n] {
                xor_into(&mut xi[..s], &x[..s]);
            }
            i += n;
        }
        let last = &ad[nfull * s..];
        let mut t;
        if last.len() < s {
            xor_into(&mut xi[..s], &pad(last)[..s]);
            t = xor(&xi, &q, s);
            xor_into(&mut t[..s], &gamma[..s]);
        } else {
            xor_into(&mut xi[..s], last);
            t = xor(&xi, &q, s);
            xor_into(&mut t[..s], &times2(&gamma, s)[..s]);
        }
        em.e(&mut t);
        gamma.zeroize();
        q.zeroize();
        xi.zeroize();
        wipe(&mut xs);
        t
    }

    /// `T = (E(Σ ^ 3·L ^ Δ) ^ TA)`, first τ bytes used.
    fn tag(&self, c: &Ctx) -> Blk {
        let s = Self::S;
        let mut t = xor(&c.sigma, &times3(&c.l, s), s);
        xor_into(&mut t[..s], &c.delta[..s]);
        self.em().e(&mut t);
        xor_into(&mut t[..s], &c.ta[..s]);
        t
    }
}

impl<P: Permutation> ModeCore for Otr<P> {
    type Perm = P;

    fn from_parts(perm: P, key: &[u8]) -> Self {
        let mut k = [0u8; MAX_S];
        k[..key.len()].copy_from_slice(key);
        Otr { perm, key: k }
    }

    fn perm(&self) -> &P {
        &self.perm
    }

    fn seal(&self, nonce: &[u8], ad: &[u8], msg: &[u8], out: &mut [u8]) {
        if LOW_RAM {
            return self.seal_serial(nonce, ad, msg, out);
        }
        let s = Self::S;
        let em = self.em();
        let mut c = self.start(nonce, ad);
        let ndouble = msg.len() / (2 * s);
        let rest = &msg[ndouble * 2 * s..];
        let final_double = rest.len() >= s;
        let mut i = 0;
        while i < ndouble {
            let n = CHUNK.min(ndouble - i);
            let (a, b) = (i * 2 * s, (i + n) * 2 * s);
            self.feistel(&msg[a..b], &mut out[a..b], n, &mut c, true);
            i += n;
        }
        let mut end = ndouble * 2 * s;
        if final_double {
            // pad_2B(rest): the 0x80 lands in M2.
            let mut tail = [0u8; 2 * MAX_S];
            tail[..rest.len()].copy_from_slice(rest);
            tail[rest.len()] = 0x80;
            let mut blk = [0u8; 2 * MAX_S];
            self.feistel(&tail[..2 * s], &mut blk[..2 * s], 1, &mut c, true);
            out[end..end + 2 * s].copy_from_slice(&blk[..2 * s]);
            end += 2 * s;
            xor_into(&mut c.l[..s], &c.delta[..s]);
            tail.zeroize();
            blk.zeroize();
        } else {
            let m = pad(rest);
            xor_into(&mut c.sigma[..s], &m[..s]);
            let mut x = em.e_of(&c.l);
            xor_into(&mut x[..s], &m[..s]);
            out[end..end + s].copy_from_slice(&x[..s]);
            end += s;
            x.zeroize();
        }
        let mut t = self.tag(&c);
        out[end..end + s / 2].copy_from_slice(&t[..s / 2]);
        t.zeroize();
    }

    fn open(&self, nonce: &[u8], ad: &[u8], body: &[u8], tag: &[u8], out: &mut [u8], last: &mut [u8]) -> Choice {
        if LOW_RAM {
            return self.open_serial(nonce, ad, body, tag, out, last);
        }
        let s = Self::S;
        let em = self.em();
        let mut c = self.start(nonce, ad);
        let nblocks = body.len() / s;
        let pairs = nblocks / 2;
        let even = nblocks.is_multiple_of(2);
        // With an even block count the last pair ends in the final block (`last`).
        let main = if even { pairs - 1 } else { pairs };
        let mut i = 0;
        while i < main {
            let n = CHUNK.min(main - i);
            let (a, b) = (i * 2 * s, (i + n) * 2 * s);
            self.feistel(&body[a..b], &mut out[a..b], n, &mut c, false);
            i += n;
        }
        let pos = main * 2 * s;
        if even {
            let mut blk = [0u8; 2 * MAX_S];
            self.feistel(&body[pos..pos + 2 * s], &mut blk[..2 * s], 1, &mut c, false);
            out[pos..pos + s].copy_from_slice(&blk[..s]);
            last.copy_from_slice(&blk[s..2 * s]);
            xor_into(&mut c.l[..s], &c.delta[..s]);
            blk.zeroize();
        } else {
            let mut x = em.e_of(&c.l);
            xor_into(&mut x[..s], &body[pos..pos + s]);
            xor_into(&mut c.sigma[..s], &x[..s]);
            last.copy_from_slice(&x[..s]);
            x.zeroize();
        }
        let mut t = self.tag(&c);
        let ok = t[..s / 2].ct_eq(tag);
        t.zeroize();
        ok
    }
}

impl<P: Permutation> Otr<P> {
    /// `n` double blocks `src` → `out` (both `2nB` bytes), two wide calls, L doubled n times.
    /// Encryption: `C1 = E(M1 ^ L) ^ M2`, `C2 = E(C1 ^ L ^ Δ) ^ M1`, Σ ^= ΣM2.
    /// Decryption: `M1 = E(C1 ^ L ^ Δ) ^ C2`, `M2 = E(M1 ^ L) ^ C1`, Σ ^= ΣM2.
    fn feistel(&self, src: &[u8], out: &mut [u8], n: usize, c: &mut Ctx, encrypt: bool) {
        let s = Self::S;
        let key = &self.key[..s];
        let mut kd = xor(&self.key, &c.delta, s);
        let (first_pre, second_pre) = if encrypt { (key, &kd[..s]) } else { (&kd[..s], key) };
        let mut l = c.l;
        let sums1 = self.perm.em_many(&mut EmJob {
            inverse: false,
            blocks: n,
            stride: 2 * s,
            ext: src,
            io: &mut *out,
            src: At::ext(0),
            post: Some(At::ext(s)),
            dst: 0,
            pre: first_pre,
            post_const: key,
            mask: &mut l[..s],
            mask_in: true,
            mask_out: false,
        });
        let sums2 = self.perm.em_many(&mut EmJob {
            inverse: false,
            blocks: n,
            stride: 2 * s,
            ext: src,
            io: out,
            src: At::io(0),
            post: Some(At::ext(0)),
            dst: s,
            pre: second_pre,
            post_const: key,
            mask: &mut c.l[..s],
            mask_in: true,
            mask_out: false,
        });
        let sum = if encrypt { &sums1.post } else { &sums2.out };
        xor_into(&mut c.sigma[..s], &sum[..s]);
        kd.zeroize();
        l.zeroize();
    }
}

macro_rules! otr_mode {
    ($p:ty, $alg:literal) => {
        impl Mode for Otr<$p> {
            const ALGORITHM: &'static str = $alg;
            const KEY_LEN: usize = <$p>::STATE_BYTES;
            const NONCE_LEN: usize = <$p>::STATE_BYTES / 2;
            const TAG_LEN: usize = <$p>::STATE_BYTES / 2;
            const LAST_BLOCK: usize = <$p>::STATE_BYTES;
            fn ciphertext_len(msg_len: usize) -> Option<usize> {
                let b = Self::LAST_BLOCK;
                let body = (msg_len / (2 * b)).checked_mul(2 * b)?;
                let tail = if msg_len % (2 * b) < b { b } else { 2 * b };
                body.checked_add(tail)?.checked_add(Self::TAG_LEN)
            }
            fn is_valid_ciphertext_len(ct_len: usize) -> bool {
                let b = Self::LAST_BLOCK;
                ct_len >= b + Self::TAG_LEN && (ct_len - Self::TAG_LEN) % b == 0
            }
        }
    };
}
otr_mode!(Proest128, "proest128otrv1");
otr_mode!(Proest256, "proest256otrv1");

super::key_holder!(Otr);
