"""BOSUN_ENGINE_AUTH=caller: the API and MCP over HTTP query the cluster with each caller's own key.

The cluster is osmem-server behind a proxy with document-level security (`dlsproxy`): two callers'
keys each see one carrier's shipments, the service key sees all. One `bosun serve` in caller mode is
driven the way clients would (concurrent turns, MCP, no key, a refused key), then stopped, and its
data directory and log are searched for the keys.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from osmem_server import OsmemServer

from bosun.catalog import load_catalog
from bosun.datagen.load import build
from bosun.engines.caller import as_caller, credential
from bosun.engines.remote import RemoteEngine, run_as_callers
from bosun.errors import SettingsError, Unauthorized
from bosun.settings import load_settings
from tests.interfaces.serving import bosun_serve
from tests.reliability.conftest import ROOT, bosun, python_path
from tests.reliability.dlsproxy import Proxy, secured

SERVICE, ALPHA, BRAVO = "ServiceKey5m2P", "CallerKeyAlpha7x9Q", "CallerKeyBravo3k8Z"
OTHER = "CallerKeyOther2v6L"  # a key the cluster knows that may not read the shipments
UNKNOWN = "NotAKeyOfTheCluster1"
BOSUN_TOKEN = "BosunToken4w1R"
COUNT, BY_CARRIER = "How many shipments?", "How many shipments by carrier?"


@dataclass
class Cluster:
    proxy: Proxy
    total: int
    carriers: dict[str, str]  # key → the one carrier its filter lets it see
    counts: dict[str, int]  # key → how many shipments it sees
    alphas: str  # the bill of lading of a shipment only ALPHA may see


@dataclass
class Served:
    """What one caller-mode `bosun serve` answered, and what it left behind once stopped."""

    # key → its answers to COUNT, BY_CARRIER
    answers: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    mcp: dict[str, dict[str, Any]] = field(default_factory=dict)  # key → the MCP ask answer
    # key → its GraphQL lookup of ALPHA's shipment
    graphql: dict[str, Any] = field(default_factory=dict)
    # key → the carriers of its streamed CSV export
    csv: dict[str, list[str]] = field(default_factory=dict)
    refusals: dict[str, httpx.Response] = field(default_factory=dict)
    keys_seen: set[str] = field(default_factory=set)  # the keys the cluster saw once serving
    unasked: bool = False  # the refused requests reached no cluster
    folder: Path = Path()
    log: str = ""


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with OsmemServer.start(japanese=False) as server:
        engine = RemoteEngine("opensearch", server.url, timeout_s=60)
        build(engine, load_catalog(), 1_500, 42, date(2026, 6, 15))
        top = {"size": 0, "aggs": {"c": {"terms": {"field": "carrier_name", "size": 2}}}}
        buckets = engine.search("shipments", top)["aggregations"]["c"]["buckets"]
        carriers = {ALPHA: buckets[0]["key"], BRAVO: buckets[1]["key"]}
        keys: dict[str, dict[str, Any] | None] = {SERVICE: None, OTHER: None}
        keys |= {key: {"term": {"carrier_name": name}} for key, name in carriers.items()}
        one = {"size": 1, "query": {"term": {"carrier_name": carriers[ALPHA]}}}
        alphas = engine.search("shipments", one)["hits"]["hits"][0]["_source"]["bol_number"]
        with secured(server.url, keys, "shipments", frozenset({OTHER})) as proxy:
            yield Cluster(
                proxy,
                engine.count("shipments"),
                carriers,
                {key: b["doc_count"] for key, b in zip(carriers, buckets, strict=True)},
                alphas,
            )
        engine.close()


def _environment(cluster: Cluster) -> dict[str, str]:
    return {
        "BOSUN_ENGINE": "opensearch",
        "BOSUN_ENGINE_URL": cluster.proxy.url,
        "BOSUN_ENGINE_API_KEY": SERVICE,
        "BOSUN_ENGINE_AUTH": "caller",
        "BOSUN_QUERY_TIMEOUT_S": "30",
    }


def _headers(key: str | None) -> dict[str, str]:
    engine = {"X-Bosun-Engine-Authorization": f"ApiKey {key}"} if key else {}
    return {"Authorization": f"Bearer {BOSUN_TOKEN}", **engine}


@pytest.fixture(scope="module")
def served(cluster: Cluster, tmp_path_factory: pytest.TempPathFactory) -> Served:
    folder = tmp_path_factory.mktemp("caller-data")
    log = folder.parent / "serve.log"
    found = Served(folder=folder)
    with bosun_serve(folder, log=log, BOSUN_API_TOKEN=BOSUN_TOKEN, **_environment(cluster)) as base:
        start = len(cluster.proxy.seen)
        _concurrent_turns(base, found)
        found.mcp = {key: anyio.run(_mcp_ask, base, key) for key in (ALPHA, BRAVO)}
        lookup = {"query": f'{{ shipments(id: "{cluster.alphas}") {{ carrier_name }} }}'}
        found.graphql = {
            key: httpx.post(f"{base}/graphql", json=lookup, headers=_headers(key)).json()
            for key in (ALPHA, BRAVO)
        }
        every = {"query": {"query": {"match_all": {}}}, "columns": ["carrier_name"]}
        found.csv = {
            key: httpx.post(f"{base}/records.csv", json=every, headers=_headers(key)).text.split()[
                1:
            ]
            for key in (ALPHA, BRAVO)
        }
        found.keys_seen = cluster.proxy.keys_since(start)
        before = len(cluster.proxy.seen)
        _refused(base, found)
        # the unknown key is refused by the cluster: not seen
        found.unasked = len(cluster.proxy.seen) == before
        found.refusals["denied"] = _ask(base, OTHER)
    found.log = log.read_text()
    return found


def _concurrent_turns(base: str, found: Served) -> None:
    """Both callers ask both questions, twice, all at once, each on a thread of its own."""

    def ask(key: str, question: str, accept: str) -> tuple[str, dict[str, Any]]:
        thread = httpx.post(f"{base}/threads", headers=_headers(key)).json()["thread_id"]
        done = httpx.post(
            f"{base}/threads/{thread}/turns",
            json={"question": question},
            headers={**_headers(key), "Accept": accept},
            timeout=120,
        )
        assert done.status_code == 200, done.text
        if accept == "text/event-stream":  # the streamed turn's last event is its answer
            return key, json.loads(done.text.strip().rpartition("data: ")[2])
        return key, done.json()

    jobs = [
        (key, question, accept)
        for accept in ("application/json", "text/event-stream")
        for key in (ALPHA, BRAVO)
        for question in (COUNT, BY_CARRIER)
    ]
    with ThreadPoolExecutor(len(jobs)) as pool:
        for key, answer in pool.map(lambda job: ask(*job), jobs):
            found.answers.setdefault(key, []).append(answer)


async def _mcp_ask(base: str, key: str) -> dict[str, Any]:
    client = httpx2.AsyncClient(headers=_headers(key), timeout=120)
    async with client, Client(streamable_http_client(base + "/mcp", http_client=client)) as mcp:
        result = await mcp.call_tool("ask", {"question": COUNT})
        assert not result.is_error, result.content
        assert result.structured_content is not None
        return result.structured_content


def _refused(base: str, found: Served) -> None:
    thread = httpx.post(f"{base}/threads", headers=_headers(ALPHA)).json()["thread_id"]
    turn, question = f"{base}/threads/{thread}/turns", {"question": COUNT}
    found.refusals["missing"] = httpx.post(turn, json=question, headers=_headers(None))
    found.refusals["malformed"] = httpx.post(
        turn,
        json=question,
        headers={**_headers(None), "X-Bosun-Engine-Authorization": f"Basic {ALPHA}"},
    )
    # on a thread of the unknown key's own: another caller's thread is no thread of theirs (404)
    theirs = httpx.post(f"{base}/threads", headers=_headers(UNKNOWN)).json()["thread_id"]
    found.refusals["unknown"] = httpx.post(
        f"{base}/threads/{theirs}/turns",
        json=question,
        headers={**_headers(None), "X-Bosun-Engine-Authorization": f"ApiKey {UNKNOWN}"},
    )
    hello = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    found.refusals["mcp"] = httpx.post(
        base + "/mcp",
        json=hello,
        headers={**_headers(None), "Accept": "application/json, text/event-stream"},
    )


def _ask(base: str, key: str) -> httpx.Response:
    thread = httpx.post(f"{base}/threads", headers=_headers(key)).json()["thread_id"]
    return httpx.post(
        f"{base}/threads/{thread}/turns",
        json={"question": COUNT},
        headers=_headers(key),
        timeout=120,
    )


def _figure(answer: dict[str, Any]) -> Any:
    assert answer["status"] == "done", answer["answer"]
    return answer["results"][0]["rows"]


def test_two_callers_asking_at_once_each_get_their_own_figures(
    cluster: Cluster, served: Served
) -> None:
    assert (
        cluster.counts[ALPHA] != cluster.counts[BRAVO]
        or cluster.carriers[ALPHA] != cluster.carriers[BRAVO]
    )
    for key in (ALPHA, BRAVO):
        counts = [_figure(a) for a in served.answers[key] if a["question"] == COUNT]
        by_carrier = [_figure(a) for a in served.answers[key] if a["question"] == BY_CARRIER]
        assert counts == [[[cluster.counts[key]]]] * 2
        # no other carrier's row
        assert by_carrier == [[[cluster.carriers[key], cluster.counts[key]]]] * 2


def test_a_streamed_csv_export_holds_only_the_callers_records(
    cluster: Cluster, served: Served
) -> None:
    assert {key: (len(rows), set(rows)) for key, rows in served.csv.items()} == {
        key: (cluster.counts[key], {cluster.carriers[key]}) for key in (ALPHA, BRAVO)
    }


@pytest.mark.parametrize("kind", ["elasticsearch", "opensearch"])
def test_both_clients_send_the_callers_key_in_place_of_the_services(
    cluster: Cluster, kind: str
) -> None:
    engine = RemoteEngine(kind, cluster.proxy.url, api_key=SERVICE)
    with as_caller(credential(f"ApiKey {ALPHA}")):
        alpha = engine.count("shipments")
    with as_caller(credential(f"bearer {BRAVO}")):
        bravo = engine.search("shipments", {"size": 0, "track_total_hits": True})["hits"]["total"][
            "value"
        ]
    assert (alpha, bravo, engine.count("shipments")) == (
        cluster.counts[ALPHA],
        cluster.counts[BRAVO],
        cluster.total,
    )
    run_as_callers(engine)
    with pytest.raises(Unauthorized, match="send X-Bosun-Engine-Authorization"):
        engine.count("shipments")


def test_caller_credentials_need_a_cluster() -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings(engine="embedded", engine_auth="caller")
    assert str(caught.value) == (
        "bad setting BOSUN_ENGINE_AUTH: caller needs a cluster (BOSUN_ENGINE="
        "elasticsearch or opensearch); the embedded engine has no users of its own"
    )


def test_every_query_while_serving_ran_with_a_callers_key(served: Served) -> None:
    assert served.keys_seen == {ALPHA, BRAVO}  # never the service key, never none


def test_mcp_over_http_answers_each_caller_with_their_own_key(
    cluster: Cluster, served: Served
) -> None:
    assert {key: _figure(answer) for key, answer in served.mcp.items()} == {
        key: [[cluster.counts[key]]] for key in (ALPHA, BRAVO)
    }


@pytest.mark.parametrize("kind", ["missing", "malformed", "mcp"])
def test_a_request_without_credentials_is_refused_in_one_line(served: Served, kind: str) -> None:
    refused = served.refusals[kind]
    body = refused.json()
    assert refused.status_code == 401 and body["error"] == "unauthorized"
    assert "X-Bosun-Engine-Authorization" in body["detail"] and "\n" not in body["detail"]
    assert ALPHA not in refused.text
    assert served.unasked


def test_a_key_the_cluster_refuses_is_a_401_naming_the_cluster(
    cluster: Cluster, served: Served
) -> None:
    refused = served.refusals["unknown"]
    assert refused.status_code == 401
    assert refused.json() == {
        "error": "unauthorized",
        "detail": f"count shipments: {cluster.proxy.url} refused the credentials (HTTP 401)",
    }


def test_a_key_not_allowed_the_index_is_a_403_with_the_clusters_reason(
    cluster: Cluster, served: Served
) -> None:
    refused = served.refusals["denied"]
    assert refused.status_code == 403
    assert refused.json() == {
        "error": "forbidden",
        "detail": f"count shipments: {cluster.proxy.url} does not let "
        "these credentials do it (HTTP 403: action [indices:data/read/search] is unauthorized)",
    }


def test_graphql_looks_objects_up_as_the_caller(cluster: Cluster, served: Served) -> None:
    assert served.graphql == {
        ALPHA: {"data": {"shipments": {"carrier_name": cluster.carriers[ALPHA]}}},
        BRAVO: {"data": {"shipments": None}},
    }


def test_no_key_in_the_store_the_log_or_an_answer(served: Served) -> None:
    texts = {path.name: path.read_bytes() for path in served.folder.rglob("*") if path.is_file()}
    assert "conversations.sqlite" in texts and "checkpoints.sqlite" in texts
    answers = [*served.answers.values(), *served.mcp.values(), *served.graphql.values()]
    texts |= {"log": served.log.encode(), "answers": json.dumps(answers).encode()}
    for key in (SERVICE, ALPHA, BRAVO, OTHER, UNKNOWN):
        assert [name for name, text in texts.items() if key.encode() in text] == []


def test_the_cli_and_stdio_mcp_keep_the_service_credentials(
    cluster: Cluster, tmp_path: Path
) -> None:
    environment = _environment(cluster)
    start = len(cluster.proxy.seen)
    done = bosun(tmp_path, "ask", COUNT, "--json", env=environment)
    assert _figure(json.loads(done.stdout)) == [[cluster.total]], done.stderr

    async def stdio() -> Any:
        path = f"{ROOT / 'src'}{os.pathsep}{python_path()}"  # this tree, whatever the directory
        env = {**os.environ, "BOSUN_DATA_DIR": str(tmp_path), "PYTHONPATH": path, **environment}
        server = StdioServerParameters(
            command=sys.executable,
            args=["-m", "bosun.interfaces.cli", "serve", "mcp"],
            env=env,
            cwd=tmp_path,
        )
        async with Client(server) as client:
            return (await client.call_tool("ask", {"question": COUNT})).structured_content

    assert _figure(anyio.run(stdio)) == [[cluster.total]]
    assert cluster.proxy.keys_since(start) == {SERVICE}


def test_bosun_serve_mcp_over_http_asks_each_call_for_its_key(
    cluster: Cluster, tmp_path: Path
) -> None:
    from tests.engines.graphql_server import free_port
    from tests.interfaces.test_mcp import _wait_for

    port = free_port()
    env = {**os.environ, "BOSUN_DATA_DIR": str(tmp_path), **_environment(cluster)}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bosun.interfaces.cli",
            "serve",
            "mcp",
            "--http",
            "--port",
            str(port),
        ],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )

    async def ask(key: str | None) -> Any:
        client = httpx2.AsyncClient(headers=_headers(key) if key else {}, timeout=120)
        async with (
            client,
            Client(
                streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=client)
            ) as mcp,
        ):
            return await mcp.call_tool("ask", {"question": COUNT})

    try:
        _wait_for(port, server)
        answered, refused = anyio.run(ask, BRAVO), anyio.run(ask, None)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert answered.structured_content is not None and _figure(answered.structured_content) == [
        [cluster.counts[BRAVO]]
    ]
    assert refused.is_error and refused.content[0].text == (  # type: ignore[union-attr]
        "Error executing tool ask: this server queries the cluster with each caller's own "
        "credentials: send "
        "X-Bosun-Engine-Authorization: ApiKey <key> (or Bearer <token>)"
    )
