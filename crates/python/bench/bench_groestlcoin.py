#!/usr/bin/env python3
"""Python-level throughput of slicewise against PyPI groestlcoin-hash (and hashlib for scale).

Measures, all in one run, median of --runs repetitions:

* Groestlcoin's hash of 80-byte block headers: ``groestlcoin_hash.getHash`` (PyPI, C), one
  call per header; ``slicewise.groestlcoin_hash`` one call per header; the drop-in
  ``slicewise.compat.groestlcoin_hash.getHash``; ``slicewise.groestlcoin_hash_many`` on the
  whole batch (multi-buffer kernels);
* Grøstl-256 and Grøstl-512 of 1 MiB (``bytes`` and a NumPy array), with hashlib's SHA-256,
  SHA3-256 and BLAKE2b of the same buffer for scale (other algorithms: there is no Grøstl in
  hashlib).

Prints a Markdown table. Usage: python bench_groestlcoin.py [--headers N] [--runs R] [--backend B]
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import os
import platform
import statistics
import time
from typing import Callable, List, Optional, Tuple

import slicewise
from slicewise.compat import groestlcoin_hash as compat

try:
    import groestlcoin_hash as reference
except ImportError:  # pragma: no cover
    reference = None


def median_seconds(fn: Callable[[], object], runs: int) -> float:
    fn()  # warm-up
    times = []
    gc.disable()
    try:
        for _ in range(runs):
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
    finally:
        gc.enable()
    return statistics.median(times)


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--headers", type=int, default=20_000, help="80-byte headers per batch (default 20000)")
    ap.add_argument("--runs", type=int, default=9, help="repetitions; the median is reported (default 9)")
    ap.add_argument("--backend", default=None, help="Grøstl backend for slicewise (default: the process default)")
    args = ap.parse_args()

    backend = args.backend or slicewise.groestl_default_backend()
    headers = [os.urandom(80) for _ in range(args.headers)]
    n = len(headers)

    # Same answers before timing anything.
    batch = slicewise.groestlcoin_hash_many(headers, backend=backend)
    assert batch == [slicewise.groestlcoin_hash(h, backend=backend) for h in headers]
    if reference is not None:
        assert batch == [reference.getHash(h, 80) for h in headers]

    rows: List[Tuple[str, float, str, Optional[float]]] = []  # (what, seconds, unit, rate)
    ref_rate: Optional[float] = None
    if reference is not None:
        get = reference.getHash
        t = median_seconds(lambda: [get(h, 80) for h in headers], args.runs)
        ref_rate = n / t
        rows.append(("groestlcoin_hash.getHash (PyPI, C), one by one", t, "headers/s", ref_rate))
    one = slicewise.groestlcoin_hash
    t = median_seconds(lambda: [one(h, backend=backend) for h in headers], args.runs)
    rows.append((f"slicewise.groestlcoin_hash, one by one ({backend})", t, "headers/s", n / t))
    gh = compat.getHash
    t = median_seconds(lambda: [gh(h, 80) for h in headers], args.runs)
    rows.append(("slicewise.compat.groestlcoin_hash.getHash, one by one", t, "headers/s", n / t))
    many = slicewise.groestlcoin_hash_many
    t = median_seconds(lambda: many(headers, backend=backend), args.runs)
    rows.append((f"slicewise.groestlcoin_hash_many, batch of {n} ({backend})", t, "headers/s", n / t))

    print(f"CPU: {cpu_model()}; Python {platform.python_version()}; slicewise {slicewise.__version__}; "
          f"load average before: {os.getloadavg()[0]:.2f}")
    print()
    print("| Groestlcoin hash of 80-byte headers | median per batch | headers/s | vs groestlcoin-hash |")
    print("|---|---:|---:|---:|")
    for what, secs, _, rate in rows:
        rel = f"{rate / ref_rate:.1f}×" if ref_rate else "n/a (groestlcoin-hash missing)"
        print(f"| {what} | {secs * 1e3:.2f} ms | {rate:,.0f} | {rel} |")

    mib = os.urandom(1 << 20)
    try:
        import numpy as np

        arr: object = np.frombuffer(mib, dtype=np.uint8).copy()
    except ImportError:  # pragma: no cover
        arr = None
    big = [
        (f"slicewise.groestl256, bytes ({backend})", lambda: slicewise.groestl256(mib, backend=backend).digest()),
        (f"slicewise.groestl512, bytes ({backend})", lambda: slicewise.groestl512(mib, backend=backend).digest()),
    ]
    if arr is not None:
        big.append((f"slicewise.groestl256, NumPy array (one copy) ({backend})", lambda: slicewise.groestl256(arr, backend=backend).digest()))
    big += [
        ("hashlib.sha256 (other algorithm, for scale)", lambda: hashlib.sha256(mib).digest()),
        ("hashlib.sha3_256 (other algorithm, for scale)", lambda: hashlib.sha3_256(mib).digest()),
        ("hashlib.blake2b (other algorithm, for scale)", lambda: hashlib.blake2b(mib).digest()),
    ]
    print()
    print("| 1 MiB message | median | MiB/s |")
    print("|---|---:|---:|")
    for what, fn in big:
        secs = median_seconds(fn, args.runs)
        print(f"| {what} | {secs * 1e3:.3f} ms | {1 / secs:,.0f} |")
    print()
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
