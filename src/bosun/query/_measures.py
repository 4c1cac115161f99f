"""The DSL of each measure and the cells it gives in an answer table: plain metrics, percentiles and
shares.

A share of a part ("held share") is the measure over the bucket (the whole) and, beside it, a
`filter` agg with the part's conditions (the part). A share of all groups ("share of TEU by
carrier") is each group's measure over the measure of every record the query matched, asked once at
the top level: the sum of the rows shown would miss the groups a `terms` size cut drops.

    >>> metric_aggs(0, Measure(name="p", agg="percentile", field="teu", label="median TEU",
    percent=50))
    {'m0': {'percentiles': {'field': 'teu', 'percents': [50.0]}}}
"""

from __future__ import annotations

from typing import Any

from bosun.query.table import Column
from bosun.understanding import Measure
from bosun.understanding.meaning import Condition

PERCENT_DIGITS = 2
OVER = "records with a value"  # the column of a percentile's count


def condition_clauses(condition: Condition) -> list[dict[str, Any]]:
    """One condition as filter clauses: a term or terms (negated: must_not), and a range."""
    clauses: list[dict[str, Any]] = []
    if condition.values:
        values = condition.values
        clause = (
            {"term": {condition.field: values[0]}}
            if len(values) == 1
            else {"terms": {condition.field: values}}
        )
        clauses.append({"bool": {"must_not": [clause]}} if condition.negate else clause)
    bounds = {
        op: getattr(condition, op)
        for op in ("gte", "lte", "gt", "lt")
        if getattr(condition, op) is not None
    }
    if bounds:
        ranged = {"range": {condition.field: bounds}}
        # "without a declared value": NOT value > 0, which keeps the records where it is missing
        negated = condition.negate and not condition.values
        clauses.append({"bool": {"must_not": [ranged]}} if negated else ranged)
    if condition.exists is not None:
        present = {"exists": {"field": condition.field}}
        clauses.append(present if condition.exists else {"bool": {"must_not": [present]}})
    return clauses


def plain_metric(measure: Measure) -> dict[str, Any] | None:
    """The metric agg of a measure; None for a count of records (the bucket's doc_count)."""
    if measure.field is None:
        return None
    # exact up to 40,000 values on Elasticsearch (its cap); always on DuckDB
    if measure.agg == "cardinality":
        return {"cardinality": {"field": measure.field, "precision_threshold": 40000}}
    if measure.agg == "percentile":
        return {"percentiles": {"field": measure.field, "percents": [float(measure.percent or 50)]}}
    return {measure.agg if measure.agg != "count" else "value_count": {"field": measure.field}}


def metric_aggs(i: int, measure: Measure) -> dict[str, Any]:
    """The aggs measure i asks in each bucket: its metric, and the filtered part of a share."""
    aggs: dict[str, Any] = {}
    metric = plain_metric(measure)
    if metric is not None:
        aggs[f"m{i}"] = metric
    if measure.agg == "percentile":  # how many records have a value: what the percentile is over
        aggs[f"m{i}_n"] = {"value_count": {"field": measure.field}}
    if measure.share is not None and measure.share.part:
        clauses = [clause for c in measure.share.part for clause in condition_clauses(c)]
        part: dict[str, Any] = {"filter": {"bool": {"filter": clauses}}}
        aggs[f"m{i}_part"] = part | ({"aggs": {"v": metric}} if metric is not None else {})
    return aggs


def whole_aggs(measures: list[Measure]) -> dict[str, Any]:
    """Top-level aggs: the whole of each share of all groups (a count's whole is the hits total)."""
    aggs: dict[str, Any] = {}
    for i, measure in enumerate(measures):
        metric = plain_metric(measure)
        if measure.share is not None and not measure.share.part and metric is not None:
            aggs[f"m{i}_all"] = metric
    return aggs


def ranked_here(measures: list[Measure]) -> bool:
    """A first measure the engine cannot order groups by (a share of a part, a percentile): ranked
    on the rows."""
    first = measures[0] if measures else None
    return first is not None and (
        first.agg == "percentile" or bool(first.share and first.share.part)
    )


def columns(measures: list[Measure]) -> list[Column]:
    """The table's columns of the measures, each measure's figure first: a share is its
    percentage, then its part and its whole; a percentile its value, then how many records had
    one."""
    return [column for i, measure in enumerate(measures) for column in _columns(i, measure)]


def _columns(i: int, measure: Measure) -> list[Column]:
    if measure.agg == "percentile":
        return [
            Column(name=measure.label, role="figure", measure=i),
            Column(name=f"{measure.label}: {OVER}", role="count", measure=i),
        ]
    if measure.share is None:
        return [Column(name=measure.label, role="figure", measure=i)]
    base = measure.label.removeprefix("share of ").strip()
    return [
        Column(name=f"{measure.label} (%)", role="figure", measure=i),
        Column(name=f"{base}: part", role="part", measure=i),
        Column(name=f"{base}: whole", role="whole", measure=i),
    ]


def cells(measures: list[Measure], bucket: dict[str, Any], wholes: dict[str, Any]) -> list[Any]:
    """The cells of one bucket (a group, a period, or all records), in the order of `columns`."""
    row: list[Any] = []
    for i, measure in enumerate(measures):
        value = _value(measure, bucket.get(f"m{i}"), bucket["doc_count"])
        if measure.agg == "percentile":
            counted = (bucket.get(f"m{i}_n") or {}).get("value")
            row += [value, int(counted) if counted is not None else None]
            continue
        if measure.share is None:
            row.append(value)
            continue
        part, whole = (
            (_part(i, measure, bucket), value)
            if measure.share.part
            else (value, wholes.get(f"m{i}"))
        )
        row += [percentage(part, whole), part, whole]
    return row


def whole_values(measures: list[Measure], aggs: dict[str, Any], total: int) -> dict[str, Any]:
    """The whole of each share of all groups, from the top-level aggs (or the hits total, for a
    count)."""
    wholes: dict[str, Any] = {}
    for i, measure in enumerate(measures):
        if measure.share is not None and not measure.share.part:
            wholes[f"m{i}"] = _value(measure, aggs.get(f"m{i}_all"), total)
    return wholes


def percentage(part: Any, whole: Any) -> float | None:
    if part is None or not whole:
        return None
    return round(100.0 * float(part) / float(whole), PERCENT_DIGITS)


def _part(i: int, measure: Measure, bucket: dict[str, Any]) -> Any:
    filtered = bucket.get(f"m{i}_part", {})
    return _value(measure, filtered.get("v"), filtered.get("doc_count", 0))


def _value(measure: Measure, metric: dict[str, Any] | None, doc_count: int) -> Any:
    if measure.field is None:
        return doc_count
    metric = metric or {}
    if measure.agg == "percentile":
        found = list((metric.get("values") or {}).values())
        return _number(found[0] if found else None, measure)
    # a date: the day, not epoch ms
    if "value_as_string" in metric and metric.get("value") is not None:
        return str(metric["value_as_string"])[:10]
    return _number(metric.get("value"), measure)


def exact(measure: Measure, metric: dict[str, Any] | None, doc_count: int) -> float | None:
    """A measure's value as the engine computed it, unrounded (a bound must be the figure itself,
    not what a table shows of it)."""
    if measure.field is None:
        return float(doc_count)
    metric = metric or {}
    found = list((metric.get("values") or {}).values()) if measure.agg == "percentile" else []
    value = found[0] if found else metric.get("value")
    return None if value is None else float(value)


def _number(value: Any, measure: Measure) -> Any:
    if not isinstance(value, float):
        return value
    if value.is_integer() and measure.agg in ("sum", "min", "max"):
        return int(value)
    return round(value, 2) if abs(value) >= 1 else float(f"{value:.4g}")
