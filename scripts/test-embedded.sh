#!/usr/bin/env bash
# On-target tests (issue 11): builds the KAT firmware in embedded/ for Cortex-M0 (also with
# the `mcu-small` routine; thumbv6m-none-eabi, QEMU microbit), Cortex-M4 (thumbv7em-none-eabihf, QEMU mps2-an386) and
# AVR (avr-none, ATmega1284P, simavr; Grøstl and Prøst in separate images, since both exceed
# 128 KiB of flash together, Grøstl once more with the `mcu-small` kernel, and the measurement
# image, which checks that Grøstl's cycle counts do not depend on the data) and runs each
# on its emulator; fails unless every image prints `RESULT: PASS`. The M0 has the same
# data-independence check in its cycle model: the `bench-ct` images (default and `mcu-small`
# kernels) hash several messages of one length under QEMU's instruction trace, and
# `embedded/cycles.py` fails unless their M0 cycle counts are equal (and those of the
# early-exit negative control differ). Installs what it needs: the
# Debian packages (apt-get, through sudo when not root), the two Thumb targets (rustup) and the
# pinned nightly toolchain (scripts/toolchains.sh) with rust-src for AVR (`-Zbuild-std=core`).
#   scripts/test-embedded.sh [--no-install] [m0] [m4] [avr]     (default: all three)
# NIGHTLY=nightly-YYYY-MM-DD selects another nightly toolchain (default: scripts/toolchains.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
. scripts/toolchains.sh
nightly=$SLICEWISE_NIGHTLY
install=1
targets=()
for a in "$@"; do
    case $a in
    --no-install) install=0 ;;
    m0 | m4 | avr) targets+=("$a") ;;
    *) echo "usage: $0 [--no-install] [m0] [m4] [avr]" >&2; exit 2 ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=(m0 m4 avr)

if [ "$install" = 1 ]; then
    need=()
    for pkg in qemu-system-arm simavr gcc-avr avr-libc binutils-avr binutils-arm-none-eabi xz-utils; do
        dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
    done
    if [ ${#need[@]} -gt 0 ]; then
        echo "== apt-get install ${need[*]}"
        sudo=""
        [ "$(id -u)" = 0 ] || sudo=sudo
        $sudo apt-get update -qq
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
    fi
    rustup target add thumbv6m-none-eabi thumbv7em-none-eabihf >/dev/null
    if [[ " ${targets[*]} " == *" avr "* ]]; then
        install_nightly rust-src
    fi
fi

if [[ " ${targets[*]} " == *" m0 "* || " ${targets[*]} " == *" m4 "* ]]; then
    # The Thumb-1 kernels of `mcu`: interpreted against a reference Grøstl, file up to date.
    echo "== scripts/gen-mcu-groestl.py --check"
    python3 "$root/scripts/gen-mcu-groestl.py" --check
fi

cd "$root/embedded"
images=()
# RUNNER=cycles: the image is checked by embedded/cycles.py (M0 cycle model) instead of run.sh.
build() { # target, output name, cargo args...
    local target=$1 name=$2
    shift 2
    echo "== build $name ($target)"
    cargo "$@" build --release --target "$target" --bin kat "${CARGO_EXTRA[@]}"
    local elf=${CARGO_TARGET_DIR:-$root/target}/$target/release/kat
    [ -f "$elf" ] || elf=$elf.elf
    mkdir -p "$root/target/embedded"
    cp "$elf" "$root/target/embedded/$name.elf"
    images+=("$target $name ${RUNNER:-run}")
}
for t in "${targets[@]}"; do
    case $t in
    m0)
        CARGO_EXTRA=()
        build thumbv6m-none-eabi kat-m0
        # The Thumb-1 `mcu-small` routine (the block buffer as the state), Grøstl tests only.
        CARGO_EXTRA=(--no-default-features --features groestl,mcu-small)
        build thumbv6m-none-eabi kat-m0-groestl-small
        # `mcu`'s data independence in the M0 cycle model (both kernels).
        CARGO_EXTRA=(--features bench-ct)
        RUNNER=cycles build thumbv6m-none-eabi ct-m0
        CARGO_EXTRA=(--features bench-ct,mcu-small)
        RUNNER=cycles build thumbv6m-none-eabi ct-m0-small
        ;;
    m4) CARGO_EXTRA=(); build thumbv7em-none-eabihf kat-m4 ;;
    avr)
        CARGO_EXTRA=(-Zbuild-std=core --no-default-features --features groestl)
        build avr-none kat-avr-groestl "+$nightly"
        # The `mcu` backend's low-memory Grøstl-224/256 kernel (feature `mcu-small`).
        CARGO_EXTRA=(-Zbuild-std=core --no-default-features --features groestl,mcu-small)
        build avr-none kat-avr-groestl-small "+$nightly"
        CARGO_EXTRA=(-Zbuild-std=core --no-default-features --features proest)
        build avr-none kat-avr-proest "+$nightly"
        # The measurement image: fails unless Grøstl takes the same cycles on different data.
        CARGO_EXTRA=(-Zbuild-std=core --features bench)
        build avr-none bench-avr "+$nightly"
        ;;
    esac
done

failed=0
for img in "${images[@]}"; do
    read -r target name runner <<<"$img"
    echo "== run $name ($target)"
    start=$SECONDS
    if [ "$runner" = cycles ]; then
        check=(python3 "$root/embedded/cycles.py" "$target" "$root/target/embedded/$name.elf")
        filter='data.independ|cycles.py'
    else
        check=("$root/embedded/run.sh" "$target" "$root/target/embedded/$name.elf")
        filter='passed|FAIL|PANIC|RESULT'
    fi
    if "${check[@]}" | grep -E "$filter"; then
        echo "   $name: PASS in $((SECONDS - start)) s"
    else
        echo "   $name: FAILED"
        failed=$((failed + 1))
    fi
done
echo "embedded: $(( ${#images[@]} - failed )) passed, $failed failed"
[ "$failed" -eq 0 ]
