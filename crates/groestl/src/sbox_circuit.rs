//! The AES S-box as a Boolean circuit (Boyar and Peralta, "A small depth-16 circuit for the
//! AES S-box", 2011: 113 gates, 32 of them AND), generic over the word type so the same code
//! runs bitsliced on `u64`, `u128`, pairs of words and SIMD vectors.
//!
//! Input `u[0]` is the most significant bit of each S-box input, `u[7]` the least; the output
//! uses the same order. Constant-time by construction: no branches and no memory look-ups.

use core::ops::{BitAnd, BitOr, BitXor, Not};

/// Applies the S-box to bitsliced inputs: `u[i]` holds bit `7 - i` of every input byte.
#[inline(always)]
pub fn sbox<T>(u: [T; 8]) -> [T; 8]
where
    T: Copy + BitXor<Output = T> + BitAnd<Output = T> + Not<Output = T>,
{
    let [u0, u1, u2, u3, u4, u5, u6, u7] = u;
    // Top linear layer.
    let t1 = u0 ^ u3;
    let t2 = u0 ^ u5;
    let t3 = u0 ^ u6;
    let t4 = u3 ^ u5;
    let t5 = u4 ^ u6;
    let t6 = t1 ^ t5;
    let t7 = u1 ^ u2;
    let t8 = u7 ^ t6;
    let t9 = u7 ^ t7;
    let t10 = t6 ^ t7;
    let t11 = u1 ^ u5;
    let t12 = u2 ^ u5;
    let t13 = t3 ^ t4;
    let t14 = t6 ^ t11;
    let t15 = t5 ^ t11;
    let t16 = t5 ^ t12;
    let t17 = t9 ^ t16;
    let t18 = u3 ^ u7;
    let t19 = t7 ^ t18;
    let t20 = t1 ^ t19;
    let t21 = u6 ^ u7;
    let t22 = t7 ^ t21;
    let t23 = t2 ^ t22;
    let t24 = t2 ^ t10;
    let t25 = t20 ^ t17;
    let t26 = t3 ^ t16;
    let t27 = t1 ^ t12;
    // Non-linear middle: inversion in GF(2^4)^2.
    let m1 = t13 & t6;
    let m2 = t23 & t8;
    let m3 = t14 ^ m1;
    let m4 = t19 & u7;
    let m5 = m4 ^ m1;
    let m6 = t3 & t16;
    let m7 = t22 & t9;
    let m8 = t26 ^ m6;
    let m9 = t20 & t17;
    let m10 = m9 ^ m6;
    let m11 = t1 & t15;
    let m12 = t4 & t27;
    let m13 = m12 ^ m11;
    let m14 = t2 & t10;
    let m15 = m14 ^ m11;
    let m16 = m3 ^ m2;
    let m17 = m5 ^ t24;
    let m18 = m8 ^ m7;
    let m19 = m10 ^ m15;
    let m20 = m16 ^ m13;
    let m21 = m17 ^ m15;
    let m22 = m18 ^ m13;
    let m23 = m19 ^ t25;
    let m24 = m22 ^ m23;
    let m25 = m22 & m20;
    let m26 = m21 ^ m25;
    let m27 = m20 ^ m21;
    let m28 = m23 ^ m25;
    let m29 = m28 & m27;
    let m30 = m26 & m24;
    let m31 = m20 & m23;
    let m32 = m27 & m31;
    let m33 = m27 ^ m25;
    let m34 = m21 & m22;
    let m35 = m24 & m34;
    let m36 = m24 ^ m25;
    let m37 = m21 ^ m29;
    let m38 = m32 ^ m33;
    let m39 = m23 ^ m30;
    let m40 = m35 ^ m36;
    let m41 = m38 ^ m40;
    let m42 = m37 ^ m39;
    let m43 = m37 ^ m38;
    let m44 = m39 ^ m40;
    let m45 = m42 ^ m41;
    let m46 = m44 & t6;
    let m47 = m40 & t8;
    let m48 = m39 & u7;
    let m49 = m43 & t16;
    let m50 = m38 & t9;
    let m51 = m37 & t17;
    let m52 = m42 & t15;
    let m53 = m45 & t27;
    let m54 = m41 & t10;
    let m55 = m44 & t13;
    let m56 = m40 & t23;
    let m57 = m39 & t19;
    let m58 = m43 & t3;
    let m59 = m38 & t22;
    let m60 = m37 & t20;
    let m61 = m42 & t1;
    let m62 = m45 & t4;
    let m63 = m41 & t2;
    // Bottom linear layer.
    let l0 = m61 ^ m62;
    let l1 = m50 ^ m56;
    let l2 = m46 ^ m48;
    let l3 = m47 ^ m55;
    let l4 = m54 ^ m58;
    let l5 = m49 ^ m61;
    let l6 = m62 ^ l5;
    let l7 = m46 ^ l3;
    let l8 = m51 ^ m59;
    let l9 = m52 ^ m53;
    let l10 = m53 ^ l4;
    let l11 = m60 ^ l2;
    let l12 = m48 ^ m51;
    let l13 = m50 ^ l0;
    let l14 = m52 ^ m61;
    let l15 = m55 ^ l1;
    let l16 = m56 ^ l0;
    let l17 = m57 ^ l1;
    let l18 = m58 ^ l8;
    let l19 = m63 ^ l4;
    let l20 = l0 ^ l1;
    let l21 = l1 ^ l7;
    let l22 = l3 ^ l12;
    let l23 = l18 ^ l2;
    let l24 = l15 ^ l9;
    let l25 = l6 ^ l10;
    let l26 = l7 ^ l9;
    let l27 = l8 ^ l10;
    let l28 = l11 ^ l14;
    let l29 = l11 ^ l17;
    [
        l6 ^ l24,
        !(l16 ^ l26),
        !(l19 ^ l28),
        l6 ^ l21,
        l20 ^ l22,
        l25 ^ l29,
        !(l13 ^ l27),
        !(l6 ^ l23),
    ]
}

/// The smaller Boyar–Peralta circuit ("A new combinational logic minimization technique with
/// applications to cryptology", SEA 2010): 115 gates, 32 of them AND, depth 28 (deeper than
/// [`sbox`], which trades gates for depth 16). Same input and output order as [`sbox`]. The
/// generators of the ARMv7 NEON backend (`scripts/gen-neon7-groestl.py`) and of the Cortex-M
/// `mcu` assembly (`scripts/gen-mcu-groestl.py`) parse this function, where instruction count
/// matters more than depth.
#[allow(dead_code)]
#[inline(always)]
pub fn sbox_small<T>(u: [T; 8]) -> [T; 8]
where
    T: Copy + BitXor<Output = T> + BitAnd<Output = T> + Not<Output = T>,
{
    let [u0, u1, u2, u3, u4, u5, u6, u7] = u;
    let y14 = u3 ^ u5;
    let y13 = u0 ^ u6;
    let y9 = u0 ^ u3;
    let y8 = u0 ^ u5;
    let t0 = u1 ^ u2;
    let y1 = t0 ^ u7;
    let y4 = y1 ^ u3;
    let y12 = y13 ^ y14;
    let y2 = y1 ^ u0;
    let y5 = y1 ^ u6;
    let y3 = y5 ^ y8;
    let t1 = u4 ^ y12;
    let y15 = t1 ^ u5;
    let y20 = t1 ^ u1;
    let y6 = y15 ^ u7;
    let y10 = y15 ^ t0;
    let y11 = y20 ^ y9;
    let y7 = u7 ^ y11;
    let y17 = y10 ^ y11;
    let y19 = y10 ^ y8;
    let y16 = t0 ^ y11;
    let y21 = y13 ^ y16;
    let y18 = u0 ^ y16;
    let t2 = y12 & y15;
    let t3 = y3 & y6;
    let t4 = t3 ^ t2;
    let t5 = y4 & u7;
    let t6 = t5 ^ t2;
    let t7 = y13 & y16;
    let t8 = y5 & y1;
    let t9 = t8 ^ t7;
    let t10 = y2 & y7;
    let t11 = t10 ^ t7;
    let t12 = y9 & y11;
    let t13 = y14 & y17;
    let t14 = t13 ^ t12;
    let t15 = y8 & y10;
    let t16 = t15 ^ t12;
    let t17 = t4 ^ t14;
    let t18 = t6 ^ t16;
    let t19 = t9 ^ t14;
    let t20 = t11 ^ t16;
    let t21 = t17 ^ y20;
    let t22 = t18 ^ y19;
    let t23 = t19 ^ y21;
    let t24 = t20 ^ y18;
    let t25 = t21 ^ t22;
    let t26 = t21 & t23;
    let t27 = t24 ^ t26;
    let t28 = t25 & t27;
    let t29 = t28 ^ t22;
    let t30 = t23 ^ t24;
    let t31 = t22 ^ t26;
    let t32 = t31 & t30;
    let t33 = t32 ^ t24;
    let t34 = t23 ^ t33;
    let t35 = t27 ^ t33;
    let t36 = t24 & t35;
    let t37 = t36 ^ t34;
    let t38 = t27 ^ t36;
    let t39 = t29 & t38;
    let t40 = t25 ^ t39;
    let t41 = t40 ^ t37;
    let t42 = t29 ^ t33;
    let t43 = t29 ^ t40;
    let t44 = t33 ^ t37;
    let t45 = t42 ^ t41;
    let z0 = t44 & y15;
    let z1 = t37 & y6;
    let z2 = t33 & u7;
    let z3 = t43 & y16;
    let z4 = t40 & y1;
    let z5 = t29 & y7;
    let z6 = t42 & y11;
    let z7 = t45 & y17;
    let z8 = t41 & y10;
    let z9 = t44 & y12;
    let z10 = t37 & y3;
    let z11 = t33 & y4;
    let z12 = t43 & y13;
    let z13 = t40 & y5;
    let z14 = t29 & y2;
    let z15 = t42 & y9;
    let z16 = t45 & y14;
    let z17 = t41 & y8;
    let t46 = z15 ^ z16;
    let t47 = z10 ^ z11;
    let t48 = z5 ^ z13;
    let t49 = z9 ^ z10;
    let t50 = z2 ^ z12;
    let t51 = z2 ^ z5;
    let t52 = z7 ^ z8;
    let t53 = z0 ^ z3;
    let t54 = z6 ^ z7;
    let t55 = z16 ^ z17;
    let t56 = z12 ^ t48;
    let t57 = t50 ^ t53;
    let t58 = z4 ^ t46;
    let t59 = z3 ^ t54;
    let t60 = t46 ^ t57;
    let t61 = z14 ^ t57;
    let t62 = t52 ^ t58;
    let t63 = t49 ^ t58;
    let t64 = z4 ^ t59;
    let t65 = t61 ^ t62;
    let t66 = z1 ^ t63;
    let t67 = t64 ^ t65;
    let s3 = t53 ^ t66;
    [t59 ^ t63, !(t64 ^ s3), !(t55 ^ t67), s3, t51 ^ t66, t47 ^ t65, !(t56 ^ t62), !(t48 ^ t60)]
}

/// `s ? x : y`, bit by bit: one `VBSL`/`VBIT`/`VBIF` on NEON.
#[allow(dead_code)]
#[inline(always)]
fn mux<T>(s: T, x: T, y: T) -> T
where
    T: Copy + BitAnd<Output = T> + BitOr<Output = T> + Not<Output = T>,
{
    (s & x) | (!s & y)
}

/// The forward AES S-box of Maximov and Ekdahl ("New circuit minimization techniques for smaller
/// and faster AES SBoxes", TCHES 2019/4: the forward specialisation of their combined circuit
/// with multiplexers): 109 gates besides its NOTs, among them 4 multiplexers, 2 `a | !b`, and
/// AND/NAND/NOR. Same input and output order as [`sbox`]. The ARMv7 NEON backend's generator
/// (`scripts/gen-neon7-groestl.py`) parses this function: NEON has `VBIC` (a & !b), `VORN`
/// (a | !b) and the bitwise selects, so every NOT is either absorbed into one of those or
/// carried to the outputs, where it becomes a constant.
#[allow(dead_code)]
#[inline(always)]
pub fn sbox_mux<T>(u: [T; 8]) -> [T; 8]
where
    T: Copy + BitXor<Output = T> + BitAnd<Output = T> + BitOr<Output = T> + Not<Output = T>,
{
    let [u0, u1, u2, u3, u4, u5, u6, u7] = u;
    // Top linear layer (18 values read by the products below).
    let a0 = !(u3 ^ u6);
    let a1 = u5 ^ u1;
    let a2 = u2 ^ a0;
    let a3 = u4 ^ a1;
    let a4 = u4 ^ u6;
    let q4 = !(a3 ^ a2);
    let q0 = u0 ^ q4;
    let q14 = u1 ^ q0;
    let a6 = !(u0 ^ u2);
    let q3 = !a6;
    let q1 = q4 ^ q3;
    let q6 = !(a2 ^ u1);
    let q8 = q3 ^ q6;
    let q9 = u6 ^ q1;
    let q2 = q8 ^ q9;
    let q10 = q4 ^ q9;
    let q7 = q6 ^ q10;
    let q12 = !(u7 ^ a0);
    let q11 = q0 ^ q12;
    let a11 = a2 ^ a6;
    let a12 = a4 ^ a11;
    let q5 = q0 ^ a12;
    let q13 = q11 ^ a12;
    let q17 = q14 ^ a12;
    let q16 = q14 ^ q13;
    // The GF(2^4) multiplications that form the norm (13 AND/NAND/NOR gates).
    let t20 = !(q6 & q12);
    let t21 = !(q3 & q14);
    let t22 = !(q1 & q16);
    let a10 = !(q3 | q14);
    let b10 = !(q0 & q7);
    let t10 = a10 ^ b10;
    let a11 = !(q4 | q13);
    let b11 = !(q10 & q11);
    let t11 = a11 ^ b11;
    let a12 = !(q2 | q17);
    let b12 = !(q5 & q9);
    let t12 = a12 ^ b12;
    let a13 = !(q8 | u1);
    let b13 = !(q2 & q17);
    let t13 = a13 ^ b13;
    let c0 = t20 ^ t22;
    let x0 = t10 ^ c0;
    let c1 = t21 ^ t20;
    let x1 = t11 ^ c1;
    let c2 = t21 ^ t22;
    let x2 = t12 ^ c2;
    let c3 = !(q4 & q13);
    let d3 = t21 ^ c3;
    let x3 = t13 ^ d3;
    // GF(2^4) inversion with four multiplexers (a ? b : c) and two a | !b.
    let t0 = !(x0 & x2);
    let t1 = !(x1 | x3);
    let t2 = !(t0 ^ t1);
    let y0 = mux(x2, t2, x3);
    let y2 = mux(x0, t2, x1);
    let t3 = x2 | !x1;
    let y1 = mux(t2, x3, t3);
    let t4 = x0 | !x3;
    let y3 = mux(t2, x1, t4);
    // The inverse's five linear combinations, the 18 products and the bottom linear layer.
    let y02 = y2 ^ y0;
    let y13 = y3 ^ y1;
    let y23 = y3 ^ y2;
    let y01 = y1 ^ y0;
    let y00 = y02 ^ y13;
    let n0 = !(y01 & q11);
    let n1 = !(y0 & q12);
    let n2 = !(y1 & q0);
    let n3 = !(y23 & q17);
    let n4 = !(y2 & q5);
    let n5 = !(y3 & u1);
    let n6 = !(y13 & q14);
    let n7 = !(y00 & q16);
    let n8 = !(y02 & q13);
    let n9 = !(y01 & q7);
    let n10 = !(y0 & q10);
    let n11 = !(y1 & q6);
    let n12 = !(y23 & q2);
    let n13 = !(y2 & q9);
    let n14 = !(y3 & q8);
    let n15 = !(y13 & q3);
    let n16 = !(y00 & q1);
    let n17 = !(y02 & q4);
    let h0 = n9 ^ n10;
    let h1 = n16 ^ h0;
    let h2 = n4 ^ n5;
    let e4 = n8 ^ h2;
    let s4 = n7 ^ e4;
    let h4 = n0 ^ n2;
    let h6 = n15 ^ h1;
    let e7 = n3 ^ n5;
    let h7 = h4 ^ e7;
    let h20 = !h6;
    let s2 = h20 ^ h7;
    let h8 = n13 ^ h0;
    let h9 = n12 ^ h8;
    let s1 = h20 ^ h9;
    let h10 = n17 ^ h1;
    let e12 = n1 ^ n2;
    let h12 = h2 ^ e12;
    let s0 = h6 ^ h12;
    let f5 = n8 ^ h4;
    let g5 = h9 ^ f5;
    let s5 = n6 ^ g5;
    let s11 = h12 ^ s5;
    let s6 = s1 ^ s11;
    let h15 = n14 ^ h10;
    let h16 = h8 ^ h15;
    let e7b = n9 ^ n11;
    let f7 = h10 ^ e7b;
    let s7 = !(s4 ^ f7);
    let h19 = !(h7 ^ s7);
    let s3 = h16 ^ h19;
    [s0, s1, s2, s3, s4, s5, s6, s7]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::consts::SBOX;

    #[test]
    fn circuit_equals_table_on_all_256_inputs() {
        // Bitslice all 256 inputs into four u64 lanes per bit.
        for chunk in 0..4 {
            let mut u = [0u64; 8];
            for j in 0..64 {
                let x = (chunk * 64 + j) as u8;
                for (i, ui) in u.iter_mut().enumerate() {
                    *ui |= (((x >> (7 - i)) & 1) as u64) << j;
                }
            }
            let s = sbox(u);
            for j in 0..64 {
                let x = chunk * 64 + j;
                let mut y = 0u8;
                for (i, si) in s.iter().enumerate() {
                    y |= (((si >> j) & 1) as u8) << (7 - i);
                }
                assert_eq!(y, SBOX[x], "S({x:#04x})");
            }
        }
    }

    #[test]
    fn small_circuit_equals_table_on_all_256_inputs() {
        for x in 0..=255u8 {
            let u: [u8; 8] = core::array::from_fn(|i| (x >> (7 - i)) & 1);
            let s = sbox_small(u.map(|b| b.wrapping_neg()));
            let y = s.iter().enumerate().fold(0u8, |y, (i, &b)| y | ((b & 1) << (7 - i)));
            assert_eq!(y, SBOX[x as usize], "S({x:#04x})");
        }
    }

    #[test]
    fn mux_circuit_equals_table_on_all_256_inputs() {
        for x in 0..=255u8 {
            let u: [u8; 8] = core::array::from_fn(|i| (x >> (7 - i)) & 1);
            let s = sbox_mux(u.map(|b| b.wrapping_neg()));
            let y = s.iter().enumerate().fold(0u8, |y, (i, &b)| y | ((b & 1) << (7 - i)));
            assert_eq!(y, SBOX[x as usize], "S({x:#04x})");
            assert!(s.iter().all(|&b| b == 0 || b == 0xFF), "S({x:#04x}): every bit of a word alike");
        }
    }
}
