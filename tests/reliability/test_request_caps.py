"""The caps on documents and buckets hold for a whole search, not each aggregation of it (as a
cluster's `index.max_result_window` and `search.max_buckets` do): 20 filters × top_hits 10,000 is
200,000 documents."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest

from bosun.catalog import Catalog
from bosun.datagen.load import build
from bosun.engines.embedded import EmbeddedEngine
from bosun.engines.embedded.aggs import Limits
from bosun.engines.guardrails import GuardedEngine
from bosun.errors import GuardrailViolation

INDEX = "shipments"
EVERY = {"range": {"teu": {"gte": 0}}}  # each bucket holds every shipment


def _filters(buckets: int, size: int) -> dict[str, Any]:
    return {
        "size": 0,
        "aggs": {
            "f": {
                "filters": {"filters": {f"b{n}": EVERY for n in range(buckets)}},
                "aggs": {"t": {"top_hits": {"size": size}}},
            }
        },
    }


def _months(year: int) -> dict[str, Any]:
    return {
        "date_histogram": {
            "field": "arrival_date",
            "calendar_interval": "month",
            "extended_bounds": {"min": f"{year}-01-01", "max": f"{year}-12-31"},
        }
    }


@pytest.fixture(scope="module")
def small(catalog: Catalog) -> Iterator[EmbeddedEngine]:
    """300 shipments behind caps of 20 buckets and 10,000 documents a search."""
    engine = EmbeddedEngine(limits=Limits(max_buckets=20, max_hits=10_000))
    build(engine, catalog, 300, 42, date(2026, 6, 15))
    yield engine
    engine.close()


def test_the_guardrails_count_a_filters_buckets_under_top_hits(guarded: GuardedEngine) -> None:
    with pytest.raises(
        GuardrailViolation, match="top_hits could return 200,000 documents; the cap is 10,000"
    ):
        guarded.search(INDEX, _filters(20, 10_000))
    ranges = {
        "r": {
            "range": {"field": "teu", "ranges": [{"to": n} for n in range(1, 6)]},
            "aggs": {"t": {"top_hits": {"size": 3_000}}},
        }
    }
    with pytest.raises(GuardrailViolation, match="top_hits could return 15,000 documents"):
        guarded.search(INDEX, {"size": 0, "aggs": ranges})


def test_the_engine_counts_top_hits_documents_across_the_search(raw: EmbeddedEngine) -> None:
    found = raw.search(INDEX, _filters(16, 600))  # 9,600 documents: under the cap
    assert [
        len(b["t"]["hits"]["hits"]) for b in found["aggregations"]["f"]["buckets"].values()
    ] == [600] * 16
    with pytest.raises(
        GuardrailViolation,
        match="top_hits would return 10,200 documents across the search's "
        "buckets; the cap is 10,000",
    ):
        raw.search(INDEX, _filters(17, 600))


def test_the_engine_counts_buckets_across_the_search(small: EmbeddedEngine) -> None:
    in_2025 = {"range": {"arrival_date": {"gte": "2025-01-01", "lte": "2025-12-31"}}}
    one = small.search(INDEX, {"size": 0, "query": in_2025, "aggs": {"a": _months(2025)}})
    assert len(one["aggregations"]["a"]["buckets"]) == 12
    with pytest.raises(
        GuardrailViolation, match="the aggregations would produce 24 buckets in all; the cap is 20"
    ):
        small.search(
            INDEX, {"size": 0, "query": in_2025, "aggs": {"a": _months(2025), "b": _months(2025)}}
        )
