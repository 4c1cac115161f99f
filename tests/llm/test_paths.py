"""Each LLM node on a scripted fake model: checked answers used, refused ones retried once, then the
rules."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from bosun.catalog import load_catalog
from bosun.chat import open_chat_model
from bosun.errors import SettingsError
from bosun.ledger import Ledger, charged
from bosun.planner.llm import LLMPlanner
from bosun.planner.rules import RulesPlanner
from bosun.planner.state import MainState
from bosun.query import Column, Table
from bosun.settings import Settings
from bosun.understanding import Meaning
from bosun.understanding.llm import LLMUnderstanding
from bosun.understanding.reading import PastTurn
from bosun.understanding.rules import RulesUnderstanding
from bosun.workers.catalogue import default_registry
from bosun.workers.models import Deliverable, Goal, GoalParams, SubGoal, WorkerInput, WorkerResult
from bosun.workers.registry import Registry, worker
from bosun.workers.slots import ANALYSIS, ES_RESULTS, QueryResults
from bosun.workers.writing import with_writers
from tests.llm.scripted import ToolFakeModel, client, prose, tool_call

TODAY = date(2026, 6, 15)
HOUSTON = {
    "goals": [
        {
            "text": "shipments into Houston",
            "measures": [{"agg": "count"}],
            "filters": [{"field": "port_of_unlading", "values": ["HOUSTON"]}],
        }
    ]
}


@pytest.fixture(scope="module")
def rules() -> RulesUnderstanding:
    return RulesUnderstanding(load_catalog(None))


def reader(rules: RulesUnderstanding, *answers: Any) -> tuple[LLMUnderstanding, ToolFakeModel]:
    model = ToolFakeModel(responses=list(answers))
    return LLMUnderstanding(client(model), rules), model


def test_a_checked_reading_is_used_and_billed(rules: RulesUnderstanding) -> None:
    understanding, model = reader(rules, tool_call("ModelReading", HOUSTON))
    ledger = Ledger(budget=1000)
    with charged(ledger, "f01"):
        reading = understanding.read("How many shipments went to Houston?", [], TODAY)
    meaning = reading.goals[0].meaning
    assert meaning is not None and meaning.intent_type == "aggregation"
    assert [(c.field, c.values) for c in meaning.conditions] == [("port_of_unlading", ["HOUSTON"])]
    assert meaning.measures[0].label == "shipments"  # the catalog's own measure
    assert ledger.summary().by_node["f01"].total == 150 and ledger.notes == []
    system, human = model.seen[0][0].content, model.seen[0][1].content
    assert "port_of_unlading" in system and "“Houston” → port_of_unlading=HOUSTON" in human


def test_a_refused_reading_is_retried_with_its_problems(rules: RulesUnderstanding) -> None:
    bad = {"goals": [{"text": "x", "filters": [{"field": "secret_field", "values": ["1"]}]}]}
    understanding, model = reader(
        rules, tool_call("ModelReading", bad), tool_call("ModelReading", HOUSTON)
    )
    reading = understanding.read("How many shipments went to Houston?", [], TODAY)
    assert reading.goals[0].meaning is not None and reading.goals[0].meaning.conditions[
        0
    ].values == ["HOUSTON"]
    assert len(model.seen) == 2 and "unknown field 'secret_field'" in str(model.seen[1][-1].content)


def test_an_invented_value_is_refused_then_the_rules_read_the_turn(
    rules: RulesUnderstanding,
) -> None:
    invented = {
        "goals": [{"text": "x", "filters": [{"field": "carrier_name", "values": ["ACME LINES"]}]}]
    }
    understanding, model = reader(rules, tool_call("ModelReading", invented))
    ledger = Ledger(budget=1000)
    with charged(ledger, "f01"):
        reading = understanding.read("How many Maersk shipments went to Houston?", [], TODAY)
    meaning = reading.goals[0].meaning
    assert meaning is not None and {c.field: c.values for c in meaning.conditions}[
        "carrier_name"
    ] == ["MAERSK"]
    assert len(model.seen) == 2  # one retry
    assert "'carrier_name' value 'ACME LINES' is not among the candidates" in ledger.notes[0]
    assert "rules backend read it instead" in ledger.notes[0]


def test_prose_instead_of_a_tool_call_falls_back(rules: RulesUnderstanding) -> None:
    understanding, _ = reader(rules, prose())
    reading = understanding.read("How many shipments went to Houston?", [], TODAY)
    assert reading == rules.read("How many shipments went to Houston?", [], TODAY)


def test_a_reading_records_its_names_its_comparison_and_the_date_field_it_chose(
    rules: RulesUnderstanding,
) -> None:
    compared = {
        "goals": [
            {
                "text": "x",
                "measures": [{"agg": "sum", "field": "teu"}],
                "group_by": ["carrier_name"],
                "filters": [
                    {"field": "carrier_name", "values": ["MAERSK", "EVERGREEN"]},
                    {"field": "port_of_unlading", "values": ["LOS ANGELES"]},
                ],
                "time": {
                    "field": "arrival_date",
                    "start": "2026-01-01",
                    "end": "2026-03-31",
                    "words": "last quarter",
                },
            }
        ]
    }
    understanding, _ = reader(rules, tool_call("ModelReading", compared))
    reading = understanding.read(
        "Compare Maersk vs Evergreen volumes to LA last quarter", [], TODAY
    )
    meaning = reading.goals[0].meaning
    assert meaning is not None and meaning.compare == ["carrier_name"]
    assert [(e.term, e.value, e.method) for e in meaning.entities] == [
        ("Maersk", "MAERSK", "exact"),
        ("Evergreen", "EVERGREEN", "exact"),
        ("LA", "LOS ANGELES", "alias"),
    ]
    (chosen,) = meaning.ambiguities
    assert (chosen.kind, chosen.term, chosen.default) == ("field", "last quarter", "arrival_date")
    assert set(chosen.options) == {"arrival_date", "departure_date", "eta_date"}


def test_a_follow_up_may_name_a_group_the_last_turn_listed(rules: RulesUnderstanding) -> None:
    ranked = rules.read("top 3 shippers by shipments", [], TODAY).goals[0].meaning
    past = PastTurn(
        question="top 3 shippers by shipments",
        meaning=ranked,
        first_column=["SHENZHEN BRIGHTSTAR ELECTRONICS CO LTD", "NINGBO OCEANWAY FURNITURE CO LTD"],
    )
    second = {
        "goals": [
            {
                "text": "x",
                "measures": [{"agg": "avg", "field": "teu"}],
                "filters": [
                    {"field": "shipper_name", "values": ["NINGBO OCEANWAY FURNITURE CO LTD"]}
                ],
            }
        ],
        "continuation": "follow_up",
    }
    understanding, model = reader(rules, tool_call("ModelReading", second))
    reading = understanding.read("and the average TEU of the second one?", [past], TODAY)
    meaning = reading.goals[0].meaning
    assert meaning is not None and meaning.conditions[0].values == [
        "NINGBO OCEANWAY FURNITURE CO LTD"
    ]
    assert len(model.seen) == 1 and "NINGBO OCEANWAY FURNITURE CO LTD" in str(
        model.seen[0][1].content
    )


def test_a_follow_up_the_model_reads_keeps_the_last_turns_doubt(rules: RulesUnderstanding) -> None:
    """The model reads "and in Norfolk?" without "bicycles", which the last turn did not read: the
    answer says it again, and what it kept of the last question."""
    flagged = (
        rules.read("How many bicycles came into Baltimore last month?", [], TODAY).goals[0].meaning
    )
    assert flagged is not None and flagged.not_understood == ["bicycles"]
    norfolk = {
        "goals": [
            {
                "text": "x",
                "measures": [{"agg": "count"}],
                "filters": [{"field": "port_of_unlading", "values": ["NORFOLK"]}],
                "time": {"field": "arrival_date", "start": "2026-05-01", "end": "2026-05-31"},
            }
        ],
        "continuation": "refinement",
    }
    understanding, _ = reader(rules, tool_call("ModelReading", norfolk))
    past = PastTurn(question="How many bicycles came into Baltimore last month?", meaning=flagged)
    meaning = understanding.read("and in Norfolk?", [past], TODAY).goals[0].meaning
    assert meaning is not None and meaning.not_understood == ["bicycles"]
    assert meaning.assumptions == [
        "kept from the last question: number of shipments; May 2026 (arrival date)"
    ]


def _state() -> MainState:
    goal = Goal(
        id=1,
        text="definition",
        deliverables=["answer"],
        params=GoalParams(kind="definition", terms=["TEU"]),
    )
    return MainState(question="what is a TEU?", goals=[goal], round=1)


def test_the_model_plan_passes_the_plan_gate() -> None:
    plan = {
        "action": "continue",
        "sub_goals": [{"id": 1, "goal_id": 1, "worker": "common_helpdesk"}],
    }
    planner = LLMPlanner(
        client(ToolFakeModel(responses=[tool_call("ModelPlan", plan)])), RulesPlanner()
    )
    decision = planner.plan(_state(), default_registry())
    (sub_goal,) = decision.sub_goals
    assert sub_goal.worker == "common_helpdesk" and sub_goal.params.terms == ["TEU"]
    assert sub_goal.outputs == ["answer"] and sub_goal.goal_type == "deliverable"


def test_an_invalid_plan_is_retried_then_the_rules_plan_the_turn() -> None:
    cyclic = {
        "action": "continue",
        "sub_goals": [
            {
                "id": 1,
                "goal_id": 1,
                "worker": "es_query_exec",
                "inputs": [{"name": "es_query", "from_sub_goal": 1, "slot": "es_query"}],
            },
            {"id": 2, "goal_id": 1, "worker": "drop_index"},
        ],
    }
    model = ToolFakeModel(responses=[tool_call("ModelPlan", cyclic)])
    ledger = Ledger(budget=10_000)
    with charged(ledger, "f02"):
        decision = LLMPlanner(client(model), RulesPlanner()).plan(_state(), default_registry())
        again = LLMPlanner(client(model), RulesPlanner()).plan(_state(), default_registry())
    assert decision == RulesPlanner().plan(_state(), default_registry()) == again
    assert len(model.seen) == 2  # the plan and its one retry; the next round asks no model
    retry = str(model.seen[1][-1].content)
    assert "unknown worker 'drop_index'" in retry and "depend on itself" in retry
    assert "the rules planner planned this turn" in ledger.notes[0]


def _analysis_registry(rows: int) -> tuple[Registry, WorkerInput]:
    @worker(
        "analyze_results",
        "F12",
        consumes=[ES_RESULTS],
        produces=[ANALYSIS],
        goal_type="deliverable",
    )
    def analyze(wi: WorkerInput, ctx: Any) -> WorkerResult:
        return WorkerResult.of(
            wi, ANALYSIS.of(Deliverable(text="MAERSK leads on shipments with 1,200."))
        )

    meaning = Meaning(text="rank carriers", index="shipments", intent_type="aggregation")
    columns = [
        Column(name="carrier", role="key"),
        Column(name="shipments", role="figure", measure=0),
    ]
    ranked = Table(
        columns=columns, rows=[[f"CARRIER {i}", 1_200 - i % 7] for i in range(rows)], total=rows
    )
    table = QueryResults(table=ranked, query={}, meaning=meaning)
    sub_goal = SubGoal(
        id=1,
        goal_id=1,
        worker="analyze_results",
        description="d",
        params=GoalParams(text="rank carriers"),
    )
    registry = Registry.of(analyze)
    return registry, WorkerInput(sub_goal=sub_goal, resolved_inputs={ES_RESULTS.name: table})


@pytest.mark.parametrize("rows", [10, 1_000_000])
def test_the_analysis_prompt_is_bounded_whatever_the_rows(rows: int) -> None:
    registry, wi = _analysis_registry(rows)
    model = ToolFakeModel(
        responses=[tool_call("WrittenText", {"text": "MAERSK is first with 1,200 shipments."})]
    )
    result = with_writers(registry, client(model)).workers["analyze_results"].fn(wi, None)
    assert result.outputs[ANALYSIS.name].text == "MAERSK is first with 1,200 shipments."
    prompt = "".join(str(m.content) for m in model.seen[0])
    assert (
        len(prompt) < 3_000
        and f"Rows in the result: {rows}" in prompt
        and "CARRIER 10" not in prompt
    )


def test_an_analysis_with_an_invented_figure_keeps_the_rules_text() -> None:
    registry, wi = _analysis_registry(20)
    model = ToolFakeModel(
        responses=[tool_call("WrittenText", {"text": "MAERSK grew 37 % to 9,999."})]
    )
    ledger = Ledger(budget=10_000)
    with charged(ledger, "sg1"):
        result = with_writers(registry, client(model)).workers["analyze_results"].fn(wi, None)
    assert result.outputs[ANALYSIS.name].text == "MAERSK leads on shipments with 1,200."
    assert "the figure 37 is not in the summary" in str(model.seen[1][-1].content)
    assert "rules' text stands" in ledger.notes[0]


def test_once_the_budget_is_used_the_rules_read_without_the_model(
    rules: RulesUnderstanding,
) -> None:
    understanding, model = reader(rules, tool_call("ModelReading", HOUSTON))
    ledger = Ledger(budget=100)
    with charged(ledger, "f01"):
        # 150 tokens: over the budget
        understanding.read("How many shipments went to Houston?", [], TODAY)
        again = understanding.read("How many Maersk shipments went to Houston?", [], TODAY)
    assert again == rules.read("How many Maersk shipments went to Houston?", [], TODAY)
    assert len(model.seen) == 1 and ledger.summary().total == 150
    assert ledger.notes == [
        "This turn used its model token budget (100 tokens, BOSUN_LLM_TURN_TOKEN_BUDGET): the "
        "rules answered the rest of it, without the model."
    ]


def test_a_missing_provider_package_is_one_line_naming_the_extra() -> None:
    settings = Settings(understanding="llm", llm_model="mistralai:mistral-small")
    with pytest.raises(SettingsError) as raised:
        open_chat_model(settings)
    assert str(raised.value) == (
        "BOSUN_LLM_MODEL=mistralai:mistral-small: its provider package is not "
        "installed; install the llm extra: pip install 'bosun-bi[llm]'"
    )
