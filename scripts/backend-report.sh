# Sourced by the test scripts: the shell side of test-support/backend_report.rs. A check that
# needs something outside Rust (pkg-config, PyPI groestlcoin-hash) records whether it ran, as
# `check:NAME`, in the same reports as the backends, and a skip of a required one fails:
#
#   . scripts/backend-report.sh
#   backend_report_gate check:pkg-config slicewise-capi/test-c.sh no "pkg-config is not installed" || exit 1
#
# Reports: ${CARGO_TARGET_DIR:-target}/backend-report/SUITE.tsv (SUITE with `/` as `--`), lines
# `ran|skipped <TAB> ITEM <TAB> SUITE`; scripts/backend-summary.sh totals them.
# SLICEWISE_REQUIRE_BACKENDS: `all`, or a comma-separated list of `NAME` or `PRIMITIVE:NAME`.

# backend_report_required ITEM: whether SLICEWISE_REQUIRE_BACKENDS asks for ITEM (PRIMITIVE:NAME).
backend_report_required() {
    local item=$1 name=${1#*:} r
    local -a req
    IFS=, read -ra req <<<"${SLICEWISE_REQUIRE_BACKENDS:-}"
    for r in "${req[@]}"; do
        r=${r// /}
        if [ "$r" = all ] || [ "$r" = "$name" ] || [ "$r" = "$item" ]; then
            return 0
        fi
    done
    return 1
}

# backend_report_gate ITEM SUITE yes|no REASON: records ITEM as ran (yes) or skipped (no) by
# SUITE; a skip prints `SKIPPED: ITEM REASON` and, if ITEM is required, `FAILED: …` and
# returns 1.
backend_report_gate() {
    local item=$1 suite=$2 ran=$3 reason=$4
    local dir=${CARGO_TARGET_DIR:-target}/backend-report
    local status=skipped
    [ "$ran" = yes ] && status=ran
    mkdir -p "$dir"
    printf '%s\t%s\t%s\n' "$status" "$item" "$suite" >>"$dir/${suite//\//--}.tsv"
    [ "$ran" = yes ] && return 0
    echo "SKIPPED: $item $reason ($suite)" >&2
    if backend_report_required "$item"; then
        echo "FAILED: $item is required by SLICEWISE_REQUIRE_BACKENDS=$SLICEWISE_REQUIRE_BACKENDS but $reason" >&2
        return 1
    fi
    return 0
}
