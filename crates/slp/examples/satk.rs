//! Development helper: `satk MATRIX K [SECONDS]` answers one k.
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let m = slicewise_slp::parse::parse_matrix(&std::fs::read_to_string(&a[1]).unwrap()).unwrap();
    let k: usize = a[2].parse().unwrap();
    let t: u64 = a.get(3).map_or(60, |s| s.parse().unwrap());
    let (r, d) = slicewise_slp::sat::solve_exactly(&m, k, std::time::Duration::from_secs(t), None).unwrap();
    println!("k={k}: {} in {:.2} s", match r { slicewise_slp::sat::KResult::Sat(_) => "sat", slicewise_slp::sat::KResult::Unsat => "unsat", _ => "timeout" }, d.as_secs_f64());
}
