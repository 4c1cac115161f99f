"""The number, unit and measure field of a bound ("over $ 1.5 M", "10 days or more", "8 TEU"),
shared by the thresholds on a record's field (compose.py) and on a group's measure (group_steps.py).
"""

from __future__ import annotations

from typing import Protocol

from bosun.catalog import Catalog
from bosun.understanding.grammar import Grammar
from bosun.understanding.tagger import Span


class Reader(Protocol):
    """What reading a bound needs of the composer: the catalog, the grammar, and which spans only
    join."""

    catalog: Catalog
    grammar: Grammar

    def glue(self, span: Span) -> bool: ...

    def role(self, name: str) -> str: ...


def threshold_number(spans: list[Span], i: int, width: int, c: Reader) -> tuple[int, float] | None:
    """The number after the operator ("over $ 1.5 M"), or just before it ("10 days or more");
    scaled."""
    j = i + width
    while (
        j < len(spans)
        and (spans[j].has("currency") or c.glue(spans[j]))
        and not spans[j].has("number")
    ):
        j += 1
    if j >= len(spans) or not spans[j].has("number"):
        j = next((k for k in range(i - 1, max(-1, i - 3), -1) if spans[k].has("number")), -1)
        if j < 0:
            return None
    value = float(spans[j].value("number"))
    if j + 1 < len(spans) and spans[j + 1].has("scale"):
        value *= spans[j + 1].value("scale")
        spans[j + 1].used = True
    return j, value


def written_unit(spans: list[Span], at: int) -> tuple[str, int | None]:
    """The unit written with the number: "$" before it, or "tons", "days" after it (and its
    place)."""
    if at > 0 and spans[at - 1].has("currency"):
        spans[at - 1].used = True
        return "$", None
    for j in range(at + 1, min(len(spans), at + 3)):
        if spans[j].has("unit"):
            return spans[j].key, j
        if spans[j].has("currency"):
            return "$", j
    return "", None


def measure_field(span: Span, c: Reader) -> str | None:
    for name in span.values("measure"):
        measured = c.catalog.spec.measures[name].field
        if measured:
            return measured
    return next((f for f in span.values("field") if c.role(f) == "measure"), None)


def field_of_unit(written: str, c: Reader) -> str | None:
    """The one measure field whose unit is the written one ("8 TEU") or converts from it ("20 tons"
    → kg)."""
    if not written:
        return None
    unit = c.grammar.units.get(written, ("", 1.0))[0]
    fields = [
        n
        for n, s in c.catalog.record.fields.items()
        if s.role == "measure"
        and s.unit
        and (s.unit == unit or s.unit.lower() in (written, written.removesuffix("s")))
    ]
    return fields[0] if len(fields) == 1 else None
