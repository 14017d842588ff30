#!/usr/bin/env bash
# Times the compiled round loop of an x86 Grøstl kernel alone on this CPU (issue 36): one message's
# dependency chain as compiled, independent iterations, and (with AVX-512VL) two interleaved
# chains. See scripts/round-bench.py; not part of any test command.
#
#   scripts/round-bench.sh                                   # vaes Grøstl-256
#   scripts/round-bench.sh --kernel 7backend4avx211compress5126kernel
#   taskset -c 1 scripts/round-bench.sh --keep /tmp/loop.s   # also keep the generated assembly
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=target/mca
# The release profile's code generation with the assembly listing, as scripts/mca.sh builds it.
cargo rustc --quiet --release --locked -p slicewise-groestl --lib -- --emit asm -C codegen-units=1
asm=$(ls -t "$CARGO_TARGET_DIR"/release/deps/slicewise_groestl-*.s | head -1)
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), family/model $(grep -m1 'cpu family' /proc/cpuinfo | awk '{print $NF}')/$(grep -m1 '^model\s' /proc/cpuinfo | awk '{print $NF}'); commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
python3 scripts/round-bench.py --asm "$asm" "$@"
