//! Grøstl differential: every available backend against RustCrypto `groestl` (and so against
//! `portable`, one of the backends), all four sizes, arbitrary data cut into arbitrary `update`
//! pieces, and `hash_many` on the data cut into several messages.
//!
//! Each input picks one size and one backend (its first byte), so one execution hashes the
//! message about four times instead of about a hundred (4 sizes × 12 backends × 2 paths on a
//! CPU with every x86 feature); over a run every (size, backend) pair gets about 1/48 of the
//! executions, and the fuzzer learns which first bytes reach new code in which backend.
#![no_main]

use groestl::Digest;
use libfuzzer_sys::fuzz_target;
use slicewise_fuzz::{Cursor, groestl_backends};
use slicewise_groestl::{Backend, DigestBytes, Groestl, Variant, hash_many};

/// RustCrypto's digest of `msg`.
fn reference(v: Variant, msg: &[u8]) -> Vec<u8> {
    match v {
        Variant::Groestl224 => groestl::Groestl224::digest(msg).to_vec(),
        Variant::Groestl256 => groestl::Groestl256::digest(msg).to_vec(),
        Variant::Groestl384 => groestl::Groestl384::digest(msg).to_vec(),
        Variant::Groestl512 => groestl::Groestl512::digest(msg).to_vec(),
    }
}

/// Digest of `msg` on `b`, fed in the pieces `cuts` gives (piece lengths, cycled).
fn pieces(v: Variant, b: Backend, msg: &[u8], cuts: &[u8]) -> Vec<u8> {
    let mut h = Groestl::with_backend(v, b).expect("available");
    let mut rest = msg;
    let mut i = 0;
    while !rest.is_empty() {
        // Piece lengths 0..=255 from the input, scaled so that long messages do not take a
        // quadratic number of calls; a zero cut is an empty `update` (legal) before a 1-byte piece.
        let n = cuts.get(i % cuts.len().max(1)).map_or(rest.len(), |&c| c as usize * 3);
        if n == 0 {
            h.update(&[]);
        }
        let (a, r) = rest.split_at(n.clamp(1, rest.len()));
        h.update(a);
        rest = r;
        i += 1;
    }
    h.finalize().as_ref().to_vec()
}

fuzz_target!(|data: &[u8]| {
    let mut c = Cursor::new(data);
    let sel = c.byte() as usize;
    let backends = groestl_backends();
    let v = Variant::ALL[sel % 4];
    let b = backends[sel / 4 % backends.len()];
    let ncuts = c.byte() as usize % 8;
    let cuts = c.take(ncuts).to_vec();
    let nmsgs = 1 + c.byte() as usize % 7;
    let msg = c.rest();
    let want = reference(v, msg);
    assert_eq!(pieces(v, b, msg, &cuts), want, "{v:?} on {b} with cuts {cuts:?}");
    // hash_many: the message cut into `nmsgs` parts of equal length (the last takes the rest),
    // so the multi-buffer kernels see equal and unequal lengths.
    let part = msg.len() / nmsgs;
    let msgs: Vec<&[u8]> = (0..nmsgs).map(|i| if i + 1 == nmsgs { &msg[i * part..] } else { &msg[i * part..(i + 1) * part] }).collect();
    let mut out = vec![DigestBytes::default(); msgs.len()];
    hash_many(v, b, &msgs, &mut out).expect("available backend");
    for (i, (o, m)) in out.iter().zip(&msgs).enumerate() {
        assert_eq!(o.as_ref(), &reference(v, m)[..], "hash_many {v:?} on {b}, message {i} of {nmsgs}");
    }
});
