"""TPC-H files → `bosun data load` → `bosun catalog init`, once per test session, with no catalog edits."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from bosun.interfaces.cli.app import app
from tests.byod import tpch

INDICES = ["line_items", "customers", "suppliers", "parts", "nations"]


@pytest.fixture(scope="session")
def tpch_files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, duckdb.DuckDBPyConnection]]:
    """The exported files and a DuckDB connection holding the same tables for gold SQL."""
    folder = tmp_path_factory.mktemp("tpch")
    con = tpch.generate(folder)
    yield folder, con
    con.close()


@pytest.fixture(scope="session")
def tpch_loaded(tpch_files: tuple[Path, duckdb.DuckDBPyConnection],
                tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """(data dir, drafted catalog): the files loaded into the embedded engine and a catalog drafted from it."""
    folder, _ = tpch_files
    data_dir = tmp_path_factory.mktemp("tpch-data")
    catalog = data_dir / "catalog.yaml"
    files = [str(folder / "line_items.parquet"), *(str(folder / f"{n}.csv") for n in INDICES[1:])]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BOSUN_DATA_DIR", str(data_dir))
        patch.delenv("BOSUN_CATALOG", raising=False)
        loaded = CliRunner().invoke(app, ["data", "load", *files])
        assert loaded.exit_code == 0, loaded.output
        drafted = CliRunner().invoke(app, ["catalog", "init", *(a for n in INDICES for a in ("--index", n)),
                                           "--out", str(catalog)])
        assert drafted.exit_code == 0, drafted.output
        yield data_dir, catalog
