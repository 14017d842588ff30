//! Prøst-APE (`proest{128,256}apev1`): APE over P directly, rate r = S/2, capacity S/2.
//! Spec: `shared/spec/proest.md` §4. Decryption runs backwards with P^-1, as APE prescribes.

use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroize;

use super::core_trait::ModeCore;
#[cfg(feature = "alloc")]
use super::core_trait::{OpenJob, SealJob};
use super::{Blk, MAX_S, Mode, Sink, xor_into};
#[cfg(feature = "alloc")]
use crate::lane::{Lane, load_state, store_state};
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

impl<P: Permutation> Ape<P> {
    /// [`Ape::init`] for many (nonce, AD) pairs in lockstep through `permute_many`.
    #[cfg(feature = "alloc")]
    fn init_batch<'a>(&self, inputs: impl Iterator<Item = (&'a [u8], &'a [u8])>) -> alloc::vec::Vec<Blk> {
        let (s, r) = (Self::S, Self::R);
        let zero = [<P::Lane as Lane>::ZERO; 16];
        let inputs: alloc::vec::Vec<_> = inputs.collect();
        // Steps: 2 nonce halves, then ⌊|A|/r⌋ + 1 AD blocks.
        let steps = |ad: &[u8]| 3 + ad.len() / r;
        let max_steps = inputs.iter().map(|(_, ad)| steps(ad)).max().unwrap_or(0);
        let mut vs = alloc::vec![[0u8; MAX_S]; inputs.len()];
        let mut states = alloc::vec![zero; inputs.len()];
        let mut active = alloc::vec::Vec::with_capacity(inputs.len());
        for step in 0..max_steps {
            active.clear();
            for (k, ((nonce, ad), v)) in inputs.iter().zip(vs.iter_mut()).enumerate() {
                if step >= steps(ad) {
                    continue;
                }
                if step == 0 {
                    v[r..s].copy_from_slice(&self.key[..r]);
                    xor_into(&mut v[..r], &nonce[..r]);
                } else if step == 1 {
                    xor_into(&mut v[..r], &nonce[r..2 * r]);
                } else {
                    absorb(v, &ad[(step - 2) * r..], r);
                }
                states[active.len()] = load_state(&v[..s]);
                active.push(k);
            }
            self.perm.permute_many(&mut states[..active.len()]);
            for (st, &k) in states.iter().zip(&active) {
                store_state(st, &mut vs[k][..s]);
            }
        }
        for v in &mut vs {
            v[s - 1] ^= 0x01;
        }
        super::wipe(&mut states);
        vs
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

    /// Many messages in lockstep: step `i` of every message that still has one (nonce halves,
    /// AD blocks, message blocks, each followed by a P call) runs in one `permute_many`.
    #[cfg(feature = "alloc")]
    fn seal_batch(&self, jobs: &mut [SealJob<'_>]) {
        let (s, r) = (Self::S, Self::R);
        let zero = [<P::Lane as Lane>::ZERO; 16];
        // Steps of a job: 2 nonce halves, ⌊|A|/r⌋ + 1 AD blocks, ⌊|M|/r⌋ + 1 message blocks.
        let ad_end = |j: &SealJob<'_>| 2 + j.ad.len() / r;
        let steps = |j: &SealJob<'_>| ad_end(j) + 2 + j.msg.len() / r;
        let max_steps = jobs.iter().map(steps).max().unwrap_or(0);
        let mut vs = alloc::vec![[0u8; MAX_S]; jobs.len()];
        let mut states = alloc::vec![zero; jobs.len()];
        let mut active = alloc::vec::Vec::with_capacity(jobs.len());
        for step in 0..max_steps {
            active.clear();
            for (k, (j, v)) in jobs.iter().zip(vs.iter_mut()).enumerate() {
                if step >= steps(j) {
                    continue;
                }
                let ae = ad_end(j);
                if step == 0 {
                    v[r..s].copy_from_slice(&self.key[..r]);
                    xor_into(&mut v[..r], &j.nonce[..r]);
                } else if step == 1 {
                    xor_into(&mut v[..r], &j.nonce[r..2 * r]);
                } else if step <= ae {
                    let blk = &j.ad[(step - 2) * r..];
                    absorb(v, blk, r);
                } else {
                    let blk = &j.msg[(step - ae - 1) * r..];
                    absorb(v, blk, r);
                }
                states[active.len()] = load_state(&v[..s]);
                active.push(k);
            }
            self.perm.permute_many(&mut states[..active.len()]);
            for (st, &k) in states.iter().zip(&active) {
                let (j, v) = (&mut jobs[k], &mut vs[k]);
                store_state(st, &mut v[..s]);
                let ae = ad_end(j);
                if step == ae {
                    v[s - 1] ^= 0x01;
                } else if step > ae {
                    let pos = (step - ae - 1) * r;
                    j.out[pos..pos + r].copy_from_slice(&v[..r]);
                    if step + 1 == steps(j) {
                        let tag = &mut j.out[pos + r..pos + 2 * r];
                        tag.copy_from_slice(&v[r..s]);
                        xor_into(tag, &self.key[..r]);
                    }
                }
            }
        }
        super::wipe(&mut vs);
        super::wipe(&mut states);
    }

    /// Many ciphertexts in lockstep: first the IVs (nonce and AD absorbed with `permute_many`),
    /// then the backwards P⁻¹ chains, step `t` of every chain that still has one in one
    /// `inverse_many` call.
    #[cfg(feature = "alloc")]
    fn open_batch(&self, jobs: &mut [OpenJob<'_>]) -> alloc::vec::Vec<Choice> {
        let (s, r) = (Self::S, Self::R);
        let zero = [<P::Lane as Lane>::ZERO; 16];
        let mut ivs = self.init_batch(jobs.iter().map(|j| (j.nonce, j.ad)));
        let blocks = |j: &OpenJob<'_>| j.body.len() / r;
        let max_steps = jobs.iter().map(blocks).max().unwrap_or(0);
        let mut vs = alloc::vec![[0u8; MAX_S]; jobs.len()];
        let mut states = alloc::vec![zero; jobs.len()];
        let mut active = alloc::vec::Vec::with_capacity(jobs.len());
        let mut p = [0u8; MAX_S / 2];
        for t in 0..max_steps {
            active.clear();
            for (k, (j, v)) in jobs.iter_mut().zip(vs.iter_mut()).enumerate() {
                let n = blocks(j);
                if t >= n {
                    continue;
                }
                if t == 0 {
                    v[..r].copy_from_slice(&j.body[(n - 1) * r..n * r]);
                    v[r..s].copy_from_slice(j.tag);
                    xor_into(&mut v[r..s], &self.key[..r]);
                } else {
                    // p_i = V[..r] ^ c_(i-1) with i = n - t; then V[..r] = c_(i-1).
                    let i = n - t;
                    let c = &j.body[(i - 1) * r..i * r];
                    p[..r].copy_from_slice(&v[..r]);
                    xor_into(&mut p[..r], c);
                    Sink { out: &mut *j.out, last: &mut *j.last }.put(i * r, &p[..r]);
                    v[..r].copy_from_slice(c);
                }
                states[active.len()] = load_state(&v[..s]);
                active.push(k);
            }
            self.perm.inverse_many(&mut states[..active.len()]);
            for (st, &k) in states.iter().zip(&active) {
                store_state(st, &mut vs[k][..s]);
            }
        }
        let mut oks = alloc::vec::Vec::with_capacity(jobs.len());
        for ((j, v), iv) in jobs.iter_mut().zip(&vs).zip(&ivs) {
            p[..r].copy_from_slice(&v[..r]);
            xor_into(&mut p[..r], &iv[..r]);
            Sink { out: &mut *j.out, last: &mut *j.last }.put(0, &p[..r]);
            oks.push(v[r..s].ct_eq(&iv[r..s]));
        }
        p.zeroize();
        super::wipe(&mut vs);
        super::wipe(&mut ivs);
        super::wipe(&mut states);
        oks
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

/// XORs the block starting at `blk` (the rest of the string from this block on) into the rate:
/// a full block if at least `r` bytes remain, else the final block with its 10* padding (a
/// string of `n` bytes has ⌊n/r⌋ full blocks and then one padded block of `n mod r` bytes).
#[inline]
#[cfg(feature = "alloc")]
fn absorb(v: &mut Blk, blk: &[u8], r: usize) {
    if blk.len() >= r {
        xor_into(&mut v[..r], &blk[..r]);
    } else {
        xor_into(&mut v[..blk.len()], blk);
        v[blk.len()] ^= 0x80;
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
