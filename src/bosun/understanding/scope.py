"""Rules for scope words (issue 34): whether a question asks one figure over every group or one
figure per group, said explicitly rather than left to whichever rule reads a field's noun first.

    "median transit time across all ports"          → no grouping; pooled [port_of_unlading]
    "Maersk and MSC into Savannah, respectively"   → one row per carrier (their comparison)
    "among Maersk, MSC and CMA CGM, which …"        → filtered to them, grouped by carrier
    "among kitchen products, which sold the most"   → filtered to kitchen, grouped by product
    "Of the carriers into Seattle, which …"         → as "among the carriers …": by carrier
    "the largest single shipment by TEU"            → shipments sorted by TEU, the top one

The words are en.yaml's `scope`; a field is the catalog's.
"""

from __future__ import annotations

from typing import Literal

from bosun.understanding.bounds import Reader, measure_field
from bosun.understanding.grammar import Tag
from bosun.understanding.meaning import Meaning
from bosun.understanding.rulekit import ComposerView
from bosun.understanding.tagger import Span, is_plural


def pooled(spans: list[Span], c: ComposerView, meaning: Meaning) -> None:
    """ "across all ports", "for all carriers": one figure over every value of the field named
    after the scope word, kept in `pooled` so the reading says so; the noun is not a grouping."""
    for i, span in enumerate(spans):
        j = _pooled_noun(spans, i, c)
        if j is None:
            continue
        field = c.dimension(spans[j])
        if field is not None and field not in meaning.pooled:
            meaning.pooled.append(field)
        # "across all shipments": the records themselves, already one figure
        if field is not None or spans[j].has("record"):
            span.used = spans[j].used = True


def separate(spans: list[Span], c: ComposerView, meaning: Meaning) -> None:
    """ "Maersk and MSC, respectively": a figure for each value named together, which their
    comparison already groups; with nothing grouped the word is left for the report."""
    if not (meaning.compare or meaning.group_by):
        return
    for span in spans:
        span.used = span.used or "separate" in span.values("scope")


def opening_among(spans: list[Span], opening: list[str]) -> None:
    """ "Of the carriers into Seattle in 2025, which was the busiest?": an `opening` word that
    starts the question (after filler) is also read as "among", a grouping named before the
    question word; where `among` finds no field after it, it stays the word it was."""
    first = next((s for s in spans if not s.has("filler")), None)
    if first is not None and first.key in opening:
        first.tags = [*first.tags, Tag("scope", "among")]  # a new list: the tagged spans share it


def among(spans: list[Span], c: ComposerView, meaning: Meaning) -> None:
    """ "among Maersk, MSC and CMA CGM, which …": several values of one field after "among" group
    by that field (their names already filter); "among kitchen products": the noun after the values
    groups. One value and a record noun ("among Yang Ming shipments") only filters."""
    for i, span in enumerate(spans):
        if "among" not in span.values("scope"):
            continue
        field = _field_among(spans, i, c, meaning)
        if field is None:
            continue
        if field not in meaning.group_by:
            meaning.group_by.append(field)
        span.used = True
        # "among A, B and C, which …": one of them, unless the question says how many
        if c.wh_plural is None:
            c.wh_plural = False


def _pooled_noun(spans: list[Span], i: int, c: ComposerView) -> int | None:
    """The place of the unread noun after an unread "across all" at `i`."""
    if spans[i].used or "pooled" not in spans[i].values("scope"):
        return None
    j = c.after(spans, i)
    return None if j is None or spans[j].used else j


def _field_among(spans: list[Span], at: int, c: ComposerView, meaning: Meaning) -> str | None:
    """The field the values or the noun after position `at` name: the noun's, or the one field of
    two or more values."""
    named: list[tuple[str, object]] = []
    for span in spans[at + 1 :]:
        value = span.has("name") or span.has("value")
        noun = None if value or span.used else c.dimension(span)
        if noun is not None:
            span.used = True
            return noun
        if not (value or c.glue(span) or span.has("conj")):
            break
        named += _values_of(span, meaning)
    fields = {name for name, _ in named}
    return fields.pop() if len(fields) == 1 and len(set(named)) > 1 else None


def _values_of(span: Span, meaning: Meaning) -> list[tuple[str, object]]:
    """The (field, value) pairs a name or a vocabulary word says."""
    if span.has("name"):
        return [(e.field, e.value) for e in meaning.entities if e.term == span.text]
    return [(name, value) for name, value in span.values("value")]


def ranked_records(spans: list[Span], c: Reader, meaning: Meaning) -> None:
    """ "the largest single shipment by TEU", "top 3 shipments by TEU": the records ranked by a
    measure field (sorted, the top N kept), not one total or maximum of it."""
    for i, span in enumerate(spans):
        if span.used or not span.has("rank"):
            continue
        found = _record_by_measure(spans, i + 1, c)
        if found is None:
            continue
        count, record, measured = found
        direction: Literal["asc", "desc"] = "desc" if span.value("rank") == "desc" else "asc"
        meaning.sort = [(measured, direction)]
        meaning.top_n = _how_many(spans, count, record, c)
        for at in range(i, record + 3):
            spans[at].used = True
        return


def _record_by_measure(spans: list[Span], at: int, c: Reader) -> tuple[int | None, int, str] | None:
    """After a ranking word: (its number's place, the record noun's place, the measure field) of
    "3 shipments by TEU", "single shipment by TEU"; None when the words are not so."""
    count = at if at < len(spans) and spans[at].has("number") else None
    record = at + 1 if count is not None else at
    if not _record_ranked_by(spans, record, c):
        return None
    measured = measure_field(spans[record + 2], c)
    return None if measured is None else (count, record, measured)


def _record_ranked_by(spans: list[Span], record: int, c: Reader) -> bool:
    """ "shipments by" at `record`, before a third word; not "top 2 pizzas by revenue" where a
    pizza's name is a field: the pizzas are groups, not rows."""
    if record + 2 >= len(spans) or spans[record].has("field"):
        return False
    return spans[record].has("record") and spans[record + 1].key in c.grammar.scope.ranked_by


def _how_many(spans: list[Span], count: int | None, record: int, c: Reader) -> int:
    """The number said, else one for a singular noun ("the largest shipment"), else the default."""
    if count is not None:
        return max(1, int(spans[count].value("number")))
    if is_plural(spans[record]):
        return c.catalog.spec.defaults.top_n
    return 1
