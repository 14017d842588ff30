//! Matrix input: 0/1 rows, the BP format, `rows cols` headers, hex-byte matrices over GF(2^8),
//! and circulant specifications. Every error names the offending line; nothing here panics.

use std::fmt;

use crate::matrix::{BitMatrix, MAX_DIM, circulant, expand_gf256};

/// A parse error. `line` is 1-based; 0 means the input as a whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number, 0 for errors about the whole input.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl ParseError {
    pub(crate) fn new(line: usize, message: impl Into<String>) -> Self {
        ParseError { line, message: message.into() }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 { write!(f, "{}", self.message) } else { write!(f, "line {}: {}", self.line, self.message) }
    }
}

impl std::error::Error for ParseError {}

/// How the matrix text is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MatrixFormat {
    /// Guess from the first lines.
    #[default]
    Auto,
    /// 0/1 characters, one row per line (spaces allowed), with an optional `rows cols` header.
    Bits,
    /// Number of matrices, then `rows cols`, then space-separated rows.
    Bp,
    /// Hex bytes (GF(2^8) elements), one matrix row per line.
    Hex,
}

/// Options for [`parse_input`].
#[derive(Debug, Clone, Copy)]
pub struct ParseOptions {
    /// Input format.
    pub format: MatrixFormat,
    /// Field polynomial for hex matrices (degree 8, e.g. `0x11b`).
    pub field: u16,
    /// Which matrix of a multi-matrix BP file (0-based).
    pub index: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions { format: MatrixFormat::Auto, field: 0x11b, index: 0 }
    }
}

/// A parsed matrix, with its GF(2^8) form when it was given as bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// The binary matrix.
    pub matrix: BitMatrix,
    /// The byte matrix, for hex and circulant input.
    pub bytes: Option<Vec<Vec<u8>>>,
    /// The field polynomial used to expand `bytes`.
    pub field: Option<u16>,
}

/// Content lines: (1-based number, text without comment, trimmed), skipping blank lines.
fn content_lines(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty())
        .collect()
}

fn tokens(line: &str) -> Vec<&str> {
    line.split(|c: char| c.is_whitespace() || c == ',' || c == ';').filter(|t| !t.is_empty()).collect()
}

fn is_decimal(t: &str) -> bool {
    !t.is_empty() && t.len() <= 9 && t.bytes().all(|b| b.is_ascii_digit())
}

fn is_hex_byte(t: &str) -> bool {
    let t = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")).unwrap_or(t);
    (1..=2).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_hexdigit())
}

fn bit_len(line: &str) -> usize {
    line.chars().filter(|c| !c.is_whitespace()).count()
}

/// Parses a field polynomial such as `0x11b` or `283`.
pub fn parse_field(s: &str) -> Result<u16, ParseError> {
    let s = s.trim();
    let v = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u32::from_str_radix(h, 16)
    } else {
        s.parse::<u32>()
    }
    .map_err(|_| ParseError::new(0, format!("field polynomial {s:?} is not a number (want e.g. 0x11b)")))?;
    if !(0x100..0x200).contains(&v) {
        return Err(ParseError::new(0, format!("field polynomial {s} must have degree 8 (0x100..=0x1ff)")));
    }
    Ok(v as u16)
}

/// Parses a list of hex bytes such as `02,02,03,04` (also `0x02 0x03`).
pub fn parse_hex_list(s: &str) -> Result<Vec<u8>, ParseError> {
    let toks = tokens(s);
    if toks.is_empty() {
        return Err(ParseError::new(0, "empty list of hex bytes"));
    }
    toks.iter()
        .map(|t| {
            if !is_hex_byte(t) {
                return Err(ParseError::new(0, format!("{t:?} is not a hex byte")));
            }
            let h = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")).unwrap_or(t);
            Ok(u8::from_str_radix(h, 16).expect("checked hex"))
        })
        .collect()
}

/// Builds the input for `--circulant` with a field polynomial.
pub fn circulant_input(first_row: &str, field: u16) -> Result<Input, ParseError> {
    let first = parse_hex_list(first_row)?;
    if first.len() * 8 > MAX_DIM {
        return Err(ParseError::new(0, format!("circulant of {} bytes is larger than {MAX_DIM} bits", first.len())));
    }
    let bytes = circulant(&first);
    Ok(Input { matrix: expand_gf256(&bytes, field), bytes: Some(bytes), field: Some(field) })
}

fn detect(lines: &[(usize, &str)]) -> MatrixFormat {
    let t0 = tokens(lines[0].1);
    if lines.len() >= 2 {
        let t1 = tokens(lines[1].1);
        if t0.len() == 1 && is_decimal(t0[0]) && t1.len() == 2 && t1.iter().all(|t| is_decimal(t)) {
            return MatrixFormat::Bp;
        }
    }
    let all_binary = t0.iter().all(|t| t.bytes().all(|b| b == b'0' || b == b'1'));
    if t0.len() >= 2 && t0.iter().all(|t| t.len() == 2 || (t.len() == 4 && t.starts_with("0x"))) && t0.iter().all(|t| is_hex_byte(t)) && !all_binary {
        return MatrixFormat::Hex;
    }
    MatrixFormat::Bits
}

/// Parses one 0/1 row of exactly `cols` bits (or any length if `cols` is `None`).
fn parse_bit_row(no: usize, line: &str, cols: Option<usize>) -> Result<(Vec<bool>, usize), ParseError> {
    let mut bits = Vec::new();
    for c in line.chars() {
        match c {
            '0' => bits.push(false),
            '1' => bits.push(true),
            c if c.is_whitespace() || c == ',' => {}
            c => return Err(ParseError::new(no, format!("unexpected character {c:?} in a 0/1 row"))),
        }
        if bits.len() > MAX_DIM {
            return Err(ParseError::new(no, format!("row longer than {MAX_DIM} columns")));
        }
    }
    if let Some(c) = cols
        && bits.len() != c
    {
        return Err(ParseError::new(no, format!("row has {} columns, expected {c} (ragged matrix)", bits.len())));
    }
    let n = bits.len();
    Ok((bits, n))
}

fn rows_to_matrix(rows: Vec<Vec<bool>>, cols: usize) -> BitMatrix {
    let bits = rows
        .iter()
        .map(|r| r.iter().enumerate().fold(0u128, |acc, (c, &b)| if b { acc | 1 << c } else { acc }))
        .collect();
    BitMatrix::from_rows(cols, bits)
}

fn parse_bits(lines: &[(usize, &str)]) -> Result<BitMatrix, ParseError> {
    let mut body = lines;
    let mut expect_rows = None;
    let t0 = tokens(lines[0].1);
    // Optional `rows cols` header (Tan–Peyrin style).
    if t0.len() == 2 && t0.iter().all(|t| is_decimal(t)) {
        let r: usize = t0[0].parse().map_err(|_| ParseError::new(lines[0].0, "bad row count"))?;
        let c: usize = t0[1].parse().map_err(|_| ParseError::new(lines[0].0, "bad column count"))?;
        let looks_like_header = lines.len() == r + 1 && lines.get(1).is_some_and(|l| bit_len(l.1) == c);
        if looks_like_header || t0.iter().any(|t| t.bytes().any(|b| b > b'1')) {
            check_dims(lines[0].0, r, c)?;
            expect_rows = Some(r);
            body = &lines[1..];
        }
    }
    let mut cols = None;
    let mut rows = Vec::new();
    for &(no, l) in body {
        if rows.len() == MAX_DIM {
            return Err(ParseError::new(no, format!("more than {MAX_DIM} rows")));
        }
        let (bits, n) = parse_bit_row(no, l, cols)?;
        cols = Some(n);
        rows.push(bits);
    }
    if let Some(r) = expect_rows
        && r != rows.len()
    {
        return Err(ParseError::new(0, format!("header announces {r} rows, found {}", rows.len())));
    }
    let cols = cols.unwrap_or(0);
    if rows.is_empty() || cols == 0 {
        return Err(ParseError::new(0, "matrix has no rows"));
    }
    Ok(rows_to_matrix(rows, cols))
}

fn check_dims(no: usize, r: usize, c: usize) -> Result<(), ParseError> {
    if r == 0 || c == 0 {
        return Err(ParseError::new(no, format!("empty matrix size {r} x {c}")));
    }
    if r > MAX_DIM || c > MAX_DIM {
        return Err(ParseError::new(no, format!("matrix size {r} x {c} exceeds the limit of {MAX_DIM} x {MAX_DIM}")));
    }
    Ok(())
}

fn parse_bp(lines: &[(usize, &str)], index: usize) -> Result<BitMatrix, ParseError> {
    let (no0, l0) = lines[0];
    let count: usize = l0.parse().map_err(|_| ParseError::new(no0, "expected the number of matrices"))?;
    if count == 0 {
        return Err(ParseError::new(no0, "file announces 0 matrices"));
    }
    if index >= count {
        return Err(ParseError::new(no0, format!("matrix index {index} requested, file has {count}")));
    }
    let mut pos = 1;
    for m in 0..=index {
        let Some(&(no, hdr)) = lines.get(pos) else {
            return Err(ParseError::new(0, format!("missing `rows cols` line of matrix {m}")));
        };
        let t = tokens(hdr);
        if t.len() != 2 || !t.iter().all(|x| is_decimal(x)) {
            return Err(ParseError::new(no, "expected `rows cols`"));
        }
        let r: usize = t[0].parse().map_err(|_| ParseError::new(no, "bad row count"))?;
        let c: usize = t[1].parse().map_err(|_| ParseError::new(no, "bad column count"))?;
        check_dims(no, r, c)?;
        pos += 1;
        let mut rows = Vec::with_capacity(r);
        for i in 0..r {
            let Some(&(rno, l)) = lines.get(pos) else {
                return Err(ParseError::new(0, format!("matrix {m}: expected {r} rows, found {i}")));
            };
            let (bits, _) = parse_bit_row(rno, l, Some(c))?;
            rows.push(bits);
            pos += 1;
        }
        if m == index {
            return Ok(rows_to_matrix(rows, c));
        }
    }
    unreachable!("loop returns at m == index")
}

fn parse_hex(lines: &[(usize, &str)]) -> Result<Vec<Vec<u8>>, ParseError> {
    let mut rows: Vec<Vec<u8>> = Vec::new();
    for &(no, l) in lines {
        let toks = tokens(l);
        if toks.is_empty() {
            // Only separators: not a row (a zero-width matrix would print as empty text).
            return Err(ParseError::new(no, "row has no hex bytes"));
        }
        let mut row = Vec::with_capacity(toks.len());
        for t in toks {
            if !is_hex_byte(t) {
                return Err(ParseError::new(no, format!("{t:?} is not a hex byte")));
            }
            let h = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")).unwrap_or(t);
            row.push(u8::from_str_radix(h, 16).expect("checked hex"));
        }
        if let Some(first) = rows.first()
            && first.len() != row.len()
        {
            return Err(ParseError::new(no, format!("row has {} bytes, expected {} (ragged matrix)", row.len(), first.len())));
        }
        if row.len() * 8 > MAX_DIM || (rows.len() + 1) * 8 > MAX_DIM {
            return Err(ParseError::new(no, format!("byte matrix exceeds {MAX_DIM} bits per side")));
        }
        rows.push(row);
    }
    Ok(rows)
}

/// Parses matrix text in any supported format.
pub fn parse_input(text: &str, opts: &ParseOptions) -> Result<Input, ParseError> {
    if text.len() > 16 << 20 {
        return Err(ParseError::new(0, "input larger than 16 MiB"));
    }
    let lines = content_lines(text);
    if lines.is_empty() {
        return Err(ParseError::new(0, "empty matrix file"));
    }
    let format = if opts.format == MatrixFormat::Auto { detect(&lines) } else { opts.format };
    match format {
        MatrixFormat::Bp => Ok(Input { matrix: parse_bp(&lines, opts.index)?, bytes: None, field: None }),
        MatrixFormat::Hex => {
            let bytes = parse_hex(&lines)?;
            Ok(Input { matrix: expand_gf256(&bytes, opts.field), bytes: Some(bytes), field: Some(opts.field) })
        }
        MatrixFormat::Bits | MatrixFormat::Auto => Ok(Input { matrix: parse_bits(&lines)?, bytes: None, field: None }),
    }
}

/// Parses a binary matrix with default options.
pub fn parse_matrix(text: &str) -> Result<BitMatrix, ParseError> {
    parse_input(text, &ParseOptions::default()).map(|i| i.matrix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_with_and_without_spaces() {
        let a = parse_matrix("101\n011\n").unwrap();
        let b = parse_matrix("1 0 1\n0 1 1\n").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.row_bits(), &[0b101, 0b110]);
    }

    #[test]
    fn bp_format() {
        let m = parse_matrix("1\n2 3\n1 0 1\n0 1 1\n").unwrap();
        assert_eq!(m.row_bits(), &[0b101, 0b110]);
        assert_eq!(m.cols(), 3);
    }

    #[test]
    fn header_format() {
        let m = parse_matrix("2 3\n1\t0\t1\n0\t1\t1\n").unwrap();
        assert_eq!(m.row_bits(), &[0b101, 0b110]);
    }

    #[test]
    fn hex_format_matches_circulant() {
        let hex = "02 03 01 01\n01 02 03 01\n01 01 02 03\n03 01 01 02\n";
        let a = parse_input(hex, &ParseOptions::default()).unwrap();
        let b = circulant_input("02,03,01,01", 0x11b).unwrap();
        assert_eq!(a.matrix, b.matrix);
        assert_eq!(a.bytes, b.bytes);
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse_matrix("101\n01\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("ragged"));
        let e = parse_matrix("101\n0x1\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = parse_matrix("# only a comment\n\n").unwrap_err();
        assert!(e.message.contains("empty"));
        let e = parse_matrix("1\n100000 100000\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("exceeds"));
        let long = "1".repeat(200);
        assert_eq!(parse_matrix(&long).unwrap_err().line, 1);
        let e = parse_matrix("1\n2 2\n1 0\n").unwrap_err();
        assert!(e.message.contains("expected 2 rows"));
        let e = parse_input("02 0g\n", &ParseOptions { format: MatrixFormat::Hex, ..Default::default() }).unwrap_err();
        assert_eq!(e.line, 1);
        // Found by the `slp_parse` fuzzer: a line of separators was a zero-byte row.
        let e = parse_input(",\n", &ParseOptions { format: MatrixFormat::Hex, ..Default::default() }).unwrap_err();
        assert!(e.message.contains("no hex bytes"), "{e:?}");
        assert!(parse_field("0x1b").is_err());
        assert!(parse_field("zz").is_err());
        assert!(parse_hex_list("02,xyz").is_err());
    }
}
