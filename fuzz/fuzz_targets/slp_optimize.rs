//! `optimize` → `verify` on small random matrices: every heuristic (with and without
//! re-synthesis and a depth limit) returns a program that computes the matrix; `run_once`
//! verifies internally and panics otherwise, and the program is checked again here, also after
//! a text round trip.
//!
//! Matrices are at most 8 × 8 and one input in four asks for re-synthesis (one round): the
//! heuristics' code paths are all reached at that size, and an execution costs about a third
//! of what 10 × 10 with re-synthesis on every other input cost, which is what makes a run of
//! 10^7 executions possible in about an hour on one core.
#![no_main]

use libfuzzer_sys::fuzz_target;
use slicewise_fuzz::Cursor;
use slicewise_slp::BitMatrix;
use slicewise_slp::search::{Algorithm, run_once};
use slicewise_slp::Program;

const ALGS: [Algorithm; 8] = [
    Algorithm::Paar,
    Algorithm::RPaar,
    Algorithm::Bp,
    Algorithm::Rnbp,
    Algorithm::A1,
    Algorithm::A2,
    Algorithm::Sxor,
    Algorithm::Mix,
];

fuzz_target!(|data: &[u8]| {
    let mut c = Cursor::new(data);
    let cols = 1 + c.byte() as usize % 8;
    let rows = 1 + c.byte() as usize % 8;
    let alg = ALGS[c.byte() as usize % ALGS.len()];
    let opt = c.byte();
    let seed = c.u16() as u64;
    let mask = (1u128 << cols) - 1;
    let rows: Vec<u128> = (0..rows).map(|_| u128::from(c.u16()) & mask).collect();
    let m = BitMatrix::from_rows(cols, rows);
    let max_depth = (opt & 1 == 1).then_some(2 + (opt as usize >> 1) % 4);
    let resynth = usize::from(opt & 0xc0 == 0xc0);
    if let Some(p) = run_once(&m, alg, seed, max_depth, resynth) {
        p.verify(&m).unwrap_or_else(|e| panic!("{}: {e}", alg.name()));
        if let Some(d) = max_depth {
            assert!(p.depth() <= d, "{}: depth {} > {d}", alg.name(), p.depth());
        }
        let again = Program::parse(&p.to_text(), Some(cols)).expect("printed program parses");
        again.verify(&m).expect("printed program still computes the matrix");
    }
});
