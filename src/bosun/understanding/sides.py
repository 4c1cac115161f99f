"""Two values of one field compared, read as the field's groups (issue 34): "20GP compared with
40GP", "kitchen versus sports", "hazmat versus non-hazmat". Each side is a row of its own, never
two filters that no record passes together, nor one figure over both.

    "in-transit versus held shipments"   → status [in_transit, held], grouped by status
    "hazmat versus non-hazmat shipments" → no filter on is_hazardous, grouped by it
    "reefer shipments in 40RF boxes"     → container_type [40RF]: the narrower filter, not compared

Said with a word of a difference, two values of one field are two sides and the first's figure minus
the other's (issue 35): a Difference step, the sides columns of every row, the field neither a
filter nor grouped by.

    "difference between Maersk and MSC TEU by month" → Difference(carrier_name, [MAERSK, MSC])
    "Maersk TEU minus MSC TEU"                       → Difference(carrier_name, [MAERSK, MSC])
    "how far ahead of Evergreen was Maersk"          → Difference(carrier_name, [MAERSK, EVERGREEN])
"""

from __future__ import annotations

from typing import Any

from bosun.understanding import degrees
from bosun.understanding.grammar import DifferenceWords
from bosun.understanding.meaning import Condition, Difference, Meaning
from bosun.understanding.names import normalize
from bosun.understanding.rulekit import ComposerView
from bosun.understanding.tagger import Span

Side = tuple[int, str, Any]  # the span that says a value, its field, the value
# kinds of the catalog's own words: a difference word the catalog uses ("margin") is the catalog's
_CATALOG = ("field", "measure", "value", "name")


def sides(spans: list[Span], c: ComposerView, meaning: Meaning) -> None:
    """Value filters on one field said apart: disjoint values are one filter over both, compared;
    a value said with its own negation compares the whole field; one inside the other narrows."""
    kept: list[Condition] = []
    for condition in meaning.conditions:
        same = _earlier(kept, condition)
        if same is None:
            kept.append(condition)
        elif same.negate != condition.negate:
            _opposed(kept, same, condition, meaning)
        elif same.negate or set(same.values) & set(condition.values):
            _nested(kept, same, condition)
        else:
            same.values.extend(condition.values)
            _compare(meaning, condition.field)
    meaning.conditions = kept


def _earlier(kept: list[Condition], condition: Condition) -> Condition | None:
    """The filter on the same field's values kept before this one, if any."""
    if not condition.values:
        return None
    return next((x for x in kept if x.field == condition.field and x.values), None)


def _opposed(kept: list[Condition], same: Condition, other: Condition, meaning: Meaning) -> None:
    """ "hazmat versus non-hazmat": every record is one side or the other, so the field groups and
    neither side filters. A negation of other values ("held, not in transit") is kept beside."""
    if set(same.values) != set(other.values):
        kept.append(other)
        return
    kept.remove(same)
    _compare(meaning, other.field)


def _nested(kept: list[Condition], same: Condition, other: Condition) -> None:
    """ "reefer shipments in 40RF boxes": the narrower values, as both filters together mean; two
    negations ("not Maersk, not MSC") both hold."""
    if same.negate:
        kept.append(other)
    elif set(other.values) <= set(same.values):
        same.values = list(other.values)
    elif not set(same.values) <= set(other.values):
        kept.append(other)


def _compare(meaning: Meaning, field: str) -> None:
    if field not in meaning.compare:
        meaning.compare.append(field)


def more_of_the_sides(spans: list[Span], c: ComposerView, meaning: Meaning) -> None:
    """ "did Savannah or Charleston receive more TEU?": both sides, the larger first ("less": the
    smaller first); no side is dropped."""
    if not meaning.compare or meaning.top_n is not None:
        return
    for span in spans:
        degree = _comparative(span)
        if degree is not None:
            meaning.order = "desc" if degree > 0 else "asc"
            span.used = True


def _comparative(span: Span) -> float | None:
    """The degree of an unread comparative ("more" 1, "less" -1), else None."""
    degree = None if span.used else span.value("degree")
    return degree[1] if degree is not None and degree[0] == "comparative" else None


def differences(spans: list[Span], c: ComposerView, meaning: Meaning) -> None:
    """ "difference between Maersk and MSC TEU", "Maersk minus MSC", "more TEU than MSC": two
    values of one field, each said once, with a difference word are two sides; the first minus the
    other (after a noun: as said; else the side right after "minus" or "than" is subtracted)."""
    cue = _cue(spans, c.grammar.differences)
    sides = _two_sides(spans, meaning)
    if cue is None or sides is None:
        return
    ordered = _ordered(sides, spans, cue, c)
    if ordered is None:
        return
    field = sides[0][1]
    meaning.conditions = [x for x in meaning.conditions if not (x.field == field and x.values)]
    meaning.compare = [f for f in meaning.compare if f != field]
    meaning.steps.append(Difference(field=field, values=[side[2] for side in ordered]))
    _read_with(spans, cue, c)


def _cue(spans: list[Span], words: DifferenceWords) -> tuple[int, str] | None:
    """The first word of a difference, and whether it is a noun, "minus" or "than"."""
    kinds = {
        "noun": {normalize(w) for w in words.nouns},
        "minus": {normalize(w) for w in words.minus},
        "than": {normalize(w) for w in words.than},
    }
    for i, span in enumerate(spans):
        if any(span.has(kind) for kind in _CATALOG):
            continue
        kind = next((k for k, listed in kinds.items() if span.key in listed), None)
        if kind is not None:
            return i, kind
    return None


def _two_sides(spans: list[Span], meaning: Meaning) -> list[Side] | None:
    """Two values of one field, each said by a span of its own, that are all its filter holds."""
    said = [(i, f, v) for i, span in enumerate(spans) for f, v in _said(span, meaning)]
    for field in dict.fromkeys(f for _, f, _ in said):
        on_field = [side for side in said if side[1] == field]
        filtered = {v for x in meaning.conditions if x.field == field for v in x.values}
        apart = len({side[0] for side in on_field}) == 2
        if len(on_field) == 2 and apart and filtered == {side[2] for side in on_field}:
            return on_field
    return None


def _said(span: Span, meaning: Meaning) -> list[tuple[str, Any]]:
    """The (field, value) pairs a span says: a catalog value, or a name resolved."""
    pairs = list(span.values("value"))
    found = span.value("name")
    if found is not None:
        pairs += [(e.field, e.value) for e in meaning.entities if e.term == found.text]
    return pairs


def _ordered(
    sides: list[Side], spans: list[Span], cue: tuple[int, str], c: ComposerView
) -> list[Side] | None:
    """The first side, then the side subtracted: after a noun as said, else the first said after
    the cue ("minus MSC", "than MSC", "minus units sold online"), right after it when the other side
    follows too ("ahead of Evergreen was Maersk"); None when no side follows it, or a number does
    ("exceeding 20 TEU")."""
    at, kind = cue
    if kind == "noun":
        return sides
    following = c.after(spans, at)
    if following is None or spans[following].has("number"):
        return None  # "exceeding 20 TEU": a bound, not a side
    after = [side for side in sides if side[0] > at]
    # both sides after the cue: only "ahead of Evergreen was Maersk", the subtracted one next to it
    if not after or (len(after) == 2 and after[0][0] != following):
        return None
    return [*(side for side in sides if side is not after[0]), after[0]]


def _read_with(spans: list[Span], cue: tuple[int, str], c: ComposerView) -> None:
    """The cue, the comparative before a "than" ("more TEU … than"), words asking the size
    ("how far") and comparison words ("vs") are read with the difference."""
    at, kind = cue
    spans[at].used = True
    asks = {normalize(w) for w in c.grammar.differences.asks}
    for span in spans:
        span.used = span.used or span.has("compare") or span.key in asks
    if kind != "than":
        return
    comparative = [
        s for s in spans[:at] if not s.used and (s.value("degree") or ("",))[0] == "comparative"
    ]
    if comparative:
        comparative[-1].used = True


def measured(spans: list[Span], c: ComposerView, meaning: Meaning) -> None:
    """A difference of nothing named is one of the default measure ("the gap between Maersk and
    MSC"); a comparative of the measure itself is read with the difference ("were Maersk transits
    slower than MSC": the average transit days, Maersk's minus MSC's), another stays unread."""
    if not any(isinstance(s, Difference) for s in meaning.steps):
        return
    _compared_on(spans, c, meaning)
    if not meaning.measures:
        meaning.measures.append(c.default_measure())
    of_measures = {("field", m.field) for m in meaning.measures} | {
        ("measure", m.name) for m in meaning.measures
    }
    for span in spans:
        said = {(a[0], a[1]) for a in span.values("adjective") if a[3] == "comparative"}
        span.used = span.used or bool(said & of_measures)


def _compared_on(spans: list[Span], c: ComposerView, meaning: Meaning) -> None:
    """ "are Maersk shipments heavier than MSC shipments": with nothing measured but the records
    counted, the comparative's measure is what the sides differ in ("… on average" is read with
    it)."""
    counted = [m.name for m in meaning.measures] == [c.default_measure().name]
    found = degrees.compared_measure(spans, c) if counted or not meaning.measures else None
    if found is None:
        return
    measure, said = found
    meaning.measures = [measure]
    for span in said:
        span.used = True
    average = degrees.averaged(spans, 0)
    if average is not None and measure.agg == "avg":
        average.used = True
