"""slicewise: Grøstl hashes, Groestlcoin's hash, the Prøst AEADs and an XOR-program
synthesizer, implemented in Rust.

Hashing follows :mod:`hashlib`::

    import slicewise
    h = slicewise.groestl256(b"hello ")
    h.update(b"world")
    print(h.hexdigest())
    with open("file.bin", "rb") as f:
        digest = hashlib.file_digest(f, slicewise.groestl256).digest()

The AEADs follow pyca/cryptography (``ProestApe128(key).encrypt(nonce, data, ad)``), and
:mod:`slicewise.slp` drives the synthesizer.
"""

from __future__ import annotations

from . import _slicewise
from ._slicewise import (
    AUTO,
    GroestlHash,
    InvalidTag,
    ProestApe128,
    ProestApe256,
    ProestCopa128,
    ProestCopa256,
    ProestOtr128,
    ProestOtr256,
    algorithms_available as _algorithms,
    groestl224,
    groestl256,
    groestl384,
    groestl512,
    groestl_backends,
    groestl_default_backend,
    groestlcoin_hash,
    groestlcoin_hash_many,
    hash_bits,
    new,
    proest_backends,
)
from . import compat, slp

__version__: str = _slicewise.__version__

# `algorithms_guaranteed` mirrors hashlib: everything here is always available.
algorithms_guaranteed = frozenset(_algorithms)
algorithms_available = frozenset(_algorithms)

__all__ = [
    "AUTO",
    "GroestlHash",
    "InvalidTag",
    "ProestApe128",
    "ProestApe256",
    "ProestCopa128",
    "ProestCopa256",
    "ProestOtr128",
    "ProestOtr256",
    "algorithms_available",
    "algorithms_guaranteed",
    "groestl224",
    "groestl256",
    "groestl384",
    "groestl512",
    "groestl_backends",
    "groestl_default_backend",
    "groestlcoin_hash",
    "groestlcoin_hash_many",
    "hash_bits",
    "new",
    "proest_backends",
    "compat",
    "slp",
]
