//! Development helper: `polish MATRIX PROGRAM SECONDS WINDOW` re-synthesizes a program until the time is up.
use rand::SeedableRng;
use slicewise_slp::resynth::{ResynthOptions, resynth};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let m = slicewise_slp::parse::parse_matrix(&std::fs::read_to_string(&a[1]).unwrap()).unwrap();
    let mut p = slicewise_slp::Program::parse(&std::fs::read_to_string(&a[2]).unwrap(), Some(m.cols())).unwrap();
    let secs: u64 = a[3].parse().unwrap();
    let win: usize = a[4].parse().unwrap();
    let t = std::time::Instant::now();
    let mut round = 0u64;
    while t.elapsed().as_secs() < secs {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(round);
        let q = resynth(&p, &ResynthOptions { iterations: 200, max_window: win, tries: 4, max_depth: None, walk: false }, &mut rng);
        if q.xor_count() < p.xor_count() { println!("round {round}: {} at {:?}", q.xor_count(), t.elapsed()); p = q; }
        round += 1;
    }
    p.verify(&m).unwrap();
    println!("{} after {round} rounds", p.xor_count());
}
