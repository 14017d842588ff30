#!/usr/bin/env python3
"""Python-level throughput of slicewise against PyPI groestlcoin-hash (and hashlib for scale).

Measures, all in one run:

* Groestlcoin's hash of 80-byte block headers, two ways: (1) interleaved short samples: every
  repetition times each method once on a sample of about half a millisecond of work (100
  headers for the one-by-one calls, 1000 for the batch), methods in turn, and reports the
  median per header over --samples repetitions; short interleaved samples see the same machine
  load and are rarely preempted, so they estimate the unloaded speed even on a shared machine;
  (2) the whole list of --headers headers per call, median of --runs repetitions;
* the methods: ``groestlcoin_hash.getHash`` (PyPI, C), one
  call per header; ``slicewise.groestlcoin_hash`` one call per header; the drop-in
  ``slicewise.compat.groestlcoin_hash.getHash``; ``slicewise.groestlcoin_hash_many`` on the
  whole batch (multi-buffer kernels), on one thread and, on a machine with several cores, with
  ``max_threads=AUTO``;
* Grøstl-256 and Grøstl-512 of 1 MiB (median of --runs) (``bytes`` and a NumPy array), with hashlib's SHA-256,
  SHA3-256 and BLAKE2b of the same buffer for scale (other algorithms: there is no Grøstl in
  hashlib).

Prints Markdown tables. Usage:
python bench_groestlcoin.py [--headers N] [--runs R] [--samples S] [--backend B]
"""

from __future__ import annotations

import argparse
import functools
import gc
import hashlib
import os
import platform
import statistics
import time
from typing import Any, Callable, List, Optional, Tuple

import slicewise
from slicewise.compat import groestlcoin_hash as compat

try:
    import groestlcoin_hash as reference  # type: ignore[import-not-found]
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


def table(title: str, columns: List[str], rows: List[Tuple[str, List[str], float]], has_reference: bool) -> None:
    """Prints a Markdown table of Groestlcoin rows: label, `columns`, headers/s and the speed-up
    over the first row (groestlcoin-hash) when it is there. Each row carries its seconds per
    header."""
    print()
    print(title)
    print()
    print("| Groestlcoin hash of 80-byte headers | " + " | ".join(columns) + " | headers/s | vs groestlcoin-hash |")
    print("|---|" + "---:|" * (len(columns) + 2))
    ref = rows[0][2] if has_reference else None
    for what, cells, per in rows:
        rel = f"{ref / per:.1f}×" if ref else "n/a (groestlcoin-hash missing)"
        print(f"| {what} | " + " | ".join(cells) + f" | {1 / per:,.0f} | {rel} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--headers", type=int, default=20_000, help="80-byte headers per batch (default 20000)")
    ap.add_argument("--runs", type=int, default=9, help="repetitions; the median is reported (default 9)")
    ap.add_argument("--samples", type=int, default=201, help="interleaved short samples per method (default 201)")
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

    # Without --backend the calls pass no keyword argument, as most callers would (a keyword
    # costs about 100 ns per call to parse).
    kw = {"backend": args.backend} if args.backend else {}
    one: Callable[[bytes], bytes] = functools.partial(slicewise.groestlcoin_hash, **kw) if kw else slicewise.groestlcoin_hash
    gh = compat.getHash
    many: Callable[[list], List[bytes]] = (
        functools.partial(slicewise.groestlcoin_hash_many, **kw) if kw else slicewise.groestlcoin_hash_many
    )
    # (label, function of a list of headers, sample size for the interleaved measurement)
    methods: List[Tuple[str, Callable[[list], object], int]] = []
    if reference is not None:
        get = reference.getHash
        methods.append(("groestlcoin_hash.getHash (PyPI, C), one by one", lambda hs: [get(h, 80) for h in hs], 100))
    methods += [
        (f"slicewise.groestlcoin_hash, one by one ({backend})", lambda hs: [one(h) for h in hs], 200),
        ("slicewise.compat.groestlcoin_hash.getHash, one by one", lambda hs: [gh(h, 80) for h in hs], 200),
        (f"slicewise.groestlcoin_hash_many, batches ({backend})", lambda hs: many(hs), 1000),
    ]
    threads = os.cpu_count() or 1
    if threads > 1:
        # blake3-py's `max_threads=AUTO`: the batch split over every core (a separate row: the
        # one-thread row above is the like-for-like comparison with one-thread `getHash`).
        methods.append((
            f"slicewise.groestlcoin_hash_many, batches, max_threads=AUTO ({threads} threads, {backend})",
            lambda hs: many(hs, max_threads=slicewise.AUTO),
            1000,
        ))

    print(f"CPU: {cpu_model()}; Python {platform.python_version()}; slicewise {slicewise.__version__}; "
          f"load average before: {os.getloadavg()[0]:.2f}")

    # (1) interleaved short samples
    per_header: List[List[float]] = [[] for _ in methods]
    gc.disable()
    try:
        for rep in range(args.samples):
            start = (rep * 1000) % (n - 1000) if n > 1000 else 0
            for i, (_, fn, k) in enumerate(methods):
                sample = headers[start : start + k]
                t = time.perf_counter()
                fn(sample)
                per_header[i].append((time.perf_counter() - t) / len(sample))
    finally:
        gc.enable()
    meds = [statistics.median(v) for v in per_header]
    table(
        f"Interleaved samples (median of {args.samples}):",
        ["headers per sample", "ns/header"],
        [(what, [f"{k}", f"{m * 1e9:,.0f}"], m) for (what, _, k), m in zip(methods, meds)],
        reference is not None,
    )

    # (2) the whole list per call
    def on_all(fn: Callable[[list], object]) -> Callable[[], object]:
        return lambda: fn(headers)

    whole = [median_seconds(on_all(fn), args.runs) for _, fn, _ in methods]
    table(
        f"Whole list of {n} headers per call (median of {args.runs}):",
        ["median per call"],
        [(what.replace("batches", "one call"), [f"{t * 1e3:.2f} ms"], t / n) for (what, _, _), t in zip(methods, whole)],
        reference is not None,
    )

    mib = os.urandom(1 << 20)
    try:
        import numpy as np

        arr: Any = np.frombuffer(mib, dtype=np.uint8).copy()
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
    for what, bfn in big:
        secs = median_seconds(bfn, args.runs)
        print(f"| {what} | {secs * 1e3:.3f} ms | {1 / secs:,.0f} |")
    print()
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
