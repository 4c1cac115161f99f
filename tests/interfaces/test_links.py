"""Filters on a linked object's attribute, and listings of reference objects, end to end on the
sample (issue 23).

A link is two sub-goals: reference_lookup reads the objects' keys on their own index, then
es_query_gen takes them through an InputRef into a `terms` filter. The figures are checked against a
JOIN over the sample's tables.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest

from tests.interfaces.test_ask import ask


def gold(data_dir: Path, sql: str) -> list[list[Any]]:
    with duckdb.connect(str(data_dir / "bosun.duckdb"), read_only=True) as connection:
        return [list(row) for row in connection.execute(sql).fetchall()]


def sub_goals(answer: dict[str, Any]) -> list[tuple[str, dict[str, str]]]:
    """Each sub-goal's worker and where its inputs come from ("sg2.linked_keys")."""
    return [(s["worker"], s.get("inputs", {})) for s in answer["trace"]["sub_goals"]]


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        (
            "TEU carried by Ocean Alliance members",
            "select sum(s.teu) from shipments s join carriers c on s.carrier_name = c.carrier_name "
            "where c.alliance = 'Ocean Alliance'",
        ),
        (
            "how many shipments came on ships built before 2010",
            "select count(*) from shipments s join vessels v on s.vessel_name = v.vessel_name "
            "where v.built_year < 2010",
        ),
        (
            "How many shipments came from ports in Europe in 2025?",
            "select count(*) from shipments s join ports p on s.port_of_lading = p.port_name where "
            "p.region = 'europe' "
            "and s.arrival_date between '2025-01-01' and '2025-12-31'",
        ),
        (
            "total containers carried by ships flying the flag of Singapore",
            "select sum(s.container_count) from shipments s join vessels v on s.vessel_name = "
            "v.vessel_name "
            "where v.flag = 'SG'",
        ),
        (
            "TEU received by consignees in Georgia",
            "select sum(s.teu) from shipments s join companies c on s.consignee_name = "
            "c.company_name "
            "where c.us_state = 'GA'",
        ),
    ],
)
def test_a_link_is_a_lookup_then_a_query_wired_by_its_keys(
    data_dir: Path, question: str, sql: str
) -> None:
    answer = ask(data_dir, question)
    assert answer["status"] == "done", answer["answer"]
    (result,) = answer["results"]
    assert result["rows"] == gold(data_dir, sql)
    steps = sub_goals(answer)
    assert [worker for worker, _ in steps] == [
        "metadata_lookup",
        "reference_lookup",
        "es_query_gen",
        "es_query_exec",
        "show_results",
    ]
    lookup_id = answer["trace"]["sub_goals"][1]["id"]
    assert steps[2][1]["linked_keys"] == f"sg{lookup_id}.linked_keys"  # the InputRef of the keys
    assert '"terms"' in str(result["query"]).replace("'", '"')


def test_the_answer_says_which_objects_the_link_read(data_dir: Path) -> None:
    answer = ask(data_dir, "volume by carrier for Gemini Cooperation carriers")
    members = [
        r[0]
        for r in gold(
            data_dir,
            "select carrier_name from carriers where alliance = 'Gemini Cooperation' order by 1",
        )
    ]
    assert (
        f"“Gemini Cooperation carriers” read as the carriers with alliance Gemini Cooperation: "
        f"{', '.join(members)}" in answer["assumptions"]
    )
    (result,) = answer["results"]
    wanted = gold(
        data_dir,
        "select s.carrier_name, sum(s.teu) t from shipments s join carriers c using (carrier_name) "
        "where c.alliance = 'Gemini Cooperation' group by 1 order by t desc",
    )
    assert result["rows"] == wanted
    assert all(member in result["reading"] for member in members)


def test_an_attribute_value_no_object_has_is_said_not_answered_unfiltered(data_dir: Path) -> None:
    answer = ask(data_dir, "shipments on vessels flagged in France")
    assert answer["status"] == "failed" and answer["results"] == []
    assert "No vessels have flag FR" in answer["answer"]
    assert [w for w, _ in sub_goals(answer)] == ["metadata_lookup", "reference_lookup"]


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        (
            "which carriers belong to the Gemini Cooperation",
            "select carrier_name, alliance from carriers where alliance = 'Gemini Cooperation' "
            "order by 1",
        ),
        (
            "list our foreign ports in Korea",
            "select port_name, country from ports where country = 'KR' order by 1",
        ),
        (
            "which vessels are flagged in Panama?",
            "select vessel_name, flag from vessels where flag = 'PA' order by 1",
        ),
    ],
)
def test_a_listing_of_reference_objects_is_a_table_of_them(
    data_dir: Path, question: str, sql: str
) -> None:
    answer = ask(data_dir, question)
    (result,) = answer["results"]
    assert result["rows"] == gold(data_dir, sql)
    assert result["total"] == len(result["rows"])
    assert [w for w, _ in sub_goals(answer)] == [
        "metadata_lookup",
        "es_query_gen",
        "es_query_exec",
        "show_results",
    ]
    assert answer["not_understood"] == []
    named = ", ".join(str(row[0]) for row in result["rows"][:10])
    # the answer names the objects it lists, not only their number
    assert f": {named}" in answer["answer"]


def test_a_listing_on_a_range_counts_every_object_and_pages_them(data_dir: Path) -> None:
    answer = ask(data_dir, "vessels with more than 15,000 TEU capacity")
    (result,) = answer["results"]
    ((count,),) = gold(data_dir, "select count(*) from vessels where capacity_teu > 15000")
    assert result["total"] == count and answer["answer"].startswith(
        f"{count} vessels with capacity"
    )
    shown = gold(
        data_dir,
        f"select vessel_name, capacity_teu from vessels where capacity_teu > 15000 order by 1 "
        f"limit {len(result['rows'])}",
    )
    assert result["rows"] == shown


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        (
            "TEU by alliance in 2025",
            "select c.alliance, sum(s.teu) t from shipments s join carriers c "
            "on s.carrier_name = c.carrier_name where s.arrival_date between '2025-01-01' "
            "and '2025-12-31' and c.alliance is not null group by 1 order by t desc",
        ),
        (
            "which alliance carried the most TEU",
            "select c.alliance, sum(s.teu) t from shipments s join carriers c "
            "on s.carrier_name = c.carrier_name where c.alliance is not null "
            "group by 1 order by t desc limit 1",
        ),
        (
            "number of shipments by vessel flag",
            "select v.flag, count(*) n from shipments s join vessels v "
            "on s.vessel_name = v.vessel_name where v.flag is not null "
            "group by 1 order by n desc, 1",
        ),
    ],
)
def test_a_grouping_by_a_linked_attribute_gives_the_rows_of_a_join(
    data_dir: Path, question: str, sql: str
) -> None:
    """Records whose object has no value of the attribute are in no group, as a terms
    aggregation leaves out records without the field."""
    answer = ask(data_dir, question)
    assert answer["status"] == "done", answer["answer"]
    assert answer["not_understood"] == []
    (result,) = answer["results"]
    assert [row[:2] for row in result["rows"]] == gold(data_dir, sql)
    assert [worker for worker, _ in sub_goals(answer)][:3] == [
        "metadata_lookup",
        "reference_lookup",
        "es_query_gen",
    ]
    assert '"filters"' in str(result["query"]).replace("'", '"')
