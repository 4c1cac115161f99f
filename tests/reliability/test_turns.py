"""Turns on one thread from several processes, a turn killed mid-way, and what a thread stores."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from tests.reliability.conftest import ROOT, bosun, python_path

PORTS = [
    "SAVANNAH",
    "HOUSTON",
    "SEATTLE",
    "TACOMA",
    "OAKLAND",
    "CHARLESTON",
    "NORFOLK",
    "BALTIMORE",
]


def _stored(data_dir: Path, thread: str) -> list[tuple[int, dict[str, object]]]:
    with sqlite3.connect(data_dir / "conversations.sqlite") as conn:
        rows = conn.execute(
            "SELECT turn_id, summary FROM bosun_turns WHERE thread_id = ? ORDER BY turn_id",
            (thread,),
        ).fetchall()
    return [(int(turn), json.loads(summary)) for turn, summary in rows]


def test_eight_processes_on_one_thread_each_answered_and_stored_once_with_its_own_meaning(
    data_dir: Path,
) -> None:
    env = {**os.environ, "BOSUN_DATA_DIR": str(data_dir), "PYTHONPATH": python_path()}
    questions = {port: f"How many shipments arrived in {port.title()} in 2025?" for port in PORTS}
    processes = {
        port: subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bosun.interfaces.cli",
                "ask",
                question,
                "--thread",
                "busy",
                "--json",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )
        for port, question in questions.items()
    }
    for port, process in processes.items():
        out, err = process.communicate(timeout=300)
        assert process.returncode == 0, err
        answer = json.loads(out)
        assert answer["status"] == "done" and answer["question"] == questions[port]
    stored = _stored(data_dir, "busy")
    assert [turn for turn, _ in stored] == list(range(1, 9))
    assert sorted(str(s["human_message"]) for _, s in stored) == sorted(questions.values())
    for _, summary in stored:
        port = next(p for p in PORTS if p.title() in str(summary["human_message"]))
        meaning = json.dumps(summary["meaning"])
        assert port in meaning and not [p for p in PORTS if p != port and p in meaning], summary


def test_a_killed_turn_is_run_again_and_stored_on_the_threads_next_ask_and_said(
    data_dir: Path,
) -> None:
    killed = "How many shipments arrived in Houston in 2025?"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.reliability.turn_process",
            str(data_dir),
            "k",
            killed,
            "slow",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": python_path()},
    )
    deadline = time.monotonic() + 120
    while not (data_dir / "started").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert _stored(data_dir, "k") == []

    done = bosun(data_dir, "ask", "and in Savannah?", "--thread", "k")
    assert done.returncode == 0, done.stderr
    assert f"running the interrupted turn “{killed}” again first" in " ".join(done.stdout.split())
    stored = _stored(data_dir, "k")
    assert [(turn, s["human_message"]) for turn, s in stored] == [
        (1, killed),
        (2, "and in Savannah?"),
    ]
    assert stored[0][1]["status"] == "done" and "HOUSTON" in json.dumps(stored[0][1]["meaning"])
    assert "SAVANNAH" in json.dumps(stored[1][1]["meaning"])  # the refinement read the resumed turn


def test_a_question_past_the_length_cap_is_said_and_not_stored(data_dir: Path) -> None:
    done = bosun(data_dir, "ask", "How many shipments " * 400, "--thread", "long", "--json")
    answer = json.loads(done.stdout)
    assert done.returncode == 1 and answer["status"] == "failed"
    assert answer["answer"] == "The question is 7,600 characters long; please ask in at most 1,000."
    assert not (data_dir / "conversations.sqlite").exists() or _stored(data_dir, "long") == []


def test_bosun_ask_closes_its_stores_the_turn_stored_and_no_write_ahead_log_left(
    data_dir: Path,
) -> None:
    done = bosun(
        data_dir, "ask", "How many shipments arrived in Houston in 2025?", "--thread", "closed"
    )
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in data_dir.glob("*.sqlite*")) == [
        "checkpoints.sqlite",
        "conversations.sqlite",
    ]
    assert [s["human_message"] for _, s in _stored(data_dir, "closed")] == [
        "How many shipments arrived in Houston in 2025?"
    ]
