#!/usr/bin/env bash
# llvm-mca estimates of the ARM kernels, the seeds' (SUPERCOP) and slicewise's alike (issue 34,
# item 2). ESTIMATES, NOT MEASUREMENTS: llvm-mca models one core's pipeline on a straight-line
# stream of instructions, with every load hitting L1 and no branch mispredicted.
#   scripts/seed-code/mca-arm.sh MODE BUILD_DIR
# MODE is armv7 or armv6; BUILD_DIR is what scripts/seed-code/arm.sh MODE built
# (${CARGO_TARGET_DIR:-target}/seed-code/MODE: count_arm with the seeds, and the count-insns
# driver with slicewise); `arm.sh SUPERCOP_DIR MODE --mca` runs this after its tables.
#
# What is analysed: the instructions a kernel executes per extra block, taken from the program
# itself rather than cut from the sources by hand. A QEMU TCG plugin (built from the C below)
# records the address of every instruction executed inside a kernel's code range; the program
# runs once on BASE bytes and once on BASE + STEP bytes (the same fixed message as the counts),
# and the extra period of the second trace (its part after the two traces' longest common
# prefix, one period long: a rotation of the loop body, which is what a loop executes in
# steady state) is disassembled with objdump and given to llvm-mca-19 for 100 iterations.
# Cycles per byte = total cycles / 100 / STEP. The code ranges:
#   Grøstl seeds      all code of the seed's object (its compression loop, the permutations
#                     and the C around them that runs per block; libc calls such as memcpy
#                     are outside the range and not analysed: the "instructions" column, the
#                     stream's length per byte, set beside arm.sh's counted instructions per
#                     byte, shows how much of the work the stream covers);
#   Grøstl slicewise  the code of crates/groestl/src/backend/arm/neon7.S (neon7bs, neon7tt,
#                     neon7vp: one call compresses all full blocks);
#   Prøst             the permutation only: the seeds' ARM_ASM_proest_unrolled (qhasm,
#                     proest_unrolled.s; the state conversion and the key XORs are C, outside),
#                     slicewise's crates/proest/src/backend/arm11.S (whichever of its entry
#                     points OTR uses; they load and store the state themselves).
#                     Figures are cycles per P call: the period over STEP = 128 bytes of OTR
#                     encryption divided by the 4 P calls in it (one per 32-byte block; checked
#                     on the seed by counting entries of its permutation). The cost of a
#                     call does not depend on the mode around it, so APE and COPA are not traced.
# CPUs (-mcpu): cortex-a72 (LLVM's ARM backend models it with its Cortex-A57 model) and
# cortex-m4 (triple thumbv7em: the ARM-mode stream reassembled as Thumb-2, with the IT
# instructions its conditional instructions need added by the assembler (-arm-implicit-it=always),
# only where every instruction exists in Thumb-2; never NEON code, and not the armv7 builds of the
# C seeds, which GCC vectorised with NEON); cortex-a8 and cortex-a53 have no llvm-mca
# model in LLVM 19 (A8 has only itineraries, which llvm-mca does not read; the A53 model is
# AArch64-only). The cortex-a8 column is therefore NOT llvm-mca: it is slicewise's own model of
# the Cortex-A8 (scripts/seed-code/a8-model.py, from the TRM's instruction timing, calibrated
# against the Grøstl NEON paper's Cortex-A8 measurements: see its header and
# docs/benchmarks-arm.md), run on the same stream, its figures labelled "slicewise A8 model";
# the cortex-a53 column says "no model". Installs Debian's llvm-19 if llvm-mca-19 is missing.
set -euo pipefail

mode=${1:-}
build=${2:-}
case "$mode" in
    armv7) cross=arm-linux-gnueabihf; qemu=(qemu-arm -cpu cortex-a8 -L /usr/arm-linux-gnueabihf); triple=armv7-unknown-linux-gnueabihf ;;
    armv6) cross=arm-linux-gnueabi; qemu=(qemu-arm -cpu arm1176 -L /usr/arm-linux-gnueabi); triple=arm-unknown-linux-gnueabi ;;
    *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
esac
[ -x "$build/count_arm" ] || { echo "$0: no $build/count_arm: run scripts/seed-code/arm.sh SUPERCOP_DIR $mode first" >&2; exit 1; }
driver="$build/../count-insns/$triple/release/count-insns"
[ -x "$driver" ] || { echo "$0: no $driver: run scripts/seed-code/arm.sh SUPERCOP_DIR $mode first" >&2; exit 1; }
root=$(cd "$(dirname "$0")/../.." && pwd)

if ! command -v llvm-mca-19 >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq llvm-19 >/dev/null
fi

work="$build/mca"
rm -rf "$work"
mkdir -p "$work"
# The tracing plugin: the address of every executed instruction whose link-time address is in
# [lo, hi), as 32-bit words, to `out`. The load bias of a position-independent executable is
# qemu_plugin_start_code() (where qemu-user mapped the program's text) minus the address of its
# first loadable segment (`first`). QEMU plugin API version 1 (QEMU
# 7.2), declared here as in scripts/count-insns/insncount.c. Single-threaded guests only.
cat > "$work/pctrace.c" <<'EOF'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef struct qemu_info_t qemu_info_t;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS = 0 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
extern void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
extern size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
extern struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
extern uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
extern void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_udata_cb_t cb,
                                                   enum qemu_plugin_cb_flags flags, void *userdata);
extern uint64_t qemu_plugin_start_code(void);
extern void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

static uint64_t lo, hi, first, bias;
static int have_bias;
static FILE *out;

static void on_exec(unsigned int vcpu, void *udata)
{
    (void)vcpu;
    uint32_t a = (uint32_t)(uintptr_t)udata;
    fwrite(&a, sizeof a, 1, out);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    if (!have_bias) {
        bias = qemu_plugin_start_code() - first;
        have_bias = 1;
    }
    size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t a = qemu_plugin_insn_vaddr(insn) - bias;
        if (a >= lo && a < hi)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_exec, QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)a);
    }
}

static void at_exit(qemu_plugin_id_t id, void *userdata)
{
    (void)id;
    (void)userdata;
    fclose(out);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                                               int argc, char **argv)
{
    (void)info;
    const char *path = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strncmp(argv[i], "lo=", 3)) lo = strtoull(argv[i] + 3, NULL, 0);
        else if (!strncmp(argv[i], "hi=", 3)) hi = strtoull(argv[i] + 3, NULL, 0);
        else if (!strncmp(argv[i], "first=", 6)) first = strtoull(argv[i] + 6, NULL, 0);
        else if (!strncmp(argv[i], "out=", 4)) path = argv[i] + 4;
    }
    if (!path || !(out = fopen(path, "wb"))) return 1;
    setvbuf(out, NULL, _IOFBF, 1 << 20);
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
EOF
cc -shared -fPIC -O2 -Wall -o "$work/libpctrace.so" "$work/pctrace.c"

echo
echo "llvm-mca estimates ($(llvm-mca-19 --version | grep -o 'LLVM version [0-9.]*'), $(date -u +%Y-%m-%d)), $mode: NOT measurements; see scripts/seed-code/mca-arm.sh for what is analysed."
MODE="$mode" CROSS="$cross" BUILD="$build" WORK="$work" DRIVER="$driver" ROOT="$root" QEMU="${qemu[*]}" \
    python3 - <<'EOF'
import os, re, struct, subprocess, sys

mode, cross, build, work, driver = (os.environ[k] for k in ("MODE", "CROSS", "BUILD", "WORK", "DRIVER"))
qemu = os.environ["QEMU"].split()
count_arm = os.path.join(build, "count_arm")
plugin = os.path.join(work, "libpctrace.so")
ITER = 100


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


symcache = {}


def symbols(binary):
    """(address, name) of every defined symbol, sorted (mapping symbols $a/$d/$t left out)."""
    if binary not in symcache:
        out = run([cross + "-nm", "-n", "--defined-only", binary])
        syms = []
        for line in out.splitlines():
            p = line.split()
            if len(p) == 3 and not p[2].startswith("$"):
                syms.append((int(p[0], 16), p[2]))
        symcache[binary] = syms
    return symcache[binary]


def first_load(binary):
    return int(re.search(r"LOAD\s+0x[0-9a-f]+\s+(0x[0-9a-f]+)", run([cross + "-readelf", "-lW", binary])).group(1), 16)


def range_of(binary, pattern):
    """[lo, hi): from the first symbol matching `pattern` to the first later symbol that does not
    match (local labels of the same code share its address range)."""
    syms = symbols(binary)
    idx = [i for i, (_, n) in enumerate(syms) if re.fullmatch(pattern, n)]
    if not idx:
        raise SystemExit(f"no symbol matching {pattern} in {binary}")
    lo = syms[idx[0]][0]
    last = syms[idx[-1]][0]
    hi = next((a for a, n in syms if a > last and not re.fullmatch(pattern, n)), None)
    return lo, hi


def obj_symbols(obj):
    """name -> value of the code symbols of a seed object, and the size of its .text."""
    syms = {}
    for l in run([cross + "-nm", "--defined-only", obj]).splitlines():
        p = l.split()
        if len(p) == 3 and p[1] in "tT" and not p[2].startswith("$"):
            syms[p[2]] = int(p[0], 16)
    size = int(re.search(r"\.text\s+PROGBITS\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)", run([cross + "-readelf", "-SW", obj])).group(1), 16)
    return syms, size


def seed_base(binary, obj, entry_sym):
    """Where the seed object's .text starts in count_arm: its entry point's address there minus
    its offset in the object (the object's code is one .text section, placed whole)."""
    syms, size = obj_symbols(obj)
    addr = next(a for a, n in symbols(binary) if n == entry_sym)
    return addr - syms[entry_sym], syms, size


def trace(binary, lo, hi, args, tag):
    path = os.path.join(work, tag + ".trace")
    subprocess.run(qemu + ["-plugin", f"{plugin},lo={lo:#x},hi={hi:#x},first={first_load(binary):#x},out={path}", binary] + args,
                   check=True, capture_output=True)
    data = open(path, "rb").read()
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def period(t2, t3):
    b = len(t3) - len(t2)
    if b <= 0:
        raise SystemExit("the longer run executed no more instructions in the range")
    l = 0
    while l < len(t2) and t2[l] == t3[l]:
        l += 1
    if l < b:
        raise SystemExit("the traces diverge before one period")
    return t3[l - b:l]


discache = {}


def disasm(binary, lo, hi):
    key = (binary, lo, hi)
    if key not in discache:
        out = run([cross + "-objdump", "-d", "--no-show-raw-insn", f"--start-address={lo:#x}", f"--stop-address={hi:#x}", binary])
        text = {}
        for line in out.splitlines():
            m = re.match(r"\s*([0-9a-f]+):\s+(.*)$", line)
            if m:
                text[int(m.group(1), 16)] = m.group(2)
        discache[key] = text
    return discache[key]


BRANCH = re.compile(r"^(b|bl|blx)(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?(\.[nw])?\s+[0-9a-f]+")


def clean(ins):
    ins = re.split(r"\s[;@]", ins)[0].strip()
    ins = re.sub(r"\s*<[^>]*>", "", ins)
    ins = re.sub(r"^nop\s*\{\d+\}$", "nop", ins)  # objdump's spelling of the ARMv6K NOP hint
    m = BRANCH.match(ins)
    if m:  # a branch to a fixed address: to itself in the listing (llvm-mca ignores targets)
        ins = ins.split()[0] + "\t."
    return ins.replace("\t", " ")


def listing(binary, lo, hi, addrs):
    text = disasm(binary, lo, hi)
    lines = []
    for a in addrs:
        if a not in text:
            raise SystemExit(f"{a:#x} is not in the disassembly of {binary}")
        lines.append(clean(text[a]))
    return lines


def mca(lines, cpu, tag):
    """Cycles per iteration of `lines` for `cpu`, or a reason why there is none."""
    if cpu == "cortex-a53":
        return None, "no model"
    if cpu == "cortex-a8":
        # Not llvm-mca (LLVM 19 has no usable Cortex-A8 model): slicewise's own model,
        # scripts/seed-code/a8-model.py, on the same stream.
        path = os.path.join(work, f"{tag}-{cpu}.s")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        r = subprocess.run([sys.executable, os.path.join(os.environ["ROOT"], "scripts", "seed-code", "a8-model.py"), path],
                           capture_output=True, text=True)
        if r.returncode != 0:
            return None, (r.stderr.strip().splitlines() or ["a8-model failed"])[-1][:80]
        return float(re.search(r"cycles/iteration:\s+([0-9.]+)", r.stdout).group(1)), ""
    neon = any(re.match(r"v[a-z]", l) for l in lines)
    if cpu == "cortex-m4":
        if neon:
            return None, "NEON"
        triple, head = "thumbv7em", ".syntax unified\n.thumb\n"
    else:
        triple, head = "armv7a", ".syntax unified\n.arm\n"
    path = os.path.join(work, f"{tag}-{cpu}.s")
    with open(path, "w") as f:
        f.write(head + "\n".join(lines) + "\n")
    extra = ["-arm-implicit-it=always"] if cpu == "cortex-m4" else []  # conditional ARM instructions get IT blocks
    r = subprocess.run(["llvm-mca-19", f"-mtriple={triple}", f"-mcpu={cpu}"] + (["-mattr=+neon"] if neon else []) + extra + [f"-iterations={ITER}", path],
                       capture_output=True, text=True)
    if r.returncode != 0:
        err = r.stderr.splitlines()
        i = next((k for k, l in enumerate(err) if "error:" in l), None)
        if i is None:
            return None, r.stderr.strip()[:80]
        what = re.sub(r"^.*?error: ", "", err[i]).split(",")[0]
        src = err[i + 1].strip() if i + 1 < len(err) else ""
        return None, ("not Thumb-2: " if cpu == "cortex-m4" else "") + f"{what}: `{src}`"
    cyc = int(re.search(r"Total Cycles:\s+(\d+)", r.stdout).group(1))
    return cyc / ITER, ""


CPUS = ["cortex-a8", "cortex-a53", "cortex-a72", "cortex-m4"]
# (algorithm, name, program, [lo, hi), run arguments for BYTES, base bytes, step bytes, and for
# Prøst the permutation's entry addresses to check the calls per period against, or None)
G = {"groestl256": 64, "groestl512": 128}
seeds = [l.split() for l in run(qemu + [count_arm, "list"]).splitlines()]
kernels = []
for alg, impl in seeds:
    obj = os.path.join(build, "obj", f"{alg}-{impl}.o")
    cid = f"{alg}_{impl.replace('-', '_')}"
    if alg.startswith("groestl"):
        base, syms, size = seed_base(count_arm, obj, f"crypto_hash_{cid}")
        blk = G[alg]
        kernels.append((alg, f"{impl} (SUPERCOP)", count_arm, (base, base + size),
                        ["run", alg, impl], 16 * blk, blk, None))
    elif alg == "proest128otrv1":
        base, syms, size = seed_base(count_arm, obj, f"crypto_aead_{cid}_encrypt")
        # The permutation is proest_unrolled.s, one part of the object: its .text, placed whole.
        p = syms.get("ARM_ASM_proest_unrolled", syms.get("_ARM_ASM_proest_unrolled"))
        part_syms, part_size = obj_symbols(os.path.join(build, "obj", f"{alg}-{impl}.parts", "proest_unrolled.o"))
        end = p - part_syms["ARM_ASM_proest_unrolled"] + part_size
        kernels.append((alg, f"{impl} (SUPERCOP: ARM_ASM_proest_unrolled)", count_arm, (base + p, base + end),
                        ["run", alg, impl], 1024, 128, {base + p}))
if mode == "armv7":
    for alg, blk in G.items():
        for be in ("neon7bs", "neon7tt", "neon7vp"):
            kernels.append((alg, f"slicewise {be} (neon7.S)", driver, range_of(driver, r"slicewise_groestl_neon7.*"),
                            [alg, be], 16 * blk, blk, None))
ops = {"proest128otrv1": "otr128", "proest128apev1": "ape128", "proest128copav1": "copa128"}
# The permutation's cost per call does not depend on the mode around it: analysed in OTR only.
for alg in [a for a in ops if (a, "arm") in {tuple(x) for x in seeds}][:1]:
    kernels.append((alg, "slicewise arm11 (arm11.S)", driver, range_of(driver, r"slicewise_proest_arm11_.*"),
                    [ops[alg], "arm11"], 1024, 128, None))

rows = {}
for alg, name, prog, (lo, hi), args, base, step, calls_by in kernels:
    tag = re.sub(r"[^A-Za-z0-9]+", "-", f"{alg}-{name}").strip("-")
    t2 = trace(prog, lo, hi, args + [str(base), "1"], tag + "-a")
    t3 = trace(prog, lo, hi, args + [str(base + step), "1"], tag + "-b")
    body = period(t2, t3)
    lines = listing(prog, lo, hi, body)
    if alg.startswith("groestl"):
        unit, per = "cycles/byte", step
    else:
        # Prøst-128 OTR encryption makes one P call per 32-byte block. Checked on the seed, whose
        # permutation is one function entered once per call (slicewise's arm11.S has several
        # entry points, some with the rounds inline).
        per = step // 32
        if calls_by is not None and sum(1 for a in body if a in calls_by) != per:
            raise SystemExit(f"{name}: {sum(1 for a in body if a in calls_by)} permutation calls in {step} bytes of OTR, not {per}")
        unit = "cycles per P call"
    res = []
    for cpu in CPUS:
        c, why = mca(lines, cpu, tag)
        res.append(f"{c / per:.1f}" if c is not None else f"n/a ({why})")
    rows.setdefault(alg, []).append((name, f"{len(body) / per:.1f}", res, unit))

titles = {"groestl256": "Grøstl-256, per byte of long messages (one 64-byte block per period)",
          "groestl512": "Grøstl-512, per byte of long messages (one 128-byte block per period)",
          "proest128otrv1": "Prøst-128 permutation, per P call (traced in Prøst-OTR-128 encryption, one P call per 32 bytes there)"}
for alg in ["groestl256", "groestl512", "proest128otrv1"]:
    if alg not in rows:
        continue
    unit = rows[alg][0][3]
    print(f"\n{titles[alg]}: llvm-mca ESTIMATES, the cortex-a8 column slicewise's A8 model instead ({unit}; instructions = the analysed stream per byte or per call)\n")
    print("| kernel | instructions | " + " | ".join("cortex-a8: slicewise A8 model (estimate)" if c == "cortex-a8" else f"{c} (estimate)" for c in CPUS) + " |")
    print("|---|---:|" + "---:|" * len(CPUS))
    for name, insns, res, _ in rows[alg]:
        print(f"| {name} | {insns} | " + " | ".join(res) + " |")
EOF
