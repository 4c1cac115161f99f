"""Steps after grouping → Elasticsearch DSL pipelines, and their responses → the rows an analyst
reads (issue 23).

    Threshold  → `bucket_selector` in the grouping (a vetted script built from numbers only)
    TopEach    → nested `terms` whose inner size is n, ordered by the measure; periods ranked by
    `bucket_sort`; periods inside coarser periods, a date_histogram ranked here
    Running    → `cumulative_sum` in the date_histogram
    Change     → `derivative` in the date_histogram (a percentage is the change over the period
    before)
    PerPeriod  → a date_histogram (empty periods kept, bounded by the time range) and `avg_bucket`
    beside it

The compiler calls `aggs` and `table` with the metrics and the value reader it builds.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from operator import itemgetter
from typing import Any

from bosun.catalog import Catalog
from bosun.errors import UnsupportedQuery
from bosun.query import _measures
from bosun.query._periods import holder_start, whole_period
from bosun.query.table import PERIOD, Column, Table
from bosun.understanding import Meaning
from bosun.understanding.meaning import (
    Change,
    PerGroup,
    PerPeriod,
    Running,
    Step,
    Threshold,
    TopEach,
)
from bosun.understanding.periodnames import period_name

# every group of a threshold or a top N within groups is seen: terms size, said when exceeded
GROUP_CAP = 1000
_FORMAT = "yyyy-MM-dd"
_SCRIPT_OPS = {"gt": ">", "gte": ">=", "lt": "<", "lte": "<="}
Values = Callable[[dict[str, Any]], list[Any]]


def aggs(meaning: Meaning, catalog: Catalog, metrics: dict[str, Any]) -> dict[str, Any]:
    """The aggregations of a meaning with one step after grouping (its first)."""
    step = meaning.steps[0]
    if isinstance(step, Threshold):
        return _threshold(meaning, catalog, metrics, step)
    if isinstance(step, TopEach):
        return _top_each(meaning, catalog, metrics, step)
    if isinstance(step, PerPeriod):
        return _per_period(meaning, catalog, metrics, step)
    if isinstance(step, PerGroup):
        return _per_group(meaning, metrics)
    pipeline = _running_or_change(meaning, step)
    periods = {"t": _histogram(meaning, catalog, {**metrics, **pipeline})}
    return _grouped(meaning, metrics, periods) if meaning.group_by else periods


def group_count(response: dict[str, Any]) -> int | None:
    """How many groups a step chose among (the `groups` cardinality beside its grouping), if it
    asked."""
    groups = response.get("aggregations", {}).get("groups")
    return int(groups["value"]) if groups else None


def path(meaning: Meaning, index: int = 0) -> str:
    """The buckets_path of a measure: the bucket's count, or its metric."""
    return "_count" if meaning.measures[index].field is None else f"m{index}"


def _order(meaning: Meaning, direction: str = "desc", index: int = 0) -> dict[str, str]:
    return {path(meaning, index): direction}


def _histogram(
    meaning: Meaning, catalog: Catalog, inner: dict[str, Any], interval: str | None = None
) -> dict[str, Any]:
    """Every period of the time range, empty ones too (a zero day counts in an average, a running
    total, a change)."""
    field = meaning.time.field if meaning.time else catalog.spec.time.default_field
    body: dict[str, Any] = {
        "field": field,
        "calendar_interval": interval or meaning.interval,
        "format": _FORMAT,
        "min_doc_count": 0,
    }
    if meaning.time is not None and meaning.time.start and meaning.time.end:
        body["extended_bounds"] = {
            "min": meaning.time.start.isoformat(),
            "max": meaning.time.end.isoformat(),
        }
    return {"date_histogram": body, **({"aggs": inner} if inner else {})}


def _grouped(meaning: Meaning, metrics: dict[str, Any], inner: dict[str, Any]) -> dict[str, Any]:
    """`inner` within each group of the first grouping (largest first), or as it stands without
    one."""
    if not meaning.group_by:
        return inner
    terms = {"field": meaning.group_by[0], "size": GROUP_CAP, "order": _order(meaning)}
    return {
        "g": {"terms": terms, "aggs": {**metrics, **inner}},
        "groups": _groups(meaning.group_by[0]),
    }


def _groups(field: str) -> dict[str, Any]:
    """How many groups there are (exact to 40,000 on Elasticsearch), to say how many passed or were
    cut."""
    return {"cardinality": {"field": field, "precision_threshold": 40000}}


# -- threshold -------------------------------------------------------------------------------------
def selector(step: Threshold, bucket_path: str) -> dict[str, Any]:
    """A bucket_selector whose script is made of the step's numbers and operators only."""
    tests = [
        f"params.v {_SCRIPT_OPS[op]} {float(getattr(step, op))!r}"
        for op in _SCRIPT_OPS
        if getattr(step, op) is not None
    ]
    return {"bucket_selector": {"buckets_path": {"v": bucket_path}, "script": " && ".join(tests)}}


def _threshold(
    meaning: Meaning, catalog: Catalog, metrics: dict[str, Any], step: Threshold
) -> dict[str, Any]:
    if step.against is not None and step.against.value is None:
        # the overall figure is computed first (workers/baselines.py); none: no record in scope
        raise UnsupportedQuery("bucket_selector", "no overall figure to hold the groups against")
    having = {"having": selector(step, path(meaning, step.measure))}
    # "stores with revenue of at least $5,000 per month": each month
    if meaning.group_by and meaning.interval:
        return _grouped(
            meaning, metrics, {"t": _histogram(meaning, catalog, {**metrics, **having})}
        )
    if meaning.group_by:
        terms = {
            "field": meaning.group_by[0],
            "size": GROUP_CAP,
            "order": _order(meaning, index=step.measure),
        }
        return {
            "g": {"terms": terms, "aggs": {**metrics, **having}},
            "groups": _groups(meaning.group_by[0]),
        }
    return {"t": _histogram(meaning, catalog, {**metrics, **having})}


# -- top N within each group -----------------------------------------------------------------------
def _top_each(
    meaning: Meaning, catalog: Catalog, metrics: dict[str, Any], step: TopEach
) -> dict[str, Any]:
    ranked = _order(meaning, step.order)
    if step.within is not None:  # every period measured; ranked in each coarser one by `table`
        return {"t": _histogram(meaning, catalog, metrics)}
    if step.outer == "period":
        inner_terms = {"field": meaning.group_by[0], "size": step.n, "order": ranked}
        inner = {"g": {"terms": inner_terms, **({"aggs": metrics} if metrics else {})}}
        return {"t": _histogram(meaning, catalog, inner)}
    if len(meaning.group_by) > 1:
        inner_terms = {"field": meaning.group_by[1], "size": step.n, "order": ranked}
        inner = {"i": {"terms": inner_terms, **({"aggs": metrics} if metrics else {})}}
    else:  # the busiest periods of each group: every period measured, the top n kept by bucket_sort
        top = {
            "top": {
                "bucket_sort": {"sort": [{path(meaning): {"order": step.order}}], "size": step.n}
            }
        }
        inner = {"t": _histogram(meaning, catalog, {**metrics, **top})}
    return _grouped(meaning, metrics, inner)


# -- running totals and changes
# ----------------------------------------------------------------------
def _running_or_change(meaning: Meaning, step: Step) -> dict[str, Any]:
    if isinstance(step, Running):
        return {"run": {"cumulative_sum": {"buckets_path": path(meaning)}}}
    return {"change": {"derivative": {"buckets_path": path(meaning)}}}


# -- averages per period ---------------------------------------------------------------------------
def _per_period(
    meaning: Meaning, catalog: Catalog, metrics: dict[str, Any], step: PerPeriod
) -> dict[str, Any]:
    measured = path(meaning)
    average = {
        "per": {"avg_bucket": {"buckets_path": f"t>{measured}", "gap_policy": "insert_zeros"}}
    }
    inner = {"t": _histogram(meaning, catalog, metrics, step.interval), **average}
    return _grouped(meaning, metrics, inner)


def _per_group(meaning: Meaning, metrics: dict[str, Any]) -> dict[str, Any]:
    """Each group's figure, and their average (`avg_bucket`) beside; the groups are counted, so an
    average over fewer groups than there are (past GROUP_CAP) is refused, never shown."""
    average = {"per": {"avg_bucket": {"buckets_path": f"g>{path(meaning)}"}}}
    return _grouped(meaning, metrics, {}) | average


def overall(meaning: Meaning, response: dict[str, Any]) -> float | None:
    """The one figure of a meaning without groups, or the average of its groups' or periods'
    figures (PerGroup, PerPeriod), unrounded; None where no record is in scope."""
    aggs = response.get("aggregations", {})
    if meaning.steps:
        value = aggs.get("per", {}).get("value")
        return None if value is None else float(value)
    total = int(response["hits"]["total"]["value"])
    return _measures.exact(meaning.measures[0], aggs.get("m0"), total) if total else None


# -- tables ----------------------------------------------------------------------------------------
Rows = list[list[Any]]


def table(
    meaning: Meaning,
    response: dict[str, Any],
    values: Values,
    dates: tuple[date | None, date | None] = (None, None),
) -> Table:
    """A step's answer: groups or periods with their figures, in the order computed; `dates`, the
    records' first and last, keep periods the data cuts short out of a ranking."""
    step = meaning.steps[0]
    result = response.get("aggregations", {})
    if isinstance(step, TopEach) and step.within is not None:
        columns, rows = _nested_rows(meaning, result, step, values, dates)
    elif isinstance(step, PerPeriod):
        columns, rows = _per_period_rows(meaning, result, step)
    elif isinstance(step, PerGroup):
        columns, rows = _per_group_rows(meaning, result)
    elif isinstance(step, TopEach):
        columns, rows = _top_each_rows(meaning, result, step, values)
    elif isinstance(step, Threshold):
        columns, rows = _threshold_rows(meaning, result, values)
    else:
        columns, rows = _period_rows(meaning, result, step, values)
    return Table(columns=columns, rows=rows, total=len(rows))


def _key(field: str) -> Column:
    return Column(name=field, role="key")


def _keys(meaning: Meaning) -> list[Column]:
    """The key column of the first grouping, if there is one."""
    return [_key(field) for field in meaning.group_by[:1]]


def _threshold_rows(
    meaning: Meaning, result: dict[str, Any], values: Values
) -> tuple[list[Column], Rows]:
    figures = _measures.columns(meaning.measures)
    if meaning.group_by and meaning.interval:
        rows = [
            [g["key"], b["key_as_string"], *values(b)]
            for g in result["g"]["buckets"]
            for b in g["t"]["buckets"]
        ]
        return [*_keys(meaning), PERIOD, *figures], rows
    if meaning.group_by:
        rows = [[b["key"], *values(b)] for b in result["g"]["buckets"]]
        return [*_keys(meaning), *figures], rows
    return [PERIOD, *figures], [[b["key_as_string"], *values(b)] for b in result["t"]["buckets"]]


def _top_each_rows(
    meaning: Meaning, result: dict[str, Any], step: TopEach, values: Values
) -> tuple[list[Column], Rows]:
    figures = _measures.columns(meaning.measures)
    if step.outer == "period":
        rows = [
            [t["key_as_string"], g["key"], *values(g)]
            for t in result["t"]["buckets"]
            for g in t["g"]["buckets"]
        ]
        return [PERIOD, *_keys(meaning), *figures], rows
    if len(meaning.group_by) > 1:  # the top n of the second grouping within each of the first
        rows = [
            [g["key"], b["key"], *values(b)]
            for g in result["g"]["buckets"]
            for b in g["i"]["buckets"]
        ]
        return [*_keys(meaning), _key(meaning.group_by[1]), *figures], rows
    rows = [
        [g["key"], b["key_as_string"], *values(b)]
        for g in result["g"]["buckets"]
        for b in g["t"]["buckets"]
    ]
    return [*_keys(meaning), PERIOD, *figures], rows


def _nested_rows(
    meaning: Meaning,
    result: dict[str, Any],
    step: TopEach,
    values: Values,
    dates: tuple[date | None, date | None],
) -> tuple[list[Column], Rows]:
    """The top n periods inside each coarser period ("the quietest week in each quarter"): the
    coarser period in words, then each of its top n with its figures, the earlier first in a tie.

    A date histogram cannot be ranked inside a coarser period in the DSL both engines speak, so its
    periods (all of them) are ranked here; a period the dates asked or the data cut short is left
    out, as it would rank as the quietest for want of days."""
    assert step.within is not None and meaning.interval is not None
    held: dict[date, Rows] = {}
    for bucket in result["t"]["buckets"]:
        first_day, cells = bucket["key_as_string"], values(bucket)
        if cells[0] is None or not whole_period(first_day, meaning, dates):
            continue
        holder = holder_start(date.fromisoformat(first_day[:10]), meaning.interval, step.within)
        held.setdefault(holder, []).append([first_day, *cells])
    first_figure = itemgetter(1)  # the cell after the period's first day
    rows = [
        [period_name(holder, step.within), *row]
        for holder, periods in sorted(held.items())
        for row in sorted(periods, key=first_figure, reverse=step.order == "desc")[: step.n]
    ]
    return [_key(step.within), PERIOD, *_measures.columns(meaning.measures)], rows


def _period_rows(
    meaning: Meaning, result: dict[str, Any], step: Step, values: Values
) -> tuple[list[Column], Rows]:
    """Each period with its figure and the running total, or the change from the period before."""
    groups = result["g"]["buckets"] if meaning.group_by else [{"key": None, "t": result["t"]}]
    rows = []
    for group in groups:
        prefix = [group["key"]] if meaning.group_by else []
        rows += [
            [*prefix, b["key_as_string"], *values(b)[:1], *_pipelined(b, step)]
            for b in group["t"]["buckets"]
        ]
    figure = Column(name=meaning.measures[0].label, role="figure", measure=0)
    return [*_keys(meaning), PERIOD, figure, *_pipelined_columns(step)], rows


def _pipelined_columns(step: Step) -> list[Column]:
    """The running total, or the change (and the change in percent, when asked)."""
    if isinstance(step, Running):
        return [Column(name="running total", role="running")]
    change = Column(name="change", role="change")
    if isinstance(step, Change) and step.percent:
        return [change, Column(name="change %", role="change_percent")]
    return [change]


def _pipelined(bucket: dict[str, Any], step: Step) -> list[Any]:
    if isinstance(step, Running):
        return [_number(bucket["run"]["value"])]
    change = _number(bucket["change"]["value"]) if "change" in bucket else None
    if not (isinstance(step, Change) and step.percent):
        return [change]
    return [change, _percent(bucket, change)]


def _percent(bucket: dict[str, Any], change: float | int | None) -> float | None:
    """The change over the period before (its value is this one's less the change), in percent."""
    if change is None:
        return None
    value = bucket.get("m0", {}).get("value", bucket["doc_count"])
    before = (value or 0) - change
    return round(100 * change / before, 1) if before else None


def _per_period_rows(
    meaning: Meaning, result: dict[str, Any], step: PerPeriod
) -> tuple[list[Column], Rows]:
    """Each group's (or the whole's) average per period, the number of periods and the total over
    them."""
    label = meaning.measures[0].label
    columns = [
        *_keys(meaning),
        Column(name=f"{label} per {step.interval} (average)", role="figure", measure=0),
        Column(name=f"{step.interval}s", role="count"),
        Column(name=label, role="total", measure=0),
    ]
    groups = result["g"]["buckets"] if meaning.group_by else [result]
    rows = []
    for group in groups:
        prefix = [group["key"]] if meaning.group_by else []
        periods = group["t"]["buckets"]
        total = sum(_bucket_value(meaning, b) for b in periods)
        rows.append([*prefix, _number(group["per"]["value"]), len(periods), _number(total)])
    return columns, rows


def _per_group_rows(meaning: Meaning, result: dict[str, Any]) -> tuple[list[Column], Rows]:
    """One row: the average of the groups' figures, how many groups, and the total over them."""
    groups = result["g"]["buckets"]
    if len(groups) < int(result["groups"]["value"]):
        raise UnsupportedQuery(
            "avg_bucket", f"more than {GROUP_CAP:,} groups to average over (some would be left out)"
        )
    field, label = meaning.group_by[0], meaning.measures[0].label
    total = sum(_bucket_value(meaning, b) for b in groups)
    columns = [
        Column(name=f"{label} per {field} (average)", role="figure", measure=0),
        Column(name=f"{field} groups", role="count"),
        Column(name=label, role="total", measure=0),
    ]
    return columns, [[_number(result["per"]["value"]), len(groups), _number(total)]]


def _bucket_value(meaning: Meaning, bucket: dict[str, Any]) -> float:
    if meaning.measures[0].field is None:
        return float(bucket["doc_count"])
    return float(bucket["m0"]["value"] or 0)


def _number(value: Any) -> Any:
    if isinstance(value, float):
        return int(value) if value.is_integer() else round(value, 2)
    return value
