from __future__ import annotations

import pyarrow as pa
import pytest

from bosun.catalog import Catalog
from bosun.engines.embedded import EmbeddedEngine
from bosun.engines.guardrails import GuardedEngine, Guardrails
from bosun.errors import GuardrailViolation, QueryTimeout


@pytest.fixture
def guarded(sample: EmbeddedEngine, catalog: Catalog) -> GuardedEngine:
    return GuardedEngine(sample, Guardrails(tuple(catalog.allowed_indices()), max_buckets=500))


def test_allowed_query_runs(guarded: GuardedEngine) -> None:
    response = guarded.search(
        "shipments", {"size": 1, "query": {"term": {"carrier_name": "MAERSK"}}}
    )
    assert response["hits"]["hits"][0]["_source"]["carrier_name"] == "MAERSK"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"query": {"script": {"script": "doc['teu'].value > 1"}}}, "'script' is not allowed"),
        ({"script_fields": {"x": {"script": "1"}}}, "'script_fields' is not allowed"),
        ({"runtime_mappings": {"x": {"type": "long"}}}, "'runtime_mappings' is not allowed"),
        ({"aggs": {"a": {"scripted_metric": {}}}}, "'scripted_metric' is not allowed"),
        ({"size": 10_001}, "over the cap of 10000 hits"),
        ({"size": 5000, "from": 5001}, "over the cap of 10000 hits"),
        (
            {
                "size": 0,
                "aggs": {
                    "a": {
                        "terms": {"field": "shipper_name", "size": 50},
                        "aggs": {"b": {"terms": {"field": "vessel_name", "size": 20}}},
                    }
                },
            },
            "1,000 buckets; the cap is 500",
        ),
    ],
)
def test_violations_are_refused_with_a_reason(
    guarded: GuardedEngine, body: dict, message: str
) -> None:
    with pytest.raises(GuardrailViolation, match=message):
        guarded.search("shipments", body)


def test_index_allowlist(guarded: GuardedEngine) -> None:
    with pytest.raises(GuardrailViolation, match="'bosun_meta' is not in the catalog's allowlist"):
        guarded.search("bosun_meta", {})
    assert "bosun_meta" not in guarded.indices()
    assert "shipments" in guarded.indices()


def test_writes_are_refused(guarded: GuardedEngine) -> None:
    with pytest.raises(GuardrailViolation, match="read-only"):
        guarded.bulk_load(
            "shipments", pa.table({"x": [1]}), {"properties": {"x": {"type": "long"}}}
        )


def test_slow_query_is_stopped(sample: EmbeddedEngine, catalog: Catalog) -> None:
    hurried = GuardedEngine(sample, Guardrails(tuple(catalog.allowed_indices()), timeout_s=0.001))
    body = {
        "size": 0,
        "aggs": {
            "s": {
                "terms": {"field": "bol_number", "size": 1000},
                "aggs": {"v": {"terms": {"field": "vessel_name"}}},
            }
        },
    }
    with pytest.raises(QueryTimeout, match=r"longer than 0\.001 s"):
        hurried.search("shipments", body)
    assert sample.count("shipments") == 20_000  # the engine is still usable afterwards
