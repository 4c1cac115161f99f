"""The next item of a kind after each place, from one table a list: the reader asks what follows
a word at every word, and a table answers in constant time however long the question is.

    >>> words = Following(["the", "TEU", "of", "total"], str.isupper)
    >>> words.after(-1), words.after(1)
    (1, None)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

Item = TypeVar("Item")


class Following(Generic[Item]):
    def __init__(self, items: Sequence[Item], kind: Callable[[Item], bool]) -> None:
        self.items = items
        # firsts[k]: the first place at or after k whose item is of the kind
        self.firsts: list[int | None] = [None] * (len(items) + 1)
        for k in range(len(items) - 1, -1, -1):
            self.firsts[k] = k if kind(items[k]) else self.firsts[k + 1]

    def after(self, i: int) -> int | None:
        """The first place after `i` whose item is of the kind."""
        return self.firsts[i + 1] if -1 <= i < len(self.items) else None
