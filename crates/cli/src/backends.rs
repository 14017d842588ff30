//! `slicewise backends [--json]`: every backend of every primitive.

use std::process::ExitCode;

use clap::Args;
use serde::Serialize;

#[derive(Debug, Args)]
pub struct BackendsArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// One row of the listing.
#[derive(Debug, Serialize)]
pub struct BackendInfo {
    pub name: &'static str,
    pub available: bool,
    pub constant_time: bool,
    pub default: bool,
}

/// The rows of one primitive's `Backend` enum; `default` marks what `detect()` picks.
macro_rules! rows {
    ($backend:ty) => {{
        let default = <$backend>::detect();
        <$backend>::all()
            .map(|b| BackendInfo {
                name: b.name(),
                available: b.is_available(),
                constant_time: b.is_constant_time(),
                default: b == default,
            })
            .collect::<Vec<_>>()
    }};
}

/// Every primitive and its backends, in a fixed order.
pub fn all() -> Vec<(&'static str, Vec<BackendInfo>)> {
    vec![("groestl", rows!(slicewise_groestl::Backend)), ("proest", rows!(slicewise_proest::Backend))]
}

pub fn run(args: BackendsArgs) -> anyhow::Result<ExitCode> {
    let all = all();
    if args.json {
        let mut map = serde_json::Map::new();
        map.insert("cpu".into(), crate::bench::cpu_json());
        for (prim, rows) in all {
            map.insert(prim.to_string(), serde_json::to_value(rows)?);
        }
        println!("{}", serde_json::to_string_pretty(&serde_json::Value::Object(map))?);
    } else {
        println!("cpu: {}", crate::bench::cpu_description());
        for (prim, rows) in all {
            println!("{prim}:");
            println!("  {:<12} {:<10} {:<14} default", "backend", "available", "constant-time");
            for r in rows {
                println!(
                    "  {:<12} {:<10} {:<14} {}",
                    r.name,
                    if r.available { "yes" } else { "no" },
                    if r.constant_time { "yes" } else { "no" },
                    if r.default { "*" } else { "" }
                );
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
