#!/usr/bin/env python3
"""Per-class throughput estimates of the x86 Grøstl kernels with llvm-mca (issue 36).

Reads the assembly `scripts/mca.sh` emits (this crate's kernels and RustCrypto `groestl-aesni`'s
compression functions, each compiled exactly as a release build compiles it), cuts out each
kernel's per-block work and asks `llvm-mca -mcpu=CPU` for its steady-state cycles:

- The kernels loop over rounds (a backward branch whose body holds the SubBytes instructions);
  llvm-mca gives the cycles of one round in a loop of many, so loop-carried dependencies count.
- The rest of the per-block work (message load, transposition, feed-forward) is analysed as a
  second region, with the round loop cut out, and added once per block.
- Folded loads of table units (`vaesenclast 32(%rcx), %ymm1, %ymm2`) are split into a load and
  a register operation before the analysis (`split_loads`), for every kernel alike, where the
  region leaves a vector register free. Where the region uses all sixteen (the VEX kernels),
  the folded operand becomes a register the region only reads (`invariant_operands`): the
  LLVM models add a folded load's latency to the state's chain, which made those kernels look
  slower than they are (znver4 estimated 31.0 cycles a round for `vaes` Grøstl-256 with the
  loads folded, 26.0 without; measured on a Zen 4: 26.6, `scripts/round-bench.sh`).
- The round-loop trip count comes from the S-box work a block needs: 16 bytes per
  `AESENCLAST` (32 per `VAESENCLAST` on YMM, 64 on ZMM), 2 × 64 bytes per round for
  Grøstl-224/256 and 2 × 128 for Grøstl-384/512, over 10 or 14 rounds. A loop may hold two
  rounds (unrolled) or one permutation's round (P and Q in loops of their own); a kernel whose
  count does not divide evenly is reported as such instead of being estimated. `vperm` (no
  AES instructions; for CPUs without AES-NI, none of the classes here) is not estimated.

These are estimates of the issue rate on each core's scheduling model (no cache misses, no
front-end stalls, perfect branch prediction), not measurements: the script says so in its output.
"""

import argparse
import re
import subprocess
import sys

# Kernels: (label, assembly file key, symbol pattern, Grøstl width, needed ISA class).
# The ISA class says which -mcpu values can run the kernel at all.
KERNELS = [
    ("aesni G-256", "ours", r"7backend5aesni11compress5126kernel", 512, "aes"),
    ("avx2 G-256", "ours", r"7backend4avx211compress5126kernel", 512, "avx2"),
    ("vaes G-256", "ours", r"7backend4vaes11compress5126kernel", 512, "vaes"),
    ("gfniavx2 G-256", "ours", r"7backend8gfniavx211compress5126kernel", 512, "gfniavx2"),
    ("avx512 G-256", "ours", r"7backend6avx51211compress5126kernel", 512, "avx512"),
    ("gfni G-256", "ours", r"7backend4gfni11compress5126kernel", 512, "avx512"),
    ("groestl-aesni G-256", "peer", r"10compressor3aes5tf512", 512, "aes"),
    ("aesni G-512", "ours", r"7backend5aesni12compress10246kernel", 1024, "aes"),
    ("avx2 G-512", "ours", r"7backend4avx212compress10246kernel", 1024, "avx2"),
    ("vaes G-512", "ours", r"7backend4vaes12compress10246kernel", 1024, "vaes"),
    ("gfniavx2 G-512", "ours", r"7backend8gfniavx212compress10246kernel", 1024, "gfniavx2"),
    ("avx512 G-512", "ours", r"7backend6avx51212compress10246kernel", 1024, "avx512"),
    ("gfni G-512", "ours", r"7backend4gfni12compress10246kernel", 1024, "avx512"),
    ("groestl-aesni G-512", "peer", r"10compressor3aes6tf1024", 1024, "aes"),
]

# -mcpu values and the ISA classes their cores have (Haswell/Skylake client, Zen 1/2: AVX2 + AES-NI;
# Alder Lake: + VAES, GFNI; Zen 3: + VAES; Zen 4 and Sapphire Rapids: AVX-512 too).
CPUS = {
    "haswell": {"ssse3", "aes", "avx2"},
    "znver1": {"ssse3", "aes", "avx2"},
    "znver2": {"ssse3", "aes", "avx2"},
    "skylake": {"ssse3", "aes", "avx2"},
    "alderlake": {"ssse3", "aes", "avx2", "vaes", "gfniavx2"},
    "znver3": {"ssse3", "aes", "avx2", "vaes"},
    "znver4": {"ssse3", "aes", "avx2", "vaes", "gfniavx2", "avx512"},
    "sapphirerapids": {"ssse3", "aes", "avx2", "vaes", "gfniavx2", "avx512"},
}

ROUNDS = {512: 10, 1024: 14}
BLOCK = {512: 64, 1024: 128}

INSN = re.compile(r"^\t([a-z][a-z0-9]*)\b")
LABEL = re.compile(r"^(\.L\w+):")
JUMP = re.compile(r"^\tj\w+\s+(\.L\w+)")


def functions(path):
    """Maps each symbol defined in the assembly file to its body (lines up to .Lfunc_end)."""
    out, name, body = {}, None, []
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        m = re.match(r"^([_A-Za-z][\w$.]*):$", line)
        if m and not line.startswith(".L"):
            name, body = m.group(1), []
            continue
        if name is None:
            continue
        if line.startswith(".Lfunc_end"):
            out[name] = body
            name = None
            continue
        body.append(line)
    return out


def loops(body):
    """Backward branches as (first line, branch line) ranges."""
    where = {}
    for i, line in enumerate(body):
        m = LABEL.match(line)
        if m:
            where[m.group(1)] = i
    found = []
    for i, line in enumerate(body):
        m = JUMP.match(line)
        if m and m.group(1) in where and where[m.group(1)] < i:
            found.append((where[m.group(1)], i))
    return found


MEM = re.compile(r"^\t(\w+)\t([^,]*\(%r\w+[^)]*\)|[.\w$]+\(%rip\)), (.*)$")
VREG = re.compile(r"%([xyz])mm(\d+)")
# Instructions whose memory operand is left as it is: moves, broadcasts and inserts are loads
# themselves (or address arithmetic), not an operation on a folded table load.
KEEP_FOLDED = ("mov", "vmov", "vpbroadcast", "vbroadcast", "lea", "vpinsr", "pinsr", "vinsert")


def split_loads(lines):
    """Rewrites `op MEM, regs` (an arithmetic, shuffle or AES instruction with a folded load of
    a table unit) as a separate load into a register the region never uses plus `op REG, regs`.

    On the cores the load is independent of the state and issues early, so only the ALU latency
    is on the state's dependency chain; some LLVM scheduling models instead add the load latency
    to the folded instruction's result. Splitting gives every kernel, ours and the peer's alike,
    the same treatment. Moves, stores and broadcasts are left as they are.
    """
    used = {int(m.group(2)) for line in lines for m in VREG.finditer(line)}
    vex = any(INSN.match(line) and INSN.match(line).group(1).startswith("v") for line in lines)
    # Registers 16-31 exist only in EVEX code (AVX-512): use them only where the region does.
    evex = any(r >= 16 for r in used) or any("%zmm" in line or "%k" in line for line in lines)
    free = [r for r in range(32 if evex else 16) if r not in used]
    if not free:
        return invariant_operands(lines)
    tmp = free[0]
    out = []
    for line in lines:
        m = MEM.match(line)
        op = m.group(1) if m else ""
        if not m or op.startswith(KEEP_FOLDED):
            out.append(line)
            continue
        w = VREG.search(m.group(3))
        if not w:
            out.append(line)
            continue
        reg = f"%{w.group(1)}mm{tmp}"
        load = "vmovdqu" if vex else "movdqu"
        # ZMM registers and XMM/YMM 16-31 exist only in EVEX encodings, which VMOVDQU lacks.
        if w.group(1) == "z" or tmp >= 16:
            load = "vmovdqu64"
        out.append(f"\t{load}\t{m.group(2)}, {reg}")
        out.append(f"\t{op}\t{reg}, {m.group(3)}")
    return out


def invariant_operands(lines):
    """For a region that uses every vector register: each folded table load becomes a read of a
    register the region reads but never writes (a loop-invariant constant, such as a shuffle
    mask). That keeps the load's latency off the state's chain, as a load whose address does
    not depend on the state is on the cores, without a register to load into; only the load
    µop itself is left out (loads are not what limits these loops). With no such register the
    region stays folded."""
    # By register number: xmmN, ymmN and zmmN are one register.
    written = set()
    for line in lines:
        regs = VREG.findall(line)
        if INSN.match(line) and regs:
            written.add(regs[-1][1])
    read_only = sorted({num for line in lines for _, num in VREG.findall(line)[:-1]} - written, key=int)
    out = []
    for line in lines:
        m = MEM.match(line)
        op = m.group(1) if m else ""
        w = VREG.search(m.group(3)) if m else None
        if not m or not w or op.startswith(KEEP_FOLDED):
            out.append(line)
            continue
        if not read_only:
            out.append(line)
            continue
        out.append(f"\t{op}\t%{w.group(1)}mm{read_only[0]}, {m.group(3)}")
    return out


def instructions(lines):
    """The instruction lines of a region (no labels, no directives), as llvm-mca input, with
    folded table loads split out (`split_loads`)."""
    return split_loads([line for line in lines if INSN.match(line)])


def sbox_bytes(lines):
    """Bytes of S-box work: 16 per XMM (V)AESENCLAST, 32 per YMM, 64 per ZMM."""
    total = 0
    for line in lines:
        m = INSN.match(line)
        if m and m.group(1) in ("aesenclast", "vaesenclast"):
            width = 64 if "%zmm" in line else 32 if "%ymm" in line else 16
            total += width
    return total


def mca(lines, cpu, llvm_mca):
    """Steady-state cycles per iteration of `lines` on `cpu`."""
    src = "\n".join(lines) + "\n"
    r = subprocess.run([llvm_mca, f"-mcpu={cpu}", "-iterations=200"], input=src, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"llvm-mca -mcpu={cpu}: {r.stderr.strip()[:300]}")
    total = int(re.search(r"Total Cycles:\s+(\d+)", r.stdout).group(1))
    iters = int(re.search(r"Iterations:\s+(\d+)", r.stdout).group(1))
    return total / iters


def estimate(body, width, cpu, llvm_mca):
    """Cycles per block, or an explanation string."""
    ls = loops(body)
    has_sbox = [lp for lp in ls if sbox_bytes(body[lp[0]:lp[1] + 1]) > 0]
    # Round loops: loops with S-box work that hold no other such loop (the compiler may unroll
    # two rounds into one iteration, or give P and Q a loop each).
    rl = [lp for lp in has_sbox if not any(o != lp and lp[0] <= o[0] and o[1] <= lp[1] for o in has_sbox)]
    # The block: the smallest loop around every round loop (the kernels loop over blocks), else
    # the whole function (one block per call).
    around = [lp for lp in ls if all(lp[0] <= a and b <= lp[1] and lp != (a, b) for a, b in rl)] if rl else []
    lo, hi = min(around, key=lambda lp: lp[1] - lp[0]) if around else (0, len(body) - 1)
    rest, prev = [], lo
    for a, b in sorted(rl):
        rest += body[prev:a]
        prev = b + 1
    rest += body[prev:hi + 1]
    need = 2 * BLOCK[width] * ROUNDS[width]
    in_loops = sum(sbox_bytes(body[a:b + 1]) for a, b in rl)
    outside = sbox_bytes(rest)
    if in_loops == 0:
        if outside != need:
            return f"{outside} S-box bytes per block, a block needs {need}"
        trips = 0
    elif (need - outside) % in_loops or need <= outside:
        return f"S-box loops do {in_loops} bytes per iteration, {outside} outside; a block needs {need}"
    else:
        trips = (need - outside) // in_loops
    loop_cycles = sum(mca(instructions(body[a:b + 1]), cpu, llvm_mca) for a, b in rl)
    rest_cycles = mca(instructions(rest), cpu, llvm_mca) if instructions(rest) else 0.0
    return trips * loop_cycles + rest_cycles


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ours", required=True, help="assembly of slicewise-groestl")
    ap.add_argument("--peer", required=True, help="assembly of groestl-aesni")
    ap.add_argument("--llvm-mca", default="llvm-mca-19")
    ap.add_argument("--cpus", default=",".join(CPUS))
    args = ap.parse_args()
    funcs = {"ours": functions(args.ours), "peer": functions(args.peer)}
    cpus = args.cpus.split(",")
    print("llvm-mca estimates (not measurements): cycles/byte of one long message, from the")
    print("steady-state cycles of the round loop x rounds + the rest of the block, per -mcpu.")
    print("`-` = that core lacks the kernel's instructions. Cycles per block in parentheses.")
    print()
    print("| kernel | " + " | ".join(cpus) + " |")
    print("|---|" + "---:|" * len(cpus))
    failed = False
    for label, key, pattern, width, isa in KERNELS:
        syms = [s for s in funcs[key] if re.search(pattern, s)]
        if len(syms) != 1:
            print(f"| {label} | symbol {pattern!r}: {len(syms)} matches |", file=sys.stderr)
            failed = True
            continue
        body = funcs[key][syms[0]]
        cells = []
        for cpu in cpus:
            if isa not in CPUS.get(cpu, set()):
                cells.append("–")
                continue
            e = estimate(body, width, cpu, args.llvm_mca)
            if isinstance(e, str):
                cells.append(f"? ({e})")
                failed = True
            else:
                cells.append(f"{e / BLOCK[width]:.2f} ({e:.0f})")
        print(f"| {label} | " + " | ".join(cells) + " |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
