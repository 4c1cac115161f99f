"""A share of the last answer (issue 36, conv-share): the part is a value the turn names, the row
it picks, the rows the last answer showed, or the last question's filter the turn leaves out; the
whole is the last question without it. Both figures are said; checked against SQL on the dev set's
data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb

from bosun.conversation.session import Session
from tests.interfaces.serving import data_copy
from tests.interfaces.test_referents import _ask

SAVANNAH_2025 = (
    "port_of_unlading = 'SAVANNAH' and arrival_date between '2025-01-01' and '2025-12-31'"
)


def share_row(gold: duckdb.DuckDBPyConnection, part: str, whole: str) -> list[Any]:
    """[share in percent, part, whole] as the answer's table shows them, from two SQL figures."""
    ((part_figure,),) = gold.execute(part).fetchall()
    ((whole_figure,),) = gold.execute(whole).fetchall()
    return [round(100 * part_figure / whole_figure, 2), part_figure, whole_figure]


def shown(rows: list[list[Any]]) -> list[list[Any]]:
    return [[round(row[0], 2), *row[1:]] for row in rows]


def test_a_value_named_is_the_part_of_the_last_figure(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("TEU into Los Angeles in 2025", "named")
    answer = session.ask("what percentage of that was Maersk?", "named")
    where = (
        "port_of_unlading = 'LOS ANGELES' and arrival_date between '2025-01-01' and '2025-12-31'"
    )
    wanted = share_row(
        gold,
        f"select sum(teu) from shipments where carrier_name = 'MAERSK' and {where}",
        f"select sum(teu) from shipments where {where}",
    )
    (table,) = answer.results
    assert shown(table.rows) == [wanted]
    assert table.columns == ["share of TEU (%)", "TEU: part", "TEU: whole"]
    # both figures, and what each is of
    assert f"({wanted[1]:,} of {wanted[2]:,}) with carrier MAERSK" in answer.answer
    assert "port of unlading LOS ANGELES" in answer.answer
    assert answer.not_understood == []


def test_the_rows_shown_together_are_the_part_of_the_whole_the_turn_names(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Top 5 carriers into Savannah by TEU in 2025", "together")
    answer = session.ask("what share of all Savannah TEU do they make up together?", "together")
    top_5 = (
        f"select carrier_name from shipments where {SAVANNAH_2025} group by 1 "
        "order by sum(teu) desc limit 5"
    )
    wanted = share_row(
        gold,
        f"select sum(teu) from shipments where {SAVANNAH_2025} and carrier_name in ({top_5})",
        f"select sum(teu) from shipments where {SAVANNAH_2025}",
    )
    assert shown(answer.results[0].rows) == [wanted]
    assert any(a.startswith("the 5 carriers of the last answer: ") for a in answer.assumptions)
    assert answer.not_understood == []


def test_the_filter_the_whole_leaves_out_is_the_part(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Count of reefer shipments into Seattle this year", "left out")
    answer = session.ask("what percentage of all Seattle arrivals is that?", "left out")
    where = "port_of_unlading = 'SEATTLE' and arrival_date between '2026-01-01' and '2026-06-15'"
    wanted = share_row(
        gold,
        f"select count(*) from shipments where container_type in ('20RF', '40RF') and {where}",
        f"select count(*) from shipments where {where}",
    )
    assert shown(answer.results[0].rows) == [wanted]
    assert "with container type 20RF or 40RF" in answer.answer
    assert answer.not_understood == []


def test_the_leader_picked_is_the_part_of_the_last_total(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("TEU by consignee into Savannah in 2025", "leader")
    answer = session.ask("the leader's share, in percent?", "leader")
    ((leader, teu),) = gold.execute(
        f"select consignee_name, sum(teu) t from shipments where {SAVANNAH_2025} group by 1 "
        "order by t desc limit 1"
    ).fetchall()
    ((whole,),) = gold.execute(f"select sum(teu) from shipments where {SAVANNAH_2025}").fetchall()
    assert shown(answer.results[0].rows) == [[round(100 * teu / whole, 2), teu, whole]]
    assert f"“the leader” read as {leader}" in answer.assumptions
    assert answer.not_understood == []


def test_after_groups_a_bare_share_is_each_group_s_share(
    session: Session, gold: duckdb.DuckDBPyConnection
) -> None:
    session.ask("Shipments by carrier into Savannah in 2025", "each")
    answer = session.ask("what share is that?", "each")
    wanted = gold.execute(
        f"select carrier_name, round(100 * count(*) / sum(count(*)) over (), 2), count(*), "
        f"sum(count(*)) over () from shipments where {SAVANNAH_2025} group by 1"
    ).fetchall()
    got = [[row[0], round(row[1], 2), row[2], row[3]] for row in answer.results[0].rows]
    assert sorted(got) == sorted([list(row) for row in wanted])


def test_a_share_of_an_average_gives_no_figure(session: Session) -> None:
    session.ask("Average transit time into Los Angeles in 2025", "level")
    answer = session.ask("what percentage of that was Maersk?", "level")
    assert not any("share" in column for r in answer.results for column in r.columns)


def test_a_second_process_answers_a_share_of_the_first_one_s_records(
    data_dir: Path, tmp_path: Path, gold: duckdb.DuckDBPyConnection
) -> None:
    folder = data_copy(data_dir, tmp_path / "d")
    _ask(folder, "records", "Hazmat shipments into Long Beach last month")
    second = _ask(folder, "records", "what proportion of all Long Beach shipments is that?")
    where = "port_of_unlading = 'LONG BEACH' and arrival_date between '2026-05-01' and '2026-05-31'"
    wanted = share_row(
        gold,
        f"select count(*) from shipments where is_hazardous and {where}",
        f"select count(*) from shipments where {where}",
    )
    assert shown(second["results"][0]["rows"]) == [wanted]
    assert second["not_understood"] == []
