"""A session: the configured engine, catalog, understanding, workers and durable graph, ready for turns."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any

import bosun.workers.data  # noqa: F401 - registers the data workers
from bosun.catalog import Catalog, load_catalog
from bosun.datagen.load import read_sample_info
from bosun.engines.factory import open_engine
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


def goals_for(catalog: Catalog, understanding: RulesUnderstanding, today: date) -> Any:
    """F01's restatement with the rules backend: one goal per intention of the turn."""
    def deliverables(text: str) -> list[str]:
        meaning = understanding.analyze(text, today)
        analysed = meaning.intent_type == "aggregation" and (meaning.compare or meaning.interval or meaning.top_n)
        return ["formatted_results", "analysis"] if analysed else ["formatted_results"]

    def goals_of(question: str, history: list[Any]) -> list[Goal]:
        goals = []
        for i, part in enumerate(split_turn(question, catalog), 1):
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
    engine = open_engine(settings)
    today = as_of or _recorded_today(engine) or date.today()
    rails = Guardrails(tuple(catalog.allowed_indices()), settings.max_result_size, settings.max_buckets,
                       settings.query_timeout_s)
    understanding = RulesUnderstanding(catalog)
    context = Context(settings=settings, goals_of=goals_for(catalog, understanding, today), today=lambda: today,
                      engine=GuardedEngine(engine, rails), catalog=catalog, understanding=understanding)
    return Session(context, build_graph(open_checkpointer(settings.checkpoint_path)))


def _recorded_today(engine: Any) -> date | None:
    info = read_sample_info(engine)
    return info.as_of if info else None
