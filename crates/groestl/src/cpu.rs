//! Which CPU this is, beyond its feature flags: vendor, family, model and the micro-architecture
//! class that `Backend::detect` orders its backends by.
//!
//! Feature flags say what a CPU can run, not how fast. Two differences matter for the Grøstl
//! kernels: whether 256-bit operations are split into two 128-bit halves (AMD Zen 1 and Zen+,
//! where a YMM kernel issues as many micro-ops as the XMM one and gains only decode bandwidth),
//! and whether 512-bit operations are (Zen 4). The class records them; `Backend::detect` keeps
//! one preference order per class (`docs/groestl-backends.md` says which orders were measured on
//! which machine).

use core::fmt;

/// A micro-architecture class.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CpuClass {
    /// AMD Zen 1 / Zen+ (family 17h, models 00h–2Fh) and Hygon Dhyana (family 18h): AVX2 on
    /// 128-bit datapaths, no VAES.
    AmdZen1,
    /// AMD Zen 2 (family 17h, models 30h and up): full 256-bit datapaths, no VAES.
    AmdZen2,
    /// AMD Zen 3 (family 19h without AVX-512): 256-bit VAES, no AVX-512.
    AmdZen3,
    /// AMD Zen 4 (family 19h with AVX-512): AVX-512 on 256-bit datapaths, VAES, GFNI.
    AmdZen4,
    /// AMD Zen 5 (family 1Ah): AVX-512 on 512-bit datapaths (server and desktop parts), VAES,
    /// GFNI.
    AmdZen5,
    /// An Intel core with AVX-512 (Skylake-X and later server parts, Ice Lake, Tiger Lake, …).
    IntelAvx512,
    /// An Intel core with AVX2 and no AVX-512 (Haswell to Comet Lake, Alder Lake and later
    /// client parts, or any core whose AVX-512 a hypervisor hides).
    IntelAvx2,
    /// Anything else (other vendors, older cores, other architectures).
    Other,
}

/// What CPUID says about this CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuInfo {
    /// The CPUID vendor string (`AuthenticAMD`, `GenuineIntel`, …), empty off x86.
    pub vendor: [u8; 12],
    /// Display family (base + extended family).
    pub family: u32,
    /// Display model (extended model folded in where the vendor does so).
    pub model: u32,
    /// The class `Backend::detect` uses.
    pub class: CpuClass,
    /// The instruction-set features the backends need, with the OS state checks applied.
    pub features: Features,
}

/// The x86 instruction-set features the Grøstl backends are compiled for, as CPUID reports them
/// and with the same OS register-state checks as `std::is_x86_feature_detected!`:
///
/// - `avx`, `avx2` (and every VEX-encoded instruction) need the YMM state (XCR0 bits 1–2);
/// - `avx512*` need the ZMM and mask state as well (XCR0 bits 5–7);
/// - `vaes`, `gfni` and `vpclmulqdq` are the CPUID bits alone. Their VEX forms on YMM registers
///   run on any CPU that also has `avx` (AMD Zen 3, Intel Alder Lake, a VM that hides AVX-512);
///   only their EVEX forms need AVX-512. A backend lists `avx` beside them, so its kernels get
///   the YMM state check through that.
///
/// (`cpufeatures` 0.3 files `vaes`, `gfni` and `vpclmulqdq` under the AVX-512 state, so on a CPU
/// without AVX-512 it reports them absent: the reason this crate reads CPUID itself.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Features(u32);

/// Names and bits, in the spelling of `#[target_feature(enable = "...")]`.
const FEATURE_NAMES: [(&str, u32); 14] = [
    ("sse2", 1 << 0),
    ("ssse3", 1 << 1),
    ("aes", 1 << 2),
    ("pclmulqdq", 1 << 3),
    ("avx", 1 << 4),
    ("avx2", 1 << 5),
    ("vaes", 1 << 6),
    ("vpclmulqdq", 1 << 7),
    ("gfni", 1 << 8),
    ("avx512f", 1 << 9),
    ("avx512bw", 1 << 10),
    ("avx512vl", 1 << 11),
    ("avx512vbmi", 1 << 12),
    ("avx512vbmi2", 1 << 13),
];

/// Whether `s[start..end]` is `name` (a `const fn` has no slice comparison).
const fn name_is(s: &[u8], start: usize, end: usize, name: &[u8]) -> bool {
    if end - start != name.len() {
        return false;
    }
    let mut i = 0;
    while i < name.len() {
        if s[start + i] != name[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl Features {
    /// No feature.
    pub const NONE: Features = Features(0);

    /// The features named in a comma-separated list in the spelling of
    /// `#[target_feature(enable = "...")]` (`"sse2,ssse3,aes"`). A `const fn`, so that a
    /// backend's requirement is computed at compile time from the very string its kernels are
    /// compiled with; an unknown name is a compile-time error there.
    pub const fn from_names(list: &str) -> Features {
        let s = list.as_bytes();
        let mut bits = 0;
        let mut start = 0;
        while start < s.len() {
            let mut end = start;
            while end < s.len() && s[end] != b',' {
                end += 1;
            }
            let mut k = 0;
            let mut found = false;
            while k < FEATURE_NAMES.len() {
                if name_is(s, start, end, FEATURE_NAMES[k].0.as_bytes()) {
                    bits |= FEATURE_NAMES[k].1;
                    found = true;
                }
                k += 1;
            }
            assert!(found, "unknown target feature in a backend's feature list");
            start = end + 1;
        }
        Features(bits)
    }

    /// Whether every feature of `other` is present.
    pub const fn contains(self, other: Features) -> bool {
        self.0 & other.0 == other.0
    }

    /// `self` and `other` together.
    pub const fn union(self, other: Features) -> Features {
        Features(self.0 | other.0)
    }

    /// `self` without the features of `other`.
    pub const fn without(self, other: Features) -> Features {
        Features(self.0 & !other.0)
    }

    /// The names of the features present, in a fixed order.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        FEATURE_NAMES.iter().filter(move |(_, bit)| self.0 & bit != 0).map(|(name, _)| *name)
    }

    /// Decodes CPUID leaf 1 (`ecx`, `edx`), leaf 7 sub-leaf 0 (`ebx`, `ecx`) and XCR0 (0 when
    /// the OS has not enabled `XGETBV`, i.e. CPUID.1:ECX.OSXSAVE is clear). Pure, so that the
    /// detection can be tested for CPUs this machine is not.
    pub const fn from_cpuid(leaf1_ecx: u32, leaf1_edx: u32, leaf7_ebx: u32, leaf7_ecx: u32, xcr0: u64) -> Features {
        const fn bit(r: u32, b: u32) -> bool {
            r >> b & 1 == 1
        }
        let osxsave = bit(leaf1_ecx, 27) && bit(leaf1_ecx, 26);
        let ymm_state = osxsave && xcr0 & 0b110 == 0b110;
        let zmm_state = ymm_state && xcr0 & 0xe0 == 0xe0;
        // std also asks for F16C and FMA before it reports AVX-512 (every AVX-512 CPU has them).
        let fma_f16c = bit(leaf1_ecx, 12) && bit(leaf1_ecx, 29);
        let mut names: [bool; 14] = [false; 14];
        names[0] = bit(leaf1_edx, 26);
        names[1] = bit(leaf1_ecx, 9);
        names[2] = bit(leaf1_ecx, 25);
        names[3] = bit(leaf1_ecx, 1);
        names[4] = ymm_state && bit(leaf1_ecx, 28);
        names[5] = ymm_state && bit(leaf7_ebx, 5);
        names[6] = bit(leaf7_ecx, 9);
        names[7] = bit(leaf7_ecx, 10);
        names[8] = bit(leaf7_ecx, 8);
        let avx512 = zmm_state && fma_f16c;
        names[9] = avx512 && bit(leaf7_ebx, 16);
        names[10] = avx512 && bit(leaf7_ebx, 30);
        names[11] = avx512 && bit(leaf7_ebx, 31);
        names[12] = avx512 && bit(leaf7_ecx, 1);
        names[13] = avx512 && bit(leaf7_ecx, 6);
        let mut bits = 0;
        let mut k = 0;
        while k < names.len() {
            if names[k] {
                bits |= FEATURE_NAMES[k].1;
            }
            k += 1;
        }
        Features(bits)
    }
}

impl fmt::Display for Features {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, name) in self.names().enumerate() {
            write!(f, "{}{name}", if i > 0 { " " } else { "" })?;
        }
        Ok(())
    }
}

/// This CPU's features (CPUID and XGETBV read once, then cached). None off x86-64.
#[cfg(any(not(target_arch = "x86_64"), miri))]
pub fn features() -> Features {
    Features::NONE
}

/// This CPU's features (CPUID and XGETBV read once, then cached). None off x86-64.
#[cfg(all(target_arch = "x86_64", not(miri)))]
pub fn features() -> Features {
    use core::sync::atomic::{AtomicU32, Ordering};
    // Bit 31 marks the cache as filled (no feature uses it).
    static CACHE: AtomicU32 = AtomicU32::new(0);
    const FILLED: u32 = 1 << 31;
    let c = CACHE.load(Ordering::Relaxed);
    if c & FILLED != 0 {
        return Features(c & !FILLED);
    }
    let f = read_features();
    CACHE.store(f.0 | FILLED, Ordering::Relaxed);
    f
}

// The one `unsafe` here is `XGETBV`, guarded by the CPUID bits that say it exists. Miri cannot
// execute CPUID (and runs no SIMD backend).
#[cfg(all(target_arch = "x86_64", not(miri)))]
#[allow(unsafe_code)]
fn read_features() -> Features {
    use core::arch::x86_64::{__cpuid, __cpuid_count, _xgetbv};
    let l0 = __cpuid(0);
    let l1 = __cpuid(1);
    let (b7, c7) = if l0.eax >= 7 {
        let l7 = __cpuid_count(7, 0);
        (l7.ebx, l7.ecx)
    } else {
        (0, 0)
    };
    let osxsave = l1.ecx >> 27 & 1 == 1 && l1.ecx >> 26 & 1 == 1;
    // SAFETY: `XGETBV` exists when CPUID says XSAVE is supported and the OS has set OSXSAVE.
    let xcr0 = if osxsave { unsafe { xgetbv0() } } else { 0 };
    #[target_feature(enable = "xsave")]
    unsafe fn xgetbv0() -> u64 {
        // SAFETY: the caller checked CPUID.1:ECX.XSAVE and OSXSAVE.
        unsafe { _xgetbv(0) }
    }
    Features::from_cpuid(l1.ecx, l1.edx, b7, c7, xcr0)
}

impl CpuInfo {
    /// The vendor string as text.
    pub fn vendor_str(&self) -> &str {
        core::str::from_utf8(&self.vendor).unwrap_or("?").trim_end_matches('\0')
    }
}

impl fmt::Display for CpuInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} family {:#x} model {:#x} ({})", self.vendor_str(), self.family, self.model, self.class)
    }
}

impl fmt::Display for CpuClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CpuClass::AmdZen1 => "AMD Zen 1/Zen+, split 256-bit datapaths",
            CpuClass::AmdZen2 => "AMD Zen 2",
            CpuClass::AmdZen3 => "AMD Zen 3",
            CpuClass::AmdZen4 => "AMD Zen 4",
            CpuClass::AmdZen5 => "AMD Zen 5",
            CpuClass::IntelAvx512 => "Intel with AVX-512",
            CpuClass::IntelAvx2 => "Intel with AVX2, no AVX-512",
            CpuClass::Other => "other",
        })
    }
}

/// Classifies from CPUID values (pure, so it can be tested for every class).
pub fn classify(vendor: &[u8; 12], family: u32, model: u32, avx512: bool) -> CpuClass {
    match (vendor, family) {
        (b"AuthenticAMD", 0x17) if model < 0x30 => CpuClass::AmdZen1,
        (b"AuthenticAMD", 0x17) => CpuClass::AmdZen2,
        // Hygon Dhyana (family 18h) is a Zen 1 derivative.
        (b"HygonGenuine", 0x18) => CpuClass::AmdZen1,
        (b"AuthenticAMD", 0x19) if avx512 => CpuClass::AmdZen4,
        (b"AuthenticAMD", 0x19) => CpuClass::AmdZen3,
        (b"AuthenticAMD", f) if f >= 0x1a => CpuClass::AmdZen5,
        (b"GenuineIntel", 6) if avx512 => CpuClass::IntelAvx512,
        (b"GenuineIntel", 6) => CpuClass::IntelAvx2,
        _ => CpuClass::Other,
    }
}

/// This CPU (read once; CPUID is cheap but serialising).
pub fn cpu_info() -> CpuInfo {
    // Miri cannot execute CPUID (and no SIMD backend is available under it anyway).
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        use core::arch::x86_64::__cpuid;
        let l0 = __cpuid(0);
        let mut vendor = [0u8; 12];
        vendor[..4].copy_from_slice(&l0.ebx.to_le_bytes());
        vendor[4..8].copy_from_slice(&l0.edx.to_le_bytes());
        vendor[8..].copy_from_slice(&l0.ecx.to_le_bytes());
        let l1 = __cpuid(1);
        let base_family = (l1.eax >> 8) & 0xf;
        let base_model = (l1.eax >> 4) & 0xf;
        let family = if base_family == 0xf { base_family + ((l1.eax >> 20) & 0xff) } else { base_family };
        let model = if base_family == 0xf || base_family == 6 { base_model | (((l1.eax >> 16) & 0xf) << 4) } else { base_model };
        let features = features();
        let class = classify(&vendor, family, model, features.contains(Features::from_names("avx512f")));
        CpuInfo { vendor, family, model, class, features }
    }
    #[cfg(any(not(target_arch = "x86_64"), miri))]
    {
        CpuInfo { vendor: [0; 12], family: 0, model: 0, class: CpuClass::Other, features: Features::NONE }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        let amd = b"AuthenticAMD";
        let intel = b"GenuineIntel";
        assert_eq!(classify(amd, 0x17, 0x01, false), CpuClass::AmdZen1); // EPYC 7001
        assert_eq!(classify(amd, 0x17, 0x08, false), CpuClass::AmdZen1); // Zen+
        assert_eq!(classify(amd, 0x17, 0x31, false), CpuClass::AmdZen2); // EPYC 7002
        assert_eq!(classify(amd, 0x19, 0x01, false), CpuClass::AmdZen3); // EPYC 7003
        assert_eq!(classify(amd, 0x19, 0x11, true), CpuClass::AmdZen4); // EPYC 9004
        assert_eq!(classify(amd, 0x1a, 0x02, true), CpuClass::AmdZen5); // EPYC 9005
        assert_eq!(classify(intel, 6, 0x55, true), CpuClass::IntelAvx512); // Cascade Lake
        assert_eq!(classify(intel, 6, 0x3f, false), CpuClass::IntelAvx2); // Haswell-EP
        assert_eq!(classify(b"HygonGenuine", 0x18, 0x01, false), CpuClass::AmdZen1);
        assert_eq!(classify(b"CentaurHauls", 6, 0x0f, false), CpuClass::Other);
    }

    #[cfg(all(target_arch = "x86_64", feature = "std", not(miri)))]
    #[test]
    fn this_cpu_is_classified_from_its_cpuid() {
        let c = cpu_info();
        let avx512 = std::arch::is_x86_feature_detected!("avx512f");
        assert_eq!(c.class, classify(&c.vendor, c.family, c.model, avx512));
        assert!(c.family > 0 && !c.vendor_str().is_empty(), "{c}");
    }
}
