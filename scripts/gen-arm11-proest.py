#!/usr/bin/env python3
"""Generates crates/proest/src/backend/arm11.S: Prøst P and P^-1 in ARMv6 assembly.

The technique of Wiggers' "Prøst on ARM11" (../shared/papers/proest-arm11.txt), fully unrolled:
- two 16-bit lanes per 32-bit register: register word k holds lane k (low half) and lane k + 8
  (high half), so that the S-box and MixSlices act on whole words (as in the `u32x2` backend);
- SubRows: 8 instructions per row of 4 words (AND/EOR), results left in renamed registers;
- MixSlices: an in-place program of XORs between the 8 state registers, where the second
  operand may be rotated by 16 in the barrel shifter for free (`eor rd, rd, rm, ror #16`
  swaps the lanes of rm). MixSlices has block form [[A, B], [B, A]], so it is an 8x8 matrix
  over GF(2)[S]/(S^2 + 1) (S = swap), and row operations x_i ^= x_j / x_i ^= S x_j reduce it
  to a permutation. `--search` repeats the randomized greedy search that found MIX_OPS;
- ShiftPlanes: each half rotated on its own with PKHBT/PKHTB (2 instructions per half);
- AddConstants: one load and one XOR per word from a table of paired round constants.
Every value lives in r1-r8 (state), r9 (temporary) and r10 (constant table); nothing is
spilled. The script checks the program it writes by interpreting it against a reference
Prøst-128 on random states before writing the file.

  scripts/gen-arm11-proest.py            # writes the .S file
  scripts/gen-arm11-proest.py --search   # re-runs the MixSlices search (seed 1) first
  scripts/gen-arm11-proest.py --check    # checks the program, and that the file is up to date
"""
import os
import random
import sys

# --- Reference Prøst-128 (as crates/proest/src/backend/portable.rs) --------------------------
C128 = [0x7581, 0xB2C5]
SHIFTS = [[0, 2, 4, 6], [0, 1, 8, 9]]
M = [
    [0, 4, 7, 10, 12, 14, 15], [1, 4, 11, 12, 15], [2, 5, 8, 9, 12], [3, 6, 9, 10, 13],
    [0, 3, 4, 8, 10, 11, 14], [0, 5, 8, 11, 15], [1, 6, 8, 12, 13], [2, 7, 9, 13, 14],
    [2, 4, 6, 7, 8, 12, 15], [3, 4, 7, 9, 12], [0, 1, 4, 10, 13], [1, 2, 5, 11, 14],
    [0, 2, 3, 6, 8, 11, 12], [0, 3, 7, 8, 13], [0, 4, 5, 9, 14], [1, 5, 6, 10, 15],
]
MASK = 0xFFFF


def rotl16(x, n):
    n %= 16
    return ((x << n) | (x >> (16 - n))) & MASK if n else x


def rc(r, k):
    return rotl16(C128[k % 2], (r + k) % 16)


def sub_rows_mix(s):
    """SubRows then MixSlices on 16 lanes of any width."""
    s = s[:]
    for b in (0, 4, 8, 12):
        a, bb, c, d = s[b:b + 4]
        a2 = c ^ (a & bb)
        b2 = d ^ (bb & c)
        c2 = a ^ (a2 & b2)
        d2 = bb ^ (b2 & c2)
        s[b:b + 4] = [a2, b2, c2, d2]
    y = [0] * 16
    for i, row in enumerate(M):
        for c in row:
            y[i] ^= s[c]
    return y


def ref_round(s, r):
    y = sub_rows_mix(s)
    t = SHIFTS[r % 2]
    return [rotl16(y[k], 16 - t[k // 4]) ^ rc(r, k) for k in range(16)]


def ref_permute(s):
    for r in range(16):
        s = ref_round(s, r)
    return s


C256 = [0x75817B9D, 0xB2C5FEF0]
SHIFTS256 = [[0, 4, 12, 26], [1, 24, 26, 31]]
M32 = 0xFFFFFFFF


def rotl32(x, n):
    n %= 32
    return ((x << n) | (x >> (32 - n))) & M32 if n else x


def rc256(r, k):
    return rotl32(C256[k % 2], r + k)


def ref_permute256(s):
    for r in range(18):
        y = sub_rows_mix(s)
        t = SHIFTS256[r % 2]
        s = [rotl32(y[k], 32 - t[k // 4]) ^ rc256(r, k) for k in range(16)]
    return s


# --- The in-place paired MixSlices program ---------------------------------------------------
# (i, j, s): word i ^= word j, with the halves of word j swapped when s = 1. Applying the ops in
# this order to M (row operations) gives a paired permutation matrix; see mix_program().
MIX_OPS = [(4, 5, 0), (0, 4, 0), (1, 0, 1), (6, 1, 0), (0, 5, 1), (2, 0, 0), (7, 2, 0), (1, 0, 0),
           (3, 1, 1), (2, 1, 1), (7, 6, 1), (5, 7, 1), (3, 6, 0), (4, 3, 0), (3, 2, 1), (4, 7, 1),
           (4, 6, 1), (0, 4, 1), (5, 0, 0), (5, 3, 1), (0, 5, 1), (4, 0, 0), (1, 0, 0)]


def row_op(rows, i, j, s):
    r = rows[:]
    if s == 0:
        r[i] ^= rows[j]
        r[i + 8] ^= rows[j + 8]
    else:
        r[i] ^= rows[j + 8]
        r[i + 8] ^= rows[j]
    return r


def paired_perm(rows):
    """pi with rows[i] = e_pi(i), rows[i + 8] = e_pi(i)+8 for all i, or None."""
    pi = []
    for i in range(8):
        a, b = rows[i], rows[i + 8]
        if a == 0 or a & (a - 1) or a >= 256 or b != a << 8:
            return None
        pi.append(a.bit_length() - 1)
    return pi if sorted(pi) == list(range(8)) else None


def search(seed=1, iterations=3000):
    rng = random.Random(seed)
    rows0 = [sum(1 << c for c in row) for row in M]
    best = None
    for _ in range(iterations):
        temp = rng.choice([0.5, 1, 2, 3, 4])
        rows, prog = rows0[:], []
        for _ in range(80):
            if paired_perm(rows):
                break
            cands = []
            for i in range(8):
                for j in range(8):
                    if i != j:
                        for s in (0, 1):
                            r = row_op(rows, i, j, s)
                            cands.append((sum(bin(x).count("1") for x in r) + rng.random() * temp, i, j, s, r))
            _, i, j, s, rows = min(cands)
            prog.append((i, j, s))
        if paired_perm(rows) and (best is None or len(prog) < len(best)):
            best = prog
    return best


def mix_program():
    """E_t ... E_1 M = P, and every E is an involution, so M = E_1 ... E_t P:
    rename by P first, then apply the ops from last to first."""
    rows = [sum(1 << c for c in row) for row in M]
    for op in MIX_OPS:
        rows = row_op(rows, *op)
    pi = paired_perm(rows)
    assert pi is not None, "MIX_OPS does not reduce M to a paired permutation"
    return pi, list(reversed(MIX_OPS))


# --- Code generation -------------------------------------------------------------------------
class Gen:
    def __init__(self, t="r9", tab="r10"):
        self.out = []
        self.reg = {}  # logical word -> physical register
        self.t = t  # the temporary
        self.tab = tab  # the round-constant table pointer

    def emit(self, s):
        self.out.append("    " + s)

    def sbox(self):
        for base in (0, 4):
            a, b, c, d = (self.reg[base + i] for i in range(4))
            for (dst, x, y) in ((d, b, c), (c, a, b), (a, c, d), (b, d, a)):
                self.emit(f"and {self.t}, {x}, {y}")
                self.emit(f"eor {dst}, {dst}, {self.t}")
            self.reg[base], self.reg[base + 1], self.reg[base + 2], self.reg[base + 3] = c, d, a, b

    def mix(self):
        pi, ops = mix_program()
        # rename: logical word i now names what was logical word pi(i)
        self.reg = {i: self.reg[pi[i]] for i in range(8)}
        for (i, j, s) in ops:
            self.emit(f"eor {self.reg[i]}, {self.reg[i]}, {self.reg[j]}" + (", ror #16" if s else ""))

    def rotr_halves(self, k, lo, hi):
        w = self.reg[k]
        t = self.t
        if lo:
            self.emit(f"pkhbt {t}, {w}, {w}, lsl #16")
            self.emit(f"pkhtb {w}, {w}, {t}, asr #{lo}")
        if hi:
            self.emit(f"pkhtb {t}, {w}, {w}, asr #16")
            self.emit(f"pkhbt {w}, {w}, {t}, lsl #{16 - hi}")

    def shift(self, r, inverse):
        t = SHIFTS[r % 2]
        for k in range(8):
            lo, hi = t[k // 4], t[k // 4 + 2]
            if inverse:
                lo, hi = (16 - lo) % 16, (16 - hi) % 16
            self.rotr_halves(k, lo, hi)

    def constants(self, r):
        for k in range(8):
            self.emit(f"ldr {self.t}, [{self.tab}, #{4 * (8 * r + k)}]")
            self.emit(f"eor {self.reg[k]}, {self.reg[k]}, {self.t}")

    def load(self):
        # Halfword accesses: a `[u16; 16]` is only 2-byte aligned.
        self.reg = {k: f"r{k + 1}" for k in range(8)}
        for k in range(8):
            self.emit(f"ldrh {self.reg[k]}, [r0, #{2 * k}]")
            self.emit(f"ldrh r9, [r0, #{16 + 2 * k}]")
            self.emit(f"orr {self.reg[k]}, {self.reg[k]}, r9, lsl #16")

    def store(self):
        for k in range(8):
            w = self.reg[k]
            self.emit(f"strh {w}, [r0, #{2 * k}]")
            self.emit(f"lsr r9, {w}, #16")
            self.emit(f"strh r9, [r0, #{16 + 2 * k}]")

    def function(self, name, inverse):
        self.out += [f"    .globl {name}", f"    .type {name}, %function", "    .p2align 2", f".L{name}_rc:",
                     f"    .word .Lslicewise_arm11_rc - (.L{name}_pc + 8)", f"{name}:"]
        self.emit("push {r4-r11}")
        self.load()
        self.emit(f"ldr r10, .L{name}_rc")
        self.out.append(f".L{name}_pc:")
        self.emit("add r10, pc, r10")
        self.rounds(inverse)
        self.store()
        self.emit("pop {r4-r11}")
        self.emit("bx lr")
        self.out.append(f"    .size {name}, . - {name}")

    def rounds(self, inverse):
        for r in (range(15, -1, -1) if inverse else range(16)):
            self.out.append(f"    @ round {r}")
            if inverse:
                self.constants(r)
                self.shift(r, True)
                self.mix()
                self.sbox()
            else:
                self.sbox()
                self.mix()
                self.shift(r, False)
                self.constants(r)


# --- The Even–Mansour loops of the `em_many` path (`backend/arm11.rs`) -------------------------
# One block per iteration, all sequences word-aligned (checked by the caller): the S-byte block
# is read with one LDM as natural little-endian words (A0..A3 = bytes 0..15, B0..B3 = 16..31),
# XORed there with `pre` and the mask, paired with 8 PKHBT/PKHTB (word k = lane k | lane k + 8,
# the layout of the rounds), permuted by a local copy of the rounds (`bl` to a core), unpaired,
# XORed with `post_const`, the mask and the post block, and stored with one STM; the mask is then
# doubled in GF(2^256) with an ADDS/ADCS chain and a flag-derived reduction (no branch).
# The argument block (`EmArgs` in arm11.rs), r0:
EM_MASK, EM_PRE, EM_POSTC, EM_END, EM_DDELTA, EM_PDELTA, EM_POLY = 0, 32, 64, 96, 100, 104, 108
# Natural words in r1-r8 paired into: word k in CORE_IN[k]; the core's temporary is r4.
CORE_IN = ["r9", "r5", "r1", "r6", "r2", "r7", "r3", "r8"]
PAIR = ["pkhbt r9, r1, r5, lsl #16", "pkhtb r5, r5, r1, asr #16", "pkhbt r1, r2, r6, lsl #16",
        "pkhtb r6, r6, r2, asr #16", "pkhbt r2, r3, r7, lsl #16", "pkhtb r7, r7, r3, asr #16",
        "pkhbt r3, r4, r8, lsl #16", "pkhtb r8, r8, r4, asr #16"]
EM_VARIANTS = [(mi, mo, po) for mi in (0, 1) for mo in (0, 1) for po in (0, 1)]


def rnum(r):
    return int(r[1:])


def core128(inverse):
    """The rounds as a local subroutine: words in CORE_IN, returns (lines, output registers)."""
    name = ".Lslicewise_arm11_core128" + ("_inv" if inverse else "")
    g = Gen(t="r4")
    g.out += ["    .p2align 2", f"{name}_rc:", f"    .word .Lslicewise_arm11_rc - ({name}_pc + 8)", f"{name}:"]
    g.reg = {k: CORE_IN[k] for k in range(8)}
    g.emit(f"ldr r10, {name}_rc")
    g.out.append(f"{name}_pc:")
    g.emit("add r10, pc, r10")
    g.rounds(inverse)
    g.emit("bx lr")
    return g.out, [g.reg[k] for k in range(8)]


def unpair_plan(w):
    """PKHBT/PKHTB from paired words (registers w[0..7]) back to natural words A0..A3, B0..B3,
    in registers whose numbers ascend in that order (for one STM), with r4 and r10 free at the
    start. Returns (instructions, [A0..A3, B0..B3] registers, the two free registers)."""
    import itertools
    best = None
    for order in itertools.permutations(range(4)):
        def rec(idx, free, assign, code):
            nonlocal best
            if best is not None:
                return
            if idx == 4:
                regs = [assign[("A", i)] for i in range(4)] + [assign[("B", i)] for i in range(4)]
                if all(rnum(x) < rnum(y) for x, y in zip(regs, regs[1:])):
                    best = (code, regs, sorted(free, key=rnum))
                return
            i = order[idx]
            a, b = w[2 * i], w[2 * i + 1]
            for first in "AB":
                for f in sorted(free, key=rnum):
                    for x in (a, b):
                        if first == "A":
                            c = [f"pkhbt {f}, {a}, {b}, lsl #16", f"pkhtb {x}, {b}, {a}, asr #16"]
                            asg = {("A", i): f, ("B", i): x}
                        else:
                            c = [f"pkhtb {f}, {b}, {a}, asr #16", f"pkhbt {x}, {a}, {b}, lsl #16"]
                            asg = {("B", i): f, ("A", i): x}
                        nfree = (free - {f}) | ({a, b} - {x})
                        rec(idx + 1, nfree, {**assign, **asg}, code + c)
        rec(0, {"r4", "r10"}, {}, [])
        if best:
            return best
    raise SystemExit("no unpairing into ascending registers: extend unpair_plan")


def em_loop(inverse, mask_in, mask_out, post, out_regs):
    """void name(EmArgs *r0, const u8 *src, usize stride): blocks from src to END."""
    name = f"slicewise_proest_arm11_em128_{'i' if inverse else 'p'}{mask_in}{mask_out}{post}"
    core = ".Lslicewise_arm11_core128" + ("_inv" if inverse else "")
    out = [f"    .globl {name}", f"    .type {name}, %function", "    .p2align 2", f"{name}:"]
    emit = lambda x: out.append("    " + x)

    def xor_mem(off, regs, t1, t2, addr=None):
        if addr is None:
            emit(f"add lr, r0, #{off}" if off else "mov lr, r0")
        for i in range(0, 8, 2):
            emit(f"ldm lr!, {{{t1}, {t2}}}")
            emit(f"eor {regs[i]}, {regs[i]}, {t1}")
            emit(f"eor {regs[i + 1]}, {regs[i + 1]}, {t2}")

    emit("push {r4-r11, lr}")
    emit("mov r11, r1")
    emit("mov r12, r2")
    out.append(f".L{name}_loop:")
    nat = [f"r{k + 1}" for k in range(8)]
    emit("ldm r11, {r1-r8}")
    xor_mem(EM_PRE, nat, "r9", "r10")
    if mask_in:
        xor_mem(EM_MASK, nat, "r9", "r10")
    for x in PAIR:
        emit(x)
    emit(f"bl {core}")
    code, regs, (f1, f2) = unpair_plan(out_regs)
    for x in code:
        emit(x)
    xor_mem(EM_POSTC, regs, f1, f2)
    if mask_out:
        xor_mem(EM_MASK, regs, f1, f2)
    if post:
        emit(f"ldr lr, [r0, #{EM_PDELTA}]")
        emit("add lr, lr, r11")
        xor_mem(None, regs, f1, f2, addr="lr")
    emit(f"ldr lr, [r0, #{EM_DDELTA}]")
    emit("add lr, lr, r11")
    emit(f"stm lr, {{{', '.join(regs)}}}")
    # the mask times 2: bit 255 leaves in the carry; r9 = C - 1, so POLY & ~r9 = C ? POLY : 0
    emit("ldm r0, {r1-r8}")
    emit("adds r1, r1, r1")
    for k in range(2, 9):
        emit(f"adcs r{k}, r{k}, r{k}")
    emit("sbc r9, r9, r9")
    emit(f"ldr r10, [r0, #{EM_POLY}]")
    emit("bic r9, r10, r9")
    emit("eor r1, r1, r9")
    emit("stm r0, {r1-r8}")
    emit("add r11, r11, r12")
    emit(f"ldr r9, [r0, #{EM_END}]")
    emit("cmp r11, r9")
    emit(f"bne .L{name}_loop")
    emit("pop {r4-r11, pc}")
    out.append(f"    .size {name}, . - {name}")
    return out


def words_entry(inverse, out_regs):
    """void name(uint32_t state[8]): P (or P^-1) on a word-aligned state byte string."""
    name = "slicewise_proest_arm11_p128" + ("_inv" if inverse else "") + "_words"
    core = ".Lslicewise_arm11_core128" + ("_inv" if inverse else "")
    out = [f"    .globl {name}", f"    .type {name}, %function", "    .p2align 2", f"{name}:"]
    emit = lambda x: out.append("    " + x)
    emit("push {r4-r11, lr}")
    emit("ldm r0, {r1-r8}")
    for x in PAIR:
        emit(x)
    emit(f"bl {core}")
    code, regs, _ = unpair_plan(out_regs)
    for x in code:
        emit(x)
    emit(f"stm r0, {{{', '.join(regs)}}}")
    emit("pop {r4-r11, pc}")
    out.append(f"    .size {name}, . - {name}")
    return out


def check_words(lines, table, rng):
    TABLE, ST = 0x1000, 0x3000
    for inverse in (False, True):
        name = "slicewise_proest_arm11_p128" + ("_inv" if inverse else "") + "_words"
        for _ in range(4):
            m = Machine(lines, TABLE)
            for k, w in enumerate(table):
                m.mem[TABLE + 4 * k] = w
            x = [rng.randrange(1 << 32) for _ in range(8)]
            y = words_of_lanes(ref_permute(lanes_of_words(x)))
            src, want = (y, x) if inverse else (x, y)
            for i in range(8):
                m.mem[ST + 4 * i] = src[i]
            for r in ("r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12"):
                m.R[r] = rng.randrange(1 << 32)
            saved = {r: m.R[r] for r in ("r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "sp")}
            m.call(name, ST)
            assert [m.mem[ST + 4 * i] for i in range(8)] == want, f"{name} disagrees with the reference"
            assert all(m.R[r] == v for r, v in saved.items()), f"{name}: callee-saved registers"


class Machine:
    """An interpreter of the instructions the Prøst-128 code uses (word memory, flags C and Z),
    for the em loops and their cores: runs a function until it returns."""

    def __init__(self, lines, table_addr):
        self.prog, self.labels = [], {}
        for line in lines:
            s = line.strip()
            if not s or s.startswith(("@", ".word", ".globl", ".type", ".size", ".p2align")):
                continue
            if s.endswith(":"):
                self.labels[s[:-1]] = len(self.prog)
                continue
            self.prog.append(s.split("@")[0].strip())
        self.table_addr = table_addr
        self.R = {f"r{i}": 0 for i in range(13)}
        self.R.update(sp=0x7FFF0000, lr=0)
        self.mem = {}
        self.C = self.Z = 0

    def op2(self, a):
        """Value of a register operand with an optional shift ("r5", "lsl #16")."""
        v = self.R[a[0]]
        if len(a) == 1:
            return v
        kind, n = a[1].split(" #")
        n = int(n)
        if kind == "lsl":
            return (v << n) & M32
        if kind == "lsr":
            return v >> n
        if kind == "asr":
            return ((v - (1 << 32) if v >> 31 else v) >> n) & M32
        if kind == "ror":
            return ((v >> n) | (v << (32 - n))) & M32
        raise ValueError(a)

    def reglist(self, s):
        regs = []
        for part in s.strip("{} ").split(","):
            part = part.strip()
            if "-" in part:
                lo, hi = (int(x.strip()[1:]) for x in part.split("-"))
                regs += [f"r{k}" for k in range(lo, hi + 1)]
            else:
                regs.append(part)
        order = {**{f"r{k}": k for k in range(13)}, "sp": 13, "lr": 14, "pc": 15}
        assert [order[r] for r in regs] == sorted(order[r] for r in regs), s
        return regs

    def call(self, name, *args):
        for k, v in enumerate(args):
            self.R[f"r{k}"] = v & M32
        self.R["lr"] = RET = -1
        pc = self.labels[name]
        steps = 0
        while pc != RET:
            steps += 1
            s = self.prog[pc]
            pc += 1
            op, rest = s.split(None, 1)
            if op in ("push", "pop"):
                regs = self.reglist(rest)
                if op == "push":
                    for r in reversed(regs):
                        self.R["sp"] -= 4
                        self.mem[self.R["sp"]] = self.R[r]
                else:
                    for r in regs:
                        v = self.mem[self.R["sp"]]
                        self.R["sp"] += 4
                        if r == "pc":
                            pc = v
                        else:
                            self.R[r] = v
                continue
            if op in ("ldm", "stm"):
                base, lst = rest.split(",", 1)
                wb = base.endswith("!")
                base = base.rstrip("!").strip()
                regs = self.reglist(lst.strip())
                addr = self.R[base]
                assert addr % 4 == 0, s
                for k, r in enumerate(regs):
                    if op == "ldm":
                        self.R[r] = self.mem[addr + 4 * k]
                    else:
                        self.mem[addr + 4 * k] = self.R[r]
                if wb:
                    assert base not in regs
                    self.R[base] = addr + 4 * len(regs)
                continue
            a = [x.strip() for x in rest.replace("[", "").replace("]", "").split(",")]
            if op in ("bl", "bne", "b"):
                if op == "bl":
                    self.R["lr"] = pc
                if op != "bne" or not self.Z:
                    pc = self.labels[a[0]]
            elif op == "bx":
                pc = self.R[a[0]]
            elif op == "ldr" and a[1].startswith(".L"):
                self.R[a[0]] = 0  # the table's offset; `add rX, pc, rX` below gives its address
            elif op == "add" and a[1] == "pc":
                self.R[a[0]] = self.table_addr
            elif op in ("ldr", "str", "ldrh", "strh"):
                addr = (self.R[a[1]] + (int(a[2][1:]) if len(a) > 2 else 0)) & M32
                if op == "ldr":
                    assert addr % 4 == 0, s
                    self.R[a[0]] = self.mem[addr]
                elif op == "str":
                    assert addr % 4 == 0, s
                    self.mem[addr] = self.R[a[0]]
                elif op == "ldrh":
                    self.R[a[0]] = (self.mem[addr & ~3] >> (8 * (addr & 2))) & MASK
                else:
                    w, sh = self.mem.get(addr & ~3, 0), 8 * (addr & 2)
                    self.mem[addr & ~3] = (w & ~(MASK << sh) & M32) | ((self.R[a[0]] & MASK) << sh)
            elif op == "mov":
                self.R[a[0]] = self.op2(a[1:])
            elif op == "cmp":
                self.Z = int(self.R[a[0]] == self.op2(a[1:]))
            elif op in ("add", "adds", "adcs", "sbc", "sub"):
                x = self.R[a[1]]
                y = int(a[2][1:]) if a[2].startswith("#") else self.op2(a[2:])
                if op == "sub":
                    r = x - y
                elif op == "sbc":
                    r = x - y - (1 - self.C)
                else:
                    r = x + y + (self.C if op == "adcs" else 0)
                if op in ("adds", "adcs"):
                    self.C = r >> 32
                self.R[a[0]] = r & M32
            elif op in ("and", "eor", "orr", "bic"):
                x, y = self.R[a[1]], self.op2(a[2:])
                self.R[a[0]] = {"and": x & y, "eor": x ^ y, "orr": x | y, "bic": x & ~y & M32}[op]
            elif op == "lsr":
                self.R[a[0]] = self.R[a[1]] >> int(a[2][1:])
            elif op == "pkhbt":
                self.R[a[0]] = (self.R[a[1]] & 0xFFFF) | (self.op2(a[2:]) & 0xFFFF0000)
            elif op == "pkhtb":
                self.R[a[0]] = (self.R[a[1]] & 0xFFFF0000) | (self.op2(a[2:]) & 0xFFFF)
            elif not self.extra(op, rest):
                raise ValueError(s)
        return steps

    def extra(self, op, rest):
        """Instructions a subclass adds (`gen-neon7-proest.py`: NEON); `False` if unknown."""
        return False


def words_of_lanes(lanes):
    return [lanes[2 * i] | lanes[2 * i + 1] << 16 for i in range(8)]


def lanes_of_words(ws):
    return [(ws[k // 2] >> (16 * (k % 2))) & MASK for k in range(16)]


def dbl256(ws):
    x = sum(w << (32 * i) for i, w in enumerate(ws))
    x = (x << 1) ^ (0x425 if x >> 255 else 0)
    x &= (1 << 256) - 1
    return [(x >> (32 * i)) & M32 for i in range(8)]


def em_reference(rng, n, inverse, mi, mo, po):
    """A random Prøst-128 em job of n blocks as words and what it must write: (pre, post
    constants, mask, masks[j] = 2^j·mask for j ≤ n, source blocks, post blocks, outputs). The mask
    needs the reduction on its first doubling."""
    rnd = lambda: [rng.randrange(1 << 32) for _ in range(8)]
    pre, postc, mask = rnd(), rnd(), rnd()
    mask[7] |= 1 << 31
    masks = [mask]
    for _ in range(n):
        masks.append(dbl256(masks[-1]))
    srcs, posts, want = [], [], []
    for j in range(n):
        x, pb = rnd(), rnd()
        if inverse:  # src from a chosen P^-1 output z: P^-1(P(z)) = z
            z = x
            u = words_of_lanes(ref_permute(lanes_of_words(z)))
            x = [u[i] ^ pre[i] ^ (masks[j][i] if mi else 0) for i in range(8)]
        else:
            z = words_of_lanes(ref_permute(lanes_of_words(
                [x[i] ^ pre[i] ^ (masks[j][i] if mi else 0) for i in range(8)])))
        y = [z[i] ^ postc[i] ^ (masks[j][i] if mo else 0) ^ (pb[i] if po else 0) for i in range(8)]
        srcs.append(x)
        posts.append(pb)
        want.append(y)
    return pre, postc, mask, masks, srcs, posts, want


def check_em(lines, table, rng):
    """Every em loop against the reference on random jobs: blocks at word-aligned offsets of
    three buffers, strides 32 and 64, post blocks, masks that need the reduction."""
    TABLE, ARGS, SRC, POST, DST = 0x1000, 0x2000, 0x10000, 0x20000, 0x30000
    for inverse in (False, True):
        for (mi, mo, po) in EM_VARIANTS:
            name = f"slicewise_proest_arm11_em128_{'i' if inverse else 'p'}{mi}{mo}{po}"
            for n, stride in ((1, 32), (3, 64), (4, 36)):
                m = Machine(lines, TABLE)
                for k, w in enumerate(table):
                    m.mem[TABLE + 4 * k] = w
                pre, postc, mask, masks, srcs, posts, want = em_reference(rng, n, inverse, mi, mo, po)
                for j in range(n):
                    for i in range(8):
                        m.mem[SRC + j * stride + 4 * i] = srcs[j][i]
                        m.mem[POST + 8 + j * stride + 4 * i] = posts[j][i]
                for i, w in enumerate(mask + pre + postc):
                    m.mem[ARGS + 4 * i] = w
                m.mem[ARGS + EM_END] = SRC + n * stride
                m.mem[ARGS + EM_DDELTA] = (DST + 4 - SRC) & M32
                m.mem[ARGS + EM_PDELTA] = (POST + 8 - SRC) & M32
                m.mem[ARGS + EM_POLY] = 0x425
                for r in ("r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12"):
                    m.R[r] = rng.randrange(1 << 32)
                saved = {r: m.R[r] for r in ("r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "sp")}
                m.call(name, ARGS, SRC, stride)
                got = [[m.mem[DST + 4 + j * stride + 4 * i] for i in range(8)] for j in range(n)]
                assert got == want, f"{name} disagrees with the reference (n = {n})"
                assert [m.mem[ARGS + 4 * i] for i in range(8)] == masks[n], f"{name}: final mask"
                assert all(m.R[r] == v for r, v in saved.items()), f"{name}: callee-saved registers"



# --- Prøst-256: 16 lanes of 32 bits, lazy rotations, spills ---------------------------------
# Each lane carries a rotation known at generation time: its register (or stack slot) holds s
# with lane = ror(s, frame). ShiftPlanes only changes frames (no instructions); AND/EOR fold the
# relative rotation of their second operand into the barrel shifter; the round constants
# c = rotl(C[k % 2], r + k) come from two registers holding C0 and C1, rotated for free in the
# EOR. 11 registers hold lanes, the other 5 lanes live in stack slots, chosen by furthest next
# use (Belady); every lane is rotated back once, when the state is stored.
T = "r12"
ALL_LANE_REGS = ["r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r11", "r10", "lr"]


def ops256(inverse):
    """The permutation as abstract operations on lanes 0..15."""
    ops = []

    def sbox():
        for b in (0, 4, 8, 12):
            a, bb, c, d = b, b + 1, b + 2, b + 3
            # d ^= b & c; c ^= a & b; a ^= c & d; b ^= d & a; then rename (c, d, a, b)
            for (dst, x, y) in ((d, bb, c), (c, a, bb), (a, c, d), (bb, d, a)):
                ops.append(("andxor", dst, x, y))
            ops.append(("rename", b, [c, d, a, bb]))

    def mix():
        pi, prog = mix_program()
        # paired op (i, j, s) on words = lane ops on (i, i + 8) from (j, j + 8) or swapped
        ops.append(("rename8", pi))
        for (i, j, sw) in prog:
            ops.append(("xor", i, j + 8 if sw else j))
            ops.append(("xor", i + 8, j if sw else j + 8))

    def shift(r, sign):
        ops.append(("frames", [sign * SHIFTS256[r % 2][k // 4] for k in range(16)]))

    def consts(r):
        for k in range(16):
            ops.append(("const", k, r))

    for r in (range(17, -1, -1) if inverse else range(18)):
        if inverse:
            consts(r)
            shift(r, -1)
            mix()
            sbox()
        else:
            sbox()
            mix()
            shift(r, 1)
            consts(r)
    return ops


def gen256(name, inverse, dirty_penalty=0, const_regs=2):
    """const_regs: how many of C0, C1 stay in registers (rotated for free in the EOR); the
    other constants are PC-relative literal loads, pre-rotated to the lane's frame."""
    LANE_REGS = ALL_LANE_REGS[:len(ALL_LANE_REGS) - const_regs]
    CREG = ALL_LANE_REGS[len(ALL_LANE_REGS) - const_regs:]
    pools = [0]
    ops = ops256(inverse)
    out = []
    emit = lambda x: out.append("    " + x)
    # logical lane -> physical lane slot (renames), frames and locations per physical slot
    log = list(range(16))
    frame = [0] * 16  # per physical slot
    where = {}  # physical slot -> register or None (stack)
    dirty = set()  # slots whose register differs from their stack slot
    # next uses, in physical slots: resolve renames first
    seq = []
    lg = list(range(16))
    for op in ops:
        if op[0] == "andxor":
            seq.append({lg[op[1]], lg[op[2]], lg[op[3]]})
        elif op[0] == "xor":
            seq.append({lg[op[1]], lg[op[2]]})
        elif op[0] == "const":
            seq.append({lg[op[1]]})
        else:
            seq.append(set())
            if op[0] == "rename":
                b, new = op[1], op[2]
                old = lg[:]
                for i in range(4):
                    lg[b + i] = old[new[i]]
            elif op[0] == "rename8":
                pi = op[1]
                old = lg[:]
                for i in range(8):
                    lg[i] = old[pi[i]]
                    lg[i + 8] = old[pi[i] + 8]

    def next_use(slot, pos):
        for q in range(pos, len(seq)):
            if slot in seq[q]:
                return q
        return 1 << 30

    # entry: save registers, make room for 16 stack slots (lane slot k at [sp, #4k])
    out += [f"    .globl {name}", f"    .type {name}, %function", "    .p2align 2",
            f".L{name}_c:", "    .word 0x75817b9d, 0xb2c5fef0", f"{name}:"]
    emit("push {r0, r4-r11, lr}")
    emit("sub sp, sp, #64")
    firsts = sorted(range(16), key=lambda k: next_use(k, 0))
    in_regs = firsts[:len(LANE_REGS)]
    for k in range(16):
        if k not in in_regs:
            emit(f"ldr {T}, [r0, #{4 * k}]")
            emit(f"str {T}, [sp, #{4 * k}]")
            where[k] = None
    free = LANE_REGS[:]
    # r0 is the pointer: load it last
    order = sorted(in_regs, key=lambda k: 0 if True else 1)
    regs_for = {}
    for k in order:
        reg = [x for x in free if x != "r0"][0] if len(free) > 1 else free[0]
        free.remove(reg)
        regs_for[k] = reg
    for k in sorted(in_regs, key=lambda k: regs_for[k] == "r0"):
        emit(f"ldr {regs_for[k]}, [r0, #{4 * k}]")
        where[k] = regs_for[k]
        dirty.add(k)
    for q, creg in enumerate(CREG):
        emit(f"ldr {creg}, .L{name}_c" + (f" + {4 * q}" if q else ""))

    def ensure(slots, pos):
        for sl in slots:
            if where[sl] is not None:
                continue
            regs_used = {where[x] for x in where if where[x] is not None}
            freer = [x for x in LANE_REGS if x not in regs_used]
            if freer:
                reg = freer[0]
            else:
                cands = [x for x in where if where[x] is not None and x not in slots]
                victim = max(cands, key=lambda x: next_use(x, pos) - (dirty_penalty if x in dirty else 0))
                reg = where[victim]
                if victim in dirty:
                    emit(f"str {reg}, [sp, #{4 * victim}]")
                    dirty.discard(victim)
                where[victim] = None
            emit(f"ldr {reg}, [sp, #{4 * sl}]")
            where[sl] = reg

    def rot(n):
        n %= 32
        return f", ror #{n}" if n else ""

    for pos, op in enumerate(ops):
        kind = op[0]
        if kind == "andxor":
            d, x, y = log[op[1]], log[op[2]], log[op[3]]
            ensure([d, x, y], pos)
            emit(f"and {T}, {where[x]}, {where[y]}{rot(frame[y] - frame[x])}")
            emit(f"eor {where[d]}, {where[d]}, {T}{rot(frame[x] - frame[d])}")
            dirty.add(d)
        elif kind == "xor":
            i, j = log[op[1]], log[op[2]]
            ensure([i, j], pos)
            emit(f"eor {where[i]}, {where[i]}, {where[j]}{rot(frame[j] - frame[i])}")
            dirty.add(i)
        elif kind == "const":
            k, r = op[1], op[2]
            sl = log[k]
            ensure([sl], pos)
            if k % 2 < len(CREG):
                emit(f"eor {where[sl]}, {where[sl]}, {CREG[k % 2]}{rot(-(r + k + frame[sl]))}")
            else:
                emit(f"ldr {T}, ={rotl32(rc256(r, k), frame[sl]):#010x}")
                emit(f"eor {where[sl]}, {where[sl]}, {T}")
            dirty.add(sl)
            if k == 15 and len(CREG) < 2:
                # a literal pool after every round's constants keeps the loads within reach
                pools[0] += 1
                emit(f"b .L{name}_pool{pools[0]}")
                out.append("    .ltorg")
                out.append(f".L{name}_pool{pools[0]}:")
        elif kind == "frames":
            for k in range(16):
                frame[log[k]] = (frame[log[k]] + op[1][k]) % 32
        elif kind == "rename":
            b, new = op[1], op[2]
            old = log[:]
            for i in range(4):
                log[b + i] = old[new[i]]
        elif kind == "rename8":
            pi = op[1]
            old = log[:]
            for i in range(8):
                log[i] = old[pi[i]]
                log[i + 8] = old[pi[i] + 8]
    # store: logical lane k is in physical slot log[k]
    emit(f"ldr {T}, [sp, #64]")
    for k in range(16):
        sl = log[k]
        reg = where[sl]
        if reg is None:
            reg = "lr"
            emit(f"ldr {reg}, [sp, #{4 * sl}]")
        if frame[sl]:
            emit(f"ror {reg}, {reg}, #{frame[sl]}")
        emit(f"str {reg}, [{T}, #{4 * k}]")
    emit("add sp, sp, #64")
    emit("pop {r0, r4-r11, pc}")
    out.append(f"    .size {name}, . - {name}")
    return out


def run256(lines, state):
    R = {f"r{i}": 0 for i in range(13)}
    R["lr"] = 0
    u = lambda x: x & M32
    stack = {}
    mem = {4 * k: state[k] for k in range(16)}
    consts = {0: C256[0], 4: C256[1]}
    pushed_r0 = None
    for line in lines:
        s = line.strip()
        if not s or s.startswith(("@", ".")) or s.endswith(":") or s.startswith(("bx", "sub sp", "add sp")):
            continue
        if s.startswith("push"):
            pushed_r0 = "r0"
            stack[64] = None  # filled below with r0's value
            stack[64] = R["r0"]
            continue
        if s.startswith("pop"):
            continue
        op, rest = s.split(None, 1)
        a = [x.strip() for x in rest.replace("[", "").replace("]", "").split(",")]
        if op == "b":
            continue
        if op == "ldr" and a[1].startswith("="):
            R[a[0]] = int(a[1][1:], 16)
        elif op == "ldr" and a[1].startswith(".L"):
            off = 4 if "+ 4" in a[1] else 0
            R[a[0]] = consts[off]
        elif op == "ldr":
            base, off = a[1], int(a[2][1:])
            R[a[0]] = stack[off] if base == "sp" else mem[off]
        elif op == "str":
            base, off = a[1], int(a[2][1:])
            if base == "sp":
                stack[off] = R[a[0]]
            else:
                mem[off] = R[a[0]]
        elif op == "ror":
            n = int(a[2][1:])
            x = R[a[1]]
            R[a[0]] = u(x >> n | x << (32 - n))
        elif op in ("and", "eor"):
            y = R[a[2]]
            if len(a) == 4:
                n = int(a[3].split("#")[1])
                y = u(y >> n | y << (32 - n))
            R[a[0]] = R[a[1]] & y if op == "and" else R[a[1]] ^ y
        else:
            raise ValueError(s)
    assert pushed_r0
    return [mem[4 * k] for k in range(16)]


# --- An interpreter of the emitted subset, to check the program before writing it ------------
def run(lines, state, table):
    R = {f"r{i}": 0 for i in range(13)}
    mem = {2 * k: state[k] for k in range(16)}
    u = lambda x: x & 0xFFFFFFFF
    for line in lines:
        s = line.strip()
        if not s or s.startswith(("@", ".")) or s.endswith(":") or s.startswith(("push", "pop", "bx")):
            continue
        op, rest = s.split(None, 1)
        a = [x.strip() for x in rest.replace("[", "").replace("]", "").split(",")]
        if op == "ldrh":
            R[a[0]] = mem[int(a[2][1:])]
        elif op == "strh":
            mem[int(a[2][1:])] = R[a[0]] & 0xFFFF
        elif op == "ldr" and a[1] == "r10" and len(a) == 3:
            R[a[0]] = table[int(a[2][1:]) // 4]
        elif op == "ldr" or (op == "add" and a[1] == "pc"):
            pass  # the table's address: the interpreter indexes the table directly
        elif op == "lsr":
            R[a[0]] = R[a[1]] >> int(a[2][1:])
        elif op in ("and", "eor", "orr"):
            y = R[a[2]]
            if len(a) == 4:
                kind, n = a[3].split(" #")
                y = u(y >> 16 | y << 16) if (kind, n) == ("ror", "16") else u(y << int(n)) if kind == "lsl" else None
                assert y is not None, s
            R[a[0]] = {"and": R[a[1]] & y, "eor": R[a[1]] ^ y, "orr": R[a[1]] | y}[op]
        elif op == "pkhbt":
            sh = int(a[3].split("#")[1])
            R[a[0]] = (R[a[1]] & 0xFFFF) | (u(R[a[2]] << sh) & 0xFFFF0000)
        elif op == "pkhtb":
            sh = int(a[3].split("#")[1])
            x = R[a[2]]
            x = x - (1 << 32) if x >> 31 else x
            R[a[0]] = (R[a[1]] & 0xFFFF0000) | ((x >> sh) & 0xFFFF)
        else:
            raise ValueError(s)
    return [mem[2 * k] for k in range(16)]


def count_insns(lines):
    return sum(1 for x in lines if x.startswith("    ") and not x.strip().startswith((".", "@")))


def main():
    global MIX_OPS
    if "--search" in sys.argv:
        MIX_OPS = search()
        print(f"search: {len(MIX_OPS)} ops: {MIX_OPS}")
    table = [rc(r, k) | rc(r, k + 8) << 16 for r in range(16) for k in range(8)]
    g = Gen()
    g.function("slicewise_proest_arm11_p128", False)
    fwd = g.out
    g = Gen()
    g.function("slicewise_proest_arm11_p128_inv", True)
    inv = g.out
    # the eviction penalty for dirty lanes (a store) is a free parameter: take the best
    best256 = lambda name, inv: min(
        (gen256(name, inv, d, c) for d in (0, 2, 4, 8, 16, 32) for c in (0, 1, 2)), key=count_insns)
    fwd256 = best256("slicewise_proest_arm11_p256", False)
    inv256 = best256("slicewise_proest_arm11_p256_inv", True)
    core_p, out_p = core128(False)
    core_i, out_i = core128(True)
    em = core_p + core_i + words_entry(False, out_p) + words_entry(True, out_i)
    for inverse in (False, True):
        for (mi, mo, po) in EM_VARIANTS:
            em += em_loop(inverse, mi, mo, po, out_i if inverse else out_p)
    rng = random.Random(2014)
    check_em(em, table, rng)
    check_words(em, table, rng)
    for _ in range(20):
        s = [rng.randrange(1 << 16) for _ in range(16)]
        p = ref_permute(s)
        assert run(fwd, s, table) == p, "forward program disagrees with the reference"
        assert run(inv, p, table) == s, "inverse program disagrees with the reference"
        s = [rng.randrange(1 << 32) for _ in range(16)]
        p = ref_permute256(s[:])
        assert run256(fwd256, s) == p, "Prøst-256 forward program disagrees with the reference"
        assert run256(inv256, p) == s, "Prøst-256 inverse program disagrees with the reference"
    count = lambda lines: sum(1 for x in lines if x.startswith("    ") and not x.strip().startswith((".", "@")))
    n_fwd, n_inv, n_fwd256, n_inv256 = count(fwd), count(inv), count(fwd256), count(inv256)
    head = [
        "@ Generated by scripts/gen-arm11-proest.py: do not edit. Prøst P and P^-1 for ARMv6+ (ARM state).",
        f"@ Prøst-128: two lanes per register, MixSlices as {len(MIX_OPS)} in-place XORs with free lane swaps,",
        f"@ ShiftPlanes with PKHBT/PKHTB: {n_fwd} (P) and {n_inv} (P^-1) instructions, no loops, no spills.",
        "@ Prøst-256: one lane per register, rotations folded into the barrel shifter (lazy frames),",
        f"@ 5 lanes in stack slots: {n_fwd256} (P) and {n_inv256} (P^-1) instructions.",
        "@ void slicewise_proest_arm11_p128(uint16_t state[16]), _p256(uint32_t state[16]), and _inv:",
        "@ AAPCS, callee-saved registers restored.",
        f"@ The em_many loops of Prøst-128, slicewise_proest_arm11_em128_{{p,i}}{{mask_in}}{{mask_out}}{{post}}(args, src,",
        f"@ stride): {count_insns(em_loop(False, 1, 0, 1, out_p))} instructions per block outside the rounds and",
        f"@ a local copy of the rounds for P and for P^-1 (bl, {count_insns(core_p)} instructions), also behind",
        "@ void slicewise_proest_arm11_p128_words(uint32_t state[8]) and _inv_words (word-aligned state bytes).",
        "    .syntax unified",
        "    .arm",
        "    .text",
    ]
    tail = ["    .p2align 2", ".Lslicewise_arm11_rc:"]
    for r in range(16):
        tail.append("    .word " + ", ".join(f"0x{table[8 * r + k]:08x}" for k in range(8)) + f"  @ round {r}")
    path = os.path.join(os.path.dirname(__file__), "..", "crates", "proest", "src", "backend", "arm11.S")
    text = "\n".join(head + fwd + inv + em + fwd256 + inv256 + tail) + "\n"
    if "--check" in sys.argv:
        with open(path) as f:
            if f.read() != text:
                sys.exit(f"{os.path.normpath(path)} differs from what this script generates: rerun it")
        print(f"{os.path.normpath(path)} is what this script generates, and the program checks out")
        return
    with open(path, "w") as f:
        f.write(text)
    print(f"wrote {os.path.normpath(path)}: Prøst-128 P {n_fwd} instructions, P^-1 {n_inv}; Prøst-256 P {n_fwd256}, P^-1 {n_inv256}")


if __name__ == "__main__":
    main()
