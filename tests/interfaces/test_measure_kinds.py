"""Issue 23's measure kinds end to end on the sample: shares, catalog ratio measures, medians and
percentiles, distinct counts, measures side by side and the last date of something, each figure
checked against SQL over the sample's own table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from bosun.conversation.session import Session
from tests.conftest import sample_session

REEFER = "container_type in ('20RF', '40RF')"


@pytest.fixture(scope="module")
def session(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    yield from sample_session(data_dir, tmp_path_factory.mktemp("measures"))


@pytest.fixture(scope="module")
def sql(session: Session) -> Iterator[duckdb.DuckDBPyConnection]:
    con = duckdb.connect()
    con.register("shipments", session.context.engine.inner.to_arrow("shipments"))
    yield con
    con.close()


def _rows(sql: duckdb.DuckDBPyConnection, query: str) -> list[tuple[Any, ...]]:
    return sql.execute(query).fetchall()


def _percent(part: float, whole: float) -> float:
    return round(100 * part / whole, 2)


def test_a_share_of_a_part_states_its_part_and_whole(
    session: Session, sql: duckdb.DuckDBPyConnection
) -> None:
    answer = session.ask("what share of reefer boxes went to Savannah", "share-part")
    (result,) = answer.results
    [(part, whole)] = _rows(
        sql,
        "select sum(container_count) filter (where port_of_unlading = 'SAVANNAH'), "
        f"sum(container_count) from shipments where {REEFER}",
    )
    assert result.rows == [[_percent(part, whole), part, whole]]
    assert result.columns == ["share of containers (%)", "containers: part", "containers: whole"]
    assert f"{_percent(part, whole):.2f} % of the containers" in answer.answer
    assert f"({part:,} of {whole:,})" in answer.answer and "SAVANNAH" in answer.answer
    assert result.reading.startswith("share of containers with port of unlading SAVANNAH")
    assert answer.not_understood == []


def test_a_catalog_ratio_measure_by_group(session: Session, sql: duckdb.DuckDBPyConnection) -> None:
    answer = session.ask("held share by carrier", "ratio")
    (result,) = answer.results
    gold = _rows(
        sql,
        "select carrier_name, count(*) filter (where status = 'held'), count(*) from shipments "
        "group by 1",
    )
    expected = sorted([[c, _percent(p, w), p, w] for c, p, w in gold], key=lambda r: -r[1])
    assert sorted(result.rows, key=lambda r: (-r[1], r[0])) == sorted(
        expected, key=lambda r: (-r[1], r[0])
    )
    # highest share first
    assert [r[1] for r in result.rows] == sorted((r[1] for r in result.rows), reverse=True)
    assert result.chart is not None and result.chart["mark"]["type"] == "bar"
    # a bar each: the shares make no one whole
    assert result.chart["encoding"]["y"]["field"] == "carrier_name"


def test_the_lowest_ratio_is_ranked_over_every_group(
    session: Session, sql: duckdb.DuckDBPyConnection
) -> None:
    """A terms agg cannot order by a ratio: every group is fetched and ranked on the rows."""
    answer = session.ask("which carrier has the lowest hold rate", "ratio-rank")
    (result,) = answer.results
    gold = _rows(
        sql,
        "select carrier_name, count(*) filter (where status = 'held') / count(*) as r from "
        "shipments "
        "group by 1 order by r limit 1",
    )
    assert [r[0] for r in result.rows] == [gold[0][0]]


def test_each_groups_share_is_over_the_whole_not_the_rows_shown(
    session: Session, sql: duckdb.DuckDBPyConnection
) -> None:
    answer = session.ask("share of TEU by carrier into Los Angeles last year", "share-all")
    (result,) = answer.results
    where = (
        "port_of_unlading = 'LOS ANGELES' and arrival_date between '2025-01-01' and '2025-12-31'"
    )
    [(whole,)] = _rows(sql, f"select sum(teu) from shipments where {where}")
    gold = dict(
        _rows(sql, f"select carrier_name, sum(teu) from shipments where {where} group by 1")
    )
    assert {r[0]: r[1:] for r in result.rows} == {
        c: [_percent(t, whole), t, whole] for c, t in gold.items()
    }
    assert "share of TEU of all carrier" in result.reading
    # one whole
    assert result.chart is not None and result.chart["encoding"]["x"]["stack"] == "normalize"


def test_a_median_is_exact_here_and_says_what_it_is_over(
    session: Session, sql: duckdb.DuckDBPyConnection
) -> None:
    answer = session.ask("median weight of a reefer shipment", "median")
    (result,) = answer.results
    [(median, counted)] = _rows(
        sql,
        "select quantile_cont(gross_weight_kg, 0.5), count(gross_weight_kg) "
        f"from shipments where {REEFER}",
    )
    assert result.rows == [[round(median, 2), counted]]
    assert f"over {counted:,} records with a value" in answer.answer
    assert any("exact" in a and "TDigest" in a for a in answer.assumptions), answer.assumptions


def test_a_percentile_by_group(session: Session, sql: duckdb.DuckDBPyConnection) -> None:
    answer = session.ask("90th percentile of transit time by port", "p90")
    (result,) = answer.results
    gold = _rows(
        sql,
        "select port_of_unlading, quantile_cont(transit_days, 0.9), count(transit_days) "
        "from shipments group by 1",
    )
    assert {r[0]: r[1:] for r in result.rows} == {p: [round(v, 2), n] for p, v, n in gold}
    assert result.columns[1] == "percentile 90 of transit days"


def test_distinct_count_and_measures_side_by_side(
    session: Session, sql: duckdb.DuckDBPyConnection
) -> None:
    distinct = session.ask("how many distinct vessels called at Oakland", "distinct").results[0]
    assert distinct.rows == [
        list(
            _rows(
                sql,
                "select count(distinct vessel_name) from shipments "
                "where port_of_unlading = 'OAKLAND'",
            )[0]
        )
    ]
    side = session.ask("TEU, weight and declared value by carrier", "side").results[0]
    gold = _rows(
        sql,
        "select carrier_name, sum(teu), sum(gross_weight_kg), sum(declared_value_usd) from "
        "shipments "
        "group by 1",
    )
    assert len(side.columns) == 4
    got = {r[0]: r[1:] for r in side.rows}
    for carrier, teu, weight, value in gold:
        assert got[carrier][0] == teu
        assert got[carrier][1] == pytest.approx(weight, rel=1e-6)
        assert got[carrier][2] == pytest.approx(value, rel=1e-6)


def test_the_date_of_the_latest_arrival(session: Session, sql: duckdb.DuckDBPyConnection) -> None:
    answer = session.ask("the date of the latest reefer arrival at Savannah", "last")
    (result,) = answer.results
    [(latest,)] = _rows(
        sql,
        f"select max(arrival_date) from shipments where {REEFER} and port_of_unlading = 'SAVANNAH'",
    )
    assert result.rows == [[latest.isoformat()]]
    assert answer.not_understood == []


def test_a_share_of_records_says_them_once(
    session: Session, sql: duckdb.DuckDBPyConnection
) -> None:
    answer = session.ask("what proportion of shipments into Miami were held?", "held-miami")
    ((part, whole),) = sql.execute(
        "select count(*) filter (where status = 'held'), count(*) from shipments "
        "where port_of_unlading = 'MIAMI'"
    ).fetchall()
    assert (
        f"% of the shipments with port of unlading MIAMI ({part:,} of {whole:,}) with status held"
        in answer.answer
    )
