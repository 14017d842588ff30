//! Development helper: `cargo run --release -p slicewise-slp --example quick -- MATRIX ALG RUNS [RESYNTH] [DEPTH]`.
use slicewise_slp::search::{Algorithm, run_once};
use std::time::Instant;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let m = slicewise_slp::parse::parse_matrix(&std::fs::read_to_string(&a[1]).unwrap()).unwrap();
    let alg: Algorithm = a[2].parse().unwrap();
    let runs: u64 = a[3].parse().unwrap();
    let rs: usize = a.get(4).map_or(0, |s| s.parse().unwrap());
    let depth: Option<usize> = a.get(5).map(|s| s.parse().unwrap());
    let t = Instant::now();
    let mut best = usize::MAX;
    let mut hist = std::collections::BTreeMap::new();
    for s in 0..runs {
        if let Some(p) = run_once(&m, alg, s, depth, rs) {
            *hist.entry(p.xor_count()).or_insert(0) += 1;
            if p.xor_count() < best { best = p.xor_count(); println!("seed {s}: {} depth {} at {:?}", best, p.depth(), t.elapsed()); }
        }
    }
    println!("naive {} best {best} in {:?} hist {hist:?}", m.naive_xor_count(), t.elapsed());
}
