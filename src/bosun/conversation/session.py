"""A session: the configured engine, catalog, understanding, workers and durable graph, ready for
turns."""

from __future__ import annotations

import hashlib
import logging
import re
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from typing import Any

from filelock import FileLock, Timeout
from langgraph.checkpoint.base import BaseCheckpointSaver

from bosun.answers import day_name, held_keys
from bosun.catalog import Catalog, load_catalog
from bosun.catalog.check import require_sound
from bosun.conversation.goals import goals_for
from bosun.conversation.leaders import cut_short, far_end, leaders_of_all
from bosun.conversation.llm import with_model
from bosun.conversation.marks import MarkStore, attach_examples
from bosun.conversation.store import TurnStore, TurnSummary, open_turn_store
from bosun.conversation.vocabulary import Teacher, VocabularyStore
from bosun.datagen.load import read_sample_info
from bosun.engines.base import Engine
from bosun.engines.caller import caller_secrets
from bosun.engines.factory import open_engine, open_object_source
from bosun.engines.guardrails import GuardedEngine, Guardrails
from bosun.errors import BosunError, StoreError, StoreUnwritable
from bosun.planner.answer import Answer, Trace
from bosun.planner.context import RunContext
from bosun.planner.events import TurnEvent
from bosun.planner.graph import Graph, build_graph
from bosun.planner.run import (
    TurnOutcome,
    forget_finished,
    memory_checkpointer,
    open_checkpointer,
    open_postgres_checkpointer,
    stream_turn,
)
from bosun.planner.state import MainState
from bosun.planner.synthesis import main_meaning
from bosun.query import Role, whole_period
from bosun.settings import Settings, scrub
from bosun.storage import problem
from bosun.understanding import AskedBack, Meaning
from bosun.understanding.backends import open_understanding
from bosun.understanding.llm import LLMUnderstanding
from bosun.understanding.reading import MAX_KEYS, AnswerRows
from bosun.workers.models import ResultTable

log = logging.getLogger("bosun.conversation")


# lone surrogates other than the U+DC80..U+DCFF that stand for bytes that were not UTF-8 (JSON's
# "\ud800")
_LONE_SURROGATE = re.compile("[\ud800-\udc7f\udd00-\udfff]")


def prepared(question: str) -> str:
    """The question as valid UTF-8: bytes that were not (command-line arguments arrive as lone
    surrogates) and lone surrogates (JSON may carry them) become U+FFFD, so the turn can be read and
    stored."""
    text = _LONE_SURROGATE.sub("\ufffd", question)
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _too_long(question: str, thread_id: str, limit: int) -> Answer:
    """The answer to a question past the length cap: said, not run and not stored (it would only
    fill the disk)."""
    said = f"The question is {len(question):,} characters long; please ask in at most {limit:,}."
    return Answer(
        question=question[:200] + "…",
        thread_id=thread_id,
        status="failed",
        answer=said,
        trace=Trace(rounds=0, sub_goals=[]),
    )


@dataclass
class Session:
    """Turns on threads: each turn reads the thread's last turns and is stored when it ends."""

    context: RunContext
    graph: Graph
    store: TurnStore
    # why nothing is saved (the data directory cannot be written), or None
    unsaved: str | None = None
    teacher: Teacher | None = None  # the taught words of the deployment (issue #25)
    _locks: dict[str, threading.Lock] = field(default_factory=dict)
    _locks_guard: threading.Lock = field(default_factory=threading.Lock)

    def stream(
        self, question: str, thread_id: str, as_of: date | None = None, progress: bool = True
    ) -> Iterator[TurnEvent | Answer]:
        """The turn's events, then its answer; turns of one thread run one at a time, in arrival
        order, within a process (a lock) and across processes (a lock file).

        Without `progress`, only the session's own events (a resumed turn) come before the answer:
        the graph's steps then run without streaming live events, which costs a thread hand-off per
        step.
        """
        question = prepared(question)
        limit = self.context.settings.max_question_chars
        if len(question) > limit:
            yield _too_long(question, thread_id, limit)
            return
        context = self._context_on(as_of)
        with self._lock(thread_id), self._thread_lock(thread_id):
            yield from self._resumed(thread_id, context)
            try:
                yield from self._turn(question, thread_id, context, progress)
            except StoreUnwritable as exc:  # the disk filled up or turned read-only during the turn
                self._go_unsaved(str(exc))
                yield from self._turn(question, thread_id, context, progress)

    def _turn(
        self, question: str, thread_id: str, context: RunContext, progress: bool = False
    ) -> Iterator[TurnEvent | Answer]:
        history = [turn.past() for turn in self.history(thread_id)]
        if self.teacher is not None:
            context = replace(context, taught=self.teacher.for_turn(history))
        if self.unsaved is None:
            self.store.begin(thread_id, question)
        try:
            # Checkpoints at the turn's end only (a pause, in interrupt mode): a killed turn is
            # found by the store's record of its start and run again from its question, so no step
            # in between is read back.
            turn = stream_turn(
                self.graph,
                question,
                thread_id,
                context,
                history,
                durability="exit",
                progress=progress,
            )
            for item in turn:
                if isinstance(item, TurnOutcome):
                    yield self._kept(thread_id, question, item, context)
                else:
                    yield item
        except sqlite3.Error as exc:
            raise problem(self.context.settings.checkpoint_path, "checkpoint store", exc) from None
        except StoreError:
            # the store itself failed: the turn cannot be recorded (`stream` answers unsaved when
            # unwritable)
            raise
        # any other failure ends the turn as failed, so that the thread goes on
        except Exception as exc:
            yield self._failed(thread_id, question, exc, context)

    def _failed(self, thread_id: str, question: str, exc: Exception, context: RunContext) -> Answer:
        """The answer of a turn that raised, stored as the thread's next turn with status failed.

        Stored, and not left running, because running it again would raise again: only a turn whose
        process died is run again (`_resumed`). An error that is not Bosun's own is a bug: logged
        with its traceback.
        """
        if isinstance(exc, BosunError):
            reason = str(exc)
        else:
            log.error("a turn on thread %r raised", thread_id, exc_info=exc)
            reason = f"an unexpected {type(exc).__name__} ({exc}) stopped it"
        answer = Answer(
            question=question,
            thread_id=thread_id,
            status="failed",
            answer=f"I could not complete “{question}”: {reason}",
            trace=Trace(rounds=0, sub_goals=[]),
        )
        self._saver.delete_thread(thread_id)  # whatever the failed run checkpointed
        outcome = TurnOutcome(answer, MainState(question=question))
        return self._kept(thread_id, question, outcome, context)

    def _resumed(self, thread_id: str, context: RunContext) -> Iterator[TurnEvent | Answer]:
        """Run again, and store, the turn a killed process left unfinished on this thread, and say
        so.

        The turn starts over from its question: turns are checkpointed only at their end (or pause),
        so a killed one left no checkpoint to resume from, and every worker is a read-only query, so
        running it again is safe and gives the answer the turn would have given.
        """
        pending = self.store.running(thread_id) if self.unsaved is None else None
        if pending is None:
            return
        yield TurnEvent(
            kind="resumed", message=f"running the interrupted turn “{pending}” again first"
        )
        self._saver.delete_thread(thread_id)
        kept = None
        for item in self._turn(pending, thread_id, context):
            kept = item if isinstance(item, Answer) else kept
        status = kept.status if kept else "failed"
        yield TurnEvent(
            kind="resumed",
            status=status,
            message=f"the interrupted turn “{pending}” was answered "
            f"and stored: {kept.answer if kept else 'no answer'}",
        )

    def _kept(
        self, thread_id: str, question: str, outcome: TurnOutcome, context: RunContext
    ) -> Answer:
        """The answer stored as the thread's next turn (secrets masked), or saying why it was not
        saved.

        The outcome's state is the turn's own final state, never the thread's latest checkpoint
        (another turn's)."""
        text = scrub(
            outcome.answer.model_dump_json(),
            [*self.context.settings.secrets(), *caller_secrets()],
        )
        answer = Answer.model_validate_json(text)
        reason = self.unsaved
        if reason is None:
            try:
                summary = _summary(question, answer, outcome.state, context)
                self.store.finish(thread_id, summary, text)
                forget_finished(self.graph, thread_id, outcome)
            except StoreUnwritable as exc:
                reason = str(exc)
        if reason is None:
            return answer
        return answer.model_copy(update={"answer": f"{answer.answer}\n\n(Not saved: {reason}.)"})

    def _go_unsaved(self, reason: str) -> None:
        self.unsaved = reason
        self.graph = build_graph(memory_checkpointer(self.context.settings.secrets()))

    def _thread_lock(self, thread_id: str) -> AbstractContextManager[Any]:
        """A lock file for the thread, held for the whole turn; none when the data directory is
        unwritable."""
        settings = self.context.settings
        folder = settings.data_dir / "locks"
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            return nullcontext()
        name = hashlib.sha256(thread_id.encode("utf-8", "replace")).hexdigest()[:24]
        return _ThreadLock(
            FileLock(str(folder / f"{name}.lock"), timeout=settings.turn_deadline_s), thread_id
        )

    def forget(self, thread_id: str) -> None:
        """Delete a thread: its turns, its answers, their marks and its checkpoints."""
        with self._lock(thread_id):
            self.store.drop_thread(thread_id)
            # a later thread of the same name starts unmarked
            MarkStore(self.store).drop_thread(thread_id)
            self._saver.delete_thread(thread_id)

    def refreshed(self) -> RunContext:
        """The session's context with the taught words as the store holds them now, taught by any
        process."""
        if self.teacher is not None:
            self.context = self.teacher.current(self.context)
        return self.context

    def _context_on(self, as_of: date | None) -> RunContext:
        """The session's current context, or one whose today is `as_of` (a turn asked about another
        day)."""
        context = self.refreshed()
        if as_of is None:
            return context
        goals_of = goals_for(context.understanding, as_of)
        return replace(context, today=lambda: as_of, goals_of=goals_of, today_note=None)

    def _lock(self, thread_id: str) -> threading.Lock:
        with self._locks_guard:
            return self._locks.setdefault(thread_id, threading.Lock())

    def ask(self, question: str, thread_id: str) -> Answer:
        *_, answer = self.stream(question, thread_id, progress=False)
        assert isinstance(answer, Answer)
        return answer

    def history(self, thread_id: str) -> list[TurnSummary]:
        return self.store.recent(thread_id, self.context.settings.memory_turns)

    def close(self) -> None:
        """Close the engine, the vectors and both stores: a closed SQLite file has its log merged
        back."""
        self.context.engine.close()
        if self.context.vectors is not None:
            self.context.vectors.close()
        self.store.close()
        # LangGraph's SQLite and Postgres savers each hold one connection
        connection = getattr(self._saver, "conn", None)
        if connection is not None:
            connection.close()

    @property
    def _saver(self) -> BaseCheckpointSaver[Any]:
        """The graph's checkpointer: a session's graph always has one."""
        saver = self.graph.checkpointer
        assert isinstance(saver, BaseCheckpointSaver)
        return saver


class _ThreadLock(AbstractContextManager[Any]):
    """Hold a FileLock; waiting past the turn deadline is a StoreError naming the thread."""

    def __init__(self, lock: FileLock, thread_id: str) -> None:
        self.lock, self.thread_id = lock, thread_id

    def __enter__(self) -> _ThreadLock:
        try:
            self.lock.acquire()
        except Timeout:
            raise StoreError(
                f"another turn on thread {self.thread_id!r} has run for more than "
                f"{self.lock.timeout:g} s; ask again when it has finished"
            ) from None
        except OSError:  # a lock file that cannot be created: nothing will be saved either
            pass
        return self

    def __exit__(self, *exc: object) -> None:
        if self.lock.is_locked:
            self.lock.release()


def _leaders(answer: Answer, meaning: Meaning | None) -> list[Any]:
    """The groups (or periods) highest and lowest on the answer's first figure, the earlier one in a
    tie."""
    if (
        not answer.results
        or meaning is None
        or bool(meaning.group_by) + bool(meaning.interval) != 1
    ):
        return []
    # a column is a period only by its role: an average per month's row has no period
    label: Role = "period" if meaning.interval else "key"
    figures = _labelled_figures(answer.results[0], label)
    if meaning.interval:  # "the quietest one" is not a month cut short by the dates asked
        figures = [f for f in figures if whole_period(f[0], meaning, (None, None))]
    if not figures:
        return []
    return [max(figures, key=lambda f: f[1])[0], min(figures, key=lambda f: f[1])[0]]


def _labelled_figures(table: ResultTable, label: Role) -> list[tuple[Any, int | float]]:
    """(the row's first cell of role `label`, its first figure) of each row that has both and
    whose figure is a number."""
    found = []
    for row in table.rows:
        labels = table.cells(row, label)
        figures = table.cells(row, "figure")
        if labels and figures and isinstance(figures[0], int | float):
            found.append((labels[0], figures[0]))
    return found


def _summary(question: str, answer: Answer, state: MainState, context: RunContext) -> TurnSummary:
    """The turn as memory keeps it: its main data goal's meaning, what it asked back, its top
    rows."""
    goals = [g for g in state.goals if g.params.kind == "data"]
    meaning = main_meaning(state, context)
    clarification = None
    if answer.clarification is not None and meaning is not None:
        term = next((a.term for a in meaning.ambiguities if a.kind == "entity"), "")
        asked = 2 if goals[0].params.continuation == "reask" else 1
        clarification = AskedBack(term=term, options=answer.clarification.options, asked=asked)
    first = [row[0] for row in answer.results[0].rows[:10]] if answer.results else []
    held = _held(meaning, context.catalog)
    far = far_end(meaning, context)  # the group a ranking's cut left out, if any
    far = held.get(far, far)
    return TurnSummary(
        turn_id=0,
        human_message=question,
        ai_response=answer.answer,
        status=answer.status,
        meaning=meaning,
        clarification=clarification,
        first_column=[held.get(key, key) for key in first],
        leaders=leaders_of_all(
            [held.get(key, key) for key in _leaders(answer, meaning)], far, meaning
        ),
        rows=cut_short(_rows(answer, meaning, held), far),
        alternatives=_alternatives(answer),
        alternative_rows=_alternative_rows(answer, context.catalog),
    )


def _alternatives(answer: Answer) -> list[str]:
    """The titles of the answer's tables of groups when it has two or more ("top 3 carriers and top
    3 shippers", "the top 5 to Los Angeles and to Long Beach"): what a pointing word of the next
    turn could mean."""
    titles = [table.title for table in answer.results if "key" in table.roles]
    distinct = list(dict.fromkeys(titles))
    return distinct if len(distinct) > 1 else []


def _alternative_rows(answer: Answer, catalog: Catalog) -> list[AnswerRows]:
    """The rows of each table `_alternatives` names, in its order: what the list picked in reply
    to "which list did you mean?" points at."""
    tables: dict[str, ResultTable] = {}
    for table in answer.results:
        if "key" in table.roles:
            tables.setdefault(table.title, table)
    return [_listed_rows(tables[title], catalog) for title in _alternatives(answer)]


def _listed_rows(table: ResultTable, catalog: Catalog) -> AnswerRows:
    """A table of groups' rows, keyed by the field of its key column as the data holds it."""
    field = table.columns[table.roles.index("key")]
    held = dict(held_keys(catalog, field))
    keyed = [
        (cells[0], _first_figure(table, row))
        for row in table.rows
        if (cells := table.cells(row, "key"))
    ]
    kept = keyed[:MAX_KEYS]
    return AnswerRows(
        field=field,
        keys=[held.get(key, key) for key, _ in kept],
        figures=[value for _, value in kept],
        total=len(keyed),
    )


def _rows(answer: Answer, meaning: Meaning | None, held: dict[Any, Any]) -> AnswerRows | None:
    """The groups (or periods) of the answer's first table, each row's key as the data holds it and
    its first figure (None in a list of values): what the next turn can point at. None for records
    and single figures."""
    if not answer.results or meaning is None or not (meaning.group_by or meaning.interval):
        return None
    table = answer.results[0]
    label: Role = "key" if meaning.group_by else "period"
    keyed = [
        (cells[0], _first_figure(table, row))
        for row in table.rows
        if (cells := table.cells(row, label))
    ]
    if not keyed:
        return None
    kept = keyed[:MAX_KEYS]
    figure = table.roles.index("figure") if "figure" in table.roles else None
    return AnswerRows(
        field=meaning.group_by[0] if meaning.group_by else None,
        keys=[held.get(key, key) for key, _ in kept],
        figures=[value for _, value in kept],
        figure="" if figure is None else table.labels[figure],
        total=len(keyed),
    )


def _first_figure(table: ResultTable, row: list[Any]) -> Any:
    figures = table.cells(row, "figure")
    return figures[0] if figures else None


def _held(meaning: Meaning | None, catalog: Catalog) -> dict[Any, Any]:
    """The rows' keys said by name (genre Rock) → as the data holds them (1), for the grouping."""
    if meaning is None or not meaning.group_by:
        return {}
    return dict(held_keys(catalog, meaning.group_by[0]))


def open_session(settings: Settings, as_of: date | None = None) -> Session:
    """Everything a turn needs, from the settings; the conversation store first, as it fails most
    often."""
    catalog = load_catalog(settings.catalog)
    checkpointer, unsaved = _checkpointer(settings)
    store = open_turn_store(settings)
    unsaved = unsaved or store.unwritable
    guarded = open_guarded_engine(settings, catalog)
    catalog = catalog.with_engine(guarded.inner)
    require_sound(catalog)
    today, today_note = todays_date(catalog, guarded.inner, as_of)
    understanding = open_understanding(settings, catalog)
    context = RunContext(
        settings=settings,
        goals_of=goals_for(understanding, today),
        today=lambda: today,
        engine=guarded,
        catalog=catalog,
        understanding=understanding,
        vectors=understanding.vectors,
        audit=understanding.audit,
        objects=open_object_source(settings, catalog.graph_objects(), guarded),
        today_note=today_note,
    )
    if isinstance(understanding, LLMUnderstanding):
        context = with_model(context, understanding.client)
        attach_examples(understanding, store)
    teacher = Teacher(VocabularyStore(store), catalog, understanding)
    return Session(context, build_graph(checkpointer), store, unsaved, teacher)


def _checkpointer(settings: Settings) -> tuple[Any, str | None]:
    """The configured checkpointer; in memory, with the reason, when the data directory cannot be
    written."""
    if settings.checkpoint_url:
        return open_postgres_checkpointer(settings.checkpoint_url), None
    try:
        return open_checkpointer(settings.checkpoint_path, settings.secrets()), None
    except StoreUnwritable as exc:
        return memory_checkpointer(settings.secrets()), str(exc)


def open_guarded_engine(settings: Settings, catalog: Catalog) -> GuardedEngine:
    """The configured engine behind the read-only guardrails, limited to the catalog's indices."""
    rails = Guardrails(
        tuple(catalog.allowed_indices()),
        settings.max_result_size,
        settings.max_buckets,
        settings.query_timeout_s,
    )
    return GuardedEngine(open_engine(settings), rails)


def todays_date(
    catalog: Catalog, engine: Engine, as_of: date | None = None
) -> tuple[date, str | None]:
    """Today for questions, and what to say about it when it is not the real date.

    `--as-of`, then the catalog's `defaults.today`, then a generated sample's as-of, then the last
    date of the data when the data ends in the past (said in the answer), else the real date.
    """
    setting = catalog.spec.defaults.today
    if as_of is not None:
        return as_of, None
    if setting not in (None, "data", "real"):
        return date.fromisoformat(str(setting)), None
    info = read_sample_info(engine)
    if setting is None and info is not None and info.domain == catalog.spec.domain:
        return info.as_of, None
    last = None if setting == "real" else last_date(engine, catalog)
    if last is not None and (last < date.today() or setting == "data"):
        return last, f"today is taken as {day_name(last)}, the last day in the data"
    return date.today(), None


def last_date(engine: Engine, catalog: Catalog) -> date | None:
    """The latest value of the record's default date field, or None."""
    date_field = catalog.spec.time.default_field
    if catalog.record.fields[date_field].type != "date":
        return None
    try:
        body = {"size": 0, "aggs": {"last": {"max": {"field": date_field}}}}
        found = engine.search(catalog.record.index, body)["aggregations"]["last"]
    except BosunError:
        return None
    text = found.get("value_as_string")
    if text is None and found.get("value") is not None:
        text = datetime.fromtimestamp(found["value"] / 1000, UTC).date().isoformat()
    return date.fromisoformat(str(text)[:10]) if text else None
