"""F01: the turn, read by the understanding backend against the thread's last turns, restated as
goals."""

from __future__ import annotations

from datetime import date

from bosun.planner.context import GoalsOf
from bosun.understanding import GoalReading, Meaning, PastTurn, Reading, Understanding
from bosun.workers.models import Goal, GoalParams


def deliverables_of(meaning: Meaning) -> list[str]:
    """What a data goal must deliver, by what it asks."""
    if meaning.lookup is not None:  # one business object: GraphQL, not the search engine
        return ["object_details"]
    if meaning.intent_type == "search" and meaning.page > 1:
        return ["page_results"]
    analysed = meaning.intent_type == "aggregation" and (
        meaning.compare or meaning.interval or meaning.top_n
    )
    return ["formatted_results", "analysis"] if analysed else ["formatted_results"]


def goals_for(understanding: Understanding, today: date) -> GoalsOf:
    def goals_of(question: str, history: list[PastTurn]) -> list[Goal]:
        reading = understanding.read(question, history, today)
        return [_goal(i, goal, reading) for i, goal in enumerate(reading.goals, 1)]

    return goals_of


def _goal(goal_id: int, goal: GoalReading, reading: Reading) -> Goal:
    if goal.kind == "definition":
        return Goal(
            id=goal_id,
            text=goal.text,
            deliverables=["answer"],
            params=GoalParams(kind="definition", text=goal.text, terms=goal.terms),
        )
    if goal.kind == "fields":
        return Goal(
            id=goal_id,
            text=goal.text,
            deliverables=["explanation"],
            params=GoalParams(kind="fields", text=goal.text, terms=goal.terms),
        )
    assert goal.meaning is not None
    params = GoalParams(
        text=goal.text,
        meaning=goal.meaning,
        continuation=reading.continuation,
        preface=reading.note,
    )
    return Goal(
        id=goal_id, text=goal.text, params=params, deliverables=deliverables_of(goal.meaning)
    )
