"""The XOR-program synthesizer: shortest linear straight-line programs for binary matrices.

A matrix is a :class:`Matrix`, a sequence of rows of 0/1 integers, a NumPy array, or the path
(``str`` or ``os.PathLike``) of a matrix file in any format ``slicewise slp`` reads. Row ``r``
is output ``y_r``; entry ``(r, c)`` is the coefficient of input ``x_c``.

* :func:`optimize`: by default the portfolio of ``slicewise slp optimize`` (``"auto"``:
  restarts over several heuristics, then polishing of the best programs), or seeded,
  time-limited random restarts of one heuristic, on local threads;
* :func:`optimize_distributed`: the same fanned out over a ``dask.distributed`` cluster,
  every task with its own seed range;
* :func:`exact`: exact search for the optimum or a proven lower bound (helper-set enumeration
  up to 20 inputs, CaDiCaL SAT with checkable DRAT proofs).

Every returned :class:`Program` is verified against the matrix; programs pickle through their
text form.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Optional, Sequence, Union

from ._slicewise import ExactResult, Matrix, Program, exact, optimize, slp_algorithms, slp_max_seconds

if TYPE_CHECKING:  # pragma: no cover
    import numpy

    MatrixLike = Union[Matrix, Sequence[Sequence[int]], "numpy.ndarray", str, os.PathLike]

__all__ = ["ExactResult", "MAX_SECONDS", "Matrix", "Program", "algorithms", "exact", "optimize", "optimize_distributed"]

#: The largest time budget (``seconds=``) accepted, about 31 years; a larger one, ``inf`` or
#: ``nan`` raises ``ValueError``, as it is a usage error of the CLI.
MAX_SECONDS: float = slp_max_seconds

#: Names accepted by ``algorithm=`` (``"auto"``, the default, is the portfolio).
algorithms: tuple = tuple(slp_algorithms)

#: Each task of :func:`optimize_distributed` owns this many consecutive seeds unless
#: ``runs_per_task`` is given: task ``i`` starts at ``seed + i * SEED_STRIDE``.
SEED_STRIDE = 1 << 32


def _restarts(
    rows: list,
    algorithm: str,
    seconds: Optional[float],
    seed: int,
    runs: Optional[int],
    max_depth: Optional[int],
    resynth: int,
) -> str:
    """One Dask task: :func:`optimize` with runs ``seed, seed + 1, ...`` on one thread (for
    ``"auto"``, one portfolio); returns the best program's text (the text keeps the task
    independent of how the worker pickles objects)."""
    p = optimize(
        rows,
        algorithm=algorithm,
        seconds=seconds,
        threads=1,
        seed=seed,
        runs=runs,
        max_depth=max_depth,
        resynth=resynth,
    )
    return p.text()


def optimize_distributed(
    matrix: "MatrixLike",
    client: Any,
    tasks: Optional[int] = None,
    seconds: Optional[float] = 10.0,
    seed: int = 0,
    *,
    algorithm: str = "auto",
    runs_per_task: Optional[int] = None,
    max_depth: Optional[int] = None,
    resynth: int = 0,
) -> Program:
    """Fans :func:`optimize` out over a ``dask.distributed`` cluster.

    ``client`` is a ``dask.distributed.Client``. Task ``i`` (of ``tasks``, default: the total
    number of worker threads) runs :func:`optimize` on one thread with ``algorithm`` and seed
    ``seed + i * stride``, where ``stride`` is ``runs_per_task`` if given and
    :data:`SEED_STRIDE` otherwise, so no two tasks share a run seed. With the default
    ``"auto"`` every task is one portfolio within ``seconds`` (exploring and polishing), and
    the winner's header names the command that repeats it; with a single heuristic every run
    can be repeated alone with ``optimize(matrix, algorithm=..., seed=s, runs=1,
    seconds=None)``. Each task stops after ``seconds`` or ``runs_per_task`` runs, whichever
    comes first; with ``runs_per_task`` and ``seconds=None`` the result is deterministic.

    The workers need ``slicewise`` installed (the same wheel as the client). The best program
    (fewest XORs, then smallest depth, then smallest seed) is verified here before it is
    returned.
    """
    m = Matrix(matrix)
    # The tasks would refuse it too, but only once submitted.
    if seconds is not None and not 0 <= seconds <= MAX_SECONDS:
        raise ValueError(f"seconds must be a non-negative number of seconds, at most {MAX_SECONDS:.0e} (about 31 years); got {seconds!r}".replace("e+0", "e"))
    if tasks is None:
        tasks = max(1, sum(client.nthreads().values()))
    if tasks < 1:
        raise ValueError("tasks must be at least 1")
    if seconds is None and runs_per_task is None:
        raise ValueError("give seconds or runs_per_task (or both): every task needs a bound")
    if runs_per_task is not None and runs_per_task < 1:
        raise ValueError("runs_per_task must be at least 1")
    if algorithm.lower() not in algorithms and algorithm.lower() not in ("paar1", "rpaar1", "s-xor", "xiang"):
        raise ValueError(f"unknown algorithm {algorithm!r} (one of {', '.join(algorithms)})")
    stride = runs_per_task if runs_per_task is not None else SEED_STRIDE
    rows = m.tolist()
    futures = [
        client.submit(
            _restarts,
            rows,
            algorithm,
            seconds,
            (seed + i * stride) % (1 << 64),
            runs_per_task,
            max_depth,
            resynth,
            pure=False,
            key=f"slicewise-slp-{m.rows}x{m.cols}-seed{seed}-task{i}-{os.urandom(4).hex()}",
        )
        for i in range(tasks)
    ]
    texts = client.gather(futures)
    programs = [Program.from_text(t, m.cols) for t in texts]
    best = min(programs, key=lambda p: (p.xor_count, p.depth, p.seed))
    if not best.verify(m):
        raise RuntimeError("internal error: the best program from the cluster does not compute the matrix")
    return best
