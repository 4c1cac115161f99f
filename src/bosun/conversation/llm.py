"""With the llm backend, the model also plans (F02) and writes (F04, F09, F10, F12): the context that says so."""

from __future__ import annotations

from dataclasses import replace

from bosun.planner.llm import LLMPlanner
from bosun.planner.rules import RulesPlanner
from bosun.understanding.llm import ChatClient
from bosun.workers.context import Context
from bosun.workers.writing import with_writers


def with_model(context: Context, client: ChatClient) -> Context:
    """The context whose registry has the model's writers and whose planner is the model's, over the rules'."""
    return replace(context, registry=with_writers(context.registry, client),
                   extras={**context.extras, "planner": LLMPlanner(client, RulesPlanner())})
