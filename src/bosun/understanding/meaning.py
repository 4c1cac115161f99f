"""What a turn means, as typed data: the output of understanding and the input of query generation."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

IntentType = Literal["search", "aggregation"]
Agg = Literal["count", "sum", "avg", "min", "max", "cardinality"]
Resolution = Literal["exact", "alias", "code", "partial", "fuzzy", "vector", "value"]


class ResolvedEntity(BaseModel):
    """A name in the question matched to a canonical value of the catalog."""

    term: str
    entity: str
    value: str
    field: str
    method: Resolution
    score: float = 1.0
    object: str | None = None
    key: str | None = None  # the id of the one object the name names, when it names exactly one
    name: str | None = None  # the catalog's name for the value, where the value is a code ("851713": Smartphones)


class Ambiguity(BaseModel):
    """A term that could mean several things; `kind` says whether to ask or assume."""

    term: str
    kind: Literal["entity", "field", "measure"]
    options: list[str]
    default: str | None = None


class ObjectLookup(BaseModel):
    """A question about one business object: which one, by its id, and which of its fields (none = all)."""

    object: str
    key: str
    term: str
    fields: list[str] = Field(default_factory=list)


class Condition(BaseModel):
    """One filter on a record field: equality over values, a numeric range, or existence."""

    field: str
    values: list[str | int | float | bool] = Field(default_factory=list)
    gte: float | None = None
    lte: float | None = None
    gt: float | None = None
    lt: float | None = None
    negate: bool = False
    source: str = ""


class TimeFilter(BaseModel):
    field: str
    start: date | None
    end: date | None
    text: str


class Measure(BaseModel):
    name: str
    agg: Agg
    field: str | None = None
    label: str
    unit: str | None = None


RefusalReason = Literal["future", "cause", "no_measure", "opinion"]


class Refusal(BaseModel):
    """Why the data cannot answer a question (it is refused with the reason, never answered with a figure)."""

    reason: RefusalReason  # future: forecasts; cause: why something happened; no_measure: a measure the catalog
    # lacks (a price, a rate, satisfaction); opinion: a judgement (best, most reliable) the data does not hold
    words: list[str] = Field(default_factory=list, description="the question's words that ask it")


class Meaning(BaseModel):
    """The structured meaning of one data goal."""

    text: str
    index: str
    intent_type: IntentType = "search"
    conditions: list[Condition] = Field(default_factory=list)
    time: TimeFilter | None = None
    measures: list[Measure] = Field(default_factory=list)
    group_by: list[str] = Field(default_factory=list)
    interval: Literal["day", "week", "month", "quarter", "year"] | None = None
    top_n: int | None = None
    order: Literal["desc", "asc"] = "desc"
    sort: list[tuple[str, Literal["asc", "desc"]]] = Field(default_factory=list)
    compare: list[str] = Field(default_factory=list)
    distinct: bool = False
    entities: list[ResolvedEntity] = Field(default_factory=list)
    assumptions: list[str] = Field(default_factory=list)
    ambiguities: list[Ambiguity] = Field(default_factory=list)
    unknown_terms: list[str] = Field(default_factory=list)
    not_understood: list[str] = Field(default_factory=list, description="words of the question no rule used")
    beside: list[str] = Field(default_factory=list, description="measures asked beside the rest ('… and their "
                              "total weight'): a goal of their own when nothing groups or ranks")
    lookup: ObjectLookup | None = None
    page: int = Field(1, ge=1, description="which page of records a search asks for")
    refusal: Refusal | None = Field(None, description="the data cannot answer this: said, never a figure")
