"""Rows a loader has written to a DuckDB file of its own, to be copied into an index without passing
through Python: the embedded engine copies them table to table; an engine that takes rows reads them
back."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

if TYPE_CHECKING:
    import pyarrow as pa

# the staged rows' load order, a column of their own (a field's name never starts with "_")
SEQ = "__seq"


@dataclass(frozen=True)
class StagedRows:
    """Table (or view) `table` of the DuckDB file at `path`: `rows` rows, their load order in column
    SEQ."""

    path: Path
    table: str
    rows: int

    @property
    def quoted_path(self) -> str:
        return "'" + str(self.path).replace("'", "''") + "'"

    @property
    def _ordered(self) -> str:
        return f'SELECT * EXCLUDE ({SEQ}) FROM "{self.table}" ORDER BY {SEQ}'

    def batches(self, size: int = 10_000) -> Iterator[pa.RecordBatch]:
        """The rows in load order, `size` at a time."""
        con = duckdb.connect(str(self.path), read_only=True)
        try:
            yield from con.sql(self._ordered).to_arrow_reader(size)
        finally:
            con.close()

    def to_arrow(self) -> pa.Table:
        con = duckdb.connect(str(self.path), read_only=True)
        try:
            table: pa.Table = con.sql(self._ordered).to_arrow_table()
        finally:
            con.close()
        return table
