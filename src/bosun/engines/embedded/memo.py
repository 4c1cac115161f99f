"""Composite groups computed once for every page a client reads (see composite.py)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

# rows (keys..., count), metrics
Groups = tuple[list[tuple[Any, ...]], dict[str, dict[tuple[Any, ...], Any]]]


class PageMemo:
    """The groups of recent composite aggregations, by what they group over.

    A client pages through a composite with one request per page, and each page would group every
    row again: at 1M rows, 14 pages were 14 full GROUP BYs where one gives every page. The first
    page keeps its groups (at most `rows` of them) and the next pages are read from them. A data
    load forgets its index's groups.
    """

    def __init__(self, entries: int = 16, rows: int = 10_000) -> None:
        self.entries, self.rows = entries, rows
        self._kept: OrderedDict[tuple[Any, ...], Groups] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> Groups | None:
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def put(self, key: tuple[Any, ...], groups: Groups) -> None:
        with self._lock:
            self._kept[key] = groups
            self._kept.move_to_end(key)
            while len(self._kept) > self.entries:
                self._kept.popitem(last=False)

    def forget(self, table: str) -> None:
        """Drop every group of `table` (its first key element)."""
        with self._lock:
            for key in [k for k in self._kept if k[0] == table]:
                del self._kept[key]
