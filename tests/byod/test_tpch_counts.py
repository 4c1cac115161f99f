"""Issue #24 class 5 on TPC-H: an id that repeats across rows (an order's key on each of its lines)
is a thing to count. "How many orders" counts distinct order keys, not order lines; the drafted
catalog is not edited.

The questions were written before the drafter learnt this; each is judged against SQL over the same
data.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
import yaml

from bosun.conversation.session import Session, open_session
from bosun.evaluation.judge import judge
from bosun.settings import load_settings

QUESTIONS: list[dict[str, Any]] = [
    {
        "id": "k01",
        "q": "How many orders are there?",
        "expect": {"kind": "value", "gold_sql": "select count(distinct order_key) from line_items"},
    },
    {
        "id": "k02",
        "q": "How many orders were placed in 1995?",
        "expect": {
            "kind": "value",
            "gold_sql": "select count(distinct order_key) from line_items where year(order_date) = 1995",
        },
    },
    {
        "id": "k03",
        "q": "Orders by order priority",
        "expect": {
            "kind": "table",
            "gold_sql": "select order_priority, count(distinct order_key) from line_items group by 1",
        },
    },
    {
        "id": "k04",
        "q": "How many customers ordered in 1997?",
        "expect": {
            "kind": "value",
            "gold_sql": "select count(distinct customer_key) from line_items where year(order_date) = 1997",
        },
    },
    {
        "id": "k05",
        "q": "Number of suppliers by supplier nation",
        "expect": {
            "kind": "table",
            "gold_sql": "select supplier_nation, count(distinct supplier_key) from line_items group by 1",
        },
    },
    {
        "id": "k06",
        "q": "How many orders in the AUTOMOBILE segment in 1996?",
        "expect": {
            "kind": "value",
            "gold_sql": "select count(distinct order_key) from line_items where market_segment = 'AUTOMOBILE' "
            "and year(order_date) = 1996",
        },
    },
    {
        "id": "k07",
        "q": "Which 3 order priorities had the most orders in 1995?",
        "expect": {
            "kind": "table",
            "ordered": True,
            "gold_sql": "select order_priority, count(distinct order_key) n from line_items "
            "where year(order_date) = 1995 group by 1 order by n desc limit 3",
        },
    },
]


@pytest.fixture(scope="module")
def session(tpch_loaded: tuple[Path, Path]) -> Iterator[Session]:
    data_dir, catalog = tpch_loaded
    opened = open_session(load_settings(data_dir=data_dir, catalog=catalog))
    yield opened
    opened.close()


@pytest.mark.parametrize("item", QUESTIONS, ids=[q["id"] for q in QUESTIONS])
def test_repeated_ids_are_counted_as_things(
    item: dict[str, Any], session: Session, tpch_files: tuple[Path, duckdb.DuckDBPyConnection]
) -> None:
    answer = session.ask(item["q"], f"tpch-count-{item['id']}")
    ok, why = judge(item["expect"], answer, tpch_files[1])
    assert ok, (
        f"{item['q']}: {why}\n{answer.answer}\n{[(r.columns, r.rows[:3]) for r in answer.results]}"
    )
    assert not answer.not_understood, answer.not_understood


def test_the_distinct_counts_are_drafted_and_said(tpch_loaded: tuple[Path, Path]) -> None:
    measures = yaml.safe_load(tpch_loaded[1].read_text())["measures"]
    assert measures["orders"] == {
        "agg": "cardinality",
        "field": "order_key",
        "words": ["orders"],
        "label": "orders",
    }
    counted = {m["field"] for m in measures.values() if m["agg"] == "cardinality"}
    # customers and suppliers are counted through their names, parts through the parts reference; a
    # line's number within its order takes 7 values: a position, not a thing
    assert counted == {"order_key"}
