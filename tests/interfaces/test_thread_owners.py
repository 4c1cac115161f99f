"""Threads belong to whoever made them: a caller's are theirs alone (BOSUN_ENGINE_AUTH=caller), the
deployment's (made in service mode, or before threads had owners) everyone's in service mode and an
administrator's only in caller mode (interfaces.owners).

The API is driven in-process over the embedded engine with the caller mode's settings: what a
thread's owner decides is the same whichever engine answers (test_caller_isolation.py drives a
cluster), and here a store made before threads had owners can be laid down first.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from bosun.conversation.session import open_session
from bosun.interfaces.api.app import create_app
from bosun.settings import Settings
from tests.interfaces.serving import data_copy

ADMIN = "AdminToken5r1X"
OLD_SCHEMA = [
    "CREATE TABLE bosun_threads (thread_id TEXT PRIMARY KEY, created TEXT NOT NULL)",
    "CREATE TABLE bosun_turns (thread_id TEXT NOT NULL, turn_id INTEGER NOT NULL, summary TEXT "
    "NOT NULL, PRIMARY KEY (thread_id, turn_id))",
    "CREATE TABLE bosun_answers (thread_id TEXT NOT NULL, turn_id INTEGER NOT NULL, answer TEXT "
    "NOT NULL, PRIMARY KEY (thread_id, turn_id))",
    "INSERT INTO bosun_threads VALUES ('old', '2026-01-02T03:04:05+00:00')",
]


def _caller(key: str) -> dict[str, str]:
    return {"X-Bosun-Engine-Authorization": f"ApiKey {key}"}


def _admin(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {ADMIN}", **_caller(key)}


@pytest.fixture
def folder(data_dir: Path, tmp_path: Path) -> Path:
    """A data directory whose conversation store was made before threads had owners: one thread."""
    made = data_copy(data_dir, tmp_path / "d")
    with sqlite3.connect(made / "conversations.sqlite") as connection:
        for statement in OLD_SCHEMA:
            connection.execute(statement)
    return made


def _client(folder: Path, **settings: str) -> Iterator[TestClient]:
    session = open_session(Settings(data_dir=folder, admin_token=ADMIN, **settings))  # type: ignore[arg-type]
    try:
        yield TestClient(create_app(session))
    finally:
        session.close()


@pytest.fixture
def service(folder: Path) -> Iterator[TestClient]:
    yield from _client(folder)


@pytest.fixture
def callers(folder: Path) -> Iterator[TestClient]:
    yield from _client(folder, engine_auth="caller")


def _listed(client: TestClient, headers: dict[str, str]) -> list[str]:
    return [thread["thread_id"] for thread in client.get("/threads", headers=headers).json()]


def test_an_old_stores_threads_stay_the_deployments_in_service_mode(
    service: TestClient, folder: Path
) -> None:
    assert _listed(service, {}) == ["old"]
    assert service.get("/threads/old").json() == {"thread_id": "old", "turns": []}
    with sqlite3.connect(folder / "conversations.sqlite") as connection:
        columns = [row[1] for row in connection.execute("PRAGMA table_info(bosun_threads)")]
    assert columns == ["thread_id", "created", "owner"]


def test_in_caller_mode_each_caller_has_their_own_and_an_old_thread_is_an_administrators(
    callers: TestClient,
) -> None:
    alpha = callers.post("/threads", headers=_caller("alpha")).json()["thread_id"]
    bravo = callers.post("/threads", headers=_caller("bravo")).json()["thread_id"]
    assert _listed(callers, _caller("alpha")) == [alpha]
    assert _listed(callers, _caller("bravo")) == [bravo]
    assert sorted(_listed(callers, _admin("bravo"))) == sorted([alpha, bravo, "old"])
    statuses = {
        thread: [
            callers.get(f"/threads/{thread}", headers=headers).status_code
            for headers in (_caller("alpha"), _caller("bravo"), _admin("bravo"))
        ]
        for thread in (alpha, bravo, "old")
    }
    assert statuses == {alpha: [200, 404, 200], bravo: [404, 200, 200], "old": [404, 404, 200]}
    missing = callers.get("/threads/old", headers=_caller("alpha")).json()
    assert missing == {"error": "unknown_thread", "detail": "no thread 'old'"}


def test_a_caller_without_a_credential_is_refused_before_any_thread_is_read(
    callers: TestClient,
) -> None:
    refused = callers.get("/threads")
    assert refused.status_code == 401 and refused.json()["error"] == "unauthorized"


def test_a_wrong_administrators_token_makes_no_administrator(callers: TestClient) -> None:
    wrong = {"Authorization": "Bearer not-the-admin-token", **_caller("alpha")}
    assert _listed(callers, wrong) == []
