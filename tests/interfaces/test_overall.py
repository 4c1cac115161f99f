"""Groups held against the overall figure, end to end on the sample and the shop (issue 35).

"ports that handled more TEU than average" is two sub-goals: overall_figure computes the average of
the ports' totals (a level, "average transit time", is held against itself over every shipment),
then es_query_gen takes it through an InputRef as the bound of the groups' threshold. The rows and
the bound are checked against SQL over the same tables.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pytest

from bosun.catalog import load_catalog
from bosun.conversation.session import Session, open_session
from bosun.datagen.load import build
from bosun.engines.embedded import EmbeddedEngine
from bosun.settings import Settings
from tests.interfaces.test_ask import ask
from tests.interfaces.test_links import gold, sub_goals

SHOP = Path(__file__).parents[1] / "domains" / "shop" / "catalog.yaml"
PLAN = ["metadata_lookup", "overall_figure", "es_query_gen", "es_query_exec", "show_results"]
Y2025 = "arrival_date between '2025-01-01' and '2025-12-31'"


def held(sql_groups: str, op: str) -> tuple[str, str]:
    """The SQL of the groups (k, v) past the average of their figures, and of that average."""
    groups = f"with g as ({sql_groups})"
    return (
        f"{groups} select k, v from g where v {op} (select avg(v) from g) order by v desc",
        f"{groups} select avg(v) from g",
    )


def over_records(measure: str, key: str, where: str, op: str) -> tuple[str, str]:
    """The SQL of the groups whose level is past the same level over every record in scope."""
    overall = f"select {measure} from shipments where {where}"
    return (
        f"select {key} k, {measure} v from shipments where {where} group by 1 "
        f"having {measure} {op} ({overall}) order by v desc",
        overall,
    )


CASES = [
    (
        "which ports handled more TEU than average in 2025",
        *held(
            f"select port_of_unlading k, sum(teu) v from shipments where {Y2025} group by 1", ">"
        ),
        "above the average over all ports",
    ),
    (
        "carriers with fewer shipments than the average carrier",
        *held("select carrier_name k, count(*) v from shipments group by 1", "<"),
        "below the average over all carriers",
    ),
    (
        "carriers whose average transit time is below the overall average",
        *over_records("avg(transit_days)", "carrier_name", "true", "<"),
        "below the average over all shipments",
    ),
    (
        "carriers slower than average in 2025",
        *over_records("avg(transit_days)", "carrier_name", Y2025, ">"),
        "above the average over all shipments",
    ),
    (
        "carriers into Los Angeles with above-average transit times",
        *over_records("avg(transit_days)", "carrier_name", "port_of_unlading = 'LOS ANGELES'", ">"),
        "above the average over all shipments",
    ),
]


def bound_of(query: dict[str, Any]) -> float:
    """The number the query's bucket_selector holds the groups against."""
    script = re.search(r"params\.v [<>]=? ([-\d.e+]+)", str(query))
    assert script is not None, query
    return float(script.group(1))


@pytest.mark.parametrize(("question", "sql", "overall_sql", "said"), CASES)
def test_groups_are_kept_past_the_overall_figure_computed_first(
    data_dir: Path, question: str, sql: str, overall_sql: str, said: str
) -> None:
    answer = ask(data_dir, question)
    assert answer["status"] == "done", answer["answer"]
    (result,) = answer["results"]
    wanted = gold(data_dir, sql)
    assert [row[0] for row in result["rows"]] == [row[0] for row in wanted]
    # figures are shown to two decimals
    assert [row[1] for row in result["rows"]] == pytest.approx(
        [row[1] for row in wanted], abs=0.005
    )
    ((overall,),) = gold(data_dir, overall_sql)
    assert bound_of(result["query"]) == pytest.approx(overall)
    assert said in result["reading"]
    assert answer["not_understood"] == []


def test_the_figure_flows_from_its_sub_goal_into_the_query(data_dir: Path) -> None:
    answer = ask(data_dir, "ports with more shipments than average")
    steps = sub_goals(answer)
    assert [worker for worker, _ in steps] == PLAN
    figure_id = answer["trace"]["sub_goals"][1]["id"]
    read_id = answer["trace"]["sub_goals"][0]["id"]
    assert steps[1][1]["analysis_result"] == f"sg{read_id}.analysis_result"
    assert steps[2][1]["baseline_figure"] == f"sg{figure_id}.baseline_figure"  # the InputRef
    rounds = [s["round"] for s in answer["trace"]["sub_goals"]]
    assert rounds[1] < rounds[2]  # the figure is known before the query is built


def test_periods_are_held_against_the_average_of_the_periods(data_dir: Path) -> None:
    answer = ask(data_dir, "months with more shipments than average in 2025")
    (result,) = answer["results"]
    months = "select strftime(date_trunc('month', arrival_date), '%Y-%m-%d') k, count(*) v"
    sql, overall_sql = held(f"{months} from shipments where {Y2025} group by 1", ">")
    wanted = gold(data_dir, sql)
    assert sorted(map(tuple, result["rows"])) == sorted(map(tuple, wanted))
    ((overall,),) = gold(data_dir, overall_sql)
    assert bound_of(result["query"]) == pytest.approx(overall)
    assert "above the average over all months" in result["reading"]


def test_a_fixed_number_is_still_a_threshold_of_one_query(data_dir: Path) -> None:
    answer = ask(data_dir, "carriers with average transit time over 20 days in 2025")
    assert "overall_figure" not in [worker for worker, _ in sub_goals(answer)]
    (result,) = answer["results"]
    assert bound_of(result["query"]) == 20.0


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Session:
    folder = tmp_path_factory.mktemp("shop")
    engine = EmbeddedEngine(folder / "bosun.duckdb")
    build(engine, load_catalog(SHOP), 3000, 11, date(2026, 6, 15))
    engine.close()
    return open_session(Settings(data_dir=folder, catalog=SHOP))


def shop_gold(shop: Session, sql: str) -> list[tuple[Any, ...]]:
    con = duckdb.connect()
    con.register("orders", shop.context.engine.inner.to_arrow("orders"))
    return con.execute(sql).fetchall()


@pytest.mark.parametrize(
    ("question", "sql", "said"),
    [
        (
            "customers who spent more than average in 2025",
            "with g as (select customer_name k, sum(amount) v from orders where order_date "
            "between '2025-01-01' and '2025-12-31' group by 1) "
            "select k, v from g where v > (select avg(v) from g) order by v desc",
            "above the average over all customers",
        ),
        (
            "stores whose average order value is below the overall average",
            "select store_name k, avg(amount) v from orders group by 1 "
            "having avg(amount) < (select avg(amount) from orders) order by v desc",
            "below the average over all orders",
        ),
    ],
)
def test_the_shop_holds_its_groups_against_its_overall_figure(
    shop: Session, question: str, sql: str, said: str
) -> None:
    answer = shop.ask(question, question)
    (result,) = answer.results
    wanted = shop_gold(shop, sql)
    assert [row[0] for row in result.rows] == [row[0] for row in wanted]
    assert [row[1] for row in result.rows] == pytest.approx([row[1] for row in wanted], abs=0.005)
    assert said in result.reading
