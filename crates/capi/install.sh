#!/bin/sh
# Installs libslicewise into PREFIX: PREFIX/lib/libslicewise.{so,a}, PREFIX/include/slicewise.h
# and PREFIX/lib/pkgconfig/slicewise.pc. Builds the release library first (a no-op when it is
# up to date). Linux (ELF) only.
#
#   crates/capi/install.sh "$HOME/.local"
#   PKG_CONFIG_PATH="$HOME/.local/lib/pkgconfig" cc prog.c $(pkg-config --cflags --libs slicewise)
#
# With `pkg-config --static --libs slicewise` and -static (or the .a named directly) the program
# links the static library instead.
set -eu

if [ $# -ne 1 ] || [ -z "$1" ]; then
    echo "usage: $0 PREFIX" >&2
    exit 2
fi
case "$(uname -s)" in
    Linux) ;;
    *) echo "$0: only Linux is supported (found $(uname -s))" >&2; exit 2 ;;
esac
mkdir -p "$1"
prefix=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

cargo build --release --locked -p slicewise-capi --manifest-path "$root/Cargo.toml"
target="${CARGO_TARGET_DIR:-$root/target}/release"

version=$(sed -n 's/^version = "\([^"]*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)
# What a Rust staticlib needs from the system on Linux/glibc: the list `rustc --print
# native-static-libs` gives for this crate (scripts/test-c.sh links with it, so drift shows).
libs_private="-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"

install -d "$prefix/lib/pkgconfig" "$prefix/include"
install -m 644 "$target/libslicewise.a" "$prefix/lib/libslicewise.a"
install -m 755 "$target/libslicewise.so" "$prefix/lib/libslicewise.so"
install -m 644 "$here/include/slicewise.h" "$prefix/include/slicewise.h"
sed -e "s|@PREFIX@|$prefix|" -e "s|@VERSION@|$version|" -e "s|@LIBS_PRIVATE@|$libs_private|" \
    "$here/slicewise.pc.in" > "$prefix/lib/pkgconfig/slicewise.pc"
echo "installed libslicewise $version into $prefix"
