"""The embedded engine works within BOSUN_ENGINE_MEMORY_LIMIT (default half the machine's memory)
and spills to BOSUN_ENGINE_TEMP_DIR (default data_dir/tmp): a load or a query that needs more is
refused in one line naming the limit, never a traceback nor an "unsupported query clause"."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from bosun.engines.embedded import EmbeddedEngine
from bosun.engines.embedded.memory import Memory
from bosun.engines.factory import open_engine
from bosun.errors import MemoryLimitExceeded
from bosun.settings import load_settings, machine_memory
from tests.reliability.conftest import bosun

ROWS = 400_000


@pytest.fixture(scope="module")
def wide_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """400,000 rows (29 MB) with a name column of as many distinct values."""
    path = tmp_path_factory.mktemp("memory") / "orders.csv"
    with duckdb.connect() as con:
        con.execute(
            f"COPY (SELECT i AS id, 'name-' || i || '-' || repeat('x', (i % 25)::INT + 5) AS name, "
            f"'c' || (i % 5000) AS city, (i * 7 % 1000) / 3.0 AS amount FROM range({ROWS}) t(i)) "
            f"TO '{path}' (HEADER)"
        )
    return path


@pytest.fixture(scope="module")
def loaded(wide_csv: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("loaded")
    done = bosun(data, "data", "load", str(wide_csv), env={"BOSUN_ENGINE_MEMORY_LIMIT": "500MB"})
    assert done.returncode == 0, done.stderr
    return data


def test_a_load_over_the_limit_is_refused_in_one_line_naming_it(
    wide_csv: Path, tmp_path: Path
) -> None:
    done = bosun(tmp_path, "data", "load", str(wide_csv), env={"BOSUN_ENGINE_MEMORY_LIMIT": "20MB"})
    assert done.returncode != 0
    assert done.stderr.strip() == (
        f"bosun: reading {wide_csv} needs more than the embedded engine's memory limit "
        "of 20 MB (BOSUN_ENGINE_MEMORY_LIMIT); narrow it, or raise the limit"
    )


def test_a_query_over_the_limit_is_refused_naming_it(loaded: Path) -> None:
    heavy = {"size": 0, "aggs": {"names": {"terms": {"field": "name", "size": 10_000}}}}
    engine = EmbeddedEngine(loaded / "bosun.duckdb", read_only=True, memory=Memory(16_000_000))
    with pytest.raises(
        MemoryLimitExceeded,
        match=r"^the query needs more than the embedded engine's memory limit "
        r"of 16 MB \(BOSUN_ENGINE_MEMORY_LIMIT\)",
    ):
        engine.search("orders", heavy)
    engine.close()
    roomy = EmbeddedEngine(loaded / "bosun.duckdb", read_only=True, memory=Memory(500_000_000))
    assert len(roomy.search("orders", heavy)["aggregations"]["names"]["buckets"]) == 10_000
    roomy.close()


def test_the_engine_opens_within_the_settings_memory(loaded: Path) -> None:
    engine = open_engine(load_settings(data_dir=loaded))
    memory_limit, temp_dir = (
        engine._cursor()
        .execute(  # type: ignore[attr-defined]
            "SELECT current_setting('memory_limit'), current_setting('temp_directory')"
        )
        .fetchone()
    )
    engine.close()
    number, unit = memory_limit.split()
    assert float(number) * {"MiB": 2**20, "GiB": 2**30}[unit] == pytest.approx(
        machine_memory() / 2, rel=0.01
    )
    assert Path(temp_dir) == loaded / "tmp"
