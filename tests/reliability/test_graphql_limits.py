"""`bosun serve graphql` refuses documents past its depth, alias and token limits before resolving
anything."""

from __future__ import annotations

import time

import pytest
from starlette.testclient import TestClient

from bosun.catalog import Catalog
from bosun.engines.embedded import EmbeddedEngine
from bosun.engines.graphql.schema import MAX_ALIASES, GraphObject, build_schema
from bosun.engines.graphql.server import graphql_app


@pytest.fixture(scope="module")
def client(catalog: Catalog, raw: EmbeddedEngine) -> TestClient:
    return TestClient(graphql_app(build_schema(catalog.graph_objects()), raw))


def _post(client: TestClient, query: str) -> tuple[dict[str, object], float]:
    started = time.monotonic()
    answer = client.post("/graphql", json={"query": query})
    return answer.json(), time.monotonic() - started


def test_five_thousand_aliases_are_refused_at_once(client: TestClient) -> None:
    aliases = " ".join(f'a{i}: vessels(id: "EVER GIVEN") {{ flag }}' for i in range(5_000))
    found, took = _post(client, f"{{ {aliases} }}")
    assert found["data"] is None and took < 5
    assert "Document contains more than 2000 tokens" in str(found["errors"])


def test_more_aliases_than_the_limit_are_refused(client: TestClient) -> None:
    aliases = " ".join(
        f'a{i}: vessels(id: "EVER GIVEN") {{ flag }}' for i in range(MAX_ALIASES + 1)
    )
    found, _ = _post(client, f"{{ {aliases} }}")
    assert found[
        "data"
    ] is None and f"{MAX_ALIASES + 1} aliases found. Allowed: {MAX_ALIASES}" in str(found["errors"])


def test_aliases_within_the_limit_still_answer(client: TestClient) -> None:
    aliases = " ".join(f'a{i}: vessels(id: "EVER GIVEN") {{ flag }}' for i in range(MAX_ALIASES))
    found, _ = _post(client, f"{{ {aliases} }}")
    assert "errors" not in found and len(found["data"]) == MAX_ALIASES  # type: ignore[arg-type]


def test_a_query_deeper_than_the_limit_is_refused() -> None:
    chain = [
        GraphObject(f"o{i}", f"i{i}", f"k{i}", {f"k{i}": "keyword", f"k{i + 1}": "keyword"})
        for i in range(12)
    ]
    # o0.k1 links to o1, o1.k2 to o2, …: a link chain twelve objects deep
    schema = build_schema(chain)
    selection = "k12"
    for i in range(11, 0, -1):
        selection = f"k{i} {{ {selection} }}"
    found = schema.execute_sync(f'{{ o0(id: "x") {{ {selection} }} }}')
    assert found.errors and "exceeds maximum operation depth" in found.errors[0].message
    shallow = schema.execute_sync('{ o0(id: "x") { k1 { k2 { k3 { k4 } } } } }')
    assert not shallow.errors or "depth" not in shallow.errors[0].message


def test_a_huge_document_is_refused_by_its_token_count(client: TestClient) -> None:
    fields = " ".join("flag" for _ in range(3_000))
    found, _ = _post(client, f'{{ vessels(id: "EVER GIVEN") {{ {fields} }} }}')
    assert found.get("data") is None and "token" in str(found["errors"]).lower()
