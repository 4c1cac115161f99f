from __future__ import annotations

from collections.abc import Iterator

import pytest

from bosun.catalog import Catalog, load_catalog
from bosun.engines.embedded import EmbeddedEngine
from tests.conftest import sample_engine


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="session")
def sample() -> Iterator[EmbeddedEngine]:
    """The maritime sample, 20,000 rows, in an in-memory embedded engine."""
    yield from sample_engine(20_000)
