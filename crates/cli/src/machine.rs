//! What a benchmark ran on: the CPU (model name, CPUID vendor, family, model and class), the
//! instruction-set features the backends depend on, the cores, the OS, the compiler and the
//! source tree. `slicewise bench … --save DIR` names its file after [`cpu_slug`] and writes
//! [`Machine::markdown`] into it.

use std::process::Command;

use slicewise_groestl::cpu::{CpuClass, CpuInfo, cpu_info};

/// The `rustc --version` the CLI was compiled with (recorded by `build.rs`).
const RUSTC_VERSION: &str = env!("SLICEWISE_RUSTC_VERSION");

/// The CPU as the OS names it and as CPUID classifies it (the class orders Grøstl's `detect()`).
pub fn cpu_description() -> String {
    format!("{} — {}", cpu_model(), cpu_info())
}

/// [`cpu_description`] as JSON fields, plus the file slug and the features.
pub fn cpu_json() -> serde_json::Value {
    let c = cpu_info();
    serde_json::json!({
        "model": cpu_model(),
        "vendor": c.vendor_str(),
        "family": c.family,
        "model_number": c.model,
        "class": c.class.to_string(),
        "slug": cpu_slug(),
        "features": features(),
    })
}

/// The CPU model name from `/proc/cpuinfo` (`model name`, or `Model`/`Hardware` on ARM).
pub fn cpu_model() -> String {
    let Ok(text) = std::fs::read_to_string("/proc/cpuinfo") else { return "unknown".into() };
    for key in ["model name", "Model", "Hardware"] {
        let found = text.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            (k.trim() == key && !v.trim().is_empty()).then(|| v.trim().to_string())
        });
        if let Some(v) = found {
            return v;
        }
    }
    "unknown".into()
}

/// The file name (without `.md`) of this CPU's benchmark file: vendor, the AMD micro-architecture
/// where CPUID tells it, and the CPUID family and model in hex, e.g. `amd-zen4-19h-11h` or
/// `intel-06h-a7h`. Off x86 (no CPUID): the architecture and the model name.
pub fn cpu_slug() -> String {
    slug_of(&cpu_info(), std::env::consts::ARCH, &cpu_model())
}

/// [`cpu_slug`] from its inputs (pure, for the tests).
pub fn slug_of(c: &CpuInfo, arch: &str, model_name: &str) -> String {
    let vendor = match c.vendor_str() {
        "AuthenticAMD" => "amd".to_string(),
        "GenuineIntel" => "intel".to_string(),
        "HygonGenuine" => "hygon".to_string(),
        "" => return format!("{arch}-{}", file_slug(&model_name.to_ascii_lowercase())),
        v => file_slug(&v.to_ascii_lowercase()),
    };
    let class = match c.class {
        CpuClass::AmdZen1 => "zen1-",
        CpuClass::AmdZen2 => "zen2-",
        CpuClass::AmdZen3 => "zen3-",
        CpuClass::AmdZen4 => "zen4-",
        CpuClass::AmdZen5 => "zen5-",
        _ => "",
    };
    format!("{vendor}-{class}{:02x}h-{:02x}h", c.family, c.model)
}

/// A file-name-safe form of a label: runs of anything but letters, digits, `_` and `.` become `-`.
pub fn file_slug(s: &str) -> String {
    let mut out = String::new();
    for ch in s.chars() {
        if ch.is_ascii_alphanumeric() || ch == '_' || ch == '.' {
            out.push(ch);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches('-');
    if out.is_empty() { "unknown".into() } else { out.to_string() }
}

/// The instruction-set extensions some backend of Grøstl or Prøst selects on, as this process
/// detects them at run time.
pub fn features() -> Vec<&'static str> {
    #[allow(unused_mut)]
    let mut v: Vec<&'static str> = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! probe {
            ($($f:tt),*) => {
                $(if std::arch::is_x86_feature_detected!($f) { v.push($f); })*
            };
        }
        probe!(
            "sse2", "ssse3", "aes", "pclmulqdq", "avx", "avx2", "avx512f", "avx512bw", "avx512vl", "avx512vbmi",
            "avx512vbmi2", "vaes", "gfni"
        );
    }
    #[cfg(target_arch = "aarch64")]
    {
        macro_rules! probe {
            ($($f:tt),*) => {
                $(if std::arch::is_aarch64_feature_detected!($f) { v.push($f); })*
            };
        }
        probe!("neon", "aes", "sha3");
    }
    v
}

/// Everything recorded about the machine and the build for one benchmark run.
#[derive(Debug, Clone)]
pub struct Machine {
    pub model: String,
    pub cpu: CpuInfo,
    pub features: Vec<&'static str>,
    /// Logical CPUs of the machine, and those this process may run on (e.g. under `taskset`).
    pub cpus: (usize, usize),
    pub os: String,
    pub rustc: &'static str,
    /// The commit of the source tree, with ` (uncommitted changes)` where `git status` shows any.
    pub commit: Option<String>,
}

impl Machine {
    pub fn detect() -> Machine {
        let usable = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        let online = std::fs::read_to_string("/proc/cpuinfo")
            .map(|s| s.lines().filter(|l| l.starts_with("processor")).count())
            .ok()
            .filter(|&n| n > 0)
            .unwrap_or(usable);
        Machine {
            model: cpu_model(),
            cpu: cpu_info(),
            features: features(),
            cpus: (online, usable),
            os: os_description(),
            rustc: RUSTC_VERSION,
            commit: source_commit(),
        }
    }

    /// The machine as a Markdown list (one item a line).
    pub fn markdown(&self) -> String {
        let c = &self.cpu;
        let (online, usable) = self.cpus;
        let affinity = if usable < online { format!(", this process ran on {usable} of them") } else { String::new() };
        format!(
            "- CPU: {} — CPUID vendor {}, family {:#x}, model {:#x}, class {}\n\
             - features: {}\n\
             - logical CPUs: {online}{affinity}\n\
             - OS: {}\n\
             - compiler: {}\n\
             - source: {}\n",
            self.model,
            if c.vendor_str().is_empty() { "(none)" } else { c.vendor_str() },
            c.family,
            c.model,
            c.class,
            if self.features.is_empty() { "(none detected)".into() } else { self.features.join(" ") },
            self.os,
            self.rustc,
            self.commit.as_deref().unwrap_or("unknown (not built from a git checkout)"),
        )
    }
}

/// `PRETTY_NAME` of `/etc/os-release` and the kernel release, or the bare OS name.
fn os_description() -> String {
    let pretty = std::fs::read_to_string("/etc/os-release").ok().and_then(|s| {
        s.lines().find_map(|l| l.strip_prefix("PRETTY_NAME=").map(|v| v.trim_matches('"').to_string()))
    });
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").ok().map(|s| s.trim().to_string());
    match (pretty, kernel) {
        (Some(p), Some(k)) => format!("{p}, kernel {k}"),
        (Some(p), None) => p,
        (None, Some(k)) => format!("{}, kernel {k}", std::env::consts::OS),
        (None, None) => std::env::consts::OS.into(),
    }
}

/// The commit of the checkout this binary was built from, read when the benchmark runs (so it is
/// the build's commit when the binary was built from the current tree, as the documented
/// commands do).
fn source_commit() -> Option<String> {
    let dir = env!("CARGO_MANIFEST_DIR");
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git").arg("-C").arg(dir).args(args).output().ok()?;
        out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let head = git(&["rev-parse", "--short=12", "HEAD"])?;
    let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    Some(if dirty { format!("{head} (uncommitted changes)") } else { head })
}

/// Today's date and time in UTC, `YYYY-MM-DD HH:MM UTC`.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    utc_string(secs)
}

/// Seconds since the Unix epoch as `YYYY-MM-DD HH:MM UTC` (proleptic Gregorian calendar).
fn utc_string(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Days since 0000-03-01 in 400-year eras of 146 097 days; March-based years put the leap
    // day last.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02} UTC", rem / 3600, rem % 3600 / 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(vendor: &[u8; 12], family: u32, model: u32, class: CpuClass) -> CpuInfo {
        // The other fields (if any) from this CPU: the slug does not read them.
        CpuInfo { vendor: *vendor, family, model, class, ..cpu_info() }
    }

    #[test]
    fn slugs_name_vendor_class_family_and_model() {
        let zen4 = info(b"AuthenticAMD", 0x19, 0x11, CpuClass::AmdZen4);
        assert_eq!(slug_of(&zen4, "x86_64", "AMD EPYC"), "amd-zen4-19h-11h");
        let zen5 = info(b"AuthenticAMD", 0x1a, 0x02, CpuClass::AmdZen5);
        assert_eq!(slug_of(&zen5, "x86_64", "AMD EPYC"), "amd-zen5-1ah-02h");
        let xeon = info(b"GenuineIntel", 6, 0xa7, CpuClass::IntelAvx512);
        assert_eq!(slug_of(&xeon, "x86_64", "Intel(R) Xeon(R) Processor"), "intel-06h-a7h");
        let none = info(&[0; 12], 0, 0, CpuClass::Other);
        assert_eq!(slug_of(&none, "aarch64", "Raspberry Pi 4 Model B Rev 1.4"), "aarch64-raspberry-pi-4-model-b-rev-1.4");
        assert_eq!(slug_of(&none, "aarch64", ""), "aarch64-unknown");
    }

    #[test]
    fn utc_dates() {
        assert_eq!(utc_string(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_string(951_782_400), "2000-02-29 00:00 UTC");
        assert_eq!(utc_string(1_798_761_599), "2026-12-31 23:59 UTC");
        assert_eq!(utc_string(4_107_542_400), "2100-03-01 00:00 UTC");
    }

    #[test]
    fn the_header_names_the_machine() {
        let md = Machine::detect().markdown();
        for item in ["- CPU: ", "family", "- features: ", "- logical CPUs: ", "- OS: ", "- compiler: rustc ", "- source: "] {
            assert!(md.contains(item), "{item} missing in {md}");
        }
    }
}
