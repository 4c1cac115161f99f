"""Set logic against the last answer (issue 36, conv-set) and two lists asked back (conv-ambiguous):
threads of turns through a Session and `bosun ask --thread` in separate processes, the rows checked
against SQL over the dev set's data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb

from bosun.conversation.session import Session
from tests.interfaces.serving import data_copy
from tests.interfaces.test_referents import _ask

LAST_WEEK = "arrival_date between '2026-06-08' and '2026-06-14'"
IN_2025 = "arrival_date between '2025-01-01' and '2025-12-31'"


def keys(rows: list[list[Any]]) -> list[Any]:
    return sorted(row[0] for row in rows)


def sql_keys(gold: duckdb.DuckDBPyConnection, query: str) -> list[Any]:
    return sorted(row[0] for row in gold.execute(query).fetchall())


def test_things_named_first_are_listed_and_those_never_in_another_port_kept(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    first = session.ask("Vessels into Norfolk last week", "never")
    listed = sql_keys(
        gold,
        "select distinct vessel_name from shipments where port_of_unlading = 'NORFOLK' and "
        + LAST_WEEK,
    )
    assert keys(first.results[0].rows) == listed and not first.not_understood
    second = session.ask("which of them never showed up in Seattle that week?", "never")
    wanted = sql_keys(
        gold,
        "select distinct vessel_name from shipments where port_of_unlading = 'NORFOLK' and "
        f"{LAST_WEEK} and vessel_name not in (select vessel_name from shipments where "
        f"port_of_unlading = 'SEATTLE' and {LAST_WEEK})",
    )
    assert keys(second.results[0].rows) == wanted


def test_which_of_them_keeps_the_rows_with_records_of_its_filters(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Top 10 consignees by TEU in 2025", "kept")
    answer = session.ask("which of them received hazardous cargo through Miami that year?", "kept")
    wanted = sql_keys(
        gold,
        "select distinct consignee_name from shipments where is_hazardous and port_of_unlading = "
        f"'MIAMI' and {IN_2025} and consignee_name in (select consignee_name from shipments where "
        f"{IN_2025} group by 1 order by sum(teu) desc limit 10)",
    )
    assert keys(answer.results[0].rows) == wanted
    assert answer.results[0].total == len(wanted)


def test_a_name_at_another_level_replaces_the_last_one(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Which shippers moved laptops into Los Angeles last month?", "level")
    answer = session.ask("were any of them also shipping phones there?", "level")
    month = "arrival_date between '2026-05-01' and '2026-05-31'"
    wanted = sql_keys(
        gold,
        "select distinct shipper_name from shipments where commodity = 'phones' and "
        f"port_of_unlading = 'LOS ANGELES' and {month} and shipper_name in (select shipper_name "
        f"from shipments where hs_code = '847130' and port_of_unlading = 'LOS ANGELES' and {month})",
    )
    assert wanted and keys(answer.results[0].rows) == wanted
    assert "847130" not in answer.results[0].reading


def test_two_lists_are_asked_back_and_the_one_picked_answered_across_processes(
    data_dir: Path, tmp_path: Path, gold: duckdb.DuckDBPyConnection
) -> None:
    folder = data_copy(data_dir, tmp_path / "d")
    first = _ask(folder, "lists", "Top 3 carriers and top 3 shippers by TEU into Savannah in 2025")
    assert [len(table["rows"]) for table in first["results"]] == [3, 3]
    asked = _ask(folder, "lists", "which of them also use Charleston?")
    assert asked["status"] == "needs_clarification" and not asked["results"]
    options = asked["clarification"]["options"]
    assert len(options) == 2 and "shippers" in options[1]
    picked = _ask(folder, "lists", "the shippers")
    wanted = sql_keys(
        gold,
        "select distinct shipper_name from shipments where port_of_unlading = 'CHARLESTON' and "
        f"{IN_2025} and shipper_name in (select shipper_name from shipments where "
        f"port_of_unlading = 'SAVANNAH' and {IN_2025} group by 1 order by sum(teu) desc limit 3)",
    )
    assert keys(picked["results"][0]["rows"]) == wanted
    assert picked["results"][0]["columns"][0] == "shipper_name"
