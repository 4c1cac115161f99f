"""Test workers with the seed's names and slots, registered in a fresh registry per test.

They read what to do from the goal's params (no models, no engine): enough to drive the planner
through every path of seed 000's scenarios.
"""

from __future__ import annotations

import time
from typing import Any

from bosun.errors import UnknownEntity
from bosun.workers.context import Context
from bosun.workers.models import Clarification, Deliverable, ResultTable, WorkerInput, WorkerResult
from bosun.workers.registry import Registry, worker


def _ok(wi: WorkerInput, **outputs: Any) -> WorkerResult:
    return WorkerResult(sub_goal_id=wi.sub_goal.id, status="success", outputs=outputs)


def build_registry(log: list[str] | None = None, delay_s: float = 0.0) -> Registry:
    registry = Registry()
    calls = log if log is not None else []

    def track(wi: WorkerInput) -> dict[str, Any]:
        calls.append(f"{wi.sub_goal.worker}:{wi.sub_goal.id}")
        if delay_s:
            time.sleep(delay_s)
        return wi.sub_goal.params

    @worker("common_helpdesk", "glossary answers", consumes=[], produces=["answer"], goal_type="deliverable",
            registry=registry)
    def helpdesk(wi: WorkerInput, ctx: Context) -> WorkerResult:
        params = track(wi)
        return _ok(wi, answer=Deliverable(text=params.get("definition", "A shipment is ...")))

    @worker("metadata_lookup", "resolve entities", consumes=[],
            produces=["metadata_results", "value_results", "analysis_result", "entity_options"],
            goal_type="support", registry=registry)
    def metadata(wi: WorkerInput, ctx: Context) -> WorkerResult:
        params = track(wi)
        if params.get("unknown"):
            raise UnknownEntity(params["unknown"])
        options = params.get("options", [])
        outputs = {"metadata_results": {"fields": ["carrier_name"]}, "value_results": params.get("values", []),
                   "analysis_result": {"intent_type": params.get("intent", "search")}, "entity_options": options}
        if options:
            return WorkerResult(sub_goal_id=wi.sub_goal.id, status="partial", outputs=outputs,
                                needs="clarification_message", message=f"{len(options)} matches")
        return WorkerResult(sub_goal_id=wi.sub_goal.id, status="success", outputs=outputs)

    @worker("es_query_gen", "DSL from the meaning", consumes=["metadata_results", "analysis_result"],
            produces=["es_query", "ambiguity"], goal_type="support", registry=registry)
    def gen(wi: WorkerInput, ctx: Context) -> WorkerResult:
        params = track(wi)
        query = {"query": {"terms": {"carrier_name": params.get("values", [])}},
                 "assumptions": params.get("assume", [])}
        return _ok(wi, es_query=query, ambiguity=params.get("ambiguity"))

    @worker("es_query_exec", "run the query", consumes=["es_query"], produces=["es_results", "hit_count"],
            goal_type="support", registry=registry)
    def execute(wi: WorkerInput, ctx: Context) -> WorkerResult:
        params = track(wi)
        if params.get("crash"):
            raise ValueError("engine said no")
        if params.get("slow_once") and wi.sub_goal.attempts == 0:
            time.sleep(ctx.settings.worker_timeout_s * 3)
        rows = params.get("rows", [["MAERSK", 10]])
        query = wi.resolved_inputs["es_query"]
        results = {"rows": rows, "assumptions": query.get("assumptions", []), "query": query}
        if params.get("partial"):
            outputs = {"es_results": {**results, "caveat": params["partial"]}, "hit_count": len(rows)}
            return WorkerResult(sub_goal_id=wi.sub_goal.id, status="partial", message=params["partial"],
                                outputs=outputs)
        result = _ok(wi, es_results=results, hit_count=len(rows))
        return result.model_copy(update={"empty": not rows})

    @worker("show_results", "template table", consumes=["es_results"], produces=["formatted_results"],
            goal_type="deliverable", registry=registry)
    def show(wi: WorkerInput, ctx: Context) -> WorkerResult:
        track(wi)
        res = wi.resolved_inputs["es_results"]
        table = ResultTable(title=wi.sub_goal.description, columns=["carrier_name", "teu"], rows=res["rows"],
                            total=len(res["rows"]), query=res["query"])
        return _ok(wi, formatted_results=Deliverable(text=f"{len(res['rows'])} rows", tables=[table],
                                                     assumptions=res["assumptions"]))

    @worker("analyze_results", "comparisons", consumes=["es_results"], produces=["analysis"],
            goal_type="deliverable", registry=registry)
    def analyze(wi: WorkerInput, ctx: Context) -> WorkerResult:
        track(wi)
        parts = [f"{k}: {v['rows']}" + (f" ({v['caveat']})" if v.get("caveat") else "")
                 for k, v in sorted(wi.resolved_inputs.items())]
        return _ok(wi, analysis=Deliverable(text="compared " + "; ".join(parts)))

    @worker("clarify_question", "ask which one", consumes=["entity_options"], produces=["clarification_message"],
            goal_type="deliverable", registry=registry)
    def clarify(wi: WorkerInput, ctx: Context) -> WorkerResult:
        track(wi)
        options = wi.resolved_inputs["entity_options"]
        question = "Which one did you mean?"
        clarification = Clarification(question=question, options=options)
        return _ok(wi, clarification_message=Deliverable(text=question, clarification=clarification))

    @worker("diagnose_query", "which filter emptied the result", consumes=["es_query"], produces=["diagnosis"],
            goal_type="deliverable", reviews_empty=True, registry=registry)
    def diagnose(wi: WorkerInput, ctx: Context) -> WorkerResult:
        track(wi)
        return _ok(wi, diagnosis=Deliverable(text="No rows: the carrier filter matched nothing."))

    return registry
