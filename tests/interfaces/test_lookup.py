"""Single business objects: routed to GraphQL by `bosun ask`, in-process or to a remote API by
URL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bosun.catalog import load_catalog
from bosun.engines.embedded import EmbeddedEngine
from bosun.engines.graphql.schema import build_schema
from bosun.engines.graphql.server import graphql_app
from bosun.interfaces.cli.app import app
from tests.engines.graphql_server import free_port, running

CATALOG = load_catalog()
VESSELS = {r["vessel_name"]: r for r in CATALOG.reference_rows("vessels")}
CARRIERS = {r["carrier_name"]: r for r in CATALOG.reference_rows("carriers")}


def ask(data_dir: Path, question: str, **env: str) -> dict[str, Any]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BOSUN_DATA_DIR", str(data_dir))
        for key, value in env.items():
            patch.setenv(key, value)
        result = CliRunner().invoke(app, ["ask", question, "--json"])
    answer: dict[str, Any] = json.loads(result.output)
    # 1: the turn failed
    assert result.exit_code == (1 if answer["status"] == "failed" else 0), result.output
    return answer


def workers(answer: dict[str, Any]) -> list[str]:
    return [s["worker"] for s in answer["trace"]["sub_goals"]]


@pytest.mark.parametrize(
    ("question", "obj", "name", "field"),
    [
        ("What is the IMO number of EVER GIVEN?", VESSELS, "EVER GIVEN", "vessel_imo"),
        ("What flag does the MSC GULSUN fly?", VESSELS, "MSC GULSUN", "flag"),
        ("When was ONE STORK built?", VESSELS, "ONE STORK", "built_year"),
        ("Which alliance is Hapag-Lloyd in?", CARRIERS, "HAPAG-LLOYD", "alliance"),
        ("What's MSC's SCAC code?", CARRIERS, "MSC", "carrier_scac"),
        ("Which country is the MSC GULSUN flagged in?", VESSELS, "MSC GULSUN", "flag"),
        ("How old is EVER GIVEN?", VESSELS, "EVER GIVEN", "built_year"),
        ("Which carrier operates the EVER GIVEN?", VESSELS, "EVER GIVEN", "carrier_name"),
        ("What's the capacity of MSC ANNA in TEU?", VESSELS, "MSC ANNA", "capacity_teu"),
    ],
)
def test_an_attribute_of_one_object_comes_from_graphql(
    data_dir: Path, question: str, obj: dict[str, Any], name: str, field: str
) -> None:
    answer = ask(data_dir, question)
    assert answer["status"] == "done"
    assert workers(answer) == ["metadata_lookup", "graphql_lookup"]
    (result,) = answer["results"]
    assert result["columns"][1:] == [field]
    assert [str(v) for v in result["rows"][0]] == [name, obj[name][field]]
    assert obj[name][field] in answer["answer"]


def test_a_question_about_one_object_with_no_attribute_named_shows_it_all(data_dir: Path) -> None:
    answer = ask(data_dir, "What does HS code 950300 cover?")
    assert workers(answer)[-1] == "graphql_lookup"
    shown = dict(answer["results"][0]["rows"])
    row = next(r for r in CATALOG.reference_rows("commodities") if r["hs_code"] == "950300")
    assert shown["hs_description"] == row["hs_description"]


def test_tell_me_about_a_bill_of_lading_shows_every_field(data_dir: Path) -> None:
    engine = EmbeddedEngine(data_dir / "bosun.duckdb", read_only=True)
    hit = engine.search("shipments", {"size": 1, "sort": [{"declared_value_usd": "desc"}]})["hits"][
        "hits"
    ][0]
    engine.close()
    bol = hit["_source"]["bol_number"]
    answer = ask(data_dir, f"Tell me about bill of lading {bol}")
    (result,) = answer["results"]
    shown = {field: value for field, value in result["rows"]}
    assert result["columns"] == ["field", "value"] and set(shown) == set(CATALOG.record.fields)
    assert (
        shown["vessel_name"] == hit["_source"]["vessel_name"]
        and shown["teu"] == hit["_source"]["teu"]
    )


@pytest.mark.parametrize(
    ("question", "term"),
    [
        ("Tell me about bill of lading ZZZZ0000000001", "ZZZZ0000000001"),
        ("What flag does the Flying Dutchman fly?", "Flying Dutchman"),
    ],
)
def test_an_unknown_object_is_not_found_and_named(data_dir: Path, question: str, term: str) -> None:
    answer = ask(data_dir, question)
    assert answer["results"] == [] and term in answer["answer"]


@pytest.mark.parametrize(
    "question",
    [
        "How many shipments did EVER GIVEN carry in 2025?",
        "Show EVER GIVEN shipments to Savannah",
        "Top 3 carriers by TEU to Houston",
    ],
)
def test_records_joins_and_groupings_stay_on_the_search_engine(
    data_dir: Path, question: str
) -> None:
    answer = ask(data_dir, question)
    assert "graphql_lookup" not in workers(answer) and "es_query_exec" in workers(answer)


def test_a_pronoun_in_the_second_goal_means_the_object_of_the_first(data_dir: Path) -> None:
    answer = ask(
        data_dir, "What flag does the MSC GULSUN fly and how many shipments did it carry in 2025?"
    )
    flag, count = answer["results"]
    assert flag["rows"] == [["MSC GULSUN", VESSELS["MSC GULSUN"]["flag"]]]
    assert '"vessel_name": "MSC GULSUN"' in json.dumps(count["query"])


@pytest.fixture(scope="module")
def api(data_dir: Path) -> Iterator[str]:
    """The sample's GraphQL API served over loopback HTTP, as `bosun serve graphql` serves it."""
    engine = EmbeddedEngine(data_dir / "bosun.duckdb", read_only=True)
    with running(graphql_app(build_schema(CATALOG.graph_objects()), engine)) as base:
        yield f"{base}/graphql"
    engine.close()


def test_a_configured_remote_api_is_introspected_and_queried(data_dir: Path, api: str) -> None:
    answer = ask(data_dir, "Which alliance is Hapag-Lloyd in?", BOSUN_GRAPHQL_URL=api)
    assert answer["results"][0]["rows"] == [["HAPAG-LLOYD", CARRIERS["HAPAG-LLOYD"]["alliance"]]]


def test_a_failing_remote_api_fails_its_goal_and_the_rest_still_answers(data_dir: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}/graphql"
    answer = ask(
        data_dir,
        "What flag does the MSC GULSUN fly and how many shipments arrived in Savannah last month?",
        BOSUN_GRAPHQL_URL=url,
    )
    (count,) = answer["results"]
    assert count["columns"] == ["shipments"] and count["rows"][0][0] > 0
    assert url in answer["answer"]
