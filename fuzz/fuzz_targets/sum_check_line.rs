//! The `slicewise sum --check` line parser (coreutils `split_3`): never panics, and what it
//! accepts is consistent (the digest has the length of the variant it reports).
#![no_main]

#[path = "../../crates/cli/src/checkline.rs"]
#[allow(dead_code)]
mod checkline;

use checkline::Parser3;
use libfuzzer_sys::fuzz_target;
use slicewise_groestl::Variant;

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else { return };
    let fixed = match sel % 5 {
        4 => None,
        i => Some(Variant::ALL[i as usize]),
    };
    // Several lines through one parser: the BSD-reversed state carries from line to line.
    let mut p = Parser3::new(fixed);
    for line in rest.split(|&b| b == b'\n') {
        if let Some(e) = p.split(line) {
            assert_eq!(e.digest.len(), e.variant.output_len(), "digest length");
            if let Some(f) = fixed {
                assert_eq!(e.variant, f, "-a given: only that algorithm");
            }
        }
    }
});
