"""A unit said before a measure it counts ("years of education", "hours of work", "days in
hospital"): the unit says how the measure is counted, not a period to group by or a date. The
words are en.yaml's `measured_in` (the units) and `measured_joins` ("of", "in"); the coverage audit
reads the unit as the rules do.

    "average years of education" → the average of the education field, "years" read
    "hours of work per week"     → the work field per week; "per week" stays a grouping
"""

from __future__ import annotations

from collections.abc import Callable

from bosun.understanding.bounds import Reader, measure_field
from bosun.understanding.grammar import Grammar
from bosun.understanding.meaning import Meaning
from bosun.understanding.tagger import Span


def units_before(
    spans: list[Span], grammar: Grammar, measured: Callable[[Span], bool]
) -> list[int]:
    """Where a unit word stands before a join and a span that `measured` accepts.

    >>> from bosun.understanding.grammar import english
    >>> said = [Span(0, 1, "years", "years"), Span(1, 2, "of", "of"), Span(2, 3, "educ", "educ")]
    >>> units_before(said, english(), lambda span: span.key == "educ")
    [0]
    """
    return [i for i in range(len(spans)) if _unit_at(spans, i, grammar, measured)]


def _unit_at(spans: list[Span], i: int, grammar: Grammar, measured: Callable[[Span], bool]) -> bool:
    if i + 2 >= len(spans) or spans[i].key not in grammar.measured_in:
        return False
    return spans[i + 1].key in grammar.measured_joins and measured(spans[i + 2])


def counts_measure(spans: list[Span], i: int, c: Reader) -> bool:
    """The span at i is a unit a measure field is counted in ("years" of "years of education"):
    an aggregation word before it is the measure's ("average years of education"). A field with a
    unit of its own is counted only in that one: "hours of transit" are no transit days."""
    return _unit_at(spans, i, c.grammar, lambda span: _counted_in(span, spans[i].key, c))


def _counted_in(span: Span, unit: str, c: Reader) -> bool:
    name = measure_field(span, c)
    if name is None:
        return False
    own = c.catalog.record.fields[name].unit
    return own is None or own.lower() in (unit, f"{unit}s")


def units_of_measures(spans: list[Span], c: Reader, meaning: Meaning) -> None:
    """A unit word, a join and a measure field: the unit and the join are read with the field
    (which the measure rules read later)."""
    for i in range(len(spans)):
        if counts_measure(spans, i, c) and not spans[i + 2].used:
            spans[i].used = spans[i + 1].used = True
