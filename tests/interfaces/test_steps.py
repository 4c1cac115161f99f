"""Issue 23, steps after grouping, end to end: a question through the real session on the sample,
its rows checked against SQL over the sample's DuckDB table, its answer text stating the figures and
its reading the step."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import duckdb
import pytest

from bosun.conversation.session import Session
from bosun.workers.models import ResultTable
from tests.conftest import sample_session

THIS_YEAR = "arrival_date between '2026-01-01' and '2026-06-15'"
MAY = "arrival_date between '2026-05-01' and '2026-05-31'"


@pytest.fixture(scope="module")
def session(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    yield from sample_session(data_dir, tmp_path_factory.mktemp("steps"))


@pytest.fixture(scope="module")
def sql(data_dir: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    with duckdb.connect(str(data_dir / "bosun.duckdb"), read_only=True) as connection:
        yield connection


def rows(sql: duckdb.DuckDBPyConnection, query: str) -> list[list[Any]]:
    return [list(row) for row in sql.execute(query).fetchall()]


def result(session: Session, question: str) -> tuple[str, ResultTable]:
    answer = session.ask(question, f"steps-{question}")
    assert answer.status == "done" and answer.not_understood == [], (
        answer.answer,
        answer.not_understood,
    )
    assert len(answer.results) == 1, answer.answer
    return answer.answer, answer.results[0]


def test_a_threshold_keeps_the_groups_past_it_and_says_how_many_of_all(
    session: Session, sql: duckdb.DuckDBPyConnection
) -> None:
    text, table = result(session, "ports with more than 2,000 shipments")
    gold = rows(
        sql,
        "select port_of_unlading, count(*) from shipments group by 1 having count(*) > 2000 "
        "order by 2 desc",
    )
    ports = rows(sql, "select count(distinct port_of_unlading) from shipments")[0][0]
    assert table.rows == gold
    assert text.startswith(f"{len(gold)} of {ports} "), text
    assert "above 2,000" in table.reading and "above 2,000" in text


def test_a_threshold_on_a_sum_over_a_period(
    session: Session, sql: duckdb.DuckDBPyConnection
) -> None:
    _, table = result(session, "carriers with more than 5,000 TEU this year")
    gold = rows(
        sql,
        f"select carrier_name, sum(teu) from shipments where {THIS_YEAR} group by 1 "
        "having sum(teu) > 5000 order by 2 desc",
    )
    assert table.rows == gold and len(gold) > 0


def test_top_n_within_each_group(session: Session, sql: duckdb.DuckDBPyConnection) -> None:
    text, table = result(session, "top 3 shippers for each port")
    gold = rows(
        sql,
        "select port_of_unlading, n from (select port_of_unlading, count(*) n, row_number() over "
        "(partition by port_of_unlading order by count(*) desc) r from shipments group by "
        "port_of_unlading, shipper_name) where r <= 3 order by 1, 2 desc",
    )
    # ties may swap names
    assert sorted([r[0], -r[2]] for r in table.rows) == sorted([p, -n] for p, n in gold)
    assert table.columns == ["port_of_unlading", "shipper_name", "shipments"]
    assert "top 3" in text and "within each" in text
    # grouped bars
    assert table.chart is not None and table.chart["encoding"]["xOffset"]["field"] == "shipper_name"


def test_the_busiest_period_of_each_group(session: Session, sql: duckdb.DuckDBPyConnection) -> None:
    _, table = result(session, "busiest month per carrier")
    gold = rows(
        sql,
        "select carrier_name, max(n) from (select carrier_name, date_trunc('month', arrival_date) "
        "m, "
        "count(*) n from shipments where arrival_date is not null group by 1, 2) group by 1",
    )
    assert sorted([r[0], r[2]] for r in table.rows) == sorted(gold)


def test_a_running_total_ends_at_the_whole_and_is_drawn_as_a_line(
    session: Session, sql: duckdb.DuckDBPyConnection
) -> None:
    text, table = result(session, "running total of TEU by month this year")
    gold = rows(
        sql,
        "select strftime(m, '%Y-%m-%d'), t, sum(t) over (order by m) from (select "
        "date_trunc('month', "
        f"arrival_date) m, sum(teu) t from shipments where {THIS_YEAR} group by 1) order by 1",
    )
    assert table.rows == gold
    assert f"{gold[-1][2]:,}" in text and "running total" in table.reading
    assert table.chart is not None and table.chart["mark"]["type"] == "line"
    assert table.chart["encoding"]["y"]["field"] == "running total"


def test_a_change_states_both_periods(session: Session, sql: duckdb.DuckDBPyConnection) -> None:
    text, table = result(session, "month-over-month change in shipments this year")
    monthly = rows(
        sql,
        f"select strftime(date_trunc('month', arrival_date), '%Y-%m-%d'), count(*) from shipments "
        f"where {THIS_YEAR} group by 1 order by 1",
    )
    changes = [None, *(b[1] - a[1] for a, b in pairwise(monthly))]
    assert table.rows == [[m, n, c] for (m, n), c in zip(monthly, changes, strict=True)]
    # June is cut short on 2026-06-15: the last whole change is May's
    april, may = monthly[3], monthly[4]
    # the rows keep ISO days; the text names the months
    assert (april[0], may[0]) == ("2026-04-01", "2026-05-01")
    assert "from April 2026 to May 2026" in text and f"{april[1]:,} → {may[1]:,}" in text, text
    assert "June 2026 is cut short by the dates" in text
    assert table.chart is not None and table.chart["encoding"]["y"]["field"] == "change"


def test_an_average_per_day_counts_every_day_of_the_range(
    session: Session, sql: duckdb.DuckDBPyConnection
) -> None:
    text, table = result(session, "average shipments per day in May")
    total = rows(sql, f"select count(*) from shipments where {MAY}")[0][0]
    assert table.rows == [[round(total / 31, 2), 31, total]]
    assert "31 days" in text and f"{round(total / 31, 2):,.2f}" in text


def test_an_average_per_period_for_each_group(
    session: Session, sql: duckdb.DuckDBPyConnection
) -> None:
    _, table = result(session, "average monthly TEU by carrier in 2025")
    gold = rows(
        sql,
        "select carrier_name, round(sum(teu) / 12, 2), 12, sum(teu) from shipments where "
        "arrival_date "
        "between '2025-01-01' and '2025-12-31' group by 1 order by 4 desc",
    )
    assert [[r[0], pytest.approx(r[1]), r[2], r[3]] for r in table.rows] == gold
