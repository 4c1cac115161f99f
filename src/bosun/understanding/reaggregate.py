"""Another aggregation of the last answer's figure (issue 36): a turn that says only how to
aggregate ("and the 90th percentile?", "what about the maximum?", "the shortest and the longest?",
"show that as a running total", "what's the monthly average?") asks it of the last measure's field,
with the last question's filters, dates, grouping and periods.

Its words are those a first question is read with, by the same rules: percentiles and medians
(measure_kinds), the grammar's `aggregations`, running totals, changes and averages per period
(group_steps). A turn with any other content word is not this one's.

    "Average transit time from Shanghai to Los Angeles in 2025" → "and the 90th percentile?"
        percentile 90 of transit days, from Shanghai, to Los Angeles, in 2025
    "Monthly TEU into Savannah in 2025" → "show that as a running total"
        the TEU per month, with Running()
    "Total TEU by month into New York in 2025" → "what's the monthly average?"
        the TEU, with PerPeriod(interval=month), no longer per month
"""

from __future__ import annotations

from itertools import pairwise

from bosun.understanding.compose import Composer
from bosun.understanding.group_steps import Claim, per_period, period_steps, settle
from bosun.understanding.meaning import Meaning, Measure, PerPeriod
from bosun.understanding.measure_kinds import percent_asked, percentile_measure
from bosun.understanding.names import normalize
from bosun.understanding.tagger import Span

_AGGS = ("max", "min", "avg", "sum")  # the aggregations a word may ask of the last figure's field
_EXTREMES = ("max", "min")
_ADDITIVE = ("count", "sum")  # figures whose periods or groups add up
_JOINING = ("about", "conj")  # tags of words that only join a turn to the last one


def reaggregated(spans: list[Span], previous: Meaning, c: Composer) -> Meaning | None:
    """The last meaning aggregated as the turn's spans say; None when they say something else too
    (a filter, a measure, a word no rule reads) or nothing of the kind."""
    if previous.intent_type != "aggregation" or len(previous.measures) != 1:
        return None
    if previous.measures[0].share is not None:
        return None
    meaning = previous.model_copy(
        update={
            "steps": list(previous.steps),
            "group_by": list(previous.group_by),
            "assumptions": list(previous.assumptions),
            "ambiguities": list(previous.ambiguities),
        }
    )
    stepped = _stepped(spans, c, meaning)
    measures = _measures(spans, c, previous)
    if not (stepped or measures) or _unread(spans, c, previous, bool(measures)):
        return None
    return meaning.model_copy(
        update={
            "measures": measures or meaning.measures,
            "not_understood": [],
            "page": 1,
            "lookup": None,
        }
    )


def _stepped(spans: list[Span], c: Composer, meaning: Meaning) -> bool:
    """Steps after grouping the turn adds to `meaning`: a running total or a change over its periods
    ("cumulative?"), or the average or the total of the period totals ("the monthly average", "the
    average" or "the total" of a series), which replaces the periods."""
    before = (len(meaning.steps), meaning.interval)
    if meaning.interval is not None:
        period_steps(spans, c, meaning)
    if meaning.measures[0].agg in _ADDITIVE:
        _averaged_over_periods(spans, c, meaning)
        _totalled(spans, meaning)
    return (len(meaning.steps), meaning.interval) != before


def _averaged_over_periods(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "the monthly average" (a period said), or "the average" of a series (its periods): the
    average of the period totals, in place of the periods."""
    series, meaning.interval = meaning.interval, None
    before = len(meaning.steps)
    per_period(spans, c, meaning)
    average = next((s for s in spans if _unused(s, "avg")), None)
    if len(meaning.steps) == before and series is not None and average is not None:
        settle(meaning, [Claim(PerPeriod(interval=series), [average])])
    if len(meaning.steps) == before:
        meaning.interval = series


def _totalled(spans: list[Span], meaning: Meaning) -> None:
    """ "in total", "what's the total?" of a series that adds up: its periods added up."""
    total = next((s for s in spans if _unused(s, "sum")), None)
    if total is not None and meaning.interval is not None:
        meaning.interval = None
        total.used = True


def _unused(span: Span, agg: str) -> bool:
    return not span.used and agg in _aggs(span)


def _measures(spans: list[Span], c: Composer, previous: Meaning) -> list[Measure]:
    """The measures the turn asks of the last figure, in the order said: percentiles of its field
    ("the median", "the 90th percentile") and aggregations ("the maximum", "the longest")."""
    shown = previous.measures[0]
    allowed = _aggregations(previous)
    measures = []
    for i, span in enumerate(spans):
        percent = percent_asked(spans, i, c) if shown.field else None
        measure = _aggregated(shown, _agg(span, shown.field, c, allowed), c)
        if percent is not None and shown.field:
            measures.append(percentile_measure(c, shown.field, percent[0]))
            _use(percent[1])
        elif measure is not None:
            measures.append(measure)
            _use([span])
    return measures


def _aggregations(previous: Meaning) -> tuple[str, ...]:
    """The aggregations a word may ask of the last figure: not an extreme of groups or periods that
    add up ("the maximum" of TEU by carrier is the top carrier, not the largest shipment)."""
    grouped = previous.group_by or previous.interval
    if grouped and previous.measures[0].agg in _ADDITIVE:
        return tuple(a for a in _AGGS if a not in _EXTREMES)
    return _AGGS


def _agg(span: Span, field: str | None, c: Composer, allowed: tuple[str, ...]) -> str | None:
    """The aggregation a word asks ("maximum", "longest" of transit days); None for a word of
    another field ("heaviest" after transit days) or of the newest records ("the latest")."""
    asked = [a for a in _aggs(span) if a in allowed]
    if span.used or span.has("recency") or not _of_field(span, field, c):
        return None
    return next(iter(asked), None)


def _aggregated(shown: Measure, agg: str | None, c: Composer) -> Measure | None:
    """The last figure aggregated by `agg`: itself when it adds up and `agg` sums ("the total" of a
    count), the catalog's measure of its field otherwise; None when the catalog does not aggregate
    the field so ("the total" of transit days, a level)."""
    if agg == "sum" and shown.agg in _ADDITIVE:
        return shown
    if agg is None or shown.field is None:
        return None
    measure = c.field_measure(shown.field, agg)
    return measure if measure.agg == agg else None


def _of_field(span: Span, field: str | None, c: Composer) -> bool:
    """The word names no field but `field`, if any ("longest" names transit days)."""
    measures = c.catalog.spec.measures
    named = [
        measures[name].field if kind == "measure" else name
        for kind, name, _direction, _form in span.values("adjective")
    ]
    return set(named) <= {field}


def _use(spans: list[Span]) -> None:
    for span in spans:
        span.used = True


def _unread(spans: list[Span], c: Composer, previous: Meaning, measured: bool) -> list[Span]:
    """The spans no rule read that say something: not filler or function words, "what about",
    "and", not `each` after groups ("the median for each"), not "per shipment" of a measure (the
    figure of one record is what it aggregates)."""
    passed = {id(s) for s in _joining(spans)}
    if previous.group_by or previous.interval:
        passed |= {id(s) for s in _each(spans, c)}
    if measured:
        passed |= {id(s) for s in _per_record(spans, c)}
    return [s for s in spans if not (s.used or s.quiet or id(s) in passed)]


def _joining(spans: list[Span]) -> list[Span]:
    """ "what about", "and": words that only join the turn to the last one."""
    return [s for s in spans if any(s.has(kind) for kind in _JOINING)]


def _each(spans: list[Span], c: Composer) -> list[Span]:
    """ "for each": the groups of the last answer, kept."""
    each = {normalize(w) for w in c.grammar.referents.each}
    return [s for s in spans if normalize(s.key) in each]


def _per_record(spans: list[Span], c: Composer) -> list[Span]:
    """ "per shipment": a ratio word and the record noun after it."""
    cues = {normalize(w) for w in c.grammar.ratio_cues}
    found: list[Span] = []
    for cue, noun in pairwise(spans):
        if normalize(cue.key) in cues and noun.has("record"):
            found += [cue, noun]
    return found


def _aggs(span: Span) -> list[str]:
    return [agg[0] for agg in span.values("agg")]
