"""Composition rules of the measure kinds (issue 23): the first or last date of something, medians
and percentiles, and shares. `compose` calls each at its place; the words are en.yaml's
`measure_kinds`, the measures the catalog's.
"""

from __future__ import annotations

import re
from typing import Protocol

from bosun.catalog import Catalog
from bosun.understanding.grammar import Grammar
from bosun.understanding.meaning import Condition, Meaning, Measure, Share
from bosun.understanding.phrases import field_name
from bosun.understanding.tagger import Span, read, without_possessive


class Composer(Protocol):
    """What these rules use of compose's Composer (which calls them)."""

    catalog: Catalog
    grammar: Grammar

    def glue(self, span: Span) -> bool: ...
    def before(self, spans: list[Span], i: int, limit: int = 3) -> int | None: ...
    def role(self, name: str) -> str: ...
    def fields_of(self, span: Span, role: str) -> list[str]: ...
    def field_measure(self, name: str, agg: str | None = None) -> Measure: ...
    def default_measure(self) -> Measure: ...
    def unaggregated(self, label: str) -> str: ...


_NEAR = 6  # how far a measure or date may follow the word that asks for it, in spans


# -- the first or last date of something
# -------------------------------------------------------------
def first_last(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "the date of the latest reefer arrival at Savannah", "when did the last Maersk shipment
    arrive": the maximum (or minimum) of the date field, with the filters. Asked by a date word
    ("date", "when") or by the date field itself ("last departure date", "latest ETA"); "the latest
    5 arrivals" lists records instead."""
    for i, span in enumerate(spans):
        agg = _extreme(span)
        if agg is None or span.used or _counted(spans, i):
            continue
        found = _date_after(spans, i, c)
        if found is None:
            continue
        at, name, is_field = found
        cues = [s for s in spans if s.unread("dated")]
        if not (is_field or cues):
            continue
        meaning.measures.append(c.field_measure(name, agg))
        read([span, *cues, *([spans[at]] if at >= 0 else [])])
        return


def _extreme(span: Span) -> str | None:
    """ "latest", "most recent", "last" → max; "earliest", "first" → min."""
    recency = span.value("recency")
    if recency is not None:
        return "max" if recency == "desc" else "min"
    ordinal = span.value("ordinal")
    if ordinal in (1, -1):
        return "min" if ordinal == 1 else "max"
    aggs = [a[0] for a in span.values("agg") if a[0] in ("min", "max")]
    return aggs[0] if aggs else None


def _counted(spans: list[Span], i: int) -> bool:
    """ "the latest 5 arrivals": a number of records, not a date."""
    return i + 1 < len(spans) and spans[i + 1].has("number")


def _date_after(spans: list[Span], i: int, c: Composer) -> tuple[int, str, bool] | None:
    """(where, the date field, named as the date itself) of the first date word after i, through
    names, values and record nouns; the default date field when the record noun comes with none
    ("the last order from X"). "departure date" names the date itself; "arrival" names the event, so
    "the first arrival" needs "when"."""
    record = False
    for j in range(i + 1, min(len(spans), i + 1 + _NEAR)):
        named = _date_named(spans[j], c)
        if named is not None:
            return j, *named
        record = record or spans[j].has("record")
        if not (spans[j].has("name", "value", "record") or c.glue(spans[j])):
            break
    return (-1, c.catalog.spec.time.default_field, False) if record else None


def _date_named(span: Span, c: Composer) -> tuple[str, bool] | None:
    """(the date field, named as the date itself) of a date word: "departure date" names the
    date, "arrival" the event."""
    fields = c.fields_of(span, "date")
    words = span.values("date_word")
    if not (fields or words):
        return None
    return (fields or words)[0], bool(fields) and not words


# -- distinct counts of attributes ---------------------------------------------------------------
def distinct_attributes(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "number of different voyages per vessel", "how many unique voyages": a count of the values
    of a field nobody groups by (an attribute), after `distinct` has read those of the dimensions.
    """
    for i, span in enumerate(spans):
        if span.used or "cardinality" not in [a[0] for a in span.values("agg")]:
            continue
        j = next((k for k in range(i + 1, len(spans)) if not c.glue(spans[k])), None)
        if j is None or spans[j].used:
            continue
        fields = [f for f in spans[j].values("field") if c.role(f) in ("attribute", "identifier")]
        if not fields:
            continue
        label = f"{c.grammar.aggregation_labels['cardinality']} {spans[j].key}"
        meaning.measures.append(
            Measure(name=f"distinct_{fields[0]}", agg="cardinality", field=fields[0], label=label)
        )
        span.used = spans[j].used = True


# -- medians and percentiles -----------------------------------------------------------------------
def percentiles(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "median weight of a reefer shipment", "90th percentile of transit time", "p95 declared
    value": the percentile of the measure named next; several ask side by side ("median and 90th
    percentile transit time")."""
    for i in range(len(spans)):
        asked = _percent(spans, i, c)
        if asked is None:
            continue
        percent, taken = asked
        at = _measure_after(spans, i, c)
        if at is None:
            continue
        field = _measure_field(spans[at], c)
        assert field is not None
        meaning.measures.append(percentile_measure(c, field, percent))
        read([*taken, spans[at]])


def _percent(spans: list[Span], i: int, c: Composer) -> tuple[float, list[Span]] | None:
    """Which percentile span i asks, and the spans that say it: "median", "90th percentile", "95
    pct", "p90"."""
    span = spans[i]
    if span.used:
        return None
    if span.has("median"):
        return float(span.value("median")), [span]
    glued = _prefixed(span.key, c)
    if glued is not None:
        return glued, [span]
    if not span.has("percentile") or i == 0:
        return None
    number = _ordinal_number(spans[i - 1], c)
    return (number, [spans[i - 1], span]) if number is not None and 0 < number < 100 else None


def _prefixed(key: str, c: Composer) -> float | None:
    """ "p90" → 90."""
    prefixes = "|".join(re.escape(p) for p in c.grammar.measure_kinds.percentile_prefixes)
    match = re.fullmatch(rf"(?:{prefixes})(\d{{1,2}}(?:\.\d+)?)", key)
    return float(match.group(1)) if match else None


def _ordinal_number(span: Span, c: Composer) -> float | None:
    """ "90th", "95", "99th" → the number."""
    if span.has("number"):
        return float(span.value("number"))
    suffixes = "|".join(re.escape(s) for s in c.grammar.measure_kinds.ordinal_suffixes)
    match = re.fullmatch(rf"(\d{{1,2}})(?:{suffixes})", span.key)
    return float(match.group(1)) if match else None


def _measure_after(spans: list[Span], i: int, c: Composer) -> int | None:
    """The first span after i naming a measure field, past glue, conjunctions and other percentile
    words."""
    for j in range(i + 1, min(len(spans), i + 1 + _NEAR)):
        if _measure_noun(spans, j, c):
            return j
        passable = c.glue(spans[j]) or spans[j].has("conj", "percentile", "median", "record")
        if not (passable or _ordinal_number(spans[j], c) is not None):
            return None
    return None


def percentile_measure(c: Composer, field: str, percent: float) -> Measure:
    named = next(
        (n for n, m in c.catalog.spec.measures.items() if m.field == field and not m.share), None
    )
    label = (
        c.unaggregated(c.catalog.spec.measures[named].label)
        if named
        else field_name(field, c.catalog)
    )
    words = c.grammar.measure_kinds
    template = words.median_label if percent == 50 else words.percentile_label
    shown = f"{percent:g}"
    return Measure(
        name=f"p{shown}_{field}",
        agg="percentile",
        field=field,
        percent=percent,
        label=template.format(measure=label, percent=shown),
        unit=c.catalog.record.fields[field].unit,
    )


def _measure_field(span: Span, c: Composer) -> str | None:
    """The record field a measure word or a measure field's word names ("weight", "transit
    time")."""
    for name in span.values("measure"):
        measured = c.catalog.spec.measures[name].field
        if measured:
            return measured
    return next((f for f in span.values("field") if c.role(f) == "measure"), None)


# -- several measures side by side ---------------------------------------------------------------
def side_by_side(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "shipments, TEU and average transit time for each port", "Maersk and MSC side by side on
    boxes, weight and declared value": measures of one grouping are one table, a column each, in the
    order named; the record noun in such a list is their count. Two sides of a difference are
    columns as a grouping's rows are ("difference in TEU and shipments between Maersk and MSC")."""
    sides = any(step.kind == "difference" for step in meaning.steps)
    if not (meaning.group_by or meaning.interval or sides):
        return
    # a grouping made after `records_or_count` (a comparison): one table, not goals apart
    meaning.beside = []
    for i, span in enumerate(spans):
        counted = c.catalog.spec.defaults.measure in span.values("measure") and span.has("record")
        if (
            counted
            and _listed(spans, i, c)
            and all(m.agg != "count" or m.field for m in meaning.measures)
        ):
            first = all(_measure_field(s, c) is None for s in spans[:i])
            meaning.measures.insert(0 if first else len(meaning.measures), c.default_measure())
            span.used = True
            return


def _listed(spans: list[Span], i: int, c: Composer) -> bool:
    """A noun in a list of measures: a measure next to it past a conjunction or a comma ("shipments,
    TEU and …", "weight and shipments"), not one it qualifies ("average shipment weight")."""
    for step in (1, -1):
        j, joined = _past_joins(spans, i, step, c)
        if _measure_noun(spans, j, c) and (joined or _apart(spans[i], spans[j])):
            return True
    return False


def _past_joins(spans: list[Span], i: int, step: int, c: Composer) -> tuple[int, bool]:
    """The place past the glue and conjunctions next to i, going `step` (1 right, -1 left), and
    whether a conjunction was among them."""
    j, joined = i + step, False
    while 0 <= j < len(spans) and (c.glue(spans[j]) or spans[j].has("conj")):
        joined = joined or spans[j].has("conj")
        j += step
    return j, joined


def _measure_noun(spans: list[Span], j: int, c: Composer) -> bool:
    """There is a span at j and it names a measure, not the records."""
    return (
        0 <= j < len(spans)
        and _measure_field(spans[j], c) is not None
        and not spans[j].has("record")
    )


def _apart(one: Span, other: Span) -> bool:
    """Something stands between two spans' words: a comma or a semicolon."""
    left, right = sorted((one, other), key=lambda s: s.start)
    return right.start - left.end > 1


# -- shares --------------------------------------------------------------------------------------
def shares(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "what share of reefer boxes went to Savannah": the boxes to Savannah (the part) over every
    reefer box (the whole: the other filters). The part is the value named before the share word
    ("Maersk's share"), else, with no grouping, the last one named after it; with a grouping, one
    named right after the share word or the measure ("percentage held per carrier", "share of each
    carrier's shipments were held"), else each group's share of all groups ("share of TEU by
    carrier")."""
    at = next((i for i, s in enumerate(spans) if _share_word(spans, i)), None)
    if at is None:
        return
    if not meaning.measures:
        meaning.measures.append(c.default_measure())
    measure = meaning.measures[0]
    if measure.share is not None or measure.agg not in ("count", "sum"):
        return
    part = _part(spans, at, c, meaning)
    if part is None and not (meaning.group_by or meaning.interval):
        return
    if part is not None:
        meaning.conditions.remove(part)
        meaning.compare = [f for f in meaning.compare if f != part.field]
    label = c.grammar.measure_kinds.share_label.format(measure=measure.label)
    share = Share(part=[part] if part is not None else [])
    meaning.measures[0] = measure.model_copy(
        update={"share": share, "name": f"share_{measure.name}", "label": label}
    )
    spans[at].used = True


def _share_word(spans: list[Span], i: int) -> bool:
    """A share word, not a symbol glued to the word before it ("Acme%" is a wildcard, "12%" a
    figure)."""
    span = spans[i]
    glued = i > 0 and spans[i - 1].end == span.start and not span.key.isalpha()
    return span.unread("share") and not glued


def _part(spans: list[Span], at: int, c: Composer, meaning: Meaning) -> Condition | None:
    placed = _placed(spans, meaning)
    owner = c.before(spans, at, limit=1)
    if owner in placed and not _measured_before(spans, at, c):
        return placed[owner]
    after = sorted(j for j in placed if j > at)
    grouped = bool(meaning.group_by or meaning.interval)
    # a share word last ("MSC's 2025 TEU, as a percentage"): the last value named before it
    if not after:
        before = sorted(j for j in placed if j < at)
        return placed[before[-1]] if before and not grouped else None
    if not grouped:
        return placed[after[-1]]
    return _part_right_after(spans, at, c, placed)


def _measured_before(spans: list[Span], at: int, c: Composer) -> bool:
    """Records or a measure named before the share word: "Maersk's share of TEU" takes Maersk as
    the part, "the TEU from Shanghai, as a percentage, …" does not."""
    return any(s.has("record") or _measure_field(s, c) is not None for s in spans[:at])


def _part_right_after(
    spans: list[Span], at: int, c: Composer, placed: dict[int, Condition]
) -> Condition | None:
    """With a grouping, the value named right after the share word or its noun: "percentage held
    per carrier", "share of each carrier's shipments were held"."""
    for start in (at, _noun_after(spans, at, c)):
        j = _next_content(spans, start, c) if start is not None else None
        if j in placed:
            return placed[j]
    return None


def _placed(spans: list[Span], meaning: Meaning) -> dict[int, Condition]:
    """Each filter on values or on a bound, at the span that named it ("had a hospital visit" is
    hospital visits above 0, at "had")."""
    placed: dict[int, Condition] = {}
    for condition in meaning.conditions:
        if condition.negate or not (condition.values or _bounded(condition)):
            continue
        source = without_possessive(condition.source)  # "Maersk's" names the span "Maersk"
        j = next(
            (j for j, s in enumerate(spans) if source in (s.text, s.key) and j not in placed), None
        )
        if j is not None:
            placed[j] = condition
    return placed


def _bounded(condition: Condition) -> bool:
    bounds = (condition.gt, condition.gte, condition.lt, condition.lte)
    return any(bound is not None for bound in bounds)


def _noun_after(spans: list[Span], at: int, c: Composer) -> int | None:
    """The measure or record noun a share word is of ("share of each carrier's shipments")."""
    for j in range(at + 1, min(len(spans), at + 1 + _NEAR)):
        if spans[j].has("record", "measure") or _measure_field(spans[j], c) is not None:
            return j
    return None


def _next_content(spans: list[Span], i: int, c: Composer) -> int | None:
    """The next span after i that says something (past filler, function words and "that")."""
    return next((j for j in range(i + 1, len(spans)) if not spans[j].quiet), None)
