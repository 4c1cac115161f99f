"""Hypothesis over pipeline aggregations: any buckets_path, gap policy, sort, script text or option.

Whatever the pipeline, the guarded engine gives a result or a clear Bosun error; never a Python
error.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bosun.engines.embedded.pipelines import PIPELINES
from bosun.engines.guardrails import GuardedEngine
from tests.reliability.test_dsl_fuzz import LONG_RUN, answered_or_refused

junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 40),
    st.floats(allow_nan=True),
    st.text(max_size=6),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
paths = st.one_of(
    st.sampled_from(
        [
            "t",
            "_count",
            "_key",
            "s.max",
            "s.avg",
            "p[50.0]",
            "p.50",
            "p[99]",
            "f>t",
            "f._count",
            "f>_count",
            "nope",
            "t.value",
            "h>t",
            "h._bucket_count",
            "s",
            "p",
            "x",
            "",
            ">",
            "t>",
            "[",
            "p[]",
        ]
    ),
    st.text(max_size=8),
)
tokens = st.sampled_from(
    [
        "params.a",
        "params.b",
        "params.c",
        "1",
        "2.5",
        "0",
        "(",
        ")",
        ">",
        ">=",
        "==",
        "!=",
        "<",
        "&&",
        "||",
        "!",
        "+",
        "-",
        "*",
        "/",
        "doc",
        "'x'",
        ".",
        ";",
        "?",
        ":",
    ]
)
numbers = st.recursive(
    st.sampled_from(["params.a", "params.b", "1", "2.5", "0", "-3"]),
    lambda e: st.builds(lambda x, op, y: f"({x} {op} {y})", e, st.sampled_from("+-*/"), e),
    max_leaves=4,
)
conditions = st.recursive(
    st.builds(
        lambda x, op, y: f"{x} {op} {y}",
        numbers,
        st.sampled_from([">", ">=", "<", "<=", "==", "!="]),
        numbers,
    ),
    lambda c: st.one_of(
        st.builds(lambda x, op, y: f"({x}) {op} ({y})", c, st.sampled_from(["&&", "||"]), c),
        c.map(lambda x: f"!({x})"),
    ),
    max_leaves=3,
)
scripts = st.one_of(
    numbers,
    conditions,
    numbers,
    conditions,
    st.lists(tokens, max_size=8).map(" ".join),
    st.fixed_dictionaries(
        {"source": st.lists(tokens, max_size=6).map(" ".join)},
        optional={"lang": st.sampled_from(["painless", "expression"])},
    ),
    junk,
)
SCRIPTED = {"bucket_selector", "bucket_script"}
KEYS = {kind: {"buckets_path", "gap_policy", "format"} for kind in PIPELINES} | {
    "bucket_selector": {"buckets_path", "gap_policy", "script"},
    "bucket_script": {"buckets_path", "gap_policy", "script", "format"},
    "bucket_sort": {"sort", "from", "size", "gap_policy"},
    "cumulative_sum": {"buckets_path", "format"},
    "serial_diff": {"buckets_path", "gap_policy", "format", "lag"},
}
options = st.fixed_dictionaries(
    {},
    optional={
        "buckets_path": st.one_of(
            paths,
            st.dictionaries(st.sampled_from(["a", "b"]), paths, min_size=2, max_size=2),
            st.dictionaries(st.sampled_from(["a", "b"]), paths, max_size=2),
            st.lists(paths, max_size=2),
            junk,
        ),
        "gap_policy": st.one_of(st.sampled_from(["skip", "insert_zeros", "keep_values"]), junk),
        "script": scripts,
        "lag": st.one_of(st.integers(-1, 5), junk),
        "from": st.one_of(st.integers(-1, 5), junk),
        "size": st.one_of(st.integers(-1, 5), junk),
        "format": st.one_of(st.sampled_from(["0.00", "#,##0", "x"]), junk),
        "sort": st.one_of(
            st.lists(
                st.one_of(
                    paths,
                    st.dictionaries(paths, st.sampled_from(["asc", "desc", "up"]), max_size=1),
                ),
                max_size=2,
            ),
            junk,
        ),
    },
)
good_paths = st.sampled_from(["t", "_count", "s.max", "p[50.0]", "p.50", "f>t", "f>_count", "_key"])
sibling_paths = st.sampled_from(["h>t", "h>_count", "h>s.avg", "h>p[50.0]", "h>f>t"])


@st.composite
def pipeline(draw: st.DrawFn, top: bool) -> dict[str, Any]:
    """A pipeline of any kind, its options mostly plausible and now and then anything."""
    kind = draw(st.sampled_from(sorted(PIPELINES)))
    body = {
        k: v for k, v in draw(options).items() if k in KEYS[kind] or draw(st.integers(0, 9)) == 0
    }
    if draw(st.integers(0, 4)):
        if kind in SCRIPTED:
            body["buckets_path"] = {"a": draw(good_paths), "b": draw(good_paths)}
            body["script"] = draw(conditions if kind == "bucket_selector" else numbers)
        elif kind != "bucket_sort":
            body["buckets_path"] = draw(
                sibling_paths if top or kind.endswith("_bucket") else good_paths
            )
    return {kind: body}


def pipelines(top: bool) -> st.SearchStrategy[dict[str, Any]]:
    return st.dictionaries(st.sampled_from(["q", "r", "a"]), pipeline(top), min_size=1, max_size=2)


parents = st.sampled_from(
    [
        {"terms": {"field": "carrier_name", "size": 4}},
        {"date_histogram": {"field": "arrival_date", "calendar_interval": "quarter"}},
        {"histogram": {"field": "teu", "interval": 8}},
        {"filters": {"filters": {"x": {"term": {"status": "held"}}, "y": {"match_all": {}}}}},
        {"filter": {"term": {"status": "held"}}},
    ]
)
METRICS = {
    "t": {"sum": {"field": "teu"}},
    "s": {"stats": {"field": "transit_days"}},
    "p": {"percentiles": {"field": "transit_days", "percents": [50]}},
    "f": {"filter": {"term": {"container_type": "40HC"}}, "aggs": {"t": {"avg": {"field": "teu"}}}},
}


@st.composite
def bodies(draw: st.DrawFn) -> dict[str, Any]:
    inner = {**METRICS, **draw(pipelines(False))}
    outer = {"h": {**draw(parents), "aggs": inner}}
    if draw(st.booleans()):
        outer.update(draw(pipelines(True)))
    return {"size": 0, "aggs": outer}


@settings(
    max_examples=LONG_RUN or 100,
    derandomize=not LONG_RUN,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(body=bodies())
def test_any_pipeline_gives_a_result_or_a_clear_bosun_error(
    guarded: GuardedEngine, body: dict[str, Any]
) -> None:
    found = answered_or_refused(guarded, body)
    assert found is None or isinstance(found["aggregations"]["h"], dict)
