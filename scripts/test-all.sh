#!/usr/bin/env bash
# Runs every test of the project, each suite installing what it needs:
#   1. all Rust crates (unit, KAT, differential, CLI and doc tests; the CLI tests compare
#      `slicewise sum` with coreutils `sha256sum`);
#   2. the C library (scripts/test-c.sh: system C compiler, xz, pkg-config, AddressSanitizer);
#   3. the Python package (scripts/test-python.sh: a venv in target/pyenv, maturin, pytest);
#   4. under qemu-user (scripts/test-cross.sh): `cargo test --workspace` for AArch64 (but eleven slp
#      search tests that take minutes there), the Grøstl and Prøst suites for ARMv7;
#      CROSS_TARGETS="aarch64 armv7 armv6" adds ARMv6 through nightly -Zbuild-std;
#   5. on-target KAT firmware: Cortex-M0/M4 under qemu-system-arm, ATmega1284P under simavr
#      (scripts/test-embedded.sh);
#   6. the trust checks (scripts/test-trust.sh): DRAT proofs re-checked by `rate`, constant time
#      under Valgrind and by a dudect-style timing test, Miri, fuzz smoke runs;
# and ends with which backends ran and which this CPU skipped (scripts/backend-summary.sh;
# SLICEWISE_REQUIRE_BACKENDS=all or NAME,... turns a skip into a failure, of a backend or of a
# check such as check:pkg-config or check:groestlcoin-hash; docs/reliability.md).
set -euo pipefail
cd "$(dirname "$0")/.."

# The default build needs only rustup and a C/C++ compiler: nothing that runs bindgen (libclang).
if grep -qE '^name = "(bindgen|clang-sys)"$' Cargo.lock; then
    echo "test-all: Cargo.lock pulls in bindgen/clang-sys, which need libclang" >&2
    exit 1
fi
# ... nor Python: the default members (`cargo build --release`) must not pull in pyo3, which
# would need python3-dev and link libpython. maturin builds crates/python (test-python.sh).
default_deps=$(cargo tree --locked -e normal,build,dev --prefix none --format '{p}')
if grep -q '^pyo3' <<<"$default_deps"; then
    echo "test-all: the default build (workspace default-members) pulls in pyo3: it would need libpython" >&2
    exit 1
fi

# No import circle between the modules of any crate (a lower layer never imports an upper one;
# docs/architecture.md): stdlib Python, under a second; its self-test first.
python3 scripts/check-import-cycles.py --self-test
python3 scripts/check-import-cycles.py

rm -rf "${CARGO_TARGET_DIR:-target}"/backend-report "${CARGO_TARGET_DIR:-target}"/*/backend-report   # only this run's reports count

# Each part is timed, and the times are printed at the end (CI's budget is about 30 minutes).
times=()
part() {
    local start=$SECONDS
    "$@"
    times+=("$(printf '%5d s  %s' $((SECONDS - start)) "$*")")
}
report_times() {
    echo
    echo "test-all: wall-clock time per finished part:"
    [ ${#times[@]} -eq 0 ] || printf '  %s\n' "${times[@]}"
    echo "  total $SECONDS s"
}
trap report_times EXIT
part cargo test --workspace --locked
part ./scripts/test-c.sh
part ./scripts/test-python.sh
part ./scripts/test-cross.sh
part ./scripts/test-embedded.sh
part ./scripts/test-trust.sh
part ./scripts/backend-summary.sh
echo "test-all: every part passed"
