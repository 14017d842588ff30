#!/usr/bin/env bash
# Per-class throughput estimates of the x86 Grøstl kernels (issue 36): llvm-mca on the assembled
# round loops of every x86 kernel of slicewise-groestl and of RustCrypto `groestl-aesni`'s
# compression, for -mcpu haswell, znver1, znver2, skylake, alderlake, znver3, znver4 and
# sapphirerapids.
# Estimates, not measurements: see scripts/mca.py for what is modelled.
#
#   scripts/mca.sh                       # the table, on stdout
#   MCA_CPUS=znver3,alderlake scripts/mca.sh
#
# Installs Debian's llvm-19 (for llvm-mca-19) if missing. The assembly is built in its own
# target directory (target/mca), with the release profile's code generation (one codegen unit),
# so the shared build cache is not disturbed.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v llvm-mca-19 >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq llvm-19 >/dev/null
fi

export CARGO_TARGET_DIR=target/mca
# No -C target-cpu: the kernels carry their own #[target_feature]s, exactly as in a release build.
cargo rustc --quiet --release --locked -p slicewise-groestl --lib -- --emit asm -C codegen-units=1
cargo rustc --quiet --release --locked -p groestl-aesni --lib -- --emit asm -C codegen-units=1
# The newest listing of each (cargo leaves a fresh one in place and rewrites a stale one).
ours=$(ls -t "$CARGO_TARGET_DIR"/release/deps/slicewise_groestl-*.s | head -1)
peer=$(ls -t "$CARGO_TARGET_DIR"/release/deps/groestl_aesni-*.s | head -1)
echo "llvm-mca: $(llvm-mca-19 --version | grep -o 'LLVM version [0-9.]*'); rustc: $(rustc --version); commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
python3 scripts/mca.py --ours "$ours" --peer "$peer" --llvm-mca llvm-mca-19 ${MCA_CPUS:+--cpus "$MCA_CPUS"}
