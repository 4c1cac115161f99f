"""A model's steps after grouping (issue 23) are checked as the rules' are: a threshold on a measure
the reading lacks, a top N within groups with one grouping, a running total without periods are
refused with the reason, retried, and on a second refusal the rules read the turn."""

from __future__ import annotations

import pytest

from bosun.catalog import load_catalog
from bosun.understanding.rules import RulesUnderstanding
from tests.llm.test_validation import TODAY, Wrong, read

COUNT = {"agg": "count"}
TEU = {"agg": "sum", "field": "teu"}
WRONG = {
    "a-threshold-on-a-measure-not-read": Wrong(
        "ports with more than 2,000 shipments",
        {
            "measures": [COUNT],
            "group_by": ["port_of_unlading"],
            "steps": [{"kind": "threshold", "gt": 2000}],
        },
        {"steps": [{"kind": "threshold", "gt": 2000, "measure": 1}]},
        "a threshold on measure 1, which the meaning does not have",
    ),
    "a-top-n-within-one-grouping": Wrong(
        "top 3 shippers for each port",
        {
            "measures": [COUNT],
            "group_by": ["port_of_unlading", "shipper_name"],
            "steps": [{"kind": "top_each", "n": 3}],
        },
        {"group_by": ["shipper_name"]},
        "a top N within each group needs two groupings",
    ),
    "periods-within-a-period-no-finer": Wrong(
        "the quietest week in each quarter",
        {
            "measures": [COUNT],
            "interval": "week",
            "steps": [{"kind": "top_each", "n": 1, "order": "asc", "within": "quarter"}],
        },
        {"interval": "year"},
        "a top N within each quarter needs a finer interval",
    ),
    "periods-within-a-period-and-a-group": Wrong(
        "the quietest week in each quarter",
        {
            "measures": [COUNT],
            "interval": "week",
            "steps": [{"kind": "top_each", "n": 1, "order": "asc", "within": "quarter"}],
        },
        {"group_by": ["carrier_name"]},
        "a top N of periods within each coarser period groups nothing else",
    ),
    "a-running-total-without-periods": Wrong(
        "running total of TEU by month",
        {"measures": [TEU], "interval": "month", "steps": [{"kind": "running"}]},
        {"interval": None},
        "a running step needs periods",
    ),
    "a-running-total-of-a-level": Wrong(
        "running total of TEU by month",
        {"measures": [TEU], "interval": "month", "steps": [{"kind": "running"}]},
        {"measures": [{"agg": "avg", "field": "transit_days"}]},
        "a running total of 'transit_time', a level, which is never summed",
    ),
    "a-change-without-periods": Wrong(
        "monthly change in TEU",
        {"measures": [TEU], "interval": "month", "steps": [{"kind": "change"}]},
        {"interval": None},
        "a change step needs periods",
    ),
}


@pytest.fixture(scope="module")
def rules() -> RulesUnderstanding:
    return RulesUnderstanding(load_catalog(None))


@pytest.mark.parametrize("wrong", WRONG.values(), ids=WRONG.keys())
def test_a_step_the_meaning_cannot_carry_is_refused(
    rules: RulesUnderstanding, wrong: Wrong
) -> None:
    reading, ledger, model = read(rules, wrong.question, wrong.answer(wrong=True))
    assert reading == rules.read(wrong.question, [], TODAY)
    assert len(model.seen) == 2 and wrong.problem in str(model.seen[1][-1].content)
    assert ledger.fallen_back == {"reading"}


@pytest.mark.parametrize("wrong", WRONG.values(), ids=WRONG.keys())
def test_the_right_steps_are_used_as_read(rules: RulesUnderstanding, wrong: Wrong) -> None:
    reading, ledger, _ = read(rules, wrong.question, wrong.answer(wrong=False))
    assert ledger.notes == []
    meaning = reading.goals[0].meaning
    assert meaning is not None
    assert [s.model_dump(exclude_defaults=True) for s in meaning.steps] == [
        {k: v for k, v in s.items() if k != "kind"} for s in wrong.right["steps"]
    ]
