"""The coverage audit (issue 34): every content word of a question is read by its Meaning, or said.

A reading, whoever wrote it (the rules, a chat model), is checked against the question's own words,
tagged once with the grammar and the catalog. Each content span must find evidence of itself in the
Meaning (a value in a filter, a field grouped or measured, a number as a bound, a period as the
time filter…) or stand in `not_understood`; a few patterns check what single words cannot: a number
after a comparison word is a quantity, "across all X" is not "by X", "had X" is a filter on X. What
finds no evidence is unexplained: the reading is rejected with those words and why, and answered
with them flagged, never as if it read the whole question.

    >>> # "which ports had over 2000 shipments last year", read as arrivals in the year 2000
    >>> # → rejected: "over 2000" is a quantity the reading does not bound; "last year" is not its
    >>> #   period
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from pydantic import BaseModel, Field

from bosun.catalog import Catalog
from bosun.catalog.schema import MeasureSpec
from bosun.understanding.grammar import Grammar, Tag
from bosun.understanding.meaning import Condition, Meaning, TimeFilter
from bosun.understanding.names import Found, normalize
from bosun.understanding.tagger import Span
from bosun.understanding.timewords import TimeRange
from bosun.understanding.units_of import units_before

# Tags whose words say how a question is put, not what it asks: never evidence-checked. A span with
# only these tags (and one with a quiet tag) is grammar, not content.
_FRAMING = frozenset(
    {
        "about",
        "backref",
        "conj",
        "currency",
        "dated",
        "direction",
        "entity_word",
        "field_question",
        "group_cue",
        "judgement",
        "link_cue",
        "meaning",
        "object",
        "ordinal",
        "page",
        "period_shift",
        "quantifier",
        "recency",
        "record",
        "refusal",
        "scale",
        "sort_cue",
        "term",
        "unit",
        "unsupported",
        "wh",
        "who",
        "change_percent",
        "summed",  # "sum of": an aggregation word; a sum of a level is refused by the reader
        "interval_unit",
        "date_word",
        "agg",
    }
)


class Unexplained(BaseModel):
    """Words of the question the reading does not account for, and why."""

    words: str
    why: str


class Verdict(BaseModel):
    """The audit's decision on one reading: approved, or rejected with the words it left out."""

    goal_id: int = 0
    approved: bool
    unexplained: list[Unexplained] = Field(default_factory=list)

    def reasons(self) -> list[str]:
        return [f"“{u.words}”: {u.why}" for u in self.unexplained]


@dataclass
class Evidence:
    """What a Meaning holds, gathered once: the fields it uses, the values it filters on, the
    numbers it bounds or ranks with, its periods, and the words its parts carry from the
    question."""

    fields: set[str] = field(default_factory=set)
    filtered: set[str] = field(default_factory=set)
    grouped: set[str] = field(default_factory=set)
    values: set[tuple[str, str]] = field(default_factory=set)
    quantities: set[float] = field(default_factory=set)
    numbers: set[float] = field(default_factory=set)
    periods: list[TimeFilter] = field(default_factory=list)
    words: set[str] = field(default_factory=set)
    measured: set[str] = field(default_factory=set)
    aggs: set[str] = field(default_factory=set)
    ranked: bool = False
    records: bool = False  # a listing of records, or a count of them
    shared: bool = False  # a measure is a share of a whole
    # a field filtered on several values and grouped by: each apart, not "A and B combined"
    split: bool = False
    periodic: bool = False
    scoped: bool = False  # one figure over a field's values, or one per value
    compared: bool = False
    negated: bool = False
    steps: set[str] = field(default_factory=set)
    held: bool = False  # groups held against the overall figure: "above average" (issue 35)


def evidence(meaning: Meaning, beside: list[Meaning] | None = None) -> Evidence:
    """What `meaning` holds; with the other goals read from the same words (`beside`: "… and their
    total weight" is a goal of its own), what they hold too."""
    found = _evidence(meaning)
    for other in beside or []:
        found.measured |= _evidence(other).measured
        found.fields |= _evidence(other).fields
    return found


def _evidence(meaning: Meaning) -> Evidence:
    found = Evidence(periods=[*([meaning.time] if meaning.time else []), *meaning.periods])
    for condition in _conditions(meaning):
        _condition(found, condition)
    for measure in meaning.measures:
        found.measured.add(measure.name)
        found.aggs.add(measure.agg)
        found.fields |= {measure.field} if measure.field else set()
        found.numbers |= {measure.percent} if measure.percent else set()
    found.measured |= set(meaning.beside)
    found.shared = any(m.share is not None for m in meaning.measures)
    found.fields |= {*meaning.group_by, *(f for f, _ in meaning.sort), *meaning.shown}
    found.grouped |= set(meaning.group_by)
    found.fields |= set(meaning.pooled)  # "across all ports": one figure over the ports
    found.scoped = bool(meaning.pooled or meaning.group_by)
    found.split = any(len(c.values) > 1 and c.field in found.grouped for c in meaning.conditions)
    found.fields |= {p.field for p in found.periods}
    found.records = meaning.intent_type == "search" or not meaning.measures
    found.periodic = meaning.interval is not None
    found.compared = bool(meaning.compare)
    found.ranked = bool(meaning.top_n or meaning.sort or meaning.order == "asc")
    found.numbers |= {float(meaning.top_n)} if meaning.top_n else set()
    found.numbers |= {float(meaning.page)} if meaning.page > 1 else set()
    found.words |= _said(meaning)
    for step in meaning.steps:
        _step(found, step)
    found.numbers |= found.quantities
    return found


def _conditions(meaning: Meaning) -> Iterator[Condition]:
    yield from meaning.conditions
    for measure in meaning.measures:
        yield from measure.share.part if measure.share else []
    for link in meaning.links:
        yield link.condition


def _condition(found: Evidence, condition: Condition) -> None:
    found.fields.add(condition.field)
    found.filtered.add(condition.field)
    found.values |= {(condition.field, normalize(str(v))) for v in condition.values}
    bounds = (condition.gte, condition.lte, condition.gt, condition.lt)
    found.quantities |= {float(b) for b in bounds if b is not None}
    found.negated = found.negated or condition.negate


def _step(found: Evidence, step: Any) -> None:
    found.steps.add(step.kind)
    if step.kind == "threshold":
        bounds = (step.gte, step.lte, step.gt, step.lt)
        found.quantities |= {float(b) for b in bounds if b is not None}
        found.held = found.held or step.against is not None
    if step.kind == "top_each":
        found.numbers.add(float(step.n))
        found.ranked = True
    if step.kind in ("has_all", "has_none"):
        found.fields.add(step.field)
        found.values |= {(step.field, normalize(str(v))) for v in step.values}
        found.negated = found.negated or step.kind == "has_none"
    if step.kind == "difference":  # two values side by side: "A minus B", "A vs B: the gap"
        found.fields.add(step.field)
        found.values |= {(step.field, normalize(str(v))) for v in step.values}
        found.compared = found.negated = True


def _said(meaning: Meaning) -> set[str]:
    """The question's words the reading carries as such: names, period words, link words, refusal
    words, and what it already reports."""
    # a resolved name (meaning.entities) is not evidence: the value it filters on is
    texts = [a.term for a in meaning.ambiguities]
    texts += [*meaning.unknown_terms, *meaning.not_understood, *meaning.beside]
    texts += [p.text for p in ([meaning.time] if meaning.time else []) + meaning.periods]
    texts += [link.words for link in meaning.links]
    texts += [meaning.link_group.words] if meaning.link_group else []
    texts += meaning.refusal.words if meaning.refusal else []
    texts += [meaning.lookup.term] if meaning.lookup else []
    texts += [c.source for c in meaning.conditions]
    return {w for text in texts for w in normalize(text).split()}


# -- one span, by its tags ------------------------------------------------------------------------
Check = Callable[[Span, Tag, Evidence, Catalog], bool]


def _value(span: Span, tag: Tag, found: Evidence, catalog: Catalog) -> bool:
    field_name, value = tag.value
    return (field_name, normalize(str(value))) in found.values or field_name in found.grouped


def _name(span: Span, tag: Tag, found: Evidence, catalog: Catalog) -> bool:
    named: Found = tag.value
    # a name filters by its canonical value, or by an attribute of its row (a product's HS code)
    values = {normalize(c.value) for c in named.candidates}
    values |= {normalize(str(v)) for c in named.candidates for v in c.attributes.values()}
    return any(v in values for _, v in found.values)


def _field(span: Span, tag: Tag, found: Evidence, catalog: Catalog) -> bool:
    # a date field's words are mostly verbs ("arrived", "shipped"): the records' event, said
    dated = catalog.record.fields[tag.value].type == "date"
    return dated or tag.value in found.fields or _measures_field(catalog, found, tag.value)


def _measures_field(catalog: Catalog, found: Evidence, field_name: str) -> bool:
    measures = catalog.spec.measures
    return any(measures[m].field == field_name for m in found.measured if m in measures)


def _measure(span: Span, tag: Tag, found: Evidence, catalog: Catalog) -> bool:
    """A measure's word is carried by the reading's measure, by its field or its share; the
    count's word by records listed or counted, or any aggregation."""
    spec = catalog.spec.measures.get(tag.value)
    if spec is None or tag.value in found.measured or span.has("record"):
        return True
    if _records_count(spec):
        return found.records or bool(found.aggs)
    return spec.field in found.fields or (spec.share is not None and found.shared)


def _records_count(spec: MeasureSpec) -> bool:
    """The count of the records: a count over no field and no share."""
    return spec.agg == "count" and spec.field is None and spec.share is None


def _ranked(span: Span, tag: Tag, found: Evidence, catalog: Catalog) -> bool:
    """A ranking, an extreme, a bound (a number, or the overall figure), or a difference ("more TEU
    than MSC", "exceed")."""
    bounded = bool(found.quantities) or found.held
    ranked = found.ranked or bool(found.aggs & {"min", "max"}) or bounded
    return ranked or "difference" in found.steps


def _number(span: Span, tag: Tag, found: Evidence, catalog: Catalog) -> bool:
    return _has_number(found, float(tag.value)) or _a_year(found, tag.value)


def _interval(span: Span, tag: Tag, found: Evidence, catalog: Catalog) -> bool:
    return found.periodic or bool(found.steps & {"per_period", "top_each"})


def _negation(span: Span, tag: Tag, found: Evidence, catalog: Catalog) -> bool:
    return found.negated or bool(found.quantities)


def _compare(span: Span, tag: Tag, found: Evidence, catalog: Catalog) -> bool:
    return bool(found.grouped) or len(found.periods) > 1 or found.compared or found.periodic


def _time(span: Span, tag: Tag, found: Evidence, catalog: Catalog) -> bool:
    said: TimeRange = tag.value
    if _figure(span) is not None and _in(found.quantities, _figure(span) or 0.0):
        return True  # "over 2000 kg": a bare year the date grammar took, read as the quantity
    changes = bool(found.steps & {"change"})
    return changes or any(_within(period, said) for period in found.periods)


def _within(period: TimeFilter, said: TimeRange) -> bool:
    """A period read no wider than the words said (a composite "June 2026" is within "2026")."""
    if period.start and period.end and period.start > period.end:
        return False
    starts = said.start is None or (period.start is not None and period.start >= said.start)
    ends = said.end is None or (period.end is not None and period.end <= said.end)
    return starts and ends


def _set(span: Span, tag: Tag, found: Evidence, catalog: Catalog) -> bool:
    """ "both A and B" (every), "never A" (none), "A and B combined" (one figure over both)."""
    if tag.value == "union":
        return not found.split
    return bool(found.steps & {"has_none" if tag.value == "none" else "has_all"})


def _kind_of_step(*kinds: str) -> Check:
    def check(span: Span, tag: Tag, found: Evidence, catalog: Catalog) -> bool:
        return bool(found.steps & set(kinds)) or ("change" in kinds and len(found.periods) > 1)

    return check


def _percentile(span: Span, tag: Tag, found: Evidence, catalog: Catalog) -> bool:
    return "percentile" in found.aggs


def _share(span: Span, tag: Tag, found: Evidence, catalog: Catalog) -> bool:
    return found.shared or bool(found.steps & {"change"})


def _date_part(span: Span, tag: Tag, found: Evidence, catalog: Catalog) -> bool:
    derived = {n for n, f in catalog.record.fields.items() if f.derived is not None}
    return bool(found.fields & derived)


def _adjective(span: Span, tag: Tag, found: Evidence, catalog: Catalog) -> bool:
    return _ranked(span, tag, found, catalog) or bool(found.aggs - {"count"})


def _link_value(span: Span, tag: Tag, found: Evidence, catalog: Catalog) -> bool:
    """ "Ocean Alliance members": a linked object's attribute value, filtered through a link."""
    return (tag.value.attribute, normalize(str(tag.value.value))) in found.values


def _scope(span: Span, tag: Tag, found: Evidence, catalog: Catalog) -> bool:
    """ "across all ports" (pooled), "respectively" (one per value): the reading's scope said."""
    return found.scoped


def _said_verb(span: Span, tag: Tag, found: Evidence, catalog: Catalog) -> bool:
    """ "what did they ship": a date field's verb says the records' event, whatever else it
    names."""
    return True


def _bounded(span: Span, tag: Tag, found: Evidence, catalog: Catalog) -> bool:
    """ "tracks that cost 1.99": a measure verb says a bound or an equality the reading holds."""
    return bool(found.quantities)


# kind → what in the Meaning explains a span of that kind
CHECKS: dict[str, Check] = {
    "value": _value,
    "name": _name,
    "field": _field,
    "measure": _measure,
    "rank": _ranked,
    "degree": _adjective,
    "adjective": _adjective,
    "number": _number,
    "interval": _interval,
    "interval_unit": _interval,  # "salary per year": a calendar unit, grouped by
    "negation": _negation,
    "compare": _compare,
    "time": _time,
    "step": _kind_of_step("running", "change", "difference"),
    "change": _kind_of_step("change", "difference"),
    "difference": _kind_of_step("difference"),
    "set": _set,
    "median": _percentile,
    "percentile": _percentile,
    "share": _share,
    "part_unit": _date_part,
    "part_value": _date_part,
    "threshold": _ranked,
    "date_word": _said_verb,
    "link_value": _link_value,
    "scope": _scope,
    "value_verb": _bounded,
}


def explained(span: Span, found: Evidence, catalog: Catalog) -> bool:
    """A span is read when any of its tags finds evidence, or its words are carried as said."""
    if normalize(span.text) and set(normalize(span.text).split()) <= found.words:
        return True
    if span.has("record"):
        return True  # "how many pizzas were sold": the records' noun, whatever field it also names
    checks = [(CHECKS[t.kind], t) for t in span.tags if t.kind in CHECKS]
    return any(check(span, tag, found, catalog) for check, tag in checks)


# what a follow-up's own words must find in the reading: the rest is the follow-up's grammar
_FOLLOW_UP_CONTENT = frozenset({"name", "value", "time", "number"})


def content(span: Span, follow_up: bool = False) -> bool:
    """A content span: words the grammar or the catalog knows as something a reading must use (a
    value, a name, a field, a measure, a number, a period, a ranking, a comparison…), not grammar
    (quiet or framing words only). A word neither knows ("haul") is the reader's to report: the
    rules backend always does, and a chat model may know it better than the catalog does."""
    if span.quiet or not span.key.strip():
        return False
    if follow_up:
        return any(t.kind in _FOLLOW_UP_CONTENT for t in span.tags)
    return bool(span.tags) and not all(t.kind in _FRAMING for t in span.tags)


def _has_number(found: Evidence, number: float) -> bool:
    return _in(found.numbers, number)


# a number said in a scale or a unit the reading converted: "2.5 million", "3 weeks" (21 days)
_SCALES = (1.0, 1e3, 1e6, 1e9, 1e-3, 0.01, 7.0, 24.0, 30.0, 31.0, 365.0)


def _in(numbers: set[float], number: float) -> bool:
    return any(abs(n - number * k) <= 1e-6 * max(1.0, abs(n)) for n in numbers for k in _SCALES)


def _a_year(found: Evidence, number: Any) -> bool:
    years = {d.year for p in found.periods for d in (p.start, p.end) if d is not None}
    return float(number).is_integer() and int(number) in years


# -- patterns over several spans ------------------------------------------------------------------
def _after(spans: list[Span], i: int) -> Span | None:
    """The next span that is not a function word ("over the 2000 mark" → 2000)."""
    for span in spans[i + 1 : i + 3]:
        if not (span.quiet and not span.has("number")):
            return span
    return None


def _quantity_after_comparison(spans: list[Span], found: Evidence) -> Iterator[Unexplained]:
    """ "over 2000 shipments": a number after a comparison word bounds a quantity, even where its
    digits could be a year."""
    for i, span in enumerate(spans):
        number = _after(spans, i) if span.has("threshold") else None
        if number is not None and _a_period_read(number, found):
            continue  # "growth in 2025 over 2024": the year is a period compared
        figure = _figure(number) if number is not None else None
        if figure is not None and not _in(found.quantities, figure):
            yield Unexplained(
                words=f"{span.text} {number.text}" if number else span.text,
                why="a quantity after a comparison word; the reading bounds nothing by it",
            )


def _a_period_read(span: Span, found: Evidence) -> bool:
    said: TimeRange | None = span.value("time")
    return said is not None and any(_within(period, said) for period in found.periods)


def _figure(span: Span) -> float | None:
    """The number a span says: a number, or a bare year the date grammar took for a period."""
    if span.has("number"):
        return float(span.value("number"))
    said: TimeRange | None = span.value("time")
    digits = span.text.replace(",", "")
    return float(digits) if said is not None and digits.isdigit() else None


def _overall_then_grouped(
    spans: list[Span], found: Evidence, grammar: Grammar
) -> Iterator[Unexplained]:
    """ "median transit time across all ports": one figure over the ports, not one per port (but
    for the figure groups are held against: "more TEU than the average across all ports")."""
    overall = {normalize(w) for w in grammar.scope.pooled}
    for i in range(len(spans) if not found.held else 0):
        phrase = _phrase_at(spans, i, overall)
        if phrase is None:
            continue
        following = spans[i + phrase : i + phrase + 2]
        grouped = [s for s in following if set(s.values("field")) & found.grouped]
        if grouped:
            words = " ".join(s.text for s in spans[i : i + phrase]) + " " + grouped[0].text
            yield Unexplained(words=words, why="asks one figure over all of them, read per each")


def _phrase_at(spans: list[Span], i: int, phrases: set[str]) -> int | None:
    """How many spans from `i` say one of `phrases`, if any do."""
    for size in (3, 2, 1):
        said = " ".join(s.key for s in spans[i : i + size])
        if len(spans) >= i + size and said in phrases:
            return size
    return None


def _had_measured(
    spans: list[Span], found: Evidence, catalog: Catalog, grammar: Grammar
) -> Iterator[Unexplained]:
    """ "shipments that had a declared value": a filter on the value being there, not its sum."""
    having = {normalize(w) for w in [*grammar.having.has, *grammar.having.lacks]}
    fields = catalog.record.fields
    for i, span in enumerate(spans):
        if span.key not in having:
            continue
        thing = _after(spans, i)
        if thing is None or _bounds_follow(spans, spans.index(thing)):
            continue
        named = [f for f in thing.values("field") if f in fields]
        numeric = [f for f in named if fields[f].role == "measure"]
        if numeric and not set(numeric) & found.filtered:
            yield Unexplained(
                words=f"{span.text} {thing.text}",
                why="asks which records have it; the reading does not filter on it",
            )


def _bounds_follow(spans: list[Span], i: int) -> bool:
    """ "with revenue above $10k", "with transit times longer than average": the words after the
    thing bound it (a threshold, not a filter)."""
    kinds = ("threshold", "number", "degree", "rank")
    comparative = any(
        a[3] == "comparative" for s in spans[i + 1 : i + 3] for a in s.values("adjective")
    )
    return comparative or any(s.has(k) for s in spans[i + 1 : i + 3] for k in kinds)


def _measured_span(span: Span, found: Evidence) -> bool:
    """The span names a field or a measure the reading measures."""
    fields = [str(t.value) for t in span.tags if t.kind in ("field", "measure")]
    return any(f in found.fields or f in found.measured for f in fields)


# a reply picking among offered options is matched, not read: its words name an option
_PICKS = ("clarification_reply", "unmatched_reply", "reask")


@dataclass(frozen=True)
class Turn:
    """Where a reading stands in its turn: the turn's words, how it continues the thread, its goal,
    and the other goals read from the same words."""

    question: str
    continuation: str = "new"
    goal_id: int = 0
    beside: list[Meaning] = field(default_factory=list)


# -- the audit ------------------------------------------------------------------------------------
@dataclass
class Audit:
    """The audit over one catalog: `tag` reads a question into spans as the rules backend does."""

    catalog: Catalog
    grammar: Grammar
    tag: Callable[[str, date], list[Span]]

    def verdict(
        self,
        meaning: Meaning,
        today: date,
        goal_id: int = 0,
        follow_up: str | None = None,
        beside: list[Meaning] | None = None,
    ) -> Verdict:
        """The reading checked against its question; of a follow-up ("and in Tacoma?"), against
        the turn's own words, whose names, values, periods and numbers it must hold."""
        if not self._audited(meaning):
            return Verdict(goal_id=goal_id, approved=True)
        spans = self.tag(follow_up or meaning.text, today)
        found = evidence(meaning, beside)
        # "years of education": the unit of a measure the reading uses
        units = units_before(spans, self.grammar, lambda s: _measured_span(s, found))
        missing = [
            Unexplained(words=s.text, why=_why(s))
            for i, s in enumerate(spans)
            if content(s, follow_up is not None)
            and i not in units
            and not explained(s, found, self.catalog)
        ]
        missing += list(_quantity_after_comparison(spans, found))
        if follow_up is None:
            missing += list(_overall_then_grouped(spans, found, self.grammar))
            missing += list(_had_measured(spans, found, self.catalog, self.grammar))
        unexplained = _widest(missing)
        return Verdict(goal_id=goal_id, approved=not unexplained, unexplained=unexplained)

    def reviewed(self, meaning: Meaning, today: date, turn: Turn) -> tuple[Meaning, Verdict | None]:
        """The reading as it goes on (its unexplained words said as not understood), and the
        verdict; a reply picking among offered options is matched, not read, and not audited."""
        if turn.continuation in _PICKS:
            return meaning, None
        follow_up = None if turn.continuation == "new" else turn.question
        verdict = self.verdict(meaning, today, turn.goal_id, follow_up, turn.beside)
        return flagged(meaning, verdict), verdict

    def _audited(self, meaning: Meaning) -> bool:
        """Readings answered with figures of the records; a refusal, a question back, one object's
        record and a listing of reference objects say what they are without a figure to doubt."""
        asks_back = any(a.kind == "entity" for a in meaning.ambiguities)
        answered = meaning.refusal is None and meaning.lookup is None and not asks_back
        return answered and meaning.index == self.catalog.record.index


def _widest(missing: list[Unexplained]) -> list[Unexplained]:
    """Each unexplained phrase once, and none inside a wider one ("500" within "more than 500")."""
    unique = list({u.words: u for u in missing}.values())
    return [
        u
        for u in unique
        if not any(u.words != o.words and f" {u.words} " in f" {o.words} " for o in unique)
    ]


def _why(span: Span) -> str:
    kinds = sorted({t.kind for t in span.tags} - _FRAMING)
    if not kinds:
        return "no part of the reading uses it"
    return f"read as {' or '.join(kinds)}, but no part of the reading uses it"


def flagged(meaning: Meaning, verdict: Verdict) -> Meaning:
    """The reading with the words the audit found unread said as not understood."""
    if verdict.approved:
        return meaning
    said = [u.words for u in verdict.unexplained if u.words not in meaning.not_understood]
    return meaning.model_copy(update={"not_understood": [*meaning.not_understood, *said]})
