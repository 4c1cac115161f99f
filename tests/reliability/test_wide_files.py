"""A file or an index with more columns than BOSUN_MAX_COLUMNS (default 1,000) is refused in one
line naming the limit before its rows are read or profiled; under the limit, profiling asks a few
columns per request."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from bosun.bench.load import run_child, write_mixed_csv
from bosun.catalog.profile import profile_index
from bosun.engines.embedded import EmbeddedEngine
from tests.reliability.conftest import bosun


def _wide_csv(path: Path, columns: int, rows: int = 3) -> Path:
    header = ",".join(f"c{n}" for n in range(columns))
    lines = [",".join(str(r * columns + n) for n in range(columns)) for r in range(rows)]
    path.write_text("\n".join([header, *lines]) + "\n", encoding="utf-8")
    return path


class Recording:
    """The engine, with the aggregation requests it was asked kept."""

    def __init__(self, engine: EmbeddedEngine) -> None:
        self.engine = engine
        self.requests: list[dict[str, Any]] = []

    def mapping(self, index: str) -> dict[str, Any]:
        return self.engine.mapping(index)

    def count(self, index: str, body: dict[str, Any] | None = None) -> int:
        return self.engine.count(index, body)

    def search(self, index: str, body: dict[str, Any]) -> dict[str, Any]:
        self.requests.append(body)
        return self.engine.search(index, body)


def test_a_file_over_the_column_limit_is_refused_before_reading(tmp_path: Path) -> None:
    wide = _wide_csv(tmp_path / "wide.csv", 1_001)
    done = bosun(tmp_path / "data", "data", "load", str(wide))
    assert done.returncode != 0
    assert (
        done.stderr.strip()
        == f"bosun: {wide}: 1,001 columns, over the limit of 1,000 (BOSUN_MAX_COLUMNS)"
    )


def test_an_index_over_the_column_limit_is_not_drafted(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert bosun(data, "data", "load", str(_wide_csv(tmp_path / "wide.csv", 60))).returncode == 0
    done = bosun(data, "catalog", "init", "--index", "wide", env={"BOSUN_MAX_COLUMNS": "50"})
    assert done.returncode != 0
    assert done.stderr.strip() == (
        "bosun: index 'wide' has 60 fields, over the limit of 50 (BOSUN_MAX_COLUMNS): "
        "draft a catalog for fewer columns, or raise the limit"
    )


def test_a_wide_index_is_profiled_a_few_columns_a_request(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert (
        bosun(data, "data", "load", str(_wide_csv(tmp_path / "wide.csv", 120, rows=5))).returncode
        == 0
    )
    engine = EmbeddedEngine(data / "bosun.duckdb", read_only=True)
    recording = Recording(engine)
    profile = profile_index(recording, "wide")  # type: ignore[arg-type]
    engine.close()
    assert profile.rows == 5
    assert len(profile.columns) == 120
    assert profile.columns["c119"].low == 119 and profile.columns["c119"].high == 4 * 120 + 119
    assert [len({name.split(":")[0] for name in r["aggs"]}) for r in recording.requests] == [
        50,
        50,
        20,
    ] * 2


def test_the_values_of_many_columns_are_read_within_the_bucket_cap(tmp_path: Path) -> None:
    """12 columns of 1,000 values each: 12,000 buckets in one request would pass the cap of
    10,000."""
    data = tmp_path / "data"
    assert (
        bosun(
            data, "data", "load", str(_wide_csv(tmp_path / "wide.csv", 12, rows=1_000))
        ).returncode
        == 0
    )
    engine = EmbeddedEngine(data / "bosun.duckdb", read_only=True)
    profile = profile_index(engine, "wide")
    engine.close()
    assert [profile.columns[f"c{n}"].distinct for n in range(12)] == [1_000] * 12
    assert profile.columns["c3"].values[:2] == [(3, 1), (15, 1)]


def test_a_wide_file_of_mixed_types_loads_within_the_memory_limit(tmp_path: Path) -> None:
    """1,000 columns of decimals, flags, words, dates and numbers written with NA: the retyping of
    its 300 text columns once asked one aggregate of them all, at 4.8 GB resident past a 1 GB
    limit."""
    wide = tmp_path / "wide.csv"
    write_mixed_csv(wide, 1000, 1000)
    env = {
        **os.environ,
        "BOSUN_DATA_DIR": str(tmp_path / "data"),
        "BOSUN_ENGINE_MEMORY_LIMIT": "1GB",
    }
    loaded = run_child(["data", "load", str(wide)], env)
    assert "loaded 1,000 rows into index 'wide'" in loaded.output
    assert "m0009: " in loaded.output and "read as missing among numbers" in loaded.output
    assert "m0008: dates → weekday in m0008_weekday" in loaded.output
    assert loaded.peak_mb < 1500  # the limit, and the interpreter and the engine's own
