"""Groestlcoin's hash: the stored vectors, agreement with PyPI groestlcoin-hash, the batched
form and the drop-in `getHash`.

The agreement test records whether it ran in the backend report as `check:groestlcoin-hash`
(`target/backend-report/`, totalled by scripts/backend-summary.sh), and fails instead of
skipping when SLICEWISE_REQUIRE_BACKENDS asks for it (`all`, `groestlcoin-hash` or
`check:groestlcoin-hash`; the syntax of test-support/backend_report.rs)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

import slicewise
from slicewise.compat import groestlcoin_hash as compat

from conftest import VECTORS

try:
    import groestlcoin_hash as reference  # type: ignore[import-not-found]
except ImportError as e:  # pragma: no cover - depends on the environment
    reference = None
    REFERENCE_MISSING = f"PyPI groestlcoin-hash is not installed or failed to build ({e}); agreement test not run"
else:
    REFERENCE_MISSING = ""

ITEM = "check:groestlcoin-hash"
SUITE = "slicewise-python/test_groestlcoin.py"


def required(item: str) -> bool:
    """Whether SLICEWISE_REQUIRE_BACKENDS (comma-separated `all`, `NAME`, `PRIMITIVE:NAME`)
    asks for `item` (`PRIMITIVE:NAME`)."""
    entries = [e.strip() for e in os.environ.get("SLICEWISE_REQUIRE_BACKENDS", "").split(",")]
    return any(e in ("all", item, item.split(":", 1)[1]) for e in entries)


def record(status: str) -> None:
    """Appends `status ITEM SUITE` to the backend report (best effort, as the Rust suites do)."""
    target = Path(os.environ.get("CARGO_TARGET_DIR") or "target")
    if not target.is_absolute():
        target = VECTORS.parent / target
    try:
        (target / "backend-report").mkdir(parents=True, exist_ok=True)
        with open(target / "backend-report" / (SUITE.replace("/", "--") + ".tsv"), "a") as f:
            f.write(f"{status}\t{ITEM}\t{SUITE}\n")
    except OSError:
        pass


def stored_vectors():
    doc = json.loads((VECTORS / "groestl" / "groestlcoin.json").read_text())
    return [(bytes.fromhex(v["data"]), bytes.fromhex(v["hash"])) for v in doc["vectors"]]


def test_stored_vectors():
    vs = stored_vectors()
    assert len(vs) >= 20
    for data, want in vs:
        assert slicewise.groestlcoin_hash(data) == want, len(data)
        assert compat.getHash(data, len(data)) == want
    assert slicewise.groestlcoin_hash_many([d for d, _ in vs]) == [w for _, w in vs]


def test_batch_of_headers_on_every_backend(groestl_backends):
    rng = random.Random(1)
    headers = [rng.randbytes(80) for _ in range(333)]  # not a multiple of any lane count
    want = [slicewise.groestlcoin_hash(h, backend="portable") for h in headers]
    for b in groestl_backends:
        assert slicewise.groestlcoin_hash_many(headers, backend=b) == want, b
        assert slicewise.groestlcoin_hash_many(iter(headers), backend=b) == want, b


def test_batch_of_mixed_lengths(groestl_backends):
    rng = random.Random(2)
    msgs = [rng.randbytes(rng.choice([0, 1, 79, 80, 81, 127, 128, 129, 1000])) for _ in range(100)]
    msgs[5] = bytearray(msgs[5])
    msgs[6] = memoryview(msgs[6])
    want = [slicewise.groestlcoin_hash(bytes(m)) for m in msgs]
    for b in groestl_backends:
        assert slicewise.groestlcoin_hash_many(msgs, backend=b) == want, b


def test_batch_on_threads():
    """`max_threads` splits a batch into contiguous parts; the result is in input order and
    equal to the one-thread result, for headers and for mixed lengths, and a batch too small to
    split stays correct."""
    rng = random.Random(3)
    headers = [rng.randbytes(80) for _ in range(1100)]  # 4 parts of >= 256 at most
    want = slicewise.groestlcoin_hash_many(headers)
    assert want[:5] == [slicewise.groestlcoin_hash(h) for h in headers[:5]]
    for t in (2, 3, 7, slicewise.AUTO):
        assert slicewise.groestlcoin_hash_many(headers, max_threads=t) == want, t
    mixed = [rng.randbytes(rng.choice([0, 80, 129])) for _ in range(700)]
    assert slicewise.groestlcoin_hash_many(mixed, max_threads=3) == [slicewise.groestlcoin_hash(m) for m in mixed]
    assert slicewise.groestlcoin_hash_many(headers[:10], max_threads=4) == want[:10]
    for bad in (0, -2):
        with pytest.raises(ValueError, match="max_threads"):
            slicewise.groestlcoin_hash_many(headers, max_threads=bad)


def test_batch_edge_cases():
    assert slicewise.groestlcoin_hash_many([]) == []
    with pytest.raises(TypeError):
        slicewise.groestlcoin_hash_many(b"\x00" * 80)  # one header, not a list of them
    with pytest.raises(TypeError):
        slicewise.groestlcoin_hash_many([b"", "text"])
    with pytest.raises(TypeError):
        slicewise.groestlcoin_hash_many(5)


def test_get_hash_signature():
    data = os.urandom(100)
    assert compat.getHash(data, 100) == slicewise.groestlcoin_hash(data)
    assert compat.getHash(data, 80) == slicewise.groestlcoin_hash(data[:80])
    assert compat.getHash(data, 0) == slicewise.groestlcoin_hash(b"")
    with pytest.raises(TypeError):
        compat.getHash(data)  # length is required, as in the C original
    with pytest.raises(TypeError):
        compat.getHash(data=data, length=100)  # positional only
    with pytest.raises(TypeError):
        compat.getHash(bytearray(data), 100)  # the original takes bytes only
    with pytest.raises(TypeError):
        compat.getHash(data, 1.0)
    with pytest.raises(ValueError):
        compat.getHash(data, 101)
    with pytest.raises(ValueError):
        compat.getHash(data, -1)


def test_agrees_with_pypi_groestlcoin_hash_random_inputs():
    if reference is None:
        record("skipped")
        if required(ITEM):
            pytest.fail(f"{REFERENCE_MISSING}, but SLICEWISE_REQUIRE_BACKENDS requires {ITEM}")
        pytest.skip(REFERENCE_MISSING)
    record("ran")
    rng = random.Random(12)
    lengths = [0, 1, 63, 64, 65, 79, 80, 81, 127, 128, 129, 255, 256, 1000, 4096, 10_000]
    lengths += [rng.randrange(0, 3000) for _ in range(300)]
    msgs = [rng.randbytes(n) for n in lengths]
    want = [reference.getHash(m, len(m)) for m in msgs]
    assert [slicewise.groestlcoin_hash(m) for m in msgs] == want
    assert [compat.getHash(m, len(m)) for m in msgs] == want
    assert slicewise.groestlcoin_hash_many(msgs) == want
    headers = [rng.randbytes(80) for _ in range(500)]
    assert slicewise.groestlcoin_hash_many(headers) == [reference.getHash(h, 80) for h in headers]
    # getHash hashes a prefix when length < len(data), like the original
    m = rng.randbytes(200)
    assert compat.getHash(m, 150) == reference.getHash(m, 150)
