"""The Prøst AEADs: all SUPERCOP KATs (6 × 1096) through the pyca-style API on every backend,
tamper rejection, size errors, key generation and thread safety."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import pytest

import slicewise
from slicewise import InvalidTag

from conftest import VECTORS, read_xz, records

CLASSES = {
    "proest128apev1": (slicewise.ProestApe128, 16, 32, 16),
    "proest128copav1": (slicewise.ProestCopa128, 32, 16, 16),
    "proest128otrv1": (slicewise.ProestOtr128, 32, 16, 16),
    "proest256apev1": (slicewise.ProestApe256, 32, 64, 32),
    "proest256copav1": (slicewise.ProestCopa256, 64, 32, 32),
    "proest256otrv1": (slicewise.ProestOtr256, 64, 32, 32),
}


@pytest.fixture(scope="module", params=sorted(CLASSES))
def variant(request):
    name = request.param
    text = read_xz(VECTORS / "proest" / f"{name}.txt.xz")
    kats = [
        tuple(bytes.fromhex(r[k]) for k in ("Key", "Nonce", "PT", "AD", "CT"))
        for r in records(text, ("Count", "Key", "Nonce", "PT", "AD", "CT"))
    ]
    assert len(kats) == 1096, f"{name}: {len(kats)} vectors"
    return name, CLASSES[name][0], kats


def test_kat(variant, proest_backends):
    name, cls, kats = variant
    for backend in proest_backends:
        cipher, key = None, None
        for k, n, pt, ad, ct in kats:
            if k != key:
                cipher, key = cls(k, backend=backend), k
            assert cipher.backend == backend
            assert cipher.encrypt(n, pt, ad) == ct, f"{name} {backend} encrypt"
            assert cipher.decrypt(n, ct, ad) == pt, f"{name} {backend} decrypt"
            if not ad:
                assert cipher.encrypt(n, pt, None) == ct
                assert cipher.decrypt(n, ct, None) == pt


def test_tamper_rejection(variant):
    name, cls, _ = variant
    key = cls.generate_key()
    c = cls(key)
    nonce, ad, msg = os.urandom(cls.NONCE_SIZE), b"header", os.urandom(100)
    ct = c.encrypt(nonce, msg, ad)
    assert c.decrypt(nonce, ct, ad) == msg
    result = "not set"
    for i in (0, len(ct) // 2, len(ct) - cls.TAG_SIZE - 1, len(ct) - cls.TAG_SIZE, len(ct) - 1):
        bad = bytearray(ct)
        bad[i] ^= 0x01
        with pytest.raises(InvalidTag):
            result = c.decrypt(nonce, bytes(bad), ad)
    assert result == "not set"  # no call returned anything
    bad_nonce = bytes([nonce[0] ^ 0x80]) + nonce[1:]
    for args in ((bad_nonce, ct, ad), (nonce, ct, b"Header"), (nonce, ct, None), (nonce, ct[:-1], ad), (nonce, b"", ad)):
        with pytest.raises(InvalidTag):
            c.decrypt(*args)
    with pytest.raises(InvalidTag):
        cls(cls.generate_key()).decrypt(nonce, ct, ad)  # wrong key
    assert issubclass(InvalidTag, Exception)


def test_sizes_and_errors(variant):
    name, cls, _ = variant
    key_len, nonce_len, tag_len = CLASSES[name][1:]
    assert (cls.KEY_SIZE, cls.NONCE_SIZE, cls.TAG_SIZE, cls.ALGORITHM) == (key_len, nonce_len, tag_len, name)
    with pytest.raises(ValueError, match=f"key must be {key_len} bytes, got {key_len + 1}"):
        cls(bytes(key_len + 1))
    with pytest.raises(ValueError, match=f"key must be {key_len} bytes, got 0"):
        cls(b"")
    c = cls(bytes(key_len))
    for bad in (nonce_len - 1, nonce_len + 1, 0):
        with pytest.raises(ValueError, match=f"nonce must be {nonce_len} bytes, got {bad}"):
            c.encrypt(bytes(bad), b"m", None)
        with pytest.raises(ValueError, match=f"nonce must be {nonce_len} bytes"):
            c.decrypt(bytes(bad), bytes(64), None)
    with pytest.raises(TypeError):
        c.encrypt(bytes(nonce_len), "text", None)
    with pytest.raises(TypeError):
        cls("k" * key_len)
    with pytest.raises(ValueError, match="unknown Prøst backend"):
        cls(bytes(key_len), backend="nope")
    assert "key hidden" in repr(c) and "00" not in repr(c)


def test_generate_key(variant):
    name, cls, _ = variant
    keys = {cls.generate_key() for _ in range(20)}
    assert len(keys) == 20
    assert all(isinstance(k, bytes) and len(k) == cls.KEY_SIZE for k in keys)


def test_buffer_arguments_and_long_messages():
    cls = slicewise.ProestOtr256
    key, nonce = bytearray(cls.generate_key()), memoryview(os.urandom(cls.NONCE_SIZE))
    msg = os.urandom(1 << 20)
    c = cls(key)
    ct = c.encrypt(nonce, bytearray(msg), memoryview(b"ad"))
    assert c.decrypt(bytes(nonce), ct, b"ad") == msg


def test_thread_pool():
    cls = slicewise.ProestCopa128
    c = cls(cls.generate_key())
    jobs = [(os.urandom(cls.NONCE_SIZE), os.urandom(n), os.urandom(n % 50)) for n in (0, 1, 100, 20_000, 200_000) * 8]
    want = [c.encrypt(*j) for j in jobs]

    def roundtrip(job):
        n, m, a = job
        ct = c.encrypt(n, m, a)
        return ct, c.decrypt(n, ct, a) == m

    with ThreadPoolExecutor(max_workers=8) as ex:
        got = list(ex.map(roundtrip, jobs))
    assert [g[0] for g in got] == want
    assert all(g[1] for g in got)
