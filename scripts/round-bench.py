#!/usr/bin/env python3
"""Times the compiled round loop of one x86 Grøstl kernel on this CPU, alone (issue 36).

`scripts/round-bench.sh` builds the crate's assembly (as `scripts/mca.sh` does) and calls this
script. It cuts the innermost loop that holds the S-box instructions out of the kernel's function
(`scripts/mca.py` finds it), copies the function's constant pool, points every general-purpose
register the loop addresses memory with into a scratch buffer, and links the loop body into a
small C program that repeats it:

- `chain`: as compiled, the loop-carried state in its registers: one message's dependency chain,
  what a long single message runs;
- `independent`: the same body with its live-in vector registers reloaded from memory at the top
  of every iteration, so that iterations do not wait for one another (throughput with only the
  body's own dependencies);
- `two-chain` (CPUs with AVX-512VL only): two copies of the body interleaved instruction by
  instruction, the second renamed to ymm16-31 (EVEX forms): two independent messages, what
  throughput the same instruction stream reaches when latency can be hidden.

It prints TSC cycles per round (the median of 21 samples; rounds from the S-box bytes of one
iteration), and core cycles per round using the ratio of a dependent chain of scalar adds (one
per core cycle) to the TSC, measured before the rows (the best of 15: other load only slows the
chain; on a shared virtual machine that column is only as good as the host is quiet). Timings, not estimates, but of a loop cut out of its kernel: the
per-block work outside the loop is not included. Values in the registers are arbitrary (the
kernels' timing does not depend on data).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mca  # noqa: E402  (functions, loops, sbox_bytes)

REG = re.compile(r"%ymm(\d+)")


def round_loop(body):
    """The innermost backward-branch loop with S-box work: its instruction lines."""
    ls = mca.loops(body)
    sb = [lp for lp in ls if mca.sbox_bytes(body[lp[0]:lp[1] + 1]) > 0]
    inner = [lp for lp in sb if not any(o != lp and lp[0] <= o[0] and o[1] <= lp[1] for o in sb)]
    if len(inner) != 1:
        raise SystemExit(f"expected one round loop, found {len(inner)}")
    a, b = inner[0]
    return [l for l in body[a + 1:b + 1] if mca.INSN.match(l)]


def constants(path, lines):
    """The `.LCPI` constant-pool entries the loop refers to, each 32-byte aligned."""
    wanted = {m for l in lines for m in re.findall(r"\.LCPI\w+", l)}
    text = open(path, encoding="utf-8", errors="replace").read().split("\n")
    out, keep = [], False
    for line in text:
        m = re.match(r"^(\.LCPI\w+):", line)
        if m:
            keep = m.group(1) in wanted
            if keep:
                out += ["\t.p2align\t5", line]
            continue
        if keep and re.match(r"^\t\.(byte|short|long|quad|zero)\b", line):
            out.append(line)
            continue
        keep = False
    return out


def vector_part(loop):
    """Drops the loop's own scalar control (counter updates, compare, branch)."""
    return [l for l in loop if "%ymm" in l or "%xmm" in l]


def live_in(lines):
    written, live = set(), []
    for l in lines:
        regs = [int(r) for r in REG.findall(l)]
        if not regs:
            continue
        *srcs, dst = regs
        op = mca.INSN.match(l).group(1)
        zero_idiom = op in ("vpxor", "vxorps") and len(set(regs)) == 1
        for r in srcs if not zero_idiom else []:
            if r not in written and r not in live:
                live.append(r)
        written.add(dst)
    return live


EVEX = {"vpxor": "vpxord", "vpand": "vpandd", "vpor": "vpord", "vpandn": "vpandnd", "vmovdqa": "vmovdqa64", "vmovdqu": "vmovdqu64"}


def evex_copy(lines):
    """The loop renamed to ymm16-31 in EVEX forms, or None where that is not a clean copy (XMM
    halves, stack slots both copies would share, an instruction without an EVEX twin here)."""
    if any("%xmm" in l or "%rsp" in l for l in lines):
        return None
    out = []
    for l in lines:
        op = mca.INSN.match(l).group(1)
        if op not in EVEX and op not in ("vpshufb", "vpshufd", "vpaddb", "vaesenclast", "vpbroadcastb", "vpbroadcastq", "vpunpcklqdq", "vpunpckhqdq", "vpsubb", "vpcmpgtb"):
            return None
        l = REG.sub(lambda m: f"%ymm{int(m.group(1)) + 16}", l)
        if op in EVEX:
            l = l.replace(f"\t{op}\t", f"\t{EVEX[op]}\t", 1)
        out.append(l)
    return out


HARNESS = r"""
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>
void body_chain(long n, void *buf); void body_indep(long n, void *buf); void body_two(long n, void *buf);
void adds(long n);
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
static double ratio(void) { unsigned long long t = __rdtsc(); adds(50000000); return 50000000.0 / (double)(__rdtsc() - t); }
static double core_per_tsc;
static void run(const char *label, void (*f)(long, void *), double rounds, double states) {
  static unsigned char buf[1 << 16] __attribute__((aligned(64)));
  for (int i = 0; i < (int)sizeof buf; i++) buf[i] = (unsigned char)(i * 131 + 7);
  long n = 100000; double s[21];
  for (int k = 0; k < 21; k++) { unsigned long long t = __rdtsc(); f(n, buf + 32768); s[k] = (double)(__rdtsc() - t) / n / rounds / states; }
  qsort(s, 21, sizeof *s, cmp);
  printf("| %s | %.2f | %.2f |\n", label, s[10], s[10] * core_per_tsc);
}
int main(int argc, char **argv) {
  double rounds = atof(argv[1]); int two = atoi(argv[2]);
  /* The largest of 15 samples: anything else running only slows the add chain down. */
  for (int k = 0; k < 15; k++) { double r = ratio(); if (r > core_per_tsc) core_per_tsc = r; }
  printf("core cycles per TSC cycle (dependent scalar adds, best of 15): %.3f\n\n", core_per_tsc);
  printf("| loop | TSC cycles per round and state | core cycles (scalar-add ratio) |\n|---|---:|---:|\n");
  run("chain (one message, as compiled)", body_chain, rounds, 1);
  run("independent iterations", body_indep, rounds, 1);
  if (two) run("two chains interleaved (ymm16-31 copy)", body_two, rounds, 2);
  return 0;
}
"""


def function_asm(name, gprs, lines):
    # A frame of its own: spilling kernels store to positive offsets from %rsp.
    out = [f".globl {name}", f"{name}:", "\tpushq\t%rbp", "\tmovq\t%rsp, %rbp", "\tandq\t$-64, %rsp", "\tsubq\t$4096, %rsp"]
    for g in gprs[0]:
        out.append(f"\tmovq\t%rsi, %{g}")
    for g in gprs[1]:
        out.append(f"\tmovq\t$0, %{g}")
    for r in range(16):
        out.append(f"\tvmovdqu\t{32 * r}(%rsi), %ymm{r}")
    if name == "body_two":
        for r in range(16):
            out.append(f"\tvmovdqu64\t{32 * r}(%rsi), %ymm{r + 16}")
    out.append("\t.p2align\t6")
    out.append("1:")
    out += lines
    out += ["\tdecq\t%rdi", "\tjnz\t1b", "\tvzeroupper", "\tmovq\t%rbp, %rsp", "\tpopq\t%rbp", "\tretq"]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--asm", required=True, help="assembly listing of slicewise-groestl (scripts/round-bench.sh makes it)")
    ap.add_argument("--kernel", default="7backend4vaes11compress5126kernel", help="symbol pattern of the kernel function")
    ap.add_argument("--width", type=int, default=512, choices=(512, 1024), help="Grøstl state width in bits")
    ap.add_argument("--keep", help="write the generated assembly here")
    args = ap.parse_args()

    funcs = mca.functions(args.asm)
    names = [n for n in funcs if re.search(args.kernel, n)]
    if len(names) != 1:
        raise SystemExit(f"{len(names)} functions match {args.kernel!r}")
    body = funcs[names[0]]
    lines = vector_part(round_loop(body))
    rounds = mca.sbox_bytes(lines) / (2 * mca.BLOCK[args.width])
    # Memory operands `disp(%base,%index,scale)`: bases point into the buffer, indexes are 0.
    addr = [m for l in lines for m in re.findall(r"\((%\w+)(?:,(%\w+))?", l.split("#")[0])]
    bases = sorted({b[1:] for b, _ in addr if b not in ("%rip", "%rsp")})
    indexes = sorted({i[1:] for _, i in addr if i} - set(bases))
    gprs = (bases, indexes)
    if any(g in ("rdi", "rsi", "rbp") for g in bases + indexes) or any("%rbp" in l for l in lines):
        raise SystemExit("the loop uses rdi, rsi or rbp, which the harness needs")
    live = live_in(lines)
    indep = [f"\tvmovdqu\t{32 * r}(%rsi), %ymm{r}" for r in live] + lines
    two = evex_copy(lines)
    has_avx512vl = "avx512vl" in open("/proc/cpuinfo").read()
    two_lines = None
    if two is not None and has_avx512vl:
        two_lines = [x for pair in zip(lines, two) for x in pair]

    asm = [".section .rodata", "\t.p2align\t6"] + constants(args.asm, lines) + [".text"]
    asm += function_asm("body_chain", gprs, lines)
    asm += function_asm("body_indep", gprs, indep)
    asm += function_asm("body_two", gprs, two_lines or ["\tnop"])
    asm += [".globl adds", "adds:", "1:", "\taddq\t$1, %rax", "\taddq\t$1, %rax", "\tsubq\t$2, %rdi", "\tjnz\t1b", "\tretq",
            '.section .note.GNU-stack,"",@progbits']
    with tempfile.TemporaryDirectory() as d:
        s = os.path.join(d, "loop.s")
        c = os.path.join(d, "harness.c")
        exe = os.path.join(d, "bench")
        open(s, "w").write("\n".join(asm) + "\n")
        open(c, "w").write(HARNESS)
        if args.keep:
            open(args.keep, "w").write("\n".join(asm) + "\n")
        subprocess.run(["cc", "-O2", "-o", exe, c, s], check=True)
        print(f"{names[0]}: round loop of {len(lines)} vector instructions, {rounds:g} rounds per iteration, "
              f"live-in ymm {live}")
        subprocess.run([exe, str(rounds), "1" if two_lines else "0"], check=True)
        if not two_lines:
            print("(two-chain row left out: " + ("no AVX-512VL on this CPU" if not has_avx512vl else "the loop has no clean EVEX copy") + ")")


if __name__ == "__main__":
    main()
