//! Prøst encrypt → decrypt across backends: a message encrypted on any backend (one at a time
//! and in a batch) decrypts to itself on every backend, and every backend produces the same
//! ciphertext.
//!
//! Each input picks its variant (`sel % 6`), the backend that encrypts and the one that decrypts
//! (from `sel / 6`); the ciphertext is compared with `portable`'s. One execution thus runs two
//! or three backends instead of all of them, and over the run every pair gets its share.
#![no_main]

use libfuzzer_sys::fuzz_target;
use slicewise_fuzz::{Cursor, for_variant, proest_backends};
use slicewise_proest::modes::Mode;
use slicewise_proest::{Packet, ProestAead};

fn case<M: Mode>(c: &mut Cursor<'_>, pick: usize) {
    let key = c.fixed(ProestAead::<M>::KEY_LEN);
    let nonce = c.fixed(ProestAead::<M>::NONCE_LEN);
    let ad_len = c.u16() as usize;
    let ad = c.take(ad_len).to_vec();
    let nmsgs = 1 + c.byte() as usize % 5;
    let msg = c.rest();
    let part = msg.len() / nmsgs;
    let msgs: Vec<&[u8]> = (0..nmsgs).map(|i| if i + 1 == nmsgs { &msg[i * part..] } else { &msg[i * part..(i + 1) * part] }).collect();
    let all = proest_backends();
    let reference = ProestAead::<M>::with_backend(&key, all[0]).unwrap();
    let cipher = |b| ProestAead::<M>::with_backend(&key, b).unwrap();
    let (encrypting, decrypting) = (all[pick % all.len()], all[pick / all.len() % all.len()]);
    let want: Vec<Vec<u8>> = msgs.iter().map(|m| reference.encrypt(&nonce, &ad, m).unwrap()).collect();
    let packets: Vec<Packet<'_>> = msgs.iter().map(|m| Packet { nonce: &nonce, ad: &ad, msg: m }).collect();
    {
        let enc = cipher(encrypting);
        for (m, w) in msgs.iter().zip(&want) {
            assert_eq!(&enc.encrypt(&nonce, &ad, m).unwrap(), w, "encrypt on {encrypting} differs from {}", all[0]);
        }
        assert_eq!(enc.encrypt_batch(&packets).unwrap(), want, "encrypt_batch on {encrypting}");
    }
    let ct_packets: Vec<Packet<'_>> = want.iter().map(|ct| Packet { nonce: &nonce, ad: &ad, msg: ct }).collect();
    {
        let dec = cipher(decrypting);
        for (m, ct) in msgs.iter().zip(&want) {
            assert_eq!(dec.decrypt(&nonce, &ad, ct).as_deref(), Ok(*m), "decrypt on {}", dec.backend());
        }
        let got = dec.decrypt_batch(&ct_packets);
        for (m, r) in msgs.iter().zip(got) {
            assert_eq!(r.as_deref(), Ok(*m), "decrypt_batch on {}", dec.backend());
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut c = Cursor::new(data);
    let sel = c.byte();
    for_variant!(sel, case, &mut c, sel as usize / 6);
});
