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
//! over the data; `avx2` moves the blocks between the buffers and its batch arrays as YMM rows
//! with the XORs applied on the way (masks doubled in general registers); the serial backends
//! run [`crate::Permutation::em_many`]'s default, one block at a time on 64-bit words.

use zeroize::Zeroize;

use crate::lane::{Lane, State};

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
/// `stride` (so different block indices never overlap); [`crate::Permutation::em_many`] panics
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

/// Zeroes `b` with `zeroize` (volatile stores the compiler cannot remove as dead).
#[inline]
pub(crate) fn wipe(b: &mut [u8]) {
    zeroize::Zeroize::zeroize(b);
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

/// A running mask as little-endian 64-bit words (`n` = 4 or 8 used): doubled and XORed into
/// blocks without round trips through bytes.
#[derive(Clone, Copy)]
pub(crate) struct Words {
    w: [u64; MAX_S / 8],
    n: usize,
}

impl Words {
    /// The words of `x` (32 or 64 bytes).
    #[inline(always)]
    pub(crate) fn from_bytes(x: &[u8]) -> Words {
        let mut w = [0u64; MAX_S / 8];
        for (w, c) in w.iter_mut().zip(x.chunks_exact(8)) {
            *w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        }
        Words { w, n: x.len() / 8 }
    }

    /// `s` bytes of zeros.
    #[inline(always)]
    pub(crate) fn zero(s: usize) -> Words {
        Words { w: [0; MAX_S / 8], n: s / 8 }
    }

    /// `self ^= o`.
    #[inline(always)]
    pub(crate) fn xor(&mut self, o: &Words) {
        for (a, b) in self.w.iter_mut().zip(&o.w) {
            *a ^= b;
        }
    }

    /// The state whose byte string the words are (lanes little-endian).
    #[inline(always)]
    pub(crate) fn to_state<L: Lane>(self) -> State<L> {
        let per = 8 / L::BYTES;
        core::array::from_fn(|k| {
            let b = self.w[k / per].to_le_bytes();
            let o = (k % per) * L::BYTES;
            L::load_le(&b[o..o + L::BYTES])
        })
    }

    /// The byte string of `st` as words.
    #[inline(always)]
    pub(crate) fn from_state<L: Lane>(st: &State<L>) -> Words {
        let per = 8 / L::BYTES;
        let mut w = [0u64; MAX_S / 8];
        for (i, w) in w.iter_mut().enumerate().take(2 * L::BYTES) {
            let mut b = [0u8; 8];
            for q in 0..per {
                st[i * per + q].store_le(&mut b[q * L::BYTES..(q + 1) * L::BYTES]);
            }
            *w = u64::from_le_bytes(b);
        }
        Words { w, n: 2 * L::BYTES }
    }

    /// The raw words (the first `n` used).
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn words(&self) -> [u64; MAX_S / 8] {
        self.w
    }

    /// Writes the words back into `x`.
    #[inline(always)]
    pub(crate) fn store(&self, x: &mut [u8]) {
        for (w, c) in self.w.iter().zip(x.chunks_exact_mut(8)) {
            c.copy_from_slice(&w.to_le_bytes());
        }
    }

    /// `x ^= self`.
    #[inline(always)]
    pub(crate) fn xor_into(&self, x: &mut [u8]) {
        for (w, c) in self.w.iter().zip(x.chunks_exact_mut(8)) {
            let v = u64::from_le_bytes((&*c).try_into().expect("8 bytes")) ^ w;
            c.copy_from_slice(&v.to_le_bytes());
        }
    }

    /// Multiplication by 2 in GF(2^(64n)), constant time: a one-bit shift with carries and
    /// the reduction `x^256 = x^10 + x^5 + x^2 + 1` (`0x425`) or `x^512 = x^8 + x^5 + x^2 + 1`
    /// (`0x125`).
    #[inline(always)]
    pub(crate) fn dbl(&mut self) {
        let (w, n) = (&mut self.w, self.n);
        let carry = w[n - 1] >> 63;
        for i in (1..n).rev() {
            w[i] = (w[i] << 1) | (w[i - 1] >> 63);
        }
        let poly: u64 = if n == 4 { 0x0425 } else { 0x0125 };
        w[0] = (w[0] << 1) ^ (poly & 0u64.wrapping_sub(carry));
    }

    /// Zeroes the words with `zeroize`.
    #[inline]
    pub(crate) fn wipe(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.w);
    }
}

/// Multiplication by 2 in GF(2^(8s)) of the little-endian `x` (s = 32 or 64), constant time.
#[inline]
pub(crate) fn dbl_bytes(x: &mut [u8]) {
    let mut w = Words::from_bytes(x);
    w.dbl();
    w.store(x);
    w.wipe();
}

/// Blocks `from..job.blocks` of `job` one at a time with the single-state permutation
/// `f(state, inverse)` (the portable path, and the tail of the SIMD kernels). The job's mask
/// must be `2^from · L` on entry.
pub(crate) fn em_serial<L: Lane>(job: &mut EmJob<'_>, from: usize, sums: &mut EmSums, f: impl Fn(&mut State<L>, bool)) {
    let s = 16 * L::BYTES;
    let (pre, post) = (Words::from_bytes(job.pre), Words::from_bytes(job.post_const));
    let mut m = Words::from_bytes(job.mask);
    let mut acc = [Words::zero(s); 3];
    for j in from..job.blocks {
        let mut x = Words::from_bytes(job.block(job.src, j, s));
        acc[0].xor(&x);
        x.xor(&pre);
        if job.mask_in {
            x.xor(&m);
        }
        let mut st = x.to_state::<L>();
        f(&mut st, job.inverse);
        let mut y = Words::from_state(&st);
        st.zeroize();
        y.xor(&post);
        if job.mask_out {
            y.xor(&m);
        }
        if let Some(p) = job.post {
            let pb = Words::from_bytes(job.block(p, j, s));
            acc[1].xor(&pb);
            y.xor(&pb);
        }
        acc[2].xor(&y);
        let o = job.dst + j * job.stride;
        y.store(&mut job.io[o..o + s]);
        m.dbl();
        x.wipe();
        y.wipe();
    }
    m.store(job.mask);
    m.wipe();
    finish_sums(sums, &mut acc, s);
}

/// `sums ^= acc` (source, post, output), then wipes `acc`.
fn finish_sums(sums: &mut EmSums, acc: &mut [Words; 3], s: usize) {
    acc[0].xor_into(&mut sums.src[..s]);
    acc[1].xor_into(&mut sums.post[..s]);
    acc[2].xor_into(&mut sums.out[..s]);
    acc.iter_mut().for_each(Words::wipe);
}
