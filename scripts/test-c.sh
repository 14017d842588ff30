#!/usr/bin/env bash
# C-level tests of libslicewise (crates/capi): builds the release library, then with the system
# C compiler ($CC, default cc):
#   0. the header compiles alone as C99 (-pedantic) and C++11, and so does tests/c/bench.c;
#   1. crates/capi/tests/c/test_capi.c against the shared library: every byte-aligned Grøstl KAT,
#      all 6 x 1096 Prøst KATs, tampered-ciphertext rejection, streaming at every split point,
#      argument errors; then again with SLICEWISE_BACKEND=portable;
#   2. the same test with AddressSanitizer + UBSan, linked against the static library;
#   3. the SUPERCOP glue of scripts/supercop-gen.sh, compiled as SUPERCOP would, one KAT each;
#   4. crates/capi/install.sh into a temporary prefix and a program built through
#      `pkg-config --cflags --libs slicewise` (shared) and `--static` (needs pkg-config; without
#      it the step is skipped and recorded as `check:pkg-config` in the backend report, a
#      failure if SLICEWISE_REQUIRE_BACKENDS asks for it: scripts/backend-report.sh).
# Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
. scripts/backend-report.sh
CC=${CC:-cc}
cflags=(-std=c11 -O2 -Wall -Wextra -Werror)
steps=0

cargo build --release --locked -p slicewise-capi
lib="${CARGO_TARGET_DIR:-$root/target}/release"
inc="$root/crates/capi/include"
tests="$root/crates/capi/tests/c"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/slicewise-c.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

echo "== decompressing the KAT files"
mkdir "$tmp/kat"
for f in test-vectors/groestl/*MsgKAT_*.txt.xz test-vectors/proest/proest*v1.txt.xz; do
    xz -dc "$f" > "$tmp/kat/$(basename "$f" .xz)"
done
cp test-vectors/groestl/groestlcoin.json "$tmp/kat/"

echo "== installing into a temporary prefix"
crates/capi/install.sh "$tmp/prefix"
pc="$tmp/prefix/lib/pkgconfig/slicewise.pc"
# The system libraries a static link needs, as the installed .pc states them.
read -r -a native <<< "$(sed -n 's/^Libs.private: //p' "$pc")"

echo "== the header alone: C99 (pedantic) and C++11; bench.c"
printf '#include "slicewise.h"\nint main(void) { slicewise_groestl_state s; return slicewise_groestl_init(&s, 256); }\n' \
    > "$tmp/header.c"
"$CC" -std=c99 -pedantic -Wall -Wextra -Werror -fsyntax-only -I"$inc" "$tmp/header.c"
if command -v "${CXX:-c++}" >/dev/null 2>&1; then
    "${CXX:-c++}" -x c++ -std=c++11 -Wall -Wextra -Werror -fsyntax-only -I"$inc" "$tmp/header.c"
fi
# The benchmark program (docs/c-api.md) is not run here, only kept compiling.
if [ "$(uname -m)" = x86_64 ]; then
    "$CC" "${cflags[@]}" -D_POSIX_C_SOURCE=200809L -fsyntax-only -I"$inc" "$tests/bench.c"
fi
steps=$((steps + 1))

echo "== C tests against the shared library"
"$CC" "${cflags[@]}" -pthread -I"$inc" "$tests/test_capi.c" -o "$tmp/test_capi" -L"$lib" -Wl,-rpath,"$lib" -lslicewise
"$tmp/test_capi" "$tmp/kat"
steps=$((steps + 1))
echo "== the same with SLICEWISE_BACKEND=portable"
SLICEWISE_BACKEND=portable "$tmp/test_capi" "$tmp/kat" | tail -n 3
steps=$((steps + 1))

echo "== AddressSanitizer + UBSan build, static library"
"$CC" "${cflags[@]/-O2/-O1}" -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -pthread \
    -I"$inc" "$tests/test_capi.c" -o "$tmp/test_capi_asan" "$lib/libslicewise.a" "${native[@]}"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 "$tmp/test_capi_asan" "$tmp/kat" | tail -n 1
steps=$((steps + 1))

echo "== SUPERCOP glue (scripts/supercop-gen.sh)"
scripts/supercop-gen.sh "$tmp/supercop"
objs=()
for d in "$tmp"/supercop/crypto_hash/*/slicewise; do
    prim=$(basename "$(dirname "$d")")
    # Stand-in for the crypto_hash.h SUPERCOP generates: the namespaced name.
    printf '#define crypto_hash crypto_hash_%s_slicewise\nint crypto_hash(unsigned char *, const unsigned char *, unsigned long long);\n' \
        "$prim" > "$d/crypto_hash.h"
    "$CC" "${cflags[@]}" -c -I"$d" "$d/hash.c" -o "$tmp/hash_$prim.o"
    objs+=("$tmp/hash_$prim.o")
done
for d in "$tmp"/supercop/crypto_aead/*/slicewise; do
    prim=$(basename "$(dirname "$d")")
    {
        printf '#define crypto_aead_encrypt crypto_aead_%s_slicewise_encrypt\n' "$prim"
        printf '#define crypto_aead_decrypt crypto_aead_%s_slicewise_decrypt\n' "$prim"
    } > "$d/crypto_aead.h"
    "$CC" "${cflags[@]}" -c -I"$d" "$d/encrypt.c" -o "$tmp/aead_$prim.o"
    objs+=("$tmp/aead_$prim.o")
done
"$CC" "${cflags[@]}" -I"$inc" "$tests/supercop_check.c" "${objs[@]}" -o "$tmp/supercop_check" \
    "$lib/libslicewise.a" "${native[@]}"
"$tmp/supercop_check" "$tmp/kat"
steps=$((steps + 1))

echo "== pkg-config"
# The digest of the empty message, from the KAT file (Len = 0 is its first record).
want=$(awk '/^MD = / { sub(/\r$/, ""); print tolower($3); exit }' "$tmp/kat/ShortMsgKAT_256.txt")
if command -v pkg-config >/dev/null 2>&1; then
    export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
    echo "pkg-config --cflags --libs slicewise: $(pkg-config --cflags --libs slicewise)"
    # shellcheck disable=SC2046 # word splitting of the flags is intended
    "$CC" "${cflags[@]}" "$tests/pkgconfig_demo.c" -o "$tmp/demo" $(pkg-config --cflags --libs slicewise)
    got=$("$tmp/demo" "")
    [ "$got" = "$want" ] || { echo "pkg-config (shared) program printed $got, want $want" >&2; exit 1; }
    case "$(readelf -d "$tmp/demo")" in
        *'[libslicewise.so]'*) ;;
        *) echo "the pkg-config program is not linked to libslicewise.so" >&2; exit 1 ;;
    esac
    # shellcheck disable=SC2046
    "$CC" "${cflags[@]}" "$tests/pkgconfig_demo.c" -o "$tmp/demo_static" $(pkg-config --cflags slicewise) \
        "$tmp/prefix/lib/libslicewise.a" $(pkg-config --static --libs-only-l slicewise | sed 's/-lslicewise//')
    got=$("$tmp/demo_static" "")
    [ "$got" = "$want" ] || { echo "pkg-config (static) program printed $got, want $want" >&2; exit 1; }
    echo "programs built through pkg-config (shared and static) print the Grøstl-256 KAT digest of the empty message"
    steps=$((steps + 1))
    backend_report_gate check:pkg-config slicewise-capi/test-c.sh yes ""
else
    backend_report_gate check:pkg-config slicewise-capi/test-c.sh no \
        "not run: pkg-config is not installed (Debian package: pkg-config)" || exit 1
fi

echo "c-tests: $steps passed, 0 failed"
