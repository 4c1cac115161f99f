"""What a hostile web page or client can do over HTTP: rebind a name to 127.0.0.1, flood GraphQL,
nest variables deep or send dates at the calendar's ends — each gets a clear 400 and the server
keeps answering."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from starlette.testclient import TestClient

from bosun.catalog import Catalog
from bosun.conversation.session import Session
from bosun.engines.embedded import EmbeddedEngine
from bosun.engines.graphql.schema import build_schema
from bosun.engines.graphql.server import graphql_app
from bosun.engines.guardrails import GuardedEngine, Guardrails
from bosun.interfaces.cli.serve_cmd import guarded
from bosun.interfaces.mcp.server import build_server
from bosun.settings import Settings
from tests.conftest import sample_session

QUERY = {"query": '{ vessels(id: "EVER GIVEN") { flag } }'}


@pytest.fixture(scope="module")
def graphql(catalog: Catalog, raw: EmbeddedEngine) -> object:
    """`bosun serve graphql` as served on loopback, BOSUN_ALLOWED_HOSTS=bi.example.org."""
    settings = Settings(allowed_hosts="bi.example.org")
    return guarded(
        graphql_app(build_schema(catalog.graph_objects()), raw), None, (), settings, "127.0.0.1"
    )


def test_serve_graphql_answers_only_to_the_host_names_it_serves(graphql: object) -> None:
    for host, status in (
        ("evil.example", 400),
        ("evil.example:8765", 400),
        ("127.0.0.1:8765", 200),
        ("localhost", 200),
        ("[::1]:8765", 200),
        ("bi.example.org:443", 200),
    ):
        client = TestClient(graphql, base_url=f"http://{host}")  # type: ignore[arg-type]
        assert client.post("/graphql", json=QUERY).status_code == status, host


class _Watched(GuardedEngine):
    """The guarded sample, noting the thread each search runs in."""

    def __init__(self, engine: EmbeddedEngine, guardrails: Guardrails) -> None:
        super().__init__(engine, guardrails)
        self.threads: list[str] = []

    def search(self, index: str, body: dict[str, Any]) -> dict[str, Any]:
        self.threads.append(threading.current_thread().name if not _on_a_loop() else "event loop")
        return super().search(index, body)


def _on_a_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def test_graphql_resolvers_run_off_the_event_loop(catalog: Catalog, raw: EmbeddedEngine) -> None:
    """On the loop, 100 small queries at once held /health for seconds; in a worker thread the loop
    stays free."""
    engine = _Watched(raw, Guardrails(tuple(catalog.allowed_indices()), timeout_s=10.0))
    client = TestClient(graphql_app(build_schema(catalog.graph_objects()), engine))
    assert client.post("/graphql", json=QUERY).json()["data"]["vessels"]["flag"]
    assert engine.threads and all(name.startswith("graphql") for name in engine.threads), (
        engine.threads
    )


@pytest.mark.parametrize("depth", [100_000, 2_000])
def test_graphql_variables_nested_deep_are_a_400_in_one_line(graphql: object, depth: int) -> None:
    body = '{"query": "{ __typename }", "variables": {"a": ' + "[" * depth + "]" * depth + "}}"
    client = TestClient(graphql, base_url="http://localhost", raise_server_exceptions=False)  # type: ignore[arg-type]
    refused = client.post("/graphql", content=body, headers={"content-type": "application/json"})
    assert (
        refused.status_code == 400
        and refused.text == "Unable to parse request body as JSON: nested too deep"
    )


@pytest.fixture(scope="module")
def mcp_session(sample_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    yield from sample_session(sample_dir, tmp_path_factory.mktemp("mcp"))


async def _mcp_errors(session: Session) -> list[str]:
    record = session.context.catalog.record
    keyword = next(name for name, spec in record.fields.items() if spec.type == "keyword")
    calls = [
        ("ask", {}),
        ("ask", {"question": 5}),
        ("search", {"index": "nowhere", "query_dsl": {}}),
        (
            "aggregate",
            {"index": record.index, "query_dsl": {"aggs": {"m": {"min": {"field": keyword}}}}},
        ),
    ]
    async with Client(build_server(session)) as client:
        messages = []
        for tool, arguments in calls:
            result = await client.call_tool(tool, arguments)
            assert result.is_error, (tool, arguments)
            messages.append(result.content[0].text)  # type: ignore[union-attr]
        prompt = (await client.list_prompts()).prompts[0]
        with pytest.raises(MCPError) as refused:
            await client.get_prompt(prompt.name, {})
        return [*messages, refused.value.error.message]


def test_mcp_errors_come_back_as_one_line_that_says_what_went_wrong(mcp_session: Session) -> None:
    """A bad argument was pydantic's multi-line report, a prompt without its arguments "Internal
    server error"."""
    messages = anyio.run(_mcp_errors, mcp_session)
    assert all(
        m.strip() and "\n" not in m and "Internal server error" not in m for m in messages
    ), messages
    assert messages[0] == "Error executing tool ask: question: Field required"
    assert messages[1] == "Error executing tool ask: question: Input should be a valid string"
    # a crash (min over a keyword) says what it was
    assert messages[3] != "Error executing tool aggregate"
    assert messages[-1].startswith("Missing required arguments")
