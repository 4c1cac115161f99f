"""Issue #37 item 1: `catalog init` never fails on a tidy file, whatever its columns'
cardinalities.

A file of 300,000 flights written here with DuckDB: a day of the year (365 values), a destination
(100), a carrier (10), a tail number (4,000) and a passenger reference (50,000). Day × destination ×
carrier is a grid of 365,000 cells that the rows nearly fill, so the drafter asks whether each row
is one cell (a table of summaries). Asked as nested `terms` (365 days × 100 destinations × the
fullest carrier of each), that question alone needed 73,365 buckets, past the engine's cap of
10,000, and `catalog init` stopped: "the aggregations would produce … buckets in all".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest

from tests.byod.drafting import load_and_draft

ROWS = 300_000
FLIGHTS = f"""
select
    date '2025-01-01' + (hash(i, 1) % 365)::int as flight_date,
    'D' || lpad((hash(i, 3) % 100)::varchar, 3, '0') as dest,
    'C' || lpad((hash(i, 2) % 10)::varchar, 2, '0') as carrier,
    'N' || lpad((hash(i, 4) % 4000)::varchar, 4, '0') as tailnum,
    'P' || lpad((hash(i, 5) % 50000)::varchar, 5, '0') as passenger_ref,
    (hash(i, 6) % 180)::int - 20 as dep_delay,
    100 + (hash(i, 7) % 2500)::int as distance
from range({ROWS}) t(i)
"""


@pytest.fixture(scope="module")
def drafted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], str]:
    folder = tmp_path_factory.mktemp("busy")
    duckdb.sql(FLIGHTS).write_parquet(str(folder / "flights.parquet"))
    duckdb.sql(f"copy (select * from '{folder / 'flights.parquet'}') to '{folder / 'flights.csv'}'")
    return load_and_draft(folder, "flights")


def test_init_drafts_a_file_of_many_high_cardinality_columns(
    drafted: tuple[Path, dict[str, Any], str],
) -> None:
    _, catalog, printed = drafted
    fields = catalog["objects"]["flights"]["fields"]
    assert fields["carrier"]["role"] == "dimension" and fields["dest"]["role"] == "dimension"
    assert fields["passenger_ref"]["role"] == "attribute"
    assert "buckets" not in printed
    assert "one row per" not in printed  # two flights share a day, carrier and destination
