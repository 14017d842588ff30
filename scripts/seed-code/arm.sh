#!/usr/bin/env bash
# The Grøstl and Prøst teams' own ARM code from SUPERCOP ("seed code") beside slicewise's ARM
# backends, both counted in executed instructions under qemu-user (issue 34):
#   scripts/seed-code/arm.sh [--help] SUPERCOP_DIR MODE [--mca] [--sizes A,B,...]
# (scripts/seed-code.sh SUPERCOP_DIR MODE ... comes here for MODE armv7, armv6 and aarch64.)
# SUPERCOP_DIR is a SUPERCOP source tree, or a git directory of one without a work tree (as the
# floodyberry/supercop mirror is); the directories used are then extracted with `git archive`.
#
# MODE:
#   armv7    arm-linux-gnueabihf-gcc -O3 -marm -mcpu=cortex-a8 -mfpu=neon, run under
#            `qemu-arm -cpu cortex-a8`: crypto_hash/groestl256/{neon-bitslice, neon-table,
#            neon-vperm, arm32, arm11}, crypto_hash/groestl512/{neon-table, arm32} and
#            crypto_aead/proest128{otr,ape,copa}v1/arm (qhasm, ARM11 code, runs on ARMv7 too),
#            beside slicewise for armv7-unknown-linux-gnueabihf.
#   armv6    arm-linux-gnueabi-gcc -O3 -marm -mcpu=arm1176jzf-s -mfloat-abi=soft, run under
#            `qemu-arm -cpu arm1176`: groestl256/{arm11, arm32}, groestl512/arm32 and the three
#            Prøst-128 `arm` implementations, beside slicewise for arm-unknown-linux-gnueabi
#            (the pinned nightly of scripts/toolchains.sh with -Zbuild-std).
#   aarch64  SUPERCOP (20160716) has no AArch64 code for Grøstl or Prøst; says so and exits 1.
#
# Steps (everything under ${CARGO_TARGET_DIR:-target}/seed-code/MODE/, never in the repository;
# no SUPERCOP code, patched or not, and no binary built from it is committed):
#  1. libslicewise for the target (cargo build --release -p slicewise-capi), the reference.
#  2. Each seed implementation into one object whose only global symbols are
#     crypto_hash_<alg>_<impl> (or crypto_aead_<alg>_<impl>_encrypt/_decrypt): generated
#     crypto_hash.h/crypto_aead.h/crypto_uintN.h/crypto_verify_16.h stand in for SUPERCOP's,
#     `ld -r` joins the parts and `objcopy --keep-global-symbol` makes the rest local. Where the
#     code needs a change to build or to be correct with today's tools, a sed in patch_seed
#     (below, each one explained) edits the extracted copy in the build directory; the script
#     prints every patch it applies. An implementation that does not build is reported with
#     the first error and left out.
#  3. scripts/seed-code/count_arm.c, linked with the seeds and libslicewise.a, checks every
#     seed against libslicewise under qemu (hashes of lengths 0..300 and 16 KiB; AEAD
#     encryptions of 0..300 and 16 KiB bytes, associated data of 1..100 bytes, and the seed's own
#     decryption and rejection of a forgery). A seed that disagrees is reported in capitals and
#     left out of the tables.
#  4. Instruction counts exactly as scripts/count-insns.sh takes them: its QEMU TCG plugin
#     (scripts/count-insns/insncount.c) counts executed guest instructions; the figure for one
#     operation is (count(N = 3) − count(N = 1)) / 2. The seeds run in count_arm (`run`), the
#     slicewise backends in scripts/count-insns' driver, on the same message (byte i =
#     i * 131 + 7; AEADs: key bytes 7, nonce bytes 9, no associated data); both print a
#     fingerprint of the result and the script stops if a seed and a slicewise backend disagree.
#  5. One Markdown table per algorithm: the seed's instructions per byte, the slicewise backend(s)
#     it is compared with, theirs per byte, and ours/theirs (below 1: slicewise executes fewer).
#     These are instruction counts, not cycles.
# --sizes (default 64,1536,16384; at most 16384) sets the message lengths counted. --mca also
# runs scripts/seed-code/mca-arm.sh on this build (llvm-mca estimates of the inner loops).
# Needs scripts/test-cross.sh's packages (cross gcc, libc, qemu-user) and a host C compiler;
# installs none of them. Not part of any test command.
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
}

case "${1:-}" in
    -h | --help) usage; exit 0 ;;
    "") usage >&2; echo "$0: no SUPERCOP directory given" >&2; exit 2 ;;
esac
supercop=$1
shift
mode=${1:-}
[ $# -gt 0 ] && shift
mca=no
sizes="64 1536 16384"
while [ $# -gt 0 ]; do
    case "$1" in
        --mca) mca=yes ;;
        --sizes) sizes=${2//,/ }; shift ;;
        *) echo "$0: unknown argument '$1'" >&2; exit 2 ;;
    esac
    shift
done
for n in $sizes; do
    [[ $n =~ ^[0-9]+$ ]] && [ "$n" -le 16384 ] || { echo "$0: bad size '$n' (0..16384)" >&2; exit 2; }
done

root=$(cd "$(dirname "$0")/../.." && pwd)
target="${CARGO_TARGET_DIR:-$root/target}"
build="$target/seed-code/$mode"

# Per mode: the compiler and flags for the seeds, the qemu command, the Rust target, and the
# seeds with the slicewise backends each is compared with ("alg/impl:backend,backend").
case "$mode" in
    armv7)
        CC=arm-linux-gnueabihf-gcc
        cross=arm-linux-gnueabihf
        seed_flags=(-O3 -marm -mcpu=cortex-a8 -mfpu=neon)
        qemu=(qemu-arm -cpu cortex-a8 -L /usr/arm-linux-gnueabihf)
        triple=armv7-unknown-linux-gnueabihf
        cargo_pre=()
        cargo_std=()
        # arm32/arm11 are T-table code without NEON: beside the best constant-time backend of
        # an ARMv7 with NEON (neon7bs), the constant-time one without NEON (mcu) and the
        # T-table one (ttable32).
        seeds=(
            "crypto_hash/groestl256/neon-bitslice:neon7bs"
            "crypto_hash/groestl256/neon-table:neon7tt"
            "crypto_hash/groestl256/neon-vperm:neon7vp"
            "crypto_hash/groestl256/arm32:neon7bs,mcu,ttable32"
            "crypto_hash/groestl256/arm11:neon7bs,mcu,ttable32"
            "crypto_hash/groestl512/neon-table:neon7tt"
            "crypto_hash/groestl512/arm32:neon7bs,mcu,ttable32"
            "crypto_aead/proest128otrv1/arm:arm11,neon"
            "crypto_aead/proest128apev1/arm:arm11,neon"
            "crypto_aead/proest128copav1/arm:arm11,neon"
        )
        ;;
    armv6)
        CC=arm-linux-gnueabi-gcc
        cross=arm-linux-gnueabi
        seed_flags=(-O3 -marm -mcpu=arm1176jzf-s -mfloat-abi=soft)
        qemu=(qemu-arm -cpu arm1176 -L /usr/arm-linux-gnueabi)
        triple=arm-unknown-linux-gnueabi
        . "$root/scripts/toolchains.sh"
        install_nightly rust-src
        cargo_pre=(+"$SLICEWISE_NIGHTLY")
        cargo_std=(-Zbuild-std)
        # No NEON on ARM11: the constant-time backend is mcu, the T-table one ttable32.
        seeds=(
            "crypto_hash/groestl256/arm11:mcu,ttable32"
            "crypto_hash/groestl256/arm32:mcu,ttable32"
            "crypto_hash/groestl512/arm32:mcu,ttable32"
            "crypto_aead/proest128otrv1/arm:arm11"
            "crypto_aead/proest128apev1/arm:arm11"
            "crypto_aead/proest128copav1/arm:arm11"
        )
        ;;
    aarch64)
        echo "$0: SUPERCOP has no AArch64 implementation of Grøstl or Prøst (its ARM code, crypto_hash/groestl*/{arm11,arm32,neon-*} and crypto_aead/proest128*/arm, is 32-bit ARM); compare on armv7 or armv6 instead" >&2
        exit 1
        ;;
    "") usage >&2; echo "$0: no MODE given (armv7, armv6)" >&2; exit 2 ;;
    *) echo "$0: unknown mode '$mode' (armv7, armv6, aarch64)" >&2; exit 2 ;;
esac
for tool in "$CC" "$cross-ld" "$cross-objcopy" "$cross-nm" qemu-arm cc; do
    command -v "$tool" >/dev/null 2>&1 ||
        { echo "$0: $tool not found (scripts/test-cross.sh installs the cross compilers and qemu-user)" >&2; exit 1; }
done

# The SUPERCOP sources: a tree, or a git directory to extract from.
[ -d "$supercop" ] || { echo "$0: $supercop is not a directory" >&2; exit 1; }
supercop=$(cd "$supercop" && pwd)
rm -rf "$build"
mkdir -p "$build/obj"
paths=()
for s in "${seeds[@]}"; do paths+=("${s%%:*}"); done
if [ -d "$supercop/crypto_hash/groestl256" ]; then
    src="$supercop"
    echo "== SUPERCOP tree $supercop"
elif git --git-dir="$supercop" rev-parse --verify -q HEAD >/dev/null 2>&1 &&
    git --git-dir="$supercop" cat-file -e HEAD:crypto_hash/groestl256 2>/dev/null; then
    echo "== SUPERCOP git directory $supercop ($(git --git-dir="$supercop" log -1 --format='%h %s' HEAD)): extracting the directories used"
    mkdir -p "$build/src"
    present=()
    for p in "${paths[@]}"; do
        git --git-dir="$supercop" cat-file -e "HEAD:$p" 2>/dev/null && present+=("$p")
    done
    # A partial mirror may lack other blobs; git names them on stderr, kept in archive.log.
    [ ${#present[@]} -eq 0 ] ||
        git --git-dir="$supercop" archive HEAD "${present[@]}" 2> "$build/archive.log" | tar -x -C "$build/src"
    src="$build/src"
else
    echo "$0: $supercop is not a SUPERCOP directory (no crypto_hash/groestl256, as a tree or in a git directory's HEAD)" >&2
    exit 1
fi

echo "== libslicewise for $triple (cargo ${cargo_pre[*]} build --release -p slicewise-capi ${cargo_std[*]})"
(cd "$root" && cargo "${cargo_pre[@]}" build -q --release --locked -p slicewise-capi --target "$triple" "${cargo_std[@]}")
lib="$target/$triple/release/libslicewise.a"
inc="$root/crates/capi/include"

# patch_seed ALG IMPL DIR: the edits an implementation needs to build, or to compute the right
# result, with today's GNU tools; applied to the extracted copy in DIR, each one printed.
patch_seed() {
    local alg=$1 impl=$2 d=$3
    case "$alg/$impl" in
        groestl256/neon-bitslice)
            # hash.c declares `const u8 CONSTS[32+1280];` without `extern` (a tentative
            # definition), constants.c defines it: since GCC 10 (-fno-common by default) that is a
            # second definition and the link fails ("multiple definition of `CONSTS'"). hash.c's
            # declaration becomes `extern`.
            echo "   patch $alg/$impl: hash.c: the declaration of CONSTS made extern"
            sed -i 's/^const __attribute__ ((aligned(32))) u8 CONSTS\[/extern &/' "$d/hash.c"
            grep -q '^extern const __attribute__ ((aligned(32))) u8 CONSTS\[' "$d/hash.c" ||
                echo "   (the CONSTS patch found nothing to change)"
            ;;&
        groestl256/neon-bitslice | groestl256/neon-vperm)
            # crypto_hash clears STATEBYTES * 2 bytes of its STATEBYTES-byte static ctx, 64 bytes
            # past its end (GCC 12: "iteration 64 invokes undefined behavior", "writing 128 bytes
            # into a region of size 64"). ctx is declared with the size the loop clears, so the
            # code does what it did when it was written, without undefined behaviour.
            echo "   patch $alg/$impl: hash.c: static ctx[STATEBYTES] declared ctx[STATEBYTES*2], the size its clearing loop writes"
            sed -i 's/^\(  static __attribute__ ((aligned(32))) u8 ctx\)\[STATEBYTES\];/\1[STATEBYTES*2];/' "$d/hash.c"
            grep -q 'u8 ctx\[STATEBYTES\*2\]' "$d/hash.c" || echo "   (the ctx patch found nothing to change)"
            ;;&
        groestl256/arm32 | groestl512/arm32)
            # The wrong digest (all zero bytes, whatever the input): the permutations are
            # inline-assembly statements that read and write the global state arrays g[] and m[]
            # through sp (INIT, a separate statement, saves sp in a[64] and points sp at a) but
            # declare no memory operand and no "memory" clobber. GCC 12 at -O3 therefore
            # believes FINAL_SMALL's `memcpy(g, H, 64); PERM_SMALL_F(g); H[u] ^= g[u]` XORs H
            # with itself, and keeps or drops the state's loads and stores across the
            # permutations as it likes. Every permutation statement (groestl_core_asm_{p,q,f}.h,
            # two each, CRLF lines) and INIT (groestl.c) gets "memory" (and "cc": the loops end
            # with cmp/bne) added to its clobbers. check_seed then reads the compiler's listing to
            # make sure no instruction sits between INIT's `mov sp` and the permutation's first
            # branch (the stack pointer points into g[] there).
            local n
            n=$(cat "$d"/groestl_core_asm_[pqf].h | grep -c '"ip", "lr" *\\' || true)
            sed -i 's/"ip", "lr" *\\/"ip", "lr", "cc", "memory" \\/' "$d"/groestl_core_asm_[pqf].h
            sed -i 's/: : \[a_\] "r" (a) );/: : [a_] "r" (a) : "memory" );/' "$d/groestl.c"
            echo "   patch $alg/$impl: groestl_core_asm_{p,q,f}.h: \"cc\", \"memory\" added to the clobbers of $n permutation asm statements; groestl.c: \"memory\" to INIT's ($(grep -c ': : \[a_\] "r" (a) : "memory" );' "$d/groestl.c") statement)"
            ;;
        groestl256/neon-vperm)
            # GNU as 2.40 rejects the bare `.global` lines (no symbol name) before roundEven and
            # roundOdd (vperm-neon.S lines 911 and 922: "expected symbol name"); the assemblers of
            # 2012 ignored them. The two functions are local (called from pq_rounds only), so the
            # lines are deleted.
            echo "   patch $alg/$impl: vperm-neon.S: $(grep -c '^\.global[[:space:]]*$' "$d/vperm-neon.S") bare '.global' lines deleted (lines $(grep -n '^\.global[[:space:]]*$' "$d/vperm-neon.S" | cut -d: -f1 | paste -sd,))"
            sed -i '/^\.global[[:space:]]*$/d' "$d/vperm-neon.S"
            ;;
    esac
}

# check_seed ALG IMPL PARTS: checks of the compiled code that patch_seed relies on; prints why
# and fails if one does not hold.
check_seed() {
    local alg=$1 impl=$2 parts=$3
    case "$alg/$impl" in
        groestl256/arm32 | groestl512/arm32)
            # Between INIT's `mov sp, rN` and the permutation's `b START_*`, only directives,
            # comments, labels and the branch over a literal pool may appear.
            awk '
                /^ mov sp,  r[0-9]+/ { inside = 1; inits++; next }
                inside && / b START_/ { inside = 0; next }
                inside && !/^[ \t]*($|@|\.|b[ \t]+\.L[0-9]+$|\.L[0-9A-Za-z_]+:)/ { print "instruction between INIT and the permutation: " $0; bad = 1 }
                END { if (inits == 0) { print "no INIT found in the listing"; bad = 1 } exit bad }
            ' "$parts/groestl.s"
            ;;
    esac
}

cc_version=$("$CC" --version | head -n 1)
echo "== seed implementations: $cc_version ${seed_flags[*]}"
objs=()
hash_list=""
aead_list=""
declare -A compare
failed=()
for s in "${seeds[@]}"; do
    path=${s%%:*}
    kind=${path%%/*}         # crypto_hash | crypto_aead
    rest=${path#*/}
    alg=${rest%%/*}
    impl=${rest#*/}
    cid="${alg}_${impl//-/_}"
    if [ ! -d "$src/$path" ]; then
        failed+=("$alg/$impl: not in this SUPERCOP")
        continue
    fi
    d="$build/src-$alg-$impl"
    rm -rf "$d"
    cp -r "$src/$path" "$d"
    for w in 8 16 32 64; do
        printf '#include <stdint.h>\ntypedef uint%s_t crypto_uint%s;\n' "$w" "$w" > "$d/crypto_uint$w.h"
        printf '#include <stdint.h>\ntypedef int%s_t crypto_int%s;\n' "$w" "$w" > "$d/crypto_int$w.h"
    done
    if [ "$kind" = crypto_hash ]; then
        syms=("crypto_hash_$cid")
        bytes=$(sed -n 's/^#define CRYPTO_BYTES[[:space:]]*\([0-9]*\).*/\1/p' "$d/api.h")
        # What SUPERCOP's build generates, reduced to what these implementations use.
        cat > "$d/crypto_hash.h" <<EOF
#ifndef SEED_CODE_CRYPTO_HASH_H
#define SEED_CODE_CRYPTO_HASH_H
#define crypto_hash crypto_hash_$cid
#define crypto_hash_BYTES $bytes
int crypto_hash(unsigned char *, const unsigned char *, unsigned long long);
#endif
EOF
        forced="$d/crypto_hash.h"
    else
        syms=("crypto_aead_${cid}_encrypt" "crypto_aead_${cid}_decrypt")
        api() { sed -n "s/^#define CRYPTO_$1[[:space:]]*\([0-9]*\).*/\1/p" "$d/api.h"; }
        keyb=$(api KEYBYTES) npubb=$(api NPUBBYTES) ab=$(api ABYTES)
        cat > "$d/crypto_aead.h" <<EOF
#ifndef SEED_CODE_CRYPTO_AEAD_H
#define SEED_CODE_CRYPTO_AEAD_H
#define crypto_aead_encrypt crypto_aead_${cid}_encrypt
#define crypto_aead_decrypt crypto_aead_${cid}_decrypt
#define crypto_aead_KEYBYTES $keyb
#define crypto_aead_NPUBBYTES $npubb
#define crypto_aead_ABYTES $ab
int crypto_aead_encrypt(unsigned char *, unsigned long long *, const unsigned char *, unsigned long long,
                        const unsigned char *, unsigned long long, const unsigned char *,
                        const unsigned char *, const unsigned char *);
int crypto_aead_decrypt(unsigned char *, unsigned long long *, unsigned char *, const unsigned char *,
                        unsigned long long, const unsigned char *, unsigned long long,
                        const unsigned char *, const unsigned char *);
#endif
EOF
        # SUPERCOP's crypto_verify_16 (0 if equal, else -1), as a local function.
        cat > "$d/crypto_verify_16.h" <<'EOF'
#ifndef SEED_CODE_CRYPTO_VERIFY_16_H
#define SEED_CODE_CRYPTO_VERIFY_16_H
static inline int seed_code_verify_16(const unsigned char *x, const unsigned char *y)
{
    unsigned d = 0;
    for (int i = 0; i < 16; i++) d |= x[i] ^ y[i];
    return (int)((1 & ((d - 1) >> 8)) - 1);
}
#define crypto_verify_16 seed_code_verify_16
#endif
EOF
        forced="$d/crypto_aead.h"
    fi
    patch_seed "$alg" "$impl" "$d"
    o="$build/obj/$alg-$impl.o"
    log="$build/obj/$alg-$impl.log"
    parts="$build/obj/$alg-$impl.parts"
    mkdir -p "$parts"
    : > "$log"
    ok=yes
    for c in "$d"/*.c "$d"/*.s "$d"/*.S; do
        [ -e "$c" ] || continue
        base=$(basename "$c")
        case "$c" in
            *.c) extra=(-include "$forced") ;;
            *) extra=(-Wa,--noexecstack) ;; # (the .s files lack .note.GNU-stack)
        esac
        # The C files also go to assembly listings (for scripts/seed-code/mca-arm.sh).
        if ! "$CC" "${seed_flags[@]}" -I"$d" "${extra[@]}" -c "$c" -o "$parts/${base%.*}.o" >> "$log" 2>&1; then
            ok=no
        elif [[ $c == *.c ]]; then
            "$CC" "${seed_flags[@]}" -I"$d" "${extra[@]}" -S "$c" -o "$parts/${base%.*}.s" >> "$log" 2>&1 || true
        fi
    done
    if [ $ok = yes ] && ! check_seed "$alg" "$impl" "$parts" >> "$log" 2>&1; then
        echo "check of the compiled code failed" >> "$log"
        ok=no
    fi
    if [ $ok = yes ]; then
        "$cross-ld" -r "$parts"/*.o -o "$o.all" >> "$log" 2>&1 || ok=no
    fi
    if [ $ok = yes ]; then
        for sym in "${syms[@]}"; do
            "$cross-nm" "$o.all" | grep -q " T $sym\$" || { echo "no global symbol $sym" >> "$log"; ok=no; }
        done
    fi
    if [ $ok = yes ]; then
        keep=()
        for sym in "${syms[@]}"; do keep+=(--keep-global-symbol="$sym"); done
        "$cross-objcopy" "${keep[@]}" "$o.all" "$o"
        objs+=("$o")
        if [ "$kind" = crypto_hash ]; then
            hash_list+=" X(crypto_hash_$cid, \"$alg\", \"$impl\", $bytes)"
        else
            aead_list+=" X(crypto_aead_${cid}_encrypt, crypto_aead_${cid}_decrypt, \"$alg\", \"$impl\", $keyb, $npubb, $ab)"
        fi
        compare["$alg $impl"]=${s#*:}
        echo "built $alg/$impl ($(grep -c 'warning:' "$log" || true) compiler warnings, $log)"
    else
        failed+=("$alg/$impl: $(grep -m1 -E 'rror|multiple definition|undefined reference|no global symbol|between INIT|no INIT' "$log" || echo "see $log")")
    fi
done
for f in "${failed[@]}"; do
    echo "NOT BUILT: $f (left out)"
done

cat > "$build/seeds.h" <<EOF
/* Generated by scripts/seed-code/arm.sh. */
#define SEEDS_HASH(X)$hash_list
#define SEEDS_AEAD(X)$aead_list
EOF

echo "== count_arm (scripts/seed-code/count_arm.c)"
"$CC" -std=c11 -O2 -Wall -Wextra -Werror "${seed_flags[@]:1}" -I"$build" -I"$inc" \
    "$root/scripts/seed-code/count_arm.c" "${objs[@]}" "$lib" -lpthread -ldl -lm -o "$build/count_arm"

echo "== checking the seeds against libslicewise under ${qemu[*]}"
declare -A excluded
status=0
while read -r verdict alg impl rest; do
    impl=${impl%:}
    echo "$verdict $alg $impl $rest"
    if [ "$verdict" != ok ]; then
        excluded["$alg $impl"]=1
        status=1
    fi
done < <("${qemu[@]}" "$build/count_arm" check || true)
for key in "${!excluded[@]}"; do
    echo "!! ${key/ //} DISAGREES WITH SLICEWISE: LEFT OUT OF THE TABLES"
done

echo "== instruction counting: scripts/count-insns/insncount.c, scripts/count-insns driver for $triple"
counts="$target/seed-code/count-insns"
mkdir -p "$counts"
cc -shared -fPIC -O2 -Wall -o "$counts/libinsncount.so" "$root/scripts/count-insns/insncount.c"
(cd "$root/scripts/count-insns" &&
    cargo "${cargo_pre[@]}" build -q --release --target "$triple" --target-dir "$counts" "${cargo_std[@]}")
driver="$counts/$triple/release/count-insns"

# count PROGRAM ARGS... -> "INSNS FINGERPRINT" (the plugin's total on stderr, the fingerprint at
# the end of stdout)
count() {
    local r
    r=$("${qemu[@]}" -plugin "$counts/libinsncount.so" "$@" 2> "$build/count.stderr")
    echo "$(sed -n 's/^insns: //p' "$build/count.stderr") ${r##*: }"
}
# per_op PROGRAM ARGS... (N is appended): sets `res` to the instructions of one operation and
# `resfp` to the result's fingerprint
res=0
resfp=""
per_op() {
    local a b fa fb
    read -r a fa < <(count "$@" 1)
    read -r b fb < <(count "$@" 3)
    [ -n "$a" ] && [ -n "$b" ] || { echo "$0: no count from: $*" >&2; exit 1; }
    [ "$fa" = "$fb" ] || { echo "$0: fingerprint changed between runs: $*" >&2; exit 1; }
    res=$(((b - a) / 2))
    resfp=$fa
}

# The slicewise op of a seed algorithm (count-insns' names).
sw_op() {
    case "$1" in
        groestl*) echo "$1" ;;
        proest128otrv1) echo otr128 ;;
        proest128apev1) echo ape128 ;;
        proest128copav1) echo copa128 ;;
        *) echo "$0: no slicewise op for $1" >&2; exit 1 ;;
    esac
}
title() {
    case "$1" in
        groestl256) echo "Grøstl-256 (one hash of BYTES bytes)" ;;
        groestl512) echo "Grøstl-512 (one hash of BYTES bytes)" ;;
        proest128otrv1) echo "Prøst-OTR-128 (one encryption of BYTES bytes, no associated data)" ;;
        proest128apev1) echo "Prøst-APE-128 (one encryption of BYTES bytes, no associated data)" ;;
        proest128copav1) echo "Prøst-COPA-128 (one encryption of BYTES bytes, no associated data)" ;;
    esac
}
per_byte() { awk -v c="$1" -v n="$2" 'BEGIN { if (n > 0) printf "%.1f", c / n; else printf "–" }'; }

declare -A ours ours_fp
tables=""
mapfile -t listed < <("${qemu[@]}" "$build/count_arm" list)
algs=()
for line in "${listed[@]}"; do
    a=${line%% *}
    [[ " ${algs[*]} " == *" $a "* ]] || algs+=("$a")
done
for alg in "${algs[@]}"; do
    op=$(sw_op "$alg")
    t=$'\n'"$(title "$alg"), \`${qemu[*]}\`; ours/theirs = slicewise instructions / seed instructions"$'\n\n'
    t+="| seed (SUPERCOP) | bytes | seed insns | seed insns/B | slicewise backend | insns | insns/B | ours/theirs |"$'\n'
    t+="|---|---:|---:|---:|---|---:|---:|---:|"$'\n'
    for line in "${listed[@]}"; do
        [ "${line%% *}" = "$alg" ] || continue
        impl=${line#* }
        [ -z "${excluded["$alg $impl"]:-}" ] || continue
        for n in $sizes; do
            per_op "$build/count_arm" run "$alg" "$impl" "$n"
            theirs=$res
            theirs_fp=$resfp
            first=yes
            IFS=, read -ra backends <<< "${compare["$alg $impl"]}"
            for be in "${backends[@]}"; do
                key="$op $be $n"
                if [ -z "${ours[$key]:-}" ]; then
                    per_op "$driver" "$op" "$be" "$n"
                    ours[$key]=$res
                    ours_fp[$key]=$resfp
                fi
                if [ "${ours_fp[$key]}" != "$theirs_fp" ]; then
                    echo "$0: $alg/$impl and slicewise $be disagree on $n bytes (fingerprints $theirs_fp, ${ours_fp[$key]})" >&2
                    exit 1
                fi
                if [ $first = yes ]; then
                    row="| $impl | $n | $theirs | $(per_byte "$theirs" "$n") |"
                else
                    row="| | | | |"
                fi
                first=no
                row+=" $be | ${ours[$key]} | $(per_byte "${ours[$key]}" "$n") | $(awk -v a="${ours[$key]}" -v b="$theirs" 'BEGIN { printf "%.2f", a / b }') |"
                t+="$row"$'\n'
            done
        done
    done
    tables+="$t"
    printf '%s' "$t"
done

echo
echo "Seeds: $cc_version ${seed_flags[*]}; slicewise: commit $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- crates Cargo.toml Cargo.lock || echo ', uncommitted changes in crates/'), $triple release (count-insns driver; thin LTO, one codegen unit)."
printf '%s\n' "$tables" > "$build/tables.md"
for f in "${failed[@]}"; do
    echo "NOT BUILT: $f"
done
for key in "${!excluded[@]}"; do
    echo "LEFT OUT (disagrees with slicewise): ${key/ //}"
done

if [ $mca = yes ]; then
    "$root/scripts/seed-code/mca-arm.sh" "$mode" "$build"
fi
exit $status
