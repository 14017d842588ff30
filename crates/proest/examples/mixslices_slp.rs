//! Dev tool: search a short XOR program (linear straight-line program) for Prøst's MixSlices.
//!
//! A randomised Boyar–Peralta heuristic (the "base set + distance" method of Boyar, Matthews and
//! Peralta, J. Cryptology 26(2), 2013, with random tie-breaking in the spirit of Tan–Peyrin's
//! RNBP). Because the matrix is only 16 × 16, distances are computed exactly: one breadth-first
//! search over all 2^16 vectors gives the minimum number of base elements summing to any vector,
//! and the distance of a target after adding a candidate `n` is `min(d(f), 1 + d(f ^ n))`.
//!
//! ```text
//! cargo run --release -p slicewise-proest --example mixslices_slp -- \
//!     [--matrix src/generated/proest_mixslices.txt] [--seed 1] [--tries 2000] [--emit FILE]
//! ```
//!
//! Prints the best program found; with `--emit` also writes it as the Rust module
//! `src/generated/mixslices.rs`. The search is deterministic for a given seed and try count.
//! The emitted program is verified here against the matrix (evaluation on unit vectors), and
//! again by the crate's unit tests.

use std::fmt::Write as _;

/// SplitMix64: small, seedable, good enough for tie-breaking.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Parses a 0/1 matrix: one row per line, optional `rows cols` header line, blanks ignored.
/// Bit `m` of a row (counting from the left, m = 0..15) selects input `m`.
fn parse_matrix(text: &str) -> Vec<u16> {
    let mut rows = Vec::new();
    for line in text.lines() {
        let bits: String = line.chars().filter(|c| *c == '0' || *c == '1').collect();
        if bits.len() != 16 {
            continue; // header or blank line
        }
        let mut v = 0u16;
        for (m, c) in bits.chars().enumerate() {
            if c == '1' {
                v |= 1 << m;
            }
        }
        rows.push(v);
    }
    assert_eq!(rows.len(), 16, "expected a 16 x 16 matrix");
    rows
}

/// One step of a program: `t = a ^ b`, operands index the value list (inputs 0..16 first).
type Step = (usize, usize);

/// Minimum number of base elements summing to every vector (255 = unreachable).
fn bfs(base: &[u16], dist: &mut [u8]) {
    dist.fill(255);
    dist[0] = 0;
    let mut frontier = vec![0u16];
    let mut d = 0u8;
    while !frontier.is_empty() {
        d += 1;
        let mut next = Vec::new();
        for &v in &frontier {
            for &b in base {
                let w = (v ^ b) as usize;
                if dist[w] == 255 {
                    dist[w] = d;
                    next.push(w as u16);
                }
            }
        }
        frontier = next;
    }
}

/// One randomised Boyar–Peralta run; returns (values, steps, output indices).
fn bp_run(targets: &[u16], rng: &mut Rng) -> (Vec<u16>, Vec<Step>, Vec<usize>) {
    let mut values: Vec<u16> = (0..16).map(|i| 1u16 << i).collect();
    let mut steps: Vec<Step> = Vec::new();
    let mut dist = vec![0u8; 1 << 16];
    loop {
        bfs(&values, &mut dist);
        // Distance in XORs: number of base elements minus one.
        let cur: Vec<u8> = targets.iter().map(|&t| dist[t as usize] - 1).collect();
        if cur.iter().all(|&d| d == 0) {
            break;
        }
        // Greedy rule: a target that is the sum of two base elements is taken at once.
        let mut chosen: Option<(usize, usize)> = None;
        let mut immediate: Vec<(usize, usize)> = Vec::new();
        let n = values.len();
        for i in 0..n {
            for j in (i + 1)..n {
                let v = values[i] ^ values[j];
                if targets.iter().zip(&cur).any(|(&t, &d)| d == 1 && t == v) {
                    immediate.push((i, j));
                }
            }
        }
        if !immediate.is_empty() {
            chosen = Some(immediate[rng.below(immediate.len())]);
        }
        if chosen.is_none() {
            // Minimise the sum of distances, then maximise the sum of squares; random ties.
            let mut best: Option<(u32, i64)> = None;
            let mut ties: Vec<(usize, usize)> = Vec::new();
            for i in 0..n {
                for j in (i + 1)..n {
                    let v = values[i] ^ values[j];
                    if values.contains(&v) {
                        continue;
                    }
                    let mut sum = 0u32;
                    let mut sq = 0i64;
                    for (&t, &d) in targets.iter().zip(&cur) {
                        let via = dist[(t ^ v) as usize]; // elements besides v
                        let nd = d.min(via);
                        sum += nd as u32;
                        sq += (nd as i64) * (nd as i64);
                    }
                    let key = (sum, -sq);
                    match best {
                        Some(b) if key > b => {}
                        Some(b) if key == b => ties.push((i, j)),
                        _ => {
                            best = Some(key);
                            ties.clear();
                            ties.push((i, j));
                        }
                    }
                }
            }
            chosen = Some(ties[rng.below(ties.len())]);
        }
        let (i, j) = chosen.expect("a candidate always exists");
        values.push(values[i] ^ values[j]);
        steps.push((i, j));
    }
    let outputs = targets
        .iter()
        .map(|t| values.iter().position(|v| v == t).expect("every target is in the base"))
        .collect();
    (values, steps, outputs)
}

/// Evaluates a program on the unit vectors and returns the rows it computes.
fn evaluate(steps: &[Step], outputs: &[usize]) -> Vec<u16> {
    let mut vals: Vec<u16> = (0..16).map(|i| 1u16 << i).collect();
    for &(a, b) in steps {
        let v = vals[a] ^ vals[b];
        vals.push(v);
    }
    outputs.iter().map(|&o| vals[o]).collect()
}

fn emit_rust(steps: &[Step], outputs: &[usize], seed: u64, tries: usize) -> String {
    let name = |k: usize| if k < 16 { format!("x[{k}]") } else { format!("t{}", k - 16) };
    let mut s = String::new();
    writeln!(
        s,
        "// Generated by crates/proest/examples/mixslices_slp.rs (randomised Boyar-Peralta), seed {seed}, tries {tries}, xor-count {}",
        steps.len()
    )
    .unwrap();
    writeln!(s, "// Matrix: src/generated/proest_mixslices.txt (Prøst MixSlices, 16 x 16, 72 XORs naive).").unwrap();
    writeln!(s, "// Regenerate: cargo run --release -p slicewise-proest --example mixslices_slp -- --seed {seed} --tries {tries} --emit crates/proest/src/generated/mixslices.rs").unwrap();
    writeln!(s, "// Do not edit by hand; the unit tests re-verify it against the matrix and count its XORs.").unwrap();
    writeln!(s).unwrap();
    writeln!(s, "//! Prøst MixSlices as a {}-XOR straight-line program, generic over the lane type.", steps.len()).unwrap();
    writeln!(s).unwrap();
    writeln!(s, "/// Number of XORs in [`mix_slices`].").unwrap();
    writeln!(s, "pub const XOR_COUNT: usize = {};", steps.len()).unwrap();
    writeln!(s).unwrap();
    writeln!(s, "/// Applies the MixSlices matrix to 16 lanes (`y[k]` = XOR of the `x[m]` with bit m of row k set).").unwrap();
    writeln!(s, "#[inline(always)]").unwrap();
    writeln!(s, "pub fn mix_slices<T: Copy + core::ops::BitXor<Output = T>>(x: [T; 16]) -> [T; 16] {{").unwrap();
    for (n, &(a, b)) in steps.iter().enumerate() {
        writeln!(s, "    let t{n} = {} ^ {};", name(a), name(b)).unwrap();
    }
    let outs: Vec<String> = outputs.iter().map(|&o| name(o)).collect();
    writeln!(s, "    [{}]", outs.join(", ")).unwrap();
    writeln!(s, "}}").unwrap();
    s
}

fn main() {
    let mut matrix_path = String::from(concat!(env!("CARGO_MANIFEST_DIR"), "/src/generated/proest_mixslices.txt"));
    let mut seed = 1u64;
    let mut tries = 2000usize;
    let mut emit: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--matrix" => matrix_path = val(),
            "--seed" => seed = val().parse().expect("seed"),
            "--tries" => tries = val().parse().expect("tries"),
            "--emit" => emit = Some(val()),
            other => panic!("unknown argument {other}"),
        }
    }
    let text = std::fs::read_to_string(&matrix_path).expect("read matrix");
    let targets = parse_matrix(&text);
    let naive: u32 = targets.iter().map(|t| t.count_ones() - 1).sum();
    let mut rng = Rng(seed);
    let mut best: Option<(Vec<Step>, Vec<usize>)> = None;
    for t in 0..tries {
        let (_, steps, outputs) = bp_run(&targets, &mut rng);
        assert_eq!(evaluate(&steps, &outputs), targets, "program does not compute the matrix");
        if best.as_ref().is_none_or(|(b, _)| steps.len() < b.len()) {
            eprintln!("try {t}: {} XORs", steps.len());
            best = Some((steps, outputs));
        }
    }
    let (steps, outputs) = best.expect("at least one try");
    eprintln!("naive {naive} XORs, best {} XORs (seed {seed}, {tries} tries)", steps.len());
    let code = emit_rust(&steps, &outputs, seed, tries);
    match emit {
        Some(path) => std::fs::write(&path, code).expect("write output"),
        None => print!("{code}"),
    }
}
