"""`bosun serve mcp` driven by the MCP SDK's own client, over stdio (a subprocess) and streamable
HTTP."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import duckdb
import httpx
import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

pytestmark = pytest.mark.slow

SERVE = [sys.executable, "-m", "bosun.interfaces.cli", "serve", "mcp"]
TOOLS = {
    "ask",
    "describe_catalog",
    "resolve_name",
    "search",
    "aggregate",
    "lookup_object",
    "explain_field",
    "mark_answer",
    "teach_word",
    "taught_words",
}
WRITES = {"mark_answer", "teach_word"}  # a mark beside a turn, a taught word: never data


@pytest.fixture(scope="module")
def folder(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shared sample with this module's own conversation store."""
    own = tmp_path_factory.mktemp("mcp")
    (own / "bosun.duckdb").symlink_to(data_dir / "bosun.duckdb")
    return own


def _env(folder: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOSUN_")}
    return {**env, "BOSUN_DATA_DIR": str(folder), **extra}


async def _call(client: Client, tool: str, **arguments: Any) -> Any:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    return result.structured_content


async def _error(client: Client, tool: str, **arguments: Any) -> str:
    result = await client.call_tool(tool, arguments)
    assert result.is_error and result.structured_content is None
    text: str = result.content[0].text  # type: ignore[union-attr]
    assert "\n" not in text and "Traceback" not in text
    return text


async def _exercise(client: Client, gold: duckdb.DuckDBPyConnection) -> None:
    """Every tool, resource and prompt once, each checked against the data or the catalog."""
    listed = (await client.list_tools()).tools
    assert {t.name for t in listed} == TOOLS
    assert all(
        t.annotations and t.annotations.read_only_hint is (t.name not in WRITES) and t.output_schema
        for t in listed
    )
    await _catalog_tools(client)
    await _data_tools(client, gold)
    await _errors(client)
    await _clarification(client, gold)
    await _resources_and_prompts(client)


async def _catalog_tools(client: Client) -> None:
    catalog = await _call(client, "describe_catalog")
    assert (
        catalog["record"] == "shipments"
        and catalog["objects"]["shipments"]["fields"]["teu"]["role"] == "measure"
    )
    assert (
        catalog["measures"]["volume"]["field"] == "teu"
        and "carrier" in catalog["entities"]
        and catalog["glossary"]
    )
    anna = await _call(client, "resolve_name", text="Anna", kind="vessel")
    assert {c["value"] for c in anna["candidates"]} == {"MSC ANNA", "ANNA MAERSK", "ANNA EXPRESS"}
    maersk = await _call(client, "resolve_name", text="Maersk")
    assert [(c["kind"], c["value"], c["method"], c["score"]) for c in maersk["candidates"]] == [
        ("carrier", "MAERSK", "exact", 100.0)
    ]
    explained = await _call(client, "explain_field", name="teu")
    assert (
        explained["text"].startswith("- **teu** (integer): ")
        and catalog["objects"]["shipments"]["fields"]["teu"]["description"] in explained["text"]
    )


async def _data_tools(client: Client, gold: duckdb.DuckDBPyConnection) -> None:
    held = await _call(
        client,
        "search",
        index="shipments",
        query_dsl={"query": {"term": {"status": "held"}}},
        size=3,
    )
    [(count,)] = gold.execute("select count(*) from shipments where status = 'held'").fetchall()
    assert held["hits"]["total"]["value"] == count and len(held["hits"]["hits"]) == 3
    assert {h["_source"]["status"] for h in held["hits"]["hits"]} == {"held"}
    body = {"aggs": {"carriers": {"terms": {"field": "carrier_name", "size": 3}}}}
    top = await _call(client, "aggregate", index="shipments", query_dsl=body)
    wanted = gold.execute(
        "select carrier_name, count(*) from shipments group by 1 order by 2 desc limit 3"
    ).fetchall()
    assert [
        (b["key"], b["doc_count"]) for b in top["aggregations"]["carriers"]["buckets"]
    ] == wanted
    assert top["total"] == 50_000
    [(name, imo, built)] = gold.execute(
        "select vessel_name, vessel_imo, built_year from vessels order by 1 limit 1"
    ).fetchall()
    vessel = await _call(client, "lookup_object", object="vessels", id=name)
    assert vessel["fields"]["vessel_imo"] == imo and vessel["fields"]["built_year"] == built


async def _errors(client: Client) -> None:
    script = {"query": {"match_all": {}}, "script_fields": {"x": {"script": "1"}}}
    assert (await _error(client, "search", index="shipments", query_dsl=script)).endswith(
        "'script_fields' is not allowed: Bosun's queries are read-only and run no scripts"
    )
    assert "'secrets' is not in the catalog's allowlist" in await _error(
        client, "search", index="secrets", query_dsl={}
    )
    too_many = {"aggs": {"a": {"terms": {"field": "carrier_name", "size": 20_000}}}}
    assert "buckets; the cap is 10,000" in await _error(
        client, "aggregate", index="shipments", query_dsl=too_many
    )
    assert "No vessel “NO SUCH SHIP” was found" in await _error(
        client, "lookup_object", object="vessels", id="NO SUCH SHIP"
    )
    assert "no field 'colour' in shipments" in await _error(client, "explain_field", name="colour")


async def _clarification(client: Client, gold: duckdb.DuckDBPyConnection) -> None:
    asked = await _call(client, "ask", question="Show shipments from Acme Corp to Houston")
    assert asked["status"] == "needs_clarification"
    assert asked["clarification"]["options"] == ["ACME CORP LLC", "ACME CORPORATION"]
    answer = await _call(client, "ask", question="2", thread_id=asked["thread_id"])
    [(count,)] = gold.execute(
        "select count(*) from shipments where shipper_name = 'ACME CORPORATION' and "
        "port_of_unlading = 'HOUSTON'"
    ).fetchall()
    assert answer["status"] == "done" and answer["thread_id"] == asked["thread_id"]
    assert answer["results"][0]["total"] == count


async def _resources_and_prompts(client: Client) -> None:
    catalog = json.loads((await client.read_resource("catalog://current")).contents[0].text)  # type: ignore[union-attr]
    assert catalog["record"] == "shipments"
    mapping = json.loads((await client.read_resource("index://shipments/mapping")).contents[0].text)  # type: ignore[union-attr]
    assert mapping["properties"]["teu"] == {"type": "integer"}
    glossary = json.loads((await client.read_resource("catalog://glossary")).contents[0].text)  # type: ignore[union-attr]
    assert glossary == catalog["glossary"]
    prompts = {
        p.name: [a.name for a in p.arguments or []] for p in (await client.list_prompts()).prompts
    }
    assert prompts == {
        "analyse_lane": ["origin", "destination"],
        "compare_carriers": ["first", "second"],
    }
    lane = await client.get_prompt(
        "analyse_lane", {"origin": "Shanghai", "destination": "Los Angeles"}
    )
    assert "from Shanghai to Los Angeles" in lane.messages[0].content.text  # type: ignore[union-attr]


def test_stdio(folder: Path, gold: duckdb.DuckDBPyConnection) -> None:
    server = StdioServerParameters(command=SERVE[0], args=SERVE[1:], env=_env(folder), cwd=folder)

    async def run() -> None:
        async with Client(server) as client:
            await _exercise(client, gold)

    anyio.run(run)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def http_server(folder: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """`bosun serve mcp --http` on a free port; the parameter is (host, token)."""
    host, token = request.param
    port = _free_port()
    env = _env(folder, **({"BOSUN_API_TOKEN": token} if token else {}))
    process = subprocess.Popen(
        [*SERVE, "--http", "--host", host, "--port", str(port)],
        env=env,
        cwd=folder,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for(port, process)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=30)


def _wait_for(port: int, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"nothing listens on port {port}")


@pytest.mark.parametrize("http_server", [("127.0.0.1", None)], indirect=True)
def test_streamable_http_on_loopback(http_server: str, gold: duckdb.DuckDBPyConnection) -> None:
    async def run() -> None:
        async with Client(http_server) as client:
            await _exercise(client, gold)

    anyio.run(run)


@pytest.mark.parametrize("http_server", [("0.0.0.0", "s3cret-token")], indirect=True)
def test_off_loopback_needs_the_bearer_token(http_server: str) -> None:
    hello = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    headers = {"Accept": "application/json, text/event-stream"}
    assert httpx.post(http_server, json=hello, headers=headers).status_code == 401
    wrong = {**headers, "Authorization": "Bearer not-it"}
    assert httpx.post(http_server, json=hello, headers=wrong).status_code == 401

    async def run() -> set[str]:
        authorized = httpx2.AsyncClient(headers={"Authorization": "Bearer s3cret-token"})
        async with (
            authorized,
            Client(streamable_http_client(http_server, http_client=authorized)) as client,
        ):
            return {t.name for t in (await client.list_tools()).tools}

    assert anyio.run(run) == TOOLS


def test_off_loopback_without_a_token_refuses_to_start(folder: Path) -> None:
    done = subprocess.run(
        [*SERVE, "--http", "--host", "0.0.0.0", "--port", str(_free_port())],
        env=_env(folder),
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == (
        "bosun: bad setting BOSUN_API_TOKEN: serving on 0.0.0.0, off loopback, needs a "
        "token that every request then bears (Authorization: Bearer …)"
    )


def test_help_does_not_load_the_sdk() -> None:
    probe = "import sys; from bosun.interfaces.cli.app import app; print('mcp' in sys.modules)"
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120
    )
    assert loaded.stdout.strip() == "False", loaded.stderr


def test_bosun_serve_answers_mcp_at_slash_mcp_beside_the_page(
    folder: Path, gold: duckdb.DuckDBPyConnection
) -> None:
    from tests.interfaces.serving import bosun_serve

    with bosun_serve(folder) as base:
        assert httpx.get(base + "/").status_code == 200

        async def run() -> None:
            async with Client(base + "/mcp") as client:
                assert {t.name for t in (await client.list_tools()).tools} == TOOLS
                answer = await _call(client, "ask", question="How many shipments arrived in 2025?")
                expected = gold.execute(
                    "select count(*) from shipments where year(arrival_date) = 2025"
                ).fetchone()
                assert expected is not None and answer["status"] == "done"
                assert answer["results"][0]["rows"][0][0] == expected[0]

        anyio.run(run)


def test_bosun_serve_off_loopback_asks_mcp_clients_for_the_token(folder: Path) -> None:
    from tests.interfaces.serving import bosun_serve

    with bosun_serve(folder, "--host", "0.0.0.0", BOSUN_API_TOKEN="s3cret-token") as base:
        hello = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        headers = {"Accept": "application/json, text/event-stream"}
        assert httpx.post(base + "/mcp", json=hello, headers=headers).status_code == 401

        async def run() -> set[str]:
            authorized = httpx2.AsyncClient(headers={"Authorization": "Bearer s3cret-token"})
            async with (
                authorized,
                Client(streamable_http_client(base + "/mcp", http_client=authorized)) as client,
            ):
                return {t.name for t in (await client.list_tools()).tools}

        assert anyio.run(run) == TOOLS
