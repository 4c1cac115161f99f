"""The last answer as the next turn's subject (issue 36): its rows are kept with the turn, pointing
words resolve against them, and the next query filters on them; checked against SQL on the dev set's
data."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import duckdb
from fastapi.testclient import TestClient

from bosun.conversation.session import Session, open_session
from bosun.conversation.store import sqlite_store
from bosun.interfaces.api.app import create_app
from bosun.planner.answer import Answer
from bosun.settings import Settings
from tests.interfaces.serving import data_copy

SOURCE = str(Path(__file__).resolve().parents[2] / "src")


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


def _ask(folder: Path, thread: str, question: str) -> dict[str, Any]:
    """`bosun ask --thread THREAD QUESTION --json` in a process of its own."""
    path = os.pathsep.join(p for p in (SOURCE, os.environ.get("PYTHONPATH", "")) if p)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bosun.interfaces.cli",
            "ask",
            "--thread",
            thread,
            question,
            "--json",
        ],
        env={**os.environ, "PYTHONPATH": path, "BOSUN_DATA_DIR": str(folder)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def test_a_second_process_filters_on_the_rows_the_first_one_answered(
    data_dir: Path, tmp_path: Path, gold: duckdb.DuckDBPyConnection
) -> None:
    folder = data_copy(data_dir, tmp_path / "d")
    _ask(folder, "two", "Which vessels called at Savannah last week?")
    second = _ask(folder, "two", "which of those also called at Charleston?")
    wanted = sql(
        gold,
        "select distinct vessel_name from shipments where port_of_unlading = 'CHARLESTON' and "
        "arrival_date between '2026-06-08' and '2026-06-14' and vessel_name in (select "
        "vessel_name from shipments where port_of_unlading = 'SAVANNAH' and arrival_date between "
        "'2026-06-08' and '2026-06-14')",
    )
    shown = second["results"][0]["rows"]
    assert sorted(row[0] for row in shown) == sorted(row[0] for row in wanted)
    workers = [step["worker"] for step in second["trace"]["sub_goals"]]
    assert "last_answer_rows" in workers


def test_the_api_answers_the_rest_of_a_top_n(
    data_dir: Path, tmp_path: Path, gold: duckdb.DuckDBPyConnection
) -> None:
    session = open_session(Settings(data_dir=data_copy(data_dir, tmp_path / "d")))
    client = TestClient(create_app(session), raise_server_exceptions=False)
    try:
        thread = client.post("/threads").json()["thread_id"]
        ask = f"/threads/{thread}/turns"
        client.post(ask, json={"question": "Top 3 carriers by TEU into Savannah in 2025"})
        response = client.post(ask, json={"question": "and the rest combined?"})
    finally:
        session.close()
    assert response.status_code == 200
    (wanted,) = sql(
        gold,
        "select sum(teu) from shipments where port_of_unlading = 'SAVANNAH' and arrival_date "
        "between '2025-01-01' and '2025-12-31' and carrier_name not in (select carrier_name from "
        "shipments where port_of_unlading = 'SAVANNAH' and arrival_date between '2025-01-01' and "
        "'2025-12-31' group by 1 order by sum(teu) desc limit 3)",
    )
    answer = response.json()
    assert answer["results"][0]["rows"] == [wanted]
    assert any("all but the 3 carriers of the last answer" in a for a in answer["assumptions"])


def test_their_records_and_their_other_values_are_those_of_the_last_rows(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    top_3 = (
        "select carrier_name from shipments where port_of_unlading = 'MIAMI' and arrival_date "
        "between '2025-01-01' and '2025-12-31' group by 1 order by sum(teu) desc limit 3"
    )
    session.ask("Top 3 carriers into Miami by TEU in 2025", "list")
    vessels = session.ask("which vessels did they use there?", "list")
    wanted = sql(
        gold,
        "select distinct vessel_name from shipments where port_of_unlading = 'MIAMI' and "
        f"arrival_date between '2025-01-01' and '2025-12-31' and carrier_name in ({top_3})",
    )
    assert sorted(r[0] for r in rows(vessels)) == sorted(r[0] for r in wanted)


def test_pointing_with_nothing_to_point_at_says_so(session: Session) -> None:
    answer = session.ask("who is quickest among them?", "none")
    assert not answer.results and "no earlier answer" in answer.answer
    assert "“among them”" in answer.answer
    defined = session.ask("SCAC and UN/LOCODE: what do they mean?", "terms")
    assert "no earlier answer" not in defined.answer


def test_them_after_two_lists_is_asked_back(session: Session) -> None:
    session.ask(
        "How many TEU did each carrier bring into Savannah in 2025 and how many did each shipper "
        "bring?",
        "two",
    )
    answer = session.ask("who is quickest?", "two")
    assert answer.status == "needs_clarification" and not answer.results
    assert answer.clarification is not None and len(answer.clarification.options) == 2


def test_a_grouping_said_instead_replaces_the_last_one(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Shipments into Norfolk in 2025 by carrier", "instead")
    answer = session.ask("now by month instead", "instead")
    wanted = sql(
        gold,
        "select strftime(date_trunc('month', arrival_date), '%Y-%m-%d'), count(*) from shipments "
        "where port_of_unlading = 'NORFOLK' and arrival_date between '2025-01-01' and '2025-12-31' "
        "group by 1 order by 1",
    )
    assert [[str(r[0])[:10], r[1]] for r in rows(answer)] == wanted
    assert answer.not_understood == []


def test_a_period_for_each_one_splits_the_rows_of_the_last_answer(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    top_3 = (
        "select carrier_name from shipments where port_of_unlading = 'SAVANNAH' and arrival_date "
        "between '2025-01-01' and '2025-12-31' group by 1 order by sum(teu) desc limit 3"
    )
    session.ask("Top 3 carriers into Savannah by TEU in 2025", "each")
    answer = session.ask("give me monthly TEU for each one", "each")
    wanted = sql(
        gold,
        "select carrier_name, strftime(date_trunc('month', arrival_date), '%Y-%m-%d'), sum(teu) "
        "from shipments where port_of_unlading = 'SAVANNAH' and arrival_date between '2025-01-01' "
        f"and '2025-12-31' and carrier_name in ({top_3}) group by 1, 2",
    )
    assert sorted([r[0], str(r[1])[:10], r[2]] for r in rows(answer)) == sorted(wanted)
    assert any("the 3 carriers of the last answer" in said for said in answer.assumptions)
    steps = {entry.worker: entry for entry in answer.trace.sub_goals}
    assert "pointed_rows" in steps["es_query_gen"].inputs


def test_a_period_and_another_field_after_a_series_are_both_grouped_by(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Containers into Baltimore by month in 2025", "both")
    answer = session.ask("by quarter and by container type", "both")
    wanted = sql(
        gold,
        "select container_type, strftime(date_trunc('quarter', arrival_date), '%Y-%m-%d'), "
        "sum(container_count) from shipments where port_of_unlading = 'BALTIMORE' and "
        "arrival_date between '2025-01-01' and '2025-12-31' group by 1, 2",
    )
    assert answer.status == "done"
    assert sorted([r[0], str(r[1])[:10], r[2]] for r in rows(answer)) == sorted(wanted)


def test_the_same_stretch_a_year_before_is_set_beside_the_last_one(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("TEU into Savannah over the last 30 days", "year")
    answer = session.ask("versus the same stretch a year before", "year")
    wanted = sql(
        gold,
        "select (select sum(teu) from shipments where port_of_unlading = 'SAVANNAH' and "
        "arrival_date between '2025-05-17' and '2025-06-15'), (select sum(teu) from shipments "
        "where port_of_unlading = 'SAVANNAH' and arrival_date between '2026-05-17' and '2026-06-15')",
    )
    assert rows(answer)[0][:2] == wanted[0]
    assert answer.not_understood == []


def test_the_stretch_before_that_is_as_long_and_just_before(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Containers into Houston during the past 30 days", "before")
    answer = session.ask("and the 30 days before that?", "before")
    wanted = sql(
        gold,
        "select sum(container_count) from shipments where port_of_unlading = 'HOUSTON' and "
        "arrival_date between '2026-04-17' and '2026-05-16'",
    )
    assert rows(answer) == wanted
    assert answer.not_understood == []
