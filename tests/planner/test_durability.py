"""A process killed between rounds resumes from its checkpoint without redoing finished
sub-goals."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).parents[2]


def _start(mode: str, folder: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.planner.durable_turn", mode, str(folder)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )


def _finish(mode: str, folder: Path) -> dict[str, Any]:
    process = _start(mode, folder)
    out, _ = process.communicate(timeout=120)
    assert process.returncode == 0
    answer: dict[str, Any] = json.loads(out)
    return answer


def _comparable(answer: dict[str, Any]) -> dict[str, Any]:
    for entry in answer["trace"]["sub_goals"]:
        entry.pop("duration_ms")
    return answer


def test_kill_between_rounds_then_resume(tmp_path: Path) -> None:
    killed, whole = tmp_path / "killed", tmp_path / "whole"
    killed.mkdir()
    whole.mkdir()
    process = _start("run", killed)
    log = killed / "log"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (log.exists() and len(log.read_text().split()) >= 2):
        time.sleep(0.05)
    time.sleep(0.5)  # round 1 is joined and checkpointed; es_query_gen sleeps in round 2
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert sorted(log.read_text().split()) == ["common_helpdesk", "metadata_lookup"]

    resumed = _finish("resume", killed)
    assert sorted(log.read_text().split()) == [
        "common_helpdesk",
        "es_query_exec",
        "es_query_gen",
        "metadata_lookup",
        # round 1's workers did not run again
        "show_results",
    ]
    uninterrupted = _finish("whole", whole)
    assert resumed["status"] == "done"
    assert _comparable(resumed) == _comparable(uninterrupted)
