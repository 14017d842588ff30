//! The `sum --check` line parser (coreutils `split_3`), free of I/O so that the fuzzer in
//! `fuzz/` can include it with `#[path]`. Depends on `hex` and `slicewise-groestl` only.

use slicewise_groestl::Variant;

/// The tag `--tag` prints and `--check` reads: `GROESTL-256`.
pub fn tag_name(v: Variant) -> &'static str {
    match v {
        Variant::Groestl224 => "GROESTL-224",
        Variant::Groestl256 => "GROESTL-256",
        Variant::Groestl384 => "GROESTL-384",
        Variant::Groestl512 => "GROESTL-512",
    }
}

/// One parsed checksum line.
#[derive(Debug)]
pub struct Entry {
    pub variant: Variant,
    pub digest: Vec<u8>,
    pub name: Vec<u8>,
}

fn is_white(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn unescape(s: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'\\' => {
                i += 1;
                match s.get(i)? {
                    b'n' => out.push(b'\n'),
                    b'r' => out.push(b'\r'),
                    b'\\' => out.push(b'\\'),
                    _ => return None,
                }
            }
            0 => return None,
            b => out.push(b),
        }
        i += 1;
    }
    Some(out)
}

fn variant_for_hex_len(n: usize) -> Option<Variant> {
    Variant::ALL.into_iter().find(|v| v.output_len() * 2 == n)
}

/// Parses a hex digest of exactly the variant's length.
fn parse_hex(s: &[u8], v: Variant) -> Option<Vec<u8>> {
    if s.len() != 2 * v.output_len() {
        return None;
    }
    hex::decode(s).ok()
}

/// State of one `--check` run (per checksum file, as in coreutils).
#[derive(Debug)]
pub struct Parser3 {
    /// `Some(v)` when `-a` was given: only that algorithm is accepted.
    fixed: Option<Variant>,
    /// Whether lines are in the reversed BSD form `HEX NAME` (-1: not yet known).
    bsd_reversed: i8,
}

impl Parser3 {
    /// A parser for one checksum file; `fixed` is the algorithm given with `-a`, if any.
    pub fn new(fixed: Option<Variant>) -> Parser3 {
        Parser3 { fixed, bsd_reversed: -1 }
    }

    /// coreutils `split_3`: the tagged form, `HEX  NAME`, `HEX *NAME`, or `HEX NAME`.
    pub fn split(&mut self, s: &[u8]) -> Option<Entry> {
        let mut i = 0;
        while i < s.len() && is_white(s[i]) {
            i += 1;
        }
        let escaped = s.get(i) == Some(&b'\\');
        if escaped {
            i += 1;
        }
        // BSD tagged form: GROESTL-256 (NAME) = HEX
        for v in Variant::ALL {
            let tag = tag_name(v).as_bytes();
            if s[i..].starts_with(tag) {
                let mut j = i + tag.len();
                if s.get(j) == Some(&b' ') {
                    j += 1;
                }
                if s.get(j) != Some(&b'(') {
                    return None;
                }
                if self.fixed.is_some_and(|f| f != v) {
                    return None;
                }
                let rest = &s[j + 1..];
                let close = rest.iter().rposition(|&b| b == b')')?;
                let raw_name = &rest[..close];
                let name = if escaped { unescape(raw_name)? } else { raw_name.to_vec() };
                let mut k = close + 1;
                while k < rest.len() && is_white(rest[k]) {
                    k += 1;
                }
                if rest.get(k) != Some(&b'=') {
                    return None;
                }
                k += 1;
                while k < rest.len() && is_white(rest[k]) {
                    k += 1;
                }
                let digest = parse_hex(&rest[k..], v)?;
                return Some(Entry { variant: v, digest, name });
            }
        }
        // Untagged: the digest runs to the first white space.
        let hex_end = i + s[i..].iter().position(|&b| is_white(b))?;
        let hex = &s[i..hex_end];
        let variant = match self.fixed {
            Some(v) => v,
            None => variant_for_hex_len(hex.len())?,
        };
        let digest = parse_hex(hex, variant)?;
        let mut j = hex_end + 1;
        if s.len() - j == 1 || (s.get(j) != Some(&b' ') && s.get(j) != Some(&b'*')) {
            if self.bsd_reversed == 0 {
                return None;
            }
            self.bsd_reversed = 1;
        } else if self.bsd_reversed != 1 {
            self.bsd_reversed = 0;
            j += 1;
        }
        let raw_name = s.get(j..)?;
        let name = if escaped { unescape(raw_name)? } else { raw_name.to_vec() };
        Some(Entry { variant, digest, name })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> Parser3 {
        Parser3::new(None)
    }

    const H256: &str = "1a52d11d550039be16107f9c58db9ebcc417f16f736adb2502567119f0083467";

    #[test]
    fn parses_the_three_forms() {
        let e = p().split(format!("{H256}  a b").as_bytes()).unwrap();
        assert_eq!((e.variant, &e.name[..]), (Variant::Groestl256, &b"a b"[..]));
        let e = p().split(format!("GROESTL-256 (x) y) = {H256}").as_bytes()).unwrap();
        assert_eq!(&e.name[..], b"x) y");
        let e = p().split(format!("\\{H256}  a\\nb\\\\c").as_bytes()).unwrap();
        assert_eq!(&e.name[..], b"a\nb\\c");
        let e = p().split(format!("{H256} name").as_bytes()).unwrap();
        assert_eq!(&e.name[..], b"name");
    }

    #[test]
    fn rejects_bad_lines() {
        for bad in [
            "nothex  a".to_string(),
            format!("{}  a", &H256[..63]),
            format!("\\{H256}  a\\qb"),
            format!("GROESTL-256 (a) {H256}"),
            format!("GROESTL-999 (a) = {H256}"),
        ] {
            assert!(p().split(bad.as_bytes()).is_none(), "{bad}");
        }
        let mut fixed = Parser3::new(Some(Variant::Groestl512));
        assert!(fixed.split(format!("{H256}  a").as_bytes()).is_none());
    }
}
