"""A question that fails never breaks its thread: the turn is stored as failed and the next one is
answered.

Only a turn whose process died is run again; a turn that raised is finished as failed, through the
session, the CLI, the API and MCP alike.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import duckdb
import pytest
from fastapi.testclient import TestClient
from mcp import Client

from bosun.conversation.session import Session, open_session
from bosun.interfaces.api.app import create_app
from bosun.interfaces.mcp.server import build_server
from bosun.planner.answer import Answer
from bosun.planner.events import TurnEvent
from bosun.settings import Settings
from tests.reliability.conftest import bosun

NORMAL = "How many shipments arrived in Houston in 2025?"
GOLD = (
    "SELECT count(*) FROM shipments WHERE port_of_unlading = 'HOUSTON' "
    "AND arrival_date BETWEEN '2025-01-01' AND '2025-12-31'"
)
# Each question raised out of the turn (a ValueError, an OverflowError) and was run again before
# every later one.
POISONED = {
    "How many shipments arrived on "
    "2025-02-30?": "“on 2025-02-30” is not a date (day is out of range for month)",
    "How many shipments arrived on "
    "2025-13-01?": "“on 2025-13-01” is not a date (month must be in 1..12)",
    "How many shipments in the last 99999999999 "
    "days?": "“in the last 99999999999 days” reaches past the calendar (years 1 to 9999)",
}


def _gold(data_dir: Path) -> int:
    with duckdb.connect(str(data_dir / "bosun.duckdb"), read_only=True) as conn:
        found = conn.execute(GOLD).fetchone()
    assert found is not None
    return int(found[0])


def _stored(data_dir: Path, thread: str) -> list[tuple[str, str]]:
    """(question, status) of each stored turn, and nothing left running on the thread."""
    with sqlite3.connect(data_dir / "conversations.sqlite") as conn:
        rows = conn.execute(
            "SELECT summary FROM bosun_turns WHERE thread_id = ? ORDER BY turn_id", (thread,)
        )
        turns = [json.loads(summary) for (summary,) in rows.fetchall()]
        running = conn.execute(
            "SELECT question FROM bosun_running WHERE thread_id = ?", (thread,)
        ).fetchall()
    assert running == []
    return [(str(t["human_message"]), str(t["status"])) for t in turns]


def _counted(answer: dict[str, Any]) -> int:
    assert answer["status"] == "done", answer["answer"]
    (result,) = answer["results"]
    return int(result["rows"][0][0]) if result["rows"] else int(result["total"])


@pytest.fixture
def session(data_dir: Path) -> Iterator[Session]:
    opened = open_session(Settings(data_dir=data_dir))
    yield opened
    opened.close()


@pytest.mark.parametrize("question", list(POISONED))
def test_a_poisoned_question_is_said_stored_failed_and_the_thread_goes_on(
    session: Session, data_dir: Path, question: str
) -> None:
    failed = session.ask(question, "t")
    assert failed.status == "failed" and failed.results == []
    assert failed.answer == f"I could not complete “{question}”: {POISONED[question]}"
    items = list(session.stream(NORMAL, "t"))
    # nothing run again
    assert not [i for i in items if isinstance(i, TurnEvent) and i.kind == "resumed"]
    answer = items[-1]
    assert isinstance(answer, Answer)
    assert _counted(answer.model_dump(mode="json")) == _gold(data_dir)
    assert _stored(data_dir, "t") == [(question, "failed"), (NORMAL, "done")]


def test_an_absurd_top_n_is_bounded_and_said(session: Session) -> None:
    answer = session.ask("Top 100000000000000000000000 carriers", "n")
    assert answer.status == "done"
    assert (
        "the top 10,000 at most, the most one answer lists (not 100000000000000000000000)"
        in answer.assumptions
    )
    (result,) = answer.results
    assert 1 < len(result.rows) < 10_000 and result.query["aggs"]["g"]["terms"]["size"] == 10_000
    assert session.ask(NORMAL, "n").status == "done"


def test_a_poisoned_turn_left_running_is_tried_once_then_stored_failed(
    session: Session, data_dir: Path
) -> None:
    """A thread poisoned before this fix (or a process killed during a turn that then fails) is run
    again once: its failure is stored, and the question asked is answered."""
    poisoned = next(iter(POISONED))
    session.store.begin("old", poisoned)  # what a process that died mid-turn leaves
    items = list(session.stream(NORMAL, "old"))
    said = [i for i in items if isinstance(i, TurnEvent) and i.kind == "resumed"]
    assert [e.status for e in said] == [None, "failed"] and POISONED[poisoned] in str(
        said[1].message
    )
    assert isinstance(items[-1], Answer) and _counted(items[-1].model_dump(mode="json")) == _gold(
        data_dir
    )
    assert _stored(data_dir, "old") == [(poisoned, "failed"), (NORMAL, "done")]
    again = list(session.stream(NORMAL, "old"))
    assert not [i for i in again if isinstance(i, TurnEvent) and i.kind == "resumed"]


def test_bosun_ask_on_a_poisoned_thread(data_dir: Path) -> None:
    question = next(iter(POISONED))
    first = bosun(data_dir, "ask", question, "--thread", "cli", "--json")
    assert first.returncode == 1 and "Traceback" not in first.stderr
    assert (
        json.loads(first.stdout)["answer"]
        == f"I could not complete “{question}”: {POISONED[question]}"
    )
    second = bosun(data_dir, "ask", NORMAL, "--thread", "cli", "--json")
    assert second.returncode == 0, second.stderr
    # stdout is the one answer, nothing resumed
    assert _counted(json.loads(second.stdout)) == _gold(data_dir)
    assert _stored(data_dir, "cli") == [(question, "failed"), (NORMAL, "done")]


def test_ask_json_prints_the_answer_alone_when_a_turn_is_resumed(data_dir: Path) -> None:
    """The note that an interrupted turn was run again goes to stderr: stdout is one JSON object."""
    session = open_session(Settings(data_dir=data_dir))
    session.store.begin("killed", NORMAL)  # what a process that died mid-turn leaves
    session.close()
    done = bosun(data_dir, "ask", NORMAL, "--thread", "killed", "--json")
    assert done.returncode == 0 and _counted(json.loads(done.stdout)) == _gold(data_dir)
    assert "running the interrupted turn" in done.stderr and "Traceback" not in done.stderr
    assert _stored(data_dir, "killed") == [(NORMAL, "done"), (NORMAL, "done")]


@pytest.mark.parametrize(
    "question",
    ["\ud800", "How many shipments arrived in Houston in 2025\udfff?", "\udc00\ud800 carriers?"],
)
def test_a_lone_surrogate_in_a_question(session: Session, data_dir: Path, question: str) -> None:
    """JSON may carry lone surrogates, which are not text: the API refuses the body in one line; a
    caller of the session (MCP, Python) has each read as U+FFFD, and the turn answered or said not
    understood, and stored."""
    client = TestClient(create_app(session), raise_server_exceptions=False)
    thread = client.post("/threads").json()["thread_id"]
    body = json.dumps({"question": question})  # the escapes as a client sends them: "\ud800"
    turn = client.post(
        f"/threads/{thread}/turns", content=body, headers={"content-type": "application/json"}
    )
    assert turn.status_code == 400 and turn.json()["detail"].startswith("question: ")
    answer = session.ask(question, thread)
    assert answer.status in ("done", "failed") and answer.answer
    assert answer.question == "".join(
        "\ufffd" if "\ud800" <= c <= "\udfff" else c for c in question
    )
    assert _stored(data_dir, thread) == [(answer.question, answer.status)]


@pytest.mark.parametrize("name", ["_", "__"])
def test_an_underscore_for_a_name_is_said_not_understood(
    session: Session, data_dir: Path, name: str
) -> None:
    """ "_" is a word character, not punctuation: read silently, the answer was the count of every
    shipment."""
    answer = session.ask(f"How many shipments arrived in Houston in 2025 for {name}?", "u")
    assert answer.status == "done" and answer.answer.startswith(f"I did not understand “{name}”")
    # the rest of the question, answered
    assert _counted(answer.model_dump(mode="json")) == _gold(data_dir)


def test_the_api_on_a_poisoned_thread(session: Session, data_dir: Path) -> None:
    client = TestClient(create_app(session), raise_server_exceptions=False)
    thread = client.post("/threads").json()["thread_id"]
    question = list(POISONED)[1]
    first = client.post(f"/threads/{thread}/turns", json={"question": question})
    assert first.status_code == 200 and first.json()["status"] == "failed"
    assert POISONED[question] in first.json()["answer"]
    second = client.post(f"/threads/{thread}/turns", json={"question": NORMAL})
    assert second.status_code == 200 and _counted(second.json()) == _gold(data_dir)
    kept = client.get(f"/threads/{thread}").json()
    assert [t["answer"]["status"] for t in kept["turns"]] == ["failed", "done"]
    assert _stored(data_dir, thread) == [(question, "failed"), (NORMAL, "done")]


def test_mcp_ask_on_a_poisoned_thread(session: Session, data_dir: Path) -> None:
    question = list(POISONED)[2]

    async def run() -> list[dict[str, Any]]:
        async with Client(build_server(session)) as client:
            found = []
            for asked in (question, NORMAL):
                result = await client.call_tool("ask", {"question": asked, "thread_id": "mcp"})
                assert not result.is_error, result.content
                found.append(result.structured_content or {})
            return found

    failed, answered = anyio.run(run)
    assert failed["status"] == "failed" and POISONED[question] in failed["answer"]
    assert _counted(answered) == _gold(data_dir)
    assert _stored(data_dir, "mcp") == [(question, "failed"), (NORMAL, "done")]
