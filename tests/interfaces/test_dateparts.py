"""Date parts end to end on the sample (issue 23 "date parts"): questions by weekday and month of
the year answered through a real session, each figure checked against SQL over the sample's own
dates (isodow, month in DuckDB), not over the derived fields; a part the data lacks (an hour of
dates) is refused without a figure."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from bosun.conversation.session import Session
from bosun.engines.embedded import EmbeddedEngine
from tests.conftest import sample_session


@pytest.fixture(scope="module")
def session(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    yield from sample_session(data_dir, tmp_path_factory.mktemp("dateparts"))


@pytest.fixture(scope="module")
def gold(data_dir: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """The sample's shipments with their dates only: the derived part fields are dropped, so SQL
    finds the parts."""
    engine = EmbeddedEngine(data_dir / "bosun.duckdb", read_only=True)
    table = engine.to_arrow("shipments")
    engine.close()
    kept = [n for n in table.column_names if not n.endswith(("_weekday", "_month"))]
    con = duckdb.connect()
    con.register("shipments", table.select(kept))
    yield con
    con.close()


def _rows(con: duckdb.DuckDBPyConnection, sql: str) -> list[list[Any]]:
    return [
        [round(v, 2) if isinstance(v, float) else v for v in row]
        for row in con.execute(sql).fetchall()
    ]


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        (
            "TEU by day of the week into Savannah",
            "select dayname(arrival_date), sum(teu) from shipments where port_of_unlading = "
            "'SAVANNAH' "
            "and arrival_date is not null group by isodow(arrival_date), 1 order by "
            "isodow(arrival_date)",
        ),
        (
            "average transit time by month of the year",
            "select monthname(arrival_date), round(avg(transit_days), 2) from shipments where "
            "arrival_date is not null "
            "group by month(arrival_date), 1 order by month(arrival_date)",
        ),
        (
            "which weekday is busiest at Savannah",
            "select dayname(arrival_date), count(*) from shipments where port_of_unlading = "
            "'SAVANNAH' "
            "and arrival_date is not null group by 1 order by 2 desc limit 1",
        ),
        (
            "how many shipments departed on Fridays in May",
            "select count(*) from shipments where isodow(departure_date) = 5 "
            "and departure_date between '2026-05-01' and '2026-05-31'",
        ),
        (
            "total TEU into Houston on weekends in 2025",
            "select sum(teu) from shipments where port_of_unlading = 'HOUSTON' and "
            "isodow(arrival_date) in (6, 7) "
            "and arrival_date between '2025-01-01' and '2025-12-31'",
        ),
        (
            "weekend departures by carrier",
            "select carrier_name, count(*) from shipments where isodow(departure_date) in (6, 7) "
            "group by 1 "
            "order by 2 desc, 1",
        ),
    ],
)
def test_a_date_part_is_answered_as_sql_answers_it(
    session: Session, gold: duckdb.DuckDBPyConnection, question: str, sql: str
) -> None:
    answer = session.ask(question, f"dp-{question}")
    assert answer.status == "done" and answer.not_understood == [], answer.answer
    result = answer.results[0]
    assert sorted(map(str, result.rows)) == sorted(map(str, _rows(gold, sql))), (
        result.rows,
        result.reading,
    )
    # groups in part order
    if result.reading.startswith(("total TEU · by day", "average transit days · by month")):
        assert result.rows == _rows(gold, sql)


def test_a_weekday_grouping_reads_monday_first(session: Session) -> None:
    result = session.ask("TEU by day of the week into Savannah", "dp-reading").results[0]
    assert (
        result.reading
        == "total TEU · by day of the week of arrival date · Monday first · port of unlading SAVANNAH"
    )
    assert [row[0] for row in result.rows] == [
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ]


@pytest.mark.parametrize(
    "question",
    [
        "shipments by hour",
        "how many shipments arrived after 10pm",
        "departures from Busan in the mornings",
    ],
)
def test_an_hour_of_dates_is_refused_without_a_figure(session: Session, question: str) -> None:
    answer = session.ask(question, f"dp-refused-{question}")
    assert all(not r.rows for r in answer.results), answer.results
    assert "no field for" in answer.answer and "time of day" in answer.answer, answer.answer
