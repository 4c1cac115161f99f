"""One turn in its own process: `python -m tests.reliability.turn_process DATA_DIR THREAD QUESTION
[slow]`.

With `slow`, the query worker writes DATA_DIR/started and then sleeps, so a test can kill the
process mid-turn (the turn's start is stored before the graph runs). Prints the answer JSON and each
event's kind and message on stderr.
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from pathlib import Path

from bosun.conversation.session import open_session
from bosun.planner.answer import Answer
from bosun.planner.events import TurnEvent
from bosun.settings import Settings
from bosun.workers.context import Context
from bosun.workers.models import WorkerInput, WorkerResult
from bosun.workers.registry import Registry


def _slowed(registry: Registry, name: str, folder: Path) -> None:
    registered = registry.workers[name]

    def run(wi: WorkerInput, ctx: Context) -> WorkerResult:
        (folder / "started").write_text(wi.sub_goal.worker)
        time.sleep(120)  # the test kills the process here
        return registered.fn(wi, ctx)

    registry.workers[name] = replace(registered, fn=run)


def main(folder: Path, thread: str, question: str, slow: bool) -> None:
    session = open_session(Settings(data_dir=folder))
    if slow:
        _slowed(session.context.registry, "es_query_exec", folder)
    try:
        for item in session.stream(question, thread):
            if isinstance(item, TurnEvent):
                print(f"{item.kind}: {item.message}", file=sys.stderr)
            elif isinstance(item, Answer):
                print(item.model_dump_json())
    finally:
        session.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:] == ["slow"])
