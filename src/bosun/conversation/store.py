"""Turn summaries per thread: one row per finished turn, in SQLite beside the checkpoints."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from bosun.errors import StoreError
from bosun.planner.state import TurnSummary


class TurnStore:
    """Threads and their finished turns; short-term memory is the last N of a thread."""

    def __init__(self, path: Path, timeout_s: float = 5.0) -> None:
        self.path, self.timeout_s = path, timeout_s
        self._lock = threading.Lock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(str(path), check_same_thread=False, timeout=timeout_s)
            with self._conn:
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("CREATE TABLE IF NOT EXISTS turns (thread_id TEXT NOT NULL, turn_id INTEGER NOT "
                                   "NULL, summary TEXT NOT NULL, PRIMARY KEY (thread_id, turn_id))")
        except sqlite3.Error as exc:
            raise StoreError(f"the conversation store {path} cannot be used: {exc}") from None

    def recent(self, thread_id: str, n: int) -> list[TurnSummary]:
        """The thread's last `n` turns, oldest first; an unknown thread has none."""
        rows = self._run("SELECT summary FROM turns WHERE thread_id = ? ORDER BY turn_id DESC LIMIT ?",
                         (thread_id, n))
        try:
            return [TurnSummary.model_validate_json(str(r[0])) for r in reversed(rows)]
        except ValueError as exc:
            raise StoreError(f"the conversation store {self.path} holds an unreadable turn of {thread_id!r}: "
                             f"{str(exc).splitlines()[0]}") from None

    def append(self, thread_id: str, summary: TurnSummary) -> TurnSummary:
        """Store a finished turn as the thread's next; returns it numbered."""
        last = self._run("SELECT COALESCE(MAX(turn_id), 0) FROM turns WHERE thread_id = ?", (thread_id,))
        numbered = summary.model_copy(update={"turn_id": int(str(last[0][0])) + 1})
        self._run("INSERT INTO turns VALUES (?, ?, ?)", (thread_id, numbered.turn_id, numbered.model_dump_json()))
        return numbered

    def _run(self, sql: str, args: tuple[object, ...]) -> list[tuple[object, ...]]:
        try:
            with self._lock, self._conn:
                self._conn.execute(f"PRAGMA busy_timeout = {int(self.timeout_s * 1000)}")
                return self._conn.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"the conversation store {self.path} failed: {exc}; earlier turns are kept") from None

    def close(self) -> None:
        self._conn.close()
