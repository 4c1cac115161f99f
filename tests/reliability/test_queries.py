"""Queries that once exhausted the machine or leaked a raw Python error: each is refused with a
Bosun error."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bosun.engines.embedded import EmbeddedEngine
from bosun.engines.guardrails import GuardedEngine
from bosun.errors import BadQuery, GuardrailViolation, MissingIndex, UnsupportedQuery

INDEX = "shipments"


def _histogram(kind: str, **params: Any) -> dict[str, Any]:
    return {"size": 0, "aggs": {"h": {kind: params}}}


@pytest.mark.parametrize(
    "body",
    [
        _histogram("date_histogram", field="arrival_date", fixed_interval="1ms"),
        _histogram("date_histogram", field="arrival_date", fixed_interval="1s", min_doc_count=0),
        _histogram(
            "date_histogram",
            field="arrival_date",
            calendar_interval="day",
            extended_bounds={"min": "0001-01-01", "max": "9999-01-01"},
        ),
        _histogram("histogram", field="teu", interval=0.0001),
        _histogram("histogram", field="gross_weight_kg", interval=0.001),
        _histogram(
            "histogram", field="teu", interval=1, extended_bounds={"min": -1e12, "max": 1e12}
        ),
    ],
    ids=["1ms", "1s", "days-across-millennia", "teu-0.0001", "weight-0.001", "extended-1e12"],
)
def test_a_histogram_past_the_bucket_cap_is_refused_before_its_buckets_are_built(
    raw: EmbeddedEngine, body: dict[str, Any]
) -> None:
    started = time.monotonic()
    with pytest.raises(GuardrailViolation, match="buckets; the cap is 10,000"):
        raw.search(INDEX, body)
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("interval", [0, -5, "nan", float("inf")])
def test_a_histogram_interval_that_is_not_positive_is_a_bad_query(
    raw: EmbeddedEngine, interval: Any
) -> None:
    with pytest.raises(BadQuery, match="histogram: interval must be"):
        raw.search(INDEX, _histogram("histogram", field="teu", interval=interval))


def test_a_fixed_interval_of_zero_is_a_bad_query(raw: EmbeddedEngine) -> None:
    with pytest.raises(BadQuery, match="date_histogram: interval must be greater than 0"):
        raw.search(INDEX, _histogram("date_histogram", field="arrival_date", fixed_interval="0d"))


def test_a_histogram_within_the_cap_still_answers(raw: EmbeddedEngine) -> None:
    found = raw.search(
        INDEX,
        _histogram(
            "date_histogram",
            field="arrival_date",
            calendar_interval="month",
            extended_bounds={"min": "2020-01-01", "max": "2026-12-31"},
        ),
    )
    buckets = found["aggregations"]["h"]["buckets"]
    assert buckets[0]["key_as_string"].startswith("2020-01-01") and len(buckets) >= 84


@pytest.mark.parametrize("engine", ["raw", "guarded"])
def test_top_hits_obeys_the_hit_cap(engine: str, request: pytest.FixtureRequest) -> None:
    searcher = request.getfixturevalue(engine)
    with pytest.raises(GuardrailViolation, match="top_hits"):
        searcher.search(INDEX, {"size": 0, "aggs": {"t": {"top_hits": {"size": 50_000}}}})


def test_top_hits_in_many_buckets_is_capped_by_the_documents_it_could_return(
    guarded: GuardedEngine,
) -> None:
    body = {
        "size": 0,
        "aggs": {
            "c": {
                "terms": {"field": "carrier_name", "size": 5_000},
                "aggs": {"t": {"top_hits": {"size": 3}}},
            }
        },
    }
    with pytest.raises(GuardrailViolation, match="top_hits could return 15,000 documents"):
        guarded.search(INDEX, body)


def test_top_hits_across_the_raw_engines_buckets_obeys_the_cap(catalog: Any) -> None:
    from datetime import date

    from bosun.datagen.load import build
    from bosun.engines.embedded.aggs import Limits

    small = EmbeddedEngine(limits=Limits(max_buckets=10_000, max_hits=50))
    build(small, catalog, 300, 42, date(2026, 6, 15))
    body = {
        "size": 0,
        "aggs": {
            "b": {
                "terms": {"field": "bol_number", "size": 300},
                "aggs": {"t": {"top_hits": {"size": 1}}},
            }
        },
    }
    with pytest.raises(GuardrailViolation, match="top_hits would return 300 documents"):
        small.search(INDEX, body)


def _nested_bools(depth: int) -> dict[str, Any]:
    query: dict[str, Any] = {"match_all": {}}
    for _ in range(depth):
        query = {"bool": {"must": [query]}}
    return {"query": query}


def test_deeply_nested_bools_are_a_clear_error_not_a_recursion_error(
    raw: EmbeddedEngine, guarded: GuardedEngine
) -> None:
    with pytest.raises(BadQuery, match="nest more than 20 levels"):
        raw.search(INDEX, _nested_bools(400))
    with pytest.raises(BadQuery, match="nest more than 20 levels"):
        raw.search(INDEX, _nested_bools(21))
    with pytest.raises(
        GuardrailViolation, match="the query nests 1203 levels deep; the cap is 100"
    ):
        guarded.search(INDEX, _nested_bools(400))
    assert raw.search(INDEX, _nested_bools(19))["hits"]["total"]["value"] == 2000


def test_deeply_nested_aggregations_are_a_clear_error(raw: EmbeddedEngine) -> None:
    aggs: dict[str, Any] = {"m": {"max": {"field": "teu"}}}
    for level in range(25):
        aggs = {f"f{level}": {"filter": {"match_all": {}}, "aggs": aggs}}
    with pytest.raises(BadQuery, match="aggregations nest more than 20 levels"):
        raw.search(INDEX, {"size": 0, "aggs": aggs})


MALFORMED: list[tuple[str, dict[str, Any], str]] = [
    ("size as words", {"size": "ten"}, "search: size must be an integer"),
    ("negative from", {"from": -1}, "search: from must be at least 0"),
    ("missing field", {"size": 0, "aggs": {"a": {"terms": {}}}}, "terms: field is required"),
    ("bare-string term", {"query": {"term": "Maersk"}}, "term: expected an object"),
    (
        "NaN in range",
        {"query": {"range": {"teu": {"gte": float("nan")}}}},
        "teu: value must be a finite number",
    ),
    ("NaN as a term", {"query": {"term": {"teu": "NaN"}}}, "teu: value must be a finite number"),
    (
        "bad sort order",
        {"sort": [{"teu": {"order": "sideways"}}]},
        "sort.teu: order must be 'asc' or 'desc'",
    ),
    (
        "bad terms order",
        {"size": 0, "aggs": {"a": {"terms": {"field": "status", "order": {"_count": "up"}}}}},
        "terms.order: order must be",
    ),
    (
        "composite.after wrong shape",
        {
            "size": 0,
            "aggs": {
                "c": {
                    "composite": {
                        "sources": [{"s": {"terms": {"field": "status"}}}],
                        "after": ["Delivered"],
                    }
                }
            },
        },
        "composite.after: expected an object",
    ),
    (
        "composite.after wrong key",
        {
            "size": 0,
            "aggs": {
                "c": {
                    "composite": {
                        "sources": [{"s": {"terms": {"field": "status"}}}],
                        "after": {"t": "x"},
                    }
                }
            },
        },
        "composite.after: expected an object",
    ),
    (
        "terms.size -1",
        {"size": 0, "aggs": {"a": {"terms": {"field": "status", "size": -1}}}},
        "terms: size must be at least 1",
    ),
    (
        "match without query",
        {"query": {"match": {"product_description": {"operator": "and"}}}},
        "match: query is required",
    ),
    ("exists without field", {"query": {"exists": {}}}, "exists: field is required"),
    (
        "range ranges missing",
        {"size": 0, "aggs": {"r": {"range": {"field": "teu"}}}},
        "range: ranges is required",
    ),
    (
        "percents out of range",
        {"size": 0, "aggs": {"p": {"percentiles": {"field": "teu", "percents": [150]}}}},
        "percentiles: percents must lie between 0 and 100",
    ),
    (
        "bool must is a string",
        {"query": {"bool": {"must": "x"}}},
        "query: each query object must have",
    ),
    ("aggs is a list", {"size": 0, "aggs": [1]}, "aggs: expected an object"),
    ("_source is a number", {"_source": 3}, "_source: expected"),
    ("search_after not a list", {"sort": ["teu"], "search_after": 5}, "search_after"),
    (
        "minimum_should_match words",
        {"query": {"bool": {"should": [{"match_all": {}}], "minimum_should_match": "most"}}},
        "bool: invalid literal",
    ),
]


@pytest.mark.parametrize(
    ("body", "message"), [(b, m) for _, b, m in MALFORMED], ids=[n for n, _, _ in MALFORMED]
)
def test_malformed_dsl_is_a_bad_query_naming_the_clause_and_parameter(
    raw: EmbeddedEngine, body: dict[str, Any], message: str
) -> None:
    with pytest.raises(UnsupportedQuery) as caught:
        raw.search(INDEX, body)
    assert message in str(caught.value)


def test_the_guardrails_refuse_a_malformed_size_before_the_engine_sees_it(
    guarded: GuardedEngine,
) -> None:
    with pytest.raises(BadQuery, match="search: size must be an integer"):
        guarded.search(INDEX, {"size": "ten"})
    with pytest.raises(BadQuery, match="terms: size must be at least 1"):
        guarded.search(
            INDEX, {"size": 0, "aggs": {"a": {"terms": {"field": "status", "size": -1}}}}
        )


def test_the_raw_engine_serves_bosun_meta_but_the_guardrails_keep_it_out(
    raw: EmbeddedEngine, guarded: GuardedEngine
) -> None:
    assert raw.search("bosun_meta", {})["hits"]["hits"][0]["_source"]["domain"] == "maritime"
    assert "bosun_meta" in raw.indices() and "bosun_meta" not in guarded.indices()
    with pytest.raises(GuardrailViolation, match="'bosun_meta' is not in the catalog's allowlist"):
        guarded.search("bosun_meta", {})
    with pytest.raises(GuardrailViolation, match="allowlist"):
        guarded.count("bosun_meta")
    with pytest.raises(GuardrailViolation, match="allowlist"):
        guarded.mapping("bosun_meta")
    with pytest.raises(MissingIndex):
        raw.search("no_such_index", {})


@pytest.mark.parametrize(
    ("pattern", "matches"),
    [("%", 0), ("_", 0), ("M_ERSK", 0), ("%AERSK", 0), ("*", 2000), ("M?ERSK", -1)],
)
def test_percent_and_underscore_in_a_wildcard_are_literal_characters(
    raw: EmbeddedEngine, pattern: str, matches: int
) -> None:
    body = {"size": 0, "track_total_hits": True, "query": {"wildcard": {"carrier_name": pattern}}}
    found = raw.search(INDEX, body)["hits"]["total"]["value"]
    maersk = raw.count(INDEX, {"query": {"term": {"carrier_name": "MAERSK"}}})
    assert found == (maersk if matches == -1 else matches)
