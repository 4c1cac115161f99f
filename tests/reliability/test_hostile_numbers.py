"""No 500 from a number (issue #39 item 7): `NaN`, `Infinity`, `1e400` or a whole number past 64
bits anywhere in a JSON body, or a whole-number path parameter past 64 bits, is a 422 naming the
field, on every route of the app (enumerated from FastAPI, so a new route is covered)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from mcp import Client
from pydantic import BaseModel

from bosun.conversation.session import Session, open_session
from bosun.interfaces.api.app import create_app
from bosun.interfaces.mcp.server import build_server
from bosun.settings import Settings

# JSON that Python's parser reads as a float no number type holds, or an int past 64 bits
HOSTILE = ["NaN", "Infinity", "-Infinity", "1e400", "-1e400", str(2**64), str(-(2**63) - 1)]
NUMBER = "__number__"


def _with(value: object, number: str) -> str:
    """`value` as JSON, the hostile number's text written where it holds NUMBER."""
    return json.dumps(value).replace(f'"{NUMBER}"', number)


@pytest.fixture(scope="module")
def session(sample_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    folder = tmp_path_factory.mktemp("numbers")
    (folder / "bosun.duckdb").symlink_to(sample_dir / "bosun.duckdb")
    opened = open_session(Settings(data_dir=folder))
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def client(session: Session) -> TestClient:
    return TestClient(create_app(session), raise_server_exceptions=False)


@pytest.fixture(scope="module")
def thread(client: TestClient) -> str:
    thread_id: str = client.post("/threads").json()["thread_id"]
    asked = client.post(f"/threads/{thread_id}/turns", json={"question": "How many shipments?"})
    assert asked.status_code == 200
    return thread_id


def _body_routes(client: TestClient) -> list[tuple[APIRoute, str, type[BaseModel]]]:
    """Every API route that reads a JSON body: the route, one of its methods, its body model."""
    found = []
    for route in client.app.routes:  # type: ignore[attr-defined]
        if isinstance(route, APIRoute) and route.body_field is not None:
            model = route.body_field.field_info.annotation
            assert isinstance(model, type) and issubclass(model, BaseModel), route.path
            found += [(route, method, model) for method in sorted(route.methods)]
    return found


def _path(route: APIRoute, thread: str, whole: str = "1") -> str:
    return re.sub(r"\{(\w+)\}", lambda m: thread if m[1] == "thread_id" else whole, route.path)


def test_every_body_route_is_covered(client: TestClient) -> None:
    """The routes this file probes (a new route that takes a body is probed without a change)."""
    paths = {(method, route.path) for route, method, _ in _body_routes(client)}
    assert {
        ("POST", "/threads/{thread_id}/turns"),
        ("POST", "/threads/{thread_id}/turns/{turn}/mark"),
        ("POST", "/records"),
        ("POST", "/records.csv"),
        ("POST", "/records.xlsx"),
        ("POST", "/table.xlsx"),
        ("POST", "/vocabulary"),
        ("PATCH", "/threads/{thread_id}"),
    } <= paths


@pytest.mark.parametrize("number", HOSTILE)
def test_a_hostile_number_in_any_field_of_any_body_is_a_422_naming_the_field(
    client: TestClient, thread: str, number: str
) -> None:
    for route, method, model in _body_routes(client):
        for field in model.model_fields:
            reply = _send(client, method, _path(route, thread), _with({field: NUMBER}, number))
            assert reply.status_code == 422, (route.path, field, number, reply.text)
            assert reply.json()["detail"].startswith(f"{field}: "), reply.text


@pytest.mark.parametrize("number", HOSTILE)
def test_a_hostile_number_deep_in_a_body_names_where_it_is(
    client: TestClient, thread: str, number: str
) -> None:
    rows = {"columns": ["carrier", "n"], "rows": [["MSC", 1], ["ONE", NUMBER]]}
    table = _send(client, "POST", "/table.xlsx", _with(rows, number))
    assert (table.status_code, table.json()["detail"].split(":")[0]) == (422, "rows.1.1")
    query = {"query": {"query": {"range": {"teu": {"gte": NUMBER}}}}}
    for path in ("/records", "/records.csv", "/records.xlsx"):
        reply = _send(client, "POST", path, _with(query, number))
        assert reply.status_code == 422, (path, reply.text)
        assert reply.json()["detail"].startswith("query.query.range.teu.gte: "), reply.text


def test_a_turn_number_past_64_bits_is_a_422_naming_the_turn(
    client: TestClient, thread: str
) -> None:
    for turn in (str(2**64), str(2**63)):
        reply = client.post(f"/threads/{thread}/turns/{turn}/mark", json={"right": True})
        assert reply.status_code == 422, reply.text
        assert reply.json()["detail"].startswith("turn: "), reply.text
    fine = client.post(f"/threads/{thread}/turns/{2**63 - 1}/mark", json={"right": True})
    assert fine.status_code == 404  # a number, of a turn the thread does not have


def test_sound_numbers_still_go_through(client: TestClient, thread: str) -> None:
    pytest.importorskip("xlsxwriter")
    table = {"columns": ["n"], "rows": [[2**63 - 1], [-(2**63)], [1.5e300], [-0.0]]}
    assert client.post("/table.xlsx", json=table).status_code == 200
    marked = client.post(f"/threads/{thread}/turns/1/mark", json={"right": False, "figure": 1e300})
    assert marked.status_code == 200 and marked.json()["figure"] == 1e300


@pytest.mark.parametrize("number", HOSTILE)
def test_no_route_at_all_answers_a_hostile_number_with_a_5xx(
    client: TestClient, thread: str, number: str
) -> None:
    """Every route that takes a POST, PUT or PATCH, MCP and GraphQL included, given the number in
    the bodies they read."""
    arguments = {"thread_id": thread, "right": True, "figure": NUMBER, "turn": NUMBER}
    call = {"name": "mark_answer", "arguments": arguments}
    bodies = [
        _with({"x": NUMBER}, number),
        _with({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call}, number),
        _with({"query": "{ __typename }", "variables": {"n": NUMBER}}, number),
    ]
    for route in client.app.routes:  # type: ignore[attr-defined]
        for method in sorted(set(getattr(route, "methods", None) or ()) & {"POST", "PUT", "PATCH"}):
            for body in bodies:
                reply = _send(client, method, _path(route, thread), body)
                assert reply.status_code < 500, (route.path, body, reply.text)


def _send(client: TestClient, method: str, path: str, body: str) -> Any:
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
    }
    return client.request(method, path, content=body, headers=headers)


def test_mcp_marks_no_turn_past_64_bits(session: Session, thread: str) -> None:
    async def marked() -> str:
        async with Client(build_server(session)) as client:
            arguments = {"thread_id": thread, "right": True, "turn": 2**64}
            reply = await client.call_tool("mark_answer", arguments)
            assert reply.is_error
            return str(reply.content[0].text)  # type: ignore[union-attr]

    said = anyio.run(marked)
    assert (
        said == f"Error executing tool mark_answer: thread {thread!r} has no answered turn {2**64}"
    )
