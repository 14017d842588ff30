//! `slicewise-slp`: shortest linear straight-line programs (XOR count) for binary matrices.
//!
//! * [`parse`]: matrix input (0/1 rows, BP format, hex bytes over GF(2^8), circulants);
//! * [`program`]: the program format of `test-vectors/slp/README.md`, parsing and verification;
//! * heuristics: [`paar`], [`bp`] (Boyar–Peralta, RNBP, A1, A2 with incremental distances),
//!   [`sxor`] (in-place s-XOR reduction), [`resynth`] (local re-synthesis);
//! * [`search`]: seeded, time-limited, multi-threaded restarts;
//! * [`split`]: divide and conquer along block involutions (the `split:` arms);
//! * [`portfolio`]: the default (`-a auto`): a bandit over algorithms and re-synthesis budgets,
//!   then polishing chains;
//! * [`enumerate`]: exact search by enumerating helper sets (up to 20 inputs);
//! * [`sat`]: exact search and lower bounds with CaDiCaL;
//! * [`satcaps`]: caps from the restriction lemma inside the SAT encoding, with their proofs;
//! * [`satwin`]: SAT-exact window re-synthesis (peephole polishing, depth-aware);
//! * [`word`]: GF(2^8) word-level programs with XOR and xtime;
//! * [`emit`]: text, in-place, JSON, Rust and C output.

pub mod bp;
pub mod emit;
pub mod enumerate;
pub mod matrix;
pub mod paar;
pub mod parse;
pub mod portfolio;
pub mod program;
pub mod resynth;
pub mod restrict;
#[cfg(feature = "sat")]
pub mod cadical;
#[cfg(feature = "sat")]
pub mod sat;
#[cfg(feature = "sat")]
pub mod satwin;
#[cfg(feature = "sat")]
pub mod satcaps;
pub mod search;
pub mod split;
pub mod sxor;
pub mod word;

pub use matrix::BitMatrix;
pub use program::{Out, Program};

