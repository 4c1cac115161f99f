"""Rows of the last answer picked by their place (issue 36, conv-ordinal): "the second", "the peak
month", "it" after an answer of one row; the turn's question asked of that row, ranked on the last
answer's measure when it names none. Rows checked against SQL on the dev set's data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest

from bosun.conversation.session import Session
from bosun.planner.answer import Answer
from tests.interfaces.serving import data_copy
from tests.interfaces.test_referents import _ask


def sql(gold: duckdb.DuckDBPyConnection, query: str) -> list[tuple[Any, ...]]:
    return list(gold.execute(query).fetchall())


def rows(answer: Answer) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in answer.results[0].rows]


SEATTLE_2025 = "port_of_unlading = 'SEATTLE' and arrival_date between '2025-01-01' and '2025-12-31'"


def test_the_third_is_the_third_row_of_the_last_answer(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Top 4 carriers into Seattle in 2025", "third")
    answer = session.ask("and the average transit time of the third?", "third")
    ((wanted,),) = sql(
        gold,
        f"select avg(transit_days) from shipments where {SEATTLE_2025} and carrier_name = "
        f"(select carrier_name from shipments where {SEATTLE_2025} group by 1 "
        "order by count(*) desc limit 1 offset 2)",
    )
    assert rows(answer) == [(pytest.approx(wanted, abs=0.01),)]


def test_the_peak_month_is_the_period_its_rows_are_grouped_within(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Monthly TEU into Savannah in 2025", "peak")
    answer = session.ask("show me the carriers in the peak month", "peak")
    wanted = sql(
        gold,
        "select carrier_name, sum(teu) from shipments where port_of_unlading = 'SAVANNAH' and "
        "date_trunc('month', arrival_date) = (select date_trunc('month', arrival_date) from "
        "shipments where port_of_unlading = 'SAVANNAH' and arrival_date between '2025-01-01' and "
        "'2025-12-31' group by 1 order by sum(teu) desc limit 1) group by 1",
    )
    assert sorted(rows(answer)) == sorted(wanted)


def test_which_month_was_busiest_still_asks_which_one(session: Session) -> None:
    session.ask("Monthly shipment counts into Jacksonville in 2025", "asks")
    answer = session.ask("what was the busiest month?", "asks")
    assert len(answer.results[0].rows) == 1
    assert "period" in answer.results[0].roles


def test_the_most_of_the_top_one_ranks_on_the_last_answers_measure(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    baltimore = (
        "port_of_unlading = 'BALTIMORE' and arrival_date between '2025-01-01' and '2025-12-31'"
    )
    session.ask("Top 3 commodities by weight into Baltimore last year", "most")
    answer = session.ask("who shipped the most of the top one?", "most")
    wanted = sql(
        gold,
        f"select shipper_name, sum(gross_weight_kg) w from shipments where {baltimore} and "
        f"commodity = (select commodity from shipments where {baltimore} group by 1 order by "
        "sum(gross_weight_kg) desc limit 1) group by 1 order by w desc limit 1",
    )
    assert [(name, pytest.approx(weight)) for name, weight in rows(answer)] == wanted


def test_a_second_process_reads_it_as_the_one_row_of_the_last_answer(
    data_dir: Path, tmp_path: Path, gold: duckdb.DuckDBPyConnection
) -> None:
    folder = data_copy(data_dir, tmp_path / "d")
    _ask(folder, "it", "What was the busiest US port in 2025?")
    second = _ask(folder, "it", "how many shipments did it get from Germany that year?")
    ((wanted,),) = sql(
        gold,
        "select count(*) from shipments where lading_country = 'DE' and arrival_date between "
        "'2025-01-01' and '2025-12-31' and port_of_unlading = (select port_of_unlading from "
        "shipments where arrival_date between '2025-01-01' and '2025-12-31' group by 1 order by "
        "count(*) desc limit 1)",
    )
    assert second["results"][0]["rows"] == [[wanted]]


def test_the_first_and_the_third_are_compared_on_the_measure_named(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Top 3 carriers into Oakland last quarter", "two")
    answer = session.ask("compare the first and the third on average transit", "two")
    oakland = "port_of_unlading = 'OAKLAND' and arrival_date between '2026-01-01' and '2026-03-31'"
    wanted = sql(
        gold,
        f"select carrier_name, avg(transit_days) from shipments where {oakland} and carrier_name "
        f"in (select carrier_name from (select carrier_name, row_number() over (order by count(*) "
        f"desc) r from shipments where {oakland} group by 1) where r in (1, 3)) group by 1",
    )
    assert sorted(rows(answer)) == sorted((c, pytest.approx(v, abs=0.01)) for c, v in wanted)


def test_that_week_is_the_one_week_the_last_answer_picked(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    """ "that week" after an answer of one week: the turn is asked of that week, with the last
    question's filters; "who" asks for the carriers, so nothing is said not understood."""
    session.ask("Monthly shipments into Oakland in 2025", "that")
    session.ask("which month was the quietest?", "that")
    answer = session.ask("who were the top 2 carriers that month?", "that")
    quietest = (
        "select date_trunc('month', arrival_date) m from shipments where port_of_unlading = "
        "'OAKLAND' and year(arrival_date) = 2025 group by 1 order by count(*), 1 limit 1"
    )
    wanted = sql(
        gold,
        "select carrier_name, count(*) n from shipments where port_of_unlading = 'OAKLAND' and "
        f"date_trunc('month', arrival_date) = ({quietest}) group by 1 order by n desc, 1 limit 2",
    )
    assert answer.not_understood == [] and [r[1] for r in rows(answer)] == [n for _, n in wanted]


@pytest.mark.parametrize(
    "follow_up", ["what was their average transit time?", "average transit time for each of them?"]
)
def test_their_figure_is_the_figure_of_each_row_shown(
    session: Session, gold: duckdb.DuckDBPyConnection, follow_up: str
) -> None:
    """ "what was their average transit time?" after the top 3 shippers: each of those 3, never
    the average over every shipment (it once answered 19.03 days of all shipments, no doubt said)."""
    session.ask("top 3 shippers into Miami by TEU in 2025", follow_up)
    answer = session.ask(follow_up, follow_up)
    miami = "port_of_unlading = 'MIAMI' and year(arrival_date) = 2025"
    wanted = sql(
        gold,
        f"select shipper_name, avg(transit_days) a from shipments where {miami} and shipper_name "
        f"in (select shipper_name from shipments where {miami} group by 1 order by sum(teu) desc "
        "limit 3) group by 1 order by a desc",
    )
    assert [(r[0], pytest.approx(r[1], abs=0.01)) for r in rows(answer)] == wanted


def test_the_share_of_a_figure_the_turn_names_over_the_rows_pointed_at(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    """After the top 3 shippers and then their transit times, "the share of Miami's TEU they
    carried together" is those 3 shippers' TEU over Miami's (it once read each shipper's TEU
    that went to Miami: 100 % each)."""
    thread = "together"
    session.ask("top 3 shippers into Miami by TEU in 2025", thread)
    session.ask("what were their average transit times?", thread)
    answer = session.ask("and the share of Miami's TEU they carried together?", thread)
    miami = "port_of_unlading = 'MIAMI' and year(arrival_date) = 2025"
    ((part, whole),) = sql(
        gold,
        f"select sum(teu) filter (where shipper_name in (select shipper_name from shipments "
        f"where {miami} group by 1 order by sum(teu) desc limit 3)), sum(teu) from shipments "
        f"where {miami}",
    )
    ((share, *figures),) = rows(answer)
    assert share == pytest.approx(100 * part / whole, abs=0.01) and figures == [part, whole]


def test_the_first_one_by_quarter_is_that_row_by_quarter(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    """ "how did the first one trend by quarter?" after the top 5 consignees: the first one's
    figure per quarter (it once gave all 5 by quarter, "the first one" silently dropped)."""
    session.ask("top 5 consignees by TEU into Houston in 2025", "trend")
    answer = session.ask("how did the first one trend by quarter?", "trend")
    houston = "port_of_unlading = 'HOUSTON' and year(arrival_date) = 2025"
    wanted = sql(
        gold,
        f"select sum(teu) from shipments where {houston} and consignee_name = (select "
        f"consignee_name from shipments where {houston} group by 1 order by sum(teu) desc limit 1)"
        " group by date_trunc('quarter', arrival_date) order by date_trunc('quarter', arrival_date)",
    )
    assert [row[-1] for row in rows(answer)] == [total for (total,) in wanted]
