#!/usr/bin/env bash
# Benchmark `slicewise slp optimize` on the public cipher linear layers of test-vectors/slp/bench
# (Kranz et al. 2017 and Xiang et al. 2020 matrices, ARIA; see its README.md).
#
#   scripts/slp-bench.sh [--label L] [--only REGEX] [--scale F] [-- EXTRA OPTIMIZE FLAGS...]
#
# Every matrix gets one `slicewise slp optimize FILE --time-limit T [EXTRA...]` with the limit of
# issue 14: 15 s for 16x16 and 32x32, 60 s for 64x64, 120 s for 128x128 (times --scale F).
# Without EXTRA flags this is the defaults-only run. Each program is re-checked with
# `slicewise slp verify`, and its XOR count and depth are the ones verify computes (not the
# header's, which verify compares with them). Results go to docs/slp-bench-L.json (L defaults to "defaults"), and
# docs/slp-bench.md is rebuilt from all docs/slp-bench-*.json present (one column per label).
# Programs and stderr logs stay in target/slp-bench/L/. Needs python3 for the table. Label the
# machine's load yourself (the table says "loaded machine" unless SLP_BENCH_MACHINE is set to a
# description).
set -euo pipefail
cd "$(dirname "$0")/.."
label=defaults
only=.
scale=1
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --label) label=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --scale) scale=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "usage: $0 [--label L] [--only REGEX] [--scale F] [-- EXTRA OPTIMIZE FLAGS...]" >&2; exit 2 ;;
  esac
done
bin=${SLICEWISE:-target/release/slicewise}
if [ -z "${SLICEWISE:-}" ]; then cargo build --release -q -p slicewise-cli; fi
dir=test-vectors/slp/bench
# Programs and logs are kept (outside git) so that a record can be checked in from its file,
# whose header has the command that repeats the winner alone.
work=${CARGO_TARGET_DIR:-target}/slp-bench/$label
rm -rf "$work"
mkdir -p "$work"
json=docs/slp-bench-$label.json
rows=()
fails=0
while IFS=$'\t' read -r name r c _rank _naive fp _k _x; do
  case "$name" in '#'*|'') continue ;; esac
  [[ "$name" =~ $only ]] || continue
  case "$c" in 16|32) t=15 ;; 64) t=60 ;; *) t=120 ;; esac
  t=$(python3 -c "print(round($t * $scale, 3))")
  prog=$work/$name.slp
  start=$(date +%s.%N)
  "$bin" slp optimize "$dir/$name.txt" --time-limit "$t" "${extra[@]}" -o "$prog" 2>"$work/$name.err" || true
  wall=$(python3 -c "print(round($(date +%s.%N) - $start, 1))")
  # The counts are the ones `slp verify` computes from the program (it also fails when the
  # header claims other counts); an unverified program reports none.
  checked=""
  if [ -s "$prog" ] && checked=$("$bin" slp verify "$dir/$name.txt" "$prog"); then ok=true; else ok=false; fails=$((fails + 1)); checked=""; fi
  xors=$(sed -n 's/^OK: \([0-9]*\) XORs, depth \([0-9]*\),.*/\1/p' <<<"$checked")
  depth=$(sed -n 's/^OK: \([0-9]*\) XORs, depth \([0-9]*\),.*/\2/p' <<<"$checked")
  algo=$(sed -n 's/^# algorithm: \([^ ]*\).*/\1/p' "$prog" 2>/dev/null | head -1)
  best=$(sed -n 's/.*best after \([0-9.]*\) s.*/\1/p' "$work/$name.err" | tail -1)
  echo "$name ${r}x$c: ${xors:-none} XORs (depth ${depth:-?}, $algo) best after ${best:-?} s of $t s; verified $ok" >&2
  rows+=("{\"name\":\"$name\",\"rows\":$r,\"cols\":$c,\"fingerprint\":\"$fp\",\"time_limit\":$t,\"xors\":${xors:-null},\"depth\":${depth:-null},\"algorithm\":\"$algo\",\"best_after_s\":${best:-null},\"wall_s\":$wall,\"verified\":$ok}")
done < "$dir/manifest.tsv"
{
  printf '{"label":"%s","flags":"%s","machine":"%s","date":"%s","commit":"%s","results":[\n' \
    "$label" "${extra[*]:-}" "${SLP_BENCH_MACHINE:-loaded machine: 2 cores shared with other jobs}" "$(date -u +%Y-%m-%dT%H:%MZ)" "$(git rev-parse --short HEAD)"
  (IFS=$',\n'; echo "${rows[*]}")
  echo ']}'
} > "$json"
python3 scripts/slp-bench-table.py "$dir" docs > docs/slp-bench.md
echo "wrote $json and docs/slp-bench.md; $fails unverified" >&2
[ "$fails" = 0 ]
