#!/usr/bin/env python3
"""Cost estimate (issue 34) of a Grøstl-256 round kept bitsliced across rounds on the Cortex-M0,
against the `mcu` kernel of gen-mcu-groestl.py, which transposes each 4-column part into bit
planes and back in every round.

Layout of the estimate: bit plane b of the 8x8-byte state is two words (word h = columns
4h..4h+3), bit 4r + (c mod 4) = row r, column c, so that a row rotation (MixBytes) is a `RORS` by
a multiple of 4. The script builds, as straight-line programs on that layout, the two steps that
would replace today's transposes and passes, runs them on random states against the
specification (groestl_ref.py) and counts their Thumb-1 ALU instructions:

- ShiftBytes on the planes: per plane, three conditional stages (rotate the rows whose amount has
  bit 4, 2, 1 set: a nibble swap between the two words for 4; for 2 and 1 both words' rotated
  versions, then a select by a row mask);
- MixBytes on the planes: the multiples 2x, 3x, 4x, 5x, 7x of the 8-plane vector (a doubling is
  a renaming and 3 XORs), then Horner in the row rotation R:
  y = 2x + R(2x + R(3x + R(4x + R(5x + R(3x + R(5x + R 7x)))))).

Counts are instructions before register allocation: an operation is 1, plus a `MOVS` copy when a
two-operand instruction would overwrite a value still needed (Thumb-1 data processing is
two-operand; shifts by an immediate have three). The S-box is the same 115-gate circuit either
way; its count comes from gen-mcu-groestl.py's kernel. Spills, loads and stores are not counted:
the bitsliced state is 16 live words against the 8 of today's kernel, so they would not shrink.

  scripts/estimate-m0-bitsliced.py      # checks the two programs, prints the estimate
"""
import importlib.util
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from groestl_ref import MIXROW, SIGMA, gmul  # noqa: E402

M32 = 0xFFFFFFFF


def to_planes(rows):
    """rows[r][c] (8x8 bytes) -> planes[b][h]."""
    pl = [[0, 0] for _ in range(8)]
    for r in range(8):
        for c in range(8):
            for b in range(8):
                if rows[r][c] >> b & 1:
                    pl[b][c >> 2] |= 1 << (4 * r + (c & 3))
    return pl


def from_planes(pl):
    return [[sum(((pl[b][c >> 2] >> (4 * r + (c & 3))) & 1) << b for b in range(8)) for c in range(8)]
            for r in range(8)]


def nibbles(rows_set):
    return sum(0xF << (4 * r) for r in rows_set)


def shiftbytes_planes(pl, sig):
    """Returns (new planes, instructions per plane, masks used)."""
    n = 0
    masks = set()
    out = []
    for w0, w1 in pl:
        n = 0
        sel4 = [r for r in range(8) if sig[r] & 4]
        if sel4:  # movs t,w0; eors t,w1; ands t,M; eors w0,t; eors w1,t
            t = (w0 ^ w1) & nibbles(sel4)
            w0, w1 = w0 ^ t, w1 ^ t
            n += 5
            masks.add(nibbles(sel4))
        for k in (2, 1):
            sel = [r for r in range(8) if sig[r] & k]
            if not sel:
                continue
            low = nibbles(range(8)) // 0xF * (0xF >> k)  # the bits a right shift by k keeps
            # new[c] = old[c + k]: lsrs a,w0,k; ands a,L; lsls b,w1,4-k; bics b,L; orrs a,b (5 each)
            a0 = ((w0 >> k) & low) | ((w1 << (4 - k)) & ~low & M32)
            a1 = ((w1 >> k) & low) | ((w0 << (4 - k)) & ~low & M32)
            n += 10
            masks.add(low)
            if len(sel) < 8:  # eors a,w; ands a,S; eors w,a (3 each)
                s = nibbles(sel)
                a0, a1 = w0 ^ ((a0 ^ w0) & s), w1 ^ ((a1 ^ w1) & s)
                n += 6
                masks.add(s)
            w0, w1 = a0, a1
        out.append([w0, w1])
    return out, n, masks


def ror(v, k):
    return ((v >> k) | (v << (32 - k))) & M32


def mixbytes_planes(pl):
    """Returns (new planes, instructions per half of 8 plane words)."""
    out = [[0, 0] for _ in range(8)]
    count = 0
    for h in range(2):
        x = [pl[b][h] for b in range(8)]

        def dbl(v):  # 3 XORs of values kept live: 3 copies
            return [v[7], v[0] ^ v[7], v[1], v[2] ^ v[7], v[3] ^ v[7], v[4], v[5], v[6]]

        def add(u, v):  # both kept live (used again): copy + XOR per plane
            return [a ^ b for a, b in zip(u, v)]

        x2 = dbl(x)
        x4 = dbl(x2)
        x3 = add(x, x2)
        x5 = add(x, x4)
        x7 = add(x3, x4)
        count = 2 * 6 + 3 * 16
        mult = {2: x2, 3: x3, 4: x4, 5: x5, 7: x7}
        acc = x7  # its last use: the accumulator takes its registers
        for j in range(6, -1, -1):  # rors acc,r4; eors acc,m (m stays live)
            acc = [ror(a, 4) ^ m for a, m in zip(acc, mult[MIXROW[j]])]
            count += 16
        for b in range(8):
            out[b][h] = acc[b]
    return out, count


def ref_shift(rows, sig):
    return [[rows[r][(c + sig[r]) % 8] for c in range(8)] for r in range(8)]


def ref_mix(rows):
    out = [[0] * 8 for _ in range(8)]
    for r in range(8):
        for c in range(8):
            v = 0
            for j in range(8):
                v ^= gmul(MIXROW[j], rows[(r + j) % 8][c])
            out[r][c] = v
    return out


def kernel_counts():
    """(S-box instructions per part, kernel ALU instructions, kernel cycles) of today's kernel."""
    spec = importlib.util.spec_from_file_location("gen", os.path.join(HERE, "gen-mcu-groestl.py"))
    g = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(g)
    gates, outs = g.parse_circuit()
    sbox = len(gates) + sum(1 for a, b, neg in outs if b) + sum(1 for a, b, neg in outs if neg)
    code, _ = g.build_kernel()
    alu = sum(1 for ins in code if ins[0] not in ("ldr", "str", "mov"))
    return sbox, alu, g.kernel_cycles(code)


def main():
    rng = random.Random(5)
    res = {}
    for which in "PQ":
        sig = SIGMA[(8, which)]
        for _ in range(20):
            rows = [[rng.randrange(256) for _ in range(8)] for _ in range(8)]
            got, n, masks = shiftbytes_planes(to_planes(rows), sig)
            assert from_planes(got) == ref_shift(rows, sig), which
        res[which] = (n, len(masks))
    for _ in range(20):
        rows = [[rng.randrange(256) for _ in range(8)] for _ in range(8)]
        got, mix = mixbytes_planes(to_planes(rows))
        assert from_planes(got) == ref_mix(rows)
    sbox, alu, kcyc = kernel_counts()
    print("checked against the specification: ShiftBytes (P, Q) and MixBytes on the planes")
    print("per round of P512 (instructions before allocation; spills, loads and stores not counted):")
    for which in "PQ":
        n, nm = res[which]
        print("  %s ShiftBytes on planes: %d per plane, %d for the 8 planes, %d masks" % (which, n, 8 * n, nm))
    print("  MixBytes on planes: %d per 4 columns, %d per round" % (mix, 2 * mix))
    print("  S-box circuit: %d per 4 columns, %d per round" % (sbox, 2 * sbox))
    bs = 2 * sbox + 2 * mix + 8 * res["P"][0]
    print("  bitsliced round (P, without AddRoundConstant): %d" % bs)
    print("today: kernel %d ALU instructions (%d M0 cycles with its spills, loads and stores),"
          " 2 per round: %d ALU instructions + the pass" % (alu, kcyc, 2 * alu))


if __name__ == "__main__":
    main()
