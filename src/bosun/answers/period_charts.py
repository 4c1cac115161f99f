"""Period against period as grouped bars (issue 23): one bar per period, side by side within each
group.

The shape is read from the executed query, as for every chart: a `filter` aggregation per period
(p0, p1 …) holding a date range, at the top or under one grouping. The table's period columns are
folded into rows (period, value) by the spec itself, so the data stays the table's.
"""

from __future__ import annotations

from typing import Any

from bosun.answers.tables import ChartSource


def compares_periods(table: ChartSource) -> bool:
    """The query measures each period in a filter agg of its own (p0, p1 …), at the top or under a
    grouping."""
    aggs = (table.query or {}).get("aggs") or {}
    inner = aggs.get("g", {}).get("aggs", {}) if "g" in aggs else aggs
    return "p0" in inner and "p1" in inner and "range" in inner["p0"].get("filter", {})


def period_bars(table: ChartSource, schema_url: str) -> dict[str, Any] | None:
    """Grouped bars: x the group (or the period alone), one bar per period, the first measure's
    figures."""
    grouped = "g" in ((table.query or {}).get("aggs") or {})
    lead = 1 if grouped else 0
    count = _periods(table.query or {})
    periods = table.columns[lead : lead + count]
    if len(table.rows) < 1 or len(periods) < 2:
        return None
    encoding: dict[str, Any] = {
        "y": {"field": "value", "type": "quantitative", "title": periods[0].split(" · ")[0]},
        "color": {"field": "period", "type": "nominal", "sort": periods, "title": "period"},
    }
    if grouped:
        group = table.columns[0]
        encoding |= {
            "x": {"field": group, "type": "nominal", "sort": None, "title": group},
            "xOffset": {"field": "period", "sort": periods},
        }
    else:
        encoding["x"] = {"field": "period", "type": "nominal", "sort": periods, "title": "period"}
    values = [dict(zip(table.columns, row, strict=False)) for row in table.rows]
    return {
        "$schema": schema_url,
        "title": table.title,
        "width": "container",
        "autosize": {"type": "fit-x"},
        "data": {"values": values},
        "transform": [{"fold": periods, "as": ["period", "value"]}],
        "mark": {"type": "bar", "tooltip": True},
        "encoding": encoding,
    }


def _periods(query: dict[str, Any]) -> int:
    aggs = query.get("aggs") or {}
    inner = aggs.get("g", {}).get("aggs", {}) if "g" in aggs else aggs
    return len([k for k in inner if k.startswith("p") and k[1:].isdigit()])
