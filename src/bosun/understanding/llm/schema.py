"""What the model fills when it reads a turn (ModelReading), checked and turned into the contract's
Reading.

The model's form is flat and small (fields, values, ranges); the Meaning is built from it here with
the catalog's own measure labels, after every name it uses is checked against the catalog and every
name value against the candidates the prompt offered. `validate_meaning` then checks the result as
it checks the rules backend's.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field

from bosun.catalog import Catalog
from bosun.understanding.compose import Composer
from bosun.understanding.grammar import english
from bosun.understanding.link_groups import link_group_of
from bosun.understanding.meaning import (
    TOP_N_MOST,
    Agg,
    Ambiguity,
    Condition,
    Link,
    LinkGroup,
    Meaning,
    Measure,
    ObjectLookup,
    Refusal,
    RefusalReason,
    Share,
    Step,
    TimeFilter,
)
from bosun.understanding.measure_kinds import percentile_measure
from bosun.understanding.names import Candidate, normalize
from bosun.understanding.reading import Continuation, GoalReading, Reading

Scalar = str | int | float | bool


class ModelFilter(BaseModel):
    field: str
    values: list[Scalar]
    negate: bool = False


class ModelMeasure(BaseModel):
    agg: Agg
    field: str | None = Field(None, description="the field aggregated; none for a count of records")
    percent: float | None = Field(
        None,
        gt=0,
        lt=100,
        description="agg percentile only: which percentile (50 for a median, 90 for 'p90')",
    )
    share: list[ModelFilter] | None = Field(
        None,
        description="the measure as a percentage of its whole (the goal's filters): the part's "
        "filters ('% of shipments held': status held); [] for each group's share of all groups "
        "('share of TEU by carrier')",
    )


class ModelRange(BaseModel):
    field: str
    gt: float | None = None
    gte: float | None = None
    lt: float | None = None
    lte: float | None = None


class ModelPresent(BaseModel):
    field: str
    exists: bool = Field(
        description="true: the records where the field holds a value ('with an ETA'); false: "
        "where it holds none ('without an ETA', 'no arrival date')"
    )


class ModelTime(BaseModel):
    field: str
    start: dt.date | None = None
    end: dt.date | None = None
    words: str = Field("", description="the words of the question that gave the dates")
    named: bool = Field(
        False,
        description="true when the question's words name this date field (shipped, "
        "departed, ETA); false when the field is your choice",
    )


class ModelSort(BaseModel):
    field: str
    direction: Literal["asc", "desc"] = "desc"


class ModelLookup(BaseModel):
    object: str
    key: str
    fields: list[str] = Field(default_factory=list)


class ModelLink(BaseModel):
    """A filter on a linked object's attribute: "TEU carried by Ocean Alliance members" is object
    carriers, attribute alliance, values [Ocean Alliance], field carrier_name (the record field
    holding the carrier)."""

    object: str
    attribute: str
    field: str = Field(description="the record field that holds the object")
    values: list[Scalar] = Field(
        default_factory=list, description="values as the object's data holds them"
    )
    gt: float | None = None
    gte: float | None = None
    lt: float | None = None
    lte: float | None = None


class ModelAmbiguity(BaseModel):
    phrase: str
    options: list[str]


class ModelGoal(BaseModel):
    """One goal of the turn, as the model reads it."""

    kind: Literal["data", "definition", "fields"] = "data"
    text: str
    terms: list[str] = Field(
        default_factory=list, description="definition: glossary terms; fields: fields asked"
    )
    records: bool = Field(False, description="true lists records; false aggregates")
    measures: list[ModelMeasure] = Field(default_factory=list)
    filters: list[ModelFilter] = Field(default_factory=list)
    ranges: list[ModelRange] = Field(default_factory=list)
    present: list[ModelPresent] = Field(default_factory=list)
    time: ModelTime | None = None
    periods: list[ModelTime] = Field(
        default_factory=list,
        description="periods compared side by side ('Q2 this "
        "year vs Q2 last year'), earliest first; `time` is then empty",
    )
    group_by: list[str] = Field(default_factory=list)
    interval: Literal["day", "week", "month", "quarter", "half-year", "year"] | None = None
    top_n: int | None = Field(None, ge=1, le=TOP_N_MOST)
    order: Literal["desc", "asc"] = "desc"
    sort: list[ModelSort] = Field(default_factory=list)
    page: int = Field(1, ge=1, description="which page of records (a follow-up asking for more)")
    shown: list[str] = Field(
        default_factory=list,
        description="records: fields listed for each record ('what are their ETAs?')",
    )
    lookup: ModelLookup | None = None
    links: list[ModelLink] = Field(
        default_factory=list, description="filters on a linked object's attributes"
    )
    listing: str | None = Field(
        None,
        description="a linked object whose objects are listed ('which carriers are in "
        "the Ocean Alliance'): filters and ranges are then on its own fields",
    )
    ambiguous: list[ModelAmbiguity] = Field(default_factory=list)
    unknown_names: list[str] = Field(default_factory=list)
    not_understood: list[str] = Field(default_factory=list)
    refused: RefusalReason | None = Field(
        None, description="why the data cannot answer this goal, if it cannot"
    )
    refused_words: list[str] = Field(
        default_factory=list, description="the words that ask what it cannot answer"
    )
    steps: list[Step] = Field(
        default_factory=list,
        description="what is done with the groups and periods once "
        "measured, in order: a threshold on a group's measure (by its position in measures), "
        "the top n within each group (or of the periods within each coarser period: "
        "'the quietest week in each quarter'), a running total, a change over the periods "
        "(from each interval to the next, or from the first period compared to the last), "
        "an average per period, has_all / has_none (groups having every / none of some "
        "values: 'vessels that called at both A and B'), difference (two values of a field side "
        "by side and the first's figure minus the second's: 'difference between A and B by "
        "month')",
    )


class ModelReading(BaseModel):
    """A whole turn: its goals, in the order asked, and how it continues the conversation."""

    goals: list[ModelGoal] = Field(min_length=1)
    continuation: Continuation = "new"


@dataclass(frozen=True)
class Offered:
    """The names the prompt offered: name field → values the model may filter on, and every
    candidate value."""

    by_field: dict[str, set[str]]
    values: set[str]
    # (field, value) →
    named: dict[tuple[str, str], tuple[str, Candidate, float]] = field(default_factory=dict)
    # the phrase of the question that named it, its candidate and the match's score
    # a phrase of the question that names
    in_question: dict[str, set[str]] = field(default_factory=dict)
    # something exactly (name, alias, code) → the values a reading uses it by; earlier turns' names
    # are not here

    def allows(self, field: str, value: Scalar) -> bool:
        return field not in self.by_field or str(value) in self.by_field[field]


def problems(reading: ModelReading, catalog: Catalog, offered: Offered) -> list[str]:
    """What in the model's reading the catalog lacks or the candidates do not offer (before any
    Meaning)."""
    found: list[str] = []
    for goal in reading.goals:
        found += _goal_problems(goal, catalog, offered)
    return found


def dropped(reading: ModelReading, offered: Offered) -> list[str]:
    """A name the question gives exactly is used by some goal (filtered on, compared, excluded,
    looked up, asked about) or reported as not understood: a reading never drops it silently."""
    used = {str(value) for goal in reading.goals for value in _names_used(goal)}
    reported = set(
        normalize(
            " ".join(phrase for goal in reading.goals for phrase in goal.not_understood)
        ).split()
    )
    # no figure drops a name
    refused = " ".join(normalize(goal.text) for goal in reading.goals if goal.refused)
    unused = [
        phrase
        for phrase, values in offered.in_question.items()
        if not values & used
        and not set(normalize(phrase).split()) <= reported
        and f" {normalize(phrase)} " not in f" {refused} "
    ]
    return [
        f"“{phrase}” was named in the question but the reading does not use it" for phrase in unused
    ]


def _names_used(goal: ModelGoal) -> list[Scalar]:
    """The values a goal's filters, shares' parts, links, lookup and questions back hold."""
    values = [value for condition in _filters(goal) for value in condition.values]
    values += [option for ambiguity in goal.ambiguous for option in ambiguity.options]
    # "carriers based in Taiwan": TW
    values += [value for link in goal.links for value in link.values]
    if goal.lookup is not None:
        values.append(goal.lookup.key)
    values += [
        value
        for step in goal.steps
        if step.kind in ("has_all", "has_none", "difference")
        for value in step.values
    ]
    return values


def _goal_problems(goal: ModelGoal, catalog: Catalog, offered: Offered) -> list[str]:
    fields = catalog.record.fields
    if goal.kind == "fields":
        return [f"{t!r} is not a field" for t in goal.terms if t not in fields]
    if goal.kind == "definition":
        return []
    if goal.listing is not None:
        return _listing_problems(goal, catalog)
    found = [
        f"unknown field {m.field!r} to measure"
        for m in goal.measures
        if m.field and m.field not in fields
    ]
    found += _link_problems(goal, catalog)
    found += [
        f"{m.agg} needs a field" for m in goal.measures if m.field is None and m.agg != "count"
    ]
    found += [
        f"percentile of {m.field!r} needs a percent"
        for m in goal.measures
        if m.agg == "percentile" and m.percent is None
    ]
    found += [
        f"unknown field {f.field!r} in a share"
        for m in goal.measures
        for f in m.share or []
        if f.field not in fields
    ]
    found += [
        f"unknown field {r.field!r} for a range" for r in goal.ranges if r.field not in fields
    ]
    found += [
        f"unknown field {p.field!r} for a presence" for p in goal.present if p.field not in fields
    ]
    for condition in _filters(goal):
        invented = [v for v in condition.values if not offered.allows(condition.field, v)]
        found += [
            f"{condition.field!r} value {v!r} is not among the candidates offered" for v in invented
        ]
    for ambiguity in goal.ambiguous:
        found += [
            f"option {o!r} is not among the candidates offered"
            for o in ambiguity.options
            if o not in offered.values
        ]
    for step in goal.steps:
        if step.kind in ("has_all", "has_none", "difference"):
            found += [
                f"{step.field!r} value {v!r} is not among the candidates offered"
                for v in step.values
                if not offered.allows(step.field, v)
            ]
    return found


def _link_problems(goal: ModelGoal, catalog: Catalog) -> list[str]:
    """A link's object must be linked before its Meaning can be built (its key is the catalog's);
    the rest of it is checked on the Meaning, as the rules' links are (`links.link_problems`)."""
    return [
        f"{link.object!r} is not a linked object"
        for link in goal.links
        if link.object not in catalog.spec.links
    ]


def _listing_problems(goal: ModelGoal, catalog: Catalog) -> list[str]:
    if goal.listing not in catalog.spec.links:
        return [f"{goal.listing!r} is not an object that can be listed"]
    fields = catalog.object(goal.listing).fields
    named = [f.field for f in goal.filters] + [r.field for r in goal.ranges]
    return [f"{goal.listing!r} has no field {name!r}" for name in named if name not in fields]


def _filters(goal: ModelGoal) -> list[ModelFilter]:
    """The goal's filters and its shares' parts: each value checked against the candidates, each
    name used."""
    return [*goal.filters, *(f for m in goal.measures for f in m.share or [])]


def to_reading(reading: ModelReading, catalog: Catalog) -> Reading:
    """The contract's Reading of a checked ModelReading."""
    goals = [_goal(g, catalog) for g in reading.goals]
    return Reading(goals=goals, continuation=reading.continuation)


def _goal(goal: ModelGoal, catalog: Catalog) -> GoalReading:
    if goal.kind != "data":
        return GoalReading(kind=goal.kind, text=goal.text, terms=goal.terms)
    return GoalReading(kind="data", text=goal.text, meaning=to_meaning(goal, catalog))


def to_meaning(goal: ModelGoal, catalog: Catalog) -> Meaning:
    conditions = [
        Condition(field=f.field, values=f.values, negate=f.negate, source="model")
        for f in goal.filters
    ]
    conditions += [
        Condition(field=r.field, gt=r.gt, gte=r.gte, lt=r.lt, lte=r.lte, source="model")
        for r in goal.ranges
    ]
    conditions += [Condition(field=p.field, exists=p.exists, source="model") for p in goal.present]
    time = (
        TimeFilter(
            field=goal.time.field, start=goal.time.start, end=goal.time.end, text=goal.time.words
        )
        if goal.time
        else None
    )
    periods = [
        TimeFilter(field=p.field, start=p.start, end=p.end, text=p.words) for p in goal.periods
    ]
    measures = [_measure(m, catalog) for m in goal.measures]
    aggregated = bool(measures or goal.group_by or goal.interval or periods) and not goal.records
    lookup = (
        ObjectLookup(
            object=goal.lookup.object,
            key=goal.lookup.key,
            term=goal.lookup.key,
            fields=goal.lookup.fields,
        )
        if goal.lookup
        else None
    )
    ambiguities = [
        Ambiguity(term=a.phrase, kind="entity", options=a.options) for a in goal.ambiguous
    ]
    ambiguities += _date_field_choice(goal.time, catalog)
    refusal = Refusal(reason=goal.refused, words=goal.refused_words) if goal.refused else None
    index = catalog.object(goal.listing).index if goal.listing else catalog.record.index
    return Meaning(
        text=goal.text,
        index=index,
        intent_type="aggregation" if aggregated else "search",
        conditions=conditions,
        time=time,
        measures=measures,
        group_by=goal.group_by,
        interval=goal.interval,
        top_n=goal.top_n,
        order=goal.order,
        compare=_compared(goal),
        sort=[(s.field, s.direction) for s in goal.sort],
        lookup=lookup,
        ambiguities=ambiguities,
        unknown_terms=goal.unknown_names,
        not_understood=goal.not_understood,
        page=goal.page,
        shown=goal.shown,
        refusal=refusal,
        periods=periods,
        steps=list(goal.steps),
        links=[_link(link, catalog) for link in goal.links],
        link_group=_link_group(goal, catalog),
    )


def _link_group(goal: ModelGoal, catalog: Catalog) -> LinkGroup | None:
    """A goal grouped first by a linked object's attribute ("alliance") groups through the link."""
    return link_group_of(goal.group_by[0], catalog) if goal.group_by else None


def _link(link: ModelLink, catalog: Catalog) -> Link:
    condition = Condition(
        field=link.attribute,
        values=link.values,
        gt=link.gt,
        gte=link.gte,
        lt=link.lt,
        lte=link.lte,
        source="model",
    )
    return Link(
        object=link.object,
        condition=condition,
        field=link.field,
        key=catalog.spec.links[link.object].key,
    )


def _compared(goal: ModelGoal) -> list[str]:
    """ "Maersk vs Evergreen": a field grouped by and filtered on several values is a comparison of
    them."""
    return [
        f.field
        for f in goal.filters
        if len(f.values) > 1 and not f.negate and f.field in goal.group_by
    ]


def _date_field_choice(time: ModelTime | None, catalog: Catalog) -> list[Ambiguity]:
    """Dates the question gave without naming their field: the field chosen is an assumption the
    answer states."""
    others = [f for f in catalog.spec.time.fields if time is not None and f != time.field]
    if time is None or time.named or not others:
        return []
    return [
        Ambiguity(
            term=time.words or "the dates",
            kind="field",
            options=[time.field, *others],
            default=time.field,
        )
    ]


def _measure(measure: ModelMeasure, catalog: Catalog) -> Measure:
    """The catalog's own measure and label where one fits ("count" → shipments; avg of teu → average
    TEU); a percentile and a share as the rules make them."""
    plain = _plain_measure(measure, catalog)
    if measure.share is None:
        return plain
    part = [
        Condition(field=f.field, values=f.values, negate=f.negate, source="model")
        for f in measure.share
    ]
    label = english().measure_kinds.share_label.format(measure=plain.label)
    return plain.model_copy(
        update={"share": Share(part=part), "label": label, "name": f"share_{plain.name}"}
    )


def _plain_measure(measure: ModelMeasure, catalog: Catalog) -> Measure:
    composer = Composer(catalog, english(), sums_levels=True)
    if measure.agg == "percentile" and measure.field is not None:
        return percentile_measure(composer, measure.field, measure.percent or 50.0)
    if measure.field is not None:
        return composer.field_measure(measure.field, measure.agg)
    counted = next(
        (n for n, m in catalog.spec.measures.items() if m.agg == "count" and m.field is None), None
    )
    if counted is not None:
        return composer.measure(counted, "count")
    return Measure(name="count", agg="count", label="count")
