//! Prøst decryption of arbitrary bytes, all six variants, every available backend: it never
//! panics, it returns plaintext only for a ciphertext that encryption produces (the oracle:
//! encryption is deterministic, so `encrypt(decrypt(ct)) == ct` exactly when the tag and the
//! padding verify), every backend reaches the same verdict and plaintext, and on failure the
//! output buffer of `decrypt_into` is all zeros.
//!
//! Each input picks its variant (`sel % 6`) and one backend (`sel / 6`), which is compared with
//! `portable`: one execution decrypts on two backends instead of on all of them, so the run
//! makes several times more executions; over the run every backend gets its share.
//!
//! Half of the inputs (first byte odd) are real ciphertexts of a message taken from the input,
//! with one byte flipped when the input asks for it, so that both the success path and
//! near-miss forgeries are reached; the other half are raw bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use slicewise_fuzz::{Cursor, for_variant, proest_backends};
use slicewise_proest::modes::Mode;
use slicewise_proest::{Error, ProestAead};

fn case<M: Mode>(c: &mut Cursor<'_>, pick: usize) {
    let key = c.fixed(ProestAead::<M>::KEY_LEN);
    // Nonce lengths are mostly right, sometimes not (a length error is a valid answer too).
    let nonce_len = match c.byte() {
        0 => c.byte() as usize % 80,
        _ => ProestAead::<M>::NONCE_LEN,
    };
    let nonce = c.fixed(nonce_len);
    let ad_len = c.byte() as usize;
    let ad = c.take(ad_len).to_vec();
    let forge = c.byte();
    let flip = c.u16() as usize;
    let payload = c.rest();
    let all = proest_backends();
    let chosen = all[pick % all.len()];
    let backends: Vec<_> = if chosen == all[0] { vec![chosen] } else { vec![all[0], chosen] };
    let ct = if forge & 1 == 1 && nonce_len == ProestAead::<M>::NONCE_LEN {
        let enc = ProestAead::<M>::with_backend(&key, backends[forge as usize / 2 % backends.len()]).unwrap();
        let mut ct = enc.encrypt(&nonce, &ad, payload).unwrap();
        if forge & 2 == 2 {
            let i = flip % ct.len();
            ct[i] ^= 1 << (forge >> 5);
        }
        ct
    } else {
        payload.to_vec()
    };
    let mut verdict: Option<Result<Vec<u8>, Error>> = None;
    for &b in &backends {
        let aead = ProestAead::<M>::with_backend(&key, b).unwrap();
        let max = ProestAead::<M>::max_plaintext_len(ct.len());
        // One spare byte past the required size must never be written.
        let mut out = vec![0xa5u8; max.unwrap_or(0) + 1];
        let got = aead.decrypt_into(&nonce, &ad, &ct, &mut out);
        let got = match got {
            Ok(n) => {
                assert!(n <= max.unwrap(), "{b}: length {n} beyond the bound");
                let pt = out[..n].to_vec();
                assert_eq!(aead.encrypt(&nonce, &ad, &pt).unwrap(), ct, "{b}: plaintext released for a ciphertext encryption does not produce");
                Ok(pt)
            }
            Err(e) => {
                if let Some(max) = max.filter(|_| nonce.len() == ProestAead::<M>::NONCE_LEN) {
                    assert!(out[..max].iter().all(|&x| x == 0), "{b}: output not wiped after {e}");
                }
                Err(e)
            }
        };
        assert_eq!(*out.last().unwrap(), 0xa5, "{b}: wrote past max_plaintext_len");
        assert_eq!(aead.decrypt(&nonce, &ad, &ct), got, "{b}: decrypt and decrypt_into disagree");
        match &verdict {
            None => verdict = Some(got),
            Some(first) => assert_eq!(first, &got, "backends {} and {b} disagree", backends[0]),
        }
    }
    // The batch path (APE in lockstep) must give the same answer as the one-shot path.
    let aead = ProestAead::<M>::with_backend(&key, backends[backends.len() - 1]).unwrap();
    let packet = slicewise_proest::Packet { nonce: &nonce, ad: &ad, msg: &ct };
    let batch = aead.decrypt_batch(&[packet, packet]);
    for r in batch {
        assert_eq!(Some(r), verdict.clone(), "decrypt_batch disagrees");
    }
}

fuzz_target!(|data: &[u8]| {
    let mut c = Cursor::new(data);
    let sel = c.byte();
    for_variant!(sel, case, &mut c, sel as usize / 6);
});
