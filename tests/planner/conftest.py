from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bosun.planner.answer import Answer
from bosun.planner.context import RunContext
from bosun.planner.graph import build_graph
from bosun.planner.run import open_checkpointer, run_turn
from bosun.settings import Settings
from bosun.workers.models import Goal
from tests.planner.workers import Script, build_registry

Ask = Callable[..., Answer]


@pytest.fixture
def ask(tmp_path: Path) -> Ask:
    """Run one turn whose goals are given, with the test workers, on a durable checkpointer."""
    graph = build_graph(open_checkpointer(tmp_path / "cp.sqlite"))

    def run(
        goals: list[Goal],
        log: list[str] | None = None,
        scripts: dict[int, Script] | None = None,
        **settings: Any,
    ) -> Answer:
        registry = build_registry(log, scripts=scripts)
        ctx = RunContext(
            settings=Settings(data_dir=tmp_path, **settings),
            registry=registry,
            goals_of=lambda question, history: goals,
        )
        return run_turn(graph, "question", "thread-1", ctx)

    return run


def rounds(answer: Answer) -> list[list[str]]:
    """Workers per round, as the trace records them."""
    by_round: dict[int, list[str]] = {}
    for entry in answer.trace.sub_goals:
        by_round.setdefault(entry.round or 0, []).append(f"{entry.worker}:{entry.status}")
    return [sorted(by_round[r]) for r in sorted(by_round)]
