"""Shared helpers: the repository's test vectors and the backends this CPU can run."""

from __future__ import annotations

import lzma
import pathlib
from typing import Dict, Iterator, List, Tuple

import pytest

import slicewise

REPO = pathlib.Path(__file__).resolve().parents[3]
VECTORS = REPO / "test-vectors"


def read_xz(path: pathlib.Path) -> str:
    with lzma.open(path, "rt", encoding="ascii") as f:
        return f.read()


def records(text: str, keys: Tuple[str, ...]) -> Iterator[Dict[str, str]]:
    """`Key = value` records of NIST and SUPERCOP KAT files: a record is complete as soon as it
    has every one of `keys` (the Long KATs have no blank lines between records)."""
    rec: Dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        k, sep, v = line.partition("=")
        if not sep:
            raise ValueError(f"not a `Key = value` line: {line[:40]!r}")
        rec[k.strip()] = v.strip()
        if all(k in rec for k in keys):
            yield rec
            rec = {}


def groestl_kat(kind: str, bits: int) -> List[Tuple[int, bytes, bytes]]:
    """(bit length, message bytes, digest) of `test-vectors/groestl/{kind}MsgKAT_{bits}.txt.xz`."""
    text = read_xz(VECTORS / "groestl" / f"{kind}MsgKAT_{bits}.txt.xz")
    out = []
    for r in records(text, ("Len", "Msg", "MD")):
        n = int(r["Len"])
        msg = bytes.fromhex(r["Msg"])[: (n + 7) // 8]  # Len = 0 records carry a dummy 00 byte
        out.append((n, msg, bytes.fromhex(r["MD"])))
    return out


@pytest.fixture(scope="session")
def groestl_backends() -> List[str]:
    return slicewise.groestl_backends()


@pytest.fixture(scope="session")
def proest_backends() -> List[str]:
    return slicewise.proest_backends()
