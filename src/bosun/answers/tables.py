"""What the answer writer reads of a result table."""

from __future__ import annotations

from typing import Any, Protocol


class ChartSource(Protocol):
    """A result table as a chart reads it: its title, columns, rows and the query that made it.

    The workers' ResultTable is one: naming only what is read keeps this package below the
    workers (DESIGN §1).
    """

    @property
    def title(self) -> str: ...

    @property
    def columns(self) -> list[str]: ...

    @property
    def labels(self) -> list[str]:
        """Each column's heading in words: a chart's axis titles."""
        ...

    @property
    def roles(self) -> list[Any]:
        """Each column's role (key, period, figure …); empty for a table no query made."""
        ...

    @property
    def rows(self) -> list[list[Any]]: ...

    @property
    def query(self) -> dict[str, Any] | None: ...
