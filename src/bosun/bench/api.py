"""`python -m bosun.bench api`: concurrent clients asking `bosun serve` on loopback, with 1 worker
process and with N (default: the usable cores), in one run; turns/s, p50/p95 and errors of each, and
their ratio.

The server runs as its own process (as deployed) on the sample at --rows; each client opens a thread
and asks the questions below in turn, over and over, until the duration (at most 60 s) has passed. A
turn is an error when the HTTP status is not 200 or the answer's status is "failed". The clients
share the machine's cores with the server, as a load generator on the same machine does.
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
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from bosun.catalog import load_catalog
from bosun.datagen.load import build
from bosun.engines.embedded import EmbeddedEngine
from bosun.interfaces.cli.serve_cmd import usable_cores

QUESTIONS = [
    "Compare Maersk vs Evergreen shipping volumes to LA last quarter",
    "what about Long Beach?",
    "Monthly shipments in 2025",
    "Top 5 shippers to LA by TEU in 2025",
    "How many shipments arrived in Savannah last month?",
    "and in Charleston?",
]
MAX_SECONDS = 60.0


@dataclass
class Load:
    """What the clients saw of one server: each turn's latency in seconds, the errors, the seconds
    it ran."""

    workers: int
    clients: Counter[int] = field(default_factory=Counter)  # the clients each worker process serves
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    elapsed: float = 0.0

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.elapsed if self.elapsed else 0.0


async def _client(base: str, deadline: float, load: Load) -> None:
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        thread = (await http.post("/threads")).json()["thread_id"]
        # the worker of this kept-alive connection
        load.clients[(await http.get("/health")).json()["process"]] += 1
        turn = 0
        while time.monotonic() < deadline:
            question = QUESTIONS[turn % len(QUESTIONS)]
            started = time.perf_counter()
            response = await http.post(f"/threads/{thread}/turns", json={"question": question})
            load.latencies.append(time.perf_counter() - started)
            if response.status_code != 200 or response.json().get("status") == "failed":
                load.errors.append(f"{response.status_code} {question}: {response.text[:200]}")
            turn += 1


async def _load(base: str, clients: int, seconds: float, load: Load) -> None:
    started = time.monotonic()
    deadline = started + seconds
    await asyncio.gather(*(_client(base, deadline, load) for _ in range(clients)))
    load.elapsed = time.monotonic() - started


def _measured(sample: Path, workers: int, clients: int, seconds: float) -> Load:
    """The load on `bosun serve --workers N` over the sample, with conversations of its own."""
    data = sample.parent / f"workers-{workers}"
    data.mkdir()
    (data / sample.name).symlink_to(sample)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server = _serve(data, port, workers)
    load = Load(workers)
    try:
        _wait_ready(base, server)
        asyncio.run(_load(base, clients, seconds, load))
    finally:
        server.terminate()
        server.wait(timeout=30)
    return load


def _serve(data: Path, port: int, workers: int = 1) -> subprocess.Popen[bytes]:
    env = {**os.environ, "BOSUN_DATA_DIR": str(data)}
    command = [
        sys.executable,
        "-m",
        "bosun.interfaces.cli",
        "serve",
        "--port",
        str(port),
        "--workers",
        str(workers),
    ]
    return subprocess.Popen(command, env=env)


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


def _report(load: Load, clients: int) -> None:
    ordered = sorted(load.latencies) or [0.0]
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    print(
        f"{load.workers} worker(s), {clients} clients, {load.elapsed:.1f} s: {len(load.latencies)} "
        "turns, "
        f"{load.rate:.1f} turns/s, p50 {statistics.median(ordered) * 1000:.0f} ms, p95 "
        f"{p95 * 1000:.0f} ms, "
        f"{len(load.errors)} errors; clients per worker process: "
        f"{sorted(load.clients.values(), reverse=True)}"
    )
    for error in load.errors[:5]:
        print("  error:", error)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bosun.bench api", description=__doc__)
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument(
        "--workers", type=int, default=usable_cores(), help="N, beside 1 (default: the cores)"
    )
    parser.add_argument(
        "--duration", type=float, default=MAX_SECONDS, help=f"seconds each, at most {MAX_SECONDS:g}"
    )
    args = parser.parse_args(argv)
    seconds = min(args.duration, MAX_SECONDS)
    with tempfile.TemporaryDirectory(prefix="bosun-bench-api-") as folder:
        sample = Path(folder) / "sample" / "bosun.duckdb"
        sample.parent.mkdir()
        engine = EmbeddedEngine(sample)
        build(engine, load_catalog(), args.rows, 42, date(2026, 6, 15))
        engine.close()
        loads = [
            _measured(sample, workers, args.clients, seconds)
            for workers in dict.fromkeys([1, args.workers])
        ]
    for load in loads:
        _report(load, args.clients)
    if len(loads) > 1:
        print(
            f"{loads[-1].workers} workers / 1: {loads[-1].rate / loads[0].rate:.2f}x the turns/s "
            f"({os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the end)"
        )
    return 1 if any(load.errors for load in loads) else 0
