"""A damaged stretch inside the data file, noticed before any answer comes from it.

DuckDB keeps a checksum with every block of its file and checks it whenever it reads the block
("Corrupt database file: computed checksum … does not match"), but it reads only the blocks a query
needs: a bad stretch inside a column no question has read yet goes unseen, at open and after. So the
first time a file is opened to be read after it changed, every column of every table is read once
(one scan, about 10 ms a megabyte), and the file's size and modification time are kept beside it
(`bosun.duckdb.checked`): the next opens of the same file skip the scan. A block that goes bad
later, the file unchanged, is still refused when a query reads it.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import duckdb

from bosun.engines.embedded.fields import quote


def check_once(con: duckdb.DuckDBPyConnection, path: Path) -> None:
    """Read every block of the file unless this very file was read whole before; a damaged block
    raises DuckDB's error."""
    stamp = _stamp(path)
    kept = path.with_name(path.name + ".checked")
    if _read(kept) == stamp:
        return
    tables = con.execute("SELECT schema_name, table_name FROM duckdb_tables()").fetchall()
    for schema, table in tables:
        # every column hashed: each of its blocks is read, its checksum checked
        con.execute(
            f"SELECT count(hash(COLUMNS(*))) FROM {quote(schema)}.{quote(table)}"
        ).fetchall()
    _keep(kept, stamp)


def _stamp(path: Path) -> dict[str, int]:
    """What changes when the file is written: its size and modification time."""
    status = path.stat()
    return {"size": status.st_size, "modified_ns": status.st_mtime_ns}


def _read(kept: Path) -> object:
    try:
        return json.loads(kept.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _keep(kept: Path, stamp: dict[str, int]) -> None:
    """Write the stamp whole (another process may read it meanwhile); a read-only data directory
    keeps none, and each open reads the file again."""
    partial = kept.with_name(f"{kept.name}.{os.getpid()}")
    with contextlib.suppress(OSError):
        partial.write_text(json.dumps(stamp), encoding="utf-8")
        partial.replace(kept)
