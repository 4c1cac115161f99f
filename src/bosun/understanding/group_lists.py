"""Groupings listed after one cue: "by quarter and container type", "per carrier and month". The
cue's first grouping is read by compose's `grouping`; each one joined to it by a conjunction is
the cue's too, a period as the interval and a field as a further grouping.

>>> from bosun.catalog import load_catalog
>>> from bosun.understanding.rules import RulesUnderstanding
>>> from datetime import date
>>> rules = RulesUnderstanding(load_catalog(None))
>>> both = rules.analyze("TEU by quarter and container type", date(2026, 6, 15))
>>> both.interval, both.group_by, both.not_understood
('quarter', ['container_type'], [])
"""

from __future__ import annotations

from typing import Protocol

from bosun.understanding.meaning import Meaning
from bosun.understanding.tagger import Span


class Composer(Protocol):
    """What this rule uses of compose's Composer (which calls it)."""

    def after(self, spans: list[Span], i: int) -> int | None: ...
    def dimension(self, span: Span, meaning: Meaning | None = None) -> str | None: ...


def listed_groupings(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """Each grouping a conjunction joins to one already read ("and container type")."""
    for i, span in enumerate(spans):
        if not span.has("conj") or span.used or not _grouping(spans, i - 1, c, meaning):
            continue
        j = c.after(spans, i)
        if j is not None and not spans[j].used and _read(spans[j], c, meaning):
            span.used = spans[j].used = True


def _grouping(spans: list[Span], at: int, c: Composer, meaning: Meaning) -> bool:
    """The span at `at` was read as a grouping: the interval, or a field grouped by."""
    if at < 0 or not spans[at].used:
        return False
    unit = spans[at].value("interval_unit")
    if unit is not None:
        return unit == meaning.interval
    return c.dimension(spans[at]) in meaning.group_by


def _read(target: Span, c: Composer, meaning: Meaning) -> bool:
    """`target` as a further grouping: the period when none is read yet, or a field."""
    unit = target.value("interval_unit")
    if unit is not None and meaning.interval is None:
        meaning.interval = unit
        return True
    field = c.dimension(target, meaning)
    if unit is not None or field is None or field in meaning.group_by:
        return False
    meaning.group_by.append(field)
    return True
