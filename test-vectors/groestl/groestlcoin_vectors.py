"""Regenerates groestlcoin.json with the PyPI package `groestlcoin-hash` (see README.md).

    python3 -m venv venv && venv/bin/pip install groestlcoin-hash==1.0.3
    venv/bin/python groestlcoin_vectors.py > groestlcoin.json
"""
import hashlib
import importlib.metadata
import json

import groestlcoin_hash


def data(n, seed):
    out = b""
    i = 0
    while len(out) < n:
        out += hashlib.sha256(b"slicewise groestlcoin %d %d" % (seed, i)).digest()
        i += 1
    return out[:n]


vectors = []
lengths = [0, 1, 3, 31, 32, 63, 64, 65, 79, 80, 80, 80, 80, 81, 111, 112, 119, 120, 127, 128, 129, 200, 255, 256, 1000, 4096]
for seed, n in enumerate(lengths):
    d = data(n, seed)
    vectors.append({"len": n, "data": d.hex(), "hash": groestlcoin_hash.getHash(d, len(d)).hex()})
print(json.dumps({
    "generator": "groestlcoin_hash.getHash(data, len(data)) from PyPI groestlcoin-hash "
    + importlib.metadata.version("groestlcoin-hash"),
    "vectors": vectors,
}, indent=1))
