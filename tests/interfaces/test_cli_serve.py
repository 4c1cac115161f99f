"""`bosun serve` says "starting …" at once and "ready at …" when it answers (issue #38)."""

from __future__ import annotations

import os
import select
import subprocess
import sys
from pathlib import Path
from typing import IO

import httpx

from tests.engines.graphql_server import free_port
from tests.interfaces.serving import data_copy


def line(stream: IO[str], seconds: float) -> str:
    """The next line the server prints, within `seconds`."""
    ready, _, _ = select.select([stream], [], [], seconds)
    assert ready, f"nothing printed within {seconds} s"
    return stream.readline()


def answers(url: str) -> bool:
    try:
        httpx.get(url, timeout=2)
    except httpx.HTTPError:
        return False
    return True


def test_serve_says_starting_at_once_and_ready_once_health_answers(
    data_dir: Path, tmp_path: Path
) -> None:
    port = free_port()
    health = f"http://127.0.0.1:{port}/health"
    command = ["serve", "--port", str(port), "--workers", "1"]
    server = subprocess.Popen(
        [sys.executable, "-m", "bosun.interfaces.cli", *command],
        env={**os.environ, "BOSUN_DATA_DIR": str(data_copy(data_dir, tmp_path / "d"))},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert server.stdout is not None
    try:
        assert line(server.stdout, 10) == "starting …\n"
        assert not answers(health)  # said before the session opens, long before it serves
        assert line(server.stdout, 60) == (
            f"ready at http://127.0.0.1:{port}/ (API docs at /docs, MCP at /mcp; Ctrl-C to stop)\n"
        )
        assert httpx.get(health, timeout=5).status_code == 200
    finally:
        server.terminate()
        server.wait(timeout=20)
