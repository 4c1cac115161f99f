"""Pipeline aggregations in the embedded engine beyond what the conformance corpus compares:
Elasticsearch's keep_values gap policy (OpenSearch has none), value_as_string patterns, and the
refusals that name the clause."""

from __future__ import annotations

from typing import Any

import pytest

from bosun.engines.embedded import EmbeddedEngine
from bosun.engines.embedded.numformat import decimal_format
from bosun.errors import BadQuery, UnsupportedQuery

HONOLULU = {"term": {"port_of_unlading": "HONOLULU"}}


def _months(pipelines: dict[str, Any], metric: dict[str, Any] | None = None) -> dict[str, Any]:
    aggs = {"t": metric or {"sum": {"field": "teu"}}, **pipelines}
    return {
        "size": 0,
        "query": HONOLULU,
        "aggs": {
            "m": {
                "date_histogram": {
                    "field": "arrival_date",
                    "calendar_interval": "month",
                    "min_doc_count": 0,
                },
                "aggs": aggs,
            }
        },
    }


def test_gap_policies_of_a_derivative_over_empty_months(sample: EmbeddedEngine) -> None:
    body = _months(
        {
            "skip": {"derivative": {"buckets_path": "t"}},
            "keep": {"derivative": {"buckets_path": "t", "gap_policy": "keep_values"}},
            "zero": {"derivative": {"buckets_path": "t", "gap_policy": "insert_zeros"}},
        }
    )
    buckets = sample.search("shipments", body)["aggregations"]["m"]["buckets"]
    assert "skip" not in buckets[0] and "keep" not in buckets[0]
    empty = next(i for i, b in enumerate(buckets) if b["doc_count"] == 0 and i > 0)
    before = buckets[empty - 1]["t"]["value"]
    # a gap is skipped: no change computed next to it
    assert buckets[empty]["skip"] == {"value": None}
    # an empty month's sum, 0, is kept
    assert buckets[empty]["keep"]["value"] == pytest.approx(0.0 - before)
    assert buckets[empty]["zero"]["value"] == pytest.approx(0.0 - before)


def test_keep_values_still_skips_a_metric_without_value(sample: EmbeddedEngine) -> None:
    body = _months(
        {
            "keep": {"cumulative_sum": {"buckets_path": "t"}},
            "avg_kept": {
                "bucket_script": {
                    "buckets_path": {"t": "t"},
                    "gap_policy": "keep_values",
                    "script": "params.t * 2",
                }
            },
        },
        metric={"avg": {"field": "teu"}},
    )
    buckets = sample.search("shipments", body)["aggregations"]["m"]["buckets"]
    empty = [b for b in buckets if b["doc_count"] == 0]
    # an average of nothing is no value: no script
    assert empty and all("avg_kept" not in b for b in empty)
    full = [b for b in buckets if b["doc_count"] > 0]
    assert all(b["avg_kept"]["value"] == b["t"]["value"] * 2 for b in full)


@pytest.mark.parametrize(
    ("aggs", "error", "message"),
    [
        (
            {"s": {"bucket_sort": {"sort": ["_key"]}}},
            BadQuery,
            "must be declared inside a multi-bucket",
        ),
        (
            {
                "c": {
                    "terms": {"field": "carrier_name"},
                    "aggs": {
                        "t": {"sum": {"field": "teu"}},
                        "r": {"cumulative_sum": {"buckets_path": "t"}},
                    },
                }
            },
            BadQuery,
            "must have a histogram or date_histogram as parent",
        ),
        (
            {
                "c": {
                    "composite": {"sources": [{"c": {"terms": {"field": "carrier_name"}}}]},
                    "aggs": {"s": {"bucket_sort": {"size": 2}}},
                }
            },
            UnsupportedQuery,
            "composite > bucket_sort",
        ),
        (
            {"c": {"filter": HONOLULU, "aggs": {"s": {"bucket_sort": {"size": 2}}}}},
            BadQuery,
            "not filter",
        ),
        (
            {
                "m": {
                    "date_histogram": {"field": "arrival_date", "calendar_interval": "month"},
                    "aggs": {"d": {"derivative": {"buckets_path": "_count", "unit": "1d"}}},
                }
            },
            UnsupportedQuery,
            "derivative.unit",
        ),
        (
            {
                "c": {
                    "terms": {"field": "carrier_name"},
                    "aggs": {"s": {"bucket_sort": {"sort": ["_key"], "sized": 1}}},
                }
            },
            UnsupportedQuery,
            "bucket_sort.sized",
        ),
        (
            {
                "c": {
                    "terms": {"field": "carrier_name"},
                    "aggs": {
                        "p": {"percentiles": {"field": "teu", "percents": [50]}},
                        "s": {"bucket_sort": {"sort": [{"p[99]": "desc"}]}},
                    },
                }
            },
            UnsupportedQuery,
            "percentile 99 was not among the percents asked",
        ),
        (
            {
                "c": {
                    "terms": {"field": "carrier_name"},
                    "aggs": {
                        "s": {"bucket_sort": {"size": 1}, "aggs": {"x": {"sum": {"field": "teu"}}}}
                    },
                }
            },
            BadQuery,
            "cannot have sub-aggregations",
        ),
        (
            {
                "m": {
                    "histogram": {"field": "teu", "interval": 5},
                    "aggs": {
                        "a": {"derivative": {"buckets_path": "b"}},
                        "b": {"derivative": {"buckets_path": "a"}},
                    },
                }
            },
            BadQuery,
            "read each other in a loop",
        ),
        (
            {
                "m": {"histogram": {"field": "teu", "interval": 5}},
                "x": {"max_bucket": {"buckets_path": "nope>_count"}},
            },
            BadQuery,
            "no aggregation named 'nope'",
        ),
        (
            {
                "m": {"histogram": {"field": "teu", "interval": 5}},
                "x": {"avg_bucket": {"buckets_path": "m>_count", "gap_policy": "ignore"}},
            },
            BadQuery,
            "gap_policy",
        ),
        (
            {
                "m": {"histogram": {"field": "teu", "interval": 5}},
                "x": {"avg_bucket": {"buckets_path": "m>_count", "format": "0.0%"}},
            },
            UnsupportedQuery,
            "format",
        ),
        (
            {
                "m": {
                    "date_histogram": {
                        "field": "arrival_date",
                        "calendar_interval": "month",
                        "hard_bounds": {"min": "2025-01-01", "max": "2025-12-01"},
                        "extended_bounds": {"min": "2024-12-01", "max": "2025-10-31"},
                    }
                }
            },
            BadQuery,
            "extended bounds have to be inside hard bounds",
        ),
    ],
)
def test_what_cannot_be_answered_exactly_is_refused_by_name(
    sample: EmbeddedEngine, aggs: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        sample.search("shipments", {"size": 0, "aggs": aggs})


@pytest.mark.parametrize(
    ("value", "pattern", "text"),
    [
        (1234.5, "#,##0.00", "1,234.50"),
        (-1234567.891, "#,##0.#", "-1,234,567.9"),
        (0.125, "0.00", "0.12"),  # the double 0.125 is exact: half to even
        (0.135, "0.00", "0.14"),  # the double 0.135 lies above the half
        (2.5, "0", "2"),
        (0.5, "#.##", ".5"),
        (7.0, "000.0#", "007.0"),
    ],
)
def test_value_as_string_follows_java_decimal_format(value: float, pattern: str, text: str) -> None:
    assert decimal_format(value, pattern) == text


def test_a_misplaced_pipeline_is_refused_even_where_no_bucket_is_found(
    sample: EmbeddedEngine,
) -> None:
    inner = {
        "m": {
            "terms": {"field": "carrier_name"},
            "aggs": {"run": {"cumulative_sum": {"buckets_path": "_count"}}},
        }
    }
    body = {
        "size": 0,
        "query": {"term": {"carrier_name": "NOBODY"}},
        "aggs": {"c": {"terms": {"field": "port_of_unlading"}, "aggs": inner}},
    }
    with pytest.raises(BadQuery, match="must have a histogram or date_histogram as parent"):
        sample.search("shipments", body)


@pytest.mark.parametrize("path", ["tue", "tue>x", "t>x>y"])
def test_a_path_naming_no_aggregation_is_refused_not_read_as_gaps(
    sample: EmbeddedEngine, path: str
) -> None:
    body = _months({"d": {"derivative": {"buckets_path": path}}})
    if path == "t>x>y":  # a sibling's path must lead to a multi-bucket aggregation
        body["aggs"]["x"] = {"max_bucket": {"buckets_path": path}}
        body["aggs"]["m"]["aggs"].pop("d")
    with pytest.raises(BadQuery, match="buckets_path"):
        sample.search("shipments", body)


def test_a_path_step_can_name_one_bucket_as_elasticsearch_documents(sample: EmbeddedEngine) -> None:
    kinds = {
        "filters": {
            "filters": {
                "reefer": {"terms": {"container_type": ["20RF", "40RF"]}},
                "dry": {"terms": {"container_type": ["20GP", "40GP"]}},
            }
        },
        "aggs": {"t": {"sum": {"field": "teu"}}},
    }
    share = {
        "bucket_script": {
            "buckets_path": {"r": "f['reefer']>t", "d": "f[dry]>t", "n": "f['reefer']>_count"},
            "script": "params.r / (params.r + params.d) + params.n * 0",
        }
    }
    body = {
        "size": 0,
        "aggs": {
            "c": {
                "terms": {"field": "carrier_name", "size": 3},
                "aggs": {"f": kinds, "share": share},
            }
        },
    }
    for bucket in sample.search("shipments", body)["aggregations"]["c"]["buckets"]:
        reefer, dry = (bucket["f"]["buckets"][k]["t"]["value"] for k in ("reefer", "dry"))
        assert bucket["share"]["value"] == pytest.approx(reefer / (reefer + dry))


def test_a_grouping_over_no_records_beside_a_metric_is_empty_buckets(
    sample: EmbeddedEngine,
) -> None:
    """As Elasticsearch answers it: the terms beside a cardinality over an empty scope has no
    buckets, and a sibling pipeline over it has no value (it once raised KeyError: 'g')."""
    body = {
        "size": 0,
        "query": {"range": {"arrival_date": {"gte": "1990-01-01", "lte": "1990-12-31"}}},
        "aggs": {
            "g": {
                "terms": {"field": "carrier_name", "order": {"t": "desc"}},
                "aggs": {"t": {"sum": {"field": "teu"}}},
            },
            "groups": {"cardinality": {"field": "carrier_name"}},
            "per": {"avg_bucket": {"buckets_path": "g>t"}},
        },
    }
    aggregations = sample.search("shipments", body)["aggregations"]
    assert aggregations["g"]["buckets"] == []
    assert aggregations["groups"] == {"value": 0}
    assert aggregations["per"] == {"value": None}
