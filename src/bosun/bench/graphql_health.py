"""`python -m bosun.bench graphql_health`: how long `/health` waits while GraphQL queries run on
`bosun serve`.

The server runs as its own process on the sample at --rows; --queries small GraphQL lookups are sent
at once, repeatedly for --rounds, while `/health` is asked every 20 ms. Prints the median, p95 and
slowest `/health` and the queries' own wall time. With the resolvers on the event loop, `/health`
waits for all of them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from datetime import date
from pathlib import Path

from bosun.bench.api import _free_port, _serve, _wait_ready
from bosun.catalog import load_catalog
from bosun.datagen.load import build
from bosun.engines.embedded import EmbeddedEngine


def _query(engine: EmbeddedEngine) -> str:
    """A lookup of the catalog's first business object by the id of its first record."""
    obj = load_catalog().graph_objects()[0]
    row = engine.search(obj.index, {"size": 1})["hits"]["hits"][0]["_source"]
    return (
        f"{{ {obj.name}(id: {json.dumps(str(row[obj.id_field]))}) {{ {' '.join(obj.fields)} }} }}"
    )


async def _queries(base: str, query: str, count: int, rounds: int) -> float:
    import httpx

    started = time.perf_counter()
    limits = httpx.Limits(max_connections=count)
    # new connections each round: a reused idle one may be closed under the client
    for _ in range(rounds):
        async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as http:
            answers = await asyncio.gather(
                *(http.post("/graphql", json={"query": query}) for _ in range(count))
            )
            if any(a.status_code != 200 or a.json().get("errors") for a in answers):
                raise SystemExit(f"a GraphQL query failed: {answers[0].text[:200]}")
    return time.perf_counter() - started


async def _health(base: str, done: asyncio.Event) -> list[float]:
    import httpx

    waits: list[float] = []
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        while not done.is_set():
            started = time.perf_counter()
            await http.get("/health")
            waits.append(time.perf_counter() - started)
            await asyncio.sleep(0.02)
    return waits


async def _measure(base: str, query: str, count: int, rounds: int) -> tuple[float, list[float]]:
    done = asyncio.Event()
    health = asyncio.create_task(_health(base, done))
    await asyncio.sleep(0.1)
    took = await _queries(base, query, count, rounds)
    done.set()
    return took, await health


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bosun.bench graphql_health", description=__doc__
    )
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bosun-bench-graphql-") as folder:
        engine = EmbeddedEngine(Path(folder) / "bosun.duckdb")
        build(engine, load_catalog(), args.rows, 42, date(2026, 6, 15))
        query = _query(engine)
        engine.close()
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        server = _serve(Path(folder), port)
        try:
            _wait_ready(base, server)
            took, waits = asyncio.run(_measure(base, query, args.queries, args.rounds))
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(
        f"{args.rounds} × {args.queries} concurrent GraphQL queries in {took:.2f} s; /health asked "
        f"{len(waits)} "
        f"times: median {statistics.median(waits) * 1000:.0f} ms, "
        f"p95 {sorted(waits)[int(0.95 * len(waits))] * 1000:.0f} ms, slowest "
        f"{max(waits) * 1000:.0f} ms"
    )
    return 0
