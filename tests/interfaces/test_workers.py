"""`bosun serve --workers 2`: two processes on one socket serve one deployment, whichever answers a
request.

Every request goes on a connection of its own, as from many clients, so that either worker may
accept it; the worker that answered a turn is the one that answers `/health` next on the same
connection.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.interfaces.serving import bosun_serve, data_copy

pytestmark = pytest.mark.slow

MONTHS = ["January 2026", "March 2026", "December 2025"]  # one thread each, asked at once
PROTOCOL = "2025-06-18"
ROUNDS = 12  # at most: by far enough for a follow-up to land on the other worker than its question
ATTEMPTS = 40  # at most, for a request to land on each worker


@pytest.fixture(scope="module")
def served(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`bosun serve --workers 2` on the dev set's sample, with conversations of its own."""
    with bosun_serve(
        data_copy(data_dir, tmp_path_factory.mktemp("workers")), "--workers", "2"
    ) as base:
        yield base


def _asked(base: str, thread: str, question: str) -> tuple[dict[str, Any], int]:
    """The answer to `question` on `thread`, and the process id of the worker that gave it."""
    with httpx.Client(base_url=base, timeout=60) as connection:
        answer = connection.post(f"/threads/{thread}/turns", json={"question": question})
        assert answer.status_code == 200, answer.text
        return answer.json(), connection.get("/health").json()["process"]


def _thread(base: str) -> str:
    made: str = httpx.post(f"{base}/threads").json()["thread_id"]
    return made


def _total(answer: dict[str, Any]) -> Any:
    assert answer["status"] == "done" and answer["not_understood"] == [], answer["answer"]
    return answer["results"][0]["rows"][0][-1]


def _conversation(base: str, month: str) -> list[tuple[int, int, bool]]:
    """A question and its follow-up, again and again on one thread: (question's worker, follow-up's
    worker, whether the follow-up was read as the question about the other port)."""
    thread, alone = _thread(base), _thread(base)
    expected, _ = _asked(base, alone, f"How many shipments arrived in Charleston in {month}?")
    seen = []
    for _ in range(ROUNDS):
        _, first = _asked(base, thread, f"How many shipments arrived in Savannah in {month}?")
        follow_up, second = _asked(base, thread, "and in Charleston?")
        seen.append((first, second, _total(follow_up) == _total(expected)))
        if len({worker for pair in seen for worker in pair[:2]}) == 2 and any(
            a != b for a, b, _ in seen
        ):
            break
    return seen


def test_follow_ups_are_read_in_their_thread_whichever_worker_answers(served: str) -> None:
    with ThreadPoolExecutor(len(MONTHS)) as pool:
        conversations = list(pool.map(lambda month: _conversation(served, month), MONTHS))
    turns = [turn for conversation in conversations for turn in conversation]
    assert all(read for _, _, read in turns)
    assert len({worker for first, second, _ in turns for worker in (first, second)}) == 2
    # a follow-up read on the other worker
    assert any(first != second for first, second, _ in turns)


def test_a_word_taught_on_one_worker_is_read_on_both(served: str) -> None:
    question = "how many shipments to Gotham in 2025"
    plain = _total(_asked(served, _thread(served), "how many shipments to New York in 2025")[0])
    # each worker has read the taught words before the teaching
    unknown = _on_both(served, question)
    resolved_before = [_resolved(served, "Gotham") for _ in range(6)]
    taught = httpx.post(f"{served}/vocabulary", json={"word": "Gotham", "means": "New York"})
    assert taught.status_code == 201, taught.text
    read = _on_both(served, question)
    assert [a["status"] for a in unknown] == ["failed", "failed"]
    assert [_total(a) for a in read] == [plain, plain]
    assert resolved_before == [set()] * 6
    # MCP's resolve_name too
    assert [_resolved(served, "Gotham") for _ in range(6)] == [{"NEW YORK"}] * 6


def _resolved(base: str, name: str) -> set[str]:
    """The names MCP's resolve_name finds in `name`, called on a connection of its own."""
    call = {"name": "resolve_name", "arguments": {"text": name}}
    return {
        c["value"]
        for c in _result(_rpc(base, "tools/call", call, None))["structuredContent"]["candidates"]
    }


def _on_both(base: str, question: str) -> list[dict[str, Any]]:
    """The question asked on new threads until each worker has answered it: each one's first
    answer."""
    answers: dict[int, dict[str, Any]] = {}
    for _ in range(ATTEMPTS):
        answer, worker = _asked(base, _thread(base), question)
        answers.setdefault(worker, answer)
        if len(answers) == 2:
            break
    return list(answers.values())


def _rpc(base: str, method: str, params: dict[str, Any], session: str | None) -> httpx.Response:
    """One JSON-RPC request to /mcp on a connection of its own, in the session `session` when there
    is one."""
    headers = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": PROTOCOL}
    if session:
        headers["MCP-Session-Id"] = session
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    return httpx.post(f"{base}/mcp", json=body, headers=headers, timeout=60)


def _result(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code == 200, response.text
    data = next(line for line in response.text.splitlines() if line.startswith("data: "))
    result: dict[str, Any] = json.loads(data.removeprefix("data: "))["result"]
    return result


def test_mcp_calls_succeed_on_either_worker(served: str) -> None:
    """A client that does not start a new session when a call meets a worker that never saw its
    session."""
    hello = {
        "protocolVersion": PROTOCOL,
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    }
    opened = _rpc(served, "initialize", hello, None)
    session = opened.headers.get("mcp-session-id")
    assert _result(opened)["serverInfo"]["name"] == "bosun"
    calls = [("resolve_name", {"text": "Maersk"})] * 4 + [
        ("ask", {"question": "How many shipments in 2025?"})
    ] * 4
    results = [
        _result(_rpc(served, "tools/call", {"name": n, "arguments": a}, session)) for n, a in calls
    ]
    assert [r["isError"] for r in results] == [False] * 8
    names = {c["value"] for r in results[:4] for c in r["structuredContent"]["candidates"]}
    totals = {str(r["structuredContent"]["results"][0]["rows"]) for r in results[4:]}
    assert len(names) >= 1 and len(totals) == 1


def test_a_second_server_on_the_port_is_refused_not_let_share_it(
    served: str, data_dir: Path, tmp_path: Path
) -> None:
    """Its bind fails on the first server's socket, before any of its workers starts."""
    port = served.rsplit(":", 1)[1]
    command = [
        sys.executable,
        "-m",
        "bosun.interfaces.cli",
        "serve",
        "--workers",
        "2",
        "--port",
        port,
    ]
    env = {**os.environ, "BOSUN_DATA_DIR": str(data_copy(data_dir, tmp_path / "d"))}
    second = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert second.returncode != 0, second.stdout
    assert second.stderr.splitlines()[-1] == (
        f"bosun: cannot listen on 127.0.0.1:{port}: Address already in use; "
        "choose another --port or stop the server using it"
    )


def test_a_rogue_socket_cannot_join_the_port_and_takes_no_request(served: str) -> None:
    """Another process of the same user binding the port with SO_REUSEPORT is refused: the workers
    share the supervisor's one socket, which did not ask to share its port, so every request (a
    bearer token with it) reaches Bosun's workers and none a stranger."""
    port = int(served.rsplit(":", 1)[1])
    rogue = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    rogue.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        with pytest.raises(OSError) as refused:
            rogue.bind(("127.0.0.1", port))
            rogue.listen(64)
            rogue.settimeout(0.05)
            taken = _requests_taken(served, rogue, 40)
            pytest.fail(f"the rogue socket joined the port and took {taken} of 40 requests")
    finally:
        rogue.close()
    assert refused.value.errno == errno.EADDRINUSE
    answered = [httpx.get(f"{served}/health", timeout=30) for _ in range(40)]
    assert [response.status_code for response in answered] == [200] * 40


def _requests_taken(base: str, rogue: socket.socket, count: int) -> int:
    """How many of `count` requests, each on a connection of its own, the rogue socket accepted."""
    taken = 0
    for _ in range(count):
        with contextlib.suppress(httpx.HTTPError):  # a request the rogue took gets no answer
            httpx.get(f"{base}/health", timeout=0.5)
        try:
            connection, _ = rogue.accept()
        except TimeoutError:
            continue
        connection.close()
        taken += 1
    return taken


def test_a_worker_that_dies_is_started_again(served: str) -> None:
    """Last in the module: it kills one of the workers the other tests used."""
    workers = _workers(served, 2)
    os.kill(workers.pop(), signal.SIGKILL)
    # every request answered meanwhile, until a new worker answers too
    survivors = _workers(served, 2)
    assert workers < survivors and len(survivors) == 2


def _workers(base: str, count: int) -> set[int]:
    """The process ids answering /health on connections of their own, until `count` different ones
    have."""
    seen: set[int] = set()
    deadline = time.monotonic() + 60
    while len(seen) < count and time.monotonic() < deadline:
        # one sent to the dead worker waits for its successor
        health = httpx.get(f"{base}/health", timeout=30)
        assert health.status_code == 200, health.text
        seen.add(health.json()["process"])
    return seen
