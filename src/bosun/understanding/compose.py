"""The composition rules: a data goal's spans → its Meaning.

Each rule reads some spans and marks them used; what no rule used is reported in `not_understood`.
`compose` lists the rules in the order they run; each rule's docstring gives an example. Nothing
here knows an English word or a domain: the words are in en.yaml (the grammar) and the catalog.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

from bosun.catalog import Catalog
from bosun.catalog.schema import FieldSpec
from bosun.understanding import (
    baselines,
    counted_values,
    degrees,
    group_steps,
    having,
    heads,
    leading,
    presence,
    qualifiers,
    scope,
    sides,
    units_of,
)
from bosun.understanding.bounds import field_of_unit as _field_of_unit
from bosun.understanding.bounds import measure_field as _measure_field
from bosun.understanding.bounds import threshold_number as _threshold_number
from bosun.understanding.bounds import written_unit as _written_unit
from bosun.understanding.dateparts import date_parts
from bosun.understanding.following import Following
from bosun.understanding.grammar import Grammar
from bosun.understanding.group_lists import listed_groupings
from bosun.understanding.holders import held_by
from bosun.understanding.inflections import singular
from bosun.understanding.levels import catalog_sums, is_level, level_totals, running_levels
from bosun.understanding.meaning import (
    TOP_N_MOST,
    Ambiguity,
    Condition,
    Meaning,
    Measure,
    Refusal,
    RefusalReason,
    Share,
    TimeFilter,
)
from bosun.understanding.measure_kinds import (
    distinct_attributes,
    first_last,
    percentiles,
    shares,
    side_by_side,
)
from bosun.understanding.modifiers import narrows
from bosun.understanding.periods import periods, periods_measured
from bosun.understanding.phrases import field_name
from bosun.understanding.record_bounds import record_bounds
from bosun.understanding.sets import sets
from bosun.understanding.tagger import Span, is_plural, kind_at, read, time_of, unread_at
from bosun.understanding.unit_bounds import bound_field, measure_equalities

_GLUE = frozenset({"function", "filler", "neutral", "structure", "meaning", "quantifier"})
# Kinds that shape a question without being content of their own: not reported when left unused.
_STRUCTURE = frozenset(
    {
        "wh",
        "conj",
        "backref",
        "about",
        "page",
        "compare",
        "record",
        "entity_word",
        "object",
        "date_word",
        "degree",
        "group_cue",
        "name",
        "time",
        "currency",
        "term",
        "function",
        "field_question",
        "filler",
        "neutral",
        "sort_cue",
        "structure",
    }
)
# Kinds of the catalog's own words: a refusal word the catalog reads as one of these is the
# catalog's.
_CATALOG = frozenset(
    {
        "field",
        "measure",
        "adjective",
        "value",
        "record",
        "object",
        "entity_word",
        "date_word",
        "term",
        "name",
    }
)
_WORDLIKE = re.compile(r"\w")  # a letter, a digit or "_": a symbol that stands for something
# (field|measure, its name, +1 more / -1 less, base|comparative|superlative)
Adjective = tuple[str, str, int, str]


@dataclass
class Composer:
    """The catalog and grammar the rules read, and what one composition learns along the way."""

    catalog: Catalog
    grammar: Grammar
    today: date | None = None  # the turn's day: a range after it asks about the future
    # measures asked beside a ranking ("and their transit times")
    extra: set[str] = field(default_factory=set)
    wh_count: int | None = None  # "which 3 carriers"
    wh_plural: bool | None = None  # "which carriers" (several) or "which carrier" (one)
    said: list[str] = field(default_factory=list)  # words read but not usable ("top 0")
    # the question names the records ("shipments by carrier" counts them)
    records_named: bool = False
    wh_interval: bool = False  # "which month …" groups by month only when something is measured
    # the ranked noun is plural ("the busiest ports") or not ("the busiest port")
    ranked_plural: bool | None = None
    # a grouping asked by "for each", "per", "every": (field, its cue)
    per_group: tuple[str, Span] | None = None
    # what follows each span, by kind, for each list of spans read: (the list, its table)
    _following: dict[tuple[int, str], tuple[list[Span], Following[Span]]] = field(
        default_factory=dict, repr=False
    )
    # a sum of a level kept as asked (a model's reading, for validate_meaning to refuse); the rules
    # read "total transit time" as the level the catalog measures
    sums_levels: bool = False

    # -- span helpers ------------------------------------------------------------------------------
    @staticmethod
    def glue(span: Span) -> bool:
        """A span that only joins: "the", "of", "did", "moved"."""
        return bool(span.tags) and all(t.kind in _GLUE for t in span.tags)

    def after(self, spans: list[Span], i: int) -> int | None:
        """The next span after i that is not glue."""
        return self.following(spans, "solid", lambda span: not self.glue(span)).after(i)

    def following(
        self, spans: list[Span], name: str, kind: Callable[[Span], bool]
    ) -> Following[Span]:
        """The table of the next span of a kind (named `name`) after each span of `spans`, made
        once a list: a span's tags do not change while it is read."""
        key = (id(spans), name)
        held = self._following.get(key)
        if held is None or held[0] is not spans or len(held[1].items) != len(spans):
            held = (spans, Following(list(spans), kind))
            self._following[key] = held
        return held[1]

    def before(self, spans: list[Span], i: int, limit: int = 3) -> int | None:
        """The nearest span before i that is not glue, within `limit` spans."""
        return next(
            (j for j in range(i - 1, max(-1, i - 1 - limit), -1) if not self.glue(spans[j])), None
        )

    def role(self, name: str) -> str:
        spec = self.catalog.record.fields.get(name)
        return spec.role if spec else ""

    def fields_of(self, span: Span, role: str) -> list[str]:
        """The record fields of a role ("dimension", "date", "measure") that a span names."""
        return [f for f in span.values("field") if self.role(f) == role]

    def dimension(self, span: Span, meaning: Meaning | None = None) -> str | None:
        """The record field a span names as something to group by ("carriers", "port of unlading").

        A word of several fields ("origin country") takes the first, and the choice is said; a word
        naming only an object ("harbor") the field holding that object.
        """
        fields = self.fields_of(span, "dimension")
        if not fields:
            held = (held_by(self.catalog, obj) for obj in span.values("object"))
            fields = [f for f in held if f is not None][:1]
        if (
            len(fields) > 1
            and meaning is not None
            and all(a.term != span.key for a in meaning.ambiguities)
        ):
            meaning.ambiguities.append(
                Ambiguity(term=span.key, kind="field", options=fields, default=fields[0])
            )
        return fields[0] if fields else None

    def negated(self, spans: list[Span], i: int) -> bool:
        """ "not from X", "excluding shipments from X": a negation just before, only glue or nouns
        between."""
        for j in range(i - 1, max(-1, i - 4), -1):
            if spans[j].has("negation"):
                spans[j].used = True
                return True
            # "not carried by X": only small words between
            if not (spans[j].quiet or spans[j].has("record")):
                return False
        return False

    # -- measures ----------------------------------------------------------------------------------
    def measure(self, name: str, agg: str | None = None) -> Measure:
        spec = self.catalog.spec.measures[name]
        # "how many shipments in total": a count is a total already
        counted = spec.agg in ("count", "cardinality") and agg == "sum"
        chosen = spec.agg if counted or agg is None else agg
        # "total transit time": a level is never summed (levels.py), but where the catalog defines
        # its own total of the field ("total GSP" of a panel)
        summable = self.sums_levels or catalog_sums(spec.field, self.catalog)
        if chosen == "sum" and not summable and is_level(spec, self.catalog):
            chosen = spec.agg
        label = spec.label
        # "the longest transit": the maximum of the field, not of its average
        if chosen != spec.agg:
            aggregation = self.grammar.aggregation_labels.get(chosen, chosen)
            label = f"{aggregation} {self.unaggregated(spec.label)}"
        share = catalog_share(self.catalog, spec.share) if spec.share else None
        return Measure(
            name=name, agg=chosen, field=spec.field, label=label, unit=spec.unit, share=share
        )

    def unaggregated(self, label: str) -> str:
        """A measure's label without its aggregation ("average transit days" → "transit days"),
        to say it aggregated otherwise ("maximum transit days")."""
        for word in self.grammar.aggregation_labels.values():
            label = label.removeprefix(f"{word} ")
        return label

    def field_measure(self, name: str, agg: str | None = None) -> Measure:
        """The catalog's measure over a field, or a plain one ("earliest departure": min of
        departure_date)."""
        named = next((n for n, m in self.catalog.spec.measures.items() if m.field == name), None)
        if named is not None:
            return self.measure(named, agg)
        chosen = agg or _additive(self.catalog.record.fields[name])
        said = field_name(name, self.catalog)  # "average declared value", not "… value usd"
        label = f"{self.grammar.aggregation_labels.get(chosen, chosen)} {said}"
        return Measure(
            name=f"{chosen}_{name}",
            agg=chosen,
            field=name,
            label=label,
            unit=self.catalog.record.fields[name].unit,
        )

    def adjective_measure(self, adjective: Adjective) -> Measure:
        return (
            self.measure(adjective[1])
            if adjective[0] == "measure"
            else self.field_measure(adjective[1])
        )

    def default_measure(self) -> Measure:
        """The count, or on rows that are already summaries the main figure unless the rows were
        named."""
        figure = self.catalog.spec.defaults.figure
        return self.measure(
            figure if figure and not self.records_named else self.catalog.spec.defaults.measure
        )

    def counting(self, span: Span) -> bool:
        """A word of the default (count) measure that is not a record noun: "how many", "number
        of"."""
        return self.catalog.spec.defaults.measure in span.values("measure") and not span.has(
            "record"
        )


def _additive(spec: FieldSpec) -> str:
    """How a field is measured when nothing says: summed, or averaged when it is a level."""
    return "avg" if spec.level else "sum"


def catalog_share(catalog: Catalog, part: dict[str, list[str]]) -> Share:
    """A ratio measure's part as conditions, its values typed as the field is (a boolean's "true" is
    True)."""
    conditions = []
    for name, values_ in part.items():
        boolean = catalog.record.fields[name].type == "boolean"
        typed: list[str | int | float | bool] = (
            [v == "true" for v in values_] if boolean else list(values_)
        )
        conditions.append(Condition(field=name, values=typed, source=name))
    return Share(part=conditions)


def compose(spans: list[Span], meaning: Meaning, composer: Composer) -> Meaning:
    """Every rule, in order, over the spans of one data goal (names are already filters in
    `meaning`)."""
    for rule in (
        units_of.units_of_measures,
        values,
        qualifiers.term_values,
        sides.sides,
        sides.differences,
        # before the scope words: "the average across all ports" names the groups held against
        baselines.against_overall,
        scope.pooled,
        scope.among,
        scope.ranked_records,
        quantifiers,
        group_steps.group_thresholds,
        ranges,
        record_bounds,
        thresholds,
        measure_equalities,
        having.having,
        presence.presence,
        time_filter,
        periods,
        first_last,
        date_parts,
        distinct,
        distinct_attributes,
        group_steps.per_period,
        heads.ranked_heads,
        grouping,
        listed_groupings,
        leading.leading_things,
        level_totals,
        percentiles,
        group_steps.period_steps,
        measures,
        recency,
        ranking,
        ordering,
        qualifiers.head_nouns,
        qualifiers.participles,
        counted_values.plural_values,
        records_or_count,
        group_steps.step_measures,
        periods_measured,
        sets,
        comparison,
        sides.measured,
        sides.more_of_the_sides,
        scope.separate,
        side_by_side,
        shares,
        page,
        running_levels,
        leading.who_asks_groups,
    ):
        rule(spans, composer, meaning)
    meaning.intent_type = (
        "aggregation" if (meaning.measures or meaning.group_by or meaning.interval) else "search"
    )
    return meaning


def add_value(
    meaning: Meaning, field_name: str, values_: list[Any], source: str, negate: bool
) -> None:
    """A filter on a field; a second value on the same field widens it and makes a comparison."""
    for condition in meaning.conditions:
        if condition.field == field_name and condition.negate == negate and condition.values:
            fresh = [v for v in values_ if v not in condition.values]
            condition.values.extend(fresh)
            if fresh and field_name not in meaning.compare and not negate:
                meaning.compare.append(field_name)
            return
    meaning.conditions.append(
        Condition(field=field_name, values=values_, source=source, negate=negate)
    )


def values(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "reefer shipments", "not in transit": a field's vocabulary word filters it (several values:
    any)."""
    for i, span in enumerate(spans):
        found = span.values("value")
        if not found or span.used:
            continue
        by_field: dict[str, list[Any]] = {}
        for name, value in found:
            by_field.setdefault(name, []).append(value)
        negate = c.negated(spans, i)
        for name, vals in by_field.items():
            meaning.conditions.append(
                Condition(
                    field=name, values=list(dict.fromkeys(vals)), source=span.key, negate=negate
                )
            )
        span.used = True


def quantifiers(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "all shipments from Busan", "any Maersk arrivals", "all carriers", "all salaries": a
    quantifier right before a record noun, a name, a value, a field or a measure says the records
    (or values) as they stand. Anywhere else ("all of Savannah, Houston and Miami") it is left
    unread, so reported."""
    kinds = ("record", "name", "value", "date_word", "field", "object", "measure")
    for i, span in enumerate(spans[:-1]):
        following = spans[i + 1]
        if span.unread("quantifier") and following.has(*kinds):
            span.used = True


# -- ranges and thresholds -------------------------------------------------------------------------
def ranges(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "between 10 and 20 tons", "from 5 to 8 days": both bounds of one measure field."""
    for i, span in enumerate(spans[:-3]):
        low, join, high = spans[i + 1], spans[i + 2], spans[i + 3]
        if span.used or not _range_words(span, low, join, high, c):
            continue
        written, unit_at = _written_unit(spans, i + 3)
        name = (
            _field_after(spans, i + 3, c)
            or _field_of_unit(written, c)
            or _field_before(spans, i, c)
        )
        if name is None:
            continue
        _field_before(spans, i, c, name, limit=1)  # "weighing between 2 and 3 tons": read
        unit, factor = c.grammar.units.get(written, ("", 1.0))
        scale = factor if unit and unit == c.catalog.record.fields[name].unit else 1.0
        meaning.conditions.append(
            Condition(
                field=name,
                source=span.text,
                gte=float(low.value("number")) * scale,
                lte=float(high.value("number")) * scale,
            )
        )
        read([span, low, join, high, *_unit_span(spans, unit_at)])


def _range_words(word: Span, low: Span, join: Span, high: Span, c: Composer) -> bool:
    """ "between 10 and 20", "from 5 to 8": a range word, a number, a join, a number."""
    numbers = low.has("number") and high.has("number")
    return numbers and word.key in c.grammar.range_words and join.key in c.grammar.range_joins


def _unit_span(spans: list[Span], unit_at: int | None) -> list[Span]:
    """The span of a number's unit, when one was written ("20 tons")."""
    return [spans[unit_at]] if unit_at is not None else []


# -- thresholds ------------------------------------------------------------------------------------
def thresholds(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "heavier than 20 tons", "over $1.5M", "at least 5 boxes", "10 days or more": a range on a
    measure."""
    for i, span in enumerate(spans):
        found = _operator(spans, i, c)
        if found is None:
            continue
        op, hint, width = found
        number = _threshold_number(spans, i, width, c)
        if number is None:
            continue
        at, value = number
        written, unit_at = _written_unit(spans, at)
        name = bound_field(spans, i, at, hint, written, c)  # of the written unit (unit_bounds.py)
        if name is None:  # "over 5 widgets": a threshold on nothing the catalog knows, said
            c.said.append(" ".join(s.text for s in spans[i : at + 2]))
            read(spans[i : at + 2])
            continue
        _field_after(spans, at, c, name)
        # "a declared value above $250k": the field's words are read
        _field_before(spans, i, c, name, limit=1)
        unit, factor = c.grammar.units.get(written, ("", 1.0))
        if unit and unit == c.catalog.record.fields[name].unit:
            value *= factor
        read([*spans[i : i + width], spans[at], *_unit_span(spans, unit_at)])
        bound = {
            "gt": op == "gt",
            "gte": op in ("gte", "eq"),
            "lt": op == "lt",
            "lte": op in ("lte", "eq"),
        }
        meaning.conditions.append(
            Condition(field=name, source=span.text, **{k: value for k, on in bound.items() if on})
        )


def _operator(spans: list[Span], i: int, c: Composer) -> tuple[str, str | None, int] | None:
    """(range operator, the field an adjective names, how many spans the operator takes) at i."""
    span = spans[i]
    if span.used:
        return None
    if span.has("threshold"):
        return span.value("threshold"), None, 1
    graded = _graded(spans, i, "comparative")
    if graded is None or not _key_at(spans, i + graded[2], "than"):
        return None
    direction, adjective, width = graded
    name = adjective[1] if adjective[0] == "field" else c.catalog.spec.measures[adjective[1]].field
    return ("gt" if direction > 0 else "lt"), name, width + 1


def _graded(spans: list[Span], i: int, grade: str) -> tuple[int, Adjective, int] | None:
    """(direction, adjective, spans taken) of an adjective of a grade at i: "heavier", "busiest", or
    a degree word of the grade before an adjective ("more valuable", "most busy")."""
    own = [a for a in spans[i].values("adjective") if a[3] == grade]
    if own:
        return own[0][2], own[0], 1
    degree = spans[i].value("degree")
    following = _adjectives_after(spans, i)
    if degree and degree[0] == grade and following:
        return following[0][2] * degree[1], following[0], 2
    return None


def _adjectives_after(spans: list[Span], i: int) -> list[Adjective]:
    """The adjectives the span after i can be ("busy" of "least busy")."""
    return spans[i + 1].values("adjective") if i + 1 < len(spans) else []


def _key_at(spans: list[Span], j: int, key: str) -> bool:
    """There is a span at j and it is the word `key`."""
    return j < len(spans) and spans[j].key == key


def _field_after(spans: list[Span], at: int, c: Composer, wanted: str | None = None) -> str | None:
    """The measure field named just after a threshold's number ("30 days in transit"); its words are
    read."""
    for j in range(at + 1, min(len(spans), at + 4)):
        name = _measure_field(spans[j], c)
        if name and wanted in (None, name):
            spans[j].used = True
            return name
    return None


def _field_before(
    spans: list[Span], i: int, c: Composer, wanted: str | None = None, limit: int = 3
) -> str | None:
    """The measure field named in the `limit` words before i ("a transit of more than …"), glue not
    counted."""
    near = [j for j in range(i - 1, -1, -1) if not c.glue(spans[j])][:limit]
    for j in near:
        name = _measure_field(spans[j], c)
        if name and wanted in (None, name):
            spans[j].used = True
            return name
    return None


# -- time ------------------------------------------------------------------------------------------
def time_filter(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "shipped last month": the range on the date field of the first date word said (else the
    default).

    With no date word, or several, the choice is an ambiguity that the answer states.
    """
    # used: a year of a link ("built in 2015")
    span = next((s for s in spans if s.unread("time")), None)
    time = time_of(span) if span else None
    if span is None or time is None:
        return
    span.used = True
    spec = c.catalog.spec.time
    named = _dates_named(spans, c)
    chosen = named[0] if named else spec.default_field
    meaning.time = TimeFilter(field=chosen, start=time.start, end=time.end, text=time.text)
    others = named[1:] if named else [f for f in spec.fields if f != chosen]
    if others:
        meaning.ambiguities.append(
            Ambiguity(term=time.text, kind="field", options=[chosen, *others], default=chosen)
        )


def _dates_named(spans: list[Span], c: Composer) -> list[str]:
    """The date fields the unread words name, in order: "shipped", "expected arrivals". A word read
    as a date is read, unless it is also a measure ("arrivals" is a count, read by `measures`)."""
    named: list[str] = []
    for span in [s for s in spans if not s.used]:  # used: "with no eta" is no date word
        dates = [*span.values("date_word"), *c.fields_of(span, "date")]
        span.used = bool(dates) and not span.has("measure")
        named += dates
    return list(dict.fromkeys(named))


# -- distinct counts, grouping ---------------------------------------------------------------------
def distinct(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "how many distinct shippers …", "number of carriers serving X": a count of a field's
    values."""
    for i, span in enumerate(spans):
        asks = c.counting(span) or _distinct_word(span)
        counted = _counted_field(spans, i, c) if asks else None
        if counted is None:
            continue
        j, name = counted
        meaning.measures.append(_distinct_measure(name, c))
        span.used = spans[j].used = True
        k = c.after(spans, j)
        # "distinct vessel count": one count
        if k is not None and c.counting(spans[k]) and span.value("agg"):
            spans[k].used = True


def _counted_field(spans: list[Span], i: int, c: Composer) -> tuple[int, str] | None:
    """Where and which dimension the count word at i counts the values of, past "distinct" words
    (read): "how many distinct shippers", "number of carriers". Not a record noun: "how many pizzas"
    where a row is a pizza sold counts rows, not the pizza names."""
    j = c.after(spans, i)
    while j is not None and _distinct_word(spans[j]):
        spans[j].used = True
        j = c.after(spans, j)
    if j is None or spans[j].used or spans[j].has("record"):
        return None
    name = c.dimension(spans[j])
    return (j, name) if name is not None else None


def _distinct_measure(name: str, c: Composer) -> Measure:
    """The count of a field's values, labelled by its plural synonym ("distinct carriers")."""
    spec = c.catalog.record.fields[name]
    label = f"distinct {next((s for s in spec.synonyms if s.endswith('s')), name)}"
    return Measure(name=f"distinct_{name}", agg="cardinality", field=name, label=label)


def _distinct_word(span: Span) -> bool:
    """ "distinct", "unique": a word asking a count of different values."""
    return "cardinality" in [a[0] for a in span.values("agg")]


def grouping(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "by carrier", "per month", "for each port", "monthly", "which 3 carriers …", "who ships …":
    groups."""
    for i, span in enumerate(spans):
        if span.unread("interval"):
            meaning.interval = span.value("interval")
            span.used = True
        # "who ships the most toys": the catalog's phrase for shippers
        elif not span.used and _asks_party(span, c):
            _add_group(meaning, c.dimension(span, meaning) or "")
            c.wh_plural, span.used = False, True
        elif span.has("group_cue", "wh"):
            _group_after(spans, i, c, meaning)
        elif span.key in c.grammar.list_cues and not span.used:
            _listed_after(spans, i, c, meaning)


def _listed_after(spans: list[Span], i: int, c: Composer, meaning: Meaning) -> None:
    """ "list the carriers in Savannah": a grouping field's plural after a word asking for a list
    groups by it; not "list Maersk shipments" (records), nor "show the carrier" of one record."""
    j = c.after(spans, i)
    if j is None or spans[j].used or not is_plural(spans[j]):
        return
    name = c.dimension(spans[j], meaning)
    if name is not None and name not in meaning.group_by:
        meaning.group_by.append(name)
        spans[j].used = True


def _add_group(meaning: Meaning, name: str) -> None:
    """Groups by the field `name`, once."""
    if name not in meaning.group_by:
        meaning.group_by.append(name)


def _interval_over_field(target: Span, name: str | None, c: Composer, meaning: Meaning) -> None:
    """ "per year" where a field is also named "year" (a season's year, a fiscal year): the
    calendar's periods of the date are used, and said, since the field may be the year the asker
    means."""
    if name is not None and c.role(name) != "date":
        date = c.catalog.spec.time.default_field
        meaning.assumptions.append(
            f"“{target.text}” read as the calendar {target.value('interval_unit')} of {date}, "
            f"not the field {name}"
        )


def _asks_party(span: Span, c: Composer) -> bool:
    """A dimension's phrase that starts with a question word ("who ships", "who imported")."""
    return bool(c.dimension(span)) and span.key.split()[0] in c.grammar.wh_persons


def _group_after(spans: list[Span], i: int, c: Composer, meaning: Meaning) -> None:
    """What a grouping cue or a question word at i groups by: the word after it."""
    cue = spans[i]
    j = _past_wh_count(spans, i, c)
    if j is None or spans[j].used:
        return
    target = spans[j]
    name = c.dimension(target, meaning)
    if target.has("interval_unit"):
        _group_by_period(cue, target, name, c, meaning)
    elif name is not None:
        _group_by_field(cue, target, name, c, meaning)
    elif not _cue_without_group(cue, target, c):
        return
    cue.used = True
    target.used = target.used or name is not None or target.has("interval_unit", "record")


def _past_wh_count(spans: list[Span], i: int, c: Composer) -> int | None:
    """The word after the cue at i, past the number of "which 3 carriers" (kept as the count)."""
    j = c.after(spans, i)
    if j is not None and spans[i].has("wh") and spans[j].has("number"):
        c.wh_count = int(spans[j].value("number"))
        spans[j].used = True
        j = c.after(spans, j)
    return j


def _group_by_period(
    cue: Span, target: Span, name: str | None, c: Composer, meaning: Meaning
) -> None:
    """ "per month", "which week had the fewest …" (one week)."""
    meaning.interval = target.value("interval_unit")
    _interval_over_field(target, name, c, meaning)
    c.wh_interval = cue.has("wh")
    if c.wh_interval:
        c.wh_plural = is_plural(target)


def _group_by_field(cue: Span, target: Span, name: str, c: Composer, meaning: Meaning) -> None:
    """ "by carrier", "for each port" (kept: a ranking may be in each group), "which carriers"."""
    _add_group(meaning, name)
    if cue.has("meaning"):
        c.per_group = (name, cue)
    if cue.has("wh"):
        c.wh_plural = is_plural(target)


def _cue_without_group(cue: Span, target: Span, c: Composer) -> bool:
    """A cue read though it groups nothing: "per shipment" (an average per record is the average),
    "value per kg" (a ratio, not computed: said), "per TEU"."""
    if target.has("record") and cue.has("group_cue"):
        return True
    measured = _measure_field(target, c) is not None
    if measured and cue.key in c.grammar.ratio_cues:
        c.said.append(f"{cue.text} {target.text}")
        target.used = True
        return True
    return measured and cue.has("group_cue")


# -- measures --------------------------------------------------------------------------------------
def measures(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "average transit time", "total TEU", "maximum declared value", "earliest departure": what to
    compute.

    An aggregation word just before a measure sets how it is computed; when the question groups, a
    word that also ranks ("the most TEU") ranks instead. "how many TEU" asks TEU, not a count beside
    it.
    """
    seen = {f"{m.agg}:{m.field}" for m in meaning.measures}
    for i, span in enumerate(spans):
        if span.used and not _dated(span, c):
            continue
        agg_at = _agg_before(spans, i, c, grouped=_grouped(meaning))
        agg_at = agg_at if agg_at is not None else _most_of_one(spans, i, c, meaning)
        agg = _agg_of(spans[agg_at]) if agg_at is not None else None
        found = _measure_at(spans, i, c, agg, meaning)
        if found is None:
            continue
        span.used = True
        if agg_at is not None:
            spans[agg_at].used = True
        key = f"{found.agg}:{found.field}"
        if key not in seen:
            seen.add(key)
            meaning.measures.append(found)
            _note_extra(spans, i, c, found)
            if (
                found.name in c.catalog.spec.measures
                and c.catalog.spec.measures[found.name].assumption
            ):
                meaning.assumptions.append(c.catalog.spec.measures[found.name].assumption or "")


def _grouped(meaning: Meaning) -> bool:
    """Groups are asked: a grouping, an interval, or values compared ("Savannah or Charleston")."""
    return bool(meaning.group_by or meaning.interval or meaning.compare)


def _dated(span: Span, c: Composer) -> bool:
    """A date field's word, read by `time_filter` as the date of a range, that an aggregation may
    still measure."""
    return bool(c.fields_of(span, "date"))


def _measure_at(
    spans: list[Span], i: int, c: Composer, agg: str | None, meaning: Meaning
) -> Measure | None:
    span = spans[i]
    names = span.values("measure")
    if span.has("record") and _read_records(spans, i, c):
        return None
    plain = None if agg == "cardinality" else agg
    if names:
        if c.counting(span) and _names_measure_next(spans, i, c):
            span.used = True  # "how many TEU": the count word only introduces the measure
            return None
        return c.measure(_one_measure(span, names, c, meaning), plain)
    measured = c.fields_of(span, "measure")
    if measured:
        return c.field_measure(measured[0], plain)
    dated = c.fields_of(span, "date")
    if dated and agg in ("min", "max"):
        return c.field_measure(dated[0], agg)  # "earliest departure"
    return None


def _read_records(spans: list[Span], i: int, c: Composer) -> bool:
    """Reads the record noun at i as the records, not a measure: counted by the word before ("how
    many sales"), the count's own noun ("shipments": counted only when a grouping or ranking asks),
    or a noun of no measure ("pizzas by size", "flew": "top 2 pizzas" may still rank pizza names).
    False when the noun names another measure."""
    span = spans[i]
    before = c.before(spans, i, limit=2)
    if before is not None and c.counting(spans[before]):
        span.used = True
        return True
    names = span.values("measure")
    counted = c.catalog.spec.defaults.measure in names
    if names and not counted:
        return False
    c.records_named = True
    span.used = span.used or counted
    return True


def _one_measure(span: Span, names: list[str], c: Composer, meaning: Meaning) -> str:
    """One word naming measures over different fields: the default (or the first) is kept, and
    said."""
    spec = c.catalog.spec
    if len({spec.measures[n].field for n in names}) <= 1:
        return str(names[0])
    chosen = spec.defaults.measure if spec.defaults.measure in names else names[0]
    meaning.ambiguities.append(
        Ambiguity(term=span.key, kind="measure", options=names, default=chosen)
    )
    return str(chosen)


def _names_measure_next(spans: list[Span], i: int, c: Composer) -> bool:
    """ "how many TEU" asks TEU; "how many sales" (a record noun) counts records; "how many reefer
    boxes" asks the boxes, the value filtering them."""
    j = c.after(spans, i)
    while j is not None and spans[j].has("value"):
        j = c.after(spans, j)
    return _names_measure(spans, j, c) and not kind_at(spans, j, "record")


def _agg_before(spans: list[Span], i: int, c: Composer, grouped: bool) -> int | None:
    """The aggregation word just before a measure: "the average (of the) transit time", "the largest
    order amount"."""
    j = c.before(spans, i, limit=3)
    while j is not None and _passed(spans, j, c) and not spans[j].has("agg"):
        j = c.before(spans, j, limit=2)
    if j is None or not spans[j].unread("agg"):
        return _agg_after(spans, i, c)
    if _ranks_groups(spans, i, j, c, grouped):
        return None  # "which carrier moved the most TEU": a ranking, read by `ranking`
    return j


def _passed(spans: list[Span], j: int, c: Composer) -> bool:
    """A span between an aggregation word and its measure: the records' noun, a quiet word, or the
    unit the measure is counted in ("average years of education"), a name or value that narrows its
    records ("total steel tonnage")."""
    span = spans[j]
    return span.has("record") or span.quiet or units_of.counts_measure(spans, j, c) or narrows(span)


def _ranks_groups(spans: list[Span], i: int, j: int, c: Composer, grouped: bool) -> bool:
    """The word at j before the measure at i ranks groups: a ranking word where the question
    groups or a dimension follows ("lowest-volume ports"), or a superlative after the thing grouped
    ("carriers that had the slowest transits")."""
    if spans[j].has("rank") and (grouped or _dimension_after(spans, i, c)):
        return True
    return grouped and degrees.ranks_named_groups(spans, j, c)


def _dimension_after(spans: list[Span], i: int, c: Composer) -> bool:
    """The next word after i that is not glue names a dimension ("most TEU carriers")."""
    following = c.after(spans, i)
    return following is not None and c.dimension(spans[following]) is not None


def _most_of_one(spans: list[Span], i: int, c: Composer, meaning: Meaning) -> int | None:
    """ "What is the most goals in a single match": a ranking word before a measure where nothing is
    grouped or could be ranked (no grouping, no "who", no dimension after it) asks for the largest
    (or smallest) single value."""
    j = c.before(spans, i, limit=2)
    if not unread_at(spans, j, "rank") or _could_rank(spans, i, c, meaning):
        return None
    return j


def _could_rank(spans: list[Span], i: int, c: Composer, meaning: Meaning) -> bool:
    """Something a ranking word before the measure at i could rank: groups asked, "who", an unread
    "which", a dimension after the measure."""
    asks_who = any(s.has("who") for s in spans)
    return _grouped(meaning) or asks_who or _which_unread(spans, c) or _dimension_after(spans, i, c)


def _which_unread(spans: list[Span], c: Composer) -> bool:
    """ "Which berth handles the most containers": things the data does not know, ranked (the
    word is reported), not one largest value."""
    for i, span in enumerate(spans):
        j = c.after(spans, i) if span.has("wh") else None
        if j is not None and not spans[j].tags:
            return True
    return False


def _agg_of(span: Span) -> str:
    """The aggregation a word asks: its own, or for a ranking word the largest or smallest value."""
    if span.has("agg"):
        return str(span.value("agg")[0])
    return "max" if span.value("rank") == "desc" else "min"


def _agg_after(spans: list[Span], i: int, c: Composer) -> int | None:
    """A total or an average said after its measure, before any other measure: "goals in total",
    "how many boxes did Maersk move in total", "delay on average"; a ranking word there ranks
    ("goals most") and is left to `ranking`."""
    j = c.following(spans, "weighs", lambda span: _weighs(span, c)).after(i)
    if j is None or not _total_word(spans[j], c):
        return None
    k = c.after(spans, j)
    return None if _names_measure(spans, k, c) else j


def _total_word(span: Span, c: Composer) -> bool:
    """An unread total or average that neither ranks nor names a measure: "in total", "on
    average"."""
    totals = {"sum", "avg"} & {a[0] for a in span.values("agg")}
    unread = not span.used and not span.has("rank")
    return bool(totals) and unread and _measure_field(span, c) is None


def _names_measure(spans: list[Span], j: int | None, c: Composer) -> bool:
    """There is a span at j and it names a measure field."""
    return j is not None and _measure_field(spans[j], c) is not None


def _weighs(span: Span, c: Composer) -> bool:
    """An aggregation or a measure: what `_agg_after` looks for after a measure."""
    return span.has("agg") or _measure_field(span, c) is not None


def _note_extra(spans: list[Span], i: int, c: Composer, found: Measure) -> None:
    """ "… and their average transit times": a measure asked beside a ranking, not the one
    ranked."""
    j = c.before(spans, i, limit=4)
    k = j
    while k is not None and spans[k].has("agg", "backref"):
        k = c.before(spans, k, limit=2)

    joined = kind_at(spans, k, "conj")  # "and (their) average …", "and the units"
    # "and their …"
    pointed = j is not None and kind_at(spans, j, "backref") and kind_at(spans, j - 1, "conj")
    if joined or pointed:
        c.extra.add(found.name)


def recency(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "the latest 5 arrivals in Charleston", "the oldest shipments": records by their date, newest
    or oldest first.

    The date is the one a date word names ("arrivals", "departures"), else the catalog's default.
    """
    if meaning.group_by or meaning.interval:
        return
    for i, span in enumerate(spans):
        if not span.unread("recency"):
            continue
        count = _rank_count(spans, i, 1, c)
        noun_at = c.after(spans, _past_count(i, count))
        if noun_at is not None and _dated_noun(spans[noun_at], c):
            _sort_by_date(spans, (i, noun_at), count, c, meaning)
            return


def _past_count(last: int, count: tuple[int, float] | None) -> int:
    """Where a ranking ends: at its last word, or at its number when written after it ("top 5")."""
    return count[0] if count is not None and count[0] > last else last


def _dated_noun(noun: Span, c: Composer) -> bool:
    """What records have a date: a record noun ("shipments"), a date word ("arrivals"), a count."""
    return noun.has("record", "date_word") or c.counting(noun)


def _sort_by_date(
    spans: list[Span],
    recent_noun: tuple[int, int],
    count: tuple[int, float] | None,
    c: Composer,
    meaning: Meaning,
) -> None:
    """The records sorted by the noun's date ("arrivals"), else the default date, the recency
    word's way, as many as counted."""
    recent, noun = (spans[at] for at in recent_noun)
    dated = noun.values("date_word") or [c.catalog.spec.time.default_field]
    meaning.sort.append((dated[0], "desc" if recent.value("recency") == "desc" else "asc"))
    meaning.top_n = c.catalog.spec.defaults.top_n
    if count is not None and count[1] >= 1:
        meaning.top_n = _bounded(count[1], spans[count[0]].text, meaning)
    meaning.measures = []
    read([recent, noun, *_count_span(spans, count)])


def _count_span(spans: list[Span], count: tuple[int, float] | None) -> list[Span]:
    """The span of a ranking's number, when one was written."""
    return [spans[count[0]]] if count is not None else []


# -- ranking ---------------------------------------------------------------------------------------
def ranking(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "top 5 shippers", "the 4 least busy ports", "the three slowest carriers", "the 10 heaviest
    shipments", "which carrier … the most TEU": how many groups or records, in which order, by what.
    """
    for i in range(len(spans)):
        found = _ranker(spans, i, c)
        if found is None or _ordering_only(spans, i + found[2], c):
            continue  # "slowest first": an order, read by `ordering`
        if _rank_at(spans, i, found, c, meaning):
            return


def _rank_at(
    spans: list[Span],
    i: int,
    found: tuple[int, Adjective | None, int],
    c: Composer,
    meaning: Meaning,
) -> bool:
    """Ranks by the ranking word at i (`found` by `_ranker`); False when it ranks nothing."""
    direction, adjective, width = found
    ranker = spans[i : i + width]
    target, count = _ranked(spans, i, width, c, meaning)
    if _rank(ranker, target, direction, adjective, c, meaning):
        if count is not None:
            _set_count(spans, count, c, meaning, ranker)
        elif meaning.top_n is None:
            meaning.top_n = _unnumbered(c, meaning)
        degrees.average_ranked(spans, i + width, c, meaning)  # "… heaviest on average"
        # "the busiest port for each carrier": a ranking in each group
        group_steps.top_each(spans, c, meaning)
        return True
    if count is None or not spans[i].has("rank"):
        return False
    # "just the top 3": a count for the groups before
    _set_count(spans, count, c, meaning, ranker)
    meaning.order = _order(direction)
    spans[i].used = True
    return True


def _ranked(
    spans: list[Span], i: int, width: int, c: Composer, meaning: Meaning
) -> tuple[Span | None, tuple[int, float] | None]:
    """The word the ranking at i ranks, and the ranking's number: after the ranking (and its
    number), else an unread dimension just before it ("the 2 products with the fewest orders")."""
    count = _rank_count(spans, i, width, c)
    target_at = _ranked_after(spans, i + width - 1, count, c, meaning)
    target = spans[target_at] if target_at is not None else None
    _ranked_periods(target, c, meaning)
    if target is not None and (c.dimension(target) or target.has("record") or target.used):
        return target, count
    head = _head_before(spans, i, c)
    if head is None:
        return target, count
    return spans[head], count or _rank_count(spans, head, 1, c)


def _ranked_after(
    spans: list[Span], last: int, count: tuple[int, float] | None, c: Composer, meaning: Meaning
) -> int | None:
    """Where the ranked word after a ranking ending at `last` is, past the measure's words ("the
    six lowest-volume origin ports"); a distinct count right after the ranking's number names what
    is ranked ("top 10 players", not "the most orders")."""
    target_at = c.after(spans, _past_count(last, count))
    if count is not None and count[0] > last and target_at is not None:
        _ranked_things(spans[target_at], c, meaning)
    while target_at is not None and _measured_only(spans[target_at], c):
        target_at = c.after(spans, target_at)
    return target_at


def _measured_only(span: Span, c: Composer) -> bool:
    """A measure's word that names no dimension ("volume" of "lowest-volume ports")."""
    return _measure_field(span, c) is not None and c.dimension(span) is None


def _ranked_things(target: Span, c: Composer, meaning: Meaning) -> None:
    """ "top 10 players by salary": the things a distinct count numbers, right after the ranking's
    number, are what is ranked, each a group of its id; their number is no measure of the ranking.
    """
    counted = [
        m for m in target.values("measure") if c.catalog.spec.measures[m].agg == "cardinality"
    ]
    field = c.catalog.spec.measures[counted[0]].field if counted else None
    if field is None or field in meaning.group_by:
        return
    meaning.measures = [m for m in meaning.measures if m.name != counted[0]]
    meaning.group_by.append(field)
    target.used = True


def _ranked_periods(target: Span | None, c: Composer, meaning: Meaning) -> None:
    """ "the busiest day", "the 3 slowest months", "the busiest month per carrier": the periods are
    what is ranked."""
    if target is None or not target.unread("interval_unit"):
        return
    if meaning.group_by and c.per_group is None:
        return
    meaning.interval = target.value("interval_unit")
    target.used = True
    c.ranked_plural = is_plural(target)


def _head_before(spans: list[Span], i: int, c: Composer) -> int | None:
    """An unused dimension a few words before a ranking word, with only small words between."""
    for j in range(i - 1, max(-1, i - 5), -1):
        if c.dimension(spans[j]) and not spans[j].used:
            return j
        if not spans[j].quiet:
            return None
    return None


def _ordering_only(spans: list[Span], at: int, c: Composer) -> bool:
    return at < len(spans) and spans[at].key in c.grammar.ordering_after


def ordering(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "carriers into Houston ranked by TEU, ascending", "slowest first": the groups in an order.

    A plural dimension heading the question is what is ordered when nothing else groups.
    """
    direction = _direction(spans, c)
    cued = any(s.unread("sort_cue") for s in spans)
    if direction is None and not cued:
        return
    if not meaning.group_by and not _group_by_head(spans, c, meaning):
        return
    if direction:
        meaning.order = "asc" if direction == "asc" else "desc"
    meaning.top_n = meaning.top_n or c.catalog.spec.defaults.top_n
    for span in spans:
        span.read_if("sort_cue", "direction")


def _group_by_head(spans: list[Span], c: Composer, meaning: Meaning) -> bool:
    """ "carriers into Houston ranked by TEU": the first unread plural dimension, grouped by when
    something is measured; False when there is none."""
    head = next((s for s in spans if not s.used and is_plural(s) and c.dimension(s)), None)
    if head is None or not meaning.measures:
        return False
    meaning.group_by.append(c.dimension(head) or "")
    head.used = True
    return True


def _direction(spans: list[Span], c: Composer) -> str | None:
    """ "ascending", "lowest first", or a superlative followed by "first" ("slowest first")."""
    for i, span in enumerate(spans):
        if span.has("direction"):
            return str(span.value("direction"))
        found = _ranker(spans, i, c) if _ordering_only(spans, i + 1, c) else None
        if found is not None:
            span.used = spans[i + 1].used = True
            return _order(found[0])
    return None


def _order(direction: int) -> Literal["desc", "asc"]:
    """A ranking's direction (+1 more, -1 less) as a sort order."""
    return "desc" if direction > 0 else "asc"


def _ranker(spans: list[Span], i: int, c: Composer) -> tuple[int, Adjective | None, int] | None:
    """(direction, the adjective that names the measure, spans taken): "busiest", "most valuable",
    "top"."""
    span = spans[i]
    if span.used:
        return None
    graded = _graded(spans, i, "superlative")
    if graded is not None or not span.has("rank"):
        return graded
    direction = 1 if span.value("rank") == "desc" else -1
    following = _adjectives_after(spans, i)
    if following:  # "top busy", "least busy"
        return direction * following[0][2], following[0], 2
    return direction, None, 1


def _rank_count(spans: list[Span], i: int, width: int, c: Composer) -> tuple[int, float] | None:
    """The number of a ranking, written after it ("top 5") or before it ("5 least busy", "the 3
    slowest")."""
    for j in (i + width, i - 1):
        if unread_at(spans, j, "number"):
            return j, float(spans[j].value("number"))
    return None


def _rank(
    ranker: list[Span],
    target: Span | None,
    direction: int,
    adjective: Adjective | None,
    c: Composer,
    meaning: Meaning,
) -> bool:
    """Rank groups (a dimension follows, or the question groups) or sort records; False when nothing
    to rank."""
    name, records = _ranked_target(target, c, meaning)
    if name is None and _nothing_ranked(adjective, records, meaning):
        return False
    if adjective is not None:
        _rank_by(adjective, direction, records, c, meaning)
    meaning.order = _order(direction)
    read(ranker)
    return True


def _ranked_target(target: Span | None, c: Composer, meaning: Meaning) -> tuple[str | None, bool]:
    """The dimension the ranked word names, grouped by and read, and whether it names the records;
    either way the word says whether one or several are asked."""
    if target is None:
        return None, False
    name = None if target.used else c.dimension(target, meaning)
    records = target.has("record")
    if name is not None or records:
        c.ranked_plural = is_plural(target)
    if name is not None:
        _add_group(meaning, name)
        target.used = True
    return name, records


def _rank_by(
    adjective: Adjective, direction: int, records: bool, c: Composer, meaning: Meaning
) -> None:
    """ "the heaviest shipments" sorts the records by a field; otherwise the adjective's measure
    ranks, first of the measures ("the slowest month" ranks months)."""
    sorts_records = records or not meaning.interval
    if adjective[0] == "field" and sorts_records and not meaning.group_by:
        meaning.sort.append((adjective[1], _order(direction)))
        return
    ranked = c.adjective_measure(adjective)
    meaning.measures = [ranked, *(m for m in meaning.measures if m.name != ranked.name)]


def _nothing_ranked(adjective: Adjective | None, records: bool, meaning: Meaning) -> bool:
    """ "the most …" with no group and no field to sort records by."""
    if meaning.group_by or meaning.interval:
        return False
    return adjective is None or (adjective[0] == "measure" and not records)


def _set_count(
    spans: list[Span], count: tuple[int, float], c: Composer, meaning: Meaning, ranker: list[Span]
) -> None:
    at, value = count
    spans[at].used = True
    if value < 1 or not value.is_integer():
        c.said.append(f"{' '.join(s.text for s in ranker)} {spans[at].text}".strip())
        meaning.top_n = c.catalog.spec.defaults.top_n
        return
    meaning.top_n = _bounded(value, spans[at].text, meaning)


def _bounded(value: float, written: str, meaning: Meaning) -> int:
    """A ranking's count, at most TOP_N_MOST; a count past it is bounded, and said."""
    if value <= TOP_N_MOST:
        return int(value)
    meaning.assumptions.append(
        f"the top {TOP_N_MOST:,} at most, the most one answer lists (not {written})"
    )
    return TOP_N_MOST


def _unnumbered(c: Composer, meaning: Meaning) -> int:
    """ "which carrier … the most": one; "which carriers …": the default; "which 3 …": three."""
    if c.wh_count:
        return c.wh_count
    if (
        c.wh_plural is False and (meaning.group_by or meaning.interval)
    ) or c.ranked_plural is False:
        return 1  # "which carrier …", "the busiest port", "the lightest shipment"
    return c.catalog.spec.defaults.top_n


# -- records or counts, comparison, page
# -------------------------------------------------------------
def records_or_count(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "Maersk shipments to LA" lists records; "how many shipments …" counts; a grouping needs a
    measure.

    A ranking with its measures asked beside ("top 5 shippers and their transit times") ranks by
    count.
    """
    _period_asked(spans, c, meaning)
    grouped = bool(meaning.group_by or meaning.interval)
    _one_figure(meaning, grouped)
    _records_measures(c, meaning, grouped)
    _records_read(spans, c)
    _measures_beside(c, meaning, grouped)


def _period_asked(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "what year was X built": "which year" with nothing measured asks an attribute, not a
    grouping; the period's word is left unread."""
    if not c.wh_interval or meaning.measures or c.records_named or meaning.top_n:
        return
    meaning.interval = None
    for span in spans:
        span.used = span.used and not span.has("interval_unit")


def _one_figure(meaning: Meaning, grouped: bool) -> None:
    """ "the top TEU figure": a ranking word with a measure and nothing to rank asks one number."""
    if meaning.top_n and meaning.measures and not (grouped or meaning.sort):
        meaning.top_n = None


def _records_read(spans: list[Span], c: Composer) -> None:
    """A record noun that also names a field and was not read as that field: the records."""
    if c.records_named:
        for span in spans:
            span.read_if("record")


def _records_measures(c: Composer, meaning: Meaning, grouped: bool) -> None:
    """Sorted records are listed, not measured; groups or a ranking of records count them
    ("shipments by carrier", "which carriers serve X"), also when only measures beside are named."""
    if meaning.sort and not meaning.group_by:
        meaning.measures = []
    elif not meaning.measures and (meaning.top_n or (grouped and c.records_named)):
        meaning.measures = [c.default_measure()]
    elif meaning.top_n and _only_beside(c, meaning.measures):
        meaning.measures.insert(0, c.default_measure())


def _only_beside(c: Composer, measures: list[Measure]) -> bool:
    """Every measure was asked beside a ranking ("top 5 shippers and their transit times")."""
    return bool(measures) and all(m.name in c.extra for m in measures)


def _measures_beside(c: Composer, meaning: Meaning, grouped: bool) -> None:
    """ "… and their total weight": the measures asked beside the main one, or beside the records,
    where nothing is grouped or ranked."""
    if not c.extra or grouped or meaning.top_n:
        return
    main = [m for m in meaning.measures if m.name not in c.extra]

    if main or c.records_named:
        meaning.beside = [m.name for m in meaning.measures if m.name in c.extra]


def comparison(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "Maersk vs Evergreen": one row per compared value."""
    if not meaning.compare:
        return
    for span in spans:
        span.read_if("compare")
    if not meaning.group_by:
        meaning.group_by.append(meaning.compare[0])
    if not meaning.measures:
        meaning.measures.append(c.default_measure())


# past any list; a page number past 64 bits cannot be kept in the thread's checkpoint
PAGE_MOST = 10**9


def page(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "page 3", "the second page": which page of records."""
    for i, span in enumerate(spans):
        if not span.has("page"):
            continue
        near = [spans[j] for j in (i - 1, i + 1) if 0 <= j < len(spans)]
        for other in near:
            number = other.value("number") if other.has("number") else other.value("ordinal")
            if number is not None:
                meaning.page = min(max(1, int(number)), PAGE_MOST) if number else 2  # "next page"
                span.used = other.used = True
                return


def unanswerable(spans: list[Span], c: Composer, meaning: Meaning) -> None:
    """ "what will arrivals look like next quarter?" (future), "why did TEU drop?" (cause), "the
    lowest freight rate" (no_measure), "is Maersk a good carrier?" (opinion): refused with the
    reason and the question's words.

    Run after every other rule and the lookup. The first reason of the grammar's `refusals` that the
    question gives is the one said.
    """
    found: dict[RefusalReason, list[Span]] = {}
    for span in _refusal_words(spans, c):
        found.setdefault(span.value("refusal"), []).append(span)
    if _after_today(meaning, c):
        found.setdefault("future", []).extend(s for s in spans if s.has("time"))
    judged = [s for s in spans if s.has("judgement")]
    if judged and not _measured(spans, c):
        found.setdefault("opinion", []).extend(judged)
    reason = next((r for r in c.grammar.refusals if found.get(r)), None)
    if reason is None:
        return
    read(found[reason])
    words = list(dict.fromkeys(s.text for s in found[reason]))

    meaning.refusal = Refusal(reason=reason, words=words)


def _refusal_words(spans: list[Span], c: Composer) -> list[Span]:
    """The refusal words no rule read and the catalog does not hold: "cheap" is a price where the
    catalog's adjective says so, and "price" is held where an object has a unit_price."""
    held = _held_words(c.catalog)
    found = []
    for span in spans:
        if not span.unread("refusal"):
            continue
        catalogued = span.has(*_CATALOG)
        if not catalogued and not {span.key, singular(span.key)} & held:
            found.append(span)
    return found


def _after_today(meaning: Meaning, c: Composer) -> bool:
    """A time range that starts after today, on a date field that cannot lie ahead (an ETA can): the
    future."""
    time = meaning.time
    if time is None or time.start is None or c.today is None:
        return False
    return time.start > c.today and time.field not in c.catalog.spec.time.ahead


def _held_words(catalog: Catalog) -> set[str]:
    """The words of every object's field names and synonyms."""
    words: set[str] = set()
    for obj in catalog.spec.objects.values():
        for name, spec in obj.fields.items():
            for phrase in [name.replace("_", " "), *spec.synonyms]:
                words.update(phrase.lower().split())
    return words


def _measured(spans: list[Span], c: Composer) -> bool:
    """The question names a measure of the catalog ("by TEU", "for revenue", "busiest"), not only
    the records: "best" and "worst" then rank on it ("the best months by revenue"); with none, they
    are an opinion."""
    for span in spans:
        named = span.has("adjective") or (span.has("measure") and not span.has("record"))
        if span.used and (named or _measure_field(span, c) is not None):
            return True
    return False


def unused(spans: list[Span]) -> list[str]:
    """What the question said that no rule read: content words, unread numbers, unsupported
    groupings."""
    said = [s.text for s in spans if not s.used and not _quiet(s)]
    return list(dict.fromkeys(said))


def _quiet(span: Span) -> bool:
    # a word nothing reads; of symbols, only wildcards ("Acme%", "*", "_") are said
    if not span.tags:
        return not _WORDLIKE.search(span.text) and span.text not in ("%", "*")
    quiet = span.has("function", "filler", "neutral", "structure")
    return quiet or all(t.kind in _STRUCTURE for t in span.tags)
