//! The CLI key-file and `--nonce` parsers: never panic, and an accepted key or nonce has
//! exactly the requested length.
#![no_main]

#[path = "../../crates/cli/src/keyparse.rs"]
mod keyparse;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else { return };
    let len = [16, 32, 64, 0, 1][sel as usize % 5];
    if let Ok(k) = keyparse::parse_key(rest, len) {
        assert_eq!(k.len(), len);
    }
    if let Ok(s) = std::str::from_utf8(rest)
        && let Ok(n) = keyparse::parse_nonce(s, len)
    {
        assert_eq!(n.len(), len);
    }
});
