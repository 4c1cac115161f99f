"""Charts for answer tables: a Vega-Lite v5 spec chosen from a result's shape, never written by a
model.

The shape is read from the executed query and the rows, never from the question's words:

    bucket levels  time column   → chart
    0 (records)    –             → none
    1              yes           → line
    2              yes           → line, one colour per group
    1              no            → bars (in the rows' order: a ranking stays ranked)
    2              no            → stacked bars (each group's share of the first dimension)
    2, the inner ranked (top N within each group) → grouped bars
    a running total or a change (cumulative_sum, derivative) → its line, not the figure it runs over
    a filter agg per period      → grouped bars, one per period (period_charts.py)
    1, a measure named as a share (share, percent, %) → one stacked bar of the shares, largest
                                                        first, every part in the legend

Every measure the table holds is drawn: several are views stacked one above the other, each on its
own scale. Axes are titled with the headings the answer gives its columns (`labels`), never with
field names; periods are named as people write them ("Jan 2025") and lie level.

A spec is validated against the vendored Vega-Lite JSON schema before it is returned.
"""

from __future__ import annotations

import json
import re
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from bosun.answers.period_charts import compares_periods, composed, period_bars
from bosun.answers.periods import period_cell
from bosun.answers.tables import ChartSource
from bosun.understanding.grammar import english

SCHEMA_URL = "https://vega.github.io/schema/vega-lite/v5.json"
_SCHEMA_FILE = Path(__file__).parent / "schemas" / "vega-lite-v5.json"
_BUCKET_AGGS = ("terms", "date_histogram", "histogram", "composite", "range", "date_range")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}(-\d{2})?([T ][\d:.]+Z?)?$")


SHARE_SLACK = 0.5  # percentage points that rounding each share may lose


def chart_for(table: ChartSource) -> dict[str, Any] | None:
    """The Vega-Lite spec that fits the table's shape, or None (records, one value, no numbers)."""
    if compares_periods(table):  # period against period: grouped bars
        compared = period_bars(table, SCHEMA_URL)
        if compared is not None:
            validate(compared)
        return compared
    levels = _bucket_levels(
        (table.query or {}).get("aggs") or (table.query or {}).get("aggregations")
    )
    if levels == 0 or levels >= len(table.columns) or len(table.rows) < 2:
        return None
    aggs = (table.query or {}).get("aggs") or {}
    drawn = [at for at in _drawn(table, levels, aggs) if _numbers(table, at, levels)]
    if not drawn:
        return None
    dims = table.columns[:levels]
    time = next((d for i, d in enumerate(dims) if _all_dates(table.rows, i)), None)
    spec = _spec(table, dims, [table.columns[at] for at in drawn], time, _ranked_within(aggs))
    validate(spec)
    return spec


def _drawn(table: ChartSource, levels: int, aggs: dict[str, Any]) -> list[int]:
    """Where the figures to draw are: a running total or a change alone (the table's last column),
    else every measure's figure (the first column after the groups, for a table without roles)."""
    if _pipelined(aggs):
        return [len(table.columns) - 1]
    figures = [at for at, role in enumerate(table.roles) if role == "figure" and at >= levels]
    return figures or [levels]


def _numbers(table: ChartSource, at: int, levels: int) -> bool:
    """Every cell of the column is a number (a change's first period may have none)."""
    return all(_is_number(row[at]) or (at > levels and row[at] is None) for row in table.rows)


def _spec(
    table: ChartSource, dims: list[str], measures: list[str], time: str | None, ranked: bool
) -> dict[str, Any]:
    """One view per measure, each titled in the answer's words; several are stacked one above the
    other, each on its own scale (TEU and days share no axis)."""
    values = [dict(zip(table.columns, row, strict=False)) for row in table.rows]
    order: list[str] = []
    if time:
        values, order = _named_periods(table, time, values)
    titles = dict(zip(table.columns, table.labels, strict=False))
    views = [_view(table, dims, measure, time, order, ranked, titles) for measure in measures]
    top = {"$schema": SCHEMA_URL, "title": table.title, "data": {"values": values}}
    return composed(top, views)


def _view(
    table: ChartSource,
    dims: list[str],
    measure: str,
    time: str | None,
    order: list[str],
    ranked: bool,
    titles: dict[str, str],
) -> dict[str, Any]:
    """The mark and encoding that draw one measure."""
    others = [d for d in dims if d != time]
    if time:
        mark, encoding = "line", _line(time, measure, others, order)
    elif len(dims) == 2 and ranked:
        mark, encoding = "bar", _grouped(dims[0], measure, dims[1])
    elif len(dims) == 2:
        mark, encoding = "bar", _stacked(dims[0], measure, dims[1])
    elif _is_share(measure) and _whole(table, measure):
        mark, encoding = "bar", _share(dims[0], measure)
    else:
        mark, encoding = "bar", _bars(dims[0], measure)
    for channel in encoding.values():
        if "title" in channel:  # the answer's heading of the column, never its name
            channel["title"] = titles.get(channel["field"], channel["field"])
    return {
        "mark": {"type": mark, "tooltip": True, **({"point": True} if mark == "line" else {})},
        "encoding": encoding,
    }


def _named_periods(
    table: ChartSource, time: str, values: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[str]]:
    """The chart's periods in words as a dense axis writes them ("Jan 2025"), and those words in
    time order."""
    interval = _interval((table.query or {}).get("aggs") or {})
    days = sorted({str(value[time]) for value in values})
    names = {day: str(period_cell(day, interval, dense=True)) for day in days}
    return [{**value, time: names[str(value[time])]} for value in values], [
        names[day] for day in days
    ]


def _interval(aggs: dict[str, Any]) -> str | None:
    """The calendar interval of the query's date histogram, at any depth."""
    for agg in aggs.values():
        if not isinstance(agg, dict):
            continue
        histogram = agg.get("date_histogram")
        if isinstance(histogram, dict) and "calendar_interval" in histogram:
            return str(histogram["calendar_interval"])
        inner = _interval(agg.get("aggs") or agg.get("aggregations") or {})
        if inner is not None:
            return inner
    return None


# the periods' names read level; those that would overlap are left out, never turned on end
LEVEL_LABELS = {"labelAngle": 0, "labelOverlap": "greedy"}
MANY_COLOURS = "tableau20"  # distinct colours for up to 20 parts (the default has 10)


def _line(time: str, measure: str, others: list[str], order: list[str]) -> dict[str, Any]:
    # the periods are named, so the axis is ordinal, in time order; a temporal axis would write
    # dates its own way
    encoding = {
        "x": {
            "field": time,
            "type": "ordinal",
            "sort": order,
            "title": time,
            "axis": dict(LEVEL_LABELS),
        },
        "y": {"field": measure, "type": "quantitative", "title": measure},
    }
    if others:
        encoding["color"] = {
            "field": others[0],
            "type": "nominal",
            "title": others[0],
            "scale": {"scheme": MANY_COLOURS},
        }
    return encoding


def _bars(dim: str, measure: str) -> dict[str, Any]:
    # sort null keeps the rows' order, so a ranking reads top to bottom as the table does
    return {
        "y": {"field": dim, "type": "nominal", "sort": None, "title": dim},
        "x": {"field": measure, "type": "quantitative", "title": measure},
    }


def _stacked(dim: str, measure: str, part: str) -> dict[str, Any]:
    return {
        "x": {"field": dim, "type": "nominal", "sort": None, "title": dim},
        "y": {"field": measure, "type": "quantitative", "stack": "zero", "title": measure},
        "color": {
            "field": part,
            "type": "nominal",
            "title": part,
            "scale": {"scheme": MANY_COLOURS},
        },
    }


def _grouped(dim: str, measure: str, part: str) -> dict[str, Any]:
    return {
        "x": {"field": dim, "type": "nominal", "sort": None, "title": dim},
        "y": {"field": measure, "type": "quantitative", "title": measure},
        "xOffset": {"field": part, "type": "nominal", "sort": None},
        "color": {
            "field": part,
            "type": "nominal",
            "title": part,
            "scale": {"scheme": MANY_COLOURS},
        },
    }


def _pipelined(aggs: dict[str, Any]) -> bool:
    """A running total or a change beside the periods: the table's last column is what to draw."""
    text = json.dumps(aggs)
    return '"cumulative_sum"' in text or '"derivative"' in text


def _ranked_within(aggs: dict[str, Any]) -> bool:
    """Two levels of terms whose inner one is ordered by a measure: the top N within each group."""
    outer = next((a for a in aggs.values() if isinstance(a, dict) and "terms" in a), None)
    inner = (outer or {}).get("aggs") or {}
    return any(isinstance(a, dict) and "order" in a.get("terms", {}) for a in inner.values())


def _share(dim: str, measure: str) -> dict[str, Any]:
    """One bar cut in its parts, largest first, each part in a colour of its own and every part in
    the legend."""
    largest_first = {"field": measure, "order": "descending"}
    return {
        "x": {"field": measure, "type": "quantitative", "stack": "normalize", "title": measure},
        "color": {
            "field": dim,
            "type": "nominal",
            "sort": largest_first,
            "title": dim,
            "scale": {"scheme": MANY_COLOURS},
            "legend": {"orient": "bottom", "columns": 3, "symbolLimit": 0, "labelLimit": 0},
        },
        "order": {"field": measure, "type": "quantitative", "sort": "descending"},
    }


def _bucket_levels(aggs: dict[str, Any] | None) -> int:
    """How many nested bucket aggregations the query has: the number of dimension columns."""
    for agg in (aggs or {}).values():
        if isinstance(agg, dict) and any(kind in agg for kind in _BUCKET_AGGS):
            return 1 + _bucket_levels(agg.get("aggs") or agg.get("aggregations"))
    return 0


def _is_share(label: str) -> bool:
    """A label naming a share of a whole ("share of TEU", "% of value"), by the grammar's share
    words."""
    words = set(label.lower().replace("%", " % ").split())
    return bool(words & set(english().share_words))


def _whole(table: ChartSource, measure: str) -> bool:
    """Shares that make up one whole (they add up to 100): one bar cut in parts. Shares of each
    group's own whole ("held share by carrier"), or of a whole some groups were cut from, are bars
    side by side."""
    at = table.columns.index(measure)
    return abs(sum(float(row[at]) for row in table.rows) - 100.0) <= SHARE_SLACK


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _all_dates(rows: list[list[Any]], column: int) -> bool:
    return all(isinstance(row[column], str) and _ISO_DATE.match(row[column]) for row in rows)


def validate(spec: dict[str, Any]) -> None:
    """Raise jsonschema's ValidationError when the spec is not valid Vega-Lite v5.

    Inline data values are any JSON to the schema, so a spec is checked once per shape (the spec
    with no rows): walking the schema takes milliseconds, and each answer draws one of a few shapes.
    """
    data = spec.get("data")
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("values"), list)
        or not all(isinstance(r, dict) for r in data["values"])
    ):
        _validator().validate(spec)
        return
    _validate_shape(json.dumps({**spec, "data": {**data, "values": []}}, sort_keys=True))


@lru_cache(maxsize=256)
def _validate_shape(shape: str) -> None:
    _validator().validate(json.loads(shape))  # raises, so an invalid shape is never cached


@cache
def _validator() -> Any:
    """The schema's validator, built once: loading and checking the 1.4 MB schema takes a moment."""
    import jsonschema  # imported on first use, off the path of a command that draws no chart

    schema = json.loads(_SCHEMA_FILE.read_text(encoding="utf-8"))
    return jsonschema.validators.validator_for(schema)(schema)
