"""Answers marked right or wrong by the people who asked them, with an optional correction.

A mark is kept per turn (the last one wins) in a table beside the conversation store's own, so it
lives where the turns live (SQLite under the data directory, or PostgreSQL) and every process sees
it. Marks feed two things: `bosun eval export` (a team's own regression set) and the LLM backend's
confirmed examples.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, Field

from bosun.conversation.store import TurnStore, TurnSummary
from bosun.errors import StoreUnwritable, UnknownTurn, UserError
from bosun.planner.answer import Answer
from bosun.settings import scrub
from bosun.understanding.examples import Example, ExampleIndex
from bosun.understanding.llm import LLMUnderstanding
from bosun.understanding.meaning import Meaning

MAX_CORRECTION = 2000  # characters kept of a correction
LAST_TURN = 2**63 - 1  # the largest turn number SQLite's and PostgreSQL's integers hold
_TABLE = (
    "CREATE TABLE IF NOT EXISTS bosun_marks (thread_id TEXT NOT NULL, turn_id INTEGER NOT NULL, "
    "verdict TEXT NOT NULL, figure DOUBLE PRECISION, correction TEXT NOT NULL, who TEXT NOT NULL, "
    "marked TEXT NOT NULL, PRIMARY KEY (thread_id, turn_id))"
)
_COLUMNS = "thread_id, turn_id, verdict, figure, correction, who, marked"
# the fields of a Meaning an example shows the model: how the question was read, not its bookkeeping
READ_AS = {"conditions", "time", "measures", "group_by", "interval", "top_n", "intent_type"}


class Mark(BaseModel):
    """A person's verdict on one turn's answer."""

    thread_id: str
    turn: int = Field(ge=1, description="the turn's number on its thread, from 1")
    right: bool
    figure: float | None = Field(
        None, description="the figure the answer should have given (a correction)"
    )
    correction: str = Field("", description="what was wrong, in the person's words")
    by: str = Field(description="who marked it")
    at: str = Field(description="when, ISO 8601 UTC")


class Confirmed(BaseModel):
    """A marked turn with what it asked: its question, the questions before it on its thread, its
    answer."""

    mark: Mark
    question: str
    before: list[str]
    answer: Answer
    meaning: Meaning | None = None


class MarkStore:
    """The marks, in the conversation store's database."""

    def __init__(self, store: TurnStore) -> None:
        self.store = store
        if not store.unwritable:
            store.transaction([(_TABLE, ())])

    def mark(
        self,
        thread_id: str,
        turn: int,
        right: bool,
        by: str,
        figure: float | None = None,
        correction: str = "",
    ) -> Mark:
        """Record the verdict on a turn the thread has, replacing any earlier one of that turn."""
        if self.store.unwritable:
            raise StoreUnwritable(self.store.unwritable)
        if figure is not None and not math.isfinite(figure):
            raise UserError(f"the corrected figure must be a number, not {figure}")
        if not 1 <= turn <= LAST_TURN:  # past what the store's integers hold: no such turn
            raise UnknownTurn(f"thread {thread_id!r} has no answered turn {turn}")
        if not self.store.transaction(
            [("SELECT 1 FROM bosun_answers WHERE thread_id = ? AND turn_id = ?", (thread_id, turn))]
        )[0]:
            raise UnknownTurn(f"thread {thread_id!r} has no answered turn {turn}")
        kept = scrub(correction.strip()[:MAX_CORRECTION], self.store.secrets)
        mark = Mark(
            thread_id=thread_id,
            turn=turn,
            right=right,
            figure=figure,
            correction=kept,
            by=by or "someone",
            at=datetime.now(UTC).isoformat(timespec="seconds"),
        )
        verdict = "right" if right else "wrong"
        self.store.transaction(
            [
                ("DELETE FROM bosun_marks WHERE thread_id = ? AND turn_id = ?", (thread_id, turn)),
                (
                    f"INSERT INTO bosun_marks ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (thread_id, turn, verdict, figure, mark.correction, mark.by, mark.at),
                ),
            ]
        )
        return mark

    def marks(self, thread_id: str | None = None) -> list[Mark]:
        """Every mark (of one thread), oldest first."""
        if self.store.unwritable:
            return []
        where = "WHERE thread_id = ?" if thread_id is not None else ""
        args = (thread_id,) if thread_id is not None else ()
        (rows,) = self.store.transaction(
            [
                (
                    f"SELECT {_COLUMNS} FROM bosun_marks {where} ORDER BY marked, "
                    "thread_id, turn_id",
                    args,
                )
            ]
        )
        return [_mark(row) for row in rows]

    def confirmed(self) -> list[Confirmed]:
        """Every marked turn with its question, the questions before it and its answer, oldest mark
        first."""
        if self.store.unwritable:
            return []
        marked, turns = self.store.transaction(
            [
                (
                    f"SELECT {', '.join('m.' + c for c in _COLUMNS.split(', '))}, a.answer FROM "
                    "bosun_marks m JOIN "
                    "bosun_answers a ON a.thread_id = m.thread_id AND a.turn_id = m.turn_id "
                    "ORDER BY m.marked, m.thread_id, m.turn_id",
                    (),
                ),
                (
                    "SELECT thread_id, turn_id, summary FROM bosun_turns WHERE thread_id IN "
                    "(SELECT thread_id FROM "
                    "bosun_marks) ORDER BY thread_id, turn_id",
                    (),
                ),
            ]
        )
        summaries: dict[str, list[TurnSummary]] = {}
        for thread_id, turn, summary in turns:
            kept = TurnSummary.model_validate_json(str(summary)).model_copy(
                update={"turn_id": int(str(turn))}
            )
            summaries.setdefault(str(thread_id), []).append(kept)
        return [
            _confirmed(_mark(row[:-1]), str(row[-1]), summaries.get(str(row[0]), []))
            for row in marked
        ]

    def drop_thread(self, thread_id: str) -> None:
        if not self.store.unwritable:
            self.store.transaction([("DELETE FROM bosun_marks WHERE thread_id = ?", (thread_id,))])

    def version(self) -> str:
        """What changes when a mark is added or replaced (to the second): for other processes to
        follow."""
        if self.store.unwritable:
            return ""
        (rows,) = self.store.transaction([("SELECT COUNT(*), MAX(marked) FROM bosun_marks", ())])
        return str(rows[0])


def _confirmed(mark: Mark, answer: str, thread: list[TurnSummary]) -> Confirmed:
    upto = [summary for summary in thread if summary.turn_id <= mark.turn]
    last = upto[-1] if upto and upto[-1].turn_id == mark.turn else None
    return Confirmed(
        mark=mark,
        question=last.human_message if last else "",
        answer=Answer.model_validate_json(answer),
        before=[s.human_message for s in upto if s is not last],
        meaning=last.meaning if last else None,
    )


def _mark(row: tuple[object, ...]) -> Mark:
    thread_id, turn, verdict, figure, correction, who, marked = row
    return Mark(
        thread_id=str(thread_id),
        turn=int(str(turn)),
        right=verdict == "right",
        figure=None if figure is None else float(str(figure)),
        correction=str(correction),
        by=str(who),
        at=str(marked),
    )


def examples_of(confirmed: list[Confirmed]) -> list[Example]:
    """The marked turns as the LLM backend's examples: each question and how it was read, with its
    verdict."""
    return [
        Example(
            question=c.question,
            read_as=_read_as(c.meaning),
            right=c.mark.right,
            correction=_correction(c.mark),
        )
        for c in confirmed
        if c.question
    ]


def _read_as(meaning: Meaning | None) -> dict[str, Any] | None:
    return meaning.model_dump(mode="json", include=READ_AS) if meaning is not None else None


def _correction(mark: Mark) -> str:
    figure = f"the figure should be {mark.figure:g}" if mark.figure is not None else ""
    # the figure first: never cut off
    return "; ".join(part for part in (figure, mark.correction) if part)


class ConfirmedExamples:
    """The store's marked turns as the LLM backend's examples (an `ExampleSource`)."""

    def __init__(self, store: TurnStore) -> None:
        self.marks = MarkStore(store)

    def version(self) -> str:
        return self.marks.version()

    def examples(self) -> list[Example]:
        return examples_of(self.marks.confirmed())


def attach_examples(understanding: LLMUnderstanding, store: TurnStore) -> None:
    """Give the LLM backend the deployment's confirmed examples, kept in the name index's vector
    store and read again from the conversation store whenever a mark was added there (by this
    process or another)."""
    vectors = understanding.vectors
    source = ConfirmedExamples(store)
    if vectors is not None:
        understanding.examples = ExampleIndex(
            vectors.embedder, lambda: vectors.client, source=source
        )
    else:
        understanding.examples = ExampleIndex(source=source)
