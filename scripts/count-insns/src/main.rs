//! `count-insns OP BACKEND BYTES N`: runs OP on BYTES bytes N times on BACKEND and prints a
//! fingerprint of the last result (so runs on different backends can be compared).
//!
//! OP: groestl224 | groestl256 | groestl384 | groestl512 | {ape,copa,otr}{128,256} |
//! perm128 | perm256 (BYTES ignored: one P call per iteration) | many224 … many512 (eight
//! messages of BYTES bytes through `hash_many`) | gcoin (Groestlcoin hash of one 80-byte header
//! on BACKEND, two one-message Grøstl-512 hashes) | gcoinmany (eight 80-byte headers through
//! `groestlcoin_hash_many`); BYTES ignored for both | pmany128 | pmany256 (one `permute_many`
//! call on BYTES states).
//! BACKEND: a slicewise backend name, or `rustcrypto` for the `groestl` crate.

use std::hint::black_box;

use groestl::Digest as _;
use slicewise_groestl::{Variant, hash_bits};
use slicewise_proest::{Permutation, Proest128, Proest256};

fn fingerprint(b: &[u8]) -> String {
    b.iter().take(16).map(|x| format!("{x:02x}")).collect()
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    assert_eq!(a.len(), 5, "usage: count-insns OP BACKEND BYTES N");
    let (op, backend, bytes, n) = (a[1].as_str(), a[2].as_str(), a[3].parse::<usize>().unwrap(), a[4].parse::<usize>().unwrap());
    let msg: Vec<u8> = (0..bytes).map(|i| (i * 131 + 7) as u8).collect();
    let last: Vec<u8>;
    let variant = match op {
        "groestl224" => Some(Variant::Groestl224),
        "groestl256" => Some(Variant::Groestl256),
        "groestl384" => Some(Variant::Groestl384),
        "groestl512" => Some(Variant::Groestl512),
        _ => None,
    };
    if op == "gcoin" || op == "gcoinmany" {
        let b = slicewise_groestl::Backend::from_name(backend).unwrap();
        let headers: Vec<[u8; 80]> = (0..8).map(|k| core::array::from_fn(|i| (i * 131 + 7 * k + 7) as u8)).collect();
        let mut out = vec![[0u8; 32]; 8];
        for _ in 0..n {
            if op == "gcoinmany" {
                slicewise_groestl::groestlcoin_hash_many(b, black_box(&headers), &mut out).unwrap();
            } else {
                for (h, o) in black_box(&headers).iter().zip(out.iter_mut()) {
                    let first = hash_bits(Variant::Groestl512, b, h, 640).unwrap();
                    let second = hash_bits(Variant::Groestl512, b, first.as_ref(), 512).unwrap();
                    o.copy_from_slice(&second.as_ref()[..32]);
                }
            }
        }
        last = out.concat();
    } else if let Some(v) = op.strip_prefix("many").and_then(|w| Variant::ALL.into_iter().find(|v| v.output_len() * 8 == w.parse::<usize>().unwrap_or(0))) {
        // Eight messages of BYTES bytes through `hash_many`.
        let b = slicewise_groestl::Backend::from_name(backend).unwrap();
        let inputs: Vec<&[u8]> = vec![&msg[..]; 8];
        let mut out = vec![slicewise_groestl::DigestBytes::default(); 8];
        for _ in 0..n {
            slicewise_groestl::hash_many(v, b, black_box(&inputs), &mut out).unwrap();
        }
        last = out.iter().flat_map(|d| d.as_ref().to_vec()).collect();
    } else if let Some(v) = variant {
        // Into a buffer made once, as the seeds' `crypto_hash` writes into the caller's: a
        // `Vec` per hash would count the allocator (about 500 instructions on ARMv7) as ours.
        let mut out = [0u8; 64];
        let len = v.output_len();
        if backend == "rustcrypto" {
            for _ in 0..n {
                match v {
                    Variant::Groestl224 => out[..len].copy_from_slice(&groestl::Groestl224::digest(black_box(&msg))),
                    Variant::Groestl256 => out[..len].copy_from_slice(&groestl::Groestl256::digest(black_box(&msg))),
                    Variant::Groestl384 => out[..len].copy_from_slice(&groestl::Groestl384::digest(black_box(&msg))),
                    Variant::Groestl512 => out[..len].copy_from_slice(&groestl::Groestl512::digest(black_box(&msg))),
                }
            }
        } else {
            let b = slicewise_groestl::Backend::from_name(backend).unwrap();
            for _ in 0..n {
                slicewise_groestl::hash_into(v, b, black_box(&msg), &mut out).unwrap();
            }
        }
        last = out[..len].to_vec();
    } else {
        let b = slicewise_proest::Backend::from_name(backend).unwrap();
        last = match op {
            "perm128" => {
                let p = Proest128::with_backend(b).unwrap();
                let mut s = [0; 16];
                for _ in 0..n {
                    s = black_box([0x1234u16; 16]);
                    p.permute(&mut s);
                }
                s.iter().flat_map(|w| w.to_le_bytes()).collect()
            }
            "pmany128" => {
                let p = Proest128::with_backend(b).unwrap();
                let mut s = vec![[0u16; 16]; bytes];
                for _ in 0..n {
                    for (k, st) in s.iter_mut().enumerate() {
                        *st = black_box([0x1234u16 ^ k as u16; 16]);
                    }
                    p.permute_many(&mut s);
                }
                s.iter().flatten().flat_map(|w| w.to_le_bytes()).collect()
            }
            "pmany256" => {
                let p = Proest256::with_backend(b).unwrap();
                let mut s = vec![[0u32; 16]; bytes];
                for _ in 0..n {
                    for (k, st) in s.iter_mut().enumerate() {
                        *st = black_box([0x1234_5678u32 ^ k as u32; 16]);
                    }
                    p.permute_many(&mut s);
                }
                s.iter().flatten().flat_map(|w| w.to_le_bytes()).collect()
            }
            "perm256" => {
                let p = Proest256::with_backend(b).unwrap();
                let mut s = [0; 16];
                for _ in 0..n {
                    s = black_box([0x1234_5678u32; 16]);
                    p.permute(&mut s);
                }
                s.iter().flat_map(|w| w.to_le_bytes()).collect()
            }
            _ => {
                macro_rules! enc {
                    ($t:ty, $k:expr, $nonce:expr) => {{
                        let c = <$t>::with_backend(&[7u8; $k], b).unwrap();
                        let mut out = vec![0u8; <$t>::ciphertext_len(bytes).unwrap()];
                        for _ in 0..n {
                            c.encrypt_into(&[9u8; $nonce], &[], black_box(&msg), &mut out).unwrap();
                        }
                        out[out.len() - 16..].to_vec()
                    }};
                }
                use slicewise_proest::*;
                match op {
                    "ape128" => enc!(ProestApe128, 16, 32),
                    "copa128" => enc!(ProestCopa128, 32, 16),
                    "otr128" => enc!(ProestOtr128, 32, 16),
                    "ape256" => enc!(ProestApe256, 32, 64),
                    "copa256" => enc!(ProestCopa256, 64, 32),
                    "otr256" => enc!(ProestOtr256, 64, 32),
                    _ => panic!("unknown op {op}"),
                }
            }
        };
    }
    println!("{op} {backend} {bytes} x{n}: {}", fingerprint(&last));
}
