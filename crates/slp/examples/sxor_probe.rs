// temporary experiment driver (not committed)
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use slicewise_slp::sxor::{SxorOptions, sxor_with};
use std::time::Instant;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&a[1]).unwrap();
    let m = slicewise_slp::parse::parse_matrix(&text).unwrap();
    let windows: usize = a[2].parse().unwrap();
    let secs: f64 = a[3].parse().unwrap();
    let mut best = usize::MAX;
    let t = Instant::now();
    let mut sum = 0;
    let mut seeds = 0;
    let mut hist = std::collections::BTreeMap::new();
    for seed in 0.. {
        if t.elapsed().as_secs_f64() > secs { break; }
        seeds += 1;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let ip = sxor_with(&m, &SxorOptions { windows }, &mut rng).unwrap();
        let p = ip.to_program();
        p.verify(&m).unwrap();
        best = best.min(ip.ops.len());
        sum += ip.ops.len();
        *hist.entry(ip.ops.len()).or_insert(0) += 1;
    }
    println!("{} windows={windows} seeds={seeds} best={best} mean={:.1} time/run={:.3}s {:?}", a[1].rsplit('/').next().unwrap(), sum as f64 / seeds as f64, t.elapsed().as_secs_f64() / seeds as f64, hist.iter().take(4).collect::<Vec<_>>());
}
