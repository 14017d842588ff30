//! Quick rdtsc cycles/byte for every available backend (the dev loop; the published figures
//! come from `slicewise bench groestl`). Run: `cargo bench -p slicewise-groestl --bench cycles
//! [-- BACKEND,BACKEND SIZES]`, e.g. `-- aesni,avx512 64,1048576`.

use std::hint::black_box;

use slicewise_groestl::{Backend, DigestBytes, Groestl, Variant, groestlcoin_hash_many, hash_many};

// The clock: rdtsc on x86-64, nanoseconds elsewhere.
use slicewise_platform::ticks;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    if args.first().map(String::as_str) == Some("many") {
        return many(&args[1..]);
    }
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
                    let t0 = ticks();
                    for _ in 0..reps {
                        let mut h = Groestl::with_backend(v, b).unwrap();
                        h.update(black_box(&data[..size]));
                        black_box(h.finalize());
                    }
                    let t1 = ticks();
                    samples.push((t1 - t0) as f64 / (reps * size) as f64);
                }
                print!(" {:>9.2}", median(samples));
            }
            println!();
        }
    }
}

/// `-- many [BACKENDS]`: hash_many of 256 messages of 64 B and 1536 B, and groestlcoin_hash_many
/// of 256 80-byte headers (cycles per message and per byte of input).
fn many(args: &[String]) {
    let backends: Vec<Backend> = match args.first() {
        Some(list) if list != "all" => list.split(',').map(|n| Backend::from_name(n).unwrap()).collect(),
        _ => Backend::all().filter(|b| b.is_available()).collect(),
    };
    const N: usize = 256;
    let data: Vec<u8> = (0..N * 1536).map(|i| (i * 7 + 3) as u8).collect();
    let headers: Vec<[u8; 80]> = (0..N).map(|i| core::array::from_fn(|j| (i * 80 + j) as u8)).collect();
    for b in backends {
        for (v, size) in [(Variant::Groestl256, 64), (Variant::Groestl256, 1536), (Variant::Groestl512, 64)] {
            let inputs: Vec<&[u8]> = data.chunks(size).take(N).collect();
            let mut out = vec![DigestBytes::default(); N];
            let mut samples = Vec::new();
            for _ in 0..31 {
                let t0 = ticks();
                hash_many(v, b, black_box(&inputs), &mut out).unwrap();
                samples.push((ticks() - t0) as f64 / (N * size) as f64);
            }
            println!("{:<10} hash_many {:<12} {:>5} B: {:>7.2} cpb", b.name(), v.name(), size, median(samples));
        }
        let mut out = vec![[0u8; 32]; N];
        let mut samples = Vec::new();
        for _ in 0..31 {
            let t0 = ticks();
            groestlcoin_hash_many(b, black_box(&headers), &mut out).unwrap();
            samples.push((ticks() - t0) as f64 / N as f64);
        }
        println!("{:<10} groestlcoin_hash_many 80 B: {:>8.0} cycles/header", b.name(), median(samples));
    }
}
