"""The embedded engine on small hand-made indices whose answers are known."""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from bosun.engines.embedded import EmbeddedEngine
from bosun.errors import BadQuery, MissingIndex, UnsupportedQuery

MAPPING = {
    "properties": {
        "name": {"type": "keyword", "fields": {"text": {"type": "text"}}},
        "notes": {"type": "text"},
        "day": {"type": "date"},
        "qty": {"type": "integer"},
    }
}


@pytest.fixture
def engine() -> EmbeddedEngine:
    table = pa.table(
        {
            "name": ["ACME CORP", "Acme Co", "BETA LTD", None],
            "notes": ["Frozen shrimp, peeled", "frozen fish", "steel coils", "shrimp boats"],
            "day": pa.array(
                [date(2026, 1, 5), date(2026, 1, 20), date(2026, 3, 2), None], pa.date32()
            ),
            "qty": [5, 7, 1, 3],
        }
    )
    engine = EmbeddedEngine(clock=lambda: datetime(2026, 3, 10, 9, tzinfo=UTC))
    engine.bulk_load("items", table, MAPPING, "name")
    return engine


def ids(response: dict) -> list[str]:
    return [h["_id"] for h in response["hits"]["hits"]]


def test_keyword_is_exact_text_is_tokens(engine: EmbeddedEngine) -> None:
    assert engine.count("items", {"query": {"term": {"name": "acme corp"}}}) == 0
    assert engine.count("items", {"query": {"match": {"name.text": "ACME"}}}) == 2
    assert engine.count("items", {"query": {"match": {"notes": "SHRIMP"}}}) == 2
    assert (
        engine.count(
            "items", {"query": {"match": {"notes": {"query": "frozen shrimp", "operator": "and"}}}}
        )
        == 1
    )
    assert engine.count("items", {"query": {"match_phrase": {"notes": "shrimp peeled"}}}) == 1


def test_date_math_uses_the_supplied_clock(engine: EmbeddedEngine) -> None:
    last_month_start = {"range": {"day": {"gte": "now-2M/M", "lt": "now-1M/M"}}}
    assert engine.count("items", {"query": last_month_start}) == 2  # January 2026
    assert engine.count("items", {"query": {"range": {"day": {"gt": "now/M"}}}}) == 0


def test_search_response_shape(engine: EmbeddedEngine) -> None:
    response = engine.search(
        "items", {"sort": [{"qty": "desc"}], "size": 2, "_source": ["name", "day"]}
    )
    assert response["hits"]["total"] == {"value": 4, "relation": "eq"}
    assert response["hits"]["hits"] == [
        {
            "_index": "items",
            "_id": "Acme Co",
            "_score": None,
            "_source": {"name": "Acme Co", "day": "2026-01-20"},
            "sort": [7],
        },
        {
            "_index": "items",
            "_id": "ACME CORP",
            "_score": None,
            "_source": {"name": "ACME CORP", "day": "2026-01-05"},
            "sort": [5],
        },
    ]


def test_date_histogram_fills_empty_months(engine: EmbeddedEngine) -> None:
    body = {
        "size": 0,
        "aggs": {
            "m": {
                "date_histogram": {
                    "field": "day",
                    "calendar_interval": "month",
                    "format": "yyyy-MM",
                },
                "aggs": {"q": {"sum": {"field": "qty"}}},
            }
        },
    }
    buckets = engine.search("items", body)["aggregations"]["m"]["buckets"]
    assert [(b["key_as_string"], b["doc_count"], b["q"]["value"]) for b in buckets] == [
        ("2026-01", 2, 12.0),
        ("2026-02", 0, 0.0),
        ("2026-03", 1, 1.0),
    ]


def test_terms_order_and_other_count(engine: EmbeddedEngine) -> None:
    body = {
        "size": 0,
        "aggs": {
            "n": {
                "terms": {"field": "name", "size": 1, "order": {"q": "asc"}},
                "aggs": {"q": {"max": {"field": "qty"}}},
            }
        },
    }
    result = engine.search("items", body)["aggregations"]["n"]
    assert result["buckets"] == [{"key": "BETA LTD", "doc_count": 1, "q": {"value": 1.0}}]
    assert result["sum_other_doc_count"] == 2


@pytest.mark.parametrize(
    ("body", "clause"),
    [
        ({"query": {"fuzzy": {"name": "acme"}}}, "fuzzy"),
        ({"query": {"match": {"notes": {"query": "x", "fuzziness": 2}}}}, "match.fuzziness"),
        ({"aggs": {"g": {"geo_bounds": {"field": "day"}}}}, "aggregation geo_bounds"),
        ({"highlight": {"fields": {"notes": {}}}}, "highlight"),
        ({"sort": [{"notes": "asc"}]}, "sort"),
    ],
)
def test_unsupported_clauses_are_named(engine: EmbeddedEngine, body: dict, clause: str) -> None:
    with pytest.raises(UnsupportedQuery, match=f"unsupported query clause '{clause}'"):
        engine.search("items", body)


def test_unknown_index(engine: EmbeddedEngine) -> None:
    with pytest.raises(MissingIndex, match="no index 'nope'"):
        engine.search("nope", {})


def test_parallel_searches_from_threads(tmp_path: Path) -> None:
    engine = EmbeddedEngine(tmp_path / "db.duckdb")
    engine.bulk_load(
        "nums", pa.table({"n": list(range(1000))}), {"properties": {"n": {"type": "long"}}}
    )
    body = {"size": 0, "aggs": {"s": {"sum": {"field": "n"}}}}
    with ThreadPoolExecutor(8) as pool:
        sums = list(
            pool.map(lambda _: engine.search("nums", body)["aggregations"]["s"]["value"], range(32))
        )
    assert sums == [499500.0] * 32
    engine.close()
    reader = EmbeddedEngine(tmp_path / "db.duckdb", read_only=True)
    assert reader.count("nums", {"query": {"range": {"n": {"gte": 990}}}}) == 10


_OPS = {
    "gt": lambda a, b: a > b,
    "gte": lambda a, b: a >= b,
    "lt": lambda a, b: a < b,
    "lte": lambda a, b: a <= b,
}


def test_fractional_bounds_on_an_integer_field_keep_the_rows_they_name(
    engine: EmbeddedEngine,
) -> None:
    quantities = [5, 7, 1, 3]
    for op, holds in _OPS.items():
        for bound in (4.5, 5, 5.0, 0.5, -1.5, 7.25, 1e30, -1e30):
            expected = sum(holds(q, bound) for q in quantities)
            assert engine.count("items", {"query": {"range": {"qty": {op: bound}}}}) == expected, (
                op,
                bound,
            )
    assert engine.count("items", {"query": {"term": {"qty": 5.0}}}) == 1
    assert engine.count("items", {"query": {"term": {"qty": 5.5}}}) == 0
    assert engine.count("items", {"query": {"terms": {"qty": [5.5, 7, "1"]}}}) == 2
    assert engine.count("items", {"query": {"terms": {"qty": [5.5]}}}) == 0


def test_bounds_inside_a_day_on_a_date_field_keep_the_rows_they_name(
    engine: EmbeddedEngine,
) -> None:
    days = [datetime(2026, 1, 5), datetime(2026, 1, 20), datetime(2026, 3, 2)]
    for op, holds in _OPS.items():
        for bound in (
            "2026-01-20T12:00:00",
            "2026-01-20",
            "2026-01-19T23:59:59.999",
            "2026-03-02T00:00:01",
        ):
            expected = sum(holds(d, datetime.fromisoformat(bound)) for d in days)
            assert engine.count("items", {"query": {"range": {"day": {op: bound}}}}) == expected, (
                op,
                bound,
            )
    assert engine.count("items", {"query": {"term": {"day": "2026-01-20T00:00:00"}}}) == 1
    assert engine.count("items", {"query": {"term": {"day": "2026-01-20T10:00:00"}}}) == 0
    assert (
        engine.count("items", {"query": {"terms": {"day": ["2026-01-20T10:00:00", "2026-03-02"]}}})
        == 1
    )


# 20 documents in all, fetched one by one; 50, fetched by a join
@pytest.mark.parametrize("per_bucket", [2, 5])
def test_top_hits_in_each_bucket_are_the_hits_of_that_buckets_search(
    sample: EmbeddedEngine, per_bucket: int
) -> None:
    sort, source = (
        [{"gross_weight_kg": "desc"}, {"bol_number": "asc"}],
        ["bol_number", "gross_weight_kg", "carrier_*"],
    )
    body = {
        "size": 0,
        "aggs": {
            "c": {
                "terms": {"field": "carrier_name", "size": 10},
                "aggs": {
                    "top": {"top_hits": {"size": per_bucket, "sort": sort, "_source": source}}
                },
            }
        },
    }
    buckets = sample.search("shipments", body)["aggregations"]["c"]["buckets"]
    assert len(buckets) == 10
    for bucket in buckets:
        alone = sample.search(
            "shipments",
            {
                "query": {"term": {"carrier_name": bucket["key"]}},
                "size": per_bucket,
                "sort": sort,
                "_source": source,
            },
        )["hits"]
        assert bucket["top"]["hits"]["hits"] == alone["hits"]
        assert bucket["top"]["hits"]["total"]["value"] == bucket["doc_count"]


@pytest.mark.parametrize(("interval", "offset"), [(3, 0), (3, 1), (3, -4), (2.5, 0), (4, 0.5)])
def test_histogram_buckets_are_floored_intervals_from_the_offset(
    interval: float, offset: float
) -> None:
    values = [-7, -6, -1, 0, 2, 3, 5, 11, None]
    engine = EmbeddedEngine()
    engine.bulk_load(
        "n", pa.table({"v": pa.array(values, pa.int64())}), {"properties": {"v": {"type": "long"}}}
    )
    body = {
        "size": 0,
        "aggs": {
            "h": {
                "histogram": {"field": "v", "interval": interval, "offset": offset},
                "aggs": {"top": {"max": {"field": "v"}}},
            }
        },
    }
    buckets = engine.search("n", body)["aggregations"]["h"]["buckets"]
    expected: dict[float, list[int]] = {}
    for v in values:
        if v is not None:
            expected.setdefault(math.floor((v - offset) / interval) * interval + offset, []).append(
                v
            )
    low, high = min(expected), max(expected)
    keys = [low + i * interval for i in range(int((high - low) / interval) + 1)]
    assert [(b["key"], b["doc_count"], b["top"]["value"]) for b in buckets] == [
        (float(k), len(expected.get(k, [])), float(max(expected[k])) if k in expected else None)
        for k in keys
    ]


@pytest.mark.parametrize(
    "order",
    [
        {"_count": "desc"},
        {"_count": "asc"},
        {"_key": "desc"},
        [{"_count": "asc"}, {"_key": "desc"}],
        [{"_count": "desc"}, {"_key": "asc"}],
    ],
)
def test_terms_buckets_follow_the_order_with_ties_broken_by_the_next_criterion(order: Any) -> None:
    letters = list("ccaabbbdde") + ["f"] * 3 + ["g"] * 2
    engine = EmbeddedEngine()
    engine.bulk_load("l", pa.table({"k": letters}), {"properties": {"k": {"type": "keyword"}}})
    body = {"size": 0, "aggs": {"t": {"terms": {"field": "k", "size": 4, "order": order}}}}
    found = engine.search("l", body)["aggregations"]["t"]
    counts = {k: letters.count(k) for k in set(letters)}
    criteria = order if isinstance(order, list) else [order]
    if not any("_key" in c for c in criteria):
        criteria = [*criteria, {"_key": "asc"}]  # Elasticsearch breaks count ties by key
    ranked = sorted(counts.items())
    for criterion in reversed(criteria):
        ((path, direction),) = criterion.items()
        ranked.sort(
            key=lambda kc: kc[1] if path == "_count" else kc[0], reverse=direction == "desc"
        )
    assert [(b["key"], b["doc_count"]) for b in found["buckets"]] == ranked[:4]
    assert found["sum_other_doc_count"] == sum(c for _, c in ranked[4:])


def test_a_sum_of_dates_past_the_year_9999_is_refused_naming_it() -> None:
    # their sum is some 110,000 years of milliseconds
    days = pa.array([date(2026, 1, 1)] * 2_000, pa.date32())
    engine = EmbeddedEngine()
    engine.bulk_load(
        "days", pa.table({"day": days}), {"properties": {"day": {"type": "date"}}}, None
    )
    with pytest.raises(UnsupportedQuery, match="outside the years 1 to 9999"):
        engine.search("days", {"size": 0, "aggs": {"s": {"sum": {"field": "day"}}}})


def _stops() -> EmbeddedEngine:
    """Stops at the edges of March 2017: the last day's late hours are where a range is cut."""
    moments = [
        datetime(2017, 2, 28, 23, 59, 59),
        datetime(2017, 3, 1, 0, 0),
        datetime(2017, 3, 15, 12, 30),
        datetime(2017, 3, 31, 0, 0),
        datetime(2017, 3, 31, 18, 45),
        datetime(2017, 3, 31, 23, 59, 59, 999000),
        datetime(2017, 4, 1, 0, 0),
    ]
    engine = EmbeddedEngine(clock=lambda: datetime(2017, 4, 20, 9, tzinfo=UTC))
    engine.bulk_load(
        "stops",
        pa.table({"at": pa.array(moments, pa.timestamp("ms"))}),
        {"properties": {"at": {"type": "date"}}},
    )
    return engine


@pytest.mark.parametrize(
    ("bounds", "expected"),
    [
        # lte a day keeps all of it (ES rounds up to 23:59:59.999)
        ({"gte": "2017-03-01", "lte": "2017-03-31"}, 5),
        ({"gte": "2017-03-01", "lt": "2017-03-31"}, 2),  # lt a day stops at its start
        ({"gt": "2017-02-28", "lt": "2017-04-01"}, 5),  # gt a day excludes all of it
        ({"gt": "2017-03-31"}, 1),
        # a month given alone: its first and its last millisecond
        ({"gte": "2017-03", "lte": "2017-03"}, 5),
        (
            {"gte": "2017-03-31T18", "lte": "2017-03-31T18"},
            1,
        ),  # an hour: 18:00:00.000 to 18:59:59.999
        (
            {"gte": "2017-03-31T00:00:00", "lte": "2017-03-31T00:00:00"},
            1,
        ),  # to the second: as written
        ({"gte": "now-1M/M", "lte": "now-1M/M"}, 5),  # last month, in whole
        ({"gte": "2017-03-31||/d", "lt": "2017-03-31||+1d/d"}, 3),
        ({"gte": "31/03/2017", "lte": "31/03/2017", "format": "dd/MM/yyyy"}, 3),
    ],
)
def test_range_on_timestamps_rounds_date_only_bounds_as_elasticsearch(
    bounds: dict[str, Any], expected: int
) -> None:
    engine = _stops()
    assert engine.count("stops", {"query": {"range": {"at": bounds}}}) == expected


def _pages(engine: EmbeddedEngine, body: dict[str, Any], after: Any = None) -> list[list[Any]]:
    """Every page of a composite aggregation, as its keys and counts, from `after` on."""
    pages = []
    while True:
        paged = {**body["composite"], **({"after": after} if after is not None else {})}
        found = engine.search(
            "orders", {"size": 0, "aggs": {"c": {"composite": paged, "aggs": body.get("aggs", {})}}}
        )
        buckets = found["aggregations"]["c"]["buckets"]
        if not buckets:
            return pages
        pages.append(
            [(b["key"]["who"], b["doc_count"], b.get("q", {}).get("value")) for b in buckets]
        )
        after = found["aggregations"]["c"]["after_key"]


def _orders(names: list[str]) -> pa.Table:
    return pa.table({"who": names, "qty": list(range(len(names)))})


ORDERS = {"properties": {"who": {"type": "keyword"}, "qty": {"type": "integer"}}}


def test_composite_pages_read_after_a_load_see_the_new_rows() -> None:
    engine = EmbeddedEngine()
    engine.bulk_load("orders", _orders(["a", "b", "b", "c", "d", "e"]), ORDERS)
    body = {
        "composite": {"size": 2, "sources": [{"who": {"terms": {"field": "who"}}}]},
        "aggs": {"q": {"sum": {"field": "qty"}}},
    }
    assert _pages(engine, body) == [
        [("a", 1, 0), ("b", 2, 3)],
        [("c", 1, 3), ("d", 1, 4)],
        [("e", 1, 5)],
    ]
    # between a client's pages
    engine.bulk_load("orders", _orders(["a", "b", "c", "c", "f"]), ORDERS)
    assert _pages(engine, body, after={"who": "b"}) == [[("c", 2, 5), ("f", 1, 4)]]


def test_a_composite_page_after_a_key_no_group_has() -> None:
    engine = EmbeddedEngine()
    engine.bulk_load("orders", _orders(["a", "b", "d", "e"]), ORDERS)
    body = {"composite": {"size": 2, "sources": [{"who": {"terms": {"field": "who"}}}]}}
    assert _pages(engine, body)[0] == [("a", 1, None), ("b", 1, None)]
    assert _pages(engine, body, after={"who": "c"}) == [[("d", 1, None), ("e", 1, None)]]


@pytest.mark.parametrize(
    ("pattern", "found"),
    [
        ("*50%*", ["50% off"]),
        ("a_b*", ["a_b c"]),
        ("*\\*", ["back\\"]),
        ("*b*", ["a_b c", "back\\", "abc"]),
        ("a?b*", ["a_b c"]),
    ],
)
def test_wildcard_characters_sql_gives_meaning_to_are_literal(
    pattern: str, found: list[str]
) -> None:
    engine = EmbeddedEngine()
    names = ["50% off", "a_b c", "back\\", "abc", "5000 off"]
    engine.bulk_load(
        "labels", pa.table({"name": names}), {"properties": {"name": {"type": "keyword"}}}, "name"
    )
    response = engine.search("labels", {"query": {"wildcard": {"name": pattern}}, "sort": ["_doc"]})
    assert sorted(ids(response)) == sorted(found)


EDGES = [
    date(2024, 2, 29),
    date(2024, 12, 30),
    date(2025, 1, 1),
    date(2025, 3, 31),
    date(2025, 4, 1),
    date(2025, 12, 31),
]
FLOORS = {  # the bucket each edge falls in, as Elasticsearch keys it (ISO weeks start on Monday)
    "week": ["2024-02-26", "2024-12-30", "2024-12-30", "2025-03-31", "2025-03-31", "2025-12-29"],
    "month": ["2024-02-01", "2024-12-01", "2025-01-01", "2025-03-01", "2025-04-01", "2025-12-01"],
    "quarter": ["2024-01-01", "2024-10-01", "2025-01-01", "2025-01-01", "2025-04-01", "2025-10-01"],
    "year": ["2024-01-01", "2024-01-01", "2025-01-01", "2025-01-01", "2025-01-01", "2025-01-01"],
    "day": [d.isoformat() for d in EDGES],
}


@pytest.mark.parametrize("unit", sorted(FLOORS))
@pytest.mark.parametrize("column", [pa.date32(), pa.timestamp("ms")])
def test_calendar_buckets_of_dates_and_timestamps(unit: str, column: pa.DataType) -> None:
    engine = EmbeddedEngine()
    moments = [datetime(d.year, d.month, d.day) for d in EDGES] if column != pa.date32() else EDGES
    engine.bulk_load(
        "days",
        pa.table({"day": pa.array(moments, column)}),
        {"properties": {"day": {"type": "date"}}},
    )
    histogram = {
        "field": "day",
        "calendar_interval": unit,
        "min_doc_count": 1,
        "format": "yyyy-MM-dd",
    }
    found = engine.search("days", {"size": 0, "aggs": {"h": {"date_histogram": histogram}}})
    buckets = {b["key_as_string"]: b["doc_count"] for b in found["aggregations"]["h"]["buckets"]}
    expected = {key: FLOORS[unit].count(key) for key in FLOORS[unit]}
    assert buckets == expected


@pytest.mark.parametrize(
    "body",
    [
        {"sort": [{"qty": {"value": None}}]},
        {"size": 0, "aggs": {"t": {"top_hits": {"_source": None}}}},
    ],
)
def test_what_a_cluster_refuses_in_sorts_and_top_hits_is_refused(
    engine: EmbeddedEngine, body: dict
) -> None:
    with pytest.raises((UnsupportedQuery, BadQuery)):
        engine.search("items", body)


def test_date_stats_and_percentiles_show_their_values_as_dates(engine: EmbeddedEngine) -> None:
    aggs = {
        "s": {"stats": {"field": "day"}},
        "p": {"percentiles": {"field": "day", "percents": [0, 100]}},
    }
    found = engine.search("items", {"size": 0, "aggs": aggs})["aggregations"]
    assert found["s"]["min_as_string"] == "2026-01-05T00:00:00.000Z"
    assert {"max_as_string", "avg_as_string"} <= set(found["s"])
    assert found["p"]["values"]["0.0_as_string"] == "2026-01-05T00:00:00.000Z"
    assert found["p"]["values"]["100.0_as_string"] == "2026-03-02T00:00:00.000Z"
