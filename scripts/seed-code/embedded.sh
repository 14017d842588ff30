#!/usr/bin/env bash
# The Grøstl team's own microcontroller code from SUPERCOP ("seed code") beside slicewise's `mcu`
# kernels, measured with the counters of the project's own measurement firmware (issue 34, item 1):
#   scripts/seed-code/embedded.sh [--help] [--no-install] [--no-ours] SUPERCOP_DIR MODE [IMPL...]
# (scripts/seed-code.sh SUPERCOP_DIR m0|avr [...] comes here.) SUPERCOP_DIR is a SUPERCOP source
# tree or a git directory of one without a work tree (the floodyberry/supercop mirror); the
# implementations are then extracted with `git archive`. IMPL names directories under
# crypto_hash/groestl256/ (default: every one of the mode, below).
#
# MODE:
#   m0    thumb-asm-fast and thumb-asm-small (Krinninger's Thumb assembly and C), built with
#         arm-none-eabi-gcc -mcpu=cortex-m0 -mthumb -ffixed-r8 ... -ffixed-r11 (the seed's
#         assembly clobbers r8-r11, which the AAPCS has callee-saved) and each ';'-separated
#         flag set of M0_SEED_CFLAGS, a row each (default '-O3;-Os': the seed's fastest and its
#         smallest build of -O2, -O3 and -Os), linked into scripts/seed-code/m0_harness.c
#         (start-up, semihosting; memory map m0_link.ld) and the C library's memcpy/memset (gcc
#         calls them), run under qemu-system-arm -machine microbit -cpu cortex-m0. Timed by
#         embedded/cycles.py: instructions between calls of `bench_mark`, and the Cortex-M0 TRM
#         timing model on them (zero wait states), as the `mcu` rows of docs/embedded.md.
#   avr   avr8asm/highspeed, balanced, lowram128, lowram192a, lowram192b, lowram256 (Feichtner's
#         assembly), assembled with avr-gcc -mmcu=atmega1284p, linked into
#         scripts/seed-code/avr_harness.c, run under simavr -m atmega1284p -f 16000000; Timer1 at
#         prescaler 1 plus an overflow count (exact cycles), as embedded/firmware's AVR platform.
#
# The measurement (m0_avr_bench.h, shared by both harnesses): first the digests. The harness
# hashes prefixes of bench.rs's message (byte i = 7i + 3) of 0-192, 1024 and 2048 bytes and
# compares them with digests computed here by a Python Grøstl-256 (on scripts/groestl_ref.py's
# constants), itself checked against official ShortMsgKAT_256 records first. A seed whose digest
# is wrong prints `RESULT: FAIL`, is reported as such, and gets no figures. Then, as
# embedded/firmware/src/bench.rs does for ours: 1024- and 2048-byte messages, long-message
# cycles/byte = (cycles(2048) - cycles(1024)) / 1024; RAM = the peak stack by painting (8 KiB
# below the painting function's sp filled with 0xA5, one call, the deepest overwritten byte;
# without bench.rs's 64 bytes of margin, which would floor the figure at 64 B, more than
# Feichtner's routines use) plus the seed's static .data and .bss; ROM = embedded/romsize.py on
# the seed's symbols (every symbol the seed's objects define is renamed supercop_*; each assembly
# file gets one symbol sized over its .text, since assembly labels carry no size) plus, on AVR,
# the flash copy of its .data (romsize.py counts text and read-only symbols only).
#
# Ours, in the same run (skipped with --no-ours): the measurement firmware of docs/embedded.md
# ("Commands"), default and `mcu-small` builds: m0: cargo build --profile speed --target
# thumbv6m-none-eabi --features bench[,mcu-small], through embedded/cycles.py; avr: cargo
# +$SLICEWISE_NIGHTLY build --release --target avr-none -Zbuild-std=core --features
# bench[,mcu-small], through simavr; the `groestl-256 1024/2048` lines, ROM with romsize.py on the
# symbols docs/embedded.md names. Then one Markdown table: each implementation's cycles/byte, RAM,
# ROM, and its ratio to ours (the default build), and the issue's goals as ratios.
#
# Everything is built under $CARGO_TARGET_DIR/seed-code/MODE/ (default target/; never in the
# repository, and no SUPERCOP code or binary built from it is committed). An implementation that
# does not build is reported with the tool's first error and left out. Installs what is missing
# (Debian packages with apt-get, the thumbv6m rustup target, the pinned nightly with rust-src from
# scripts/toolchains.sh) unless --no-install. Not part of any test command.
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
}

install=1
ours=1
while [ $# -gt 0 ]; do
    case $1 in
    -h | --help) usage; exit 0 ;;
    --no-install) install=0; shift ;;
    --no-ours) ours=0; shift ;;
    *) break ;;
    esac
done
if [ $# -lt 2 ]; then
    usage >&2
    echo "$0: need SUPERCOP_DIR and MODE (m0 or avr)" >&2
    exit 2
fi
supercop=$1 mode=$2
shift 2
case $mode in
m0) default_impls=(thumb-asm-fast thumb-asm-small) ;;
avr) default_impls=(avr8asm/highspeed avr8asm/balanced avr8asm/lowram128 avr8asm/lowram192a avr8asm/lowram192b avr8asm/lowram256) ;;
*) echo "$0: unknown mode '$mode' (known: m0, avr)" >&2; exit 2 ;;
esac
impls=("$@")
[ ${#impls[@]} -gt 0 ] || impls=("${default_impls[@]}")

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$root/scripts/toolchains.sh"
target="${CARGO_TARGET_DIR:-$root/target}"
mkdir -p "$target"
target=$(cd "$target" && pwd)
build="$target/seed-code/$mode"
export CARGO_TARGET_DIR=$target

# --- tools -----------------------------------------------------------------------------------
if [ "$install" = 1 ]; then
    case $mode in
    m0) pkgs=(gcc-arm-none-eabi binutils-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm) ;;
    avr) pkgs=(gcc-avr avr-libc binutils-avr simavr) ;;
    esac
    pkgs+=(xz-utils)
    need=()
    for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || need+=("$p"); done
    if [ ${#need[@]} -gt 0 ]; then
        echo "== apt-get install ${need[*]}"
        sudo=""
        [ "$(id -u)" = 0 ] || sudo=sudo
        $sudo apt-get update -qq
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
    fi
    if [ "$ours" = 1 ]; then
        case $mode in
        m0) rustup target add thumbv6m-none-eabi >/dev/null ;;
        avr) install_nightly rust-src ;;
        esac
    fi
fi

# --- the SUPERCOP sources ----------------------------------------------------------------------
[ -d "$supercop" ] || { echo "$0: $supercop is not a directory" >&2; exit 1; }
supercop=$(cd "$supercop" && pwd)
rm -rf "$build"
mkdir -p "$build"
if [ -d "$supercop/crypto_hash/groestl256" ]; then
    src="$supercop/crypto_hash/groestl256"
    echo "== SUPERCOP tree $supercop"
elif git --git-dir="$supercop" cat-file -e HEAD:crypto_hash/groestl256 2>/dev/null; then
    echo "== SUPERCOP git directory $supercop ($(git --git-dir="$supercop" log -1 --format='%h %s' HEAD)): extracting ${impls[*]}"
    paths=()
    for impl in "${impls[@]}"; do
        git --git-dir="$supercop" cat-file -e "HEAD:crypto_hash/groestl256/$impl" 2>/dev/null &&
            paths+=("crypto_hash/groestl256/$impl")
    done
    mkdir -p "$build/src"
    if [ ${#paths[@]} -gt 0 ]; then
        git --git-dir="$supercop" archive HEAD "${paths[@]}" 2>"$build/archive.log" | tar -x -C "$build/src"
    fi
    src="$build/src/crypto_hash/groestl256"
    mkdir -p "$src"
else
    echo "$0: $supercop is not a SUPERCOP directory (no crypto_hash/groestl256, as a tree or in a git directory's HEAD)" >&2
    exit 1
fi

# --- expected digests (Python Grøstl-256, checked against the official Short KAT) --------------
echo "== expected digests: Python Grøstl-256 (scripts/groestl_ref.py constants), checked against ShortMsgKAT_256"
python3 - "$root" "$build/kat.inc" <<'EOF'
import functools, lzma, re, sys
root, out = sys.argv[1], sys.argv[2]
sys.path.insert(0, root + "/scripts")
from groestl_ref import SBOX, MIXROW, SIGMA, ROUNDS, gmul

MUL = [[gmul(a, b) for b in range(256)] for a in range(8)]

def perm(a, q):
    """P (q False) or Q of Grøstl-224/256 on 64 bytes, byte i at row i % 8, column i // 8."""
    sig = SIGMA[(8, "Q" if q else "P")]
    for i in range(ROUNDS[8]):
        a = list(a)
        for c in range(8):
            if q:
                for r in range(8):
                    a[8 * c + r] ^= 0xFF
                a[8 * c + 7] ^= (c << 4) ^ i
            else:
                a[8 * c] ^= (c << 4) ^ i
        a = [SBOX[x] for x in a]
        a = [a[8 * ((c + sig[r]) % 8) + r] for c in range(8) for r in range(8)]
        a = [functools.reduce(lambda x, y: x ^ y, (MUL[MIXROW[(k - r) % 8]][a[8 * c + k]] for k in range(8)))
             for c in range(8) for r in range(8)]
    return a

def groestl256(msg):
    h = [0] * 64
    h[62] = 1
    blocks = (len(msg) + 8) // 64 + 1
    padded = msg + b"\x80" + bytes(64 * blocks - len(msg) - 9) + blocks.to_bytes(8, "big")
    for b in range(blocks):
        m = list(padded[64 * b:64 * b + 64])
        p, q = perm([x ^ y for x, y in zip(h, m)], False), perm(m, True)
        h = [x ^ y ^ z for x, y, z in zip(h, p, q)]
    return bytes(x ^ y for x, y in zip(h, perm(h, False)))[32:]

kat = lzma.open(root + "/test-vectors/groestl/ShortMsgKAT_256.txt.xz", "rt").read()
checked = 0
for ln, m, md in re.findall(r"Len = (\d+)\s+Msg = ([0-9A-Fa-f]+)\s+MD = ([0-9A-Fa-f]+)", kat):
    ln = int(ln)
    if ln % 8 == 0 and ln // 8 in (0, 1, 2, 3, 55, 56, 63, 64, 65, 119, 120, 127, 128):
        if groestl256(bytes.fromhex(m)[:ln // 8]).hex() != md.lower():
            sys.exit("Python Grøstl-256 disagrees with ShortMsgKAT_256 at Len = %d" % ln)
        checked += 1
if checked != 13:
    sys.exit("ShortMsgKAT_256: %d of 13 records found" % checked)
print("Python Grøstl-256: %d ShortMsgKAT_256 records agree" % checked)
msg = bytes((7 * i + 3) & 0xFF for i in range(2048))
lens = [0, 1, 3, 55, 56, 63, 64, 65, 100, 119, 120, 127, 128, 129, 191, 192, 1024, 2048]
with open(out, "w") as f:
    f.write("/* Generated by scripts/seed-code/embedded.sh: Grøstl-256 of bytes 7i + 3. */\n")
    f.write("#define KAT_N %d\n" % len(lens))
    f.write("static const uint16_t kat_len[KAT_N] KAT_ROM = {%s};\n" % ", ".join(map(str, lens)))
    f.write("static const uint8_t kat_md[KAT_N][32] KAT_ROM = {\n")
    for n in lens:
        f.write("    {%s},\n" % ", ".join("0x%02x" % b for b in groestl256(msg[:n])))
    f.write("};\n")
EOF

# --- the seeds ------------------------------------------------------------------------------------
case $mode in
m0)
    cc=arm-none-eabi-gcc
    nm=arm-none-eabi-nm
    objcopy=arm-none-eabi-objcopy
    size=arm-none-eabi-size
    # Each ';'-separated set is a build (and a row) of its own.
    IFS=';' read -r -a flagsets <<<"${M0_SEED_CFLAGS:--O3;-Os}"
    # The seed's assembly uses r8-r11 without saving them (AAPCS: callee-saved); its own
    # compiler did not keep values there, today's gcc does. So no C code of the image may.
    arch_flags=(-mcpu=cortex-m0 -mthumb -ffixed-r8 -ffixed-r9 -ffixed-r10 -ffixed-r11)
    harness_flags=(-O2 -ffreestanding -nostartfiles -T "$here/m0_link.ld")
    wrap_head=$'\t.syntax unified\n\t.thumb\n'
    kat_rom=""
    ;;
avr)
    cc=avr-gcc
    nm=avr-nm
    objcopy=avr-objcopy
    size=avr-size
    flagsets=(-Os)
    arch_flags=(-mmcu=atmega1284p)
    harness_flags=(-Os)
    wrap_head=""
    kat_rom=PROGMEM
    ;;
esac
cc_version=$("$cc" --version | head -n 1)
echo "== seeds: $cc_version ${arch_flags[*]}, flags: ${flagsets[*]}"

declare -A res_cpb res_ipb res_ram res_stack res_static res_rom res_note
order=()
not_built=()
failed=()
for flagset in "${flagsets[@]}"; do
read -r -a seed_flags <<<"$flagset"
for impl in "${impls[@]}"; do
    name=${impl##*/}
    tag=${impl//\//-}
    key=$impl
    if [ ${#flagsets[@]} -gt 1 ]; then
        key="$impl, ${seed_flags[*]}"
        tag+="${flagset// /}"
    fi
    d="$build/$tag"
    if [ ! -d "$src/$impl" ]; then
        not_built+=("$key: not in this SUPERCOP")
        continue
    fi
    mkdir -p "$d/obj"
    cp -r "$src/$impl" "$d/src"
    entry="crypto_hash_groestl256_${impl//[\/-]/_}"
    # What SUPERCOP's build generates, reduced to what these implementations use.
    cat >"$d/src/crypto_hash.h" <<EOF
#ifndef SEED_CODE_CRYPTO_HASH_H
#define SEED_CODE_CRYPTO_HASH_H
#define crypto_hash $entry
#define crypto_hash_BYTES 32
int crypto_hash(unsigned char *, const unsigned char *, unsigned long long);
#endif
EOF
    for w in 8 16 32 64; do
        printf '#include <stdint.h>\ntypedef uint%s_t crypto_uint%s;\n' "$w" "$w" >"$d/src/crypto_uint$w.h"
        printf '#include <stdint.h>\ntypedef int%s_t crypto_int%s;\n' "$w" "$w" >"$d/src/crypto_int$w.h"
    done
    log="$d/build.log"
    ok=yes
    n=0
    for f in "$d"/src/*.c "$d"/src/*.S "$d"/src/*.s; do
        [ -e "$f" ] || continue
        n=$((n + 1))
        o="$d/obj/$n-$(basename "$f").o"
        case $f in
        *.c)
            "$cc" "${arch_flags[@]}" "${seed_flags[@]}" -I"$d/src" -include "$d/src/crypto_hash.h" -c "$f" -o "$o" >>"$log" 2>&1 || ok=no
            ;;
        *)
            # One symbol sized over the file's .text (assembly labels have no size for romsize.py).
            w="$d/obj/$n-wrap.S"
            {
                printf '%s\t.text\n\t.global seed_asm%d_text\nseed_asm%d_text:\n' "$wrap_head" "$n" "$n"
                printf '#include "%s"\n' "$f"
                printf '\t.text\nseed_asm%d_end:\n\t.size seed_asm%d_text, seed_asm%d_end - seed_asm%d_text\n' "$n" "$n" "$n" "$n"
            } >"$w"
            "$cc" "${arch_flags[@]}" -I"$d/src" -c "$w" -o "$o" >>"$log" 2>&1 || ok=no
            ;;
        esac
    done
    [ "$n" -gt 0 ] || { ok=no; echo "no source files" >>"$log"; }
    if [ $ok = yes ]; then
        "$cc" "${arch_flags[@]}" -nostdlib -r "$d"/obj/*.o -o "$d/all.o" >>"$log" 2>&1 || ok=no
    fi
    if [ $ok = yes ] && ! "$nm" "$d/all.o" | grep -q " T $entry\$"; then
        echo "no global symbol $entry" >>"$log"
        ok=no
    fi
    if [ $ok = no ]; then
        not_built+=("$key: $(grep -m1 -E 'error|not supported|no global symbol|no source' "$log" || echo "see $log")")
        continue
    fi
    # Every symbol the seed defines becomes supercop_NAME: one romsize.py pattern, no clash.
    "$nm" --defined-only "$d/all.o" | awk '$3 !~ /^\$/ && $3 != "" { print $3, "supercop_" $3 }' | sort -u >"$d/rename.map"
    "$objcopy" --redefine-syms="$d/rename.map" "$d/all.o" "$d/seed.o"
    undefined=$("$nm" -u "$d/seed.o" | awk '{ print $2 }' | tr '\n' ' ')
    static=$("$size" -A "$d/seed.o" | awk '$1 ~ /^\.(data|bss)/ { s += $2 } END { print s + 0 }')
    data=$("$size" -A "$d/seed.o" | awk '$1 ~ /^\.data/ { s += $2 } END { print s + 0 }')
    cat >"$d/${mode}_kat.h" <<EOF
#define SEED_HASH supercop_$entry
#define SEED_NAME "$name"
#define KAT_ROM $kat_rom
EOF
    cat "$build/kat.inc" >>"$d/${mode}_kat.h"
    img="$d/image"
    [ "$mode" = avr ] && img="$img.elf" # romsize.py picks avr-nm by the .elf suffix
    if ! "$cc" "${arch_flags[@]}" "${harness_flags[@]}" -Wall -Wextra -I"$d" "$here/${mode}_harness.c" "$d/seed.o" \
        -lgcc -o "$img" >>"$log" 2>&1; then
        not_built+=("$key: harness link: $(grep -m1 -E 'error|undefined' "$log" || echo "see $log")")
        continue
    fi
    echo "built $key ($(grep -c 'warning:' "$log" || true) warnings, $log)${undefined:+; needs: $undefined}"

    # Digests first (plain emulator run), then the figures.
    echo "== $key: digests"
    if [ "$mode" = m0 ]; then
        verdict=$(EMBEDDED_TIMEOUT=120 "$root/embedded/run.sh" thumbv6m-none-eabi "$img" 2>&1) || true
    else
        verdict=$(EMBEDDED_TIMEOUT=120 "$root/embedded/run.sh" avr-none "$img" 2>&1) || true
    fi
    printf '%s\n' "$verdict" >"$d/run.log"
    printf '%s\n' "$verdict" | grep -E '^kat .*WRONG|PANIC|RESULT|run.sh' | sed 's/^/   /'
    if ! printf '%s\n' "$verdict" | grep -q 'RESULT: PASS' || printf '%s\n' "$verdict" | grep -q 'WRONG\|PANIC'; then
        failed+=("$key: digest check failed (no figures; $d/run.log)")
        continue
    fi
    echo "   $(printf '%s\n' "$verdict" | grep -c '^kat .*: ok') digests ok"
    if [ "$mode" = m0 ]; then
        python3 "$root/embedded/cycles.py" thumbv6m-none-eabi "$img" >"$d/cycles.log"
        fig=$(awk -v n="$name" '$1 == n { i[$2] = $3; c[$2] = $4; s[$2] = $5 }
            END { if (!(1024 in c) || !(2048 in c)) exit 1
                  printf "%.1f %.1f %d", (c[2048] - c[1024]) / 1024, (i[2048] - i[1024]) / 1024, (s[1024] > s[2048] ? s[1024] : s[2048]) }' "$d/cycles.log")
    else
        fig=$(sed -e 's/\x1b\[[0-9;]*m//g' -e 's/\.$//' "$d/run.log" | awk -v n="$name" '$1 == n { sub(":", "", $2); c[$2] = $4; s[$2] = $6 }
            END { if (!(1024 in c) || !(2048 in c)) exit 1
                  printf "%.1f - %d", (c[2048] - c[1024]) / 1024, (s[1024] > s[2048] ? s[1024] : s[2048]) }')
    fi
    read -r cpb ipb stack <<<"$fig"
    rom=$(python3 "$root/embedded/romsize.py" "$img" supercop_ | awk '/^total:/ { print $2 }')
    note="romsize.py supercop_ $rom"
    if [ "$mode" = avr ] && [ "$data" -gt 0 ]; then
        note+=" + .data flash copy $data"
        rom=$((rom + data))
    fi
    if [ -n "$undefined" ]; then
        # Library functions the compiler called (not the seed's symbols, so not in its ROM).
        # shellcheck disable=SC2086
        note+="; not counted, from the C library: $(python3 "$root/embedded/romsize.py" "$img" $undefined | grep -v '^total' | tr '\n' ' ' | sed 's/ $//')"
    fi
    order+=("$key")
    res_cpb[$key]=$cpb
    res_ipb[$key]=$ipb
    res_stack[$key]=$stack
    res_static[$key]=$static
    res_ram[$key]=$((stack + static))
    res_rom[$key]=$rom
    res_note[$key]=$note
    echo "   $key: $cpb cycles/byte$([ "$ipb" != - ] && echo " ($ipb instructions/byte)"), RAM $stack stack + $static static, ROM $rom ($note)"
done
done

# --- ours -----------------------------------------------------------------------------------------
declare -A our_cpb our_ipb our_ram our_rom our_stack our_static
our_rows=()
if [ "$ours" = 1 ]; then
    for variant in fast small; do
        features=bench
        [ $variant = small ] && features=bench,mcu-small
        if [ "$mode" = m0 ]; then
            echo "== ours ($variant): cargo build --profile speed --target thumbv6m-none-eabi --features $features"
            (cd "$root/embedded" && cargo build --locked --profile speed --target thumbv6m-none-eabi --features "$features")
            img="$build/ours-$variant"
            cp "$target/thumbv6m-none-eabi/speed/kat" "$img"
            python3 "$root/embedded/cycles.py" thumbv6m-none-eabi "$img" >"$build/ours-$variant.log"
            fig=$(awk '$1 == "groestl-256" && ($2 == 1024 || $2 == 2048) { i[$2] = $3; c[$2] = $4; s[$2] = $5 }
                END { if (!(1024 in c) || !(2048 in c)) exit 1
                      printf "%.1f %.1f %d", (c[2048] - c[1024]) / 1024, (i[2048] - i[1024]) / 1024, (s[1024] > s[2048] ? s[1024] : s[2048]) }' "$build/ours-$variant.log")
            if [ $variant = fast ]; then
                syms=(slicewise_groestl_mcu_common512 slicewise_groestl_mcu_p512 slicewise_groestl_mcu_q512
                    slicewise_groestl_mcu_compress512 slicewise_groestl_mcu_output512 mcu_thumb::)
            else
                syms=(slicewise_groestl_mcu_small_)
            fi
        else
            echo "== ours ($variant): cargo +$SLICEWISE_NIGHTLY build --release --target avr-none -Zbuild-std=core --features $features"
            (cd "$root/embedded" && cargo "+$SLICEWISE_NIGHTLY" build --locked --release --target avr-none -Zbuild-std=core --features "$features")
            img="$build/ours-$variant.elf"
            cp "$target/avr-none/release/kat.elf" "$img"
            "$root/embedded/run.sh" avr-none "$img" >"$build/ours-$variant.log" 2>&1 ||
                { echo "$0: our AVR measurement image failed ($build/ours-$variant.log)" >&2; exit 1; }
            fig=$(awk '$1 == "groestl-256" && ($2 == "1024:" || $2 == "2048:") { sub(":", "", $2); c[$2] = $4; s[$2] = $6 }
                END { if (!(1024 in c) || !(2048 in c)) exit 1
                      printf "%.1f - %d", (c[2048] - c[1024]) / 1024, (s[1024] > s[2048] ? s[1024] : s[2048]) }' "$build/ours-$variant.log")
            if [ $variant = fast ]; then
                syms=(sw_groestl_avr_k_fast sw_groestl_avr_fast_ sw_groestl_avr_sbox sw_groestl_avr_mul2 3mcu11compress512 3mcu18output512_in_place)
            else
                syms=(sw_groestl_avr_k_small sw_groestl_avr_small_ sw_groestl_avr_sbox sw_groestl_avr_mul2 3mcu11compress512 3mcu18output512_in_place)
            fi
        fi
        read -r cpb ipb stack <<<"$fig"
        rom=$(python3 "$root/embedded/romsize.py" "$img" "${syms[@]}" | awk '/^total:/ { print $2 }')
        # Static RAM of our kernels: the AVR fast kernel's doubling table in SRAM (.data,
        # sw_groestl_avr_mul2_ram, 256 B), absent from mcu-small images (--gc-sections).
        static=0
        while read -r _ sz _ sym; do
            if [[ $sym =~ ^sw_groestl_avr_.*_ram$ ]]; then static=$((static + 16#$sz)); fi
        done < <("$nm" -S "$img")
        row="slicewise mcu"
        [ $variant = small ] && row="slicewise mcu (mcu-small)"
        our_rows+=("$row")
        our_cpb[$row]=$cpb
        our_ipb[$row]=$ipb
        our_stack[$row]=$stack
        our_static[$row]=$static
        our_ram[$row]=$((stack + static))
        our_rom[$row]=$rom
        echo "   $row: $cpb cycles/byte, RAM $stack stack + $static static, ROM $rom"
    done
fi

# --- the table ------------------------------------------------------------------------------------
echo
if [ "$mode" = m0 ]; then
    echo "### Cortex-M0 Grøstl-256 (cycles: embedded/cycles.py's M0 model, zero wait states; seeds: $cc_version ${arch_flags[*]})"
else
    echo "### ATmega1284P Grøstl-256 (cycles: exact, simavr, Timer1; seeds: $cc_version ${arch_flags[*]})"
fi
echo
base=""
[ ${#our_rows[@]} -gt 0 ] && base=${our_rows[0]}
ratio() { # value, base value
    if [ -n "$1" ] && [ -n "$2" ] && [ "$2" != 0 ]; then awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; else echo "-"; fi
}
if [ "$mode" = m0 ]; then
    echo "| implementation | cycles/byte (long) | instructions/byte | RAM B | ROM B | × ours: cycles | × ours: RAM | × ours: ROM |"
    echo "|---|---|---|---|---|---|---|---|"
else
    echo "| implementation | cycles/byte (long) | RAM B | ROM B | × ours: cycles | × ours: RAM | × ours: ROM |"
    echo "|---|---|---|---|---|---|---|"
fi
row() { # name, cpb, ipb, ram, rom, ram text
    local r1 r2 r3
    r1=$(ratio "$2" "${base:+${our_cpb[$base]}}")
    r2=$(ratio "$4" "${base:+${our_ram[$base]}}")
    r3=$(ratio "$5" "${base:+${our_rom[$base]}}")
    if [ "$mode" = m0 ]; then
        echo "| $1 | $2 | $3 | $6 | $5 | $r1 | $r2 | $r3 |"
    else
        echo "| $1 | $2 | $6 | $5 | $r1 | $r2 | $r3 |"
    fi
}
for k in "${order[@]}"; do
    ramtxt=${res_ram[$k]}
    [ "${res_static[$k]}" -gt 0 ] && ramtxt="${res_ram[$k]} (${res_stack[$k]} stack + ${res_static[$k]} static)"
    row "SUPERCOP $k" "${res_cpb[$k]}" "${res_ipb[$k]}" "${res_ram[$k]}" "${res_rom[$k]}" "$ramtxt"
done
for r in "${our_rows[@]}"; do
    ramtxt=${our_ram[$r]}
    [ "${our_static[$r]}" -gt 0 ] && ramtxt="${our_ram[$r]} (${our_stack[$r]} stack + ${our_static[$r]} static)"
    row "$r" "${our_cpb[$r]}" "${our_ipb[$r]}" "${our_ram[$r]}" "${our_rom[$r]}" "$ramtxt"
done
echo
echo "× ours: the row's figure divided by ${base:-ours (not measured)}'s (the default build)."
echo "RAM: peak stack by painting plus static .data/.bss (the seed object's; ours: the kernels' SRAM tables, sw_groestl_avr_*_ram)."
echo "ROM: embedded/romsize.py on the implementation's symbols$([ "$mode" = avr ] && echo ", plus the flash copy of a seed's .data"):"
for k in "${order[@]}"; do echo "  $k: ${res_note[$k]}"; done
# The issue's goals, as ratios of what was measured here (against the seed's fastest build).
best() { # implementation: the key of its fastest row
    local k b=""
    for k in "${order[@]}"; do
        [ "${k%%,*}" = "$1" ] || continue
        if [ -z "$b" ] || awk -v a="${res_cpb[$k]}" -v c="${res_cpb[$b]}" 'BEGIN { exit !(a < c) }'; then b=$k; fi
    done
    echo "$b"
}
if [ -n "$base" ]; then
    small="slicewise mcu (mcu-small)"
    if [ "$mode" = m0 ] && [ -n "$(best thumb-asm-fast)" ]; then
        k=$(best thumb-asm-fast)
        echo "Goal (M0): ours ≤ 0.85 × thumb-asm-fast's cycles at ≤ 344 B RAM. Ours ÷ $k: $(ratio "${our_cpb[$base]}" "${res_cpb[$k]}") at ${our_ram[$base]} B; mcu-small $(ratio "${our_cpb[$small]:-}" "${res_cpb[$k]}") at ${our_ram[$small]:-?} B."
    fi
    if [ "$mode" = avr ] && [ -n "$(best avr8asm/highspeed)" ]; then
        k=$(best avr8asm/highspeed)
        echo "Goal (AVR): ours ≤ 400 c/B and below highspeed (${res_cpb[$k]} c/B here). Ours ${our_cpb[$base]} c/B = $(ratio "${our_cpb[$base]}" "${res_cpb[$k]}") × highspeed. Low-memory ≤ 180 B at ≤ 480 c/B: mcu-small ${our_ram[$small]:-?} B at ${our_cpb[$small]:-?} c/B."
    fi
fi
for f in "${not_built[@]}"; do echo "NOT BUILT: $f"; done
for f in "${failed[@]}"; do echo "NOT VERIFIED: $f"; done
[ ${#failed[@]} -eq 0 ]
