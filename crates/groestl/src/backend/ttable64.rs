//! `ttable64`: the 64-bit T-table method (paper [V] §3.1, spec §14). NOT constant-time:
//! the table index is the secret state byte, so cache timing leaks it. Never chosen by
//! `Backend::detect()`.
//!
//! The state is one big-endian word per column (row 0 in the most significant byte). One
//! round computes each output column as `T_0[a_{0,j+σ0}] ⊕ … ⊕ T_7[a_{7,j+σ7}]`, where
//! `T_r[x]` is `S[x]` times column `r` of the MixBytes matrix, so SubBytes, ShiftBytes and
//! MixBytes collapse into eight look-ups and seven XORs per column.

use crate::consts::*;

/// `T[r][x]`: row `i` (byte `7 - i` from the bottom) is `M[i][r] · S[x]`.
pub(crate) static T: [[u64; 256]; 8] = build();

const fn build() -> [[u64; 256]; 8] {
    let mut t = [[0u64; 256]; 8];
    let mut r = 0;
    while r < 8 {
        let mut x = 0;
        while x < 256 {
            let s = SBOX[x];
            let mut w = 0u64;
            let mut i = 0;
            while i < 8 {
                let coef = MB_ROW[(r + 8 - i) % 8];
                w |= (gmul(coef, s) as u64) << (56 - 8 * i);
                i += 1;
            }
            t[r][x] = w;
            x += 1;
        }
        r += 1;
    }
    t
}

#[inline(always)]
fn byte(w: u64, r: usize) -> usize {
    ((w >> (56 - 8 * r)) & 0xff) as usize
}

#[inline(always)]
fn round<const C: usize>(x: &[u64; C], sigma: &[u32; 8]) -> [u64; C] {
    core::array::from_fn(|j| {
        let mut acc = 0u64;
        for r in 0..8 {
            acc ^= T[r][byte(x[(j + sigma[r] as usize) % C], r)];
        }
        acc
    })
}

#[inline(always)]
fn perm_p<const C: usize>(mut x: [u64; C], rounds: usize, sigma: &[u32; 8]) -> [u64; C] {
    for i in 0..rounds {
        for (j, w) in x.iter_mut().enumerate() {
            *w ^= (((16 * j) ^ i) as u64) << 56;
        }
        x = round(&x, sigma);
    }
    x
}

#[inline(always)]
fn perm_q<const C: usize>(mut x: [u64; C], rounds: usize, sigma: &[u32; 8]) -> [u64; C] {
    for i in 0..rounds {
        for (j, w) in x.iter_mut().enumerate() {
            *w ^= !(((16 * j) ^ i) as u64);
        }
        x = round(&x, sigma);
    }
    x
}

fn load<const C: usize>(block: &[u8]) -> [u64; C] {
    core::array::from_fn(|c| u64::from_be_bytes(block[8 * c..8 * c + 8].try_into().unwrap()))
}

fn compress<const C: usize>(h: &mut [u64; C], blocks: &[u8], rounds: usize, sp: &[u32; 8], sq: &[u32; 8]) {
    for block in blocks.chunks_exact(8 * C) {
        let m: [u64; C] = load(block);
        let hm: [u64; C] = core::array::from_fn(|c| h[c] ^ m[c]);
        let p = perm_p(hm, rounds, sp);
        let q = perm_q(m, rounds, sq);
        for c in 0..C {
            h[c] ^= p[c] ^ q[c];
        }
    }
}

pub fn compress512(h: &mut [u64; 8], blocks: &[u8]) {
    compress(h, blocks, ROUNDS_512, &SIGMA_P512, &SIGMA_Q512);
}

pub fn compress1024(h: &mut [u64; 16], blocks: &[u8]) {
    compress(h, blocks, ROUNDS_1024, &SIGMA_P1024, &SIGMA_Q1024);
}

pub fn output512(h: &[u64; 8]) -> [u64; 8] {
    let p = perm_p(*h, ROUNDS_512, &SIGMA_P512);
    core::array::from_fn(|c| p[c] ^ h[c])
}

pub fn output1024(h: &[u64; 16]) -> [u64; 16] {
    let p = perm_p(*h, ROUNDS_1024, &SIGMA_P1024);
    core::array::from_fn(|c| p[c] ^ h[c])
}
