//! Prøst-COPA (`proest{128,256}copav1`): COPA over the Even–Mansour cipher `E_K`.
//! Spec: `shared/spec/proest.md` §3, §5. Both block-cipher layers are batched through
//! `permute_many`/`inverse_many` (the second layer only depends on a prefix XOR of the first).

use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, ZeroizeOnDrop};

use super::core_trait::ModeCore;
use super::{BATCH, CHUNK, wipe, Blk, Em, MAX_S, Mode, dbl, diff_xor, pad, prefix_xor, times2, times3, xor, xor_into};
use crate::em::{At, EmJob, EmSums};
use crate::permutation::{Permutation, Proest128, Proest256};

/// Prøst-COPA over the permutation `P`. Use through [`crate::ProestAead`].
pub struct Copa<P: Permutation> {
    perm: P,
    key: [u8; MAX_S],
}

/// Per-message secrets: `L = E(0)`, the masks and the running state.
#[derive(Zeroize, ZeroizeOnDrop)]
struct Ctx {
    l: Blk,
    d0: Blk,
    d1: Blk,
    sigma: Blk,
    v: Blk,
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
        wipe(&mut xs);
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
        let mut c = self.start(nonce, ad);
        let full = msg.len() / s;
        let mut i = 0;
        while i < full {
            let n = CHUNK.min(full - i);
            let (a, b) = (i * s, (i + n) * s);
            self.enc_run(&msg[a..b], &mut out[a..b], n, &mut c, true);
            i += n;
        }
        // The final padded block: masks not doubled afterwards.
        let mut m = pad(&msg[full * s..]);
        let mut blk = [0u8; MAX_S];
        self.enc_run(&m[..s], &mut blk[..s], 1, &mut c, false);
        out[full * s..(full + 1) * s].copy_from_slice(&blk[..s]);
        let mut t = self.tag(&c);
        let tau = s / 2;
        out[(full + 1) * s..(full + 1) * s + tau].copy_from_slice(&t[..tau]);
        t.zeroize();
        m.zeroize();
        blk.zeroize();
    }

    fn open(&self, nonce: &[u8], ad: &[u8], body: &[u8], tag: &[u8], out: &mut [u8], last: &mut [u8]) -> Choice {
        let s = Self::S;
        let mut c = self.start(nonce, ad);
        let main = body.len() / s - 1;
        let mut i = 0;
        while i < main {
            let n = CHUNK.min(main - i);
            let (a, b) = (i * s, (i + n) * s);
            self.dec_run(&body[a..b], &mut out[a..b], n, &mut c, true);
            i += n;
        }
        self.dec_run(&body[main * s..], last, 1, &mut c, false);
        let mut t = self.tag(&c);
        let ok = t[..s / 2].ct_eq(tag);
        t.zeroize();
        ok
    }
}

impl<P: Permutation> Copa<P> {
    /// `n` message blocks `msg` → ciphertext blocks `out`: `X_j = E(M_j ^ Δ0_j)` (one wide
    /// call, Σ from its source sum), the V chain as a prefix XOR in place, then
    /// `C_j = E(V_j) ^ Δ1_j` (one wide call). With `advance`, Δ0 and Δ1 end doubled n times,
    /// else unchanged (the final block).
    fn enc_run(&self, msg: &[u8], out: &mut [u8], n: usize, c: &mut Ctx, advance: bool) {
        let s = Self::S;
        let (mut d0, mut d1) = (c.d0, c.d1);
        let sums = self.layer(false, msg, &mut *out, n, At::ext(0), &mut d0, true);
        xor_into(&mut c.sigma[..s], &sums.src[..s]);
        prefix_xor(out, s, &mut c.v);
        self.layer(false, &[], out, n, At::io(0), &mut d1, false);
        if advance {
            c.d0 = d0;
            c.d1 = d1;
        }
        d0.zeroize();
        d1.zeroize();
    }

    /// `n` ciphertext blocks → padded plaintext blocks: `W_j = D(C_j ^ Δ1_j)` (one wide call),
    /// the differences `W_j ^ W_(j-1)` in place (`W_(-1)` = V), `M_j = D(·) ^ Δ0_j` (one wide
    /// call, Σ from its output sum); V ends as the last W.
    fn dec_run(&self, body: &[u8], out: &mut [u8], n: usize, c: &mut Ctx, advance: bool) {
        let s = Self::S;
        let (mut d0, mut d1) = (c.d0, c.d1);
        self.layer(true, body, &mut *out, n, At::ext(0), &mut d1, true);
        diff_xor(&mut out[..n * s], s, &mut c.v);
        let sums = self.layer(true, &[], out, n, At::io(0), &mut d0, false);
        xor_into(&mut c.sigma[..s], &sums.out[..s]);
        if advance {
            c.d0 = d0;
            c.d1 = d1;
        }
        d0.zeroize();
        d1.zeroize();
    }

    /// One wide layer `out_j = E^(±1)(src_j [^ Δ_j]) [^ Δ_j]` on `n` consecutive blocks, the
    /// mask `Δ_j = 2^j·mask` on the input side (`mask_in`) or the output side.
    #[allow(clippy::too_many_arguments)]
    fn layer(&self, inverse: bool, ext: &[u8], io: &mut [u8], n: usize, src: At, mask: &mut Blk, mask_in: bool) -> EmSums {
        let s = Self::S;
        let key = &self.key[..s];
        self.perm.em_many(&mut EmJob {
            inverse,
            blocks: n,
            stride: s,
            ext,
            io,
            src,
            post: None,
            dst: 0,
            pre: key,
            post_const: key,
            mask: &mut mask[..s],
            mask_in,
            mask_out: !mask_in,
        })
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
