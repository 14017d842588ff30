#!/usr/bin/env python3
"""Builds the slicewise SLP benchmark set from public sources (run once; the output is checked in).

usage: import.py KRANZ_REPO XIANG_REPO OUT_DIR

KRANZ_REPO: a git checkout of https://github.com/rub-hgi/shorter_linear_slps_for_mds_matrices
XIANG_REPO: a git checkout of https://github.com/xiangzejun/Optimizing_Implementations_of_Linear_Layers

It copies every matrix of Kranz et al. (`matrices_bp_format/*.txt`, BP format) to OUT_DIR with a
comment line naming the source, writes ARIA's diffusion layer (RFC 5794, section 2.4.3) expanded
to bits (A (x) I8, 128x128), and re-verifies the published programs of both repositories against
the matrices: each published program is evaluated over GF(2) and must compute every row of the
matrix; its XOR count is the number of two-operand lines (Kranz) or of in-place XORs (Xiang).
The results go to OUT_DIR/manifest.tsv (read by crates/slp/tests/bench.rs and scripts/slp-bench.sh).
"""
import os
import re
import subprocess
import sys

KRANZ_URL = "https://github.com/rub-hgi/shorter_linear_slps_for_mds_matrices"
XIANG_URL = "https://github.com/xiangzejun/Optimizing_Implementations_of_Linear_Layers"


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True).stdout


def head(repo):
    return git(repo, "rev-parse", "HEAD").strip()


def ls(repo, folder):
    return [l for l in git(repo, "ls-tree", "--name-only", "HEAD", folder + "/").split("\n") if l]


def show(repo, path):
    return git(repo, "show", "HEAD:" + path)


def parse_bp(text):
    toks = text.split()
    assert toks[0] == "1", "one matrix per file"
    r, c = int(toks[1]), int(toks[2])
    bits = toks[3:]
    assert len(bits) == r * c
    rows = []
    for i in range(r):
        v = 0
        for j in range(c):
            if bits[i * c + j] == "1":
                v |= 1 << j
        rows.append(v)
    return r, c, rows


def header_rows(text):
    """Rows of a matrix from the C headers of the Kranz repository: entry i is column i, and
    bit DIM-1-j of it is row j."""
    d = int(re.search(r"DIM (\d+)", text).group(1))
    vals = [int(v, 16) for v in re.findall(r"0x([0-9a-fA-F]+)", text)]
    return [sum((vals[i] >> (d - 1 - j) & 1) << i for i in range(d)) for j in range(d)]


def to_text(rows, cols):
    return "".join("".join("1" if r >> c & 1 else "0" for c in range(cols)) + "\n" for r in rows)


def fingerprint(rows, cols):
    # FNV-1a over the 0/1 text, as BitMatrix::fingerprint in crates/slp/src/matrix.rs.
    h = 0xCBF29CE484222325
    for b in to_text(rows, cols).encode():
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def rank(rows):
    rows = list(rows)
    rk = 0
    for c in range(128):
        p = next((i for i in range(rk, len(rows)) if rows[i] >> c & 1), None)
        if p is None:
            continue
        rows[rk], rows[p] = rows[p], rows[rk]
        for i in range(len(rows)):
            if i != rk and rows[i] >> c & 1:
                rows[i] ^= rows[rk]
        rk += 1
    return rk


def naive(rows):
    return sum(max(bin(r).count("1") - 1, 0) for r in rows)


def eval_kranz(text):
    """Evaluates a Kranz-style SLP; returns (xor_count, {output index: row})."""
    env, outs, xors = {}, {}, 0
    for line in text.split("\n"):
        line = line.split("#")[0].strip()
        if not line:
            continue
        lhs, rhs = [s.strip() for s in line.split("=")]
        ops = [s.strip() for s in rhs.split("+")]

        def val(n):
            if n in env:
                return env[n]
            m = re.fullmatch(r"x(\d+)", n)
            assert m, f"unknown operand {n}"
            return 1 << int(m.group(1))

        v = 0
        for o in ops:
            v ^= val(o)
        xors += len(ops) - 1
        env[lhs] = v
        m = re.fullmatch(r"y(\d+)", lhs)
        if m:
            outs[int(m.group(1))] = v
    return xors, outs


def kranz_matches(outs, rows):
    # Most programs number inputs and outputs from 0; the LinOpt ones from 1 (x1.., y1..).
    for base in (0, 1):
        if all(outs.get(i + base) is not None and outs[i + base] >> base == r and outs[i + base] & ((1 << base) - 1) == 0 for i, r in enumerate(rows)):
            return True
    return False


def eval_xiang(text):
    """Evaluates a Xiang s-XOR implementation; returns (original matrix rows, cols, count, claimed, ok)."""
    lines = text.split("\n")
    i = lines.index("Original Matrix:") + 1
    mat = []
    while lines[i].strip():
        mat.append(lines[i].strip())
        i += 1
    cols = len(mat[0])
    rows = [sum(1 << j for j, ch in enumerate(s) if ch == "1") for s in mat]
    claimed = int(re.search(r"Xor Count\s*=\s*(\d+)", text).group(1))
    reg = [1 << j for j in range(cols)]
    outs, count = {}, 0
    for l in lines:
        m = re.match(r"\s*x\[\s*(\d+)\]\s*=\s*x\[\s*(\d+)\]\s*\^\s*x\[\s*(\d+)\]\s*(?:y\[\s*(\d+)\])?", l)
        if not m:
            continue
        a, b, c = int(m.group(1)), int(m.group(2)), int(m.group(3))
        assert a == b
        reg[a] ^= reg[c]
        count += 1
        if m.group(4) is not None:
            outs[int(m.group(4))] = reg[a]
    ok = all(outs.get(k, None) == r or (k not in outs and r in reg) for k, r in enumerate(rows))
    return rows, cols, count, claimed, ok


ARIA = [
    [3, 4, 6, 8, 9, 13, 14], [2, 5, 7, 8, 9, 12, 15], [1, 4, 6, 10, 11, 12, 15], [0, 5, 7, 10, 11, 13, 14],
    [0, 2, 5, 8, 11, 14, 15], [1, 3, 4, 9, 10, 14, 15], [0, 2, 7, 9, 10, 12, 13], [1, 3, 6, 8, 11, 12, 13],
    [0, 1, 4, 7, 10, 13, 15], [0, 1, 5, 6, 11, 12, 14], [2, 3, 5, 6, 8, 13, 15], [2, 3, 4, 7, 9, 12, 14],
    [1, 2, 6, 7, 9, 11, 12], [0, 3, 6, 7, 8, 10, 13], [0, 3, 4, 5, 9, 11, 14], [1, 2, 4, 5, 8, 10, 15],
]


def main():
    kranz, xiang, out = sys.argv[1:4]
    kc, xc = head(kranz), head(xiang)
    mats = {}
    for path in ls(kranz, "matrices_bp_format"):
        name = os.path.basename(path)[:-4]
        text = show(kranz, path)
        r, c, rows = parse_bp(text)
        hpath = f"matrices_paar_header/{name}.h"
        hrows = header_rows(show(kranz, hpath))
        if hrows != rows:
            # The repository's BP file for ePrint_JeaPeySim_i_8x8_8 is a copy of the 32x32
            # ePrint_JeaPeySim_i_4x4_8; its C header has the real 64x64 matrix (and the published
            # 599-XOR program verifies against the header's matrix).
            print(f"{name}: BP file differs from {hpath}; using the header", file=sys.stderr)
            rows, r, c = hrows, len(hrows), len(hrows)
            with open(os.path.join(out, name + ".txt"), "w") as f:
                f.write(f"# {name}: {KRANZ_URL} commit {kc} {hpath} (as BP format; {path} there is a copy of another matrix)\n")
                f.write(f"1\n{r} {c}\n")
                for v in rows:
                    f.write(" ".join("1" if v >> j & 1 else "0" for j in range(c)) + "\n")
        else:
            with open(os.path.join(out, name + ".txt"), "w") as f:
                f.write(f"# {name}: {KRANZ_URL} commit {kc} {path}\n")
                f.write(text if text.endswith("\n") else text + "\n")
        mats[name] = dict(rows=rows, r=r, c=c, kranz=None, xiang=None)
    # ARIA: y_i = sum of x_j over the byte indices above; bit 8b+k is bit k of byte b.
    arows = []
    for i in range(16):
        for k in range(8):
            arows.append(sum(1 << (8 * j + k) for j in ARIA[i]))
    with open(os.path.join(out, "ARIA.txt"), "w") as f:
        f.write("# ARIA diffusion layer A (RFC 5794, section 2.4.3) on bits: A (x) I8, bit 8b+k = bit k of byte b\n")
        f.write("128 128\n")
        f.write(to_text(arows, 128))
    mats["ARIA"] = dict(rows=arows, r=128, c=128, kranz=None, xiang=None)
    # The binary 16x16 matrix A itself (ARIA on bits is A (x) I8, so k XORs for A give 8k for ARIA).
    brows = [sum(1 << j for j in ARIA[i]) for i in range(16)]
    with open(os.path.join(out, "ARIA_A16.txt"), "w") as f:
        f.write("# ARIA diffusion layer A (RFC 5794, section 2.4.3) as a binary 16x16 matrix over bytes\n")
        f.write(to_text(brows, 16))
    mats["ARIA_A16"] = dict(rows=brows, r=16, c=16, kranz=None, xiang=None)
    # Published programs.
    for path in ls(kranz, "matrices_slp_implementations"):
        text = show(kranz, path)
        m = re.search(r"(\d+)\s*$", text.split("\n")[0])
        claimed = int(m.group(1))
        xors, outs = eval_kranz(text)
        hit = [n for n, d in mats.items() if d["r"] == len(outs) and kranz_matches(outs, d["rows"])]
        print(f"kranz {path}: claimed {claimed}, counted {xors}, matches {hit}", file=sys.stderr)
        for n in hit:
            if xors == claimed and (mats[n]["kranz"] is None or xors < mats[n]["kranz"][0]):
                mats[n]["kranz"] = (xors, path)
    for path in ls(xiang, "Implementations"):
        rows, cols, count, claimed, ok = eval_xiang(show(xiang, path))
        hit = [n for n, d in mats.items() if d["rows"] == rows]
        print(f"xiang {path}: claimed {claimed}, counted {count}, verified {ok}, matches {hit}", file=sys.stderr)
        for n in hit:
            if ok and count == claimed:
                mats[n]["xiang"] = (count, path)
    with open(os.path.join(out, "manifest.tsv"), "w") as f:
        f.write("# name\trows\tcols\trank\tnaive\tfingerprint\tkranz2017\txiang2020\n")
        for n in sorted(mats, key=lambda n: (mats[n]["c"], n.lower())):
            d = mats[n]
            k = d["kranz"][0] if d["kranz"] else "-"
            x = d["xiang"][0] if d["xiang"] else "-"
            f.write(f"{n}\t{d['r']}\t{d['c']}\t{rank(d['rows'])}\t{naive(d['rows'])}\t{fingerprint(d['rows'], d['c'])}\t{k}\t{x}\n")
    print(f"kranz commit {kc}\nxiang commit {xc}", file=sys.stderr)


if __name__ == "__main__":
    main()
