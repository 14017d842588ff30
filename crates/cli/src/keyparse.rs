//! Key-file and `--nonce` parsing for `slicewise encrypt | decrypt`, free of I/O so that the
//! fuzzer in `fuzz/` can include it with `#[path]`. Depends on `hex` and `zeroize` only.

use zeroize::Zeroizing;

/// Parses the contents of a key file: hex text (whitespace-trimmed) of exactly 2·len digits,
/// or exactly `len` raw bytes. Content that is entirely hex digits is always taken as hex (a
/// random raw key is all hex digits with negligible probability), so a hex key of the wrong
/// length is an error rather than being misread as raw bytes. The error names only lengths,
/// never key material.
pub fn parse_key(raw: &[u8], len: usize) -> Result<Zeroizing<Vec<u8>>, String> {
    let text = raw.trim_ascii();
    let is_hex = !text.is_empty() && text.iter().all(u8::is_ascii_hexdigit);
    if is_hex && text.len() == 2 * len {
        let mut key = Zeroizing::new(vec![0u8; len]);
        hex::decode_to_slice(text, &mut key).expect("checked hex digits");
        return Ok(key);
    }
    if !is_hex && raw.len() == len {
        return Ok(Zeroizing::new(raw.to_vec()));
    }
    Err(format!(
        "expected {len} raw bytes or {} hex digits, found {}",
        2 * len,
        if is_hex { format!("{} hex digits", text.len()) } else { format!("{} bytes", raw.len()) }
    ))
}

/// Parses a `--nonce` argument: hex (surrounding whitespace ignored) of exactly `len` bytes.
pub fn parse_nonce(h: &str, len: usize) -> Result<Vec<u8>, String> {
    let n = hex::decode(h.trim()).map_err(|e| format!("bad --nonce: not hex ({e})"))?;
    if n.len() != len {
        return Err(format!("bad --nonce: expected {len} bytes ({} hex digits), got {} bytes", 2 * len, n.len()));
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_in_hex_or_raw() {
        assert_eq!(&parse_key(b" 00ff\n", 2).unwrap()[..], &[0x00, 0xff]);
        assert_eq!(&parse_key(b"\x01\xfe", 2).unwrap()[..], &[0x01, 0xfe]);
        // All hex digits but the wrong count: an error, not two raw bytes "ab".
        assert_eq!(parse_key(b"ab", 2).unwrap_err(), "expected 2 raw bytes or 4 hex digits, found 2 hex digits");
        assert!(parse_key(b"", 2).is_err());
        assert!(parse_key(b"\x01\x02\x03", 2).is_err());
    }

    #[test]
    fn nonces() {
        assert_eq!(parse_nonce(" 0a0b ", 2).unwrap(), [10, 11]);
        assert!(parse_nonce("0a0", 2).unwrap_err().contains("not hex"));
        assert!(parse_nonce("0a", 2).unwrap_err().contains("expected 2 bytes"));
    }
}
