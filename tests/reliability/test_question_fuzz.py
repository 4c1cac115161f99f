"""A question fuzz through the API and the command line: whatever the question, a reply a user can
read, no traceback, `--json` prints one JSON object, and the thread still answers a plain question
right afterwards.

CI asks 60 questions of the API and 6 of the CLI; `python3 dev.py fuzz` asks 2,000 and 200.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bosun.catalog import Catalog
from bosun.conversation.session import Session, open_session
from bosun.interfaces.api.app import create_app
from bosun.settings import Settings
from tests.reliability.conftest import bosun
from tests.reliability.question_fuzz import QUESTIONS, fuzz_questions
from tests.reliability.test_poisoned import NORMAL, _counted, _gold

PER_THREAD = 20
STATUSES = {"done", "failed", "clarify", "partial"}


@pytest.fixture
def session(data_dir: Path) -> Iterator[Session]:
    opened = open_session(Settings(data_dir=data_dir))
    yield opened
    opened.close()


def _readable(reply: Any) -> None:
    """An API reply a user can read: an answer with a known status, or an error detail on one
    line."""
    assert reply.status_code != 500, reply.text
    body = reply.json()
    if reply.status_code == 200:
        assert body["status"] in STATUSES and body["answer"], body
        assert "Traceback" not in body["answer"]
    else:
        assert reply.status_code in (400, 413, 422), reply.text
        detail = body["detail"]
        assert isinstance(detail, str) and "\n" not in detail and "Traceback" not in detail, detail


def test_fuzzed_questions_through_the_api_leave_every_thread_answering(
    session: Session, data_dir: Path, catalog: Catalog
) -> None:
    client = TestClient(create_app(session), raise_server_exceptions=False)
    questions = fuzz_questions(catalog, QUESTIONS, seed=QUESTIONS)
    gold = _gold(data_dir)
    for start in range(0, len(questions), PER_THREAD):
        thread = client.post("/threads").json()["thread_id"]
        for question in questions[start : start + PER_THREAD]:
            _readable(client.post(f"/threads/{thread}/turns", json={"question": question}))
        after = client.post(f"/threads/{thread}/turns", json={"question": NORMAL})
        assert after.status_code == 200 and _counted(after.json()) == gold, after.text


def test_fuzzed_questions_through_bosun_ask_json_print_one_json_object(
    data_dir: Path, catalog: Catalog
) -> None:
    questions = [q for q in fuzz_questions(catalog, QUESTIONS, seed=QUESTIONS + 1) if q.strip()][
        : QUESTIONS // 10
    ]
    for question in questions:
        done = bosun(data_dir, "ask", question.replace("\x00", ""), "--thread", "fuzz", "--json")
        assert "Traceback" not in done.stderr, (question, done.stderr)
        assert done.returncode in (0, 1), (question, done.returncode, done.stderr)
        answer = json.loads(done.stdout)  # the whole of stdout is one JSON object
        assert answer["status"] in STATUSES and answer["answer"], (question, answer)
    after = bosun(data_dir, "ask", NORMAL, "--thread", "fuzz", "--json")
    assert after.returncode == 0 and _counted(json.loads(after.stdout)) == _gold(data_dir)
