"""The XOR-program synthesizer from Python: matrix forms, optimize, exact, programs (verify,
emit, pickle), and the Dask fan-out on a local cluster."""

from __future__ import annotations

import json
import os
import pathlib
import pickle
import subprocess

import pytest

import slicewise
from slicewise import slp

from conftest import REPO, VECTORS

RANDOM8 = VECTORS / "slp" / "random8_s1.txt"
MIXCOLUMNS = VECTORS / "slp" / "aes_mixcolumns.txt"


def test_matrix_forms_agree():
    np = pytest.importorskip("numpy")
    m = slp.Matrix(RANDOM8)
    rows = m.tolist()
    assert (m.rows, m.cols) == (8, 8)
    assert all(v in (0, 1) for r in rows for v in r)
    assert slp.Matrix(str(RANDOM8)) == m
    assert slp.Matrix(rows) == m
    assert slp.Matrix(np.array(rows, dtype=np.uint8)) == m
    assert slp.Matrix([[bool(v) for v in r] for r in rows]) == m
    assert slp.Matrix.parse(m.text()) == m
    assert pickle.loads(pickle.dumps(m)) == m
    assert m.naive_xor_count == sum(max(sum(r) - 1, 0) for r in rows)


@pytest.mark.parametrize(
    "bad, exc",
    [
        ([[0, 2]], ValueError),
        ([[0, 1], [1]], ValueError),
        ([], ValueError),
        ([[]], ValueError),
        (["0101"], TypeError),
        ([[0, "1"]], TypeError),
        ([[1] * 129], ValueError),
        (5, TypeError),
    ],
)
def test_bad_matrices(bad, exc):
    with pytest.raises(exc):
        slp.Matrix(bad)


def test_missing_file_raises_os_error(tmp_path):
    with pytest.raises(OSError):
        slp.optimize(tmp_path / "absent.txt", seconds=1)


def test_optimize_verified_and_reproducible():
    p = slp.optimize(MIXCOLUMNS, algorithm="a2", seconds=None, runs=4, seed=7, threads=2)
    assert p.verify(MIXCOLUMNS)
    assert p.matrix() == slp.Matrix(MIXCOLUMNS)
    assert p.xor_count < slp.Matrix(MIXCOLUMNS).naive_xor_count
    assert 7 <= p.seed < 11
    q = slp.optimize(MIXCOLUMNS, algorithm="a2", seconds=None, runs=4, seed=7, threads=1)
    assert (q.xor_count, q.depth, q.seed) == (p.xor_count, p.depth, p.seed)
    assert q == p
    again = slp.optimize(MIXCOLUMNS, algorithm="a2", seconds=None, runs=1, seed=p.seed)
    assert again == p  # every run is reproducible on its own


def test_optimize_default_is_the_cli_portfolio():
    # The default algorithm is "auto": the portfolio of `slicewise slp optimize` (one library
    # function for both), reproducible with runs for any number of threads.
    p = slp.optimize(MIXCOLUMNS, seconds=None, runs=24, seed=5, threads=2)
    assert p.verify(MIXCOLUMNS) and p.algorithm.startswith("auto:")
    text = p.text()
    assert "\n# arms (runs): " in text and "\n# repeat the winner alone: slicewise slp optimize MATRIX -a " in text, text
    assert slp.optimize(MIXCOLUMNS, algorithm="auto", seconds=None, runs=24, seed=5, threads=1) == p
    assert "auto" in slp.algorithms
    # The CLI's default on the same matrix, seed and runs gives the same program.
    cli = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target")) / "release" / "slicewise"
    if cli.exists():
        out = subprocess.run([str(cli), "slp", "optimize", str(MIXCOLUMNS), "--runs", "24", "--seed", "5", "-j", "1", "-q"], capture_output=True, text=True, check=True).stdout
        assert slp.Program.from_text(out, 32) == p
        assert out.splitlines()[0] == text.splitlines()[0]  # algorithm, seed, counts, arm, polish segments
    # A time budget bounds it too; split and resynth belong to single algorithms.
    q = slp.optimize(RANDOM8, seconds=0.5, threads=1)
    assert q.verify(RANDOM8) and q.algorithm.startswith("auto:")
    with pytest.raises(ValueError, match="single algorithm"):
        slp.optimize(RANDOM8, seconds=1, split=True)


@pytest.mark.parametrize("seconds", [1e30, float(2**64 - 1), float("inf"), float("nan")])
def test_huge_time_limits_raise_value_error(seconds):
    for algorithm in ("auto", "a2"):
        with pytest.raises(ValueError, match="at most 1e9"):
            slp.optimize(RANDOM8, algorithm=algorithm, seconds=seconds)
    with pytest.raises(ValueError, match="at most 1e9"):
        slp.exact(RANDOM8, seconds=seconds)
    with pytest.raises(ValueError, match="at most 1e9"):
        slp.exact(RANDOM8, seconds=5, heuristic_seconds=seconds)
    with pytest.raises(ValueError, match="at most 1e9"):
        slp.optimize_distributed(RANDOM8, object(), tasks=1, seconds=seconds)  # before any task
    assert slp.MAX_SECONDS == 1e9


def test_optimize_split_runs():
    # Whirlwind's M1 (32x32) splits three levels deep; split runs are reproducible and verified.
    m = VECTORS / "slp" / "bench" / "Whirlwind_M1.txt"
    p = slp.optimize(m, algorithm="rnbp", seconds=None, runs=2, seed=3, threads=2, split=True)
    assert p.verify(m) and p.algorithm.startswith("split:rnbp")
    assert slp.optimize(m, algorithm="rnbp", seconds=None, runs=2, seed=3, threads=1, split=True) == p
    # The split choice is an option of its own: "random" is the older choice, reproducible too.
    r = slp.optimize(m, algorithm="rnbp", seconds=None, runs=2, seed=3, threads=2, split=True, split_choice="random")
    assert r.verify(m)
    assert slp.optimize(m, algorithm="rnbp", seconds=None, runs=2, seed=3, threads=1, split=True, split_choice="random") == r
    with pytest.raises(ValueError, match="split_choice"):
        slp.optimize(m, algorithm="rnbp", seconds=None, runs=1, split=True, split_choice="best")


def test_optimize_on_time_limit_and_depth_bound():
    p = slp.optimize(RANDOM8, seconds=0.5, threads=2, max_depth=3)
    assert p.depth <= 3 and p.verify(RANDOM8)
    # a program for another matrix does not verify
    other = [[1 - v for v in r] for r in slp.Matrix(RANDOM8).tolist()]
    assert not p.verify(other)


def test_optimize_auto_stops_on_keyboard_interrupt():
    """Ctrl-C (here `_thread.interrupt_main`, which Python handles as SIGINT) ends a long
    portfolio search early and raises KeyboardInterrupt, instead of waiting for `seconds`."""
    import _thread
    import signal
    import threading
    import time

    # Python's own SIGINT handler, which a process started as a background job (SIGINT ignored)
    # does not have: without it `interrupt_main` does nothing.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, _thread.interrupt_main)
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            slp.optimize(MIXCOLUMNS, seconds=120, threads=1)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    # A run or a polish round under way completes first: seconds, not the 120 asked for.
    assert time.monotonic() - start < 60


def test_optimize_argument_errors():
    with pytest.raises(ValueError, match="unknown algorithm"):
        slp.optimize(RANDOM8, algorithm="magic", seconds=1)
    with pytest.raises(ValueError, match="bound"):
        slp.optimize(RANDOM8, seconds=None)
    with pytest.raises(ValueError, match="non-negative"):
        slp.optimize(RANDOM8, seconds=-1)
    with pytest.raises(ValueError, match="at least 1"):
        slp.optimize(RANDOM8, runs=0)


def test_program_text_emit_and_pickle():
    p = slp.optimize(RANDOM8, algorithm="rnbp", seconds=None, runs=3, seed=1)
    text = p.text()
    assert text.startswith(f"# algorithm: rnbp  seed: {p.seed}  xor-count: {p.xor_count}")
    assert slp.Program.from_text(text) == p
    q = pickle.loads(pickle.dumps(p))
    assert q == p and (q.xor_count, q.depth, q.seed, q.algorithm) == (p.xor_count, p.depth, p.seed, p.algorithm)
    assert len(p.ops) == p.xor_count and (p.n_inputs, p.n_outputs) == (8, 8)
    doc = json.loads(p.emit("json"))
    assert isinstance(doc, dict)
    assert "pub fn mix<T" in p.emit("rust", name="mix")
    assert "void lin(" in p.emit("c", name="lin") or "lin(" in p.emit("c", name="lin")
    assert "^=" in p.emit("inplace")
    with pytest.raises(ValueError, match="unknown output format"):
        p.emit("pdf")
    with pytest.raises(ValueError):
        slp.Program.from_text("y0 = x0 + x0")


def test_exact_small_optimum(tmp_path):
    r = slp.exact([[1, 1, 1, 0], [1, 1, 0, 1]], seconds=20, proof_dir=tmp_path)
    assert r.optimal and r.lower_bound == 3
    assert r.program.xor_count == 3 and r.program.verify([[1, 1, 1, 0], [1, 1, 0, 1]])
    assert ("unsat" in [tag for _, tag, _ in r.log])
    assert (tmp_path / "README.txt").exists()
    assert any(p.suffix == ".drat" for p in tmp_path.iterdir())


def test_exact_enumerates_by_default():
    r = slp.exact(RANDOM8, seconds=30, heuristic_seconds=0.2)
    assert r.optimal and r.lower_bound == 12 and r.program.xor_count == 12
    assert r.program.verify(RANDOM8)
    assert [k for k, tag, _ in r.log if tag == "unsat"] == [7, 8, 9, 10, 11]
    s = slp.exact(RANDOM8, seconds=60, heuristic_seconds=0.2, method="sat")
    assert s.optimal and s.lower_bound == 12
    with pytest.raises(ValueError, match="proofs need the SAT method"):
        slp.exact(RANDOM8, method="enumerate", proof_dir="unused")
    with pytest.raises(ValueError, match="enumerate"):
        slp.exact(RANDOM8, method="bfs")


def test_exact_drop_inputs(tmp_path):
    # RANDOM8 without column 7: its optimum plus one bounds RANDOM8 (optimum 12) from below.
    r = slp.exact(RANDOM8, seconds=30, heuristic_seconds=0.2, drop_inputs=[7])
    assert 8 <= r.lower_bound <= 12 and r.program.verify(RANDOM8)
    assert r.optimal == (r.program.xor_count == r.lower_bound)
    assert any(tag == "unsat" for _, tag, _ in r.log)
    # With proofs: restriction.json next to the smaller matrix's proofs.
    p = slp.exact(RANDOM8, seconds=60, heuristic_seconds=0.2, drop_inputs=[7], proof_dir=tmp_path)
    assert p.lower_bound == r.lower_bound
    assert '"dropped"' in (tmp_path / "restriction.json").read_text()
    a = slp.exact(RANDOM8, seconds=3, heuristic_seconds=0.2, drop_inputs="auto", threads=1)
    assert a.lower_bound <= 12 and a.program.verify(RANDOM8)
    cols, sub_bound, secs = a.log[0]
    assert a.lower_bound == len(cols) + sub_bound
    with pytest.raises(ValueError, match="listed twice"):
        slp.exact(RANDOM8, seconds=5, drop_inputs=[1, 1])
    with pytest.raises(ValueError, match="keeps no proofs"):
        slp.exact(RANDOM8, seconds=5, drop_inputs="auto", proof_dir=tmp_path / "x")
    with pytest.raises(TypeError):
        slp.exact(RANDOM8, seconds=5, drop_inputs="all")


def test_exact_caps_cubes(tmp_path):
    # SAT with caps (proofs for the matrix without each column in cap-C directories), cubes on
    # two threads and targets first: the same optimum, 12.
    r = slp.exact(RANDOM8, seconds=120, heuristic_seconds=0.2, proof_dir=tmp_path, caps=1, cubes=True, targets_first=True, threads=2)
    assert r.optimal and r.lower_bound == 12 and r.program.verify(RANDOM8)
    assert [k for k, tag, _ in r.log if tag == "unsat"] == list(range(7, 12))
    assert sorted(p.name for p in tmp_path.glob("cap-*")) == sorted(f"cap-{c}" for c in range(8))
    assert '"caps"' in (tmp_path / "options.json").read_text()
    assert list(tmp_path.glob("k11.c*.drat")), "k = 11 split into cubes"
    with pytest.raises(ValueError, match="options of the SAT method"):
        slp.exact(RANDOM8, seconds=5, method="enumerate", caps=1)
    with pytest.raises(ValueError, match="SAT options"):
        slp.exact(RANDOM8, seconds=5, drop_inputs="auto", cubes=True)


def test_exact_takes_the_cli_options(tmp_path):
    # max_k, force and cap_share: the options struct of the CLI (slicewise_slp::exact::ExactSearch).
    r = slp.exact(RANDOM8, seconds=30, heuristic_seconds=0.2, max_k=9)
    assert r.lower_bound == 10 and not r.optimal
    assert [k for k, tag, _ in r.log if tag == "unsat"] == [7, 8, 9]
    small = [[1, 1, 1, 0], [1, 1, 0, 1]]
    slp.exact(small, seconds=20, proof_dir=tmp_path)
    with pytest.raises(ValueError, match="force"):
        slp.exact(small, seconds=20, proof_dir=tmp_path)
    again = slp.exact(small, seconds=20, proof_dir=tmp_path, force=True)
    assert again.optimal and again.lower_bound == 3
    with pytest.raises(ValueError, match="cap-share"):
        slp.exact(small, seconds=5, caps=1, cap_share=1.5)


def test_exact_limits():
    with pytest.raises(ValueError, match="64x64"):
        slp.exact([[1] * 65, [0] * 65], seconds=1)
    with pytest.raises(ValueError):
        slp.exact(RANDOM8, seconds=0)


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def test_optimize_distributed_deterministic(dask_client):
    p = slp.optimize_distributed(MIXCOLUMNS, dask_client, tasks=4, seconds=None, seed=100, runs_per_task=3, algorithm="a2")
    assert isinstance(p, slp.Program) and p.verify(MIXCOLUMNS)
    # task i owns seeds 100 + 3i .. 100 + 3i + 2: the cluster's answer is the best of those 12 runs
    local = slp.optimize(MIXCOLUMNS, algorithm="a2", seconds=None, runs=12, seed=100, threads=2)
    assert (p.xor_count, p.depth, p.seed) == (local.xor_count, local.depth, local.seed)
    assert p == local


def test_optimize_distributed_time_limited(dask_client):
    p = slp.optimize_distributed(RANDOM8, dask_client, seconds=0.5)
    assert p.verify(RANDOM8)
    with pytest.raises(ValueError):
        slp.optimize_distributed(RANDOM8, dask_client, seconds=None)
    with pytest.raises(ValueError):
        slp.optimize_distributed(RANDOM8, dask_client, tasks=0)


def test_optimize_distributed_runs_the_portfolio(dask_client):
    # The default algorithm of every task is "auto": one portfolio per task, seeds seed + i *
    # runs_per_task; deterministic with runs_per_task, the best of the tasks' portfolios.
    p = slp.optimize_distributed(RANDOM8, dask_client, tasks=2, seconds=None, seed=10, runs_per_task=12)
    assert p.verify(RANDOM8) and p.algorithm.startswith("auto:")
    local = [slp.optimize(RANDOM8, seconds=None, runs=12, seed=10 + 12 * i, threads=1) for i in range(2)]
    best = min(local, key=lambda q: (q.xor_count, q.depth, q.seed))
    assert p == best and p.seed == best.seed
    # With a time budget.
    q = slp.optimize_distributed(RANDOM8, dask_client, tasks=2, seconds=0.5)
    assert q.verify(RANDOM8) and q.algorithm.startswith("auto:")
