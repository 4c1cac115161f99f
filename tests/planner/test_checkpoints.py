"""The SQLite checkpointer writes a channel's value once per version and reads checkpoints back
whole."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from langgraph.checkpoint.sqlite import SqliteSaver

from bosun.planner.context import RunContext
from bosun.planner.graph import build_graph
from bosun.planner.run import open_checkpointer, run_turn
from bosun.settings import Settings
from bosun.workers.models import Goal
from tests.planner.workers import Script, build_registry

SEARCH = ["es_results"]
CONFIG = {"configurable": {"thread_id": "t"}}


def _context(tmp_path: Path) -> RunContext:
    goals = [Goal(id=1, text="Maersk shipments to LA", deliverables=SEARCH)]
    registry = build_registry(scripts={1: Script(values=["MAERSK"])})
    return RunContext(
        settings=Settings(data_dir=tmp_path),
        registry=registry,
        goals_of=lambda question, history: goals,
    )


def test_a_turn_reads_back_whole_and_stores_an_unchanged_value_once(tmp_path: Path) -> None:
    graph = build_graph(open_checkpointer(tmp_path / "cp.sqlite"))
    answer = run_turn(graph, "Maersk shipments to LA?", "t", _context(tmp_path))
    assert answer.status == "done"
    history = list(graph.get_state_history(CONFIG))
    assert len(history) > 10  # a checkpoint per step, each whole:
    assert all(h.values["question"] == "Maersk shipments to LA?" for h in history[:-1])
    assert history[0].values["final_response"].answer == answer.answer
    with sqlite3.connect(tmp_path / "cp.sqlite") as con:
        stored = con.execute(
            "SELECT count(*) FROM bosun_channel_values WHERE channel = 'question'"
        ).fetchone()[0]
    assert stored == 1  # not once per step


def test_checkpoints_of_the_plain_saver_still_read(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "cp.sqlite", check_same_thread=False)
    plain = build_graph(SqliteSaver(conn))
    answer = run_turn(plain, "Maersk shipments to LA?", "t", _context(tmp_path))
    before = plain.get_state(CONFIG).values
    conn.close()
    after = build_graph(open_checkpointer(tmp_path / "cp.sqlite")).get_state(CONFIG).values
    assert after == before and after["final_response"].answer == answer.answer
