"""F01: the turn, read by the understanding backend against the thread's last turns, restated as goals."""

from __future__ import annotations

from datetime import date
from typing import Any

from bosun.planner.state import TurnSummary
from bosun.understanding import Understanding
from bosun.understanding.meaning import Meaning
from bosun.understanding.reading import GoalReading, PastTurn, Reading
from bosun.workers.context import GoalsOf
from bosun.workers.models import Goal


def deliverables_of(meaning: Meaning) -> list[str]:
    """What a data goal must deliver, by what it asks."""
    if meaning.lookup is not None:  # one business object: GraphQL, not the search engine
        return ["object_details"]
    if meaning.intent_type == "search" and meaning.page > 1:
        return ["page_results"]
    analysed = meaning.intent_type == "aggregation" and (meaning.compare or meaning.interval or meaning.top_n)
    return ["formatted_results", "analysis"] if analysed else ["formatted_results"]


def past_turn(summary: TurnSummary) -> PastTurn:
    meaning = Meaning.model_validate(summary.meaning) if summary.meaning else None
    return PastTurn(question=summary.human_message, status=summary.status, meaning=meaning,
                    clarification=summary.clarification, first_column=summary.first_column,
                    leaders=summary.leaders)


def goals_for(understanding: Understanding, today: date) -> GoalsOf:
    def goals_of(question: str, history: list[Any]) -> list[Goal]:
        past = [past_turn(TurnSummary.model_validate(h)) for h in history]
        reading = understanding.read(question, past, today)
        return [_goal(i, goal, reading) for i, goal in enumerate(reading.goals, 1)]

    return goals_of


def _goal(goal_id: int, goal: GoalReading, reading: Reading) -> Goal:
    if goal.kind == "definition":
        return Goal(id=goal_id, text=goal.text, deliverables=["answer"],
                    params={"terms": goal.terms, "asked": goal.text})
    if goal.kind == "fields":
        return Goal(id=goal_id, text=goal.text, deliverables=["explanation"],
                    params={"fields": goal.terms, "text": goal.text})
    assert goal.meaning is not None
    params: dict[str, Any] = {"text": goal.text, "kind": "data", "continuation": reading.continuation,
                              "meaning": goal.meaning.model_dump(mode="json")}
    if reading.note:
        params["preface"] = reading.note
    return Goal(id=goal_id, text=goal.text, params=params, deliverables=deliverables_of(goal.meaning))
