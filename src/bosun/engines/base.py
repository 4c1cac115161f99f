"""The one interface every engine implements: Elasticsearch query DSL in, ES response shape out."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pyarrow as pa

    from bosun.engines.staged import StagedRows


Body = dict[str, Any]
Response = dict[str, Any]


class Engine(ABC):
    """Where the data lives. Implementations must be safe to call from parallel threads."""

    kind: str = "abstract"

    @abstractmethod
    def search(self, index: str, body: Body) -> Response:
        """Run a search request; answer exactly as Elasticsearch's _search would."""

    @abstractmethod
    def count(self, index: str, body: Body | None = None) -> int:
        """Number of documents matching body's `query` (all documents when None)."""

    @abstractmethod
    def mapping(self, index: str) -> dict[str, Any]:
        """The index mapping as Elasticsearch returns it under `mappings`: {"properties": {...}}."""

    @abstractmethod
    def indices(self) -> list[str]:
        """Names of the indices this engine holds, sorted."""

    @abstractmethod
    def bulk_load(
        self, index: str, table: pa.Table, mapping: dict[str, Any], id_field: str | None = None
    ) -> int:
        """Replace `index` with the rows of `table` under `mapping`; return the number loaded.

        Not reachable by the agent: guarded engines refuse it.
        """

    def load_staged(self, index: str, staged: StagedRows, mapping: dict[str, Any]) -> int:
        """Replace `index` with staged rows (`bosun data load`); an engine that can copies them
        without Python."""
        return self.bulk_load(index, staged.to_arrow(), mapping)

    def open_point_in_time(self, index: str, keep_alive: str) -> str | None:
        """A point in time on `index`: one view of it that searches page through (a body's `pit`,
        kept `keep_alive` longer at each use), or None where the engine has none (search_after on a
        stable sort pages it alone)."""
        return None

    def close_point_in_time(self, pit_id: str) -> None:  # noqa: B027 - optional hook
        """Release a point in time before it expires."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release connections and files."""
