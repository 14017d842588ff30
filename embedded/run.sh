#!/usr/bin/env bash
# Runs one firmware image on its emulator and checks its verdict.
#   embedded/run.sh TARGET ELF [extra emulator args...]
# Succeeds only if the output has `RESULT: PASS` and no `RESULT: FAIL`/`PANIC`, and (QEMU) the
# semihosting exit status is 0. simavr exits 0 whatever the firmware printed, so the verdict
# line is what counts there. Output goes to stdout (simavr's UART text, from its stderr, too).
set -uo pipefail
target=$1 elf=$2
shift 2
limit=${EMBEDDED_TIMEOUT:-600}
case $target in
thumbv6m-none-eabi) cmd=(qemu-system-arm -machine microbit -cpu cortex-m0 -nographic -monitor none -semihosting-config enable=on,target=native "$@" -kernel "$elf") ;;
thumbv7em-none-eabihf) cmd=(qemu-system-arm -machine mps2-an386 -cpu cortex-m4 -nographic -monitor none -semihosting-config enable=on,target=native "$@" -kernel "$elf") ;;
avr-none) cmd=(simavr -m atmega1284p -f 16000000 "$@" "$elf") ;;
*) echo "run.sh: unknown target $target" >&2; exit 2 ;;
esac
log=$(mktemp)
trap 'rm -f "$log"' EXIT
timeout "$limit" "${cmd[@]}" </dev/null >"$log" 2>&1
status=$?
# simavr colours its UART lines and ends each with '.'; strip both.
sed -e 's/\x1b\[[0-9;]*m//g' -e 's/\.$//' "$log"
if [ "$status" -ne 0 ]; then
    echo "run.sh: $target $elf: emulator exit status $status" >&2
    exit 1
fi
if grep -q 'RESULT: FAIL\|PANIC' "$log" || ! grep -q 'RESULT: PASS' "$log"; then
    echo "run.sh: $target $elf: no PASS verdict" >&2
    exit 1
fi
