"""Hypothesis over DSL bodies: every clause and parameter, random nesting and values of every type.

Whatever the body, the guarded engine gives a result or a clear Bosun error, within the deadline and
under a memory ceiling; never a Python error, never a hang, never memory run out.
"""

from __future__ import annotations

import os
import resource
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bosun.engines.guardrails import GuardedEngine
from bosun.errors import BosunError

FIELDS = [
    "teu",
    "transit_days",
    "gross_weight_kg",
    "declared_value_usd",
    "arrival_date",
    "departure_date",
    "carrier_name",
    "status",
    "product_description",
    "is_hazardous",
    "no_such_field",
    "",
]
DEADLINE_S = 10.0
# above the process's peak when this module started (other tests ran before it)
GROWTH_CEILING_MB = 400

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**13), 10**13),
    st.floats(allow_nan=True),
    st.text(max_size=8),
    st.sampled_from(
        [
            "now-1d/d",
            "2026-01-01",
            "1ms",
            "0",
            "-1",
            "asc",
            "desc",
            "month",
            "1d",
            "NaN",
            "10",
            "_count",
            "_key",
        ]
    ),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(
            st.sampled_from(["value", "gte", "lt", "order", "min", "max", "x"]), inner, max_size=3
        ),
    ),
    max_leaves=6,
)
fields = st.sampled_from(FIELDS)
# Plausible values per parameter, so that most bodies get past the first check and reach the engine;
# `values` (anything) still appears in every position.
PLAUSIBLE: dict[str, st.SearchStrategy[Any]] = {
    "size": st.integers(-1, 30),
    "from": st.integers(-1, 5),
    "min_doc_count": st.integers(-1, 2),
    "interval": st.sampled_from([0, -1, 0.0001, 1, 7.5, 100, 1e9, "5"]),
    "fixed_interval": st.sampled_from(["1ms", "1s", "0d", "3h", "30d", "1M", "x"]),
    "calendar_interval": st.sampled_from(["day", "week", "month", "quarter", "year", "1q", "2d"]),
    "extended_bounds": st.fixed_dictionaries(
        {
            "min": st.sampled_from([0, -1e12, "0001-01-01", "2020-01-01"]),
            "max": st.sampled_from([10, 1e12, "9999-01-01", "2027-01-01"]),
        }
    ),
    "order": st.sampled_from(
        [{"_count": "desc"}, {"_key": "asc"}, {"_count": "up"}, {"a": "desc"}, "asc", "desc"]
    ),
    "ranges": st.lists(
        st.fixed_dictionaries({}, optional={"from": scalars, "to": scalars}), max_size=3
    ),
    "percents": st.lists(st.floats(-10, 110), max_size=3),
    "offset": st.sampled_from([0, 1, "+1h", "-1d", "x"]),
    "missing": scalars,
    "format": st.sampled_from(["yyyy-MM-dd", "epoch_millis", "QQ"]),
    "keyed": st.booleans(),
    "after": st.one_of(values, st.fixed_dictionaries({"s": scalars})),
    "track_total_hits": st.one_of(st.booleans(), st.integers(-1, 20_000)),
}


def param(name: str) -> st.SearchStrategy[Any]:
    plausible = PLAUSIBLE.get(name, values)
    return st.one_of(plausible, plausible, plausible, plausible, values)


def params(names: list[str], most: int = 3) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({}, optional={n: param(n) for n in names}).filter(
        lambda d: len(d) <= most
    )


def _leaf_queries() -> st.SearchStrategy[dict[str, Any]]:
    one_field = st.builds(lambda f, v: {f: v}, fields, values)
    return st.one_of(
        st.builds(lambda b: {"term": b}, st.one_of(one_field, values)),
        st.builds(
            lambda f, v: {"terms": {f: v}}, fields, st.one_of(st.lists(scalars, max_size=4), values)
        ),
        st.builds(
            lambda f, o: {"range": {f: o}},
            fields,
            st.dictionaries(
                st.sampled_from(["gt", "gte", "lt", "lte", "format", "boost"]), scalars, max_size=3
            ),
        ),
        st.builds(lambda b: {"match": b}, st.one_of(one_field, values)),
        st.builds(lambda b: {"match_phrase": b}, st.one_of(one_field, values)),
        st.builds(
            lambda b: {"exists": b}, st.one_of(st.builds(lambda f: {"field": f}, fields), values)
        ),
        st.builds(lambda b: {"prefix": b}, one_field),
        st.builds(lambda b: {"wildcard": b}, one_field),
        st.builds(lambda v: {"ids": {"values": v}}, values),
        st.builds(
            lambda q, fs, t: {"multi_match": {"query": q, "fields": fs, "type": t}},
            scalars,
            st.lists(fields, max_size=3),
            st.sampled_from(["best_fields", "phrase", "cross_fields"]),
        ),
        st.just({"match_all": {}}),
        st.just({"match_none": {}}),
        values.map(lambda v: {"nonsense": v}),
    )


def _compound(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    occurrences = st.dictionaries(
        st.sampled_from(["must", "filter", "should", "must_not"]),
        st.one_of(inner, st.lists(inner, max_size=3)),
        max_size=3,
    )
    with_minimum = st.builds(
        lambda o, m: {**o, "minimum_should_match": m} if m is not None else o,
        occurrences,
        st.one_of(st.none(), scalars),
    )
    return st.one_of(
        with_minimum.map(lambda b: {"bool": b}),
        inner.map(lambda q: {"constant_score": {"filter": q}}),
    )


queries = st.recursive(_leaf_queries(), _compound, max_leaves=12)


def _bucket_aggs(children: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    bucket_params = params(
        [
            "size",
            "min_doc_count",
            "order",
            "missing",
            "interval",
            "fixed_interval",
            "calendar_interval",
            "extended_bounds",
            "offset",
            "format",
            "ranges",
            "keyed",
        ]
    )
    kinds = st.sampled_from(
        ["terms", "histogram", "date_histogram", "range", "date_range", "missing"]
    )
    bucket = st.builds(lambda k, f, p: {k: {"field": f, **p}}, kinds, fields, bucket_params)
    composite = st.builds(
        lambda k, f, p, a: {"composite": {"sources": [{"s": {k: {"field": f, **p}}}], **a}},
        st.sampled_from(["terms", "histogram", "date_histogram"]),
        fields,
        bucket_params,
        params(["size", "after"]),
    )
    filtered = st.one_of(
        queries.map(lambda q: {"filter": q}),
        st.lists(queries, max_size=3).map(lambda qs: {"filters": {"filters": qs}}),
    )
    node = st.one_of(bucket, composite, filtered)
    return st.builds(
        lambda n, c: {**n, "aggs": c} if c else n, node, st.one_of(st.none(), children)
    )


metrics = st.builds(
    lambda k, f, p: {k: {"field": f, **p}},
    st.sampled_from(
        ["avg", "sum", "min", "max", "value_count", "cardinality", "stats", "percentiles"]
    ),
    fields,
    params(["percents", "keyed", "format"]),
)
top_hits = st.builds(lambda p: {"top_hits": p}, params(["size", "from", "sort", "_source"]))
aggs = st.recursive(
    st.dictionaries(
        st.sampled_from(["a", "b"]), st.one_of(metrics, top_hits), min_size=1, max_size=2
    ),
    lambda inner: st.dictionaries(
        st.sampled_from(["a", "b", "c"]), _bucket_aggs(inner), min_size=1, max_size=2
    ),
    max_leaves=6,
)
sorts = st.one_of(fields, st.builds(lambda f, o: {f: o}, fields, values))
bodies = st.fixed_dictionaries(
    {},
    optional={
        "query": st.one_of(queries, queries, queries, values),
        "size": PLAUSIBLE["size"],
        "from": PLAUSIBLE["from"],
        "sort": st.lists(sorts, max_size=2),
        "_source": values,
        "aggs": st.one_of(aggs, aggs, aggs, values),
        "track_total_hits": PLAUSIBLE["track_total_hits"],
        "search_after": st.lists(scalars, max_size=2),
    },
)


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@pytest.fixture(scope="module")
def peak_before() -> float:
    """The process's peak memory when this module's tests start."""
    return _rss_mb()


def answered_or_refused(guarded: GuardedEngine, body: dict[str, Any]) -> dict[str, Any] | None:
    """The engine's answer, or None where it refused the body with a clear Bosun error (one line, no
    traceback)."""
    try:
        return guarded.search("shipments", body)
    except BosunError as exc:
        message = str(exc)
        assert message and "\n" not in message and "Traceback" not in message
        return None


# CI runs the same 400 bodies every time (derandomized); `BOSUN_FUZZ_EXAMPLES=20000` explores new
# ones.
LONG_RUN = int(os.environ.get("BOSUN_FUZZ_EXAMPLES", "0"))


@settings(
    max_examples=LONG_RUN or 400,
    derandomize=not LONG_RUN,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(body=bodies)
@example(body={"aggs": {"a": {"min": {"field": "carrier_name"}}}})  # arithmetic over a keyword
@example(body={"aggs": {"a": {"percentiles": {"field": "status"}}}})
# a format that is not text
@example(body={"aggs": {"a": {"max": {"field": "arrival_date", "format": {"x": 1}}}}})
@example(body={"sort": [{"teu": {"missing": 1e20}}]})
def test_any_body_gives_a_result_or_a_clear_bosun_error(
    guarded: GuardedEngine, body: dict[str, Any], peak_before: float
) -> None:
    started = time.monotonic()
    found = answered_or_refused(guarded, body)
    assert found is None or isinstance(found["hits"], dict)
    assert time.monotonic() - started < DEADLINE_S + 2
    assert _rss_mb() - peak_before < GROWTH_CEILING_MB
