"""A turn that lists the last answer's records or their fields (issue 36, conv-list): "what are
their ETAs?", "who are the consignees?", "show me the records" after a list of records or a count.
The last question's filters stand for its records; rows checked against SQL on the dev set's data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb

from bosun.conversation.session import Session
from bosun.planner.answer import Answer
from tests.interfaces.serving import data_copy
from tests.interfaces.test_referents import _ask


def column(answer: Answer, name: str) -> list[Any]:
    """The cells of the answer's first table under the column `name`, as text."""
    table = answer.results[0]
    at = table.columns.index(name)
    return [str(row[at]) for row in table.rows]


def pairs(answer: Answer, first: str, second: str) -> set[tuple[str, str]]:
    return set(zip(column(answer, first), column(answer, second), strict=True))


def sql(gold: duckdb.DuckDBPyConnection, query: str) -> set[tuple[str, ...]]:
    return {tuple(str(cell) for cell in row) for row in gold.execute(query).fetchall()}


def test_their_etas_are_each_record_with_its_eta(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Which Maersk shipments to Charleston are still at sea?", "etas")
    answer = session.ask("what are their ETAs?", "etas")
    wanted = sql(
        gold,
        "select bol_number, eta_date from shipments where carrier_name = 'MAERSK' and "
        "port_of_unlading = 'CHARLESTON' and status = 'in_transit'",
    )
    assert answer.results[0].total == len(wanted)
    assert pairs(answer, "bol_number", "eta_date") == wanted


def test_a_grouping_field_asked_lists_its_values_among_the_records(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Held shipments in New York", "consignees")
    answer = session.ask("who are the consignees?", "consignees")
    wanted = sql(
        gold,
        "select distinct consignee_name from shipments where status = 'held' and "
        "port_of_unlading = 'NEW YORK'",
    )
    consignees = column(answer, "consignee_name")
    assert {(name,) for name in consignees} == wanted
    assert len(consignees) == len(wanted)


def test_who_shipped_the_records_a_ranking_picked_keeps_those_records(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Show the heaviest 5 shipments into Houston last month", "heaviest")
    answer = session.ask("who shipped them?", "heaviest")
    wanted = sql(
        gold,
        "select bol_number, shipper_name from shipments where port_of_unlading = 'HOUSTON' and "
        "arrival_date between '2026-05-01' and '2026-05-31' order by gross_weight_kg desc limit 5",
    )
    assert pairs(answer, "bol_number", "shipper_name") == wanted


def test_the_records_after_a_count_are_those_counted(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("How many hazardous shipments came into Houston last month?", "records")
    answer = session.ask("show me the records", "records")
    wanted = sql(
        gold,
        "select bol_number from shipments where is_hazardous and port_of_unlading = 'HOUSTON' "
        "and arrival_date between '2026-05-01' and '2026-05-31'",
    )
    assert {(bol,) for bol in column(answer, "bol_number")} == wanted
    assert answer.results[0].total == len(wanted)


def test_where_asks_the_field_the_catalog_names_for_it(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("How many shipments left Rotterdam last week?", "where")
    answer = session.ask("where are they headed?", "where")
    wanted = sql(
        gold,
        "select port_of_unlading from shipments where port_of_lading = 'ROTTERDAM' and "
        "departure_date between '2026-06-08' and '2026-06-14' group by 1",
    )
    assert {(port,) for port in column(answer, "port_of_unlading")} == wanted


def test_a_term_asked_after_records_is_still_defined(session: Session) -> None:
    session.ask("Held shipments in New York", "term")
    answer = session.ask("what is an ETA?", "term")
    assert answer.results == []
    assert "Estimated time of arrival" in answer.answer


def test_a_second_process_lists_when_the_records_counted_are_due(
    data_dir: Path, tmp_path: Path, gold: duckdb.DuckDBPyConnection
) -> None:
    folder = data_copy(data_dir, tmp_path / "d")
    _ask(folder, "due", "How many MSC shipments are in transit to Tacoma?")
    second = _ask(folder, "due", "when are they due?")
    wanted = sql(
        gold,
        "select bol_number, eta_date from shipments where carrier_name = 'MSC' and "
        "port_of_unlading = 'TACOMA' and status = 'in_transit'",
    )
    table = second["results"][0]
    at_bol, at_eta = table["columns"].index("bol_number"), table["columns"].index("eta_date")
    assert {(str(r[at_bol]), str(r[at_eta])[:10]) for r in table["rows"]} == wanted
