"""A turn in its own process, for the kill-and-resume test: `python -m tests.planner.durable_turn
MODE DIR`.

MODE `run` starts the turn (es_query_gen then sleeps, so the test can kill the process between
rounds); `resume` finishes it from the checkpoint; `whole` runs it uninterrupted. Each worker that
finishes appends its name to DIR/log.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import replace
from pathlib import Path

from bosun.planner.context import RunContext
from bosun.planner.graph import build_graph
from bosun.planner.run import open_checkpointer, resume_turn, run_turn
from bosun.settings import Settings
from bosun.workers.context import Context
from bosun.workers.models import Goal, WorkerInput, WorkerResult
from tests.planner.workers import Script, build_registry

GOALS = [
    Goal(id=1, text="Maersk to LA", deliverables=["formatted_results"]),
    Goal(id=2, text="what is a TEU", deliverables=["answer"]),
]
SCRIPTS = {1: Script(values=["MAERSK"]), 2: Script(definition="TEU is ...")}


def main(mode: str, folder: Path) -> None:
    registry = build_registry(scripts=SCRIPTS)
    for name, registered in list(registry.workers.items()):
        registry.workers[name] = replace(registered, fn=_logged(registered.fn, folder, mode))
    ctx = RunContext(
        settings=Settings(data_dir=folder), registry=registry, goals_of=lambda q, h: GOALS
    )
    graph = build_graph(open_checkpointer(folder / "checkpoints.sqlite"))
    if mode == "resume":
        answer = resume_turn(graph, "thread", ctx)
    else:
        answer = run_turn(graph, "Maersk to LA, and what is a TEU?", "thread", ctx)
    print(json.dumps(answer.model_dump(mode="json")))


def _logged(fn, folder: Path, mode: str):  # type: ignore[no-untyped-def]
    def run(wi: WorkerInput, ctx: Context) -> WorkerResult:
        if mode == "run" and wi.sub_goal.worker == "es_query_gen":
            time.sleep(60)  # the test kills the process here, between rounds 1 and 2
        result = fn(wi, ctx)
        with (folder / "log").open("a") as log:
            log.write(f"{wi.sub_goal.worker}\n")
        return result

    return run


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
