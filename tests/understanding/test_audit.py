"""The coverage audit (issue 34) on readings whoever wrote them: each reading here is built by hand,
wrong in one way a reader can be, and must be rejected with the words it leaves unread; the rules
backend's right readings of the same questions are approved.

The corpus (test_corpus.py) runs every rules reading through the audit as the graph does; the
graph's node and the answer are tested end to end in tests/interfaces/test_audit.py.
"""

from __future__ import annotations

from datetime import date

import pytest

from bosun.catalog import load_catalog
from bosun.understanding.audit import Turn
from bosun.understanding.meaning import Condition, Meaning, Measure, TimeFilter
from bosun.understanding.rules import RulesUnderstanding

TODAY = date(2026, 6, 15)
TEU = Measure(name="teu", agg="sum", field="teu", label="TEU")
COUNT = Measure(name="shipments", agg="count", label="shipments")
SAVANNAH = Condition(field="port_of_unlading", values=["SAVANNAH"])


@pytest.fixture(scope="module")
def rules() -> RulesUnderstanding:
    return RulesUnderstanding(load_catalog())


def _year(year: int, text: str) -> TimeFilter:
    return TimeFilter(
        field="arrival_date", start=date(year, 1, 1), end=date(year, 12, 31), text=text
    )


def _meaning(text: str, **parts: object) -> Meaning:
    return Meaning(text=text, index="shipments", intent_type="aggregation", **parts)  # type: ignore[arg-type]


WRONG = {
    "a value dropped": (
        _meaning(
            "reefer TEU into Savannah in 2025",
            measures=[TEU],
            conditions=[SAVANNAH],
            time=_year(2025, "in 2025"),
        ),
        ["reefer"],
    ),
    "a number read as a year": (
        _meaning(
            "which ports had over 2000 shipments last year",
            measures=[COUNT],
            group_by=["port_of_unlading"],
            time=_year(2000, "2000"),
        ),
        ["over 2000", "last year"],
    ),
    "a month said after its year, lost": (
        _meaning(
            "TEU into Savannah in 2026 june",
            measures=[TEU],
            conditions=[SAVANNAH],
            time=_year(2026, "2026"),
        ),
        ["june"],
    ),
    "one figure over all ports read per port": (
        _meaning(
            "median transit time across all ports in 2025",
            measures=[
                Measure(
                    name="p50",
                    agg="percentile",
                    field="transit_days",
                    percent=50,
                    label="median transit",
                )
            ],
            group_by=["port_of_unlading"],
            time=_year(2025, "in 2025"),
        ),
        ["across all ports"],
    ),
    "had a thing, summed beside the count": (
        _meaning(
            "how many shipments from Genoa had a declared value",
            measures=[
                COUNT,
                Measure(name="v", agg="sum", field="declared_value_usd", label="declared value"),
            ],
            conditions=[Condition(field="port_of_lading", values=["GENOA"])],
        ),
        ["had declared value"],
    ),
    "two groups compared, collapsed into one": (
        _meaning(
            "average TEU of 20GP versus 40GP shipments",
            measures=[Measure(name="a", agg="avg", field="teu", label="average TEU")],
            conditions=[Condition(field="container_type", values=["20GP", "40GP"])],
        ),
        ["versus"],
    ),
    "a ranking dropped": (
        _meaning(
            "top 5 carriers by TEU into Savannah",
            measures=[TEU],
            conditions=[SAVANNAH],
            group_by=["carrier_name"],
        ),
        ["top", "5"],
    ),
}


@pytest.mark.parametrize("case", WRONG, ids=list(WRONG))
def test_a_wrong_reading_is_rejected_with_the_words_it_leaves(
    rules: RulesUnderstanding, case: str
) -> None:
    meaning, words = WRONG[case]
    verdict = rules.audit.verdict(meaning, TODAY)
    assert not verdict.approved
    unexplained = [u.words.lower() for u in verdict.unexplained]
    # each word lost, said once, alone or within its phrase ("june", or "2026 june" read as one)
    assert all(sum(w in u for u in unexplained) == 1 for w in words), verdict.reasons()
    assert len(unexplained) == len(words), verdict.reasons()
    flagged, _ = rules.audit.reviewed(meaning, TODAY, Turn(meaning.text))
    said = [w.lower() for w in flagged.not_understood]
    assert all(any(w in s for s in said) for w in words), said


RIGHT = [
    "reefer TEU into Savannah in 2025",
    "top 5 carriers by TEU into Savannah",
    "TEU of Maersk versus MSC into Savannah in 2025",
    "How many TEU did Evergreen haul to Tacoma in Q1 2026?",
    "median transit time by carrier for shipments from Busan last month",
    "share of TEU by carrier in 2025",
    "shipments heavier than 20 tonnes into Houston",
    "monthly TEU into Long Beach this year",
    "vessels that called at both Busan and Shanghai",
    "carriers with more than 500 shipments into Savannah in 2025",
]


@pytest.mark.parametrize("question", RIGHT)
def test_a_right_reading_is_approved(rules: RulesUnderstanding, question: str) -> None:
    meaning = rules.analyze(question, TODAY)
    verdict = rules.audit.verdict(meaning, TODAY)
    assert verdict.approved, verdict.reasons()


def test_a_follow_up_is_audited_on_its_own_words(rules: RulesUnderstanding) -> None:
    """ "and in Charleston?" after a question about Savannah: the reading must hold Charleston; the
    last question's words are not the turn's."""
    kept = _meaning(
        "TEU into Savannah in 2025",
        measures=[TEU],
        conditions=[SAVANNAH],
        time=_year(2025, "in 2025"),
    )
    turn = Turn("and in Charleston?", continuation="refinement")
    _, verdict = rules.audit.reviewed(kept, TODAY, turn)
    assert verdict is not None and [u.words for u in verdict.unexplained] == ["Charleston"]
    moved = kept.model_copy(
        update={"conditions": [Condition(field="port_of_unlading", values=["CHARLESTON"])]}
    )
    _, verdict = rules.audit.reviewed(moved, TODAY, turn)
    assert verdict is not None and verdict.approved


def test_a_reply_picking_an_option_is_not_audited(rules: RulesUnderstanding) -> None:
    picked = _meaning("Acme shipments", measures=[COUNT])
    meaning, verdict = rules.audit.reviewed(
        picked, TODAY, Turn("the one in Hong Kong", continuation="clarification_reply")
    )
    assert verdict is None and meaning == picked


def test_a_refusal_and_a_question_back_are_not_doubted(rules: RulesUnderstanding) -> None:
    for question in ("what will TEU into Savannah be next year", "shipments of Acme"):
        meaning = rules.analyze(question, TODAY)
        assert meaning.refusal is not None or meaning.ambiguities, question
        assert rules.audit.verdict(meaning, TODAY).approved
