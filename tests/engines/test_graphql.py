"""The GraphQL schema built from the catalog, in-process and over HTTP through gql."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

from bosun.catalog import Catalog, load_catalog
from bosun.engines.embedded import EmbeddedEngine
from bosun.engines.graphql.client import LocalGraph, RemoteGraph
from bosun.engines.graphql.schema import build_schema
from bosun.engines.graphql.server import graphql_app
from bosun.errors import EngineUnavailable, UnsupportedQuery
from tests.engines.graphql_server import free_port, running

SHOP = Path(__file__).parents[1] / "domains" / "shop" / "catalog.yaml"


@pytest.fixture(scope="module")
def local(catalog: Catalog, sample: EmbeddedEngine) -> LocalGraph:
    return LocalGraph(catalog.graph_objects(), sample)


def by(rows: list[dict[str, str]], key: str) -> dict[str, dict[str, str]]:
    return {r[key]: r for r in rows}


def test_an_object_its_attributes_and_a_linked_object(catalog: Catalog, local: LocalGraph) -> None:
    vessels = by(catalog.reference_rows("vessels"), "vessel_name")
    carriers = by(catalog.reference_rows("carriers"), "carrier_name")
    for name in ("EVER GIVEN", "ONE STORK", "MSC GULSUN"):
        row = local.fetch(
            "vessels", name, ["vessel_imo", "flag", "built_year", "carriers.alliance"]
        )
        vessel = vessels[name]
        assert row == {
            "vessel_imo": vessel["vessel_imo"],
            "flag": vessel["flag"],
            "built_year": int(vessel["built_year"]),
            "carriers": {"alliance": carriers[vessel["carrier_name"]]["alliance"] or None},
        }


def test_a_record_by_its_id_with_typed_fields(local: LocalGraph, sample: EmbeddedEngine) -> None:
    hit = sample.search("shipments", {"size": 1, "sort": [{"bol_number": "desc"}]})["hits"]["hits"][
        0
    ]["_source"]
    row = local.fetch(
        "shipments",
        hit["bol_number"],
        ["bol_number", "teu", "is_hazardous", "arrival_date", "commodities.hs_code"],
    )
    assert row is not None
    assert row["teu"] == hit["teu"] and row["is_hazardous"] == hit["is_hazardous"]
    assert row["arrival_date"] == (str(hit["arrival_date"])[:10] if hit["arrival_date"] else None)
    assert row["commodities"] == {"hs_code": hit["hs_code"]}


def test_nothing_by_that_id_is_none(local: LocalGraph) -> None:
    assert local.fetch("vessels", "NO SUCH SHIP", ["flag"]) is None
    assert local.fetch("shipments", "XXXX0000000000", ["teu"]) is None


def test_a_field_the_schema_lacks_is_named(local: LocalGraph) -> None:
    with pytest.raises(UnsupportedQuery, match="colour"):
        local.fetch("vessels", "EVER GIVEN", ["colour"])


def test_another_domain_gets_its_own_types() -> None:
    shop = load_catalog(SHOP)
    schema = str(build_schema(shop.graph_objects()))
    for name, obj in shop.spec.objects.items():
        if obj.id_field:
            assert f"{name}(id: String!)" in schema
            assert all(f"  {field}: " in schema for field in obj.fields)


def test_over_http_through_gql_the_same_as_in_process(
    catalog: Catalog, sample: EmbeddedEngine, local: LocalGraph
) -> None:
    fields = ["vessel_imo", "capacity_teu", "carriers.full_name"]
    with running(graphql_app(build_schema(catalog.graph_objects()), sample)) as base:
        remote = RemoteGraph(f"{base}/graphql")
        assert remote.fetch("vessels", "EVER GIVEN", fields) == local.fetch(
            "vessels", "EVER GIVEN", fields
        )
        assert remote.fetch("carriers", "NOT A LINE", ["alliance"]) is None
        with pytest.raises(UnsupportedQuery, match=r"colour"):
            # refused against the introspected schema
            remote.fetch("vessels", "EVER GIVEN", ["colour"])


def _broken(request: Any) -> HTMLResponse:
    return HTMLResponse("<h1>502 Bad Gateway</h1>", status_code=502)


@pytest.mark.parametrize("kind", ["nothing listening", "not GraphQL"])
def test_a_failing_endpoint_is_a_clear_error_naming_it(kind: str) -> None:
    if kind == "nothing listening":
        url = f"http://127.0.0.1:{free_port()}/graphql"
        with pytest.raises(EngineUnavailable, match=url):
            RemoteGraph(url, timeout_s=2).fetch("vessels", "EVER GIVEN", ["flag"])
        return
    with (
        running(Starlette(routes=[Route("/graphql", _broken, methods=["GET", "POST"])])) as base,
        pytest.raises(EngineUnavailable, match=f"{base}/graphql"),
    ):
        RemoteGraph(f"{base}/graphql", timeout_s=2).fetch("vessels", "EVER GIVEN", ["flag"])
