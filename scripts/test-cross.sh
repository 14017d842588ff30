#!/usr/bin/env bash
# Cross tests (issue 10): the Grøstl and Prøst suites (KATs, differential tests against
# `portable` and RustCrypto `groestl`) built for ARM targets and run under qemu-user through the
# runners in .cargo/config.toml. Installs what it needs: rustup targets, and with apt-get the
# cross linkers, the target C libraries and qemu-user.
#
#   scripts/test-cross.sh                # aarch64 and armv7
#   scripts/test-cross.sh aarch64        # one target (aarch64 | armv7 | armv6)
#   CROSS_TARGETS="aarch64 armv7 armv6" scripts/test-cross.sh
#
# armv6 (ARM1176, `arm-unknown-linux-gnueabi`) has no prebuilt standard library for the stable
# toolchain's ARMv6 target with the needed settings, so it builds std with nightly
# `-Zbuild-std`; it is not in the default set.
#
# Every suite runs with --nocapture; the summary at the end lists, per target, the KAT lines
# ("... pass on BACKEND", "BACKEND: n/n vectors pass") and every "SKIPPED: primitive:backend ..." line.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  read -r -a targets <<<"${CROSS_TARGETS:-aarch64 armv7}"
fi

triple() {
  case "$1" in
    aarch64) echo aarch64-unknown-linux-gnu ;;
    armv7) echo armv7-unknown-linux-gnueabihf ;;
    armv6) echo arm-unknown-linux-gnueabi ;;
    *) echo "unknown target $1 (aarch64, armv7, armv6)" >&2; exit 2 ;;
  esac
}

# Debian packages per target: linker (gcc), C library for the linker and for qemu's -L.
packages() {
  case "$1" in
    aarch64) echo gcc-aarch64-linux-gnu libc6-dev-arm64-cross ;;
    armv7) echo gcc-arm-linux-gnueabihf libc6-dev-armhf-cross ;;
    armv6) echo gcc-arm-linux-gnueabi libc6-dev-armel-cross ;;
  esac
}

need=()
command -v qemu-aarch64 >/dev/null 2>&1 && command -v qemu-arm >/dev/null 2>&1 || need+=(qemu-user)
for t in "${targets[@]}"; do
  triple "$t" >/dev/null
  for p in $(packages "$t"); do
    dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
  done
done
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

logdir=target/cross-logs
mkdir -p "$logdir"
status=0
# The generated ARMv6 assembly of the Prøst `arm11` backend: re-checked against a reference
# Prøst-128 by its generator, and up to date with it.
python3 scripts/gen-arm11-proest.py --check || status=1
# The same for the ARMv7 NEON Grøstl assembly (interpreted against a reference Grøstl).
python3 scripts/gen-neon7-groestl.py --check || status=1
python3 scripts/gen-neon7-proest.py --check || status=1
for t in "${targets[@]}"; do
  tr=$(triple "$t")
  start=$(date +%s)
  if [ "$t" = armv6 ]; then
    rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
    rustup component list --toolchain nightly --installed | grep -q rust-src || rustup component add rust-src --toolchain nightly
    cargo_cmd=(cargo +nightly test -Zbuild-std)
  else
    rustup target list --installed | grep -qx "$tr" || rustup target add "$tr"
    cargo_cmd=(cargo test)
  fi
  echo "== $t ($tr)"
  log="$logdir/$t.log"
  if "${cargo_cmd[@]}" --release --no-fail-fast --target "$tr" -p slicewise-groestl -p slicewise-proest -- --nocapture >"$log" 2>&1; then
    result=ok
  else
    result=FAILED
    status=1
  fi
  echo "-- backends ($t): KAT records that passed, per backend"
  grep -aE 'pass on [a-z0-9]+$|: [0-9]+/[0-9]+ vectors pass' "$log" | sed 's/^/   /' || true
  echo "-- skipped ($t)"
  grep -aoE '^SKIPPED: [a-z]+:[a-z0-9]+' "$log" | sort | uniq -c | sed 's/^/   /' || true
  echo "-- test binaries ($t)"
  grep -aE '^test result' "$log" | sed 's/^/   /'
  grep -aE '^test .* FAILED$|^error' "$log" | sed 's/^/   /' || true
  echo "== $t: $result in $(( $(date +%s) - start )) s (full log: $log)"
done
exit $status
