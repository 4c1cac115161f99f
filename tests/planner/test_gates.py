"""The policy gates on their own: no workers, no models, no graph."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bosun.errors import ConfigError
from bosun.planner import gates
from bosun.planner.state import MainState, PlanDecision, worker_results_reducer
from bosun.workers.models import Goal, InputRef, ResultFlags, SubGoal, WorkerResult
from tests.planner.workers import build_registry

REGISTRY = build_registry()


def sg(
    id: int,
    worker: str,
    status: str = "pending",
    outputs: list[str] | None = None,
    **inputs: InputRef,
) -> SubGoal:
    return SubGoal(
        id=id,
        goal_id=1,
        worker=worker,
        description=worker,
        status=status,  # type: ignore[arg-type]
        outputs=outputs or [],
        inputs=inputs,
    )


def state_with(*sub_goals: SubGoal, round: int = 1) -> MainState:
    return MainState(
        question="q",
        goals=[Goal(id=1, text="g", deliverables=["formatted_results"])],
        sub_goals=list(sub_goals),
        round=round,
    )


def test_valid_plan_passes() -> None:
    done = sg(1, "metadata_lookup", "success", ["analysis_result", "entity_options"])
    ref = InputRef(from_sub_goal=1, slot="analysis_result")
    proposed = sg(2, "es_query_gen", outputs=["es_query"], analysis_result=ref)
    plan = PlanDecision(action="continue", sub_goals=[proposed])
    assert gates.validate_plan(plan, state_with(done), REGISTRY) == []


@pytest.mark.parametrize(
    ("proposed", "problem"),
    [
        ([sg(2, "write_report")], "sg2: unknown worker 'write_report'"),
        (
            [sg(2, "es_query_exec", es_query=InputRef(from_sub_goal=9, slot="es_query"))],
            "sg2.es_query: refers to unknown sub-goal 9",
        ),
        (
            [sg(2, "es_query_exec", es_query=InputRef(from_sub_goal=1, slot="es_query"))],
            "sg2.es_query: sg1 declares no slot 'es_query'",
        ),
        (
            [
                sg(2, "es_query_exec", es_query=InputRef(from_sub_goal=3, slot="x")),
                sg(3, "es_query_exec", outputs=["x"], es_query=InputRef(from_sub_goal=2, slot="x")),
            ],
            "sg2: its inputs depend on itself",
        ),
        (
            [sg(2, "metadata_lookup", outputs=["analysis_result"])],
            "sg2: duplicates work already planned",
        ),
        ([sg(1, "common_helpdesk")], "sg1: id already used"),
    ],
)
def test_bad_plans_are_refused(proposed: list[SubGoal], problem: str) -> None:
    done = sg(1, "metadata_lookup", "success", ["analysis_result"])
    problems = gates.validate_plan(
        PlanDecision(action="continue", sub_goals=proposed), state_with(done), REGISTRY
    )
    assert any(p.startswith(problem) for p in problems), problems


def test_reference_to_failed_sub_goal_is_refused() -> None:
    failed = sg(1, "metadata_lookup", "failed", ["analysis_result"])
    plan = PlanDecision(
        action="continue",
        sub_goals=[
            sg(2, "es_query_gen", analysis_result=InputRef(from_sub_goal=1, slot="analysis_result"))
        ],
    )
    assert gates.validate_plan(plan, state_with(failed), REGISTRY) == [
        "sg2.analysis_result: refers to failed sub-goal 1"
    ]


def test_round_cap() -> None:
    assert not gates.round_cap_reached(state_with(round=8))
    assert gates.round_cap_reached(state_with(round=9))


def test_turn_deadline() -> None:
    state = state_with().model_copy(update={"deadline": 1000.0})
    assert not gates.deadline_passed(state, 999.0)
    assert gates.deadline_passed(state, 1000.0)


def test_retry_only_transient_failures_and_only_once() -> None:
    def failed(id: int, transient: bool, attempts: int) -> SubGoal:
        return sg(id, "es_query_exec", "failed").model_copy(
            update={"attempts": attempts, "result": ResultFlags(transient=transient)}
        )

    assert gates.retries([failed(1, True, 1), failed(2, False, 1), failed(3, True, 2)]) == [1]


def test_partial_success_fails_only_the_blocked_goal() -> None:
    goals = [Goal(id=1, text="a", deliverables=["x"]), Goal(id=2, text="b", deliverables=["y"])]
    accepted = gates.accept_partial(goals, {1: "no worker produces 'x'"})
    assert [(g.status, g.error) for g in accepted] == [
        ("failed", "no worker produces 'x'"),
        ("open", None),
    ]


def test_review_adds_one_diagnostic_step_for_an_empty_result() -> None:
    goal = Goal(id=1, text="g", deliverables=["formatted_results"])
    empty = sg(3, "es_query_exec", "success").model_copy(update={"result": ResultFlags(empty=True)})
    reviewed = gates.review(goal, empty, REGISTRY, "ask")
    assert reviewed.deliverables == ["formatted_results", "diagnosis"] and reviewed.reviewed
    assert gates.review(reviewed, empty, REGISTRY, "ask") == reviewed  # once only


def test_ambiguity_policy() -> None:
    goal = Goal(id=1, text="g", deliverables=["formatted_results"])
    needs = ResultFlags(needs="clarification_message")
    unsure = sg(1, "metadata_lookup", "partial").model_copy(update={"result": needs})
    assert gates.review(goal, unsure, REGISTRY, "ask").deliverables == ["clarification_message"]
    assert gates.review(goal, unsure, REGISTRY, "assume").deliverables == ["formatted_results"]


def test_reducer_concatenates_and_clears() -> None:
    one = WorkerResult(sub_goal_id=1, status="success")
    two = WorkerResult(sub_goal_id=2, status="failed")
    assert worker_results_reducer(worker_results_reducer([], [one]), [two]) == [one, two]
    assert worker_results_reducer([one, two], []) == []


def test_registry_refuses_duplicates_at_registration() -> None:
    registry = build_registry()
    shown = registry.workers["show_results"]
    with pytest.raises(ConfigError, match="worker 'show_results' is registered twice"):
        registry.register(shown)
    clash = replace(shown, capability=shown.capability.model_copy(update={"name": "show_more"}))
    with pytest.raises(
        ConfigError, match="slot 'formatted_results' of worker 'show_more' is already produced by"
    ):
        registry.register(clash)
