"""The last answer as the next turn's subject (issue 36): its rows are kept with the turn, pointing
words resolve against them, and the next query filters on them; checked against SQL on the dev set's
data."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from bosun.conversation.session import Session
from bosun.conversation.store import sqlite_store
from bosun.planner.answer import Answer
from tests.conftest import sample_session


@pytest.fixture
def session(data_dir: Path, tmp_path: Path) -> Iterator[Session]:
    yield from sample_session(data_dir, tmp_path)


@pytest.fixture(scope="module")
def gold(data_dir: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    with duckdb.connect(str(data_dir / "bosun.duckdb"), read_only=True) as connection:
        yield connection


def rows(answer: Answer) -> list[list[Any]]:
    return [list(r) for r in answer.results[0].rows]


def sql(gold: duckdb.DuckDBPyConnection, query: str) -> list[list[Any]]:
    return [list(r) for r in gold.execute(query).fetchall()]


def test_a_turn_keeps_the_rows_of_its_answer(session: Session) -> None:
    session.ask("Top 5 carriers by TEU out of Busan this year", "kept")
    (turn,) = session.history("kept")
    assert turn.rows is not None
    assert turn.rows.field == "carrier_name"
    assert turn.rows.keys == [row[0] for row in rows_of(session, "kept")]
    assert len(turn.rows.keys) == len(turn.rows.figures) == turn.rows.total == 5


def rows_of(session: Session, thread: str) -> list[list[Any]]:
    return list(session.store.answers(thread)[-1]["results"][0]["rows"])


def test_a_thread_stored_before_rows_were_kept_still_loads(tmp_path: Path) -> None:
    store = sqlite_store(tmp_path / "turns.sqlite")
    old = {"turn_id": 0, "human_message": "TEU by carrier", "ai_response": "…", "first_column": []}
    store._run_all(  # a summary as a store of today's main wrote it: no rows
        [("INSERT INTO bosun_turns VALUES (?, ?, ?)", ("old", 1, json.dumps(old)))]
    )
    (turn,) = store.recent("old", 5)
    assert turn.rows is None and turn.past().rows is None
    store.close()


TOP_5_BUSAN = (
    "select carrier_name from shipments where port_of_lading = 'BUSAN' and arrival_date between "
    "'2026-01-01' and '2026-06-15' group by 1 order by sum(teu) desc limit 5"
)


def test_who_is_quickest_ranks_the_rows_of_the_last_answer(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Top 5 carriers by TEU out of Busan this year", "rank")
    answer = session.ask("who is quickest?", "rank")
    wanted = sql(
        gold,
        "select carrier_name, round(avg(transit_days), 2) from shipments where port_of_lading = "
        "'BUSAN' and arrival_date between '2026-01-01' and '2026-06-15' and carrier_name in "
        f"({TOP_5_BUSAN}) group by 1 order by 2 asc limit 1",
    )
    assert rows(answer) == wanted
    assert any("the 5 carriers of the last answer" in said for said in answer.assumptions)
    # the plan carries the rows into the query through an edge of its own
    steps = {entry.worker: entry for entry in answer.trace.sub_goals}
    handed = steps["last_answer_rows"].id
    assert steps["es_query_gen"].inputs["pointed_rows"] == f"sg{handed}.pointed_rows"


def test_which_period_was_the_peak_picks_among_the_last_periods(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Monthly TEU into Long Beach in 2025", "peak")
    answer = session.ask("which month was the peak?", "peak")
    wanted = sql(
        gold,
        "select strftime(date_trunc('month', arrival_date), '%Y-%m-%d'), sum(teu) t from shipments "
        "where port_of_unlading = 'LONG BEACH' and arrival_date between '2025-01-01' and "
        "'2025-12-31' group by 1 order by t desc limit 1",
    )
    assert [[str(r[0])[:10], r[1]] for r in rows(answer)] == wanted
    assert answer.not_understood == []
