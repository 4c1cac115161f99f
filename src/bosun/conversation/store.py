"""Turn summaries per thread: one row per finished turn, in SQLite beside the checkpoints or in
Postgres."""

from __future__ import annotations

import json
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from bosun.errors import StoreError, StoreUnwritable
from bosun.settings import Settings, redacted, scrub
from bosun.storage import open_sqlite, open_sqlite_read_only, problem
from bosun.understanding import AskedBack, Meaning, PastTurn
from bosun.understanding.reading import AnswerRows


class TurnSummary(BaseModel):
    """One finished turn as the store keeps it: the human message, the answer, and what the turn
    meant."""

    turn_id: int
    human_message: str
    ai_response: str
    meaning: Meaning | None = None  # the turn's main data goal, as understood
    status: str = "done"
    clarification: AskedBack | None = None  # the question back it ended with
    # the first table's leading values, in order
    first_column: list[Any] = Field(default_factory=list)
    # the leading values highest and lowest on the first figure
    leaders: list[Any] = Field(default_factory=list)
    # the rows of the answer, to point at; None in a turn stored before they were kept
    rows: AnswerRows | None = None
    # the titles of its tables of groups of different fields ("them" could be either)
    alternatives: list[str] = Field(default_factory=list)
    # the rows of each of those tables, in the same order: what the list picked points at
    alternative_rows: list[AnswerRows] = Field(default_factory=list)

    def past(self) -> PastTurn:
        """What reading the next turn needs of this one."""
        return PastTurn(
            question=self.human_message,
            status=self.status,
            meaning=self.meaning,
            clarification=self.clarification,
            first_column=self.first_column,
            leaders=self.leaders,
            rows=self.rows,
            alternatives=self.alternatives,
            alternative_rows=self.alternative_rows,
        )


_TABLE = (
    "CREATE TABLE IF NOT EXISTS bosun_turns (thread_id TEXT NOT NULL, turn_id INTEGER NOT NULL, "
    "summary TEXT NOT NULL, PRIMARY KEY (thread_id, turn_id))"
)
# `owner`: the caller who made the thread (BOSUN_ENGINE_AUTH=caller), or null: the deployment's own
# (made in service mode, or before threads had owners)
_THREADS = (
    "CREATE TABLE IF NOT EXISTS bosun_threads (thread_id TEXT PRIMARY KEY, created TEXT NOT NULL, "
    "owner TEXT)"
)
_ANSWERS = (
    "CREATE TABLE IF NOT EXISTS bosun_answers (thread_id TEXT NOT NULL, turn_id INTEGER NOT NULL, "
    "answer TEXT NOT NULL, PRIMARY KEY (thread_id, turn_id))"
)
# The turn a thread has started and not yet stored: what a killed process leaves behind, run again
# on the next ask.
_RUNNING = (
    "CREATE TABLE IF NOT EXISTS bosun_running (thread_id TEXT PRIMARY KEY, question TEXT NOT NULL)"
)
# renamed ones
_TITLES = (
    "CREATE TABLE IF NOT EXISTS bosun_titles (thread_id TEXT PRIMARY KEY, title TEXT NOT NULL)"
)
_OPEN = (
    "INSERT INTO bosun_threads (thread_id, created, owner) VALUES (?, ?, ?) "
    "ON CONFLICT (thread_id) DO NOTHING"
)
# Where each thread started: "api" when it was opened before its first question (POST /threads: the
# page, or another HTTP client), "ask" when its first question started it (the command line's ask
# and chat, MCP's ask). A thread from before origins were kept has none and counts as "api".
Origin = Literal["api", "ask"]
_ORIGINS = (
    "CREATE TABLE IF NOT EXISTS bosun_origins (thread_id TEXT PRIMARY KEY, origin TEXT NOT NULL)"
)
_OPENED_BY_API = "INSERT INTO bosun_origins VALUES (?, 'api') ON CONFLICT (thread_id) DO NOTHING"
# run before _OPEN: a thread not yet recorded is started by this question
_STARTED_BY_ASK = (
    "INSERT INTO bosun_origins SELECT ?, 'ask' WHERE NOT EXISTS (SELECT 1 FROM bosun_threads WHERE "
    "thread_id = ?) ON CONFLICT (thread_id) DO NOTHING"
)


class TurnStore:
    """Threads and their finished turns; short-term memory is the last N of a thread.

    One DB-API connection, used under a lock: SQLite by default, Postgres (psycopg) by URL.
    """

    def __init__(
        self,
        conn: Any,
        where: str,
        errors: tuple[type[Exception], ...],
        placeholder: str = "?",
        timeout_s: float = 5.0,
        secrets: list[str] | None = None,
        unwritable: str | None = None,
    ) -> None:
        self._conn, self.where, self._errors, self._mark = conn, where, errors, placeholder
        self.timeout_s = timeout_s
        self.secrets = secrets or []
        self.unwritable = unwritable  # why nothing can be saved (a read-only store), or None
        self._lock = threading.Lock()
        # a store read-only since before threads had owners has no column: all its threads are null
        self._owner_column = "t.owner"
        if conn is not None and unwritable is None:
            tables = (_TABLE, _THREADS, _ANSWERS, _RUNNING, _TITLES, _ORIGINS)
            self._run_all([(ddl, ()) for ddl in tables])
            self._run_all(self._owners_column())
        elif conn is not None and isinstance(conn, sqlite3.Connection) and not self._has_owners():
            self._owner_column = "NULL"
        # a store read-only since before origins were kept has no table of them: all count as "api"
        self._origins_kept = conn is not None and (unwritable is None or self._has_origins())

    def _owners_column(self) -> list[tuple[str, tuple[object, ...]]]:
        """The statement that gives a store made before threads had owners its `owner` column
        (its threads' owner stays null: the deployment's own); none when it has one."""
        add = "ALTER TABLE bosun_threads ADD COLUMN owner TEXT"
        if not isinstance(self._conn, sqlite3.Connection):  # PostgreSQL says it itself
            return [(add.replace("COLUMN", "COLUMN IF NOT EXISTS"), ())]
        return [] if self._has_owners() else [(add, ())]

    def _has_owners(self) -> bool:
        columns = self._run("SELECT name FROM pragma_table_info('bosun_threads')", ())
        return ("owner",) in columns

    def recent(self, thread_id: str, n: int) -> list[TurnSummary]:
        """The thread's last `n` turns, oldest first; an unknown thread has none."""
        if self._conn is None:
            return []
        rows = self._run(
            "SELECT turn_id, summary FROM bosun_turns WHERE thread_id = ? ORDER BY turn_id DESC "
            "LIMIT ?",
            (thread_id, n),
        )
        try:
            return [
                TurnSummary.model_validate_json(str(r[1])).model_copy(
                    update={"turn_id": int(str(r[0]))}
                )
                for r in reversed(rows)
            ]
        except ValueError as exc:
            raise StoreError(
                f"the conversation store {self.where} holds an unreadable turn of {thread_id!r}: "
                f"{str(exc).splitlines()[0]}"
            ) from None

    def open_thread(self, thread_id: str, owner: str | None = None) -> None:
        """Record a thread (again is a no-op, its owner kept), so that it exists before its first
        turn; `owner`: the caller it belongs to, None for the deployment's own."""
        if self.unwritable:
            return
        self._run_all([(_OPEN, (thread_id, _now(), owner)), (_OPENED_BY_API, (thread_id,))])

    def owner(self, thread_id: str) -> tuple[bool, str | None]:
        """Whether the thread exists, and its owner (None: the deployment's own)."""
        rows = self._run(
            f"SELECT {self._owner_column} FROM bosun_threads t WHERE thread_id = ? UNION ALL "
            "SELECT NULL FROM bosun_turns WHERE thread_id = ?",
            (thread_id, thread_id),
        )
        return bool(rows), str(rows[0][0]) if rows and rows[0][0] is not None else None

    def begin(self, thread_id: str, question: str) -> None:
        """Record the thread and the turn it starts, before the turn runs: a killed turn is found by
        `running`."""
        if self.unwritable:
            return
        # Not synced to the disk at once (SQLite's synchronous=NORMAL): the record must outlive a
        # killed process, which it does from the commit; the turn's end, stored with a sync, syncs
        # it too.
        self._run_all(
            [
                (_STARTED_BY_ASK, (thread_id, thread_id)),
                (_OPEN, (thread_id, _now(), None)),
                (
                    "INSERT INTO bosun_running VALUES (?, ?) ON CONFLICT (thread_id) DO UPDATE SET "
                    "question = excluded.question",
                    (thread_id, scrub(question, self.secrets)),
                ),
            ],
            synced=False,
        )

    def running(self, thread_id: str) -> str | None:
        """The question of the turn the thread started and never stored (its process died), if
        any."""
        # a read-only store: a killed turn could not be stored anyway
        if self._conn is None or self.unwritable:
            return None
        rows = self._run("SELECT question FROM bosun_running WHERE thread_id = ?", (thread_id,))
        return str(rows[0][0]) if rows else None

    def finish(self, thread_id: str, summary: TurnSummary, answer: str) -> None:
        """Store a finished turn and its answer JSON (secrets masked) in one transaction, as the
        thread's next turn, and the turn no longer running.

        The number is taken inside the INSERT, so concurrent writers never pick the same one.
        """
        if self.unwritable:
            raise StoreUnwritable(self.unwritable)
        self._run_all(
            [
                (
                    "INSERT INTO bosun_turns SELECT ?, COALESCE(MAX(turn_id), 0) + 1, ? FROM "
                    "bosun_turns WHERE thread_id = ?",
                    (thread_id, scrub(summary.model_dump_json(), self.secrets), thread_id),
                ),
                (
                    "INSERT INTO bosun_answers SELECT ?, MAX(turn_id), ? FROM bosun_turns WHERE "
                    "thread_id = ?",
                    (thread_id, scrub(answer, self.secrets), thread_id),
                ),
                ("DELETE FROM bosun_running WHERE thread_id = ?", (thread_id,)),
            ]
        )

    def threads(
        self,
        limit: int = 100,
        owner: str | None = None,
        every: bool = False,
        origin: Origin | None = None,
    ) -> list[tuple[str, str, str]]:
        """(thread id, created, title) of the newest recorded threads of `owner` (None: the
        deployment's own) or of every owner, and of one `origin` or of all: the name given, else
        the first question, else ""."""
        mine, owned = self._owned_by(owner, every)
        started, begun = self._started(origin)
        args = (*owned, *begun)
        rows = self._run(
            "SELECT t.thread_id, t.created, (SELECT a.answer FROM bosun_answers a WHERE "
            "a.thread_id = t.thread_id ORDER BY a.turn_id LIMIT 1), n.title FROM bosun_threads t "
            f"LEFT JOIN bosun_titles n ON n.thread_id = t.thread_id WHERE {mine} AND {started} "
            "ORDER BY t.created DESC, t.thread_id LIMIT ?",
            (*args, limit),
        )
        return [
            (
                str(r[0]),
                str(r[1]),
                _title(r[3], r[2]),
            )
            for r in rows
        ]

    def _owned_by(self, owner: str | None, every: bool) -> tuple[str, tuple[object, ...]]:
        """The condition on `bosun_threads t` that keeps the threads of `owner`, or of anyone."""
        if every:
            return "TRUE", ()
        if owner is None:
            return f"{self._owner_column} IS NULL", ()
        return f"{self._owner_column} = ?", (owner,)

    def _started(self, origin: Origin | None) -> tuple[str, tuple[object, ...]]:
        """The condition on `bosun_threads t` that keeps the threads of `origin` (None: all)."""
        if origin is None:
            return "TRUE", ()
        if not self._origins_kept:  # every thread counts as "api"
            return ("TRUE" if origin == "api" else "FALSE"), ()
        kept = "(SELECT o.origin FROM bosun_origins o WHERE o.thread_id = t.thread_id)"
        return f"COALESCE({kept}, 'api') = ?", (origin,)

    def _has_origins(self) -> bool:
        found = self._run(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'bosun_origins'", ()
        )
        return bool(found)

    def rename(self, thread_id: str, title: str) -> None:
        self._run_all(
            [
                ("DELETE FROM bosun_titles WHERE thread_id = ?", (thread_id,)),
                ("INSERT INTO bosun_titles VALUES (?, ?)", (thread_id, scrub(title, self.secrets))),
            ]
        )

    def answers(self, thread_id: str) -> list[dict[str, Any]]:
        """The thread's recorded answers, oldest first."""
        rows = self._run(
            "SELECT answer FROM bosun_answers WHERE thread_id = ? ORDER BY turn_id", (thread_id,)
        )
        return [json.loads(str(r[0])) for r in rows]

    def drop_thread(self, thread_id: str) -> None:
        self._run_all(
            [
                (f"DELETE FROM {table} WHERE thread_id = ?", (thread_id,))
                for table in (
                    "bosun_threads",
                    "bosun_turns",
                    "bosun_answers",
                    "bosun_running",
                    "bosun_titles",
                    "bosun_origins",
                )
            ]
        )

    def transaction(
        self, statements: list[tuple[str, tuple[object, ...]]]
    ) -> list[list[tuple[object, ...]]]:
        """Statements of a table kept beside the store's own (marks, taught words; `?`
        placeholders), in one transaction: their rows. A store opened read-only still reads."""
        if self.unwritable and any(
            not sql.lstrip().upper().startswith("SELECT") for sql, _ in statements
        ):
            raise StoreUnwritable(self.unwritable)
        if self._conn is None:
            return [[] for _ in statements]
        return self._run_all(statements)

    def _run(self, sql: str, args: tuple[object, ...]) -> list[tuple[object, ...]]:
        (rows,) = self._run_all([(sql, args)])
        return rows

    def _run_all(
        self, statements: list[tuple[str, tuple[object, ...]]], synced: bool = True
    ) -> list[list[tuple[object, ...]]]:
        """Run the statements in one transaction (all or none) and commit; the rows each returned.

        `synced`: SQLite waits for the disk at the commit (synchronous=FULL), so the transaction
        survives a power loss, not only a killed process.
        """
        try:
            with self._lock:
                cursor = self._conn.cursor()
                if isinstance(self._conn, sqlite3.Connection):
                    cursor.execute(f"PRAGMA busy_timeout = {int(self.timeout_s * 1000)}")
                    cursor.execute(f"PRAGMA synchronous = {'FULL' if synced else 'NORMAL'}")
                try:
                    found = [self._execute(cursor, sql, args) for sql, args in statements]
                    self._conn.commit()
                except self._errors:
                    self._conn.rollback()
                    raise
                return found
        except self._errors as exc:
            if isinstance(self._conn, sqlite3.Connection):
                raise problem(Path(self.where), "conversation store", exc) from None
            raise StoreError(
                f"the conversation store {self.where} failed: {str(exc).splitlines()[0]}"
            ) from None

    def _execute(self, cursor: Any, sql: str, args: tuple[object, ...]) -> list[tuple[object, ...]]:
        cursor.execute(sql.replace("?", self._mark), args)
        rows: list[tuple[object, ...]] = cursor.fetchall() if cursor.description else []
        return rows

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def open_turn_store(settings: Settings) -> TurnStore:
    """Postgres when `checkpoint_url` is set (the `postgres` extra), else SQLite under the data
    directory.

    A SQLite store that cannot be written (a full disk, a read-only directory) is opened read-only:
    earlier turns are still read and each answer says it was not saved.
    """
    if settings.checkpoint_url:
        return _postgres(settings.checkpoint_url, settings.secrets())
    try:
        return sqlite_store(settings.turns_path, secrets=settings.secrets())
    except StoreUnwritable as exc:
        conn = open_sqlite_read_only(settings.turns_path)
        return TurnStore(conn, str(settings.turns_path), (sqlite3.Error,), unwritable=str(exc))


def sqlite_store(path: Path, timeout_s: float = 5.0, secrets: list[str] | None = None) -> TurnStore:
    conn = open_sqlite(path, "conversation store", timeout_s)
    try:
        return TurnStore(conn, str(path), (sqlite3.Error,), timeout_s=timeout_s, secrets=secrets)
    except StoreError:
        conn.close()
        raise


def _postgres(url: str, secrets: list[str]) -> TurnStore:
    import psycopg  # the postgres extra; open_postgres_checkpointer has said so if it is missing

    where = redacted(url)
    try:
        return TurnStore(
            psycopg.connect(url), where, (psycopg.Error,), placeholder="%s", secrets=secrets
        )
    except psycopg.Error as exc:
        raise StoreError(
            f"the conversation store at {where} cannot be used: {str(exc).splitlines()[0]}"
        ) from None


def _title(given: object, first_answer: object) -> str:
    """A thread's title: the name given, else its first question, else ""."""
    if given:
        return str(given)
    if first_answer:
        return str(json.loads(str(first_answer))["question"])
    return ""
