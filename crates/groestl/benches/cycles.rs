//! Quick rdtsc cycles/byte for every available backend (the dev loop; the published figures
//! come from `slicewise bench groestl`). Run: `cargo bench -p slicewise-groestl --bench cycles
//! [-- BACKEND,BACKEND SIZES]`, e.g. `-- aesni,avx512 64,1048576`.

use std::hint::black_box;

use slicewise_groestl::{Backend, Groestl, Variant};

fn rdtsc() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: rdtsc has no preconditions on x86-64.
        #[allow(unsafe_code)]
        unsafe {
            core::arch::x86_64::_rdtsc()
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        std::time::Instant::now().elapsed().as_nanos() as u64
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let backends: Vec<Backend> = match args.first() {
        Some(list) if list != "all" => list.split(',').map(|n| Backend::from_name(n).unwrap()).collect(),
        _ => Backend::all().filter(|b| b.is_available()).collect(),
    };
    let sizes: Vec<usize> = match args.get(1) {
        Some(s) => s.split(',').map(|x| x.parse().unwrap()).collect(),
        None => vec![64, 576, 1536, 1 << 20],
    };
    let data: Vec<u8> = (0..(1 << 20) + 64).map(|i| (i * 7 + 3) as u8).collect();
    print!("{:<10} {:<12}", "backend", "variant");
    for s in &sizes {
        print!(" {:>9}", s);
    }
    println!();
    for b in backends {
        for v in [Variant::Groestl256, Variant::Groestl512] {
            print!("{:<10} {:<12}", b.name(), v.name());
            for &size in &sizes {
                let reps = (4_000_000 / (size + 256)).clamp(3, 2000);
                let mut samples = Vec::new();
                for _ in 0..31 {
                    let t0 = rdtsc();
                    for _ in 0..reps {
                        let mut h = Groestl::with_backend(v, b).unwrap();
                        h.update(black_box(&data[..size]));
                        black_box(h.finalize());
                    }
                    let t1 = rdtsc();
                    samples.push((t1 - t0) as f64 / (reps * size) as f64);
                }
                print!(" {:>9.2}", median(samples));
            }
            println!();
        }
    }
}
