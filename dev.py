#!/usr/bin/env python3
"""Set up and run Bosun with nothing but Python 3.11+.

    python3 dev.py demo    # build the sample data and answer the seed's scenarios
    python3 dev.py test    # lint, type-check and run the test suite

Both create ./.venv on first use and install the project into it (again whenever
pyproject.toml changes).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"
STAMP = VENV / ".bosun-installed"


def _run(*args: str | Path) -> None:
    code = subprocess.call([str(a) for a in args], cwd=ROOT)
    if code:
        sys.exit(code)


def ensure_venv() -> None:
    if sys.version_info < (3, 11):
        sys.exit(f"Bosun needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    if not PY.exists():
        print("creating .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted:
        return
    print("installing bosun-bi and its development tools into .venv ...", flush=True)
    _run(PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    _run(PY, "-m", "pip", "install", "--quiet", "-e", ".[dev]")
    STAMP.write_text(wanted)


def demo() -> None:
    _run(BIN / "bosun", "demo")


def test() -> None:
    _run(BIN / "ruff", "check", "src", "tests")
    _run(PY, "-m", "mypy")
    _run(PY, "-m", "pytest", *sys.argv[2:])


COMMANDS = {"demo": demo, "test": test}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.exit(__doc__)
    ensure_venv()
    COMMANDS[sys.argv[1]]()
