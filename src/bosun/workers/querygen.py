"""Meaning → Elasticsearch DSL, and an ES response → a compact table. No domain words here."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from bosun.catalog import Catalog
from bosun.understanding import Meaning, Measure
from bosun.workers import compared

MAX_GROUPS = 1000
FORMATS = {"day": "yyyy-MM-dd", "week": "yyyy-MM-dd", "month": "yyyy-MM-dd", "quarter": "yyyy-MM-dd",
           "year": "yyyy-MM-dd"}


def filters(meaning: Meaning) -> list[dict[str, Any]]:
    clauses: list[dict[str, Any]] = []
    for c in meaning.conditions:
        if c.values:
            clause = {"term": {c.field: c.values[0]}} if len(c.values) == 1 else {"terms": {c.field: c.values}}
            clauses.append({"bool": {"must_not": [clause]}} if c.negate else clause)
        bounds = {op: getattr(c, op) for op in ("gte", "lte", "gt", "lt") if getattr(c, op) is not None}
        if bounds:
            clauses.append({"range": {c.field: bounds}})
    if meaning.time:
        bounds = {}
        if meaning.time.start:
            bounds["gte"] = meaning.time.start.isoformat()
        if meaning.time.end:
            bounds["lte"] = meaning.time.end.isoformat()
        clauses.append({"range": {meaning.time.field: bounds}})
    return clauses


def _metric(measure: Measure) -> dict[str, Any]:
    if measure.agg == "cardinality":  # exact up to 40,000 values on Elasticsearch (its cap); always on DuckDB
        return {"cardinality": {"field": measure.field, "precision_threshold": 40000}}
    return {measure.agg if measure.agg != "count" else "value_count": {"field": measure.field}}


def counted(meaning: Meaning, catalog: Catalog) -> Meaning:
    """A trend of nothing named is a trend of the default measure ("break that down by month")."""
    if not meaning.interval or meaning.measures:
        return meaning
    name = catalog.spec.defaults.measure
    spec = catalog.spec.measures[name]
    measure = Measure(name=name, agg=spec.agg, field=spec.field, label=spec.label, unit=spec.unit)
    return meaning.model_copy(update={"measures": [measure]})


def build_query(meaning: Meaning, catalog: Catalog) -> dict[str, Any]:
    meaning = counted(meaning, catalog)
    if compared.applies(meaning):  # periods side by side, set logic over groups
        return compared.build(meaning, filters, _metrics(meaning), MAX_GROUPS)
    body: dict[str, Any] = {"query": {"bool": {"filter": filters(meaning)}}, "track_total_hits": True}
    if meaning.intent_type == "search":
        record = catalog.record
        sort: list[dict[str, Any]] = [{f: d} for f, d in meaning.sort]
        sort = sort or [{catalog.spec.time.default_field: {"order": "desc"}}]
        body.update(size=meaning.top_n or catalog.spec.defaults.page_size,
                    sort=[*sort, {record.id_field or "_doc": "asc"}])
        return body
    body["size"] = 0
    metrics = _metrics(meaning)
    inner: dict[str, Any] = dict(metrics)
    if meaning.interval:
        field = meaning.time.field if meaning.time else catalog.spec.time.default_field
        inner = {"t": {"date_histogram": {"field": field, "calendar_interval": meaning.interval,
                                          "format": FORMATS[meaning.interval], "min_doc_count": 0},
                       **({"aggs": metrics} if metrics else {})}}
        if not meaning.group_by:  # periods ranked or compared: where the records' dates begin and end
            inner |= {"first": {"min": {"field": field, "format": "yyyy-MM-dd"}},
                      "last": {"max": {"field": field, "format": "yyyy-MM-dd"}}}
    if meaning.group_by:
        size = meaning.top_n or MAX_GROUPS
        order = _order(meaning)
        terms = {"field": meaning.group_by[0], "size": size, **({"order": order} if order else {})}
        body["aggs"] = {"g": {"terms": terms, **({"aggs": inner} if inner else {})}}
    elif inner:
        body["aggs"] = inner
    return body


def _metrics(meaning: Meaning) -> dict[str, Any]:
    return {f"m{i}": _metric(m) for i, m in enumerate(meaning.measures) if m.field}


def _order(meaning: Meaning) -> dict[str, str] | None:
    """Groups in the order of their first measure (a ranking's, or highest first), so that the rows read in
    the order the answer's words list them; groups of periods keep the engine's order."""
    if not meaning.measures or (meaning.interval and not (meaning.top_n or meaning.sort)):
        return None
    first = meaning.measures[0]
    return {"_count": meaning.order} if first.agg == "count" else {"m0": meaning.order}


def table(meaning: Meaning, response: dict[str, Any], catalog: Catalog) -> tuple[list[str], list[list[Any]], int]:
    """(columns, rows, total) of an answer table from an ES response."""
    if meaning.intent_type == "search":
        return _hits_table(meaning, response, catalog)
    meaning = counted(meaning, catalog)
    if compared.applies(meaning):
        return compared.table(meaning, response, _values)
    labels = [m.label for m in meaning.measures]
    aggs = response.get("aggregations", {})
    if meaning.group_by:
        rows = []
        for bucket in aggs["g"]["buckets"]:
            prefix = [bucket["key"]]
            if meaning.interval:
                rows += [[*prefix, b["key_as_string"], *_values(meaning, b)] for b in bucket["t"]["buckets"]]
            else:
                rows.append([*prefix, *_values(meaning, bucket)])
        time_col = ["period"] if meaning.interval else []
        return [meaning.group_by[0], *time_col, *labels], rows, len(rows)
    if meaning.interval:
        rows = [[b["key_as_string"], *_values(meaning, b)] for b in aggs["t"]["buckets"]]
        if meaning.top_n:
            rows = _ranked(whole_periods(rows, meaning, record_dates(response)), meaning)
        return ["period", *labels], rows, len(rows)
    total = response["hits"]["total"]["value"]
    return labels, [_values(meaning, {"doc_count": total, **aggs})], 1


def _ranked(rows: list[list[Any]], meaning: Meaning) -> list[list[Any]]:
    """ "the busiest day": periods ranked by the first measure (the earlier first in a tie), the top N kept.

    A date histogram cannot be ordered by a metric in the DSL both engines speak, so its buckets (one per
    period of the range) are ranked here.
    """
    present = [r for r in rows if r[1] is not None]
    ordered = sorted(present, key=lambda r: r[1], reverse=meaning.order == "desc")
    return ordered[:meaning.top_n]


def whole_periods(rows: list[list[Any]], meaning: Meaning, dates: tuple[date | None, date | None]) -> list[list[Any]]:
    """The periods wholly inside both the dates asked and the dates the records have (`dates`, first and last):
    a week cut in half by either would rank as the quietest, or end a trend low, for want of days."""
    assert meaning.interval is not None
    first, last = dates
    asked = meaning.time
    starts = [d for d in (asked.start if asked else None, first) if d is not None]
    ends = [d for d in (asked.end if asked else None, last) if d is not None]
    kept = []
    for row in rows:
        start = date.fromisoformat(str(row[0])[:10])
        if all(start >= d for d in starts) and all(period_end(start, meaning.interval) <= d for d in ends):
            kept.append(row)
    return kept


def record_dates(response: dict[str, Any]) -> tuple[date | None, date | None]:
    """The first and last date of the records a query of periods read (None where it asked none or none have one)."""
    aggs = response.get("aggregations", {})
    first, last = (aggs.get(name, {}).get("value_as_string") for name in ("first", "last"))
    return _day(first), _day(last)


def _day(text: object) -> date | None:
    return date.fromisoformat(str(text)[:10]) if text else None


def period_end(start: date, interval: str) -> date:
    """The last day of the calendar period that begins on `start`."""
    months = {"month": 1, "quarter": 3, "year": 12}.get(interval)
    if months is None:
        return start + timedelta(days=6 if interval == "week" else 0)
    month = start.month - 1 + months
    return date(start.year + month // 12, month % 12 + 1, 1) - timedelta(days=1)


def _values(meaning: Meaning, bucket: dict[str, Any]) -> list[Any]:
    values = []
    for i, m in enumerate(meaning.measures):
        metric = bucket.get(f"m{i}", {}) if m.field else {}
        value = bucket["doc_count"] if not m.field else metric["value"]
        if "value_as_string" in metric and value is not None:  # the earliest or latest date: a date, not epoch ms
            value = str(metric["value_as_string"])[:10]
        elif isinstance(value, float):
            value = int(value) if value.is_integer() and m.agg in ("sum", "min", "max") else _rounded(value)
        values.append(value)
    return values


def _rounded(value: float) -> float:
    """Cents for amounts, four significant digits below one (an average discount of 0.0499 stays 0.0499)."""
    return round(value, 2) if abs(value) >= 1 else float(f"{value:.4g}")


def _hits_table(meaning: Meaning, response: dict[str, Any], catalog: Catalog) -> tuple[list[str], list[list[Any]], int]:
    record = catalog.record
    wanted = [record.id_field, *(c.field for c in meaning.conditions), *(f for f, _ in meaning.sort),
              meaning.time.field if meaning.time else catalog.spec.time.default_field]
    wanted += [f for f, s in record.fields.items() if s.role == "dimension"][:3]
    columns = [c for c in dict.fromkeys(wanted) if c]
    rows = [[h["_source"].get(c) for c in columns] for h in response["hits"]["hits"]]
    return columns, rows, int(response["hits"]["total"]["value"])
