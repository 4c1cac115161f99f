"""The difference of two sides (issue 35), as Elasticsearch DSL and as an answer table.

    "difference between Maersk and MSC TEU by month" → query: the records of either side; per month
                                                       (a date_histogram), a `filter` agg for each
                                                       side (s0, s1) holding the measures
                                                     → table: month, TEU · MAERSK, TEU · MSC,
                                                       difference (MAERSK's minus MSC's)

A grouping beside the sides is a `terms` agg around the periods (or around the sides alone); with
neither, the sides are the top-level aggs and the table has one row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bosun.catalog import Catalog
from bosun.query import _measures
from bosun.query.table import PERIOD, Column, Table
from bosun.understanding.meaning import Difference, Meaning

Clauses = Callable[[Meaning], list[dict[str, Any]]]
Values = Callable[[dict[str, Any]], list[Any]]  # a bucket's cells, in the measures' columns
FORMAT = "yyyy-MM-dd"


def difference(meaning: Meaning) -> Difference | None:
    """The meaning's difference of two sides, if it asks one."""
    return next((s for s in meaning.steps if isinstance(s, Difference)), None)


def applies(meaning: Meaning) -> bool:
    return meaning.intent_type == "aggregation" and difference(meaning) is not None


def build(
    meaning: Meaning, catalog: Catalog, clauses_of: Clauses, metrics: dict[str, Any], cap: int
) -> dict[str, Any]:
    """The records of either side, grouped as the meaning groups, each group measured per side."""
    sides = _step(meaning)
    clauses = [*clauses_of(meaning), {"terms": {sides.field: list(sides.values)}}]
    inner: dict[str, Any] = {
        f"s{i}": {
            "filter": {"term": {sides.field: value}},
            **({"aggs": metrics} if metrics else {}),
        }
        for i, value in enumerate(sides.values)
    }
    if meaning.interval:
        inner = {"t": {"date_histogram": _histogram(meaning, catalog), "aggs": inner}}
    if meaning.group_by:
        inner = {"g": {"terms": {"field": meaning.group_by[0], "size": cap}, "aggs": inner}}
    return {
        "query": {"bool": {"filter": clauses}},
        "track_total_hits": True,
        "size": 0,
        "aggs": inner,
    }


def _histogram(meaning: Meaning, catalog: Catalog) -> dict[str, Any]:
    field = meaning.time.field if meaning.time else catalog.spec.time.default_field
    return {
        "field": field,
        "calendar_interval": meaning.interval,
        "format": FORMAT,
        "min_doc_count": 0,
    }


def table(meaning: Meaning, response: dict[str, Any], values: Values) -> Table:
    """A row per group and period: each side's figures, then the first measure's difference."""
    sides = _step(meaning)
    aggs = response.get("aggregations", {})
    groups = aggs["g"]["buckets"] if meaning.group_by else [aggs]
    rows = []
    for group in groups:
        key = [group["key"]] if meaning.group_by else []
        periods = group["t"]["buckets"] if meaning.interval else [group]
        for period in periods:
            label = [period["key_as_string"]] if meaning.interval else []
            rows.append([*key, *label, *_side_figures(meaning, period, values)])
    keys = [Column(name=field, role="key") for field in meaning.group_by[:1]]
    figures = [
        Column(name=f"{m.label} · {value}", role="figure", measure=j, side=i)
        for j, m in enumerate(meaning.measures)
        for i, value in enumerate(sides.values)
    ]
    columns = [*keys, *([PERIOD] if meaning.interval else []), *figures]
    columns.append(Column(name=_difference_heading(meaning), role="difference"))
    return _ranked(meaning, Table(columns=columns, rows=rows, total=len(rows)))


def _difference_heading(meaning: Meaning) -> str:
    """ "difference", or "TEU difference" when several measures stand side by side (the difference
    is of the first)."""
    if len(meaning.measures) == 1:
        return "difference"
    return f"{meaning.measures[0].label} difference"


def _side_figures(meaning: Meaning, bucket: dict[str, Any], values: Values) -> list[Any]:
    """Each measure's figure on each side, then the first measure's first side minus its second (a
    share's part and whole, a percentile's count of records, are left to the sides' own answers)."""
    at = [i for i, c in enumerate(_measures.columns(meaning.measures)) if c.role == "figure"]
    per_side = [[cells[i] for i in at] for cells in (values(bucket[f"s{s}"]) for s in range(2))]
    figures = [side[j] for j in range(len(meaning.measures)) for side in per_side]
    return [*figures, minus(per_side[0][0], per_side[1][0])]


def minus(first: Any, second: Any) -> float | int | None:
    """The first figure minus the second (none where either has no figure)."""
    if not isinstance(first, int | float) or not isinstance(second, int | float):
        return None
    difference = first - second
    return round(difference, 2) if isinstance(difference, float) else difference


def _ranked(meaning: Meaning, table: Table) -> Table:
    """Ranked by the difference when the meaning ranks ("the months Maersk led MSC by most", the
    top N kept) or asks the lowest first; rows without a difference go last."""
    if not meaning.top_n and meaning.order == "desc":
        return table
    present = [r for r in table.rows if table.cell(r, "difference") is not None]
    ordered = sorted(
        present, key=lambda row: table.cell(row, "difference"), reverse=meaning.order == "desc"
    )
    ordered += [r for r in table.rows if table.cell(r, "difference") is None]
    kept = ordered[: meaning.top_n] if meaning.top_n else ordered
    return table.model_copy(update={"rows": kept, "total": len(kept)})


def _step(meaning: Meaning) -> Difference:
    sides = difference(meaning)
    if sides is None:
        raise ValueError("the meaning asks no difference of two sides")
    return sides
