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

The modes' `em_many` layers get loops of their own (`em_loop`, one per direction and mask-in /
mask-out / post combination, as in `arm11.S`): four word-aligned blocks per batch are loaded as
they are, XORed and transposed into the layout above in registers, permuted by a local copy of
the rounds and transposed back; the masks, the XORs and the sums are in the loop too. They are
run by `gen-arm11-proest.py`'s ARM interpreter with the NEON instructions added (`NeonMachine`)
on random jobs and compared with the reference before the file is written.

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

    def __init__(self, inverse, reg=None):
        self.inverse = inverse
        self.ir = []
        self.table = []  # 16-bit constants in load order
        self.reg = dict(reg) if reg else {k: k for k in range(8)}
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

    def build(self, core=False):
        """The function's IR; with `core`, the rounds only (the words in their registers on
        entry, and on return with their halves in order)."""
        if not core:
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
            if not core:
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


# --- em_many loops: four blocks per batch ---------------------------------------------------
# slicewise_proest_neon7_em128_{p,i}{mask_in}{mask_out}{post}(args, src, stride): the blocks
# from `src` up to `args.end`, four per batch (`neon7.rs`: `Em4Args`, the `arm11` em arguments
# followed by the three sums). Per batch: the four masks to stack slots and the next batch's to
# `args` (doublings in general registers, as in `arm11`'s loops); the four source blocks loaded
# as they are (block j in q2j, q2j + 1), summed, XORed with the key and the masks, and transposed
# into the batch layout (an 8 × 8 transpose of 16-bit lanes: 4 VTRN.16, 4 VTRN.32, 4 VSWP); a
# local copy of the rounds (`bl`); the transpose back; per block the output constants, the
# mask, the post block (also summed), the output sum and the store.
EM_SUMS = 112  # offset of the sums (source, post, output: 8 words each) in `Em4Args`
EM_IN = {0: 0, 1: 2, 2: 4, 3: 6, 4: 1, 5: 3, 6: 5, 7: 7}  # word k's q register after the transpose
CORE = ".Lslicewise_proest_neon7_core128"


def core_lines(g, table_label):
    """The rounds of `g` (built with `core=True`) as a local subroutine; clobbers r1."""
    name = CORE + ("_inv" if g.inverse else "")
    L = ["    .p2align 2", f"{name}_rc:", f"    .word {table_label} - ({name}_pc + 8)", f"{name}:",
         f"    ldr r1, {name}_rc", f"{name}_pc:", "    add r1, pc, r1"]
    L += ["    " + ASM[op[0]].format(*op) for op in g.ir]
    return L + ["    bx lr"]


def transpose(rows):
    """The 8 × 8 transpose of 16-bit lanes in place: row register i gets column i."""
    r = rows
    L = [f"vtrn.16 q{r[i]}, q{r[i + 1]}" for i in (0, 2, 4, 6)]
    L += [f"vtrn.32 q{r[i]}, q{r[i + 2]}" for i in (0, 1, 4, 5)]
    return L + [f"vswp d{2 * r[i] + 1}, d{2 * r[i + 4]}" for i in range(4)]


def ld32(op, qa, qb, addr, step=""):
    """VLD1/VST1 (`op`) of 32 bytes into (from) qa, qb at [addr]: one instruction if the
    registers are consecutive, else two, the first with writeback; `step` is the address update
    of the last one ("!", or ", rM": rM must then hold the step, less 16 with two instructions)."""
    if qb == qa + 1:
        return [f"{op}.32 {{d{2 * qa}-d{2 * qb + 1}}}, [{addr}]{step}"]
    return [f"{op}.32 {{d{2 * qa}, d{2 * qa + 1}}}, [{addr}]!", f"{op}.32 {{d{2 * qb}, d{2 * qb + 1}}}, [{addr}]{step}"]


def pairs_of(free):
    """The free q registers in pairs, consecutive ones first."""
    free, out = sorted(free), []
    for q in list(free):
        if q in free and q + 1 in free:
            out.append((q, q + 1))
            free.remove(q)
            free.remove(q + 1)
    return out + list(zip(free[0::2], free[1::2]))


def em_loop(inverse, mi, mo, po, out):
    """The em loop of one variant; `out[k]` is word k's q register after the core."""
    name = f"slicewise_proest_neon7_em128_{'i' if inverse else 'p'}{mi}{mo}{po}"
    L = [f"    .globl {name}", f"    .type {name}, %function", "    .p2align 2", f"{name}:",
         "    @ r0: Em4Args, r1: source block 0, r2: the stride; r11: the batch's source blocks, r12: the",
         "    @ stride, r10: the stride - 16, sp: the four masks"]
    e = lambda *xs: L.extend("    " + x for x in xs)
    e("push {r4-r11, lr}", "vpush {d8-d15}", "sub sp, sp, #128", "mov r11, r1", "mov r12, r2")
    L.append(f".L{name}_loop:")
    # the masks, in r3-r10 (r1: the polynomial, r2: the reduction, lr: the slots)
    e(f"ldr r1, [r0, #{A.EM_POLY}]", "ldm r0, {r3-r10}")
    if mi or mo:
        e("mov lr, sp")
    for _ in range(4):
        if mi or mo:
            e("stm lr!, {r3-r10}")
        e("adds r3, r3, r3", *[f"adcs r{k}, r{k}, r{k}" for k in range(4, 11)],
          "sbc r2, r2, r2", "bic r2, r1, r2", "eor r3, r3, r2")
    e("stm r0, {r3-r10}", "sub r10, r12, #16")
    # block j in q2j, q2j + 1; the source sum in q10, q11; the key in q8, q9; a mask in q12, q13
    e(f"add r1, r0, #{A.EM_PRE}", "vld1.32 {d16-d19}, [r1]", f"add r1, r0, #{EM_SUMS}", "vld1.32 {d20-d23}, [r1]",
      "mov r1, r11")
    if mi:
        e("mov lr, sp")
    for j in range(4):
        a, b = 2 * j, 2 * j + 1
        e(f"vld1.32 {{d{2 * a}-d{2 * b + 1}}}, [r1], r12", f"veor q10, q10, q{a}", f"veor q11, q11, q{b}",
          f"veor q{a}, q{a}, q8", f"veor q{b}, q{b}, q9")
        if mi:
            e("vld1.32 {d24-d27}, [lr]!", f"veor q{a}, q{a}, q12", f"veor q{b}, q{b}, q13")
    e(f"add r1, r0, #{EM_SUMS}", "vst1.32 {d20-d23}, [r1]")
    e(*transpose([EM_IN[k] for k in range(8)]))
    e(f"bl {CORE}{'_inv' if inverse else ''}")
    e(*transpose([out[k] for k in range(8)]))
    # block j's output in out[j], out[4 + j]; the free registers for a temporary, the output
    # constants and the sums
    tmp, pc, osum, psum = pairs_of(q for q in range(16) if q not in out.values())
    e(f"add r1, r0, #{A.EM_POSTC}", *ld32("vld1", *pc, "r1"), f"add r1, r0, #{EM_SUMS + 64}", *ld32("vld1", *osum, "r1"))
    if po:
        e(f"add r1, r0, #{EM_SUMS + 32}", *ld32("vld1", *psum, "r1"), f"ldr r2, [r0, #{A.EM_PDELTA}]", "add r2, r2, r11")
    e(f"ldr r3, [r0, #{A.EM_DDELTA}]", "add r3, r3, r11")
    if mo:
        e("mov lr, sp")
    stride = lambda qa, qb: ", r12" if qb == qa + 1 else ", r10"
    for j in range(4):
        a, b = out[j], out[4 + j]
        e(f"veor q{a}, q{a}, q{pc[0]}", f"veor q{b}, q{b}, q{pc[1]}")
        if mo:
            e(*ld32("vld1", *tmp, "lr", "!"), f"veor q{a}, q{a}, q{tmp[0]}", f"veor q{b}, q{b}, q{tmp[1]}")
        if po:
            e(*ld32("vld1", *tmp, "r2", stride(*tmp)), f"veor q{psum[0]}, q{psum[0]}, q{tmp[0]}",
              f"veor q{psum[1]}, q{psum[1]}, q{tmp[1]}", f"veor q{a}, q{a}, q{tmp[0]}", f"veor q{b}, q{b}, q{tmp[1]}")
        e(f"veor q{osum[0]}, q{osum[0]}, q{a}", f"veor q{osum[1]}, q{osum[1]}, q{b}", *ld32("vst1", a, b, "r3", stride(a, b)))
    e(f"add r1, r0, #{EM_SUMS + 64}", *ld32("vst1", *osum, "r1"))
    if po:
        e(f"add r1, r0, #{EM_SUMS + 32}", *ld32("vst1", *psum, "r1"))
    e("add r11, r11, r12, lsl #2", f"ldr r1, [r0, #{A.EM_END}]", "cmp r11, r1", f"bne .L{name}_loop")
    if mi or mo:  # wipe the mask slots
        e("vmov.i32 q8, #0", "vmov.i32 q9, #0", "mov lr, sp", *["vst1.32 {d16-d19}, [lr]!"] * 4)
    e("add sp, sp, #128", "vpop {d8-d15}", "pop {r4-r11, pc}")
    L.append(f"    .size {name}, . - {name}")
    return L


class NeonMachine(A.Machine):
    """`gen-arm11-proest.py`'s interpreter with the NEON instructions of the em loops and the
    rounds: d registers as 64-bit integers, 16-bit lanes little-endian."""

    def __init__(self, lines, table_addr):
        super().__init__(lines, table_addr)
        self.D = [0] * 32

    @staticmethod
    def dlist(s):
        regs = []
        for part in s.strip("{} ").split(","):
            lo, _, hi = part.strip().partition("-")
            regs += list(range(int(lo[1:]), int((hi or lo)[1:]) + 1))
        assert regs == list(range(regs[0], regs[0] + len(regs))), s
        return regs

    def lanes(self, d, bits):
        return [(self.D[d] >> (bits * i)) & ((1 << bits) - 1) for i in range(64 // bits)]

    def set_lanes(self, d, xs, bits):
        self.D[d] = sum(x << (bits * i) for i, x in enumerate(xs))

    def extra(self, op, rest):
        name = op.split(".")[0]
        M = 0xFFFF
        if name in ("vpush", "vpop"):
            regs = self.dlist(rest)
            if name == "vpush":
                self.R["sp"] -= 8 * len(regs)
            for k, d in enumerate(regs):
                addr = self.R["sp"] + 8 * k
                if name == "vpush":
                    self.mem[addr], self.mem[addr + 4] = self.D[d] & A.M32, self.D[d] >> 32
                else:
                    self.D[d] = self.mem[addr] | self.mem[addr + 4] << 32
            if name == "vpop":
                self.R["sp"] += 8 * len(regs)
            return True
        if name in ("vld1", "vst1"):
            lst, _, where = rest.partition("}")
            regs = self.dlist(lst + "}")
            parts = [x.strip() for x in where.strip(", ").split(",")]
            base = parts[0].strip("[]!")
            addr = self.R[base]
            assert addr % 4 == 0, rest
            for k, d in enumerate(regs):
                a = addr + 8 * k
                if name == "vld1":
                    self.D[d] = self.mem[a] | self.mem[a + 4] << 32
                else:
                    self.mem[a], self.mem[a + 4] = self.D[d] & A.M32, self.D[d] >> 32
            if parts[0].endswith("!"):
                self.R[base] = (addr + 8 * len(regs)) & A.M32
            elif len(parts) > 1:
                self.R[base] = (addr + self.R[parts[1]]) & A.M32
            return True
        a = [x.strip() for x in rest.split(",")]
        n = lambda x: int(x[1:])
        if name in ("veor", "vand"):
            for h in (0, 1):
                x, y = self.D[2 * n(a[1]) + h], self.D[2 * n(a[2]) + h]
                self.D[2 * n(a[0]) + h] = x ^ y if name == "veor" else x & y
        elif name == "vtrn":
            bits = int(op.split(".")[1])
            for h in (0, 1):
                da, db = 2 * n(a[0]) + h, 2 * n(a[1]) + h
                x, y = self.lanes(da, bits), self.lanes(db, bits)
                for i in range(0, len(x), 2):
                    x[i + 1], y[i] = y[i], x[i + 1]
                self.set_lanes(da, x, bits)
                self.set_lanes(db, y, bits)
        elif name == "vswp":
            self.D[n(a[0])], self.D[n(a[1])] = self.D[n(a[1])], self.D[n(a[0])]
        elif op == "vmov.i32" and a[1] == "#0":
            self.D[2 * n(a[0])] = self.D[2 * n(a[0]) + 1] = 0
        elif name == "vmov":
            self.D[n(a[0])] = self.D[n(a[1])]
        elif name == "vrev16":
            self.set_lanes(n(a[0]), [((v >> 8) | (v << 8)) & M for v in self.lanes(n(a[1]), 16)], 16)
        elif name == "vshl":
            self.set_lanes(n(a[0]), [(v << n(a[2])) & M for v in self.lanes(n(a[1]), 16)], 16)
        elif name == "vsri":
            k = n(a[2])
            keep = (M << (16 - k)) & M
            self.set_lanes(n(a[0]), [(u & keep) | (v >> k) for u, v in
                                     zip(self.lanes(n(a[0]), 16), self.lanes(n(a[1]), 16))], 16)
        else:
            return False
        return True


def check_em(lines, tables, rng):
    """Every em loop against the reference Prøst-128 on random jobs of 1 and 2 batches: strides
    32, 36 and 64, outputs in place of the source or the post blocks, masks that need the
    reduction, sums added to what `args` held; registers d8-d15 and r4-r11 preserved."""
    TABLE, ARGS, SRC, POST, DST = 0x1000, 0x2000, 0x10000, 0x20008, 0x30004
    for inverse in (False, True):
        for (mi, mo, po) in A.EM_VARIANTS:
            name = f"slicewise_proest_neon7_em128_{'i' if inverse else 'p'}{mi}{mo}{po}"
            for n, stride, dst, post in ((4, 32, DST, POST), (8, 36, SRC, POST), (4, 64, DST, DST), (8, 32, DST, POST)):
                m = NeonMachine(lines, TABLE)
                table = tables[inverse]
                for k in range(0, len(table), 2):
                    m.mem[TABLE + 2 * k] = table[k] | table[k + 1] << 16
                pre, postc, mask, masks, srcs, posts, want = A.em_reference(rng, n, inverse, mi, mo, po)
                sums0 = [[rng.randrange(1 << 32) for _ in range(8)] for _ in range(3)]
                for j in range(n):
                    for i in range(8):
                        m.mem[post + j * stride + 4 * i] = posts[j][i]
                        m.mem[SRC + j * stride + 4 * i] = srcs[j][i]
                sums = [s[:] for s in sums0]
                for j in range(n):
                    for i in range(8):
                        sums[0][i] ^= srcs[j][i]
                        sums[1][i] ^= posts[j][i] if po else 0
                        sums[2][i] ^= want[j][i]
                for i, w in enumerate(mask + pre + postc):
                    m.mem[ARGS + 4 * i] = w
                m.mem[ARGS + A.EM_END] = SRC + n * stride
                m.mem[ARGS + A.EM_DDELTA] = (dst - SRC) & A.M32
                m.mem[ARGS + A.EM_PDELTA] = (post - SRC) & A.M32
                m.mem[ARGS + A.EM_POLY] = 0x425
                for i, w in enumerate(sum(sums0, [])):
                    m.mem[ARGS + EM_SUMS + 4 * i] = w
                for r in ("r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12"):
                    m.R[r] = rng.randrange(1 << 32)
                m.D = [rng.randrange(1 << 64) for _ in range(32)]
                saved = {r: m.R[r] for r in ("r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "sp")}
                saved_d = m.D[8:16]
                m.call(name, ARGS, SRC, stride)
                got = [[m.mem[dst + j * stride + 4 * i] for i in range(8)] for j in range(n)]
                what = f"{name} (n = {n}, stride {stride})"
                assert got == want, f"{what} disagrees with the reference"
                assert [m.mem[ARGS + 4 * i] for i in range(8)] == masks[n], f"{what}: final mask"
                assert [m.mem[ARGS + EM_SUMS + 4 * i] for i in range(24)] == sum(sums, []), f"{what}: sums"
                assert all(m.R[r] == v for r, v in saved.items()), f"{what}: callee-saved registers"
                assert m.D[8:16] == saved_d, f"{what}: d8-d15"
                below = range(m.R["sp"] - 228, m.R["sp"] - 100, 4)
                assert not (mi or mo) or all(m.mem[x] == 0 for x in below), f"{what}: the mask slots are not wiped"


def generate():
    gens = (Gen(False).build(), Gen(True).build())
    check(gens, random.Random(1))
    fns = [emit(gens[0], "slicewise_proest_neon7_p128"), emit(gens[1], "slicewise_proest_neon7_i128")]
    # every instruction of the function, prologue and epilogue included (not labels, directives
    # or the constant table)
    count = lambda f: sum(1 for ln in f if ln.startswith("    ") and not ln.lstrip().startswith((".", "@")))
    counts = [count(f) for f in fns]
    # the em loops: the rounds from the transposed registers, sharing the functions' tables
    em = []
    for g, fname in zip(gens, ("slicewise_proest_neon7_p128", "slicewise_proest_neon7_i128")):
        c = Gen(g.inverse, EM_IN).build(core=True)
        assert c.table == g.table, "the core's constants differ from the function's"
        em += core_lines(c, f".L{fname}_table")
        for (mi, mo, po) in A.EM_VARIANTS:
            em += em_loop(g.inverse, mi, mo, po, c.reg)
    check_em(em, [g.table for g in gens], random.Random(2))
    core_p = count(em[:em.index("    bx lr") + 1])
    loop = count(em_loop(False, 1, 0, 1, Gen(False, EM_IN).build(core=True).reg))
    head = [
        "@ Generated by scripts/gen-neon7-proest.py: do not edit. Prøst-128 P and P^-1 on four",
        "@ lane-sliced states in ARMv7 NEON (word k: lane k of the states | lane k + 8).",
        f"@ P: {counts[0]} instructions, P^-1: {counts[1]} (prologue, loads and stores included).",
        "@ The em_many loops, slicewise_proest_neon7_em128_{p,i}{mask_in}{mask_out}{post}(args, src, stride):",
        f"@ four blocks per batch, {loop} instructions (OTR's p101) besides a local copy of the rounds ({core_p}).",
        "    .syntax unified",
        "    .arm",
        "    .fpu neon",
        "    .text",
    ]
    body = fns[0] + fns[1] + em
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
