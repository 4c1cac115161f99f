"""Steps after grouping, read from spans (issue 23): thresholds on a group's measure, top N within
each group, running totals, change from each period to the next, and averages per period.

Each rule returns its claims — the step, the spans it read, and the measure, grouping or interval it
found — and `settle` writes them into the Meaning once. compose() runs the rules beside its own:

    "ports with more than 2,000 shipments"    → Threshold(gt=2000) on the count, grouped by port
    "busiest month per carrier"               → TopEach(n=1), grouped by carrier, per month
    "running total of TEU by month"           → Running() on the TEU, per month
    "month-over-month % change in shipments"  → Change(percent=True) on the count, per month
    "average shipments per day in May"        → PerPeriod(interval=day) on the count
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from bosun.understanding import within
from bosun.understanding.bounds import (
    Reader,
    field_of_unit,
    measure_field,
    threshold_number,
    written_unit,
)
from bosun.understanding.meaning import (
    Change,
    Interval,
    Meaning,
    Measure,
    PerGroup,
    PerPeriod,
    Running,
    Step,
    Threshold,
    TopEach,
)
from bosun.understanding.tagger import Span, read, unread_at


class Composer(Reader, Protocol):
    """What these rules read of compose.Composer (a protocol, so that compose may import this
    module)."""

    per_group: tuple[str, Span] | None
    said: list[str]

    def dimension(self, span: Span, meaning: Meaning | None = None) -> str | None: ...

    def before(self, spans: list[Span], i: int, limit: int = 3) -> int | None: ...

    def after(self, spans: list[Span], i: int) -> int | None: ...

    def counting(self, span: Span) -> bool: ...

    def measure(self, name: str, agg: str | None = None) -> Measure: ...

    def field_measure(self, name: str, agg: str | None = None) -> Measure: ...

    def default_measure(self) -> Measure: ...


_ADDITIVE = ("count", "sum")  # measures whose per-period average is an average of period totals


@dataclass
class Claim:
    """What one rule read: the step, the spans it used, and the measure, grouping or interval the
    step is on."""

    step: Step
    spans: list[Span]
    measure: Measure | None = None
    group: str | None = None
    interval: Interval | None = None
    extra: list[Span] = field(default_factory=list)


def settle(meaning: Meaning, claims: list[Claim]) -> None:
    """The claims written into the Meaning: spans used, grouping and measure added, the step
    appended."""
    for claim in claims:
        read([*claim.spans, *claim.extra])
        if claim.group is not None and claim.group not in meaning.group_by:
            meaning.group_by.append(claim.group)
        if claim.interval is not None:
            meaning.interval = claim.interval
        if claim.measure is not None and isinstance(claim.step, Threshold):
            claim.step.measure = _measure_index(meaning, claim.measure)
        meaning.steps.append(claim.step)


def _measure_index(meaning: Meaning, measure: Measure) -> int:
    for i, known in enumerate(meaning.measures):
        if known.agg == measure.agg and known.field == measure.field:
            return i
    meaning.measures.append(measure)
    return len(meaning.measures) - 1


# -- thresholds on a group's measure
# -----------------------------------------------------------------
def group_thresholds(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "ports with more than 2,000 shipments", "carriers whose average transit time is over 20
    days", "days in May with fewer than 50 shipments": a bound on what each group (or period)
    measures, not on a record's field.

    The evidence is the head the bound follows: a grouping noun (a dimension or a period) with
    nothing between but small words, the measure and its aggregation. After a record noun
    ("shipments over 25 tons") it is a record's.
    """
    claims = [
        claim
        for i in range(len(spans))
        if (claim := _threshold_claim(spans, i, c) or _range_claim(spans, i, c)) is not None
    ]
    settle(meaning, claims)


def _range_claim(spans: list[Span], i: int, c: Composer) -> Claim | None:
    """ "ports with between 100 and 500 shipments": both bounds on each group's measure."""
    if i + 3 >= len(spans) or spans[i].used or spans[i].key not in c.grammar.range_words:
        return None
    low, join, high = spans[i + 1], spans[i + 2], spans[i + 3]
    if not (low.has("number") and join.key in c.grammar.range_joins and high.has("number")):
        return None
    head = group_head(spans, i, c)
    measured = bound_measure(spans, head, i, i + 3, c) if head is not None else None
    if head is None or measured is None:
        return None
    measure, words = measured
    factor, units = _unit(spans, i + 3, measure, c)
    bounds = {
        "gte": float(low.value("number")) * factor,
        "lte": float(high.value("number")) * factor,
    }
    return Claim(
        Threshold(**bounds),
        [spans[i], low, join, high, spans[head], *words, *units],
        measure=measure,
        group=c.dimension(spans[head]),
        interval=spans[head].value("interval_unit"),
    )


def _threshold_claim(spans: list[Span], i: int, c: Composer) -> Claim | None:
    span = spans[i]
    if not span.unread("threshold"):
        return None
    number = threshold_number(spans, i, 1, c)
    if number is None:
        return None
    at, value = number
    head = group_head(spans, min(i, at), c)
    if head is None:
        return None
    measured = bound_measure(spans, head, i, at, c)
    if measured is None:
        return None
    measure, words = measured
    factor, units = _unit(spans, at, measure, c)
    value *= factor
    # "customers who spent", "teams paid"
    words += [s for s in spans[head:i] if s.has("who") or s.has("record")]
    return Claim(
        Threshold(**_bounds(span.value("threshold"), value)),
        [span, spans[at], spans[head], *words, *units],
        measure=measure,
        group=c.dimension(spans[head]),
        interval=spans[head].value("interval_unit"),
    )


def _unit(spans: list[Span], at: int, measure: Measure, c: Composer) -> tuple[float, list[Span]]:
    """The factor of the unit written with the number at `at` ("10,000 tons" → kg), and its span."""
    written, unit_at = written_unit(spans, at)
    unit, factor = c.grammar.units.get(written, ("", 1.0))
    units = [spans[unit_at]] if unit_at is not None else []
    if unit and measure.field and unit == c.catalog.record.fields[measure.field].unit:
        return factor, units
    return 1.0, units


def _bounds(op: str, value: float) -> dict[str, float]:
    if op == "eq":
        return {"gte": value, "lte": value}
    return {op: value}


def group_head(spans: list[Span], start: int, c: Composer) -> int | None:
    """The grouping noun a bound follows ("ports … with more than"), past small words, the measure
    and the time."""
    for j in range(start - 1, -1, -1):
        head = spans[j]
        if head.has("record") and _acted_by_group(spans, j, start, c):
            # "teams paid more than $200M": the records' verb right after the group, right before
            # the bound
            continue
        if head.has("record"):
            return None
        if c.dimension(head) is not None or head.has("interval_unit"):
            return None if head.used else j
        if not _passable(head, c):
            return None
    return None


def _acted_by_group(spans: list[Span], at: int, bound: int, c: Composer) -> bool:
    """A word of the records between a grouping noun and a bound, touching both ("which teams paid
    more than"): what each group did in all. With a word between ("carriers with shipments over 25
    tons") it is a record's."""
    return at == bound - 1 and at > 0 and c.dimension(spans[at - 1]) is not None


def _passable(span: Span, c: Composer) -> bool:
    """Words between a grouping noun and its bound: "that handled", "whose average transit time is",
    "in May", "into Los Angeles" (a name filters, read already)."""
    kinds = ("who", "wh", "time", "agg", "quantifier", "meaning", "measure", "date_word", "name")
    return (
        span.quiet
        or c.glue(span)
        or any(span.has(k) for k in kinds)
        or measure_field(span, c) is not None
    )


def bound_measure(
    spans: list[Span], head: int, i: int, at: int, c: Composer
) -> tuple[Measure, list[Span]] | None:
    """The measure the bound is on: named between the head and the bound ("a total weight above"),
    after the number ("over 2,000 shipments", "at least 50 reefer boxes"), or by the number's unit
    ("over $1,000")."""
    # "an average of"
    aggs = [s for s in spans[head + 1 : min(i, at)] if s.has("agg") and not s.has("rank")]
    agg = aggs[0].value("agg")[0] if aggs else None
    found = _named_before(spans, head, min(i, at), c) or _named_after(spans, at, c)
    found = _by_unit(spans, at, found, c)
    if found is None:
        return None
    return _with_agg(found[0], agg, c), [*found[1], *aggs]


def _by_unit(
    spans: list[Span], at: int, found: tuple[Measure, list[Span]] | None, c: Composer
) -> tuple[Measure, list[Span]] | None:
    """ "$500 in purchases": dollars, not a count; the field of the number's unit, where the words
    name no measure over a field."""
    field_ = field_of_unit(written_unit(spans, at)[0], c)
    if not field_ or (found is not None and found[0].field is not None):
        return found
    return c.field_measure(field_), found[1] if found else []


def _named_before(
    spans: list[Span], head: int, end: int, c: Composer
) -> tuple[Measure, list[Span]] | None:
    """ "carriers whose transit time is over 20 days", "commodities with a total weight above 10,000
    tons"."""
    for j in range(head + 1, end):
        if _acted_by_group(spans, j, end, c) and spans[j].has("record"):
            # "teams paid more than 200 million in salaries": the verb counts nothing; the amount
            # follows
            continue
        named = named_measure(spans[j], c)
        if named is not None:
            return named, [spans[j]]
    return None


def _named_after(spans: list[Span], at: int, c: Composer) -> tuple[Measure, list[Span]] | None:
    """ "over 2,000 shipments", "at least 50 reefer boxes", "at least 30 voyages" (distinct
    voyages)."""
    for j in range(at + 1, min(len(spans), at + 4)):
        if spans[j].has("value", "currency", "scale") or c.glue(spans[j]):
            continue
        named = named_measure(spans[j], c) or _distinct(spans[j], c)
        return (named, [spans[j]]) if named is not None else None
    return None


def _distinct(span: Span, c: Composer) -> Measure | None:
    """A field of values counted: "at least 30 voyages" is a count of distinct voyages."""
    counted = next(
        (f for f in span.values("field") if c.role(f) in ("dimension", "identifier", "attribute")),
        None,
    )
    return c.field_measure(counted, "cardinality") if counted else None


def named_measure(span: Span, c: Composer) -> Measure | None:
    """The measure a word names: a record noun counts, a measure word or a measure field sums as the
    catalog says."""
    if span.has("record") or c.counting(span):
        return c.default_measure()
    names = span.values("measure")
    if names:
        return c.measure(names[0])
    measured = next((f for f in span.values("field") if c.role(f) == "measure"), None)
    return c.field_measure(measured) if measured else None


def _with_agg(measure: Measure, agg: str | None, c: Composer) -> Measure:
    if agg is None or agg == measure.agg or agg == "cardinality":
        return measure
    if measure.name in c.catalog.spec.measures:
        return c.measure(measure.name, agg)
    return c.field_measure(measure.field or "", agg)


# -- averages per period
# ------------------------------------------------------------------------------
def per_period(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "average shipments per day in May", "weekly average TEU", "how many boxes per week on
    average": the average of the period totals. Only for a measure that adds up (a count, a sum):
    "average transit time per month" is the average transit of each month, a grouping."""
    averages = [i for i, s in enumerate(spans) if not s.used and "avg" in _aggs(s)]
    if not averages or not _additive(spans, c):
        return
    # said anywhere, so looked for once: nothing is used until an average is settled
    per_unit, per_group = _period_per(spans, c), _group_near(spans, c)
    for i in averages:
        period = _period_beside(spans, i) or per_unit
        if period is not None:
            _average_per_period(spans, spans[i], period, c, meaning)
            return
        # "average TEU per carrier": each carrier's total, averaged over the carriers
        if per_group is not None:
            settle(meaning, [Claim(PerGroup(), [spans[i], *per_group[1]], group=per_group[0])])
            return


def _average_per_period(
    spans: list[Span],
    average: Span,
    period: tuple[Interval, list[Span]],
    c: Composer,
    meaning: Meaning,
) -> None:
    """The average of the period totals; "average monthly installment" may mean a monthly total
    averaged or each record's own amount: the reading is said for each summed field."""
    interval, words = period
    settle(meaning, [Claim(PerPeriod(interval=interval), [average, *words])])
    said = c.grammar.steps.per_period_read
    summed = _summed_fields(spans, c)
    meaning.assumptions += [said.format(period=words[-1].text, field=f) for f in summed]


def _aggs(span: Span) -> list[str]:
    return [agg[0] for agg in span.values("agg")]


def _period_beside(spans: list[Span], i: int) -> tuple[Interval, list[Span]] | None:
    """A period word beside the average ("average daily", "weekly average", "an average day")."""
    for j in (i - 1, i + 1):
        if unread_at(spans, j, "interval"):
            return spans[j].value("interval"), [spans[j]]
    if unread_at(spans, i + 1, "interval_unit"):
        return spans[i + 1].value("interval_unit"), [spans[i + 1]]
    return None


def _period_per(spans: list[Span], c: Composer) -> tuple[Interval, list[Span]] | None:
    """ "per <period>" anywhere in the question."""
    for j, cue in enumerate(spans[:-1]):
        unit = spans[j + 1]
        if (
            cue.key in c.grammar.steps.within
            and unit.has("interval_unit")
            and not (cue.used or unit.used)
        ):
            return unit.value("interval_unit"), [cue, unit]
    return None


def _summed_fields(spans: list[Span], c: Composer) -> list[str]:
    """The fields, in words, whose sums the question names (a count is of records, never a record's
    own amount)."""
    measures, fields = c.catalog.spec.measures, c.catalog.record.fields
    named = [
        measures[n] for span in spans if not span.has("record") for n in span.values("measure")
    ]
    summed = [m.field for m in named if m.agg == "sum" and m.field in fields]
    return [next(iter(fields[f].synonyms), f.replace("_", " ")) for f in summed if f]


def _group_near(spans: list[Span], c: Composer) -> tuple[str, list[Span]] | None:
    """ "per <dimension>" anywhere: the groups an average is taken over ("average TEU per
    carrier")."""
    for j, cue in enumerate(spans[:-1]):
        named = c.dimension(spans[j + 1])
        if (
            cue.key in c.grammar.steps.over_groups
            and named is not None
            and not (cue.used or spans[j + 1].used)
        ):
            return named, [cue, spans[j + 1]]
    return None


def _additive(spans: list[Span], c: Composer) -> bool:
    """Every measure the question names adds up over records (a count, a sum)."""
    measures = c.catalog.spec.measures
    for span in spans:
        named = [measures[n].agg for n in span.values("measure") if not span.has("record")]
        if named and not any(agg in _ADDITIVE for agg in named):
            return False
    return True


# -- running totals and changes
# -----------------------------------------------------------------------
def period_steps(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "running total of TEU by month", "weekly change in volume", "shipments by month vs the month
    before": a running total, or the change from each period to the next; both need periods (an
    interval)."""
    if meaning.interval is None:
        return
    for i in range(len(spans)):
        claim = (
            _running(spans, i) or _change(spans, i, c) or _change_to_previous(spans, i, c, meaning)
        )
        if claim is not None and not any(s.kind == claim.step.kind for s in meaning.steps):
            settle(meaning, [claim])


def _running(spans: list[Span], i: int) -> Claim | None:
    """ "running total of TEU", "cumulative shipments", "running TEU total" (its total a word of the
    running)."""
    if spans[i].used or spans[i].value("step") != "running":
        return None
    total = [s for s in spans[i + 1 : i + 3] if not s.used and ("sum", "desc") in s.values("agg")][
        :1
    ]
    return Claim(Running(), [spans[i]], extra=total)


def _change(spans: list[Span], i: int, c: Composer) -> Claim | None:
    """ "change in shipments", "% change", "percentage change"."""
    span = spans[i]
    if span.used or span.value("step") != "change":
        return None
    percent = [spans[i - 1]] if i > 0 and spans[i - 1].key in c.grammar.steps.percent else []
    return Claim(Change(percent=bool(percent)), [span], extra=percent)


def _change_to_previous(spans: list[Span], i: int, c: Composer, meaning: Meaning) -> Claim | None:
    """ "vs the month before", "compared to the previous week": the period's interval between a
    comparison word and a word of the period before. Said as a date ("the previous month"), it names
    no range of its own."""
    if not spans[i].unread("compare") or i + 1 >= len(spans):
        return None
    if spans[i + 1].has("time") and _previous_period(spans[i + 1].key, c, meaning):
        _drop_time(spans[i + 1], meaning)
        return Claim(Change(), [spans[i], spans[i + 1]])
    after = [s for s in spans[i + 1 : i + 5] if not _only_function(s)][:2]
    if len(after) == 2 and _period_before(after, c, meaning):
        return Claim(Change(), [spans[i], *after])
    return None


def _period_before(words: list[Span], c: Composer, meaning: Meaning) -> bool:
    """ "month before", "previous week": the meaning's interval and a word of the period before."""
    unit = any(s.value("interval_unit") == meaning.interval for s in words)
    previous = any(s.key in c.grammar.steps.previous for s in words)
    return unit and previous


def _previous_period(words: str, c: Composer, meaning: Meaning) -> bool:
    """ "the previous month", "the prior week": a word of the period before and the meaning's
    interval."""
    said = words.split()
    units = [c.grammar.interval_units.get(w) for w in said]
    return meaning.interval in units and any(w in c.grammar.steps.previous for w in said)


def _drop_time(span: Span, meaning: Meaning) -> None:
    if meaning.time is not None and meaning.time.text == span.text:
        meaning.ambiguities = [a for a in meaning.ambiguities if a.term != meaning.time.text]
        meaning.time = None


def _only_function(span: Span) -> bool:
    return bool(span.tags) and all(t.kind == "function" for t in span.tags)


# -- top N within each group
# --------------------------------------------------------------------------
def top_each(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "top 3 shippers for each port", "busiest month per carrier", "top carrier each month": a
    ranking read inside each group. The group the cue names comes first in group_by; a period said
    with "each" holds the groups."""
    if meaning.top_n is None:
        return
    _group_of_values(spans, c, meaning)
    words = c.grammar.steps
    if meaning.sort and meaning.interval and not meaning.group_by:
        _records_in_each_period(spans, c, meaning)
        return
    nested = within.nested_periods(spans, [*words.within, *words.holding])
    if nested is not None and not (meaning.group_by or c.per_group):
        meaning.interval = nested.ranked
        _ranked_inside(
            TopEach(n=meaning.top_n, order=meaning.order, within=nested.holder), c, meaning
        )
        return
    outer = _outer(spans, c, meaning)
    if outer is None:
        return
    if nested is not None:  # "the busiest week per carrier in each quarter": one scope too many
        c.said.append(" ".join(span.text for span in nested.said))
    if outer != "period" and c.per_group is not None:
        meaning.group_by = [outer, *(g for g in meaning.group_by if g != outer)]
    step = TopEach(
        n=meaning.top_n, order=meaning.order, outer="period" if outer == "period" else "group"
    )
    _ranked_inside(step, c, meaning)


def _records_in_each_period(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "the heaviest shipment each month": records ranked inside each period, which no step says.
    The period is flagged, and the records ranked over the rest, rather than periods ranked by a
    count."""
    words = c.grammar.steps
    said = within.scoped_period(spans, [*words.within, *words.holding])
    if not said:
        return
    c.said.append(" ".join(span.text for span in said))
    meaning.interval = None


def _ranked_inside(step: TopEach, c: Composer, meaning: Meaning) -> None:
    """The ranking becomes the step: no top N over everything, and a measure to rank by."""
    meaning.top_n = None
    if not meaning.measures:
        meaning.measures = [c.default_measure()]
    settle(meaning, [Claim(step, [])])


def _group_of_values(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "at every east coast port", "for each kitchen product": the noun the values narrow groups,
    and holds the ranking, as "for each port" does."""
    if c.per_group is not None:
        return
    found = within.value_group(spans, c.grammar.steps.within, c.dimension)
    if found is None:
        return
    field_, said = found
    meaning.group_by = [field_, *(g for g in meaning.group_by if g != field_)]
    c.per_group = (field_, said[0])
    read(said)


def _outer(spans: list[Span], c: Composer, meaning: Meaning) -> str | None:
    """The grouping that holds the ranked groups: the one named with "for each", or the period said
    with "each"."""
    if c.per_group is not None:
        return _holding(c.per_group[0], meaning)
    if meaning.interval is None or not meaning.group_by:
        return None
    return "period" if any(_each_period(spans, j, c) for j in range(len(spans))) else None


def _holding(name: str, meaning: Meaning) -> str | None:
    """The grouping named with "for each", when it holds other groups or periods."""
    inner = [g for g in meaning.group_by if g != name]
    return name if name in meaning.group_by and (inner or meaning.interval) else None


def _each_period(spans: list[Span], j: int, c: Composer) -> bool:
    """ "each month", "every week", "per quarter"."""
    span = spans[j]
    if span.has("interval"):
        return span.key.split()[0] in c.grammar.steps.within
    before = spans[j - 1] if j > 0 else None
    return span.has("interval_unit") and before is not None and before.key in c.grammar.steps.within


# -- a step's measure ------------------------------------------------------------------------------
def step_measures(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "average shipments per day": a step with nothing else measured counts the records."""
    if meaning.steps and not meaning.measures:
        meaning.measures = [c.default_measure()]
