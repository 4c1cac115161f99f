"""The request's deadline (BOSUN_QUERY_TIMEOUT_S) covers the reply too: through MCP `aggregate`,
buckets × large top_hits took 49.7 s, most of it building and serialising the reply after the
query's own deadline had passed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from starlette.testclient import TestClient

from bosun.conversation.session import Session, open_session
from bosun.errors import QueryTimeout
from bosun.interfaces.api.app import create_app
from bosun.interfaces.deadline import Deadline
from bosun.interfaces.mcp.server import build_server
from bosun.settings import Settings

EVERY = {"range": {"teu": {"gte": 0}}}  # each bucket holds every shipment of the 2,000
BIG = {
    "aggs": {
        "f": {
            "filters": {"filters": {f"b{n}": EVERY for n in range(3)}},
            "aggs": {"t": {"top_hits": {"size": 2_000}}},
        }
    }
}


def _session(sample_dir: Path, folder: Path, seconds: float) -> Iterator[Session]:
    (folder / "bosun.duckdb").symlink_to(sample_dir / "bosun.duckdb")
    opened = open_session(Settings(data_dir=folder, query_timeout_s=seconds))
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def instant(sample_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    """A deadline no reply can meet on any machine (0.05 s was met on a fast one, or missed only by
    the query)."""
    yield from _session(sample_dir, tmp_path_factory.mktemp("instant"), 0.0001)


@pytest.fixture(scope="module")
def roomy(sample_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    yield from _session(sample_dir, tmp_path_factory.mktemp("roomy"), 120)


async def _aggregate(session: Session) -> Any:
    async with Client(build_server(session)) as client:
        return await client.call_tool("aggregate", {"index": "shipments", "query_dsl": BIG})


def test_a_reply_past_the_deadline_is_one_line_naming_the_limit(
    instant: Session, roomy: Session
) -> None:
    whole = anyio.run(_aggregate, roomy)
    assert not whole.is_error
    buckets = whole.structured_content["aggregations"]["f"]["buckets"]
    assert [len(b["t"]["hits"]["hits"]) for b in buckets.values()] == [2_000] * 3
    # the text is the same reply
    assert json.loads(whole.content[0].text) == whole.structured_content
    stopped = anyio.run(_aggregate, instant)
    assert stopped.is_error and stopped.structured_content is None
    message = stopped.content[0].text
    assert "\n" not in message and "0.0001 s" in message and "(BOSUN_QUERY_TIMEOUT_S)" in message, (
        message
    )


def test_building_the_reply_is_within_the_deadline(roomy: Session) -> None:
    found = roomy.context.engine.search("shipments", {**BIG, "size": 0})
    assert json.loads(Deadline(120).json(found)) == found
    with pytest.raises(
        QueryTimeout,
        match=r"^the request took longer than 0 s with its reply and was stopped "
        r"\(BOSUN_QUERY_TIMEOUT_S\); ask for fewer documents or buckets$",
    ):
        Deadline(0).json(found)


def test_the_api_records_page_is_within_the_deadline_too(instant: Session, roomy: Session) -> None:
    request = {"query": {"query": {"match_all": {}}}, "limit": 1_000}
    page = TestClient(create_app(roomy)).post("/records", json=request)
    assert page.status_code == 200 and len(page.json()["rows"]) == 1_000
    stopped = TestClient(create_app(instant)).post("/records", json=request)
    assert stopped.status_code == 503, stopped.text
    assert (
        "0.0001 s" in stopped.json()["detail"]
        and "(BOSUN_QUERY_TIMEOUT_S)" in stopped.json()["detail"]
    )
