#!/usr/bin/env python3
"""Generates crates/groestl/src/backend/mcu_thumb.S: Grøstl's compression function and output
transformation of the `mcu` backend in Thumb-1 (ARMv6-M) assembly, for Cortex-M0 and up.

Layout: the state is row-major in the routine's stack frame (row r = P words, P = 2 for
Grøstl-224/256 and 4 for 384/512, column c in byte c % 4 of word c // 4); part i is word i of
every row (4 columns). The routine converts the chaining value to rows in place, gathers each
block into the state (byte loads), runs P(h ^ m) and Q(m) and folds them into h.

A round is
- a pass over the whole state (one unrolled routine per permutation): AddRoundConstant (P: row
  0; Q: NOT of every word and row 7) and ShiftBytes (each row rotated by whole bytes across its
  2 or 4 words, shift amounts known at generation time), each row read with one `LDM` (and, for
  Grøstl-224/256, written with one `STM`);
- for each part, the kernel, run with sp moved up by 4i ("view" i) so that its words are at fixed
  sp offsets: the 8 words are transposed into 8 bit planes (3 SWAPMOVE stages), the
  115-gate Boyar-Peralta S-box circuit (`sbox_small`, parsed from
  crates/groestl/src/sbox_circuit.rs) runs on the
  planes, the planes are transposed back and MixBytes (the word-level program of
  crates/slp/programs/groestl_mixbytes.word, found by `slicewise slp`: 40 XORs and 16
  doublings by `MULS` with 0x1b) writes the part back.
The kernel is one straight-line program over SSA values; a local register allocator puts it on
r0-r7 (every Thumb-1 data-processing instruction needs low registers), spilling first to the
high registers r8-r12 and lr (one `MOV` each way) and then to stack slots (first the part's own
words, dead between their loads and stores, then extra words above the state), evicting the
value whose next use is furthest (Belady) and preferring values that already have a copy.
The allocator follows a static order of the ops, picking among the next few the one with the
fewest operands outside the low registers. That order and the allocator's parameters come from
scripts/gen-mcu-groestl.order, found by simulated annealing on the kernel's cycle count
(`--anneal`, minutes; the file names its command); without the file, a list scheduler's order.

Constant time: no data-dependent branch or address (the branches are the loops, with counts
known in advance, and whether a gather XORs h in; every kernel load and store is at a fixed
offset from sp).

It also writes crates/groestl/src/backend/mcu_thumb_small.S, the `mcu-small` routine for
Grøstl-224/256: the same kernel and passes with the caller's 64-byte buffer (the engine's empty
block buffer) as the state, each part copied to a 32-byte area at sp for the kernel and back,
and the padding-only last block generated in the buffer.

The script interprets the kernel and the passes it writes (on a Thumb-1 subset simulator) and
compares the permutations, run view by view as the routine runs them, with a reference Grøstl
written from the specification, on random states, and checks the reference against the
Grøstl-256/512 digests of the empty message. The loops around them are checked by the on-target
KATs (scripts/test-embedded.sh).

  scripts/gen-mcu-groestl.py           # writes the .S files
  scripts/gen-mcu-groestl.py --check   # checks, and that the files are up to date
  scripts/gen-mcu-groestl.py --stats   # prints the cycle counts of the routines (M0 model)
  scripts/gen-mcu-groestl.py --anneal ITERATIONS --seed S   # rewrites gen-mcu-groestl.order
"""
import ast
import math
import os
import random
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "crates/groestl/src/backend/mcu_thumb.S")
OUT_SMALL = os.path.join(ROOT, "crates/groestl/src/backend/mcu_thumb_small.S")
CIRCUIT = os.path.join(ROOT, "crates/groestl/src/sbox_circuit.rs")
# MixBytes as a word-level XOR/doubling program (inputs x0..x7 = rows, outputs y0..y7).
MIXBYTES = os.path.join(ROOT, "crates/slp/programs/groestl_mixbytes.word")
M32 = 0xFFFFFFFF

# --- Reference Grøstl (specification, rows as integers: column c in byte c) ----------------


from groestl_ref import MIXROW, ROUNDS, SBOX, gmul  # noqa: E402,F401
from groestl_ref import SIGMA as _SIGMA  # noqa: E402

SIGMA = {(pq.lower(), cols): v for (cols, pq), v in _SIGMA.items()}


def ref_perm(rows, which, cols):
    """P or Q on 8 rows of `cols` bytes (lists of byte lists, rows[r][c])."""
    s = [row[:] for row in rows]
    for i in range(ROUNDS[cols]):
        if which == "p":
            for c in range(cols):
                s[0][c] ^= ((c << 4) ^ i) & 0xFF
        else:
            for r in range(8):
                for c in range(cols):
                    s[r][c] ^= 0xFF
            for c in range(cols):
                s[7][c] ^= ((c << 4) ^ i) & 0xFF
        s = [[SBOX[x] for x in row] for row in s]
        s = [[s[r][(c + SIGMA[(which, cols)][r]) % cols] for c in range(cols)] for r in range(8)]
        s = [[sum_gf([gmul(MIXROW[j], s[(r + j) % 8][c]) for j in range(8)]) for c in range(cols)]
             for r in range(8)]
    return s


def sum_gf(xs):
    r = 0
    for x in xs:
        r ^= x
    return r


def ref_hash(msg, bits):
    """Grøstl-`bits` of a byte string (spec §4–§6), to check the reference permutations."""
    cols = 8 if bits <= 256 else 16
    bl = 8 * cols
    n = len(msg)
    padlen = (-n - 9) % bl
    blocks = (n + 9 + padlen) // bl
    data = msg + b"\x80" + b"\0" * padlen + blocks.to_bytes(8, "big")
    h = [0] * bl
    h[bl - 2:] = (bits).to_bytes(2, "big")

    def rows_of(b):
        return [[b[8 * c + r] for c in range(cols)] for r in range(8)]

    def bytes_of(rows):
        return [rows[r][c] for c in range(cols) for r in range(8)]

    for k in range(blocks):
        m = data[k * bl:(k + 1) * bl]
        hm = [a ^ b for a, b in zip(h, m)]
        p = bytes_of(ref_perm(rows_of(hm), "p", cols))
        q = bytes_of(ref_perm(rows_of(m), "q", cols))
        h = [a ^ b ^ c for a, b, c in zip(h, p, q)]
    p = bytes_of(ref_perm(rows_of(h), "p", cols))
    out = [a ^ b for a, b in zip(h, p)]
    return bytes(out[bl - bits // 8:]).hex()


def parts_of_rows(rows, cols):
    """State words in the parts layout."""
    words = []
    for i in range(cols // 4):
        for r in range(8):
            words.append(sum(rows[r][4 * i + j] << (8 * j) for j in range(4)))
    return words


def rows_of_parts(words, cols):
    rows = [[0] * cols for _ in range(8)]
    for i in range(cols // 4):
        for r in range(8):
            for j in range(4):
                rows[r][4 * i + j] = (words[8 * i + r] >> (8 * j)) & 0xFF
    return rows


# --- The S-box circuit, from the crate ---------------------------------------------------------


# The S-box circuit: Boyar and Peralta's 115-gate circuit (SEA 2010, `sbox_small`), not the
# depth-16 `sbox` of the other backends: depth does not matter here, and after annealing (see
# `anneal`) its kernel took 684 cycles against 702 with `sbox` (60 000 and 100 000 iterations).
SBOX_FN = "sbox_small"


def parse_circuit():
    """(gates, outputs): gates are (dst, op, a, b) with op in ^ & and inputs u0..u7; outputs are
    (name_a, name_b or None, negated) for the 8 output bits, most significant first."""
    text = open(CIRCUIT).read()
    start = text.index("pub fn %s<" % SBOX_FN)
    body = text[text.index("let [u0", start):text.index("\n}\n", start)]
    gates = [(m[0], m[2], m[1], m[3]) for m in re.findall(r"let (\w+) = (\w+) ([\^&]) (\w+);", body)]
    items = body[body.rindex("[") + 1:body.rindex("]")].split(",")
    outs = []
    for it in (x.strip() for x in items if x.strip()):
        neg = it.startswith("!")
        m = re.fullmatch(r"!?\(?(\w+)(?: \^ (\w+))?\)?", it)
        outs.append((m[1], m[2], neg))
    assert len(outs) == 8, outs
    return gates, outs


# --- The kernel as an SSA program ---------------------------------------------------------------


class Prog:
    """Straight-line program: ops are (dst, kind, srcs, imm); values are ints."""

    def __init__(self):
        self.ops = []
        self.n = 0
        self.consts = {}  # value -> 32-bit constant

    def new(self):
        self.n += 1
        return self.n - 1

    def op(self, kind, srcs, imm=None):
        d = self.new() if kind != "store" else None
        self.ops.append((d, kind, tuple(srcs), imm))
        return d

    def const(self, c):
        v = self.new()
        self.consts[v] = c
        return v


def kernel_prog():
    p = Prog()
    x = [p.op("load", [], r) for r in range(8)]  # word r of the part (imm: the row)
    masks = {1: p.const(0x55555555), 2: p.const(0x33333333), 4: p.const(0x0F0F0F0F)}

    def transpose(s):
        # The three SWAPMOVE stages commute (each swaps one bit of the word index with one bit
        # of the position); other orders of them did no better after annealing.
        for shift, pairs in [(1, [(1, 0), (3, 2), (5, 4), (7, 6)]), (2, [(2, 0), (3, 1), (6, 4), (7, 5)]),
                             (4, [(4, 0), (5, 1), (6, 2), (7, 3)])]:
            for a, b in pairs:
                # swapmove(s, b, a): t = ((s[b] >> shift) ^ s[a]) & m; s[a] ^= t; s[b] ^= t << shift
                t = p.op("lsr", [s[b]], shift)
                t = p.op("xor", [t, s[a]])
                t = p.op("and", [t, masks[shift]])
                na = p.op("xor", [s[a], t])
                t2 = p.op("lsl", [t], shift)
                s[b] = p.op("xor", [s[b], t2])
                s[a] = na

    transpose(x)
    gates, outs = parse_circuit()
    env = {"u%d" % i: x[7 - i] for i in range(8)}
    for d, o, a, b in gates:
        env[d] = p.op("xor" if o == "^" else "and", [env[a], env[b]])
    res = []
    for a, b, neg in outs:
        v = p.op("xor", [env[a], env[b]]) if b else env[a]
        if neg:
            v = p.op("not", [v])
        res.append(v)
    s = [res[7 - i] for i in range(8)]
    transpose(s)
    # MixBytes: the word-level program `slicewise slp` found (40 XORs and 16 doublings, against
    # 48 and 16 for the shared-term formula b_{j-3} = 2 (2 x_j + y_{j+4}) + y_{j+1} used before;
    # annealed, the kernel took 665 cycles against 700 with it at 20 000 iterations).
    m01 = p.const(0x01010101)
    k1b = p.const(0x1B)

    def mul2(v):
        # 2v = ((v << 1) & ~0x01010101) ^ ((v >> 7) & 0x01010101) * 0x1b: both shifts have three
        # operands, so v needs no copy when it is used again (as most are); BICS reuses the mask.
        h = p.op("lsr", [v], 7)
        h = p.op("and", [h, m01])
        lo = p.op("lsl", [v], 1)
        lo = p.op("bic", [lo, m01])
        h = p.op("mul", [h, k1b])
        return p.op("xor", [lo, h])

    env = {"x%d" % i: s[i] for i in range(8)}
    stored = set()
    for line in open(MIXBYTES):
        line = line.split("#")[0].strip()
        if not line:
            continue
        dst, expr = (t.strip() for t in line.split("="))
        m = re.fullmatch(r"xtime\((\w+)\)", expr)
        if m:
            env[dst] = mul2(env[m[1]])
        else:
            a, b = (t.strip() for t in expr.split("+"))
            env[dst] = p.op("xor", [env[a], env[b]])
        if re.fullmatch(r"y[0-7]", dst):
            p.op("store", [env[dst]], int(dst[1:]))
            stored.add(dst)
    assert len(stored) == 8, "the MixBytes program does not write every row"
    return p


def schedule(p, rng=None, jitter=0.0):
    """Reorders the program (a list scheduler keeping dependencies) to shorten live ranges:
    among the ready ops, prefer one that kills the most values and defines few."""
    ops = p.ops
    n = len(ops)
    defs = {}
    for i, (d, k, srcs, imm) in enumerate(ops):
        if d is not None:
            defs[d] = i
    users = {}
    for i, (d, k, srcs, imm) in enumerate(ops):
        for s in srcs:
            users.setdefault(s, []).append(i)
    # memory order: loads before any store (stores are at distinct offsets from loads' words,
    # but a store to word r must follow the load of word r)
    deps = [set() for _ in range(n)]
    for i, (d, k, srcs, imm) in enumerate(ops):
        for s in srcs:
            if s in defs:
                deps[i].add(defs[s])
        if k == "store":
            for j, (d2, k2, s2, imm2) in enumerate(ops):
                if k2 == "load":
                    deps[i].add(j)
    remaining_uses = {v: len(u) for v, u in users.items()}
    done = [False] * n
    order = []
    live = set()
    ready = [i for i in range(n) if not deps[i]]
    indeg = [len(d) for d in deps]
    succ = [[] for _ in range(n)]
    for i in range(n):
        for j in deps[i]:
            succ[j].append(i)
    ready = set(ready)
    while ready:
        def score(i):
            d, k, srcs, imm = ops[i]
            kills = sum(1 for s in set(srcs) if s not in p.consts and remaining_uses.get(s, 0) == 1
                        and s in live)
            new = 1 if d is not None else 0
            j = rng.random() * jitter if rng else 0.0
            return (kills - new + j, -i)
        i = max(ready, key=score)
        ready.remove(i)
        order.append(i)
        d, k, srcs, imm = ops[i]
        for s in srcs:
            remaining_uses[s] -= 1
            if remaining_uses[s] == 0:
                live.discard(s)
        if d is not None:
            live.add(d)
        for j in succ[i]:
            indeg[j] -= 1
            if indeg[j] == 0:
                ready.add(j)
    assert len(order) == n
    p.ops = [ops[i] for i in order]


# --- Register allocation ------------------------------------------------------------------------

LOW = ["r%d" % i for i in range(8)]
HIGH = ["r8", "r9", "r10", "r11", "r12", "lr"]


class Alloc:
    """Local allocation of a straight-line program, interleaved with a greedy scheduler: among
    the ready ops (near the front of the static order), the one with the fewest operands
    outside the low registers goes next. Emits instruction tuples."""

    def __init__(self, p, const_slot, weight=6, window=12, hi_far=10 ** 9, kill=1.0, full=0.0, steal=10 ** 9):
        self.p = p
        self.steal = steal
        self.kill = kill
        self.full = full
        self.weight = weight
        self.window = window
        self.hi_far = hi_far
        self.code = []
        # value -> set of places ('r3', 'r9', ('stk', slot), ('const',)); a slot is ('own', r),
        # word r of the part (free between its load and its store), or ('e', k), extra slot k
        self.loc = {}
        self.reg = {r: None for r in LOW + HIGH}
        self.slot_val = {}  # slot -> value or None
        self.own_open = set()  # words of the part that may hold spills now
        self.n_extra = 0
        self.const_slot = const_slot  # value -> "lit" (literal pool) or None (MOVS imm)
        for v in p.consts:
            self.loc[v] = {("const",)}
        self.users = {}  # value -> set of unscheduled op indices (static ranks)
        for i, (d, k, srcs, imm) in enumerate(p.ops):
            for s in srcs:
                self.users.setdefault(s, set()).add(i)
        # Spill into the words stored last first (fewer evictions at the stores).
        rank = {imm: i for i, (d, k, srcs, imm) in enumerate(p.ops) if k == "store"}
        self.own_order = sorted(range(8), key=lambda w: -rank[w])

    def next_use(self, v, i):
        u = self.users.get(v)
        return min(u) if u else None

    def dies(self, v, i):
        return self.users.get(v, set()) <= {i}

    def clean(self, v):
        return any(not (isinstance(l, str) and l in LOW) for l in self.loc[v])

    def emit(self, *ins):
        self.code.append(ins)

    def in_low(self, v):
        return any(isinstance(l, str) and l in LOW for l in self.loc[v])

    def free_low(self, i, lock):
        for r in LOW:
            if self.reg[r] is None and r not in lock:
                return r
        for r in LOW:
            v = self.reg[r]
            if r not in lock and self.next_use(v, i) is None:
                self.drop(r)
                return r
        cands = [r for r in LOW if r not in lock]

        def key(r):
            v = self.reg[r]
            nu = self.next_use(v, i)
            reload = 1 if any(isinstance(l, str) and l in HIGH for l in self.loc[v]) else 2
            if v in self.p.consts and self.const_slot.get(v) is None:
                reload = 1
            spill = 0 if self.clean(v) else (1 if any(self.reg[h] is None for h in HIGH) else 2)
            return (nu - i) - self.weight * (spill + reload)
        r = max(cands, key=key)
        v = self.reg[r]
        if not self.clean(v):
            self.spill(v, r, i)
        self.drop(r)
        return r

    def drop(self, r):
        v = self.reg[r]
        if v is not None:
            self.loc[v].discard(r)
        self.reg[r] = None

    def spill(self, v, r, i):
        far = self.next_use(v, i) - i > self.hi_far
        for h in HIGH:
            if far:
                break
            if self.reg[h] is None or self.next_use(self.reg[h], i) is None:
                if self.reg[h] is not None:
                    self.drop(h)
                self.emit("mov", h, r)
                self.reg[h] = v
                self.loc[v].add(h)
                return
        cands = [("own", w) for w in self.own_order if w in self.own_open]
        cands += [("e", k) for k in range(self.n_extra + 1)]
        for slot in cands:
            occ = self.slot_val.get(slot)
            if occ is None or self.next_use(occ, i) is None:
                if occ is not None:
                    self.loc[occ].discard(("stk", slot))
                self.slot_val[slot] = v
                if slot[0] == "e":
                    self.n_extra = max(self.n_extra, slot[1] + 1)
                self.emit("str", r, "sp", slot)
                self.loc[v].add(("stk", slot))
                return

    def fetch(self, v, i, lock):
        """Puts v in a low register; returns it."""
        for l in self.loc[v]:
            if isinstance(l, str) and l in LOW:
                return l
        r = self.free_low(i, lock)
        src = None
        for l in self.loc[v]:
            if isinstance(l, str):
                src = l
        if src is not None:
            self.emit("mov", r, src)
        elif ("const",) in self.loc[v]:
            c = self.p.consts[v]
            if self.const_slot.get(v) is None:
                self.emit("movs", r, c)
            else:
                self.emit("ldr", r, c)
        else:
            k = next(l[1] for l in self.loc[v] if isinstance(l, tuple) and l[0] == "stk")
            self.emit("ldr", r, "sp", k)
        self.reg[r] = v
        self.loc[v].add(r)
        return r

    def cost(self, i):
        """Operands outside the low registers, less the values the op frees, plus a penalty
        for a new value when no low register is free."""
        d, k, srcs, imm = self.p.ops[i]
        c = 0
        for s in set(srcs):
            if not self.in_low(s):
                c += 1 if (s in self.p.consts or any(isinstance(l, str) for l in self.loc[s])) else 2
            elif self.dies(s, i) and s not in self.p.consts:
                c -= self.kill
        if d is not None and all(self.reg[r] is not None for r in LOW):
            c += self.full
        return c

    def run(self):
        ops = self.p.ops
        n = len(ops)
        defs = {d: i for i, (d, k, srcs, imm) in enumerate(ops) if d is not None}
        deps = [set(defs[s] for s in srcs if s in defs) for i, (d, k, srcs, imm) in enumerate(ops)]
        for i, (d, k, srcs, imm) in enumerate(ops):
            if k == "store":
                deps[i] |= {j for j, o in enumerate(ops) if o[1] == "load"}
        done = set()
        front = 0
        while len(done) < n:
            while front in done:
                front += 1
            ready = [j for j in range(front, min(n, front + self.window)) if j not in done and deps[j] <= done]
            i = min(ready, key=lambda j: (self.cost(j), j))
            self.step(i)
            done.add(i)
        return self.code

    def step(self, i):
        d, k, srcs, imm = self.p.ops[i]
        if k == "store":
            # The part's word is written now: move a spilled value out of it first.
            slot = ("own", imm)
            self.own_open.discard(imm)
            occ = self.slot_val.get(slot)
            if occ is not None:
                if self.users.get(occ) and not any(isinstance(l, str) for l in self.loc[occ]):
                    self.fetch(occ, i, set())
                self.loc[occ].discard(("stk", slot))
                self.slot_val[slot] = None
        lock = set()
        regs = []
        for s in srcs:
            r = self.fetch(s, i, lock)
            lock.add(r)
            regs.append(r)
        if k == "load":
            rd = self.dest(i, [], lock)
            self.emit("ldr", rd, "sp", ("own", imm))
            self.own_open.add(imm)
        elif k == "store":
            self.emit("str", regs[0], "sp", ("own", imm))
            rd = None
        elif k in ("xor", "and", "or"):
            a, b = srcs
            mn = {"xor": "eors", "and": "ands", "or": "orrs"}[k]
            if self.dies(a, i) and a not in self.p.consts:
                rd, other = regs[0], regs[1]
            elif self.dies(b, i) and b not in self.p.consts:
                rd, other = regs[1], regs[0]
            elif self.stealable(a, i):
                rd, other = regs[0], regs[1]
            elif self.stealable(b, i):
                rd, other = regs[1], regs[0]
            else:
                rd = self.dest(i, [], lock)
                self.emit("movs", rd, regs[0])
                other = regs[1]
            self.take(rd, i)
            self.emit(mn, rd, other)
        elif k == "bic":
            a, b = srcs
            if self.dies(a, i) and a not in self.p.consts:
                rd = regs[0]
            else:
                rd = self.dest(i, [], lock)
                self.emit("movs", rd, regs[0])
            self.take(rd, i)
            self.emit("bics", rd, regs[1])
        elif k in ("lsr", "lsl", "not"):
            rd = self.dest(i, [(srcs[0], regs[0])], lock)
            if k == "not":
                self.emit("mvns", rd, regs[0])
            else:
                self.emit("lsrs" if k == "lsr" else "lsls", rd, regs[0], imm)
        elif k == "mul":
            a, kk = srcs
            if self.dies(a, i):
                rd = regs[0]
            else:
                rd = self.dest(i, [], lock)
                self.emit("movs", rd, regs[0])
            self.take(rd, i)
            self.emit("muls", rd, regs[1], rd)
        else:
            raise ValueError(k)
        for s in set(srcs):
            self.users[s].discard(i)
            if not self.users[s]:
                for l in list(self.loc[s]):
                    if isinstance(l, str):
                        if self.reg[l] == s:
                            self.reg[l] = None
                    elif isinstance(l, tuple) and l[0] == "stk":
                        self.slot_val[l[1]] = None
                self.loc[s] = {l for l in self.loc[s] if l == ("const",)}
        if d is not None:
            self.reg[rd] = d
            self.loc[d] = {rd}

    def stealable(self, v, i):
        """Whether v's low register may be overwritten: v has a copy elsewhere and is not
        needed again soon."""
        others = [l for l in self.loc[v] if not (isinstance(l, str) and l in LOW)]
        nu = min((u for u in self.users[v] if u != i), default=10 ** 9)
        return bool(others) and nu - i > self.steal

    def take(self, rd, i):
        v = self.reg[rd]
        if v is not None:
            self.loc[v].discard(rd)
            self.reg[rd] = None

    def dest(self, i, dying, lock):
        for v, r in dying:
            if self.dies(v, i) and v not in self.p.consts:
                self.take(r, i)
                return r
        return self.free_low(i, lock)


# --- Simulator (the Thumb-1 subset the generator emits) ------------------------------------------


def simulate(code, regs, mem):
    """Runs instruction tuples; regs: dict name -> int; mem: dict address -> word. Returns the
    cycle count under the Cortex-M0 model."""
    cyc = 0
    for ins in code:
        mn = ins[0]
        if mn == "mov":
            regs[ins[1]] = regs[ins[2]]
            cyc += 1
        elif mn == "movs":
            regs[ins[1]] = ins[2] if isinstance(ins[2], int) else regs[ins[2]]
            cyc += 1
        elif mn in ("eors", "ands", "orrs"):
            a, b = regs[ins[1]], regs[ins[2]]
            regs[ins[1]] = a ^ b if mn == "eors" else (a & b if mn == "ands" else a | b)
            cyc += 1
        elif mn == "bics":
            regs[ins[1]] = regs[ins[1]] & ~regs[ins[2]] & M32
            cyc += 1
        elif mn == "mvns":
            regs[ins[1]] = ~regs[ins[2]] & M32
            cyc += 1
        elif mn == "lsrs":
            regs[ins[1]] = regs[ins[2]] >> ins[3]
            cyc += 1
        elif mn == "lsls":
            regs[ins[1]] = (regs[ins[2]] << ins[3]) & M32
            cyc += 1
        elif mn == "muls":
            assert ins[1] == ins[3]
            regs[ins[1]] = (regs[ins[1]] * regs[ins[2]]) & M32
            cyc += 1
        elif mn == "ldr":
            if len(ins) == 3:  # literal
                regs[ins[1]] = ins[2]
            else:
                regs[ins[1]] = mem[regs[ins[2]] + ins[3]]
            cyc += 2
        elif mn == "str":
            mem[regs[ins[2]] + ins[3]] = regs[ins[1]]
            cyc += 2
        elif mn in ("ldm", "stm"):  # with writeback; registers in ascending order
            base, rl = ins[1], ins[2]
            assert base not in rl and list(rl) == sorted(rl, key=lambda r: int(r[1:]))
            for k, r in enumerate(rl):
                if mn == "ldm":
                    regs[r] = mem[regs[base] + 4 * k]
                else:
                    mem[regs[base] + 4 * k] = regs[r]
            regs[base] += 4 * len(rl)
            cyc += 1 + len(rl)
        else:
            raise ValueError(mn)
    return cyc


def fmt(ins):
    mn = ins[0]
    if mn in ("ldm", "stm"):
        return "    %s %s!, {%s}" % (mn, ins[1], ", ".join(ins[2]))
    if mn in ("ldr", "str") and len(ins) == 4:
        return "    %s %s, [%s, #%d]" % (mn, ins[1], ins[2], ins[3])
    if mn == "ldr":
        return "    ldr %s, =0x%08x" % (ins[1], ins[2])
    if mn in ("lsrs", "lsls"):
        return "    %s %s, %s, #%d" % (mn, ins[1], ins[2], ins[3])
    if mn == "muls":
        return "    muls %s, %s, %s" % (ins[1], ins[2], ins[3])
    if mn == "movs" and isinstance(ins[2], int):
        return "    movs %s, #%d" % (ins[1], ins[2])
    return "    %s %s, %s" % (mn, ins[1], ins[2])


# --- The round pass: AddRoundConstant and ShiftBytes ---------------------------------------------


def rc_words(cols):
    """Row 0 (P) / row 7 (Q) constant of round 0, per part word."""
    return [sum((((4 * i + j) << 4) & 0xFF) << (8 * j) for j in range(4)) for i in range(cols // 4)]


def pass_code(which, cols):
    """Instruction tuples of the pass; r0 = state (row-major), r1 = round * 0x01010101; uses r0-r7
    (and r8 for Grøstl-384/512). Each row is read with one LDM; Grøstl-224/256 rows are written
    with one STM through a second pointer, 384/512 rows word by word."""
    P = cols // 4
    sig = SIGMA[(which, cols)]
    code = []
    if P == 2:
        ws, ptr, rc = ["r2", "r3"], "r0", "r1"
        code.append(("movs", "r4", "r0"))
    else:
        ws, ptr, rc = ["r2", "r3", "r4", "r5"], "r1", "r8"
        code.append(("mov", "r8", "r1"))
        code.append(("movs", "r1", "r0"))
    for r in range(8):
        code.append(("ldm", ptr, tuple(ws)))
        if which == "q":
            for w_ in ws:
                code.append(("mvns", w_, w_))
        if (which == "p" and r == 0) or (which == "q" and r == 7):
            tmp = "r5" if P == 2 else "r6"
            if P == 4:
                code.append(("mov", "r7", rc))
            for i in range(P):
                code.append(("ldr", tmp, rc_words(cols)[i]))
                code.append(("eors", tmp, rc if P == 2 else "r7"))
                code.append(("eors", ws[i], tmp))
        q, sh = divmod(sig[r], 4)
        if P == 2:
            a, b = ws[q % 2], ws[(q + 1) % 2]
            if sh == 0:
                if q % 2:
                    code.append(("movs", "r6", a))
                    code.append(("movs", "r7", b))
                    out = ("r6", "r7")
                else:
                    out = (a, b)
            else:
                code.append(("lsrs", "r6", a, 8 * sh))
                code.append(("lsls", "r7", b, 32 - 8 * sh))
                code.append(("orrs", "r6", "r7"))
                code.append(("lsrs", "r7", b, 8 * sh))
                code.append(("lsls", a, a, 32 - 8 * sh))
                code.append(("orrs", "r7", a))
                out = ("r6", "r7")
            code.append(("stm", "r4", out))
            continue
        for i in range(P):
            a, b = ws[(i + q) % P], ws[(i + q + 1) % P]
            if sh == 0:
                src = a
            else:
                code.append(("lsrs", "r6", a, 8 * sh))
                code.append(("lsls", "r7", b, 32 - 8 * sh))
                code.append(("orrs", "r6", "r7"))
                src = "r6"
            if src == ws[i] and which == "p" and not (r == 0):
                continue  # unchanged word
            code.append(("str", src, "r0", 4 * P * r + 4 * i))
    return code


# --- Frame ---------------------------------------------------------------------------------------
#
# The state is row-major (row r = P words, column c in byte c % 4 of word c // 4) at sp + K in
# the frame. The kernel runs on part i with sp moved up by 4i ("view" i), so that word r of the
# part it works on is always at sp + K + 4Pr: one kernel serves every part, and those 8 words,
# dead between the kernel's loads and its stores, are its first spill slots. Its other spill
# slots ("extra") sit above the state at sp + X; they move with the view, so the frame holds
# n_extra + P - 1 of them. K = 4(P - 1): in view i the bytes below sp are never live. The loop
# variables are at view-0 offsets above them (the loop code runs in view 0 only).

def layout(P, n_extra):
    K = 4 * (P - 1)
    X = K + 32 * P
    V = X + 4 * (n_extra + P - 1)
    # orig: sp before the frame was aligned (P = 4)
    names = ["h", "m", "end", "rc", "pass", "ret"] + (["orig"] if P == 4 else [])
    var = {name: V + 4 * k for k, name in enumerate(names)}
    frame = V + 4 * len(names)
    if P == 2:
        frame += (-(36 + frame)) % 8  # view 0 8-aligned: bit 2 of sp tells the views apart
    return K, X, var, frame


def resolve(code, P, n_extra):
    """Kernel template (slots as ('own', r) / ('e', k)) to sp offsets for P parts."""
    K, X, _, _ = layout(P, n_extra)
    out = []
    for ins in code:
        if ins[0] in ("ldr", "str") and len(ins) == 4 and isinstance(ins[3], tuple):
            kind, k = ins[3]
            ins = ins[:3] + (K + 4 * P * k if kind == "own" else X + 4 * k,)
        out.append(ins)
    return out


def const_slots(p):
    """How each constant is made: "lit" (LDR from the literal pool) or None (MOVS)."""
    return {v: (None if c < 256 else "lit") for v, c in p.consts.items()}


def words_of_rows(rows, cols):
    """State words, row-major (word P*r + i = row r, columns 4i..4i+3)."""
    return [sum(rows[r][4 * i + j] << (8 * j) for j in range(4)) for r in range(8) for i in range(cols // 4)]


def rows_of_words(words, cols):
    P = cols // 4
    return [[(words[P * r + c // 4] >> (8 * (c % 4))) & 0xFF for c in range(cols)] for r in range(8)]


def check_kernel(template, n_extra, trials=20):
    """Runs the kernel on part 0 of random states (both widths' offsets); returns M0 cycles."""
    rng = random.Random(1)
    for P in (2, 4):
        code = resolve(template, P, n_extra)
        K = layout(P, n_extra)[0]
        for _ in range(trials):
            rows = [[rng.randrange(256) for _ in range(4 * P)] for _ in range(8)]
            mem = {0x8000 + K + 4 * k: w for k, w in enumerate(words_of_rows(rows, 4 * P))}
            regs = {r: rng.randrange(1 << 32) for r in LOW + HIGH}
            regs["sp"] = 0x8000
            c = simulate(code, regs, mem)
            cyc = c if P == 2 else cyc
            got = rows_of_words([mem[0x8000 + K + 4 * k] for k in range(8 * P)], 4 * P)
            s = [[SBOX[x] for x in row] for row in rows]
            want = [[sum_gf([gmul(MIXROW[j], s[(r + j) % 8][c]) for j in range(8)]) if c < 4 else rows[r][c]
                     for c in range(4 * P)] for r in range(8)]
            assert got == want, "kernel mismatch"
    return cyc


def sim_perm(kernel, n_extra, passes, which, cols, rows):
    """The permutation as the common routine runs it (pass, then the kernel in views P-1..0)."""
    P = cols // 4
    K = layout(P, n_extra)[0]
    code = resolve(kernel, P, n_extra)
    base = 0x8000
    mem = {base + K + 4 * k: w for k, w in enumerate(words_of_rows(rows, cols))}
    regs = {r: 0 for r in LOW + HIGH}
    cyc = 0
    for rnd in range(ROUNDS[cols]):
        regs["r0"] = base + K
        regs["r1"] = rnd * 0x01010101
        cyc += simulate(passes[(which, cols)], regs, mem)
        for i in reversed(range(P)):
            regs["sp"] = base + 4 * i
            cyc += simulate(code, regs, mem)
    return rows_of_words([mem[base + K + 4 * k] for k in range(8 * P)], cols), cyc


def check_all(kernel, n_extra, passes, trials=3):
    assert ref_hash(b"", 256) == "1a52d11d550039be16107f9c58db9ebcc417f16f736adb2502567119f0083467"
    assert ref_hash(b"", 512).startswith("6d3ad29d279110eef3adbd66de2a0345a77baede1557f5d099fce0c03d6dc2ba")
    rng = random.Random(2)
    cycles = {}
    for which in "pq":
        for cols in (8, 16):
            for _ in range(trials):
                rows = [[rng.randrange(256) for _ in range(cols)] for _ in range(8)]
                got, cyc = sim_perm(kernel, n_extra, passes, which, cols, rows)
                assert got == ref_perm(rows, which, cols), (which, cols)
            cycles[(which, cols)] = cyc
    return cycles


def lines_of(code):
    return [fmt(ins) for ins in code]


def func(w, name, glob=False, align=True):
    if glob:
        w("    .globl %s" % name)
    w("    .type %s, %%function" % name)
    w("    .thumb_func")
    if align:
        w("    .p2align 2")
    w("%s:" % name)


def glue(w, L, P, h_off, state):
    """The routines around the permutations, shared by the fast and the small routine: gather,
    fold, copy and the layout conversion of h. `h_off`: the frame offset of the pointer to h;
    `state(reg)` emits the instruction that puts the state's address in `reg`."""
    w("@ s = the block at r1 in rows (byte 8c + r of the block is row r, column c), XORed with the")
    w("@ P words at r2 if r2 != 0; r0 = s. Byte loads: the block needs no alignment. One loop")
    w("@ for each case (no test per word)%s." % ("; the 2 words of a row unrolled" if P == 2 else ""))
    w("%sgather:" % L)
    w("    movs r6, #8")
    w("    cmp r2, #0")
    w("    beq 5f")
    for xor_h, top in ((True, "1"), (False, "5")):
        w("%s:" % top)
        w("    movs r3, r1")
        if P != 2:
            w("    movs r7, #%d" % P)
            w("2:")
        for i in range(2 if P == 2 else 1):
            if i:
                w("    adds r3, #32")
            w("    ldrb r4, [r3, #0]")
            for j in (1, 2, 3):
                w("    ldrb r5, [r3, #%d]" % (8 * j))
                w("    lsls r5, r5, #%d" % (8 * j))
                w("    orrs r4, r5")
            if xor_h:
                w("    ldm r2!, {r5}")
                w("    eors r4, r5")
            w("    stm r0!, {r4}")
        if P != 2:
            w("    adds r3, #32")
            w("    subs r7, #1")
            w("    bne 2b")
        w("    adds r1, #1")
        w("    subs r6, #1")
        w("    bne %sb" % top)
        w("    bx lr")
    w("")
    w("@ h ^= s (both row-major).")
    w("%sfold:" % L)
    w("    ldr r0, [sp, #%d]" % h_off)
    state("r1")
    w("    movs r2, r0")
    w("    adds r2, #%d" % (32 * P))
    w("1:")
    w("    ldm r1!, {r4, r5}")
    w("    ldr r6, [r0]")
    w("    ldr r7, [r0, #4]")
    w("    eors r6, r4")
    w("    eors r7, r5")
    w("    stm r0!, {r6, r7}")
    w("    cmp r0, r2")
    w("    bne 1b")
    w("    bx lr")
    w("")
    w("@ 32P bytes from r1 to r0; clobbers r2-r4.")
    w("%scopy:" % L)
    w("    movs r2, #%d" % (4 * P))
    w("1:")
    w("    ldm r1!, {r3, r4}")
    w("    stm r0!, {r3, r4}")
    w("    subs r2, #1")
    w("    bne 1b")
    w("    bx lr")
    w("")
    w("@ r5 = 0: h from the chaining value's layout (byte 8c + 7 - r = row r, column c) to rows;")
    w("@ r5 = 1: back. Through s.")
    w("%sconv:" % L)
    w("    mov r7, lr")
    w("    cmp r5, #0")
    w("    beq 1f")
    state("r0")
    w("    ldr r1, [sp, #%d]" % h_off)
    w("    bl %scopy" % L)
    w("1:")
    w("    ldr r0, [sp, #%d]" % h_off)
    state("r1")
    w("    movs r2, #%d" % (4 * P))
    w("2:")
    w("    movs r4, #7")
    w("3:")
    w("    cmp r5, #0")
    w("    bne 4f")
    w("    ldrb r3, [r0, r4]")
    w("    strb r3, [r1]")
    w("    b 5f")
    w("4:")
    w("    ldrb r3, [r1]")
    w("    strb r3, [r0, r4]")
    w("5:")
    w("    adds r1, #%d" % (4 * P))
    w("    subs r4, #1")
    w("    bpl 3b")
    w("    subs r1, #%d" % (32 * P - 1))
    w("    adds r0, #8")
    w("    subs r2, #1")
    w("    bne 2b")
    w("    cmp r5, #0")
    w("    bne 6f")
    w("    ldr r0, [sp, #%d]" % h_off)
    state("r1")
    w("    bl %scopy" % L)
    w("6:")
    w("    bx r7")
    w("")


def perm_start(w, L, v, state):
    """The head of the permutation loop: saves the return address and the pass routine (r2),
    and each round calls the pass on the state (`state(reg)` puts its address in `reg`)."""
    w("%sperm:" % L)
    w("    mov r0, lr")
    w("    str r0, [sp, #%d]" % v["ret"])
    w("    str r2, [sp, #%d]" % v["pass"])
    w("    movs r1, #0")
    w("%sround:  @ r1 = the round number times 0x01010101" % L)
    w("    str r1, [sp, #%d]" % v["rc"])
    state("r0")
    w("    ldr r2, [sp, #%d]" % v["pass"])
    w("    bl %scall" % L)


def round_end(w, L, v, rounds, name):
    """The end of a round of the permutation loop (round counter, return) and the end of the
    routine `name`."""
    w("    ldr r1, [sp, #%d]" % v["rc"])
    w("    ldr r0, =0x01010101")
    w("    adds r1, r0")
    w("    ldr r0, =0x%08x" % (rounds * 0x01010101))
    w("    cmp r1, r0")
    w("    beq 2f")
    w("    b %sround" % L)
    w("2:")
    w("    ldr r0, [sp, #%d]" % v["ret"])
    w("    bx r0")
    w("%scall:  @ BL + BX instead of BLX, which ARMv4T lacks" % L)
    w("    bx r2")
    w("    .ltorg")
    w("    .size %s, . - %s" % (name, name))


def common_code(w, cols, kernel, n_extra):
    """The compression / output routine of one width: entry (r0 = h, r1 = blocks, r2 = number of
    blocks, 0 for the output transformation), block loop, permutation loop, glue."""
    P = cols // 4
    K, X, v, frame = layout(P, n_extra)
    bits = cols * 64
    L = ".L%d_" % bits
    pre = "slicewise_groestl_mcu_"
    name = "%scommon%d" % (pre, bits)
    w("    .type %s, %%function" % name)
    w("%s:" % name)
    for i, r in enumerate(["r8", "r9", "r10", "r11"]):
        w("    mov r%d, %s" % (4 + i, r))
    w("    push {r4-r7}")
    if P == 2:
        w("    sub sp, #%d" % frame)
    else:  # view 0 16-aligned: bits 2-3 of sp tell the views apart
        w("    mov r4, sp")
        w("    sub sp, #%d" % frame)
        w("    mov r5, sp")
        w("    lsrs r5, r5, #4")
        w("    lsls r5, r5, #4")
        w("    mov sp, r5")
        w("    str r4, [sp, #%d]" % v["orig"])
    w("    str r0, [sp, #%d]" % v["h"])
    w("    str r1, [sp, #%d]" % v["m"])
    w("    lsls r2, r2, #%d" % (6 if P == 2 else 7))
    w("    adds r2, r1")
    w("    str r2, [sp, #%d]" % v["end"])
    w("    movs r5, #0")
    w("    bl %sconv" % L)
    w("    ldr r0, [sp, #%d]" % v["m"])
    w("    ldr r1, [sp, #%d]" % v["end"])
    w("    cmp r0, r1")
    w("    beq %sout" % L)
    w("%sblock:" % L)
    for which in "pq":
        w("    add r0, sp, #%d" % K)
        w("    ldr r1, [sp, #%d]" % v["m"])
        if which == "p":
            w("    ldr r2, [sp, #%d]" % v["h"])
        else:
            w("    movs r2, #0")
        w("    bl %sgather" % L)
        w("    ldr r2, =%s%s%d_pass" % (pre, which, bits))
        w("    bl %sperm" % L)
        w("    bl %sfold" % L)
    w("    ldr r0, [sp, #%d]" % v["m"])
    w("    adds r0, #%d" % (32 * P))
    w("    str r0, [sp, #%d]" % v["m"])
    w("    ldr r1, [sp, #%d]" % v["end"])
    w("    cmp r0, r1")
    w("    bne %sblock" % L)
    w("    b %sdone" % L)
    w("%sout:  @ h = P(h) ^ h" % L)
    w("    add r0, sp, #%d" % K)
    w("    ldr r1, [sp, #%d]" % v["h"])
    w("    bl %scopy" % L)
    w("    ldr r2, =%sp%d_pass" % (pre, bits))
    w("    bl %sperm" % L)
    w("    bl %sfold" % L)
    w("%sdone:" % L)
    w("    movs r5, #1")
    w("    bl %sconv" % L)
    if P == 2:
        w("    add sp, #%d" % frame)
    else:
        w("    ldr r4, [sp, #%d]" % v["orig"])
        w("    mov sp, r4")
    w("    pop {r4-r7}")
    for i, r in enumerate(["r8", "r9", "r10", "r11"]):
        w("    mov %s, r%d" % (r, 4 + i))
    w("    pop {r4-r7}")
    w("    pop {r3}")
    w("    bx r3")
    w("    .ltorg")
    w("")
    glue(w, L, P, v["h"], lambda reg: w("    add %s, sp, #%d" % (reg, K)))
    w("@ One permutation: r2 = its pass routine; every round is the pass, then the kernel on")
    w("@ parts P-1..0 (views: sp + 4i). Returns with sp back in view 0.")
    perm_start(w, L, v, lambda reg: w("    add %s, sp, #%d" % (reg, K)))
    w("    add sp, #%d" % (4 * (P - 1)))
    w("%spart:" % L)
    code = lines_of(resolve(kernel, P, n_extra))
    mid = len(code) // 2
    L2 = code[:mid] + ["    b 7f", "    .ltorg", "7:"] + code[mid:]
    for line in L2:
        w(line)
    w("    mov r0, sp")
    w("    lsls r0, r0, #%d" % (29 if P == 2 else 28))
    w("    beq 1f")
    w("    sub sp, #4")
    w("    b %spart" % L)
    w("    .ltorg")
    w("1:")
    round_end(w, L, v, ROUNDS[cols], name)
    return 36 + frame + (12 if P == 4 else 0)


def assemble(kernel, n_extra, passes, stats):
    L = []
    w = L.append
    w("@ Generated by scripts/gen-mcu-groestl.py: do not edit. Grøstl's compression function and")
    w("@ output transformation (512- and 1024-bit) for ARMv6-M (Thumb-1), the `mcu` backend: state")
    w("@ row-major in the frame, S-box as the Boyar-Peralta circuit on bit planes: no table, no")
    w("@ data-dependent branch or address.")
    w("@ Kernel (SubBytes + MixBytes of one part): %d instructions, %d cycles (Cortex-M0), spill slots:" %
      (len(kernel), stats["kernel"]))
    w("@ the part's 8 words and %d more." % n_extra)
    for k in sorted(stats["perm"]):
        w("@ %s%d: %d cycles for the rounds (passes + kernels; loops not counted)." %
          (k[0].upper(), k[1] * 64, stats["perm"][k]))
    w("@ void slicewise_groestl_mcu_compress{512,1024}(uint64_t *h, const uint8_t *blocks, size_t n),")
    w("@ n >= 1; void slicewise_groestl_mcu_output{512,1024}(uint64_t *h): AAPCS, r4-r11 restored.")
    body = []
    stack = {}
    for cols in (8, 16):
        bits = cols * 64
        x = body.append
        for which in "pq":
            name = "slicewise_groestl_mcu_%s%d_pass" % (which, bits)
            x("")
            x("@ AddRoundConstant and ShiftBytes: r0 = state, r1 = round * 0x01010101; clobbers r0-r7%s."
              % (" and r8" if cols == 16 else ""))
            func(x, name)
            body.extend(lines_of(passes[(which, cols)]))
            x("    bx lr")
            x("    .ltorg")
            x("    .size %s, . - %s" % (name, name))
        # output falls through into compress (with no blocks), compress into the common routine
        for entry in ("output", "compress"):
            name = "slicewise_groestl_mcu_%s%d" % (entry, bits)
            x("")
            func(x, name, glob=True, align=entry == "output")
            x("    movs r2, #0" if entry == "output" else "    push {r4-r7, lr}")
            x("    .size %s, . - %s" % (name, name))
        stack[cols] = common_code(x, cols, kernel, n_extra)
    w("@ Stack: %d bytes (512), at most %d (1024; the frame is aligned to 16 bytes)." % (stack[8], stack[16]))
    w("    .syntax unified")
    w("    .thumb")
    w("    .text")
    L.extend(body)
    return "\n".join(L) + "\n"


# --- `mcu-small`: Grøstl-224/256 with the engine's block buffer as the state ----------------
#
# The state (64 bytes) is not in the routine's frame but in memory the caller lends (the
# engine's block buffer while it holds no data). The kernel still works at fixed sp offsets:
# before it runs on part i, the part's 8 words are copied from the state into a 32-byte area at
# sp + 0 (its own words, and its first spill slots, as in view 0 of the fast routine with one
# part), and back after it. The frame is that area, the extra spill slots and the loop
# variables: 64 bytes less state for 32 bytes of part, and 16 `LDR`/`STR` pairs per kernel.

SMALL_VARS = ["h", "m", "end", "rc", "pass", "ret", "st", "part"]


def small_layout(n_extra):
    X = 32
    V = X + 4 * n_extra
    var = {name: V + 4 * k for k, name in enumerate(SMALL_VARS)}
    frame = V + 4 * len(SMALL_VARS)
    frame += (-(36 + frame)) % 8  # sp stays 8-aligned (AAPCS)
    return var, frame


def part_copy(inward):
    """Part i of the state (r0 = state + 4i) to the part area at sp (inward), or back; r1, r2."""
    code = []
    for r in range(0, 8, 2):
        if inward:
            code += [("ldr", "r1", "r0", 8 * r), ("ldr", "r2", "r0", 8 * r + 8), ("str", "r1", "sp", 4 * r),
                     ("str", "r2", "sp", 4 * r + 4)]
        else:
            code += [("ldr", "r1", "sp", 4 * r), ("ldr", "r2", "sp", 4 * r + 4), ("str", "r1", "r0", 8 * r),
                     ("str", "r2", "r0", 8 * r + 8)]
    return code


def sim_perm_small(kernel, n_extra, passes, which, rows):
    """The permutation as the small routine runs it (pass, then per part: copy in, kernel, copy
    out), on a state at an address of its own."""
    code = resolve(kernel, 1, n_extra)
    st, sp = 0x9000, 0x8000
    mem = {st + 4 * k: w for k, w in enumerate(words_of_rows(rows, 8))}
    regs = {r: 0 for r in LOW + HIGH}
    regs["sp"] = sp
    cyc = 0
    for rnd in range(ROUNDS[8]):
        regs["r0"] = st
        regs["r1"] = rnd * 0x01010101
        cyc += simulate(passes[(which, 8)], regs, mem)
        for i in range(2):
            regs["r0"] = st + 4 * i
            cyc += simulate(part_copy(True), regs, mem)
            cyc += simulate(code, regs, mem)
            regs["r0"] = st + 4 * i
            cyc += simulate(part_copy(False), regs, mem)
    return rows_of_words([mem[st + 4 * k] for k in range(16)], 8), cyc


def check_small(kernel, n_extra, passes, trials=3):
    rng = random.Random(3)
    cycles = {}
    for which in "pq":
        for _ in range(trials):
            rows = [[rng.randrange(256) for _ in range(8)] for _ in range(8)]
            got, cyc = sim_perm_small(kernel, n_extra, passes, which, rows)
            assert got == ref_perm(rows, which, 8), ("small", which)
        cycles[which] = cyc
    return cycles


def small_code(w, kernel, n_extra, passes):
    """Entry points, block loop, padding block, permutation loop and glue of the small routine."""
    v, frame = small_layout(n_extra)
    L = ".Ls512_"
    pre = "slicewise_groestl_mcu_small_"
    for which in "pq":
        name = "%s%s512_pass" % (pre, which)
        w("")
        w("@ AddRoundConstant and ShiftBytes: r0 = state, r1 = round * 0x01010101; clobbers r0-r7.")
        func(w, name)
        for line in lines_of(passes[(which, 8)]):
            w(line)
        w("    bx lr")
        w("    .ltorg")
        w("    .size %s, . - %s" % (name, name))

    def prologue():
        w("    push {r4-r7, lr}")
        for i, r in enumerate(["r8", "r9", "r10", "r11"]):
            w("    mov r%d, %s" % (4 + i, r))
        w("    push {r4-r7}")
        w("    sub sp, #%d" % frame)

    def epilogue():
        w("    add sp, #%d" % frame)
        w("    pop {r4-r7}")
        for i, r in enumerate(["r8", "r9", "r10", "r11"]):
            w("    mov %s, r%d" % (r, 4 + i))
        w("    pop {r4-r7}")
        w("    pop {r3}")
        w("    bx r3")

    def compress_one(which, gather):
        """One permutation of the block into the state and its fold into h."""
        w("    ldr r0, [sp, #%d]" % v["st"])
        w("    ldr r1, [sp, #%d]" % v["m"])
        if which == "p":
            w("    ldr r2, [sp, #%d]" % v["h"])
        else:
            w("    movs r2, #0")
        w("    bl %s%s" % (L, gather))
        w("    ldr r2, =%s%s512_pass" % (pre, which))
        w("    bl %sperm" % L)
        w("    bl %sfold" % L)

    name = pre + "blocks512"
    w("")
    w("@ void %s(uint64_t *h, const uint8_t *blocks, size_t n, uint8_t *st), n >= 1:" % name)
    w("@ compresses n blocks into h with the 64 bytes at st (4-aligned) as the state.")
    func(w, name, glob=True)
    prologue()
    w("    str r0, [sp, #%d]" % v["h"])
    w("    str r1, [sp, #%d]" % v["m"])
    w("    lsls r2, r2, #6")
    w("    adds r2, r1")
    w("    str r2, [sp, #%d]" % v["end"])
    w("    str r3, [sp, #%d]" % v["st"])
    w("    movs r5, #0")
    w("    bl %sconv" % L)
    w("%sblock:" % L)
    for which in "pq":
        compress_one(which, "gather")
    w("    ldr r0, [sp, #%d]" % v["m"])
    w("    adds r0, #64")
    w("    str r0, [sp, #%d]" % v["m"])
    w("    ldr r1, [sp, #%d]" % v["end"])
    w("    cmp r0, r1")
    w("    bne %sblock" % L)
    w("    movs r5, #1")
    w("    bl %sconv" % L)
    epilogue()
    w("    .ltorg")
    w("    .size %s, . - %s" % (name, name))

    name = pre + "pad512"
    w("")
    w("@ void %s(uint64_t *h, uint8_t *st, const uint64_t *t, uint32_t lead):" % name)
    w("@ compresses the padding-only block (lead = 0x80 or 0, zeros, the block count *t big-endian)")
    w("@ into h, then h = P(h) ^ h, with the 64 bytes at st (4-aligned) as the state.")
    func(w, name, glob=True)
    prologue()
    w("    str r0, [sp, #%d]" % v["h"])
    w("    str r1, [sp, #%d]" % v["st"])
    w("    str r2, [sp, #%d]" % v["m"])
    w("    str r3, [sp, #%d]" % v["end"])
    w("    movs r5, #0")
    w("    bl %sconv" % L)
    for which in "pq":
        compress_one(which, "padgather")
    w("    ldr r0, [sp, #%d]" % v["st"])
    w("    ldr r1, [sp, #%d]" % v["h"])
    w("    bl %scopy" % L)
    w("    ldr r2, =%sp512_pass" % pre)
    w("    bl %sperm" % L)
    w("    bl %sfold" % L)
    w("    movs r5, #1")
    w("    bl %sconv" % L)
    epilogue()
    w("    .ltorg")
    w("@ The routines below belong to %s (its size covers them)." % name)
    w("")
    w("@ s = the padding block in rows, XORed with the P words at r2 if r2 != 0; r0 = s, r1 = t")
    w("@ (little-endian u64: byte 7 - r is the block's byte 56 + r, row r of column 7); lead in the")
    w("@ frame. Row r: word 0 = lead in row 0 (column 0), else 0; word 1 = t's byte in column 7.")
    w("%spadgather:" % L)
    w("    ldr r3, [sp, #%d]" % v["end"])
    for r in range(8):
        if r == 0:
            w("    movs r4, r3")
        else:
            w("    movs r4, #0")
        w("    ldrb r5, [r1, #%d]" % (7 - r))
        w("    lsls r5, r5, #24")
        w("    cmp r2, #0")
        w("    beq 1f")
        w("    ldr r6, [r2, #%d]" % (8 * r))
        w("    eors r4, r6")
        w("    ldr r6, [r2, #%d]" % (8 * r + 4))
        w("    eors r5, r6")
        w("1:")
        w("    str r4, [r0, #%d]" % (8 * r))
        w("    str r5, [r0, #%d]" % (8 * r + 4))
    w("    bx lr")
    w("")
    glue(w, L, 2, v["h"], lambda reg: w("    ldr %s, [sp, #%d]" % (reg, v["st"])))
    w("@ One permutation: r2 = its pass routine; every round is the pass, then for parts 0 and 1:")
    w("@ the part's words to the part area, the kernel, the words back.")
    perm_start(w, L, v, lambda reg: w("    ldr %s, [sp, #%d]" % (reg, v["st"])))
    w("    movs r0, #0")
    w("    str r0, [sp, #%d]" % v["part"])
    w("%spart:" % L)
    w("    ldr r0, [sp, #%d]" % v["st"])
    w("    ldr r1, [sp, #%d]" % v["part"])
    w("    adds r0, r1")
    for line in lines_of(part_copy(True)):
        w(line)
    code = lines_of(resolve(kernel, 1, n_extra))
    mid = len(code) // 2
    for line in code[:mid] + ["    b 7f", "    .ltorg", "7:"] + code[mid:]:
        w(line)
    w("    ldr r0, [sp, #%d]" % v["st"])
    w("    ldr r1, [sp, #%d]" % v["part"])
    w("    adds r0, r1")
    for line in lines_of(part_copy(False)):
        w(line)
    w("    ldr r1, [sp, #%d]" % v["part"])
    w("    adds r1, #4")
    w("    str r1, [sp, #%d]" % v["part"])
    w("    cmp r1, #8")
    w("    beq 1f")
    w("    b %spart" % L)
    w("    .ltorg")
    w("1:")
    round_end(w, L, v, ROUNDS[8], name)
    return 36 + frame


def assemble_small(kernel, n_extra, passes, stats):
    L = []
    w = L.append
    body = []
    stack = small_code(body.append, kernel, n_extra, passes)
    w("@ Generated by scripts/gen-mcu-groestl.py: do not edit. The `mcu-small` variant of")
    w("@ mcu_thumb.S for Grøstl-224/256: the same kernel and passes, with the caller's 64-byte")
    w("@ buffer (the engine's empty block buffer) as the state; each part is copied to a 32-byte")
    w("@ area in the frame for the kernel and back. Constant-time as mcu_thumb.S.")
    w("@ P512: %d cycles, Q512: %d cycles for the rounds (passes, copies, kernels; loops not counted)."
      % (stats["p"], stats["q"]))
    w("@ Stack: %d bytes." % stack)
    w("    .syntax unified")
    w("    .thumb")
    w("    .text")
    L.extend(body)
    return "\n".join(L) + "\n"


# Parameters of the scheduler and allocator (found by a random search over these values).
PARAMS = dict(seed=65573, jitter=1.5, weight=4, window=8, hi_far=160, kill=1, full=2, steal=5)

# The kernel's static order and the allocator's parameters, found by `--anneal` (see `anneal`).
ORDER = os.path.join(ROOT, "scripts/gen-mcu-groestl.order")
MAX_EXTRA = 5
ALLOC_KEYS = ("weight", "window", "hi_far", "kill", "full", "steal")


def kernel_cycles(code):
    """M0 cycles of straight-line kernel code (LDR/STR 2, the rest 1)."""
    return sum(2 if ins[0] in ("ldr", "str") else 1 for ins in code)


def allocate(p, order, q):
    """The kernel code for the ops of `p` in `order` (indices into p.ops) with parameters q."""
    base = p.ops
    p.ops = [base[i] for i in order]
    try:
        a = Alloc(p, const_slots(p), *(q[k] for k in ALLOC_KEYS))
        code = a.run()
    finally:
        p.ops = base
    return code, a.n_extra


def op_deps(p):
    """(predecessors, successors) of every op of p: data dependencies, and every store after
    every load."""
    ops = p.ops
    defs = {d: i for i, (d, k, srcs, imm) in enumerate(ops) if d is not None}
    preds = [set(defs[x] for x in srcs if x in defs) for (d, k, srcs, imm) in ops]
    loads = [i for i, o in enumerate(ops) if o[1] == "load"]
    for i, o in enumerate(ops):
        if o[1] == "store":
            preds[i] |= set(loads)
    succs = [set() for _ in ops]
    for i, ps in enumerate(preds):
        for j in ps:
            succs[j].add(i)
    return preds, succs


def list_order(p, q=PARAMS):
    """The list scheduler's order, as indices into p.ops."""
    ident = {id(o): i for i, o in enumerate(p.ops)}
    c = Prog()
    c.ops, c.n, c.consts = list(p.ops), p.n, p.consts
    schedule(c, random.Random(q["seed"]), q["jitter"])
    return [ident[id(o)] for o in c.ops]


def repair(p, order):
    """`order` made a topological order of p's ops (a stable sort: each op as early as its
    place in `order` and its predecessors allow), e.g. an order file of an earlier kernel."""
    preds, _ = op_deps(p)
    rank = {v: j for j, v in enumerate(order)}
    done, out = set(), []
    pending = sorted(range(len(p.ops)), key=lambda i: rank.get(i, len(order)))
    while pending:
        i = next(i for i in pending if preds[i] <= done)
        pending.remove(i)
        done.add(i)
        out.append(i)
    return out


def anneal(iters, seed, log=None, start=None):
    """Simulated annealing over the kernel's static order (one op moved to another place
    between its last predecessor and its first successor) and, one move in ten, one of the
    allocator's parameters; the cost is the allocated kernel's M0 cycles. Starts from the list
    scheduler's order and PARAMS (with --from-order, from the order file's, repaired);
    deterministic for (iters, seed)."""
    p = kernel_prog()
    preds, succs = op_deps(p)
    n = len(p.ops)
    if start is None:
        order = list_order(p)
        q = {k: PARAMS[k] for k in ALLOC_KEYS}
    else:
        order, q = repair(p, start[0]), {k: start[1][k] for k in ALLOC_KEYS}
    choices = dict(weight=range(1, 9), window=range(4, 13), hi_far=(40, 80, 120, 160, 240, 320, 10 ** 9),
                   kill=(0.5, 1, 1.5, 2), full=(0, 1, 2, 4), steal=range(0, 13))
    def cost(order, q):
        # The extra spill slots are RAM (4 bytes each in the frame): at most MAX_EXTRA.
        code, n_extra = allocate(p, order, q)
        return kernel_cycles(code) + (1000 if n_extra > MAX_EXTRA else 0)

    cur = cost(order, q)
    best = (cur, order, dict(q))
    rng = random.Random(seed)
    t0, t1 = 0.2, 0.02
    for it in range(iters):
        temp = t0 * (t1 / t0) ** (it / iters)
        if rng.random() < 0.1:
            k = rng.choice(ALLOC_KEYS)
            nq = dict(q)
            nq[k] = rng.choice(list(choices[k]))
            new = order
        else:
            nq = q
            i = rng.randrange(n)
            op = order[i]
            pos = {v: j for j, v in enumerate(order)}
            lo = max((pos[x] for x in preds[op]), default=-1) + 1
            hi = min((pos[x] for x in succs[op]), default=n) - 1
            if hi <= lo:
                continue
            j = rng.randint(lo, hi)
            if j == i:
                continue
            new = order[:i] + order[i + 1:]
            new.insert(j, op)
        c = cost(new, nq)
        if c <= cur or rng.random() < math.exp((cur - c) / temp):
            order, q, cur = new, nq, c
            if c < best[0]:
                best = (c, list(new), dict(nq))
                if log:
                    log("iteration %d: %d cycles" % (it, c))
    return best


def read_order():
    """(order, parameters) as the order file has them."""
    q, order = dict(PARAMS), []
    for line in open(ORDER):
        if line.startswith("# params: "):
            q.update(ast.literal_eval(line[len("# params: "):]))
        elif not line.startswith("#"):
            order += [int(x) for x in line.split()]
    return order, q


def load_order(p):
    """(order, parameters) from the order file, or the list scheduler's order and PARAMS."""
    if not os.path.exists(ORDER):
        return list_order(p), dict(PARAMS)
    order, q = read_order()
    preds, _ = op_deps(p)
    pos = {v: j for j, v in enumerate(order)}
    assert sorted(order) == list(range(len(p.ops))), "order file: not a permutation of the kernel's ops"
    assert all(pos[x] < pos[i] for i in range(len(p.ops)) for x in preds[i]), "order file: breaks a dependency"
    return order, q


def build_kernel():
    p = kernel_prog()
    order, q = load_order(p)
    return allocate(p, order, q)


def main():
    args = sys.argv[1:]
    if "--anneal" in args:
        iters = int(args[args.index("--anneal") + 1])
        seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 1
        start = read_order() if "--from-order" in args else None
        c, order, q = anneal(iters, seed, log=lambda m: print(m, flush=True), start=start)
        with open(ORDER, "w") as f:
            f.write("# The mcu Thumb-1 kernel's static order (indices of kernel_prog()'s ops) and the\n")
            f.write("# allocator's parameters, found by simulated annealing: %d M0 cycles.\n" % c)
            f.write("# command: scripts/gen-mcu-groestl.py --anneal %d --seed %d%s\n"
                    % (iters, seed, " --from-order (the previous file)" if start else ""))
            f.write("# params: %r\n" % q)
            for k in range(0, len(order), 24):
                f.write(" ".join(str(x) for x in order[k:k + 24]) + "\n")
        print("wrote %s (%d cycles); now run scripts/gen-mcu-groestl.py" % (ORDER, c))
        return
    kernel, n_extra = build_kernel()
    kcyc = check_kernel(kernel, n_extra)
    passes = {(which, cols): pass_code(which, cols) for which in "pq" for cols in (8, 16)}
    cycles = check_all(kernel, n_extra, passes)
    if "--stats" in args:
        print("kernel: %d instructions, %d cycles, %d extra slots" % (len(kernel), kcyc, n_extra))
        for k, v in sorted(cycles.items()):
            print("%s%d: %d cycles per permutation (pass %d instrs)" % (k[0], k[1] * 64, v, len(passes[k])))
        c = cycles[("p", 8)] + cycles[("q", 8)]
        print("P+Q 512: %d cycles = %.1f per byte (without the mode)" % (c, c / 64))
    small = check_small(kernel, n_extra, passes)
    if "--stats" in args:
        print("small P+Q 512: %d cycles = %.1f per byte (without the mode)" %
              (small["p"] + small["q"], (small["p"] + small["q"]) / 64))
    text = assemble(kernel, n_extra, passes, {"kernel": kcyc, "perm": cycles})
    text_small = assemble_small(kernel, n_extra, passes, small)
    if "--check" in args:
        for path, t in ((OUT, text), (OUT_SMALL, text_small)):
            if open(path).read() != t:
                sys.exit("%s is out of date: run scripts/gen-mcu-groestl.py" % path)
        print("mcu_thumb.S, mcu_thumb_small.S: checked (kernel and permutations equal the reference)"
              " and up to date")
        return
    if "--stats" not in args:
        for path, t in ((OUT, text), (OUT_SMALL, text_small)):
            with open(path, "w") as f:
                f.write(t)
            print("wrote %s" % path)


if __name__ == "__main__":
    main()
