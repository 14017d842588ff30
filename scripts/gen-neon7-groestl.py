#!/usr/bin/env python3
"""Generates crates/groestl/src/backend/arm/neon7.S: Grøstl for ARMv7 NEON, the three methods of
paper [V] §5 (groestl-vector-implementations.txt): `neon7bs` (bitsliced, §5.2, below),
`neon7vp` (bytesliced vector permute, §5.3) and `neon7tt` (T-tables, §5.1, not constant-time);
the last two are described where they are generated.

`neon7bs`, as 32-bit ARM assembly:
- the state is eight bit planes in q registers (plane k = coordinate k of every state byte in
  BASIS, a basis of GF(2^8) over GF(2) in which a doubling costs 2 XORs instead of 3; the
  functions convert message and chaining value, 2 XORs per block). A plane is eight 16-bit
  lanes, lane i = row i (in a rotating frame, below); within a lane, bit c is column c.
  Grøstl-224/256 keeps P in the low byte and Q in the high byte of each lane (one pass computes
  both permutations); Grøstl-384/512 uses the 16 bits for columns 0-15 and runs P and Q one
  after the other;
- SubBytes: the Maximov-Ekdahl circuit of crates/groestl/src/sbox_circuit.rs (`sbox_mux`:
  AND/NAND/NOR, two a | !b and four multiplexers, 109 gates), parsed from that file, with its
  top and bottom linear layers replaced by XOR programs from `slicewise slp` for the planes of
  BASIS (TOP_SLP, BOTTOM_SLP: 20 + 27 XORs instead of 24 + 29, so 103 gates; the whole circuit
  is checked on all 256 inputs when the script starts), on whole planes. Its NOTs are not
  computed: each value carries a negation flag that the next gates absorb (VBIC a & !b, VORN
  a | !b, an AND of two negated values as a negated VORR, ...); a multiplexer (VBIT, VBIF or
  VBSL, whichever overwrites an operand that dies there) needs one VMVN where its two data
  operands differ in polarity (one per round: the flags of the loaded planes are chosen for
  it, `best_flags`). The flags left at the outputs are a constant in every byte, which
  ShiftBytes keeps and MixBytes triples, folded into the next round's constants (and, after the
  last round, cancelled in P ^ Q or corrected in the output). The op order is SBOX_ORDER, which
  `--search` found (simulated annealing over the circuit's topological orders, cost = spills
  and reloads of a Belady allocation) and `--refine` improved (annealing over random-key list
  schedules, cost = instructions of the allocation below, summed over the rounds' variants);
- ShiftBytes: each lane rotated by its own amount with two VSHL by a vector of per-lane
  counts and a VORR;
- MixBytes: a row rotation is one VEXT.8 (by two bytes per row). With u = a + R^2 a,
  y = u + R u, v = a + R^2 y and x = R u + R^2 y, the result
  R^-2 MixBytes(a) = 2(2x + R^3 v) + v needs 4 rotations, 6 XORs and two doublings (2 XORs
  each in BASIS) per plane: 84 instructions per round instead of the spec formula's 102 (a SAT
  search over programs of rotations, XORs and doublings found it; docs/benchmarks-arm.md). The R^-2
  is not undone: the state lives in a frame that turns by 2 rows per round (ShiftBytes counts
  and round constants are generated for each round's frame); the last round's turns it back.
  Grøstl-224/256 computes the last MixBytes once, on P ^ Q (it is linear and the same for both):
  `mix_tail`, with two planes per q register after the unzip (half the XORs);
- AddRoundConstant (`build_perm`): a plane whose constant, after what earlier steps left in
  it, is 0 or all-ones costs nothing (a NOT flag); the others get one XOR, their constants
  loaded by one VLDM (the allocator emits one VLDM per run of free registers). What is left in
  the planes: the S-box NOTs, and Q's 0xff in every byte, which the Grøstl-224/256 functions
  put in by keeping h complemented (first round) and the S-box of the round before by XORing
  a VMOV.I16 constant into one node of its bottom layer that MixBytes spreads over the right
  planes (`next_injection`, when that saves loads). 3 to 8 XORs per round instead of 8;
Register allocation over the whole unrolled permutation is Belady's (evict the value used
furthest in the future; spill slots addressed by dedicated pointer registers, so that every
spill or reload is one instruction), in two passes: the second keeps the values the first
spilled side by side in the high registers and stores a run of them with one VSTM when the
first is evicted (see `allocate`); a reload takes the value of the neighbouring slot with it (one
VLDM into two consecutive registers, `reload_pair`) when the register beside it is free or holds
a value with a copy in memory used later, and a round's constants go into one run of free
registers when there is one. The script interprets the code it writes (an emulator of
the instructions used) against a reference Grøstl on random inputs before writing the file.

  scripts/gen-neon7-groestl.py           # writes the .S file
  scripts/gen-neon7-groestl.py --check   # checks the program, and that the file is up to date
  scripts/gen-neon7-groestl.py --a8      # slicewise A8 model estimate (cycles/byte) of the .S file
  scripts/gen-neon7-groestl.py --search  # re-runs the S-box schedule search (prints SBOX_ORDER)
  scripts/gen-neon7-groestl.py --refine  # improves SBOX_ORDER with the real allocation as cost
  NEON7_COST=body scripts/gen-neon7-groestl.py --refine  # ... with the bodies as written as cost
  scripts/gen-neon7-groestl.py --anneal-a8  # the round schedule for the Cortex-A8 (NEON7_SECONDS,
                                            # NEON7_SEED, NEON7_TEMP: start temperature in
                                            # cycles): prints MIX_*, SHIFT_* and SBOX_ORDER
  scripts/gen-neon7-groestl.py --anneal-loop  # the order and q registers of the Grøstl-224/256
                                            # loop for the A8 model (NEON7_MOVES, NEON7_ROUNDS,
                                            # NEON7_SEED, NEON7_TEMP): writes
                                            # scripts/neon7-a8-order.txt, which the generator
                                            # applies (a8_loop_order); then regenerate
"""
import itertools
import math
import os
import random
import re
import sys
import time

# Experiment (issue 34), off by default: NEON7_LRU=W makes the allocator take a free register
# freed at least W output lines ago (the one breaking the fewest free runs), to leave a8_schedule
# more freedom. W=8: 43.6 c/B in the A8 model but 2 326 -> 2 398 instructions a block; not kept.
LRU = int(os.environ.get("NEON7_LRU", "0"))

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
OUT = os.path.join(ROOT, "crates/groestl/src/backend/arm/neon7.S")
SBOX_RS = os.path.join(ROOT, "crates/groestl/src/sbox_circuit.rs")

# --- Reference Grøstl (byte matrices, state[c][r]) -------------------------------------------


from groestl_ref import MIXROW, ROUNDS, SBOX, SIGMA, gmul, gmul2  # noqa: E402,F401


def ref_rc(cols, pq, rnd):
    """Round constant as a byte matrix m[c][r]."""
    m = [[0xFF if pq == "Q" else 0] * 8 for _ in range(cols)]
    for c in range(cols):
        if pq == "P":
            m[c][0] = (16 * c) ^ rnd
        else:
            m[c][7] = 0xFF ^ (16 * c) ^ rnd
    return m


def ref_round(s, cols, pq, rnd):
    rc = ref_rc(cols, pq, rnd)
    s = [[SBOX[s[c][r] ^ rc[c][r]] for r in range(8)] for c in range(cols)]
    sig = SIGMA[(cols, pq)]
    s = [[s[(c + sig[r]) % cols][r] for r in range(8)] for c in range(cols)]
    out = []
    for c in range(cols):
        col = []
        for i in range(8):
            v = 0
            for j in range(8):
                v ^= gmul(MIXROW[j], s[c][(i + j) % 8])
            col.append(v)
        out.append(col)
    return out


def ref_perm(s, cols, pq):
    for r in range(ROUNDS[cols]):
        s = ref_round(s, cols, pq, r)
    return s


def to_matrix(b, cols):
    return [[b[8 * c + r] for r in range(8)] for c in range(cols)]


def from_matrix(m):
    return [m[c][r] for c in range(len(m)) for r in range(8)]


def ref_compress(h, blocks, cols):
    n = 8 * cols
    for i in range(0, len(blocks), n):
        m = to_matrix(blocks[i:i + n], cols)
        hm = to_matrix([a ^ b for a, b in zip(h, blocks[i:i + n])], cols)
        p = from_matrix(ref_perm(hm, cols, "P"))
        q = from_matrix(ref_perm(m, cols, "Q"))
        h = [a ^ b ^ c for a, b, c in zip(h, p, q)]
    return h


def ref_output(h, cols):
    p = from_matrix(ref_perm(to_matrix(h, cols), cols, "P"))
    return [a ^ b for a, b in zip(h, p)]


# --- Planes: 128-bit ints, little-endian bytes; lane i = bytes 2i, 2i+1 ------------------------


def planes_of(mats, frame):
    """mats: (P matrix, Q matrix) for 8 columns, or (matrix of 16 columns,). Returns 8 planes:
    lane i holds row (i + frame) % 8; bit c of the lane is column c (P in bits 0-7, Q in 8-15)."""
    if len(mats) == 2:
        p, q = mats
        cols = [p[c] for c in range(8)] + [q[c] for c in range(8)]
    else:
        cols = mats[0]
    out = []
    for k in range(8):
        v = 0
        for i in range(8):
            r = (i + frame) % 8
            lane = 0
            for c in range(16):
                lane |= ((cols[c][r] >> k) & 1) << c
            v |= lane << (16 * i)
        out.append(v)
    return out


M128 = (1 << 128) - 1


def ext(x, n):
    """VEXT.8 q, x, x, #n: byte j of the result is byte j + n of x."""
    n %= 16
    return ((x >> (8 * n)) | (x << (8 * (16 - n)))) & M128 if n else x


def vshl(x, counts, esize):
    """VSHL.Un q, x, counts: element-wise shift by the signed low byte of each count element."""
    mask = (1 << esize) - 1
    r = 0
    for e in range(128 // esize):
        v = (x >> (esize * e)) & mask
        c = (counts >> (esize * e)) & 0xFF
        c = c - 256 if c >= 128 else c
        v = (v << c) & mask if c >= 0 else v >> (-c)
        r |= v << (esize * e)
    return r


# --- The S-box circuit, parsed from sbox_circuit.rs -------------------------------------------

SBOX_FN = "sbox_mux"
EXPR = [  # (pattern, gate): the expressions the circuit functions use
    (r"(\w+) \^ (\w+)", "xor"), (r"!\((\w+) \^ (\w+)\)", "xnor"), (r"(\w+) & (\w+)", "and"),
    (r"!\((\w+) & (\w+)\)", "nand"), (r"!\((\w+) \| (\w+)\)", "nor"), (r"(\w+) \| !(\w+)", "orn"),
    (r"!(\w+)", "not"), (r"mux\((\w+), (\w+), (\w+)\)", "mux"), (r"(\w+)", "copy"),
]


def parse_expr(e):
    for pat, gate in EXPR:
        m = re.fullmatch(pat, e.strip())
        if m:
            return gate, m.groups()
    raise AssertionError(f"cannot parse {e!r}")


def parse_sbox(fn=SBOX_FN):
    """The gates of `fn` in sbox_circuit.rs: [(name, gate, args)] with gate one of EXPR's, the
    8 outputs last as "out0".."out7" (output i = bit 7 - i, input u_i = bit 7 - i)."""
    src = open(SBOX_RS, encoding="utf-8").read()
    start = src.index(f"pub fn {fn}<")
    body = src[start:src.index("\n}\n", start)]
    gates = [(n, *parse_expr(e)) for n, e in re.findall(r"let (\w+) = ([^;]+);", body) if not n.startswith("[")]
    arr = body[body.rindex("[") + 1:body.rindex("]")]
    outs = [x.strip() for x in arr.split(",") if x.strip()]
    assert len(outs) == 8
    return gates + [(f"out{i}", *parse_expr(e)) for i, e in enumerate(outs)]


# The circuit's two linear layers, re-synthesized without Maximov-Ekdahl's depth limit by the
# project's own `slicewise slp optimize` (docs/slp.md; a depth does not matter in software):
# the top layer (the 17 linear functions of u0..u7 that the AND/NAND/NOR gates read, plus u1)
# in 20 XORs instead of 24 (`slicewise slp exact`: optimal), the bottom layer (the 8 outputs
# from the 18 products) in 27 instead of 29. Inputs x_i, outputs y_j; the constants (XNORs,
# NOTs) are recomputed by `relinearize` and carried as NOT flags like all others.
TOP_TARGETS = ["q6", "q12", "q3", "q14", "q1", "q16", "q0", "q7", "q4", "q13", "q10", "q11", "q2", "q17",
               "q5", "q9", "q8", "u1"]  # y_j; x_i = plane i of the basis below
TOP_SLP = """y2 = x0 + x6; y10 = x4 + y2; t0 = x1 + x7; y7 = x6 + t0; y0 = y10 + y7; y16 = x4 + y7; t1 = x5 + y16;
y1 = x7 + t1; t2 = x2 + t0; y15 = x3 + t2; y4 = x4 + y15; y6 = x0 + y4; y3 = x7 + y6; y5 = t2 + y1; y8 = x6 + y6;
y9 = y3 + y5; y11 = y3 + t1; y12 = y7 + y4; y14 = t2 + y3; y13 = x7 + y14; y17 = x7"""
BOTTOM_SLP = """t0 = x15 + x16; t1 = x9 + t0; t2 = x10 + t1; t3 = x2 + t2; t4 = x5 + t3; t5 = x3 + t4; y0 = x0 + t5;
t6 = x13 + x14; t7 = x10 + x11; t8 = x8 + t3; t9 = x1 + x7; y2 = t8 + t9; t10 = t7 + y2; t11 = t6 + t10;
t12 = x1 + x4; y6 = t12 + t4; t13 = t2 + y6; t14 = t11 + t13; y1 = y0 + t14; t15 = x13 + t0; y7 = x12 + t15;
t16 = x0 + x6; t17 = t16 + t8; y3 = y7 + t17; y4 = t13 + t17; t18 = x16 + x17; y5 = t18 + t10"""  # x_i = n_i, y_k = plane k

# The planes are not the bits of the polynomial basis but coordinates in another basis of
# GF(2^8) over GF(2), in which a doubling (multiplication by x, the MixBytes xtime) costs two
# XORs instead of three: plane j of a byte b is the parity of b & BASIS[j]. The S-box's linear
# layers above are synthesized for these planes (`slicewise slp optimize`: 20 + 27 XORs, as many
# as in the polynomial basis), the round constants are converted when the tables are written,
# and the functions convert the message and the chaining value with BASIS_INPLACE (2 XORs per
# block) and back once per call. Found by enumerating the matrices A with A D A^-1 = a
# permutation after two in-place XORs (D = the doubling) and scoring their S-box layers.
BASIS = [0x20, 0x10, 0x88, 0x04, 0x02, 0x81, 0x80, 0x40]
# In place, on the registers of the polynomial basis's planes: (dst, src) means plane dst ^= plane
# src; the register of plane m then holds BASIS plane TAU[m].
BASIS_INPLACE = [(3, 7), (0, 7)]
TAU = {5: 0, 4: 1, 3: 2, 2: 3, 1: 4, 0: 5, 7: 6, 6: 7}
# A doubling in the basis as an SSA program over z0..z7: (name, a, b) XORs, then plane k of
# 2z is DBL_OUT[k].
DBL_SSA = [("s1", "z6", "z7"), ("s2", "z3", "s1")]
DBL_OUT = ["z1", "z2", "s2", "z4", "z5", "s1", "z7", "z0"]


def apply_rows(rows, v):
    """The bit vector sum_j parity(rows[j] & v) << j."""
    return sum((bin(r & v).count("1") & 1) << j for j, r in enumerate(rows))


def invert_rows(rows):
    n = len(rows)
    m = [rows[i] | 1 << (n + i) for i in range(n)]
    for c in range(n):
        p = next(r for r in range(c, n) if (m[r] >> c) & 1)
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and (m[r] >> c) & 1:
                m[r] ^= m[c]
    return [x >> n for x in m]


BASIS_INV = invert_rows(BASIS)


def to_basis(b):
    """A byte (polynomial basis) as the planes' bits."""
    return apply_rows(BASIS, b)


def from_basis(p):
    return apply_rows(BASIS_INV, p)


def check_basis():
    regs = [1 << m for m in range(8)]
    for d, s in BASIS_INPLACE:
        regs[d] ^= regs[s]
    assert all(regs[m] == BASIS[TAU[m]] for m in range(8)), "BASIS_INPLACE"
    env = {f"z{k}": 1 << k for k in range(8)}
    for n, a, b in DBL_SSA:
        env[n] = env[a] ^ env[b]
    for k in range(8):  # plane k of 2z, as a mask over z's planes, against the field
        want = sum(((to_basis(gmul(2, from_basis(1 << j))) >> k) & 1) << j for j in range(8))
        assert env[DBL_OUT[k]] == want, "DBL_SSA"
    return True


def affine_closure(gates, inputs):
    """The values of `gates` that are affine in `inputs` (XOR/XNOR/NOT/copy of such values):
    name -> (mask over the inputs, constant)."""
    aff = {x: (1 << i, 0) for i, x in enumerate(inputs)}
    for n, gate, args in gates:
        if gate in ("xor", "xnor") and all(a in aff for a in args):
            (m0, c0), (m1, c1) = aff[args[0]], aff[args[1]]
            aff[n] = (m0 ^ m1, c0 ^ c1 ^ (gate == "xnor"))
        elif gate in ("not", "copy") and args[0] in aff:
            aff[n] = (aff[args[0]][0], aff[args[0]][1] ^ (gate == "not"))
    return aff


def slp_gates(text, prefix, xs, targets):
    """An SLP program (lines `a = b + c` or `a = b`) as gates: x_i -> xs[i]; output y_j named
    prefix + "y{j}"; returns (gates, name -> linear mask over xs)."""
    env = {f"x{i}": x for i, x in enumerate(xs)}
    mask = {x: 1 << i for i, x in enumerate(xs)}
    out = []
    for ln in re.split(r"[;\n]", text):
        if not ln.strip():
            continue
        d, e = (s.strip() for s in ln.split("="))
        args = [env[a.strip()] for a in e.split("+")]
        env[d] = prefix + d
        mask[env[d]] = mask[args[0]] ^ (mask[args[1]] if len(args) == 2 else 0)
        out.append((env[d], "xor" if len(args) == 2 else "copy", tuple(args)))
    return out, {j: mask[env[f"y{j}"]] for j in range(len(targets))}


def relinearize(gates):
    """`gates` with its top and bottom linear layers replaced by TOP_SLP and BOTTOM_SLP (each
    target a copy or a NOT of the program's output, whichever the old layer's constant says)."""
    cur, ssa = {}, []  # the Rust source shadows names (a11, a12): one name per value first
    for n, gate, args in gates:
        args = tuple(cur.get(a, a) for a in args)
        cur[n] = n if n not in cur and not n.startswith("u") else f"{n}_{len(ssa)}"
        ssa.append((cur[n], gate, args))
    gates = ssa
    ins = [f"u{i}" for i in range(8)]
    top = affine_closure(gates, ins)
    prods = [f"n{i}" for i in range(18)]
    bot = affine_closure(gates, prods)
    mid = [g for g in gates if g[0] not in top and (g[0] not in bot or g[0] in prods)]
    reads = [a for _, _, args in mid for a in args]
    assert [x for x in dict.fromkeys(reads) if x in top] == TOP_TARGETS, "top layer targets moved"
    assert not any(a in bot and a not in prods for _, _, args in mid for a in args)
    # Input u_i is bit 7 - i of the byte: over the basis planes v_j, a mask over the u_i is
    # the XOR of the BASIS_INV rows of its bits.
    def over_v(mask):
        v = 0
        for i in range(8):
            if (mask >> i) & 1:
                v ^= BASIS_INV[7 - i]
        return v
    vins = [f"v{j}" for j in range(8)]
    tg, tmask = slp_gates(TOP_SLP, "tl_", vins, TOP_TARGETS)
    new = list(tg)
    for j, name in enumerate(TOP_TARGETS):
        assert tmask[j] == over_v(top[name][0]), name
        new.append((name, "not" if top[name][1] else "copy", ("tl_y%d" % j,)))
    new += mid
    outs = [f"o{k}" for k in range(8)]  # plane k of the basis: the XOR of the bits in BASIS[k]
    bg, bmask = slp_gates(BOTTOM_SLP, "bl_", prods, outs)
    new += bg
    for k, name in enumerate(outs):
        bits = [m for m in range(8) if (BASIS[k] >> m) & 1]
        want, const = 0, 0
        for m in bits:  # bit m of the byte is out(7 - m)
            want ^= bot[f"out{7 - m}"][0]
            const ^= bot[f"out{7 - m}"][1]
        assert bmask[k] == want, name
        new.append((name, "not" if const else "copy", ("bl_y%d" % k,)))
    return new


def verify_circuit(gates, basis=False):
    """All 256 inputs at once (bit x of a value = its value on input x) against the S-box;
    with `basis`, inputs v_j and outputs o_j are the planes of BASIS."""
    full = (1 << 256) - 1
    env = {f"u{i}": sum(((x >> (7 - i)) & 1) << x for x in range(256)) for i in range(8)}
    if basis:
        env = {f"v{j}": sum(((to_basis(x) >> j) & 1) << x for x in range(256)) for j in range(8)}
    for n, gate, args in gates:
        a = [env[x] for x in args]
        env[n] = {"xor": lambda: a[0] ^ a[1], "xnor": lambda: full ^ a[0] ^ a[1], "and": lambda: a[0] & a[1],
                  "nand": lambda: full ^ (a[0] & a[1]), "nor": lambda: full ^ (a[0] | a[1]),
                  "orn": lambda: a[0] | (full ^ a[1]), "not": lambda: full ^ a[0], "copy": lambda: a[0],
                  "mux": lambda: (a[0] & a[1]) | ((full ^ a[0]) & a[2])}[gate]()
    for i in range(8):
        if basis:
            assert env[f"o{i}"] == sum(((to_basis(SBOX[x]) >> i) & 1) << x for x in range(256)), f"S-box plane {i}"
        else:
            assert env[f"out{i}"] == sum(((SBOX[x] >> (7 - i)) & 1) << x for x in range(256)), f"S-box bit {7 - i}"
    return True


assert check_basis()
GATES = relinearize(parse_sbox())
assert verify_circuit(parse_sbox()) and verify_circuit(GATES, True)


def lower_gate(p, env, gate, args, plain):
    """Appends one gate to p. env: name -> (value, negated): a NOT is not computed but carried
    as a flag, and the gates absorb their operands' flags (VBIC a & !b, VORN a | !b, an AND of
    two negated values as a negated OR, ...). A multiplexer needs its two data operands of one
    polarity: else one VMVN (`plain` caches them). Returns (value, negated)."""
    x = [env[a] for a in args]
    if gate in ("copy", "not"):
        return x[0][0], x[0][1] ^ (gate == "not")
    if gate in ("xor", "xnor"):
        return p.op("xor", [x[0][0], x[1][0]]), x[0][1] ^ x[1][1] ^ (gate == "xnor")
    if gate == "mux":
        (sv, sn), (av, an), (bv, bn) = x
        if sn:
            (av, an), (bv, bn) = (bv, bn), (av, an)
        if an != bn:
            v = av if an else bv
            if v not in plain:
                plain[v] = p.op("not", [v])
            av, an, bv, bn = (plain[v], False, bv, bn) if an else (av, an, plain[v], False)
        return p.op("mux", [sv, av, bv]), an
    (av, an), (bv, bn) = x
    if gate == "orn":
        bn ^= 1
    if gate in ("nor", "orn"):
        # a | b: VORR, VORN when one is negated, a negated AND when both are.
        neg = gate == "nor"
        if an and bn:
            return p.op("and", [av, bv]), not neg
        if an:
            av, bv = bv, av
        return p.op("orn" if an or bn else "orr", [av, bv]), neg
    neg = gate == "nand"
    if an and bn:
        return p.op("orr", [av, bv]), not neg
    if an:
        av, bv = bv, av
    return p.op("bic" if an or bn else "and", [av, bv]), neg


def circuit_outputs(p, s, flags=None, inject=None, keys=None):
    """Lowers the circuit onto p with inputs s (u_i = s[7 - i]) carrying the NOT flags `flags`
    (flags[k] for s[k]); returns the output values (output i = bit 7 - i) and their negation
    flags. inject = (node, imm): the constant imm (one VMOV.I16) is XORed into the value of the
    gate `node`, for every gate that reads it. keys, a dict, receives a name for every op (the
    gate's, ("vmvn", mux) for a multiplexer's VMVN, ("K", node) and ("inj", node))."""
    env = {f"v{j}": (s[j], bool(flags and flags[j])) for j in range(8)}
    plain = {}
    for name, gate, args in GATES:
        n0 = len(p.ops)
        env[name] = lower_gate(p, env, gate, args, plain)
        if keys is not None:
            for op in p.ops[n0:]:
                keys[op[0]] = ("vmvn", name) if op[1] == "not" else name
        if inject and name == inject[0]:
            v, neg = env[name]
            kv = p.op("imm16", [], inject[1])
            xv = p.op("xor", [v, kv])
            env[name] = (xv, neg)
            if keys is not None:
                keys[kv], keys[xv] = ("K", name), ("inj", name)
    return [env[f"o{k}"] for k in range(8)]


def linear_patterns():
    """node -> the planes (bit k = plane k) whose S-box output contains the node's value
    linearly (the parity of its paths to the outputs), for every gate whose readers are all
    XORs, NOTs or copies: a constant XORed into such a node reaches exactly those planes."""
    users = {}
    for n, gate, args in GATES:
        for a in args:
            users.setdefault(a, []).append((n, gate))
    pat = {}
    for n, gate, args in reversed(GATES):
        if n in [f"o{k}" for k in range(8)]:
            pat[n] = 1 << int(n[1:])
            continue
        us = users.get(n, [])
        if us and all(g in ("xor", "xnor", "not", "copy") and u in pat for u, g in us):
            v = 0
            for u, _ in us:
                v ^= pat[u]
            pat[n] = v
    return {n: v for n, v in pat.items() if v}


SBOX_T = None  # set below, once Prog exists

# --- IR: straight-line ops on 128-bit values --------------------------------------------------


class Prog:
    def __init__(self):
        self.ops = []  # (dst, kind, srcs, imm)
        self.n = 0

    def new(self):
        self.n += 1
        return self.n - 1

    def op(self, kind, srcs, imm=None):
        d = self.new()
        self.ops.append((d, kind, tuple(srcs), imm))
        return d


def rot(p, x, k):
    return p.op("ext", [x], (2 * k) % 16)


# The MixBytes schedule (Cortex-A8, issue 34; found by `--anneal-a8`): the planes in MIX_ORDER, the
# rotations and XORs of the planes of one group of MIX_GROUPS interleaved stage by stage (a VEXT
# waits 3 cycles for the VEOR it reads; the group's other planes fill them), and ShiftBytes on
# SHIFT_GROUP planes at a time (their VSHLs before their VORRs), in MIX_ORDER if SHIFT_FOLLOWS;
# MIX_FILL > 0 puts up to that many of the earlier groups' w and outputs between a group's stages.
MIX_ORDER = [1, 7, 6, 0, 2, 5, 4, 3]
MIX_GROUPS = [[1, 7], [6], [0, 2], [5], [4, 3]]
SHIFT_GROUP = 3
SHIFT_FOLLOWS = False
MIX_FILL = 0
ALL = M128
QALL = int.from_bytes(bytes([0, 0xFF] * 8), "little")  # the Q half (high byte of each lane)
PALL = ALL ^ QALL
# The planes of the chaining value kept complemented by c512 (those of 0xff in BASIS): then
# P's input ~h ^ m is, on every plane, the state with Q's 0xff or with a NOT (see build_perm).
H_NOT = to_basis(0xFF)


def next_injection(wide, cnext, pend, here):
    """The node of this round's S-box that gets Q's all-ones constant (QALL: MixBytes turns
    QALL on the planes of pattern p into QALL on the planes of 3p, row for row), chosen so
    that the next round (constants cnext, the S-box NOT constant pend after MixBytes) loads
    few constants: of the nodes that leave it the fewest loads, the one whose round (flags and
    loads `here`) allocates in the fewest instructions, counting the next round's loads; None
    when no node saves more than it costs."""
    if wide:
        return None

    def loads(node):
        d = gmul3(PATTERNS[node]) if node else 0
        e = [cnext[k] ^ (ALL if (pend >> k) & 1 else 0) ^ (QALL if (d >> k) & 1 else 0) for k in range(8)]
        return sum(x not in (0, ALL) for x in e)

    best = min(loads(n) for n in PATTERNS)
    cands = [None] + [n for n in PATTERNS if loads(n) == best]

    def cost(node):
        tp, outs = sbox_variant(*here, (node, 0xFF00) if node else None)[:2]
        return len(allocate(tp, {i: i for i in range(8)}, outs, None)[0]) + loads(node)
    return min(cands, key=cost)


def gmul3(p):
    """3 * p for a byte of plane bits (BASIS coordinates)."""
    return to_basis(gmul(3, from_basis(p)))


def vmvn_counts():
    """flags (tuple of 8) -> VMVNs the S-box needs with those input NOT flags."""
    out = {}
    for f in range(256):
        flags = tuple(bool((f >> k) & 1) for k in range(8))
        out[flags] = sum(op[1] == "not" for op in sbox_template(flags, ())[0].ops)
    return out


def best_flags(e, inj, _=None):
    """Input NOT flags for offsets e (plane k: e[k] in {0, ALL} is a flag, else it is loaded
    for the planes in inj, with or without a NOT): the fewest VMVNs, then the fewest flags."""
    forced = [e[k] == ALL for k in range(8)]
    best = None
    for f in range(1 << len(inj)):
        flags = list(forced)
        for j, k in enumerate(inj):
            flags[k] = bool((f >> j) & 1)
        flags = tuple(flags)
        key = (VMVNS[flags], sum(flags))
        if best is None or key < best[0]:
            best = (key, flags)
    return best[1]


def round_consts(wide, pq, rnd, frame):
    """The round constant as planes in the frame (no S-box NOT constant)."""
    if wide:
        mats = (ref_rc(16, pq, rnd),)
    else:
        mats = (ref_rc(8, "P", rnd), ref_rc(8, "Q", rnd))
    return to_basis_planes(planes_of(mats, frame))


def to_basis_planes(c):
    """Planes of the polynomial basis (plane m = bit m) -> planes of BASIS."""
    out = []
    for row in BASIS:
        v = 0
        for m in range(8):
            if (row >> m) & 1:
                v ^= c[m]
        out.append(v)
    return out


def mix_bytes(p, sh, turn):
    """MixBytes of the planes sh, appended to program p: R^turn of it (turn = -2 in the rounds,
    2 in the last round, which turns the frame back to 0); returns the 8 output planes. R^-2:
    2(2x + R^3 v) + v with u = a + R^2 a, y = u + R u, v = a + R^2 y and x = R u + R^2 y (4
    rotations, 6 XORs, 2 doublings of 2 XORs in BASIS, DBL_SSA), planes in MIX_ORDER, each w and
    output as soon as what it reads is there."""
    x, v, w, a = {}, {}, {}, [None] * 8

    def xv(grp):
        """u, y, v and x of the planes of grp, stage by stage over them (with MIX_FILL, the w
        and outputs left by the groups before between the stages)."""
        if turn == -2:
            u = {k: p.op("xor", [sh[k], rot(p, sh[k], 2)]) for k in grp}
            emit(MIX_FILL)
            ru = {k: rot(p, u[k], 1) for k in grp}
            emit(MIX_FILL)
            y = {k: p.op("xor", [u[k], ru[k]]) for k in grp}
            emit(MIX_FILL)
            r2y = {k: rot(p, y[k], 2) for k in grp}
            emit(MIX_FILL)
            for k in grp:
                v[k] = p.op("xor", [sh[k], r2y[k]])
            for k in grp:
                x[k] = p.op("xor", [ru[k], r2y[k]])
            return
        for k in grp:
            # R^2 MixBytes(a) = 2(2x + R^3 v) + v with u = a + R^5 a, v = a + R^7 u + R u
            # and x = R u + u: as many operations, and the frame turns back by 2.
            u = p.op("xor", [sh[k], rot(p, sh[k], 5)])
            ru = rot(p, u, 1)
            v[k] = p.op("xor", [p.op("xor", [sh[k], rot(p, u, 7)]), ru])
            x[k] = p.op("xor", [ru, u])

    memo = {}

    def dbl(z, k):
        """Plane k of 2z (z: dict plane -> value), or None if a plane it reads is missing."""
        def val(name):
            if name.startswith("z"):
                return z.get(int(name[1:]))
            key = (id(z), name)
            if key not in memo:
                nm, s1, s2 = next(t for t in DBL_SSA if t[0] == name)
                a1, a2 = val(s1), val(s2)
                if a1 is None or a2 is None:
                    return None
                memo[key] = p.op("xor", [a1, a2])
            return memo[key]
        return val(DBL_OUT[k])

    def ready(z, k):
        names, todo = set(), [DBL_OUT[k]]
        while todo:
            nm = todo.pop()
            if nm.startswith("z"):
                names.add(int(nm[1:]))
            else:
                todo += [s for t in DBL_SSA if t[0] == nm for s in t[1:]]
        return all(j in z for j in names)

    def emit(n):
        """Emits up to n of the w and outputs that can be computed, in MIX_ORDER (each w, then
        each output, as soon as what it reads is there); returns how many."""
        done = 0
        for j in MIX_ORDER:
            if done < n and j not in w and j in v and ready(x, j):
                w[j] = p.op("xor", [dbl(x, j), rot(p, v[j], 3)])
                done += 1
            if done < n and a[j] is None and j in w and ready(w, j):
                a[j] = p.op("xor", [dbl(w, j), v[j]])
                done += 1
        return done

    assert [k for grp in MIX_GROUPS for k in grp] == MIX_ORDER
    for grp in MIX_GROUPS:
        xv(grp)
        if not MIX_FILL:
            emit(99)
    while None in a:
        emit(99)
    return a


def build_perm(wide, pq, inputs, sbox_t=None):
    """One permutation (P and Q of Grøstl-224/256 side by side when not wide) up to the last
    round's ShiftBytes: its MixBytes is the callers' (`mix_tail`, `wide_tail`). Returns (prog,
    outputs: the last ShiftBytes's planes, their frame, constants in op order: dict op-dst ->
    128-bit value, the NOT constant that is left in every output byte once that MixBytes ran).

    AddRoundConstant: the state's registers at a round's S-box input hold the state XOR an
    offset, per plane: the S-box NOTs of the round before (all-ones planes, carried as NOT flags)
    and, for Grøstl-224/256, Q's all-ones constant where the S-box of the round before injected
    it (`next_injection`) or, in the first round, where the caller left P's half complemented
    (the callers keep h complemented: ~(h ^ m) | m is the state with Q's 0xff and a NOT on every
    plane). A plane whose round constant is then 0 or all-ones costs nothing (a NOT flag); the
    others get their constant by one VEOR, the constants of a round loaded by one VLDM. The
    wide (Grøstl-384/512) body serves P and Q with one code and XORs all eight planes."""
    p = Prog()
    a = [p.new() for _ in range(8)]
    assert a == inputs
    cols = 16 if wide else 8
    esize = 16 if wide else 8
    frame = 0
    consts = {}
    off = [0] * 8 if wide else [PALL if (H_NOT >> k) & 1 else 0 for k in range(8)]
    pend = 0
    kimm = None
    for rnd in range(ROUNDS[cols]):
        c = round_consts(wide, pq, rnd, frame)
        e = [c[k] ^ off[k] for k in range(8)]
        if wide:
            flags, inj = (False,) * 8, tuple(range(8))
        else:
            inj = tuple(k for k in range(8) if e[k] not in (0, ALL))
            flags = best_flags(e, inj)
        consts_in = [e[k] ^ (ALL if flags[k] else 0) for k in inj]
        nc = sbox_variant(flags, inj, None)[3]
        pend = gmul3(nc)
        node = None
        if rnd + 1 < ROUNDS[cols]:
            cnext = round_consts(wide, pq, rnd + 1, (frame - 2) % 8)
            node = next_injection(wide, cnext, pend, (flags, inj))
            if node:
                # Q's ones or P's (equal but for a NOT on every plane they reach): whichever
                # lets the next round's S-box get by with fewer VMVNs.
                def nxt(k):
                    d = gmul3(PATTERNS[node])
                    en = [cnext[j] ^ (ALL if (pend >> j) & 1 else 0) ^ (k if (d >> j) & 1 else 0) for j in range(8)]
                    return VMVNS[best_flags(en, tuple(j for j in range(8) if en[j] not in (0, ALL)), True)]
                kimm = min((QALL, PALL), key=nxt)
        tmpl = sbox_variant(flags, inj, (node, kimm & 0xFFFF) if node else None)
        if not wide:
            USED.append((flags, inj, (node, kimm & 0xFFFF) if node else None))
        sb = instantiate(p, tmpl, a, consts_in, consts)
        d = gmul3(PATTERNS[node]) if node else 0
        off = [(ALL if (pend >> k) & 1 else 0) ^ (kimm if (d >> k) & 1 else 0) for k in range(8)]
        # ShiftBytes: lane i (row (i + frame) % 8) rotated right by sigma.
        vl = vr = 0
        for i in range(8):
            r = (i + frame) % 8
            if wide:
                sg = SIGMA[(16, pq)][r]
                lc, rcnt = [(esize - sg) & 0xFF], [(-sg) & 0xFF]
                vl |= lc[0] << (16 * i)
                vr |= rcnt[0] << (16 * i)
            else:
                for half, who in ((0, "P"), (1, "Q")):
                    sg = SIGMA[(8, who)][r]
                    vl |= ((8 - sg) & 0xFF) << (16 * i + 8 * half)
                    vr |= ((-sg) & 0xFF) << (16 * i + 8 * half)
        cl = p.op("ldc2", [])
        cr = p.op("ldc_hi", [cl])
        consts[cl], consts[cr] = vl, vr
        sh = [None] * 8
        sorder = MIX_ORDER if SHIFT_FOLLOWS else list(range(8))
        for k0 in range(0, 8, SHIFT_GROUP):
            ks = sorder[k0:k0 + SHIFT_GROUP]
            xs = [(p.op("shl", [sb[k], cl], esize), p.op("shl", [sb[k], cr], esize)) for k in ks]
            for k, (x1, x2) in zip(ks, xs):
                sh[k] = p.op("orr", [x1, x2])
        if rnd == ROUNDS[cols] - 1:
            # The last MixBytes is left to the callers (`mix_tail`, `wide_tail`): it is linear and
            # P and Q share it, so it runs once on P ^ Q.
            return p, sh, frame, consts, gmul3(nc)
        a = mix_bytes(p, sh, -2)
        frame = (frame - 2) % 8


def sbox_template(flags=None, inj=tuple(range(8)), inject=None, keys=None):
    """AddRoundConstant and SubBytes of one round: inputs are values 0-7 (the planes), plane k
    carrying the NOT flag flags[k]; the planes in `inj` get a constant XORed in (loaded by
    one VLDM, the first load op), the others none; `inject` as for circuit_outputs. Returns
    (prog, outputs, the constant loads of the planes in inj, the outputs' NOT constant)."""
    p = Prog()
    a = [p.new() for _ in range(8)]
    ld = []
    if inj:
        ld = [p.op("ldc8", [])]
        ld += [p.op("ldc_hi", [ld[0]]) for _ in inj[1:]]
    s = list(a)
    for j, k in enumerate(inj):
        s[k] = p.op("xor", [a[k], ld[j]])
        if keys is not None:
            keys[s[k]] = ("arc", k)
    if keys is not None:
        for v in ld:
            keys[v] = "ld"
    o = circuit_outputs(p, s, flags, inject, keys)
    nc = sum(1 << k for k, (_, neg) in enumerate(o) if neg)
    return p, [v for v, _ in o], ld, nc


def sbox_variant(flags, inj, inject):
    """The template for one round's flags, injected planes and node injection, its ops in the
    order of SBOX_ORDER (which orders the base template: no flags, every plane injected): ops
    of the base keep their rank, a multiplexer's VMVN goes just before its multiplexer, the node
    injection (VMOV.I16 and VEOR) just after its node. Cached."""
    key = (tuple(flags), tuple(inj), inject)
    if key in VARIANTS:
        return VARIANTS[key]
    keys = {}
    tp, outs, ld, nc = sbox_template(flags, inj, inject, keys)
    rank = base_ranks()
    pos = {}
    for d, kind, srcs, imm in tp.ops:
        kk = keys.get(d)
        if kk == "ld":
            pos[d] = -1
        elif kk in rank:
            pos[d] = rank[kk]
        elif isinstance(kk, tuple) and kk[0] == "vmvn":
            continue  # placed below, before the first of its readers
        elif isinstance(kk, tuple) and kk[0] in ("K", "inj"):
            continue  # placed below, just after the value they change
        else:
            raise AssertionError(f"op {kk} has no place in SBOX_ORDER")
    for d, kind, srcs, imm in tp.ops:
        if keys.get(d, ("",))[0] == "inj":
            pos[d] = pos.get(srcs[0], -1) + 0.6
            pos[srcs[1]] = pos[d] - 0.3
    for d, kind, srcs, imm in tp.ops:
        if d not in pos:
            pos[d] = min(pos[u] for u, _, s, _ in tp.ops if d in s) - 0.5
    q = Prog()
    q.ops, q.n = sorted(tp.ops, key=lambda op: pos[op[0]]), tp.n
    where = {op[0]: i for i, op in enumerate(q.ops)}
    assert all(where.get(x, -1) < i for i, op in enumerate(q.ops) for x in op[2]), "not topological"
    VARIANTS[key] = (q, outs, ld, nc)
    return VARIANTS[key]


VARIANTS = {}
BASE_RANKS = []
USED = []  # the variants of the rounds of the last Grøstl-224/256 body built (for --refine)


def base_ranks():
    """key -> position in SBOX_ORDER of the base template's ops."""
    if not BASE_RANKS:
        keys = {}
        tp, _, _, _ = sbox_template(keys=keys)
        order = SBOX_ORDER if SBOX_ORDER is not None else list(range(len(tp.ops)))
        BASE_RANKS.append({keys[tp.ops[i][0]]: r for r, i in enumerate(order) if keys[tp.ops[i][0]] != "ld"})
    return BASE_RANKS[0]


def instantiate(p, tmpl, inputs, consts_in, consts):
    """Appends the template's ops (in their order) to p; consts_in: the constants of the
    template's loads, in order. Returns the output values."""
    tp, touts, ld = tmpl[:3]
    m = {k: inputs[k] for k in range(8)}
    for d, kind, srcs, imm in tp.ops:
        m[d] = p.op(kind, [m[x] for x in srcs], imm)
    for j, c in enumerate(consts_in):
        consts[m[ld[j]]] = c
    return [m[x] for x in touts]


def spill_cost(tp, outs, nregs=16):
    """Spills plus reloads of Belady's allocation of `tp` (inputs 0-7 live in registers), a
    leaner copy of `allocate` for the schedule search. More than 9 spill slots cost extra."""
    ops = tp.ops
    end = len(ops)
    uses = {}
    for i, (_, kind, srcs, _) in enumerate(ops):
        for x in srcs if kind != "ldc_hi" else ():
            uses.setdefault(x, []).append(i)
    for v in outs:
        uses.setdefault(v, []).append(end)
    for v in uses:
        uses[v].append(10**9)
    ptr = dict.fromkeys(uses, 0)
    inreg = set(range(8))
    stored = set()
    cost = 0
    maxslots = 0

    def nxt(v, i):
        lst = uses[v]
        j = ptr[v]
        while lst[j] < i:
            j += 1
        ptr[v] = j
        return lst[j]

    def make_room(i, keep):
        nonlocal cost, maxslots
        if len(inreg) < nregs:
            return
        v = max((x for x in inreg if x not in keep), key=lambda x: nxt(x, i))
        inreg.discard(v)
        if nxt(v, i) < 10**9 and v not in stored:
            stored.add(v)
            cost += 1
            maxslots = max(maxslots, len(stored))

    for i, (d, kind, srcs, imm) in enumerate(ops):
        srcs = srcs if kind != "ldc_hi" else ()
        keep = set(srcs)
        for x in srcs:
            if x not in inreg:
                make_room(i, keep)
                inreg.add(x)
                cost += 1
        for x in keep:
            if nxt(x, i + 1) >= 10**9:
                inreg.discard(x)
                stored.discard(x)
        make_room(i, ())
        if nxt(d, i + 1) < 10**9:
            inreg.add(d)
    return cost + 10 * max(0, maxslots - len(SLOT_REGS))


def optimize_order(tmpl, iters, seed):
    """Simulated annealing over the template's topological orders, cost = spills and reloads
    of the Belady allocation on 16 registers."""
    tp, outs, ld = tmpl
    rng = random.Random(seed)
    ops = list(tp.ops)
    defpos = lambda order: {op[0]: i for i, op in enumerate(order)}
    cur = ops
    q = Prog()
    q.n = tp.n

    def cost(order):
        q.ops = order
        return spill_cost(q, outs)

    c = cost(cur)
    best, bc = cur, c
    temp = 2.0
    for it in range(iters):
        temp = 2.0 * (1 - it / iters) + 0.05
        i = rng.randrange(len(cur))
        pos = defpos(cur)
        d, kind, srcs, imm = cur[i]
        lo = max([pos[x] + 1 for x in srcs if x in pos], default=0)
        users = [j for j, op in enumerate(cur) if d in op[2]]
        hi = min(users, default=len(cur))
        if hi - lo <= 1:
            continue
        j = rng.randrange(lo, hi)
        if j == i:
            continue
        new = cur[:i] + cur[i + 1:]
        new.insert(j if j < i else j - 1, cur[i])
        nc = cost(new)
        if nc <= c or rng.random() < pow(2.718, (c - nc) / temp):
            cur, c = new, nc
            if c < bc:
                best, bc = cur, c
    r = Prog()
    r.ops, r.n = best, tp.n
    return (r, outs, ld), bc


SBOX_T = sbox_template()[:3]
PATTERNS = linear_patterns()
VMVNS = vmvn_counts()


# --- Register allocation (Belady) and emission ------------------------------------------------

SLOT_REGS = ["r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12"]
CONST_REG = "r3"


def slot_reg(s):
    return SLOT_REGS[s] if s < len(SLOT_REGS) else f"slot{s}"


def qd(q):
    return f"{{d{2 * q}-d{2 * q + 1}}}"


ALLOC_END = []  # where the last allocation left its outputs (a register, or None: in memory)


PAIR_RELOADS = os.environ.get("NEON7_PAIR", "1") == "1"
RELOAD_RUN = int(os.environ.get("NEON7_RUN", "2"))  # the most values one reload VLDM takes


def allocate(p, live_in, outs, final_regs, slot_regs=None):
    """Belady allocation of the straight-line program `p` on q0-q15. live_in: value -> register;
    outs: values that must end in final_regs. Returns (lines, constant values in load order).
    Two passes: the first finds the values Belady spills; the second, which evicts the same
    values at the same points (the choice does not depend on register numbers), keeps those in
    the high registers and the others in the low ones, so that spilled values sit side by side
    and one VSTM stores a run of them when the first is evicted (the others are evicted later
    for free)."""
    spilled = set()
    allocate_pass(p, live_in, outs, final_regs, slot_regs, None, spilled)
    return allocate_pass(p, live_in, outs, final_regs, slot_regs, spilled, set())


def allocate_pass(p, live_in, outs, final_regs, slot_regs, hint, spilled):
    ops = p.ops
    end = len(ops)
    uses = {}
    partner = {}  # a multiple load's first value -> the others (loaded by the same instruction)
    for i, (d, kind, srcs, _) in enumerate(ops):
        if kind == "ldc_hi":
            partner.setdefault(srcs[0], []).append(d)
            continue
        for s in srcs:
            uses.setdefault(s, []).append(i)
    for v in outs:
        uses.setdefault(v, []).append(end)
    ptr = {v: 0 for v in uses}
    final = final_regs is not None

    def next_use(v, i):
        lst = uses.get(v, [])
        j = ptr.get(v, 0)
        while j < len(lst) and lst[j] < i:
            j += 1
        ptr[v] = j
        return lst[j] if j < len(lst) else None

    reg = dict(live_in)  # value -> register
    occ = {r: v for v, r in reg.items()}
    slot = {}  # value -> slot index (a copy in memory)
    free_slots = list(range(64))
    target = dict(zip(outs, final_regs)) if final_regs else {}
    sr = slot_regs or SLOT_REGS
    slot_reg = lambda s: sr[s] if s < len(sr) else f"slot{s}"  # noqa: E731
    lines = []
    order = []
    freed = {}  # register -> when it was last freed (LRU choice among free registers)

    def free_reg(i, keep, d=None):
        free = [r for r in range(16) if r not in occ]
        if free:
            if hint and d in hint:
                return free[-1]
            now = len(lines)
            old = [r for r in free if freed.get(r, -1) < now - LRU]
            if not old or not LRU:
                return free[0]
            fs = set(free)
            return min(old, key=lambda r: ((r - 1 in fs) + (r + 1 in fs), r))
        # Evict the value used furthest in the future.
        best, bestd = None, -1
        for r, v in occ.items():
            if v in keep:
                continue
            d = next_use(v, i)
            d = 10**9 if d is None else d
            if d > bestd:
                best, bestd = r, d
        if bestd < 10**9 and occ[best] not in slot:
            group_store(best, i)
            return best
        v = occ.pop(best)
        del reg[v]
        if bestd < 10**9 and v not in slot:
            s = free_slots.pop(0)
            slot[v] = s
            lines.append(f"vst1.64 {qd(best)}, [{slot_reg(s)}]")
        return best

    def stored_with(r, i):
        v = occ.get(r)
        return v is not None and v in hint and v not in slot and next_use(v, i) is not None

    def group_store(r0, i):
        """Evicts the victim in r0, storing with it (one VSTM to consecutive slots) its
        neighbours in registers that the first pass saw spilled: they stay in their registers,
        and their eviction later costs nothing."""
        lo = hi = r0
        if hint:
            while lo > 0 and hi - lo < 7 and stored_with(lo - 1, i):
                lo -= 1
            while hi < 15 and hi - lo < 7 and stored_with(hi + 1, i):
                hi += 1
        while True:
            k = hi - lo + 1
            s0 = next((s for s in free_slots if s + k <= len(sr) and all(s + j in free_slots for j in range(k))), None)
            if s0 is not None or k == 1:
                break
            lo, hi = (lo + 1, hi) if lo < r0 else (lo, hi - 1)
        s0 = free_slots[0] if s0 is None else s0
        for j, r in enumerate(range(lo, hi + 1)):
            slot[occ[r]] = s0 + j
            spilled.add(occ[r])
            free_slots.remove(s0 + j)
        del reg[occ.pop(r0)]
        if k == 1:
            lines.append(f"vst1.64 {qd(lo)}, [{slot_reg(s0)}]")
        else:
            lines.append(f"vstmia {slot_reg(s0)}, {{d{2 * lo}-d{2 * hi + 1}}}")

    def evict(r, i):
        v = occ.pop(r)
        del reg[v]
        if next_use(v, i) is not None and v not in slot:
            spilled.add(v)
            s = free_slots.pop(0)
            slot[v] = s
            lines.append(f"vst1.64 {qd(r)}, [{slot_reg(s)}]")

    def free_pair(i):
        """Two consecutive registers, evicting the values used furthest in the future."""
        best, bkey = None, None
        for r in range(15):
            key = min(10**9 if x not in occ else (next_use(occ[x], i) or 10**9) for x in (r, r + 1))
            if bkey is None or key > bkey:
                best, bkey = r, key
        for x in (best, best + 1):
            if x in occ:
                evict(x, i)
        return best

    def reload_pair(s, i, keep):
        """Reloads s together with the values in neighbouring slots (one VLDM into consecutive
        registers, up to RELOAD_RUN of them), when those values are needed later and are not in
        a register, and each register is free or holds a value with a copy in memory used later
        than the one it receives (evicting that costs nothing). The values reloaded with s stay
        clean, so evicting them later costs nothing too."""
        by_slot = {k: v for v, k in slot.items()}
        ks = slot[s]
        best = None
        for n in range(RELOAD_RUN, 1, -1):
            for k0 in range(ks - n + 1, ks + 1):
                vals = [by_slot.get(k) for k in range(k0, k0 + n)]
                if any(v is None or (v != s and (v in reg or next_use(v, i) is None)) for v in vals):
                    continue
                for r0 in range(0, 17 - n):
                    ok = True
                    for j, v in enumerate(vals):
                        r = r0 + j
                        if r not in occ:
                            continue
                        c = occ[r]
                        if v == s or c in keep or c not in slot or (next_use(c, i) or 10**9) <= next_use(v, i):
                            ok = False
                            break
                    if ok:
                        key = (n, -sum(next_use(v, i) for v in vals if v != s))
                        if best is None or key > best[0]:
                            best = (key, r0, k0, vals)
            if best is not None:
                break
        if best is None:
            return False
        _, r0, k0, vals = best
        n = len(vals)
        for x in range(r0, r0 + n):
            if x in occ:
                del reg[occ.pop(x)]
        lines.append(f"vldmia {slot_reg(k0)}, {{d{2 * r0}-d{2 * (r0 + n) - 1}}}")
        for j, v in enumerate(vals):
            reg[v] = r0 + j
            occ[r0 + j] = v
        return True

    def release(v):
        if v in reg:
            freed[reg[v]] = len(lines)
            del occ[reg.pop(v)]
        if v in slot:
            free_slots.append(slot.pop(v))
            free_slots.sort()

    for i, (d, kind, srcs, imm) in enumerate(ops):
        if kind == "ldc_hi":
            continue
        if kind == "ldc2":
            r = free_pair(i)
            (e,) = partner[d]
            reg[d], reg[e] = r, r + 1
            occ[r], occ[r + 1] = d, e
            lines.append(f"vld1.64 {{d{2 * r}-d{2 * r + 3}}}, [{CONST_REG}]!")
            order += [d, e]
            for v in (d, e):
                if next_use(v, i + 1) is None:
                    release(v)
            continue
        if kind == "ldc8":
            # Eight constants, one VLDM per run of consecutive free registers.
            vals = [d] + partner.get(d, [])
            while 16 - len(occ) < len(vals):
                evict(max(occ, key=lambda r: next_use(occ[r], i) or 10**9), i)
            free = [r for r in range(16) if r not in occ]
            # One run of consecutive free registers long enough when there is one (one VLDM).
            whole = [r for r in free if all(r + j in free for j in range(len(vals)))]
            regs = list(range(whole[0], whole[0] + len(vals))) if whole else free[:len(vals)]
            for v, r in zip(vals, regs):
                reg[v] = r
                occ[r] = v
            order += vals
            runs = []
            for r in regs:
                if runs and runs[-1][1] == r - 1:
                    runs[-1][1] = r
                else:
                    runs.append([r, r])
            for a, b in runs:
                lines.append(f"vldmia {CONST_REG}!, {{d{2 * a}-d{2 * b + 1}}}")
            for v in vals:
                if next_use(v, i + 1) is None:
                    release(v)
            continue
        keep = set(srcs)
        for s in srcs:
            if s not in reg:
                pair = PAIR_RELOADS and reload_pair(s, i, keep)
                if pair:
                    continue
                r = free_reg(i, keep)
                lines.append(f"vld1.64 {qd(r)}, [{slot_reg(slot[s])}]")
                reg[s] = r
                occ[r] = s
        rs = [reg[s] for s in srcs]
        for s in set(srcs):
            if next_use(s, i + 1) is None:
                release(s)
        if kind == "mux":
            # s ? x : y overwrites one operand: VBIT (into y), VBIF (into x) or VBSL (into s),
            # whichever dies here; else a copy of y first.
            dead = [k for k in (2, 1, 0) if next_use(srcs[k], i + 1) is None and srcs.count(srcs[k]) == 1]
            if dead:
                r = rs[dead[0]]
            else:
                r = free_reg(i, set(srcs), d)
                lines.append(f"vorr q{r}, q{rs[2]}, q{rs[2]}")
            k = dead[0] if dead else 2
            mn, n, m = {2: ("vbit", 1, 0), 1: ("vbif", 2, 0), 0: ("vbsl", 1, 2)}[k]
            lines.append(f"{mn} q{r}, q{rs[n]}, q{rs[m]}")
            reg[d] = r
            occ[r] = d
            if next_use(d, i + 1) is None:
                release(d)
            continue
        # An output goes straight to its final register when that one is free.
        r = target[d] if d in target and target[d] not in occ else free_reg(i, set(), d)
        reg[d] = r
        occ[r] = d
        if kind == "ext":
            lines.append(f"vext.8 q{r}, q{rs[0]}, q{rs[0]}, #{imm}")
        elif kind == "imm":
            lines.append(f"vmov.i8 q{r}, #0x{imm:02x}")
        elif kind == "imm16":
            lines.append(f"vmov.i16 q{r}, #0x{imm:04x}")
        elif kind == "not":
            lines.append(f"vmvn q{r}, q{rs[0]}")
        elif kind == "add8":
            lines.append(f"vadd.i8 q{r}, q{rs[0]}, q{rs[0]}")
        elif kind == "sar7":
            lines.append(f"vshr.s8 q{r}, q{rs[0]}, #7")
        elif kind == "shl":
            lines.append(f"vshl.u{imm} q{r}, q{rs[0]}, q{rs[1]}")
        else:
            mn = {"xor": "veor", "and": "vand", "orr": "vorr", "bic": "vbic", "orn": "vorn"}[kind]
            lines.append(f"{mn} q{r}, q{rs[0]}, q{rs[1]}")
        if next_use(d, i + 1) is None:
            release(d)
    # Move the outputs into final_regs (reloads first need free registers: outputs in memory are
    # reloaded straight into their final register once it is free).
    want = dict(zip(outs, final_regs or []))
    pending = [v for v in outs if final and reg.get(v) != want[v]]
    while pending:
        pending = [v for v in pending if reg.get(v) != want[v]]
        if not pending:
            break
        progress = False
        for v in list(pending):
            t = want[v]
            if t in occ and occ[t] not in want:
                del reg[occ.pop(t)]  # a dead value
            if t not in occ:
                if v in reg:
                    lines.append(f"vorr q{t}, q{reg[v]}, q{reg[v]}")
                    del occ[reg[v]]
                else:
                    lines.append(f"vld1.64 {qd(t)}, [{slot_reg(slot[v])}]")
                reg[v] = t
                occ[t] = v
                pending.remove(v)
                progress = True
        if not progress:
            # A cycle of register-resident outputs: swap one into place.
            v = pending[0]
            t = want[v]
            u = occ[t]
            a = reg[v]
            lines.append(f"vswp q{a}, q{t}")
            occ[a], occ[t] = u, v
            reg[u], reg[v] = a, t
            pending.remove(v)
    ALLOC_END[:] = [reg.get(v) for v in outs]
    return lines, order


def gen_perm(wide):
    """The permutation body up to the last ShiftBytes: straight-line code from the live-in
    registers to planes 0-7 in q0-q7, plane k in q(pos[k]): where the allocation leaves them
    when it is free to (a first allocation without final registers; the callers follow `pos`, so
    that no VSWPs end the body). Returns (lines, {pq: constant table in load order}, end frame,
    pos, the NOT constant left in every output byte after the last MixBytes)."""
    tables, poss, pends = {}, set(), set()
    for pq in (("P", "Q") if wide else ("P",)):
        p, outs, frame, consts, pend = build_perm(wide, pq, list(range(8)))
        live_in = {plane: r for r, plane in (LIVE_IN_WIDE if wide else LIVE_IN_512).items()}
        allocate(p, live_in, outs, None)
        pos = list(ALLOC_END) if sorted(ALLOC_END, key=str) == list(range(8)) else list(range(8))
        lines, order = allocate(p, live_in, outs, pos)
        tables[pq] = [consts[d] for d in order]
        poss.add(tuple(pos))
        pends.add(pend)
    assert len(poss) == 1, "P and Q bodies end differently"
    assert len(pends) == 1
    return lines, tables, frame, pos, pend


# Transposition output order: register d_i holds (polynomial basis) plane PI[i] (see
# `transpose`); after BASIS_INPLACE it holds BASIS plane SIG[i].
PI = [0, 2, 1, 3, 4, 6, 5, 7]
SIG = [TAU[PI[i]] for i in range(8)]
# Live-in registers of the permutation bodies (register -> plane), as the prologues leave them.
LIVE_IN_512 = {4: SIG[0], 0: SIG[1], 5: SIG[2], 1: SIG[3], 6: SIG[4], 2: SIG[5], 7: SIG[6], 3: SIG[7]}
LIVE_IN_WIDE = {0: SIG[0], 4: SIG[1], 1: SIG[2], 5: SIG[3], 2: SIG[4], 6: SIG[5], 3: SIG[6], 7: SIG[7]}
# Polynomial basis plane -> d register after `transpose(0)` (d8 + ... for transpose(4)), and
# -> q register after `load_wide`.
D_OF = {m: PI.index(m) for m in range(8)}
Q_OF_WIDE = {PI[i]: [0, 4, 1, 5, 2, 6, 3, 7][i] for i in range(8)}


def basis_d(base=0, inverse=False):
    """BASIS_INPLACE on the d registers of transpose(base // 2)'s output (2 VEORs), or back."""
    ops = reversed(BASIS_INPLACE) if inverse else BASIS_INPLACE
    return [f"veor d{base + D_OF[dd]}, d{base + D_OF[dd]}, d{base + D_OF[s]}" for dd, s in ops]


def basis_q(reg, inverse=False):
    """BASIS_INPLACE on q registers, reg: polynomial basis plane -> register, or back."""
    ops = reversed(BASIS_INPLACE) if inverse else BASIS_INPLACE
    return [f"veor q{reg[dd]}, q{reg[dd]}, q{reg[s]}" for dd, s in ops]


def h_not(base=0):
    """Complements the planes H_NOT of the converted chaining value in d(base)..d(base + 7)
    (a q register at a time where both halves are)."""
    L = []
    for qi in range(4):
        lo, hi = (H_NOT >> SIG[2 * qi]) & 1, (H_NOT >> SIG[2 * qi + 1]) & 1
        if lo and hi:
            L.append(f"vmvn q{base // 2 + qi}, q{base // 2 + qi}")
        elif lo or hi:
            d = base + 2 * qi + (0 if lo else 1)
            L.append(f"vmvn d{d}, d{d}")
    return L


# --- The functions around the permutation bodies ----------------------------------------------

SLOTS = 16 * len(SLOT_REGS)
# Bytes of one permutation's constant table: per round 8 planes and 2 ShiftBytes count vectors.
TABLE_BYTES = {}  # bytes of one permutation's constant table (set by generate)
RC_LABEL = {(False, "P"): ".Lneon7_rc512", (True, "P"): ".Lneon7_rc1024p", (True, "Q"): ".Lneon7_rc1024q"}
BODY = {True: ".Lneon7_perm1024"}  # the P|Q body is inline in c512
PENDING_PLANES = {}  # wide -> planes of the NOT constant a body and its last MixBytes leave (set by generate)


def masks(m=(8, 10)):
    """The swap masks 0x33 and 0x55 (their complements are VBIF's business), in q(m[0]), q(m[1])."""
    return [f"vmov.i8 q{m[0]}, #0x33", f"vmov.i8 q{m[1]}, #0x55"]


def swapmove(a, b, sh, masks=(8, 10), copy=None, tmp=(12, 13)):
    """Exchanges the bits of a selected by the mask of stage `sh` (index bit clear) shifted up
    with the bits of b (index bit set): VSRI/VSLI for sh = 4 (nibbles; `copy`: a register that
    already holds b, else b is copied to q(tmp[0])), VBIT with masks else (scratch: `tmp`)."""
    t0, t1 = tmp
    if sh == 4:
        c = [f"vorr q{t0}, q{b}, q{b}"] if copy is None else []
        return c + [f"vsri.8 q{b}, q{a}, #4", f"vsli.8 q{a}, q{t0 if copy is None else copy}, #4"]
    m = {2: masks[0], 1: masks[1]}[sh]
    return [f"vshr.u8 q{t0}, q{a}, #{sh}", f"vshl.u8 q{t1}, q{b}, #{sh}", f"vbit q{b}, q{t0}, q{m}",
            f"vbif q{a}, q{t1}, q{m}"]


def transpose(a, inverse=False, m=(8, 10), copies=False, tmp=(12, 13)):
    """Eight 8-byte words in d(2a)..d(2a+7) (q(a)..q(a+3)): swaps the bit-in-byte index with
    the word index (three swap stages on q registers; two VSWP re-pair the words for the last
    one). Forward leaves plane PI[i] in d(2a+i); inverse takes that order back. Uses q(tmp[0]),
    q(tmp[1]) and the masks in q(m[0]), q(m[1]); `copies`: the tmp registers already hold
    q(a+2) and q(a+3)."""
    s4 = (swapmove(a, a + 2, 4, copy=tmp[0] if copies else None, tmp=tmp)
          + swapmove(a + 1, a + 3, 4, copy=tmp[1] if copies else None, tmp=tmp))
    s2 = swapmove(a, a + 1, 2, m, tmp=tmp) + swapmove(a + 2, a + 3, 2, m, tmp=tmp)
    sw = [f"vswp d{2 * a + 1}, d{2 * a + 2}", f"vswp d{2 * a + 5}, d{2 * a + 6}"]
    s1 = swapmove(a, a + 1, 1, m, tmp=tmp) + swapmove(a + 2, a + 3, 1, m, tmp=tmp)
    return s1 + sw + s2 + s4 if inverse else s4 + s2 + sw + s1


def table_address(label, tag):
    pc = f".Lpc_{tag}"
    return [f"movw r3, #:lower16:({label} - ({pc} + 8))", f"movt r3, #:upper16:({label} - ({pc} + 8))",
            f"{pc}: add r3, pc, r3"]


def prologue(name, frame_bytes, base):
    lines = [f".globl {name}", f".type {name}, %function", ".p2align 2", f"{name}:",
             "push {r4-r12, lr}", "vpush {d8-d15}", f"sub sp, sp, #{frame_bytes}"]
    for i, r in enumerate(SLOT_REGS):
        lines.append(f"add {r}, sp, #{base + 16 * i}")
    return lines


def epilogue(name, frame_bytes):
    return [f"add sp, sp, #{frame_bytes}", "vpop {d8-d15}", "pop {r4-r12, pc}", f".size {name}, .-{name}"]


def h_rev(q0, n):
    """The chaining value's column words (uint64_t, row 0 in the most significant byte) to block
    byte order (byte 8c + r = row r) and back: a byte reversal of each 64-bit half."""
    return [f"vrev64.8 q{q0 + i}, q{q0 + i}" for i in range(n)]


def mix_tail(frame, pos):
    """The last round's MixBytes and the feed-forward of Grøstl-224/256, after the P|Q body's
    last ShiftBytes (plane k zipped in q(pos[k]), frame 6). MixBytes is linear and the same for
    P and Q, so P(..) ^ Q(..) = MixBytes(y_P ^ y_Q): one VUZP and one VEOR per two planes leave
    y_P ^ y_Q with two planes per q register (d halves), and MixBytes runs once on 8 planes of
    64 bits: a row rotation is a VEXT.8 of a d register (as many as before), an XOR of two values
    whose planes sit in the same halves of the same q registers one VEOR per two planes (half as
    many), else one per plane. The formula is the last round's: R^2 MixBytes(a) = 2(2x + R^3 v)
    + v with u = a + R^5 a, v = a + R^7 u + R u and x = R u + u (4 rotations, 6 XORs, 2 doublings),
    which turns the frame back to 0. The planes are paired as h in q8-q11 (d(16 + i) = plane
    SIG[i]); a doubling moves each plane to the slot of its neighbour, so 2x (and w) pair them
    otherwise: R^3 v is rotated into that pairing (a rotation writes d registers one by one) and
    only out = 2w + v goes plane by plane, into v's slots (the least over all pairings: 12
    instructions for out and the feed-forward). The NOT flags of the S-box outputs cover whole planes, P and Q alike, and
    cancel in y_P ^ y_Q. Ends with h ^ P ^ Q in q8-q11 and the transposition's masks (from sp + 64)
    in q12, q13."""
    assert frame == 6, frame
    L = []
    pairs = [(SIG[2 * i], SIG[2 * i + 1]) for i in range(4)]  # h's: q(8 + i) = (lo, hi)
    free = set(range(16)) - set(pos)
    a = {}
    for lo, hi in pairs:
        L += [f"vuzp.8 q{pos[lo]}, q{pos[hi]}", f"veor q{pos[lo]}, q{pos[lo]}, q{pos[hi]}"]
        a[lo], a[hi] = 2 * pos[lo], 2 * pos[lo] + 1
        free.add(pos[hi])

    def pairing(x):
        return [(lo, hi) for lo in range(8) for hi in range(8) if x[lo] % 2 == 0 and x[hi] == x[lo] + 1]

    def take(prs):
        qs = sorted(free)[:len(prs)]
        free.difference_update(qs)
        out = {}
        for q, (lo, hi) in zip(qs, prs):
            out[lo], out[hi] = 2 * q, 2 * q + 1
        return out

    def release(x):
        free.update(x[k] // 2 for k in range(8))

    def rot(x, k, prs):
        y = take(prs)
        L.extend(f"vext.8 d{y[j]}, d{x[j]}, d{x[j]}, #{k % 8}" for j in range(8))
        return y

    def xor(x, y, dst):
        """dst = x ^ y (dst: plane -> d register, may be x's or y's)."""
        done = set()
        for lo, hi in pairing(dst):
            if x[hi] == x[lo] + 1 and x[lo] % 2 == 0 and y[hi] == y[lo] + 1 and y[lo] % 2 == 0:
                L.append(f"veor q{dst[lo] // 2}, q{x[lo] // 2}, q{y[lo] // 2}")
                done |= {lo, hi}
        L.extend(f"veor d{dst[j]}, d{x[j]}, d{y[j]}" for j in range(8) if j not in done)
        return dst

    def dbl(z):
        """2z in place (DBL_SSA's XORs into the slots of planes that die there)."""
        z = {f"z{k}": r for k, r in z.items()}
        for t, s1, s2 in DBL_SSA:
            later = [x for u in DBL_SSA[DBL_SSA.index((t, s1, s2)) + 1:] for x in u[1:]] + DBL_OUT
            assert s1 not in later, "DBL_SSA: the first operand must die"
            L.append(f"veor d{z[s1]}, d{z[s1]}, d{z[s2]}")
            z[t] = z.pop(s1)
        return {k: z[DBL_OUT[k]] for k in range(8)}

    r5a = rot(a, 5, pairing(a))
    u = xor(a, r5a, r5a)
    ru = rot(u, 1, pairing(a))
    r7u = rot(u, 7, pairing(a))
    x = xor(u, ru, u)
    t = xor(a, r7u, a)
    release(r7u)
    v = xor(t, ru, t)
    release(ru)
    x2 = dbl(x)
    r3v = rot(v, 3, pairing(x2))
    w = xor(x2, r3v, x2)
    release(r3v)
    w2 = dbl(w)
    out = xor(w2, v, v)  # plane by plane into v's slots, which pair the planes as h does
    assert pairing(out) == sorted(pairs) and all(out[lo] // 2 < 8 for lo, _ in pairs), "q8-q13 are loaded next"
    L += ["vldmia sp, {d16-d27}"] + [f"veor q{8 + i}, q{8 + i}, q{out[lo] // 2}" for i, (lo, _) in enumerate(pairs)]
    return L


# The zips that end the block's transposition (P's and Q's planes side by side), scheduled
# with the body: the round constants' VLDM and the first XORs go between them.
ZIP512 = [f"vzip.8 q{4 + i}, q{i}" for i in range(4)]


def c512_pre():
    """The loop's part before .Lc512_zip: load and convert a message block, m ^ h, store h."""
    pre = ["vld1.8 {d0-d3}, [r1]!", "vld1.8 {d28-d31}, [r1]", "vld1.8 {d4-d7}, [r1]!"]
    pre += transpose(0, m=(12, 13), copies=True, tmp=(14, 15)) + basis_d()
    pre += [f"veor q{4 + i}, q{8 + i}, q{i}" for i in range(4)] + ["vstmia sp, {d16-d23}"]
    return a8_schedule(pre)


def c512_body(body, frame, pos):
    """The P|Q body of `gen_perm(False)` as the c512 loop runs it: the zips before it, two spill
    VSTMs split (`split_spills`), `mix_tail` after it, list-scheduled for the Cortex-A8."""
    return a8_schedule(ZIP512 + split_spills(body, SPLIT_SPILLS) + mix_tail(frame, pos))


def rewind_table(body):
    """The body's last constant load post-indexed by lr (= -(table - 32)): it rewinds r3 to the
    table's start for the next block."""
    last = max(i for i, ln in enumerate(body) if "[r3]" in ln)
    assert body[last].startswith("vld1.64 ") and body[last].endswith("[r3]!"), body[last]
    return body[:last] + [body[last][:-1] + ", lr"] + body[last + 1:]


def fn_c512(body):
    """The compression loop, with the P|Q body and `mix_tail` inline; the body's last constant
    load rewinds r3 to the table's start (post-index by lr = -(table - 32))."""
    name = "slicewise_groestl_neon7bs_c512"
    fb = 128 + SLOTS
    body = rewind_table(body)
    rewind = (-(TABLE_BYTES[False] - 32)) & 0xFFFFFFFF
    # Between blocks h stays in q8-q11 and the transposition's masks in q12, q13: h is stored
    # once per block for the feed-forward, and one VLDM of 12 registers after the body loads it
    # and the masks (kept at sp + 64, right after h: a 16-register VLDM with the masks in q14,
    # q15 blocked the A8's data-processing pipe for 2 cycles more). The block's words 4-7 are
    # loaded twice (into q2, q3 and q14, q15): the nibble swaps need a copy of them.
    L = prologue(name, fb, 128) + masks((12, 13)) + ["add r3, sp, #64", "vstmia r3, {d24-d27}"]
    # h is kept bitsliced in BASIS, its planes H_NOT complemented, at sp: ~h ^ m there is P's
    # input with Q's 0xff or a NOT on every plane, as the body's first round expects.
    L += ["vld1.8 {d0-d3}, [r0]!", "vld1.8 {d4-d7}, [r0]", "sub r0, r0, #32"] + h_rev(0, 4) + transpose(0, m=(12, 13), tmp=(14, 15)) + basis_d() + h_not()
    L += ["vstmia sp, {d0-d7}"] + table_address(RC_LABEL[(False, "P")], "c512")
    L += [f"movw lr, #{rewind & 0xFFFF}", f"movt lr, #{rewind >> 16}"]
    L += ["cmp r2, #0", "beq .Lc512_done", "vldmia sp, {d16-d23}", ".Lc512_loop:"]
    pre, body = a8_loop_order(c512_pre(), body)
    L += pre
    L += [".Lc512_zip:"] + body  # the zips (ZIP512) and the tail (`mix_tail`) included
    L += ["subs r2, r2, #1", "bne .Lc512_loop", "vstmia sp, {d16-d23}", ".Lc512_done:"]
    L += ["vldmia sp, {d0-d7}"] + h_not() + basis_d(inverse=True) + masks() + transpose(0, True) + h_rev(0, 4)
    L += ["vst1.8 {d0-d3}, [r0]!", "vst1.8 {d4-d7}, [r0]"]
    return L + epilogue(name, fb)


def fn_o512():
    """h = P(h) ^ h: c512's loop for one zero block (its Q computes the constant Q(0)), entered
    at its zips with P's input made here (h in BASIS, the planes H_NOT complemented) and
    Q's zero, h ^ Q(0) (bitsliced, Q0_LABEL) as the chaining value at sp, so that the feed-
    forward leaves h ^ P(h); c512's tail converts, stores and returns (the same frame)."""
    name = "slicewise_groestl_neon7bs_o512"
    fb = 128 + SLOTS
    rewind = (-(TABLE_BYTES[False] - 32)) & 0xFFFFFFFF
    L = prologue(name, fb, 128) + masks()
    L += ["vld1.8 {d8-d11}, [r0]!", "vld1.8 {d12-d15}, [r0]", "sub r0, r0, #32"] + h_rev(4, 4) + transpose(4) + basis_d(8) + h_not(8)
    L += table_address(Q0_LABEL, "o512q") + ["vld1.64 {d0-d3}, [r3]!", "vld1.64 {d4-d7}, [r3]"]
    L += [f"veor q{i}, q{i}, q{4 + i}" for i in range(4)] + ["vstmia sp, {d0-d7}"] + [f"vmov.i8 q{i}, #0" for i in range(4)]
    L += table_address(RC_LABEL[(False, "P")], "o512") + [f"movw lr, #{rewind & 0xFFFF}", f"movt lr, #{rewind >> 16}"]
    L += ["mov r2, #1", "b .Lc512_zip", f".size {name}, .-{name}"]
    return L


Q0_LABEL = ".Lneon7_q0_512"


def q0_table():
    """Q(0) of Grøstl-224/256 bitsliced as the chaining value at sp (d register i = plane SIG[i],
    byte r = row r, bit c = column c), as four 128-bit table entries."""
    q0 = ref_perm([[0] * 8 for _ in range(8)], 8, "Q")
    d = [sum(sum(((to_basis(q0[c][r]) >> SIG[i]) & 1) << c for c in range(8)) << (8 * r) for r in range(8)) for i in range(8)]
    return [d[2 * k] | d[2 * k + 1] << 64 for k in range(4)]


def load_wide(src, post):
    L = [f"vld1.8 {{d{4 * i}-d{4 * i + 3}}}, [{src}]!" for i in range(4)]
    if not post:
        L.append(f"sub {src}, {src}, #128")
    if src == "r0":
        L += h_rev(0, 8)
    L += masks() + transpose(0) + transpose(4) + [f"vzip.8 q{i}, q{4 + i}" for i in range(4)]
    return L + basis_q(Q_OF_WIDE)


def wide_tail(frame, pos, target=None):
    """The last MixBytes of Grøstl-384/512 (R^2 of it, which turns the frame 6 back to 0), from
    plane k in q(pos[k]) to plane k in q(target[k]), or where the allocation leaves it if that is
    in q0-q7 (target None, else q k): after P ^ Q in c1024 (once for both permutations), after P
    in o1024. Returns (lines, the planes' registers)."""
    assert frame == 6, frame
    p = Prog()
    a = [p.new() for _ in range(8)]
    out = mix_bytes(p, a, 2)
    live_in = {k: pos[k] for k in range(8)}
    if target is None:
        lines, order = allocate(p, live_in, out, None)
        if sorted(ALLOC_END, key=str) == list(range(8)):
            return lines, list(ALLOC_END)
        target = list(range(8))
    lines, order = allocate(p, live_in, out, list(target))
    assert not order and sorted(target) == list(range(8))
    return lines, list(target)


def fn_c1024(frame, pos):
    name = "slicewise_groestl_neon7bs_c1024"
    fb = 384 + SLOTS
    mu = LIVE_IN_WIDE
    # The bodies stop before the last MixBytes; P's and Q's planes are in the same registers
    # (plane k in q(pos[k])): their XOR is register by register, and the last MixBytes runs once
    # on it (`wide_tail`), leaving plane k in q(end[k]) for the feed-forward.
    tail, end = wide_tail(frame, pos)
    tail = a8_schedule(tail)
    acc = ["vldmia sp, {d16-d31}"] + [f"veor q{8 + i}, q{8 + i}, q{end[mu[i]]}" for i in range(8)] + ["vstmia sp, {d16-d31}"]
    # h at sp, the block (Q's input) at sp + 128, P's planes before its last MixBytes at
    # sp + 256. All in BASIS.
    L = prologue(name, fb, 384) + load_wide("r0", False) + ["vstmia sp, {d0-d15}"]
    L += table_address(RC_LABEL[(True, "P")], "c1024p")
    L += ["cmp r2, #0", "beq .Lc1024_done", ".Lc1024_loop:"] + load_wide("r1", True)
    L += ["add lr, sp, #128", "vstmia lr, {d0-d15}", "vldmia sp, {d16-d31}"]
    L += [f"veor q{i}, q{i}, q{8 + i}" for i in range(8)]
    # Q's constant table follows P's (see generate): r3 runs through both, then back.
    L += [f"bl {BODY[True]}", "add lr, sp, #256", "vstmia lr, {d0-d15}"]
    L += ["add lr, sp, #128", "vldmia lr, {d0-d15}"]
    L += [f"bl {BODY[True]}", f"sub r3, r3, #{2 * TABLE_BYTES[True]}", "add lr, sp, #256", "vldmia lr, {d16-d31}"]
    L += [f"veor q{i}, q{i}, q{8 + i}" for i in range(8)] + tail + acc
    L += ["subs r2, r2, #1", "bne .Lc1024_loop", ".Lc1024_done:", "vldmia sp, {d0-d15}"] + basis_q(Q_OF_WIDE, True)
    L += [f"vuzp.8 q{i}, q{4 + i}" for i in range(4)] + masks() + transpose(0, True) + transpose(4, True) + h_rev(0, 8)
    L += [f"vst1.8 {{d{4 * i}-d{4 * i + 3}}}, [r0]!" for i in range(4)]
    return L + epilogue(name, fb)


def fn_o1024(frame, pos):
    name = "slicewise_groestl_neon7bs_o1024"
    fb = 128 + SLOTS
    mu = LIVE_IN_WIDE
    # Plane TAU[m] (in BASIS) to q m: BASIS_INPLACE backwards then leaves polynomial plane m in q m.
    target = [0] * 8
    for m in range(8):
        target[TAU[m]] = m
    L = prologue(name, fb, 128) + load_wide("r0", False) + ["vstmia sp, {d0-d15}"]
    L += table_address(RC_LABEL[(True, "P")], "o1024") + [f"bl {BODY[True]}"] + wide_tail(frame, pos, target)[0]
    L += ["vldmia sp, {d16-d31}"] + [f"veor q{target[mu[i]]}, q{target[mu[i]]}, q{8 + i}" for i in range(8)]
    L += [f"vmvn q{target[k]}, q{target[k]}" for k in PENDING_PLANES[True]] + basis_q({m: m for m in range(8)}, True)
    L += [f"vuzp.8 q{a}, q{b}" for a, b in [(0, 2), (1, 3), (4, 6), (5, 7)]] + ["vswp q2, q4", "vswp q3, q5"]
    L += masks() + transpose(0, True) + transpose(4, True) + h_rev(0, 8)
    L += [f"vst1.8 {{d{4 * i}-d{4 * i + 3}}}, [r0]!" for i in range(4)]
    return L + epilogue(name, fb)



# --- neon7tt: T-tables with NEON accumulation (paper [V] §5.1); NOT constant-time ------------
#
# The state lives in NEON registers as 64-bit column words in the canonical order (row 0 in the
# most significant byte, so the byte of row r is byte 7 - r of its d register), two columns per
# q register: the accumulators d16-d31 (Grøstl-224/256: P's columns in d16-d23 and Q's in
# d24-d31; Grøstl-384/512, one permutation at a time: column p in the low and p + 8 in the high
# half of the q register TT_PAIR_Q[p]). Every output column is the XOR of eight 64-bit table words
# T_r[byte] (the tables of `ttable64`, passed by Rust). A round is one loop iteration, in two
# phases:
# - addresses: per q register of the state, two VSHLL.U8 #3 widen its 16 bytes to byte * 8 in
#   16-bit lanes, and four VADDW.U16 add them to vectors of table bases (q0 = T7..T4, q1 = T3..T0,
#   lane k of a column is row 7 - k): 16 table addresses, which one VSTM writes to a buffer
#   (6 + 1 instructions per 16 look-ups instead of an LDRB and an address ADD per look-up);
# - look-ups: one VLDM loads the next round's constants into the accumulators (zeros after the
#   last round); then per eight addresses one LDMDB (walking the buffer back, so its pointer ends
#   where it began) into r4-r11 and, per pair of look-ups that land in the two halves of one
#   accumulator, two VLD1.64 and one VEOR of q registers. ShiftBytes is free: an address is
#   routed to the accumulator of its output column. Grøstl-224/256: each group of eight is one
#   input column, whose eight rows land in eight different output columns; Grøstl-384/512: the
#   same four rows of columns p and p + 8, which land in the two halves of one accumulator.
# Per look-up: 1 VLD1, 1/2 VEOR, 1/8 LDMDB and 7/16 for the addresses.

TT_RC = {(8, "PQ"): ".Lneon7tt_rc512", (8, "P"): ".Lneon7tt_rc512p", (16, "PQ"): ".Lneon7tt_rc1024"}
# Grøstl-384/512: the accumulator of columns p and p + 8 (the layout that four VSWPs make out of
# sixteen columns loaded in order: q8-q15 = columns (0, 1), (2, 3), ..., (14, 15)).
TT_PAIR_Q = {p: 8 + p // 2 if p % 2 == 0 else 12 + p // 2 for p in range(8)}
TT_SWAPS = ["vswp d17, d24", "vswp d19, d26", "vswp d21, d28", "vswp d23, d30"]
TT_FRAME = 512  # the address buffer at sp: 16 columns x 8 addresses


def tt_dreg(cols, pq, c):
    """The accumulator d register of column c of permutation pq."""
    if cols == 16:
        return 2 * TT_PAIR_Q[c % 8] + c // 8
    return 16 + c + (8 if pq == "Q" else 0)


def tt_col_of(cols, halves):
    """d register -> (pq, column), for the accumulators in use."""
    out = {}
    for pq in halves:
        for c in range(cols):
            out[tt_dreg(cols, pq, c)] = (pq, c)
    return out


def tt_round(cols, halves, tag):
    """One round loop of the permutations in `halves` ("P", "Q"; side by side for 8 columns):
    the state, its constant added, in the accumulators before and after; r3 at the next
    round's constants, lr counting rounds, r12 at the address buffer."""
    colof = tt_col_of(cols, halves)
    accs = sorted({d // 2 for d in colof})
    n = 2 * len(accs)
    L = [f".Ltt_{tag}:"]
    groups = []  # per LDM group of 8 words: [(pq, column, row)]
    for q in accs:
        lo, hi = colof[2 * q], colof[2 * q + 1]
        L += [f"vshll.u8 q2, d{2 * q}, #3", f"vshll.u8 q3, d{2 * q + 1}, #3"]
        if cols == 8:
            # q4, q5: the low column's rows 7-4 and 3-0; q6, q7 the high column's.
            L += ["vaddw.u16 q4, q0, d4", "vaddw.u16 q5, q1, d5", "vaddw.u16 q6, q0, d6", "vaddw.u16 q7, q1, d7"]
            groups += [[(*lo, r) for r in range(7, -1, -1)], [(*hi, r) for r in range(7, -1, -1)]]
        else:
            # q4, q5: rows 7-4 of the low and the high column; q6, q7: rows 3-0.
            L += ["vaddw.u16 q4, q0, d4", "vaddw.u16 q5, q0, d6", "vaddw.u16 q6, q1, d5", "vaddw.u16 q7, q1, d7"]
            groups += [[(*lo, r) for r in (7, 6, 5, 4)] + [(*hi, r) for r in (7, 6, 5, 4)],
                       [(*lo, r) for r in (3, 2, 1, 0)] + [(*hi, r) for r in (3, 2, 1, 0)]]
        L.append("vstmia r12!, {d8-d15}")
    L.append(f"vldmia r3!, {{d16-d{15 + n}}}")
    t = 0
    for g in reversed(groups):
        L.append("ldmdb r12!, {r4-r11}")
        into = {}  # accumulator d register -> address registers
        for k, (pq, c, r) in enumerate(g):
            d = tt_dreg(cols, pq, (c - SIGMA[(cols, pq)][r]) % cols)
            into.setdefault(d, []).append(f"r{4 + k}")
        for q in sorted({d // 2 for d in into}):
            los, his = into.get(2 * q, []), into.get(2 * q + 1, [])
            assert len(los) == len(his), "look-ups do not pair up"
            for a, b in zip(los, his):
                tq = 2 + t % 6
                t += 1
                L += [f"vld1.64 {{d{2 * tq}}}, [{a}]", f"vld1.64 {{d{2 * tq + 1}}}, [{b}]", f"veor q{q}, q{q}, q{tq}"]
    return L + ["subs lr, lr, #1", f"bne .Ltt_{tag}"]


def tt_consts(cols, halves, zeros=True):
    """Round constants in accumulator order (d16 first), rounds 0..R-1 and, for the round after
    the last, zeros; 128-bit table entries."""
    word = lambda col: sum(col[r] << (8 * (7 - r)) for r in range(8))  # noqa: E731
    colof = tt_col_of(cols, halves)
    ds = sorted(colof)
    out = []
    for rnd in range(ROUNDS[cols]):
        ws = [word(ref_rc(cols, colof[d][0], rnd)[colof[d][1]]) for d in ds]
        out += [ws[k] | ws[k + 1] << 64 for k in range(0, len(ws), 2)]
    return out + [0] * (len(ds) // 2 if zeros else 0)


def tt_prologue(name, fb):
    """Saves registers, reserves fb bytes at sp; the table bases from r3 into q0 (T7..T4) and
    q1 (T3..T0); r12 = sp."""
    L = [f".globl {name}", f".type {name}, %function", ".p2align 2", f"{name}:",
         "push {r4-r12, lr}", "vpush {d8-d15}", f"sub sp, sp, #{fb}"]
    for k, (a, b) in enumerate(((7, 6), (5, 4), (3, 2), (1, 0))):
        L += [f"add r5, r3, #{2048 * a}"]
        L += [f"add r6, r3, #{2048 * b}", f"vmov d{k}, r5, r6"] if b else [f"vmov d{k}, r5, r3"]
    return L + ["mov r12, sp"]


def tt_xor_mem(ptr, store, advance=False):
    """q8-q15 ^= the 128 bytes at ptr (in two loads through q2-q7); with `store`, the sums go
    back to memory instead (q8-q15 unchanged). ptr is restored, or with `advance` left 128
    bytes further."""
    if advance:
        L = [f"vldmia {ptr}!, {{d4-d15}}"] + [f"veor q{8 + i}, q{8 + i}, q{2 + i}" for i in range(6)]
        return L + [f"vldmia {ptr}!, {{d4-d7}}", "veor q14, q14, q2", "veor q15, q15, q3"]
    L = [f"vldmia {ptr}{'' if store else '!'}, {{d4-d15}}"]
    if store:
        L += [f"veor q{2 + i}, q{2 + i}, q{8 + i}" for i in range(6)] + [f"vstmia {ptr}!, {{d4-d15}}"]
        L += [f"vldmia {ptr}, {{d4-d7}}", "veor q2, q2, q14", "veor q3, q3, q15", f"vstmia {ptr}, {{d4-d7}}"]
    else:
        L += [f"veor q{8 + i}, q{8 + i}, q{2 + i}" for i in range(6)]
        L += [f"vldmia {ptr}, {{d4-d7}}", "veor q14, q14, q2", "veor q15, q15, q3"]
    return L + [f"sub {ptr}, {ptr}, #96"]


def tt_functions():
    """void slicewise_groestl_neon7tt_c512(uint64_t h[8], const uint8_t *blocks, size_t n,
    const uint64_t tables[8][256]), _o512(uint64_t h[8], (unused), (unused), tables) and the
    1024-bit versions (h[16]). Returns (lines, constant tables)."""
    L = []
    rc = lambda cols, k: 16 * len(tt_consts(cols, k))  # noqa: E731  bytes per permutation table
    # Grøstl-224/256: P in d16-d23, Q in d24-d31.
    name = "slicewise_groestl_neon7tt_c512"
    L += tt_prologue(name, TT_FRAME) + table_address(TT_RC[(8, "PQ")], "ttc512")
    L += ["cmp r2, #0", "beq .Ltt_c512_done", ".Ltt_c512_loop:", "vldmia r3!, {d16-d31}"]
    L += ["vld1.8 {d4-d7}, [r1]!", "vld1.8 {d8-d11}, [r1]!"] + [f"vrev64.8 q{2 + i}, q{2 + i}" for i in range(4)]
    L += [f"veor q{8 + i}, q{8 + i}, q{2 + i}" for i in range(4)] + [f"veor q{12 + i}, q{12 + i}, q{2 + i}" for i in range(4)]
    L += ["vldmia r0, {d4-d11}"] + [f"veor q{8 + i}, q{8 + i}, q{2 + i}" for i in range(4)]
    L += [f"mov lr, #{ROUNDS[8]}"] + tt_round(8, "PQ", "c512") + [f"sub r3, r3, #{rc(8, 'PQ')}"]
    L += ["vldmia r0, {d4-d11}"] + [f"veor q{2 + i}, q{2 + i}, q{8 + i}" for i in range(4)]
    L += [f"veor q{2 + i}, q{2 + i}, q{12 + i}" for i in range(4)] + ["vstmia r0, {d4-d11}"]
    L += ["subs r2, r2, #1", "bne .Ltt_c512_loop", ".Ltt_c512_done:"] + epilogue(name, TT_FRAME)
    name = "slicewise_groestl_neon7tt_o512"
    L += tt_prologue(name, TT_FRAME) + table_address(TT_RC[(8, "P")], "tto512")
    L += ["vldmia r0, {d16-d23}", "vldmia r3!, {d4-d11}"] + [f"veor q{8 + i}, q{8 + i}, q{2 + i}" for i in range(4)]
    L += [f"mov lr, #{ROUNDS[8]}"] + tt_round(8, "P", "o512")
    L += ["vldmia r0, {d4-d11}"] + [f"veor q{8 + i}, q{8 + i}, q{2 + i}" for i in range(4)]
    L += ["vstmia r0, {d16-d23}"] + epilogue(name, TT_FRAME)
    # Grøstl-384/512: the chaining value in the accumulator layout with P's first constant
    # added (g) stays in h's buffer during the call; the block's 128 bytes (same layout) are
    # kept at sp + 512 for Q. Table: P's constants (rounds 0-13, zeros), then Q's.
    name = "slicewise_groestl_neon7tt_c1024"
    conv = ["vldmia r0, {d16-d31}"] + TT_SWAPS + tt_xor_mem("r3", False, True) + ["vstmia r0, {d16-d31}"]
    L += tt_prologue(name, TT_FRAME + 128) + table_address(TT_RC[(16, "PQ")], "ttc1024") + conv
    L += ["cmp r2, #0", "beq .Ltt_c1024_done", ".Ltt_c1024_loop:"]
    L += [f"vld1.8 {{d{16 + 4 * i}-d{19 + 4 * i}}}, [r1]!" for i in range(4)] + [f"vrev64.8 q{8 + i}, q{8 + i}" for i in range(8)]
    L += TT_SWAPS + ["add lr, sp, #512", "vstmia lr, {d16-d31}"] + tt_xor_mem("r0", False)
    L += ["bl .Lneon7tt_perm1024p"] + tt_xor_mem("r0", True)
    L += ["add lr, sp, #512", "vldmia lr, {d16-d31}"] + tt_xor_mem("r3", False, True)
    L += ["bl .Lneon7tt_perm1024q"] + tt_xor_mem("r0", True)
    L += [f"sub r3, r3, #{2 * rc(16, 'P') - 128}", "subs r2, r2, #1", "bne .Ltt_c1024_loop", ".Ltt_c1024_done:"]
    L += ["vldmia r0, {d16-d31}", "sub r3, r3, #128"] + tt_xor_mem("r3", False) + TT_SWAPS + ["vstmia r0, {d16-d31}"]
    L += epilogue(name, TT_FRAME + 128)
    name = "slicewise_groestl_neon7tt_o1024"
    L += tt_prologue(name, TT_FRAME) + table_address(TT_RC[(16, "PQ")], "tto1024")
    L += ["vldmia r0, {d16-d31}"] + TT_SWAPS + tt_xor_mem("r3", False, True)
    L += ["bl .Lneon7tt_perm1024p"] + TT_SWAPS + tt_xor_mem("r0", True) + epilogue(name, TT_FRAME)
    # The Grøstl-384/512 permutations, called with the state and r3 as the round loops want them
    # (lr, the round counter, saved around them).
    for pq in ("P", "Q"):
        L += [".p2align 2", f".Lneon7tt_perm1024{pq.lower()}:", "push {lr}", f"mov lr, #{ROUNDS[16]}"]
        L += tt_round(16, pq, f"perm1024{pq.lower()}") + ["pop {pc}"]
    tables = {TT_RC[(8, "PQ")]: tt_consts(8, "PQ"), TT_RC[(8, "P")]: tt_consts(8, "P"),
              TT_RC[(16, "PQ")]: tt_consts(16, "P") + tt_consts(16, "Q")}
    return L, tables


def tt_tables():
    out = []
    for r in range(8):
        for x in range(256):
            w = 0
            for i in range(8):
                w |= gmul(MIXROW[(r - i) % 8], SBOX[x]) << (56 - 8 * i)
            out.append(w)
    return out


def tt_check(lines, tables, rng):
    tab = b"".join(w.to_bytes(8, "little") for w in tt_tables())
    for cols, c_fn, o_fn in ((8, "slicewise_groestl_neon7tt_c512", "slicewise_groestl_neon7tt_o512"),
                             (16, "slicewise_groestl_neon7tt_c1024", "slicewise_groestl_neon7tt_o1024")):
        n = 8 * cols
        for nblocks in (0, 1, 2):
            mach = Machine(lines, tables)
            mach.mem[0x40000:0x40000 + len(tab)] = tab
            h = [rng.randrange(256) for _ in range(n)]
            blocks = [rng.randrange(256) for _ in range(n * nblocks)]
            words = lambda b: b"".join(bytes(reversed(b[8 * c:8 * c + 8])) for c in range(cols))
            mach.mem[0x1000:0x1000 + n] = words(h)
            mach.mem[0x2000:0x2000 + len(blocks)] = bytes(blocks)
            mach.run(c_fn, [0x1000, 0x2000, nblocks, 0x40000])
            want = ref_compress(h, blocks, cols)
            assert bytes(mach.mem[0x1000:0x1000 + n]) == words(want), (c_fn, nblocks)
            mach.run(o_fn, [0x1000, 0, 0, 0x40000])
            assert bytes(mach.mem[0x1000:0x1000 + n]) == words(ref_output(want, cols)), o_fn



# --- neon7vp: bytesliced, vector-permute S-box with VTBL (paper [V] §5.3) -------------------
#
# One q register per row: P's row in the low d half and Q's in the high half (Grøstl-224/256),
# or columns 0-7 and 8-15 of one permutation (Grøstl-384/512, P then Q). Per row: one VTBL pair
# does ShiftBytes (indices loaded with the row's key), one VEOR adds the round constant, and the
# S-box is Hamburg's vector permute (the `vpaes` tables of consts.rs, nine 16-byte look-ups,
# i.e. 18 VTBL.8 on d registers). The S-box leaves S(x) ^ 0x63, folded into the next round's
# keys. MixBytes is the synthesized word program (crates/groestl/src/generated/mixbytes.rs:
# 43 XORs and 16 doublings of 4 instructions), register-allocated like the bitsliced body.
# Rows live in a stack buffer between the two halves of a round (the S-box needs 7 table
# registers). Constant-time: VTBL is a register permute.

VPAES = {}
for _name, _lo, _hi in re.findall(r"pub const (\w+): \[u64; 2\] = \[(0x[0-9A-F_]+), (0x[0-9A-F_]+)\]",
                                   open(os.path.join(ROOT, "crates/groestl/src/consts.rs"), encoding="utf-8").read()):
    VPAES[_name] = int(_lo.replace("_", ""), 16) | int(_hi.replace("_", ""), 16) << 64
VP_TABLES = ["IPT_LO", "IPT_HI", "INVA", "INV", "SBOU", "SBOT"]  # q10-q15
VP_SLOTS = ["r10", "r11", "r12"]  # spill slots of the MixBytes program


def mix_program():
    """The word program of generated/mixbytes.rs: [(name, "xor", a, b) | (name, "mb", x, y, z)]."""
    src = open(os.path.join(ROOT, "crates/groestl/src/generated/mixbytes.rs"), encoding="utf-8").read()
    prog = []
    for name, fn, args in re.findall(r"let (\w+) = \$(xor|mb_out)\(([^)]*)\);", src):
        prog.append((name, fn, [a.strip() for a in args.split(",")]))
    outs = re.search(r"\[(t\d+(?:, t\d+){7})\]", src).group(1).split(", ")
    return prog, outs


def vp_mix_ir():
    """MixBytes of rows q0-q7 as IR (inputs 0-7 = rows), with doublings (a + a) ^ (0x1b & (a >> 7))."""
    p = Prog()
    env = {f"x{i}": p.new() for i in range(8)}
    prog, outs = mix_program()
    k = p.op("imm", [], 0x1B)

    def dbl(a):
        return p.op("xor", [p.op("add8", [a]), p.op("and", [p.op("sar7", [a]), k])])

    for name, fn, args in prog:
        if fn == "xor":
            env[name] = p.op("xor", [env[args[0]], env[args[1]]])
        else:
            x, y, z = (env[a] for a in args)
            env[name] = p.op("xor", [dbl(p.op("xor", [dbl(x), y])), z])
    return p, [env[o] for o in outs]


def vp_sbox_row():
    """ShiftBytes, key and S-box of the row loaded into q8 (d16-d17); result stored from q2."""
    return [
        "vld1.64 {d16-d17}, [r6]!", "vld1.64 {d0-d3}, [r3]!",
        "vtbl.8 d4, {d16-d17}, d0", "vtbl.8 d5, {d16-d17}, d1", "veor q2, q2, q1",
        "vand q3, q2, q9", "vshr.u8 q4, q2, #4",
        "vtbl.8 d10, {d20-d21}, d6", "vtbl.8 d11, {d20-d21}, d7",
        "vtbl.8 d12, {d22-d23}, d8", "vtbl.8 d13, {d22-d23}, d9", "veor q5, q5, q6",
        "vand q3, q5, q9", "vshr.u8 q4, q5, #4", "veor q5, q4, q3",
        "vtbl.8 d12, {d24-d25}, d6", "vtbl.8 d13, {d24-d25}, d7",
        "vtbl.8 d14, {d26-d27}, d8", "vtbl.8 d15, {d26-d27}, d9", "veor q7, q7, q6",
        "vtbl.8 d0, {d26-d27}, d10", "vtbl.8 d1, {d26-d27}, d11", "veor q0, q0, q6",
        "vtbl.8 d2, {d26-d27}, d14", "vtbl.8 d3, {d26-d27}, d15", "veor q1, q1, q5",
        "vtbl.8 d12, {d26-d27}, d0", "vtbl.8 d13, {d26-d27}, d1", "veor q6, q6, q4",
        "vtbl.8 d4, {d28-d29}, d2", "vtbl.8 d5, {d28-d29}, d3",
        "vtbl.8 d6, {d30-d31}, d12", "vtbl.8 d7, {d30-d31}, d13", "veor q2, q2, q3",
        "vst1.64 {d4-d5}, [r7]!",
    ]


def vp_body(mix_lines, rounds):
    """Rows in the buffer at r4 (128 bytes), constants from r3: per round the six S-box tables,
    then per row its VTBL indices and key. Ends with the rows in q0-q7 and in the buffer."""
    L = []
    for _ in range(rounds):
        L += ["vldmia r3!, {d20-d31}", "vmov.i8 q9, #0x0f", "mov r6, r4", "mov r7, r5"]
        for _r in range(8):
            L += vp_sbox_row()
        L += ["vldmia r5, {d0-d15}"] + mix_lines + ["vstmia r4, {d0-d15}"]
    return L


def vp_consts(cols, pq):
    """Constant stream of one permutation: per round the tables, then (indices, key) per row."""
    out = []
    for rnd in range(ROUNDS[cols]):
        out += [VPAES[t] for t in VP_TABLES]
        pend = 0xA5 if rnd else 0
        for r in range(8):
            idx = key = 0
            for pos in range(16):
                if cols == 8:
                    who, c = ("P", pos) if pos < 8 else ("Q", pos - 8)
                    src = (c + SIGMA[(8, who)][r]) % 8
                    rc = ref_rc(8, who, rnd)[src][r]
                    i = src + (8 if who == "Q" else 0)
                else:
                    src = (pos + SIGMA[(16, pq)][r]) % 16
                    rc = ref_rc(16, pq, rnd)[src][r]
                    i = src
                idx |= i << (8 * pos)
                key |= (rc ^ pend) << (8 * pos)
            out += [idx, key]
    return out


def vp_transpose(d0):
    """8 x 8 byte transpose of d(d0)..d(d0+7) (columns to rows), VTRN at three sizes."""
    L = []
    for size, pairs in ((8, [(0, 1), (2, 3), (4, 5), (6, 7)]), (16, [(0, 2), (1, 3), (4, 6), (5, 7)]),
                        (32, [(0, 4), (1, 5), (2, 6), (3, 7)])):
        L += [f"vtrn.{size} d{d0 + a}, d{d0 + b}" for a, b in pairs]
    return L


def vp_functions(mix_lines):
    """void slicewise_groestl_neon7vp_c512(uint64_t h[8], const uint8_t *blocks, size_t n),
    _o512(uint64_t h[8]) and the 1024-bit versions (h[16]), canonical column words as neon7bs."""
    L = []
    pro = lambda name, fb: [f".globl {name}", f".type {name}, %function", ".p2align 2", f"{name}:",
                            "push {r4-r12, lr}", "vpush {d8-d15}", f"sub sp, sp, #{fb + 48}", "mov r4, sp",
                            "add r5, sp, #128", "add r8, sp, #256"] + [f"add {r}, sp, #{fb + 16 * i}" for i, r in enumerate(VP_SLOTS)]
    # Grøstl-224/256: X = sp (rows), Y = sp + 128 (S-box outputs), H = sp + 256 (8 rows of h).
    name = "slicewise_groestl_neon7vp_c512"
    L += pro(name, 320) + ["vld1.8 {d16-d19}, [r0]!", "vld1.8 {d20-d23}, [r0]", "sub r0, r0, #32"] + h_rev(8, 4)
    L += vp_transpose(16) + ["vstmia r8, {d16-d23}", "cmp r2, #0", "beq .Lvp_c512_done", ".Lvp_c512_loop:"]
    L += ["vld1.8 {d16-d19}, [r1]!", "vld1.8 {d20-d23}, [r1]!"] + vp_transpose(16) + ["vldmia r8, {d24-d31}"]
    for r in range(8):
        L += [f"veor d{2 * r}, d{24 + r}, d{16 + r}", f"vorr d{2 * r + 1}, d{16 + r}, d{16 + r}"]
    L += ["vstmia r4, {d0-d15}"] + table_address(".Lneon7vp_rc512", "vpc512") + ["bl .Lneon7vp_perm512"]
    L += ["vldmia r8, {d24-d31}"]
    for r in range(8):
        L += [f"veor d{24 + r}, d{24 + r}, d{2 * r}", f"veor d{24 + r}, d{24 + r}, d{2 * r + 1}"]
    L += ["vstmia r8, {d24-d31}", "subs r2, r2, #1", "bne .Lvp_c512_loop", ".Lvp_c512_done:"]
    L += ["vldmia r8, {d16-d23}"] + vp_transpose(16) + h_rev(8, 4) + ["vst1.8 {d16-d19}, [r0]!", "vst1.8 {d20-d23}, [r0]"]
    L += epilogue(name, 368)
    name = "slicewise_groestl_neon7vp_o512"
    L += pro(name, 320) + ["vld1.8 {d16-d19}, [r0]!", "vld1.8 {d20-d23}, [r0]", "sub r0, r0, #32"] + h_rev(8, 4)
    L += vp_transpose(16) + ["vstmia r8, {d16-d23}"]
    for r in range(8):
        L += [f"vorr d{2 * r}, d{16 + r}, d{16 + r}", f"vorr d{2 * r + 1}, d{16 + r}, d{16 + r}"]
    L += ["vstmia r4, {d0-d15}"] + table_address(".Lneon7vp_rc512", "vpo512") + ["bl .Lneon7vp_perm512"]
    L += ["vldmia r8, {d16-d23}", "vmov.i8 d24, #0xa5"]
    for r in range(8):
        L += [f"veor d{16 + r}, d{16 + r}, d{2 * r}", f"veor d{16 + r}, d{16 + r}, d24"]
    L += vp_transpose(16) + h_rev(8, 4) + ["vst1.8 {d16-d19}, [r0]!", "vst1.8 {d20-d23}, [r0]"] + epilogue(name, 368)
    # Grøstl-384/512: X = sp, Y = sp + 128, H = sp + 256 (rows, 128 bytes), M = sp + 384.
    load = lambda src: ([f"vld1.8 {{d{16 + 4 * i}-d{19 + 4 * i}}}, [{src}]!" for i in range(4)]
                        + (h_rev(8, 8) if src == "r0" else []) + vp_transpose(16) + vp_transpose(24)
                        + [f"vorr d{2 * r + h}, d{16 + 8 * h + r}, d{16 + 8 * h + r}" for r in range(8) for h in (0, 1)])
    name = "slicewise_groestl_neon7vp_c1024"
    L += pro(name, 512) + ["add r9, sp, #384"] + load("r0") + ["sub r0, r0, #128", "vstmia r8, {d0-d15}"]
    L += ["cmp r2, #0", "beq .Lvp_c1024_done", ".Lvp_c1024_loop:"] + load("r1") + ["vstmia r9, {d0-d15}"]
    L += ["vldmia r8, {d16-d31}"] + [f"veor q{i}, q{i}, q{8 + i}" for i in range(8)] + ["vstmia r4, {d0-d15}"]
    acc = ["vldmia r8, {d16-d31}"] + [f"veor q{8 + i}, q{8 + i}, q{i}" for i in range(8)] + ["vstmia r8, {d16-d31}"]
    L += table_address(".Lneon7vp_rc1024p", "vpc1024p") + ["bl .Lneon7vp_perm1024"] + acc
    L += ["vldmia r9, {d0-d15}", "vstmia r4, {d0-d15}"]
    L += table_address(".Lneon7vp_rc1024q", "vpc1024q") + ["bl .Lneon7vp_perm1024"] + acc
    L += ["subs r2, r2, #1", "bne .Lvp_c1024_loop", ".Lvp_c1024_done:", "vldmia r8, {d0-d15}"]
    unload = ([f"vorr d{16 + 8 * h + r}, d{2 * r + h}, d{2 * r + h}" for r in range(8) for h in (0, 1)]
              + vp_transpose(16) + vp_transpose(24) + h_rev(8, 8) + [f"vst1.8 {{d{16 + 4 * i}-d{19 + 4 * i}}}, [r0]!" for i in range(4)])
    L += unload + epilogue(name, 560)
    name = "slicewise_groestl_neon7vp_o1024"
    L += pro(name, 512) + load("r0") + ["sub r0, r0, #128", "vstmia r8, {d0-d15}", "vstmia r4, {d0-d15}"]
    L += table_address(".Lneon7vp_rc1024p", "vpo1024") + ["bl .Lneon7vp_perm1024"]
    L += ["vldmia r8, {d16-d31}"] + [f"veor q{i}, q{i}, q{8 + i}" for i in range(8)] + ["vmov.i8 q8, #0xa5"]
    L += [f"veor q{i}, q{i}, q8" for i in range(8)] + unload + epilogue(name, 560)
    for wide, rounds in ((False, 10), (True, 14)):
        L += [".p2align 2", ".Lneon7vp_perm1024:" if wide else ".Lneon7vp_perm512:"]
        L += vp_body(mix_lines, rounds) + ["bx lr"]
    return L


def vp_generate():
    p, outs = vp_mix_ir()
    mix_lines, order = allocate(p, {i: i for i in range(8)}, outs, list(range(8)), VP_SLOTS)
    assert not order and not any("[slot" in ln for ln in mix_lines), "MixBytes: constants or too many spills"
    tables = {".Lneon7vp_rc512": vp_consts(8, "P"), ".Lneon7vp_rc1024p": vp_consts(16, "P"),
              ".Lneon7vp_rc1024q": vp_consts(16, "Q")}
    return vp_functions(mix_lines), tables, mix_lines


# --- An interpreter of the emitted subset, to check the program before writing it -------------


class Machine:
    def __init__(self, lines, tables):
        self.q = [0] * 16
        self.r = {f"r{i}": 0 for i in range(13)}
        self.r.update(sp=0xF0000, lr=0, pc=0)
        self.mem = bytearray(1 << 20)
        self.code, self.labels = [], {}
        addr = 0x80000
        self.data = {}
        for label, words in tables.items():
            self.data[label] = addr
            for v in words:
                self.mem[addr:addr + 16] = v.to_bytes(16, "little")
                addr += 16
        for ln in lines:
            ln = ln.split("@")[0].strip()
            m = re.match(r"^(\.?L?\w+):\s*(.*)$", ln)
            if m and not ln.startswith("."):
                self.labels[m.group(1)] = len(self.code)
                ln = m.group(2)
            elif m and ln.startswith(".L"):
                self.labels[m.group(1)] = len(self.code)
                ln = m.group(2)
            if ln and not ln.startswith("."):
                self.code.append(ln)
        self.count = 0

    def d(self, i):
        return (self.q[i // 2] >> (64 * (i % 2))) & ((1 << 64) - 1)

    def setd(self, i, v):
        k, h = i // 2, i % 2
        self.q[k] = (self.q[k] & ~(((1 << 64) - 1) << (64 * h))) | (v << (64 * h))

    def dlist(self, s):
        out = []
        for part in s.strip("{}").split(","):
            part = part.strip()
            if "-" in part:
                a, b = part.split("-")
                out += list(range(int(a.strip()[1:]), int(b.strip()[1:]) + 1))
            else:
                out.append(int(part[1:]))
        return out

    def run(self, fn, args):
        for i, v in enumerate(args):
            self.r[f"r{i}"] = v
        self.r["lr"] = -1
        pc = self.labels[fn]
        stack = []
        while True:
            ins = self.code[pc]
            pc += 1
            self.count += 1
            op, _, rest = ins.partition(" ")
            a = [x.strip() for x in re.split(r",(?![^{]*})", rest)] if rest else []
            qn = lambda x: int(x[1:])
            if op in ("veor", "vand", "vorr") and a[0][0] == "d":
                x, y = self.d(qn(a[1])), self.d(qn(a[2]))
                self.setd(qn(a[0]), x ^ y if op == "veor" else (x & y if op == "vand" else x | y))
            elif op == "vmov.i8" and a[0][0] == "d":
                self.setd(qn(a[0]), int(a[1][1:], 16) * 0x0101010101010101)
            elif op == "vtbl.8":
                tab = self.q[int(a[1].strip("{}").split("-")[0][1:]) // 2].to_bytes(16, "little")
                idx = self.d(qn(a[2])).to_bytes(8, "little")
                self.setd(qn(a[0]), int.from_bytes(bytes(tab[i] if i < 16 else 0 for i in idx), "little"))
            elif op in ("vtrn.8", "vtrn.16", "vtrn.32"):
                e = int(op[5:]) // 8
                x = bytearray(self.d(qn(a[0])).to_bytes(8, "little"))
                y = bytearray(self.d(qn(a[1])).to_bytes(8, "little"))
                for k in range(0, 8, 2 * e):
                    x[k + e:k + 2 * e], y[k:k + e] = y[k:k + e], x[k + e:k + 2 * e]
                self.setd(qn(a[0]), int.from_bytes(x, "little"))
                self.setd(qn(a[1]), int.from_bytes(y, "little"))
            elif op == "vadd.i8":
                x, y = self.q[qn(a[1])].to_bytes(16, "little"), self.q[qn(a[2])].to_bytes(16, "little")
                self.q[qn(a[0])] = int.from_bytes(bytes((u + v) & 0xFF for u, v in zip(x, y)), "little")
            elif op == "vshr.s8":
                n = int(a[2][1:])
                x = self.q[qn(a[1])].to_bytes(16, "little")
                self.q[qn(a[0])] = int.from_bytes(bytes(((u - 256 if u >= 128 else u) >> n) & 0xFF for u in x), "little")
            elif op in ("veor", "vand", "vorr"):
                x, y = self.q[qn(a[1])], self.q[qn(a[2])]
                self.q[qn(a[0])] = x ^ y if op == "veor" else (x & y if op == "vand" else x | y)
            elif op == "vrev64.8":
                b = self.q[qn(a[1])].to_bytes(16, "little")
                self.q[qn(a[0])] = int.from_bytes(b[7::-1] + b[15:7:-1], "little")
            elif op == "ldrb":
                base, off = re.search(r"\[(\w+), #(\d+)\]", rest).groups()
                self.r[a[0]] = self.mem[self.r[base] + int(off)]
            elif op == "vldr":
                m = re.search(r"\[(\w+)(?:, #(-?\d+))?\]", rest)
                p = self.r[m.group(1)] + int(m.group(2) or 0)
                self.setd(qn(a[0]), int.from_bytes(self.mem[p:p + 8], "little"))
            elif op == "vshll.u8":
                n = int(a[2][1:])
                b = self.d(qn(a[1])).to_bytes(8, "little")
                self.q[qn(a[0])] = sum((x << n) << (16 * i) for i, x in enumerate(b))
            elif op == "vaddw.u16":
                x, y = self.q[qn(a[1])], self.d(qn(a[2]))
                self.q[qn(a[0])] = sum(((((x >> (32 * i)) & 0xFFFFFFFF) + ((y >> (16 * i)) & 0xFFFF)) & 0xFFFFFFFF)
                                       << (32 * i) for i in range(4))
            elif op == "vmov" and a[0][0] == "d":
                self.setd(qn(a[0]), self.r[a[1]] | self.r[a[2]] << 32)
            elif op == "ldmdb":
                base = a[0].strip("!")
                regs = [f"r{i}" for i in self.dlist(a[1])]
                p = self.r[base] - 4 * len(regs)
                for i, x in enumerate(regs):
                    self.r[x] = int.from_bytes(self.mem[p + 4 * i:p + 4 * i + 4], "little")
                if a[0].endswith("!"):
                    self.r[base] = p
            elif op == "eor":
                self.r[a[0]] = self.r[a[1]] ^ int(a[2][1:])
            elif op == "mov":
                self.r[a[0]] = int(a[1][1:]) if a[1].startswith("#") else self.r[a[1]]
            elif op in ("add", "sub") and len(a) == 4:
                y = self.r[a[2]] << int(a[3].split("#")[1])
                self.r[a[0]] = self.r[a[1]] + y if op == "add" else self.r[a[1]] - y
            elif op in ("vsri.8", "vsli.8"):
                n = int(a[2][1:])
                d = self.q[qn(a[0])].to_bytes(16, "little")
                m = self.q[qn(a[1])].to_bytes(16, "little")
                if op == "vsri.8":
                    z = bytes((x & ~(0xFF >> n) & 0xFF) | (y >> n) for x, y in zip(d, m))
                else:
                    z = bytes((x & ((1 << n) - 1)) | ((y << n) & 0xFF) for x, y in zip(d, m))
                self.q[qn(a[0])] = int.from_bytes(z, "little")
            elif op in ("vbit", "vbif", "vbsl"):
                d, n, m = self.q[qn(a[0])], self.q[qn(a[1])], self.q[qn(a[2])]
                if op == "vbit":
                    self.q[qn(a[0])] = (d & ~m & M128) | (n & m)
                elif op == "vbif":
                    self.q[qn(a[0])] = (d & m) | (n & ~m & M128)
                else:
                    self.q[qn(a[0])] = (d & n) | (~d & M128 & m)
            elif op in ("vbic", "vorn"):
                x, y = self.q[qn(a[1])], self.q[qn(a[2])]
                self.q[qn(a[0])] = x & ~y & M128 if op == "vbic" else (x | ~y) & M128
            elif op == "vmvn" and a[0][0] == "d":
                self.setd(qn(a[0]), self.d(qn(a[1])) ^ ((1 << 64) - 1))
            elif op == "vmvn":
                self.q[qn(a[0])] = self.q[qn(a[1])] ^ M128
            elif op == "vext.8" and a[0][0] == "d":
                assert a[1] == a[2]
                n = int(a[3][1:]) % 8
                x = self.d(qn(a[1]))
                self.setd(qn(a[0]), ((x >> (8 * n)) | (x << (8 * (8 - n)))) & ((1 << 64) - 1) if n else x)
            elif op == "vext.8":
                assert a[1] == a[2]
                self.q[qn(a[0])] = ext(self.q[qn(a[1])], int(a[3][1:]))
            elif op in ("vshl.u8", "vshl.u16") and a[2].startswith("q"):
                self.q[qn(a[0])] = vshl(self.q[qn(a[1])], self.q[qn(a[2])], int(op[6:]))
            elif op in ("vshl.u8", "vshr.u8"):
                n = int(a[2][1:])
                x = self.q[qn(a[1])]
                bs = x.to_bytes(16, "little")
                bs = bytes(((b << n) & 0xFF) if op == "vshl.u8" else (b >> n) for b in bs)
                self.q[qn(a[0])] = int.from_bytes(bs, "little")
            elif op == "vmov.i16":
                self.q[qn(a[0])] = int(a[1][1:], 16) * int.from_bytes(b"\x01\x00" * 8, "little")
            elif op == "vmov.i8":
                self.q[qn(a[0])] = int(a[1][1:], 16) * int("01" * 16, 16)
            elif op == "vswp":
                if a[0][0] == "q":
                    i, j = qn(a[0]), qn(a[1])
                    self.q[i], self.q[j] = self.q[j], self.q[i]
                else:
                    i, j = qn(a[0]), qn(a[1])
                    x, y = self.d(i), self.d(j)
                    self.setd(i, y)
                    self.setd(j, x)
            elif op in ("vzip.8", "vuzp.8"):
                i, j = qn(a[0]), qn(a[1])
                x, y = self.q[i].to_bytes(16, "little"), self.q[j].to_bytes(16, "little")
                if op == "vzip.8":
                    z = bytes(b for pair in zip(x, y) for b in pair)
                else:
                    xy = x + y
                    z = xy[0::2] + xy[1::2]
                self.q[i] = int.from_bytes(z[:16], "little")
                self.q[j] = int.from_bytes(z[16:], "little")
            elif op in ("vld1.8", "vld1.64", "vst1.8", "vst1.64", "vldmia", "vstmia"):
                if op.startswith("vld1") or op.startswith("vst1"):
                    regs, addr = self.dlist(a[0]), a[1]
                    wb = addr.endswith("!")
                    base = addr.strip("[]!")
                else:
                    wb = a[0].endswith("!")
                    base = a[0].strip("!")
                    regs = self.dlist(a[1])
                p = self.r[base]
                for i in regs:
                    if op.startswith(("vld", "vldm")):
                        self.setd(i, int.from_bytes(self.mem[p:p + 8], "little"))
                    else:
                        self.mem[p:p + 8] = self.d(i).to_bytes(8, "little")
                    p += 8
                if wb:
                    self.r[base] = p
                elif len(a) == 3:  # post-index by a register: [rN], rM
                    self.r[base] += self.r[a[2]]
            elif op == "push" and a[0] == "{lr}":
                stack.append(("lr", self.r["lr"]))
                self.r["sp"] -= 4
            elif op == "pop" and a[0] == "{pc}":
                _, pc = stack.pop()
                self.r["sp"] += 4
            elif op == "push" or op == "vpush":
                regs = a[0].strip("{}")
                stack.append((op, [self.r.get(x) for x in ("r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11",
                                                            "r12", "lr")] if op == "push" else list(self.q[4:8])))
                self.r["sp"] -= 40 if op == "push" else 64
            elif op == "vpop":
                _, saved = stack.pop()
                self.q[4:8] = saved
                self.r["sp"] += 64
            elif op == "pop":
                _, saved = stack.pop()
                for x, v in zip(("r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12"), saved):
                    self.r[x] = v
                self.r["sp"] += 40
                if saved[-1] == -1:
                    return
                pc = saved[-1]  # pop {..., pc}: back to the caller of a nested call
            elif op in ("add", "sub") and a[1] == "pc":
                pass  # the PC-relative table address: r3 was set by movw
            elif op in ("add", "sub", "subs"):
                x = self.r[a[1]]
                y = int(a[2][1:]) if a[2].startswith("#") else self.r[a[2]]
                self.r[a[0]] = x + y if op == "add" else x - y
                if op == "subs":
                    self.z = self.r[a[0]] == 0
            elif op == "cmp":
                self.z = self.r[a[0]] == int(a[1][1:])
            elif op == "movw" and a[1].startswith("#:"):
                self.r[a[0]] = self.data[re.search(r"\((\.L\w+)", a[1]).group(1)]
            elif op == "movw":
                self.r[a[0]] = int(a[1][1:])
            elif op == "movt" and a[1].startswith("#:"):
                pass
            elif op == "movt":
                v = (self.r[a[0]] & 0xFFFF) | int(a[1][1:]) << 16
                self.r[a[0]] = (v ^ 0x80000000) - 0x80000000
            elif op == "beq":
                if self.z:
                    pc = self.labels[a[0]]
            elif op == "bne":
                if not self.z:
                    pc = self.labels[a[0]]
            elif op == "b":
                pc = self.labels[a[0]]
            elif op == "bl":
                self.r["lr"] = pc
                pc = self.labels[a[0]]
            elif op == "bx":
                pc = self.r["lr"]
            else:
                raise ValueError(ins)


def check(lines, tables, rng, prefix="slicewise_groestl_neon7bs"):
    """Runs the four functions on random inputs against the reference."""
    for cols, c_fn, o_fn in ((8, f"{prefix}_c512", f"{prefix}_o512"), (16, f"{prefix}_c1024", f"{prefix}_o1024")):
        n = 8 * cols
        for nblocks in (0, 1, 2):
            mach = Machine(lines, tables)
            h = [rng.randrange(256) for _ in range(n)]
            blocks = [rng.randrange(256) for _ in range(n * nblocks)]
            # h as the functions take it: uint64_t column words (row 0 in the most significant
            # byte), little-endian in memory.
            words = lambda b: bytes(b[8 * c + 7 - k] for c in range(cols) for k in range(8))
            mach.mem[0x1000:0x1000 + n] = words(h)
            mach.mem[0x2000:0x2000 + len(blocks)] = bytes(blocks)
            mach.run(c_fn, [0x1000, 0x2000, nblocks])
            got = list(mach.mem[0x1000:0x1000 + n])
            want = ref_compress(h, blocks, cols)
            assert got == list(words(want)), (c_fn, nblocks)
            mach.run(o_fn, [0x1000])
            assert list(mach.mem[0x1000:0x1000 + n]) == list(words(ref_output(want, cols))), o_fn
    return True


# --- Cortex-A8 instruction scheduling (after register allocation) -----------------------------
# The allocation orders the body for few spills; on the in-order dual-issue Cortex-A8 that order
# stalls on dependent results (a VEOR's result is read 2 cycles later by a VEOR, 3 by a shift,
# VEXT or store). `a8_schedule` reorders a straight-line body without changing an instruction or
# a register: a list scheduler over the dependency DAG (RAW with the A8 model's latencies, WAR
# and WAW on every d and integer register, q = two d; spill slots as memory; the constant table
# read-only), priority = the critical path to the end, simulating the NEON issue of
# scripts/seed-code/a8-model.py (in order, one data-processing and one load/store/permute
# instruction a cycle, multi-cycle instructions, operand stages per D half).

A8_MODEL = []


def a8_model():
    """scripts/seed-code/a8-model.py as a module (its decoder and simulator)."""
    if not A8_MODEL:
        import importlib.util
        path = os.path.join(ROOT, "scripts/seed-code/a8-model.py")
        spec = importlib.util.spec_from_file_location("a8_model", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        A8_MODEL.append(mod)
    return A8_MODEL[0]


def a8_mem(ln, ins):
    """Memory an instruction touches: None, or (is_store, set of 16-byte slots or None = any).
    Loads through CONST_REG read the constant table (read-only, no dependency)."""
    m = re.match(r"(vld|vst)\w*(?:\.\d+)?\s+(?:(r\d+|sp)!?,\s*(\{[^}]*\})|(\{[^}]*\}),\s*\[(r\d+|sp)\]!?)", ln)
    if not ln.startswith(("vld", "vst")):
        return None
    if not m:
        return (ln.startswith("vst"), None)
    base = m.group(2) or m.group(5)
    regs = a8_model().neon_regs(m.group(3) or m.group(4))
    if base == CONST_REG and m.group(1) == "vld":
        return None
    if base in SLOT_REGS and "!" not in ln:
        s = SLOT_REGS.index(base)
        return (m.group(1) == "vst", set(range(s, s + (len(regs) + 1) // 2)))
    return (m.group(1) == "vst", None)


def a8_dag(lines):
    """Decoded instructions and predecessor edges (i, latency) of each instruction."""
    mod = a8_model()
    prog = [mod.decode(ln) for ln in lines]
    preds = [dict() for _ in lines]
    last_w, readers = {}, {}  # resource -> last writer; readers since that write
    mem_ops = []  # (index, is_store, slots)

    def edge(i, j, lat):
        if preds[j].get(i, -99) < lat:
            preds[j][i] = lat

    for j, (ln, ins) in enumerate(zip(lines, prog)):
        reads = [(("r", r), s, 0) for r, s in ins.asrc] + [(("d", d), s, h) for d, s, h in ins.nsrc]
        writes = [(("r", r), p, 0) for r, p in ins.adst] + [(("d", d), p, h) for d, p, h in ins.ndst]
        for key, s, h in reads:
            if key in last_w:
                i, hp = last_w[key]
                edge(i, j, max(0, hp - s - h + 1) if key[0] == "d" else 1)
        for key, _, _ in writes:
            if key in last_w:
                edge(last_w[key][0], j, 0)
            for i in readers.get(key, ()):
                if i != j:
                    edge(i, j, 0)
        for key, s, h in reads:
            readers.setdefault(key, []).append(j)
        for key, p, h in writes:
            last_w[key] = (j, h + p)
            readers[key] = []
        mem = a8_mem(ln, ins)
        if mem is not None:
            st, slots = mem
            for i, st2, slots2 in mem_ops:
                if (st or st2) and (slots is None or slots2 is None or slots & slots2):
                    edge(i, j, 1 if st2 else 0)
            mem_ops.append((j, st, slots))
    return prog, preds


def a8_schedule(lines):
    """Reorders a straight-line NEON body (no labels or branches) for the Cortex-A8: see above."""
    assert not any(ln.endswith(":") or re.match(r"(b|bl|bx|bne|beq)\b", ln) for ln in lines)
    prog, preds = a8_dag(lines)
    n = len(lines)
    succs = [[] for _ in range(n)]
    for j in range(n):
        for i, lat in preds[j].items():
            succs[i].append((j, lat))
    prio = [0] * n
    for i in reversed(range(n)):
        prio[i] = max([lat + prio[j] for j, lat in succs[i]] + [max(1, prog[i].ncyc)])
    npred = [len(p) for p in preds]
    earliest = [0] * n  # from the latencies of the scheduled predecessors
    ready = [j for j in range(n) if npred[j] == 0]
    busy = {"dp": set(), "ls": set()}
    t_neon, out = 0, []

    def issue_at(j):
        ins = prog[j]
        t = max(t_neon, earliest[j])
        if ins.neon is None:
            return t
        mine, other, c = busy[ins.neon], busy["ls" if ins.neon == "dp" else "dp"], ins.ncyc
        while not (all(t + k not in mine for k in range(c)) and all(t + k not in other for k in range(1, c - 1))):
            t += 1
        return t

    while ready:
        best = min(ready, key=lambda j: (issue_at(j), -prio[j], j))
        t = issue_at(best)
        ins = prog[best]
        if ins.neon is not None:
            mine, other = busy[ins.neon], busy["ls" if ins.neon == "dp" else "dp"]
            mine.update(t + k for k in range(ins.ncyc))
            other.update(t + k for k in range(1, ins.ncyc - 1))
        t_neon = t
        out.append(best)
        ready.remove(best)
        for j, lat in succs[best]:
            earliest[j] = max(earliest[j], t + lat)
            npred[j] -= 1
            if npred[j] == 0:
                ready.append(j)
    assert sorted(out) == list(range(n))
    return [lines[j] for j in out]


A8_ORDER = os.path.join(ROOT, "scripts/neon7-a8-order.txt")
SPLIT_SPILLS = int(os.environ.get("NEON7_SPLIT", "2"))


def split_spills(body, n):
    """The first `n` spill VSTMs of 8 q registers as two VSTMs of 4 (the second through the
    pointer of the slot four further on): one more instruction each, and 2 fewer cycles in which
    the A8's data-processing pipe is blocked (a VSTM of 16 d registers takes 8 cycles, the middle
    6 blocking it; two of 8 take 4 each, 2 blocking)."""
    out = []
    for ln in body:
        m = re.fullmatch(r"vstmia (r\d+), \{d(\d+)-d(\d+)\}", ln)
        if n > 0 and m and m.group(1) in SLOT_REGS and int(m.group(3)) - int(m.group(2)) == 15:
            r, lo = m.group(1), int(m.group(2))
            out += [f"vstmia {r}, {{d{lo}-d{lo + 7}}}", f"vstmia {SLOT_REGS[SLOT_REGS.index(r) + 4]}, {{d{lo + 8}-d{lo + 15}}}"]
            n -= 1
        else:
            out.append(ln)
    return out


class LoopSim:
    """The A8 model's NEON side (scripts/seed-code/a8-model.py, `simulate`: in-order issue, one
    data-processing and one load/store/permute instruction a cycle, the middle cycles of a
    3-or-more-cycle instruction blocking both pipes), for a straight line of NEON instructions in
    an order that changes one move at a time. It keeps, after each position, the issue cycle and
    the state relative to it (the registers' ready cycles still ahead, the pipes' reservations
    still ahead), so a move re-simulates only from its first changed position until the state
    equals the old one at the same position: after that every cycle shifts by the same amount.
    The ARM side is left out: in the Grøstl loop it never delays the NEON side (the model gives
    the same cycles with and without it)."""

    def __init__(self, prog):
        assert all(ins.neon is not None for ins in prog)
        self.pipe = [0 if ins.neon == "dp" else 1 for ins in prog]
        self.ncyc = [ins.ncyc for ins in prog]
        self.src = [[(d, s + h - 1) for d, s, h in ins.nsrc] for ins in prog]
        self.dst = [[(d, h + p) for d, p, h in ins.ndst] for ins in prog]

    def step(self, ins, t, ready, busy):
        for d, off in self.src[ins]:
            if ready[d] - off > t:
                t = ready[d] - off
        c, mine, other = self.ncyc[ins], busy[self.pipe[ins]], busy[1 - self.pipe[ins]]
        while any(t + k in mine for k in range(c)) or any(t + k in other for k in range(1, c - 1)):
            t += 1
        mine.update(range(t, t + c))
        other.update(range(t + 1, t + c - 1))
        for d, a in self.dst[ins]:
            ready[d] = t + a
        return t

    @staticmethod
    def state(t, ready, busy):
        return (tuple(x - t if x > t else 0 for x in ready),
                tuple(sorted(x - t for x in busy[0] if x >= t)), tuple(sorted(x - t for x in busy[1] if x >= t)))

    @staticmethod
    def end(t, st):
        return t + max([0] + [x + 1 for x in st[1] + st[2]])

    def run(self, order, lo, t, ready, busy, old=None, hi=None):
        """Issues order[lo:] after the state (t, ready, busy); with `old` = (cycles, states) of
        the previous order, stops at the first position >= hi whose state equals the old one.
        Returns (cycles, states, shift): shift None when it ran to the end."""
        ts, sts = [], []
        for k in range(lo, len(order)):
            t = self.step(order[k], t, ready, busy)
            st = self.state(t, ready, busy)
            ts.append(t)
            sts.append(st)
            if old is not None and k >= hi and st == old[1][k]:
                return ts, sts, t - old[0][k]
            if k % 32 == 31:
                busy = [{x for x in b if x >= t} for b in busy]
        return ts, sts, None


def a8_anneal(lines, cut, moves, seed, temp):
    """Simulated annealing of the order of a straight line of NEON instructions for the A8
    model: a move takes one instruction to another place between its last predecessor and its
    first successor (`a8_dag`: registers, memory, latencies), on its own side of `cut` (the
    positions before `cut` stay a block of their own: o512 enters the c512 loop at the label
    between them); cost = the last cycle (LoopSim); the temperature falls linearly from `temp`
    cycles to 0 over `moves` moves. Deterministic for (lines, cut, moves, seed, temp). Returns
    the best order found (indices into `lines`) and its cycles."""
    prog, preds = a8_dag(lines)
    sim, n = LoopSim(prog), len(lines)
    succs = [[] for _ in range(n)]
    for j in range(n):
        for i in preds[j]:
            succs[i].append(j)
    predl = [list(p) for p in preds]
    order, pos = list(range(n)), list(range(n))
    ts, sts, _ = sim.run(order, 0, 0, [0] * 32, [set(), set()])
    cur = sim.end(ts[-1], sts[-1])
    best = (cur, list(order))
    rng = random.Random(seed)
    for it in range(moves):
        x = rng.randrange(n)
        p = pos[x]
        lo = max([pos[y] + 1 for y in predl[x]] + [0 if x < cut else cut])
        hi = min([pos[y] - 1 for y in succs[x]] + [cut - 1 if x < cut else n - 1])
        q = rng.randint(lo, hi) if hi > lo else p
        if q == p:
            continue
        order.insert(q, order.pop(p))
        a, b = min(p, q), max(p, q)
        for k in range(a, b + 1):
            pos[order[k]] = k
        if a == 0:
            t, ready, busy = 0, [0] * 32, [set(), set()]
        else:
            t, st = ts[a - 1], sts[a - 1]
            ready = [t + x if x > 0 else 0 for x in st[0]]
            busy = [{t + x for x in st[1]}, {t + x for x in st[2]}]
        nts, nsts, shift = sim.run(order, a, t, ready, busy, (ts, sts), b)
        new = cur + shift if shift is not None else sim.end(nts[-1], nsts[-1])
        hot = temp * (1 - it / moves)
        if new <= cur or (hot > 0 and rng.random() < math.exp((cur - new) / hot)):
            m = a + len(nts)
            ts[a:m], sts[a:m] = nts, nsts
            if shift:
                ts[m:] = [v + shift for v in ts[m:]]
            cur = new
            if cur < best[0]:
                best = (cur, list(order))
        else:
            order.insert(p, order.pop(q))
            for k in range(a, b + 1):
                pos[order[k]] = k
    return best[1], best[0]


def loop_key(pre, body):
    import hashlib
    return hashlib.sha256("\n".join(pre + [".Lc512_zip:"] + body).encode()).hexdigest()


def q_webs(lines, cut):
    """The values of a straight line of NEON code at q-register granularity, for renaming: a web
    is a value from the instruction that writes a whole q register to its last reader, joined
    through the instructions that also read the register they write (VBIT/VBIF/VBSL, VSLI/VSRI).
    A web can move to another register when every instruction touching it is a data-processing
    instruction or VEXT with only q operands (and immediates); webs touched otherwise (VLDM/VSTM
    lists, VLD1/VST1, D-register forms, VZIP/VUZP/VSWP), live into or out of the line, or live
    across position `cut` (o512 enters the c512 loop there) stay where they are.
    Returns (where, webs): where[(line, operand)] = web for the renamable operands; webs[w] =
    {"reg", "fixed", "in", "out", "touch": [(line, is_def)]}."""
    mod = a8_model()
    webs, cur, where = [], {}, {}

    def new(reg, k, fixed):
        webs.append({"reg": reg, "fixed": fixed, "in": k < 0, "out": False, "touch": [] if k < 0 else [(k, True)]})
        return len(webs) - 1

    def read(r, k, fixed):
        if r not in cur:
            cur[r] = new(r, -1, True)
        webs[cur[r]]["touch"].append((k, False))
        webs[cur[r]]["fixed"] |= fixed
        return cur[r]

    for k, ln in enumerate(lines):
        if not ln.startswith("v"):
            continue
        mn, _, rest = ln.partition(" ")
        ops = mod.split_ops(rest)
        base = mn.split(".")[0]
        if (base in mod.DP or base == "vext") and all(re.fullmatch(r"q\d+|#.*", o) for o in ops) and ops[0][0] == "q":
            accum = base in mod.ACCUM
            for i, o in enumerate(ops):
                if o[0] == "q" and (i > 0 or accum):
                    where[(k, i)] = read(int(o[1:]), k, False)
            if not accum:
                cur[int(ops[0][1:])] = new(int(ops[0][1:]), k, False)
            where[(k, 0)] = cur[int(ops[0][1:])]
            continue
        ins = mod.decode(ln)
        rd, wr = {d // 2 for d, _, _ in ins.nsrc}, {d // 2 for d, _, _ in ins.ndst}
        for r in rd:
            read(r, k, True)
        for r in wr:
            whole = sum(1 for d, _, _ in ins.ndst if d // 2 == r) == 2 and r not in rd
            if whole or r not in cur:
                cur[r] = new(r, k, True)
            else:
                read(r, k, True)
    for w in cur.values():
        webs[w]["fixed"] = webs[w]["out"] = True
    for w in webs:
        if not w["in"] and min(k for k, _ in w["touch"]) < cut <= max(k for k, _ in w["touch"]):
            w["fixed"] = True
    return where, webs


def web_spans(webs, order):
    """(first, last) position of each web in `order` (-1 / len(order) for live in / out)."""
    pos = {k: p for p, k in enumerate(order)}
    out = []
    for w in webs:
        ps = [pos[k] for k, _ in w["touch"]]
        first = -1 if w["in"] else min(pos[k] for k, d in w["touch"] if d)
        out.append((first, len(order) if w["out"] else max(ps + [first])))
    return out


def rename_webs(webs, order, regs):
    """A new register for every movable web, in the order of their first positions: among the
    registers free over the web's whole span (the other webs where `regs` puts them, the web's
    own register always qualifies), the one whose previous value was last read longest before,
    then whose next value is written latest after. Keeps the code valid for `order`."""
    spans = web_spans(webs, order)
    busy = {r: [] for r in range(16)}
    for w, r in enumerate(regs):
        busy[r].append((spans[w][0], spans[w][1], w))
    regs = list(regs)
    for w in sorted((w for w in range(len(webs)) if not webs[w]["fixed"]), key=lambda w: (spans[w][0], w)):
        s, e = spans[w]
        busy[regs[w]].remove((s, e, w))
        best = None
        for r in range(16):
            if any(s < e2 and s2 < e for s2, e2, _ in busy[r]):
                continue
            before = max([e2 for _, e2, _ in busy[r] if e2 <= s], default=-64)
            after = min([s2 for s2, _, _ in busy[r] if s2 >= e], default=e + 64)
            key = (min(s - before, 64), min(after - e, 64), r == regs[w])
            if best is None or key > best[0]:
                best = (key, r)
        regs[w] = best[1]
        busy[regs[w]].append((s, e, w))
    return regs


def web_text(lines, where, order, regs):
    """The lines in `order` with every renamable operand in its web's register."""
    mod, out = a8_model(), []
    for k in order:
        mn, _, rest = lines[k].partition(" ")
        ops = mod.split_ops(rest) if rest else []
        new = [f"q{regs[where[(k, i)]]}" if (k, i) in where else o for i, o in enumerate(ops)]
        out.append(lines[k] if new == ops else f"{mn} {', '.join(new)}")
    return out


def web_check(webs, order, regs):
    """No two webs in one register at once (a web's last reader may be the next one's writer)."""
    spans = web_spans(webs, order)
    per = {}
    for w, r in enumerate(regs):
        per.setdefault(r, []).append(spans[w])
    for r, sp in per.items():
        sp.sort()
        assert all(a[1] <= b[0] for a, b in zip(sp, sp[1:])), f"q{r}: overlapping values"


def a8_loop_order(pre, body):
    """The c512 loop (`pre`, then `body` after .Lc512_zip) in the order and with the q registers
    that `--anneal-loop` found and wrote to A8_ORDER for exactly these list-scheduled lines; the
    lines as they are when the file is absent. A file written for other lines is an error."""
    if not os.path.exists(A8_ORDER):
        return pre, body
    rows = open(A8_ORDER, encoding="utf-8").read().splitlines()
    key = next(ln.split()[-1] for ln in rows if ln.startswith("# lines: sha256"))
    if key != loop_key(pre, body):
        sys.exit(f"{os.path.relpath(A8_ORDER, ROOT)} was written for another c512 loop: run "
                 "scripts/gen-neon7-groestl.py --anneal-loop (or delete the file) and generate again")
    part = {}
    for ln in rows:
        if ln.startswith("#"):
            continue
        if ln.endswith(":"):
            cur = part.setdefault(ln[:-1], [])
        else:
            cur += [int(x) for x in ln.split()]
    lines, cut = pre + body, len(pre)
    order, regs = part["order"], part["registers"]
    where, webs = q_webs(lines, cut)
    assert sorted(order) == list(range(len(lines))) and sorted(order[:cut]) == list(range(cut))
    assert len(regs) == len(webs) and all(regs[w] == webs[w]["reg"] for w in range(len(webs)) if webs[w]["fixed"])
    web_check(webs, order, regs)
    # within each value, every write (the first, and those of VBIT-like instructions) in its
    # original order with every other touch (web_check: no other value in its register
    # meanwhile), and the ARM registers (pointers) and memory in their original order
    pos = {k: p for p, k in enumerate(order)}
    for w in webs:
        for k, d in w["touch"]:
            for k2, _ in w["touch"]:
                assert not d or k == k2 or (pos[k] < pos[k2]) == (k < k2), f"`{lines[k]}` and `{lines[k2]}` swapped"
    mod = a8_model()
    prog = [mod.decode(ln) for ln in lines]
    mem = [a8_mem(ln, ins) for ln, ins in zip(lines, prog)]
    for j in range(len(lines)):
        rj, wj = {r for r, _ in prog[j].asrc}, {r for r, _ in prog[j].adst}
        for i in range(j):
            ri, wi = {r for r, _ in prog[i].asrc}, {r for r, _ in prog[i].adst}
            arm = wi & (rj | wj) or ri & wj
            m = mem[i] is not None and mem[j] is not None and (mem[i][0] or mem[j][0]) and (
                mem[i][1] is None or mem[j][1] is None or mem[i][1] & mem[j][1])
            assert not (arm or m) or pos[i] < pos[j], f"`{lines[i]}` and `{lines[j]}` swapped"
    out = web_text(lines, where, order, regs)
    return out[:cut], out[cut:]


def anneal_loop(moves, rounds, seed, temp):
    """--anneal-loop: annealing of the order (`a8_anneal`, `moves` moves from temperature `temp`)
    of the c512 loop as `generate` builds it, then `rounds` - 1 rounds of renaming (`rename_webs`,
    which frees the order from some register reuse) and annealing again (from 0.6 * temp);
    writes A8_ORDER."""
    body, _, frame, pos, _ = gen_perm(False)
    body = rewind_table(c512_body(body, frame, pos))
    pre = c512_pre()
    lines, cut = pre + body, len(pre)
    loop = lambda ls: a8_model().simulate(ls + ["subs r2, r2, #1", "bne .Lc512_loop"])[0]
    where, webs = q_webs(lines, cut)
    regs, order = [w["reg"] for w in webs], list(range(len(lines)))
    before = loop(lines)
    t0 = time.time()
    for r in range(rounds):
        if r > 0:  # renaming the list-scheduled loop first made the annealing end worse
            regs = rename_webs(webs, order, regs)
        perm, cyc = a8_anneal(web_text(lines, where, order, regs), cut, moves, seed + r, temp if r == 0 else 0.6 * temp)
        order = [order[j] for j in perm]
        print(f"round {r}: {cyc} cycles ({time.time() - t0:.0f} s)", file=sys.stderr, flush=True)
    after = loop(web_text(lines, where, order, regs))
    path = os.environ.get("NEON7_ORDER_OUT", A8_ORDER)
    with open(path, "w", encoding="utf-8") as f:
        f.write("# The order and q registers of the neon7bs Grøstl-224/256 loop (.Lc512_loop) for the Cortex-A8,\n"
                f"# found by NEON7_MOVES={moves} NEON7_ROUNDS={rounds} NEON7_SEED={seed} NEON7_TEMP={temp} \\\n"
                f"#   scripts/gen-neon7-groestl.py --anneal-loop   ({time.time() - t0:.0f} s)\n"
                f"# slicewise's A8 model (an estimate): {before:.0f} -> {after:.0f} cycles a block.\n"
                "# order: indices into the list-scheduled loop (its part before .Lc512_zip first);\n"
                "# registers: the q register of each of its values (`q_webs`). Read by a8_loop_order.\n"
                f"# lines: sha256 {loop_key(pre, body)}\n")
        for name, vals in (("order", order), ("registers", regs)):
            f.write(f"{name}:\n")
            for k in range(0, len(vals), 24):
                f.write(" ".join(str(x) for x in vals[k:k + 24]) + "\n")
    print(f"wrote {path}: {before:.0f} -> {after:.0f} A8-model cycles a block", file=sys.stderr)


# The S-box schedule: indices of the base template's ops (all planes loaded, no flags; the rounds'
# variants follow it, `sbox_variant`) in the order found by `--search` (simulated annealing over
# topological orders, cost = Belady spills and reloads), then improved by `--refine` (cost =
# instructions of `allocate` on the rounds' variants) and by `--anneal-a8` (cost = the A8 model's
# cycles of the Grøstl-224/256 body, its instructions capped).
SBOX_ORDER = [0, 1, 2, 3, 4, 5, 6, 7, 12, 11, 10, 15, 8, 14, 16, 9, 13, 18, 24, 25, 26, 19, 21, 27, 28, 30, 17, 34, 35, 46, 33, 49, 45, 20, 40, 37, 39, 41, 48, 50, 47, 22, 23, 36, 32, 29, 38, 51, 31, 55, 56, 57, 58, 53, 43, 52, 42, 44, 59, 60, 68, 54, 61, 62, 63, 65, 64, 69, 66, 67, 71, 80, 70, 83, 74, 79, 92, 82, 73, 91, 85, 76, 103, 118, 107, 72, 88, 90, 93, 75, 84, 94, 95, 89, 100, 112, 86, 101, 81, 77, 96, 102, 78, 97, 98, 87, 104, 114, 115, 105, 113, 106, 119, 116, 108, 109, 117, 110, 99, 111]  # --anneal-a8


def ordered_template():
    tp, outs, ld = SBOX_T
    if SBOX_ORDER is None:
        return SBOX_T
    assert sorted(SBOX_ORDER) == list(range(len(tp.ops))), "SBOX_ORDER does not fit the circuit"
    q = Prog()
    q.ops, q.n = [tp.ops[i] for i in SBOX_ORDER], tp.n
    pos = {op[0]: i for i, op in enumerate(q.ops)}
    assert all(pos.get(x, -1) < i for i, op in enumerate(q.ops) for x in op[2]), "not topological"
    return q, outs, ld


def search(iters, seeds):
    best = None
    for seed in seeds:
        (q, _, _), c = optimize_order(SBOX_T, iters, seed)
        print(f"seed {seed}: {c} spills and reloads per round", file=sys.stderr)
        if best is None or c < best[0]:
            best = (c, q)
    index = {op[0]: i for i, op in enumerate(SBOX_T[0].ops)}
    order = [index[op[0]] for op in best[1].ops]
    print(f"SBOX_ORDER = {order}  # {best[0]} spills and reloads per round")


def keyed_order(ops, prio):
    """The list schedule of ops (each reading values made before it or outside ops) that
    always takes the ready op of highest priority prio[dst] (ties: the larger dst)."""
    by_id = {op[0]: op for op in ops}
    deps = {op[0]: [x for x in op[2] if x in by_id] for op in ops}
    done, order, pending = set(), [], set(by_id)
    while pending:
        v = max((v for v in pending if all(x in done for x in deps[v])), key=lambda v: (prio[v], v))
        pending.discard(v)
        done.add(v)
        order.append(by_id[v])
    return order


def refine(seconds, seed, body=False):
    """Simulated annealing from SBOX_ORDER over random keys: each op has a priority, and the
    order is the list schedule that always takes the ready op of highest priority; a step moves
    one to three priorities. Cost: instructions of the two-pass allocation of one round, summed
    over the rounds of the Grøstl-224/256 body (their flags, loads and injections as the body
    has them with SBOX_ORDER) and the base template (all eight planes loaded: Grøstl-384/512)."""
    global SBOX_ORDER
    USED.clear()
    gen_perm(False)
    rounds = list(USED) + [((False,) * 8, tuple(range(8)), None)]
    tp, outs, _ = ordered_template()
    head, rest = tp.ops[:8], tp.ops[8:]  # the constant loads stay first
    ids = {op[0] for op in rest}

    def order_of(prio):
        return head + keyed_order(rest, prio)

    index = {op[0]: i for i, op in enumerate(SBOX_T[0].ops)}

    def cost(order):
        global SBOX_ORDER
        SBOX_ORDER = [index[op[0]] for op in order]
        VARIANTS.clear()
        BASE_RANKS.clear()
        if body:
            # The bodies as written: Grøstl-224/256's first, Grøstl-384/512's as a tie-break.
            USED.clear()
            n512, n1024 = len(gen_perm(False)[0]), len(gen_perm(True)[0])
            return n512 + n1024 / 1000
        total = 0
        for key in rounds:
            q, vouts = sbox_variant(*key)[:2]
            lines = allocate(q, {i: i for i in range(8)}, vouts, None)[0]
            total += len(lines) + 100 * sum("slot" in ln for ln in lines)
        return total

    rng = random.Random(seed)
    cur = {op[0]: -k for k, op in enumerate(rest)}
    c = cost(order_of(cur))
    best, bc = cur, c
    print(f"seed {seed}: start {c} instructions per round", file=sys.stderr)
    end = time.time() + seconds
    while time.time() < end:
        new = dict(cur)
        for _ in range(rng.randint(1, 3)):
            v = rng.choice(sorted(ids))
            new[v] += rng.gauss(0, 8)
        nc = cost(order_of(new))
        if nc <= c or rng.random() < pow(2.718, (c - nc) / (0.3 if body else 1)):
            cur, c = new, nc
            if c < bc:
                best, bc = cur, c
                print(f"seed {seed}: {c}", file=sys.stderr)
                print(f"SBOX_ORDER = {[index[op[0]] for op in order_of(best)]}  # {bc} instructions in {len(rounds)} rounds", file=sys.stderr, flush=True)
    print(f"SBOX_ORDER = {[index[op[0]] for op in order_of(best)]}  # {bc} instructions in {len(rounds)} rounds")


def a8_body():
    """(instructions, slicewise A8 model cycles) of the Grøstl-224/256 P|Q body with the zips
    before it and its last MixBytes (`mix_tail`) after it, A8-scheduled as `generate` writes it;
    cycles as a loop of itself."""
    VARIANTS.clear()
    BASE_RANKS.clear()
    USED.clear()
    body, _, frame, pos, _ = gen_perm(False)
    if any("slot" in ln for ln in body):
        return len(body), float("inf")  # more spill slots than SLOT_REGS
    return len(body), a8_model().simulate(c512_body(body, frame, pos))[0]


def anneal_a8(seconds, seed, hot=8.0):
    """Simulated annealing of the round schedule for the Cortex-A8: MIX_ORDER, MIX_GROUPS,
    SHIFT_GROUP, SHIFT_FOLLOWS, MIX_FILL and SBOX_ORDER (as random keys, as `refine`); cost =
    the A8 model's cycles of `a8_body`, and no more body instructions than the constants as
    they are give. Prints the constants of the best schedule."""
    base = SBOX_T[0]
    index = {op[0]: i for i, op in enumerate(base.ops)}
    head, rest = base.ops[:8], base.ops[8:]
    ids = [op[0] for op in rest]

    def sbox_order(prio):
        return [index[op[0]] for op in head + keyed_order(rest, prio)]

    def apply(st):
        global MIX_ORDER, MIX_GROUPS, SHIFT_GROUP, SHIFT_FOLLOWS, MIX_FILL, SBOX_ORDER
        order, cuts, SHIFT_GROUP, SHIFT_FOLLOWS, MIX_FILL, prio = st
        MIX_ORDER = list(order)
        MIX_GROUPS = [[order[0]]]
        for k, joined in zip(order[1:], cuts):
            if joined:
                MIX_GROUPS[-1].append(k)
            else:
                MIX_GROUPS.append([k])
        SBOX_ORDER = sbox_order(prio)

    budget = a8_body()[0]

    def cost(st):
        apply(st)
        n, cyc = a8_body()
        return cyc + 1000 * max(0, n - budget)

    rng = random.Random(seed)
    pos = {base.ops[i][0]: r for r, i in enumerate(SBOX_ORDER)}
    cuts = [int(any(k in g and g.index(k) > 0 for g in MIX_GROUPS)) for k in MIX_ORDER[1:]]
    st = (list(MIX_ORDER), cuts, SHIFT_GROUP, SHIFT_FOLLOWS, MIX_FILL, {v: -pos[v] for v in ids})
    c = cost(st)
    best = (c, st)
    print(f"seed {seed}: start {c:.0f} cycles", file=sys.stderr)
    t0 = time.time()
    while time.time() < t0 + seconds:
        order, cuts, sg, sf, fill, prio = st
        order, cuts, prio = list(order), list(cuts), dict(prio)
        r = rng.random()
        if r < 0.2:
            i, j = rng.sample(range(8), 2)
            order[i], order[j] = order[j], order[i]
        elif r < 0.3:
            cuts[rng.randrange(7)] ^= 1
        elif r < 0.35:
            sg, sf = rng.choice([1, 2, 3, 4]), rng.random() < 0.5
        elif r < 0.38:
            fill = rng.choice([0, 1, 2])
        else:
            for _ in range(rng.randint(1, 3)):
                prio[rng.choice(ids)] += rng.gauss(0, 8)
        new = (order, cuts, sg, sf, fill, prio)
        nc = cost(new)
        temp = max(0.5, hot * (1 - (time.time() - t0) / seconds) + 0.5)
        if nc <= c or rng.random() < math.exp((c - nc) / temp):
            st, c = new, nc
            if c < best[0]:
                best = (c, st)
                print(f"seed {seed}: {c:.0f}", file=sys.stderr, flush=True)
    apply(best[1])
    print(f"MIX_ORDER = {MIX_ORDER}\nMIX_GROUPS = {MIX_GROUPS}\nSHIFT_GROUP = {SHIFT_GROUP}\n"
          f"SHIFT_FOLLOWS = {SHIFT_FOLLOWS}\nMIX_FILL = {MIX_FILL}\nSBOX_ORDER = {SBOX_ORDER}  # --anneal-a8: {best[0]:.0f} cycles")


def generate():
    tmpl = ordered_template()
    body512, tab512, frame512, pos512, pend512 = gen_perm(False)
    body1024, tab1024, frame1024, pos1024, pend1024 = gen_perm(True)
    tail512 = mix_tail(frame512, pos512)
    # For the Cortex-A8's in-order issue (the G-224/256 body with its last MixBytes on P ^ Q):
    body512, body1024 = c512_body(body512, frame512, pos512), a8_schedule(body1024)
    for wide, pend in ((False, pend512), (True, pend1024)):
        PENDING_PLANES[wide] = [k for k in range(8) if (pend >> k) & 1]
    TABLE_BYTES[False], TABLE_BYTES[True] = 16 * len(tab512["P"]), 16 * len(tab1024["P"])
    for body, cols in ((body512, 8), (body1024, 16)):  # a VLDM of round constants per free-register run
        assert LRU or sum(ln.startswith("vldmia r3!") for ln in body) <= 2 * ROUNDS[cols]
    tables = {RC_LABEL[(False, "P")]: tab512["P"], RC_LABEL[(True, "P")]: tab1024["P"],
              RC_LABEL[(True, "Q")]: tab1024["Q"]}
    # Written in this order, each a multiple of 16 bytes: Q's 1024 table follows P's.
    assert 16 * len(tab1024["Q"]) == TABLE_BYTES[True]
    tables[Q0_LABEL] = q0_table()
    fns = fn_c512(body512) + fn_o512() + fn_c1024(frame1024, pos1024) + fn_o1024(frame1024, pos1024)
    vp_lines, vp_tables, _ = vp_generate()
    tables.update(vp_tables)
    tt_lines, tt_tabs = tt_functions()
    tables.update(tt_tabs)
    code = fns + tt_lines + vp_lines
    code += [".p2align 2", f"{BODY[True]}:"] + body1024 + ["bx lr"]
    data = []
    for label, vals in tables.items():
        data += [".p2align 4", f"{label}:"]
        for v in vals:
            data.append(".word " + ", ".join(f"0x{(v >> (32 * i)) & 0xFFFFFFFF:08x}" for i in range(4)))
    count = lambda body: sum(1 for ln in body if not ln.endswith(":"))
    spills = lambda body: sum(1 for ln in body if ln.startswith(("vst1", "vld1", "vstmia", "vldmia")) and not re.search(r"\b(r3|sp)\b", ln))
    head = [
        "@ Generated by scripts/gen-neon7-groestl.py: do not edit. Bitsliced Grøstl for ARMv7 NEON",
        "@ (paper [V] §5.2): eight bit planes in q registers (coordinates in a basis of GF(2^8) with",
        "@ 2-XOR doublings), P and Q of Grøstl-224/256 side by side, the Maximov-Ekdahl S-box (linear",
        "@ layers by slicewise slp) on whole planes, ShiftBytes by VSHL, MixBytes with 4 VEXT row",
        "@ rotations per plane in a frame that turns by 2 rows per round.",
        f"@ P|Q 512 body: {count(body512) - len(tail512)} instructions for 10 rounds without the last MixBytes ({spills(body512)} spills",
        f"@ and reloads), then {len(tail512)} for that MixBytes once on P ^ Q and the feed-forward (`mix_tail`);",
        f"@ P or Q 1024 body: {count(body1024)} instructions for 14 rounds ({spills(body1024)} spills and reloads).",
        "@ void slicewise_groestl_neon7bs_c512(uint64_t h[8], const uint8_t *blocks, size_t n),",
        "@ _o512(uint64_t h[8]) (h = P(h) ^ h), _c1024 and _o1024 (h[16]). h is in canonical column",
        "@ words (row 0 in the most significant byte; VREV64.8 turns them into block byte order,",
        "@ byte 8c + r = row r, column c). AAPCS; d8-d15 and r4-r12 restored.",
        "@ neon7tt (T-tables, NOT constant-time): slicewise_groestl_neon7tt_c512(uint64_t h[8],",
        "@ const uint8_t *blocks, size_t n, const uint64_t tables[8][256]), _o512(h, -, -, tables),",
        "@ _c1024 and _o1024 (h[16]): canonical column words, tables of ttable64.rs.",
        "    .syntax unified",
        "    .arm",
        "    .fpu neon",
        "    .text",
    ]
    lines = []
    for ln in code + data:
        if ln.endswith(":") or ln.startswith(".") and not ln.startswith(".L"):
            lines.append(ln if ln.endswith(":") else "    " + ln)
        elif ln.startswith(".Lpc"):
            lines.append(ln)
        else:
            lines.append("    " + ln)
    return head + lines, tables


def a8_estimate(path=OUT):
    """Print slicewise's Cortex-A8 model estimate (scripts/seed-code/a8-model.py, `simulate`) of
    the neon7bs loops in `path`: the G-224/256 loop .Lc512_loop and the G-384/512 loop .Lc1024_loop
    with the .Lneon7_perm1024 calls inlined (addresses of tables as #0). An estimate of the model,
    not a measurement."""
    a8 = a8_model()
    text = [x.strip() for x in open(path, encoding="utf-8")]
    text = [x for x in text if x and not x.startswith("@")]

    def block(start, end):
        i = text.index(start)
        return text[i:text.index(end, i) + 1]

    perm = block(".Lneon7_perm1024:", "bx lr")[1:]
    for name, start, end, nb in (("Groestl-256", ".Lc512_loop:", "bne .Lc512_loop", 64),
                                 ("Groestl-512", ".Lc1024_loop:", "bne .Lc1024_loop", 128)):
        st = []
        for x in block(start, end):
            if x.endswith(":") or x.startswith("."):
                continue
            if x.startswith(("movw", "movt")):
                x = re.sub(r"#:(lower|upper)16:.*", "#0", x)
            st.append(x)
            if x == "bl .Lneon7_perm1024":
                st += perm
        cyc, info = a8.simulate(st)
        print(f"{name} neon7bs, slicewise A8 model (estimate): {len(st)} instructions/block, "
              f"{cyc:.0f} cycles/block, {cyc / nb:.1f} cycles/byte (NEON data-processing pipe alone "
              f"{info['neon_dp_cycles'] / nb:.1f})")


def main():
    if "--a8" in sys.argv:
        a8_estimate()
        return
    if "--anneal-loop" in sys.argv:
        anneal_loop(int(os.environ.get("NEON7_MOVES", "5000000")), int(os.environ.get("NEON7_ROUNDS", "3")),
                    int(os.environ.get("NEON7_SEED", "1")), float(os.environ.get("NEON7_TEMP", "0.5")))
        return
    if "--anneal-a8" in sys.argv:
        anneal_a8(float(os.environ.get("NEON7_SECONDS", "600")), int(os.environ.get("NEON7_SEED", "1")),
                  float(os.environ.get("NEON7_TEMP", "8")))
        return
    if "--refine" in sys.argv:
        refine(float(os.environ.get("NEON7_SECONDS", "300")), int(os.environ.get("NEON7_SEED", "1")),
               os.environ.get("NEON7_COST") == "body")
        return
    if "--search" in sys.argv:
        seeds = [int(x) for x in os.environ.get("NEON7_SEEDS", "1 2 3").split()]
        search(int(os.environ.get("NEON7_ITERS", "200000")), seeds)
        return
    lines, tables = generate()
    check(lines, tables, random.Random(7))
    tt_check(lines, tables, random.Random(8))
    check(lines, tables, random.Random(9), "slicewise_groestl_neon7vp")
    text = "\n".join(lines) + "\n"
    if "--check" in sys.argv:
        cur = open(OUT, encoding="utf-8").read() if os.path.exists(OUT) else ""
        if cur != text:
            print(f"{os.path.relpath(OUT, ROOT)} is out of date: run scripts/gen-neon7-groestl.py", file=sys.stderr)
            sys.exit(1)
        print(f"{os.path.relpath(OUT, ROOT)} is what this script generates, and the program checks out")
        return
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {os.path.relpath(OUT, ROOT)}: {lines[5][2:]} {lines[6][2:]}")


if __name__ == "__main__":
    main()
