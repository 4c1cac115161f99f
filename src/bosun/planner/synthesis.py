"""F14's template: resolve synthesis_inputs and assemble the answer of DATA_CONTRACT §3 (no
model), then add what the answer says besides the workers' deliverables: the model's fallbacks, the
note about today, charts, and the taught words."""

from __future__ import annotations

from typing import Literal

from bosun.answers.charts import chart_for
from bosun.answers.grammar import writing
from bosun.answers.notes import picked, remember_offer, taught_notes
from bosun.catalog.taught import TaughtWord
from bosun.ledger import Ledger
from bosun.planner.answer import Answer, trace_of
from bosun.planner.context import RunContext, Taught
from bosun.planner.state import MainState
from bosun.understanding import Meaning
from bosun.workers.context import Context
from bosun.workers.models import Deliverable, Goal
from bosun.workers.slots import ANALYSIS_RESULT


def _as_deliverable(value: object) -> Deliverable:
    """A deliverable slot's content; another slot a planner chose to show is shown as text."""
    return value if isinstance(value, Deliverable) else Deliverable(text=str(value))


def synthesize(state: MainState, context: RunContext) -> Answer:
    """The turn's whole answer: the deliverables assembled, then finished."""
    return finished(_assembled(state), state, context)


def finished(answer: Answer, state: MainState, context: RunContext) -> Answer:
    """What every answer of a turn adds to what it says: the model answers the rules replaced (llm
    backend), the note about today, a chart on each chart-shaped table, and the taught words.

    F14 finishes its answer so; so does the run for an answer made outside F14 (a pause)."""
    answer = _with_fallbacks(answer, context.ledger)
    answer = _with_today(answer, state, context.today_note)
    answer = _with_charts(answer)
    return _with_taught(answer, state, context)


def _assembled(state: MainState) -> Answer:
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
    text += [_failed(g.text, str(g.error)) for g in state.goals if g.status == "failed"]
    clarification = next((p.clarification for p in parts if p.clarification), None)
    assumptions = list(dict.fromkeys(a for p in parts for a in p.assumptions))
    unused = list(dict.fromkeys(w for p in parts for w in p.not_understood))
    choices = [c for p in parts for c in p.choices]
    status: Literal["done", "needs_clarification", "failed"] = "done"
    if clarification is not None:
        status = "needs_clarification"
    elif not parts or all(p.failed for p in parts):
        status = "failed"
    if not text:
        words = writing().turn
        text = [words.failed if status == "failed" else words.done]
    if unused and status == "done":
        text.insert(0, _not_understood(unused, _misread(state)))
    return Answer(
        status=status,
        answer="\n\n".join(text),
        clarification=clarification,
        assumptions=assumptions,
        choices=[c for i, c in enumerate(choices) if c not in choices[:i]],
        suggestions=list(dict.fromkeys(s for p in parts for s in p.suggestions)),
        not_understood=unused,
        results=[t for p in parts for t in p.tables],
        trace=trace_of(state.sub_goals, state.notes, state.audits),
    )


def _failed(goal: str, error: str) -> str:
    """A goal that failed, said with its own words when it has any."""
    return writing().turn.goal_failed.format(goal=goal, error=error) if goal.strip() else error


def _misread(state: MainState) -> set[str]:
    """Words the coverage audit found the reading did not account for (it may have used them
    wrongly: "over 2000" read as a year)."""
    return {u.words for verdict in state.audits for u in verdict.unexplained}


def _not_understood(words: list[str], misread: set[str]) -> str:
    """Said first: the figures that follow answer the question without these words, not the whole of
    it."""
    turn = writing().turn
    unread = [w for w in words if w not in misread]
    doubted = [w for w in words if w in misread]
    said = []
    if unread:
        unused = turn.not_understood_one if len(unread) == 1 else turn.not_understood_many
        said.append(unused.format(words=_quoted(unread)))
    if doubted:
        said.append(turn.misread.format(words=_quoted(doubted)))
    return "; ".join(said) + turn.rest


def _quoted(words: list[str]) -> str:
    return ", ".join(writing().turn.quoted.format(word=w) for w in words)


def _with_fallbacks(answer: Answer, ledger: Ledger | None) -> Answer:
    """The model answers the rules replaced this turn, as assumptions and in the trace."""
    if ledger is None:
        return answer
    trace = answer.trace.model_copy(update={"notes": [*answer.trace.notes, *ledger.notes]})
    return answer.model_copy(
        update={"trace": trace, "assumptions": [*answer.assumptions, *ledger.notes]}
    )


def _with_today(answer: Answer, state: MainState, today_note: str | None) -> Answer:
    """The data's last day taken as today is said when the turn read a time word."""
    if today_note is None or today_note in answer.assumptions:
        return answer
    if not any(g.params.meaning is not None and g.params.meaning.time for g in state.goals):
        return answer
    return answer.model_copy(update={"assumptions": [*answer.assumptions, today_note]})


def _with_charts(answer: Answer) -> Answer:
    """The answer with a chart on each result that has a chart-shaped table."""
    results = [r.model_copy(update={"chart": chart_for(r)}) for r in answer.results]
    return answer.model_copy(update={"results": results})


def _with_taught(answer: Answer, state: MainState, context: RunContext) -> Answer:
    """The answer saying which taught words it read, and offering to remember a pick made
    twice."""
    taught = context.taught
    if taught is None:
        return answer
    read = taught.read_through(state.question, context.today())
    said = taught_notes(read, answer.not_understood)
    offered = _offered(taught, state, context)
    text = answer.answer
    if offered is not None:
        text += f"\n\n{remember_offer(offered)}"
    return answer.model_copy(
        update={
            "assumptions": [*answer.assumptions, *said],
            "answer": text,
            "remember": [offered] if offered else [],
        }
    )


def _offered(taught: Taught, state: MainState, context: RunContext) -> TaughtWord | None:
    """The alias to offer: this turn picked one of the options the last turn asked back about,
    as often as it takes to be remembered."""
    if taught.asked is None:
        return None
    meaning = main_meaning(state, context)
    pick = picked(taught.asked, meaning) if meaning is not None else None
    if pick is None:
        return None
    return taught.remembered(taught.asked.term, pick)


def main_meaning(state: MainState, context: Context) -> Meaning | None:
    """What the turn's first data goal was taken to mean, or None when it asked no data."""
    goals = [g for g in state.goals if g.params.kind == "data"]
    return meaning_of(goals[0], state, context) if goals else None


def meaning_of(goal: Goal, state: MainState, context: Context) -> Meaning:
    """What the goal was taken to mean: metadata_lookup's reading (after any pick), else the goal's
    own."""
    for sub_goal in state.sub_goals:
        found = state.output(sub_goal.id, ANALYSIS_RESULT)
        if sub_goal.goal_id == goal.id and found is not None:
            return found
    return goal.params.meaning or context.understanding.analyze(goal.params.text, context.today())
