"""Every record of the NIST-format Grøstl KATs (Short and Long, all four sizes) through the
Python API: byte-aligned messages through the hashlib-style objects (one-shot and fed in
pieces), every message (including bit lengths) through `slicewise.hash_bits`, on every backend
this CPU can run."""

from __future__ import annotations

import pytest

import slicewise

from conftest import groestl_kat

SIZES = (224, 256, 384, 512)
KINDS = ("Short", "Long")
EXPECTED_RECORDS = {"Short": 2048, "Long": 513}


@pytest.fixture(scope="module", params=[(k, s) for k in KINDS for s in SIZES], ids=lambda p: f"{p[0]}MsgKAT_{p[1]}")
def kat(request):
    kind, size = request.param
    recs = groestl_kat(kind, size)
    assert len(recs) == EXPECTED_RECORDS[kind], f"{kind}MsgKAT_{size}: {len(recs)} records"
    return kind, size, recs


def test_kat_bytes_hashlib(kat, groestl_backends):
    kind, size, recs = kat
    aligned = [(m, md) for n, m, md in recs if n % 8 == 0]
    assert aligned, "no byte-aligned records"
    ctor = getattr(slicewise, f"groestl{size}")
    for backend in groestl_backends:
        for msg, md in aligned:
            assert ctor(msg, backend=backend).digest() == md, f"{kind} {size} {backend} len {len(msg)}"
            h = ctor(backend=backend)
            third = len(msg) // 3
            h.update(msg[:third])
            h.update(memoryview(msg)[third : 2 * third])
            h.update(bytearray(msg[2 * third :]))
            assert h.hexdigest() == md.hex(), f"{kind} {size} {backend} len {len(msg)} in pieces"


def test_kat_all_bit_lengths(kat, groestl_backends):
    kind, size, recs = kat
    for backend in groestl_backends:
        for n, msg, md in recs:
            assert slicewise.hash_bits(f"groestl{size}", msg, n, backend=backend) == md, f"{kind} {size} {backend} Len {n}"


def test_hash_bits_rejects_short_data():
    with pytest.raises(ValueError, match="need 2 bytes"):
        slicewise.hash_bits("groestl256", b"\x00", 9)
    with pytest.raises(ValueError, match="unsupported hash type"):
        slicewise.hash_bits("sha256", b"", 0)
