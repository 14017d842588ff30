//! Caps: the restriction lemma of [`crate::restrict`] used inside the SAT encoding of
//! [`crate::sat`].
//!
//! # The argument
//! Let P be any program with k XORs that computes the rows of M, and J a set of inputs. Set
//! the inputs of J to zero everywhere in P: every line now computes its value restricted to
//! the other columns. Go through the lines in order and delete each line whose restricted
//! value is zero, a single input, or the restricted value of an earlier line, letting its
//! users (and an output it holds) read that input or earlier line instead (a zero operand
//! makes its user a copy of the other operand, which is then deleted in turn, being equal to
//! it). The remaining lines compute the rows of M without the columns J, over the other
//! inputs. Call a line of P *redundant for J* if its value v satisfies one of
//! - v ⊕ v' has all its ones in J for some earlier line v' (the two become equal);
//! - v has at most one 1 outside J (it becomes zero or an input).
//!
//! Every deleted line is redundant for J, so with r_J(P) the number of redundant lines,
//!
//! > r_J(P) ≤ k − OPT(M without J) ≤ k − LB
//!
//! for any proven lower bound LB of the smaller matrix, and for *every* program P with k lines
//! — in particular for the program in normal form that the proof of [`crate::sat`] rewrites
//! any shorter program into. A line that adds an input of J directly is redundant (it equals
//! its other operand outside J), so this bounds those lines too, as in [`crate::restrict`];
//! but it also counts, for instance, any two lines that differ only in bits of J.
//!
//! The CNF for k therefore may require "at most k − LB lines are redundant for J" (an
//! indicator per line, implied by each of the conditions above, and a sequential counter)
//! without losing any program it has to keep; if k < LB it is unsatisfiable outright. The
//! caps are made for single columns; pairs were tried and gave nothing.
//!
//! Measured on the Zen 5 (docs/slp-history.md, "Caps and cubes"): random8_s2's k = 13 is refuted in 13 s
//! instead of 240–540 s, random8_s3's k = 14 in about 60 s instead of 550–1 756 s.
//!
//! The indicators also give the cubes of [`crate::sat`]'s cube-and-conquer: for the cap
//! that allows the fewest lines, "line j is the first redundant line" for each j, and "no
//! line is redundant".
//!
//! # Proofs
//! Each cap's LB is proven by its own exact search on the smaller matrix (`prove_caps` in
//! [`crate::sat`]), in the sub-directory `cap-<columns>` of the proof directory (for example
//! `cap-3`), which is a proof directory of its own (and may have caps of its own, one level
//! down). [`crate::sat::check::check_proof_dir`] checks those first, requires each one's matrix
//! to be the whole matrix without the cap's columns and its proven bound to be at least the
//! cap's LB, and only then rebuilds the CNFs that use the caps.
//!
//! This module is the lower layer of the caps: their type, the names of their directories and
//! their clauses. Proving and checking them live with the search and the checker.

use crate::cnf::Cnf;

/// One cap: at most `k − sub_bound` lines of a k-line program are redundant for `inputs`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Cap {
    /// The inputs (matrix columns, 0 is the first), sorted.
    pub inputs: Vec<usize>,
    /// A proven lower bound for the matrix without those columns.
    pub sub_bound: usize,
}

/// What one cap's sub-search found, as reported to [`crate::sat::Progress::Cap`].
#[derive(Debug, Clone, PartialEq)]
pub struct CapReport {
    /// The cap (columns and the bound proven for the matrix without them).
    pub cap: Cap,
    /// Whether that bound is the smaller matrix's optimum.
    pub optimal: bool,
    /// Seconds spent.
    pub secs: f64,
}

/// Name of the sub-directory of a proof directory that proves the bound of the cap on
/// `inputs`: `cap-3`, `cap-1-5`.
pub fn cap_dir_name(inputs: &[usize]) -> String {
    let cols: Vec<String> = inputs.iter().map(|c| c.to_string()).collect();
    format!("cap-{}", cols.join("-"))
}

/// Whether `name` has the form of [`cap_dir_name`].
pub(crate) fn is_cap_dir_name(name: &str) -> bool {
    name.strip_prefix("cap-").is_some_and(|r| !r.is_empty() && r.split('-').all(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())))
}

/// Adds the caps to the CNF for `k` lines with operand selectors `op1`, `op2` and values `val`
/// (inputs are the first `n` signals).
pub(crate) fn encode_caps(f: &mut Cnf, n: usize, k: usize, op1: &[Vec<i32>], op2: &[Vec<i32>], val: &[Vec<i32>], caps: &[Cap]) -> Vec<Vec<i32>> {
    let mut all = Vec::new();
    // diff[j][l][b] (l < j) implies that lines j and l differ in bit b (only that direction).
    let mut diff: Vec<Vec<Vec<i32>>> = Vec::new();
    if !caps.is_empty() {
        for j in 0..k {
            let row: Vec<Vec<i32>> = (0..j)
                .map(|l| {
                    (0..n)
                        .map(|b| {
                            let d = f.var();
                            f.add(&[-d, val[j][b], val[l][b]]);
                            f.add(&[-d, -val[j][b], -val[l][b]]);
                            d
                        })
                        .collect()
                })
                .collect();
            diff.push(row);
        }
    }
    for cap in caps {
        let Some(limit) = k.checked_sub(cap.sub_bound) else {
            // k < LB: no program with k lines exists.
            let x = f.var();
            f.add(&[x]);
            f.add(&[-x]);
            all.push(Vec::new());
            continue;
        };
        if limit >= k {
            all.push(Vec::new());
            continue;
        }
        // touch[j] is implied by line j being redundant for the inputs (only the direction the
        // upper bound needs): by taking an operand from them (which the conditions below
        // imply, but stated directly it propagates at once), by differing from an earlier
        // line only in them, or by being zero or an input outside them.
        let out: Vec<usize> = (0..n).filter(|b| !cap.inputs.contains(b)).collect();
        let touch: Vec<i32> = (0..k)
            .map(|j| {
                let t = f.var();
                for &s in &cap.inputs {
                    f.add(&[-op1[j][s], t]);
                    f.add(&[-op2[j][s], t]);
                }
                // j differs from an earlier line in bits of J only.
                for dl in &diff[j] {
                    let mut c = vec![t];
                    c.extend(out.iter().map(|&b| dl[b]));
                    f.add(&c);
                }
                // j is zero or a unit outside J.
                let mut c = vec![t];
                c.extend(out.iter().map(|&x| val[j][x]));
                f.add(&c);
                for &b in &out {
                    let mut c = vec![t, -val[j][b]];
                    c.extend(out.iter().filter(|&&x| x != b).map(|&x| val[j][x]));
                    f.add(&c);
                }
                t
            })
            .collect();
        at_most(f, &touch, limit);
        all.push(touch);
    }
    all
}

/// At most `c` of `xs` are true (Sinz's sequential counter).
fn at_most(f: &mut Cnf, xs: &[i32], c: usize) {
    if c == 0 {
        for &x in xs {
            f.add(&[-x]);
        }
        return;
    }
    // s[l]: at least l + 1 of the variables so far are true (l < c).
    let mut prev: Vec<i32> = Vec::new();
    for (j, &x) in xs.iter().enumerate() {
        let cur: Vec<i32> = (0..c).map(|_| f.var()).collect();
        f.add(&[-x, cur[0]]);
        if j > 0 {
            for l in 0..c {
                f.add(&[-prev[l], cur[l]]);
            }
            for l in 1..c {
                f.add(&[-x, -prev[l - 1], cur[l]]);
            }
            f.add(&[-x, -prev[c - 1]]);
        }
        prev = cur;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_counts() {
        // All assignments of 5 variables: the counter admits exactly those with at most c true.
        for c in 0..=5usize {
            for mask in 0u32..32 {
                let mut f = Cnf::default();
                let xs: Vec<i32> = (0..5).map(|_| f.var()).collect();
                at_most(&mut f, &xs, c);
                for (i, &x) in xs.iter().enumerate() {
                    f.add(&[if mask >> i & 1 == 1 { x } else { -x }]);
                }
                let mut s = crate::cadical::Solver::new();
                for cl in &f.clauses {
                    s.add_clause(cl);
                }
                let sat = s.solve() == crate::cadical::Status::Sat;
                assert_eq!(sat, mask.count_ones() as usize <= c, "c = {c}, mask {mask:05b}");
            }
        }
    }

    #[test]
    fn cap_dir_names() {
        assert_eq!(cap_dir_name(&[3]), "cap-3");
        assert_eq!(cap_dir_name(&[1, 15]), "cap-1-15");
        assert!(is_cap_dir_name("cap-3") && is_cap_dir_name("cap-1-15"));
        assert!(!is_cap_dir_name("cap-") && !is_cap_dir_name("cap-1-") && !is_cap_dir_name("cap-x") && !is_cap_dir_name("k3.cnf"));
    }
}
