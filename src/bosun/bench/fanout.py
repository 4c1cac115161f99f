"""`python -m bosun.bench fanout`: what parallel rounds buy, and what a round costs.

N-way comparisons: N goals, each a chain lookup → query → results of remote-looking steps that
sleep (simulated latency, 200 ms by default), and one goal comparing them. The same turns run
with LangGraph's default concurrency and with max_concurrency=1 (forced sequential), in one run.
Then the graph's own overhead per round, with no-op workers, in memory and with the SQLite
checkpointer.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from bosun.planner.context import RunContext
from bosun.planner.graph import build_graph
from bosun.planner.run import open_checkpointer
from bosun.settings import Settings
from bosun.workers.context import Context
from bosun.workers.models import Deliverable, Goal, Slot, WorkerInput, WorkerResult
from bosun.workers.registry import Registry, worker

LOOKUP, QUERY, ROWS = (Slot(name, dict[str, int]) for name in ("lookup", "query", "rows"))
COMPARISON = Slot("comparison", Deliverable)
CHAIN = [
    ("bench_lookup", [], LOOKUP),
    ("bench_query", [LOOKUP], QUERY),
    ("bench_fetch", [QUERY], ROWS),
]


def _registry(latency_s: float) -> Registry:
    def step(slot: Slot[dict[str, int]]) -> Any:
        def run(wi: WorkerInput, ctx: Context) -> WorkerResult:
            time.sleep(latency_s)
            return WorkerResult.of(wi, slot.of({"goal": wi.sub_goal.goal_id}))

        return run

    chain = []
    for name, consumes, produces in CHAIN:
        describe = worker(name, name, consumes=consumes, produces=[produces], goal_type="support")
        chain.append(describe(step(produces)))

    def compare(wi: WorkerInput, ctx: Context) -> WorkerResult:
        time.sleep(latency_s)
        return WorkerResult.of(
            wi, COMPARISON.of(Deliverable(text=f"compared {len(wi.gathered(ROWS))}"))
        )

    comparer = worker(
        "bench_compare",
        "compare",
        consumes=[ROWS],
        produces=[COMPARISON],
        goal_type="deliverable",
    )(compare)
    return Registry.of(*chain, comparer)


def _lookups(n: int) -> list[Goal]:
    return [Goal(id=i, text=f"lookup {i}", deliverables=["lookup"]) for i in range(1, n + 1)]


def one_round(n: int, latency_s: float, folder: Path) -> None:
    ctx = RunContext(
        settings=Settings(data_dir=folder),
        registry=_registry(latency_s),
        goals_of=lambda q, h, n=n: _lookups(n),  # type: ignore[misc]
    )
    graph = build_graph()
    parallel = _run(graph, ctx, f"par1-{n}", None)
    sequential = _run(graph, ctx, f"seq1-{n}", 1)
    print(
        f"  {n}-way, one round of {n} lookups: parallel {parallel:5.2f} s, forced sequential "
        f"{sequential:5.2f} s, "
        f"speed-up {sequential / parallel:4.2f}x (ideal {n}x)"
    )


def _goals(n: int) -> list[Goal]:
    sides = [Goal(id=i, text=f"side {i}", deliverables=["rows"]) for i in range(1, n + 1)]
    compare = Goal(
        id=n + 1,
        text="compare",
        deliverables=["comparison"],
        inputs_from_goals=list(range(1, n + 1)),
    )
    return [*sides, compare]


def _run(
    graph: Any, ctx: RunContext, thread: str, concurrency: int | None, durability: str | None = None
) -> float:
    limit = concurrency or ctx.settings.max_parallel_workers
    config: dict[str, Any] = {"configurable": {"thread_id": thread}, "max_concurrency": limit}
    started = time.perf_counter()
    graph.invoke({"question": thread}, config, context=ctx, durability=durability)
    return time.perf_counter() - started


def fanout(n: int, latency_s: float, folder: Path) -> None:
    ctx = RunContext(
        settings=Settings(data_dir=folder, max_rounds=20),
        registry=_registry(latency_s),
        goals_of=lambda q, h, n=n: _goals(n),  # type: ignore[misc]
    )
    graph = build_graph()
    parallel = _run(graph, ctx, f"par-{n}", None)
    sequential = _run(graph, ctx, f"seq-{n}", 1)
    steps = 3 * n + 1
    print(
        f"  {n}-way: {steps} steps in 4 rounds; parallel {parallel:6.2f} s, forced sequential "
        f"{sequential:6.2f} s, "
        f"speed-up {sequential / parallel:4.2f}x (ideal {steps / 4:4.2f}x)"
    )


def overhead(rounds_per_turn: int, turns: int, folder: Path) -> None:
    ctx = RunContext(
        settings=Settings(data_dir=folder, max_rounds=20),
        registry=_registry(0.0),
        goals_of=lambda q, h: _goals(1),
    )
    saved = build_graph(open_checkpointer(folder / "bench.sqlite"))
    for label, graph, durability in (
        ("in memory", build_graph(), None),
        ("SQLite checkpointer, every step", saved, None),
        ("SQLite checkpointer, at the end (as a session runs turns)", saved, "exit"),
    ):
        _run(graph, ctx, "warm", None, durability)
        total = sum(_run(graph, ctx, f"{label}-{i}", None, durability) for i in range(turns))
        per_round = total / (turns * rounds_per_turn) * 1000
        print(f"  graph overhead per round, no-op workers, {label}: {per_round:6.2f} ms")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bosun.bench fanout", description=__doc__)
    parser.add_argument("--latency-ms", type=float, default=200.0)
    parser.add_argument("--ways", type=int, nargs="+", default=[2, 4, 8])
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        print(f"fan-out with {args.latency_ms:g} ms per worker step:")
        for n in args.ways:
            one_round(n, args.latency_ms / 1000, Path(folder))
        for n in args.ways:
            fanout(n, args.latency_ms / 1000, Path(folder))
        overhead(4, 20, Path(folder))
    return 0
