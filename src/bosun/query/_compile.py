"""Meaning → Elasticsearch DSL, and an ES response → a compact table. No domain words here."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date
from typing import Any

from pydantic import BaseModel

from bosun.catalog import Catalog
from bosun.query import _compared, _linked, _measures, _sides, _steps
from bosun.query._halves import half_years, period_key
from bosun.query._listing import listed_object, listing_query, listing_table, record_table
from bosun.query._parts import part_order
from bosun.query._periods import whole_period
from bosun.query.table import PERIOD, Column, Table
from bosun.understanding import Meaning, Measure

Values = Callable[[dict[str, Any]], list[Any]]  # a bucket's cells, in the measures' columns
MAX_GROUPS = 1000
PAIRED_GROUPS = 100  # of each of two fields grouped together: the buckets stay under the cap
FORMATS = {
    "day": "yyyy-MM-dd",
    "week": "yyyy-MM-dd",
    "month": "yyyy-MM-dd",
    "quarter": "yyyy-MM-dd",
    "half-year": "yyyy-MM-dd",
    "year": "yyyy-MM-dd",
}


class CompiledQuery(BaseModel):
    """F06's query: the index, the DSL body, and the meaning it was compiled from."""

    index: str
    body: dict[str, Any]
    meaning: Meaning


def filters(meaning: Meaning) -> list[dict[str, Any]]:
    clauses = [clause for c in meaning.conditions for clause in _measures.condition_clauses(c)]
    if meaning.time:
        bounds = {}
        if meaning.time.start:
            bounds["gte"] = meaning.time.start.isoformat()
        if meaning.time.end:
            bounds["lte"] = meaning.time.end.isoformat()
        clauses.append({"range": {meaning.time.field: bounds}})
    return clauses


def counted(meaning: Meaning, catalog: Catalog) -> Meaning:
    """A trend of nothing named is a trend of the default measure ("break that down by month")."""
    if not meaning.interval or meaning.measures:
        return meaning
    name = catalog.spec.defaults.measure
    spec = catalog.spec.measures[name]
    measure = Measure(name=name, agg=spec.agg, field=spec.field, label=spec.label, unit=spec.unit)
    return meaning.model_copy(update={"measures": [measure]})


def build_query(meaning: Meaning, catalog: Catalog) -> dict[str, Any]:
    listed = listed_object(meaning, catalog)
    if listed is not None:  # "which carriers belong to the Gemini Cooperation"
        return listing_query(
            listed, filters(meaning), meaning.top_n or catalog.spec.defaults.page_size
        )
    meaning = counted(meaning, catalog)
    if _sides.applies(meaning):  # two values of a field and their difference
        return _sides.build(meaning, catalog, filters, _metrics(meaning), MAX_GROUPS)
    if _compared.applies(meaning):  # periods side by side, set logic over groups
        return _compared.build(meaning, filters, _metrics(meaning), MAX_GROUPS)
    body: dict[str, Any] = {
        "query": {"bool": {"filter": filters(meaning)}},
        "track_total_hits": True,
    }
    if meaning.intent_type == "search":
        record = catalog.record
        sort: list[dict[str, Any]] = [{f: d} for f, d in meaning.sort]
        sort = sort or [{catalog.spec.time.default_field: {"order": "desc"}}]
        body.update(
            size=meaning.top_n or catalog.spec.defaults.page_size,
            sort=[*sort, {record.id_field or "_doc": "asc"}],
        )
        return body
    body["size"] = 0
    metrics = _metrics(meaning)
    # thresholds, top N within groups, running totals, changes, averages per period
    if meaning.steps:
        return body | {"aggs": _steps.aggs(meaning, catalog, metrics)}
    inner: dict[str, Any] = dict(metrics)
    if meaning.interval:
        field = meaning.time.field if meaning.time else catalog.spec.time.default_field
        inner = {"t": _periods_agg(meaning, field, metrics)}
    if _linked.applies(meaning):  # "TEU by alliance": a bucket per value of the attribute
        inner = {"g": {**_linked.linked_groups(meaning), **({"aggs": inner} if inner else {})}}
    elif meaning.group_by:
        ranked_here = _measures.ranked_here(meaning.measures)
        size = MAX_GROUPS if ranked_here else meaning.top_n or MAX_GROUPS
        size = min(size, PAIRED_GROUPS) if len(meaning.group_by) > 1 else size
        order = None if ranked_here else part_order(meaning, catalog) or _order(meaning)
        terms = {"field": meaning.group_by[0], "size": size, **({"order": order} if order else {})}
        inner = _within_groups(meaning, inner)
        inner = {"g": {"terms": terms, **({"aggs": inner} if inner else {})}}
    inner |= (
        _measures.whole_aggs(meaning.measures) if (meaning.group_by or meaning.interval) else {}
    )
    if inner:
        body["aggs"] = inner
    return body


def _periods_agg(meaning: Meaning, field: str, metrics: dict[str, Any]) -> dict[str, Any]:
    """A bucket per period of the meaning's interval: a date histogram, or half-years' ranges."""
    assert meaning.interval is not None
    if meaning.interval == "half-year":
        return half_years(meaning, field, metrics)
    histogram = {
        "field": field,
        "calendar_interval": meaning.interval,
        "format": FORMATS[meaning.interval],
        "min_doc_count": 0,
    }
    return {"date_histogram": histogram, **({"aggs": metrics} if metrics else {})}


def _within_groups(meaning: Meaning, inner: dict[str, Any]) -> dict[str, Any]:
    """ "by commodity and container type": a bucket of the second field in each group of the
    first, the figures (or the periods) in each; `inner` alone with one field. The first field's
    groups hold their own figures too, which they are ranked on."""
    if len(meaning.group_by) < 2:
        return inner
    order = None if meaning.interval else _order(meaning)
    terms = {
        "field": meaning.group_by[1],
        "size": PAIRED_GROUPS,
        **({"order": order} if order else {}),
    }
    ranked = {} if meaning.interval else _metrics(meaning)
    return {"g2": {"terms": terms, **({"aggs": inner} if inner else {})}, **ranked}


def _metrics(meaning: Meaning) -> dict[str, Any]:
    return {
        k: v for i, m in enumerate(meaning.measures) for k, v in _measures.metric_aggs(i, m).items()
    }


def _order(meaning: Meaning) -> dict[str, str] | None:
    """Groups in the order of their first measure (a ranking's, or highest first), so that the rows
    read in the order the answer's words list them; groups of periods keep the engine's order."""
    if not meaning.measures or (meaning.interval and not (meaning.top_n or meaning.sort)):
        return None
    first = meaning.measures[0]
    return {"_count": meaning.order} if first.agg == "count" else {"m0": meaning.order}


def table(
    meaning: Meaning,
    response: dict[str, Any],
    catalog: Catalog,
    dates: tuple[date | None, date | None] = (None, None),
) -> Table:
    """The answer's table from an ES response (the records' `dates` keep cut periods out of a
    ranking)."""
    listed = listed_object(meaning, catalog)
    if listed is not None:
        return listing_table(meaning, listed, response)
    if meaning.intent_type == "search":
        return _hits_table(meaning, response, catalog)
    meaning = counted(meaning, catalog)
    if _sides.applies(meaning):
        return _sides.table(meaning, response, lambda b: _measures.cells(meaning.measures, b, {}))
    if _compared.applies(meaning):
        return _compared.table(
            meaning, response, lambda m, bucket: _measures.cells(m.measures, bucket, {})
        )
    aggs = response.get("aggregations", {})
    total = response["hits"]["total"]["value"]
    wholes = _measures.whole_values(meaning.measures, aggs, total)

    def values(bucket: dict[str, Any]) -> list[Any]:
        return _measures.cells(meaning.measures, bucket, wholes)

    if meaning.steps:
        return _steps.table(meaning, response, values, dates)
    if meaning.group_by:
        return _grouped(meaning, aggs, values)
    if meaning.interval:
        return _periodic(meaning, aggs, values, dates)
    figures = _measures.columns(meaning.measures)
    return Table(columns=figures, rows=[values({"doc_count": total, **aggs})], total=1)


def _grouped(meaning: Meaning, aggs: dict[str, Any], values: Values) -> Table:
    """A row per group (and per period, by a grouping and an interval), ranked here when the
    engine cannot rank the groups."""
    period = [PERIOD] if meaning.interval else []
    keys = [Column(name=field, role="key") for field in meaning.group_by[:2]]
    columns = [*keys, *period]
    rows = []
    linked = _linked.applies(meaning)
    found = _linked.buckets(aggs["g"]) if linked else aggs["g"]["buckets"]
    for bucket, group in _groups(found, len(keys)):
        if meaning.interval:
            rows += [[*group, period_key(b), *values(b)] for b in bucket["t"]["buckets"]]
        else:
            rows.append([*group, *values(bucket)])
    grouped = Table(
        columns=[*columns, *_measures.columns(meaning.measures)], rows=rows, total=len(rows)
    )
    if (linked or _measures.ranked_here(meaning.measures)) and not meaning.interval:
        return _ranked(grouped, meaning)
    return grouped


def _groups(found: list[dict[str, Any]], fields: int) -> Iterator[tuple[dict[str, Any], list[Any]]]:
    """Each innermost bucket with the keys of the groups it is in: one field's buckets, or each
    bucket of the second field within those of the first."""
    for bucket in found:
        if fields < 2:
            yield bucket, [bucket["key"]]
            continue
        for inner in bucket["g2"]["buckets"]:
            yield inner, [bucket["key"], inner["key"]]


def _periodic(
    meaning: Meaning,
    aggs: dict[str, Any],
    values: Values,
    dates: tuple[date | None, date | None],
) -> Table:
    """A row per period; the whole periods alone, ranked, when the meaning ranks them."""
    rows = [[period_key(b), *values(b)] for b in aggs["t"]["buckets"]]
    periods = Table(
        columns=[PERIOD, *_measures.columns(meaning.measures)], rows=rows, total=len(rows)
    )
    if not meaning.top_n:
        return periods
    whole = [row for row in rows if whole_period(periods.period(row), meaning, dates)]
    return _ranked(periods.model_copy(update={"rows": whole}), meaning)


def _ranked(table: Table, meaning: Meaning) -> Table:
    """ "the busiest day", "the lowest hold rate": periods, or groups by a share or a percentile,
    ranked by the first measure (the earlier first in a tie), the top N kept.

    A date histogram cannot be ordered by a metric in the DSL both engines speak, nor groups by a
    ratio or a percentile, so their buckets (all of them) are ranked here.
    """
    present = [row for row in table.rows if table.figure(row) is not None]
    ordered = sorted(present, key=table.figure, reverse=meaning.order == "desc")
    kept = ordered[: meaning.top_n] if meaning.top_n else ordered
    return table.model_copy(update={"rows": kept, "total": len(kept)})


def _hits_table(meaning: Meaning, response: dict[str, Any], catalog: Catalog) -> Table:
    """The records found: the first column names each (its id), then the fields asked and a few
    more."""
    record = catalog.record
    wanted = [
        record.id_field,
        *meaning.shown,
        *(c.field for c in meaning.conditions),
        *(f for f, _ in meaning.sort),
        meaning.time.field if meaning.time else catalog.spec.time.default_field,
    ]
    wanted += [f for f, s in record.fields.items() if s.role == "dimension"][:3]
    names = [c for c in dict.fromkeys(wanted) if c]
    return record_table(names, response)
