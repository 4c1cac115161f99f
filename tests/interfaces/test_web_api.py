"""What the page asks the API besides turns (issue #38): the export formats this install writes, and
the conversations of one origin, the page's or those the command line and MCP started."""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from bosun.conversation.session import Session, open_session
from bosun.interfaces.api.app import create_app
from bosun.interfaces.cli.app import app as cli
from bosun.settings import Settings
from tests.interfaces.serving import data_copy


@pytest.fixture
def folder(data_dir: Path, tmp_path: Path) -> Path:
    return data_copy(data_dir, tmp_path / "d")


@pytest.fixture
def session(folder: Path) -> Iterator[Session]:
    opened = open_session(Settings(data_dir=folder))
    yield opened
    opened.close()


@pytest.fixture
def client(session: Session) -> TestClient:
    return TestClient(create_app(session), raise_server_exceptions=False)


def test_the_exports_offered_are_those_this_install_writes(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import xlsxwriter  # noqa: F401 - the `xlsx` extra, part of the dev install

    assert client.get("/exports").json() == {"formats": ["csv", "xlsx"]}
    monkeypatch.setitem(sys.modules, "xlsxwriter", None)  # as on the plain install
    assert client.get("/exports").json() == {"formats": ["csv"]}


def _titles(client: TestClient, query: str = "") -> list[str]:
    response = client.get(f"/threads{query}")
    assert response.status_code == 200, response.text
    return [thread["title"] for thread in response.json()]


def test_threads_are_listed_by_where_they_started(
    client: TestClient, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    thread = client.post("/threads").json()["thread_id"]
    asked = client.post(f"/threads/{thread}/turns", json={"question": "top 3 carriers by TEU"})
    assert asked.status_code == 200
    monkeypatch.setenv("BOSUN_DATA_DIR", str(folder))
    said = CliRunner().invoke(cli, ["ask", "Monthly shipments in 2025"])
    assert said.exit_code == 0, said.output

    assert _titles(client, "?origin=api") == ["top 3 carriers by TEU"]
    assert _titles(client, "?origin=ask") == ["Monthly shipments in 2025"]
    assert sorted(_titles(client)) == ["Monthly shipments in 2025", "top 3 carriers by TEU"]
    # a follow-up from the page on the command line's thread leaves it where it started
    (cli_thread,) = client.get("/threads?origin=ask").json()
    client.post(f"/threads/{cli_thread['thread_id']}/turns", json={"question": "what about 2024?"})
    assert _titles(client, "?origin=ask") == ["Monthly shipments in 2025"]
    refused = client.get("/threads?origin=somewhere")
    assert refused.status_code == 400 and "origin" in refused.json()["detail"]


def test_a_thread_from_before_origins_were_kept_is_the_pages(
    client: TestClient, session: Session, folder: Path
) -> None:
    old = client.post("/threads").json()["thread_id"]
    client.post(f"/threads/{old}/turns", json={"question": "top 3 carriers by TEU"})
    with sqlite3.connect(session.context.settings.turns_path) as store:
        store.execute("DELETE FROM bosun_origins WHERE thread_id = ?", (old,))
    assert _titles(client, "?origin=api") == ["top 3 carriers by TEU"]
    assert _titles(client, "?origin=ask") == []
    client.delete(f"/threads/{old}")
    assert _titles(client) == []
