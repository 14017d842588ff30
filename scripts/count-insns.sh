#!/usr/bin/env bash
# Instruction counts of the ARM backends under qemu-user (issue 10), printed as Markdown tables
# for docs/benchmarks-arm.md. These are executed guest instructions, not cycles.
#
#   scripts/count-insns.sh              # aarch64
#   scripts/count-insns.sh armv7        # ARMv7 (Cortex-A8): the NEON Grøstl backends, mcu, portable, RustCrypto
#   scripts/count-insns.sh armv6        # ARM1176: the arm11 Prøst backend (nightly -Zbuild-std)
#
# How: scripts/count-insns/insncount.c is a QEMU TCG plugin that adds each translated block's
# instruction count to a counter every time the block runs. The driver
# (scripts/count-insns/src/main.rs) repeats one operation N times; the figure for one operation
# is (count(N = 3) − count(N = 1)) / 2, which cancels process start-up, backend detection and
# first-call effects exactly (qemu-user runs are deterministic). Every run also prints a
# fingerprint of its result; the script checks that all backends agree.
# On aarch64 a last table compares the multi-buffer paths (`hash_many`, `groestlcoin_hash_many`,
# eight messages per call) with the same messages hashed one at a time.
# Needs scripts/test-cross.sh's packages (cross gcc, qemu-user) and a host C compiler.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

arch=${1:-aarch64}
build_std=()
case "$arch" in
  aarch64)
    triple=aarch64-unknown-linux-gnu
    qemu=(qemu-aarch64 -cpu max -L /usr/aarch64-linux-gnu)
    gbackends="armv8sha3 armv8aes neon portable ttable64 rustcrypto"
    pbackends="neon u32x2 portable"
    ;;
  armv7)
    triple=armv7-unknown-linux-gnueabihf
    qemu=(qemu-arm -cpu cortex-a8 -L /usr/arm-linux-gnueabihf)
    gbackends="neon7bs neon7vp neon7tt mcu portable ttable32 ttable64 rustcrypto"
    pbackends="neon arm11 u32x2 portable"
    ;;
  armv6)
    # ARM1176 (ARMv6): no prebuilt standard library on stable, so the pinned nightly builds it.
    . scripts/toolchains.sh
    install_nightly rust-src
    triple=arm-unknown-linux-gnueabi
    qemu=(qemu-arm -cpu arm1176 -L /usr/arm-linux-gnueabi)
    gbackends="portable ttable32 rustcrypto"
    pbackends="arm11 u32x2 portable"
    build_std=(+"$SLICEWISE_NIGHTLY" -Zbuild-std)
    ;;
  *) echo "unknown arch $arch (aarch64 | armv7 | armv6)" >&2; exit 2 ;;
esac

out=$root/target/count-insns
mkdir -p "$out"
cc -shared -fPIC -O2 -Wall -o "$out/libinsncount.so" scripts/count-insns/insncount.c
(cd scripts/count-insns && cargo "${build_std[@]}" build -q --release --target "$triple" --target-dir "$out")
bin=$out/$triple/release/count-insns

# count OP BACKEND BYTES N -> "INSNS FINGERPRINT"
count() {
  local r
  r=$("${qemu[@]}" -plugin "$out/libinsncount.so" "$bin" "$@" 2>"$out/stderr")
  echo "$(sed -n 's/^insns: //p' "$out/stderr") ${r##*: }"
}

# per_op OP BACKEND BYTES: sets `res` to the instructions of one operation (not run in a
# subshell, so that `fp` remembers every result's fingerprint for the cross-backend check)
declare -A fp
res=0
per_op() {
  local a b
  read -r a fa < <(count "$1" "$2" "$3" 1)
  read -r b fb < <(count "$1" "$2" "$3" 3)
  [ "$fa" = "$fb" ] || { echo "fingerprint changed between runs: $*" >&2; exit 1; }
  local key="${fpkey:-$1}/$3"
  if [ -n "${fp[$key]:-}" ] && [ "${fp[$key]}" != "$fa" ]; then
    echo "backends disagree on $1 $3 bytes ($2: $fa, earlier: ${fp[$key]})" >&2
    exit 1
  fi
  fp[$key]=$fa
  res=$(( (b - a) / 2 ))
}

table() { # TITLE "OPS" "BACKENDS" "SIZES"
  local title=$1 ops=$2 backends=$3 sizes=$4 base=${5:-}
  echo
  echo "$title"
  echo
  local hdr="| operation | bytes |" sep="|---|---:|"
  for be in $backends; do hdr+=" $be |"; sep+="---:|"; done
  [ -n "$base" ] && { hdr+=" ratio |"; sep+="---:|"; }
  echo "$hdr"
  echo "$sep"
  for op in $ops; do
    for n in $sizes; do
      local row="| $op | $n |" first="" basev=""
      for be in $backends; do
        per_op "$op" "$be" "$n"
        local c=$res
        [ -z "$first" ] && first=$c
        [ "$be" = "$base" ] && basev=$c
        if [ "$n" -gt 0 ]; then
          row+=" $c ($(awk -v c="$c" -v n="$n" 'BEGIN { printf "%.1f", c / n }')/B) |"
        else
          row+=" $c |"
        fi
      done
      [ -n "$base" ] && row+=" $(awk -v a="$basev" -v b="$first" 'BEGIN { printf "%.2f×", a / b }') |"
      echo "$row"
    done
  done
}

echo "Instruction counts on $triple (\`${qemu[*]}\`), per operation; the first column's backend is the one compared."
table "Grøstl (one hash of BYTES bytes; ratio = RustCrypto groestl / first column)" \
  "groestl256 groestl512" "$gbackends" "64 1536 16384" rustcrypto
table "Prøst AEADs (one encryption, no associated data; ratio = portable / first column)" \
  "otr128 copa128 ape128 otr256 copa256 ape256" "$pbackends" "64 1536 16384" portable
table "Prøst permutation (one P call on one state)" "perm128 perm256" "$pbackends" "0" portable

# Multi-buffer paths (AArch64): eight messages through `hash_many` / `groestlcoin_hash_many`
# against the same eight one at a time, per message (the fingerprints of both paths must agree).
if [ "$arch" = aarch64 ]; then
  echo
  echo "Multi-buffer (per message, eight messages per call; ratio = one by one / many)"
  echo
  echo "| backend | operation | bytes | one by one | many | ratio |"
  echo "|---|---|---:|---:|---:|---:|"
  for be in armv8sha3 armv8aes neon; do
    rows=("groestlcoin gcoin gcoinmany 80" "groestl512 groestl512 many512 64" "groestl512 groestl512 many512 1536" "groestl512 groestl512 many512 16384")
    for row in "${rows[@]}"; do
      read -r name one many n <<<"$row"
      fpkey=$name
      if [ "$one" = gcoin ]; then
        per_op "$one" "$be" 0; a=$(( res / 8 ))
        per_op "$many" "$be" 0; b=$(( res / 8 ))
      else
        per_op "$one" "$be" "$n"; a=$res
        per_op "$many" "$be" "$n"; b=$(( res / 8 ))
      fi
      fpkey=
      per=$(awk -v a="$a" -v b="$b" -v n="$n" 'BEGIN { printf "%d (%.1f/B) | %d (%.1f/B) | %.3f×", a, a / n, b, b / n, a / b }')
      echo "| $be | $name | $n | $per |"
    done
  done
fi
