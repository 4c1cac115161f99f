"""The DSL fuzz's bodies through both engines: where the cluster answers, the embedded engine gives
the same answer or refuses with a Bosun error; where the cluster refuses, so does the embedded
engine.

CI runs the same 150 bodies every time; `BOSUN_FUZZ_EXAMPLES=N` (`python3 dev.py fuzz`) explores new
ones.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, example, given, settings

from bosun.engines.base import Engine
from bosun.errors import BosunError
from tests.conformance.test_conformance import _shape, assert_same
from tests.reliability.test_dsl_fuzz import LONG_RUN, bodies

# The server failing inside (HTTP 500, "all shards failed") says nothing about what the DSL means,
# unlike a refusal of the body as written; seen on a top_hits of size 0, which Elasticsearch
# answers.
SERVER_FAILURES = ("all shards failed", "answered HTTP 500")
# both engines' percentiles are estimates (t-digest there, exact interpolation here)
PERCENTILES_TOLERANCE = 0.1


def _answer(engine: Engine, body: dict[str, Any]) -> dict[str, Any] | BosunError:
    try:
        return engine.search("shipments", copy.deepcopy(body))
    except BosunError as exc:
        return exc


@settings(
    max_examples=LONG_RUN or 150,
    derandomize=not LONG_RUN,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(body=bodies)
@example(body={"query": {}})  # each once answered here and refused by the cluster
@example(body={"_source": {"lt": 0}})
@example(body={"aggs": []})
@example(body={"aggs": {"a": {"avg": {"field": "teu", "keyed": False}}}})
@example(body={"query": {"wildcard": {"status": {"x": [1]}}}})
@example(body={"size": 0, "search_after": []})
@example(body={"aggs": {"a": {"filters": {"filters": []}}}})
@example(
    body={
        "aggs": {
            "a": {
                "composite": {"sources": [{"s": {"terms": {"field": "teu"}}}], "after": {"s": None}}
            }
        }
    }
)
def test_the_embedded_engine_answers_as_the_cluster_does(
    embedded: Engine, osmem: Engine, body: dict[str, Any]
) -> None:
    theirs, ours = _answer(osmem, body), _answer(embedded, body)
    if isinstance(theirs, BosunError):
        if any(failure in str(theirs) for failure in SERVER_FAILURES):
            return
        assert isinstance(ours, BosunError), (
            f"the cluster refused ({theirs}); the embedded engine answered"
        )
    elif not isinstance(ours, BosunError):
        tolerance = PERCENTILES_TOLERANCE if "percentiles" in str(body) else 1e-6
        entry = {"sorted": bool(body.get("sort"))}
        assert_same(_shape(theirs, entry), _shape(ours, entry), tolerance)
