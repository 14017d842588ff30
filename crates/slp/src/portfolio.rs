//! The default of `slicewise slp optimize` (`-a auto`): a time-aware portfolio.
//!
//! Two phases share one budget:
//!
//! 1. **Explore.** Random restarts over a set of *arms*, each an algorithm (A2, A1, RNBP,
//!    s-XOR) with a local re-synthesis budget chosen from the matrix size
//!    ([`default_arms`]), and for matrices over GF(2^8) the same at word level
//!    ([`word_arms`]; the caller's generator runs them). A bandit gives more runs to the arms whose programs come closest to
//!    the best count so far, per unit of (estimated) cost. The best few distinct programs are
//!    kept.
//!    With split arms ([`split_arms`]) their best programs are kept apart as well.
//! 2. **Polish.** Chains of window re-synthesis rounds ([`Polisher`]) start from those programs
//!    (alternately from the best split programs, see `chain_starts`). A chain that falls behind
//!    and stops improving continues from the leading chain's best program with a fresh seed, so
//!    the chains end up walking around the best program in parallel. With
//!    [`PortfolioOptions::refill_idle`] (the default under a depth bound, against the clock),
//!    idle chains other than the leading one continue from fresh exploration runs instead.
//!
//! **Reproducibility.** With `runs`, the arm of run `r` is a function of the seed, `r` and the
//! results of runs `0 .. r - LAG` only (the workers wait for those; against the clock under a
//! depth bound they do not, and the bandit uses the results in hand), and the polish phase proceeds in
//! epochs of a fixed number of rounds per chain whose decisions depend only on the chains'
//! results. So with `runs` (and `polish_rounds`) and no time limit the whole portfolio is a
//! function of the seed, for any number of threads. With a time limit, which runs and rounds
//! complete depends on the clock, but the winning program is always one run
//! (`arm`, `run seed`) followed by polish segments (`polish seed`, `rounds`), each continuing
//! from the end of the one before (one segment, or more when the winning chain descends from
//! another chain's best), and [`crate::search::run_once`] + [`polish_segments`]
//! repeat exactly that ([`PortfolioReport::winner`]).
//!
//! **Plugging in another polisher.** Implement [`Polisher`] and add it to
//! [`default_polishers`]: round `r` of a chain uses polisher `r mod len`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::matrix::BitMatrix;
use crate::program::Program;
use crate::resynth::{ResynthOptions, resynth};
use crate::search::Algorithm;

/// Runs whose results the choice of run `r` may not use (`r - LAG ..= r - 1`): lets the workers
/// run ahead without waiting, while the schedule stays a function of run indices.
pub const LAG: u64 = 16;
/// Warm-up: the first `WARMUP * arms` runs cycle through the arms.
const WARMUP: u64 = 4;
/// Probability of a uniformly random arm after the warm-up.
const EPSILON: f64 = 0.1;
/// With a time limit, exploring may stop for stalling after this fraction of it.
const STALL_MIN_FRACTION: f64 = 0.2;
/// Polish rounds per chain and epoch.
pub const SLICE: u64 = 8;
/// Cost of one s-XOR run in heuristic passes ([`Arm::cost`]).
const SXOR_COST: f64 = 60.0;
/// Cost of one run of the tree annealer ([`crate::trees`]) in heuristic passes: set when a run
/// took about 3 s on AES MixColumns at depth 3 (Zen 5, loaded) against about 5 ms for an A2 run
/// with 300 re-synthesis iterations (cost 2); since its values are interned, 0.8 s (Zen 4).
const TREES_COST: f64 = 1000.0;
/// Cost of one trees-walk run ([`Algorithm::TreesWalk`]): about 40 s on AES MixColumns at depth
/// 4 (Zen 4: 10 s of trees, 30 s of walk).
const TREES_WALK_COST: f64 = 13_000.0;
/// Smallest matrices with split arms: on 16×16 matrices they cost more than they bring
/// (FSE_SKOP15_4x4_4 45 and FSE_LiWang16_i_4x4_4 44 with them, 44 and 43 without, 15 s).
pub const SPLIT_MIN_DIM: usize = 32;
/// Share of the exact windows without a shorter program that move on the plateau
/// ([`ExactWindowPolisher::plateau`]) up to 16×16 matrices; [`default_plateau`] gives the
/// default for a size. Programs made before the share depended on the size repeat with it.
pub const PLATEAU: f64 = 0.5;

/// One arm of the portfolio: a heuristic and the local re-synthesis applied to each run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arm {
    /// The heuristic (not `Mix`).
    pub algorithm: Algorithm,
    /// Re-synthesis iterations per run (`--resynth`).
    pub resynth: usize,
    /// Word level (`--word-level --expand`): the heuristic and re-synthesis work on the binary
    /// layers of the matrix over GF(2^8), and the run's program is the expanded word program.
    pub word: bool,
    /// Split along block involutions first (`--split`, [`crate::search::run_split`]).
    pub split: bool,
}

impl Arm {
    /// A bit-level arm.
    pub fn bits(algorithm: Algorithm, resynth: usize) -> Self {
        Arm { algorithm, resynth, word: false, split: false }
    }

    /// `a1+resynth300`, `word:a2+resynth300`, `split:rnbp+resynth500`.
    pub fn name(&self) -> String {
        let base = if self.resynth > 0 { format!("{}+resynth{}", self.algorithm.name(), self.resynth) } else { self.algorithm.name().to_string() };
        if self.word {
            format!("word:{base}")
        } else if self.split {
            format!("split:{base}")
        } else {
            base
        }
    }

    /// The flags that run this arm alone: `-a a1 --resynth 300` (and `--word-level --expand`
    /// or `--split`).
    pub fn flags(&self) -> String {
        let prefix = if self.word {
            "--word-level --expand "
        } else if self.split {
            "--split "
        } else {
            ""
        };
        format!("{prefix}-a {} --resynth {}", self.algorithm.name(), self.resynth)
    }

    /// Deterministic cost estimate of one run, in units of one heuristic pass. An s-XOR run
    /// (greedy decomposition, rules and 300–400 window re-syntheses) costs about 60 BP passes
    /// (measured on AES MixColumns and FSE_SKOP15_i_4x4_4).
    pub fn cost(&self) -> f64 {
        let base = match self.algorithm {
            Algorithm::Sxor => SXOR_COST,
            Algorithm::Trees => TREES_COST,
            Algorithm::TreesWalk => TREES_WALK_COST,
            _ => 1.0,
        };
        base + self.resynth as f64 / 300.0
    }
}

/// The arms for a matrix of `rows`×`cols`, each with a small and a large re-synthesis budget:
/// A2, A1, RNBP, and for invertible square matrices the s-XOR of Xiang et al. up to 32×32 and
/// the row-only s-XOR greedy up to 16×16 (it found the 43-XOR MixSlices program). Larger
/// matrices get smaller budgets, because a heuristic pass costs more relative to the budget's
/// benefit. Above 32×32 an s-XOR run costs seconds and loses to BP (Khazad: about 780 against
/// 490 after 20 s), so it is left out.
pub fn default_arms(rows: usize, cols: usize, invertible: bool) -> Vec<Arm> {
    let n = rows.max(cols);
    let (lo, hi) = match n {
        0..=16 => (300, 1000),
        17..=32 => (300, 800),
        33..=64 => (200, 500),
        _ => (100, 200),
    };
    let mut algs = vec![Algorithm::A2, Algorithm::A1, Algorithm::Rnbp];
    if invertible && rows == cols && n <= 16 {
        algs.push(Algorithm::SxorRows);
    }
    if invertible && rows == cols && n <= 32 {
        algs.push(Algorithm::Sxor);
    }
    let mut arms = Vec::new();
    for r in [lo, hi] {
        for &a in &algs {
            arms.push(Arm::bits(a, r));
        }
    }
    arms
}

/// The split arms ([`crate::split`]) for `m`: A2 and RNBP leaves with the small re-synthesis
/// budget of [`default_arms`], if `m` is at least [`SPLIT_MIN_DIM`] wide or high and splits at
/// least two levels deep ([`crate::split::split_levels`]; none otherwise). The leaves of a
/// full split are small, so the algorithm matters little, and re-synthesis rarely shortens a
/// split program (its windows are runs of consecutive gates); the polish chains do.
pub fn split_arms(m: &BitMatrix) -> Vec<Arm> {
    if m.rows().max(m.cols()) < SPLIT_MIN_DIM || crate::split::split_levels(m) < 2 {
        return Vec::new();
    }
    let lo = default_arms(m.rows(), m.cols(), false).iter().map(|a| a.resynth).min().unwrap_or(0);
    [Algorithm::A2, Algorithm::Rnbp].into_iter().map(|a| Arm { split: true, ..Arm::bits(a, lo) }).collect()
}

/// The word-level arms for a matrix over GF(2^8) whose Horner scheme has `layer_rows` binary
/// rows (rows × layers) over `cols` byte inputs: [`default_arms`] of that binary matrix, as
/// word arms. With `few`, only A2 and RNBP with the small re-synthesis budget: beside the
/// bit-level arms of a small matrix (AES MixColumns: the word arms stop at 108 against 95 for
/// BP), each extra arm the bandit keeps trying costs runs.
pub fn word_arms(layer_rows: usize, cols: usize, few: bool) -> Vec<Arm> {
    let arms: Vec<Arm> = default_arms(layer_rows, cols, false).into_iter().map(|a| Arm { word: true, ..a }).collect();
    let lo = arms.iter().map(|a| a.resynth).min().unwrap_or(0);
    arms.into_iter().filter(|a| !few || (a.resynth == lo && matches!(a.algorithm, Algorithm::A2 | Algorithm::Rnbp))).collect()
}

/// A polishing step: one round on a program. The chain keeps the result only when it is
/// shorter (and checks it against the matrix), so a round may return anything that computes
/// the same matrix.
pub trait Polisher: Send + Sync {
    /// Name for headers and reports.
    fn name(&self) -> String;
    /// One round on `p` (which computes `m`), with its own seed.
    fn round(&self, p: &Program, m: &BitMatrix, seed: u64, max_depth: Option<usize>) -> Program;
    /// Whether the chain also takes an equally long result (to keep moving on the plateau).
    fn keeps_equal(&self) -> bool {
        false
    }
}

/// Window re-synthesis ([`resynth`]): 200 windows of up to `window` gates, 4 BP tries each.
#[derive(Debug, Clone, Copy)]
pub struct WindowPolisher {
    /// Largest window (gates).
    pub window: usize,
    /// Walk on across rounds: a round returns where its walk ends when that is as short as
    /// the best program it saw ([`ResynthOptions::walk`]), and the chain keeps equally long
    /// results ([`Polisher::keeps_equal`]). Without it a round that finds nothing shorter
    /// leaves the chain where it was, and the moves it made on the plateau are lost.
    pub walk: bool,
}

impl Polisher for WindowPolisher {
    fn name(&self) -> String {
        format!("window{}{}", self.window, if self.walk { "-walk" } else { "" })
    }
    fn keeps_equal(&self) -> bool {
        self.walk
    }
    fn round(&self, p: &Program, _m: &BitMatrix, seed: u64, max_depth: Option<usize>) -> Program {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        resynth(p, &ResynthOptions { iterations: 200, max_window: self.window, tries: 4, max_depth, walk: self.walk }, &mut rng)
    }
}

/// Exact window re-synthesis: one round is `windows` windows of [`crate::satwin`] (convex,
/// up to 10 gates and 8 inputs, or with probability `small` per round up to 8 gates and 6
/// inputs) solved by helper-set enumeration ([`crate::enumerate`]) with a
/// deterministic node budget; a window is replaced by its shortest program, or at random by an
/// equally long one (moves on the plateau); with a depth bound, a found program is kept only
/// when it meets the window's depths. The round returns where its walk ends
/// ([`crate::satwin::sat_walk`]), and the chain keeps equally long results of this polisher
/// ([`Polisher::keeps_equal`]), so the walk goes on across rounds: that is what finds the
/// shortenings (one continuous walk beats many short ones from the same start).
#[cfg(feature = "sat")]
#[derive(Debug, Clone, Copy)]
pub struct ExactWindowPolisher {
    /// Windows per round.
    pub windows: u64,
    /// Probability that a round uses small windows (at most [`SMALL_WINDOW`] gates and
    /// [`SMALL_WINDOW_INPUTS`] inputs). Their node budget goes further, so the walk moves
    /// faster; the large windows find the longer rewrites. 0: every round uses the large
    /// windows, and the round draws nothing extra from its generator (programs made before
    /// this existed repeat with it).
    pub small: f64,
    /// Probability that a window with no shorter program is replaced by a random equally long
    /// one (a move on the plateau; [`crate::satwin::SatWinOptions::plateau`]).
    pub plateau: f64,
}

/// Gates of a small exact window ([`ExactWindowPolisher::small`]).
pub const SMALL_WINDOW: usize = 8;
/// Inputs of a small exact window.
pub const SMALL_WINDOW_INPUTS: usize = 6;

#[cfg(feature = "sat")]
impl Polisher for ExactWindowPolisher {
    fn name(&self) -> String {
        "exact-windows".into()
    }
    fn keeps_equal(&self) -> bool {
        true
    }
    fn round(&self, p: &Program, m: &BitMatrix, seed: u64, max_depth: Option<usize>) -> Program {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut opts =
            crate::satwin::SatWinOptions { rounds: Some(self.windows), enumerate: true, max_depth, plateau: self.plateau, ..Default::default() };
        if self.small > 0.0 && rng.random_bool(self.small.min(1.0)) {
            opts.max_window = SMALL_WINDOW;
            opts.max_inputs = SMALL_WINDOW_INPUTS;
        }
        crate::satwin::sat_walk(p, m, &opts, &mut rng)
    }
}

/// Which polishers a chain uses ([`default_polishers`]); the CLI's `--window`,
/// `--no-exact-windows`, `--small-windows` and `--plateau`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PolishConfig {
    /// Largest BP window (gates).
    pub window: usize,
    /// Rounds of exact re-synthesis of small windows between the BP rounds.
    pub exact: bool,
    /// Share of the exact rounds that use the smaller windows ([`ExactWindowPolisher::small`]).
    pub small_windows: f64,
    /// Share of the exact windows without a shorter program that move on the plateau
    /// ([`ExactWindowPolisher::plateau`]).
    pub plateau: f64,
    /// The BP rounds walk on across rounds ([`WindowPolisher::walk`]).
    pub bp_walk: bool,
    /// Moves of a plateau-walk round ([`WalkPolisher`]) after each exact round; 0: none.
    pub walk_moves: u64,
}

impl Default for PolishConfig {
    fn default() -> Self {
        PolishConfig { window: 48, exact: true, small_windows: 0.5, plateau: PLATEAU, bp_walk: false, walk_moves: 0 }
    }
}

impl PolishConfig {
    /// The defaults for a `rows`×`cols` matrix: [`default_window`], exact windows with
    /// [`default_plateau`], BP rounds that walk on by [`default_bp_walk`], plateau-walk rounds
    /// by [`default_walk_polish`].
    pub fn for_size(rows: usize, cols: usize) -> Self {
        PolishConfig {
            window: default_window(rows, cols),
            plateau: default_plateau(rows, cols),
            bp_walk: default_bp_walk(rows, cols),
            walk_moves: default_walk_polish(rows, cols),
            ..PolishConfig::default()
        }
    }
}

/// The polishers of `--polish` and of the portfolio's polish phase. Round `r` of a chain uses
/// entry `r mod len`: BP window re-synthesis with windows of up to `c.window` gates, and, with
/// `c.exact` (the default; `--no-exact-windows` turns it off), exact re-synthesis of small
/// windows. Another polisher is one more `Box::new(...)` here.
pub fn default_polishers(c: &PolishConfig) -> Vec<Box<dyn Polisher>> {
    // Only the `sat` feature adds the exact rounds.
    #[cfg_attr(not(feature = "sat"), allow(unused_mut))]
    let mut v: Vec<Box<dyn Polisher>> = vec![Box::new(WindowPolisher { window: c.window.max(3), walk: c.bp_walk })];
    #[cfg(feature = "sat")]
    if c.exact {
        v.push(Box::new(ExactWindowPolisher { windows: 2000, small: c.small_windows, plateau: c.plateau }));
    }
    if c.walk_moves > 0 {
        v.push(Box::new(WalkPolisher { moves: c.walk_moves }));
    }
    v
}

/// A round of the value-set plateau walk ([`crate::plateau::walk`]): `moves` moves from the
/// chain's program, returning where the walk ends (as short as the best it saw, since a move
/// never lengthens the program) so that the chain goes on from another point of the plateau.
/// The window polishers rewrite a few gates at a time; a walk move can replace a value that
/// many outputs share, so the two reach different programs. Matrices of more than 128 columns
/// are left as they are (the walk holds values as 128-bit rows).
#[derive(Debug, Clone, Copy)]
pub struct WalkPolisher {
    /// Moves per round.
    pub moves: u64,
}

impl Polisher for WalkPolisher {
    fn name(&self) -> String {
        format!("walk{}", self.moves)
    }
    fn keeps_equal(&self) -> bool {
        true
    }
    fn round(&self, p: &Program, m: &BitMatrix, seed: u64, max_depth: Option<usize>) -> Program {
        if m.cols() > 128 {
            return p.clone();
        }
        let o = crate::plateau::WalkOptions { iters: Some(self.moves), max_depth, target: None, end: true, remove: 1, cone: false, uphill: 0.0 };
        crate::plateau::walk(m, p, &o, seed, None, &mut |_| {}).0
    }
}

/// A chain of polish rounds: round `r` uses seed `seed + r`.
#[derive(Debug, Clone)]
pub struct Chain {
    /// Seed of round 0.
    pub seed: u64,
    /// Best program so far.
    pub best: Program,
    /// Rounds done.
    pub rounds: u64,
    /// Rounds after which `best` was reached (repeat with `--polish-rounds`).
    pub rounds_to_best: u64,
    /// Count of the starting program.
    pub start_count: usize,
    /// Index of the starting program among the portfolio's candidates.
    pub start: usize,
    /// The polish segments `(seed, rounds)` that lead from that starting program to this
    /// chain's own starting program (empty for a chain from a run's program).
    pub lineage: Vec<(u64, u64)>,
    /// Epoch of the last improvement.
    last_improved: u64,
}

impl Chain {
    /// A chain starting at `p`.
    pub fn new(p: Program, seed: u64, start: usize) -> Self {
        Chain { seed, start_count: p.xor_count(), best: p, rounds: 0, rounds_to_best: 0, start, lineage: Vec::new(), last_improved: 0 }
    }

    /// A chain that continues from `lead`'s best program with its own `seed`.
    pub fn descend(lead: &Chain, seed: u64) -> Self {
        Chain { lineage: lead.segments(), ..Chain::new(lead.best.clone(), seed, lead.start) }
    }

    /// The polish segments from the starting program of [`Chain::start`] to [`Chain::best`].
    pub fn segments(&self) -> Vec<(u64, u64)> {
        let mut v = self.lineage.clone();
        if self.rounds_to_best > 0 {
            v.push((self.seed, self.rounds_to_best));
        }
        v
    }

    /// One round: its result replaces `best` when shorter (or equally long and different, for a
    /// polisher that [`Polisher::keeps_equal`]). Panics if a polisher returns a program that
    /// does not compute `m`.
    pub fn step(&mut self, m: &BitMatrix, polishers: &[Box<dyn Polisher>], max_depth: Option<usize>) {
        let r = self.rounds;
        let pol = &polishers[(r % polishers.len() as u64) as usize];
        let mut q = pol.round(&self.best, m, self.seed.wrapping_add(r), max_depth);
        self.rounds += 1;
        let count_ok = q.xor_count() < self.best.xor_count() || (pol.keeps_equal() && q.xor_count() == self.best.xor_count() && q.ops != self.best.ops);
        if count_ok && max_depth.is_none_or(|d| q.depth() <= d) {
            if let Err(e) = q.verify(m) {
                panic!("internal error: polisher {} produced a wrong program: {e}", pol.name());
            }
            q.meta = self.best.meta.clone();
            self.best = q;
            self.rounds_to_best = self.rounds;
        }
    }
}

/// Options of [`portfolio`].
pub struct PortfolioOptions {
    /// Worker threads.
    pub threads: usize,
    /// Seed; run `r`'s arm is chosen with it and the run itself uses seed `seed + r`.
    pub seed: u64,
    /// Overall time limit (explore and polish).
    pub time_limit: Option<Duration>,
    /// Exploration runs (without a time limit: exactly this many).
    pub runs: Option<u64>,
    /// Polish rounds over all chains (default with `runs`: two thirds of `runs`, at least one
    /// epoch per chain).
    pub polish_rounds: Option<u64>,
    /// Seconds of the time limit reserved for polishing (default: `polish_fraction`).
    pub polish_time: Option<Duration>,
    /// Fraction of the time limit for polishing.
    pub polish_fraction: f64,
    /// Depth bound.
    pub max_depth: Option<usize>,
    /// The arms.
    pub arms: Vec<Arm>,
    /// The polishers.
    pub polishers: Vec<Box<dyn Polisher>>,
    /// Polish chains (independent of the thread count, for reproducibility).
    pub chains: usize,
    /// Refills (clock-bound polishing only; `None`: none): a chain other than the leading one
    /// that has not improved for this long continues from a fresh exploration run's program
    /// (see [`portfolio`]).
    pub refill_idle: Option<Duration>,
    /// Set to `true` (from another thread, a signal watcher) to end the search early: exploring
    /// and polishing end as at the time limit (a run or polish round under way completes), and
    /// the best program so far is the winner, with its usual recipe.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl std::fmt::Debug for PortfolioOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PortfolioOptions")
            .field("threads", &self.threads)
            .field("seed", &self.seed)
            .field("time_limit", &self.time_limit)
            .field("runs", &self.runs)
            .field("polish_rounds", &self.polish_rounds)
            .field("polish_time", &self.polish_time)
            .field("polish_fraction", &self.polish_fraction)
            .field("max_depth", &self.max_depth)
            .field("arms", &self.arms.iter().map(Arm::name).collect::<Vec<_>>())
            .field("polishers", &self.polishers.iter().map(|p| p.name()).collect::<Vec<_>>())
            .field("chains", &self.chains)
            .field("refill_idle", &self.refill_idle)
            .field("cancel", &self.cancel)
            .finish()
    }
}

/// The default largest BP polish window (gates) for a matrix: 24 up to 32×32, 48 above. A
/// round re-synthesizes 200 windows of 3 to that many gates; on a 16×16 matrix (programs of
/// about 40 gates) a 48-gate window is the whole program, and on 32×32 (programs of about 90
/// to 180 gates) 24-gate windows run 1.6–1.7× as many rounds in the same time
/// (FSE_SKOP15_8x8_4, AES, Whirlwind_M1). Measured on the public benchmark (Zen 5, defaults,
/// default seed, the two settings in the same session; docs/slp-history.md): on its 24 16×16 matrices
/// two counts lower and none higher; on its 28 32×32 matrices nine lower and two higher, the
/// sum 3110 → 3083. On 64×64 matrices (split programs of about 510 gates that polish down to
/// about 355) windows of 24, 32 and 64 gates did worse than 48 (FSE_SKOP15_i_8x8_8, 60 s).
pub fn default_window(rows: usize, cols: usize) -> usize {
    if rows.max(cols) <= 32 { 24 } else { 48 }
}

/// The default share of plateau moves of the exact windows for a matrix: [`PLATEAU`] (½) up to
/// 16×16, 0.8 above. Measured on the Zen 5 with polish chains from fixed starting programs
/// (`--start P --polish S --seed 1..6`, the two shares in the same session; docs/slp-history.md):
/// the mean count after 30 s went from 376.8 to 364.7 on Khazad and from 352.8 to 348.0 on
/// M_i_8_8, after 40 s from 359.0 to 355.1 on FSE_SKOP15_i_8x8_8 (shares of 0.9 and 1 gave
/// 357.4, a quarter 367.9), and after 10 s from 179.0 to 175.8 on Whirlwind_M0 and from
/// 171.3 to 168.8 on FSE_SKOP15_8x8_4. On the benchmark's 64×64 matrices (defaults, 60 s) the
/// sum went from 4846 to 4830, on its 32×32 ones (15 s) from 3084 to 3080. The 16×16 programs
/// (about 40 gates) were not measured and keep ½.
pub fn default_plateau(rows: usize, cols: usize) -> f64 {
    if rows.max(cols) <= 16 { PLATEAU } else { 0.8 }
}

/// Whether the BP polish rounds walk on across rounds by default ([`WindowPolisher::walk`]):
/// above 32×32. Measured on the Zen 5 (docs/slp-history.md): eight single chains of 40 s from one split
/// program of FSE_SKOP15_i_8x8_8 (`--start P --polish 40 --seed 1..8`) ended at 353.4 on
/// average with the walk and 359.25 without, seven of the eight lower; on the benchmark's 12
/// 64×64 matrices (defaults, 60 s, the two settings in the same session) the sum went from
/// 4822 to 4817 (7 lower, 4 higher). On its 28 32×32 matrices (15 s) it went from 3077 to
/// 3088 (9 lower, 7 higher, FSE_SKOP15_i_8x8_4 170 → 181), so 32×32 and smaller programs keep
/// the rounds as they were.
pub fn default_bp_walk(rows: usize, cols: usize) -> bool {
    rows.max(cols) > 32
}

/// Moves of a plateau-walk polish round by default ([`WalkPolisher`], `--walk-polish`): 1 000
/// up to 32×32, none above (not measured there). On AES MixColumns such a round takes about
/// 60 ms, some twice a BP or exact round (60 s chains from one program: 1 527 rounds with walk
/// rounds, 2 154 without). Measured in issue 33 (docs/slp-history.md): with it, the defaults
/// reached AES MixColumns' 88 within 600 s (seeds 0, 1 and 2), and on the benchmark's 16×16 and
/// 32×32 matrices (15 s each) they were better on 14 and worse on 4 (by 1) than without, the two
/// runs made one after the other on the same machine.
pub fn default_walk_polish(rows: usize, cols: usize) -> u64 {
    if rows.max(cols) <= 32 { 1000 } else { 0 }
}

impl PortfolioOptions {
    /// Defaults for `m`: [`default_arms`], [`default_polishers`] of [`PolishConfig::for_size`],
    /// 4 chains, the last 40 % of the time for polishing.
    pub fn for_matrix(m: &BitMatrix) -> Self {
        PortfolioOptions {
            threads: 1,
            seed: 0,
            time_limit: None,
            runs: Some(64),
            polish_rounds: None,
            polish_time: None,
            polish_fraction: 0.4,
            max_depth: None,
            arms: default_arms(m.rows(), m.cols(), m.is_invertible()),
            polishers: default_polishers(&PolishConfig::for_size(m.rows(), m.cols())),
            chains: 4,
            refill_idle: None,
            cancel: None,
        }
    }
}

/// What one arm did.
#[derive(Debug, Clone)]
pub struct ArmReport {
    /// The arm.
    pub arm: Arm,
    /// Runs given to it.
    pub runs: u64,
    /// Its best count (None: no program, e.g. under a depth bound).
    pub best: Option<usize>,
}

/// How the winning program arises: one run, then polish segments.
#[derive(Debug, Clone)]
pub struct Winner {
    /// The arm of the run.
    pub arm: Arm,
    /// The run's seed (`--seed S --runs 1` with [`Arm::flags`]).
    pub run_seed: u64,
    /// The polish segments `(seed, rounds)` that lead from the run's program to the winner,
    /// each continuing from the end of the one before (`--polish-seed S1,S2
    /// --polish-rounds R1,R2`; empty: no polishing). See [`polish_segments`].
    pub polish: Vec<(u64, u64)>,
    /// Count before polishing.
    pub run_count: usize,
}

/// Result of [`portfolio`].
#[derive(Debug, Clone)]
pub struct PortfolioReport {
    /// Best verified program.
    pub program: Program,
    /// How to repeat it.
    pub winner: Winner,
    /// Exploration runs completed (refill runs included).
    pub runs: u64,
    /// Of those, the runs made during polishing to refill idle chains.
    pub refill_runs: u64,
    /// Per arm.
    pub arms: Vec<ArmReport>,
    /// Best count after exploring.
    pub explore_best: usize,
    /// Time spent exploring.
    pub explore_time: Duration,
    /// Polish rounds done (all chains).
    pub polish_rounds: u64,
    /// Chains started (including restarts).
    pub chains_started: usize,
    /// Total time.
    pub elapsed: Duration,
    /// When the best count first appeared.
    pub found_after: Duration,
}

/// Bandit statistics over the runs counted so far (a prefix of them with `runs`).
struct Stats {
    n: Vec<u64>,
    hist: Vec<Vec<u64>>,
    best: Option<usize>,
}

impl Stats {
    fn new(arms: usize) -> Self {
        Stats { n: vec![0; arms], hist: vec![Vec::new(); arms], best: None }
    }

    fn add(&mut self, arm: usize, count: Option<usize>) {
        self.n[arm] += 1;
        if let Some(c) = count {
            let h = &mut self.hist[arm];
            if h.len() <= c {
                h.resize(c + 1, 0);
            }
            h[c] += 1;
            self.best = Some(self.best.map_or(c, |b| b.min(c)));
        }
    }

    /// Mean reward of `arm`: 1 for a run at the best count, 1/4 one above, 1/20 two above.
    fn mean(&self, arm: usize) -> f64 {
        let Some(b) = self.best else { return 0.0 };
        let h = &self.hist[arm];
        let at = |c: usize| h.get(c).copied().unwrap_or(0) as f64;
        let score = at(b) + 0.25 * at(b + 1) + 0.05 * at(b + 2);
        (score + 0.2) / (self.n[arm] as f64 + 1.0)
    }

    fn choose(&self, arms: &[Arm], r: u64, seed: u64) -> usize {
        let k = arms.len() as u64;
        if r < WARMUP * k {
            return (r % k) as usize;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ r.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x706f_7274);
        if rng.random_bool(EPSILON) {
            return rng.random_range(0..arms.len());
        }
        let rate: Vec<f64> = (0..arms.len()).map(|a| self.mean(a) / arms[a].cost()).collect();
        let max = rate.iter().cloned().fold(f64::MIN_POSITIVE, f64::max);
        let total: u64 = self.n.iter().sum();
        let ln = (total.max(1) as f64).ln();
        let mut best = 0;
        let mut best_v = f64::MIN;
        for (a, (&r, &n)) in rate.iter().zip(&self.n).enumerate() {
            let v = r / max + 0.4 * (ln / (n as f64 + 1.0)).sqrt();
            if v > best_v {
                best_v = v;
                best = a;
            }
        }
        best
    }
}

fn key(p: &Program) -> (usize, usize, u64) {
    (p.xor_count(), p.depth(), p.meta.seed)
}

/// Exploration state shared by the workers.
struct Explore {
    next: u64,
    chosen: u64,
    arm_of: Vec<usize>,
    result: Vec<Option<Option<usize>>>,
    stats: Stats,
    upto: u64,
    /// Best distinct programs with their arm, ordered by (count, depth, seed).
    top: Vec<(Program, usize)>,
    /// The same for the split arms alone.
    top_split: Vec<(Program, usize)>,
    best_time: Duration,
}

/// Polishes a program by rounds of local re-synthesis (the polishers of
/// [`default_polishers`] for `c`). Round r uses seed `seed + r`; it
/// stops after `rounds` rounds if given (reproducible), else at `deadline`. Returns the best
/// verified program and the number of rounds.
pub fn polish(
    p: &Program,
    m: &BitMatrix,
    seed: u64,
    rounds: Option<u64>,
    deadline: Instant,
    c: &PolishConfig,
    max_depth: Option<usize>,
) -> (Program, u64) {
    let polishers = default_polishers(c);
    let mut chain = Chain::new(p.clone(), seed, 0);
    while rounds.map_or(Instant::now() < deadline, |n| chain.rounds < n) {
        chain.step(m, &polishers, max_depth);
    }
    if let Err(e) = chain.best.verify(m) {
        panic!("internal error: polishing produced a wrong program: {e}");
    }
    (chain.best, chain.rounds)
}

/// Polish segments `(seed, rounds)` one after the other, each a chain of exactly `rounds`
/// rounds (round r with seed `seed + r`) from where the one before ended: what the portfolio's
/// winner reports in [`Winner::polish`]. Deterministic.
pub fn polish_segments(p: &Program, m: &BitMatrix, segments: &[(u64, u64)], c: &PolishConfig, max_depth: Option<usize>) -> Program {
    let now = Instant::now();
    segments.iter().fold(p.clone(), |q, &(seed, rounds)| polish(&q, m, seed, Some(rounds), now, c, max_depth).0)
}

/// Runs the portfolio. `generate(arm, seed)` makes one verified program (or None); it is called
/// with seed `opts.seed + r` for run `r`. `on_improve(program, runs)` is called with every new
/// best count.
pub fn portfolio(
    m: &BitMatrix,
    opts: &PortfolioOptions,
    generate: &(dyn Fn(Arm, u64) -> Option<Program> + Sync),
    on_improve: &(dyn Fn(&Program, u64) + Sync),
) -> Option<PortfolioReport> {
    assert!(!opts.arms.is_empty() && !opts.polishers.is_empty() && opts.chains > 0);
    let start = Instant::now();
    let threads = opts.threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().ok();
    let polish_time = opts.time_limit.map(|t| opts.polish_time.unwrap_or(t.mul_f64(opts.polish_fraction)).min(t));
    let explore_until = opts.time_limit.zip(polish_time).map(|(t, p)| t - p);
    let keep = 2 * opts.chains;
    let best_count = Mutex::new(usize::MAX);
    let improve = |p: &Program, runs: u64| {
        let mut g = best_count.lock().expect("poisoned");
        if p.xor_count() < *g {
            *g = p.xor_count();
            on_improve(p, runs);
        }
    };

    // Phase 1: explore.
    let state = Mutex::new(Explore {
        next: 0,
        chosen: 0,
        arm_of: Vec::new(),
        result: Vec::new(),
        stats: Stats::new(opts.arms.len()),
        upto: 0,
        top: Vec::new(),
        top_split: Vec::new(),
        best_time: Duration::ZERO,
    });
    let cv = Condvar::new();
    let stop = AtomicBool::new(false);
    let cancelled = || opts.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed));
    // Under a depth bound against the clock, workers do not wait for lagged results (below).
    // Unbounded runs keep the lagged schedule: without it FSE_SKOP15_8x8_4 gave 172 instead of
    // 169 in 15 s (three runs each, Zen 4), the one benchmark matrix it made worse than published.
    let no_lag_wait = opts.runs.is_none() && opts.max_depth.is_some();
    let worker = || {
        loop {
            let (r, arm) = {
                let mut g = state.lock().expect("poisoned");
                let now = start.elapsed();
                // With a time limit (and no explicit polish time), exploring also ends once it
                // has stalled: no new best count in the last two thirds of the time spent, after
                // at least a fifth of the limit. Only the clock-bound mode does this.
                let stalled = opts.polish_time.is_none()
                    && opts.time_limit.is_some_and(|t| now >= t.mul_f64(STALL_MIN_FRACTION) && now >= 3 * g.best_time);
                let timed_out = (explore_until.is_some_and(|t| now >= t) || stalled || cancelled()) && g.next > 0;
                if stop.load(Ordering::Relaxed) || timed_out || opts.runs.is_some_and(|n| g.next >= n) {
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
                let r = g.next;
                g.next += 1;
                g.arm_of.push(usize::MAX);
                g.result.push(None);
                // Wait for our turn and for the results of runs 0 .. r - LAG (counted in order),
                // except against the clock under a depth bound, where nothing waits for results
                // (each is counted when it arrives): a long run (trees-walk, about 35 s on AES
                // MixColumns) held the other workers up once they were LAG runs ahead.
                let need = if no_lag_wait { 0 } else { r.saturating_sub(LAG) };
                loop {
                    while g.upto < need {
                        let u = g.upto as usize;
                        match g.result[u] {
                            Some(c) => {
                                let a = g.arm_of[u];
                                g.stats.add(a, c);
                                g.upto += 1;
                            }
                            None => break,
                        }
                    }
                    if g.chosen == r && g.upto >= need {
                        break;
                    }
                    g = cv.wait(g).expect("poisoned");
                }
                let arm = g.stats.choose(&opts.arms, r, opts.seed);
                g.arm_of[r as usize] = arm;
                g.chosen += 1;
                cv.notify_all();
                (r, arm)
            };
            let p = generate(opts.arms[arm], opts.seed.wrapping_add(r));
            let mut g = state.lock().expect("poisoned");
            g.result[r as usize] = Some(p.as_ref().map(|p| p.xor_count()));
            if no_lag_wait {
                g.stats.add(arm, p.as_ref().map(Program::xor_count));
            }
            if let Some(p) = p {
                let runs = g.next;
                if g.top.first().is_none_or(|(b, _)| p.xor_count() < b.xor_count()) {
                    g.best_time = start.elapsed();
                }
                improve(&p, runs);
                if opts.arms[arm].split {
                    insert_top(&mut g.top_split, p.clone(), arm, keep);
                }
                insert_top(&mut g.top, p, arm, keep);
            }
            cv.notify_all();
        }
    };
    match &pool {
        Some(pool) => {
            pool.broadcast(|_| worker());
        }
        None => worker(),
    }
    let explore_time = start.elapsed();
    let ex = state.into_inner().expect("poisoned");
    let mut runs = ex.next;
    let mut stats = ex.stats;
    let mut arm_reports: Vec<ArmReport> = opts.arms.iter().map(|&arm| ArmReport { arm, runs: 0, best: None }).collect();
    for (i, res) in ex.result.iter().enumerate() {
        let a = &mut arm_reports[ex.arm_of[i]];
        a.runs += 1;
        if let Some(Some(c)) = res {
            a.best = Some(a.best.map_or(*c, |b: usize| b.min(*c)));
        }
    }
    let explore_best = ex.top.first()?.0.xor_count();
    let mut top = chain_starts(ex.top, ex.top_split);
    let mut found_after = ex.best_time;
    let mut polish_best = explore_best;

    // Phase 2: polish.
    let polish_budget = match (opts.polish_rounds, opts.runs, opts.time_limit) {
        (Some(p), _, _) => Some(p),
        (None, Some(n), None) => Some((2 * n).div_ceil(3).max(SLICE * opts.chains as u64)),
        _ => None,
    };
    let deadline = opts.time_limit.map(|t| start + t);
    let mut chains: Vec<Chain> = (0..opts.chains)
        .map(|i| Chain::new(top[i % top.len()].0.clone(), chain_seed(&top[i % top.len()].0, i / top.len()), i % top.len()))
        .collect();
    let mut restarts = vec![0usize; top.len()];
    for i in 0..opts.chains {
        restarts[i % top.len()] += 1;
    }
    let mut chains_started = chains.len();
    let mut retired: Vec<Chain> = Vec::new();
    // When each chain last improved (or started), for the refills.
    let mut improved_at = vec![start.elapsed(); chains.len()];
    let mut refill_runs = 0u64;
    let mut done_rounds = 0u64;
    let mut epoch = 0u64;
    let out_of_time = || deadline.is_some_and(|d| Instant::now() >= d) || cancelled();
    let nothing_to_do = polish_budget == Some(0) || (polish_budget.is_none() && deadline.is_none());
    while !nothing_to_do && !out_of_time() && polish_budget.is_none_or(|b| done_rounds < b) {
        epoch += 1;
        let per_chain = match polish_budget {
            Some(b) => SLICE.min((b - done_rounds).div_ceil(chains.len() as u64)),
            None => SLICE,
        };
        let budget_left = polish_budget.map(|b| b - done_rounds);
        let step_chain = |i: usize, c: &mut Chain| {
            // Round j of this epoch for chain i is global round index (within the epoch)
            // i * per_chain + j; the budget cut is a function of that index only.
            for j in 0..per_chain {
                if budget_left.is_some_and(|l| i as u64 * per_chain + j >= l) || out_of_time() {
                    break;
                }
                let before = c.best.xor_count();
                c.step(m, &opts.polishers, opts.max_depth);
                if c.best.xor_count() < before {
                    c.last_improved = epoch;
                    improve(&c.best, runs);
                }
            }
        };
        let before: u64 = chains.iter().map(|c| c.rounds).sum();
        match &pool {
            Some(pool) => pool.install(|| {
                use rayon::prelude::*;
                chains.par_iter_mut().enumerate().for_each(|(i, c)| step_chain(i, c));
            }),
            None => chains.iter_mut().enumerate().for_each(|(i, c)| step_chain(i, c)),
        }
        done_rounds += chains.iter().map(|c| c.rounds).sum::<u64>() - before;
        let gbest = chains.iter().map(|c| c.best.xor_count()).min().unwrap_or(usize::MAX);
        if gbest < polish_best {
            polish_best = gbest;
            found_after = start.elapsed();
        }
        // A chain that is two or more behind and has not improved for 4 epochs continues from
        // the leading chain's best program with a new seed. (Restarting from the leader's
        // starting program instead wastes the chain late in the phase: on 64x64 matrices a
        // chain needs hundreds of rounds to come down, and a restarted one never catches up.)
        let lead = (0..chains.len()).min_by_key(|&i| (chains[i].best.xor_count(), chains[i].best.depth(), i)).unwrap_or(0);
        for i in 0..chains.len() {
            let c = &chains[i];
            if i != lead && c.best.xor_count() >= gbest + 2 && epoch >= c.last_improved + 4 {
                let s = chains[lead].start;
                let n = restarts[s];
                restarts[s] += 1;
                let fresh = Chain { last_improved: epoch, ..Chain::descend(&chains[lead], chain_seed(&top[s].0, n)) };
                retired.push(std::mem::replace(&mut chains[i], fresh));
                improved_at[i] = start.elapsed();
                chains_started += 1;
            }
        }
        let now = start.elapsed();
        for (i, c) in chains.iter().enumerate() {
            if c.last_improved == epoch {
                improved_at[i] = now;
            }
        }
        // Refills: once as many chains as there are threads (all but the leading one, if
        // fewer) have gone `refill_idle` without improving, and at least that long is left,
        // the most idle of them continue from fresh exploration runs, one per thread, run in
        // parallel: runs `runs`, `runs + 1`, … with the arms the bandit chooses, as in the
        // exploration. Their programs join the chains' starting programs, so a winner from
        // one repeats as any other (`--seed S --runs 1`, then its polish segments).
        if let (Some(idle), None) = (opts.refill_idle, polish_budget)
            && deadline.is_some_and(|d| d.saturating_duration_since(Instant::now()) >= idle)
        {
            let mut waiting: Vec<usize> = (0..chains.len()).filter(|&i| i != lead && now >= improved_at[i] + idle).collect();
            if !waiting.is_empty() && waiting.len() >= threads.min(chains.len() - 1) {
                waiting.sort_by_key(|&i| (improved_at[i], i));
                waiting.truncate(threads);
                let jobs: Vec<(u64, usize)> = (0..waiting.len() as u64).map(|k| (runs + k, stats.choose(&opts.arms, runs + k, opts.seed))).collect();
                let run = |&(r, arm): &(u64, usize)| generate(opts.arms[arm], opts.seed.wrapping_add(r));
                let made: Vec<Option<Program>> = match &pool {
                    Some(pool) => pool.install(|| {
                        use rayon::prelude::*;
                        jobs.par_iter().map(run).collect()
                    }),
                    None => jobs.iter().map(run).collect(),
                };
                let now = start.elapsed();
                for ((&i, &(_, arm)), p) in waiting.iter().zip(&jobs).zip(made) {
                    stats.add(arm, p.as_ref().map(Program::xor_count));
                    let rep = &mut arm_reports[arm];
                    rep.runs += 1;
                    runs += 1;
                    refill_runs += 1;
                    improved_at[i] = now;
                    let Some(p) = p else { continue };
                    rep.best = Some(rep.best.map_or(p.xor_count(), |b| b.min(p.xor_count())));
                    if p.xor_count() < polish_best {
                        polish_best = p.xor_count();
                        found_after = now;
                    }
                    improve(&p, runs);
                    let fresh = Chain { last_improved: epoch, ..Chain::new(p.clone(), chain_seed(&p, 0), top.len()) };
                    top.push((p, arm));
                    restarts.push(1);
                    retired.push(std::mem::replace(&mut chains[i], fresh));
                    chains_started += 1;
                }
            }
        }
    }
    let win = chains
        .iter()
        .chain(retired.iter())
        .enumerate()
        .min_by_key(|(i, c)| (c.best.xor_count(), c.best.depth(), !c.segments().is_empty(), *i))
        .map(|(_, c)| c.clone())
        .expect("at least one chain");
    let (start_prog, arm_idx) = &top[win.start];
    let polish = win.segments();
    let program = if polish.is_empty() { start_prog.clone() } else { win.best.clone() };
    let winner = Winner { arm: opts.arms[*arm_idx], run_seed: start_prog.meta.seed, polish, run_count: start_prog.xor_count() };
    if let Err(e) = program.verify(m) {
        panic!("internal error: the portfolio produced a wrong program: {e}");
    }
    Some(PortfolioReport {
        program,
        winner,
        runs,
        refill_runs,
        arms: arm_reports,
        explore_best,
        explore_time,
        polish_rounds: done_rounds,
        chains_started,
        elapsed: start.elapsed(),
        found_after,
    })
}

/// Polish seed of the `n`-th chain from a program found with seed `s`: `s` for the first (so
/// `--seed s --runs 1 --polish-rounds L` repeats it), then distinct derived seeds.
fn chain_seed(p: &Program, n: usize) -> u64 {
    p.meta.seed.wrapping_add((n as u64).wrapping_mul(1_000_003_000_017))
}

/// The starting programs of the polish chains (chain i starts from entry i, restarts from the
/// leading chain's entry): the best programs, and if split arms ran, alternately the best
/// split programs. A split program is longer before polishing than the best BP runs (Khazad:
/// about 530 against 495) but polishes far lower (about 380 against 440), so ranking by count
/// alone would never polish one.
fn chain_starts(top: Vec<(Program, usize)>, split: Vec<(Program, usize)>) -> Vec<(Program, usize)> {
    if split.is_empty() {
        return top;
    }
    let mut out: Vec<(Program, usize)> = Vec::new();
    let mut a = top.into_iter();
    let mut b = split.into_iter();
    loop {
        let (x, y) = (a.next(), b.next());
        if x.is_none() && y.is_none() {
            return out;
        }
        for (p, arm) in x.into_iter().chain(y) {
            if !out.iter().any(|(q, _)| q.ops == p.ops && q.outputs == p.outputs) {
                out.push((p, arm));
            }
        }
    }
}

fn insert_top(top: &mut Vec<(Program, usize)>, p: Program, arm: usize, keep: usize) {
    if let Some(i) = top.iter().position(|(q, _)| q.ops == p.ops && q.outputs == p.outputs) {
        if key(&p) < key(&top[i].0) {
            top.remove(i);
        } else {
            return;
        }
    }
    let pos = top.partition_point(|(q, _)| key(q) < key(&p));
    if pos < keep {
        top.insert(pos, (p, arm));
        top.truncate(keep);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::run_once;

    /// A walk round computes the matrix, is never longer, keeps a depth bound, and repeats
    /// with its seed; a chain with walk rounds keeps only verified programs.
    #[test]
    fn walk_polisher_rounds() {
        let m = crate::parse::parse_matrix(include_str!("../../../test-vectors/slp/random8_s1.txt")).unwrap();
        let start = Program::naive(&m);
        let w = WalkPolisher { moves: 400 };
        let a = w.round(&start, &m, 9, None);
        a.verify(&m).unwrap();
        assert!(a.xor_count() <= start.xor_count());
        assert_eq!(a.ops, w.round(&start, &m, 9, None).ops);
        let d = start.depth();
        let b = w.round(&start, &m, 10, Some(d));
        b.verify(&m).unwrap();
        assert!(b.depth() <= d);
        let c = PolishConfig { walk_moves: 400, ..PolishConfig::default() };
        let pols = default_polishers(&c);
        assert_eq!(pols.last().unwrap().name(), "walk400");
        let mut chain = Chain::new(start.clone(), 1, 0);
        for _ in 0..6 {
            chain.step(&m, &pols, None);
        }
        chain.best.verify(&m).unwrap();
        assert!(chain.best.xor_count() < start.xor_count());
    }

    /// The exact-windows polisher shortens the naive MixSlices program, also under a depth bound.
    #[cfg(feature = "sat")]
    #[test]
    fn exact_window_polisher_shortens_naive_mixslices() {
        let m = crate::parse::parse_matrix(include_str!("../../../test-vectors/slp/proest_mixslices.txt")).unwrap();
        let p = Program::naive(&m);
        let r = ExactWindowPolisher { windows: 500, small: 0.0, plateau: PLATEAU }.round(&p, &m, 7, None);
        r.verify(&m).unwrap();
        assert!(r.xor_count() < p.xor_count());
        let d = p.depth();
        let r = ExactWindowPolisher { windows: 500, small: 0.0, plateau: PLATEAU }.round(&p, &m, 7, Some(d));
        r.verify(&m).unwrap();
        assert!(r.depth() <= d && r.xor_count() <= p.xor_count());
    }

    fn generator(m: &BitMatrix) -> impl Fn(Arm, u64) -> Option<Program> + Sync + '_ {
        move |arm, seed| run_once(m, arm.algorithm, seed, None, arm.resynth)
    }

    /// AES MixColumns and the default arms with a tenth of their re-synthesis (fast runs).
    fn aes_with_light_arms() -> (BitMatrix, Vec<Arm>) {
        let m = crate::matrix::expand_gf256(&crate::matrix::circulant(&[2, 3, 1, 1]), 0x11b);
        let mut arms = default_arms(32, 32, true);
        for a in &mut arms {
            a.resynth /= 10;
        }
        (m, arms)
    }

    /// The winner's recipe (its run, then its polish segments under `c`) gives its program.
    fn assert_winner_repeats(rep: &PortfolioReport, m: &BitMatrix, c: &PolishConfig) {
        let w = &rep.winner;
        let p = run_once(m, w.arm.algorithm, w.run_seed, None, w.arm.resynth).unwrap();
        assert_eq!(p.xor_count(), w.run_count);
        let q = super::polish_segments(&p, m, &w.polish, c, None);
        assert_eq!((&q.ops, &q.outputs), (&rep.program.ops, &rep.program.outputs));
    }

    #[test]
    fn runs_mode_is_reproducible_for_any_thread_count() {
        let (m, arms) = aes_with_light_arms();
        let mk = |threads| PortfolioOptions {
            threads,
            seed: 5,
            runs: Some(80),
            polish_rounds: Some(40),
            arms: arms.clone(),
            polishers: vec![Box::new(WindowPolisher { window: 12, walk: false })],
            ..PortfolioOptions::for_matrix(&m)
        };
        let a = portfolio(&m, &mk(1), &generator(&m), &|_, _| {}).unwrap();
        let b = portfolio(&m, &mk(2), &generator(&m), &|_, _| {}).unwrap();
        let c = portfolio(&m, &mk(3), &generator(&m), &|_, _| {}).unwrap();
        a.program.verify(&m).unwrap();
        assert_eq!(a.program, b.program);
        assert_eq!(a.program, c.program);
        assert_eq!(a.runs, 80);
        assert_eq!(a.polish_rounds, 40);
        let per_arm: Vec<u64> = a.arms.iter().map(|r| r.runs).collect();
        assert_eq!(per_arm, b.arms.iter().map(|r| r.runs).collect::<Vec<_>>());
        assert_eq!(per_arm.iter().sum::<u64>(), 80);
    }

    #[test]
    fn winner_repeats_with_one_run_and_one_chain() {
        let (m, arms) = aes_with_light_arms();
        // A time limit: which runs complete depends on the clock, the winner's recipe does not.
        let opts = PortfolioOptions {
            threads: 2,
            seed: 11,
            runs: None,
            time_limit: Some(Duration::from_millis(1000)),
            arms,
            ..PortfolioOptions::for_matrix(&m)
        };
        let rep = portfolio(&m, &opts, &generator(&m), &|_, _| {}).unwrap();
        // The polish configuration of `for_matrix` (the default window for this matrix's size).
        assert_winner_repeats(&rep, &m, &PolishConfig::for_size(m.rows(), m.cols()));
        assert!(rep.program.xor_count() <= rep.explore_best);
    }

    /// Setting `cancel` ends a search of ten minutes early, in exploring or in polishing, and
    /// the winner so far keeps its recipe.
    #[test]
    fn cancel_ends_the_search_and_the_winner_repeats() {
        let (m, arms) = aes_with_light_arms();
        let run = |after: u64, polish_time: Option<Duration>| {
            let cancel = Arc::new(AtomicBool::new(false));
            let opts = PortfolioOptions {
                threads: 2,
                seed: 4,
                runs: None,
                time_limit: Some(Duration::from_secs(600)),
                polish_time,
                arms: arms.clone(),
                cancel: Some(cancel.clone()),
                ..PortfolioOptions::for_matrix(&m)
            };
            let t = std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(after));
                cancel.store(true, Ordering::SeqCst);
            });
            let rep = portfolio(&m, &opts, &generator(&m), &|_, _| {}).unwrap();
            t.join().unwrap();
            assert!(rep.elapsed < Duration::from_secs(60), "{:?}", rep.elapsed);
            assert_winner_repeats(&rep, &m, &PolishConfig::for_size(m.rows(), m.cols()));
            rep
        };
        // While exploring.
        run(300, None);
        // While polishing: exploring ends at 1 s. Under a loaded emulator the runs under way
        // then can outlast a short wait, so it doubles, twice at most, until polishing began.
        let mut tries = Vec::new();
        for after in [3000u64, 6000, 12000] {
            let rep = run(after, Some(Duration::from_secs(599)));
            tries.push((after, rep.polish_rounds));
            if rep.polish_rounds > 0 {
                return;
            }
        }
        panic!("no polish round before the cancel: {tries:?}");
    }

    /// Idle chains are refilled from fresh runs during clock-bound polishing; the refill runs
    /// count as runs, and a winner repeats from its recipe whichever run it came from.
    #[test]
    fn idle_chains_are_refilled_and_the_winner_repeats() {
        let (m, arms) = aes_with_light_arms();
        // Clock-bound: on a loaded machine the chains may not go idle long enough in the first
        // budget, so it doubles (twice at most) until a refill happens.
        let mut tries = Vec::new();
        let (opts, rep) = loop {
            let ms = 2500u64 << tries.len();
            let opts = PortfolioOptions {
                threads: 2,
                seed: 3,
                runs: None,
                time_limit: Some(Duration::from_millis(ms)),
                polish_time: Some(Duration::from_millis(ms - 500)),
                refill_idle: Some(Duration::from_millis(150)),
                arms: arms.clone(),
                polishers: vec![Box::new(WindowPolisher { window: 6, walk: false })],
                ..PortfolioOptions::for_matrix(&m)
            };
            let rep = portfolio(&m, &opts, &generator(&m), &|_, _| {}).unwrap();
            tries.push((ms, rep.polish_rounds, rep.elapsed));
            if rep.refill_runs > 0 || tries.len() == 3 {
                break (opts, rep);
            }
        };
        assert!(rep.refill_runs > 0, "no refill in any budget (ms, polish rounds, elapsed): {tries:?}");
        assert!(rep.chains_started > opts.chains);
        assert_eq!(rep.arms.iter().map(|a| a.runs).sum::<u64>(), rep.runs);
        assert_winner_repeats(&rep, &m, &PolishConfig { window: 6, bp_walk: false, exact: false, walk_moves: 0, ..PolishConfig::default() });
    }

    /// The default BP polish window: 24 gates up to 32×32 (also for non-square matrices whose
    /// larger side is at most 32), 48 above; the plateau share 0.8 above 16×16; the BP walk
    /// above 32×32; plateau-walk polish rounds up to 32×32.
    #[test]
    fn default_window_and_plateau_by_size() {
        for (r, c, w, pl, walk) in [
            (8, 8, 24, 0.5, false),
            (16, 16, 24, 0.5, false),
            (32, 16, 24, 0.8, false),
            (32, 32, 24, 0.8, false),
            (33, 32, 48, 0.8, true),
            (64, 64, 48, 0.8, true),
            (128, 128, 48, 0.8, true),
        ] {
            assert_eq!(default_window(r, c), w, "{r}x{c}");
            assert_eq!(default_plateau(r, c), pl, "{r}x{c}");
            assert_eq!(default_bp_walk(r, c), walk, "{r}x{c}");
            let wm = if walk { 0 } else { 1000 };
            assert_eq!(default_walk_polish(r, c), wm, "{r}x{c}");
            assert_eq!(PolishConfig::for_size(r, c), PolishConfig { window: w, plateau: pl, bp_walk: walk, walk_moves: wm, ..PolishConfig::default() });
        }
    }

    /// A chain whose BP rounds walk on takes an equally long, different program from a round
    /// and continues from it; without the walk a round that finds nothing shorter leaves the
    /// chain where it was.
    #[test]
    fn walking_bp_rounds_carry_the_walk_across_rounds() {
        let m = crate::matrix::expand_gf256(&crate::matrix::circulant(&[2, 3, 1, 1]), 0x11b);
        let p = run_once(&m, Algorithm::A2, 1, None, 300).unwrap();
        let mut moved = 0;
        for (walk, seed) in [false, true].into_iter().flat_map(|w| (0..8).map(move |s| (w, s))) {
            let pol: Vec<Box<dyn Polisher>> = vec![Box::new(WindowPolisher { window: 24, walk })];
            let mut c = Chain::new(p.clone(), seed, 0);
            for _ in 0..3 {
                let before = c.best.clone();
                c.step(&m, &pol, None);
                c.best.verify(&m).unwrap();
                assert!(c.best.xor_count() <= before.xor_count());
                if c.best.xor_count() == before.xor_count() && c.best.ops != before.ops {
                    assert!(walk, "a round without the walk moved on the plateau (seed {seed})");
                    moved += 1;
                }
            }
        }
        assert!(moved > 0, "no walking round moved on the plateau");
    }

    /// A chain that descends from another repeats from the run's program by its segments.
    #[test]
    fn a_descended_chain_repeats_by_its_segments() {
        let m = crate::matrix::expand_gf256(&crate::matrix::circulant(&[2, 3, 1, 1]), 0x11b);
        let p = run_once(&m, Algorithm::Rnbp, 4, None, 0).unwrap();
        let polishers = default_polishers(&PolishConfig::default());
        let mut a = Chain::new(p.clone(), 17, 0);
        for _ in 0..6 {
            a.step(&m, &polishers, None);
        }
        assert!(a.rounds_to_best > 0 && a.best.xor_count() < p.xor_count());
        let mut b = Chain::descend(&a, 99);
        assert_eq!(b.lineage, vec![(17, a.rounds_to_best)]);
        for _ in 0..6 {
            b.step(&m, &polishers, None);
        }
        let mut c = Chain::descend(&b, 5);
        for _ in 0..4 {
            c.step(&m, &polishers, None);
        }
        assert_eq!(c.lineage.len(), 1 + usize::from(b.rounds_to_best > 0));
        let q = super::polish_segments(&p, &m, &c.segments(), &PolishConfig::default(), None);
        assert_eq!((q.ops, q.outputs), (c.best.ops.clone(), c.best.outputs.clone()));
        c.best.verify(&m).unwrap();
    }

    #[test]
    fn bandit_prefers_the_arm_that_reaches_the_best() {
        let arms = vec![Arm::bits(Algorithm::A2, 0), Arm::bits(Algorithm::A1, 0)];
        let mut s = Stats::new(2);
        for _ in 0..50 {
            s.add(0, Some(40));
            s.add(1, Some(45));
        }
        let picks = (100..400).filter(|&r| s.choose(&arms, r, 1) == 0).count();
        assert!(picks > 250, "{picks}");
    }

    #[test]
    fn chain_starts_alternate_with_split_programs_without_repeats() {
        let prog = |ops: Vec<(usize, usize)>| {
            let mut p = Program::new(3, 1);
            p.ops = ops;
            p
        };
        let a = prog(vec![(0, 1)]);
        let b = prog(vec![(0, 2)]);
        let c = prog(vec![(1, 2)]);
        let d = prog(vec![(0, 1), (2, 3)]);
        // Chains i = 0, 1, 2, 3 start from a (best), c (best split), b, d; c is in both lists.
        let starts = chain_starts(vec![(a.clone(), 0), (c.clone(), 2), (b.clone(), 1)], vec![(c.clone(), 2), (d.clone(), 3)]);
        let order: Vec<usize> = starts.iter().map(|(_, arm)| *arm).collect();
        assert_eq!(order, vec![0, 2, 3, 1]);
        // Without split programs the order is the ranking.
        let plain = chain_starts(vec![(a, 0), (b, 1)], Vec::new());
        assert_eq!(plain.iter().map(|(_, arm)| *arm).collect::<Vec<_>>(), vec![0, 1]);
    }
}
