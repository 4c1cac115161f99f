"""A session: the configured engine, catalog, understanding, workers and durable graph, ready for turns."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from datetime import date
from typing import Any

from filelock import FileLock, Timeout

import bosun.workers.data  # registers the data workers
import bosun.workers.objects  # noqa: F401 - registers graphql_lookup
from bosun.catalog import Catalog, load_catalog
from bosun.conversation.goals import goals_for
from bosun.conversation.store import TurnStore, open_turn_store
from bosun.datagen.load import read_sample_info
from bosun.engines.factory import open_engine, open_object_source
from bosun.engines.guardrails import GuardedEngine, Guardrails
from bosun.errors import StoreError, StoreUnwritable
from bosun.planner.events import TurnEvent
from bosun.planner.graph import build_graph
from bosun.planner.run import (
    forget_finished,
    memory_checkpointer,
    open_checkpointer,
    open_postgres_checkpointer,
    stream_turn,
    unfinished_question,
)
from bosun.planner.state import TurnSummary
from bosun.planner.storage import problem
from bosun.planner.synthesis import Answer, Trace
from bosun.settings import Settings, scrub
from bosun.understanding.meaning import Meaning
from bosun.understanding.rules import RulesUnderstanding
from bosun.understanding.vectors import name_vectors, open_embedder
from bosun.workers.context import Context
from bosun.workers.models import Goal

MAX_QUESTION = 4_000  # characters; a question is a sentence or a few, not a document


def prepared(question: str) -> str:
    """The question as valid UTF-8: bytes that were not (command-line arguments arrive as lone surrogates)
    become U+FFFD, so the turn can be stored."""
    return question.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _too_long(question: str, thread_id: str) -> Answer:
    """The answer to a question past MAX_QUESTION: said, not run and not stored (it would only fill the disk)."""
    said = f"The question is {len(question):,} characters long; please ask in at most {MAX_QUESTION:,}."
    return Answer(question=question[:200] + "…", thread_id=thread_id, status="failed", answer=said,
                  trace=Trace(rounds=0, sub_goals=[]))


@dataclass
class Session:
    """Turns on threads: each turn reads the thread's last turns and is stored when it ends.

    Turns on one thread run one at a time, across processes (a lock file per thread under the data
    directory); a turn a killed process left unfinished is run again first, and said so.
    """

    context: Context
    graph: Any
    store: TurnStore
    unsaved: str | None = None  # why nothing is saved (the data directory cannot be written), or None

    def stream(self, question: str, thread_id: str) -> Iterator[TurnEvent | Answer]:
        question = prepared(question)
        if len(question) > MAX_QUESTION:
            yield _too_long(question, thread_id)
            return
        with self._thread_lock(thread_id):
            yield from self._resumed(thread_id)
            try:
                yield from self._turn(question, thread_id)
            except StoreUnwritable as exc:  # the disk filled up or turned read-only during the turn
                self._go_unsaved(str(exc))
                yield from self._turn(question, thread_id)

    def _turn(self, question: str, thread_id: str) -> Iterator[TurnEvent | Answer]:
        final: dict[str, Any] = {}
        history = self.history(thread_id)
        try:
            for item in stream_turn(self.graph, question, thread_id, self.context, history, final):
                yield self._kept(thread_id, question, item, final) if isinstance(item, Answer) else item
        except sqlite3.Error as exc:
            raise problem(self.context.settings.checkpoint_path, "checkpoint store", exc) from None

    def _resumed(self, thread_id: str) -> Iterator[TurnEvent | Answer]:
        """Run again, and store, the turn a killed process left unfinished on this thread, and say so.

        The turn starts over from its question rather than from its last checkpoint: a pending worker's
        inputs do not survive serialisation with their types, and every worker is a read-only query, so
        running it again is safe and gives the answer the turn would have given.
        """
        pending = unfinished_question(self.graph, thread_id)
        if pending is None:
            return
        yield TurnEvent(kind="resumed", message=f"running the interrupted turn “{pending}” again first")
        self.graph.checkpointer.delete_thread(thread_id)
        kept = None
        for item in self._turn(pending, thread_id):
            kept = item if isinstance(item, Answer) else kept
        status = kept.status if kept else "failed"
        yield TurnEvent(kind="resumed", status=status, message=f"the interrupted turn “{pending}” was answered "
                        f"and stored: {kept.answer if kept else 'no answer'}")

    def _kept(self, thread_id: str, question: str, answer: Answer, final: dict[str, Any]) -> Answer:
        """The answer stored as the thread's next turn (secrets masked), or saying why it was not saved."""
        answer = Answer.model_validate_json(scrub(answer.model_dump_json(), self.context.settings.secrets()))
        reason = self.unsaved
        if reason is None:
            try:
                self.store.append(thread_id, self._summary(question, answer, final))
                forget_finished(self.graph, thread_id)
            except StoreUnwritable as exc:
                reason = str(exc)
        if reason is None:
            return answer
        return answer.model_copy(update={"answer": f"{answer.answer}\n\n(Not saved: {reason}.)"})

    def _go_unsaved(self, reason: str) -> None:
        self.unsaved = reason
        self.graph = build_graph(memory_checkpointer(self.context.settings.secrets()))

    def _thread_lock(self, thread_id: str) -> AbstractContextManager[Any]:
        """A lock file for the thread, held for the whole turn; none when the data directory is unwritable."""
        settings = self.context.settings
        folder = settings.data_dir / "locks"
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            return nullcontext()
        name = hashlib.sha256(thread_id.encode("utf-8", "replace")).hexdigest()[:24]
        return _ThreadLock(FileLock(str(folder / f"{name}.lock"), timeout=settings.turn_deadline_s), thread_id)

    def ask(self, question: str, thread_id: str) -> Answer:
        *_, answer = self.stream(question, thread_id)
        assert isinstance(answer, Answer)
        return answer

    def history(self, thread_id: str) -> list[TurnSummary]:
        return self.store.recent(thread_id, self.context.settings.memory_turns)

    def _summary(self, question: str, answer: Answer, values: dict[str, Any]) -> TurnSummary:
        """The turn as memory keeps it: its main data goal's meaning, what it asked back, its top rows.

        `values` is the turn's own final state, never the thread's latest checkpoint (another turn's).
        """
        goals = [g for g in values.get("goals", []) if g.params.get("kind") == "data"]
        meaning = _meaning_of(goals[0], values, self.context) if goals else None
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


class _ThreadLock(AbstractContextManager[Any]):
    """Hold a FileLock; waiting past the turn deadline is a StoreError naming the thread."""

    def __init__(self, lock: FileLock, thread_id: str) -> None:
        self.lock, self.thread_id = lock, thread_id

    def __enter__(self) -> _ThreadLock:
        try:
            self.lock.acquire()
        except Timeout:
            raise StoreError(f"another turn on thread {self.thread_id!r} has run for more than "
                             f"{self.lock.timeout:g} s; ask again when it has finished") from None
        except OSError:  # a lock file that cannot be created: nothing will be saved either
            pass
        return self

    def __exit__(self, *exc: object) -> None:
        if self.lock.is_locked:
            self.lock.release()


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
    checkpointer, unsaved = _checkpointer(settings)
    store = open_turn_store(settings)
    unsaved = unsaved or store.unwritable
    guarded = open_guarded_engine(settings, catalog)
    today = as_of or _recorded_today(guarded.inner) or date.today()
    understanding = RulesUnderstanding(catalog)
    vectors = name_vectors(understanding.index, open_embedder(settings.embedder), settings.qdrant_url)
    understanding.vectors = vectors
    context = Context(settings=settings, goals_of=goals_for(catalog, understanding, today), today=lambda: today,
                      engine=guarded, catalog=catalog, understanding=understanding, vectors=vectors,
                      objects=open_object_source(settings, catalog.graph_objects(), guarded))
    return Session(context, build_graph(checkpointer), store, unsaved)


def _checkpointer(settings: Settings) -> tuple[Any, str | None]:
    """The configured checkpointer; in memory, with the reason, when the data directory cannot be written."""
    if settings.checkpoint_url:
        return open_postgres_checkpointer(settings.checkpoint_url), None
    try:
        return open_checkpointer(settings.checkpoint_path, settings.secrets()), None
    except StoreUnwritable as exc:
        return memory_checkpointer(settings.secrets()), str(exc)


def open_guarded_engine(settings: Settings, catalog: Catalog) -> GuardedEngine:
    """The configured engine behind the read-only guardrails, limited to the catalog's indices."""
    rails = Guardrails(tuple(catalog.allowed_indices()), settings.max_result_size, settings.max_buckets,
                       settings.query_timeout_s)
    return GuardedEngine(open_engine(settings), rails)


def _recorded_today(engine: Any) -> date | None:
    info = read_sample_info(engine)
    return info.as_of if info else None
