//! Sets `cfg(slicewise_neon7)` on 32-bit ARMv7-A Linux targets (little-endian, ARM state): the
//! ARMv7 NEON backends' assembly (`src/backend/arm/neon7.S`) is assembled there, with a
//! `.fpu neon` directive so that the crate builds without `-C target-feature=+neon`, and the
//! backends are chosen at run time when `getauxval(AT_HWCAP)` reports NEON. Stable Rust does not
//! expose the ARM architecture version to `cfg`, so the target name decides (`armv7*`).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(slicewise_neon7)");
    println!("cargo::rerun-if-changed=build.rs");
    let target = std::env::var("TARGET").unwrap_or_default();
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let endian = std::env::var("CARGO_CFG_TARGET_ENDIAN").unwrap_or_default();
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let cpu = target.split('-').next().unwrap_or("");
    if arch == "arm" && endian == "little" && os == "linux" && matches!(cpu, "armv7" | "armv7a") {
        println!("cargo::rustc-cfg=slicewise_neon7");
    }
}
