"""`python -m bosun.bench api`: concurrent clients asking `bosun serve` on loopback; turns/s, p50/p95, errors.

The server runs as its own process (as deployed) on the sample at --rows; each client opens a thread and
asks the questions below in turn, over and over, until the duration (at most 60 s) has passed. A turn
is an error when the HTTP status is not 200 or the answer's status is "failed".
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from bosun.catalog import load_catalog
from bosun.datagen.load import build
from bosun.engines.embedded import EmbeddedEngine

QUESTIONS = ["Compare Maersk vs Evergreen shipping volumes to LA last quarter", "what about Long Beach?",
             "Monthly shipments in 2025", "Top 5 shippers to LA by TEU in 2025",
             "How many shipments arrived in Savannah last month?", "and in Charleston?"]
MAX_SECONDS = 60.0


async def _client(base: str, deadline: float, latencies: list[float], errors: list[str]) -> None:
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        thread = (await http.post("/threads")).json()["thread_id"]
        turn = 0
        while time.monotonic() < deadline:
            question = QUESTIONS[turn % len(QUESTIONS)]
            started = time.perf_counter()
            response = await http.post(f"/threads/{thread}/turns", json={"question": question})
            latencies.append(time.perf_counter() - started)
            if response.status_code != 200 or response.json().get("status") == "failed":
                errors.append(f"{response.status_code} {question}: {response.text[:200]}")
            turn += 1


async def _load(base: str, clients: int, seconds: float) -> tuple[list[float], list[str], float]:
    latencies: list[float] = []
    errors: list[str] = []
    started = time.monotonic()
    deadline = started + seconds
    await asyncio.gather(*(_client(base, deadline, latencies, errors) for _ in range(clients)))
    return latencies, errors, time.monotonic() - started


def _serve(data: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "BOSUN_DATA_DIR": str(data)}
    return subprocess.Popen([sys.executable, "-m", "bosun.interfaces.cli", "serve", "--port", str(port)], env=env)


def _wait_ready(base: str, server: subprocess.Popen[bytes]) -> None:
    import httpx

    for _ in range(300):
        if server.poll() is not None:
            raise SystemExit(f"bosun serve exited with {server.returncode}")
        try:
            if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise SystemExit("bosun serve did not start")


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _report(latencies: list[float], errors: list[str], elapsed: float, clients: int) -> None:
    ordered = sorted(latencies) or [0.0]
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    print(f"{clients} clients, {elapsed:.1f} s: {len(latencies)} turns, {len(latencies) / elapsed:.1f} turns/s, "
          f"p50 {statistics.median(ordered) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, {len(errors)} errors")
    for error in errors[:5]:
        print("  error:", error)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bosun.bench api", description=__doc__)
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--duration", type=float, default=MAX_SECONDS, help=f"seconds, at most {MAX_SECONDS:g}")
    args = parser.parse_args(argv)
    seconds = min(args.duration, MAX_SECONDS)
    with tempfile.TemporaryDirectory(prefix="bosun-bench-api-") as folder:
        engine = EmbeddedEngine(Path(folder) / "bosun.duckdb")
        build(engine, load_catalog(), args.rows, 42, date(2026, 6, 15))
        engine.close()
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        server = _serve(Path(folder), port)
        try:
            _wait_ready(base, server)
            latencies, errors, elapsed = asyncio.run(_load(base, args.clients, seconds))
        finally:
            server.terminate()
            server.wait(timeout=30)
    _report(latencies, errors, elapsed, args.clients)
    return 1 if errors else 0
