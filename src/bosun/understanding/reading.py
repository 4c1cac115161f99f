"""The understanding contract every backend fills: a turn's Reading, and the check of a Meaning against the catalog.

`read(text, history, today) -> Reading`: the turn's goals (each a data question with its Meaning, a
definition of glossary terms, or a question about the fields), how the turn continues the thread, and
the note to say first. `validate_meaning` refuses a reading that names anything the catalog does not
have, before any query is built (as `gates.validate_plan` refuses plans).
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel, Field

from bosun.catalog import Catalog
from bosun.understanding.compared import compared_problems
from bosun.understanding.meaning import Meaning

if TYPE_CHECKING:
    from bosun.understanding.grammar import Grammar
    from bosun.understanding.names import Candidate, NameIndex
    from bosun.understanding.tagger import Span

Continuation = Literal["new", "refinement", "follow_up", "clarification_reply", "reask", "unmatched_reply"]


class AskedBack(BaseModel):
    """The question back a turn ended with: the term it could not settle, the options, and how often it asked."""

    term: str
    options: list[str]
    asked: int = 1


class PastTurn(BaseModel):
    """What reading needs of an earlier turn of the thread."""

    question: str
    status: str = "done"
    meaning: Meaning | None = None
    clarification: AskedBack | None = None
    first_column: list[Any] = Field(default_factory=list)  # the first table's leading values, in order
    leaders: list[Any] = Field(default_factory=list)  # [highest, lowest] on the first figure ("the busiest one")


class GoalReading(BaseModel):
    """One goal of the turn: a data question (with its meaning), a definition, or a question about fields."""

    kind: Literal["data", "definition", "fields"]
    text: str
    meaning: Meaning | None = None
    terms: list[str] = Field(default_factory=list)  # definition: glossary terms; fields: the fields asked


class Reading(BaseModel):
    """A whole turn, read: its goals, how it continues the thread, and what to say first."""

    goals: list[GoalReading]
    continuation: Continuation = "new"
    note: str = ""


class Understanding(Protocol):
    """What every backend does: read a turn against the thread's last turns; read one goal's text; match a reply
    to a question back among its options."""

    def read(self, text: str, history: list[PastTurn], today: date) -> Reading: ...

    def analyze(self, text: str, today: date) -> Meaning: ...

    def pick(self, reply: str, options: list[str], today: date) -> tuple[str | None, str]: ...


class TaggingUnderstanding(Understanding, Protocol):
    """A backend that reads by tagging, and shows what it reads with: its catalog and grammar, a text's spans,
    the names it knows and the fields a name can filter.

    The rules backend is one. Continuation (follow-ups, replies) and picks work through this, not its class.
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
_AGGREGABLE = {"sum": _NUMERIC, "avg": _NUMERIC, "min": _NUMERIC | {"date"}, "max": _NUMERIC | {"date"}}


def validate_meaning(meaning: Meaning, catalog: Catalog) -> list[str]:
    """Every field, measure, value and aggregation of a meaning checked against the catalog; [] = valid."""
    record = catalog.record
    problems = [f"unknown field {c.field!r}" for c in meaning.conditions if c.field not in record.fields]
    problems += [f"unknown field {f!r} to group by" for f in meaning.group_by if f not in record.fields]
    problems += [f"unknown field {f!r} to sort by" for f, _ in meaning.sort if f not in record.fields]
    problems += _values(meaning, catalog) + _measures(meaning, catalog)
    if meaning.time is not None and record.fields.get(meaning.time.field, None) is None:
        problems.append(f"unknown date field {meaning.time.field!r}")
    elif meaning.time is not None and record.fields[meaning.time.field].type != "date":
        problems.append(f"{meaning.time.field!r} is not a date field")
    if meaning.index != record.index:
        problems.append(f"unknown index {meaning.index!r}")
    if meaning.lookup is not None:
        problems += _lookup(meaning, catalog)
    return problems + compared_problems(meaning, catalog)


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


def _measures(meaning: Meaning, catalog: Catalog) -> list[str]:
    problems = []
    for measure in meaning.measures:
        if measure.field is None:
            if measure.agg != "count":
                problems.append(f"{measure.agg} of nothing ({measure.name})")
            continue
        spec = catalog.record.fields.get(measure.field)
        if spec is None:
            problems.append(f"unknown field {measure.field!r} to measure")
        elif spec.type not in _AGGREGABLE.get(measure.agg, {spec.type}):
            problems.append(f"cannot take the {measure.agg} of {measure.field!r} ({spec.type})")
    return problems


def _lookup(meaning: Meaning, catalog: Catalog) -> list[str]:
    assert meaning.lookup is not None
    obj = catalog.spec.objects.get(meaning.lookup.object)
    if obj is None:
        return [f"unknown object {meaning.lookup.object!r}"]
    return [f"{meaning.lookup.object!r} has no field {f!r}" for f in meaning.lookup.fields if f not in obj.fields]
