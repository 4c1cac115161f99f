"""The HTTP API in-process (FastAPI's TestClient): threads, turns as JSON and SSE, clarifications,
errors."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from bosun.conversation.session import open_session
from bosun.interfaces.api.app import create_app
from bosun.settings import Settings
from tests.engines.graphql_server import free_port, running
from tests.interfaces.serving import data_copy

COMPARE = "Compare Maersk vs Evergreen shipping volumes to LA last quarter"


def _client(settings: Settings, as_of: date | None = None) -> Iterator[TestClient]:
    session = open_session(settings, as_of)
    try:
        yield TestClient(create_app(session), raise_server_exceptions=False)
    finally:
        session.close()


@pytest.fixture
def settings(data_dir: Path, tmp_path: Path) -> Settings:
    return Settings(data_dir=data_copy(data_dir, tmp_path / "data"))


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    yield from _client(settings)


def _thread(client: TestClient) -> str:
    created = client.post("/threads")
    assert created.status_code == 201
    return str(created.json()["thread_id"])


def _events(client: TestClient, thread: str, question: str) -> list[tuple[str, Any]]:
    with client.stream(
        "POST",
        f"/threads/{thread}/turns",
        json={"question": question},
        headers={"Accept": "text/event-stream"},
    ) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        text = "".join(response.iter_text())
    frames = [f.split("\n", 1) for f in text.strip().split("\n\n")]
    return [
        (kind.removeprefix("event: "), json.loads(data.removeprefix("data: ")))
        for kind, data in frames
    ]


def test_turns_answer_with_charts_and_the_thread_keeps_them(client: TestClient) -> None:
    thread = _thread(client)
    first = client.post(f"/threads/{thread}/turns", json={"question": COMPARE}).json()
    assert first["status"] == "done" and first["thread_id"] == thread
    assert first["results"][0]["columns"] == ["carrier_name", "volume (TEU)"]
    assert first["results"][0]["chart"]["mark"]["type"] == "bar"
    second = client.post(
        f"/threads/{thread}/turns", json={"question": "what about Long Beach?"}
    ).json()
    assert second["status"] == "done" and "Long Beach" in second["results"][0]["title"]
    turns = client.get(f"/threads/{thread}").json()["turns"]
    assert [t["question"] for t in turns] == [COMPARE, "what about Long Beach?"]
    assert [t["answer"] for t in turns] == [first, second]
    assert client.get("/threads").json()[0] == {
        **client.get("/threads").json()[0],
        "thread_id": thread,
        "title": COMPARE,
    }


def test_a_turn_streams_its_rounds_and_inputrefs_then_the_answer(client: TestClient) -> None:
    events = _events(client, _thread(client), "Monthly shipments in 2025")
    kinds = [k for k, _ in events]
    assert kinds[:3] == ["goals", "round_started", "dispatched"] and kinds[-2:] == [
        "done",
        "answer",
    ]
    dispatched = {e["sub_goal_id"]: e for k, e in events if k == "dispatched"}
    finished = {e["sub_goal_id"]: e for k, e in events if k == "finished"}
    assert dispatched.keys() == finished.keys() and all(
        e["status"] == "success" for e in finished.values()
    )
    assert dispatched[1]["worker"] == "metadata_lookup" and dispatched[2]["inputs"] == {
        "analysis_result": 1
    }
    answer = events[-1][1]
    assert answer["status"] == "done" and answer["results"][0]["chart"]["mark"]["type"] == "line"
    assert len(answer["trace"]["sub_goals"]) == len(dispatched)


@pytest.mark.parametrize("mode", ["end_turn", "interrupt"])
def test_a_reply_to_a_question_back_is_the_next_turn(settings: Settings, mode: str) -> None:
    for client in _client(settings.model_copy(update={"clarification_mode": mode})):
        thread = _thread(client)
        events = _events(client, thread, "Show shipments from Acme Corp to Houston")
        asked = dict(events)["clarification"]
        assert asked["options"] == ["ACME CORP LLC", "ACME CORPORATION"]
        assert dict(events)["answer"]["status"] == "needs_clarification"
        reply = client.post(f"/threads/{thread}/turns", json={"question": "ACME CORP LLC"}).json()
        assert reply["status"] == "done"
        assert reply["results"][0]["title"] == "Show shipments from ACME CORP LLC to Houston"


def test_a_misspelt_name_of_another_kind_than_its_role_is_asked_back(client: TestClient) -> None:
    """Issue 34 item 2: "the ship Evergren" is most like the carrier EVERGREEN, a kind its role
    (ship) does not name: asked back with it and the closest vessel, never answered as the carrier;
    the reply picking one answers with it."""
    thread = _thread(client)
    question = "TEU on the ship Evergren into Long Beach"
    asked = client.post(f"/threads/{thread}/turns", json={"question": question}).json()
    assert asked["status"] == "needs_clarification" and asked["results"] == []
    assert asked["clarification"]["options"] == ["EVER GIVEN", "EVERGREEN"]
    reply = client.post(f"/threads/{thread}/turns", json={"question": "EVER GIVEN"}).json()
    assert reply["status"] == "done"
    assert reply["results"][0]["reading"] == (
        "total TEU · vessel EVER GIVEN · port of unlading LONG BEACH"
    )


def test_a_yes_takes_the_one_name_offered(client: TestClient) -> None:
    """ "the importer Maersc": no importer is like it, the carrier MAERSK is; asked "did you mean
    MAERSK?", a yes answers with the carrier."""
    thread = _thread(client)
    question = "TEU for the importer Maersc in 2025"
    asked = client.post(f"/threads/{thread}/turns", json={"question": question}).json()
    assert asked["status"] == "needs_clarification"
    assert asked["clarification"] == {
        "question": "“importer Maersc” is not a name the data holds as written. "
        "Did you mean MAERSK?",
        "options": ["MAERSK"],
    }
    reply = client.post(f"/threads/{thread}/turns", json={"question": "yes"}).json()
    assert reply["status"] == "done"
    assert reply["results"][0]["reading"] == "total TEU · carrier MAERSK · 2025 (arrival date)"


def test_errors_are_json_with_their_status(client: TestClient) -> None:
    thread = _thread(client)
    cases = [
        (client.get("/threads/nope"), 404, "unknown_thread"),
        (client.post("/threads/nope/turns", json={"question": "hi"}), 404, "unknown_thread"),
        (client.delete("/threads/nope"), 404, "unknown_thread"),
        (
            client.post(f"/threads/{thread}/turns", json={"question": "x" * 4001}),
            413,
            "question_too_long",
        ),
        (client.post(f"/threads/{thread}/turns", json={}), 400, "bad_request"),
        (client.post(f"/threads/{thread}/turns", json={"question": "  "}), 400, "bad_request"),
        (
            client.post(f"/threads/{thread}/turns", json={"question": "hi", "as_of": "June"}),
            400,
            "bad_request",
        ),
        (client.post(f"/threads/{thread}/turns", content=b"{not json"), 400, "bad_request"),
    ]
    for response, status, error in cases:
        assert (response.status_code, response.json()["error"]) == (status, error), response.text
        assert response.json()["detail"] and "Traceback" not in response.text
    assert client.delete(f"/threads/{thread}").status_code == 204
    assert client.get(f"/threads/{thread}").status_code == 404


def test_as_of_sets_today_for_one_turn(client: TestClient) -> None:
    thread = _thread(client)
    asked = {"question": "How many shipments arrived last month?", "as_of": "2026-03-10"}
    answer = client.post(f"/threads/{thread}/turns", json=asked).json()
    assert "2026-02-01" in json.dumps(answer["results"][0]["query"])


def test_catalog_health_docs_and_graphql(client: TestClient) -> None:
    catalog = client.get("/catalog").json()
    assert catalog["record"] == "shipments" and "teu" in catalog["objects"]["shipments"]["fields"]
    assert catalog["measures"]["volume"]["field"] == "teu" and catalog["glossary"]
    assert client.get("/health").json() == {
        "status": "ok",
        "engine": "embedded",
        "process": os.getpid(),
    }
    assert "/threads/{thread_id}/turns" in client.get("/openapi.json").json()["paths"]
    assert client.get("/docs").status_code == 200
    page = client.get("/")
    assert page.status_code == 200 and "/static/vendor/vega-embed.min.js" in page.text
    assert client.get("/static/vendor/vega-lite.min.js").status_code == 200
    found = client.post(
        "/graphql", json={"query": '{ vessels(id: "EVER GIVEN") { vessel_imo } }'}
    ).json()
    assert found == {"data": {"vessels": {"vessel_imo": "9549097"}}}


def test_an_engine_that_is_down_is_a_503(tmp_path: Path) -> None:
    down = Settings(
        data_dir=tmp_path,
        engine="opensearch",
        engine_url=f"http://127.0.0.1:{free_port()}",
        query_timeout_s=2,
    )
    for client in _client(down, as_of=date(2026, 6, 15)):
        health = client.get("/health")
        assert health.status_code == 503 and health.json()["error"] == "engine_unavailable"
        turn = client.post(f"/threads/{_thread(client)}/turns", json={"question": COMPARE})
        assert turn.status_code == 503 and "127.0.0.1" in turn.json()["detail"]


def test_two_clients_on_one_thread_keep_both_turns_in_order(settings: Settings) -> None:
    session = open_session(settings)
    questions = [
        "How many shipments arrived in Savannah last month?",
        "How many shipments arrived in Charleston?",
    ]
    answers: dict[str, Any] = {}
    with running(create_app(session)) as base:
        thread = httpx.post(f"{base}/threads").json()["thread_id"]

        def ask(question: str) -> None:
            answers[question] = httpx.post(
                f"{base}/threads/{thread}/turns", json={"question": question}, timeout=60
            ).json()

        clients = [threading.Thread(target=ask, args=(q,)) for q in questions]
        for c in clients:
            c.start()
        for c in clients:
            c.join()
        turns = httpx.get(f"{base}/threads/{thread}").json()["turns"]
    remembered = session.history(thread)
    session.close()
    assert [(t.turn_id, t.human_message) for t in remembered] == [
        (i, t["question"]) for i, t in enumerate(turns, 1)
    ]
    assert sorted(t["question"] for t in turns) == sorted(questions)
    assert [t["answer"] for t in turns] == [answers[t["question"]] for t in turns]
    assert all(a["status"] == "done" for a in answers.values())


def test_a_thread_renamed_keeps_its_name_and_a_deleted_one_is_gone(client: TestClient) -> None:
    thread = _thread(client)
    client.post(f"/threads/{thread}/turns", json={"question": "Monthly shipments in 2025"})
    assert client.patch(f"/threads/{thread}", json={"title": "2025 by month"}).status_code == 204
    listed = {t["thread_id"]: t["title"] for t in client.get("/threads").json()}
    assert listed[thread] == "2025 by month"
    assert client.patch(f"/threads/{thread}", json={"title": ""}).status_code == 400
    assert client.patch("/threads/nope", json={"title": "x"}).status_code == 404
    assert client.delete(f"/threads/{thread}").status_code == 204
    assert thread not in {t["thread_id"] for t in client.get("/threads").json()}
    assert client.get(f"/threads/{thread}").status_code == 404


def test_an_as_of_at_the_calendars_ends_is_refused_in_one_line(client: TestClient) -> None:
    """Year 1 or 9999 as today once gave a 500 (a period counted from it leaves the calendar)."""
    thread = _thread(client)
    for day in ("0001-01-01", "9999-12-31"):
        refused = client.post(
            f"/threads/{thread}/turns",
            json={"question": "How many shipments arrived last month?", "as_of": day},
        )
        detail = refused.json()["detail"]
        assert refused.status_code == 400 and detail.startswith("as_of: ") and "\n" not in detail, (
            detail
        )
