"""Groups of two fields (issue 36, conv-regroup): "break each of those down by container type"
splits the last answer's groups by another field, "regroup that by quarter and container type"
lists a period and a field after one cue, and a first question grouped by two fields answers by
both. Rows are checked against SQL on the dev set's data."""

from __future__ import annotations

from typing import Any

import duckdb

from bosun.conversation.session import Session
from bosun.planner.answer import Answer

MIAMI_2025 = "port_of_unlading = 'MIAMI' and arrival_date between '2025-01-01' and '2025-12-31'"


def rows(answer: Answer) -> list[tuple[Any, ...]]:
    return sorted(tuple(row) for row in answer.results[0].rows)


def sql(gold: duckdb.DuckDBPyConnection, query: str) -> list[tuple[Any, ...]]:
    return sorted(gold.execute(query).fetchall())


def test_each_of_the_last_groups_is_split_by_another_field(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Count of shipments into Miami by commodity in 2025", "each")
    answer = session.ask("break each of those down by container type", "each")
    assert answer.results[0].columns[:2] == ["commodity", "container_type"]
    assert rows(answer) == sql(
        gold,
        f"select commodity, container_type, count(*) from shipments where {MIAMI_2025} "
        "group by 1, 2",
    )
    assert answer.not_understood == []
    # the groups are counted once each, not once per container type
    (commodities,) = gold.execute(
        f"select count(distinct commodity) from shipments where {MIAMI_2025}"
    ).fetchone()
    assert answer.answer.startswith(f"{commodities} commodities by shipments: ")


def test_a_period_and_a_field_listed_after_one_cue_regroup_the_last_answer(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Containers into Baltimore by month in 2025", "listed")
    answer = session.ask("regroup that by quarter and container type", "listed")
    got = [(row[0], str(row[1])[:10], row[2]) for row in answer.results[0].rows]
    assert sorted(got) == sql(
        gold,
        "select container_type, strftime(date_trunc('quarter', arrival_date), '%Y-%m-%d'), "
        "sum(container_count) from shipments where port_of_unlading = 'BALTIMORE' and "
        "arrival_date between '2025-01-01' and '2025-12-31' group by 1, 2",
    )
    assert answer.not_understood == []


def test_a_question_grouped_by_two_fields_answers_by_both(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    answer = session.ask("TEU into Miami in 2025 by carrier and container type", "two")
    assert rows(answer) == sql(
        gold,
        f"select carrier_name, container_type, sum(teu) from shipments where {MIAMI_2025} "
        "group by 1, 2",
    )
    # the carriers first by their TEU, as one field's groups are
    carriers = list(dict.fromkeys(row[0] for row in answer.results[0].rows))
    ranked = gold.execute(
        f"select carrier_name from shipments where {MIAMI_2025} group by 1 order by sum(teu) desc"
    ).fetchall()
    assert carriers == [row[0] for row in ranked]


HALF_YEAR = "make_date(year(arrival_date), case when month(arrival_date) <= 6 then 1 else 7 end, 1)"


def test_the_last_breakdown_broken_out_by_half_year(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("TEU by carrier into Savannah in 2025", "halves")
    answer = session.ask("break that out by half-year", "halves")
    got = sorted((row[0], str(row[1])[:10], row[2]) for row in answer.results[0].rows)
    assert got == sql(
        gold,
        f"select carrier_name, strftime({HALF_YEAR}, '%Y-%m-%d'), sum(teu) from shipments where "
        "port_of_unlading = 'SAVANNAH' and arrival_date between '2025-01-01' and '2025-12-31' "
        "group by 1, 2",
    )
    assert answer.not_understood == []
    assert "H1 2025" in answer.answer and "H2 2025" in answer.answer


def test_half_years_are_those_of_the_dates_and_need_them(session: Session) -> None:
    answer = session.ask("semiannual TEU into Savannah in 2025", "semi")
    halves = [str(row[0])[:10] for row in answer.results[0].rows]
    assert halves == ["2025-01-01", "2025-07-01"]
    unbounded = session.ask("TEU by half-year", "open")
    assert unbounded.results == [] and "half-years need the dates they cover" in unbounded.answer
