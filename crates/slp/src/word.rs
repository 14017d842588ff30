//! Word-level programs over GF(2^8): operations `tK = A + B` (XOR of bytes) and
//! `tK = xtime(A)` (multiplication by 2 modulo the field polynomial).
//!
//! Synthesis (generalised Horner): write the byte matrix as B = Σ_d 2^d·B_d with binary B_d,
//! compute all rows of all B_d with one shared XOR program (Boyar–Peralta restarts over the
//! word inputs), then evaluate every output as
//! `y = B_0·x ⊕ xtime(B_1·x ⊕ xtime(B_2·x ⊕ …))`. For Grøstl's MixBytes this is the structure
//! of the published 48 XOR + 16 xtime formula.
//!
//! A word program expands to a bit-level SLP: an XOR costs 8 bit XORs and an xtime costs one
//! XOR per reduction bit above bit 0 (3 for 0x11B).

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::matrix::{BitMatrix, gf_mul};
use crate::parse::ParseError;
use crate::program::{Out, Program};
use crate::search::{Algorithm, SearchOptions, search};

/// One word operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordOp {
    /// XOR of two earlier signals.
    Xor(usize, usize),
    /// xtime (multiplication by 2) of an earlier signal.
    Xtime(usize),
}

/// A word-level program. Signals `0..n` are the input bytes `x0…`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordProgram {
    /// Number of input bytes.
    pub n_inputs: usize,
    /// Operations; operation `i` defines signal `n_inputs + i`.
    pub ops: Vec<WordOp>,
    /// Output bytes.
    pub outputs: Vec<Out>,
    /// Field polynomial.
    pub poly: u16,
    /// Header information (algorithm, seed).
    pub meta: crate::program::Meta,
}

impl WordProgram {
    /// Number of XORs.
    pub fn xor_count(&self) -> usize {
        self.ops.iter().filter(|o| matches!(o, WordOp::Xor(..))).count()
    }

    /// Number of xtimes.
    pub fn xtime_count(&self) -> usize {
        self.ops.len() - self.xor_count()
    }

    /// Bit-level XOR cost after expansion: 8 per XOR plus the xtime cost.
    pub fn bit_cost(&self) -> usize {
        8 * self.xor_count() + self.xtime_count() * xtime_cost(self.poly)
    }

    /// GF(2^8) coefficient rows of every signal.
    pub fn values(&self) -> Vec<Vec<u8>> {
        let n = self.n_inputs;
        let mut v: Vec<Vec<u8>> = (0..n).map(|i| (0..n).map(|j| u8::from(i == j)).collect()).collect();
        for op in &self.ops {
            let new = match *op {
                WordOp::Xor(a, b) => v[a].iter().zip(&v[b]).map(|(x, y)| x ^ y).collect(),
                WordOp::Xtime(a) => v[a].iter().map(|&x| gf_mul(x, 2, self.poly)).collect(),
            };
            v.push(new);
        }
        v
    }

    /// Checks the program against a byte matrix.
    pub fn verify(&self, bytes: &[Vec<u8>]) -> Result<(), String> {
        if self.outputs.len() != bytes.len() {
            return Err(format!("program has {} outputs, matrix has {} rows", self.outputs.len(), bytes.len()));
        }
        let v = self.values();
        for (j, (o, want)) in self.outputs.iter().zip(bytes).enumerate() {
            let got = match o {
                Out::Sig(s) => v[*s].clone(),
                Out::Zero => vec![0; self.n_inputs],
                Out::Unset => return Err(format!("output y{j} is never assigned")),
            };
            if &got != want {
                return Err(format!("output y{j} computes {got:02x?}, matrix row is {want:02x?}"));
            }
        }
        Ok(())
    }

    /// Depth in operations (XOR and xtime both count one).
    pub fn depth(&self) -> usize {
        let mut d = vec![0usize; self.n_inputs];
        for op in &self.ops {
            d.push(match *op {
                WordOp::Xor(a, b) => d[a].max(d[b]) + 1,
                WordOp::Xtime(a) => d[a] + 1,
            });
        }
        self.outputs.iter().filter_map(|o| if let Out::Sig(s) = o { Some(d[*s]) } else { None }).max().unwrap_or(0)
    }

    /// The text form: `tK = A + B`, `tK = xtime(A)`, outputs `yJ`.
    pub fn to_text(&self) -> String {
        let n = self.n_inputs;
        let mut first_out: HashMap<usize, usize> = HashMap::new();
        for (j, o) in self.outputs.iter().enumerate() {
            if let Out::Sig(s) = o
                && *s >= n
            {
                first_out.entry(*s).or_insert(j);
            }
        }
        let mut names: Vec<String> = (0..n).map(|i| format!("x{i}")).collect();
        let mut t = 0;
        for i in 0..self.ops.len() {
            if let Some(j) = first_out.get(&(n + i)) {
                names.push(format!("y{j}"));
            } else {
                names.push(format!("t{t}"));
                t += 1;
            }
        }
        let mut s = format!(
            "# algorithm: {}  seed: {}  xor-count: {}  xtime-count: {}  depth: {}  field: {:#x}  bit-cost: {}\n",
            self.meta.algorithm,
            self.meta.seed,
            self.xor_count(),
            self.xtime_count(),
            self.depth(),
            self.poly,
            self.bit_cost()
        );
        for note in &self.meta.notes {
            let _ = writeln!(s, "# {note}");
        }
        for (i, op) in self.ops.iter().enumerate() {
            let _ = match *op {
                WordOp::Xor(a, b) => writeln!(s, "{} = {} + {}", names[n + i], names[a], names[b]),
                WordOp::Xtime(a) => writeln!(s, "{} = xtime({})", names[n + i], names[a]),
            };
        }
        for (j, o) in self.outputs.iter().enumerate() {
            match o {
                Out::Sig(x) if *x >= n && first_out[x] == j => {}
                Out::Sig(x) => {
                    let _ = writeln!(s, "y{j} = {}", names[*x]);
                }
                _ => {
                    let _ = writeln!(s, "y{j} = 0");
                }
            }
        }
        s
    }

    /// Parses the text form (inputs `xI`, outputs `yJ`, any other names for temporaries).
    pub fn parse(text: &str, n_inputs: usize, poly: u16) -> Result<WordProgram, ParseError> {
        let mut p = WordProgram { n_inputs, ops: Vec::new(), outputs: Vec::new(), poly, meta: Default::default() };
        let mut env: HashMap<String, usize> = (0..n_inputs).map(|i| (format!("x{i}"), i)).collect();
        for (no, line) in text.lines().enumerate() {
            let no = no + 1;
            let l = line.split('#').next().unwrap_or("").trim();
            if l.is_empty() {
                continue;
            }
            let (lhs, rhs) = l.split_once('=').ok_or_else(|| ParseError::new(no, "expected `name = a + b` or `name = xtime(a)`"))?;
            let (lhs, rhs) = (lhs.trim(), rhs.trim());
            if env.contains_key(lhs) {
                return Err(ParseError::new(no, format!("{lhs} is assigned twice")));
            }
            let get = |t: &str| env.get(t.trim()).copied().ok_or_else(|| ParseError::new(no, format!("{:?} is not defined", t.trim())));
            let sig = if let Some(inner) = rhs.strip_prefix("xtime(").and_then(|r| r.strip_suffix(')')) {
                p.ops.push(WordOp::Xtime(get(inner)?));
                n_inputs + p.ops.len() - 1
            } else if let Some((a, b)) = rhs.split_once('+') {
                let (a, b) = (get(a)?, get(b)?);
                p.ops.push(WordOp::Xor(a, b));
                n_inputs + p.ops.len() - 1
            } else {
                get(rhs)?
            };
            if let Some(j) = lhs.strip_prefix('y').and_then(|r| r.parse::<usize>().ok()) {
                if j >= 4096 {
                    return Err(ParseError::new(no, "output index too large"));
                }
                if p.outputs.len() <= j {
                    p.outputs.resize(j + 1, Out::Unset);
                }
                p.outputs[j] = Out::Sig(sig);
            }
            env.insert(lhs.to_string(), sig);
        }
        Ok(p)
    }

    /// Rust code for the program: a `macro_rules!` macro `NAME!(x, xor, xtime, mb_out)` that
    /// expands, in the caller, to the outputs as an array. `xor`, `xtime` and `mb_out` are paths
    /// of functions over the caller's word type (a SIMD register, say); because the macro
    /// expands in place, they are compiled with the caller's target features. An output of
    /// the form `xtime(xtime(a) + b) + c` whose intermediate values have no other use is emitted
    /// as one `mb_out(a, b, c)` call, the fused multiply-add that SIMD kernels provide (it is
    /// the last line of the Grøstl MixBytes formula). `header` lines are emitted as `//`
    /// comments before the macro.
    pub fn to_rust_macro(&self, name: &str, header: &[String]) -> Result<String, String> {
        let n = self.n_inputs;
        let mut uses = vec![0usize; n + self.ops.len()];
        for op in &self.ops {
            match *op {
                WordOp::Xor(a, b) => {
                    uses[a] += 1;
                    uses[b] += 1;
                }
                WordOp::Xtime(a) => uses[a] += 1,
            }
        }
        for o in &self.outputs {
            if let Out::Sig(s) = o {
                uses[*s] += 1;
            }
        }
        let op = |s: usize| if s >= n { Some(self.ops[s - n]) } else { None };
        let single = |s: usize| s >= n && uses[s] == 1;
        // For an output signal `s`, the fused operands (a, b, c) and the inner signals.
        let fuse = |s: usize| -> Option<((usize, usize, usize), [usize; 3])> {
            let Some(WordOp::Xor(p, q)) = op(s) else { return None };
            for (outer, c) in [(p, q), (q, p)] {
                let Some(WordOp::Xtime(inner)) = op(outer) else { continue };
                let Some(WordOp::Xor(u, v)) = op(inner) else { continue };
                for (x2, b) in [(u, v), (v, u)] {
                    if let Some(WordOp::Xtime(a)) = op(x2)
                        && single(outer)
                        && single(inner)
                        && single(x2)
                    {
                        return Some(((a, b, c), [outer, inner, x2]));
                    }
                }
            }
            None
        };
        let mut fused: HashMap<usize, (usize, usize, usize)> = HashMap::new();
        let mut skip = vec![false; n + self.ops.len()];
        for o in &self.outputs {
            if let Out::Sig(s) = *o
                && let Some((abc, inner)) = fuse(s)
            {
                fused.insert(s, abc);
                for i in inner {
                    skip[i] = true;
                }
            }
        }
        let nm = |s: usize| if s < n { format!("x{s}") } else { format!("t{}", s - n) };
        let mut out = String::new();
        for h in header {
            let _ = writeln!(out, "// {h}");
        }
        let _ = writeln!(out, "macro_rules! {name} {{");
        let _ = writeln!(out, "    ($x:expr, $xor:path, $xtime:path, $mb_out:path) => {{{{");
        let inputs: Vec<String> = (0..n).map(|i| format!("x{i}")).collect();
        let _ = writeln!(out, "        let [{}] = $x;", inputs.join(", "));
        for i in 0..self.ops.len() {
            let s = n + i;
            if skip[s] {
                continue;
            }
            let rhs = match (fused.get(&s), self.ops[i]) {
                (Some(&(a, b, c)), _) => format!("$mb_out({}, {}, {})", nm(a), nm(b), nm(c)),
                (None, WordOp::Xor(a, b)) => format!("$xor({}, {})", nm(a), nm(b)),
                (None, WordOp::Xtime(a)) => format!("$xtime({})", nm(a)),
            };
            let _ = writeln!(out, "        let {} = {rhs};", nm(s));
        }
        let mut ys = Vec::new();
        for (j, o) in self.outputs.iter().enumerate() {
            match o {
                Out::Sig(s) => ys.push(nm(*s)),
                _ => return Err(format!("output y{j} is not a signal; the macro form needs every output")),
            }
        }
        let _ = writeln!(out, "        [{}]", ys.join(", "));
        let _ = writeln!(out, "    }}}};");
        let _ = writeln!(out, "}}");
        Ok(out)
    }

    /// Expands to a bit-level SLP (bit `8b + j` = bit j of byte b).
    #[allow(clippy::needless_range_loop)]
    pub fn expand(&self) -> Program {
        let n = self.n_inputs;
        let mut p = Program::new(8 * n, 8 * self.outputs.len());
        // bits[s][j]: bit-level signal of bit j of word signal s (None = constant 0).
        let mut bits: Vec<[Option<usize>; 8]> = (0..n).map(|b| std::array::from_fn(|j| Some(8 * b + j))).collect();
        let red = (self.poly & 0xff) as u8;
        let xor = |p: &mut Program, a: Option<usize>, b: Option<usize>| -> Option<usize> {
            match (a, b) {
                (Some(a), Some(b)) => Some(p.push(a, b)),
                (a, None) => a,
                (None, b) => b,
            }
        };
        for op in &self.ops {
            let new: [Option<usize>; 8] = match *op {
                WordOp::Xor(a, b) => {
                    let (a, b) = (bits[a], bits[b]);
                    std::array::from_fn(|j| xor(&mut p, a[j], b[j]))
                }
                WordOp::Xtime(a) => {
                    let a = bits[a];
                    let mut out = [None; 8];
                    for (j, o) in out.iter_mut().enumerate() {
                        let shifted = if j == 0 { None } else { a[j - 1] };
                        let fb = if red >> j & 1 == 1 { a[7] } else { None };
                        *o = xor(&mut p, shifted, fb);
                    }
                    out
                }
            };
            bits.push(new);
        }
        for (i, o) in self.outputs.iter().enumerate() {
            for j in 0..8 {
                p.outputs[8 * i + j] = match o {
                    Out::Sig(s) => bits[*s][j].map_or(Out::Zero, Out::Sig),
                    _ => Out::Zero,
                };
            }
        }
        p.prune();
        p.meta.algorithm = format!("{}-expanded", self.meta.algorithm);
        p.meta.seed = self.meta.seed;
        p
    }
}

/// A binary matrix read as a matrix over GF(2^8): every 8×8 block is the multiplication by
/// one byte, in one bit order and modulo one polynomial (see [`detect_bytes`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ByteForm {
    /// The bytes, row-major.
    pub bytes: Vec<Vec<u8>>,
    /// The reduction polynomial (degree 8; need not be irreducible: 0x101 makes xtime a rotation).
    pub poly: u16,
    /// Bit `j` of byte `b` is index `8b + 7 − j` of the binary matrix, instead of `8b + j`.
    pub msb_first: bool,
}

impl ByteForm {
    /// The form of a matrix given as bytes (bit `8b + j` is bit `j` of byte `b`).
    pub fn from_bytes(bytes: Vec<Vec<u8>>, poly: u16) -> Self {
        ByteForm { bytes, poly, msb_first: false }
    }

    /// Index in the binary matrix of bit `j` of byte `b`.
    fn index(&self, b: usize, j: usize) -> usize {
        if self.msb_first { 8 * b + 7 - j } else { 8 * b + j }
    }

    /// Renames the inputs and outputs of a program for
    /// [`crate::matrix::expand_gf256`]`(bytes, poly)` (the order of [`WordProgram::expand`]) so
    /// that it computes the binary matrix this form was read from.
    pub fn to_matrix_order(&self, mut p: Program) -> Program {
        if !self.msb_first {
            return p;
        }
        let n = p.n_inputs;
        let rename = |s: usize| if s < n { self.index(s / 8, s % 8) } else { s };
        for op in &mut p.ops {
            *op = (rename(op.0), rename(op.1));
        }
        let mut outs = vec![Out::Zero; p.outputs.len()];
        for (i, o) in p.outputs.iter().enumerate() {
            let o = match *o {
                Out::Sig(s) => Out::Sig(rename(s)),
                other => other,
            };
            outs[self.index(i / 8, i % 8)] = o;
        }
        p.outputs = outs;
        p
    }

    /// The header note that names this form: `given` when the matrix came as bytes (a hex
    /// file, a circulant), otherwise it was recognised in the binary matrix.
    pub fn note(&self, given: bool) -> String {
        let how = if given { "given as bytes" } else { "recognised in the binary matrix" };
        let order = if self.msb_first { ", bit 7 of each byte first" } else { "" };
        format!("matrix over GF(2^8)/{:#x}, {}x{} bytes ({how}{order})", self.poly, self.bytes.len(), self.bytes[0].len())
    }

    /// Largest coefficient degree plus one (the number of binary layers of [`synthesize`]).
    pub fn layers(&self) -> usize {
        self.bytes.iter().flatten().map(|&c| 8 - c.leading_zeros() as usize).max().unwrap_or(0)
    }
}

/// Reads a binary matrix as a matrix over GF(2^8), if it is one: its size is a multiple of 8
/// (at least 16 on one side) and every 8×8 block is the matrix of `x ↦ c·x mod p` for one
/// polynomial `p` of degree 8 and one bit order shared by all blocks (least significant bit
/// first, the order of [`crate::matrix::expand_gf256`], or most significant first). A block's
/// byte `c` is its first column (the image of 1). Of several polynomials that fit, the one with
/// the cheapest xtime is taken, then the smallest; of the two bit orders, the one with lower
/// degrees. Matrices built from 0/1 blocks (A ⊗ I8, e.g. ARIA) are found too, with all bytes
/// 0 or 1.
pub fn detect_bytes(m: &BitMatrix) -> Option<ByteForm> {
    let (rows, cols) = (m.rows(), m.cols());
    if rows % 8 != 0 || cols % 8 != 0 || rows.max(cols) < 16 || m.row_bits().iter().all(|&r| r == 0) {
        return None;
    }
    let mut polys: Vec<u16> = (0..256u16).map(|l| 0x100 | l).collect();
    polys.sort_by_key(|&p| (xtime_cost(p), p));
    let mut found: Vec<ByteForm> = Vec::new();
    for msb_first in [false, true] {
        let probe = ByteForm { bytes: Vec::new(), poly: 0, msb_first };
        let block_byte = |bi: usize, bj: usize, col: usize| -> u8 {
            (0..8).fold(0u8, |acc, i| acc | (m.get(probe.index(bi, i), probe.index(bj, col)) as u8) << i)
        };
        let bytes: Vec<Vec<u8>> = (0..rows / 8).map(|bi| (0..cols / 8).map(|bj| block_byte(bi, bj, 0)).collect()).collect();
        for &poly in &polys {
            let fits = bytes.iter().enumerate().all(|(bi, row)| {
                row.iter().enumerate().all(|(bj, &c)| (1..8).all(|col| block_byte(bi, bj, col) == gf_mul(c, 1 << col, poly)))
            });
            if fits {
                found.push(ByteForm { bytes, poly, msb_first });
                break;
            }
        }
    }
    // Reversing the bits of every byte maps multiplication modulo p to multiplication modulo
    // p's reciprocal, so a byte matrix usually reads both ways; keep the reading with the lower
    // degrees (fewer Horner layers), then the cheaper xtime.
    found.into_iter().min_by_key(|f| (f.layers(), xtime_cost(f.poly), f.msb_first))
}

/// Bit XORs of one xtime for the field polynomial.
pub fn xtime_cost(poly: u16) -> usize {
    ((poly & 0xfe) as u8).count_ones() as usize
}

/// Synthesizes a word program with the generalised Horner scheme; the binary part is optimized
/// by `search` with the given options. The result is verified against `bytes`.
pub fn synthesize(bytes: &[Vec<u8>], poly: u16, opts: &SearchOptions) -> Option<WordProgram> {
    let m = bytes.len();
    let n = bytes.first()?.len();
    let top = bytes.iter().flatten().map(|&c| 8 - c.leading_zeros() as usize).max().unwrap_or(0);
    if top == 0 || n > 128 || m * top > 128 {
        return None;
    }
    // Binary layers: layer d row r = inputs whose coefficient has bit d.
    let layer = |d: usize, r: usize| -> u128 { (0..n).fold(0u128, |acc, j| if bytes[r][j] >> d & 1 == 1 { acc | 1 << j } else { acc }) };
    let rows: Vec<u128> = (0..top).flat_map(|d| (0..m).map(move |r| (d, r))).map(|(d, r)| layer(d, r)).collect();
    let bm = BitMatrix::from_rows(n, rows);
    let mut o = opts.clone();
    if o.algorithm == Algorithm::Paar || o.algorithm == Algorithm::Bp {
        o.runs = Some(1);
    }
    let rep = search(&bm, &o, &|_, _| {}, &|_| {})?;
    let bin = rep.program;
    let mut wp = WordProgram { n_inputs: n, ops: bin.ops.iter().map(|&(a, b)| WordOp::Xor(a, b)).collect(), outputs: vec![Out::Unset; m], poly, meta: Default::default() };
    let sig_of = |d: usize, r: usize| -> Out { bin.outputs[d * m + r] };
    for r in 0..m {
        let mut acc: Option<usize> = None;
        for d in (0..top).rev() {
            if let Some(a) = acc {
                wp.ops.push(WordOp::Xtime(a));
                acc = Some(n + wp.ops.len() - 1);
            }
            if let Out::Sig(s) = sig_of(d, r) {
                acc = Some(match acc {
                    Some(a) => {
                        wp.ops.push(WordOp::Xor(a, s));
                        n + wp.ops.len() - 1
                    }
                    None => s,
                });
            }
        }
        wp.outputs[r] = acc.map_or(Out::Zero, Out::Sig);
    }
    wp.meta.algorithm = format!("word-horner/{}", bin.meta.algorithm);
    wp.meta.seed = bin.meta.seed;
    wp.verify(bytes).ok()?;
    Some(wp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::{circulant, expand_gf256};

    #[test]
    fn rust_macro_fuses_the_mixbytes_pattern() {
        // y0 = xtime(xtime(x0) + x1) + x2, y1 = x0 + x1.
        let text = "a = xtime(x0)\nb = a + x1\nc = xtime(b)\ny0 = c + x2\ny1 = x0 + x1\n";
        let p = WordProgram::parse(text, 3, 0x11b).unwrap();
        let code = p.to_rust_macro("prog", &["head".into()]).unwrap();
        assert!(code.starts_with("// head\nmacro_rules! prog {"), "{code}");
        assert!(code.contains("let t3 = $mb_out(x0, x1, x2);"), "{code}");
        assert!(code.contains("let t4 = $xor(x0, x1);"), "{code}");
        assert!(!code.contains("$xtime("), "{code}");
        // An intermediate with a second use is not fused.
        let text2 = "a = xtime(x0)\nb = a + x1\nc = xtime(b)\ny0 = c + x2\ny1 = a + x1\n";
        let code2 = WordProgram::parse(text2, 3, 0x11b).unwrap().to_rust_macro("p", &[]).unwrap();
        assert!(code2.contains("$xtime(x0)") && !code2.contains("$mb_out("), "{code2}");
    }

    #[test]
    fn groestl_word_level_meets_the_published_formula() {
        let bytes = circulant(&[2, 2, 3, 4, 5, 3, 5, 7]);
        let opts = SearchOptions { algorithm: Algorithm::A2, runs: Some(200), seed: 1, ..Default::default() };
        let wp = synthesize(&bytes, 0x11b, &opts).unwrap();
        wp.verify(&bytes).unwrap();
        assert!(wp.xor_count() <= 48, "{}", wp.xor_count());
        assert!(wp.xtime_count() <= 16, "{}", wp.xtime_count());
        let bits = wp.expand();
        bits.verify(&expand_gf256(&bytes, 0x11b)).unwrap();
        assert_eq!(bits.xor_count(), wp.bit_cost());
        let text = wp.to_text();
        let back = WordProgram::parse(&text, 8, 0x11b).unwrap();
        back.verify(&bytes).unwrap();
    }

    /// The bit matrix with every byte's bits reversed (inputs and outputs).
    fn msb_first(m: &BitMatrix) -> BitMatrix {
        let f = |i: usize| 8 * (i / 8) + 7 - i % 8;
        let rows = (0..m.rows()).map(|r| (0..m.cols()).fold(0u128, |acc, c| acc | (m.get(f(r), f(c)) as u128) << c)).collect();
        BitMatrix::from_rows(m.cols(), rows)
    }

    #[test]
    fn detects_byte_matrices_in_both_bit_orders() {
        let bytes = circulant(&[1, 1, 4, 1, 8, 5, 2, 9]);
        let m = expand_gf256(&bytes, 0x11d);
        let f = detect_bytes(&m).unwrap();
        assert_eq!(f, ByteForm { bytes: bytes.clone(), poly: 0x11d, msb_first: false });
        let r = msb_first(&m);
        let g = detect_bytes(&r).unwrap();
        assert_eq!(g, ByteForm { bytes: bytes.clone(), poly: 0x11d, msb_first: true });
        // A program for the byte matrix, renamed, computes the bit-reversed matrix.
        let opts = SearchOptions { algorithm: Algorithm::A2, runs: Some(2), seed: 1, ..Default::default() };
        let wp = synthesize(&g.bytes, g.poly, &opts).unwrap();
        let p = g.to_matrix_order(wp.expand());
        p.verify(&r).unwrap();
        assert!(p.verify(&m).is_err());
    }

    #[test]
    fn detects_kronecker_with_the_identity() {
        // A ⊗ I8 for a 0/1 matrix A: bytes 0/1, any polynomial fits, the cheapest is taken.
        let a = vec![vec![0, 1, 1], vec![1, 0, 1], vec![1, 1, 1]];
        let m = expand_gf256(&a, 0x11b);
        let f = detect_bytes(&m).unwrap();
        assert_eq!(f.bytes, a);
        assert_eq!(xtime_cost(f.poly), 0);
        assert_eq!(f.layers(), 1);
    }

    #[test]
    fn rejects_matrices_that_are_not_byte_matrices() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let rows = (0..32).map(|_| rng.random::<u128>() & 0xffff_ffff).collect();
        assert_eq!(detect_bytes(&BitMatrix::from_rows(32, rows)), None);
        // One flipped bit in a byte matrix.
        let m = expand_gf256(&circulant(&[2, 3, 1, 1]), 0x11b);
        let mut rows = m.row_bits().to_vec();
        rows[5] ^= 1 << 20;
        assert_eq!(detect_bytes(&BitMatrix::from_rows(32, rows)), None);
        // Too small, or not a multiple of 8.
        assert_eq!(detect_bytes(&expand_gf256(&[vec![3]], 0x11b)), None);
        assert_eq!(detect_bytes(&BitMatrix::identity(12)), None);
    }

    #[test]
    fn aes_word_level() {
        let bytes = circulant(&[2, 3, 1, 1]);
        let opts = SearchOptions { algorithm: Algorithm::A2, runs: Some(50), ..Default::default() };
        let wp = synthesize(&bytes, 0x11b, &opts).unwrap();
        assert_eq!(wp.xtime_count(), 4);
        assert!(wp.xor_count() <= 16, "{}", wp.xor_count());
        wp.expand().verify(&expand_gf256(&bytes, 0x11b)).unwrap();
    }
}
