"""The answer's words for shares and percentiles: each figure with what it was computed over.

"12.40 % of the containers of the shipments with container type 20RF or 40RF (1,234 of 9,950) are
with port of unlading SAVANNAH"; "median transit days of the shipments with carrier MAERSK: 23, over
4,321 shipments with a value"; by group, "MAERSK 2.10 % (123 of 5,860); MSC …". Tables carry the
same numbers: a share is its percentage, its part and its whole; a percentile its value and how many
records had one.
"""

from __future__ import annotations

from typing import Any

from bosun.catalog import Catalog
from bosun.query import Table
from bosun.understanding import Meaning, Measure, period_cell
from bosun.understanding.grammar import english
from bosun.understanding.readback import condition_words, value_names

LISTED = 5


def special(meaning: Meaning) -> bool:
    """A meaning whose figures need these words: a share or a percentile among its measures."""
    return any(m.share is not None or m.agg == "percentile" for m in meaning.measures)


def summary(meaning: Meaning, table: Table, noun: str, over: str, catalog: Catalog) -> str:
    """The figures of a table of shares or percentiles in words; `over` says the records ("the
    shipments with carrier MAERSK", "all shipments"), `noun` what a row is ("carriers")."""
    rows = table.rows
    if not rows:
        return "No rows match."
    if not table.labelling:  # the figures of all the records
        said = [
            _figure(m, cells, meaning, over, catalog)
            for m, cells in _split(table, meaning, rows[0])
        ]
        return "; ".join(said) + "."
    shown = "; ".join(_row(table, meaning, row) for row in rows[:LISTED])
    more = f"; and {len(rows) - LISTED} more in the table" if len(rows) > LISTED else ""
    first = meaning.measures[0]
    return (
        f"{first.label} {_of_part(first, meaning, catalog)}by {noun}, over {over}: {shown}{more}."
    )


def notes(meaning: Meaning, engine_kind: str) -> list[str]:
    """What the answer says of how a percentile was computed on this engine."""
    if not any(m.agg == "percentile" for m in meaning.measures):
        return []
    said = english().measure_kinds.percentile_note
    return [said["embedded"] if engine_kind == "embedded" else said["remote"]]


def _split(table: Table, meaning: Meaning, row: list[Any]) -> list[tuple[Measure, list[Any]]]:
    """Each measure with its cells of the row."""
    return [(measure, table.measured(row, i)) for i, measure in enumerate(meaning.measures)]


def _figure(
    measure: Measure, cells: list[Any], meaning: Meaning, over: str, catalog: Catalog
) -> str:
    if measure.share is not None:
        percent, part, whole = cells
        # records
        base = (
            "" if measure.agg == "count" else f"the {measure.label.removeprefix('share of ')} of "
        )
        return (
            f"{_percent(percent)} of {base}{over} ({_number(part)} of {_number(whole)}) "
            f"{_of_part(measure, meaning, catalog).strip()}"
        ).strip()
    if measure.agg == "percentile":
        value, counted = cells
        unit = f" {measure.unit}" if measure.unit else ""
        return f"{measure.label} of {over}: {_number(value)}{unit}, over {_number(counted)} records with a value"
    return f"{measure.label}: {_number(cells[0])}"


def _row(table: Table, meaning: Meaning, row: list[Any]) -> str:
    key = " ".join(str(period_cell(v, meaning.interval)) for v in table.labels(row))
    said = []
    for measure, cells in _split(table, meaning, row):
        if measure.share is not None:
            said.append(f"{_percent(cells[0])} ({_number(cells[1])} of {_number(cells[2])})")
        elif measure.agg == "percentile":
            said.append(f"{_number(cells[0])} (over {_number(cells[1])})")
        else:
            said.append(_number(cells[0]))
    return f"{key} {', '.join(said)}"


def _of_part(measure: Measure, meaning: Meaning, catalog: Catalog) -> str:
    """ "with port of unlading SAVANNAH " for a share of a part; "" otherwise."""
    if measure.share is None or not measure.share.part:
        return ""
    part = " and ".join(
        condition_words(c, catalog, value_names(meaning)) for c in measure.share.part
    )
    return f"{english().measure_kinds.share_part.format(part=part)} "


def _percent(value: Any) -> str:
    return "n/a" if value is None else f"{value:.2f} %"


def _number(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "n/a" if value is None else str(value)
    return f"{value:,}" if isinstance(value, int) else f"{value:,.2f}"
