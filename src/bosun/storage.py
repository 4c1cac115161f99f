"""SQLite files under the data directory: opened with an integrity check, their failures said in
words.

Both stores (checkpoints, conversations) open through here. A damaged file is moved aside, never
deleted nor silently replaced, and the error names it and says what to do; a full disk or a
read-only directory is named as such instead of SQLite's "disk I/O error".
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import threading
from contextlib import closing
from pathlib import Path

from bosun.errors import StoreError, StoreUnwritable
from bosun.files import move_aside

_DAMAGE = ("malformed", "not a database", "corrupt", "file is encrypted")
_READ_ONLY = ("readonly", "read-only", "unable to open", "permission denied")
_FULL = ("full", "no space")


def open_sqlite(path: Path, what: str, timeout_s: float = 5.0) -> sqlite3.Connection:
    """A connection to `path` in WAL mode, after PRAGMA quick_check; damage moves the file aside
    (StoreError)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _create(path)
        # SQLite would take it for a new database and its turns would be lost unsaid
        if path.stat().st_size == 0:
            raise sqlite3.DatabaseError("the file is empty (0 bytes): not a database")
        conn = sqlite3.connect(str(path), check_same_thread=False, timeout=timeout_s)
        verdict = conn.execute("PRAGMA quick_check").fetchone()
        if verdict is None or verdict[0] != "ok":
            conn.close()
            raise sqlite3.DatabaseError(
                f"database disk image is malformed ({verdict[0] if verdict else 'empty'})"
            )
        conn.execute("PRAGMA journal_mode=WAL")  # append to the log, sync at checkpoints
        return conn
    except UnicodeDecodeError:  # SQLite quoted bytes of a damaged schema in its message
        raise problem(
            path, what, sqlite3.DatabaseError("database disk image is malformed")
        ) from None
    except (sqlite3.Error, OSError) as exc:
        raise problem(path, what, exc) from None


def _create(path: Path) -> None:
    """A new store is put in place whole, with its header written (WAL mode), so that an empty file
    there is always damage, never a store another process has only begun to create."""
    if path.exists():
        return
    draft = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.new")
    try:
        with closing(sqlite3.connect(str(draft))) as conn:
            conn.execute("PRAGMA journal_mode=WAL")
        try:
            os.link(draft, path)  # never over a store another process put in place meanwhile
        except FileExistsError:
            pass
        except OSError:  # a file system without hard links
            if not path.exists():
                os.replace(draft, path)
    finally:
        draft.unlink(missing_ok=True)


def _nearly_full(folder: Path) -> bool:
    """SQLite reports a full disk as a "disk I/O error" when it cannot even create its WAL files."""
    try:
        return shutil.disk_usage(folder).free < 1 << 20
    except OSError:
        return False


def open_sqlite_read_only(path: Path, timeout_s: float = 5.0) -> sqlite3.Connection | None:
    """The file opened read-only (or None when it does not exist), for a store that cannot be
    written."""
    if not path.exists():
        return None
    try:
        # immutable: no lock or -shm file is needed, which a read-only directory could not hold
        return sqlite3.connect(
            f"{path.as_uri()}?mode=ro&immutable=1",
            uri=True,
            check_same_thread=False,
            timeout=timeout_s,
        )
    except sqlite3.Error:
        return None


def problem(path: Path, what: str, exc: BaseException) -> StoreError:
    """The StoreError for a failure of `path`: damaged (moved aside), read-only, disk full, or as
    SQLite said."""
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    lowered = text.lower()
    if any(word in lowered for word in _DAMAGE):
        aside = move_aside(path)
        return StoreError(
            f"the {what} {path} is damaged ({text}); it was moved to {aside.name} and a new one "
            "will be started: run the command again"
        )
    if any(word in lowered for word in _FULL) or (
        "disk i/o error" in lowered and _nearly_full(path.parent)
    ):
        return StoreUnwritable(
            f"the disk holding the {what} {path} is full: free space there or set BOSUN_DATA_DIR "
            "to another directory"
        )
    if (
        any(word in lowered for word in _READ_ONLY)
        or isinstance(exc, PermissionError)
        or "disk i/o" in lowered
    ):
        return StoreUnwritable(
            f"the {what} {path} cannot be written (read-only?): make {path.parent} writable or "
            "set BOSUN_DATA_DIR to a writable directory"
        )
    return StoreError(f"the {what} {path} failed: {text}")
