"""Records that have some of a measured thing, or have none of it (issue 34): "shipments with a
transit time" and "shipments without a transit time" split the records between them, the records
where the figure is missing (still in transit) falling on the "without" side."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import pytest

from bosun import query
from bosun.catalog import load_catalog
from bosun.engines.embedded import EmbeddedEngine
from bosun.understanding.rules import RulesUnderstanding
from tests.conftest import sample_engine


@pytest.fixture(scope="module")
def engine() -> Iterator[EmbeddedEngine]:
    yield from sample_engine(3000)


def _count(question: str, engine: EmbeddedEngine) -> int:
    catalog = load_catalog()
    meaning = RulesUnderstanding(catalog).analyze(question, date(2026, 6, 15))
    assert meaning.not_understood == [] and len(meaning.measures) == 1, question
    compiled = query.compile(meaning, catalog)
    table = query.tabulate(compiled, engine.search("shipments", compiled.body), catalog)
    return int(table.rows[0][0])


def test_with_and_without_split_the_records(engine: EmbeddedEngine) -> None:
    every = _count("how many shipments into Oakland", engine)
    having = _count("how many shipments with a transit time into Oakland", engine)
    lacking = _count("how many shipments without a transit time into Oakland", engine)
    assert 0 < lacking < every
    assert having + lacking == every
