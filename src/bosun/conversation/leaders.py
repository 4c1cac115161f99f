"""The groups a ranking cut off (issue 36): "rank the carriers by average transit" shows the top
10 carriers the catalog's default number keeps, but "the fastest one" is the carrier lowest of all,
which those 10 may leave out. The end a ranking cut off is asked of the data (the same query,
ranked the other way, its first group); when it is not among the rows shown, the turn's leaders
name it and its rows count as cut, so that "which of them …" ranks all the groups, not the page.
A ranking whose number the question said ("the top 5") keeps its rows: "the smallest one" is of
those."""

from __future__ import annotations

import logging
from typing import Any

from bosun import query
from bosun.errors import BosunError
from bosun.understanding import Meaning
from bosun.understanding.grammar import english
from bosun.understanding.names import normalize
from bosun.understanding.reading import AnswerRows
from bosun.workers.context import Context

log = logging.getLogger(__name__)


def far_end(meaning: Meaning | None, context: Context) -> Any:
    """The group a ranking cut to the catalog's default number, not one the question said, puts
    last of all (None for any other answer, or when the data cannot say)."""
    if meaning is None or not _cut(meaning, context.catalog.spec.defaults.top_n):
        return None
    other = "asc" if meaning.order == "desc" else "desc"
    flipped = meaning.model_copy(update={"order": other, "top_n": 1})
    compiled = query.compile(flipped, context.catalog)
    try:
        response = context.engine.search(compiled.index, compiled.body)
    except BosunError as exc:  # the answer's own rows still name an end
        log.warning("the far end of a ranking could not be read: %s", exc)
        return None
    table = query.tabulate(compiled, response, context.catalog)
    return table.key(table.rows[0]) if table.rows else None


def leaders_of_all(shown: list[Any], far: Any, meaning: Meaning | None) -> list[Any]:
    """[highest, lowest] on the first figure: `shown`, the answer's own, with the end its ranking
    cut off replaced by `far`, the group the data ranks there."""
    if far is None or meaning is None or len(shown) != 2:
        return shown
    highest, lowest = shown
    return [highest, far] if meaning.order == "desc" else [far, lowest]


def cut_short(rows: AnswerRows | None, far: Any) -> AnswerRows | None:
    """The answer's rows, counted as cut (more groups than kept) when `far` is not among them."""
    if rows is None or far is None or far in rows.keys:
        return rows
    return rows.model_copy(update={"total": max(rows.total, len(rows.keys) + 1)})


def _cut(meaning: Meaning, default: int | None) -> bool:
    """A ranking of the groups of one field that kept only the first `default` of them, a number
    the question did not say ("the top carrier" keeps one by its words)."""
    plain = not (meaning.interval or meaning.steps or meaning.periods or meaning.compare)
    by_default = meaning.top_n is not None and meaning.top_n == default and not _numbered(meaning)
    return by_default and len(meaning.group_by) == 1 and plain


def _numbered(meaning: Meaning) -> bool:
    """The question said how many groups to keep ("top 5", "the ten busiest"), in digits or words.

    >>> _numbered(Meaning(text="top 5 ports by TEU", index="s", top_n=5))
    True
    >>> _numbered(Meaning(text="rank the carriers by TEU", index="s", top_n=10))
    False
    """
    numbers = english().numbers
    words = normalize(meaning.text).split()
    said = {float(w) for w in words if w.isdigit()} | {numbers[w] for w in words if w in numbers}
    return meaning.top_n in said
