"""A daily series drafted with no edits: Seattle's weather, one row per day (vega_datasets, the Vega
project's example data). Three classes it showed: a row that is a day is counted as "days";
"temp_min" with values such as 5.6 is a temperature, not a minute of the hour; a qualifier that ends
a column name is said first ("temp_max" → "maximum temperature"). Each answer is judged against SQL
over the file.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import duckdb
import pytest

from bosun.conversation.session import Session
from tests.byod.drafting import Drafted, drafted_session, load_and_draft
from tests.byod.public import vega_file


@pytest.fixture(scope="module")
def drafted(tmp_path_factory: pytest.TempPathFactory) -> Drafted:
    folder = tmp_path_factory.mktemp("weather")
    shutil.copy(vega_file("seattle-weather.csv"), folder / "seattle_weather.csv")
    return load_and_draft(folder, "seattle_weather")


@pytest.fixture(scope="module")
def session(drafted: Drafted) -> Iterator[Session]:
    yield from drafted_session(drafted)


def _sql(drafted: Drafted, query: str) -> list[tuple[Any, ...]]:
    with duckdb.connect() as con:
        con.execute(
            f"create view w as from read_csv_auto('{drafted[0].parent / 'seattle_weather.csv'}')"
        )
        return con.execute(query).fetchall()


def _figure(session: Session, question: str) -> tuple[str, Any]:
    answer = session.ask(question, question)
    assert answer.status == "done" and not answer.not_understood, answer.answer
    (result,) = answer.results
    return answer.answer, result.rows[0][-1]


def test_the_rows_of_a_daily_series_are_days(drafted: Drafted, session: Session) -> None:
    _, catalog, _ = drafted
    assert catalog["objects"]["seattle_weather"]["description"] == "One day record."
    said, counted = _figure(session, "How many days had snow?")
    assert counted == _sql(drafted, "select count(*) from w where weather = 'snow'")[0][0] == 23
    assert said.startswith("23 days with weather snow")


def test_a_minimum_beside_its_maximum_is_a_measure_not_minutes(
    drafted: Drafted, session: Session
) -> None:
    """ "temp_min" beside "temp_max": a minimum, neither a minute of the hour (its values have
    fractions) nor a figure in minutes (it was drafted with the unit "minutes")."""
    _, catalog, printed = drafted
    field = catalog["objects"]["seattle_weather"]["fields"]["temp_min"]
    assert "temp_min: a date part" not in printed
    assert (
        field["role"] == "measure"
        and "unit" not in field
        and "minimum temperature" in field["synonyms"]
    )
    answer = session.ask("average minimum temperature by weather", "minimum")
    expected = dict(_sql(drafted, "select weather, avg(temp_min) from w group by 1"))
    # rounded
    assert {row[0]: row[1] for row in answer.results[0].rows} == pytest.approx(expected, abs=0.01)


def test_a_trailing_qualifier_is_said_first(drafted: Drafted, session: Session) -> None:
    _, catalog, _ = drafted
    assert (
        "maximum temperature"
        in catalog["objects"]["seattle_weather"]["fields"]["temp_max"]["synonyms"]
    )
    _, average = _figure(session, "average maximum temperature in July 2014")
    expected = _sql(
        drafted, "select avg(temp_max) from w where date between '2014-07-01' and '2014-07-31'"
    )[0][0]
    assert average == pytest.approx(expected)


def test_periods_are_whole_by_the_data_not_by_the_records_asked_for(
    drafted: Drafted, session: Session
) -> None:
    """Snow fell on 23 days, the first on 17 January 2012: that month is whole in the data, so it
    ranks (it had the most snow days) and a trend by year does not call 2012 cut short. Judged by
    the records' first snow day, January was dropped as partial and March (5) named the snowiest
    month."""
    ((month, most),) = _sql(
        drafted,
        "select date_trunc('month', date) m, count(*) c from w where weather = 'snow' "
        "group by 1 order by 2 desc limit 1",
    )
    answer = session.ask("which month had the most days of snow?", "snowiest")
    (result,) = answer.results
    assert str(result.rows[0][0])[:10] == str(month)[:10] and result.rows[0][-1] == most == 7
    trend = session.ask("days of snow by year", "snow-trend")
    assert "cut short" not in trend.answer and "21 (2012) to 2 (2013)" in trend.answer


def test_millimetres_are_not_millions(drafted: Drafted, session: Session) -> None:
    """ "10 mm of precipitation" once read as above 10,000,000 (finance's "mm" for millions): 0
    days, confidently. Without a unit in the data "mm" is said not understood, and the bound stays
    10."""
    answer = session.ask("days with more than 10 mm of precipitation in 2013", "mm")
    (found,) = _sql(
        drafted, "select count(*) from w where precipitation > 10 and year(date) = 2013"
    )[0]
    assert answer.not_understood == ["mm"] and answer.results[0].total == found == 21
