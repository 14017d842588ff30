"""The type stubs match the compiled module (mypy's stubtest), and the package type-checks."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "python" / "slicewise"


def _mypy_available() -> bool:
    try:
        import mypy  # noqa: F401
    except ImportError:
        return False
    return True


needs_mypy = pytest.mark.skipif(not _mypy_available(), reason="mypy is not installed (scripts/test-python.sh installs it)")


@needs_mypy
def test_stubtest():
    r = subprocess.run([sys.executable, "-m", "mypy.stubtest", "slicewise._slicewise"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr


@needs_mypy
def test_package_type_checks():
    r = subprocess.run([sys.executable, "-m", "mypy", str(PACKAGE)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
