"""Both engines loaded with the same generated sample: embedded (DuckDB) and osmem-server over
HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime

import pytest
from osmem_server import OsmemServer

from bosun.bench.engines import load_stops
from bosun.catalog import load_catalog
from bosun.datagen.load import build
from bosun.engines.base import Engine
from bosun.engines.embedded import EmbeddedEngine
from bosun.engines.remote import RemoteEngine

ROWS, SEED, AS_OF = 4000, 7, date(2026, 6, 15)


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
