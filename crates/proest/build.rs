//! Sets `cfg(slicewise_arm11)` on 32-bit ARM targets whose cores run ARMv6 (or later) code in ARM
//! state, little-endian: the `arm11` backend's assembly (`src/backend/arm11.S`) uses the
//! ARMv6 PKHBT/PKHTB instructions. Stable Rust does not expose the ARM architecture version to
//! `cfg`, so the target name decides: `arm-*` (ARMv6 in Rust's targets: ARM1176), `armv6*`,
//! `armv7*`. Not `thumbv*` (M-profile cores have no ARM state) nor `armv4t`/`armv5te`. Also sets
//! `cfg(slicewise_neon7)` on ARMv7-A Linux targets (the ARMv7 side of the `neon` backend).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(slicewise_arm11)");
    println!("cargo::rustc-check-cfg=cfg(slicewise_neon7)");
    println!("cargo::rerun-if-changed=build.rs");
    let target = std::env::var("TARGET").unwrap_or_default();
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let endian = std::env::var("CARGO_CFG_TARGET_ENDIAN").unwrap_or_default();
    let cpu = target.split('-').next().unwrap_or("");
    if arch == "arm" && endian == "little" && matches!(cpu, "arm" | "armv6" | "armv6k" | "armv7" | "armv7a" | "armv7r")
    {
        println!("cargo::rustc-cfg=slicewise_arm11");
    }
    // ARMv7-A Linux: the `neon` backend's assembly (`src/backend/neon7.S`, `.fpu neon`, so the
    // crate builds without `+neon`), chosen at run time when `getauxval(AT_HWCAP)` reports NEON.
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if arch == "arm" && endian == "little" && os == "linux" && matches!(cpu, "armv7" | "armv7a") {
        println!("cargo::rustc-cfg=slicewise_neon7");
    }
}
