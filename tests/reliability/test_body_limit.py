"""`bosun serve` refuses a request body over BOSUN_MAX_REQUEST_BYTES with 413 before reading it: a
declared Content-Length is refused at once, a chunked body as soon as it passes the limit (the rest
is never read)."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import httpx
import pytest

from tests.interfaces.serving import bosun_serve

LIMIT = 10_000


@pytest.fixture(scope="module")
def served(sample_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("served")
    (folder / "bosun.duckdb").symlink_to(sample_dir / "bosun.duckdb")
    with bosun_serve(folder, BOSUN_MAX_REQUEST_BYTES=str(LIMIT)) as base:
        yield base


def _exchange(base: str, head: str, body: bytes) -> tuple[int, dict[str, str]]:
    """Send a request's head and the start of its body on a raw socket; the status and JSON of the
    reply."""
    url = urlparse(base)
    with socket.create_connection((url.hostname, url.port), timeout=20) as conn:
        conn.sendall(head.encode() + body)
        reply = b""
        while chunk := conn.recv(65536):
            reply += chunk
    status_line, _, rest = reply.partition(b"\r\n")
    return int(status_line.split()[1]), json.loads(rest.partition(b"\r\n\r\n")[2])


def test_a_declared_length_over_the_limit_is_refused_before_the_body_comes(served: str) -> None:
    head = (
        "POST /threads/x/turns HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Content-Length: 250000000\r\n\r\n"
    )
    status, reply = _exchange(served, head, b'{"question": "')  # 250 MB announced, 14 bytes sent
    assert status == 413
    assert reply == {
        "error": "request_too_large",
        "detail": "the request body is over the limit of 10,000 bytes (BOSUN_MAX_REQUEST_BYTES)",
    }


def test_a_chunked_body_is_refused_once_it_passes_the_limit(served: str) -> None:
    head = (
        "POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"x" * 4_000
    # 16,000 bytes, no end chunk
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(4))
    status, reply = _exchange(served, head, body)
    assert status == 413
    assert "limit of 10,000 bytes" in reply["detail"]


def test_a_body_under_the_limit_is_answered(served: str) -> None:
    thread = httpx.post(f"{served}/threads").json()["thread_id"]
    answer = httpx.post(
        f"{served}/threads/{thread}/turns", json={"question": "How many shipments?"}, timeout=60
    )
    assert answer.status_code == 200
    assert answer.json()["status"] == "done"
