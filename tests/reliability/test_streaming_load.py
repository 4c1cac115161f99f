"""`bosun data load` streams: DuckDB reads the file into a table of its own and copies it into the
index, within its memory limit, so no row passes through Python (the figures for a 1 GB CSV: `python
-m bosun.bench load`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bosun.engines.embedded import EmbeddedEngine
from tests.reliability.conftest import ROOT, python_path

LOAD = """
import json, sys
from pathlib import Path
from bosun.datagen.intake import FileLimits
from bosun.datagen.load import load_files
from bosun.engines.embedded import EmbeddedEngine
from bosun.engines.embedded.memory import Memory

data, files, mode = Path(sys.argv[1]), [Path(p) for p in sys.argv[3:]], sys.argv[2]
engine = EmbeddedEngine(data / "bosun.duckdb")
limits = FileLimits(64, 10**9, 100, 1000, Memory(200_000_000, data / "tmp"))
done = load_files(engine, files, "visits", mode, limits=limits)
engine.close()
print(json.dumps({"done": done, "arrow": sorted(m for m in sys.modules if m.startswith("pyarrow"))}))
"""


def _load(data: Path, mode: str, *files: Path) -> dict[str, object]:
    """The load in a process of its own, as `bosun data load` runs it: what it said and what it
    imported."""
    done = subprocess.run(
        [sys.executable, "-c", LOAD, str(data), mode, *map(str, files)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": python_path()},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    said: dict[str, object] = json.loads(done.stdout)
    return said


def _rows(data: Path) -> list[dict[str, object]]:
    engine = EmbeddedEngine(data / "bosun.duckdb", read_only=True)
    try:
        hits = engine.search("visits", {"size": 100})["hits"]["hits"]
    finally:
        engine.close()
    return [h["_source"] for h in hits]


def test_a_csv_loads_typed_and_in_order_with_no_arrow_table_made(tmp_path: Path) -> None:
    first = tmp_path / "first.csv"
    first.write_text(
        "id,seen,amount,who\n7,2026-01-05 10:30:00,NA,x\n3,2026-01-06 00:00:00,2.5,y\n"
        "5,2026-02-01 12:00:00,7,z\n"
    )
    said = _load(tmp_path / "data", "create", first)
    assert said["arrow"] == []  # pyarrow is not even imported: the rows went file → DuckDB → index
    assert said["done"] == [
        [
            "visits",
            3,
            [
                "seen: date and time as written, local time (the file gives no zone)",
                "amount: 1 row with a missing-value word (NA, NULL, None, -, ? ...) read as "
                "missing among numbers",
                "seen: dates and times → weekday in seen_weekday, month in seen_month, hour in "
                "seen_hour (derived at load, "
                "for questions by weekday, month, hour)",
            ],
        ]
    ]
    assert _rows(tmp_path / "data") == [
        {
            "id": 7,
            "seen": "2026-01-05T10:30:00",
            "amount": None,
            "who": "x",
            "seen_weekday": 1,
            "seen_month": 1,
            "seen_hour": 10,
        },
        {
            "id": 3,
            "seen": "2026-01-06T00:00:00",
            "amount": 2.5,
            "who": "y",
            "seen_weekday": 2,
            "seen_month": 1,
            "seen_hour": 0,
        },
        {
            "id": 5,
            "seen": "2026-02-01T12:00:00",
            "amount": 7.0,
            "who": "z",
            "seen_weekday": 7,
            "seen_month": 2,
            "seen_hour": 12,
        },
    ]
    assert list((tmp_path / "data" / "tmp").iterdir()) == []  # the staged table went with the load


def test_appended_rows_follow_the_index_own_in_sql_cast_to_its_types(tmp_path: Path) -> None:
    first, more = tmp_path / "first.csv", tmp_path / "more.csv"
    first.write_text("id,amount\n1,2.5\n2,3.5\n")
    more.write_text("id,amount\n3,4\n")  # read as whole numbers; the index holds doubles
    _load(tmp_path / "data", "create", first)
    said = _load(tmp_path / "data", "append", more)
    assert said["arrow"] == [] and said["done"] == [["visits", 1, []]]
    assert _rows(tmp_path / "data") == [
        {"id": 1, "amount": 2.5},
        {"id": 2, "amount": 3.5},
        {"id": 3, "amount": 4.0},
    ]
