#!/usr/bin/env bash
# Totals the backend reports the test suites wrote to target/backend-report/*.tsv (see
# test-support/backend_report.rs): for every backend, in how many suites it ran and in how many
# it was skipped, then the list of skipped ones. Call it at the end of scripts/test-all.sh
# (after `rm -rf target/backend-report` at the start, so that only this run counts).
# Exits 1 if SLICEWISE_REQUIRE_BACKENDS names a backend that some suite skipped (the suites
# themselves already fail in that case; this catches a suite that recorded but did not fail).
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${CARGO_TARGET_DIR:-target}/backend-report"
if ! compgen -G "$dir/*.tsv" >/dev/null; then
  echo "backend summary: no reports in $dir (no test recorded a backend)"
  exit 0
fi
echo "backend summary (suites that ran / skipped each backend):"
cat "$dir"/*.tsv | sort -u | awk -F'\t' '
  { if ($1 == "ran") ran[$2]++; else skip[$2]++; seen[$2] = 1 }
  END {
    for (b in seen) printf "  %-22s ran in %2d suite(s), skipped in %2d\n", b, ran[b] + 0, skip[b] + 0
  }' | sort
skipped=$(cat "$dir"/*.tsv | awk -F'\t' '$1 == "skipped" { print $2 }' | sort -u | tr '\n' ' ')
echo "backends skipped (not available on this CPU): ${skipped:-none}"
if [ -n "${SLICEWISE_REQUIRE_BACKENDS:-}" ] && [ -n "$skipped" ]; then
  bad=""
  for b in $skipped; do
    prim=${b%%:*} name=${b#*:}
    IFS=, read -ra req <<<"$SLICEWISE_REQUIRE_BACKENDS"
    for r in "${req[@]}"; do
      r=$(echo "$r" | tr -d ' ')
      if [ "$r" = all ] || [ "$r" = "$name" ] || [ "$r" = "$prim:$name" ]; then bad="$bad $b"; fi
    done
  done
  if [ -n "$bad" ]; then
    echo "FAILED: SLICEWISE_REQUIRE_BACKENDS=$SLICEWISE_REQUIRE_BACKENDS but skipped:$bad"
    exit 1
  fi
fi
