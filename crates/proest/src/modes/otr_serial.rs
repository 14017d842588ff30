//! Prøst-OTR one block at a time: the low-RAM path (`modes::LOW_RAM`: microcontrollers, or the
//! `low-ram` feature). Same bytes as the wide path in `otr.rs` (the KATs and the differential
//! test below check it), but no batch arrays and no [`crate::em::EmJob`]:
//!
//! * the mode's blocks (Δ, L, Σ, TA and the working block) are permutation states
//!   (`State<P::Lane>`, 32 bytes for Prøst-128) instead of 64-byte arrays, so `E` runs on them
//!   without converting to bytes and back; the message enters and leaves as bytes;
//! * each double block is computed in the output buffer (its second half is loaded with the
//!   second input block first), with one working state;
//! * the helpers are `#[inline(never)]`: inlined and unrolled at opt-level 3, these loops kept
//!   about 170 values in stack slots on the Cortex-M0 (a 1 KiB frame).
//!
//! The secrets in locals are wiped before returning.

use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroize;

use super::Otr;
use crate::lane::{Lane, State};
use crate::permutation::Permutation;

/// The value of a lane as a `u32`.
#[inline(always)]
fn val<L: Lane>(l: L) -> u32 {
    let mut b = [0u8; 4];
    l.store_le(&mut b[..L::BYTES]);
    u32::from_le_bytes(b)
}

/// The lane holding the low `L::BITS` bits of `v`.
#[inline(always)]
fn lane<L: Lane>(v: u32) -> L {
    L::load_le(&v.to_le_bytes()[..L::BYTES])
}

/// `x ← 2·x` in GF(2^(8S)), constant time. The block's byte string is the lanes in order,
/// little-endian, so the lanes are the limbs of a little-endian integer: a one-bit shift with
/// carries between lanes and the reduction `x^256 = x^10 + x^5 + x^2 + 1` (Prøst-128) or
/// `x^512 = x^8 + x^5 + x^2 + 1` (Prøst-256) XORed into lane 0 under a mask, not a branch.
#[inline(never)]
fn dbl<L: Lane>(x: &mut State<L>) {
    let top = L::BITS - 1;
    let mask = 0u32.wrapping_sub(val(x[15]) >> top);
    let mut carry = 0;
    for l in x.iter_mut() {
        let v = val(*l);
        *l = lane((v << 1) | carry);
        carry = v >> top;
    }
    x[0] ^= lane((if L::BITS == 16 { 0x425 } else { 0x125 }) & mask);
}

/// `st ^= b` for a block's bytes `b` (`16 * L::BYTES` of them).
#[inline(never)]
fn xor_bytes<L: Lane>(st: &mut State<L>, b: &[u8]) {
    for (l, c) in st.iter_mut().zip(b.chunks_exact(L::BYTES)) {
        *l ^= L::load_le(c);
    }
}

/// `st ^= o`.
#[inline(never)]
fn xor_state<L: Lane>(st: &mut State<L>, o: &State<L>) {
    for (a, b) in st.iter_mut().zip(o) {
        *a ^= *b;
    }
}

/// Writes the first `out.len()` bytes (a multiple of the lane size) of the block `st`.
#[inline(never)]
fn store<L: Lane>(st: &State<L>, out: &mut [u8]) {
    for (l, c) in st.iter().zip(out.chunks_exact_mut(L::BYTES)) {
        l.store_le(c);
    }
}

/// Writes `x ‖ 0x80 ‖ 0…` (`x.len() < out.len()`) into `out`.
#[inline(never)]
fn pad_into(x: &[u8], out: &mut [u8]) {
    out.fill(0);
    out[..x.len()].copy_from_slice(x);
    out[x.len()] = 0x80;
}

/// The per-message blocks (Δ, L, Σ, TA), wiped on drop.
struct Ctx<L: Lane> {
    delta: State<L>,
    l: State<L>,
    sigma: State<L>,
    ta: State<L>,
}

impl<L: Lane> Drop for Ctx<L> {
    fn drop(&mut self) {
        self.delta.zeroize();
        self.l.zeroize();
        self.sigma.zeroize();
        self.ta.zeroize();
    }
}

impl<P: Permutation> Otr<P> {
    /// `E_K(x) = P(x ⊕ K) ⊕ K` on a block.
    #[inline(never)]
    fn e_state(&self, st: &mut State<P::Lane>) {
        let k = &self.key[..P::STATE_BYTES];
        xor_bytes(st, k);
        self.perm.permute(st);
        xor_bytes(st, k);
    }

    /// Δ = E(pad(N)), L = 4Δ, Σ = 0 and TA from the associated data (as `Otr::start`), into `c`
    /// (all zero on entry).
    #[inline(never)]
    fn start_serial(&self, nonce: &[u8], ad: &[u8], c: &mut Ctx<P::Lane>) {
        self.auth_ad_serial(ad, &mut c.ta);
        // pad(N): the nonce is half a block, so the 0x80 lands in lane `N.len() / BYTES`.
        for (l, b) in c.delta.iter_mut().zip(nonce.chunks_exact(P::Lane::BYTES)) {
            *l = P::Lane::load_le(b);
        }
        c.delta[nonce.len() / P::Lane::BYTES] = lane(0x80);
        self.e_state(&mut c.delta);
        c.l = c.delta;
        dbl(&mut c.l);
        dbl(&mut c.l);
    }

    /// TA (zero for empty AD) into `ta` (zero on entry), one AD block at a time (as
    /// `Otr::auth_ad`).
    #[inline(never)]
    fn auth_ad_serial(&self, ad: &[u8], ta: &mut State<P::Lane>) {
        if ad.is_empty() {
            return;
        }
        let s = P::STATE_BYTES;
        let zero = <P::Lane as Lane>::ZERO;
        let mut gamma = [zero; 16];
        self.e_state(&mut gamma);
        let mut q = gamma;
        dbl(&mut q);
        dbl(&mut q);
        // Every block but the last (1..=S bytes) goes through E; Ξ accumulates in `ta`.
        let nfull = (ad.len() - 1) / s;
        let mut x = [zero; 16];
        for blk in ad[..nfull * s].chunks_exact(s) {
            x = q;
            xor_bytes(&mut x, blk);
            dbl(&mut q);
            self.e_state(&mut x);
            xor_state(ta, &x);
        }
        let last = &ad[nfull * s..];
        if last.len() < s {
            let mut b = [0u8; 4];
            for (k, l) in ta.iter_mut().enumerate() {
                // Lane k of pad(last), assembled byte by byte (lengths are public).
                for (j, b) in b[..P::Lane::BYTES].iter_mut().enumerate() {
                    let i = k * P::Lane::BYTES + j;
                    *b = if i < last.len() {
                        last[i]
                    } else if i == last.len() {
                        0x80
                    } else {
                        0
                    };
                }
                *l ^= P::Lane::load_le(&b[..P::Lane::BYTES]);
            }
            b.zeroize();
        } else {
            xor_bytes(ta, last);
            dbl(&mut gamma);
        }
        xor_state(ta, &q);
        xor_state(ta, &gamma);
        self.e_state(ta);
        gamma.zeroize();
        q.zeroize();
        x.zeroize();
    }

    /// One double block, computed in place in `y1`, `y2` (`y2` holds the second input block on
    /// entry): encryption `y1 = E(x1 ⊕ L) ⊕ x2`, `y2 = E(y1 ⊕ L ⊕ Δ) ⊕ x1`, Σ ^= x2;
    /// decryption `y1 = E(x1 ⊕ L ⊕ Δ) ⊕ x2`, `y2 = E(y1 ⊕ L) ⊕ x1`, Σ ^= y2; then L ← 2L.
    #[inline(never)]
    fn double_block(&self, x1: &[u8], y1: &mut [u8], y2: &mut [u8], c: &mut Ctx<P::Lane>, encrypt: bool) {
        let mut st = c.l;
        if encrypt {
            xor_bytes(&mut c.sigma, y2);
        } else {
            xor_state(&mut st, &c.delta);
        }
        xor_bytes(&mut st, x1);
        self.e_state(&mut st);
        xor_bytes(&mut st, y2);
        store(&st, y1);
        xor_state(&mut st, &c.l);
        if encrypt {
            xor_state(&mut st, &c.delta);
        }
        self.e_state(&mut st);
        xor_bytes(&mut st, x1);
        store(&st, y2);
        if !encrypt {
            xor_state(&mut c.sigma, &st);
        }
        dbl(&mut c.l);
        st.zeroize();
    }

    /// `T = E(Σ ⊕ 3L ⊕ Δ) ⊕ TA` (its first `S/2` bytes are the tag).
    #[inline(never)]
    fn tag_serial(&self, c: &Ctx<P::Lane>) -> State<P::Lane> {
        let mut t = c.l;
        dbl(&mut t);
        xor_state(&mut t, &c.l);
        xor_state(&mut t, &c.sigma);
        xor_state(&mut t, &c.delta);
        self.e_state(&mut t);
        xor_state(&mut t, &c.ta);
        t
    }

    fn ctx() -> Ctx<P::Lane> {
        let z = [<P::Lane as Lane>::ZERO; 16];
        Ctx { delta: z, l: z, sigma: z, ta: z }
    }

    /// `ModeCore::seal`, one block at a time.
    pub(super) fn seal_serial(&self, nonce: &[u8], ad: &[u8], msg: &[u8], out: &mut [u8]) {
        let s = P::STATE_BYTES;
        let mut c = Self::ctx();
        self.start_serial(nonce, ad, &mut c);
        let body = msg.len() / (2 * s) * (2 * s);
        for (x, y) in msg[..body].chunks_exact(2 * s).zip(out.chunks_exact_mut(2 * s)) {
            let (y1, y2) = y.split_at_mut(s);
            y2.copy_from_slice(&x[s..]);
            self.double_block(&x[..s], y1, y2, &mut c, true);
        }
        let rest = &msg[body..];
        let mut end = body;
        if rest.len() >= s {
            // pad_2B(rest): the 0x80 lands in M2.
            let (y1, y2) = out[end..end + 2 * s].split_at_mut(s);
            pad_into(&rest[s..], y2);
            self.double_block(&rest[..s], y1, y2, &mut c, true);
            xor_state(&mut c.l, &c.delta);
            end += 2 * s;
        } else {
            let y = &mut out[end..end + s];
            pad_into(rest, y);
            xor_bytes(&mut c.sigma, y);
            let mut st = c.l;
            self.e_state(&mut st);
            xor_bytes(&mut st, y);
            store(&st, y);
            st.zeroize();
            end += s;
        }
        let mut t = self.tag_serial(&c);
        store(&t, &mut out[end..end + s / 2]);
        t.zeroize();
    }

    /// `ModeCore::open`, one block at a time.
    pub(super) fn open_serial(
        &self,
        nonce: &[u8],
        ad: &[u8],
        body: &[u8],
        tag: &[u8],
        out: &mut [u8],
        last: &mut [u8],
    ) -> Choice {
        let s = P::STATE_BYTES;
        let mut c = Self::ctx();
        self.start_serial(nonce, ad, &mut c);
        let nblocks = body.len() / s;
        let even = nblocks.is_multiple_of(2);
        // With an even block count the last pair ends in the final block (`last`).
        let pos = if even { nblocks / 2 - 1 } else { nblocks / 2 } * 2 * s;
        for (x, y) in body[..pos].chunks_exact(2 * s).zip(out.chunks_exact_mut(2 * s)) {
            let (y1, y2) = y.split_at_mut(s);
            y2.copy_from_slice(&x[s..]);
            self.double_block(&x[..s], y1, y2, &mut c, false);
        }
        if even {
            let x = &body[pos..pos + 2 * s];
            last.copy_from_slice(&x[s..]);
            self.double_block(&x[..s], &mut out[pos..pos + s], last, &mut c, false);
            xor_state(&mut c.l, &c.delta);
        } else {
            let mut st = c.l;
            self.e_state(&mut st);
            xor_bytes(&mut st, &body[pos..pos + s]);
            xor_state(&mut c.sigma, &st);
            store(&st, last);
            st.zeroize();
        }
        let mut t = self.tag_serial(&c);
        // Compare the first S/2 bytes (lanes 0..8) without branching on them.
        let mut diff = 0u32;
        for (l, b) in t.iter().zip(tag.chunks_exact(P::Lane::BYTES)) {
            diff |= val(*l ^ P::Lane::load_le(b));
        }
        t.zeroize();
        diff.ct_eq(&0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Backend;
    use crate::modes::core_trait::ModeCore;
    use crate::permutation::{Proest128, Proest256};
    use rand::{Rng, SeedableRng};
    use std::{vec, vec::Vec};

    /// The serial path against the wide one (`Otr::seal`/`open` as built for the host), on
    /// random keys, nonces, AD and messages of every length class, both variants, with and
    /// without a flipped ciphertext bit.
    fn same_as_wide<P: Permutation>() {
        let s = P::STATE_BYTES;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        // Miri-sized under Miri (`scripts/test-trust.sh` runs the unit tests there).
        let rounds = if cfg!(miri) { 6 } else { 300 };
        for round in 0..rounds {
            let key: Vec<u8> = (0..s).map(|_| rng.random()).collect();
            let otr = Otr::from_parts(P::with_backend(Backend::Portable).unwrap(), &key);
            let nonce: Vec<u8> = (0..s / 2).map(|_| rng.random()).collect();
            let ad: Vec<u8> = (0..rng.random_range(0..5 * s)).map(|_| rng.random()).collect();
            let ad = if round % 5 == 0 { &[][..] } else { &ad[..] };
            let msg: Vec<u8> = (0..rng.random_range(0..9 * s)).map(|_| rng.random()).collect();
            let tail = if msg.len() % (2 * s) < s { s } else { 2 * s };
            let len = msg.len() / (2 * s) * (2 * s) + tail + s / 2;
            let (mut wide, mut serial) = (vec![0u8; len], vec![0u8; len]);
            otr.seal(&nonce, ad, &msg, &mut wide);
            otr.seal_serial(&nonce, ad, &msg, &mut serial);
            assert_eq!(wide, serial, "seal, ad {} msg {}", ad.len(), msg.len());
            let (body, tag) = wide.split_at(len - s / 2);
            let mut tampered = body.to_vec();
            if round % 3 == 0 {
                tampered[round % body.len()] ^= 1;
            }
            let n = body.len() - s;
            let (mut o1, mut l1, mut o2, mut l2) = (vec![0u8; n], vec![0u8; s], vec![0u8; n], vec![0u8; s]);
            let ok1 = otr.open(&nonce, ad, &tampered, tag, &mut o1, &mut l1);
            let ok2 = otr.open_serial(&nonce, ad, &tampered, tag, &mut o2, &mut l2);
            assert_eq!((o1, l1, ok1.unwrap_u8()), (o2, l2, ok2.unwrap_u8()), "open, ad {} msg {}", ad.len(), msg.len());
            assert_eq!(ok2.unwrap_u8(), u8::from(round % 3 != 0));
        }
    }

    #[test]
    fn serial_otr_equals_wide_otr() {
        same_as_wide::<Proest128>();
        same_as_wide::<Proest256>();
    }

    /// The lane doubling against the byte one the wide path uses.
    fn doubling<L: Lane>(rng: &mut rand_chacha::ChaCha8Rng) {
        let s = 16 * L::BYTES;
        let bytes: Vec<u8> = (0..s).map(|_| rng.random()).collect();
        let mut st = crate::lane::load_state::<L>(&bytes);
        dbl(&mut st);
        let mut expect = bytes.clone();
        crate::em::dbl_bytes(&mut expect);
        let mut got = vec![0u8; s];
        store(&st, &mut got);
        assert_eq!(got, expect);
    }

    #[test]
    fn doubling_matches_the_byte_version() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
        for i in 0..if cfg!(miri) { 8 } else { 400 } {
            doubling::<u16>(&mut rng);
            doubling::<u32>(&mut rng);
            if i == 0 {
                // the reduction branch for sure: top bit set
                let mut st = [0x8000u16; 16];
                dbl(&mut st);
                assert_eq!(st[0], 0x425);
            }
        }
    }
}
