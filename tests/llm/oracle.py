"""A scripted model for every LLM node of a whole turn, for end-to-end runs of the llm backend.

A fake chat model needs a script; for a set of questions nobody wrote readings for (the dev set),
the script is what a faithful model would answer: the reading the rules backend gives of the same
turn, in the model's own form (ModelReading), the rules planner's round as a ModelPlan, and texts
written from the prompt's own summary. The answers still travel the whole LLM path: the prompt,
the tool call, parsing, the catalog and candidate checks, `to_reading`, the plan gate, the writers'
checks. What the rules' reading holds that the model's form cannot say is lost on the way, and the
end-to-end run shows it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage

from bosun.chat import client as chat
from bosun.planner.llm import LLMPlanner
from bosun.planner.state import MainState, PlanDecision
from bosun.understanding.llm import LLMUnderstanding
from bosun.understanding.meaning import Condition, Meaning
from bosun.understanding.reading import GoalReading, PastTurn, Reading
from bosun.workers.registry import Registry
from tests.llm.scripted import DispatchFakeModel, tool_call


class Oracle:
    """The script: what the rules would answer for the call being made, in the model's form."""

    def __init__(self, readings: dict[str, dict[str, Any]] | None = None) -> None:
        # question → the ModelReading scripted for it, over the rules' reading
        self.readings = readings or {}
        self.reading: Reading | None = None
        self.plan: PlanDecision | None = None
        self.calls: Counter[str] = Counter()
        self.retries = 0
        self.queued: dict[str, list[dict[str, Any]]] = {}  # tool → answers to give first, in order

    def __call__(self, tool: str, messages: list[BaseMessage]) -> AIMessage:
        self.calls[tool] += 1
        self.retries += any("Your answer was refused" in str(m.content) for m in messages[2:])
        if self.queued.get(tool):
            return tool_call(tool, self.queued[tool].pop(0))
        if tool == "ModelReading":
            assert self.reading is not None
            scripted = self.readings.get(_question(str(messages[1].content)))
            return tool_call(tool, scripted or model_reading(self.reading))
        if tool == "ModelPlan":
            assert self.plan is not None
            return tool_call(tool, model_plan(self.plan))
        return tool_call(
            tool, {"text": written(str(messages[0].content), str(messages[1].content))}
        )


def _question(human: str) -> str:
    return human.rsplit("<question>", 1)[-1].removesuffix("</question>")


@contextmanager
def oracle_model(
    patch: pytest.MonkeyPatch, readings: dict[str, dict[str, Any]] | None = None
) -> Iterator[Oracle]:
    """Every chat model opened in the block is the oracle's; each read and plan first tells it the
    rules' answer."""
    oracle = Oracle(readings)
    read, plan = LLMUnderstanding.read, LLMPlanner.plan

    def reading(self: LLMUnderstanding, text: str, history: list[PastTurn], today: date) -> Reading:
        oracle.reading = self.rules.read(text, history, today)
        return read(self, text, history, today)

    def planning(self: LLMPlanner, state: MainState, registry: Registry) -> PlanDecision:
        oracle.plan = self.rules.plan(state, registry)
        return plan(self, state, registry)

    patch.setattr(LLMUnderstanding, "read", reading)
    patch.setattr(LLMPlanner, "plan", planning)
    patch.setattr(chat, "open_chat_model", lambda settings: DispatchFakeModel(script=oracle))
    yield oracle


# -- readings ------------------------------------------------------------------------------------
def model_reading(reading: Reading) -> dict[str, Any]:
    return {"goals": [_goal(g) for g in reading.goals], "continuation": reading.continuation}


def _goal(goal: GoalReading) -> dict[str, Any]:
    if goal.meaning is None:
        return {"kind": goal.kind, "text": goal.text, "terms": goal.terms}
    return {"kind": "data", "text": goal.text, **model_goal(goal.meaning)}


def model_goal(meaning: Meaning) -> dict[str, Any]:
    lookup = meaning.lookup
    return {
        "records": meaning.intent_type == "search" and lookup is None,
        "measures": [{"agg": m.agg, "field": m.field} for m in meaning.measures],
        "filters": [
            {"field": c.field, "values": c.values, "negate": c.negate}
            for c in meaning.conditions
            if c.values
        ],
        "ranges": [_range(c) for c in meaning.conditions if not c.values],
        "time": _time(meaning),
        "group_by": meaning.group_by,
        "interval": meaning.interval,
        "top_n": meaning.top_n,
        "order": meaning.order,
        "sort": [{"field": f, "direction": d} for f, d in meaning.sort],
        "page": meaning.page,
        "lookup": {"object": lookup.object, "key": lookup.key, "fields": lookup.fields}
        if lookup
        else None,
        "ambiguous": [
            {"phrase": a.term, "options": a.options}
            for a in meaning.ambiguities
            if a.kind == "entity"
        ],
        "unknown_names": meaning.unknown_terms,
        "not_understood": meaning.not_understood,
    }


def _range(condition: Condition) -> dict[str, Any]:
    return {
        "field": condition.field,
        **{op: getattr(condition, op) for op in ("gt", "gte", "lt", "lte")},
    }


def _time(meaning: Meaning) -> dict[str, Any] | None:
    time = meaning.time
    if time is None:
        return None
    chosen = any(a.kind == "field" and a.term == time.text for a in meaning.ambiguities)
    return {
        "field": time.field,
        "start": _iso(time.start),
        "end": _iso(time.end),
        "words": time.text,
        "named": not chosen,
    }


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day else None


# -- plans ---------------------------------------------------------------------------------------
def model_plan(decision: PlanDecision) -> dict[str, Any]:
    return {
        "action": decision.action,
        "reasoning": decision.reasoning,
        "sub_goals": [
            {
                "id": s.id,
                "goal_id": s.goal_id,
                "worker": s.worker,
                "inputs": [
                    {"name": n, "from_sub_goal": r.from_sub_goal, "slot": r.slot}
                    for n, r in s.inputs.items()
                ],
            }
            for s in decision.sub_goals
        ],
        "synthesis_inputs": [
            {"key": k, "from_sub_goal": r.from_sub_goal, "slot": r.slot}
            for k, r in (decision.synthesis_inputs or {}).items()
        ],
    }


# -- texts ---------------------------------------------------------------------------------------
def written(system: str, human: str) -> str:
    """A writer's text from its own summary: the glossary entries, the fields, the figures, or a
    question."""
    if system.startswith("A name in the user's question matches several things"):
        return f"Which {_line(human, 'The name')} did you mean?"
    for label in ("Glossary entries:\n", "Fields (name, type, meaning):\n", "Figures computed: "):
        if label in human:
            return (
                human.split(label, 1)[1]
                .split("\n<question>", 1)[0]
                .split("\nColumns:", 1)[0]
                .strip()
            )
    raise AssertionError(f"no summary in the prompt: {human[:200]}")


def _line(text: str, label: str) -> str:
    found = re.search(rf"^{label}: (.*)$", text, re.MULTILINE)
    assert found is not None
    return found.group(1)
