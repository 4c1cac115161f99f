from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime

import pytest

from bosun.catalog import Catalog, load_catalog
from bosun.datagen.load import build
from bosun.engines.embedded import EmbeddedEngine

NOW = datetime(2026, 6, 15, 12, tzinfo=UTC)


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="session")
def sample(catalog: Catalog) -> Iterator[EmbeddedEngine]:
    """The maritime sample, 20,000 rows, in an in-memory embedded engine."""
    engine = EmbeddedEngine(clock=lambda: NOW)
    build(engine, catalog, 20_000, 42, date(2026, 6, 15))
    yield engine
    engine.close()
