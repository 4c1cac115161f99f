"""Issue 23, period against period and set logic over values, end to end: the rules read the
question, the compiler's DSL runs on the embedded engine over the dev set's data, and every figure
is checked against SQL written here over the same DuckDB table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from bosun.conversation.session import Session
from tests.conftest import sample_session


@pytest.fixture(scope="module")
def session(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    yield from sample_session(data_dir, tmp_path_factory.mktemp("periods"))


def rows(gold: duckdb.DuckDBPyConnection, sql: str) -> list[tuple[Any, ...]]:
    return gold.execute(sql).fetchall()


def change(before: int, after: int) -> tuple[int, float]:
    return after - before, round(100 * (after - before) / before, 1)


def test_two_periods_side_by_side_with_the_change(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    answer = session.ask("TEU into Savannah in Q1 2026 vs Q1 2025", "vs")
    ((q1_25, q1_26),) = rows(
        gold,
        "select sum(teu) filter (where arrival_date between '2025-01-01' and '2025-03-31'), "
        "sum(teu) filter (where arrival_date between '2026-01-01' and '2026-03-31') "
        "from shipments where port_of_unlading = 'SAVANNAH'",
    )
    (result,) = answer.results
    assert result.columns == ["TEU · Q1 2025", "TEU · Q1 2026", "change", "change %"]
    assert result.rows == [[q1_25, q1_26, *change(q1_25, q1_26)]]
    assert (
        result.reading
        == "total TEU · port of unlading SAVANNAH · Q1 2025 vs Q1 2026 compared (arrival date)"
    )
    difference, percent = change(q1_25, q1_26)
    assert answer.answer == (
        f"Total TEU of the records with port of unlading SAVANNAH: {q1_25:,} TEU in Q1 2025, "
        f"{q1_26:,} TEU in Q1 2026; change "
        f"{difference:+,} ({percent:+.1f} %)."
    )
    assert result.chart is not None and result.chart["transform"][0]["fold"] == result.columns[:2]


def test_the_query_reads_only_the_two_periods(session: Session) -> None:
    answer = session.ask("boxes in May 2026 against May 2025", "only-periods")
    query = answer.results[0].query
    assert query is not None
    ranges = query["query"]["bool"]["filter"][0]["bool"]["should"]
    assert [r["range"]["arrival_date"] for r in ranges] == [
        {"gte": "2025-05-01", "lte": "2025-05-31"},
        {"gte": "2026-05-01", "lte": "2026-05-31"},
    ]


def test_the_group_that_grew_most(session: Session, gold: duckdb.DuckDBPyConnection) -> None:
    answer = session.ask("which carrier grew most from Q1 2025 to Q1 2026", "grew")
    per_carrier = rows(
        gold,
        "select carrier_name, count(*) filter (where arrival_date between '2025-01-01' and "
        "'2025-03-31') a, count(*) filter (where arrival_date between '2026-01-01' and "
        "'2026-03-31') b from shipments group by 1 order by b - a desc, 1",
    )
    carrier, before, after = per_carrier[0]
    # one leader, no tie
    assert per_carrier[0][2] - per_carrier[0][1] > per_carrier[1][2] - per_carrier[1][1]
    (result,) = answer.results
    assert result.rows == [[carrier, before, after, *change(before, after)]]
    assert "top 1 by change" in result.reading


def test_the_group_that_fell_most_ranks_the_lowest_change_first(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    answer = session.ask("which 3 ports dropped the most in TEU from Q1 2025 to Q1 2026", "dropped")
    per_port = rows(
        gold,
        "select port_of_unlading, sum(teu) filter (where arrival_date between '2026-01-01' and "
        "'2026-03-31') - sum(teu) filter (where arrival_date between '2025-01-01' and "
        "'2025-03-31') d from shipments group by 1 order by d, 1 limit 3",
    )
    assert [(r[0], r[3]) for r in answer.results[0].rows] == per_port


def test_a_follow_up_compares_the_last_period_with_the_year_before(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("TEU into Seattle in Q1 2026", "follow")
    answer = session.ask("how does that compare to last year?", "follow")
    ((q1_25, q1_26),) = rows(
        gold,
        "select sum(teu) filter (where arrival_date between '2025-01-01' and '2025-03-31'), "
        "sum(teu) filter (where arrival_date between '2026-01-01' and '2026-03-31') "
        "from shipments where port_of_unlading = 'SEATTLE'",
    )
    assert answer.results[0].rows == [[q1_25, q1_26, *change(q1_25, q1_26)]]


def test_groups_having_both_values(session: Session, gold: duckdb.DuckDBPyConnection) -> None:
    answer = session.ask("vessels that called at both Busan and Rotterdam", "both")
    wanted = rows(
        gold,
        "select vessel_name, count(*) from shipments where port_of_lading in ('BUSAN', "
        "'ROTTERDAM') "
        "group by 1 having count(distinct port_of_lading) = 2 order by 2 desc, 1",
    )
    (tested,) = rows(
        gold,
        "select count(distinct vessel_name) from shipments where port_of_lading in "
        "('BUSAN', 'ROTTERDAM')",
    )[0]
    (result,) = answer.results
    assert sorted(map(tuple, result.rows)) == sorted(wanted)
    assert [r[1] for r in result.rows] == [w[1] for w in wanted]  # by the count, highest first
    assert answer.answer.startswith(
        f"{len(wanted)} of {tested} vessels pass (records of each port of lading "
        "BUSAN and ROTTERDAM)"
    )


def test_groups_having_one_value_but_never_another(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    answer = session.ask("shippers using HMM but never OOCL in May 2026", "never")
    wanted = rows(
        gold,
        "select shipper_name, count(*) filter (where carrier_name = 'HMM') from shipments "
        "where arrival_date between '2026-05-01' and '2026-05-31' group by 1 having "
        "count(*) filter (where carrier_name = 'HMM') > 0 and "
        "count(*) filter (where carrier_name = 'OOCL') = 0",
    )
    (tested,) = rows(
        gold,
        "select count(distinct shipper_name) from shipments where carrier_name = 'HMM' and "
        "arrival_date between '2026-05-01' and '2026-05-31'",
    )[0]
    (result,) = answer.results
    assert 0 < len(wanted) < tested
    assert sorted(map(tuple, result.rows)) == sorted(wanted)
    assert answer.answer.startswith(
        f"{len(wanted)} of {tested} shippers pass (no record of carrier name OOCL)"
    )
    assert "having no carrier OOCL" in result.reading


def test_never_is_no_record_at_all_not_a_filter_on_records(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    answer = session.ask("which carriers never called at Honolulu", "honolulu")
    wanted = rows(
        gold,
        "select carrier_name from shipments group by 1 "
        "having count(*) filter (where port_of_unlading = 'HONOLULU') = 0",
    )
    assert [r[0] for r in answer.results[0].rows] == [w[0] for w in wanted]
    assert len(wanted) < len(rows(gold, "select distinct carrier_name from shipments"))


def test_values_combined_are_one_total(session: Session, gold: duckdb.DuckDBPyConnection) -> None:
    answer = session.ask("total TEU of Oakland and Seattle together in 2025", "together")
    ((teu,),) = rows(
        gold,
        "select sum(teu) from shipments where port_of_unlading in ('OAKLAND', 'SEATTLE') and "
        "arrival_date between '2025-01-01' and '2025-12-31'",
    )
    assert answer.results[0].rows == [[teu]]
    assert answer.not_understood == []
