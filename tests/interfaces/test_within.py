"""Issue 35, rankings within each group, end to end: a period ranked inside a coarser period ("the
quietest week in each quarter") and a ranking at every member of a group of values ("top 2 carriers
at every east coast port"), through the real session on the sample; rows checked against SQL over
the sample's DuckDB tables, the reading saying what the ranking is inside."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pytest

from bosun.conversation.session import Session
from bosun.workers.models import ResultTable
from tests.conftest import sample_session
from tests.interfaces.test_shop_domain import gold, shop

__all__ = ["shop"]  # the shop domain's session fixture

# the weeks of 2025, each in the quarter of its Thursday, a week cut by the year left out
WEEKS_2025 = """
    select date_trunc('quarter', w + interval 3 day)::date q, w::date w, n,
        row_number() over (partition by date_trunc('quarter', w + interval 3 day)
                           order by n {order}, w) r
    from (select date_trunc('week', arrival_date) w, {measure} n from shipments
          where arrival_date between '2025-01-01' and '2025-12-31' group by 1)
    where w >= '2025-01-01' and w + interval 6 day <= '2025-12-31'
"""


@pytest.fixture(scope="module")
def session(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    yield from sample_session(data_dir, tmp_path_factory.mktemp("within"))


@pytest.fixture(scope="module")
def sql(data_dir: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    with duckdb.connect(str(data_dir / "bosun.duckdb"), read_only=True) as connection:
        yield connection


def rows(sql: duckdb.DuckDBPyConnection, query: str) -> list[list[Any]]:
    return [list(row) for row in sql.execute(query).fetchall()]


def result(session: Session, question: str) -> tuple[str, ResultTable]:
    answer = session.ask(question, f"within-{question}")
    assert answer.status == "done" and answer.not_understood == [], (
        answer.answer,
        answer.not_understood,
    )
    assert len(answer.results) == 1, answer.answer
    return answer.answer, answer.results[0]


def quarter(day: date) -> str:
    return f"Q{(day.month - 1) // 3 + 1} {day.year}"


def test_the_quietest_week_in_each_quarter(
    session: Session, sql: duckdb.DuckDBPyConnection
) -> None:
    text, table = result(session, "the quietest week in each quarter of 2025")
    gold_rows = rows(
        sql,
        f"select q, w, n from ({WEEKS_2025.format(order='asc', measure='count(*)')}) "
        "where r = 1 order by q",
    )
    assert table.rows == [[quarter(q), w.isoformat(), n] for q, w, n in gold_rows]
    assert [row[0] for row in table.rows] == ["Q1 2025", "Q2 2025", "Q3 2025", "Q4 2025"]
    assert table.labels[:2] == ["quarter", "week"]
    assert "the bottom 1 week within each quarter" in table.reading
    assert "within each quarter" in text and f"{quarter(gold_rows[0][0])}: week of" in text


def test_the_top_two_weeks_by_teu_per_quarter(
    session: Session, sql: duckdb.DuckDBPyConnection
) -> None:
    _, table = result(session, "top 2 weeks by TEU per quarter in 2025")
    gold_rows = rows(
        sql,
        f"select q, w, n from ({WEEKS_2025.format(order='desc', measure='sum(teu)')}) "
        "where r <= 2 order by q, r",
    )
    assert table.rows == [[quarter(q), w.isoformat(), n] for q, w, n in gold_rows]
    assert len(table.rows) == 8


def test_the_busiest_month_of_each_year_ranks_whole_months_only(
    session: Session, sql: duckdb.DuckDBPyConnection
) -> None:
    _, table = result(session, "busiest month of each year")
    gold_rows = rows(
        sql,
        "select year(m), m, n from (select m, n, row_number() over (partition by year(m) "
        "order by n desc, m) r from (select date_trunc('month', arrival_date)::date m, count(*) n "
        "from shipments group by 1) where m >= (select min(arrival_date) from shipments) "
        "and last_day(m) <= (select max(arrival_date) from shipments)) where r = 1 order by m",
    )
    assert table.rows == [[str(y), m.isoformat(), n] for y, m, n in gold_rows]
    assert "the top 1 month within each year" in table.reading


def test_the_top_carriers_at_every_port_of_a_group(
    session: Session, sql: duckdb.DuckDBPyConnection
) -> None:
    text, table = result(session, "top 2 carriers by TEU at every east coast port in 2025")
    gold_rows = rows(
        sql,
        "select port_of_unlading, carrier_name, t from (select port_of_unlading, carrier_name, "
        "sum(teu) t, row_number() over (partition by port_of_unlading order by sum(teu) desc) r "
        "from shipments where arrival_date between '2025-01-01' and '2025-12-31' and "
        "port_of_unlading in (select port_name from ports where us_coast = 'east') "
        "group by 1, 2) where r <= 2",
    )
    assert sorted(table.rows) == sorted(gold_rows)
    ports = {row[0] for row in gold_rows}
    assert len(ports) > 2 and len(table.rows) == 2 * len(ports)
    assert "the top 2 carrier within each port of unlading" in table.reading
    assert "within each port of unlading" in text


def test_the_busiest_day_of_every_month_in_the_shop(shop: Session) -> None:
    answer = shop.ask("the busiest day of every month this year", "within-shop-1")
    assert answer.not_understood == [], answer.answer
    (table,) = answer.results
    expected = gold(
        shop,
        "select m, d, n from (select date_trunc('month', d) m, d, n, row_number() over "
        "(partition by date_trunc('month', d) order by n desc, d) r from (select order_date::date d, "
        "count(*) n from orders where order_date between '2026-01-01' and '2026-06-15' "
        "group by 1)) where r = 1 order by m",
    )
    assert [row[1:] for row in table.rows] == [[d.isoformat(), n] for _, d, n in expected]
    assert len(table.rows) == 6 and table.rows[0][0] == "January 2026"


def test_the_top_customer_at_each_store_of_a_region(shop: Session) -> None:
    answer = shop.ask("the top customer at each east store", "within-shop-2")
    assert answer.not_understood == [], answer.answer
    (table,) = answer.results
    stores = gold(shop, "select distinct store_name from orders")
    expected = gold(
        shop,
        "select store_name, n from (select store_name, count(*) n, row_number() over "
        "(partition by store_name order by count(*) desc) r from orders group by store_name, "
        "customer_name) where r = 1",
    )
    assert len(stores) > len(table.rows) > 0
    assert all((row[0], row[2]) in expected for row in table.rows)
    assert "within each store" in table.reading
