"""A session: the configured engine, catalog, understanding, workers and durable graph, ready for turns."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

import bosun.workers.data
import bosun.workers.objects  # noqa: F401 - registers graphql_lookup
from bosun.catalog import Catalog, load_catalog
from bosun.datagen.load import read_sample_info
from bosun.engines.factory import open_engine, open_object_source
from bosun.engines.guardrails import GuardedEngine, Guardrails
from bosun.planner.events import TurnEvent
from bosun.planner.graph import build_graph
from bosun.planner.run import open_checkpointer, stream_turn
from bosun.planner.synthesis import Answer
from bosun.settings import Settings
from bosun.understanding.goals import split_turn
from bosun.understanding.rules import RulesUnderstanding
from bosun.workers.context import Context
from bosun.workers.models import Goal

_IT = re.compile(r"\bit\b", re.I)


def goals_for(catalog: Catalog, understanding: RulesUnderstanding, today: date) -> Any:
    """F01's restatement with the rules backend: one goal per intention of the turn."""
    def deliverables(text: str) -> list[str]:
        meaning = understanding.analyze(text, today)
        if meaning.lookup is not None:  # one business object: GraphQL, not the search engine
            return ["object_details"]
        if meaning.intent_type == "search" and meaning.page > 1:
            return ["page_results"]
        analysed = meaning.intent_type == "aggregation" and (meaning.compare or meaning.interval or meaning.top_n)
        return ["formatted_results", "analysis"] if analysed else ["formatted_results"]

    def named(text: str) -> str | None:
        entities = understanding.analyze(text, today).entities
        return entities[0].term if len(entities) == 1 else None

    def goals_of(question: str, history: list[Any]) -> list[Goal]:
        goals: list[Goal] = []
        for i, part in enumerate(split_turn(question, catalog), 1):
            before = next((g.text for g in reversed(goals) if "text" in g.params), None)
            if part.kind == "data" and before and _IT.search(part.text) and (name := named(before)):
                part = replace(part, text=_IT.sub(name, part.text))  # "… and how many did it carry": the one named
            if part.kind == "helpdesk":
                goals.append(Goal(id=i, text=part.text, deliverables=["answer"],
                                  params={"terms": list(part.terms), "asked": part.text}))
            elif part.kind == "explain":
                goals.append(Goal(id=i, text=part.text, deliverables=["explanation"],
                                  params={"fields": list(part.terms), "text": part.text}))
            else:
                goals.append(Goal(id=i, text=part.text, deliverables=deliverables(part.text),
                                  params={"text": part.text}))
        return goals or [Goal(id=1, text=question, deliverables=["formatted_results"], params={"text": question})]

    return goals_of


@dataclass
class Session:
    context: Context
    graph: Any

    def stream(self, question: str, thread_id: str) -> Iterator[TurnEvent | Answer]:
        return stream_turn(self.graph, question, thread_id, self.context)

    def ask(self, question: str, thread_id: str) -> Answer:
        *_, answer = self.stream(question, thread_id)
        assert isinstance(answer, Answer)
        return answer

    def close(self) -> None:
        self.context.engine.close()


def open_session(settings: Settings, as_of: date | None = None) -> Session:
    catalog = load_catalog(settings.catalog)
    guarded = open_guarded_engine(settings, catalog)
    today = as_of or _recorded_today(guarded.inner) or date.today()
    understanding = RulesUnderstanding(catalog)
    context = Context(settings=settings, goals_of=goals_for(catalog, understanding, today), today=lambda: today,
                      engine=guarded, catalog=catalog, understanding=understanding,
                      objects=open_object_source(settings, catalog.graph_objects(), guarded))
    return Session(context, build_graph(open_checkpointer(settings.checkpoint_path)))


def open_guarded_engine(settings: Settings, catalog: Catalog) -> GuardedEngine:
    """The configured engine behind the read-only guardrails, limited to the catalog's indices."""
    rails = Guardrails(tuple(catalog.allowed_indices()), settings.max_result_size, settings.max_buckets,
                       settings.query_timeout_s)
    return GuardedEngine(open_engine(settings), rails)


def _recorded_today(engine: Any) -> date | None:
    info = read_sample_info(engine)
    return info.as_of if info else None
