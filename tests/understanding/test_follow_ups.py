"""Follow-ups read against the last turn (issue 22 items 4-5): what they keep is said, and so are
the last turn's unread words. The corpus checks the readings; these check what the Meaning says of
them, whole."""

from __future__ import annotations

from datetime import date

import pytest

from bosun.catalog import load_catalog
from bosun.understanding.continuation import KEPT
from bosun.understanding.meaning import Meaning
from bosun.understanding.reading import PastTurn
from bosun.understanding.rules import RulesUnderstanding

TODAY = date(2026, 6, 15)


@pytest.fixture(scope="module")
def rules() -> RulesUnderstanding:
    return RulesUnderstanding(load_catalog(None))


def thread(rules: RulesUnderstanding, *turns: str) -> Meaning:
    """The last turn's meaning, each turn read after the ones before it."""
    history: list[PastTurn] = []
    meaning = None
    for text in turns:
        meaning = rules.read(text, history, TODAY).goals[0].meaning
        history.append(PastTurn(question=text, meaning=meaning))
    assert meaning is not None
    return meaning


def test_a_grouping_alone_says_the_filters_and_dates_it_kept(rules: RulesUnderstanding) -> None:
    vessels = thread(rules, "did anything arrive in Miami yesterday?", "what vessels?")
    assert vessels.group_by == ["vessel_name"] and vessels.not_understood == []
    assert vessels.assumptions == [f"{KEPT}: port of unlading MIAMI; 14 Jun 2026 (arrival date)"]


def test_a_comparison_sets_the_last_value_beside_the_new_one(rules: RulesUnderstanding) -> None:
    both = thread(rules, "TEU into Seattle by quarter", "and how does Tacoma stack up?")
    assert (both.group_by, both.compare, both.interval) == (
        ["port_of_unlading"],
        ["port_of_unlading"],
        "quarter",
    )
    assert [(c.field, c.values) for c in both.conditions] == [
        ("port_of_unlading", ["SEATTLE", "TACOMA"])
    ]
    assert both.lookup is None and both.not_understood == []
    assert both.assumptions == [f"{KEPT}: total TEU; per quarter"]


def test_a_chain_of_follow_ups_says_only_what_the_last_one_kept(rules: RulesUnderstanding) -> None:
    chained = thread(
        rules, "How many shipments came into Savannah last month?", "by carrier?", "and Charleston?"
    )
    assert chained.assumptions == [f"{KEPT}: number of shipments; May 2026 (arrival date)"]


def test_a_doubt_is_said_again_until_a_reply_reads_it(rules: RulesUnderstanding) -> None:
    assert thread(rules, "top 0 carriers into Miami", "and into Tacoma?").not_understood == [
        "top 0"
    ]
    assert thread(rules, "top 0 carriers into Miami", "top 3").not_understood == []


def test_a_new_question_does_not_inherit_a_doubt_or_a_filter(rules: RulesUnderstanding) -> None:
    fresh = thread(
        rules,
        "How many bicycles came into Baltimore last month?",
        "How many shipments came into Norfolk?",
    )
    assert fresh.not_understood == [] and fresh.time is None and fresh.assumptions == []


def test_a_new_year_in_a_follow_up_is_the_doubt_about_its_date_field(
    rules: RulesUnderstanding,
) -> None:
    first = thread(rules, "which carriers moved more than 20,000 TEU in 2025?")
    later = thread(rules, "which carriers moved more than 20,000 TEU in 2025?", "and in 2024?")
    assert [a.term for a in first.ambiguities if a.kind == "field"] == ["in 2025"]
    assert [(a.term, a.default) for a in later.ambiguities if a.kind == "field"] == [
        ("in 2024", "arrival_date")
    ]
    departed = thread(
        rules, "which carriers moved more than 20,000 TEU that departed in 2025?", "and in 2024?"
    )
    assert departed.time is not None and departed.time.field == "departure_date"
    assert [a for a in departed.ambiguities if a.kind == "field"] == []
