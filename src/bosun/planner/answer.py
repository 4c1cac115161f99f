"""The answer of DATA_CONTRACT §3 and the round-by-round trace it carries."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from bosun.answers import Choice
from bosun.catalog.taught import TaughtWord
from bosun.ledger import TurnTokens, Usage
from bosun.understanding import Verdict
from bosun.workers.models import Clarification, ResultTable, SubGoal


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
    # the coverage audit's verdict on each data goal's reading (issue 34)
    audits: list[Verdict] = Field(default_factory=list)


class Answer(BaseModel):
    """One turn's answer; `question` and `thread_id` are filled by whoever ran the turn."""

    question: str = ""
    thread_id: str = ""
    status: Literal["done", "needs_clarification", "failed"]
    answer: str
    clarification: Clarification | None = None
    assumptions: list[str] = Field(default_factory=list)
    # the readings chosen where the question allowed several, each with the question for another
    choices: list[Choice] = Field(default_factory=list)
    # questions to ask next, made from the answer's readings: each read back as it was made
    suggestions: list[str] = Field(default_factory=list)
    not_understood: list[str] = Field(default_factory=list)
    results: list[ResultTable] = Field(default_factory=list)
    trace: Trace
    # the turn's model tokens, by node, and its budget (llm backend)
    tokens: TurnTokens | None = None
    remember: list[TaughtWord] = Field(
        default_factory=list,
        description="aliases offered because a question back "
        "was answered the same way twice; never applied unless taught",
    )


def trace_of(
    sub_goals: list[SubGoal], notes: list[str], audits: list[Verdict] | None = None
) -> Trace:
    """The sub-goals as the answer's trace shows them, with what the gates decided."""
    entries = [
        TraceEntry(
            id=s.id,
            goal_id=s.goal_id,
            worker=s.worker,
            status=s.status,
            round=s.round,
            duration_ms=s.duration_ms,
            error=s.error,
            inputs={k: f"sg{r.from_sub_goal}.{r.slot}" for k, r in s.inputs.items()},
        )
        for s in sub_goals
    ]
    rounds = max((s.round or 0 for s in sub_goals), default=0)
    return Trace(rounds=rounds, sub_goals=entries, notes=notes, audits=audits or [])
