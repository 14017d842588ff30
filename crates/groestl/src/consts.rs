//! Constants of Grøstl (spec §2, §5, §9): the AES S-box, ShiftBytes amounts, MixBytes matrix.

/// The AES S-box (spec §9.3). Used to build the T-tables and by tests; the constant-time
/// backends compute it instead (see `sbox_circuit`).
pub const SBOX: [u8; 256] = build_sbox();

/// ShiftBytes amounts σ[r] for the four permutations (spec §9.4).
pub const SIGMA_P512: [u32; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
pub const SIGMA_Q512: [u32; 8] = [1, 3, 5, 7, 0, 2, 4, 6];
pub const SIGMA_P1024: [u32; 8] = [0, 1, 2, 3, 4, 5, 6, 11];
pub const SIGMA_Q1024: [u32; 8] = [1, 3, 5, 11, 0, 2, 4, 6];

/// First row of the circulant MixBytes matrix: `M[r][k] = MB_ROW[(k - r) mod 8]` (spec §9.5).
pub const MB_ROW: [u8; 8] = [2, 2, 3, 4, 5, 3, 5, 7];

/// Rounds of the 512-bit and the 1024-bit permutations.
pub const ROUNDS_512: usize = 10;
pub const ROUNDS_1024: usize = 14;

/// Multiplication by x in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1.
pub const fn mul2(v: u8) -> u8 {
    (v << 1) ^ (((v >> 7) & 1) * 0x1b)
}

/// Product in GF(2^8)/0x11b (constant folding only; never on secrets).
pub const fn gmul(a: u8, b: u8) -> u8 {
    let (mut a, mut b, mut r) = (a, b, 0u8);
    while b != 0 {
        if b & 1 != 0 {
            r ^= a;
        }
        a = mul2(a);
        b >>= 1;
    }
    r
}

/// The S-box from its algebraic definition (inverse, then the affine map), spec §9.3.
const fn build_sbox() -> [u8; 256] {
    let mut s = [0u8; 256];
    let mut x = 0usize;
    while x < 256 {
        // x^254 = x^-1 (and 0 -> 0).
        let mut inv = 1u8;
        let mut e = 0;
        while e < 254 {
            inv = gmul(inv, x as u8);
            e += 1;
        }
        if x == 0 {
            inv = 0;
        }
        let y = inv;
        let aff = y ^ y.rotate_left(1) ^ y.rotate_left(2) ^ y.rotate_left(3) ^ y.rotate_left(4) ^ 0x63;
        s[x] = aff;
        x += 1;
    }
    s
}

/// The 16-entry tables of the vector-permute AES S-box (Hamburg, CHES 2009; the public-domain
/// `vpaes` constants, last round), as little-endian 64-bit halves: the input basis change
/// (`IPT_LO`/`IPT_HI` for the low/high nibble), the GF(2^4) inverse tables (`INV`, `INVA`; an
/// entry 0x80 makes the look-up of it return 0) and the output affine map (`SBOU`, `SBOT`),
/// giving `S(x) ⊕ 0x63`. Used by the x86 `vperm` (`PSHUFB`) and AArch64 `neon` (`TBL`) backends.
#[allow(dead_code)]
pub mod vpaes {
    pub const IPT_LO: [u64; 2] = [0xC2B2_E898_5A2A_7000, 0xCABA_E090_5222_7808];
    pub const IPT_HI: [u64; 2] = [0x4C01_307D_317C_4D00, 0xCD80_B1FC_B0FD_CC81];
    pub const SBOU: [u64; 2] = [0xD0D2_6D17_6FBD_C700, 0x15AA_BF7A_C502_A878];
    pub const SBOT: [u64; 2] = [0xCFE4_74A5_5FBB_6A00, 0x8E1E_90D1_412B_35FA];
    pub const INV: [u64; 2] = [0x0E05_060F_0D08_0180, 0x0407_0309_0A0B_0C02];
    pub const INVA: [u64; 2] = [0x0104_0A06_0F0B_0780, 0x030D_0E0C_0205_0809];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sbox_matches_spec_table_corners() {
        // Spot values from spec §9.3 (the full table is checked by every KAT).
        assert_eq!(SBOX[0x00], 0x63);
        assert_eq!(SBOX[0x01], 0x7c);
        assert_eq!(SBOX[0x53], 0xed);
        assert_eq!(SBOX[0xff], 0x16);
        let mut seen = [false; 256];
        for &v in SBOX.iter() {
            seen[v as usize] = true;
        }
        assert!(seen.iter().all(|&b| b), "S-box is a permutation");
    }

    #[test]
    fn mixbytes_row_sum_is_3() {
        // Spec §11: the sum of each matrix row is 03.
        assert_eq!(MB_ROW.iter().fold(0, |a, &b| a ^ b), 3);
        assert_eq!(gmul(3, 0x63), 0xa5);
    }
}
