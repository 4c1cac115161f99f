"""A turn that asks for the record holding the last figure (issue 36, conv-list): "show me that
shipment" after the earliest ETA among some shipments is the shipments with that ETA, never every
shipment counted. Rows checked against SQL on the dev set's data."""

from __future__ import annotations

import duckdb

from bosun.conversation.session import Session
from tests.interfaces.test_listing_records import column, pairs, sql

_BALTIMORE = "status = 'in_transit' and port_of_unlading = 'BALTIMORE'"
_OAKLAND = "carrier_name = 'MSC' and port_of_unlading = 'OAKLAND'"


def test_that_shipment_after_the_earliest_eta_is_the_one_holding_it(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("What's the earliest ETA among shipments in transit to Baltimore?", "eta")
    answer = session.ask("show me that shipment", "eta")
    wanted = sql(
        gold,
        f"select bol_number from shipments where {_BALTIMORE} and eta_date = "
        f"(select min(eta_date) from shipments where {_BALTIMORE})",
    )
    assert {(bol,) for bol in column(answer, "bol_number")} == wanted
    assert answer.results[0].total == len(wanted) < 20  # not every shipment in transit there


def test_that_one_after_the_heaviest_weight_is_the_record_of_that_weight(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("What was the heaviest gross weight shipped by Maersk in 2025?", "weight")
    answer = session.ask("show me that one", "weight")
    wanted = sql(
        gold,
        "select bol_number from shipments where carrier_name = 'MAERSK' and "
        "year(departure_date) = 2025 order by gross_weight_kg desc limit 1",
    )
    assert {(bol,) for bol in column(answer, "bol_number")} == wanted


def test_a_field_of_that_shipment_is_listed_for_the_records_holding_the_figure(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("latest arrival date for MSC into Oakland", "latest")
    answer = session.ask("who was the consignee of that shipment?", "latest")
    wanted = sql(
        gold,
        f"select bol_number, consignee_name from shipments where {_OAKLAND} and arrival_date = "
        f"(select max(arrival_date) from shipments where {_OAKLAND})",
    )
    assert pairs(answer, "bol_number", "consignee_name") == wanted
