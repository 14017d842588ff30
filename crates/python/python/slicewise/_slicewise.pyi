"""Type stubs of the compiled module ``slicewise._slicewise``."""

import os
import sys
from typing import Any, ClassVar, Iterable, List, Literal, Optional, Sequence, Tuple, TypeVar, Union, final

if sys.version_info >= (3, 12):
    from collections.abc import Buffer
else:
    from typing_extensions import Buffer

__all__ = [
    "InvalidTag",
    "__version__",
    "GroestlHash",
    "groestl224",
    "groestl256",
    "groestl384",
    "groestl512",
    "new",
    "groestlcoin_hash",
    "groestlcoin_hash_many",
    "AUTO",
    "hash_bits",
    "groestl_backends",
    "groestl_default_backend",
    "algorithms_available",
    "ProestApe128",
    "ProestCopa128",
    "ProestOtr128",
    "ProestApe256",
    "ProestCopa256",
    "ProestOtr256",
    "proest_backends",
    "Matrix",
    "Program",
    "ExactResult",
    "optimize",
    "exact",
    "slp_algorithms",
    "slp_max_seconds",
]
__version__: str
algorithms_available: Tuple[str, ...]
slp_algorithms: Tuple[str, ...]
slp_max_seconds: float

class InvalidTag(Exception):
    """Decryption failed: ciphertext, tag, nonce, associated data or key do not match."""

# ------------------------------------------------------------------------------ hashing

@final
class GroestlHash:
    """A Grøstl hash object with the hashlib interface. Thread-safe."""

    @property
    def name(self) -> str: ...
    @property
    def digest_size(self) -> int: ...
    @property
    def block_size(self) -> int: ...
    @property
    def backend(self) -> str: ...
    def update(self, data: Buffer) -> None: ...
    def digest(self) -> bytes: ...
    def hexdigest(self) -> str: ...
    def copy(self) -> "GroestlHash": ...

def groestl224(data: Optional[Buffer] = None, *, backend: Optional[str] = None, usedforsecurity: bool = True) -> GroestlHash: ...
def groestl256(data: Optional[Buffer] = None, *, backend: Optional[str] = None, usedforsecurity: bool = True) -> GroestlHash: ...
def groestl384(data: Optional[Buffer] = None, *, backend: Optional[str] = None, usedforsecurity: bool = True) -> GroestlHash: ...
def groestl512(data: Optional[Buffer] = None, *, backend: Optional[str] = None, usedforsecurity: bool = True) -> GroestlHash: ...
def new(name: str, data: Optional[Buffer] = None, *, backend: Optional[str] = None, usedforsecurity: bool = True) -> GroestlHash: ...
def hash_bits(name: str, data: Buffer, bit_length: int, *, backend: Optional[str] = None) -> bytes: ...
def groestl_backends() -> List[str]: ...
def groestl_default_backend() -> str: ...
def groestlcoin_hash(data: Buffer, *, backend: Optional[str] = None) -> bytes: ...
AUTO: int
def groestlcoin_hash_many(
    items: Iterable[Buffer], *, backend: Optional[str] = None, max_threads: int = 1
) -> List[bytes]: ...

# ------------------------------------------------------------------------------ Prøst AEADs

_A = TypeVar("_A", bound="_ProestAead")

class _ProestAead:
    KEY_SIZE: ClassVar[int]
    NONCE_SIZE: ClassVar[int]
    TAG_SIZE: ClassVar[int]
    ALGORITHM: ClassVar[str]
    def __new__(cls: type[_A], key: Buffer, *, backend: Optional[str] = None) -> _A: ...
    @classmethod
    def generate_key(cls) -> bytes: ...
    def encrypt(self, nonce: Buffer, data: Buffer, associated_data: Optional[Buffer] = None) -> bytes: ...
    def decrypt(self, nonce: Buffer, data: Buffer, associated_data: Optional[Buffer] = None) -> bytes: ...
    @property
    def backend(self) -> str: ...

@final
class ProestApe128(_ProestAead): ...

@final
class ProestCopa128(_ProestAead): ...

@final
class ProestOtr128(_ProestAead): ...

@final
class ProestApe256(_ProestAead): ...

@final
class ProestCopa256(_ProestAead): ...

@final
class ProestOtr256(_ProestAead): ...

def proest_backends() -> List[str]: ...

# ------------------------------------------------------------------------------ slp

_MatrixLike = Union["Matrix", Sequence[Sequence[int]], str, "os.PathLike[str]", Any]

@final
class Matrix:
    def __new__(cls, rows: _MatrixLike) -> "Matrix": ...
    @staticmethod
    def parse(text: str) -> "Matrix": ...
    @property
    def rows(self) -> int: ...
    @property
    def cols(self) -> int: ...
    @property
    def naive_xor_count(self) -> int: ...
    def tolist(self) -> List[List[int]]: ...
    def text(self) -> str: ...

@final
class Program:
    @staticmethod
    def from_text(text: str, n_inputs: Optional[int] = None) -> "Program": ...
    @property
    def xor_count(self) -> int: ...
    @property
    def depth(self) -> int: ...
    @property
    def n_inputs(self) -> int: ...
    @property
    def n_outputs(self) -> int: ...
    @property
    def algorithm(self) -> str: ...
    @property
    def seed(self) -> int: ...
    @property
    def ops(self) -> List[Tuple[int, int]]: ...
    def matrix(self) -> Matrix: ...
    def verify(self, matrix: _MatrixLike) -> bool: ...
    def text(self) -> str: ...
    def emit(self, fmt: str = "text", *, name: str = "slp") -> str: ...

@final
class ExactResult:
    @property
    def program(self) -> Optional[Program]: ...
    @property
    def lower_bound(self) -> int: ...
    @property
    def optimal(self) -> bool: ...
    @property
    def log(self) -> List[Tuple[int, str, float]]: ...

def optimize(
    matrix: _MatrixLike,
    *,
    algorithm: str = "auto",
    seconds: Optional[float] = 10.0,
    threads: Optional[int] = None,
    seed: int = 0,
    runs: Optional[int] = None,
    max_depth: Optional[int] = None,
    resynth: int = 0,
    split: bool = False,
    split_choice: Literal["cheapest", "random"] = "cheapest",
) -> Program: ...
def exact(
    matrix: _MatrixLike,
    *,
    seconds: float = 60.0,
    proof_dir: Union[str, "os.PathLike[str]", None] = None,
    heuristic_seconds: float = 2.0,
    method: Optional[Literal["enumerate", "sat"]] = None,
    threads: Optional[int] = None,
    drop_inputs: Union[Sequence[int], Literal["auto"], None] = None,
    caps: int = 0,
    cubes: bool = False,
    targets_first: bool = False,
    max_k: Optional[int] = None,
    force: bool = False,
    cap_share: float = 0.3,
) -> ExactResult: ...
