//! A CNF under construction, in DIMACS literals: the clause store of the SAT encodings
//! ([`crate::sat::encode`], [`crate::satcaps`], [`crate::satwin`]).

use std::fmt::Write as _;

/// A CNF under construction (DIMACS literals).
#[derive(Debug, Default)]
pub struct Cnf {
    /// Number of variables.
    pub vars: i32,
    /// Clauses.
    pub clauses: Vec<Vec<i32>>,
}

impl Cnf {
    pub(crate) fn var(&mut self) -> i32 {
        self.vars += 1;
        self.vars
    }
    pub(crate) fn add(&mut self, c: &[i32]) {
        self.clauses.push(c.to_vec());
    }
    /// DIMACS text.
    pub fn dimacs(&self, comment: &str) -> String {
        let mut s = String::with_capacity(self.clauses.len() * 16);
        for l in comment.lines() {
            let _ = writeln!(s, "c {l}");
        }
        let _ = writeln!(s, "p cnf {} {}", self.vars, self.clauses.len());
        for c in &self.clauses {
            for l in c {
                let _ = write!(s, "{l} ");
            }
            s.push_str("0\n");
        }
        s
    }
}
