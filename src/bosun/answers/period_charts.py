"""Period against period as grouped bars (issue 23): one bar per period, side by side within each
group.

The shape is read from the executed query, as for every chart: a `filter` aggregation per period
(p0, p1 …) holding a date range, at the top or under one grouping. The table's period columns are
folded into rows (period, value) by the spec itself, so the data stays the table's; each measure
asked is a view of its own.
"""

from __future__ import annotations

from typing import Any

from bosun.answers.tables import ChartSource

# a column "TEU · 2025" is said by its period alone ("2025") on the axis and in the legend, level
PERIOD_ALONE = "split(datum.label, ' · ')[1]"


def compares_periods(table: ChartSource) -> bool:
    """The query measures each period in a filter agg of its own (p0, p1 …), at the top or under a
    grouping."""
    aggs = (table.query or {}).get("aggs") or {}
    inner = aggs.get("g", {}).get("aggs", {}) if "g" in aggs else aggs
    return "p0" in inner and "p1" in inner and "range" in inner["p0"].get("filter", {})


def period_bars(table: ChartSource, schema_url: str) -> dict[str, Any] | None:
    """Grouped bars: x the group (or the period alone), one bar per period; one view per measure,
    stacked one above the other, each on its own scale."""
    count = _periods(table.query or {})
    measures = _measures(table, count)
    if len(table.rows) < 1 or count < 2 or not measures:
        return None
    views = [_view(table, periods) for periods in measures]
    values = [dict(zip(table.columns, row, strict=False)) for row in table.rows]
    top = {"$schema": schema_url, "title": table.title, "data": {"values": values}}
    return composed(top, views)


def composed(top: dict[str, Any], views: list[dict[str, Any]]) -> dict[str, Any]:
    """A spec of one view, or of several stacked one above the other (one per measure), as wide as
    the page."""
    if len(views) == 1:
        return {**top, "width": "container", "autosize": {"type": "fit-x"}, **views[0]}
    # the views fit the page's width, axes and all (a phone's too)
    fitted = {"type": "fit-x", "contains": "padding"}
    return {**top, "autosize": fitted, "vconcat": [{"width": "container", **v} for v in views]}


def _measures(table: ChartSource, count: int) -> list[list[str]]:
    """Each measure's columns, one per period: every figure column, `count` at a time (the first
    measure's alone for a table without roles)."""
    lead = 1 if _grouped(table) else 0
    figures = [
        name for name, role in zip(table.columns, table.roles, strict=False) if role == "figure"
    ]
    figures = figures or table.columns[lead : lead + count]
    return [figures[at : at + count] for at in range(0, len(figures) - count + 1, count)]


def _view(table: ChartSource, periods: list[str]) -> dict[str, Any]:
    """One measure's bars: its period columns folded into rows (period, value)."""
    titles = dict(zip(table.columns, table.labels, strict=False))
    measure = titles.get(periods[0], periods[0]).split(" · ")[0]
    encoding: dict[str, Any] = {
        "y": {"field": "value", "type": "quantitative", "title": measure},
        "color": {
            "field": "period",
            "type": "nominal",
            "sort": periods,
            "title": "period",
            "legend": {"labelExpr": PERIOD_ALONE},
        },
    }
    if _grouped(table):
        group = table.columns[0]
        encoding |= {
            "x": {
                "field": group,
                "type": "nominal",
                "sort": None,
                "title": titles.get(group, group),
            },
            "xOffset": {"field": "period", "sort": periods},
        }
    else:
        encoding["x"] = {
            "field": "period",
            "type": "nominal",
            "sort": periods,
            "title": "period",
            "axis": {"labelAngle": 0, "labelExpr": PERIOD_ALONE},
        }
    return {
        "transform": [{"fold": periods, "as": ["period", "value"]}],
        "mark": {"type": "bar", "tooltip": True},
        "encoding": encoding,
    }


def _grouped(table: ChartSource) -> bool:
    return "g" in ((table.query or {}).get("aggs") or {})


def _periods(query: dict[str, Any]) -> int:
    aggs = query.get("aggs") or {}
    inner = aggs.get("g", {}).get("aggs", {}) if "g" in aggs else aggs
    return len([k for k in inner if k.startswith("p") and k[1:].isdigit()])
