//! Platform probes shared by the slicewise crates, which do not depend on each other: NEON
//! detection on 32-bit ARM Linux and the x86-64 time-stamp counter. `no_std`; every item exists
//! only where it means something, so the crate is empty on a microcontroller.
//!
//! - [`arm_linux_has_neon`] (32-bit ARM Linux): whether the kernel reports NEON, from the
//!   auxiliary vector (`getauxval(AT_HWCAP)`), read once per process. The ARMv7 NEON backends
//!   of Grøstl (`neon7bs`, `neon7vp`, `neon7tt`) and Prøst (`neon`) are available when it is true.
//! - [`rdtsc`] (x86-64): the time-stamp counter, the unit of every cycle figure.
//! - [`ticks`] (feature `std`): [`rdtsc`] on x86-64, elsewhere nanoseconds since the first call;
//!   [`tick_unit`] names the unit. The benchmark harness, the timing test and the quick bench
//!   read their clock here.
#![no_std]

#[cfg(feature = "std")]
extern crate std;

/// Whether the Linux kernel reports NEON on this 32-bit ARM CPU (`HWCAP_NEON` in
/// `getauxval(AT_HWCAP)`). The answer is cached: the auxiliary vector is read once per process.
#[cfg(all(target_arch = "arm", target_os = "linux"))]
pub fn arm_linux_has_neon() -> bool {
    use core::ffi::c_ulong;
    use core::sync::atomic::{AtomicU8, Ordering};

    unsafe extern "C" {
        fn getauxval(kind: c_ulong) -> c_ulong;
    }
    const AT_HWCAP: c_ulong = 16;
    const HWCAP_NEON: c_ulong = 1 << 12;

    // 0: not read yet, 1: no NEON, 2: NEON.
    static CACHE: AtomicU8 = AtomicU8::new(0);
    match CACHE.load(Ordering::Relaxed) {
        1 => false,
        2 => true,
        _ => {
            // SAFETY: getauxval (glibc, musl, bionic) has no preconditions; it only reads the
            // process's auxiliary vector and returns 0 for a type it does not know.
            let neon = unsafe { getauxval(AT_HWCAP) } & HWCAP_NEON != 0;
            CACHE.store(if neon { 2 } else { 1 }, Ordering::Relaxed);
            neon
        }
    }
}

/// The x86-64 time-stamp counter (`RDTSC`; not serialising).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn rdtsc() -> u64 {
    // SAFETY: RDTSC has no preconditions; every x86-64 CPU has it.
    unsafe { core::arch::x86_64::_rdtsc() }
}

/// A cheap monotonic clock for measurements: [`rdtsc`] on x86-64, elsewhere nanoseconds since
/// the first call in this process. [`tick_unit`] names the unit.
#[cfg(feature = "std")]
#[inline(always)]
pub fn ticks() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        rdtsc()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        use std::sync::OnceLock;
        use std::time::Instant;
        static START: OnceLock<Instant> = OnceLock::new();
        START.get_or_init(Instant::now).elapsed().as_nanos() as u64
    }
}

/// The name of the unit [`ticks`] counts in.
#[cfg(feature = "std")]
pub fn tick_unit() -> &'static str {
    if cfg!(target_arch = "x86_64") { "TSC cycles" } else { "ns" }
}

#[cfg(test)]
mod tests {
    #[cfg(feature = "std")]
    #[test]
    fn ticks_advance() {
        let t0 = super::ticks();
        let mut x = 0u64;
        for i in 0..100_000u64 {
            x = core::hint::black_box(x.wrapping_add(i));
        }
        let t1 = super::ticks();
        assert!(t1 > t0, "the clock did not advance: {t0} then {t1} ({x})");
    }

    #[cfg(all(target_arch = "arm", target_os = "linux"))]
    #[test]
    fn neon_answer_is_stable() {
        assert_eq!(super::arm_linux_has_neon(), super::arm_linux_has_neon());
    }
}
