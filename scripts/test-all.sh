#!/usr/bin/env bash
# Runs every test of the project: all Rust crates (unit, integration, CLI and doc tests).
# The CLI tests compare `slicewise sum` with coreutils `sha256sum` when it is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --locked
