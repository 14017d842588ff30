//! Prøst-OTR one block at a time: the low-RAM path (`modes::LOW_RAM`: microcontrollers,
//! or the `low-ram` feature). Same bytes as the wide path in `otr.rs` (the KATs and the
//! differential test below check it), but no batch arrays and no [`crate::em::EmJob`]: every
//! block goes through one `permute_bytes` call, the Feistel halves are computed straight into
//! the output buffer, and the mode's blocks are `S`-byte arrays (`S` = the state size, 32 for
//! Prøst-128) instead of 64-byte ones. The secrets in locals are wiped before returning.

use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroize;

use super::Otr;
use crate::modes::xor_into;
use crate::permutation::Permutation;

/// `x ← 2·x` in GF(2^(8S)) (little-endian bytes), constant time: a one-bit shift and the
/// reduction `x^256 = x^10 + x^5 + x^2 + 1` (S = 32) or `x^512 = x^8 + x^5 + x^2 + 1` (S = 64),
/// selected by a mask, not a branch.
fn dbl<const S: usize>(x: &mut [u8; S]) {
    let mask = 0u8.wrapping_sub(x[S - 1] >> 7);
    for i in (1..S).rev() {
        x[i] = (x[i] << 1) | (x[i - 1] >> 7);
    }
    x[0] <<= 1;
    let high = if S == 32 { 0x04 } else { 0x01 };
    x[0] ^= 0x25 & mask;
    x[1] ^= high & mask;
}

/// `x` with the 10* padding to `S` bytes (`x.len() < S`).
fn pad<const S: usize>(x: &[u8]) -> [u8; S] {
    let mut b = [0u8; S];
    b[..x.len()].copy_from_slice(x);
    b[x.len()] = 0x80;
    b
}

/// The per-message values (Δ, L, Σ, TA), wiped on drop.
struct Ctx<const S: usize> {
    delta: [u8; S],
    l: [u8; S],
    sigma: [u8; S],
    ta: [u8; S],
}

impl<const S: usize> Drop for Ctx<S> {
    fn drop(&mut self) {
        self.delta.zeroize();
        self.l.zeroize();
        self.sigma.zeroize();
        self.ta.zeroize();
    }
}

impl<P: Permutation> Otr<P> {
    /// `E_K(x) = P(x ⊕ K) ⊕ K` in place on `S` bytes.
    fn e_in_place(&self, x: &mut [u8]) {
        let k = &self.key[..x.len()];
        xor_into(x, k);
        self.perm.permute_bytes(x);
        xor_into(x, k);
    }

    /// Δ = E(pad(N)), L = 4Δ, Σ = 0, TA from the associated data (as `Otr::start`).
    fn start_serial<const S: usize>(&self, nonce: &[u8], ad: &[u8]) -> Ctx<S> {
        let mut c = Ctx { delta: pad::<S>(nonce), l: [0; S], sigma: [0; S], ta: [0; S] };
        self.auth_ad_serial(ad, &mut c.ta);
        self.e_in_place(&mut c.delta);
        c.l = c.delta;
        dbl(&mut c.l);
        dbl(&mut c.l);
        c
    }

    /// TA (zero for empty AD) into `ta`, one AD block at a time (as `Otr::auth_ad`).
    fn auth_ad_serial<const S: usize>(&self, ad: &[u8], ta: &mut [u8; S]) {
        if ad.is_empty() {
            return;
        }
        let mut gamma = [0u8; S];
        self.e_in_place(&mut gamma);
        let mut q = gamma;
        dbl(&mut q);
        dbl(&mut q);
        // Every block but the last (1..=S bytes) goes through E; Ξ accumulates in `ta`.
        let nfull = (ad.len() - 1) / S;
        let mut x = [0u8; S];
        for blk in ad[..nfull * S].chunks_exact(S) {
            x.copy_from_slice(blk);
            xor_into(&mut x, &q);
            dbl(&mut q);
            self.e_in_place(&mut x);
            xor_into(ta, &x);
        }
        let last = &ad[nfull * S..];
        if last.len() < S {
            xor_into(ta, &pad::<S>(last));
        } else {
            xor_into(ta, last);
            dbl(&mut gamma);
        }
        xor_into(ta, &q);
        xor_into(ta, &gamma);
        self.e_in_place(ta);
        gamma.zeroize();
        q.zeroize();
        x.zeroize();
    }

    /// One double block: encryption `y1 = E(x1 ⊕ L) ⊕ x2`, `y2 = E(y1 ⊕ L ⊕ Δ) ⊕ x1`, Σ ^= x2;
    /// decryption `y1 = E(x1 ⊕ L ⊕ Δ) ⊕ x2`, `y2 = E(y1 ⊕ L) ⊕ x1`, Σ ^= y2; then L ← 2L.
    /// The outputs are computed where they are written.
    #[allow(clippy::too_many_arguments)]
    fn double_block<const S: usize>(&self, x1: &[u8], x2: &[u8], y1: &mut [u8], y2: &mut [u8], c: &mut Ctx<S>, encrypt: bool) {
        y1.copy_from_slice(x1);
        xor_into(y1, &c.l);
        if !encrypt {
            xor_into(y1, &c.delta);
        }
        self.e_in_place(y1);
        xor_into(y1, x2);
        y2.copy_from_slice(y1);
        xor_into(y2, &c.l);
        if encrypt {
            xor_into(y2, &c.delta);
        }
        self.e_in_place(y2);
        xor_into(y2, x1);
        xor_into(&mut c.sigma, if encrypt { x2 } else { y2 });
        dbl(&mut c.l);
    }

    /// `T = E(Σ ⊕ 3L ⊕ Δ) ⊕ TA` (its first `S/2` bytes are the tag) into `t`.
    fn tag_serial<const S: usize>(&self, c: &Ctx<S>, t: &mut [u8; S]) {
        *t = c.l;
        dbl(t);
        xor_into(t, &c.l);
        xor_into(t, &c.sigma);
        xor_into(t, &c.delta);
        self.e_in_place(t);
        xor_into(t, &c.ta);
    }

    /// `ModeCore::seal`, serially (`S` = `P::STATE_BYTES`).
    pub(super) fn seal_serial<const S: usize>(&self, nonce: &[u8], ad: &[u8], msg: &[u8], out: &mut [u8]) {
        assert_eq!(S, P::STATE_BYTES);
        let mut c = self.start_serial::<S>(nonce, ad);
        let body = msg.len() / (2 * S) * (2 * S);
        for (x, y) in msg[..body].chunks_exact(2 * S).zip(out.chunks_exact_mut(2 * S)) {
            let (y1, y2) = y.split_at_mut(S);
            self.double_block(&x[..S], &x[S..], y1, y2, &mut c, true);
        }
        let rest = &msg[body..];
        let mut end = body;
        if rest.len() >= S {
            // pad_2B(rest): the 0x80 lands in M2.
            let mut m2 = pad::<S>(&rest[S..]);
            let (y1, y2) = out[end..end + 2 * S].split_at_mut(S);
            self.double_block(&rest[..S], &m2, y1, y2, &mut c, true);
            xor_into(&mut c.l, &c.delta);
            m2.zeroize();
            end += 2 * S;
        } else {
            let mut m = pad::<S>(rest);
            xor_into(&mut c.sigma, &m);
            let y = &mut out[end..end + S];
            y.copy_from_slice(&c.l);
            self.e_in_place(y);
            xor_into(y, &m);
            m.zeroize();
            end += S;
        }
        let mut t = [0u8; S];
        self.tag_serial(&c, &mut t);
        out[end..end + S / 2].copy_from_slice(&t[..S / 2]);
        t.zeroize();
    }

    /// `ModeCore::open`, serially.
    pub(super) fn open_serial<const S: usize>(
        &self,
        nonce: &[u8],
        ad: &[u8],
        body: &[u8],
        tag: &[u8],
        out: &mut [u8],
        last: &mut [u8],
    ) -> Choice {
        assert_eq!(S, P::STATE_BYTES);
        let mut c = self.start_serial::<S>(nonce, ad);
        let nblocks = body.len() / S;
        // With an even block count the last pair ends in the final block (`last`).
        let main = if nblocks.is_multiple_of(2) { nblocks / 2 - 1 } else { nblocks / 2 };
        let pos = main * 2 * S;
        for (x, y) in body[..pos].chunks_exact(2 * S).zip(out.chunks_exact_mut(2 * S)) {
            let (y1, y2) = y.split_at_mut(S);
            self.double_block(&x[..S], &x[S..], y1, y2, &mut c, false);
        }
        if nblocks.is_multiple_of(2) {
            let x = &body[pos..pos + 2 * S];
            self.double_block(&x[..S], &x[S..], &mut out[pos..pos + S], last, &mut c, false);
            xor_into(&mut c.l, &c.delta);
        } else {
            last.copy_from_slice(&c.l);
            self.e_in_place(last);
            xor_into(last, &body[pos..pos + S]);
            xor_into(&mut c.sigma, last);
        }
        let mut t = [0u8; S];
        self.tag_serial(&c, &mut t);
        let ok = t[..S / 2].ct_eq(tag);
        t.zeroize();
        ok
    }
}

#[cfg(test)]
mod tests {
    use crate::modes::core_trait::ModeCore;
    use super::*;
    use crate::backend::Backend;
    use crate::permutation::{Proest128, Proest256};
    use rand::{Rng, SeedableRng};
    use std::{vec, vec::Vec};

    /// The serial path against the wide one (`Otr::seal`/`open` as built for the host), on
    /// random keys, nonces, AD and messages of every length class, both variants.
    fn same_as_wide<P: Permutation, const S: usize>() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for round in 0..300 {
            let key: [u8; S] = core::array::from_fn(|_| rng.random());
            let otr = Otr::from_parts(P::with_backend(Backend::Portable).unwrap(), &key);
            let nonce: [u8; S] = core::array::from_fn(|_| rng.random());
            let nonce = &nonce[..S / 2];
            let ad: Vec<u8> = (0..rng.random_range(0..5 * S)).map(|_| rng.random()).collect();
            let ad = if round % 5 == 0 { &[][..] } else { &ad[..] };
            let msg: Vec<u8> = (0..rng.random_range(0..9 * S)).map(|_| rng.random()).collect();
            let tail = if msg.len() % (2 * S) < S { S } else { 2 * S };
            let len = msg.len() / (2 * S) * (2 * S) + tail + S / 2;
            let (mut wide, mut serial) = (vec![0u8; len], vec![0u8; len]);
            otr.seal(nonce, ad, &msg, &mut wide);
            otr.seal_serial::<S>(nonce, ad, &msg, &mut serial);
            assert_eq!(wide, serial, "seal, ad {} msg {}", ad.len(), msg.len());
            let (body, tag) = wide.split_at(len - S / 2);
            let mut tampered = body.to_vec();
            if round % 3 == 0 {
                tampered[round % body.len()] ^= 1;
            }
            let n = body.len() - S;
            let (mut o1, mut l1, mut o2, mut l2) = (vec![0u8; n], [0u8; S], vec![0u8; n], [0u8; S]);
            let ok1 = otr.open(nonce, ad, &tampered, tag, &mut o1, &mut l1);
            let ok2 = otr.open_serial::<S>(nonce, ad, &tampered, tag, &mut o2, &mut l2);
            assert_eq!((o1, l1, ok1.unwrap_u8()), (o2, l2, ok2.unwrap_u8()), "open, ad {} msg {}", ad.len(), msg.len());
            assert_eq!(ok2.unwrap_u8(), u8::from(round % 3 != 0));
        }
    }

    #[test]
    fn serial_otr_equals_wide_otr() {
        same_as_wide::<Proest128, 32>();
        same_as_wide::<Proest256, 64>();
    }

    #[test]
    fn doubling_matches_the_word_version() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
        for _ in 0..200 {
            let mut a: [u8; 32] = core::array::from_fn(|_| rng.random());
            let mut b = a;
            dbl(&mut a);
            crate::em::dbl_bytes(&mut b);
            assert_eq!(a, b);
            let mut a: [u8; 64] = core::array::from_fn(|_| rng.random());
            let mut b = a;
            dbl(&mut a);
            crate::em::dbl_bytes(&mut b);
            assert_eq!(a, b);
        }
    }
}
