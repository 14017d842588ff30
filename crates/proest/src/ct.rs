//! Constant-time checking hooks, in the style of SUPERCOP's TIMECOP.
//!
//! With the `ct-valgrind` feature (testing only; x86-64 Linux) these issue Valgrind Memcheck
//! client requests: a harness marks keys and messages *undefined* with [`poison`], and
//! Memcheck then reports every conditional branch and every memory address that depends on
//! them. The library marks exactly one secret-derived value as public again, with
//! `declassify`: the decryption verdict (tag and padding both verify), and after a verified
//! decryption the plaintext length, both of which the caller learns anyway. Without the
//! feature `declassify` is the identity and compiles to nothing.
//!
//! The client request is Valgrind's "special instruction" sequence (four `rol`s of `rdi` that
//! add up to a full turn, then `xchg rbx, rbx`): a no-op on a real CPU, recognised by
//! Valgrind's JIT. Request numbers are those of `<valgrind/memcheck.h>` (3.x, unchanged since
//! 3.2).

#[cfg(all(feature = "ct-valgrind", target_arch = "x86_64"))]
#[allow(unsafe_code)]
mod client {
    /// `VG_USERREQ_TOOL_BASE('M', 'C')`.
    const MC_BASE: u64 = (b'M' as u64) << 24 | (b'C' as u64) << 16;
    pub(super) const MAKE_MEM_UNDEFINED: u64 = MC_BASE + 1;
    pub(super) const MAKE_MEM_DEFINED: u64 = MC_BASE + 2;
    pub(super) const RUNNING_ON_VALGRIND: u64 = 0x1001;

    /// Issues one client request; returns `default` when not running under Valgrind.
    #[inline(never)]
    pub(super) fn request(req: u64, a1: u64, a2: u64, default: u64) -> u64 {
        let args: [u64; 6] = [req, a1, a2, 0, 0, 0];
        let mut result = default;
        // SAFETY: the rotations of `rdi` add up to 128 bits (a no-op) and `xchg rbx, rbx`
        // changes nothing, so on a real CPU the sequence only reads `rax` and leaves `rdx`
        // as it was; under Valgrind it reads `args` (alive for the whole block) and writes
        // `rdx`. No stack use; memory may be read (hence no `nomem`).
        unsafe {
            core::arch::asm!(
                "rol rdi, 3",
                "rol rdi, 13",
                "rol rdi, 61",
                "rol rdi, 51",
                "xchg rbx, rbx",
                in("rax") args.as_ptr(),
                inout("rdx") result,
                options(nostack, preserves_flags),
            );
        }
        result
    }
}

/// Marks `b` as secret (Memcheck: undefined). No effect outside Valgrind.
#[cfg(all(feature = "ct-valgrind", target_arch = "x86_64"))]
pub fn poison(b: &[u8]) {
    client::request(client::MAKE_MEM_UNDEFINED, b.as_ptr() as u64, b.len() as u64, 0);
}

/// Marks `b` as public (Memcheck: defined). No effect outside Valgrind.
#[cfg(all(feature = "ct-valgrind", target_arch = "x86_64"))]
pub fn unpoison(b: &[u8]) {
    client::request(client::MAKE_MEM_DEFINED, b.as_ptr() as u64, b.len() as u64, 0);
}

/// Whether the program runs under Valgrind.
#[cfg(all(feature = "ct-valgrind", target_arch = "x86_64"))]
pub fn running_on_valgrind() -> bool {
    client::request(client::RUNNING_ON_VALGRIND, 0, 0, 0) != 0
}

/// Marks a secret-derived value public (see the module documentation): the value goes through
/// memory, is marked defined there, and is read back.
#[cfg(all(feature = "ct-valgrind", target_arch = "x86_64"))]
#[allow(unsafe_code)]
#[inline]
pub(crate) fn declassify<T: Copy>(x: T) -> T {
    let v = x;
    client::request(client::MAKE_MEM_DEFINED, (&raw const v) as u64, size_of::<T>() as u64, 0);
    // SAFETY: `v` is a live, initialised, aligned local; a volatile read makes the compiler
    // load it from the memory the request just marked.
    unsafe { core::ptr::read_volatile(&raw const v) }
}

/// Without `ct-valgrind`: the identity.
#[cfg(not(all(feature = "ct-valgrind", target_arch = "x86_64")))]
#[inline(always)]
pub(crate) fn declassify<T: Copy>(x: T) -> T {
    x
}
