//! Backend detection (issue 36): the pick on every x86 class from its CPUID feature bits, and
//! the features this machine reports against `std::is_x86_feature_detected!`.
#![cfg(target_arch = "x86_64")]

use slicewise_groestl::Backend;
use slicewise_groestl::cpu::{self, CpuClass, Features, classify};

// CPUID.1:ECX and EDX bits.
const SSE3: u32 = 1 << 0;
const PCLMULQDQ: u32 = 1 << 1;
const SSSE3: u32 = 1 << 9;
const FMA: u32 = 1 << 12;
const SSE41: u32 = 1 << 19;
const SSE42: u32 = 1 << 20;
const AES: u32 = 1 << 25;
const XSAVE: u32 = 1 << 26;
const OSXSAVE: u32 = 1 << 27;
const AVX: u32 = 1 << 28;
const F16C: u32 = 1 << 29;
const EDX_SSE2: u32 = 1 << 26;
// CPUID.(7,0):EBX and ECX bits.
const AVX2: u32 = 1 << 5;
const BMI2: u32 = 1 << 8;
const AVX512F: u32 = 1 << 16;
const AVX512DQ: u32 = 1 << 17;
const AVX512CD: u32 = 1 << 28;
const AVX512BW: u32 = 1 << 30;
const AVX512VL: u32 = 1 << 31;
const VBMI: u32 = 1 << 1;
const VBMI2: u32 = 1 << 6;
const GFNI: u32 = 1 << 8;
const VAES: u32 = 1 << 9;
const VPCLMULQDQ: u32 = 1 << 10;
// XCR0: x87 + SSE + AVX state; with the AVX-512 opmask and ZMM state.
const XCR0_AVX: u64 = 0x07;
const XCR0_AVX512: u64 = 0xe7;

/// Leaf 1 ECX of every AVX2 CPU here (Haswell and later, Zen 1 and later).
const AVX2_ECX: u32 = SSE3 | PCLMULQDQ | SSSE3 | FMA | SSE41 | SSE42 | AES | XSAVE | OSXSAVE | AVX | F16C;
const AVX512_EBX: u32 = AVX2 | BMI2 | AVX512F | AVX512DQ | AVX512CD | AVX512BW | AVX512VL;
const ICL_ECX: u32 = VBMI | VBMI2 | GFNI | VAES | VPCLMULQDQ;

struct Cpu {
    name: &'static str,
    vendor: &'static [u8; 12],
    family: u32,
    model: u32,
    ebx7: u32,
    ecx7: u32,
    xcr0: u64,
    class: CpuClass,
    pick: Backend,
}

const INTEL: &[u8; 12] = b"GenuineIntel";
const AMD: &[u8; 12] = b"AuthenticAMD";

/// The classes of issue 36 with the backend `detect()` must pick on each (the reasons, measured
/// and estimated, are in docs/groestl-backends.md, "Detection by class").
fn classes() -> Vec<Cpu> {
    use Backend::*;
    let c = |name, vendor, family, model, ebx7, ecx7, xcr0, class, pick| Cpu { name, vendor, family, model, ebx7, ecx7, xcr0, class, pick };
    vec![
        c("Haswell", INTEL, 6, 0x3c, AVX2 | BMI2, 0, XCR0_AVX, CpuClass::IntelAvx2, Avx2),
        c("Skylake client", INTEL, 6, 0x5e, AVX2 | BMI2, 0, XCR0_AVX, CpuClass::IntelAvx2, Avx2),
        c("Ice Lake client", INTEL, 6, 0x7e, AVX512_EBX, ICL_ECX, XCR0_AVX512, CpuClass::IntelAvx512, Gfni),
        c("Ice Lake server", INTEL, 6, 0x6a, AVX512_EBX, ICL_ECX, XCR0_AVX512, CpuClass::IntelAvx512, Gfni),
        c("Alder Lake", INTEL, 6, 0x97, AVX2 | BMI2, GFNI | VAES | VPCLMULQDQ, XCR0_AVX, CpuClass::IntelAvx2, GfniAvx2),
        c("Zen 1", AMD, 0x17, 0x01, AVX2 | BMI2, 0, XCR0_AVX, CpuClass::AmdZen1, Avx2),
        c("Zen 2", AMD, 0x17, 0x31, AVX2 | BMI2, 0, XCR0_AVX, CpuClass::AmdZen2, Avx2),
        c("Zen 3", AMD, 0x19, 0x01, AVX2 | BMI2, VAES | VPCLMULQDQ, XCR0_AVX, CpuClass::AmdZen3, Vaes),
        c("Zen 4", AMD, 0x19, 0x11, AVX512_EBX, ICL_ECX, XCR0_AVX512, CpuClass::AmdZen4, Gfni),
        c("Zen 5", AMD, 0x1a, 0x02, AVX512_EBX, ICL_ECX, XCR0_AVX512, CpuClass::AmdZen5, Gfni),
        // A hypervisor that hides AVX-512 clears its CPUID bits and the ZMM state...
        c("Zen 4 VM without AVX-512", AMD, 0x19, 0x11, AVX2 | BMI2, GFNI | VAES | VPCLMULQDQ, XCR0_AVX, CpuClass::AmdZen3, GfniAvx2),
        // ... or leaves the bits and only withholds the state: the same pick.
        c("Zen 4, AVX-512 state off", AMD, 0x19, 0x11, AVX512_EBX, ICL_ECX, XCR0_AVX, CpuClass::AmdZen3, GfniAvx2),
        c("Sapphire Rapids", INTEL, 6, 0x8f, AVX512_EBX, ICL_ECX, XCR0_AVX512, CpuClass::IntelAvx512, Gfni),
    ]
}

#[test]
fn every_class_gets_its_backend() {
    for cpu in classes() {
        let f = Features::from_cpuid(AVX2_ECX, EDX_SSE2, cpu.ebx7, cpu.ecx7, cpu.xcr0);
        let avx512 = f.contains(Features::from_names("avx512f"));
        let class = classify(cpu.vendor, cpu.family, cpu.model, avx512);
        assert_eq!(class, cpu.class, "{}: class", cpu.name);
        let pick = Backend::detect_with(class, f);
        assert_eq!(pick, cpu.pick, "{}: features {f}", cpu.name);
        assert!(pick.is_constant_time(), "{}", cpu.name);
    }
}

#[test]
fn vex_vaes_and_gfni_need_only_the_ymm_state() {
    let zen3 = Features::from_cpuid(AVX2_ECX, EDX_SSE2, AVX2, VAES | VPCLMULQDQ, XCR0_AVX);
    assert!(zen3.contains(Features::from_names("avx,avx2,vaes,vpclmulqdq")), "{zen3}");
    assert!(!zen3.contains(Features::from_names("avx512f")), "{zen3}");
    // Without the OS's YMM state there is no AVX at all, and so no VEX kernel.
    let no_state = Features::from_cpuid(AVX2_ECX, EDX_SSE2, AVX2, VAES | GFNI, 0x03);
    assert!(!no_state.contains(Features::from_names("avx")), "{no_state}");
    assert_eq!(Backend::detect_with(CpuClass::AmdZen3, no_state), Backend::Aesni);
    // OSXSAVE clear: XCR0 is not even read.
    let no_osxsave = Features::from_cpuid(AVX2_ECX & !OSXSAVE, EDX_SSE2, AVX2, VAES, XCR0_AVX);
    assert!(!no_osxsave.contains(Features::from_names("avx2")), "{no_osxsave}");
}

#[test]
fn feature_lists_parse_and_print() {
    let f = Features::from_names("sse2,ssse3,aes,avx,avx2,vaes,gfni");
    assert_eq!(f.to_string(), "sse2 ssse3 aes avx avx2 vaes gfni");
    assert!(f.contains(Features::from_names("gfni")));
    assert!(!f.contains(Features::from_names("avx512f")));
    assert_eq!(f.without(Features::from_names("gfni")).union(Features::from_names("gfni")), f);
    assert_eq!(Features::from_names(""), Features::NONE);
}

/// std's answer for a feature name of `Features`.
fn std_detects(name: &str) -> bool {
    use std::arch::is_x86_feature_detected as d;
    match name {
        "sse2" => d!("sse2"),
        "ssse3" => d!("ssse3"),
        "aes" => d!("aes"),
        "pclmulqdq" => d!("pclmulqdq"),
        "avx" => d!("avx"),
        "avx2" => d!("avx2"),
        "vaes" => d!("vaes"),
        "vpclmulqdq" => d!("vpclmulqdq"),
        "gfni" => d!("gfni"),
        "avx512f" => d!("avx512f"),
        "avx512bw" => d!("avx512bw"),
        "avx512vl" => d!("avx512vl"),
        "avx512vbmi" => d!("avx512vbmi"),
        "avx512vbmi2" => d!("avx512vbmi2"),
        other => panic!("no std name for {other}"),
    }
}

#[test]
fn this_cpu_agrees_with_std() {
    let all = Features::from_names("sse2,ssse3,aes,pclmulqdq,avx,avx2,vaes,vpclmulqdq,gfni,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2");
    let here = cpu::features();
    for name in all.names() {
        assert_eq!(here.contains(Features::from_names(name)), std_detects(name), "{name}: this crate says {here}");
    }
    for b in Backend::all() {
        let Some(req) = b.required() else {
            assert!(!b.is_available(), "{b}");
            continue;
        };
        let std_ok = req.names().all(std_detects);
        assert_eq!(b.is_available(), std_ok, "{b} needs {req}");
    }
    let info = cpu::cpu_info();
    assert_eq!(info.features, here);
    assert_eq!(Backend::detect(), Backend::detect_with(info.class, here), "{info}");
    eprintln!("this CPU: {info}; features {here}; detect() = {}", Backend::detect());
}
