"""The vetted script template of bucket_selector / bucket_script: accepted through the guardrails
for every engine (embedded and a real OpenSearch-compatible server), every other script refused as
before."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pyarrow as pa
import pytest

from bosun.engines.base import Engine
from bosun.engines.embedded import EmbeddedEngine
from bosun.engines.guardrails import GuardedEngine, Guardrails
from bosun.engines.remote import RemoteEngine
from bosun.errors import BadQuery, GuardrailViolation

MAPPING = {"properties": {"shop": {"type": "keyword"}, "amount": {"type": "integer"}}}
ROWS = pa.table({"shop": ["a", "a", "b", "b", "b", "c"], "amount": [1, 2, 10, 20, 30, 5]})


def _body(kind: str, script: Any, paths: dict[str, str] | None = None) -> dict[str, Any]:
    pipeline = {"buckets_path": paths or {"total": "total", "n": "_count"}, "script": script}
    return {
        "size": 0,
        "aggs": {
            "shops": {
                "terms": {"field": "shop", "order": {"_key": "asc"}},
                "aggs": {"total": {"sum": {"field": "amount"}}, "p": {kind: pipeline}},
            }
        },
    }


@pytest.fixture(scope="module", params=["embedded", "opensearch"])
def engine(request: pytest.FixtureRequest) -> Iterator[Engine]:
    if request.param == "embedded":
        inner: Engine = EmbeddedEngine()
        inner.bulk_load("shops", ROWS, MAPPING)
        yield GuardedEngine(inner, Guardrails(("shops",)))
        inner.close()
        return
    from osmem_server import OsmemServer

    with OsmemServer.start(japanese=False) as server:
        remote = RemoteEngine("opensearch", server.url, timeout_s=60)
        remote.bulk_load("shops", ROWS, MAPPING)
        yield GuardedEngine(remote, Guardrails(("shops",)))
        remote.close()


def _shops(engine: Engine, body: dict[str, Any]) -> list[dict[str, Any]]:
    buckets: list[dict[str, Any]] = engine.search("shops", body)["aggregations"]["shops"]["buckets"]
    return buckets


@pytest.mark.parametrize(
    ("script", "kept"),
    [
        ("params.total > 3", ["b", "c"]),
        ("params.total / params.n >= 5 && !(params.n == 3)", ["c"]),
        ({"source": "params.n > 1 || params.total == 5", "lang": "painless"}, ["a", "b", "c"]),
        ("(params.total - 1) * 2 < 10 + -1", ["a", "c"]),
    ],
)
def test_a_vetted_selector_runs_on_every_engine(
    engine: Engine, script: Any, kept: list[str]
) -> None:
    assert [b["key"] for b in _shops(engine, _body("bucket_selector", script))] == kept


def test_a_vetted_bucket_script_runs_on_every_engine(engine: Engine) -> None:
    buckets = _shops(engine, _body("bucket_script", "params.total / params.n + 7 / 2"))
    # 7 / 2 is an int division, as in Java
    assert [b["p"]["value"] for b in buckets] == [4.5, 23.0, 8.0]


@pytest.mark.parametrize(
    ("kind", "script"),
    [
        ("bucket_selector", "doc['amount'].value > 1"),
        ("bucket_selector", "params.total.doubleValue() > 1"),
        ("bucket_selector", "Math.max(params.total, 1) > 1"),
        ("bucket_selector", "params.other > 1"),
        ("bucket_selector", "params.total > 'x'"),
        ("bucket_selector", "params.total = 1"),
        ("bucket_selector", "params.total > 1; return true"),
        ("bucket_selector", "params.total + 1"),
        ("bucket_selector", "params['total'] > 1"),
        ("bucket_script", "params.total > 1"),
        ("bucket_script", "params.total ? 1 : 0"),
        ("bucket_script", {"id": "stored"}),
        ("bucket_script", {"source": "params.total * params.k", "params": {"k": 2}}),
        ("bucket_script", {"source": "total * 2", "lang": "expression"}),
        ("bucket_script", "(" * 40 + "params.total" + ")" * 40),
        ("bucket_script", "-" * 40 + "params.total"),
        ("bucket_script", " + ".join(["params.total"] * 60)),
        ("bucket_selector", "!" * 2000 + "params.total > 1"),
    ],
)
def test_any_other_script_is_refused_before_any_engine(
    engine: Engine, kind: str, script: Any
) -> None:
    with pytest.raises(
        GuardrailViolation, match="'script' is not allowed: Bosun's queries are read-only"
    ):
        engine.search("shops", _body(kind, script))


def test_scripts_outside_the_two_pipelines_stay_refused(engine: Engine) -> None:
    body = {"size": 0, "aggs": {"s": {"terms": {"field": "shop", "script": "params.total > 1"}}}}
    with pytest.raises(GuardrailViolation, match="'script' is not allowed"):
        engine.search("shops", body)


def test_the_embedded_engine_refuses_them_without_guardrails_too() -> None:
    engine = EmbeddedEngine()
    engine.bulk_load("shops", ROWS, MAPPING)
    with pytest.raises(
        GuardrailViolation, match=r"params\.other is not a name of its buckets_path"
    ):
        engine.search("shops", _body("bucket_selector", "params.other > 1"))
    with pytest.raises(BadQuery, match="integer division by zero"):
        engine.search("shops", _body("bucket_script", "params.total + 1 / 0"))
    engine.close()
