"""The hashlib protocol: names and sizes, copy independence, incremental == one-shot, input
types, hashlib.file_digest, backend selection, and thread safety."""

from __future__ import annotations

import array
import hashlib
import io
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

import slicewise

SIZES = {"groestl224": (28, 64), "groestl256": (32, 64), "groestl384": (48, 128), "groestl512": (64, 128)}
EMPTY_256 = "1a52d11d550039be16107f9c58db9ebcc417f16f736adb2502567119f0083467"


@pytest.mark.parametrize("name", sorted(SIZES))
def test_name_and_sizes(name):
    h = getattr(slicewise, name)()
    assert h.name == name
    assert (h.digest_size, h.block_size) == SIZES[name]
    assert len(h.digest()) == h.digest_size
    assert len(h.hexdigest()) == 2 * h.digest_size
    assert slicewise.new(name).name == name
    assert name in slicewise.algorithms_available and name in slicewise.algorithms_guaranteed


def test_new_accepts_spellings_and_rejects_others():
    for spelling in ("groestl256", "groestl-256", "GROESTL_256"):
        assert slicewise.new(spelling, b"").hexdigest() == EMPTY_256
    with pytest.raises(ValueError, match="unsupported hash type"):
        slicewise.new("sha256")


def test_empty_digest_and_data_argument():
    assert slicewise.groestl256().hexdigest() == EMPTY_256
    assert slicewise.groestl256(b"").hexdigest() == EMPTY_256
    assert slicewise.groestl256(b"abc").digest() == slicewise.new("groestl256", b"abc").digest()


@pytest.mark.parametrize("name", sorted(SIZES))
def test_incremental_equals_one_shot(name):
    data = os.urandom(5000)
    ctor = getattr(slicewise, name)
    one = ctor(data).digest()
    for step in (1, 7, 63, 64, 65, 127, 128, 129, 1000):
        h = ctor()
        for i in range(0, len(data), step):
            h.update(data[i : i + step])
        assert h.digest() == one, f"step {step}"


def test_digest_does_not_finalize():
    h = slicewise.groestl512(b"ab")
    first = h.digest()
    assert h.digest() == first
    h.update(b"c")
    assert h.digest() == slicewise.groestl512(b"abc").digest()


def test_copy_is_independent():
    h = slicewise.groestl256(b"prefix ")
    c = h.copy()
    c.update(b"copy")
    h.update(b"original")
    assert c.digest() == slicewise.groestl256(b"prefix copy").digest()
    assert h.digest() == slicewise.groestl256(b"prefix original").digest()
    assert c.backend == h.backend


def test_buffer_protocol_inputs():
    np = pytest.importorskip("numpy")
    data = bytes(range(256)) * 40
    want = slicewise.groestl384(data).digest()
    arr = np.frombuffer(data, dtype=np.uint8)
    inputs = [
        bytearray(data),
        memoryview(data),
        array.array("B", data),
        arr,
        arr.view(np.uint32),  # multi-byte items: hashed as their bytes, like hashlib
        np.frombuffer(data, dtype=np.uint8).reshape(40, 256),
    ]
    for obj in inputs:
        assert slicewise.groestl384(obj).digest() == want, type(obj)
    # A non-contiguous view is hashed in C order, as memoryview.tobytes() gives it.
    strided = arr[::2]
    assert slicewise.groestl384(strided).digest() == slicewise.groestl384(strided.tobytes()).digest()
    assert slicewise.groestl384(memoryview(data)[1::3]).digest() == slicewise.groestl384(data[1::3]).digest()


@pytest.mark.parametrize("bad", ["text", 1, 1.5, None, object(), [1, 2]])
def test_bad_types_raise_type_error(bad):
    h = slicewise.groestl256()
    with pytest.raises(TypeError):
        h.update(bad)
    if bad is not None:  # None means "no data" for the constructors, as in hashlib
        with pytest.raises(TypeError):
            slicewise.groestl256(bad)
    with pytest.raises(TypeError):
        slicewise.groestlcoin_hash(bad)


def test_str_message_matches_hashlib():
    with pytest.raises(TypeError) as ours:
        slicewise.groestl256("x")
    with pytest.raises(TypeError) as theirs:
        hashlib.sha256("x")
    assert str(ours.value) == str(theirs.value)


def test_file_digest():
    data = os.urandom(300_000)
    d = hashlib.file_digest(io.BytesIO(data), slicewise.groestl256)
    assert d.digest() == slicewise.groestl256(data).digest()
    assert hashlib.file_digest(io.BytesIO(data), "sha256").digest() == hashlib.sha256(data).digest()


def test_backend_selection(groestl_backends):
    data = os.urandom(1000)
    want = slicewise.groestl512(data, backend="portable").digest()
    assert "portable" in groestl_backends
    assert slicewise.groestl_default_backend() in groestl_backends
    for b in groestl_backends:
        h = slicewise.groestl512(data, backend=b)
        assert h.backend == b
        assert h.digest() == want, b
        assert slicewise.groestlcoin_hash(data, backend=b) == slicewise.groestlcoin_hash(data, backend="portable")
    assert slicewise.groestl512(data).backend == slicewise.groestl_default_backend()


def test_unknown_backend_raises_value_error():
    with pytest.raises(ValueError, match="unknown Grøstl backend \"nope\""):
        slicewise.groestl256(backend="nope")
    with pytest.raises(ValueError, match="unknown"):
        slicewise.new("groestl256", backend="")
    with pytest.raises(ValueError, match="unknown"):
        slicewise.groestlcoin_hash_many([b""], backend="nope")


def _python(code: str, env_value: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, SLICEWISE_BACKEND=env_value)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)


def test_environment_variable_selects_backend():
    r = _python("import slicewise; print(slicewise.groestl256().backend, slicewise.ProestApe128(bytes(16)).backend)", "portable")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["portable", "portable"]
    r = _python("import slicewise; print(slicewise.groestl256().backend)", "groestl:ttable64")
    assert r.stdout.split() == ["ttable64"], r.stderr


def test_bad_environment_variable_raises_not_falls_back():
    r = _python("import slicewise\ntry:\n    slicewise.groestl256()\nexcept ValueError as e:\n    print('ValueError', e)", "bogus")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ValueError SLICEWISE_BACKEND=\"bogus\""), r.stdout


def test_thread_pool_one_shot_and_incremental():
    msgs = [os.urandom(n) for n in (0, 1, 100, 10_000, 100_000, 1 << 20)] * 4
    want = [slicewise.groestl256(m).digest() for m in msgs]

    def work(m):
        h = slicewise.groestl256()
        h.update(m[: len(m) // 2])
        h.update(m[len(m) // 2 :])
        return h.digest()

    with ThreadPoolExecutor(max_workers=8) as ex:
        assert list(ex.map(work, msgs)) == want
        assert list(ex.map(lambda m: slicewise.groestlcoin_hash(m), msgs)) == [slicewise.groestlcoin_hash(m) for m in msgs]


def test_shared_object_concurrent_updates():
    # Updates of one object from many threads are serialized by its lock. Every chunk consists
    # of the same byte, so the message is the same whatever the interleaving; small chunks take
    # the path that hashes with the interpreter held, large ones the path that releases it.
    chunks = [b"a" * 100, b"a" * 50_000]
    h = slicewise.groestl512()
    barrier = threading.Barrier(8)

    def work(i):
        barrier.wait()
        for _ in range(20):
            h.update(chunks[i % 2])
            h.copy().digest()  # concurrent readers see a consistent state

    with ThreadPoolExecutor(max_workers=8) as ex:
        list(ex.map(work, range(8)))
    assert h.digest() == slicewise.groestl512(b"a" * (4 * 20 * (100 + 50_000))).digest()


def test_long_input_releases_the_interpreter():
    # With a 10 s switch interval a thread holding the interpreter keeps it; the other thread
    # can only run during the hash if the hash released it.
    data = b"\x00" * (32 << 20)
    go, progress = threading.Event(), []

    def spin():
        go.wait()
        for _ in range(200_000):
            progress.append(1)

    old = sys.getswitchinterval()
    sys.setswitchinterval(10.0)
    try:
        t = threading.Thread(target=spin)
        t.start()
        go.set()
        slicewise.groestl256(data)
        during = len(progress)
        t.join()
    finally:
        sys.setswitchinterval(old)
    assert during > 0, "no Python code ran while hashing 32 MiB"
