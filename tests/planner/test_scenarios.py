"""Seed 000's five scenarios, run through the real graph with test workers: the round-by-round
trace."""

from __future__ import annotations

from bosun.workers.models import Goal
from tests.planner.conftest import Ask, rounds
from tests.planner.workers import Script

SEARCH = ["formatted_results"]


def test_scenario_1_multi_intent_with_uncertainty(ask: Ask) -> None:
    goals = [
        Goal(id=1, text="what is a shipment", deliverables=["answer"]),
        Goal(id=2, text="shipments arrived yesterday", deliverables=SEARCH),
    ]
    answer = ask(
        goals,
        scripts={
            1: Script(definition="A shipment is one bill of lading."),
            2: Script(values=["MAERSK"], assume=["arrived means arrival_date"]),
        },
    )
    assert rounds(answer) == [
        ["common_helpdesk:success", "metadata_lookup:success"],
        ["es_query_gen:success"],
        ["es_query_exec:success"],
        ["show_results:success"],
    ]
    assert answer.status == "done"
    assert answer.answer.startswith("A shipment is one bill of lading.")
    assert answer.assumptions == ["arrived means arrival_date"]
    assert answer.results[0].rows == [["MAERSK", 10]] and answer.results[0].sub_goal_id == 5


def test_scenario_2_single_intent_and_input_refs(ask: Ask) -> None:
    answer = ask(
        [Goal(id=1, text="Maersk shipments to LA", deliverables=SEARCH)],
        scripts={1: Script(values=["MAERSK"])},
    )
    assert rounds(answer) == [
        ["metadata_lookup:success"],
        ["es_query_gen:success"],
        ["es_query_exec:success"],
        ["show_results:success"],
    ]
    inputs = {e.worker: e.inputs for e in answer.trace.sub_goals}
    assert inputs == {
        "metadata_lookup": {},
        "es_query_gen": {"analysis_result": "sg1.analysis_result"},
        "es_query_exec": {"es_query": "sg2.es_query"},
        "show_results": {"es_results": "sg3.es_results"},
    }
    # the query F06 generated reached F11 through two hydrations
    assert answer.results[0].query == {
        "query": {"terms": {"carrier_name": ["MAERSK"]}},
        "assumptions": [],
    }


def test_scenario_3_comparison_fans_out_each_round(ask: Ask) -> None:
    goals = [
        Goal(id=1, text="Maersk volume to LA", deliverables=["es_results"]),
        Goal(id=2, text="Evergreen volume to LA", deliverables=["es_results"]),
        Goal(id=3, text="compare them", deliverables=["analysis"], inputs_from_goals=[1, 2]),
    ]
    answer = ask(
        goals, scripts={1: Script(rows=[["MAERSK", 5]]), 2: Script(rows=[["EVERGREEN", 3]])}
    )
    assert rounds(answer) == [
        ["metadata_lookup:success", "metadata_lookup:success"],
        ["es_query_gen:success", "es_query_gen:success"],
        ["es_query_exec:success", "es_query_exec:success"],
        ["analyze_results:success"],
    ]
    analyze = next(e for e in answer.trace.sub_goals if e.worker == "analyze_results")
    assert analyze.inputs == {"es_results@1": "sg5.es_results", "es_results@2": "sg6.es_results"}
    assert "es_results@1: [['MAERSK', 5]]; es_results@2: [['EVERGREEN', 3]]" in answer.answer


def test_scenario_4_ambiguity_asks_back(ask: Ask) -> None:
    goal = Goal(id=1, text="shipments from Acme Corp to Houston", deliverables=SEARCH)
    answer = ask(
        [goal], scripts={1: Script(options=["ACME CORP LLC", "ACME CORPORATION", "ACME CO"])}
    )
    assert rounds(answer) == [["metadata_lookup:partial"], ["clarify_question:success"]]
    assert answer.status == "needs_clarification"
    assert answer.clarification is not None
    assert answer.clarification.options == ["ACME CORP LLC", "ACME CORPORATION", "ACME CO"]


def test_ambiguity_policy_assume_proceeds(ask: Ask) -> None:
    goal = Goal(id=1, text="shipments from Acme Corp", deliverables=SEARCH)
    answer = ask([goal], scripts={1: Script(options=["A", "B"])}, ambiguity="assume")
    assert [w for r in rounds(answer) for w in r][-1] == "show_results:success"
    assert answer.status == "done"


def test_scenario_5_partial_result_is_accepted_with_its_caveat(ask: Ask) -> None:
    goal = Goal(
        id=1, text="top 5 shippers to LA and their transit times", deliverables=["analysis"]
    )
    answer = ask([goal], scripts={1: Script(partial="transit times for 3 of 5 shippers")})
    assert rounds(answer)[-2:] == [["es_query_exec:partial"], ["analyze_results:success"]]
    assert answer.status == "done"
    assert "(transit times for 3 of 5 shippers)" in answer.answer


def test_failed_goal_is_reported_while_the_other_returns(ask: Ask) -> None:
    goals = [
        Goal(id=1, text="Maersk to LA", deliverables=SEARCH),
        Goal(id=2, text="what is TEU", deliverables=["answer"]),
    ]
    answer = ask(goals, scripts={1: Script(crash=True), 2: Script(definition="TEU is ...")})
    assert answer.status == "done"
    assert "TEU is ..." in answer.answer
    assert "I could not complete “Maersk to LA”: ValueError: engine said no" in answer.answer
    crashed = next(e for e in answer.trace.sub_goals if e.worker == "es_query_exec")
    assert crashed.status == "failed" and crashed.error == "ValueError: engine said no"
    assert answer.results == []


def test_user_error_is_wrapped_not_retried(ask: Ask) -> None:
    log: list[str] = []
    answer = ask(
        [Goal(id=1, text="Foobar shipments", deliverables=SEARCH)],
        log,
        scripts={1: Script(unknown="Foobar")},
    )
    assert answer.status == "failed"
    assert log == ["metadata_lookup:1"]
    assert "I don't know 'Foobar'." in answer.answer


def test_timeout_is_retried_once(ask: Ask) -> None:
    log: list[str] = []
    answer = ask(
        [Goal(id=1, text="slow", deliverables=SEARCH)],
        log,
        scripts={1: Script(slow_once=True)},
        worker_timeout_s=0.2,
    )
    assert log.count("es_query_exec:3") == 2
    assert rounds(answer)[2:] == [["es_query_exec:success"], ["show_results:success"]]
    assert "retrying sg3 once" in answer.trace.notes
    assert answer.status == "done"


def test_turn_deadline_bounds_a_slow_worker(ask: Ask) -> None:
    answer = ask(
        [Goal(id=1, text="slow", deliverables=SEARCH)],
        scripts={1: Script(slow_once=True)},
        worker_timeout_s=1.0,
        turn_deadline_s=0.3,
    )
    exec_entry = next(e for e in answer.trace.sub_goals if e.worker == "es_query_exec")
    # bounded by the turn, not the worker
    assert "es_query_exec took longer than" in (exec_entry.error or "")
    assert answer.status == "failed"
    assert any(n == "stopped: the turn's deadline passed" for n in answer.trace.notes)


def test_review_gate_diagnoses_an_empty_result(ask: Ask) -> None:
    answer = ask(
        [Goal(id=1, text="Maersk to Philadelphia", deliverables=SEARCH)],
        scripts={1: Script(rows=[])},
    )
    assert rounds(answer)[-2:] == [
        ["es_query_exec:success"],
        ["diagnose_query:success", "show_results:success"],
    ]
    assert "No rows: the carrier filter matched nothing." in answer.answer
    assert answer.results[0].total == 0


def test_round_cap_stops_with_what_is_done(ask: Ask) -> None:
    goals = [
        Goal(id=1, text="define", deliverables=["answer"]),
        Goal(id=2, text="search", deliverables=SEARCH),
    ]
    answer = ask(goals, max_rounds=2)
    assert "stopped: the round cap (2) was reached" in answer.trace.notes
    assert answer.answer.startswith("A shipment is ...")
    assert answer.trace.rounds == 2


def test_a_new_worker_is_planned_for_without_planner_change(tmp_path: object) -> None:
    from pathlib import Path

    from bosun.planner.context import RunContext
    from bosun.planner.graph import build_graph
    from bosun.planner.run import run_turn
    from bosun.settings import Settings
    from bosun.workers.context import Context
    from bosun.workers.models import Deliverable, Slot, WorkerInput, WorkerResult
    from bosun.workers.registry import worker
    from tests.planner.workers import ES_RESULTS, build_registry

    registry = build_registry()
    chart_slot = Slot("chart", Deliverable)

    @worker(
        "chart_results",
        "a chart",
        consumes=[ES_RESULTS],
        produces=[chart_slot],
        goal_type="deliverable",
    )
    def chart(wi: WorkerInput, ctx: Context) -> WorkerResult:
        return WorkerResult.of(
            wi, chart_slot.of(Deliverable(text=f"chart of {wi.get(ES_RESULTS)['rows']}"))
        )

    registry.register(chart)

    ctx = RunContext(
        settings=Settings(data_dir=Path(str(tmp_path))),
        registry=registry,
        goals_of=lambda q, h: [Goal(id=1, text="chart it", deliverables=["chart"])],
    )
    answer = run_turn(build_graph(), "chart it", "t", ctx)
    assert [e.worker for e in answer.trace.sub_goals] == [
        "metadata_lookup",
        "es_query_gen",
        "es_query_exec",
        "chart_results",
    ]
    assert answer.answer == "chart of [['MAERSK', 10]]"


def test_events_stream_live_and_the_trace_renders(tmp_path: object) -> None:
    from pathlib import Path

    from bosun.planner.context import RunContext
    from bosun.planner.events import TurnEvent
    from bosun.planner.graph import build_graph
    from bosun.planner.run import TurnOutcome, render_trace_mermaid, stream_turn
    from bosun.settings import Settings
    from tests.planner.workers import build_registry

    goals = [
        Goal(id=1, text="a", deliverables=["answer"]),
        Goal(id=2, text="b", deliverables=["answer"]),
    ]
    ctx = RunContext(
        settings=Settings(data_dir=Path(str(tmp_path))),
        registry=build_registry(),
        goals_of=lambda q, h: goals,
    )
    items = list(stream_turn(build_graph(), "two definitions", "t", ctx))
    events = [i for i in items if isinstance(i, TurnEvent)]
    outcome = items[-1]
    assert isinstance(outcome, TurnOutcome) and outcome.answer.status == "done"
    answer = outcome.answer
    kinds = [e.kind for e in events]
    assert kinds[:2] == ["goals", "round_started"] and kinds[-1] == "done"
    assert sorted((e.sub_goal_id, e.worker, e.status) for e in events if e.kind == "finished") == [
        (1, "common_helpdesk", "success"),
        (2, "common_helpdesk", "success"),
    ]
    join = next(e for e in events if e.kind == "join")
    assert join.message == "2 result(s)"  # F13 saw both branches of the round
    mermaid = render_trace_mermaid(answer.trace)
    assert mermaid.splitlines()[:2] == ["flowchart LR", "    subgraph Round_1"]
    assert 'SG1["sg1: common_helpdesk<br/>success' in mermaid
