"""F01 with the rules backend: the turn, read against the thread's last turns, restated as goals."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from typing import Any

from bosun.catalog import Catalog
from bosun.conversation.continuation import Continuation, Continued
from bosun.planner.state import TurnSummary
from bosun.understanding.goals import split_turn
from bosun.understanding.meaning import Meaning
from bosun.understanding.rules import RulesUnderstanding
from bosun.workers.context import GoalsOf
from bosun.workers.models import Goal

_IT = re.compile(r"\bit\b", re.I)


def deliverables_of(meaning: Meaning) -> list[str]:
    """What a data goal must deliver, by what it asks."""
    if meaning.lookup is not None:  # one business object: GraphQL, not the search engine
        return ["object_details"]
    if meaning.intent_type == "search" and meaning.page > 1:
        return ["page_results"]
    analysed = meaning.intent_type == "aggregation" and (meaning.compare or meaning.interval or meaning.top_n)
    return ["formatted_results", "analysis"] if analysed else ["formatted_results"]


def goals_for(catalog: Catalog, understanding: RulesUnderstanding, today: date) -> GoalsOf:
    continuation = Continuation(understanding)

    def named(text: str) -> str | None:
        entities = understanding.analyze(text, today).entities
        return entities[0].term if len(entities) == 1 else None

    def data_goal(goal_id: int, text: str, continued: Continued, meaning: Meaning | None = None) -> Goal:
        params: dict[str, Any] = {"text": text, "kind": "data", "continuation": continued.kind}
        if meaning is not None:
            params["meaning"] = meaning.model_dump(mode="json")
        if continued.note:
            params["preface"] = continued.note
        return Goal(id=goal_id, text=text, params=params,
                    deliverables=deliverables_of(meaning or understanding.analyze(text, today)))

    def goals_of(question: str, history: list[Any]) -> list[Goal]:
        summaries = [TurnSummary.model_validate(h) for h in history]
        continued = continuation.read(question, summaries, today)
        if continued.meaning is not None:
            return [data_goal(1, continued.question, continued, continued.meaning)]
        goals: list[Goal] = []
        for i, part in enumerate(split_turn(continued.question, catalog), 1):
            before = next((g.text for g in reversed(goals) if g.params.get("kind") == "data"), None)
            if part.kind == "data" and before and _IT.search(part.text) and (name := named(before)):
                part = replace(part, text=_IT.sub(name, part.text))  # "… and how many did it carry": the one named
            if part.kind == "helpdesk":
                goals.append(Goal(id=i, text=part.text, deliverables=["answer"],
                                  params={"terms": list(part.terms), "asked": part.text}))
            elif part.kind == "explain":
                goals.append(Goal(id=i, text=part.text, deliverables=["explanation"],
                                  params={"fields": list(part.terms), "text": part.text}))
            else:
                goals.append(data_goal(i, part.text, continued))
        return goals or [data_goal(1, question, continued)]

    return goals_of
