"""Typed slots: what a worker produces is checked against the types its slots declare; values travel
typed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bosun.conversation.session import Session
from bosun.planner.context import RunContext
from bosun.planner.graph import build_graph
from bosun.planner.run import TurnOutcome, run_turn, stream_turn
from bosun.query import CompiledQuery
from bosun.settings import Settings
from bosun.understanding import Ambiguity, Meaning
from bosun.workers.context import Context
from bosun.workers.models import Deliverable, Goal, Slot, WorkerInput, WorkerResult
from bosun.workers.registry import Registry, worker
from bosun.workers.slots import (
    AMBIGUITY,
    ANALYSIS_RESULT,
    ES_QUERY,
    ES_RESULTS,
    QueryResults,
)
from tests.conftest import sample_session

ANSWER = Slot("answer", Deliverable)


def _turn(tmp_path: Path, fn: object, produces: list[Slot[object]]) -> tuple[str, str | None]:
    """One goal delivering `answer`, from a worker that produces `produces`: the answer and the
    worker's error."""
    writer = worker(
        "writer",
        "writes the answer",
        consumes=[],
        produces=produces,
        goal_type="deliverable",
    )(fn)  # type: ignore[arg-type]
    registry = Registry.of(writer)
    ctx = RunContext(
        settings=Settings(data_dir=tmp_path),
        registry=registry,
        goals_of=lambda q, h: [Goal(id=1, text="say it", deliverables=["answer"])],
    )
    answer = run_turn(build_graph(), "say it", "t", ctx)
    return answer.answer, answer.trace.sub_goals[0].error


def test_a_value_of_another_type_fails_the_sub_goal_naming_the_slot(tmp_path: Path) -> None:
    def writer(wi: WorkerInput, ctx: Context) -> WorkerResult:
        return WorkerResult(
            sub_goal_id=wi.sub_goal.id, status="success", outputs={"answer": {"text": "hello"}}
        )

    text, error = _turn(tmp_path, writer, [ANSWER])
    assert error is not None and error.startswith(
        "writer: slot 'answer' holds dict, not Deliverable"
    )
    assert (
        "hello" not in text
        and "I could not complete “say it”: writer: slot 'answer' holds dict" in text
    )


def test_a_slot_the_worker_does_not_declare_fails_the_sub_goal(tmp_path: Path) -> None:
    def writer(wi: WorkerInput, ctx: Context) -> WorkerResult:
        return WorkerResult.of(wi, ANSWER.of(Deliverable(text="hello")), Slot("extra", str).of("x"))

    _, error = _turn(tmp_path, writer, [ANSWER])
    assert error == "writer produced 'extra', a slot it does not declare"


def test_a_value_of_the_declared_type_reaches_the_answer(tmp_path: Path) -> None:
    def writer(wi: WorkerInput, ctx: Context) -> WorkerResult:
        return WorkerResult.of(wi, ANSWER.of(Deliverable(text="hello")))

    assert _turn(tmp_path, writer, [ANSWER]) == ("hello", None)


def test_lists_of_models_are_checked_item_by_item() -> None:
    unsure = Ambiguity(term="arrived", kind="field", options=["arrival_date", "eta_date"])
    assert AMBIGUITY.problem([unsure]) is None
    assert AMBIGUITY.problem([unsure.model_dump()]) is not None


@pytest.fixture
def session(dev_data_dir: Path, tmp_path: Path) -> Iterator[Session]:
    yield from sample_session(dev_data_dir, tmp_path)


def test_a_turn_carries_its_meaning_typed_from_the_goal_to_the_results(session: Session) -> None:
    *_, outcome = stream_turn(
        session.graph, "TEU by carrier to Savannah in 2025", "typed", session.context, []
    )
    assert isinstance(outcome, TurnOutcome)
    state, answer = outcome.state, outcome.answer
    (goal,) = state.goals
    assert isinstance(goal.params.meaning, Meaning) and goal.params.meaning.group_by == [
        "carrier_name"
    ]
    by_worker = {s.worker: s.id for s in state.sub_goals}
    meaning = state.output(by_worker["metadata_lookup"], ANALYSIS_RESULT)
    query = state.output(by_worker["es_query_gen"], ES_QUERY)
    results = state.output(by_worker["es_query_exec"], ES_RESULTS)
    assert isinstance(query, CompiledQuery) and isinstance(results, QueryResults)
    # read once, never revived
    assert meaning == goal.params.meaning == query.meaning == results.meaning
    assert results.table.rows == answer.results[0].rows
