"""Date parts in a question: "by day of the week", "on Fridays", "weekends", "in the mornings",
"after 10pm".

A part is a field the loader derives from a date or clock field (catalog `derived: {part, of}`), so
the rule reads it as an ordinary condition or grouping on that field. The words are en.yaml's
`date_parts`; the field comes from the catalog. Where the data has no such part ("by hour" over
dates without times), the question is refused with reason no_date_part: said, never answered as if
the part had not been asked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Protocol

from bosun.catalog import Catalog
from bosun.catalog.schema import DatePartName
from bosun.understanding.grammar import Grammar
from bosun.understanding.meaning import Condition, Meaning, Refusal
from bosun.understanding.tagger import Span, is_plural

_CLOCK = re.compile(r"(\d{1,2})([a-z.]+)?")
# letters a question word and a field word share to name the same thing ("departing", "departure")
_LOOSE = 5


class Composer(Protocol):
    """What this rule reads of compose.Composer (which imports this module)."""

    catalog: Catalog
    grammar: Grammar
    wh_plural: bool | None
    ranked_plural: bool | None

    def before(self, spans: list[Span], i: int, limit: int = 3) -> int | None: ...

    def negated(self, spans: list[Span], i: int) -> bool: ...

    def role(self, name: str) -> str: ...


@dataclass
class PartClaim:
    """What the question asks of one part: a grouping, values to keep or leave out, or bounds on the
    hour."""

    part: DatePartName
    spans: list[Span]
    group: bool = False
    values: list[int] = field(default_factory=list)
    negate: bool = False
    bounds: dict[str, float] = field(default_factory=dict)


def date_parts(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "departures on Fridays in May": departure_date_weekday is 5; "TEU by day of the week":
    grouped by arrival_date_weekday; "which weekday is busiest": grouped, and the ranking picks one.
    """
    claims = [*_groupings(spans, c), *_filters(spans, c), *_clock_bounds(spans, c)]
    if not claims:
        return
    dated = _date_field(spans, c, meaning)
    for claim in claims:
        name = _part_field(c, claim.part, dated, spans)
        for span in claim.spans:
            span.used = True
        if name is None:
            words = [" ".join(span.text for span in asked.spans) for asked in claims]
            meaning.refusal = Refusal(reason="no_date_part", words=list(dict.fromkeys(words)))
            return
        _apply(claim, name, meaning)


def _apply(claim: PartClaim, name: str, meaning: Meaning) -> None:
    source = " ".join(s.text for s in claim.spans)
    if claim.group:
        meaning.group_by += [name] if name not in meaning.group_by else []
    elif claim.bounds:
        meaning.conditions.append(Condition(field=name, source=source, **claim.bounds))
    else:  # one condition for the part: "Mondays and Tuesdays" is not a comparison of the two
        meaning.conditions.append(
            Condition(
                field=name,
                values=[str(v) for v in claim.values],
                source=source,
                negate=claim.negate,
            )
        )


# -- what the question asks ------------------------------------------------------------------------
def _groupings(spans: list[Span], c: Composer) -> list[PartClaim]:
    """A part's unit after a grouping cue, a question word or a ranking word: "by weekday", "which
    hour", "the busiest day of the week"; or one that holds its own cue ("each day of the week")."""
    found = []
    for i, span in enumerate(spans):
        if not span.has("part_unit") or span.used:
            continue
        j = c.before(spans, i)
        cue = spans[j] if j is not None else None
        if span.key.split()[0] in c.grammar.group_cues:
            found.append(PartClaim(span.value("part_unit"), [span], group=True))
        elif cue is not None and (cue.has("group_cue") or cue.has("wh")):
            found.append(
                PartClaim(
                    span.value("part_unit"),
                    [cue, span] if cue.has("group_cue") else [span],
                    group=True,
                )
            )
            c.wh_plural = is_plural(span) if cue.has("wh") else c.wh_plural
        elif cue is not None and _ranks(cue):
            found.append(PartClaim(span.value("part_unit"), [span], group=True))
            c.ranked_plural = is_plural(span)
    return found


def _ranks(span: Span) -> bool:
    superlative = any(a[3] == "superlative" for a in span.values("adjective"))
    return superlative or span.has("rank")


def _filters(spans: list[Span], c: Composer) -> list[PartClaim]:
    """Values of a part, gathered into one condition per part: "on Mondays and Tuesdays" keeps 1 and
    2."""
    found: dict[tuple[DatePartName, bool], PartClaim] = {}
    for i, span in enumerate(spans):
        if not span.has("part_value") or span.used or _grouped(span, spans, i, c):
            continue
        part, numbers = span.value("part_value")
        negate = c.negated(spans, i)
        claim = found.setdefault((part, negate), PartClaim(part, [], negate=negate))
        claim.spans.append(span)
        claim.values += [n for n in numbers if n not in claim.values]
    return list(found.values())


def _grouped(span: Span, spans: list[Span], i: int, c: Composer) -> bool:
    """A word both unit and value ("weekday") that a cue before makes a grouping."""
    j = c.before(spans, i)
    return (
        span.has("part_unit")
        and j is not None
        and (spans[j].has("group_cue") or spans[j].has("wh"))
    )


def _clock_bounds(spans: list[Span], c: Composer) -> list[PartClaim]:
    """ "after 10pm": the hour from 22; "before 6am": below 6; "between 9am and 5pm": 9 up to 17 (a
    span past midnight, "between 10pm and 2am", is its hours listed). Only whole hours are read."""
    found = []
    i = 0
    while i < len(spans):
        clock = _clock_at(spans, i, c)
        before = i - 1 if i > 0 else None  # the word just before: "after", "before", "between"
        word = spans[before].key if before is not None else ""
        if clock is None or before is None:
            i += 1
            continue
        hour, width = clock
        end = (
            _clock_after_join(spans, i + width, c)
            if word in c.grammar.date_parts.clock.between
            else None
        )
        if end is not None:
            last_hour, last = end
            found.append(_span_of_hours(hour, last_hour, spans[before:last]))
            i = last
            continue
        bound = _bound(word, c)
        if bound is not None:
            found.append(PartClaim("hour", spans[before : i + width], bounds={bound: float(hour)}))
        i += width
    return found


def _bound(word: str, c: Composer) -> str | None:
    """ "after 10pm" keeps hours from 22 (gte); "before 6am" those below 6 (lt)."""
    if word in c.grammar.date_parts.clock.after:
        return "gte"
    if word in c.grammar.date_parts.clock.before:
        return "lt"
    return None


def _clock_after_join(spans: list[Span], at: int, c: Composer) -> tuple[int, int] | None:
    """The second clock time of a span of hours, after its join ("and", "to"): (its hour, the index
    after it)."""
    if at >= len(spans) or spans[at].key not in c.grammar.date_parts.clock.joins:
        return None
    clock = _clock_at(spans, at + 1, c)
    return (clock[0], at + 1 + clock[1]) if clock else None


def _span_of_hours(start: int, end: int, spans: list[Span]) -> PartClaim:
    if start < end:
        return PartClaim("hour", spans, bounds={"gte": float(start), "lt": float(end)})
    hours = [h % 24 for h in range(start, end + 24)]
    return PartClaim("hour", spans, values=hours)


def _clock_at(spans: list[Span], i: int, c: Composer) -> tuple[int, int] | None:
    """A clock time at span i and the spans it takes: "10pm", "10 pm", "noon"; None where there is
    none."""
    if i >= len(spans) or spans[i].used:
        return None
    clock = c.grammar.date_parts.clock
    if spans[i].key in clock.named:
        return clock.named[spans[i].key], 1
    match = _CLOCK.fullmatch(spans[i].key)
    if match is None:
        return None
    suffix, width = match.group(2), 1
    if suffix is None and i + 1 < len(spans) and spans[i + 1].key in clock.suffixes:
        suffix, width = spans[i + 1].key, 2
    if suffix not in clock.suffixes or not 1 <= int(match.group(1)) <= 12:
        return None
    return int(match.group(1)) % 12 + clock.suffixes[suffix], width


# -- which field holds the part --------------------------------------------------------------------
def _date_field(spans: list[Span], c: Composer, meaning: Meaning) -> str:
    """The date field the question's date word picks ("departures": departure_date), as for a time
    filter."""
    if meaning.time is not None:
        return meaning.time.field
    for span in spans:
        named = [
            *span.values("date_word"),
            *(f for f in span.values("field") if c.role(f) == "date"),
        ]
        if named:
            span.used = span.used or not span.has("measure")
            return str(named[0])
    return c.catalog.spec.time.default_field


def _part_field(c: Composer, part: DatePartName, dated: str, spans: list[Span]) -> str | None:
    """The derived field of `part` of the date field; an hour may also be of a clock field the
    question's words name ("departing" for dep_time), else of the first that has one."""
    fields = {
        name: spec.derived
        for name, spec in c.catalog.record.fields.items()
        if spec.derived is not None and spec.derived.part == part
    }
    mine = [name for name, derived in fields.items() if derived.of == dated]
    if mine or part != "hour" or not fields:
        return mine[0] if mine else None
    words = {s.key[:_LOOSE] for s in spans if len(s.key) >= _LOOSE}
    chosen = max(fields, key=lambda name: len(words & _said(c, fields[name].of)))
    for span in spans:  # the word that chose it ("departing") is read
        span.used = span.used or (
            not span.tags and span.key[:_LOOSE] in _said(c, fields[chosen].of)
        )
    return chosen


def _said(c: Composer, name: str) -> set[str]:
    """The beginnings of the words a field is called by: "dep_time", "departure time" → {"dep",
    "time", "depar"}."""
    spec = c.catalog.record.fields[name]
    return {
        w[:_LOOSE] for phrase in [name.replace("_", " "), *spec.synonyms] for w in phrase.split()
    }
