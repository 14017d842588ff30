//! Straight-line XOR programs: representation, the text format, parsing, verification, depth.
//!
//! Signals are numbered: `0..n` are the inputs `x0…`, `n + i` is the result of operation `i`.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::matrix::{BitMatrix, Row};
use crate::parse::ParseError;

/// Where an output comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Out {
    /// Not assigned (only in parsed, incomplete programs).
    Unset,
    /// The constant zero (an all-zero matrix row).
    Zero,
    /// A signal: an input or an operation result.
    Sig(usize),
}

/// Provenance printed in the header line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Meta {
    /// Algorithm name.
    pub algorithm: String,
    /// Seed of the run that produced the program.
    pub seed: u64,
    /// Extra words for the header line, such as `optimal` or `lower-bound: 25`.
    pub extra: Vec<String>,
    /// Further comment lines (without `#`).
    pub notes: Vec<String>,
}

/// A linear straight-line program: every operation XORs two earlier signals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// Number of inputs.
    pub n_inputs: usize,
    /// Operations; operation `i` defines signal `n_inputs + i`.
    pub ops: Vec<(usize, usize)>,
    /// Output `j` and where it comes from.
    pub outputs: Vec<Out>,
    /// Header information.
    pub meta: Meta,
}

impl Program {
    /// An empty program.
    pub fn new(n_inputs: usize, n_outputs: usize) -> Self {
        Program { n_inputs, ops: Vec::new(), outputs: vec![Out::Unset; n_outputs], meta: Meta::default() }
    }

    /// Number of XOR gates.
    pub fn xor_count(&self) -> usize {
        self.ops.len()
    }

    /// Number of signals (inputs plus operations).
    pub fn n_signals(&self) -> usize {
        self.n_inputs + self.ops.len()
    }

    /// Appends `a + b` and returns the new signal.
    pub fn push(&mut self, a: usize, b: usize) -> usize {
        debug_assert!(a < self.n_signals() && b < self.n_signals() && a != b);
        self.ops.push((a, b));
        self.n_signals() - 1
    }

    /// The linear form of every signal (bit `c` = input `x_c` takes part).
    pub fn values(&self) -> Vec<Row> {
        let mut v: Vec<Row> = (0..self.n_inputs).map(|i| 1u128 << i).collect();
        for &(a, b) in &self.ops {
            v.push(v[a] ^ v[b]);
        }
        v
    }

    /// The depth (longest XOR chain) of every signal.
    pub fn signal_depths(&self) -> Vec<usize> {
        let mut d = vec![0usize; self.n_inputs];
        for &(a, b) in &self.ops {
            d.push(d[a].max(d[b]) + 1);
        }
        d
    }

    /// Longest chain of XORs to any output.
    pub fn depth(&self) -> usize {
        let d = self.signal_depths();
        self.outputs.iter().filter_map(|o| if let Out::Sig(s) = o { Some(d[*s]) } else { None }).max().unwrap_or(0)
    }

    /// The matrix this program computes (unset outputs give zero rows).
    pub fn matrix(&self) -> BitMatrix {
        let v = self.values();
        let rows = self.outputs.iter().map(|o| if let Out::Sig(s) = o { v[*s] } else { 0 }).collect();
        BitMatrix::from_rows(self.n_inputs, rows)
    }

    /// Evaluates the program on unit vectors and compares every output with its matrix row.
    pub fn verify(&self, m: &BitMatrix) -> Result<(), String> {
        if self.n_inputs != m.cols() {
            return Err(format!("program has {} inputs, matrix has {} columns", self.n_inputs, m.cols()));
        }
        if self.outputs.len() != m.rows() {
            return Err(format!("program has {} outputs, matrix has {} rows", self.outputs.len(), m.rows()));
        }
        for (i, &(a, b)) in self.ops.iter().enumerate() {
            let s = self.n_inputs + i;
            if a >= s || b >= s {
                return Err(format!("operation {i} uses a signal that is not yet defined"));
            }
        }
        let v = self.values();
        for (j, (o, want)) in self.outputs.iter().zip(m.row_bits()).enumerate() {
            let got = match *o {
                Out::Unset => return Err(format!("output y{j} is never assigned")),
                Out::Zero => 0,
                Out::Sig(s) => v[s],
            };
            if got != *want {
                return Err(format!(
                    "output y{j} computes {} but the matrix row is {}",
                    row_text(got, m.cols()),
                    row_text(*want, m.cols())
                ));
            }
        }
        Ok(())
    }

    /// Replaces the header's note on optimality: `optimal`, or `lower-bound: L` (no program
    /// has fewer than L XORs).
    pub fn set_bound_note(&mut self, optimal: bool, lower: usize) {
        self.meta.extra.retain(|e| e != "optimal" && !e.starts_with("lower-bound"));
        self.meta.extra.push(if optimal { "optimal".into() } else { format!("lower-bound: {lower}") });
    }

    /// Removes operations whose results are never used, keeping order.
    pub fn prune(&mut self) {
        let n = self.n_inputs;
        let mut live = vec![false; self.n_signals()];
        for o in &self.outputs {
            if let Out::Sig(s) = o {
                live[*s] = true;
            }
        }
        for i in (0..self.ops.len()).rev() {
            if live[n + i] {
                let (a, b) = self.ops[i];
                live[a] = true;
                live[b] = true;
            }
        }
        let mut map: Vec<usize> = (0..n).collect();
        let mut ops = Vec::new();
        for (i, &(a, b)) in self.ops.iter().enumerate() {
            if live[n + i] {
                ops.push((map[a], map[b]));
                map.push(n + ops.len() - 1);
            } else {
                map.push(usize::MAX);
            }
        }
        for o in &mut self.outputs {
            if let Out::Sig(s) = o {
                *s = map[*s];
            }
        }
        self.ops = ops;
    }

    /// Names of signals as printed: outputs computed by an operation take the output's name
    /// (`yJ`), other operations are `tK`, inputs `xI`. Returns the names and alias lines
    /// (`yJ = name`) for outputs that are inputs, zero, or a signal already named.
    pub fn names(&self) -> (Vec<String>, Vec<(usize, String)>) {
        let n = self.n_inputs;
        let mut names: Vec<String> = (0..n).map(|i| format!("x{i}")).collect();
        let mut out_of: HashMap<usize, usize> = HashMap::new();
        for (j, o) in self.outputs.iter().enumerate() {
            if let Out::Sig(s) = o
                && *s >= n
            {
                out_of.entry(*s).or_insert(j);
            }
        }
        let mut t = 0;
        for i in 0..self.ops.len() {
            if let Some(j) = out_of.get(&(n + i)) {
                names.push(format!("y{j}"));
            } else {
                names.push(format!("t{t}"));
                t += 1;
            }
        }
        let mut aliases = Vec::new();
        for (j, o) in self.outputs.iter().enumerate() {
            match *o {
                Out::Sig(s) if s >= n && out_of[&s] == j => {}
                Out::Sig(s) => aliases.push((j, names[s].clone())),
                Out::Zero => aliases.push((j, "0".to_string())),
                Out::Unset => {}
            }
        }
        (names, aliases)
    }

    /// The header line, without a trailing newline.
    pub fn header(&self) -> String {
        let mut h = format!(
            "# algorithm: {}  seed: {}  xor-count: {}  depth: {}",
            if self.meta.algorithm.is_empty() { "unknown" } else { &self.meta.algorithm },
            self.meta.seed,
            self.xor_count(),
            self.depth()
        );
        for e in &self.meta.extra {
            h.push_str("  ");
            h.push_str(e);
        }
        h
    }

    /// The program in the text format of `test-vectors/slp/README.md`.
    pub fn to_text(&self) -> String {
        let mut s = self.header();
        s.push('\n');
        for note in &self.meta.notes {
            let _ = writeln!(s, "# {note}");
        }
        let (names, aliases) = self.names();
        for (i, &(a, b)) in self.ops.iter().enumerate() {
            let _ = writeln!(s, "{} = {} + {}", names[self.n_inputs + i], names[a], names[b]);
        }
        for (j, src) in aliases {
            let _ = writeln!(s, "y{j} = {src}");
        }
        s
    }

    /// Parses the text format. Temporaries may have any identifier; inputs are `xI`, outputs
    /// `yJ`; `+` or `^` separate operands. `n_inputs` is the largest input index + 1 unless
    /// `expect_inputs` is given.
    pub fn parse(text: &str, expect_inputs: Option<usize>) -> Result<Program, ParseError> {
        let mut p = Program::new(0, 0);
        let mut n_inputs = expect_inputs.unwrap_or(0);
        // First pass: find the number of inputs (x-names on right-hand sides).
        if expect_inputs.is_none() {
            for line in text.lines() {
                let l = line.split('#').next().unwrap_or("");
                if let Some((_, rhs)) = l.split_once('=') {
                    for tok in rhs.split(['+', '^']) {
                        if let Some(i) = input_index(tok.trim()) {
                            n_inputs = n_inputs.max(i + 1);
                        }
                    }
                }
            }
        }
        if n_inputs > crate::matrix::MAX_DIM {
            return Err(ParseError::new(0, format!("program uses more than {} inputs", crate::matrix::MAX_DIM)));
        }
        p.n_inputs = n_inputs;
        let mut env: HashMap<String, usize> = HashMap::new();
        let mut saw_line = false;
        for (no, line) in text.lines().enumerate() {
            let no = no + 1;
            if let Some(c) = line.trim_start().strip_prefix('#') {
                if let Some(rest) = c.trim().strip_prefix("algorithm:") {
                    parse_header(rest, &mut p.meta);
                }
                continue;
            }
            let l = line.split('#').next().unwrap_or("").trim();
            if l.is_empty() {
                continue;
            }
            saw_line = true;
            let (lhs, rhs) = l.split_once('=').ok_or_else(|| ParseError::new(no, "expected `name = a + b`"))?;
            let lhs = lhs.trim();
            if !is_ident(lhs) {
                return Err(ParseError::new(no, format!("bad name {lhs:?}")));
            }
            if input_index(lhs).is_some() {
                return Err(ParseError::new(no, format!("cannot assign to input {lhs}")));
            }
            if env.contains_key(lhs) {
                return Err(ParseError::new(no, format!("{lhs} is assigned twice")));
            }
            let parts: Vec<&str> = rhs.split(['+', '^']).map(str::trim).collect();
            let lookup = |name: &str| -> Result<usize, ParseError> {
                if let Some(i) = input_index(name) {
                    if i >= n_inputs {
                        return Err(ParseError::new(no, format!("input {name} out of range ({n_inputs} inputs)")));
                    }
                    return Ok(i);
                }
                env.get(name).copied().ok_or_else(|| ParseError::new(no, format!("{name:?} is used before it is assigned")))
            };
            let sig = match parts.as_slice() {
                [a, b] => {
                    let (a, b) = (lookup(a)?, lookup(b)?);
                    if a == b {
                        return Err(ParseError::new(no, "both operands are the same signal"));
                    }
                    Some(p.push(a, b))
                }
                ["0"] => None,
                [a] => Some(lookup(a)?),
                _ => return Err(ParseError::new(no, "expected exactly two operands (`a + b`) or one (an alias)")),
            };
            if let Some(j) = output_index(lhs) {
                if j >= crate::matrix::MAX_DIM {
                    return Err(ParseError::new(no, format!("output index {j} too large")));
                }
                if p.outputs.len() <= j {
                    p.outputs.resize(j + 1, Out::Unset);
                }
                if p.outputs[j] != Out::Unset {
                    return Err(ParseError::new(no, format!("{lhs} is assigned twice")));
                }
                p.outputs[j] = sig.map_or(Out::Zero, Out::Sig);
            } else if sig.is_none() {
                return Err(ParseError::new(no, "only outputs may be the constant 0"));
            }
            if let Some(s) = sig {
                env.insert(lhs.to_string(), s);
            }
        }
        if !saw_line {
            return Err(ParseError::new(0, "empty program"));
        }
        // A program without outputs computes nothing (and would print as an empty program).
        if p.outputs.is_empty() {
            return Err(ParseError::new(0, "program has no outputs (no `yJ = …` line)"));
        }
        Ok(p)
    }
}

fn parse_header(rest: &str, meta: &mut Meta) {
    let mut toks = rest.split_whitespace();
    if let Some(a) = toks.next() {
        meta.algorithm = a.to_string();
    }
    while let Some(t) = toks.next() {
        match t {
            "seed:" => meta.seed = toks.next().and_then(|s| s.parse().ok()).unwrap_or(0),
            "xor-count:" | "depth:" => {
                toks.next();
            }
            "lower-bound:" => {
                if let Some(v) = toks.next() {
                    meta.extra.push(format!("lower-bound: {v}"));
                }
            }
            other => meta.extra.push(other.to_string()),
        }
    }
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f.is_ascii_alphabetic() || f == '_') && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

fn index_with_prefix(s: &str, prefix: char) -> Option<usize> {
    let rest = s.strip_prefix(prefix)?;
    if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) || rest.len() > 6 {
        return None;
    }
    rest.parse().ok()
}

fn input_index(s: &str) -> Option<usize> {
    index_with_prefix(s, 'x')
}

fn output_index(s: &str) -> Option<usize> {
    index_with_prefix(s, 'y')
}

/// A row as 0/1 text (column 0 first).
pub fn row_text(r: Row, cols: usize) -> String {
    (0..cols).map(|c| if r >> c & 1 == 1 { '1' } else { '0' }).collect()
}

/// Builds a program from a list of XORs given by values: `base` holds signal values; every
/// output row must end up among them. Used by the heuristics that work on values.
pub fn outputs_from_values(p: &mut Program, values: &[Row], targets: &[Row]) {
    let mut idx: HashMap<Row, usize> = HashMap::new();
    for (i, v) in values.iter().enumerate() {
        idx.entry(*v).or_insert(i);
    }
    p.outputs = targets.iter().map(|t| if *t == 0 { Out::Zero } else { idx.get(t).map_or(Out::Unset, |&s| Out::Sig(s)) }).collect();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_matrix;

    #[test]
    fn roundtrip_and_verify() {
        let m = parse_matrix("110\n111\n001\n000\n").unwrap();
        let mut p = Program::new(3, 4);
        let a = p.push(0, 1);
        let b = p.push(a, 2);
        p.outputs = vec![Out::Sig(a), Out::Sig(b), Out::Sig(2), Out::Zero];
        p.meta.algorithm = "test".into();
        p.verify(&m).unwrap();
        assert_eq!(p.depth(), 2);
        let text = p.to_text();
        assert!(text.starts_with("# algorithm: test  seed: 0  xor-count: 2  depth: 2\n"), "{text}");
        let q = Program::parse(&text, None).unwrap();
        q.verify(&m).unwrap();
        assert_eq!(q.ops, p.ops);
    }

    #[test]
    fn verify_rejects_wrong_program() {
        let m = parse_matrix("110\n011\n").unwrap();
        let p = Program::parse("y0 = x0 + x1\ny1 = x0 + x2\n", Some(3)).unwrap();
        let e = p.verify(&m).unwrap_err();
        assert!(e.contains("y1"), "{e}");
        let p = Program::parse("y0 = x0 + x1\n", Some(3)).unwrap();
        assert!(p.verify(&m).is_err());
    }

    #[test]
    fn parse_errors() {
        assert_eq!(Program::parse("t0 = x0 + t1\n", None).unwrap_err().line, 1);
        assert_eq!(Program::parse("t0 = x0 + x1\nt0 = x0 + x2\n", None).unwrap_err().line, 2);
        assert_eq!(Program::parse("# c\nt0 = x0 x1\n", None).unwrap_err().line, 2);
        assert!(Program::parse("", None).is_err());
        assert!(Program::parse("y0 = x0 + x0\n", None).is_err());
        // Found by the `slp_parse` fuzzer: accepted, but printed as an empty program.
        let e = Program::parse("t0 = x0\n", None).unwrap_err();
        assert!(e.message.contains("no outputs"), "{e:?}");
    }

    #[test]
    fn prune_removes_dead_code() {
        let mut p = Program::new(3, 1);
        let _dead = p.push(0, 2);
        let a = p.push(0, 1);
        p.outputs = vec![Out::Sig(a)];
        p.prune();
        assert_eq!(p.ops, vec![(0, 1)]);
        assert_eq!(p.outputs, vec![Out::Sig(3)]);
    }
}
