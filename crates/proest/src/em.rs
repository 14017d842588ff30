//! Wide Even–Mansour calls on byte blocks: the block-cipher layers of COPA and OTR in one call.
//!
//! An [`EmJob`] describes `n` independent block computations
//!
//! ```text
//! out_j = F(src_j ⊕ pre ⊕ [mask_j]) ⊕ post ⊕ [mask_j] ⊕ [post_j]      j = 0 .. n-1
//! ```
//!
//! where `F` is P or P⁻¹, `pre`/`post` are constant blocks (the key, or the key ⊕ Δ),
//! `mask_j = 2^j · L` is a doubling sequence in GF(2^(8S)) (§3 of the specification) starting
//! at a given `L`, and `src_j`, `post_j`, `out_j` are S-byte blocks at `offset + j·stride` in
//! a read-only buffer (`ext`) or the one writable buffer (`io`). The call also returns the XOR
//! of all `src_j`, of all `post_j` and of all `out_j` (the checksums Σ of the modes) and
//! advances the mask to `2^n · L`.
//!
//! The lane-sliced `avx512` backend computes the masks in registers (a doubling by `x^2` per
//! row of two Prøst-128 blocks, by `x` per Prøst-256 block), fuses the XORs into its
//! transposes and loads and stores the blocks directly, so the modes need no separate passes
//! over the data; the other backends run [`Permutation::em_many`]'s serial default.

use zeroize::Zeroize;

use crate::lane::{Lane, State, load_state, store_state};
use crate::permutation::Permutation;

/// Largest block (Prøst-256 state) in bytes.
const MAX_S: usize = 64;

/// Which buffer of an [`EmJob`] a block sequence lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Buf {
    /// The read-only buffer [`EmJob::ext`].
    Ext,
    /// The writable buffer [`EmJob::io`] (blocks are read before they are overwritten).
    Io,
}

/// A sequence of blocks: block `j` is bytes `offset + j·stride ..` (S bytes) of `buf`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct At {
    /// The buffer.
    pub buf: Buf,
    /// Byte offset of block 0; `offset + S <= stride`.
    pub offset: usize,
}

impl At {
    /// Blocks of `ext` from `offset`.
    pub const fn ext(offset: usize) -> At {
        At { buf: Buf::Ext, offset }
    }
    /// Blocks of `io` from `offset`.
    pub const fn io(offset: usize) -> At {
        At { buf: Buf::Io, offset }
    }
}

/// Many Even–Mansour-style block computations (see the module documentation).
///
/// Every block position used must lie inside its buffer and every `offset + S` must be at most
/// `stride` (so different block indices never overlap); [`Permutation::em_many`] panics
/// otherwise. Output block `j` is written after all inputs of block `j` are read, so `src` or
/// `post` may be the output blocks themselves (in-place).
#[derive(Debug)]
pub struct EmJob<'a> {
    /// P⁻¹ instead of P.
    pub inverse: bool,
    /// Number of blocks n.
    pub blocks: usize,
    /// Distance in bytes between consecutive blocks of every sequence (at least S).
    pub stride: usize,
    /// Read-only data.
    pub ext: &'a [u8],
    /// Written data (and possibly read).
    pub io: &'a mut [u8],
    /// The blocks that enter F.
    pub src: At,
    /// Blocks XORed into the outputs, if any.
    pub post: Option<At>,
    /// Offset in `io` of output block 0.
    pub dst: usize,
    /// S bytes XORed into every input (e.g. the key).
    pub pre: &'a [u8],
    /// S bytes XORed into every output (e.g. the key).
    pub post_const: &'a [u8],
    /// `L` (S bytes) on entry, `2^n · L` on return.
    pub mask: &'a mut [u8],
    /// XOR `mask_j` into the input of block j.
    pub mask_in: bool,
    /// XOR `mask_j` into the output of block j.
    pub mask_out: bool,
}

/// XOR sums of an [`EmJob`]'s blocks (first S bytes used); wiped on drop.
#[derive(Clone, PartialEq, Eq)]
pub struct EmSums {
    /// XOR of every `src_j` (as read).
    pub src: [u8; MAX_S],
    /// XOR of every `post_j` (zero without `post`).
    pub post: [u8; MAX_S],
    /// XOR of every `out_j`.
    pub out: [u8; MAX_S],
}

impl Default for EmSums {
    fn default() -> Self {
        EmSums { src: [0; MAX_S], post: [0; MAX_S], out: [0; MAX_S] }
    }
}

impl core::fmt::Debug for EmSums {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("EmSums(<hidden>)")
    }
}

impl Drop for EmSums {
    fn drop(&mut self) {
        wipe(&mut self.src);
        wipe(&mut self.post);
        wipe(&mut self.out);
    }
}

/// Zeroes `b` with plain (vectorised) stores kept alive by `black_box` (`zeroize`'s volatile
/// byte stores cost more than a small wide call).
#[inline(always)]
pub(crate) fn wipe(b: &mut [u8]) {
    b.fill(0);
    core::hint::black_box(b);
}

impl EmSums {
    /// XORs `other` into `self`.
    pub fn absorb(&mut self, other: &EmSums) {
        for i in 0..MAX_S {
            self.src[i] ^= other.src[i];
            self.post[i] ^= other.post[i];
            self.out[i] ^= other.out[i];
        }
    }
}

impl EmJob<'_> {
    /// Panics unless every block position lies in its buffer (see [`EmJob`]).
    pub(crate) fn check(&self, s: usize) {
        assert!(self.pre.len() == s && self.post_const.len() == s && self.mask.len() == s, "EmJob: block length");
        assert!(self.stride >= s, "EmJob: stride shorter than a block");
        if self.blocks == 0 {
            return;
        }
        let end = |off: usize| {
            assert!(off + s <= self.stride, "EmJob: offset + S exceeds the stride");
            (self.blocks - 1).checked_mul(self.stride).and_then(|x| x.checked_add(off + s)).expect("EmJob: overflow")
        };
        let fits = |at: At| {
            let len = match at.buf {
                Buf::Ext => self.ext.len(),
                Buf::Io => self.io.len(),
            };
            assert!(end(at.offset) <= len, "EmJob: blocks exceed the buffer");
        };
        fits(self.src);
        if let Some(p) = self.post {
            fits(p);
        }
        fits(At::io(self.dst));
    }

    /// Block `j` of `at` (S bytes).
    #[inline(always)]
    pub(crate) fn block(&self, at: At, j: usize, s: usize) -> &[u8] {
        let o = at.offset + j * self.stride;
        match at.buf {
            Buf::Ext => &self.ext[o..o + s],
            Buf::Io => &self.io[o..o + s],
        }
    }
}

/// Multiplication by 2 in GF(2^(8s)) of the little-endian `x` (s = 32 or 64), constant time.
#[inline]
pub(crate) fn dbl_bytes(x: &mut [u8]) {
    let s = x.len();
    let mut w = [0u64; MAX_S / 8];
    for (w, c) in w.iter_mut().zip(x.chunks_exact(8)) {
        *w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
    }
    let n = s / 8;
    let carry = w[n - 1] >> 63;
    for i in (1..n).rev() {
        w[i] = (w[i] << 1) | (w[i - 1] >> 63);
    }
    let poly: u64 = if s == 32 { 0x0425 } else { 0x0125 };
    w[0] = (w[0] << 1) ^ (poly & 0u64.wrapping_sub(carry));
    for (w, c) in w.iter().zip(x.chunks_exact_mut(8)) {
        c.copy_from_slice(&w.to_le_bytes());
    }
    for x in w.iter_mut() {
        *x = 0;
    }
    core::hint::black_box(&mut w);
}

/// Blocks `from..job.blocks` of `job` one at a time with the single-state permutation
/// `f(state, inverse)` (the portable path, and the tail of the SIMD kernels). The job's mask
/// must be `2^from · L` on entry.
pub(crate) fn em_serial<L: Lane>(job: &mut EmJob<'_>, from: usize, sums: &mut EmSums, f: impl Fn(&mut State<L>, bool)) {
    let s = 16 * L::BYTES;
    let mut x = [0u8; MAX_S];
    for j in from..job.blocks {
        x[..s].copy_from_slice(job.block(job.src, j, s));
        xor(&mut sums.src[..s], &x[..s]);
        xor(&mut x[..s], job.pre);
        if job.mask_in {
            xor(&mut x[..s], job.mask);
        }
        let mut st = load_state::<L>(&x[..s]);
        f(&mut st, job.inverse);
        store_state(&st, &mut x[..s]);
        st.zeroize();
        xor(&mut x[..s], job.post_const);
        if job.mask_out {
            xor(&mut x[..s], job.mask);
        }
        if let Some(p) = job.post {
            let pb = job.block(p, j, s);
            xor(&mut sums.post[..s], pb);
            xor(&mut x[..s], pb);
        }
        xor(&mut sums.out[..s], &x[..s]);
        let o = job.dst + j * job.stride;
        job.io[o..o + s].copy_from_slice(&x[..s]);
        dbl_bytes(job.mask);
    }
    x.zeroize();
}

#[inline(always)]
fn xor(d: &mut [u8], s: &[u8]) {
    for (d, s) in d.iter_mut().zip(s) {
        *d ^= *s;
    }
}

/// The serial default of [`Permutation::em_many`] (single-state calls of `p`).
pub(crate) fn em_many_serial<P: Permutation>(p: &P, job: &mut EmJob<'_>) -> EmSums {
    let mut sums = EmSums::default();
    job.check(P::STATE_BYTES);
    em_serial::<P::Lane>(job, 0, &mut sums, |st, inv| if inv { p.inverse(st) } else { p.permute(st) });
    sums
}

/// [`Permutation::em_many`] through `permute_many` / `inverse_many` on gathered states, 32 at a
/// time (for backends with a wide kernel on states but none on byte blocks).
pub(crate) fn em_many_gathered<P: Permutation>(p: &P, job: &mut EmJob<'_>) -> EmSums {
    const CHUNK: usize = 32;
    let s = P::STATE_BYTES;
    job.check(s);
    let mut sums = EmSums::default();
    let zero = [<P::Lane as Lane>::ZERO; 16];
    let mut st = [zero; CHUNK];
    let mut masks = [[0u8; MAX_S]; CHUNK];
    let mut x = [0u8; MAX_S];
    let mut base = 0;
    while base < job.blocks {
        let cnt = CHUNK.min(job.blocks - base);
        for j in 0..cnt {
            masks[j][..s].copy_from_slice(job.mask);
            dbl_bytes(job.mask);
            x[..s].copy_from_slice(job.block(job.src, base + j, s));
            xor(&mut sums.src[..s], &x[..s]);
            xor(&mut x[..s], job.pre);
            if job.mask_in {
                xor(&mut x[..s], &masks[j][..s]);
            }
            st[j] = load_state(&x[..s]);
        }
        if job.inverse {
            p.inverse_many(&mut st[..cnt]);
        } else {
            p.permute_many(&mut st[..cnt]);
        }
        for j in 0..cnt {
            store_state(&st[j], &mut x[..s]);
            xor(&mut x[..s], job.post_const);
            if job.mask_out {
                xor(&mut x[..s], &masks[j][..s]);
            }
            if let Some(at) = job.post {
                let pb = job.block(at, base + j, s);
                xor(&mut sums.post[..s], pb);
                xor(&mut x[..s], pb);
            }
            xor(&mut sums.out[..s], &x[..s]);
            let o = job.dst + (base + j) * job.stride;
            job.io[o..o + s].copy_from_slice(&x[..s]);
        }
        base += cnt;
    }
    st.zeroize();
    masks.zeroize();
    x.zeroize();
    sums
}
