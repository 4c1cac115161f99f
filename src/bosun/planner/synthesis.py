"""F14's template: resolve synthesis_inputs and assemble the answer of DATA_CONTRACT §3 (no model)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from bosun.ledger import TurnTokens, Usage
from bosun.planner.state import MainState
from bosun.workers.models import Clarification, Deliverable, ResultTable


class TraceEntry(BaseModel):
    id: int
    goal_id: int
    worker: str
    status: str
    round: int | None
    duration_ms: float | None
    inputs: dict[str, str] = Field(default_factory=dict)
    error: str | None = None
    tokens: Usage | None = None  # the model tokens this sub-goal used (llm backend)


class Trace(BaseModel):
    rounds: int
    sub_goals: list[TraceEntry]
    notes: list[str] = Field(default_factory=list)


class Answer(BaseModel):
    """One turn's answer; `question` and `thread_id` are filled by whoever ran the turn."""

    question: str = ""
    thread_id: str = ""
    status: Literal["done", "needs_clarification", "failed"]
    answer: str
    clarification: Clarification | None = None
    assumptions: list[str] = Field(default_factory=list)
    not_understood: list[str] = Field(default_factory=list)
    results: list[ResultTable] = Field(default_factory=list)
    trace: Trace
    tokens: TurnTokens | None = None  # the turn's model tokens, by node, and its budget (llm backend)


def _as_deliverable(value: Any) -> Deliverable:
    if isinstance(value, Deliverable):
        return value
    if isinstance(value, dict):
        return Deliverable.model_validate(value)
    return Deliverable(text=str(value))


def trace_of(state: MainState) -> Trace:
    entries = [TraceEntry(id=s.id, goal_id=s.goal_id, worker=s.worker, status=s.status, round=s.round,
                          duration_ms=s.duration_ms, error=s.error,
                          inputs={k: f"sg{r.from_sub_goal}.{r.slot}" for k, r in s.inputs.items()})
               for s in state.sub_goals]
    rounds = max((s.round or 0 for s in state.sub_goals), default=0)
    return Trace(rounds=rounds, sub_goals=entries, notes=state.notes)


def synthesize(state: MainState) -> Answer:
    parts: list[Deliverable] = []
    for ref in (state.synthesis_inputs or {}).values():
        value = state.completed_outputs.get(ref.from_sub_goal, {}).get(ref.slot)
        if value is not None:
            part = _as_deliverable(value)
            tables = [t.model_copy(update={"sub_goal_id": t.sub_goal_id or ref.from_sub_goal}) for t in part.tables]
            parts.append(part.model_copy(update={"tables": tables}))
    text = [p.text for p in parts if p.text]
    text += [f"I could not complete “{g.text}”: {g.error}" if g.text.strip() else str(g.error)
             for g in state.goals if g.status == "failed"]
    clarification = next((p.clarification for p in parts if p.clarification), None)
    assumptions = list(dict.fromkeys(a for p in parts for a in p.assumptions))
    unused = list(dict.fromkeys(w for p in parts for w in p.not_understood))
    status: Literal["done", "needs_clarification", "failed"] = "done"
    if clarification is not None:
        status = "needs_clarification"
    elif not parts or all(p.failed for p in parts):
        status = "failed"
    if not text:
        text = ["I could not answer this question." if status == "failed" else "Done."]
    if unused and status == "done":
        text.insert(0, _not_understood(unused))
    return Answer(status=status, answer="\n\n".join(text), clarification=clarification, assumptions=assumptions,
                  not_understood=unused,
                  results=[t for p in parts for t in p.tables], trace=trace_of(state))


def _not_understood(words: list[str]) -> str:
    """Said first: the figures that follow answer the question without these words, not the whole of it."""
    quoted = ", ".join(f"“{w}”" for w in words)
    return (f"I did not understand {quoted}, so I did not use {'it' if len(words) == 1 else 'them'}: what follows "
            "answers the rest of the question, not the whole of it.")
