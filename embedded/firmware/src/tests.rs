//! The test groups. Test data lives in flash (`vectors`); it is walked as a stream and copied to
//! RAM in small pieces (`Reader`), which also feeds the hashers in odd-sized chunks so that the
//! streaming buffer is exercised across block boundaries.
#![cfg_attr(not(all(feature = "groestl", feature = "proest")), allow(dead_code, unused_imports))]

use slicewise_groestl::digest::{FixedOutput, Update};
use slicewise_groestl::{Backend as GBackend, Groestl, Groestl256, Variant};
use slicewise_proest::modes::{Ape, Copa, Mode, Otr};
use slicewise_proest::{Backend as PBackend, Error, Permutation, Proest128, Proest256, ProestAead};

use crate::{out, platform, put_u32};

#[allow(dead_code)]
mod vectors {
    include!(concat!(env!("OUT_DIR"), "/vectors.rs"));
}
use vectors::*;

/// Pass/fail counts of one group of checks.
pub(crate) struct Tally {
    pub pass: u32,
    pub fail: u32,
}

impl Tally {
    pub fn new() -> Tally {
        Tally { pass: 0, fail: 0 }
    }

    /// Records one check; a failure is printed with its group and record index.
    pub fn check(&mut self, ok: bool, what: &str, index: u32) {
        if ok {
            self.pass += 1;
        } else {
            self.fail += 1;
            if self.fail <= 8 {
                out("  FAIL ");
                out(what);
                out(" #");
                put_u32(index);
                out("\n");
            }
        }
    }

    /// Prints `name [extra]: N passed, M failed` and folds the counts into `total`.
    pub fn report(self, name: &str, extra: &str, total: &mut Tally) {
        out(name);
        out(" [");
        out(extra);
        out("]: ");
        put_u32(self.pass);
        out(" passed, ");
        put_u32(self.fail);
        out(" failed\n");
        total.pass += self.pass;
        total.fail += self.fail;
    }
}

/// Runs every group and prints the verdict: `RESULT: PASS` or `RESULT: FAIL`.
pub(crate) fn run() -> ! {
    let mut total = Tally::new();
    all(&mut total);
    out("total: ");
    put_u32(total.pass);
    out(" passed, ");
    put_u32(total.fail);
    out(" failed\n");
    let pass = total.fail == 0 && total.pass > 0;
    out(if pass { "RESULT: PASS\n" } else { "RESULT: FAIL\n" });
    platform::finish(pass)
}

/// Bytes fed to a hasher per `update` call: not a divisor of the block length.
const CHUNK: usize = 50;

/// A cursor over one test-data object in flash.
struct Reader {
    data: &'static [u8],
    pos: usize,
}

impl Reader {
    fn new(data: &'static [u8]) -> Reader {
        Reader { data, pos: 0 }
    }

    fn take(&mut self, n: usize) -> &'static [u8] {
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        s
    }

    fn u16(&mut self) -> usize {
        let mut b = [0u8; 2];
        platform::rom_copy(self.take(2), &mut b);
        usize::from(u16::from_le_bytes(b))
    }
}

/// Whether flash bytes `rom` equal `ram`.
fn rom_eq(rom: &'static [u8], ram: &[u8]) -> bool {
    let mut buf = [0u8; 16];
    rom.len() == ram.len()
        && rom.chunks(16).zip(ram.chunks(16)).all(|(r, m)| {
            platform::rom_copy(r, &mut buf[..r.len()]);
            buf[..r.len()] == *m
        })
}

/// Feeds flash bytes to a hasher in `CHUNK`-byte pieces.
fn update_from_rom(h: &mut Groestl, mut msg: &'static [u8]) {
    let mut buf = [0u8; CHUNK];
    while !msg.is_empty() {
        let n = msg.len().min(CHUNK);
        platform::rom_copy(&msg[..n], &mut buf[..n]);
        h.update(&buf[..n]);
        msg = &msg[n..];
    }
}

/// One Grøstl KAT stream (`GROESTL_SHORT` or `GROESTL_LONG`): every record, every size.
fn groestl_kat(backend: GBackend, data: &'static [u8], count: u16, name: &str, total: &mut Tally) {
    let mut t = Tally::new();
    let mut r = Reader::new(data);
    let mut one = [0u8; BUF];
    for i in 0..u32::from(count) {
        let bits = r.u16();
        let msg = r.take(bits.div_ceil(8));
        let (whole, rest) = msg.split_at(bits / 8);
        let mut last = [0u8; 1];
        platform::rom_copy(rest, &mut last[..rest.len()]);
        for v in Variant::ALL {
            let md = r.take(v.output_len());
            let mut h = Groestl::with_backend(v, backend).expect("backend is available");
            update_from_rom(&mut h, whole);
            let mut out = [0u8; 64];
            h.finalize_bits_into_reset(last[0], (bits % 8) as u32, &mut out);
            t.check(rom_eq(md, &out[..v.output_len()]), v.name(), i);
            if v == Variant::Groestl256 && bits % 8 == 0 && whole.len() <= BUF {
                // The fixed-size hasher with the whole message in one `update`: whole blocks
                // straight from the caller's buffer (`mcu-small` on AVR: the block buffer as
                // the kernel's state, the padding-only last block generated).
                platform::rom_copy(whole, &mut one[..whole.len()]);
                let mut h = Groestl256::with_backend(backend).expect("backend is available");
                h.update(&one[..whole.len()]);
                t.check(rom_eq(md, &h.finalize_fixed()), "groestl-256 one update", i);
            }
        }
    }
    t.report(name, backend.name(), total);
}

/// Groestlcoin: Grøstl-512 of the data, Grøstl-512 of that, first 32 bytes; on `backend`
/// through the streaming hasher, and for the default backend also through `groestlcoin_hash`.
fn groestlcoin(backend: GBackend, total: &mut Tally) {
    let mut t = Tally::new();
    let mut r = Reader::new(&GROESTLCOIN);
    let mut buf = [0u8; BUF];
    for i in 0..u32::from(GROESTLCOIN_COUNT) {
        let len = r.u16();
        let data = r.take(len);
        let want = r.take(32);
        let mut h = Groestl::with_backend(Variant::Groestl512, backend).expect("available");
        update_from_rom(&mut h, data);
        let mut first = [0u8; 64];
        h.finalize_into_reset(&mut first);
        h.update(&first);
        let mut second = [0u8; 64];
        h.finalize_into_reset(&mut second);
        t.check(rom_eq(want, &second[..32]), "groestlcoin", i);
        if backend == GBackend::detect() {
            platform::rom_copy(data, &mut buf[..len]);
            t.check(rom_eq(want, &slicewise_groestl::groestlcoin_hash(&buf[..len])), "groestlcoin_hash", i);
        }
    }
    t.report("groestlcoin", backend.name(), total);
}

fn counting(buf: &mut [u8]) -> &[u8] {
    for (i, b) in buf.iter_mut().enumerate() {
        *b = i as u8;
    }
    buf
}

/// The AEAD vectors of one variant: `encrypt_into` must give the KAT ciphertext,
/// `decrypt_into` the plaintext, and the ciphertext with one bit flipped (a different bit
/// per vector, tag and body alike) must be rejected with `Error::Authentication` and a wiped
/// output buffer.
fn proest_kat<M: Mode>(backend: PBackend, data: &'static [u8], count: u16, total: &mut Tally) {
    let mut t = Tally::new();
    let (mut key, mut nonce) = ([0u8; 64], [0u8; 64]);
    let key = counting(&mut key[..M::KEY_LEN]);
    let nonce = counting(&mut nonce[..M::NONCE_LEN]);
    let aead = ProestAead::<M>::with_backend(key, backend).expect("available");
    let (mut ad, mut pt, mut ct, mut back) = ([0u8; BUF], [0u8; BUF], [0u8; BUF], [0u8; BUF]);
    let mut r = Reader::new(data);
    for i in 0..u32::from(count) {
        let (ad_len, pt_len) = (r.u16(), r.u16());
        let ct_len = ProestAead::<M>::ciphertext_len(pt_len).expect("short");
        let want = r.take(ct_len);
        let ad = counting(&mut ad[..ad_len]);
        let pt = counting(&mut pt[..pt_len]);
        let n = aead.encrypt_into(nonce, ad, pt, &mut ct);
        t.check(n == Ok(ct_len) && rom_eq(want, &ct[..ct_len]), "encrypt", i);
        platform::rom_copy(want, &mut ct[..ct_len]);
        let m = aead.decrypt_into(nonce, ad, &ct[..ct_len], &mut back);
        t.check(m == Ok(pt_len) && back[..pt_len] == *pt, "decrypt", i);
        let bit = (i as usize * 13) % (8 * ct_len);
        ct[bit / 8] ^= 1 << (bit % 8);
        back.fill(0xa5);
        let bad = aead.decrypt_into(nonce, ad, &ct[..ct_len], &mut back);
        let max = ProestAead::<M>::max_plaintext_len(ct_len).expect("valid length");
        t.check(bad == Err(Error::Authentication) && back[..max].iter().all(|&b| b == 0), "tampered", i);
    }
    t.report(M::ALGORITHM, backend.name(), total);
}

/// P and P⁻¹ on the permutation file's states, and P¹⁰⁰⁰ of its last state.
fn permutation<P: Permutation>(backend: PBackend, data: &'static [u8], count: u16, pow: &'static [u8], total: &mut Tally) {
    let mut t = Tally::new();
    let p = P::with_backend(backend).expect("available");
    let n = P::STATE_BYTES;
    let mut r = Reader::new(data);
    let (mut input, mut s) = ([0u8; 64], [0u8; 64]);
    for i in 0..u32::from(count) {
        platform::rom_copy(r.take(n), &mut input[..n]);
        s[..n].copy_from_slice(&input[..n]);
        p.permute_bytes(&mut s[..n]);
        t.check(rom_eq(r.take(n), &s[..n]), "P", i);
        s[..n].copy_from_slice(&input[..n]);
        p.inverse_bytes(&mut s[..n]);
        t.check(rom_eq(r.take(n), &s[..n]), "P^-1", i);
    }
    let mut r = Reader::new(pow);
    while r.pos < pow.len() {
        platform::rom_copy(r.take(n), &mut s[..n]);
        for _ in 0..1000 {
            p.permute_bytes(&mut s[..n]);
        }
        t.check(rom_eq(r.take(n), &s[..n]), "P^1000", 0);
    }
    t.report(P::NAME, backend.name(), total);
}

pub(crate) fn all(total: &mut Tally) {
    out("slicewise on-target KAT\n");
    #[cfg(feature = "groestl")]
    for b in GBackend::all().filter(|b| b.is_available()) {
        groestl_kat(b, &GROESTL_SHORT, GROESTL_SHORT_COUNT, "groestl short KAT", total);
        groestl_kat(b, &GROESTL_LONG, GROESTL_LONG_COUNT, "groestl long KAT", total);
        groestlcoin(b, total);
    }
    #[cfg(feature = "proest")]
    for b in PBackend::available() {
        permutation::<Proest128>(b, &PERM128, PERM128_COUNT, &PERM128_POW1000, total);
        permutation::<Proest256>(b, &PERM256, PERM256_COUNT, &PERM256_POW1000, total);
        proest_kat::<Ape<Proest128>>(b, &APE128, APE128_COUNT, total);
        proest_kat::<Copa<Proest128>>(b, &COPA128, COPA128_COUNT, total);
        proest_kat::<Otr<Proest128>>(b, &OTR128, OTR128_COUNT, total);
        proest_kat::<Ape<Proest256>>(b, &APE256, APE256_COUNT, total);
        proest_kat::<Copa<Proest256>>(b, &COPA256, COPA256_COUNT, total);
        proest_kat::<Otr<Proest256>>(b, &OTR256, OTR256_COUNT, total);
    }
}
