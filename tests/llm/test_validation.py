"""The LLM backend refuses a wrong reading: per phenomenon, a scripted model answers wrongly and is
caught.

Unlike the corpus's `llm-plumbing-*` items, which replay the expected reading, each reading here is
wrong in exactly one way (a field the catalog lacks, a name the candidates did not offer, a filter
dropped, ...): given twice, it is refused and the rules backend reads the turn, and the answer says
so; given once and then corrected, the correction is read on the retry, which told the model what
was wrong. Each test fails if the check that catches its phenomenon is removed.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pytest

from bosun.catalog import load_catalog
from bosun.conversation.session import open_session
from bosun.ledger import Ledger, charged
from bosun.settings import Settings
from bosun.understanding.llm import LLMUnderstanding
from bosun.understanding.reading import AskedBack, PastTurn, Reading
from bosun.understanding.rules import RulesUnderstanding
from tests.llm.oracle import oracle_model
from tests.llm.scripted import ToolFakeModel, client, tool_call

TODAY = date(2026, 6, 15)
SHOP = Path(__file__).parents[1] / "domains" / "shop" / "catalog.yaml"
COUNT = {"agg": "count"}
HOUSTON = {"field": "port_of_unlading", "values": ["HOUSTON"]}
SAVANNAH = {"field": "port_of_unlading", "values": ["SAVANNAH"]}
MAERSK = {"field": "carrier_name", "values": ["MAERSK"]}
LAST_MONTH = {
    "field": "arrival_date",
    "start": "2026-05-01",
    "end": "2026-05-31",
    "words": "last month",
}
ACME = ["ACME CO", "ACME CORP LLC", "ACME CORPORATION"]
TEU = {"agg": "sum", "field": "teu"}
OCEAN_ALLIANCE = {
    "object": "carriers",
    "attribute": "alliance",
    "field": "carrier_name",
    "values": ["Ocean Alliance"],
}
BUSAN_SHANGHAI = {"field": "port_of_lading", "values": ["BUSAN", "SHANGHAI"]}
YEAR_2024 = {"field": "arrival_date", "start": "2024-01-01", "end": "2024-12-31", "words": "2024"}
YEAR_2025 = {"field": "arrival_date", "start": "2025-01-01", "end": "2025-12-31", "words": "2025"}


@dataclass(frozen=True)
class Wrong:
    """A question, the right reading of it, the one change that makes it wrong, and the problem that
    says so."""

    question: str
    right: dict[str, Any]  # one goal, in the model's form
    change: dict[str, Any]  # keys of that goal replaced
    problem: str

    def answer(self, wrong: bool) -> dict[str, Any]:
        goal = {"text": self.question, **copy.deepcopy(self.right)}
        return {"goals": [{**goal, **self.change} if wrong else goal]}


PHENOMENA = {
    "unknown-field-to-filter": Wrong(
        "How many shipments went to Houston?",
        {"measures": [COUNT], "filters": [HOUSTON]},
        {"filters": [{"field": "port_of_discharge", "values": ["HOUSTON"]}]},
        "unknown field 'port_of_discharge'",
    ),
    "unknown-field-to-group-by": Wrong(
        "shipments into Savannah by carrier",
        {"measures": [COUNT], "filters": [SAVANNAH], "group_by": ["carrier_name"]},
        {"group_by": ["carrier"]},
        "unknown field 'carrier' to group by",
    ),
    "unknown-field-to-measure": Wrong(
        "average TEU of Maersk shipments into Houston",
        {"measures": [{"agg": "avg", "field": "teu"}], "filters": [MAERSK, HOUSTON]},
        {"measures": [{"agg": "avg", "field": "teus"}]},
        "unknown field 'teus' to measure",
    ),
    "unknown-field-to-sort-by": Wrong(
        "list shipments into Houston, heaviest first",
        {
            "records": True,
            "filters": [HOUSTON],
            "sort": [{"field": "gross_weight_kg", "direction": "desc"}],
        },
        {"sort": [{"field": "weight", "direction": "desc"}]},
        "unknown field 'weight' to sort by",
    ),
    "a-sum-of-no-field": Wrong(
        "total TEU into Houston",
        {"measures": [{"agg": "sum", "field": "teu"}], "filters": [HOUSTON]},
        {"measures": [{"agg": "sum"}]},
        "sum needs a field",
    ),
    "a-sum-of-a-level": Wrong(
        "total transit time into Houston",
        {"measures": [{"agg": "avg", "field": "transit_days"}], "filters": [HOUSTON]},
        {"measures": [{"agg": "sum", "field": "transit_days"}]},
        "'transit_days' is a level: averaged or taken at a period, never summed",
    ),
    "an-average-of-a-text-field": Wrong(
        "average TEU of Maersk shipments into Houston",
        {"measures": [{"agg": "avg", "field": "teu"}], "filters": [MAERSK, HOUSTON]},
        {"measures": [{"agg": "avg", "field": "carrier_name"}]},
        "cannot take the avg of 'carrier_name' (keyword)",
    ),
    "a-name-the-question-did-not-name": Wrong(
        "average TEU of Maersk shipments into Houston",
        {"measures": [{"agg": "avg", "field": "teu"}], "filters": [MAERSK, HOUSTON]},
        {"filters": [{"field": "carrier_name", "values": ["MAERSK", "EVERGREEN"]}, HOUSTON]},
        "'carrier_name' value 'EVERGREEN' is not among the candidates offered",
    ),
    "an-option-the-candidates-did-not-offer": Wrong(
        "How many shipments did Acme send to Savannah in 2025?",
        {
            "measures": [COUNT],
            "filters": [SAVANNAH],
            "ambiguous": [{"phrase": "Acme", "options": ACME}],
            "time": {
                "field": "arrival_date",
                "start": "2025-01-01",
                "end": "2025-12-31",
                "words": "in 2025",
            },
        },
        {"ambiguous": [{"phrase": "Acme", "options": [*ACME, "ACME LOGISTICS"]}]},
        "option 'ACME LOGISTICS' is not among the candidates offered",
    ),
    "a-value-outside-the-field's-vocabulary": Wrong(
        "reefer shipments into Houston",
        {
            "records": True,
            "filters": [HOUSTON, {"field": "container_type", "values": ["20RF", "40RF"]}],
        },
        {"filters": [HOUSTON, {"field": "container_type", "values": ["REEFER"]}]},
        "'container_type' has no value 'REEFER'",
    ),
    "an-unknown-date-field": Wrong(
        "shipments into Houston last month",
        {"records": True, "filters": [HOUSTON], "time": LAST_MONTH},
        {"time": {**LAST_MONTH, "field": "sailing_date"}},
        "unknown date field 'sailing_date'",
    ),
    "dates-on-a-field-that-is-no-date": Wrong(
        "shipments into Houston last month",
        {"records": True, "filters": [HOUSTON], "time": LAST_MONTH},
        {"time": {**LAST_MONTH, "field": "teu"}},
        "'teu' is not a date field",
    ),
    "a-lookup-of-an-unknown-object": Wrong(
        "What flag does the ZIM Kingston fly?",
        {"lookup": {"object": "vessels", "key": "ZIM KINGSTON", "fields": ["flag"]}},
        {"lookup": {"object": "ships", "key": "ZIM KINGSTON", "fields": ["flag"]}},
        "unknown object 'ships'",
    ),
    "a-lookup-of-a-field-the-object-lacks": Wrong(
        "What flag does the ZIM Kingston fly?",
        {"lookup": {"object": "vessels", "key": "ZIM KINGSTON", "fields": ["flag"]}},
        {"lookup": {"object": "vessels", "key": "ZIM KINGSTON", "fields": ["colour"]}},
        "'vessels' has no field 'colour'",
    ),
    "a-dropped-filter": Wrong(
        "How many Maersk shipments went to Savannah?",
        {"measures": [COUNT], "filters": [MAERSK, SAVANNAH]},
        {"filters": [MAERSK]},
        "“Savannah” was named in the question but the reading does not use it",
    ),
    "a-dropped-alias": Wrong(
        "How many shipments went to LA?",
        {
            "measures": [COUNT],
            "filters": [{"field": "port_of_unlading", "values": ["LOS ANGELES"]}],
        },
        {"filters": []},
        "“LA” was named in the question but the reading does not use it",
    ),
    "a-dropped-exclusion": Wrong(
        "shipments into Houston excluding Maersk",
        {"records": True, "filters": [HOUSTON, {**MAERSK, "negate": True}]},
        {"filters": [HOUSTON]},
        "“Maersk” was named in the question but the reading does not use it",
    ),
    "a-dropped-name-in-a-clarification": Wrong(
        "How many shipments did Acme send to Savannah in 2025?",
        {
            "measures": [COUNT],
            "filters": [SAVANNAH],
            "ambiguous": [{"phrase": "Acme", "options": ACME}],
        },
        {"ambiguous": []},
        "“Acme” was named in the question but the reading does not use it",
    ),
    "a-lookup-of-another-object-than-named": Wrong(
        "What flag does the ZIM Kingston fly?",
        {"lookup": {"object": "vessels", "key": "ZIM KINGSTON", "fields": ["flag"]}},
        {"lookup": {"object": "vessels", "key": "EVER GIVEN", "fields": ["flag"]}},
        "“ZIM Kingston” was named in the question but the reading does not use it",
    ),
    "a-link-on-an-attribute-the-object-lacks": Wrong(
        "TEU carried by Ocean Alliance members",
        {"measures": [TEU], "links": [OCEAN_ALLIANCE]},
        {"links": [{**OCEAN_ALLIANCE, "attribute": "consortium"}]},
        "'carriers' has no linkable attribute 'consortium'",
    ),
    "a-link-through-a-field-that-does-not-hold-it": Wrong(
        "TEU carried by Ocean Alliance members",
        {"measures": [TEU], "links": [OCEAN_ALLIANCE]},
        {"links": [{**OCEAN_ALLIANCE, "field": "vessel_name"}]},
        "'vessel_name' does not hold 'carriers'",
    ),
    "a-link-value-the-attribute-lacks": Wrong(
        "TEU carried by Ocean Alliance members",
        {"measures": [TEU], "links": [OCEAN_ALLIANCE]},
        {"links": [{**OCEAN_ALLIANCE, "values": ["OCEAN ALLIANCE"]}]},
        "carriers alliance has no value 'OCEAN ALLIANCE'",
    ),
    "a-listing-on-a-field-the-object-lacks": Wrong(
        "which carriers belong to the Gemini Cooperation",
        {
            "listing": "carriers",
            "filters": [{"field": "alliance", "values": ["Gemini Cooperation"]}],
        },
        {"filters": [{"field": "carrier_alliance", "values": ["Gemini Cooperation"]}]},
        "'carriers' has no field 'carrier_alliance'",
    ),
    # issue 23: periods compared and set logic are checked as the rest of a reading is
    "a-set-test-on-a-value-not-offered": Wrong(
        "vessels that called at both Busan and Shanghai",
        {
            "measures": [COUNT],
            "group_by": ["vessel_name"],
            "filters": [BUSAN_SHANGHAI],
            "steps": [{"kind": "has_all", **BUSAN_SHANGHAI}],
        },
        {"steps": [{"kind": "has_all", "field": "port_of_lading", "values": ["BUSAN", "HAMBURG"]}]},
        "'port_of_lading' value 'HAMBURG' is not among the candidates offered",
    ),
    # the coverage audit (issue 34): words of the question no part of a valid reading uses
    "a-value-left-unread": Wrong(
        "reefer TEU into Houston in 2025",
        {
            "measures": [TEU],
            "filters": [HOUSTON, {"field": "container_type", "values": ["20RF", "40RF"]}],
            "time": {**YEAR_2025, "words": "in 2025"},
        },
        {"filters": [HOUSTON]},
        "the reading leaves unread “reefer”: read as value, but no part of the reading uses it",
    ),
    "a-quantity-read-as-a-year": Wrong(
        "ports with more than 500 shipments in 2025",
        {
            "measures": [COUNT],
            "group_by": ["port_of_unlading"],
            "steps": [{"kind": "threshold", "gt": 500}],
            "time": {**YEAR_2025, "words": "in 2025"},
        },
        {"steps": []},
        "the reading leaves unread “more than 500”: a quantity after a comparison word; the "
        "reading bounds nothing by it",
    ),
    "a-set-test-with-nothing-grouped": Wrong(
        "carriers that never called at Savannah",
        {
            "measures": [COUNT],
            "group_by": ["carrier_name"],
            "steps": [{"kind": "has_none", **SAVANNAH}],
        },
        {"group_by": []},
        "has_none keeps groups, and nothing is grouped",
    ),
    "a-period-on-a-field-that-is-no-date": Wrong(
        "TEU in 2025 vs 2024",
        {"measures": [TEU], "periods": [YEAR_2024, YEAR_2025]},
        {"periods": [{**YEAR_2024, "field": "teu"}, YEAR_2025]},
        "'teu' is not a date field",
    ),
    "periods-and-a-time-filter": Wrong(
        "TEU in 2025 vs 2024",
        {"measures": [TEU], "periods": [YEAR_2024, YEAR_2025]},
        {"time": YEAR_2025},
        "periods compared and a time filter: the periods are the dates",
    ),
    "a-change-over-one-period": Wrong(
        "how did TEU change from 2024 to 2025",
        {"measures": [TEU], "periods": [YEAR_2024, YEAR_2025], "steps": [{"kind": "change"}]},
        {"periods": [], "time": YEAR_2025},
        "a change step needs periods (an interval)",
    ),
}


@pytest.fixture(scope="module")
def rules() -> RulesUnderstanding:
    return RulesUnderstanding(load_catalog(None))


def read(
    rules: RulesUnderstanding,
    question: str,
    *answers: dict[str, Any],
    history: list[PastTurn] | None = None,
) -> tuple[Reading, Ledger, ToolFakeModel]:
    """The LLM backend's reading of `question` when the model answers `answers` in turn, and the
    turn's ledger."""
    model = ToolFakeModel(responses=[tool_call("ModelReading", a) for a in answers])
    ledger = Ledger(budget=1_000_000)
    with charged(ledger, "f01"):
        reading = LLMUnderstanding(client(model), rules).read(question, history or [], TODAY)
    return reading, ledger, model


@pytest.mark.parametrize("wrong", PHENOMENA.values(), ids=PHENOMENA.keys())
def test_a_reading_wrong_twice_is_refused_and_the_rules_read_the_turn(
    rules: RulesUnderstanding, wrong: Wrong
) -> None:
    reading, ledger, model = read(rules, wrong.question, wrong.answer(wrong=True))
    assert reading == rules.read(wrong.question, [], TODAY)
    # the retry said why
    assert len(model.seen) == 2 and wrong.problem in str(model.seen[1][-1].content)
    assert ledger.fallen_back == {"reading"}
    assert ledger.notes == [
        f"The model's reading of the question was not used ({wrong.problem}); the rules "
        "backend read it instead."
    ]


@pytest.mark.parametrize("wrong", PHENOMENA.values(), ids=PHENOMENA.keys())
def test_a_reading_corrected_on_the_retry_is_used(rules: RulesUnderstanding, wrong: Wrong) -> None:
    reading, ledger, model = read(
        rules, wrong.question, wrong.answer(wrong=True), wrong.answer(wrong=False)
    )
    right, _, _ = read(rules, wrong.question, wrong.answer(wrong=False))
    assert reading == right and ledger.notes == [] and ledger.fallen_back == set()
    assert len(model.seen) == 2 and wrong.problem in str(model.seen[1][-1].content)


# -- what the dropped-name check does not ask for
# ---------------------------------------------------
def test_a_name_reported_as_not_understood_is_not_dropped(rules: RulesUnderstanding) -> None:
    reported = {
        "goals": [
            {"text": "x", "measures": [COUNT], "filters": [MAERSK], "not_understood": ["Savannah"]}
        ]
    }
    reading, ledger, model = read(rules, "How many Maersk shipments went to Savannah?", reported)
    meaning = reading.goals[0].meaning
    assert len(model.seen) == 1 and ledger.notes == []
    assert meaning is not None and meaning.not_understood == ["Savannah"]


def test_a_name_of_an_earlier_turn_need_not_be_used_again(rules: RulesUnderstanding) -> None:
    earlier = PastTurn(
        question="How many shipments went to Houston?",
        meaning=rules.read("How many shipments went to Houston?", [], TODAY).goals[0].meaning,
    )
    savannah = {
        "goals": [{"text": "x", "measures": [COUNT], "filters": [SAVANNAH]}],
        "continuation": "refinement",
    }
    reading, ledger, model = read(rules, "what about Savannah?", savannah, history=[earlier])
    assert len(model.seen) == 1 and ledger.notes == []
    meaning = reading.goals[0].meaning
    assert meaning is not None and [c.values for c in meaning.conditions] == [["SAVANNAH"]]


def test_a_name_in_a_reply_picks_an_option_and_need_not_be_filtered_on(
    rules: RulesUnderstanding,
) -> None:
    asked = (
        rules.read("How many shipments did Acme send to Savannah in 2025?", [], TODAY)
        .goals[0]
        .meaning
    )
    earlier = PastTurn(
        question="How many shipments did Acme send to Savannah in 2025?",
        status="needs_clarification",
        meaning=asked,
        clarification=AskedBack(term="Acme", options=ACME),
    )
    picked = {
        "goals": [
            {
                "text": "x",
                "measures": [COUNT],
                "filters": [{"field": "shipper_name", "values": ["ACME CORPORATION"]}, SAVANNAH],
            }
        ],
        "continuation": "clarification_reply",
    }
    # "Vietnamese" names a country
    _, ledger, model = read(rules, "the Vietnamese one", picked, history=[earlier])
    assert len(model.seen) == 1 and ledger.notes == []


def test_a_lookup_by_the_id_of_the_name_uses_it() -> None:
    shop = RulesUnderstanding(load_catalog(SHOP))
    lookup = {
        "goals": [
            {
                "text": "x",
                "lookup": {"object": "products", "key": "SKU-300", "fields": ["unit_price"]},
            }
        ]
    }
    reading, ledger, model = read(
        shop, "What's the unit price of the noise cancelling headphones?", lookup
    )
    meaning = reading.goals[0].meaning
    assert len(model.seen) == 1 and ledger.notes == []
    assert meaning is not None and meaning.lookup is not None and meaning.lookup.key == "SKU-300"


# -- the answer a user gets
# ---------------------------------------------------------------------------
def test_an_answer_read_by_the_rules_after_a_dropped_filter_says_so(dev_data_dir: Path) -> None:
    question = "How many Maersk shipments went to Savannah?"
    dropped = {"goals": [{"text": question, "measures": [COUNT], "filters": [MAERSK]}]}
    with pytest.MonkeyPatch.context() as patch, oracle_model(patch, {question: dropped}) as oracle:
        session = open_session(
            Settings(data_dir=dev_data_dir, understanding="llm", llm_model="openai:scripted")
        )
        answer = session.ask(question, "dropped")
        session.close()
    with duckdb.connect(str(dev_data_dir / "bosun.duckdb"), read_only=True) as connection:
        gold = connection.sql(
            "select count(*) from shipments where carrier_name = 'MAERSK' and "
            "port_of_unlading = 'SAVANNAH'"
        ).fetchall()[0][0]
    assert oracle.calls["ModelReading"] == 2 and oracle.retries == 1
    # Maersk's count into Savannah
    assert answer.status == "done" and answer.results[0].rows == [[gold]]
    assert (
        "The model's reading of the question was not used (“Savannah” was named in the question "
        "but the "
        "reading does not use it); the rules backend read it instead."
    ) in answer.assumptions
