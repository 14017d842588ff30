#!/usr/bin/env bash
# Trust checks (docs/reliability.md), the fast parts, for CI:
#   1. SAT proofs: `slp exact --proof` directories re-checked by the independent DRAT checker
#      `rate` (random8_s1 optimum 12, MixSlices lower bound 21) and the `check-proof` command,
#      also on a bound lifted by restriction (`--drop-inputs`);
#   2. constant time: the ctgrind harness under Valgrind Memcheck (0 reports required), and the
#      T-table negative controls (reports required); the dudect-style timing test for the
#      AVX-512/VAES/GFNI kernels Valgrind cannot run, with its negative control;
#   3. Miri: the portable and mode code (SIMD backends are unavailable under Miri), in the
#      background while step 4 runs (one core each);
#   4. fuzzing: a smoke run of every cargo-fuzz target (AddressSanitizer), seeded from the KATs.
# Installs what it needs: valgrind and python3 (apt), the pinned nightly with miri and rust-src,
# and rate (cargo install --locked --version; both pinned in scripts/toolchains.sh). The fuzz
# targets are built with cargo-fuzz's flags by plain cargo, so cargo-fuzz itself is not needed.
# SLICEWISE_FUZZ_SMOKE_SECONDS (default 15) sets the time per fuzz target.
# Each OK line names what ran; a constant-time backend the CPU (or Valgrind) cannot run goes into
# the backend report as skipped (scripts/backend-summary.sh), and SLICEWISE_REQUIRE_BACKENDS=all
# or NAME,... turns its skip into a failure (docs/reliability.md).
set -euo pipefail
cd "$(dirname "$0")/.."
smoke=${SLICEWISE_FUZZ_SMOKE_SECONDS:-15}
passed=0
failed=0
skipped=0
step() { echo; echo "=== trust: $*"; }
ok() { echo "trust: OK: $*"; passed=$((passed + 1)); }
bad() { echo "trust: FAILED: $*"; failed=$((failed + 1)); }
skip() { echo "trust: SKIPPED: $*"; skipped=$((skipped + 1)); }
# The backends an example's line `PREFIX LIST` names (LIST, `none` if empty), from its log.
named() { sed -n "s/^$2 //p" "$1" | tail -n 1; }

# --- Tools ---------------------------------------------------------------------------------
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
need=()
command -v valgrind >/dev/null 2>&1 || need+=(valgrind)
command -v python3 >/dev/null 2>&1 || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
  as_root apt-get update -qq
  as_root apt-get install -y -qq "${need[@]}"
fi
. scripts/toolchains.sh
install_nightly miri rust-src
install_rate
valgrind --version

# --- 1. SAT proofs -------------------------------------------------------------------------
step "slp exact proofs checked by rate"
if SLICEWISE_DRAT_CHECKER=rate cargo test --locked -p slicewise-slp --lib sat::tests:: -- --include-ignored; then
  ok "random8_s1 (optimum 12) and MixSlices (lower bound 21): every UNSAT proof verified by rate"
else
  bad "slp proof tests"
fi
proof_dir=$(mktemp -d)
cargo build --locked -q -p slicewise-cli
head -n 4 test-vectors/slp/random8_s1.txt >"$proof_dir/m.txt"
if target/debug/slicewise slp exact "$proof_dir/m.txt" --proof "$proof_dir/p" -t 120 --heuristic-time 0 -q >/dev/null &&
  target/debug/slicewise slp check-proof "$proof_dir/p"; then
  ok "slicewise slp check-proof on four rows of random8_s1"
else
  bad "slicewise slp exact --proof / check-proof on four rows of random8_s1"
fi
# The same through a restriction: the matrix without column 7, lifted by check-proof.
if target/debug/slicewise slp exact "$proof_dir/m.txt" --drop-inputs 7 --proof "$proof_dir/r" -t 120 --heuristic-time 0.2 -q >/dev/null &&
  target/debug/slicewise slp check-proof "$proof_dir/r" | tee "$proof_dir/r.out" && grep -q "without columns \[7\]" "$proof_dir/r.out"; then
  ok "slicewise slp check-proof on a restricted bound (four rows of random8_s1 without column 7)"
else
  bad "slicewise slp exact --drop-inputs --proof / check-proof"
fi
# Caps and cubes: random8_s2's optimum 14 with two levels of caps, cubes on two threads and
# targets first; check-proof checks every cap directory and every cube's proof.
if target/debug/slicewise slp exact test-vectors/slp/random8_s2.txt --caps 2 --cubes --targets-first -j 2 --proof "$proof_dir/c" -t 600 -q >/dev/null &&
  target/debug/slicewise slp check-proof "$proof_dir/c" | tee "$proof_dir/c.out" && grep -q "no program has fewer than 14 XORs" "$proof_dir/c.out" &&
  grep -q "with 8 caps" "$proof_dir/c.out"; then
  ok "slicewise slp check-proof with caps and cubes (random8_s2, optimum 14)"
else
  bad "slicewise slp exact --caps --cubes --proof / check-proof on random8_s2"
fi
rm -rf "$proof_dir"

# --- 2. Constant time under Valgrind -------------------------------------------------------
step "constant time (Valgrind Memcheck, TIMECOP style)"
cargo build --locked -q --profile ctgrind -p slicewise-cli --features ct-valgrind --example ctgrind
ctgrind=target/ctgrind/examples/ctgrind
if valgrind -q --error-exitcode=1 "$ctgrind" | tee target/ctgrind/check.log; then
  ok "ctgrind: no secret-dependent branch or address in $(named target/ctgrind/check.log "ctgrind check: checked")"
else
  bad "ctgrind: Memcheck reports, no backend checked, or a required backend skipped (see above)"
fi
for b in ttable64 ttable32 avx2gather; do
  if valgrind -q --error-exitcode=1 "$ctgrind" negative "$b" >/dev/null 2>"target/ctgrind/negative-$b.log"; then
    bad "negative control $b: Valgrind did not flag the T-table look-ups"
  elif grep -q "uninitialised" "target/ctgrind/negative-$b.log"; then
    ok "negative control $b flagged ($(grep -c 'uninitialised' "target/ctgrind/negative-$b.log") reports), as it must be"
  else
    bad "negative control $b failed without a Memcheck report"
  fi
done

# AVX-512/VAES/GFNI kernels (Valgrind cannot run them): dudect-style timing test.
cargo build --locked -q --profile ctgrind -p slicewise-cli --example ctdudect
if target/ctgrind/examples/ctdudect | tee target/ctgrind/dudect.log; then
  timed=$(named target/ctgrind/dudect.log "ctdudect checked:")
  if [ "$timed" = none ]; then
    skip "ctdudect: none of its backends is available on this CPU ($(named target/ctgrind/dudect.log "ctdudect skipped (not available on this CPU):"))"
  else
    ok "ctdudect: no timing difference between fixed and random inputs (|t| <= 10) on $timed"
  fi
else
  bad "ctdudect: |t| > 10 on a kernel (or a noisy machine: rerun to confirm), or a required backend skipped"
fi
if target/ctgrind/examples/ctdudect negative; then
  bad "ctdudect negative control (early-exit compare) not flagged"
else
  ok "ctdudect negative control (early-exit compare) flagged, as it must be"
fi

# --- 3. Miri -------------------------------------------------------------------------------
# In the background, on one core, while the fuzz targets build and run on the other (CI has
# two): Miri is the longest step here (about 6 min), and it runs one thread.
step "Miri (portable and mode code), in the background until the fuzz smoke runs end"
export MIRIFLAGS="${MIRIFLAGS:-}"
mkdir -p target
miri_log=target/trust-miri.log
(
  cargo "+$SLICEWISE_NIGHTLY" miri test --locked -p slicewise-groestl --lib &&
    cargo "+$SLICEWISE_NIGHTLY" miri test --locked -p slicewise-proest --lib --test em &&
    cargo "+$SLICEWISE_NIGHTLY" miri test --locked -p slicewise-proest --test safety -- round_trips_all_variants api_misuse
) >"$miri_log" 2>&1 &
miri_pid=$!
trap 'kill "$miri_pid" 2>/dev/null || true' EXIT

# --- 4. Fuzz smoke -------------------------------------------------------------------------
step "fuzz smoke runs (${smoke} s per target, AddressSanitizer)"
python3 fuzz/seed-corpora.py
# The same build as `cargo fuzz build -O` (cargo-fuzz 0.13's flags), without installing
# cargo-fuzz: CI saves its few minutes of compilation. `cargo fuzz run` reuses this build.
host=$(rustc "+$SLICEWISE_NIGHTLY" -vV | sed -n 's/^host: //p')
fuzz_flags="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4"
fuzz_flags+=" -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table"
fuzz_flags+=" -Cllvm-args=-sanitizer-coverage-trace-compares -Cllvm-args=-simplifycfg-branch-fold-threshold=0"
fuzz_flags+=" -Cllvm-args=-sanitizer-coverage-stack-depth -Ccodegen-units=1 -Zsanitizer=address --cfg fuzzing"
(cd fuzz && RUSTFLAGS="$fuzz_flags" cargo "+$SLICEWISE_NIGHTLY" build --locked -q --release --bins --target "$host")
for t in $(sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^slicewise'); do
  mkdir -p "fuzz/artifacts/$t" "fuzz/corpus/$t"
  if ASAN_OPTIONS=detect_odr_violation=0 "fuzz/target/$host/release/$t" -artifact_prefix="fuzz/artifacts/$t/" \
    -max_total_time="$smoke" "fuzz/corpus/$t" 2>&1 | tail -n 3; then
    ok "fuzz $t: no crash in ${smoke} s"
  else
    bad "fuzz $t crashed (artifact in fuzz/artifacts/$t)"
  fi
done

step "Miri (portable and mode code): its log"
if wait "$miri_pid"; then
  grep -E '^(test result|     Running)' "$miri_log" || true
  ok "Miri: no undefined behaviour in the groestl and proest unit tests, em_many, AEAD round trips and API misuse"
else
  cat "$miri_log"
  bad "Miri (log above, $miri_log)"
fi

echo
echo "trust: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
