"""A session: the configured engine, catalog, understanding, workers and durable graph, ready for turns."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

import bosun.workers.data  # registers the data workers
import bosun.workers.objects  # noqa: F401 - registers graphql_lookup
from bosun.catalog import Catalog, load_catalog
from bosun.conversation.charts import with_charts
from bosun.conversation.goals import goals_for
from bosun.conversation.llm import with_model
from bosun.conversation.store import TurnStore, open_turn_store
from bosun.datagen.load import read_sample_info
from bosun.engines.factory import open_engine, open_object_source
from bosun.engines.guardrails import GuardedEngine, Guardrails
from bosun.planner.events import TurnEvent
from bosun.planner.graph import build_graph
from bosun.planner.run import open_checkpointer, open_postgres_checkpointer, stream_turn
from bosun.planner.state import TurnSummary
from bosun.planner.synthesis import Answer
from bosun.settings import Settings
from bosun.understanding.backends import open_understanding
from bosun.understanding.llm import LLMUnderstanding
from bosun.understanding.meaning import Meaning
from bosun.workers.context import Context
from bosun.workers.models import Goal


@dataclass
class Session:
    """Turns on threads: each turn reads the thread's last turns and is stored when it ends."""

    context: Context
    graph: Any
    store: TurnStore
    _locks: dict[str, threading.Lock] = field(default_factory=dict)
    _locks_guard: threading.Lock = field(default_factory=threading.Lock)

    def stream(self, question: str, thread_id: str, as_of: date | None = None) -> Iterator[TurnEvent | Answer]:
        """The turn's events, then its answer; turns of one thread run one at a time, in arrival order."""
        context = self._context_on(as_of)
        with self._lock(thread_id):
            self.store.open_thread(thread_id)
            for item in stream_turn(self.graph, question, thread_id, context, self.history(thread_id)):
                if isinstance(item, Answer):
                    item = with_charts(item)
                    numbered = self.store.append(thread_id, self._summary(question, item, thread_id, context))
                    self.store.record_answer(thread_id, numbered.turn_id, item.model_dump(mode="json"))
                yield item

    def forget(self, thread_id: str) -> None:
        """Delete a thread: its turns, its answers and its checkpoints."""
        with self._lock(thread_id):
            self.store.drop_thread(thread_id)
            self.graph.checkpointer.delete_thread(thread_id)

    def _context_on(self, as_of: date | None) -> Context:
        """The session's context, or one whose today is `as_of` (a turn asked about another day)."""
        if as_of is None:
            return self.context
        goals_of = goals_for(self.context.understanding, as_of)
        return replace(self.context, today=lambda: as_of, goals_of=goals_of)

    def _lock(self, thread_id: str) -> threading.Lock:
        with self._locks_guard:
            return self._locks.setdefault(thread_id, threading.Lock())

    def ask(self, question: str, thread_id: str) -> Answer:
        *_, answer = self.stream(question, thread_id)
        assert isinstance(answer, Answer)
        return answer

    def history(self, thread_id: str) -> list[TurnSummary]:
        return self.store.recent(thread_id, self.context.settings.memory_turns)

    def _summary(self, question: str, answer: Answer, thread_id: str, context: Context) -> TurnSummary:
        """The turn as memory keeps it: its main data goal's meaning, what it asked back, its top rows."""
        values = self.graph.get_state({"configurable": {"thread_id": thread_id}}).values
        goals = [g for g in values.get("goals", []) if g.params.get("kind") == "data"]
        meaning = _meaning_of(goals[0], values, context) if goals else None
        clarification = None
        if answer.clarification is not None and meaning is not None:
            term = next((a.term for a in meaning.ambiguities if a.kind == "entity"), "")
            asked = 2 if goals[0].params.get("continuation") == "reask" else 1
            clarification = {"term": term, "options": answer.clarification.options, "asked": asked}
        first = [row[0] for row in answer.results[0].rows[:10]] if answer.results else []
        return TurnSummary(turn_id=0, human_message=question, ai_response=answer.answer, status=answer.status,
                           meaning=meaning.model_dump(mode="json") if meaning else None,
                           clarification=clarification, first_column=first)

    def close(self) -> None:
        self.context.engine.close()
        self.context.vectors.close()
        self.store.close()


def _meaning_of(goal: Goal, values: dict[str, Any], context: Context) -> Meaning:
    """What the goal was taken to mean: metadata_lookup's reading (after any pick), else the goal's own."""
    outputs = values.get("completed_outputs", {})
    for sub_goal in values.get("sub_goals", []):
        if sub_goal.goal_id == goal.id and "analysis_result" in outputs.get(sub_goal.id, {}):
            found: Meaning = outputs[sub_goal.id]["analysis_result"]
            return found
    if "meaning" in goal.params:
        return Meaning.model_validate(goal.params["meaning"])
    meaning: Meaning = context.understanding.analyze(goal.params["text"], context.today())
    return meaning


def open_session(settings: Settings, as_of: date | None = None) -> Session:
    """Everything a turn needs, from the settings; the conversation store first, as it fails most often."""
    catalog = load_catalog(settings.catalog)
    if settings.checkpoint_url:
        checkpointer = open_postgres_checkpointer(settings.checkpoint_url)
    else:
        checkpointer = open_checkpointer(settings.checkpoint_path)
    store = open_turn_store(settings)
    guarded = open_guarded_engine(settings, catalog)
    today = as_of or _recorded_today(guarded.inner) or date.today()
    understanding = open_understanding(settings, catalog)
    context = Context(settings=settings, goals_of=goals_for(understanding, today), today=lambda: today,
                      engine=guarded, catalog=catalog, understanding=understanding, vectors=understanding.vectors,
                      objects=open_object_source(settings, catalog.graph_objects(), guarded))
    if isinstance(understanding, LLMUnderstanding):
        context = with_model(context, understanding.client)
    return Session(context, build_graph(checkpointer), store)


def open_guarded_engine(settings: Settings, catalog: Catalog) -> GuardedEngine:
    """The configured engine behind the read-only guardrails, limited to the catalog's indices."""
    rails = Guardrails(tuple(catalog.allowed_indices()), settings.max_result_size, settings.max_buckets,
                       settings.query_timeout_s)
    return GuardedEngine(open_engine(settings), rails)


def _recorded_today(engine: Any) -> date | None:
    info = read_sample_info(engine)
    return info.as_of if info else None
