"""Bounds bind to a measure of their unit (issue 37): "diamonds over 10000 dollars" bounds the
price, not the carat named before it, since dollars are money and a carat is none; a bound whose
unit fits no measure is said as not understood. A measure verb with a bare number is an equality
on the measure the verb asks of: "tracks that cost 1.99", "priced at 0.99", "weighing 12 kg".

A measure fits a unit written with the number ("$", "dollars", "tons", "days") when its catalog
unit is that unit, or, with no unit, when a word of its name is a word of things counted in it (the
grammar's `measure_kinds.unit_words`: "price", "cost" for USD, "weight" for kg). A unit written
that neither the grammar nor the catalog knows ("3 widgets") binds as before.

    >>> bound_field(spans("average carat of diamonds over 10000 dollars"), 4, 5, None, "dollars", c)
    ... # doctest: +SKIP
    'price'
"""

from __future__ import annotations

from typing import Protocol

from bosun.understanding.bounds import Reader, field_of_unit, measure_field, written_unit
from bosun.understanding.meaning import Condition, Meaning
from bosun.understanding.names import normalize
from bosun.understanding.tagger import Span

_VERB_REACH = 3  # how far a measure verb's number may follow it, in spans ("cost $ 1.99")


class Saying(Reader, Protocol):
    """A reader that also collects what it could not bind, to be said as not understood."""

    said: list[str]


def bound_field(
    spans: list[Span], i: int, at: int, hint: str | None, written: str, c: Reader
) -> str | None:
    """The measure field a bound at operator i with its number at `at` binds to: the one an
    adjective names, else one named after the number, of the written unit, or before the operator,
    the first of them that fits the written unit; else the one measure of that unit."""
    named = [
        hint,
        _named_after(spans, at, c),
        field_of_unit(written, c),
        _named_before(spans, i, c),
    ]
    unit = unit_of(written, c) or _verb_unit(spans, i)
    if hint and not fits(hint, unit, written, c):
        return None  # "heavier than 5000 dollars": the adjective's measure is in no such unit
    fitting = [name for name in named if name and fits(name, unit, written, c)]
    chosen = fitting[0] if fitting else _one_of_unit(unit, written, c)
    if chosen is not None and chosen not in named[:3]:  # the words before name it alone
        _read_before(spans, i, c, chosen)
    if chosen is not None:
        _read_verb(spans, i)
    return chosen


def unit_of(written: str, c: Reader) -> str | None:
    """The catalog unit a written unit converts to ("dollars" → USD), or a field's own unit written
    ("TEU"); None when nothing was written or nothing knows it."""
    if not written:
        return None
    converted = c.grammar.units.get(written)
    if converted:
        return converted[0]
    units = {s.unit for s in c.catalog.record.fields.values() if s.unit}
    return next((u for u in units if u.lower() in (written, written.removesuffix("s"))), None)


def fits(name: str, unit: str | None, written: str, c: Reader) -> bool:
    """Whether the measure field `name` is counted in `unit` (any field fits when none is known).

    With no unit of its own, a field fits by a word of its name: "price" is money, "carat" no
    weight in kg (a carat is a fifth of a gram, and the catalog does not say it converts)."""
    spec = c.catalog.record.fields[name]
    if unit is None:
        return True
    if spec.unit:
        return spec.unit == unit or spec.unit.lower() in (written, written.removesuffix("s"))
    counted = c.grammar.measure_kinds.unit_words.get(unit, [])
    said = {normalize(w) for w in [name.replace("_", " "), *spec.synonyms]}
    words = {word for phrase in said for word in phrase.split()} | said
    return bool(words & {normalize(w) for w in counted})


def _one_of_unit(unit: str | None, written: str, c: Reader) -> str | None:
    if unit is None:
        return None
    measures = [n for n, s in c.catalog.record.fields.items() if s.role == "measure"]
    fitting = [n for n in measures if fits(n, unit, written, c)]
    return fitting[0] if len(fitting) == 1 else None


def _named_after(spans: list[Span], at: int, c: Reader) -> str | None:
    """The measure field named just after the number ("30 days in transit"), not yet read."""
    for span in spans[at + 1 : at + 4]:
        name = measure_field(span, c)
        if name:
            return name
    return None


def _named_before(spans: list[Span], i: int, c: Reader) -> str | None:
    """The measure field named in the three words before the operator, glue not counted."""
    near = [s for s in reversed(spans[:i]) if not c.glue(s)][:3]
    return next((name for s in near if (name := measure_field(s, c))), None)


def _read_before(spans: list[Span], i: int, c: Reader, name: str) -> None:
    near = [s for s in reversed(spans[:i]) if not c.glue(s)][:3]
    found = next((s for s in near if measure_field(s, c) == name), None)
    if found is not None:
        found.used = True


def _verb_unit(spans: list[Span], i: int) -> str | None:
    """The unit a measure verb just before the operator asks in ("tracks costing more than 1")."""
    verb = _verb_before(spans, i)
    return str(verb.value("value_verb")) if verb is not None else None


def _verb_before(spans: list[Span], i: int) -> Span | None:
    return next((s for s in spans[max(0, i - 2) : i] if s.has("value_verb")), None)


def _read_verb(spans: list[Span], i: int) -> None:
    verb = _verb_before(spans, i)
    if verb is not None:
        verb.used = True


def measure_equalities(spans: list[Span], c: Saying, meaning: Meaning) -> None:
    """ "tracks that cost 1.99", "weighing 12 kg": a measure verb, or a measure's word with a
    number in its unit, then a bare number (past "at", "$"), is that measure equal to the number;
    a verb's unit with no one measure of it is said."""
    for i, span in enumerate(spans):
        at = None if span.used else _bare_number(spans, i, c)
        if at is None:
            continue
        written, unit_at = written_unit(spans, at)
        name = _equated(span, written, c)
        if name is None and not span.has("value_verb"):
            continue  # "TEU 2024": a measure's word and a number of something else
        ends = max(at, unit_at or at)
        for s in spans[i : ends + 1]:
            s.used = True
        if name is None:
            c.said.append(" ".join(s.text for s in spans[i : ends + 1]))
            continue
        value = _in_field_unit(float(spans[at].value("number")), written, name, c)
        meaning.conditions.append(Condition(field=name, source=span.text, gte=value, lte=value))


def _equated(span: Span, written: str, c: Reader) -> str | None:
    """The measure a verb asks in its unit (or the written one), or the measure a word names when
    the number's written unit fits it ("weighing 12 kg")."""
    if span.has("value_verb"):
        asked = unit_of(written, c) or str(span.value("value_verb"))
        return _one_of_unit(asked, written, c)
    named = measure_field(span, c)
    unit = unit_of(written, c)
    return named if named and unit and fits(named, unit, written, c) else None


def _in_field_unit(value: float, written: str, name: str, c: Reader) -> float:
    """ "12 tons" of a field in kg is 12000."""
    unit, factor = c.grammar.units.get(written, ("", 1.0))
    return value * factor if unit and unit == c.catalog.record.fields[name].unit else value


def _bare_number(spans: list[Span], i: int, c: Reader) -> int | None:
    """Where a number not yet read follows the verb, past glue and a currency sign only."""
    for j in range(i + 1, min(len(spans), i + 1 + _VERB_REACH)):
        span = spans[j]
        if span.has("number") and not span.used:
            return j
        if not (c.glue(span) or span.has("currency")):
            return None
    return None
