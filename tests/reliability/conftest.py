"""Fixtures of the reliability suite: a small sample in an in-memory engine, raw and behind the
guardrails."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from bosun.catalog import Catalog, load_catalog
from bosun.datagen.load import build
from bosun.engines.embedded import EmbeddedEngine
from bosun.engines.guardrails import GuardedEngine, Guardrails
from tests.conftest import sample_engine

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="package")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="package")
def raw() -> Iterator[EmbeddedEngine]:
    """The maritime sample, 2,000 rows, in an in-memory embedded engine (no guardrails)."""
    yield from sample_engine(2_000)


@pytest.fixture(scope="package")
def guarded(raw: EmbeddedEngine, catalog: Catalog) -> GuardedEngine:
    return GuardedEngine(raw, Guardrails(tuple(catalog.allowed_indices()), timeout_s=10.0))


@pytest.fixture(scope="package")
def sample_dir(tmp_path_factory: pytest.TempPathFactory, catalog: Catalog) -> Path:
    """A data directory holding the 2,000-row sample (bosun.duckdb only), built once."""
    folder = tmp_path_factory.mktemp("sample")
    engine = EmbeddedEngine(folder / "bosun.duckdb")
    build(engine, catalog, 2_000, 42, date(2026, 6, 15))
    engine.close()
    return folder


@pytest.fixture
def data_dir(sample_dir: Path, tmp_path: Path) -> Path:
    """A fresh data directory for one test: the sample copied in, no conversation yet."""
    folder = tmp_path / "data"
    folder.mkdir()
    shutil.copy(sample_dir / "bosun.duckdb", folder / "bosun.duckdb")
    return folder


def bosun(
    data_dir: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run the `bosun` command in its own process on `data_dir`."""
    environment = {
        "BOSUN_DATA_DIR": str(data_dir),
        "HOME": str(data_dir),
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": python_path(),
        **(env or {}),
    }
    return subprocess.run(
        [sys.executable, "-m", "bosun.interfaces.cli", *args],
        capture_output=True,
        text=True,
        env=environment,
        timeout=timeout,
        cwd=ROOT,
    )


def python_path() -> str:
    """The repository root (for `tests.…` helpers) before whatever PYTHONPATH the suite itself runs
    with."""
    return os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
