"""The DSL the compiler writes for each step after grouping (issue 23), run on both engines: the
embedded engine and osmem-server give the same response, and so the same answer table. One question
per shape the compiler writes."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from bosun import query
from bosun.catalog import load_catalog
from bosun.engines.base import Engine
from bosun.understanding.meaning import Meaning
from bosun.understanding.rules import RulesUnderstanding
from tests.conformance.test_conformance import assert_same

QUESTIONS = {
    # terms + bucket_selector on _count + cardinality
    "threshold-count": "ports with more than 300 shipments",
    "threshold-sum": "carriers with at least 400 TEU in 2025",  # bucket_selector on a metric
    # a selector script with && of two bounds
    "threshold-between": "ports with between 100 and 500 shipments",
    # date_histogram, extended bounds, selector
    "threshold-periods": "days in May with fewer than 5 shipments",
    # nested terms, inner size n ordered by the measure
    "top-each-terms": "top 3 shippers for each port",
    "top-each-periods": "busiest month per carrier",  # date_histogram in terms, bucket_sort size n
    "top-each-outer-period": "top 2 carriers each month this year",  # terms inside each period
    # a date_histogram whose weeks are ranked inside each quarter by the compiler
    "top-each-nested-periods": "the quietest week in each quarter of 2025",
    "running": "running total of TEU by month in 2025",  # cumulative_sum on a metric
    # cumulative_sum on _count, per group
    "running-grouped": "cumulative shipments by carrier by quarter",
    "change-percent": "month-over-month % change in TEU in 2025",  # derivative
    "per-period": "average shipments per day in May",  # avg_bucket over days with empty ones
    "per-period-grouped": "average monthly TEU by carrier in 2025",  # avg_bucket per group
    # a filter agg per side (issue 35): in a date_histogram, in terms, at the top
    "difference-periods": "difference between Maersk and MSC TEU by month in 2025",
    "difference-grouped": "TEU gap between Maersk and MSC at each port of unlading",
    "difference-whole": "how much more TEU did Maersk move than MSC",
}


def meaning_of(question: str) -> Meaning:
    reading = RulesUnderstanding(load_catalog()).read(question, [], date(2026, 6, 15))
    meaning = reading.goals[0].meaning
    assert meaning is not None and meaning.steps and meaning.not_understood == [], question
    return meaning


def _shape(response: dict[str, Any]) -> dict[str, Any]:
    return {"total": response["hits"]["total"], "aggs": response["aggregations"]}


@pytest.mark.parametrize("shape", QUESTIONS)
def test_a_step_query_is_answered_alike(shape: str, embedded: Engine, osmem: Engine) -> None:
    meaning = meaning_of(QUESTIONS[shape])
    catalog = load_catalog()
    compiled = query.compile(meaning, catalog)
    reference = osmem.search("shipments", compiled.body)
    ours = embedded.search("shipments", compiled.body)
    assert_same(_shape(reference), _shape(ours), 1e-9)
    table = query.tabulate(compiled, ours, catalog)
    assert table == query.tabulate(compiled, reference, catalog)
    assert table.rows, f"{shape}: no rows to compare"
