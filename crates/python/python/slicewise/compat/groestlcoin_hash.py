"""Drop-in replacement for the ``groestlcoin_hash`` module of PyPI ``groestlcoin-hash``.

Replace ``import groestlcoin_hash`` by::

    from slicewise.compat import groestlcoin_hash

and ``groestlcoin_hash.getHash(header, len(header))`` returns the same 32 bytes.
"""

from __future__ import annotations

import operator

from .._slicewise import groestlcoin_hash as _groestlcoin_hash

__all__ = ["getHash"]


def getHash(data: bytes, length: int, /) -> bytes:  # noqa: N802 (the original's name)
    """Groestlcoin's hash of the first ``length`` bytes of ``data``: the first 32 bytes of
    Grøstl-512(Grøstl-512(data[:length])).

    Same signature as the C original (two positional arguments, ``data`` a ``bytes`` object).
    The original reads past the end of ``data`` when ``length`` is too large; this one raises
    ``ValueError`` instead, and also for a negative ``length``.
    """
    if not isinstance(data, bytes):
        raise TypeError(f"getHash() argument 1 must be bytes, not {type(data).__name__}")
    length = operator.index(length)
    if length < 0 or length > len(data):
        raise ValueError(f"length {length} is outside 0..{len(data)} (the length of data)")
    return _groestlcoin_hash(data if length == len(data) else data[:length])
