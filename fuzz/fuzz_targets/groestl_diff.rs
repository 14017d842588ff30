//! Grøstl differential: every available backend against `portable` and RustCrypto `groestl`,
//! all four sizes, arbitrary data cut into arbitrary `update` pieces, and `hash_many` on the
//! data cut into several messages.
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
    let ncuts = c.byte() as usize % 8;
    let cuts = c.take(ncuts).to_vec();
    let nmsgs = 1 + c.byte() as usize % 7;
    let msg = c.rest();
    let backends = groestl_backends();
    for v in Variant::ALL {
        let want = reference(v, msg);
        for &b in &backends {
            assert_eq!(pieces(v, b, msg, &cuts), want, "{v:?} on {b} with cuts {cuts:?}");
        }
        // hash_many: the message cut into `nmsgs` parts of equal length (the last takes the
        // rest), so the multi-buffer kernels see equal and unequal lengths.
        let part = msg.len() / nmsgs;
        let msgs: Vec<&[u8]> = (0..nmsgs).map(|i| if i + 1 == nmsgs { &msg[i * part..] } else { &msg[i * part..(i + 1) * part] }).collect();
        let wants: Vec<Vec<u8>> = msgs.iter().map(|m| reference(v, m)).collect();
        for &b in &backends {
            let mut out = vec![DigestBytes::default(); msgs.len()];
            hash_many(v, b, &msgs, &mut out).expect("available backend");
            for (i, (o, w)) in out.iter().zip(&wants).enumerate() {
                assert_eq!(o.as_ref(), &w[..], "hash_many {v:?} on {b}, message {i} of {nmsgs}");
            }
        }
    }
});
