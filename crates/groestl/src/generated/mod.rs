//! XOR programs produced by the project's synthesizer (`crates/slp`). Each file's header names
//! the tool, the seed and the operation counts; `crates/slp/tests/programs.rs` checks that the
//! file is exactly what the tool emits for the checked-in program, and the test below checks
//! the program against the MixBytes matrix.

#[macro_use]
mod mixbytes;

#[cfg(test)]
mod tests {
    use crate::consts::{MB_ROW, gmul, mul2};

    fn xor(a: u8, b: u8) -> u8 {
        a ^ b
    }

    fn mb_out(x: u8, y: u8, z: u8) -> u8 {
        mul2(mul2(x) ^ y) ^ z
    }

    /// `M · a` by the definition (spec §9.5).
    fn by_matrix(a: [u8; 8]) -> [u8; 8] {
        core::array::from_fn(|r| (0..8).fold(0, |acc, k| acc ^ gmul(MB_ROW[(k + 8 - r) % 8], a[k])))
    }

    #[test]
    fn generated_mixbytes_equals_the_matrix() {
        // Linear over GF(2): the 64 single-bit columns decide it; a few dense ones besides.
        let mut columns: Vec<[u8; 8]> = Vec::new();
        for byte in 0..8 {
            for bit in 0..8 {
                let mut a = [0u8; 8];
                a[byte] = 1 << bit;
                columns.push(a);
            }
        }
        columns.push([0x63; 8]);
        columns.push(core::array::from_fn(|i| ((37 * i + 11) % 256) as u8));
        for a in columns {
            let got: [u8; 8] = mix_bytes_program!(a, xor, mul2, mb_out);
            assert_eq!(got, by_matrix(a), "column {a:02x?}");
        }
    }
}
