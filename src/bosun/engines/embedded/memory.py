"""How much memory DuckDB may use, and where it spills past that: for the engine's file and the
loader's reads."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb

from bosun.errors import MemoryLimitExceeded

SETTING = "BOSUN_ENGINE_MEMORY_LIMIT"


def shown(size: int) -> str:
    """A byte count as people read it: 512 MB, 1.5 GB."""
    if size >= 1_000_000_000:
        return f"{size / 1_000_000_000:.1f} GB".replace(".0 GB", " GB")
    return f"{max(size // 1_000_000, 1):,} MB"


@dataclass(frozen=True)
class Memory:
    """DuckDB's `memory_limit` in bytes (None: DuckDB's own default) and its `temp_directory` (None:
    its own)."""

    limit: int | None = None
    temp_dir: Path | None = None

    def apply(self, con: duckdb.DuckDBPyConnection) -> None:
        if self.limit is not None:
            con.execute(f"SET memory_limit = '{int(self.limit)}B'")
        if self.temp_dir is not None:
            con.execute("SET temp_directory = '" + str(self.temp_dir).replace("'", "''") + "'")

    def exceeded(self, what: str) -> MemoryLimitExceeded:
        """The error for `what` (a query, the load of a file) needing more than the limit."""
        limit = (
            f"the embedded engine's memory limit of {shown(self.limit)}"
            if self.limit
            else "the machine's memory"
        )
        return MemoryLimitExceeded(
            f"{what} needs more than {limit} ({SETTING}); narrow it, or raise the limit"
        )
