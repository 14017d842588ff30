//! Lower bounds by restriction (gate elimination): a bound for a smaller matrix, plus one XOR
//! for every input set to zero.
//!
//! # The lemma
//! Let P be a program with k XORs that computes the rows of M, and let x_i take part in some
//! row of weight ≥ 2. Substitute x_i = 0 everywhere in P. Every line `g = x_i + y` now
//! computes the value of y: delete it and let its users (and an output it holds) read y
//! instead. The result computes the rows of M with column i deleted, over the other inputs,
//! with at most k − (number of lines that add x_i directly) XORs. And some line of P adds x_i
//! directly: the row of weight ≥ 2 that contains x_i is held by a line (not by an input), a
//! line's value involves x_i only when one of its operands does, and following such operands
//! back ends at a line that adds x_i itself. Hence
//!
//! > OPT(M) ≥ OPT(M without column i) + 1.
//!
//! (A row of weight one is not enough: the output x_i itself needs no line.) For a set J of
//! columns, each of which has a 1 in a row that also has a 1 outside J, delete the columns
//! one at a time: that row keeps weight ≥ 2 whatever was deleted before, so
//!
//! > OPT(M) ≥ OPT(M without the columns J) + |J|.
//!
//! Any proven lower bound for the smaller matrix (by [`crate::enumerate`] or by SAT with a
//! DRAT proof, [`crate::sat`]) therefore proves a bound for M. The smaller matrix has fewer
//! inputs and lighter rows, so its searches are far cheaper: for Prøst's MixSlices the direct
//! enumeration proves 23 in about 100 s, while the matrix without six of its columns needs
//! at least 23 XORs after 94 s, so MixSlices needs at least 29 (docs/slp-history.md).
//!
//! The bound is loose in two ways: an input may be added directly by several lines, and a
//! program for the smaller matrix need not come from one for M. Which J gives the best
//! bound is found by trying ([`search_drop`]).

use crate::matrix::{BitMatrix, Row};

/// `m` without the columns in `drop` (column indices as in the matrix file: 0 is the first
/// input). The remaining columns keep their order.
pub fn drop_columns(m: &BitMatrix, drop: &[usize]) -> BitMatrix {
    let keep: Vec<usize> = (0..m.cols()).filter(|c| !drop.contains(c)).collect();
    let rows: Vec<Row> = (0..m.rows()).map(|r| keep.iter().enumerate().fold(0, |acc, (j, &c)| acc | (m.get(r, c) as Row) << j)).collect();
    BitMatrix::from_rows(keep.len(), rows)
}

/// Checks that `drop` may be used for the lemma on `m`: distinct columns of `m`, at least one
/// column left, and each dropped column with a 1 in a row that also has a 1 in a kept column.
/// Returns the columns sorted.
pub fn check_drop(m: &BitMatrix, drop: &[usize]) -> Result<Vec<usize>, String> {
    let mut d = drop.to_vec();
    d.sort_unstable();
    d.dedup();
    if d.len() != drop.len() {
        return Err("a column is listed twice".into());
    }
    if let Some(&c) = d.iter().find(|&&c| c >= m.cols()) {
        return Err(format!("column {c} does not exist (the matrix has {} columns, numbered from 0)", m.cols()));
    }
    if d.len() >= m.cols() {
        return Err("at least one column must stay".into());
    }
    let kept: Row = (0..m.cols()).filter(|c| !d.contains(c)).fold(0, |acc, c| acc | 1 << c);
    if let Some(&c) = d.iter().find(|&&c| !m.row_bits().iter().any(|&r| r >> c & 1 == 1 && r & kept != 0)) {
        return Err(format!(
            "column {c} has no 1 in a row with a 1 in a kept column: setting its input to 0 need not remove an XOR"
        ));
    }
    Ok(d)
}

/// The bound for `m` that a lower bound `sub_bound` of `drop_columns(m, drop)` proves.
pub fn lift(drop: &[usize], sub_bound: usize) -> usize {
    sub_bound + drop.len()
}

/// One XOR more for the restriction `drop` of `m` when a rotation of the columns supplies
/// enough other restrictions (the level-1 covering of Theorem N in `Joe-b-20/slp-plateau-search`,
/// `bounds/gte56`, proved here for this case). Returns the shift `s` of a rotation that applies.
///
/// Conditions: every row of `m` has weight ≥ 2; its columns are non-zero and pairwise distinct;
/// rotating the column indices by `s` (column c to (c + s) mod n) maps the set of rows to itself;
/// and the kept columns K, rotated by 0, s, 2s, … have no column in common.
///
/// Why: let P be an optimal program for M. Its first line adds two inputs x_i, x_k. If no
/// other line read either, every line's value would have equal bits i and k (by induction over
/// the lines), and so would every row of M (each, of weight ≥ 2, is a line's value): columns i
/// and k would be equal. So one of them, y, is read by two lines, and setting y = 0 turns both
/// into copies: OPT(M) ≥ OPT(M without y) + 2. Some rotation K' of K misses y. Dropping the other
/// columns of J' (the complement of K') one by one costs one XOR each ([`check_drop`] holds for
/// J' as for J, the rotation being a symmetry of M), and M restricted to K' is M restricted to
/// K with its columns renamed and rows reordered. So OPT(M) ≥ 2 + (|J| − 1) + OPT(M|K), one
/// more than [`lift`].
pub fn rotation_bonus(m: &BitMatrix, drop: &[usize]) -> Option<usize> {
    let n = m.cols();
    let rows = m.row_bits();
    if n < 2 || drop.is_empty() || rows.iter().any(|r| r.count_ones() < 2) {
        return None;
    }
    let cols: Vec<Vec<bool>> = (0..n).map(|c| rows.iter().map(|r| r >> c & 1 == 1).collect()).collect();
    if cols.iter().any(|c| !c.contains(&true)) {
        return None;
    }
    let mut sorted_cols = cols.clone();
    sorted_cols.sort();
    if sorted_cols.windows(2).any(|w| w[0] == w[1]) {
        return None;
    }
    let full: Row = if n == 128 { !0 } else { (1 << n) - 1 };
    let kept: Row = (0..n).filter(|c| !drop.contains(c)).fold(0, |a, c| a | 1 << c);
    let mut sorted = rows.to_vec();
    sorted.sort_unstable();
    for s in 1..n {
        let rot = |r: Row| ((r << s) | (r >> (n - s))) & full;
        let mut rr: Vec<Row> = rows.iter().map(|&r| rot(r)).collect();
        rr.sort_unstable();
        if rr != sorted {
            continue;
        }
        let (mut common, mut k) = (full, kept);
        loop {
            common &= k;
            k = rot(k);
            if k == kept {
                break;
            }
        }
        if common == 0 {
            return Some(s);
        }
    }
    None
}

/// The bound that `sub_bound` for `drop_columns(m, drop)` proves for `m`: [`lift`], plus one
/// where [`rotation_bonus`] applies.
pub fn lift_with_symmetry(m: &BitMatrix, drop: &[usize], sub_bound: usize) -> usize {
    lift(drop, sub_bound) + usize::from(rotation_bonus(m, drop).is_some())
}

/// A column set tried by [`search_drop`]: the columns, the bound proven for the smaller
/// matrix (its optimum when `optimal`), and the seconds spent.
#[derive(Debug, Clone, PartialEq)]
pub struct Tried {
    /// Dropped columns, sorted.
    pub drop: Vec<usize>,
    /// Lower bound for the matrix without them.
    pub sub_bound: usize,
    /// Whether that bound is the smaller matrix's optimum (so these columns can give no more).
    pub optimal: bool,
    /// Seconds spent on it.
    pub secs: f64,
    /// Seconds of its last refutation (how close the next one may be).
    pub last_refutation: f64,
}

impl Tried {
    /// The bound it proves for the whole matrix.
    pub fn bound(&self) -> usize {
        lift(&self.drop, self.sub_bound)
    }
}

/// Looks for the column set that proves the largest bound for `m` (at most
/// [`crate::enumerate::MAX_INPUTS`] columns) within `time_limit`, by the enumeration on
/// `threads` threads. First a scan: for every size from 1 to n − 2, two admissible sets drawn
/// with `seed`, each with an equal share of 40 % of the time. Then the rest of the time goes to
/// the best set whose smaller matrix is not settled yet (ties: the one whose last refutation
/// took least time), and, if that one gets settled before the time is up, to the next set that
/// could still beat the best bound. Every set tried is reported to `on_try`; the sets are
/// returned once each, best first (largest bound, then quickest last refutation). Which sets get tried depends on `seed` and on the
/// speed of the machine; every bound it reports is proven all the same.
pub fn search_drop(m: &BitMatrix, threads: usize, time_limit: std::time::Duration, seed: u64, mut on_try: impl FnMut(&Tried)) -> Vec<Tried> {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    let start = std::time::Instant::now();
    let n = m.cols();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut sets: Vec<Vec<usize>> = Vec::new();
    for size in 1..n.saturating_sub(1) {
        for _ in 0..2 {
            // A few draws per slot: a set can be inadmissible or already chosen.
            for _ in 0..20 {
                let mut cols: Vec<usize> = (0..n).collect();
                cols.shuffle(&mut rng);
                let Ok(d) = check_drop(m, &cols[..size]) else { continue };
                if !sets.contains(&d) {
                    sets.push(d);
                    break;
                }
            }
        }
    }
    let mut tried: Vec<Tried> = Vec::new();
    // Runs the enumeration on `m` without `d`; a set run again replaces its earlier entry.
    let mut run = |d: &[usize], secs: f64, tried: &mut Vec<Tried>| {
        let t0 = std::time::Instant::now();
        let r = crate::enumerate::exact(&drop_columns(m, d), threads, std::time::Duration::from_secs_f64(secs), None, None, |_, _, _, _| {});
        let last_refutation = r.log.iter().rev().find(|l| l.1 == "none").map_or(0.0, |l| l.3);
        let t = Tried { drop: d.to_vec(), sub_bound: r.lower_bound, optimal: r.optimal, secs: t0.elapsed().as_secs_f64(), last_refutation };
        on_try(&t);
        tried.retain(|u| u.drop != d);
        tried.push(t);
    };
    let total = time_limit.as_secs_f64();
    let share = if sets.is_empty() { 0.0 } else { 0.4 * total / sets.len() as f64 };
    for d in &sets {
        run(d, share, &mut tried);
    }
    let order = |a: &Tried, b: &Tried| b.bound().cmp(&a.bound()).then(a.last_refutation.total_cmp(&b.last_refutation));
    tried.sort_by(order);
    // Deepen: the best unsettled set whose next refutation would beat the best bound, once each.
    let mut deepened: Vec<Vec<usize>> = Vec::new();
    loop {
        let rest = total - start.elapsed().as_secs_f64();
        let best = tried.first().map_or(0, Tried::bound);
        let Some(d) = tried.iter().find(|t| !t.optimal && t.bound() + 1 > best && !deepened.contains(&t.drop)).map(|t| t.drop.clone()) else { break };
        if rest <= 0.0 {
            break;
        }
        run(&d, rest, &mut tried);
        deepened.push(d);
        tried.sort_by(order);
    }
    tried
}

/// `restriction.json` of a proof directory whose `matrix.txt` is a matrix without some of its
/// columns: the whole matrix and the dropped columns.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RestrictionFile {
    /// The whole matrix (0/1 rows, first column first).
    pub matrix: String,
    /// The dropped columns (0 is the first).
    pub dropped: Vec<usize>,
    /// The bound claimed for the whole matrix.
    pub lower_bound: usize,
}

/// File name of [`RestrictionFile`] in a proof directory.
pub const RESTRICTION_FILE: &str = "restriction.json";

/// Writes `restriction.json` into a proof directory for `sub = drop_columns(m, drop)`.
pub fn write_restriction(dir: &std::path::Path, m: &BitMatrix, drop: &[usize], sub_bound: usize) -> anyhow::Result<()> {
    let f = RestrictionFile { matrix: m.to_text(), dropped: drop.to_vec(), lower_bound: lift_with_symmetry(m, drop, sub_bound) };
    std::fs::write(dir.join(RESTRICTION_FILE), serde_json::to_string_pretty(&f)? + "\n")?;
    Ok(())
}

/// Reads `restriction.json` of a proof directory (if there is one) and checks it against the
/// directory's matrix `sub`, whose proven bound is `sub_bound`: the dropped columns must be
/// admissible ([`check_drop`]), removing them from the stored whole matrix must give `sub`,
/// and the claimed bound must be the lifted one. Returns the whole matrix, the columns and
/// its bound.
pub fn check_restriction(dir: &std::path::Path, sub: &BitMatrix, sub_bound: usize) -> anyhow::Result<Option<(BitMatrix, Vec<usize>, usize)>> {
    let path = dir.join(RESTRICTION_FILE);
    if !path.exists() {
        return Ok(None);
    }
    let f: RestrictionFile = serde_json::from_str(&std::fs::read_to_string(&path)?).map_err(|e| anyhow::anyhow!("{RESTRICTION_FILE}: {e}"))?;
    let m = crate::parse::parse_matrix(&f.matrix).map_err(|e| anyhow::anyhow!("{RESTRICTION_FILE}: matrix: {e}"))?;
    let d = check_drop(&m, &f.dropped).map_err(|e| anyhow::anyhow!("{RESTRICTION_FILE}: {e}"))?;
    anyhow::ensure!(d == f.dropped, "{RESTRICTION_FILE}: the dropped columns must be listed once each, in increasing order");
    anyhow::ensure!(drop_columns(&m, &d) == *sub, "{RESTRICTION_FILE}: the matrix without columns {d:?} is not matrix.txt");
    let bound = lift_with_symmetry(&m, &d, sub_bound);
    anyhow::ensure!(f.lower_bound == bound, "{RESTRICTION_FILE} claims lower bound {}, the proofs give {bound}", f.lower_bound);
    Ok(Some((m, d, bound)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_matrix;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn optimum(m: &BitMatrix) -> usize {
        let far = std::time::Duration::from_secs(600);
        let r = crate::enumerate::exact(m, 1, far, None, None, |_, _, _, _| {});
        assert!(r.optimal);
        r.program.unwrap().xor_count()
    }

    /// The search tries admissible sets only, reports each, and its best bound is one of them.
    #[test]
    fn search_drop_returns_admissible_sets_best_first() {
        let m = parse_matrix(include_str!("../../../test-vectors/slp/random8_s1.txt")).unwrap();
        let mut seen = 0;
        let tried = search_drop(&m, 1, std::time::Duration::from_secs(2), 7, |_| seen += 1);
        assert_eq!(seen, tried.len());
        assert!(tried.len() >= 6, "{tried:?}");
        for t in &tried {
            assert_eq!(check_drop(&m, &t.drop).as_ref(), Ok(&t.drop));
        }
        assert!(tried.windows(2).all(|w| w[0].bound() >= w[1].bound()));
        // random8_s1's optimum is 12: no bound may exceed it.
        assert!(tried[0].bound() <= 12, "{:?}", tried[0]);
    }

    #[test]
    fn dropping_columns_keeps_the_others_in_order() {
        let m = parse_matrix("1011\n0110\n1101\n").unwrap();
        let s = drop_columns(&m, &[1]);
        assert_eq!(s, parse_matrix("111\n010\n101\n").unwrap());
        assert_eq!(drop_columns(&m, &[]), m);
        assert_eq!(check_drop(&m, &[3, 1]), Ok(vec![1, 3]));
        assert!(check_drop(&m, &[1, 1]).is_err());
        assert!(check_drop(&m, &[4]).is_err());
        assert!(check_drop(&m, &[0, 1, 2, 3]).is_err());
        // Column 2 is zero; columns 0 and 3 meet only in a row with no kept column.
        let z = parse_matrix("1001\n0100\n").unwrap();
        assert!(check_drop(&z, &[2]).unwrap_err().contains("no 1"));
        assert!(check_drop(&z, &[0, 3]).unwrap_err().contains("no 1"));
        assert_eq!(check_drop(&z, &[0]), Ok(vec![0]));
    }

    /// The rotation bonus, against exact optima: on random matrices whose rows are closed
    /// under a rotation of the columns, every admissible set J for which
    /// [`rotation_bonus`] applies gives OPT(M) ≥ OPT(M without J) + |J| + 1.
    #[test]
    fn the_rotation_bonus_holds_on_random_symmetric_matrices() {
        let mut rng = ChaCha8Rng::seed_from_u64(36);
        let (mut checked, mut tight) = (0, 0);
        for case in 0..40 {
            let (n, s) = [(6, 2), (6, 3), (8, 2), (8, 4), (4, 1), (6, 1)][case % 6];
            let rot = |r: Row, k: usize| ((r << k) | (r >> (n - k))) & ((1 << n) - 1);
            let mut rs: Vec<Row> = Vec::new();
            for _ in 0..rng.random_range(1..=2) {
                let r: Row = rng.random_range(3..(1 << n)) as Row;
                for j in (0..n).step_by(s) {
                    rs.push(rot(r, j));
                }
            }
            rs.sort_unstable();
            rs.dedup();
            let m = BitMatrix::from_rows(n, rs);
            let mut full = None;
            for mask in 1u32..(1 << n) {
                let drop: Vec<usize> = (0..n).filter(|&c| mask >> c & 1 == 1).collect();
                let Ok(d) = check_drop(&m, &drop) else { continue };
                if rotation_bonus(&m, &d).is_none() {
                    continue;
                }
                let f = *full.get_or_insert_with(|| optimum(&m));
                let sub = optimum(&drop_columns(&m, &d));
                assert!(f >= lift_with_symmetry(&m, &d, sub), "case {case}: OPT {f} < {sub} + {} + 1 (drop {d:?}, matrix {m:?})", d.len());
                checked += 1;
                tight += usize::from(f == lift_with_symmetry(&m, &d, sub));
            }
        }
        assert!(checked > 50 && tight > 0, "{checked} sets, {tight} tight");
    }

    /// AES MixColumns: the byte rotation (8 columns) is a symmetry, and the orbit of a keep set
    /// with no common column earns the bonus; a set whose rotations share a column does not.
    #[test]
    fn rotation_bonus_on_aes_mixcolumns() {
        let m = parse_matrix(include_str!("../../../test-vectors/slp/aes_mixcolumns.txt")).unwrap();
        let drop = [0, 1, 3, 5, 6, 8, 10, 11, 12, 13, 14, 16, 17, 19, 23, 26, 27, 28];
        assert_eq!(check_drop(&m, &drop).unwrap(), drop.to_vec());
        assert!(rotation_bonus(&m, &drop).is_some_and(|s| s % 8 == 0));
        // Keeping column 0 and its images 8, 16, 24 in every rotation: no bonus.
        let only_0_1_kept: Vec<usize> = (0..32).filter(|c| c % 8 != 0 && c % 8 != 1).collect();
        assert_eq!(rotation_bonus(&m, &only_0_1_kept), None);
        assert_eq!(lift_with_symmetry(&m, &drop, 37), 56);
    }

    /// The lemma, against exact optima: on random matrices of 4–7 inputs, every set J that
    /// [`check_drop`] admits gives OPT(M) ≥ OPT(M without J) + |J|.
    #[test]
    fn the_lemma_holds_on_random_matrices() {
        let mut rng = ChaCha8Rng::seed_from_u64(14);
        let (mut checked, mut tight) = (0, 0);
        for case in 0..60 {
            let n = rng.random_range(4..=7);
            let rows = rng.random_range(3..=6);
            let rs: Vec<Row> = (0..rows).map(|_| rng.random_range(1..(1 << n)) as Row).collect();
            let m = BitMatrix::from_rows(n, rs);
            let full = optimum(&m);
            for mask in 1u32..(1 << n) {
                let drop: Vec<usize> = (0..n).filter(|&c| mask >> c & 1 == 1).collect();
                let Ok(d) = check_drop(&m, &drop) else { continue };
                let sub = optimum(&drop_columns(&m, &d));
                assert!(full >= lift(&d, sub), "case {case}: OPT {full} < {sub} + {} (drop {d:?}, matrix {m:?})", d.len());
                checked += 1;
                tight += usize::from(full == lift(&d, sub));
            }
        }
        // The bound is attained on some sets (so the test would notice an off-by-one).
        assert!(checked > 1000 && tight > 0, "{checked} sets, {tight} tight");
    }
}
