"""F14's template: resolve synthesis_inputs and assemble the answer of DATA_CONTRACT §3 (no
model)."""

from __future__ import annotations

from typing import Literal

from bosun.planner.answer import Answer, trace_of
from bosun.planner.state import MainState
from bosun.workers.models import Deliverable


def _as_deliverable(value: object) -> Deliverable:
    """A deliverable slot's content; another slot a planner chose to show is shown as text."""
    return value if isinstance(value, Deliverable) else Deliverable(text=str(value))


def synthesize(state: MainState) -> Answer:
    parts: list[Deliverable] = []
    for ref in (state.synthesis_inputs or {}).values():
        value = state.completed_outputs.get(ref.from_sub_goal, {}).get(ref.slot)
        if value is not None:
            part = _as_deliverable(value)
            tables = [
                t.model_copy(update={"sub_goal_id": t.sub_goal_id or ref.from_sub_goal})
                for t in part.tables
            ]
            parts.append(part.model_copy(update={"tables": tables}))
    text = [p.text for p in parts if p.text]
    text += [
        f"I could not complete “{g.text}”: {g.error}" if g.text.strip() else str(g.error)
        for g in state.goals
        if g.status == "failed"
    ]
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
    return Answer(
        status=status,
        answer="\n\n".join(text),
        clarification=clarification,
        assumptions=assumptions,
        not_understood=unused,
        results=[t for p in parts for t in p.tables],
        trace=trace_of(state.sub_goals, state.notes),
    )


def _not_understood(words: list[str]) -> str:
    """Said first: the figures that follow answer the question without these words, not the whole of
    it."""
    quoted = ", ".join(f"“{w}”" for w in words)
    return (
        f"I did not understand {quoted}, so I did not use {'it' if len(words) == 1 else 'them'}: "
        "what follows "
        "answers the rest of the question, not the whole of it."
    )
