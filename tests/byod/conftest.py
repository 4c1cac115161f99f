"""TPC-H files → `bosun data load` → `bosun catalog init`, once per test session, with no catalog
edits."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from bosun.interfaces.cli.app import app
from tests.byod import tpch
from tests.conftest import built_once

INDICES = ["line_items", "customers", "suppliers", "parts", "nations"]
OSMEM_SCALE = 0.002  # 12k order lines


@pytest.fixture(scope="session")
def tpch_files(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Path, duckdb.DuckDBPyConnection]]:
    """The exported files and a DuckDB connection holding the same tables for gold SQL."""
    folder = built_once(tmp_path_factory, "tpch", tpch.write)
    con = tpch.connect(folder)
    yield folder, con
    con.close()


@pytest.fixture(scope="session")
def tpch_loaded(
    tpch_files: tuple[Path, duckdb.DuckDBPyConnection], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Path, Path]]:
    """(data dir, drafted catalog): the files loaded into the embedded engine and a catalog drafted
    from it."""
    folder, _ = tpch_files
    files = [str(folder / "line_items.parquet"), *(str(folder / f"{n}.csv") for n in INDICES[1:])]

    def load(data_dir: Path) -> None:
        _load_and_draft(files, data_dir / "catalog.yaml", {"BOSUN_DATA_DIR": str(data_dir)})

    data_dir = built_once(tmp_path_factory, "tpch-data", load)
    yield data_dir, data_dir / "catalog.yaml"


def _load_and_draft(files: list[str], catalog: Path, env: dict[str, str]) -> None:
    """`bosun data load FILES…` then `bosun catalog init --index …`, as a user types them."""
    env = {**env, "BOSUN_CATALOG": None}  # type: ignore[dict-item]  # None unsets it for the run
    loaded = CliRunner().invoke(app, ["data", "load", *files], env=env)
    assert loaded.exit_code == 0, loaded.output
    drafted = CliRunner().invoke(
        app,
        ["catalog", "init", *(a for n in INDICES for a in ("--index", n)), "--out", str(catalog)],
        env=env,
    )
    assert drafted.exit_code == 0, drafted.output


@pytest.fixture(scope="session")
def small_tpch_files(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Path, duckdb.DuckDBPyConnection]]:
    """A smaller TPC-H for the HTTP server, which loads and aggregates far slower than the embedded
    engine."""
    folder = tmp_path_factory.mktemp("tpch-small")
    con = tpch.generate(folder, OSMEM_SCALE)
    yield folder, con
    con.close()


@pytest.fixture(scope="session")
def tpch_on_osmem(
    small_tpch_files: tuple[Path, duckdb.DuckDBPyConnection],
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[dict[str, str], Path]]:
    """(settings, drafted catalog): the files loaded into osmem-server over HTTP and drafted from
    there."""
    from osmem_server import OsmemServer

    folder, _ = small_tpch_files
    data_dir = tmp_path_factory.mktemp("tpch-osmem")
    catalog = data_dir / "catalog.yaml"
    files = [str(folder / "line_items.parquet"), *(str(folder / f"{n}.csv") for n in INDICES[1:])]
    with OsmemServer.start(japanese=False) as server:
        settings = {
            "data_dir": str(data_dir),
            "engine": "opensearch",
            "engine_url": server.url,
            "query_timeout_s": "120",
        }
        _load_and_draft(
            files, catalog, {f"BOSUN_{key.upper()}": value for key, value in settings.items()}
        )
        yield settings, catalog
