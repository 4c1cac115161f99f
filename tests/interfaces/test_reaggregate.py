"""Another aggregation of the last answer's figure (issue 36): "and the 90th percentile?", "the
shortest and the longest?", "cumulative?", "what's the monthly average?" keep the last question's
filters, dates and grouping; checked against SQL on the dev set's data."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import duckdb
import pytest

from bosun.conversation.session import Session
from bosun.planner.answer import Answer
from tests.interfaces.serving import data_copy

SOURCE = str(Path(__file__).resolve().parents[2] / "src")


def rows(answer: Answer) -> list[list[Any]]:
    return [list(r) for r in answer.results[0].rows]


def sql(gold: duckdb.DuckDBPyConnection, query: str) -> list[list[Any]]:
    return [list(r) for r in gold.execute(query).fetchall()]


NORFOLK_2025 = "port_of_unlading = 'NORFOLK' and arrival_date between '2025-01-01' and '2025-12-31'"


def test_a_percentile_of_the_last_average_keeps_its_filters(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Average weight of shipments into Norfolk in 2025", "p99")
    answer = session.ask("and the 99th percentile?", "p99")
    wanted = sql(
        gold, f"select quantile_cont(gross_weight_kg, 0.99) from shipments where {NORFOLK_2025}"
    )
    assert rows(answer)[0][0] == pytest.approx(wanted[0][0], rel=1e-6)
    assert answer.not_understood == []
    assert answer.results[0].columns[0] == "percentile 99 of gross weight (kg)"


def test_the_shortest_and_the_longest_for_each_group(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Average transit time by carrier into Norfolk in 2025", "extremes")
    answer = session.ask("what were the shortest and the longest for each?", "extremes")
    wanted = sql(
        gold,
        "select carrier_name, min(transit_days), max(transit_days) from shipments "
        f"where {NORFOLK_2025} group by 1",
    )
    assert sorted(rows(answer)) == sorted(wanted)
    assert answer.not_understood == []


def test_cumulative_after_a_series_is_its_running_total(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Monthly TEU into Norfolk in 2025", "running")
    answer = session.ask("cumulative?", "running")
    wanted = sql(
        gold,
        "select m, t, sum(t) over (order by m) from (select strftime(date_trunc('month', "
        f"arrival_date), '%Y-%m-%d') m, sum(teu) t from shipments where {NORFOLK_2025} "
        "group by 1) order by m",
    )
    assert [[str(r[0])[:10], r[1], r[2]] for r in rows(answer)] == wanted


def test_the_average_of_a_series_is_that_of_its_period_totals(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Shipments into Norfolk by month in 2025", "average")
    answer = session.ask("what's the monthly average?", "average")
    wanted = sql(gold, f"select count(*) / 12.0 from shipments where {NORFOLK_2025}")
    assert rows(answer)[0][0] == pytest.approx(wanted[0][0], abs=0.005)
    assert answer.not_understood == []


def test_a_series_in_total_adds_its_periods_up(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Monthly TEU into Norfolk in 2025", "total")
    answer = session.ask("and in total?", "total")
    assert rows(answer) == sql(gold, f"select sum(teu) from shipments where {NORFOLK_2025}")
    assert answer.not_understood == []


def test_the_maximum_of_totals_by_group_is_said_not_understood(session: Session) -> None:
    """The top carrier, or the largest shipment of each? Neither is answered as if it were asked."""
    session.ask("TEU by carrier into Norfolk in 2025", "max")
    answer = session.ask("and the maximum?", "max")
    assert answer.not_understood == ["maximum"]


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


def test_a_second_process_asks_the_median_of_the_first_ones_figure(
    data_dir: Path, tmp_path: Path, gold: duckdb.DuckDBPyConnection
) -> None:
    folder = data_copy(data_dir, tmp_path / "d")
    _ask(folder, "median", "Average declared value into Norfolk in 2025 by carrier")
    second = _ask(folder, "median", "and the median for each?")
    wanted = sql(
        gold,
        "select carrier_name, quantile_cont(declared_value_usd, 0.5) from shipments "
        f"where {NORFOLK_2025} group by 1",
    )
    got = {row[0]: row[1] for row in second["results"][0]["rows"]}
    assert got == pytest.approx({carrier: median for carrier, median in wanted}, rel=1e-6)
    assert second["not_understood"] == []
