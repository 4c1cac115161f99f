"""Issue 35: the difference between two sides, end to end on the sample. Two values of one field
said with a word of a difference ("difference between", "gap", "minus", "more … than", "ahead of",
"exceed") are answered side by side, a column each, with the first's figure minus the other's; each
row is checked against SQL over the sample's own table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from bosun.conversation.session import Session
from tests.conftest import sample_session
from tests.interfaces.test_shop_domain import gold, shop  # noqa: F401  (the shop session fixture)

YEAR_2025 = "arrival_date between '2025-01-01' and '2025-12-31'"


@pytest.fixture(scope="module")
def session(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    yield from sample_session(data_dir, tmp_path_factory.mktemp("differences"))


@pytest.fixture(scope="module")
def sql(session: Session) -> Iterator[duckdb.DuckDBPyConnection]:
    con = duckdb.connect()
    con.register("shipments", session.context.engine.inner.to_arrow("shipments"))
    yield con
    con.close()


def _sides(sql: duckdb.DuckDBPyConnection, key: str, measure: str, field: str, where: str) -> str:
    """SQL of each key's measure for two sides of `field` ('A', 'B'), and A's minus B's."""
    a = f"{measure} filter (where {field} = 'A')"
    b = f"{measure} filter (where {field} = 'B')"
    return f"select {key}, {a}, {b}, {a} - {b} from shipments where {where} group by 1 order by 1"


def _rows(sql: duckdb.DuckDBPyConnection, query: str, a: str, b: str) -> list[list[Any]]:
    filled = query.replace("'A'", f"'{a}'").replace("'B'", f"'{b}'")
    return [[*row] for row in sql.execute(filled).fetchall()]


def test_the_difference_per_month_is_each_side_and_the_first_minus_the_other(
    session: Session, sql: duckdb.DuckDBPyConnection
) -> None:
    answer = session.ask("difference between Maersk and MSC TEU by month in 2025", "by-month")
    (result,) = answer.results
    query = _sides(sql, "strftime(arrival_date, '%Y-%m-01')", "sum(teu)", "carrier_name", YEAR_2025)
    assert result.rows == _rows(sql, query, "MAERSK", "MSC")
    assert len(result.rows) == 12
    assert result.columns == ["period", "TEU · MAERSK", "TEU · MSC", "difference"]
    assert (
        result.reading == "total TEU · per month · carrier MAERSK minus MSC · 2025 (arrival date)"
    )
    first = result.rows[0]
    said = f"January 2025 {first[1]:,} TEU − {first[2]:,} TEU = {first[3]:+,} TEU"
    assert "MAERSK minus MSC" in answer.answer and said in answer.answer
    assert answer.not_understood == []
    # never the change from the month before: that is a step of its own, not asked here
    assert "change" not in result.columns


def test_how_much_more_than_is_one_row_of_both_sides_and_their_difference(
    session: Session, sql: duckdb.DuckDBPyConnection
) -> None:
    answer = session.ask("how much more TEU did Maersk move than MSC in 2025", "more-than")
    (result,) = answer.results
    [row] = _rows(sql, _sides(sql, "1", "sum(teu)", "carrier_name", YEAR_2025), "MAERSK", "MSC")
    assert result.rows == [row[1:]]
    assert result.columns == ["TEU · MAERSK", "TEU · MSC", "difference"]
    assert f"= {row[3]:+,} TEU" in answer.answer
    assert answer.not_understood == []


def test_the_side_after_ahead_of_is_subtracted(
    session: Session, sql: duckdb.DuckDBPyConnection
) -> None:
    answer = session.ask("how far ahead of Evergreen was Maersk each quarter in 2025", "ahead")
    (result,) = answer.results
    key = "strftime(date_trunc('quarter', arrival_date), '%Y-%m-%d')"
    query = _sides(sql, key, "count(*)", "carrier_name", YEAR_2025)
    assert result.rows == _rows(sql, query, "MAERSK", "EVERGREEN")
    assert result.reading.startswith("number of shipments · per quarter · carrier MAERSK minus")


def test_a_grouping_beside_the_sides_is_a_row_each(
    session: Session, sql: duckdb.DuckDBPyConnection
) -> None:
    answer = session.ask("TEU gap between Maersk and MSC at each port of unlading in 2025", "ports")
    (result,) = answer.results
    query = _sides(sql, "port_of_unlading", "sum(teu)", "carrier_name", YEAR_2025)
    assert sorted(result.rows) == _rows(sql, query, "MAERSK", "MSC")
    assert result.columns[0] == "port_of_unlading"


def test_an_average_is_compared_as_an_average(
    session: Session, sql: duckdb.DuckDBPyConnection
) -> None:
    answer = session.ask("the difference in average transit time between CMA CGM and ONE", "avg")
    (result,) = answer.results
    [(a, b)] = sql.execute(
        "select avg(transit_days) filter (where carrier_name = 'CMA CGM'), "
        "avg(transit_days) filter (where carrier_name = 'ONE') from shipments"
    ).fetchall()
    assert result.rows[0][:2] == [round(a, 2), round(b, 2)]
    assert result.rows[0][2] == pytest.approx(round(a, 2) - round(b, 2), abs=0.011)


def test_two_values_compared_without_a_difference_word_stay_grouped(session: Session) -> None:
    answer = session.ask("Maersk vs MSC TEU by month in 2025", "vs")
    (result,) = answer.results
    assert result.columns == ["carrier_name", "period", "TEU"]
    assert "difference" not in result.columns


def test_the_shop_domain_differences_two_categories_by_month(shop: Session) -> None:  # noqa: F811
    answer = shop.ask("difference in revenue between kitchen and sports by month", "shop")
    (result,) = answer.results
    a = "sum(amount) filter (where category = 'kitchen')"
    b = "sum(amount) filter (where category = 'sports')"
    expected = gold(
        shop,
        f"select strftime(order_date, '%Y-%m-01'), {a}, {b} from orders "
        "where category in ('kitchen', 'sports') group by 1 order by 1",
    )
    assert [row[0] for row in result.rows] == [row[0] for row in expected]
    for got, want in zip(result.rows, expected, strict=True):
        assert got[1:3] == pytest.approx([round(want[1] or 0, 2), round(want[2] or 0, 2)])
        assert got[3] == pytest.approx(got[1] - got[2], abs=0.011)
    assert result.reading.startswith("total revenue (USD) · per month · category kitchen minus")


def test_a_ranking_of_differences_ranks_by_the_difference(
    session: Session, sql: duckdb.DuckDBPyConnection
) -> None:
    answer = session.ask("top 3 ports by TEU difference between Maersk and MSC in 2025", "top")
    (result,) = answer.results
    query = _sides(sql, "port_of_unlading", "sum(teu)", "carrier_name", YEAR_2025)
    every = _rows(sql, query, "MAERSK", "MSC")
    assert result.rows == sorted(every, key=lambda row: -row[3])[:3]
    assert "top 3 by difference" in result.reading


def test_several_measures_stand_side_by_side_and_the_first_is_differenced(
    session: Session, sql: duckdb.DuckDBPyConnection
) -> None:
    answer = session.ask("difference in TEU and shipments between Maersk and MSC in 2025", "two")
    (result,) = answer.results
    [(teu_a, teu_b, count_a, count_b)] = sql.execute(
        "select sum(teu) filter (where carrier_name = 'MAERSK'), "
        "sum(teu) filter (where carrier_name = 'MSC'), "
        "count(*) filter (where carrier_name = 'MAERSK'), "
        f"count(*) filter (where carrier_name = 'MSC') from shipments where {YEAR_2025}"
    ).fetchall()
    assert result.rows == [[teu_a, teu_b, count_a, count_b, teu_a - teu_b]]
    assert result.columns[-1] == "TEU difference"
