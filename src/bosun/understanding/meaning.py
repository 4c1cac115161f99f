"""What a turn means, as typed data: the output of understanding and the input of query
generation."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import BaseModel, Field

IntentType = Literal["search", "aggregation"]
Agg = Literal["count", "sum", "avg", "min", "max", "cardinality", "percentile"]
Interval = Literal["day", "week", "month", "quarter", "half-year", "year"]
# the calendar's periods from the finest to the coarsest: a period is ranked inside a coarser one
INTERVALS: tuple[Interval, ...] = ("day", "week", "month", "quarter", "half-year", "year")
Resolution = Literal["exact", "alias", "code", "partial", "fuzzy", "vector", "value"]
# The most groups or records a ranking asks for: "top 10^23 carriers" is read as the top 10,000 and
# said so. The same as the default bucket cap of the guardrails, so a bounded ranking still runs.
TOP_N_MOST = 10_000


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
    # the catalog's name for the value, where the value is a code ("851713": Smartphones)
    name: str | None = None


class Ambiguity(BaseModel):
    """A term that could mean several things; `kind` says whether to ask or assume."""

    term: str
    kind: Literal["entity", "field", "measure"]
    options: list[str]
    default: str | None = None
    # carried from an earlier turn whose answer said it: still a choice, not said again
    said_before: bool = False


class ObjectLookup(BaseModel):
    """A question about one business object: which one, by its id, and which of its fields (none =
    all)."""

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
    # "without an eta": False, the field holds no value; "with an eta": True
    exists: bool | None = None
    source: str = ""


class TimeFilter(BaseModel):
    field: str
    start: date | None
    end: date | None
    text: str


class Share(BaseModel):
    """A measure's part as a fraction of its whole.

    "what share of reefer boxes went to Savannah": the boxes with port_of_unlading SAVANNAH (`part`)
    over every reefer box (the whole: the Meaning's own filters). With no `part`, each group's share
    of all groups together: "share of TEU by carrier". A catalog ratio measure ("held share") is a
    share whose part the catalog names.
    """

    part: list[Condition] = Field(default_factory=list)


class Measure(BaseModel):
    """One figure to compute: "average transit days" is Measure(agg=avg, field=transit_days)."""

    name: str
    agg: Agg
    field: str | None = None
    label: str
    unit: str | None = None
    percent: float | None = Field(
        None, gt=0, lt=100, description="percentile: which one (50 for a median)"
    )
    share: Share | None = Field(
        None, description="the measure as a fraction of its whole, not a figure"
    )


class Baseline(BaseModel):
    """The figure a threshold holds the groups against when the question names none: the same
    measure over everything in scope, computed by a sub-goal of its own before the groups are kept.

    A measure that adds up over records (a count, a sum, a distinct count) is held against the
    average of the groups' own figures: "ports that handled more TEU than average" keeps the ports
    whose total TEU is above the average of the ports' totals (`over="groups"`). A level (an
    average, a percentile) is held against itself over every record: "carriers whose average
    transit time is below the overall average" keeps the carriers whose average is below the
    average transit time of all shipments in scope (`over="records"`).
    """

    op: Literal["gt", "gte", "lt", "lte"]
    over: Literal["records", "groups"]
    value: float | None = Field(
        None, description="the figure, once computed; the threshold's bound is then this value"
    )


class Threshold(BaseModel):
    """Keep the groups whose measure passes a bound (SQL's HAVING): "ports with more than 2,000
    shipments" is Threshold(gt=2000) on the shipments measure of a grouping by port. Against the
    overall figure ("more TEU than average") the bound is a Baseline's, known once computed."""

    kind: Literal["threshold"] = "threshold"
    measure: int = Field(0, ge=0, description="which of the Meaning's measures (its position)")
    gte: float | None = None
    lte: float | None = None
    gt: float | None = None
    lt: float | None = None
    against: Baseline | None = Field(
        None, description="the overall figure the bound is, when no number is said"
    )


class TopEach(BaseModel):
    """The top N of the inner grouping within each outer group: "top 3 shippers for each port" is
    TopEach(n=3) with group_by [port_of_unlading, shipper_name]; "busiest month per carrier" is
    TopEach(n=1) with group_by [carrier_name] and interval month. `outer` says which grouping holds
    the groups ranked within: "top carrier each month" is TopEach(n=1, outer="period") with group_by
    [carrier_name] and interval month. `within` is a coarser period holding the periods ranked, with
    nothing grouped: "the quietest week in each quarter" is TopEach(n=1, order="asc",
    within="quarter") with interval week."""

    kind: Literal["top_each"] = "top_each"
    n: int = Field(ge=1)
    order: Literal["desc", "asc"] = "desc"
    outer: Literal["group", "period"] = Field(
        "group",
        description="the first group_by (group) or the interval "
        "(period) holds the groups whose top n are kept",
    )
    within: Interval | None = Field(
        None, description="a coarser period than the interval, whose periods are ranked in each"
    )


class Running(BaseModel):
    """A running total of the first measure over the periods: "running total of TEU by month"."""

    kind: Literal["running"] = "running"


class Change(BaseModel):
    """The change of the first measure from each period to the next (with an interval:
    "month-over-month change in shipments"), or from the first period compared to the last (with
    `Meaning.periods`: "which carrier grew most from 2024 to 2025", ranked by the change when the
    Meaning ranks). `percent`: as a percentage."""

    kind: Literal["change"] = "change"
    percent: bool = False


class PerPeriod(BaseModel):
    """The average over the periods of the time filter, empty periods counted as zero: "average
    shipments per day in May" is PerPeriod(interval=day) over the count, May 1–31 (31 days, whatever
    had records)."""

    kind: Literal["per_period"] = "per_period"
    interval: Interval


class PerGroup(BaseModel):
    """The average over the groups of the first grouping of what each group adds up: "average TEU
    per carrier" is PerGroup() on the sum of teu grouped by carrier_name (each carrier's total,
    averaged over the carriers), as PerPeriod averages the totals of periods."""

    kind: Literal["per_group"] = "per_group"


class HasAll(BaseModel):
    """Keep the groups that have records of every value: "vessels that called at both Busan and
    Shanghai" is HasAll(field=port_of_lading, values=[BUSAN, SHANGHAI]) on a grouping by
    vessel_name."""

    kind: Literal["has_all"] = "has_all"
    field: str
    values: list[str | int | float | bool] = Field(min_length=2)


class HasNone(BaseModel):
    """Keep the groups that have no record of any value: "shippers using MSC or CMA CGM but never
    Maersk" is a filter on [MSC, CMA CGM] for the records and HasNone(field=carrier_name,
    values=[MAERSK]) on the shippers."""

    kind: Literal["has_none"] = "has_none"
    field: str
    values: list[str | int | float | bool] = Field(min_length=1)


class Difference(BaseModel):
    """Two values of one field side by side and the first one's figure minus the other's, per group
    or period or over all: "difference between Maersk and MSC TEU by month" is
    Difference(field=carrier_name, values=[MAERSK, MSC]) with interval month, over the records of
    either side (the step filters them): a row per month with Maersk's TEU, MSC's, and Maersk's
    minus MSC's. The field is not grouped by: its two values are columns."""

    kind: Literal["difference"] = "difference"
    field: str
    values: list[str | int | float | bool] = Field(
        min_length=2, max_length=2, description="the side subtracted from (first), the other"
    )


Step = Annotated[
    Threshold | TopEach | Running | Change | PerPeriod | PerGroup | HasAll | HasNone | Difference,
    Field(discriminator="kind"),
]


class Link(BaseModel):
    """A filter on an attribute of a linked object, answered in two steps: "TEU carried by Ocean
    Alliance members" reads the carriers whose alliance is OCEAN ALLIANCE (`object`, `condition`),
    then filters the records whose carrier_name (`field`) is one of their carrier_name (`key`)
    values."""

    object: str
    condition: Condition
    field: str
    key: str
    words: str = ""


class LinkGroup(BaseModel):
    """A grouping by an attribute of a linked object: "TEU by alliance" groups the records by the
    alliance of the carrier their carrier_name (`field`) names, the carriers' `key`. The lookup
    fills `keys`, each value of the attribute with the keys of the objects that have it."""

    object: str
    attribute: str
    field: str
    key: str
    words: str = ""
    keys: dict[str, list[str]] = Field(default_factory=dict)


class Referent(BaseModel):
    """The rows of the last answer a turn points at ("which of them …", "the rest"), handed to the
    query by the thread, not read from the text: the values of the field the last answer was
    grouped by, each row's key in its order. `keys` None: more rows than a turn keeps, so the last
    question's own filters (kept by the follow-up) stand for them."""

    field: str
    keys: list[str | int | float | bool] | None = None
    negate: bool = Field(False, description="every row but these: 'the rest'")
    words: str = Field("", description="what the turn points at, in words")


RefusalReason = Literal[
    "future", "cause", "no_measure", "opinion", "no_date_part", "no_referent", "not_held"
]


class Refusal(BaseModel):
    """Why the data cannot answer a question (it is refused with the reason, never answered with a
    figure)."""

    # future: forecasts; cause: why something happened; no_measure: a measure the catalog
    reason: RefusalReason
    # lacks (a price, a rate, satisfaction); opinion: a judgement (best, most reliable) the data
    # does not hold; no_date_part: a weekday, month or hour of a date field the data does not derive
    # ("by hour" over dates alone); no_referent: "them" with no earlier answer to point at
    # not_held: "that shipment" after a figure no record was kept as holding
    words: list[str] = Field(default_factory=list, description="the question's words that ask it")
    total: bool = Field(
        False,
        description="no_measure: a total of a level (a figure per record, a rate, an average)",
    )
    instead: list[str] = Field(
        default_factory=list,
        description="no_measure: the catalog's measures closest to what was asked, closest first",
    )


class Meaning(BaseModel):
    """The structured meaning of one data goal."""

    text: str
    index: str
    intent_type: IntentType = "search"
    conditions: list[Condition] = Field(default_factory=list)
    time: TimeFilter | None = None
    measures: list[Measure] = Field(default_factory=list)
    group_by: list[str] = Field(default_factory=list)
    interval: Interval | None = None
    top_n: int | None = None
    order: Literal["desc", "asc"] = "desc"
    sort: list[tuple[str, Literal["asc", "desc"]]] = Field(default_factory=list)
    compare: list[str] = Field(default_factory=list)
    pooled: list[str] = Field(
        default_factory=list,
        description="fields a scope word pools into one figure ('across all ports'): not grouped, "
        "and said so in the reading",
    )
    distinct: bool = False
    shown: list[str] = Field(
        default_factory=list,
        description="fields a search lists for each record, first after its id ('what are their "
        "ETAs?')",
    )
    entities: list[ResolvedEntity] = Field(default_factory=list)
    assumptions: list[str] = Field(default_factory=list)
    ambiguities: list[Ambiguity] = Field(default_factory=list)
    unknown_terms: list[str] = Field(default_factory=list)
    not_understood: list[str] = Field(
        default_factory=list, description="words of the question no rule used"
    )
    beside: list[str] = Field(
        default_factory=list,
        description="measures asked beside the rest ('… and their "
        "total weight'): a goal of their own when nothing groups or ranks",
    )
    lookup: ObjectLookup | None = None
    page: int = Field(1, ge=1, description="which page of records a search asks for")
    refusal: Refusal | None = Field(
        None, description="the data cannot answer this: said, never a figure"
    )
    steps: list[Step] = Field(
        default_factory=list,
        description="what is done with the groups and periods once "
        "measured, in order: thresholds, top N of each group, running totals, changes, "
        "averages per period, set logic",
    )
    periods: list[TimeFilter] = Field(
        default_factory=list,
        description="periods compared side by side ('Q2 this "
        "year vs Q2 last year'), each a column; `time` is then None",
    )
    links: list[Link] = Field(
        default_factory=list, description="filters on a linked object's attribute"
    )
    referent: Referent | None = Field(
        None, description="the last answer's rows this goal is about ('which of them …')"
    )
    link_group: LinkGroup | None = Field(
        None, description="a grouping by a linked object's attribute; its name is in group_by"
    )
