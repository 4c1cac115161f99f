"""Fixtures of the reliability suite: a small sample in an in-memory engine, raw and behind the guardrails."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime

import pytest

from bosun.catalog import Catalog, load_catalog
from bosun.datagen.load import build
from bosun.engines.embedded import EmbeddedEngine
from bosun.engines.guardrails import GuardedEngine, Guardrails

NOW = datetime(2026, 6, 15, 12, tzinfo=UTC)


@pytest.fixture(scope="package")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="package")
def raw(catalog: Catalog) -> Iterator[EmbeddedEngine]:
    """The maritime sample, 2,000 rows, in an in-memory embedded engine (no guardrails)."""
    engine = EmbeddedEngine(clock=lambda: NOW)
    build(engine, catalog, 2_000, 42, date(2026, 6, 15))
    yield engine
    engine.close()


@pytest.fixture(scope="package")
def guarded(raw: EmbeddedEngine, catalog: Catalog) -> GuardedEngine:
    return GuardedEngine(raw, Guardrails(tuple(catalog.allowed_indices()), timeout_s=10.0))
