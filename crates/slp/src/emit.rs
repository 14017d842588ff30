//! Output formats: the program text, an in-place (register) form, JSON, Rust and C code, and
//! a parser for the emitted Rust so that generated files can be re-verified.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::matrix::BitMatrix;
use crate::parse::ParseError;
use crate::program::{Out, Program};

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Emit {
    /// The SLP text format with its header.
    Text,
    /// Register form: `r[a] ^= r[b]` and copies.
    InPlace,
    /// Machine-readable JSON.
    Json,
    /// A generic Rust function.
    Rust,
    /// A C function.
    C,
}

impl std::str::FromStr for Emit {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "text" | "slp" => Emit::Text,
            "inplace" | "in-place" => Emit::InPlace,
            "json" => Emit::Json,
            "rust" | "rs" => Emit::Rust,
            "c" => Emit::C,
            o => return Err(format!("unknown output format {o:?} (text, inplace, json, rust, c)")),
        })
    }
}

/// Context printed in code headers.
#[derive(Debug, Clone, Default)]
pub struct EmitContext {
    /// Function name for Rust/C.
    pub name: String,
    /// The command that regenerates the output (printed in the header).
    pub command: Option<String>,
    /// A description of the matrix (file name or circulant).
    pub matrix_desc: Option<String>,
}

/// Renders `p` (already verified against `m`) in the chosen format.
pub fn emit(p: &Program, m: &BitMatrix, fmt: Emit, ctx: &EmitContext) -> String {
    match fmt {
        Emit::Text => {
            let mut q = p.clone();
            q.meta.notes.insert(0, format!("matrix: {}x{} fingerprint {}{}", m.rows(), m.cols(), m.fingerprint(), desc(ctx)));
            if let Some(c) = &ctx.command {
                q.meta.notes.push(format!("command: {c}"));
            }
            q.to_text()
        }
        Emit::InPlace => in_place(p),
        Emit::Json => json(p, m, ctx),
        Emit::Rust => rust(p, m, ctx),
        Emit::C => c_code(p, m, ctx),
    }
}

fn desc(ctx: &EmitContext) -> String {
    ctx.matrix_desc.as_ref().map_or(String::new(), |d| format!(" ({d})"))
}

/// The register (in-place) form. Each signal lives in a register; an XOR overwrites an operand
/// whose value is dead afterwards, otherwise the operand is first copied to a fresh register.
pub fn in_place(p: &Program) -> String {
    let n = p.n_inputs;
    let k = p.ops.len();
    // Last use of each signal (outputs count as uses at the end).
    let mut last = vec![0usize; n + k];
    for (i, &(a, b)) in p.ops.iter().enumerate() {
        last[a] = i;
        last[b] = i;
    }
    let mut is_out = vec![false; n + k];
    for o in &p.outputs {
        if let Out::Sig(s) = o {
            is_out[*s] = true;
        }
    }
    let mut reg: Vec<usize> = (0..n).collect();
    reg.resize(n + k, usize::MAX);
    let mut nregs = n;
    let mut body = String::new();
    let mut copies = 0;
    for (i, &(a, b)) in p.ops.iter().enumerate() {
        let s = n + i;
        let dead = |x: usize| !is_out[x] && last[x] == i;
        let (dst, src) = if dead(a) {
            (a, b)
        } else if dead(b) {
            (b, a)
        } else {
            let r = nregs;
            nregs += 1;
            copies += 1;
            let _ = writeln!(body, "r[{r}] = r[{}]", reg[a]);
            reg[s] = r;
            let _ = writeln!(body, "r[{r}] ^= r[{}]", reg[b]);
            continue;
        };
        reg[s] = reg[dst];
        let _ = writeln!(body, "r[{}] ^= r[{}]", reg[dst], reg[src]);
    }
    let mut s = p.header();
    let _ = writeln!(s, "\n# in-place form: registers r[0..{n}] start as x0..x{}; {} XORs, {copies} copies, {nregs} registers", n.saturating_sub(1), k);
    s.push_str(&body);
    for (j, o) in p.outputs.iter().enumerate() {
        match o {
            Out::Sig(x) => {
                let _ = writeln!(s, "y{j} = r[{}]", reg[*x]);
            }
            _ => {
                let _ = writeln!(s, "y{j} = 0");
            }
        }
    }
    s
}

fn json(p: &Program, m: &BitMatrix, ctx: &EmitContext) -> String {
    let (names, aliases) = p.names();
    let mut lines: Vec<String> = p.ops.iter().enumerate().map(|(i, &(a, b))| format!("{} = {} + {}", names[p.n_inputs + i], names[a], names[b])).collect();
    lines.extend(aliases.iter().map(|(j, s)| format!("y{j} = {s}")));
    let outputs: Vec<serde_json::Value> = p.outputs.iter().map(|o| if let Out::Sig(s) = o { (*s).into() } else { serde_json::Value::Null }).collect();
    let v = serde_json::json!({
        "tool": concat!("slicewise-slp ", env!("CARGO_PKG_VERSION")),
        "matrix": { "rows": m.rows(), "cols": m.cols(), "fingerprint": m.fingerprint(), "description": ctx.matrix_desc },
        "algorithm": p.meta.algorithm,
        "seed": p.meta.seed,
        "xor_count": p.xor_count(),
        "depth": p.depth(),
        "extra": p.meta.extra,
        "verified": p.verify(m).is_ok(),
        "command": ctx.command,
        "n_inputs": p.n_inputs,
        "ops": p.ops,
        "outputs": outputs,
        "program": lines,
    });
    let mut s = serde_json::to_string_pretty(&v).expect("json");
    s.push('\n');
    s
}

fn code_header(p: &Program, m: &BitMatrix, ctx: &EmitContext, comment: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{comment} Generated by slicewise slp (slicewise-slp {}, algorithm {}), seed {}, xor-count {}, depth {}",
        env!("CARGO_PKG_VERSION"),
        p.meta.algorithm,
        p.meta.seed,
        p.xor_count(),
        p.depth()
    );
    let _ = writeln!(s, "{comment} Matrix: {}x{}, fingerprint {}{}; verified on unit vectors before emission.", m.rows(), m.cols(), m.fingerprint(), desc(ctx));
    if !p.meta.extra.is_empty() {
        let _ = writeln!(s, "{comment} Proof status: {}", p.meta.extra.join(", "));
    }
    if let Some(c) = &ctx.command {
        let _ = writeln!(s, "{comment} Regenerate: {c}");
    }
    let _ = writeln!(s, "{comment} Do not edit by hand.");
    s
}

fn operand(names: &[String], n: usize, s: usize) -> String {
    if s < n { format!("x[{s}]") } else { names[s].clone() }
}

fn rust(p: &Program, m: &BitMatrix, ctx: &EmitContext) -> String {
    let n = p.n_inputs;
    let (names, _) = p.names();
    let name = if ctx.name.is_empty() { "slp" } else { &ctx.name };
    let mut s = code_header(p, m, ctx, "//");
    let _ = writeln!(s, "\n//! A {}-XOR straight-line program for a {}x{} binary matrix, generic over the lane type.\n", p.xor_count(), m.rows(), m.cols());
    let _ = writeln!(s, "/// Number of XORs in [`{name}`].\npub const XOR_COUNT: usize = {};\n", p.xor_count());
    let _ = writeln!(s, "/// Applies the matrix: output `y[r]` is the XOR of the `x[c]` with bit `c` of row `r` set.");
    let _ = writeln!(s, "#[inline(always)]");
    let _ = writeln!(s, "pub fn {name}<T: Copy + core::ops::BitXor<Output = T>>(x: [T; {n}]) -> [T; {}] {{", p.outputs.len());
    for (i, &(a, b)) in p.ops.iter().enumerate() {
        let _ = writeln!(s, "    let {} = {} ^ {};", names[n + i], operand(&names, n, a), operand(&names, n, b));
    }
    let outs: Vec<String> = p
        .outputs
        .iter()
        .map(|o| match o {
            Out::Sig(x) => operand(&names, n, *x),
            _ => "x[0] ^ x[0]".to_string(),
        })
        .collect();
    let _ = writeln!(s, "    [{}]\n}}", outs.join(", "));
    s
}

fn c_code(p: &Program, m: &BitMatrix, ctx: &EmitContext) -> String {
    let n = p.n_inputs;
    let (names, _) = p.names();
    let name = if ctx.name.is_empty() { "slp" } else { &ctx.name };
    let mut s = code_header(p, m, ctx, "//");
    let _ = writeln!(s, "#include <stdint.h>\n\n#ifndef SLP_WORD\n#define SLP_WORD uint64_t\n#endif\n");
    let _ = writeln!(s, "/* {} XORs. y may alias x. */", p.xor_count());
    let _ = writeln!(s, "static inline void {name}(const SLP_WORD x[{n}], SLP_WORD y[{}]) {{", p.outputs.len());
    for (i, &(a, b)) in p.ops.iter().enumerate() {
        let _ = writeln!(s, "    const SLP_WORD {} = {} ^ {};", names[n + i], operand(&names, n, a), operand(&names, n, b));
    }
    // Read every input used as an output before writing y (y may alias x).
    let mut input_copies = Vec::new();
    for o in &p.outputs {
        if let Out::Sig(x) = o
            && *x < n
            && !input_copies.contains(x)
        {
            input_copies.push(*x);
            let _ = writeln!(s, "    const SLP_WORD in{x} = x[{x}];");
        }
    }
    for (j, o) in p.outputs.iter().enumerate() {
        let src = match o {
            Out::Sig(x) if *x < n => format!("in{x}"),
            Out::Sig(x) => names[*x].clone(),
            _ => "0".to_string(),
        };
        let _ = writeln!(s, "    y[{j}] = {src};");
    }
    s.push_str("}\n");
    s
}

/// Reads a program back from emitted Rust (`let a = b ^ c;` lines and the returned array).
pub fn program_from_rust(text: &str) -> Result<Program, ParseError> {
    let mut slp = String::new();
    let mut env: HashMap<String, String> = HashMap::new();
    let conv = |t: &str, env: &HashMap<String, String>| -> String {
        let t = t.trim();
        if let Some(i) = t.strip_prefix("x[").and_then(|r| r.strip_suffix(']')) { format!("x{}", i.trim()) } else { env.get(t).cloned().unwrap_or_else(|| format!("v_{t}")) }
    };
    let mut outputs: Option<Vec<String>> = None;
    let mut k = 0;
    for (no, line) in text.lines().enumerate() {
        let l = line.split("//").next().unwrap_or("").trim();
        if let Some(rest) = l.strip_prefix("let ") {
            let rest = rest.trim_end_matches(';');
            let (lhs, rhs) = rest.split_once('=').ok_or_else(|| ParseError::new(no + 1, "expected `let a = b ^ c;`"))?;
            let parts: Vec<&str> = rhs.split('^').collect();
            if parts.len() != 2 {
                return Err(ParseError::new(no + 1, "expected exactly one `^`"));
            }
            let name = format!("v{k}");
            k += 1;
            let _ = writeln!(slp, "{name} = {} + {}", conv(parts[0], &env), conv(parts[1], &env));
            env.insert(lhs.trim().to_string(), name);
        } else if l.starts_with('[') && l.ends_with(']') && !env.is_empty() {
            outputs = Some(l[1..l.len() - 1].split(',').map(|t| conv(t, &env)).collect());
        }
    }
    let outputs = outputs.ok_or_else(|| ParseError::new(0, "no returned array `[...]` found"))?;
    for (j, o) in outputs.iter().enumerate() {
        let _ = writeln!(slp, "y{j} = {o}");
    }
    Program::parse(&slp, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Algorithm, run_once};

    #[test]
    fn rust_roundtrip_and_formats() {
        let m = crate::matrix::expand_gf256(&crate::matrix::circulant(&[2, 3, 1, 1]), 0x11b);
        let p = run_once(&m, Algorithm::Rnbp, 1, None, 0).unwrap();
        let ctx = EmitContext { name: "mix".into(), command: Some("slicewise slp optimize".into()), matrix_desc: None };
        let r = emit(&p, &m, Emit::Rust, &ctx);
        assert!(r.starts_with("// Generated by slicewise slp"));
        assert!(r.contains(&format!("xor-count {}", p.xor_count())));
        assert!(r.contains("pub fn mix<T: Copy + core::ops::BitXor<Output = T>>(x: [T; 32]) -> [T; 32]"));
        let q = program_from_rust(&r).unwrap();
        q.verify(&m).unwrap();
        assert_eq!(q.xor_count(), p.xor_count());
        let j: serde_json::Value = serde_json::from_str(&emit(&p, &m, Emit::Json, &ctx)).unwrap();
        assert_eq!(j["xor_count"], p.xor_count());
        assert_eq!(j["verified"], true);
        let c = emit(&p, &m, Emit::C, &ctx);
        assert_eq!(c.matches(" ^ ").count(), p.xor_count());
        let ip = emit(&p, &m, Emit::InPlace, &ctx);
        assert_eq!(ip.matches("^=").count(), p.xor_count());
        let t = emit(&p, &m, Emit::Text, &ctx);
        Program::parse(&t, None).unwrap().verify(&m).unwrap();
        assert_eq!(simulate_in_place(&ip, 32), m.row_bits());
        let ip = emit(&crate::sxor::sxor(&m, &mut rand::SeedableRng::seed_from_u64(3)).unwrap().to_program(), &m, Emit::InPlace, &ctx);
        assert_eq!(simulate_in_place(&ip, 32), m.row_bits());
    }

    /// Runs the register form on unit vectors.
    fn simulate_in_place(text: &str, n: usize) -> Vec<u128> {
        let mut r: Vec<u128> = (0..n).map(|i| 1u128 << i).collect();
        let idx = |s: &str| -> usize { s.trim().trim_start_matches("r[").trim_end_matches(']').parse().unwrap() };
        let mut out = Vec::new();
        for l in text.lines().filter(|l| !l.starts_with('#')) {
            let (lhs, rhs) = l.split_once('=').unwrap();
            if let Some(dst) = lhs.strip_suffix('^') {
                let (d, s) = (idx(dst), idx(rhs));
                r[d] ^= r[s];
            } else if lhs.starts_with('y') {
                out.push(r[idx(rhs)]);
            } else {
                let (d, s) = (idx(lhs), idx(rhs));
                if r.len() <= d {
                    r.resize(d + 1, 0);
                }
                r[d] = r[s];
            }
        }
        out
    }
}
