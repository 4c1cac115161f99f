"""The Deterministic Planner of seed 000, as a LangGraph graph.

START → F01 → reading audit → F02 → plan gate ─Send(WorkerInput)…→ F03 → F13 → review gate → F02 …
                         └── done / failed ──────────────────────────────→ F14 → END
"""

from __future__ import annotations

from typing import Any, cast

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from bosun.planner.context import RunContext
from bosun.planner.nodes import (
    f01_reiterate_intention,
    f02_planner,
    f03_worker_executor,
    f13_join_reduce,
    f14_synthesizer,
    g_plan_gate,
    g_reading_audit,
    g_review_gate,
    route_after_planner,
)
from bosun.planner.state import MainState, TurnInput
from bosun.workers.models import WorkerInput

# the state, the run context every node receives, a new turn's input, what a run returns
Graph = CompiledStateGraph[MainState, RunContext, TurnInput, MainState]


def build_graph(checkpointer: BaseCheckpointSaver[Any] | None = None) -> Graph:
    graph = StateGraph(MainState, context_schema=RunContext, input_schema=TurnInput)
    graph.add_node("f01_reiterate_intention", f01_reiterate_intention)
    graph.add_node("g_reading_audit", g_reading_audit)
    graph.add_node("f02_planner", f02_planner)
    graph.add_node("g_plan_gate", g_plan_gate)
    # one per Send
    graph.add_node("f03_worker_executor", cast(Any, f03_worker_executor), input_schema=WorkerInput)
    graph.add_node("f13_join_reduce", f13_join_reduce)
    graph.add_node("g_review_gate", g_review_gate)
    graph.add_node("f14_synthesizer", f14_synthesizer)

    graph.add_edge(START, "f01_reiterate_intention")  # a new human message
    # every reading checked for words it leaves unread, whoever read it
    graph.add_edge("f01_reiterate_intention", "g_reading_audit")
    graph.add_edge("g_reading_audit", "f02_planner")  # audited goals → first round
    graph.add_edge("f02_planner", "g_plan_gate")  # F02 only proposes; the gate decides
    graph.add_conditional_edges(  # fan out ready sub-goals, or synthesize when planning is over
        "g_plan_gate", route_after_planner, ["f03_worker_executor", "f14_synthesizer"]
    )
    graph.add_edge("f03_worker_executor", "f13_join_reduce")  # F13 runs once, after every branch
    # retries, review of empty results, ambiguity policy
    graph.add_edge("f13_join_reduce", "g_review_gate")
    graph.add_edge("g_review_gate", "f02_planner")  # F13 always returns to F02
    graph.add_edge("f14_synthesizer", END)  # one answer
    return graph.compile(checkpointer=checkpointer)
