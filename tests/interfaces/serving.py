"""Start `bosun serve` as its own process on a free loopback port, for the length of a `with`."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.engines.graphql_server import free_port


def data_copy(data_dir: Path, folder: Path) -> Path:
    """A data directory sharing the built sample engine but with conversations of its own."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bosun.duckdb").symlink_to(data_dir / "bosun.duckdb")
    return folder


@contextmanager
def bosun_serve(
    data_dir: Path,
    *args: str,
    port: int | None = None,
    log: Path | None = None,
    ready: str = "/health",
    **env: str,
) -> Iterator[str]:
    """Yields the server's base URL once `ready` answers (/openapi.json for a server whose engine
    is down); the server is stopped (and its output shown on failure, or written to `log`)
    afterwards. One worker unless `args` say otherwise: test_workers.py serves with several."""
    args = args if "--workers" in args else (*args, "--workers", "1")
    port = port or free_port()
    environ = {**os.environ, "BOSUN_DATA_DIR": str(data_dir), **env}
    command = [sys.executable, "-m", "bosun.interfaces.cli", "serve", "--port", str(port), *args]
    output = log.open("w") if log else None
    server = subprocess.Popen(
        command, env=environ, stdout=output or subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait(server, base + ready)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=20)
        if output:
            output.close()


def _wait(server: subprocess.Popen[str], ready: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            output = server.stdout.read() if server.stdout else ""
            raise AssertionError(f"bosun serve exited {server.returncode}: {output}")
        try:
            if httpx.get(ready, timeout=2).status_code in (200, 401):
                return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise AssertionError("bosun serve did not start within 60 s")
