//! Shared test harness: KAT loading and backend iteration. Every backend the crate knows is
//! run; one the CPU lacks is reported on stderr, never skipped silently.
#![allow(dead_code)]

use std::io::Read;
use std::path::PathBuf;

use slicewise_groestl::{Backend, Variant};

pub fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-vectors/groestl")
}

/// One `Len`/`Msg`/`MD` record of a NIST SHA-3 KAT file.
#[derive(Debug, Clone)]
pub struct Record {
    pub bits: u64,
    pub msg: Vec<u8>,
    pub md: Vec<u8>,
}

/// Reads `ShortMsgKAT_256.txt.xz` etc. from `test-vectors/groestl`.
pub fn load_kat(kind: &str, variant: Variant) -> Vec<Record> {
    let name = format!("{kind}MsgKAT_{}.txt.xz", variant.output_len() * 8);
    let path = vectors_dir().join(&name);
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut text = String::new();
    xz2::read::XzDecoder::new(file).read_to_string(&mut text).expect("decompress KAT");
    parse_kat(&text)
}

pub fn parse_kat(text: &str) -> Vec<Record> {
    let mut out = Vec::new();
    let mut bits = None;
    let mut msg = None;
    for line in text.lines() {
        let line = line.trim();
        if let Some(v) = line.strip_prefix("Len = ") {
            bits = Some(v.parse::<u64>().expect("Len"));
        } else if let Some(v) = line.strip_prefix("Msg = ") {
            msg = Some(hex::decode(v).expect("Msg hex"));
        } else if let Some(v) = line.strip_prefix("MD = ") {
            let bits = bits.take().expect("Len before MD");
            let mut msg = msg.take().expect("Msg before MD");
            // Len = 0 records carry a dummy `00` byte.
            msg.truncate(bits.div_ceil(8) as usize);
            out.push(Record { bits, msg, md: hex::decode(v).expect("MD hex") });
        }
    }
    out
}

#[path = "../../../../test-support/backend_report.rs"]
pub mod backend_report;

/// The backends this CPU can run; each skip is announced on stderr and recorded for
/// `scripts/backend-summary.sh`, and fails the test if `SLICEWISE_REQUIRE_BACKENDS` asks for it.
pub fn available_backends() -> Vec<Backend> {
    Backend::all().filter(|b| backend_report::gate("groestl", b.name(), b.is_available(), "integration test")).collect()
}

/// Bytes `i % 251`: swapping any two blocks changes the message.
pub fn paint(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i % 251) as u8).collect()
}
