#!/usr/bin/env bash
# Builds the Python package (crates/python, import name `slicewise`) in a virtualenv and runs
# its pytest suite: every Grøstl and Prøst KAT through the Python API, the hashlib protocol,
# agreement with PyPI groestlcoin-hash, thread safety, slp and its Dask fan-out, and the type
# stubs against the compiled module (mypy stubtest).
#
# Idempotent: the virtualenv (target/pyenv, or $SLICEWISE_PYENV) and the cargo target directory
# are reused, so a re-run only rebuilds what changed. Needs python3 (>= 3.9, with venv), Rust
# and a C/C++ compiler; everything else comes from PyPI and crates.io.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
VENV=${SLICEWISE_PYENV:-target/pyenv}

if [ ! -x "$VENV/bin/python" ]; then
  if ! "$PYTHON" -m venv "$VENV"; then
    # Debian/Ubuntu ship venv separately.
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      apt-get update -qq && apt-get install -y -qq python3-venv
      rm -rf "$VENV"
      "$PYTHON" -m venv "$VENV"
    else
      echo "test-python.sh: '$PYTHON -m venv' failed; install the venv module (python3-venv)" >&2
      exit 1
    fi
  fi
fi
py="$VENV/bin/python"
"$py" --version

"$py" -m pip install -q --disable-pip-version-check "maturin>=1.9.4,<2" pytest numpy "dask[distributed]" mypy typing_extensions

# The reference implementation is a C extension built from source on most platforms. If it
# cannot be installed the agreement test is skipped, with this reason shown by pytest -rs, and
# recorded as `check:groestlcoin-hash` in the backend report (scripts/backend-summary.sh); with
# SLICEWISE_REQUIRE_BACKENDS=all, groestlcoin-hash or check:groestlcoin-hash it fails instead.
if ! "$py" -m pip install -q --disable-pip-version-check groestlcoin-hash; then
  echo "NOTE: PyPI groestlcoin-hash could not be installed; the agreement test will be SKIPPED (or fail, if required)" >&2
fi

# The user's path: pip builds the wheel with maturin (release profile, abi3) and installs it.
"$py" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps ./crates/python

# -rs prints the reason of every skipped test; -p no:cacheprovider keeps the clean clone clean.
"$py" -m pytest crates/python/tests -rs -p no:cacheprovider "$@"
