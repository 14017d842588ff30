//! A small safe wrapper over CaDiCaL's C API (`ccadical.h`).
//!
//! The solver itself is compiled from source by the `cadical` crate's build script with the
//! `cc` crate (a C++ compiler is all it needs: no bindgen, no libclang). That crate's own Rust
//! wrapper does not expose proof tracing or options, so the dozen C entry points used here are
//! declared by hand below; they are the stable IPASIR-style API of `ccadical.h` (CaDiCaL 1.9),
//! plus `ccadical_configure` which the `cadical` crate adds to the same static library.
//!
//! Used features: adding clauses, `solve` with a terminator callback, model values,
//! configurations (`plain`, `sat`, `unsat`), options, and binary or textual DRAT proof tracing
//! to a file. Incremental use (assumptions, several `solve` calls) is exposed too.

use std::ffi::{CString, c_char, c_int, c_void};
use std::path::Path;

// Link the static library built by the `cadical` crate (with its C++ runtime).
use cadical as _;

#[repr(C)]
struct CCaDiCaL {
    _private: [u8; 0],
}

unsafe extern "C" {
    fn ccadical_init() -> *mut CCaDiCaL;
    fn ccadical_release(s: *mut CCaDiCaL);
    fn ccadical_add(s: *mut CCaDiCaL, lit: c_int);
    fn ccadical_assume(s: *mut CCaDiCaL, lit: c_int);
    fn ccadical_solve(s: *mut CCaDiCaL) -> c_int;
    fn ccadical_val(s: *mut CCaDiCaL, lit: c_int) -> c_int;
    fn ccadical_set_terminate(s: *mut CCaDiCaL, state: *mut c_void, f: Option<unsafe extern "C" fn(*mut c_void) -> c_int>);
    fn ccadical_set_option(s: *mut CCaDiCaL, name: *const c_char, val: c_int);
    fn ccadical_trace_proof(s: *mut CCaDiCaL, file: *mut libc::FILE, path: *const c_char) -> c_int;
    fn ccadical_close_proof(s: *mut CCaDiCaL);
    fn ccadical_configure(s: *mut CCaDiCaL, name: *const c_char) -> c_int;
    fn ccadical_signature() -> *const c_char;
}

/// Result of [`Solver::solve`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// A model exists ([`Solver::value`] reads it).
    Sat,
    /// No model (under the current assumptions).
    Unsat,
    /// The terminator stopped the search.
    Interrupted,
}

type Terminator = Box<dyn FnMut() -> bool + Send>;

/// One CaDiCaL instance.
pub struct Solver {
    ptr: *mut CCaDiCaL,
    /// Boxed twice so the pointer handed to C stays valid when the solver moves.
    terminator: Option<Box<Terminator>>,
    proof: Option<*mut libc::FILE>,
}

// SAFETY: a CaDiCaL instance has no thread affinity; `Solver` owns it exclusively and every
// call takes `&mut self` (or `&self` for reads that do not mutate), so moving it to another
// thread is sound. The terminator is `Send`.
unsafe impl Send for Solver {}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver").field("proof", &self.proof.is_some()).finish_non_exhaustive()
    }
}

impl Default for Solver {
    fn default() -> Self {
        Self::new()
    }
}

unsafe extern "C" fn terminate_trampoline(state: *mut c_void) -> c_int {
    // SAFETY: `state` is the `Box<Terminator>` installed by `set_terminator`, alive for as long
    // as it is registered (it is unregistered before being dropped).
    let f = unsafe { &mut *state.cast::<Terminator>() };
    c_int::from(f())
}

fn cstr(s: &str) -> anyhow::Result<CString> {
    CString::new(s).map_err(|_| anyhow::anyhow!("NUL byte in {s:?}"))
}

impl Solver {
    /// A fresh solver.
    pub fn new() -> Self {
        // SAFETY: plain constructor; a null result (allocation failure) is checked.
        let ptr = unsafe { ccadical_init() };
        assert!(!ptr.is_null(), "ccadical_init failed");
        Solver { ptr, terminator: None, proof: None }
    }

    /// The solver's name and version (`cadical-1.9.5`).
    pub fn signature() -> String {
        // SAFETY: returns a pointer to a static NUL-terminated string.
        unsafe { std::ffi::CStr::from_ptr(ccadical_signature()) }.to_string_lossy().into_owned()
    }

    /// Applies a named configuration (`default`, `plain`, `sat`, `unsat`). Only valid before the
    /// first clause.
    pub fn configure(&mut self, name: &str) -> anyhow::Result<()> {
        let c = cstr(name)?;
        // SAFETY: valid solver and NUL-terminated string; CaDiCaL validates the name.
        let ok = unsafe { ccadical_configure(self.ptr, c.as_ptr()) };
        anyhow::ensure!(ok != 0, "unknown CaDiCaL configuration {name:?}");
        Ok(())
    }

    /// Sets an option (`binary`, `seed`, …). CaDiCaL ignores unknown names with a warning.
    pub fn set_option(&mut self, name: &str, value: i32) -> anyhow::Result<()> {
        let c = cstr(name)?;
        // SAFETY: valid solver and NUL-terminated string.
        unsafe { ccadical_set_option(self.ptr, c.as_ptr(), value) };
        Ok(())
    }

    /// Writes a DRAT proof of everything the solver derives to `path` (binary DRAT when
    /// `binary`, else textual). Must be called before the first clause.
    pub fn trace_proof(&mut self, path: &Path, binary: bool) -> anyhow::Result<()> {
        anyhow::ensure!(self.proof.is_none(), "a proof is already being traced");
        self.set_option("binary", i32::from(binary))?;
        let p = cstr(path.to_str().ok_or_else(|| anyhow::anyhow!("non-UTF-8 proof path {}", path.display()))?)?;
        // SAFETY: valid NUL-terminated strings; fopen returns null on failure, checked.
        let f = unsafe { libc::fopen(p.as_ptr(), c"wb".as_ptr()) };
        if f.is_null() {
            return Err(std::io::Error::last_os_error()).map_err(|e| anyhow::anyhow!("opening {}: {e}", path.display()));
        }
        // SAFETY: valid solver in its configuring state (enforced by the caller contract above;
        // CaDiCaL aborts otherwise) and an open FILE that we keep open until `close_proof`.
        let ok = unsafe { ccadical_trace_proof(self.ptr, f, p.as_ptr()) };
        self.proof = Some(f);
        anyhow::ensure!(ok != 0, "CaDiCaL refused proof tracing to {}", path.display());
        Ok(())
    }

    /// Flushes and closes the proof file (also done on drop).
    pub fn close_proof(&mut self) {
        if let Some(f) = self.proof.take() {
            // SAFETY: the solver is traced to `f`; closing the trace flushes CaDiCaL's buffer,
            // after which the FILE is ours to close.
            unsafe {
                ccadical_close_proof(self.ptr);
                libc::fclose(f);
            }
        }
    }

    /// Adds one clause of non-zero DIMACS literals.
    pub fn add_clause(&mut self, lits: &[i32]) {
        for &l in lits {
            assert!(l != 0 && l != i32::MIN, "invalid literal {l}");
            // SAFETY: valid solver, non-zero literal.
            unsafe { ccadical_add(self.ptr, l) };
        }
        // SAFETY: terminates the clause.
        unsafe { ccadical_add(self.ptr, 0) };
    }

    /// Assumes `lit` for the next `solve` only (incremental solving).
    pub fn assume(&mut self, lit: i32) {
        assert!(lit != 0 && lit != i32::MIN, "invalid literal {lit}");
        // SAFETY: valid solver, non-zero literal.
        unsafe { ccadical_assume(self.ptr, lit) };
    }

    /// Installs a callback polled during search: returning `true` stops it.
    pub fn set_terminator(&mut self, f: impl FnMut() -> bool + Send + 'static) {
        let mut b: Box<Terminator> = Box::new(Box::new(f));
        let state = (&mut *b as *mut Terminator).cast::<c_void>();
        // SAFETY: `state` points into the heap allocation `b`, which we store in `self` and keep
        // until it is replaced (after re-registration) or the solver is released.
        unsafe { ccadical_set_terminate(self.ptr, state, Some(terminate_trampoline)) };
        self.terminator = Some(b);
    }

    /// Solves under the current clauses and assumptions.
    pub fn solve(&mut self) -> Status {
        // SAFETY: valid solver.
        match unsafe { ccadical_solve(self.ptr) } {
            10 => Status::Sat,
            20 => Status::Unsat,
            _ => Status::Interrupted,
        }
    }

    /// The value of `lit` in the model of the last `Sat` answer.
    pub fn value(&self, lit: i32) -> bool {
        assert!(lit != 0 && lit != i32::MIN, "invalid literal {lit}");
        // SAFETY: valid solver; CaDiCaL requires the SAT state, which callers ensure (it
        // aborts with a message otherwise, it does not read out of bounds).
        unsafe { ccadical_val(self.ptr, lit) > 0 }
    }
}

impl Drop for Solver {
    fn drop(&mut self) {
        self.close_proof();
        // SAFETY: releases the instance we own; the terminator box is dropped afterwards.
        unsafe { ccadical_release(self.ptr) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sat_unsat_and_incremental() {
        let mut s = Solver::new();
        s.add_clause(&[1, 2]);
        s.add_clause(&[-1, 2]);
        assert_eq!(s.solve(), Status::Sat);
        assert!(s.value(2));
        s.assume(-2);
        assert_eq!(s.solve(), Status::Unsat);
        // Assumptions last for one call only.
        assert_eq!(s.solve(), Status::Sat);
        assert!(Solver::signature().starts_with("cadical"));
    }

    #[test]
    fn terminator_interrupts() {
        // Pigeonhole 9 into 8: hard enough that an immediate terminator wins.
        let mut s = Solver::new();
        let v = |p: i32, h: i32| p * 8 + h + 1;
        for p in 0..9 {
            s.add_clause(&(0..8).map(|h| v(p, h)).collect::<Vec<_>>());
        }
        for h in 0..8 {
            for a in 0..9 {
                for b in a + 1..9 {
                    s.add_clause(&[-v(a, h), -v(b, h)]);
                }
            }
        }
        s.set_terminator(|| true);
        assert_eq!(s.solve(), Status::Interrupted);
    }

    #[test]
    fn drat_proof_is_written() {
        let dir = std::env::temp_dir().join(format!("slp-cadical-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("p.drat");
        {
            let mut s = Solver::new();
            s.trace_proof(&path, false).unwrap();
            for c in [[1, 2], [-1, 2], [1, -2], [-1, -2]] {
                s.add_clause(&c);
            }
            assert_eq!(s.solve(), Status::Unsat);
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // A textual DRAT proof of an UNSAT formula ends by deriving the empty clause.
        assert!(text.lines().any(|l| l.trim() == "0"), "{text}");
        let _ = std::fs::remove_dir_all(dir);
    }
}
