"""The registry is built in one visible place: describing a worker registers nothing, and each
registry a session or a test builds is its own."""

from __future__ import annotations

from pathlib import Path

from bosun.planner.context import RunContext
from bosun.settings import Settings
from bosun.workers.catalogue import default_registry
from bosun.workers.context import Context
from bosun.workers.models import Deliverable, Slot, WorkerInput, WorkerResult
from bosun.workers.registry import Registry, worker

SEED_AND_SINCE = [
    "reference_lookup",
    "overall_figure",
    "last_answer_rows",
    "common_helpdesk",
    "explain_metadata",
    "metadata_lookup",
    "es_query_gen",
    "es_query_exec",
    "page_query",
    "show_results",
    "analyze_results",
    "clarify_question",
    "diagnose_query",
    "graphql_lookup",
]


def test_a_run_context_plans_with_the_default_registry(tmp_path: Path) -> None:
    context = RunContext(settings=Settings(data_dir=tmp_path))
    assert list(context.registry.workers) == SEED_AND_SINCE


def test_each_default_registry_is_its_own() -> None:
    changed, other = default_registry(), default_registry()
    del changed.workers["page_query"]
    assert list(other.workers) == SEED_AND_SINCE


def test_describing_a_worker_registers_nothing() -> None:
    said = Slot("said", Deliverable)

    def say(wi: WorkerInput, ctx: Context) -> WorkerResult:
        return WorkerResult.of(wi, said.of(Deliverable(text="hello")))

    described = worker("say", "says hello", consumes=[], produces=[said], goal_type="deliverable")
    once, twice = described(say), described(say)
    assert once == twice and once.fn is say
    assert Registry.of(once).capabilities() == [once.capability]
    assert "say" not in default_registry().workers
