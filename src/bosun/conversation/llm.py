"""With the llm backend, the model also plans (F02) and writes (F04, F09, F10, F12): the context
that says so."""

from __future__ import annotations

from dataclasses import replace

from bosun.chat import ChatClient
from bosun.planner.context import RunContext
from bosun.planner.llm import LLMPlanner
from bosun.planner.rules import RulesPlanner
from bosun.workers.raw_dsl import with_raw_dsl
from bosun.workers.writing import with_writers


def with_model(context: RunContext, client: ChatClient) -> RunContext:
    """The context whose registry has the model's writers (and, if set, query clauses) and whose
    planner is the model's, over the rules'."""
    registry = with_writers(context.registry, client)
    if context.settings.llm_raw_dsl:
        registry = with_raw_dsl(registry, client)
    return replace(context, registry=registry, planner=LLMPlanner(client, RulesPlanner()))
