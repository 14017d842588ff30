//! `entry_points!`: the safe wrappers every SIMD backend declares for its kernels. Below the
//! kernels that invoke it and `backend/mod.rs`, which dispatches to them (and re-exports it, so
//! kernels write `super::entry_points!`).

/// Safe entry points for a SIMD backend: each checks `available()` (a cached CPUID look-up)
/// and then runs the kernel compiled with the backend's target features. On x86-64 the same
/// feature string defines the backend's requirement (`FEATURES`) and its `available()`, so what
/// a kernel is compiled for and what detection checks cannot drift apart.
macro_rules! entry_points {
    (features = $f:literal; $( $name:ident ( $($arg:ident : $ty:ty),* ) -> $ret:ty = $body:expr; )*) => {
        /// The target features this backend's kernels are compiled with.
        #[cfg(target_arch = "x86_64")]
        pub(crate) const FEATURES: crate::cpu::Features = crate::cpu::Features::from_names($f);
        /// Whether this CPU has every feature in [`FEATURES`].
        #[cfg(target_arch = "x86_64")]
        pub(crate) fn available() -> bool {
            crate::cpu::features().contains(FEATURES)
        }
        $crate::backend::entry_points!(@fns $f; $( $name ( $($arg : $ty),* ) -> $ret = $body; )*);
    };
    (@fns $f:literal; $( $name:ident ( $($arg:ident : $ty:ty),* ) -> $ret:ty = $body:expr; )*) => {$(
        #[allow(clippy::unused_unit, dead_code)]
        pub(crate) fn $name($($arg: $ty),*) -> $ret {
            #[target_feature(enable = $f)]
            unsafe fn kernel($($arg: $ty),*) -> $ret {
                // SAFETY: the enabled features are exactly those the kernel's lane types need.
                unsafe { $body }
            }
            assert!(available(), "CPU lacks {}", $f);
            // SAFETY: `available()` just confirmed that this CPU has every feature in `$f`.
            unsafe { kernel($($arg),*) }
        }
    )*};
}
pub(crate) use entry_points;
