"""BOSUN_ENGINE_AUTH=caller: each caller sees only their own names and threads (issue #39 item 3).

osmem-server behind the document-level-security proxy (`dlsproxy`): ALPHA reads one carrier's
shipments and only the Chinese companies, BRAVO another carrier's shipments and no company at all
(the cluster denies BRAVO the `companies` index). One `bosun serve` in caller mode, with an
administrators' token, is driven by both callers and an administrator: names they resolve, the
questions asked back, the threads they list and read over the API and MCP, and the records they
page.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from osmem_server import OsmemServer

from bosun.catalog import load_catalog
from bosun.datagen.load import build
from bosun.engines.remote import RemoteEngine
from tests.interfaces.serving import bosun_serve
from tests.reliability.dlsproxy import Proxy, secured

SERVICE, ALPHA, BRAVO = "ServiceKey9f2K", "CallerKeyAlpha4t7W", "CallerKeyBravo8q3N"
BOSUN_TOKEN, ADMIN_TOKEN = "BosunToken6y2P", "AdminToken3m8V"
ACMES = {"ACME CORP LLC", "ACME CORPORATION", "ACME CO"}  # the companies "ACME" names
CHINESE = {"term": {"country": "CN"}}  # the companies ALPHA may read: ACME CORP LLC of the three
FROM_ACME = "How many shipments from ACME?"


@dataclass
class Cluster:
    proxy: Proxy
    carriers: dict[str, str]  # key → the one carrier whose shipments it reads
    counts: dict[str, int]  # key → how many shipments it reads


@dataclass
class Served:
    """What the caller-mode server answered each caller and the administrator."""

    resolved: dict[str, set[str]] = field(default_factory=dict)  # key → names "ACME" resolves to
    asked: dict[str, dict[str, Any]] = field(default_factory=dict)  # key → its answer to FROM_ACME
    threads: dict[str, str] = field(default_factory=dict)  # key → the thread it asked on
    listed: dict[str, set[str]] = field(default_factory=dict)  # key or "admin" → threads listed
    others: dict[str, int] = field(default_factory=dict)  # BRAVO's calls on ALPHA's thread → status
    mcp_others: dict[str, str] = field(default_factory=dict)  # MCP tool → its error
    admin_reads: int = 0  # the status of the administrator's read of BRAVO's thread
    paged: list[str] = field(default_factory=list)  # the carriers of ALPHA's pages of records
    pit_keys: set[str] = field(default_factory=set)  # the keys points in time were opened with


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with OsmemServer.start(japanese=False) as server:
        engine = RemoteEngine("opensearch", server.url, timeout_s=60)
        build(engine, load_catalog(), 1_500, 42, date(2026, 6, 15))
        top = {"size": 0, "aggs": {"c": {"terms": {"field": "carrier_name", "size": 2}}}}
        buckets = engine.search("shipments", top)["aggregations"]["c"]["buckets"]
        carriers = {ALPHA: buckets[0]["key"], BRAVO: buckets[1]["key"]}
        keys: dict[str, dict[str, Any] | None] = {SERVICE: None}
        keys |= {key: {"term": {"carrier_name": name}} for key, name in carriers.items()}
        with secured(
            server.url,
            keys,
            "shipments",
            filters={(ALPHA, "companies"): CHINESE},
            forbidden={BRAVO: frozenset({"companies"})},
        ) as proxy:
            counts = {key: b["doc_count"] for key, b in zip(carriers, buckets, strict=True)}
            yield Cluster(proxy, carriers, counts)
        engine.close()


def _headers(key: str, bearer: str = BOSUN_TOKEN) -> dict[str, str]:
    return {"Authorization": f"Bearer {bearer}", "X-Bosun-Engine-Authorization": f"ApiKey {key}"}


async def _mcp(base: str, headers: dict[str, str], tool: str, arguments: dict[str, Any]) -> Any:
    client = httpx2.AsyncClient(headers=headers, timeout=120)
    async with client, Client(streamable_http_client(base + "/mcp", http_client=client)) as mcp:
        return await mcp.call_tool(tool, arguments)


@pytest.fixture(scope="module")
def served(cluster: Cluster, tmp_path_factory: pytest.TempPathFactory) -> Served:
    environment = {
        "BOSUN_ENGINE": "opensearch",
        "BOSUN_ENGINE_URL": cluster.proxy.url,
        "BOSUN_ENGINE_API_KEY": SERVICE,
        "BOSUN_ENGINE_AUTH": "caller",
        "BOSUN_QUERY_TIMEOUT_S": "30",
        "BOSUN_API_TOKEN": BOSUN_TOKEN,
        "BOSUN_ADMIN_TOKEN": ADMIN_TOKEN,
    }
    found = Served()
    with bosun_serve(tmp_path_factory.mktemp("isolation"), **environment) as base:
        for key in (ALPHA, BRAVO):
            resolved = anyio.run(_mcp, base, _headers(key), "resolve_name", {"text": "ACME"})
            found.resolved[key] = {c["value"] for c in resolved.structured_content["candidates"]}
            thread = httpx.post(f"{base}/threads", headers=_headers(key)).json()["thread_id"]
            turn = {"question": FROM_ACME}
            asked = httpx.post(
                f"{base}/threads/{thread}/turns", json=turn, headers=_headers(key), timeout=120
            )
            found.asked[key], found.threads[key] = asked.json(), thread
        _trespass(base, found)
        _page(base, found, cluster)
    return found


def _trespass(base: str, found: Served) -> None:
    """BRAVO's every call on ALPHA's thread, and what each of them and the administrator lists."""
    mine, theirs = _headers(BRAVO), f"{base}/threads/{found.threads[ALPHA]}"
    turn = {"question": "and in 2025?"}
    calls = {
        "read": httpx.get(theirs, headers=mine),
        "ask": httpx.post(f"{theirs}/turns", json=turn, headers=mine, timeout=120),
        "stream": httpx.post(
            f"{theirs}/turns",
            json=turn,
            headers={**mine, "Accept": "text/event-stream"},
            timeout=120,
        ),
        "rename": httpx.patch(theirs, json={"title": "mine now"}, headers=mine),
        "marks": httpx.get(f"{theirs}/marks", headers=mine),
        "mark": httpx.post(f"{theirs}/turns/1/mark", json={"right": False}, headers=mine),
        "delete": httpx.delete(theirs, headers=mine),
    }
    found.others = {name: response.status_code for name, response in calls.items()}
    thread = {"thread_id": found.threads[ALPHA]}
    for tool, arguments in (
        ("ask", {**turn, **thread}),
        ("mark_answer", {**thread, "right": True}),
    ):
        result = anyio.run(_mcp, base, mine, tool, arguments)
        assert result.is_error, result.structured_content
        found.mcp_others[tool] = result.content[0].text
    for key in (ALPHA, BRAVO):
        found.listed[key] = {
            t["thread_id"] for t in httpx.get(f"{base}/threads", headers=_headers(key)).json()
        }
    admin = _headers(BRAVO, ADMIN_TOKEN)
    found.listed["admin"] = {
        t["thread_id"] for t in httpx.get(f"{base}/threads", headers=admin).json()
    }
    found.admin_reads = httpx.get(
        f"{base}/threads/{found.threads[BRAVO]}", headers=admin
    ).status_code


def _page(base: str, found: Served, cluster: Cluster) -> None:
    """ALPHA pages every shipment, 100 at a time, by cursor."""
    start = len(cluster.proxy.seen)
    asked: dict[str, Any] = {
        "query": {"query": {"match_all": {}}, "sort": [{"arrival_date": "desc"}]},
        "columns": ["carrier_name"],
        "limit": 100,
    }
    while True:
        page = httpx.post(f"{base}/records", json=asked, headers=_headers(ALPHA), timeout=60)
        assert page.status_code == 200, page.text
        found.paged += [row[0] for row in page.json()["rows"]]
        if page.json()["cursor"] is None:
            break
        asked["cursor"] = page.json()["cursor"]
    with cluster.proxy.lock:
        seen = cluster.proxy.seen[start:]
    found.pit_keys = {key for key, path in seen if "point_in_time" in path}


def test_a_caller_resolves_only_the_names_the_cluster_lets_them_read(served: Served) -> None:
    assert served.resolved == {ALPHA: {"ACME CORP LLC"}, BRAVO: set()}


def test_no_question_back_offers_a_name_the_caller_may_not_read(served: Served) -> None:
    alpha, bravo = served.asked[ALPHA], served.asked[BRAVO]
    assert alpha["status"] == "done" and alpha["clarification"] is None, alpha["answer"]
    assert _named(alpha) == {"ACME CORP LLC"}
    assert bravo["clarification"] is None and bravo["status"] != "done", bravo["answer"]
    assert _named(bravo) == set()


def _named(answer: dict[str, Any]) -> set[str]:
    """The companies "ACME" may name that the answer names anywhere (its text, reading, query)."""
    text = json.dumps(answer)
    return {name for name in ACMES if re.search(rf"\b{re.escape(name)}\b", text)}


def test_another_callers_thread_is_no_thread_on_every_route(served: Served) -> None:
    assert served.others == {
        "read": 404,
        "ask": 404,
        "stream": 404,
        "rename": 404,
        "marks": 404,
        "mark": 404,
        "delete": 404,
    }
    thread = served.threads[ALPHA]
    assert served.mcp_others == {
        "ask": f"Error executing tool ask: no thread {thread!r}",
        "mark_answer": f"Error executing tool mark_answer: no thread {thread!r}",
    }


def test_each_caller_lists_their_own_threads_and_an_administrator_every_one(
    served: Served,
) -> None:
    assert served.listed == {
        ALPHA: {served.threads[ALPHA]},
        BRAVO: {served.threads[BRAVO]},
        "admin": {served.threads[ALPHA], served.threads[BRAVO]},
    }
    assert served.admin_reads == 200


def test_a_callers_pages_of_records_hold_their_records_in_their_point_in_time(
    cluster: Cluster, served: Served
) -> None:
    assert len(served.paged) == cluster.counts[ALPHA]
    assert set(served.paged) == {cluster.carriers[ALPHA]}
    assert served.pit_keys == {ALPHA}
