"""Both engines loaded with the same generated sample: embedded (DuckDB) and osmem-server over HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta

import pyarrow as pa
import pytest
from osmem_server import OsmemServer

from bosun.catalog import load_catalog
from bosun.datagen.files import with_date_parts
from bosun.datagen.load import build
from bosun.engines.base import Engine
from bosun.engines.embedded import EmbeddedEngine
from bosun.engines.remote import RemoteEngine

ROWS, SEED, AS_OF = 4000, 7, date(2026, 6, 15)
STOPS_MAPPING = {"properties": {"stopped_at": {"type": "date"}, "precinct": {"type": "keyword"}}}


def load_stops(engine: Engine) -> None:
    """Index `stops`: timestamps every 7 h 13 min through 2026, plus the edges of each month's last day
    (00:00:00.000, 23:59:59.999) where a date-only bound is cut or kept."""
    start = datetime(2026, 1, 1, 0, 0)
    moments = [start + timedelta(minutes=433 * i) for i in range(1300)]
    for month in range(1, 13):
        last = (datetime(2026 + month // 12, month % 12 + 1, 1) - timedelta(days=1))
        moments += [last, last + timedelta(hours=23, minutes=59, seconds=59, milliseconds=999)]
    table = pa.table({"stopped_at": pa.array(moments, pa.timestamp("ms")),
                      "precinct": [str(1 + i % 5) for i in range(len(moments))]})
    table, _ = with_date_parts(table)  # stopped_at_weekday, _month, _hour, as `data load` writes them
    parts = {name: {"type": "integer"} for name in table.column_names if name not in STOPS_MAPPING["properties"]}
    engine.bulk_load("stops", table, {"properties": {**STOPS_MAPPING["properties"], **parts}})


@pytest.fixture(scope="session")
def embedded() -> Iterator[Engine]:
    engine = EmbeddedEngine(clock=lambda: datetime(2026, 6, 15, 12, tzinfo=UTC))
    build(engine, load_catalog(), ROWS, SEED, AS_OF)
    load_stops(engine)
    yield engine
    engine.close()


@pytest.fixture(scope="session")
def osmem() -> Iterator[Engine]:
    with OsmemServer.start(japanese=False) as server:
        engine = RemoteEngine("opensearch", server.url, timeout_s=60)
        build(engine, load_catalog(), ROWS, SEED, AS_OF)
        load_stops(engine)
        yield engine
        engine.close()
