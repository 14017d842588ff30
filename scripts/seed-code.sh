#!/usr/bin/env bash
# The Grøstl team's own implementations from SUPERCOP ("seed code") beside libslicewise, checked
# and timed in one process (issue 36):
#   scripts/seed-code.sh [--help] SUPERCOP_DIR [MODE] [BENCH_ARGS...]
# SUPERCOP_DIR is a SUPERCOP source tree (holding crypto_hash/groestl256/ and
# crypto_hash/groestl512/), or a git directory of one without a work tree (as the
# floodyberry/supercop mirror is); its Grøstl directories are then extracted with `git archive`.
#
# MODE is the family of seed implementations and of timing program:
#   x86   (the default)
#         SUPERCOP's aesni, aesni-intr, avx, avx-intr and vperm-intr implementations of
#         Grøstl-256 and Grøstl-512, each compiled with gcc -O3 -march=native (-fno-pie: the
#         inline-assembly ones use absolute addresses), beside libslicewise's process-wide backend
#         and each x86 backend forced, in scripts/seed-code/bench_x86.c.
#   armv7, armv6, aarch64
#         SUPERCOP's ARM Grøstl and Prøst code beside slicewise's ARM backends, both counted in
#         instructions under qemu-user (issue 34): scripts/seed-code/arm.sh (see its header).
#   m0, avr
#         SUPERCOP's Cortex-M0 Thumb and AVR Grøstl code beside slicewise's `mcu` kernels, under the
#         M0 timing model and simavr (issue 34): scripts/seed-code/embedded.sh (see its header).
#
# Everything is built under target/seed-code/MODE/ (never in the repository; no SUPERCOP code
# or binary built from it is committed): libslicewise (cargo build --release -p slicewise-capi),
# each seed implementation into an object whose only global symbol is
# crypto_hash_groestlN_<impl> (a generated crypto_hash.h stands in for the one SUPERCOP
# generates, and `objcopy --keep-global-symbol` makes their common internal names local), and the
# timing program linked with all of them and libslicewise.a. An implementation that fails to build
# is reported with the compiler's first error and left out; the others go on.
#
# The program checks every seed implementation (and every forced backend) against libslicewise
# on lengths 0..300 and 1 MiB, leaving out any that disagrees; then times them at 64 B, 16 KiB and
# 1 MiB (rdtsc, samples of >= 1 MiB of back-to-back calls, implementations interleaved sample by
# sample, median of N samples, minimum over R runs) and prints one markdown table per algorithm.
# BENCH_ARGS go to it: --runs R (default 7), --samples N (default 21), --backends a,b,...
# (default gfni,avx512,gfniavx2,vaes,avx2,aesni,vperm; unavailable ones are noted and skipped),
# --sample-bytes B (default 1 MiB, as crates/capi/tests/c/bench.c; shorter samples are preempted
# less often on a loaded machine), --quick (1 run of 5 samples). SLICEWISE_BACKEND=NAME sets libslicewise's process-wide backend,
# the one the speed-up column in bold is computed for. CC (default gcc) compiles the seeds and
# the program; SEED_MARCH (default native) is the seeds' -march: SEED_MARCH=znver3 on a Zen 4/5
# builds them as a Zen 3's `-march=native` would (16 vector registers, no AVX-512), for the Zen 3
# class figures measured by forcing `vaes` (docs/benchmarks.md). Not part of any test command; x86-64 Linux only for now.
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
}

case "${1:-}" in
    -h | --help)
        usage
        exit 0
        ;;
    "")
        usage >&2
        echo "$0: no SUPERCOP directory given" >&2
        exit 2
        ;;
esac
supercop=$1
shift
mode=x86
if [ $# -gt 0 ] && [[ $1 != -* ]]; then
    mode=$1
    shift
fi
case "$mode" in
    x86) ;;
    armv7 | armv6 | aarch64)
        exec "$(dirname "$0")/seed-code/arm.sh" "$supercop" "$mode" "$@"
        ;;
    m0 | avr)
        exec "$(dirname "$0")/seed-code/embedded.sh" "$supercop" "$mode" "$@"
        ;;
    *)
        echo "$0: unknown mode '$mode' (known: x86, armv7, armv6, aarch64, m0, avr)" >&2
        exit 2
        ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
target="${CARGO_TARGET_DIR:-$root/target}"
build="$target/seed-code/$mode"
CC=${CC:-gcc}
algs=(groestl256 groestl512)
impls=(aesni aesni-intr avx avx-intr vperm-intr)

if [ "$(uname -m)" != x86_64 ]; then
    echo "$0: mode x86 needs an x86-64 machine (this is $(uname -m))" >&2
    exit 1
fi

# The SUPERCOP sources: a tree, or a git directory to extract from.
[ -d "$supercop" ] || { echo "$0: $supercop is not a directory" >&2; exit 1; }
supercop=$(cd "$supercop" && pwd)
if [ -d "$supercop/crypto_hash/groestl256" ] && [ -d "$supercop/crypto_hash/groestl512" ]; then
    rm -rf "$build"
    mkdir -p "$build/obj"
    src="$supercop/crypto_hash"
    echo "== SUPERCOP tree $supercop"
elif git --git-dir="$supercop" rev-parse --verify -q HEAD >/dev/null 2>&1 &&
    git --git-dir="$supercop" cat-file -e HEAD:crypto_hash/groestl256 2>/dev/null &&
    git --git-dir="$supercop" cat-file -e HEAD:crypto_hash/groestl512 2>/dev/null; then
    rm -rf "$build"
    mkdir -p "$build/src" "$build/obj"
    echo "== SUPERCOP git directory $supercop ($(git --git-dir="$supercop" log -1 --format='%h %s' HEAD)): extracting the Grøstl directories"
    # Only the implementations used (a partial mirror may lack other blobs; git names them on
    # stderr, kept in archive.log).
    paths=()
    for alg in "${algs[@]}"; do
        for impl in "${impls[@]}"; do
            git --git-dir="$supercop" cat-file -e "HEAD:crypto_hash/$alg/$impl" 2>/dev/null &&
                paths+=("crypto_hash/$alg/$impl")
        done
    done
    git --git-dir="$supercop" archive HEAD "${paths[@]}" 2> "$build/archive.log" | tar -x -C "$build/src"
    src="$build/src/crypto_hash"
    mkdir -p "$src"
else
    echo "$0: $supercop is not a SUPERCOP directory (no crypto_hash/groestl256 and crypto_hash/groestl512, as a tree or in a git directory's HEAD)" >&2
    exit 1
fi

echo "== libslicewise (cargo build --release -p slicewise-capi)"
(cd "$root" && cargo build --release --locked -p slicewise-capi)
lib="$target/release/libslicewise.a"
inc="$root/crates/capi/include"

cc_version=$("$CC" --version | head -n 1)
seed_flags=(-O3 "-march=${SEED_MARCH:-native}" -fno-pie)
echo "== seed implementations: $cc_version ${seed_flags[*]}"
objs=()
declare -A built
failed=()
for alg in "${algs[@]}"; do
    for impl in "${impls[@]}"; do
        name="crypto_hash_${alg}_${impl//-/_}"
        if [ ! -d "$src/$alg/$impl" ]; then
            failed+=("$alg/$impl: not in this SUPERCOP")
            continue
        fi
        d="$build/src-$alg-$impl"
        rm -rf "$d"
        cp -r "$src/$alg/$impl" "$d"
        bytes=$(sed -n 's/^#define CRYPTO_BYTES \([0-9]*\).*/\1/p' "$d/api.h")
        # What SUPERCOP's build generates, reduced to what these implementations use. Force-included:
        # some include it, some only api.h.
        cat > "$d/crypto_hash.h" <<EOF
#ifndef SEED_CODE_CRYPTO_HASH_H
#define SEED_CODE_CRYPTO_HASH_H
#define crypto_hash $name
#define crypto_hash_BYTES $bytes
int crypto_hash(unsigned char *, const unsigned char *, unsigned long long);
#endif
EOF
        for w in 8 16 32 64; do
            printf '#include <stdint.h>\ntypedef uint%s_t crypto_uint%s;\n' "$w" "$w" > "$d/crypto_uint$w.h"
            printf '#include <stdint.h>\ntypedef int%s_t crypto_int%s;\n' "$w" "$w" > "$d/crypto_int$w.h"
        done
        o="$build/obj/$alg-$impl.o"
        log="$build/obj/$alg-$impl.log"
        parts="$build/obj/$alg-$impl.parts"
        mkdir -p "$parts"
        ok=yes
        for c in "$d"/*.c; do
            if ! "$CC" "${seed_flags[@]}" -I"$d" -include "$d/crypto_hash.h" -c "$c" \
                -o "$parts/$(basename "$c" .c).o" >> "$log" 2>&1; then
                ok=no
            fi
        done
        if [ $ok = yes ]; then
            ld -r "$parts"/*.o -o "$o.all" >> "$log" 2>&1 || ok=no
        fi
        if [ $ok = yes ] && nm "$o.all" | grep -q " T $name\$"; then
            objcopy --keep-global-symbol="$name" "$o.all" "$o"
            objs+=("$o")
            built[$alg]+=" X($name, \"$impl\")"
            echo "built $alg/$impl ($(grep -c 'warning:' "$log" || true) compiler warnings, $log)"
        else
            [ $ok = yes ] && echo "no global symbol $name" >> "$log"
            failed+=("$alg/$impl: $(grep -m1 -E 'error|no global symbol' "$log" || echo 'see log')")
        fi
    done
done
not_built=""
for f in "${failed[@]}"; do
    echo "NOT BUILT: $f (left out)"
    not_built+="${not_built:+; }$f"
done

cat > "$build/seeds.h" <<EOF
/* Generated by scripts/seed-code.sh. */
#define SEEDS_256(X)${built[groestl256]:-}
#define SEEDS_512(X)${built[groestl512]:-}
#define SEED_CFLAGS "$cc_version ${seed_flags[*]}"
#define SLICEWISE_SOURCE "commit $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- crates Cargo.toml Cargo.lock || echo ', uncommitted changes in crates/')"
#define SEED_NOT_BUILT "$(printf '%s' "$not_built" | sed 's/[\\"]/\\&/g')"
EOF

echo "== timing program"
# -no-pie: the inline-assembly seeds address their tables absolutely.
"$CC" -std=c11 -O2 -Wall -Wextra -Werror -no-pie -I"$build" -I"$inc" "$root/scripts/seed-code/bench_$mode.c" \
    "${objs[@]}" "$lib" -lpthread -ldl -lm -o "$build/bench_$mode"
echo "== $build/bench_$mode $*${SLICEWISE_BACKEND:+ (SLICEWISE_BACKEND=$SLICEWISE_BACKEND)}"
"$build/bench_$mode" "$@"
