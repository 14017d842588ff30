//! `ttable32`: the split 32-bit T-tables for 32-bit platforms (paper [V] §3.1, spec §14).
//! NOT constant-time (secret-indexed look-ups); never chosen by `Backend::detect()`.
//!
//! Each 64-bit `T_r` splits into an upper half `T'_r` (rows 0–3) and a lower half `T''_r`
//! (rows 4–7). Because the MixBytes matrix is circulant, `T''_r = T'_{(r+4) mod 8}`: the
//! lower table is the upper table at a rotated index. So eight 1 KiB tables (8 KiB) serve
//! both halves, and every column is two `u32` words.

use crate::consts::*;

/// `TU[r][x]` = rows 0–3 of `T_r[x]`, row 0 in the most significant byte.
static TU: [[u32; 256]; 8] = build();

const fn build() -> [[u32; 256]; 8] {
    let mut t = [[0u32; 256]; 8];
    let mut r = 0;
    while r < 8 {
        let mut x = 0;
        while x < 256 {
            let s = SBOX[x];
            let mut w = 0u32;
            let mut i = 0;
            while i < 4 {
                w |= (gmul(MB_ROW[(r + 8 - i) % 8], s) as u32) << (24 - 8 * i);
                i += 1;
            }
            t[r][x] = w;
            x += 1;
        }
        r += 1;
    }
    t
}

/// A column as (rows 0–3, rows 4–7).
type Col = (u32, u32);

#[inline(always)]
fn byte(c: Col, r: usize) -> usize {
    let w = if r < 4 { c.0 } else { c.1 };
    ((w >> (24 - 8 * (r % 4))) & 0xff) as usize
}

#[inline(always)]
fn round<const C: usize>(x: &[Col; C], sigma: &[u32; 8]) -> [Col; C] {
    core::array::from_fn(|j| {
        let (mut hi, mut lo) = (0u32, 0u32);
        for r in 0..8 {
            let b = byte(x[(j + sigma[r] as usize) % C], r);
            hi ^= TU[r][b];
            lo ^= TU[(r + 4) % 8][b];
        }
        (hi, lo)
    })
}

#[inline(always)]
fn perm<const C: usize>(mut x: [Col; C], q: bool, rounds: usize, sigma: &[u32; 8]) -> [Col; C] {
    for i in 0..rounds {
        for (j, c) in x.iter_mut().enumerate() {
            let k = ((16 * j) ^ i) as u32;
            if q {
                c.0 ^= !0;
                c.1 ^= !k;
            } else {
                c.0 ^= k << 24;
            }
        }
        x = round(&x, sigma);
    }
    x
}

fn split<const C: usize>(w: &[u64; C]) -> [Col; C] {
    core::array::from_fn(|c| ((w[c] >> 32) as u32, w[c] as u32))
}

fn join<const C: usize>(x: &[Col; C]) -> [u64; C] {
    core::array::from_fn(|c| ((x[c].0 as u64) << 32) | x[c].1 as u64)
}

fn load<const C: usize>(block: &[u8]) -> [Col; C] {
    core::array::from_fn(|c| {
        let b = &block[8 * c..8 * c + 8];
        (u32::from_be_bytes(b[..4].try_into().unwrap()), u32::from_be_bytes(b[4..].try_into().unwrap()))
    })
}

fn compress<const C: usize>(h: &mut [u64; C], blocks: &[u8], rounds: usize, sp: &[u32; 8], sq: &[u32; 8]) {
    let mut hs = split(h);
    for block in blocks.chunks_exact(8 * C) {
        let m: [Col; C] = load(block);
        let hm: [Col; C] = core::array::from_fn(|c| (hs[c].0 ^ m[c].0, hs[c].1 ^ m[c].1));
        let p = perm(hm, false, rounds, sp);
        let q = perm(m, true, rounds, sq);
        for c in 0..C {
            hs[c].0 ^= p[c].0 ^ q[c].0;
            hs[c].1 ^= p[c].1 ^ q[c].1;
        }
    }
    *h = join(&hs);
}

pub fn compress512(h: &mut [u64; 8], blocks: &[u8]) {
    compress(h, blocks, ROUNDS_512, &SIGMA_P512, &SIGMA_Q512);
}

pub fn compress1024(h: &mut [u64; 16], blocks: &[u8]) {
    compress(h, blocks, ROUNDS_1024, &SIGMA_P1024, &SIGMA_Q1024);
}

fn output<const C: usize>(h: &[u64; C], rounds: usize, sigma: &[u32; 8]) -> [u64; C] {
    let p = join(&perm(split(h), false, rounds, sigma));
    core::array::from_fn(|c| p[c] ^ h[c])
}

pub fn output512(h: &[u64; 8]) -> [u64; 8] {
    output(h, ROUNDS_512, &SIGMA_P512)
}

pub fn output1024(h: &[u64; 16]) -> [u64; 16] {
    output(h, ROUNDS_1024, &SIGMA_P1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_half_is_upper_table_at_rotated_index() {
        let t64 = &crate::backend::ttable64::T;
        for r in 0..8 {
            for x in 0..256 {
                assert_eq!((t64[r][x] >> 32) as u32, TU[r][x]);
                assert_eq!(t64[r][x] as u32, TU[(r + 4) % 8][x], "T''_{r} = T'_{}", (r + 4) % 8);
            }
        }
    }
}
