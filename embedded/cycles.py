#!/usr/bin/env python3
"""Instruction counts and Cortex-M0 cycle estimates for the measurement firmware under QEMU.

    embedded/cycles.py TARGET ELF

Runs ELF on QEMU one instruction per translation block (`-singlestep -d exec,nochain`), reads
the execution trace from a pipe, and splits it at every entry of `bench_mark` (the firmware
calls it before and after each measured operation). For each measured interval it prints the
number of instructions executed and the cycles they take under the Cortex-M0 timing of the
ARM Cortex-M0 TRM (DDI 0432C, table 3-1), with zero-wait-state memory:

    data processing, MULS (single-cycle multiplier) 1; LDR*/STR* 2; LDM/STM/PUSH/POP 1+N;
    POP {..,pc} 4+N; B 3; B<cond> 3 taken, 1 not taken; BL 4; BX/BLX 3;
    ADD/MOV to pc 3; MRS/MSR 4; DMB/DSB/ISB 4.

QEMU is not cycle-accurate; the model is applied to the exact instruction stream, so the
estimate is exact for a zero-wait-state M0 (the micro:bit's nRF51 has wait states at 16 MHz:
add them for a real chip). The firmware's own lines (`name len: cycles 0 stack N`) are matched
to the intervals in order.

The data-independence check: lines `BASE CLASS LEN` with CLASS one of the message classes of
`src/bench.rs` (counting, zeros, ones, random) form one group per BASE and LEN. Every group must
execute the same number of instructions and (M0) take the same model cycles for each class,
except the negative control (BASE `control-...`), which must not. Exit status 1 if either
fails, or if the trace's intervals do not match the firmware's lines one to one.
"""
import os
import re
import subprocess
import sys
import tempfile

# The message classes of the firmware's data-independence check (`CLASSES` in src/bench.rs).
DATA_CLASSES = ("counting", "zeros", "ones", "random")

def disassemble(elf):
    """Maps every instruction address to (mnemonic, operands)."""
    out = subprocess.run(["arm-none-eabi-objdump" if shutil_which("arm-none-eabi-objdump") else "objdump", "-d", elf],
                         capture_output=True, text=True).stdout
    table = {}
    line_re = re.compile(r"^\s*([0-9a-f]+):\s+((?:[0-9a-f]{4}\s?)+)\s+(\S+)\s*(.*)$")
    for line in out.splitlines():
        m = line_re.match(line)
        if m:
            size = 2 * len(m.group(2).split())
            table[int(m.group(1), 16)] = (m.group(3).split(".")[0], m.group(4), size)
    if not table:
        # Without an ARM disassembler every instruction would count one cycle: refuse instead.
        sys.exit("cycles.py: could not disassemble %s; install arm-none-eabi-objdump "
                 "(Debian: binutils-arm-none-eabi)" % elf)
    return table

def shutil_which(name):
    from shutil import which
    return which(name)

def regs(ops):
    inner = ops[ops.find("{") + 1:ops.find("}")]
    n = 0
    for part in inner.split(","):
        part = part.strip()
        if "-" in part:
            a, b = part.split("-")
            n += int(b.strip()[1:]) - int(a.strip()[1:]) + 1
        elif part:
            n += 1
    return n

def cost(mn, ops, taken):
    if mn in ("ldr", "ldrb", "ldrh", "ldrsb", "ldrsh", "str", "strb", "strh"):
        return 2
    if mn in ("ldm", "ldmia", "stm", "stmia", "push"):
        return 1 + regs(ops)
    if mn == "pop":
        return (4 if "pc" in ops else 1) + regs(ops)
    if mn == "bl":
        return 4
    if mn in ("bx", "blx"):
        return 3
    if mn == "b":
        return 3
    if mn.startswith("b") and len(mn) == 3 and mn not in ("bic", "bkpt"):
        return 3 if taken else 1
    if mn in ("mrs", "msr", "dmb", "dsb", "isb"):
        return 4
    if mn in ("add", "mov") and ops.split(",")[0].strip() == "pc":
        return 3
    return 1

def main():
    target, elf = sys.argv[1], sys.argv[2]
    if target != "thumbv6m-none-eabi" and target != "thumbv7em-none-eabihf":
        sys.exit("cycles.py: Cortex-M targets only (AVR counts cycles on the chip)")
    machine = ["-machine", "microbit", "-cpu", "cortex-m0"] if target.startswith("thumbv6m") else ["-machine", "mps2-an386", "-cpu", "cortex-m4"]
    table = disassemble(elf)
    nm = subprocess.run(["nm", elf], capture_output=True, text=True).stdout
    mark = next(int(l.split()[0], 16) & ~1 for l in nm.splitlines() if l.endswith(" bench_mark"))
    tmp = tempfile.mkdtemp()
    fifo = os.path.join(tmp, "trace")
    os.mkfifo(fifo)
    qemu = subprocess.Popen(["qemu-system-arm", *machine, "-nographic", "-monitor", "none",
                             "-semihosting-config", "enable=on,target=native", "-singlestep",
                             "-d", "exec,nochain", "-D", fifo, "-kernel", elf],
                            stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    pc_re = re.compile(rb"\[[0-9a-f]+/([0-9a-f]+)/")
    intervals = []
    inside = False
    insns = cycles = 0
    prev = None
    with open(fifo, "rb") as trace:
        for line in trace:
            m = pc_re.search(line)
            if not m:
                continue
            pc = int(m.group(1), 16)
            if prev is not None and inside:
                mn, ops, size = table.get(prev, ("?", "", 2))
                insns += 1
                cycles += cost(mn, ops, pc != prev + size)
            if pc == mark:
                if inside:
                    intervals.append((insns, cycles))
                inside = not inside
                insns = cycles = 0
            prev = pc
    lines = [l for l in qemu.stdout.read().splitlines() if ": cycles" in l]
    qemu.wait()
    os.unlink(fifo)
    os.rmdir(tmp)
    # The cycle model is the Cortex-M0's; on thumbv7em only the instruction count is given.
    m0 = target.startswith("thumbv6m")
    print("%-28s %12s %14s %8s" % ("operation", "instructions", "M0 cycles" if m0 else "-", "stack B"))
    if qemu.returncode != 0 or len(intervals) != len(lines):
        sys.exit("cycles.py: %s: QEMU exit status %d, %d measured intervals for %d firmware lines"
                 % (elf, qemu.returncode, len(intervals), len(lines)))
    groups = {}
    for (insns, cycles), line in zip(intervals, lines):
        name = line.split(":")[0]
        stack = line.split("stack")[1].strip()
        print("%-28s %12d %14s %8s" % (name, insns, cycles if m0 else "-", stack))
        parts = name.split()
        if len(parts) >= 3 and parts[-2] in DATA_CLASSES:
            groups.setdefault((" ".join(parts[:-2]), parts[-1]), []).append((parts[-2], insns, cycles if m0 else None))
    if not groups:
        return 0
    ok = True
    for (base, length), runs in groups.items():
        same = len({(i, c) for _, i, c in runs}) == 1 and len(runs) > 1
        control = base.startswith("control-")
        counts = ", ".join("%s %d%s" % (cls, c if m0 else i, "" if m0 else " insns") for cls, i, c in runs)
        verdict = ("flagged, as it must be" if not same else "NOT flagged") if control else ("equal" if same else "NOT EQUAL")
        print("data independence: %s %s: %s (%s)" % (base, length, verdict, counts))
        ok &= same != control
    what = "M0 model cycles and instructions" if m0 else "instructions"
    print("data-independent timing (%s): %s" % (what, "yes" if ok else "NO"))
    return 0 if ok else 1

if __name__ == "__main__":
    sys.exit(main())
