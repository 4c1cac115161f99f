"""A question longer than BOSUN_MAX_QUESTION_CHARS (1,000 by default) is refused in one line on
every entry, before it is read: the rules' reading grows faster than the words (`python -m
bosun.bench reading`), and a 4,000-character question cost 11-22 s of a server's CPU."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from starlette.testclient import TestClient

from bosun.conversation.session import Session, open_session
from bosun.conversation.store import sqlite_store
from bosun.interfaces.api.app import create_app
from bosun.interfaces.mcp.server import build_server
from bosun.settings import Settings
from tests.reliability.conftest import ROOT, bosun, python_path

LONG = ("How many shipments arrived in Houston in 2025 " * 22)[:1001]  # one past the default
SAID = "The question is 1,001 characters long; please ask in at most 1,000."


@pytest.fixture
def session(data_dir: Path) -> Iterator[Session]:
    opened = open_session(Settings(data_dir=data_dir))
    yield opened
    opened.close()


def test_the_default_limit_is_a_thousand_characters() -> None:
    assert Settings().max_question_chars == 1000


def test_bosun_ask_says_it_in_one_line_and_stores_nothing(data_dir: Path) -> None:
    done = bosun(data_dir, "ask", LONG, "--thread", "long")
    assert (done.returncode, done.stdout.strip()) == (1, SAID), done.stderr
    answer = json.loads(bosun(data_dir, "ask", LONG, "--thread", "long", "--json").stdout)
    assert (answer["status"], answer["answer"], answer["trace"]["rounds"]) == ("failed", SAID, 0)
    assert _stored(data_dir, "long") == []


def test_bosun_chat_says_it_in_one_line_and_goes_on(data_dir: Path) -> None:
    env = {**os.environ, "BOSUN_DATA_DIR": str(data_dir), "PYTHONPATH": python_path()}
    done = subprocess.run(
        [sys.executable, "-m", "bosun.interfaces.cli", "chat", "--thread", "chat"],
        input=f"{LONG}\n/quit\n",
        capture_output=True,
        text=True,
        env={**env, "COLUMNS": "200"},
        cwd=ROOT,
        timeout=180,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    # after the prompt, as stdin is not echoed
    assert f"you> {SAID}" in [line.strip() for line in done.stdout.splitlines()]
    assert _stored(data_dir, "chat") == []


def test_the_api_refuses_it_with_a_413_before_the_turn(session: Session) -> None:
    client = TestClient(create_app(session))
    thread = client.post("/threads").json()["thread_id"]
    refused = client.post(f"/threads/{thread}/turns", json={"question": LONG})
    assert (refused.status_code, refused.json()) == (
        413,
        {
            "error": "question_too_long",
            "detail": "a question may be 1000 characters long; this is 1001",
        },
    )
    assert client.get(f"/threads/{thread}").json()["turns"] == []


async def _mcp(session: Session, tool: str, arguments: dict[str, Any]) -> Any:
    async with Client(build_server(session)) as client:
        return await client.call_tool(tool, arguments)


def test_mcp_ask_answers_it_in_one_line_and_resolve_name_refuses_it(session: Session) -> None:
    asked = anyio.run(_mcp, session, "ask", {"question": LONG, "thread_id": "mcp"})
    assert not asked.is_error
    answer = asked.structured_content
    assert (answer["status"], answer["answer"], answer["trace"]["rounds"]) == ("failed", SAID, 0)
    assert session.store.answers("mcp") == []
    resolved = anyio.run(_mcp, session, "resolve_name", {"text": LONG})
    assert resolved.is_error
    assert resolved.content[0].text == (
        "Error executing tool resolve_name: text: at most 1,000 characters are read; this is 1,001"
    )


def _stored(data_dir: Path, thread: str) -> list[dict[str, Any]]:
    """The answers stored on the thread, if the store exists at all."""
    path = data_dir / "conversations.sqlite"
    if not path.exists():
        return []
    store = sqlite_store(path)
    try:
        return store.answers(thread)
    finally:
        store.close()
