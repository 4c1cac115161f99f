"""A worker that needs a slot only for some goals (`consumes_if`): the rules planner plans its
producer for those goals alone and wires it by an InputRef, with no case of its own (how a link's
lookup is planned, issue 23)."""

from __future__ import annotations

from pathlib import Path

from bosun.planner.context import RunContext
from bosun.planner.graph import build_graph
from bosun.planner.run import run_turn
from bosun.settings import Settings
from bosun.workers.context import Context
from bosun.workers.models import Deliverable, Goal, GoalParams, Slot, WorkerInput, WorkerResult
from bosun.workers.registry import Registry, worker

ANSWER = Slot("answer", Deliverable)
KEYS = Slot("keys", list[str])


def _registry() -> Registry:
    @worker(
        "lookup",
        "finds the keys",
        consumes=[],
        produces=[KEYS],
        goal_type="support",
    )
    def lookup(wi: WorkerInput, ctx: Context) -> WorkerResult:
        return WorkerResult.of(wi, KEYS.of(["A", "B"]))

    @worker(
        "writer",
        "writes the answer",
        consumes=[],
        produces=[ANSWER],
        goal_type="deliverable",
        consumes_if=[(KEYS, lambda params: "linked" in params.text)],
    )
    def writer(wi: WorkerInput, ctx: Context) -> WorkerResult:
        keys = wi.get(KEYS) if KEYS.name in wi.resolved_inputs else []
        return WorkerResult.of(wi, ANSWER.of(Deliverable(text=f"keys: {keys}")))

    return Registry.of(lookup, writer)


def _turn(tmp_path: Path, text: str) -> tuple[str, list[tuple[str, dict[str, str]]]]:
    goal = Goal(id=1, text=text, deliverables=["answer"], params=GoalParams(text=text))
    ctx = RunContext(
        settings=Settings(data_dir=tmp_path), registry=_registry(), goals_of=lambda q, h: [goal]
    )
    answer = run_turn(build_graph(), text, "t", ctx)
    return answer.answer, [(s.worker, dict(s.inputs)) for s in answer.trace.sub_goals]


def test_the_slot_is_planned_and_wired_only_for_the_goals_that_need_it(tmp_path: Path) -> None:
    text, steps = _turn(tmp_path, "a linked goal")
    assert text == "keys: ['A', 'B']"
    # the InputRef to the lookup's keys
    assert steps == [("lookup", {}), ("writer", {"keys": "sg1.keys"})]
    plain, alone = _turn(tmp_path, "a plain goal")
    assert plain == "keys: []" and [w for w, _ in alone] == ["writer"]
