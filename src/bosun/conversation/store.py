"""Turn summaries per thread: one row per finished turn, in SQLite beside the checkpoints or in Postgres."""

from __future__ import annotations

import json
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bosun.errors import StoreError
from bosun.planner.state import TurnSummary
from bosun.settings import Settings, redacted

_TABLE = ("CREATE TABLE IF NOT EXISTS bosun_turns (thread_id TEXT NOT NULL, turn_id INTEGER NOT NULL, "
          "summary TEXT NOT NULL, PRIMARY KEY (thread_id, turn_id))")
_THREADS = "CREATE TABLE IF NOT EXISTS bosun_threads (thread_id TEXT PRIMARY KEY, created TEXT NOT NULL)"
_ANSWERS = ("CREATE TABLE IF NOT EXISTS bosun_answers (thread_id TEXT NOT NULL, turn_id INTEGER NOT NULL, "
            "answer TEXT NOT NULL, PRIMARY KEY (thread_id, turn_id))")


class TurnStore:
    """Threads and their finished turns; short-term memory is the last N of a thread.

    One DB-API connection, used under a lock: SQLite by default, Postgres (psycopg) by URL.
    """

    def __init__(self, conn: Any, where: str, errors: tuple[type[Exception], ...], placeholder: str = "?",
                 timeout_s: float = 5.0) -> None:
        self._conn, self.where, self._errors, self._mark = conn, where, errors, placeholder
        self.timeout_s = timeout_s
        self._lock = threading.Lock()
        for ddl in (_TABLE, _THREADS, _ANSWERS):
            self._run(ddl, ())

    def recent(self, thread_id: str, n: int) -> list[TurnSummary]:
        """The thread's last `n` turns, oldest first; an unknown thread has none."""
        rows = self._run("SELECT summary FROM bosun_turns WHERE thread_id = ? ORDER BY turn_id DESC LIMIT ?",
                         (thread_id, n))
        try:
            return [TurnSummary.model_validate_json(str(r[0])) for r in reversed(rows)]
        except ValueError as exc:
            raise StoreError(f"the conversation store {self.where} holds an unreadable turn of {thread_id!r}: "
                             f"{str(exc).splitlines()[0]}") from None

    def append(self, thread_id: str, summary: TurnSummary) -> TurnSummary:
        """Store a finished turn as the thread's next; returns it numbered."""
        last = self._run("SELECT COALESCE(MAX(turn_id), 0) FROM bosun_turns WHERE thread_id = ?", (thread_id,))
        numbered = summary.model_copy(update={"turn_id": int(str(last[0][0])) + 1})
        self._run("INSERT INTO bosun_turns VALUES (?, ?, ?)",
                  (thread_id, numbered.turn_id, numbered.model_dump_json()))
        return numbered

    def open_thread(self, thread_id: str) -> None:
        """Record a thread (again is a no-op), so that it exists before its first turn."""
        self._run("INSERT INTO bosun_threads VALUES (?, ?) ON CONFLICT (thread_id) DO NOTHING",
                  (thread_id, datetime.now(UTC).isoformat(timespec="seconds")))

    def has_thread(self, thread_id: str) -> bool:
        found = self._run("SELECT 1 FROM bosun_threads WHERE thread_id = ? UNION ALL "
                          "SELECT 1 FROM bosun_turns WHERE thread_id = ?", (thread_id, thread_id))
        return bool(found)

    def threads(self, limit: int = 100) -> list[tuple[str, str, str]]:
        """(thread id, created, first question or "") of the newest recorded threads."""
        rows = self._run("SELECT t.thread_id, t.created, (SELECT a.answer FROM bosun_answers a WHERE "
                         "a.thread_id = t.thread_id ORDER BY a.turn_id LIMIT 1) FROM bosun_threads t "
                         "ORDER BY t.created DESC, t.thread_id LIMIT ?", (limit,))
        return [(str(r[0]), str(r[1]), json.loads(str(r[2]))["question"] if r[2] else "") for r in rows]

    def record_answer(self, thread_id: str, turn_id: int, answer: dict[str, Any]) -> None:
        """Keep a turn's whole answer JSON, for clients that show a thread's history."""
        self._run("INSERT INTO bosun_answers VALUES (?, ?, ?)", (thread_id, turn_id, json.dumps(answer)))

    def answers(self, thread_id: str) -> list[dict[str, Any]]:
        """The thread's recorded answers, oldest first."""
        rows = self._run("SELECT answer FROM bosun_answers WHERE thread_id = ? ORDER BY turn_id", (thread_id,))
        return [json.loads(str(r[0])) for r in rows]

    def drop_thread(self, thread_id: str) -> None:
        for table in ("bosun_threads", "bosun_turns", "bosun_answers"):
            self._run(f"DELETE FROM {table} WHERE thread_id = ?", (thread_id,))

    def _run(self, sql: str, args: tuple[object, ...]) -> list[tuple[object, ...]]:
        try:
            with self._lock:
                cursor = self._conn.cursor()
                if isinstance(self._conn, sqlite3.Connection):
                    cursor.execute(f"PRAGMA busy_timeout = {int(self.timeout_s * 1000)}")
                cursor.execute(sql.replace("?", self._mark), args)
                rows: list[tuple[object, ...]] = cursor.fetchall() if cursor.description else []
                self._conn.commit()
                return rows
        except self._errors as exc:
            raise StoreError(f"the conversation store {self.where} failed: {str(exc).splitlines()[0]}; "
                             "earlier turns are kept") from None

    def close(self) -> None:
        self._conn.close()


def open_turn_store(settings: Settings) -> TurnStore:
    """Postgres when `checkpoint_url` is set (the `postgres` extra), else SQLite under the data directory."""
    if settings.checkpoint_url:
        return _postgres(settings.checkpoint_url)
    return sqlite_store(settings.turns_path)


def sqlite_store(path: Path, timeout_s: float = 5.0) -> TurnStore:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(path), check_same_thread=False, timeout=timeout_s)
        conn.execute("PRAGMA journal_mode=WAL")
        return TurnStore(conn, str(path), (sqlite3.Error,), timeout_s=timeout_s)
    except (sqlite3.Error, StoreError) as exc:
        raise StoreError(f"the conversation store {path} cannot be used: {exc}") from None


def _postgres(url: str) -> TurnStore:
    import psycopg  # the postgres extra; open_postgres_checkpointer has said so if it is missing

    where = redacted(url)
    try:
        return TurnStore(psycopg.connect(url), where, (psycopg.Error,), placeholder="%s")
    except psycopg.Error as exc:
        raise StoreError(f"the conversation store at {where} cannot be used: {str(exc).splitlines()[0]}") from None
