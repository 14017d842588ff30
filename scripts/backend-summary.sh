#!/usr/bin/env bash
# Totals the reports of what the test suites ran and skipped (test-support/backend_report.rs,
# scripts/backend-report.sh): the host's in target/backend-report/*.tsv (Rust suites, the
# constant-time checks ctgrind and ctdudect, the `check:` items of the C and Python scripts) and
# each cross target's in target/<triple>/backend-report/*.tsv (scripts/test-cross.sh). For every
# target and item, in how many suites it ran and in how many it was skipped, then the list of
# skipped ones. Call it at the end of scripts/test-all.sh (which removes the old reports at its
# start, so that only this run counts).
# Exits 1 if SLICEWISE_REQUIRE_BACKENDS names an item that some suite skipped (the suites
# themselves already fail in that case; this catches a suite that recorded but did not fail).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/backend-report.sh
tdir=${CARGO_TARGET_DIR:-target}
shopt -s nullglob
files=("$tdir"/backend-report/*.tsv "$tdir"/*/backend-report/*.tsv)
if [ ${#files[@]} -eq 0 ]; then
  echo "backend summary: no reports in $tdir/backend-report or $tdir/*/backend-report (no test recorded a backend)"
  exit 0
fi
# One line per record: status, item, target (`host` or the triple), suite.
records=$(awk -F'\t' -v OFS='\t' -v top="$tdir" '
  FNR == 1 { t = FILENAME; sub(/\/backend-report\/[^\/]*$/, "", t); t = (t == top) ? "host" : substr(t, length(top) + 2) }
  NF >= 3 { print $1, $2, t, $3 }' "${files[@]}" | sort -u)
echo "backend summary (suites that ran / skipped each backend or check, per target):"
awk -F'\t' '
  { key = $3 "\t" $2; if ($1 == "ran") ran[key]++; else skip[key]++; seen[key] = 1 }
  END {
    for (k in seen) { split(k, p, "\t"); printf "%s\t  %-30s %-22s ran in %2d suite(s), skipped in %2d\n", p[1] == "host" ? 0 : 1, p[1], p[2], ran[k] + 0, skip[k] + 0 }
  }' <<<"$records" | sort | cut -f2-
skipped=$(awk -F'\t' '$1 == "skipped" { print $2 "@" $3 }' <<<"$records" | sort -u | tr '\n' ' ')
echo "skipped (ITEM@TARGET: backend not available on that CPU, or check without its tool): ${skipped:-none}"
if [ -n "${SLICEWISE_REQUIRE_BACKENDS:-}" ] && [ -n "$skipped" ]; then
  bad=""
  for b in $skipped; do
    if backend_report_required "${b%@*}"; then bad="$bad $b"; fi
  done
  if [ -n "$bad" ]; then
    echo "FAILED: SLICEWISE_REQUIRE_BACKENDS=$SLICEWISE_REQUIRE_BACKENDS but skipped:$bad"
    exit 1
  fi
fi
