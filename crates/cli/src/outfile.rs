//! Writing an output file so that a reader never sees it half written: a temporary file in the
//! same directory, renamed into place once everything is in it.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, anyhow};

/// Writes `parts` to `path` atomically (temporary file beside it, synced, then renamed).
pub fn write_atomic(path: &Path, parts: &[&[u8]]) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir).with_context(|| format!("creating a temporary file in {}", dir.display()))?;
    for p in parts {
        tmp.write_all(p).with_context(|| format!("writing {}", tmp.path().display()))?;
    }
    tmp.as_file().sync_all().ok();
    tmp.persist(path).map_err(|e| anyhow!(e.error)).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}
