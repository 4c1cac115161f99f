"""Test workers with the seed's names and slots, in a fresh registry per test.

What each does for a goal is scripted (no models, no engine), by the goal's id: enough to drive the
planner through every path of seed 000's scenarios. Their slots carry plain values, declared here
with their own (loose) types, as any registry's own workers declare theirs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from bosun.errors import UnknownEntity
from bosun.workers.context import Context
from bosun.workers.models import (
    Clarification,
    Deliverable,
    ResultTable,
    Slot,
    WorkerInput,
    WorkerResult,
)
from bosun.workers.registry import Registry, worker

ANSWER = Slot("answer", Deliverable)
ANALYSIS_RESULT = Slot("analysis_result", dict[str, Any])
ENTITY_OPTIONS = Slot("entity_options", list[str])
ES_QUERY = Slot("es_query", dict[str, Any])
ES_RESULTS = Slot("es_results", dict[str, Any])
FORMATTED_RESULTS = Slot("formatted_results", Deliverable)
ANALYSIS = Slot("analysis", Deliverable)
CLARIFICATION_MESSAGE = Slot("clarification_message", Deliverable)
DIAGNOSIS = Slot("diagnosis", Deliverable)


@dataclass(frozen=True)
class Script:
    """What the test workers do for one goal."""

    definition: str = "A shipment is ..."
    values: list[str] = field(default_factory=list)
    rows: list[list[Any]] = field(default_factory=lambda: [["MAERSK", 10]])
    options: list[str] = field(default_factory=list)
    unknown: str | None = None
    crash: bool = False
    slow_once: bool = False
    partial: str | None = None
    assume: list[str] = field(default_factory=list)


def build_registry(
    log: list[str] | None = None, delay_s: float = 0.0, scripts: dict[int, Script] | None = None
) -> Registry:
    calls = log if log is not None else []
    scripted = scripts or {}

    def track(wi: WorkerInput) -> Script:
        calls.append(f"{wi.sub_goal.worker}:{wi.sub_goal.id}")
        if delay_s:
            time.sleep(delay_s)
        return scripted.get(wi.sub_goal.goal_id, Script())

    @worker(
        "common_helpdesk",
        "glossary answers",
        consumes=[],
        produces=[ANSWER],
        goal_type="deliverable",
    )
    def helpdesk(wi: WorkerInput, ctx: Context) -> WorkerResult:
        return WorkerResult.of(wi, ANSWER.of(Deliverable(text=track(wi).definition)))

    @worker(
        "metadata_lookup",
        "resolve entities",
        consumes=[],
        produces=[ANALYSIS_RESULT, ENTITY_OPTIONS],
        goal_type="support",
    )
    def metadata(wi: WorkerInput, ctx: Context) -> WorkerResult:
        script = track(wi)
        if script.unknown:
            raise UnknownEntity(script.unknown)
        analysis = ANALYSIS_RESULT.of({"values": script.values, "assume": script.assume})
        if script.options:
            return WorkerResult.of(
                wi,
                analysis,
                ENTITY_OPTIONS.of(script.options),
                status="partial",
                needs="clarification_message",
                message=f"{len(script.options)} matches",
            )
        return WorkerResult.of(wi, analysis)

    @worker(
        "es_query_gen",
        "DSL from the meaning",
        consumes=[ANALYSIS_RESULT],
        produces=[ES_QUERY],
        goal_type="support",
    )
    def gen(wi: WorkerInput, ctx: Context) -> WorkerResult:
        track(wi)
        analysis = wi.get(ANALYSIS_RESULT)
        query = {
            "query": {"terms": {"carrier_name": analysis["values"]}},
            "assumptions": analysis["assume"],
        }
        return WorkerResult.of(wi, ES_QUERY.of(query))

    @worker(
        "es_query_exec",
        "run the query",
        consumes=[ES_QUERY],
        produces=[ES_RESULTS],
        goal_type="support",
    )
    def execute(wi: WorkerInput, ctx: Context) -> WorkerResult:
        script = track(wi)
        if script.crash:
            raise ValueError("engine said no")
        if script.slow_once and wi.sub_goal.attempts == 0:
            time.sleep(ctx.settings.worker_timeout_s * 3)
        query = wi.get(ES_QUERY)
        results = {"rows": script.rows, "assumptions": query["assumptions"], "query": query}
        if script.partial:
            return WorkerResult.of(
                wi,
                ES_RESULTS.of({**results, "caveat": script.partial}),
                status="partial",
                message=script.partial,
            )
        return WorkerResult.of(wi, ES_RESULTS.of(results), empty=not script.rows)

    @worker(
        "show_results",
        "template table",
        consumes=[ES_RESULTS],
        produces=[FORMATTED_RESULTS],
        goal_type="deliverable",
    )
    def show(wi: WorkerInput, ctx: Context) -> WorkerResult:
        track(wi)
        res = wi.get(ES_RESULTS)
        table = ResultTable(
            title=wi.sub_goal.description,
            columns=["carrier_name", "teu"],
            rows=res["rows"],
            total=len(res["rows"]),
            query=res["query"],
        )
        shown = Deliverable(
            text=f"{len(res['rows'])} rows", tables=[table], assumptions=res["assumptions"]
        )
        return WorkerResult.of(wi, FORMATTED_RESULTS.of(shown))

    @worker(
        "analyze_results",
        "comparisons",
        consumes=[ES_RESULTS],
        produces=[ANALYSIS],
        goal_type="deliverable",
    )
    def analyze(wi: WorkerInput, ctx: Context) -> WorkerResult:
        track(wi)
        parts = [
            f"{k}: {v['rows']}" + (f" ({v['caveat']})" if v.get("caveat") else "")
            for k, v in sorted(wi.resolved_inputs.items())
        ]
        return WorkerResult.of(wi, ANALYSIS.of(Deliverable(text="compared " + "; ".join(parts))))

    @worker(
        "clarify_question",
        "ask which one",
        consumes=[ENTITY_OPTIONS],
        produces=[CLARIFICATION_MESSAGE],
        goal_type="deliverable",
    )
    def clarify(wi: WorkerInput, ctx: Context) -> WorkerResult:
        track(wi)
        question = "Which one did you mean?"
        clarification = Clarification(question=question, options=wi.get(ENTITY_OPTIONS))
        return WorkerResult.of(
            wi, CLARIFICATION_MESSAGE.of(Deliverable(text=question, clarification=clarification))
        )

    @worker(
        "diagnose_query",
        "which filter emptied the result",
        consumes=[ES_QUERY],
        produces=[DIAGNOSIS],
        goal_type="deliverable",
        reviews_empty=True,
    )
    def diagnose(wi: WorkerInput, ctx: Context) -> WorkerResult:
        track(wi)
        return WorkerResult.of(
            wi, DIAGNOSIS.of(Deliverable(text="No rows: the carrier filter matched nothing."))
        )

    return Registry.of(helpdesk, metadata, gen, execute, show, analyze, clarify, diagnose)
