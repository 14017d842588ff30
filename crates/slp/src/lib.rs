//! `slicewise-slp`: shortest linear straight-line programs (XOR count) for binary matrices.
//!
//! * [`parse`]: matrix input (0/1 rows, BP format, hex bytes over GF(2^8), circulants);
//! * [`program`]: the program format of `test-vectors/slp/README.md`, parsing and verification;
//! * heuristics: [`paar`], [`bp`] (Boyar–Peralta, RNBP, A1, A2 with incremental distances),
//!   [`sxor`] (in-place s-XOR reduction), [`resynth`] (local re-synthesis), [`plateau`] (the
//!   value-set plateau walk);
//! * [`search`]: seeded, time-limited, multi-threaded restarts;
//! * [`split`]: divide and conquer along block involutions (the `split:` arms);
//! * [`portfolio`]: a bandit over algorithms and re-synthesis budgets, then polishing chains;
//! * [`auto`]: the default optimizer (`-a auto`, Python's `optimize()`): the portfolio with
//!   the arms a matrix gets, and the winner's header;
//! * [`enumerate`]: exact search by enumerating helper sets (up to 20 inputs);
//! * [`sat`]: exact search and lower bounds with CaDiCaL, the caps' bounds proven first; its
//!   parts [`sat::encode`] (the CNF and its normal form), [`sat::proof`] (the proof-directory
//!   format) and [`sat::check`] (the proof checker), over [`cnf`] (the clause store);
//! * [`exact`]: the exact search of `slicewise slp exact` and Python's `exact()`: one options
//!   struct for the method, the SAT options and the restriction to fewer columns;
//! * [`satcaps`]: caps from the restriction lemma inside the SAT encoding: the lemma, the type
//!   and the clauses;
//! * [`satwin`]: SAT-exact window re-synthesis (peephole polishing, depth-aware);
//! * [`word`]: GF(2^8) word-level programs with XOR and xtime;
//! * [`emit`]: text, in-place, JSON, Rust and C output;
//! * [`budget`]: time budgets in seconds, checked the same way by every front.
//!
//! The modules form layers: each imports only modules below it (`scripts/check-import-cycles.py
//! crates/slp` finds no circle). From the bottom: matrix, program and parsing; the heuristics and
//! [`enumerate`], [`restrict`]; [`search`]; [`cnf`], [`satcaps`], [`sat::encode`],
//! [`sat::proof`], [`sat::check`], [`sat`], [`satwin`]; [`portfolio`]; [`word`]; and the fronts
//! [`auto`] and [`exact`] that the CLI and Python call.

pub mod auto;
pub mod bp;
pub mod budget;
pub mod emit;
pub mod enumerate;
#[cfg(feature = "sat")]
pub mod exact;
pub mod matrix;
pub mod paar;
pub mod parse;
pub mod plateau;
pub mod portfolio;
pub mod program;
pub mod resynth;
pub mod restrict;
#[cfg(feature = "sat")]
pub mod cadical;
#[cfg(feature = "sat")]
pub mod cnf;
#[cfg(feature = "sat")]
pub mod sat;
#[cfg(feature = "sat")]
pub mod satwin;
#[cfg(feature = "sat")]
pub mod satcaps;
pub mod search;
pub mod split;
pub mod sxor;
pub mod trees;
pub mod word;

pub use matrix::BitMatrix;
pub use program::{Out, Program};

