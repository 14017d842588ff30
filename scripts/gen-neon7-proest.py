#!/usr/bin/env python3
"""Generates crates/proest/src/backend/neon7.S: Prøst-128 P and P^-1 on four states at once in
ARMv7 NEON assembly (the ARMv7 side of the `neon` backend; `neon7.rs` calls it).

Layout (lane-sliced, paired as in the `arm11` backend): q register word k (k < 8) holds lane k of
the four states in its low d half and lane k + 8 in its high half, one state per 16-bit
element. A batch in memory is the eight words in order (128 bytes). Per round:
- SubRows: words 0-3 hold rows 0 and 2, words 4-7 rows 1 and 3, so two in-place S-box
  applications of 8 instructions (VAND into a temporary, VEOR) cover the four rows;
- MixSlices: the in-place program of `gen-arm11-proest.py` (23 word XORs, some with the halves
  of the second word swapped). A swap is not computed in place every time: each word carries a
  flag "halves swapped", a `VSWP` of its two d registers flips it, and an XOR whose operands
  disagree costs one `VSWP` first (of the operand that helps the later XORs most);
- ShiftPlanes: a half is rotated by `VSHL` + `VSRI` into a free register (`VREV16` in place for
  a rotation by 8), which also puts the halves back in order;
- AddConstants: one `VLD1` of the word's two constant halves (four copies each, in the order its
  flag says) and one `VEOR`.
Nothing is spilled: 8 state words, one temporary for the S-box, one for the constants, the rest
for the rotations. The script interprets the program it writes against the reference Prøst-128
of `gen-arm11-proest.py` on random states before writing the file.

  scripts/gen-neon7-proest.py            # writes the .S file
  scripts/gen-neon7-proest.py --check    # checks the program, and that the file is up to date
"""
import importlib.util
import os
import random
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
OUT = os.path.join(ROOT, "crates/proest/src/backend/neon7.S")
_spec = importlib.util.spec_from_file_location("arm11gen", os.path.join(ROOT, "scripts/gen-arm11-proest.py"))
A = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(A)

ROUNDS = 16


class Gen:
    """Emits the IR of one function; `reg[k]` is word k's q register, `flag[k]` its swap flag."""

    def __init__(self, inverse):
        self.inverse = inverse
        self.ir = []
        self.table = []  # 16-bit constants in load order
        self.reg = {k: k for k in range(8)}
        self.flag = {k: 0 for k in range(8)}

    def free(self):
        """The q registers no word occupies."""
        used = set(self.reg.values())
        return [q for q in range(16) if q not in used]

    def halves(self, k):
        q = self.reg[k]
        return (2 * q, 2 * q + 1) if not self.flag[k] else (2 * q + 1, 2 * q)

    def swap(self, k):
        q = self.reg[k]
        self.ir.append(("vswp", 2 * q, 2 * q + 1))
        self.flag[k] ^= 1

    def sbox(self):
        tmp = self.free()[0]
        for base in (0, 4):
            grp = [base + i for i in range(4)]
            ones = sum(self.flag[k] for k in grp)
            for k in grp:
                if self.flag[k] != (ones > 2):
                    self.swap(k)
            a, b, c, d = (self.reg[k] for k in grp)
            for (dst, x, y) in ((d, b, c), (c, a, b), (a, c, d), (b, d, a)):
                self.ir.append(("vand", tmp, x, y))
                self.ir.append(("veor", dst, dst, tmp))
            fl = self.flag[base]
            self.reg[base], self.reg[base + 1], self.reg[base + 2], self.reg[base + 3] = c, d, a, b
            for k in grp:
                self.flag[k] = fl

    def mix(self):
        pi, ops = A.mix_program()
        self.reg = {i: self.reg[pi[i]] for i in range(8)}
        self.flag = {i: self.flag[pi[i]] for i in range(8)}
        for n, (i, j, s) in enumerate(ops):
            if s ^ self.flag[i] ^ self.flag[j]:
                # flip the operand whose flag makes fewer of the later XORs disagree
                def cost(flip):
                    f = dict(self.flag)
                    f[flip] ^= 1
                    bad = 0
                    for (i2, j2, s2) in ops[n + 1:]:
                        if s2 ^ f[i2] ^ f[j2]:
                            bad += 1
                            f[j2] ^= 1
                    return bad
                self.swap(j if cost(j) <= cost(i) else i)
            self.ir.append(("veor", self.reg[i], self.reg[i], self.reg[j]))

    def shift(self, r):
        t = A.SHIFTS[r % 2]
        for k in range(8):
            amounts = [t[k // 4], t[k // 4 + 2]]  # lane k, lane k + 8: rotate right by these
            if self.inverse:
                amounts = [(16 - x) % 16 for x in amounts]
            src = self.halves(k)
            if all(x in (0, 8) for x in amounts):
                for h, x in zip(src, amounts):
                    if x == 8:
                        self.ir.append(("vrev16", h, h))
                continue
            q = self.free()[0]
            for h, x, dst in zip(src, amounts, (2 * q, 2 * q + 1)):
                if x == 0:
                    self.ir.append(("vmov", dst, h))
                elif x == 8:
                    self.ir.append(("vrev16", dst, h))
                else:
                    self.ir.append(("vshl", dst, h, 16 - x))
                    self.ir.append(("vsri", dst, h, x))
            self.reg[k], self.flag[k] = q, 0

    def constants(self, r):
        tmp = self.free()[0]
        for k in range(8):
            c = [A.rc(r, k), A.rc(r, k + 8)]
            if self.flag[k]:
                c.reverse()
            self.table += [c[0]] * 4 + [c[1]] * 4
            self.ir.append(("vld1", 2 * tmp, 2 * tmp + 1))
            self.ir.append(("veor", self.reg[k], self.reg[k], tmp))

    def build(self):
        self.ir.append(("vldm",))
        for r in (range(ROUNDS - 1, -1, -1) if self.inverse else range(ROUNDS)):
            if self.inverse:
                self.constants(r)
                self.shift(r)
                self.mix()
                self.sbox()
            else:
                self.sbox()
                self.mix()
                self.shift(r)
                self.constants(r)
        for k in range(8):
            if self.flag[k]:
                self.swap(k)
            self.ir.append(("vst1", 2 * self.reg[k], 2 * self.reg[k] + 1))
        return self


def run(g, words):
    """Interprets g.ir on a batch (8 words of 8 u16); returns the batch it stores."""
    d = [[0] * 4 for _ in range(32)]
    table = iter(g.table)
    out = []
    M = 0xFFFF
    for op in g.ir:
        name = op[0]
        if name == "vldm":
            for k in range(8):
                d[2 * k], d[2 * k + 1] = words[k][:4], words[k][4:]
        elif name in ("vand", "veor"):
            _, qd, qa, qb = op
            for h in (0, 1):
                x, y = d[2 * qa + h], d[2 * qb + h]
                d[2 * qd + h] = [u & v if name == "vand" else u ^ v for u, v in zip(x, y)]
        elif name == "vswp":
            d[op[1]], d[op[2]] = d[op[2]], d[op[1]]
        elif name == "vmov":
            d[op[1]] = d[op[2]][:]
        elif name == "vrev16":
            d[op[1]] = [((v >> 8) | (v << 8)) & M for v in d[op[2]]]
        elif name == "vshl":
            d[op[1]] = [(v << op[3]) & M for v in d[op[2]]]
        elif name == "vsri":
            n = op[3]
            keep = (M << (16 - n)) & M
            d[op[1]] = [(u & keep) | (v >> n) for u, v in zip(d[op[1]], d[op[2]])]
        elif name == "vld1":
            d[op[1]] = [next(table) for _ in range(4)]
            d[op[2]] = [next(table) for _ in range(4)]
        elif name == "vst1":
            out.append(d[op[1]] + d[op[2]])
        else:
            raise ValueError(name)
    return out


def pack(states):
    return [[states[s][k] for s in range(4)] + [states[s][k + 8] for s in range(4)] for k in range(8)]


def unpack(words):
    st = [[0] * 16 for _ in range(4)]
    for k in range(8):
        for s in range(4):
            st[s][k], st[s][k + 8] = words[k][s], words[k][4 + s]
    return st


def check(gens, rng):
    fwd, inv = gens
    for _ in range(20):
        states = [[rng.randrange(1 << 16) for _ in range(16)] for _ in range(4)]
        got = unpack(run(fwd, pack(states)))
        want = [A.ref_permute(s) for s in states]
        assert got == want, "P differs from the reference"
        back = unpack(run(inv, pack(got)))
        assert back == states, "P^-1(P(x)) != x"


# Assembly of the IR ops (operand i of the tuple is {i}).
ASM = {
    "vand": "vand q{1}, q{2}, q{3}",
    "veor": "veor q{1}, q{2}, q{3}",
    "vswp": "vswp d{1}, d{2}",
    "vmov": "vmov d{1}, d{2}",
    "vrev16": "vrev16.8 d{1}, d{2}",
    "vshl": "vshl.i16 d{1}, d{2}, #{3}",
    "vsri": "vsri.16 d{1}, d{2}, #{3}",
    "vld1": "vld1.16 {{d{1}, d{2}}}, [r1]!",
    "vst1": "vst1.16 {{d{1}, d{2}}}, [r0]!",
}


def emit(g, name):
    L = [f"    .globl {name}", f"    .type {name}, %function", "    .p2align 2", f".L{name}_rc:",
         f"    .word .L{name}_table - (.L{name}_pc + 8)", f"{name}:",
         "    @ r0: the batch (8 words of 16 bytes, updated in place)",
         "    vpush {d8-d15}", f"    ldr r1, .L{name}_rc", f".L{name}_pc:", "    add r1, pc, r1"]
    for op in g.ir:
        n = op[0]
        if n == "vldm":
            L.append("    vld1.16 {d0-d3}, [r0]!")
            L.append("    vld1.16 {d4-d7}, [r0]!")
            L.append("    vld1.16 {d8-d11}, [r0]!")
            L.append("    vld1.16 {d12-d15}, [r0]")
            L.append("    sub r0, r0, #96")
        else:
            L.append("    " + ASM[n].format(*op))
    L += ["    vpop {d8-d15}", "    bx lr", f"    .size {name}, . - {name}"]
    L += ["    .p2align 3", f".L{name}_table:"]
    for i in range(0, len(g.table), 8):
        L.append("    .short " + ", ".join(f"0x{v:04x}" for v in g.table[i:i + 8]))
    return L


def generate():
    gens = (Gen(False).build(), Gen(True).build())
    check(gens, random.Random(1))
    fns = [emit(gens[0], "slicewise_proest_neon7_p128"), emit(gens[1], "slicewise_proest_neon7_i128")]
    # every instruction of the function, prologue and epilogue included (not labels, directives
    # or the constant table)
    counts = [sum(1 for ln in f if ln.startswith("    ") and not ln.lstrip().startswith((".", "@"))) for f in fns]
    head = [
        "@ Generated by scripts/gen-neon7-proest.py: do not edit. Prøst-128 P and P^-1 on four",
        "@ lane-sliced states in ARMv7 NEON (word k: lane k of the states | lane k + 8).",
        f"@ P: {counts[0]} instructions, P^-1: {counts[1]} (prologue, loads and stores included).",
        "    .syntax unified",
        "    .arm",
        "    .fpu neon",
        "    .text",
    ]
    body = fns[0] + fns[1]
    return "\n".join(head + body) + "\n", counts


def main():
    text, counts = generate()
    if "--check" in sys.argv:
        cur = open(OUT, encoding="utf-8").read() if os.path.exists(OUT) else ""
        if cur != text:
            sys.exit(f"{os.path.relpath(OUT, ROOT)} is out of date: run scripts/gen-neon7-proest.py")
        print(f"{os.path.relpath(OUT, ROOT)} is what this script generates, and the program checks out")
        return
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {os.path.relpath(OUT, ROOT)}: P {counts[0]}, P^-1 {counts[1]} instructions per batch of 4 states")


if __name__ == "__main__":
    main()
