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
        cpufeatures::new!(avx512, "avx512f");
        let class = classify(&vendor, family, model, avx512::get());
        CpuInfo { vendor, family, model, class }
    }
    #[cfg(any(not(target_arch = "x86_64"), miri))]
    {
        CpuInfo { vendor: [0; 12], family: 0, model: 0, class: CpuClass::Other }
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
