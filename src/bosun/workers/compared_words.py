"""The answer's words for periods side by side and for set logic over groups (issue 23).

"Total TEU: 12,345 in 2024, 13,000 in 2025: +655 (+5.3 %) …"
"12 of 60 vessels have records of both BUSAN and SHANGHAI: MSC GULSUN 348 shipments; …"
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from bosun.query import Table
from bosun.understanding import date_span, day_name
from bosun.understanding.meaning import Change, HasAll, HasNone, Meaning, TimeFilter
from bosun.understanding.readback import measure_words
from bosun.workers.slots import QueryResults

Figure = Callable[[Any, str | None], str]
_LISTED = 5


def summary(meaning: Meaning, results: QueryResults, noun: str, which: str, figure: Figure) -> str:
    table = results.table
    if meaning.periods:
        outside = _outside(meaning, table.dates)
        # a period the data does not reach: its zero is no figure, and a change from it is none
        if outside:
            return f"{outside} There is nothing to compare, so no change is given; the table has what there is."
        said = _periods(meaning, table, noun, which, figure)
        return " ".join([said, *_coverage(meaning, table.dates)])
    return _sets(meaning, table, noun, figure)


def _outside(meaning: Meaning, dates: tuple[date | None, date | None]) -> str:
    """A period wholly before the records begin or after they end, said; "" when every period has
    records."""
    first, last = dates
    for period in meaning.periods:
        if first is not None and period.end is not None and period.end < first:
            return f"The records begin {day_name(first)}: {period_words(period)} is before them."
        if last is not None and period.start is not None and period.start > last:
            return f"The records end {day_name(last)}: {period_words(period)} is after them."
    return ""


def _coverage(meaning: Meaning, dates: tuple[date | None, date | None]) -> list[str]:
    """A period the records cover only in part, said: 2024 against 2025 when the data begins in June
    2024 is half a year against a whole one."""
    first, last = dates
    said = []
    for period in meaning.periods:
        if first is not None and period.start is not None and first > period.start:
            said.append(
                f"The records begin {day_name(first)}: {period_words(period)} is only partly "
                "covered."
            )
        if last is not None and period.end is not None and last < period.end:
            said.append(
                f"The records end {day_name(last)}: {period_words(period)} is only partly covered."
            )
    return said


def _periods(meaning: Meaning, table: Table, noun: str, which: str, figure: Figure) -> str:
    """Both periods with their dates, each figure, and the change (absolute and in percent)."""
    measure, rows = meaning.measures[0], table.rows
    first, last = period_words(meaning.periods[0]), period_words(meaning.periods[-1])
    what = f"{measure_words(measure)} of the records {which}" if which else measure_words(measure)
    if not meaning.group_by:
        if not rows:
            return "No rows match."
        before, after = _first_and_last(table, rows[0], meaning)
        return (
            f"{what[0].upper()}{what[1:]}: {figure(before, measure.unit)} in {first}, "
            f"{figure(after, measure.unit)} in {last}; change {_change(table, rows[0], figure)}."
        )
    if not rows:
        return f"No {noun} have records in {first} or {last}."
    listed = "; ".join(_group_row(table, row, meaning, figure) for row in rows[:_LISTED])
    more = f"; and {len(rows) - _LISTED} more in the table" if len(rows) > _LISTED else ""
    ranked = _ranked_by(meaning)
    return f"{what[0].upper()}{what[1:]}, {first} → {last}, {len(rows)} {noun}{ranked}: {listed}{more}."


def _first_and_last(table: Table, row: list[Any], meaning: Meaning) -> tuple[Any, Any]:
    """The first measure's figure in the first period and in the last."""
    last = len(meaning.periods) - 1
    return table.figure(row, measure=0, period=0), table.figure(row, measure=0, period=last)


def _group_row(table: Table, row: list[Any], meaning: Meaning, figure: Figure) -> str:
    unit = meaning.measures[0].unit
    before, after = _first_and_last(table, row, meaning)
    changed = _change(table, row, figure)
    return f"{table.key(row)} {figure(before, unit)} → {figure(after, unit)}, {changed}"


def _change(table: Table, row: list[Any], figure: Figure) -> str:
    difference, percent = table.cell(row, "change"), table.cell(row, "change_percent")
    if difference is None:
        return "no change (a period has no figure)"
    signed = f"+{figure(difference, None)}" if difference > 0 else figure(difference, None)
    if percent is None:
        return f"{signed} (no percentage: the first period is zero)"
    return f"{signed} ({'+' if percent > 0 else ''}{percent:.1f} %)"


def _ranked_by(meaning: Meaning) -> str:
    changes = [s for s in meaning.steps if isinstance(s, Change)]
    if not changes:
        return ""
    how = "change in percent" if changes[0].percent else "change"
    order = (
        "highest first"
        if meaning.order == "desc"
        else "lowest first: the largest fall, else the smallest rise"
    )
    return f", by {how} ({order})"


def _sets(meaning: Meaning, table: Table, noun: str, figure: Figure) -> str:
    """How many groups passed of how many, and the first of them."""
    test = "; ".join(_test(step) for step in meaning.steps if isinstance(step, HasAll | HasNone))
    rows, considered = table.rows, table.considered
    of = f" of {considered:,}" if considered is not None else ""
    if not rows:
        return f"None{of} {noun} pass ({test})."
    measure = meaning.measures[0]
    listed = "; ".join(
        f"{table.key(row)} {figure(table.figure(row), measure.unit)}" for row in rows[:_LISTED]
    )
    more = f"; and {len(rows) - _LISTED} more in the table" if len(rows) > _LISTED else ""
    return f"{len(rows):,}{of} {noun} pass ({test}) — {measure.label}: {listed}{more}."


def _test(step: HasAll | HasNone) -> str:
    field = step.field.replace("_", " ")
    if isinstance(step, HasAll):
        return f"records of each {field} {' and '.join(str(v) for v in step.values)}"
    return f"no record of {field} {' or '.join(str(v) for v in step.values)}"


def period_words(period: TimeFilter) -> str:
    """ "Q1 2025", "6 Jan 2025 to 3 Mar 2025": as the reading says dates."""
    return date_span(period.start, period.end) or "all dates"
