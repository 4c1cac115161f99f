"""The understanding contract every backend fills: a turn's Reading, and the check of a Meaning
against the catalog.

`read(text, history, today) -> Reading`: the turn's goals (each a data question with its Meaning, a
definition of glossary terms, or a question about the fields), how the turn continues the thread,
and the note to say first. `validate_meaning` refuses a reading that names anything the catalog does
not have, before any query is built (as `gates.validate_plan` refuses plans).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel, Field

from bosun.catalog import Catalog
from bosun.catalog.parts import PART_RANGE
from bosun.understanding.compared import compared_problems
from bosun.understanding.levels import catalog_sums, summed_level
from bosun.understanding.links import link_group_problems, link_problems, listing_problems
from bosun.understanding.meaning import (
    INTERVALS,
    Change,
    HasAll,
    HasNone,
    Interval,
    Meaning,
    Measure,
    PerGroup,
    Running,
    Step,
    Threshold,
    TopEach,
)

if TYPE_CHECKING:
    from bosun.understanding.grammar import Grammar
    from bosun.understanding.names import Candidate, NameIndex
    from bosun.understanding.tagger import Span

Continuation = Literal[
    "new", "refinement", "follow_up", "clarification_reply", "reask", "unmatched_reply"
]


class AskedBack(BaseModel):
    """The question back a turn ended with: the term it could not settle, the options, and how often
    it asked."""

    term: str
    options: list[str]
    asked: int = 1


MAX_KEYS = 1_000  # the rows of an answer a thread keeps to point at; past that, its filters do


class AnswerRows(BaseModel):
    """The rows an answer showed, kept with its turn so that the next one can point at them
    ("those", "the rest"): each row's key (a value of the grouping field, or a period's first day)
    and first figure, in the answer's order, at most MAX_KEYS of them."""

    field: str | None = Field(None, description="the field the keys are values of; None: periods")
    keys: list[Any] = Field(default_factory=list)
    figures: list[Any] = Field(default_factory=list)
    figure: str = Field("", description="the heading of the figure")
    total: int = Field(0, description="how many rows the answer had (more than `keys`: cut)")

    @property
    def cut(self) -> bool:
        """More rows than kept: the last question's filters stand for them."""
        return self.total > len(self.keys)


class PastTurn(BaseModel):
    """What reading needs of an earlier turn of the thread."""

    question: str
    status: str = "done"
    meaning: Meaning | None = None
    clarification: AskedBack | None = None
    # the first table's leading values, in order
    first_column: list[Any] = Field(default_factory=list)
    # [highest, lowest] on the first figure ("the busiest one")
    leaders: list[Any] = Field(default_factory=list)
    # the rows of the answer, to point at ("which of them …"); None: a turn stored before they were
    rows: AnswerRows | None = None
    # the titles of the answer's tables when they list groups of different fields: what "them" could
    # point at, asked back
    alternatives: list[str] = Field(default_factory=list)
    # the rows of each of those tables, in the same order
    alternative_rows: list[AnswerRows] = Field(default_factory=list)


class GoalReading(BaseModel):
    """One goal of the turn: a data question (with its meaning), a definition, or a question about
    fields."""

    kind: Literal["data", "definition", "fields"]
    text: str
    meaning: Meaning | None = None
    # definition: glossary terms; fields: the fields asked
    terms: list[str] = Field(default_factory=list)


class Reading(BaseModel):
    """A whole turn, read: its goals, how it continues the thread, and what to say first."""

    goals: list[GoalReading]
    continuation: Continuation = "new"
    note: str = ""


class Understanding(Protocol):
    """What every backend does: read a turn against the thread's last turns; read one goal's text;
    match a reply to a question back among its options."""

    def read(self, text: str, history: list[PastTurn], today: date) -> Reading: ...

    def analyze(self, text: str, today: date) -> Meaning: ...

    def pick(self, reply: str, options: list[str], today: date) -> tuple[str | None, str]: ...


class TaggingUnderstanding(Understanding, Protocol):
    """A backend that reads by tagging, and shows what it reads with: its catalog and grammar, a
    text's spans, the names it knows and the fields a name can filter.

    The rules backend is one. Continuation (follow-ups, replies) and picks work through this, not
    its class.
    """

    @property
    def catalog(self) -> Catalog: ...

    @property
    def grammar(self) -> Grammar: ...

    @property
    def index(self) -> NameIndex: ...

    @property
    def quiet_words(self) -> set[str]: ...

    def spans(self, text: str, today: date) -> list[Span]: ...

    def fields_named(self, candidate: Candidate) -> set[str]: ...


_NUMERIC = {"integer", "long", "float", "double"}
_AGGREGABLE = {
    "sum": _NUMERIC,
    "avg": _NUMERIC,
    "min": _NUMERIC | {"date"},
    "max": _NUMERIC | {"date"},
}


def validate_meaning(meaning: Meaning, catalog: Catalog) -> list[str]:
    """Every field, measure, value and aggregation of a meaning checked against the catalog; [] =
    valid."""
    record = catalog.record
    if meaning.index != record.index:  # a listing of reference objects
        return listing_problems(meaning, catalog)
    problems = [
        f"unknown field {c.field!r}" for c in meaning.conditions if c.field not in record.fields
    ]
    problems += [
        f"unknown field {f!r} to group by"
        for f in meaning.group_by
        if f not in record.fields and not _link_grouped(meaning, f)
    ]
    problems += [
        f"unknown field {f!r} to sort by" for f, _ in meaning.sort if f not in record.fields
    ]
    problems += [f"unknown field {f!r} to list" for f in meaning.shown if f not in record.fields]
    problems += _values(meaning, catalog) + _measures(meaning, catalog) + _parts(meaning, catalog)
    if meaning.time is not None and record.fields.get(meaning.time.field, None) is None:
        problems.append(f"unknown date field {meaning.time.field!r}")
    elif meaning.time is not None and record.fields[meaning.time.field].type != "date":
        problems.append(f"{meaning.time.field!r} is not a date field")
    problems += link_problems(meaning, catalog) + link_group_problems(meaning, catalog)
    if meaning.lookup is not None:
        problems += _lookup(meaning, catalog)
    problems += compared_problems(meaning, catalog)  # periods, set logic
    problems += _running_level(meaning, catalog)
    return problems + [
        problem for step in meaning.steps if (problem := _step_problem(step, meaning))
    ]


def _link_grouped(meaning: Meaning, name: str) -> bool:
    """`name` is the linked attribute the meaning groups by (checked with the links)."""
    return meaning.link_group is not None and meaning.link_group.attribute == name


def mostly_unread(meaning: Meaning) -> bool:
    """More words not understood than parts of a meaning read: no reading to answer with."""
    read = (
        len(meaning.conditions) + len(meaning.measures) + len(meaning.group_by) + len(meaning.sort)
    )
    read += (
        int(meaning.time is not None)
        + int(meaning.interval is not None)
        + int(meaning.lookup is not None)
    )
    return len(meaning.not_understood) >= 2 and len(meaning.not_understood) > read


def _step_problem(step: Step, meaning: Meaning) -> str | None:
    """What a step needs of the meaning: its measure, an inner grouping to rank within, periods to
    run over (set logic's needs are in compared_problems)."""
    return _NEEDS.get(type(step), _measure_problem)(step, meaning)


def _threshold_problem(step: Threshold, meaning: Meaning) -> str | None:
    if step.measure >= len(meaning.measures):
        return f"a threshold on measure {step.measure}, which the meaning does not have"
    return None


def _top_each_problem(step: TopEach, meaning: Meaning) -> str | None:
    """A top N within groups ranks inside a coarser period, or inside the groups of another field
    or of an interval."""
    if step.within is not None:
        return _nested_problem(step.within, meaning)
    if len(meaning.group_by) + (meaning.interval is not None) < 2:
        return "a top N within each group needs two groupings (fields, or a field and an interval)"
    if step.outer == "period" and meaning.interval is None:
        return "a top N within each period needs an interval"
    return _measure_problem(step, meaning)


def _per_group_problem(step: PerGroup, meaning: Meaning) -> str | None:
    if not meaning.group_by:
        return "an average over groups needs a grouping"
    return _measure_problem(step, meaning)


def _periods_problem(step: Running | Change, meaning: Meaning) -> str | None:
    if meaning.interval is None and len(meaning.periods) < 2:
        return f"a {step.kind} step needs periods (an interval)"
    return _measure_problem(step, meaning)


def _measure_problem(step: Step, meaning: Meaning) -> str | None:
    if meaning.measures or meaning.periods:
        return None
    return f"a {step.kind} step needs a measure"


def _no_problem(step: Step, meaning: Meaning) -> str | None:
    return None


# what each kind of step needs of the meaning; any other step needs a measure
_NEEDS: dict[type, Callable[[Any, Meaning], str | None]] = {
    Threshold: _threshold_problem,
    TopEach: _top_each_problem,
    PerGroup: _per_group_problem,
    Running: _periods_problem,
    Change: _periods_problem,
    HasAll: _no_problem,
    HasNone: _no_problem,
}


def _nested_problem(holder: Interval, meaning: Meaning) -> str | None:
    """Periods ranked inside a coarser period ("the quietest week in each quarter") need a finer
    interval than the holder, and nothing grouped."""
    if meaning.group_by:
        return "a top N of periods within each coarser period groups nothing else"
    if meaning.interval is None or INTERVALS.index(meaning.interval) >= INTERVALS.index(holder):
        return f"a top N within each {holder} needs a finer interval"
    return None


def _running_level(meaning: Meaning, catalog: Catalog) -> list[str]:
    """A running total adds up each period's figure: never of a level (an average, a share). A
    reading that refuses the question says so itself."""
    running = any(isinstance(step, Running) for step in meaning.steps)
    if not running or not meaning.measures or meaning.refusal is not None:
        return []
    if not summed_level(meaning.measures[0], catalog):
        return []
    return [f"a running total of {meaning.measures[0].name!r}, a level, which is never summed"]


def _values(meaning: Meaning, catalog: Catalog) -> list[str]:
    """A value of a field with a vocabulary must be one of its values."""
    problems = []
    for condition in meaning.conditions:
        spec = catalog.record.fields.get(condition.field)
        if spec is None or not spec.values or spec.type == "boolean":
            continue
        unknown = [v for v in condition.values if str(v) not in spec.values]
        problems += [f"{condition.field!r} has no value {v!r}" for v in unknown]
    return problems


def _parts(meaning: Meaning, catalog: Catalog) -> list[str]:
    """A date part holds only the values of its part (a weekday 1–7), and is never a measure (no sum
    of weekdays)."""
    problems = []
    for condition in meaning.conditions:
        spec = catalog.record.fields.get(condition.field)
        if spec is None or spec.derived is None:
            continue
        low, high = PART_RANGE[spec.derived.part]
        wrong = [
            v for v in condition.values if not str(v).isdigit() or not low <= int(str(v)) <= high
        ]
        problems += [
            f"{condition.field!r} ({spec.derived.part}) has no value {v!r}: {low}–{high}"
            for v in wrong
        ]
    derived = {m.field for m in meaning.measures if m.field and _derived(catalog, m.field)}
    return problems + [
        f"{name!r} is a date part, not a figure to measure" for name in sorted(derived)
    ]


def _derived(catalog: Catalog, name: str) -> bool:
    spec = catalog.record.fields.get(name)
    return spec is not None and spec.derived is not None


def _measures(meaning: Meaning, catalog: Catalog) -> list[str]:
    problems = []
    for measure in meaning.measures:
        problems += _measure_kind(measure, meaning, catalog)
        if measure.field is None:
            if measure.agg != "count":
                problems.append(f"{measure.agg} of nothing ({measure.name})")
            continue
        spec = catalog.record.fields.get(measure.field)
        if spec is None:
            problems.append(f"unknown field {measure.field!r} to measure")
        elif spec.type not in _AGGREGABLE.get(measure.agg, {spec.type}):
            problems.append(f"cannot take the {measure.agg} of {measure.field!r} ({spec.type})")
        elif measure.agg == "sum" and spec.level and not catalog_sums(measure.field, catalog):
            problems.append(
                f"{measure.field!r} is a level: averaged or taken at a period, never summed"
            )
    return problems


def _measure_kind(measure: Measure, meaning: Meaning, catalog: Catalog) -> list[str]:
    """A percentile says which; a share's part filters known fields on known values."""
    problems = []
    if measure.agg == "percentile" and measure.percent is None:
        problems.append(f"a percentile of {measure.field!r} needs its percent")
    if measure.share is not None and measure.agg not in ("count", "sum"):
        problems.append(f"a share of a {measure.agg} is no share of a whole ({measure.name})")
    if measure.share is not None:
        part = meaning.model_copy(update={"conditions": measure.share.part})
        problems += [
            f"unknown field {c.field!r} in a share"
            for c in measure.share.part
            if c.field not in catalog.record.fields
        ]
        problems += _values(part, catalog)
    return problems


def _lookup(meaning: Meaning, catalog: Catalog) -> list[str]:
    assert meaning.lookup is not None
    obj = catalog.spec.objects.get(meaning.lookup.object)
    if obj is None:
        return [f"unknown object {meaning.lookup.object!r}"]
    return [
        f"{meaning.lookup.object!r} has no field {f!r}"
        for f in meaning.lookup.fields
        if f not in obj.fields
    ]
