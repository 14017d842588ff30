"""Drop-in replacements for other packages' interfaces.

* :mod:`slicewise.compat.groestlcoin_hash`: the ``groestlcoin_hash`` module of the PyPI package
  ``groestlcoin-hash`` (``getHash(data, length)``).
"""

from . import groestlcoin_hash

__all__ = ["groestlcoin_hash"]
