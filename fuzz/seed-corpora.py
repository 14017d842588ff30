#!/usr/bin/env python3
"""Writes seed corpora for the fuzz targets into fuzz/corpus/<target>/ from the project's test
vectors (Grøstl and Prøst KAT files, slp matrices, the SHA256SUMS lists). Each seed is laid
out as the target's input reader expects, so that the first runs already reach the success
paths (a KAT ciphertext decrypts, a KAT message hashes)."""
import hashlib
import lzma
import os
import pathlib
import struct

ROOT = pathlib.Path(__file__).resolve().parent.parent
TV = ROOT / "test-vectors"
OUT = ROOT / "fuzz" / "corpus"
# (SUPERCOP name, selector of slicewise_fuzz::for_variant!, key, nonce length)
AEADS = [("proest128apev1", 0), ("proest128copav1", 1), ("proest128otrv1", 2),
         ("proest256apev1", 3), ("proest256copav1", 4), ("proest256otrv1", 5)]
PER_FILE = 12  # records taken from each KAT file: enough to seed, small enough to keep runs short


def write(target, data):
    d = OUT / target
    d.mkdir(parents=True, exist_ok=True)
    (d / ("seed-" + hashlib.sha1(data).hexdigest())).write_bytes(data)


def records(text, fields):
    for rec in text.split("\n\n"):
        kv = dict(l.split("=", 1) for l in rec.strip().splitlines() if "=" in l)
        kv = {k.strip(): v.strip() for k, v in kv.items()}
        if all(f in kv for f in fields):
            yield kv


def pick(seq, n):
    seq = list(seq)
    step = max(1, len(seq) // n)
    return seq[::step][:n]


def main():
    # Grøstl: [size and backend, ncuts, cuts..., nmsgs, message]; byte-length records only.
    # The first byte selects size `sel % 4` and backend `sel / 4`: the seeds spread over both.
    for vi, size in enumerate((224, 256, 384, 512)):
        text = lzma.open(TV / "groestl" / f"ShortMsgKAT_{size}.txt.xz", "rt").read()
        recs = [r for r in records(text.replace("\nLen", "\n\nLen"), ["Len", "Msg", "MD"]) if int(r["Len"]) % 8 == 0]
        for i, r in enumerate(pick(recs, PER_FILE)):
            msg = bytes.fromhex(r["Msg"])[: int(r["Len"]) // 8]
            write("groestl_diff", bytes([(4 * (i * 5 + vi) + vi) % 256, i % 8]) + bytes(range(1, 1 + i % 8)) + bytes([i]) + msg)
    # Prøst: KAT records as decrypt inputs (success path) and round-trip inputs.
    for name, sel in AEADS:
        text = lzma.open(TV / "proest" / f"{name}.txt.xz", "rt").read()
        for r in pick(records(text, ["Key", "Nonce", "PT", "AD", "CT"]), PER_FILE):
            key, nonce, pt, ad, ct = (bytes.fromhex(r[f]) for f in ("Key", "Nonce", "PT", "AD", "CT"))
            if len(ad) < 256:
                write("proest_decrypt", bytes([sel]) + key + b"\x01" + nonce + bytes([len(ad)]) + ad + b"\x00\x00\x00" + ct)
                # Same, but the target re-encrypts the plaintext and flips one bit.
                write("proest_decrypt", bytes([sel]) + key + b"\x01" + nonce + bytes([len(ad)]) + ad + b"\x03\x05\x00" + pt)
            write("proest_roundtrip", bytes([sel]) + key + nonce + struct.pack("<H", len(ad)) + ad + bytes([len(pt) % 5]) + pt)
            write("cli_key_nonce", bytes([[16, 32, 64].index(len(key))]) + r["Key"].encode() + b"\n")
            write("cli_key_nonce", bytes([[16, 32, 64].index(len(nonce)) if len(nonce) in (16, 32, 64) else 3]) + r["Nonce"].encode())
    # slp: every matrix file under each format selector, and small matrices to optimize.
    for f in sorted((TV / "slp").glob("*.txt")):
        data = f.read_bytes()
        for sel in range(4):
            write("slp_parse", bytes([sel]) + data)
        write("slp_optimize", bytes([7, 7, 7, 0, 1, 0]) + hashlib.sha256(data).digest())
    write("slp_parse", b"\x00# algorithm: paar  seed: 0  xor-count: 2  depth: 2\nt0 = x0 + x1\ny0 = t0 + x2\ny1 = x0\n")
    # sum -c: the SHA-256 lists have Grøstl-256-length hex digests; plus the tagged form.
    for sub in ("groestl", "proest"):
        lines = (TV / sub / "SHA256SUMS").read_bytes()
        write("sum_check_line", b"\x04" + lines)
        first = lines.split(b"\n")[0].split(b"  ")
        write("sum_check_line", b"\x01GROESTL-256 (" + first[1] + b") = " + first[0] + b"\n")
        write("sum_check_line", b"\x04\\" + first[0] + b"  a\\nb\\\\c\n")
    print("seed corpora in", OUT, ":", {d.name: len(list(d.iterdir())) for d in sorted(OUT.iterdir())})


if __name__ == "__main__":
    main()
