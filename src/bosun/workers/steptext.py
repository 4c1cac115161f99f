"""The answer's words for a step after grouping (issue 23): each figure with what it was computed
over.

    "7 of 48 ports of unlading had number of shipments above 2,000 (arrival date in all): LOS
    ANGELES 13,219; …"
    "Running total of total TEU per month: 79,745 by May 2026 (from January 2026)."
    "Change in number of shipments from April 2026 to May 2026: 2,105 → 2,095 (-10, -0.5 %)."
    "Average number of shipments per day: 68.48 over the 31 days May 2026 (2,123 in all)."
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from bosun.query import GROUP_CAP, Table, period_end, periods_between
from bosun.understanding import Meaning, date_span, english, measure_words, period_cell
from bosun.understanding.meaning import Change, PerGroup, PerPeriod, Running, Threshold, TopEach
from bosun.workers.slots import QueryResults

_LISTED = 5
Noun = Callable[[int], str]  # what the groups are called, agreeing with a count


def summary(results: QueryResults, noun: Noun, over: str) -> str:
    """The step's figures in words; `over` says which records ("with port of unlading SAVANNAH", "in
    all")."""
    meaning = results.meaning
    step = meaning.steps[0]
    if not results.table.rows and not isinstance(step, Threshold):
        return "No rows match."
    if isinstance(step, Threshold):
        return _threshold(results, step, noun, over)
    if isinstance(step, TopEach):
        return _top_each(results, step, noun, over)
    if isinstance(step, PerPeriod):
        return _per_period(results, step, noun, over)
    if isinstance(step, PerGroup):
        return _per_group(results, noun, over)
    if isinstance(step, Running):
        return _running(results, over)
    assert isinstance(step, Change)
    return _change(results, step, over)


def figure(value: Any, unit: str | None = None) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    number = f"{value:,}" if isinstance(value, int) else f"{value:,.2f}"
    return f"{number} {unit}" if unit else number


def _bound(meaning: Meaning, step: Threshold) -> str:
    """ "number of shipments above 2,000", "total TEU at least 500 and at most 900"."""
    words = english().read_back.bounds
    said = [
        words[op].format(value=figure(_whole(getattr(step, op))))
        for op in ("gt", "gte", "lt", "lte")
        if getattr(step, op) is not None
    ]
    return f"{measure_words(meaning.measures[step.measure])} {' and '.join(said)}"


def _whole(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def _threshold(results: QueryResults, step: Threshold, noun: Noun, over: str) -> str:
    meaning, table = results.meaning, results.table
    if meaning.group_by and meaning.interval:
        return _threshold_by_period(results, step, noun, over)
    passed = len(table.rows)
    among = _among(results)
    what = noun(among if among is not None else passed)
    counted = f"{passed:,} of {among:,}" if among is not None else f"{passed:,}"
    cut = ""
    if meaning.group_by and among is not None and among > GROUP_CAP:
        cut = f" (only the {GROUP_CAP:,} largest were tested)"
    listed = _listed(table, meaning, step.measure)
    return f"{counted} {what} had {_bound(meaning, step)} {over}{cut}" + (
        f": {listed}." if listed else "."
    )


def _threshold_by_period(results: QueryResults, step: Threshold, noun: Noun, over: str) -> str:
    """ "85 months of 8 carriers (of 12) had total TEU above 1,000": each group's periods past the
    bound."""
    meaning, table = results.meaning, results.table
    rows = table.rows
    groups = len({table.key(row) for row in rows})
    among = f" (of {table.groups:,})" if table.groups is not None else ""
    unit = meaning.measures[step.measure].unit
    shown = "; ".join(
        f"{_labelled(table, r, meaning)} {figure(table.figure(r, step.measure), unit)}"
        for r in rows[:_LISTED]
    )
    more = f"; and {len(rows) - _LISTED} more in the table" if len(rows) > _LISTED else ""
    periods = f"{len(rows):,} {meaning.interval}s of {groups:,} {noun(groups)}{among}"
    return f"{periods} had {_bound(meaning, step)} {over}" + (f": {shown}{more}." if shown else ".")


def _among(results: QueryResults) -> int | None:
    """How many groups the threshold tested: the groups there are, or the periods of the time
    range."""
    meaning = results.meaning
    if meaning.group_by:
        return results.table.groups
    time = meaning.time
    if time is None or time.start is None or time.end is None or meaning.interval is None:
        return None
    return periods_between(time.start, time.end, meaning.interval)


def _listed(table: Table, meaning: Meaning, measure: int) -> str:
    rows = table.rows
    more = f"; and {len(rows) - _LISTED} more in the table" if len(rows) > _LISTED else ""
    unit = meaning.measures[measure].unit
    listed = [
        f"{_labelled(table, row, meaning)} {figure(table.figure(row, measure), unit)}"
        for row in rows[:_LISTED]
    ]
    return "; ".join(listed) + more


def _named(value: Any, meaning: Meaning) -> Any:
    """A period's first day in words ("January 2026"); a group's name as it is."""
    return period_cell(value, meaning.interval)


def _labelled(table: Table, row: list[Any], meaning: Meaning) -> str:
    """What a row is, in words: its group and its period ("MAERSK January 2026")."""
    return " ".join(str(_named(label, meaning)) for label in table.labels(row))


def _top_each(results: QueryResults, step: TopEach, noun: Noun, over: str) -> str:
    meaning, table = results.meaning, results.table
    outer: dict[Any, list[list[Any]]] = {}
    for row in table.rows:
        outer.setdefault(table.labels(row)[0], []).append(row)
    side = "top" if step.order == "desc" else "bottom"
    outside, inside = table.labelling  # the groups (or periods) and the top n within each
    inner = inside.name.replace("_", " ")
    within = (
        outside.name.replace("_", " ") if step.outer == "group" else meaning.interval or "period"
    )
    unit = meaning.measures[0].unit
    shown = "; ".join(
        f"{_named(key, meaning)}: "
        + ", ".join(_ranked_within(table, r, meaning, unit) for r in rows)
        for key, rows in list(outer.items())[:_LISTED]
    )
    more = f"; and {len(outer) - _LISTED} more in the table" if len(outer) > _LISTED else ""
    heading = (
        f"The {side} {step.n} {inner} by {measure_words(meaning.measures[0])} within each {within}"
    )
    among = f"{len(outer):,} in all" + ("" if over == "in all" else f", {over}")
    return f"{heading} ({among}): {shown}{more}."


def _ranked_within(table: Table, row: list[Any], meaning: Meaning, unit: str | None) -> str:
    """One of the top n within a group or period, with its figure: "SHANGHAI 1,234"."""
    inner = table.labels(row)[1]
    return f"{_named(inner, meaning)} {figure(table.figure(row), unit)}"


def _running(results: QueryResults, over: str) -> str:
    meaning, table = results.meaning, results.table
    unit = meaning.measures[0].unit
    label = f"Running total of {measure_words(meaning.measures[0])} per {meaning.interval} {over}"
    if meaning.group_by:
        ends = _last_by_group(table, table.rows)
        shown = "; ".join(
            f"{key} {figure(table.cell(row, 'running'), unit)} by "
            f"{_named(table.period(row), meaning)}"
            for key, row in list(ends.items())[:_LISTED]
        )
        return f"{label}: {shown}."
    first, last = table.rows[0], table.rows[-1]
    upto, since = _named(table.period(last), meaning), _named(table.period(first), meaning)
    total = figure(table.cell(last, "running"), unit)
    cut = _cut(meaning, results, table.period(last))
    return f"{label}: {total} by {upto} (from {since}){cut}."


def _last_by_group(table: Table, rows: list[list[Any]]) -> dict[Any, list[Any]]:
    """Each group's last row (its latest period), in the order the groups come."""
    ends: dict[Any, list[Any]] = {}
    for row in rows:
        ends[table.key(row)] = row
    return ends


def _change(results: QueryResults, step: Change, over: str) -> str:
    meaning, table = results.meaning, results.table
    rows = [r for r in table.rows if table.cell(r, "change") is not None]
    if not rows:
        return "There is no period before the first to change from."
    if meaning.group_by:
        return _changes_by_group(results, over)
    whole = [r for r in rows if not _cut_short(meaning, results, table.period(r))] or rows
    last = whole[-1]
    before = table.rows[table.rows.index(last) - 1]
    moved = _moved(table, before, last, meaning.measures[0].unit, step.percent)
    skipped = (
        f"; {_named(table.period(rows[-1]), meaning)} is cut short by the dates, so not compared"
        if last is not rows[-1]
        else ""
    )
    since, upto = _named(table.period(before), meaning), _named(table.period(last), meaning)
    return (
        f"Change in {measure_words(meaning.measures[0])} {over} from {since} to {upto}: "
        f"{moved}{skipped}. "
        f"Each {meaning.interval}'s change from the one before is in the table."
    )


def _moved(
    table: Table, before: list[Any], last: list[Any], unit: str | None, percent: bool
) -> str:
    """ "2,105 → 2,095 (-10, -0.5 %)": the figure before, the last, and the change."""
    in_percent = table.cell(last, "change_percent") if percent else None
    said = f", {figure(in_percent)} %" if in_percent is not None else ""
    change = _signed(table.cell(last, "change"))
    was, now = figure(table.figure(before), unit), figure(table.figure(last), unit)
    return f"{was} → {now} ({change}{said})"


def _changes_by_group(results: QueryResults, over: str) -> str:
    meaning, table = results.meaning, results.table
    ends = _last_by_group(table, [r for r in table.rows if table.cell(r, "change") is not None])
    shown = "; ".join(
        f"{key} {_signed(table.cell(row, 'change'))} in {_named(table.period(row), meaning)}"
        for key, row in list(ends.items())[:_LISTED]
    )
    return f"Change in {measure_words(meaning.measures[0])} per {meaning.interval} {over}, the latest: {shown}."


def _signed(value: Any) -> str:
    return f"+{figure(value)}" if isinstance(value, int | float) and value > 0 else figure(value)


def _per_period(results: QueryResults, step: PerPeriod, noun: Noun, over: str) -> str:
    meaning, table = results.meaning, results.table
    rows = table.rows
    unit = meaning.measures[0].unit
    label = f"Average {measure_words(meaning.measures[0])} per {step.interval}"
    span = _span(meaning)
    if meaning.group_by:
        shown = "; ".join(
            f"{table.key(r)} {figure(table.figure(r), unit)} "
            f"(over {table.cell(r, 'count')} {step.interval}s)"
            for r in rows[:_LISTED]
        )
        more = f"; and {len(rows) - _LISTED} more in the table" if len(rows) > _LISTED else ""
        return f"{label} for {len(rows):,} {noun(len(rows))} {over}{span}: {shown}{more}."
    average, periods, total = _averaged(table)
    dates = over if span else f"from the first {step.interval} with records to the last, {over}"
    return (
        f"{label}: {figure(average, unit)} over the {periods} {step.interval}s {dates} "
        f"({figure(total, unit)} in all; {step.interval}s without any count as "
        f"zero){_partial(meaning, step)}."
    )


def _per_group(results: QueryResults, noun: Noun, over: str) -> str:
    """ "Average total salary per team id: 125,004,579.73 over the 30 team ids (3,750,137,392 in
    all), …"."""
    meaning = results.meaning
    unit = meaning.measures[0].unit
    average, groups, total = _averaged(results.table)
    return (
        f"Average {measure_words(meaning.measures[0])} per {noun(1)}: {figure(average, unit)} over "
        "the "
        f"{groups:,} {noun(groups)} {over} ({figure(total, unit)} in all; each {noun(1)}'s total, "
        "averaged)."
    )


def _averaged(table: Table) -> tuple[Any, Any, Any]:
    """The one row of an average over periods or groups: the average, how many, and the total."""
    row = table.rows[0]
    return table.figure(row), table.cell(row, "count"), table.cell(row, "total")


def _partial(meaning: Meaning, step: PerPeriod) -> str:
    """ "; the first and last weeks are partial": periods the dates cut, which pull an average
    down."""
    time = meaning.time
    if time is None or time.start is None or time.end is None or step.interval == "day":
        return ""
    cut = [
        word
        for word, at, whole in (
            ("first", time.start, _period_start(time.start, step.interval)),
            ("last", time.end, period_end(_period_start(time.end, step.interval), step.interval)),
        )
        if at != whole
    ]
    return (
        f"; the {' and '.join(cut)} {step.interval}{'s are' if len(cut) > 1 else ' is'} partial"
        if cut
        else ""
    )


def _period_start(day: date, interval: str) -> date:
    if interval == "week":
        return date.fromordinal(day.toordinal() - day.weekday())
    months = {"month": 1, "quarter": 3, "year": 12}[interval]
    return date(day.year, (day.month - 1) // months * months + 1, 1)


def _span(meaning: Meaning) -> str:
    time = meaning.time
    if time is None or time.start is None or time.end is None:
        return ""
    return f" {date_span(time.start, time.end)}"


def _cut(meaning: Meaning, results: QueryResults, period: str) -> str:
    return (
        f", {_named(period, meaning)} cut short by the dates"
        if _cut_short(meaning, results, period)
        else ""
    )


def _cut_short(meaning: Meaning, results: QueryResults, period: str) -> bool:
    """A period that ends after the dates asked, or after the records' last date."""
    assert meaning.interval is not None
    end = period_end(date.fromisoformat(str(period)[:10]), meaning.interval)
    limits = [
        d
        for d in (meaning.time.end if meaning.time else None, results.table.dates[1])
        if d is not None
    ]
    return any(end > limit for limit in limits)
