"""A bare number bounding the records themselves ("people over 60", "women under 30"): a bound on
the field the catalog names for it (`defaults.bound_field`: a person's age, which `catalog init`
drafts where rows are people). With no such field, or a measure or unit after the number ("people
over 60 visits"), the thresholds rule reads it as before.

    "how many people over 60 were out of work" → age > 60 and outwork = 1
"""

from __future__ import annotations

from bosun.understanding.bounds import Reader, measure_field
from bosun.understanding.meaning import Condition, Meaning
from bosun.understanding.tagger import Span

# a threshold's operator → the bounds of a condition it sets
_BOUNDS: dict[str, tuple[str, ...]] = {
    "gt": ("gt",),
    "gte": ("gte",),
    "lt": ("lt",),
    "lte": ("lte",),
    "eq": ("gte", "lte"),
}


def record_bounds(spans: list[Span], c: Reader, meaning: Meaning) -> None:
    """The records' noun (or a value naming them), a threshold word and a bare number: the
    catalog's bound field within that bound."""
    bound = c.catalog.spec.defaults.bound_field
    if bound is None:
        return
    for i in range(1, len(spans) - 1):
        operator, number = spans[i], spans[i + 1]
        if not (_bare_bound(spans, i, c) and _names_records(spans[i - 1], c)):
            continue
        value = float(number.value("number"))
        limits = {limit: value for limit in _BOUNDS[operator.value("threshold")]}
        meaning.conditions.append(Condition(field=bound, source=operator.text, **limits))
        operator.used = number.used = True


def _bare_bound(spans: list[Span], i: int, c: Reader) -> bool:
    """A threshold word and a number at i, unread, with no measure or unit after the number."""
    operator, number = spans[i], spans[i + 1]
    unread = not (operator.used or number.used)
    known = operator.value("threshold") in _BOUNDS and number.has("number")
    return unread and known and not _measured(spans[i + 2 : i + 3], c)


def _measured(after: list[Span], c: Reader) -> bool:
    """The span after a number is a unit or a measure ("over 60 visits"): the number is its."""
    return any(span.has("unit") or measure_field(span, c) is not None for span in after)


def _names_records(span: Span, c: Reader) -> bool:
    """The rows' own noun, a word the count of rows is asked by ("people"), or a value naming
    some of them ("women")."""
    counted = c.catalog.spec.defaults.measure in span.values("measure")
    return span.has("record") or counted or span.has("value")
