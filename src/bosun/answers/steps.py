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

from bosun.answers import numbers
from bosun.answers.baselines import overall_words
from bosun.answers.figures import LISTED, ended, figure, more_rows, no_rows
from bosun.answers.grammar import Steps, writing
from bosun.answers.periods import period_cell
from bosun.answers.readback import records_noun
from bosun.catalog import Catalog
from bosun.query import GROUP_CAP, Table, period_end, periods_between
from bosun.understanding import Meaning
from bosun.understanding.grammar import english
from bosun.understanding.meaning import Change, PerGroup, PerPeriod, Running, Threshold, TopEach
from bosun.understanding.phrases import date_span, measure_words

Noun = Callable[[int], str]  # what the groups are called, agreeing with a count


def summary(meaning: Meaning, table: Table, noun: Noun, over: str, catalog: Catalog) -> str:
    """The step's figures in words; `over` says which records ("with port of unlading SAVANNAH", "in
    all")."""
    step = meaning.steps[0]
    if not table.rows and not isinstance(step, Threshold):
        return no_rows()
    if isinstance(step, Threshold):
        return _threshold(meaning, table, step, noun, over, catalog)
    if isinstance(step, TopEach):
        return _top_each(meaning, table, step, over)
    if isinstance(step, PerPeriod):
        return _per_period(meaning, table, step, noun, over)
    if isinstance(step, PerGroup):
        return _per_group(meaning, table, noun, over)
    if isinstance(step, Running):
        return _running(meaning, table, over)
    assert isinstance(step, Change)
    return _change(meaning, table, step, over)


def _figure(value: Any, unit: str | None = None) -> str:
    """A step's figure: at its natural precision, money short, the unit after it."""
    return figure(value, unit)


def _bound(meaning: Meaning, step: Threshold, catalog: Catalog) -> str:
    """ "number of shipments above 2,000", "total TEU at least 500 and at most 900", "total TEU
    above the average over all ports (12,911 TEU)"."""
    phrases = english().phrases
    overall = overall_words(step, meaning, catalog, records_noun(catalog))
    said = [
        phrases.bounds[op].format(value=overall or _figure(_whole(getattr(step, op))))
        for op in ("gt", "gte", "lt", "lte")
        if getattr(step, op) is not None
    ]
    return f"{measure_words(meaning.measures[step.measure])} {phrases.both_bounds.join(said)}"


def _whole(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


# -- thresholds on groups or periods
def _threshold(
    meaning: Meaning, table: Table, step: Threshold, noun: Noun, over: str, catalog: Catalog
) -> str:
    if meaning.group_by and meaning.interval:
        return _threshold_by_period(meaning, table, step, noun, over, catalog)
    words = _words()
    passed = len(table.rows)
    among = _among(meaning, table)
    counted = f"{passed:,}"
    if among is not None:
        counted = words.passed_of.format(passed=counted, among=f"{among:,}")
    cut = ""
    if meaning.group_by and among is not None and among > GROUP_CAP:
        cut = words.tested.format(cap=f"{GROUP_CAP:,}")
    said = words.threshold.format(
        counted=counted,
        noun=noun(among if among is not None else passed),
        bound=_bound(meaning, step, catalog),
        over=over,
        cut=cut,
    )
    return ended(said, _listed(table, meaning, step.measure))


def _threshold_by_period(
    meaning: Meaning, table: Table, step: Threshold, noun: Noun, over: str, catalog: Catalog
) -> str:
    """ "85 months of 8 carriers (of 12) had total TEU above 1,000": each group's periods past the
    bound."""
    words = _words()
    groups = len({table.key(row) for row in table.rows})
    among = "" if table.groups is None else words.among.format(groups=f"{table.groups:,}")
    said = words.threshold_by_period.format(
        periods=f"{len(table.rows):,}",
        interval=meaning.interval,
        groups=f"{groups:,}",
        noun=noun(groups),
        among=among,
        bound=_bound(meaning, step, catalog),
        over=over,
    )
    return ended(said, _listed(table, meaning, step.measure))


def _among(meaning: Meaning, table: Table) -> int | None:
    """How many groups the threshold tested: the groups there are, or the periods of the time
    range."""
    if meaning.group_by:
        return table.groups
    time = meaning.time
    if time is None or time.start is None or time.end is None or meaning.interval is None:
        return None
    return periods_between(time.start, time.end, meaning.interval)


def _listed(table: Table, meaning: Meaning, measure: int) -> str:
    """The first rows that passed, each with its figure, and how many more the table has."""
    rows = table.rows
    unit = meaning.measures[measure].unit
    listed = [
        f"{_labelled(table, row, meaning)} {_figure(table.figure(row, measure), unit)}"
        for row in rows[:LISTED]
    ]
    return "; ".join(listed) + more_rows(len(rows))


def _named(value: Any, meaning: Meaning) -> Any:
    """A period's first day in words ("January 2026"); a group's name as it is."""
    return period_cell(value, meaning.interval)


def _labelled(table: Table, row: list[Any], meaning: Meaning) -> str:
    """What a row is, in words: its group and its period ("MAERSK January 2026")."""
    return " ".join(str(_named(label, meaning)) for label in table.labels(row))


# -- the top N within each group or period
def _top_each(meaning: Meaning, table: Table, step: TopEach, over: str) -> str:
    words = _words()
    outer: dict[Any, list[list[Any]]] = {}
    for row in table.rows:
        outer.setdefault(table.labels(row)[0], []).append(row)
    outside, inside = table.labelling  # the groups (or periods) and the top n within each
    within = outside.name.replace("_", " ")
    if step.outer != "group":
        within = meaning.interval or words.period
    unit = meaning.measures[0].unit
    shown = "; ".join(
        f"{_named(key, meaning)}: "
        + ", ".join(_ranked_within(table, r, meaning, unit) for r in rows)
        for key, rows in list(outer.items())[:LISTED]
    )
    return words.top_each.format(
        side=writing().shared.sides[step.order],
        n=step.n,
        inner=meaning.interval if inside.role == "period" else inside.name.replace("_", " "),
        measure=measure_words(meaning.measures[0]),
        within=within,
        among=_in_all(len(outer), over),
        rows=shown,
        more=more_rows(len(outer)),
    )


def _in_all(count: int, over: str) -> str:
    """ "12 in all", or "12 in all, with carrier MAERSK" when the records were narrowed."""
    words = _words()
    if over == writing().records.in_all:
        return words.in_all.format(count=f"{count:,}")
    return words.in_all_over.format(count=f"{count:,}", over=over)


def _ranked_within(table: Table, row: list[Any], meaning: Meaning, unit: str | None) -> str:
    """One of the top n within a group or period, with its figure: "SHANGHAI 1,234"."""
    inner = table.labels(row)[1]
    return f"{_named(inner, meaning)} {_figure(table.figure(row), unit)}"


# -- running totals and changes from the period before
def _running(meaning: Meaning, table: Table, over: str) -> str:
    words = _words()
    unit = meaning.measures[0].unit
    label = words.running.format(
        measure=measure_words(meaning.measures[0]), interval=meaning.interval, over=over
    )
    if meaning.group_by:
        ends = _last_by_group(table, table.rows)
        shown = "; ".join(
            words.running_row.format(
                key=key,
                figure=_figure(table.cell(row, "running"), unit),
                period=_named(table.period(row), meaning),
            )
            for key, row in list(ends.items())[:LISTED]
        )
        return words.running_by_group.format(label=label, rows=shown)
    first, last = table.rows[0], table.rows[-1]
    return words.running_total.format(
        label=label,
        total=_figure(table.cell(last, "running"), unit),
        last=_named(table.period(last), meaning),
        first=_named(table.period(first), meaning),
        cut=_cut(meaning, table, table.period(last)),
    )


def _last_by_group(table: Table, rows: list[list[Any]]) -> dict[Any, list[Any]]:
    """Each group's last row (its latest period), in the order the groups come."""
    ends: dict[Any, list[Any]] = {}
    for row in rows:
        ends[table.key(row)] = row
    return ends


def _change(meaning: Meaning, table: Table, step: Change, over: str) -> str:
    words = _words()
    rows = [r for r in table.rows if table.cell(r, "change") is not None]
    if not rows:
        return words.no_change
    if meaning.group_by:
        return _changes_by_group(meaning, table, over)
    whole = [r for r in rows if not _cut_short(meaning, table, table.period(r))] or rows
    last = whole[-1]
    before = table.rows[table.rows.index(last) - 1]
    skipped = ""
    if last is not rows[-1]:
        skipped = words.skipped.format(period=_named(table.period(rows[-1]), meaning))
    return words.change.format(
        measure=measure_words(meaning.measures[0]),
        over=over,
        first=_named(table.period(before), meaning),
        last=_named(table.period(last), meaning),
        moved=_moved(table, before, last, meaning.measures[0].unit, step.percent),
        skipped=skipped,
        interval=meaning.interval,
    )


def _moved(
    table: Table, before: list[Any], last: list[Any], unit: str | None, percent: bool
) -> str:
    """ "2,105 → 2,095 (-10, -0.5 %)": the figure before, the last, and the change."""
    in_percent = table.cell(last, "change_percent") if percent else None
    said = f", {numbers.percent(in_percent)}" if in_percent is not None else ""
    change = _signed(table.cell(last, "change"))
    was, now = _figure(table.figure(before), unit), _figure(table.figure(last), unit)
    return f"{was} → {now} ({change}{said})"


def _changes_by_group(meaning: Meaning, table: Table, over: str) -> str:
    words = _words()
    ends = _last_by_group(table, [r for r in table.rows if table.cell(r, "change") is not None])
    shown = "; ".join(
        words.change_row.format(
            key=key,
            change=_signed(table.cell(row, "change")),
            period=_named(table.period(row), meaning),
        )
        for key, row in list(ends.items())[:LISTED]
    )
    return words.changes.format(
        measure=measure_words(meaning.measures[0]),
        interval=meaning.interval,
        over=over,
        rows=shown,
    )


def _signed(value: Any) -> str:
    return f"+{_figure(value)}" if isinstance(value, int | float) and value > 0 else _figure(value)


# -- averages per period and per group
def _per_period(meaning: Meaning, table: Table, step: PerPeriod, noun: Noun, over: str) -> str:
    words = _words()
    rows = table.rows
    unit = meaning.measures[0].unit
    label = words.per_period.format(
        measure=measure_words(meaning.measures[0]), interval=step.interval
    )
    span = _span(meaning)
    if meaning.group_by:
        shown = "; ".join(
            words.per_period_row.format(
                key=table.key(r),
                figure=_figure(table.figure(r), unit),
                count=table.cell(r, "count"),
                interval=step.interval,
            )
            for r in rows[:LISTED]
        )
        return words.per_period_by_group.format(
            label=label,
            count=f"{len(rows):,}",
            noun=noun(len(rows)),
            over=over,
            span=span,
            rows=shown,
            more=more_rows(len(rows)),
        )
    average, periods, total = _averaged(table)
    dates = over if span else words.from_first.format(interval=step.interval, over=over)
    return words.per_period_all.format(
        label=label,
        average=_figure(average, unit),
        count=periods,
        interval=step.interval,
        dates=dates,
        total=_figure(total, unit),
        partial=_partial(meaning, step),
    )


def _per_group(meaning: Meaning, table: Table, noun: Noun, over: str) -> str:
    """ "Average total salary per team id: 125,004,579.73 over the 30 team ids (3,750,137,392 in
    all), …"."""
    unit = meaning.measures[0].unit
    average, groups, total = _averaged(table)
    return _words().per_group.format(
        measure=measure_words(meaning.measures[0]),
        one=noun(1),
        average=_figure(average, unit),
        count=f"{groups:,}",
        several=noun(groups),
        over=over,
        total=_figure(total, unit),
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
    words = _words()
    first_whole = _period_start(time.start, step.interval)
    last_whole = period_end(_period_start(time.end, step.interval), step.interval)
    cut = []
    if time.start != first_whole:
        cut.append(words.ends["first"])
    if time.end != last_whole:
        cut.append(words.ends["last"])
    if not cut:
        return ""
    template = words.partial_several if len(cut) > 1 else words.partial_one
    return template.format(ends=writing().shared.and_word.join(cut), interval=step.interval)


def _period_start(day: date, interval: str) -> date:
    if interval == "week":
        return date.fromordinal(day.toordinal() - day.weekday())
    months = {"month": 1, "quarter": 3, "half-year": 6, "year": 12}[interval]
    return date(day.year, (day.month - 1) // months * months + 1, 1)


def _span(meaning: Meaning) -> str:
    time = meaning.time
    if time is None or time.start is None or time.end is None:
        return ""
    return f" {date_span(time.start, time.end)}"


def _cut(meaning: Meaning, table: Table, period: str) -> str:
    """ ", June 2026 cut short by the dates" when the last period ends after the dates."""
    if not _cut_short(meaning, table, period):
        return ""
    return _words().cut.format(period=_named(period, meaning))


def _cut_short(meaning: Meaning, table: Table, period: str) -> bool:
    """A period that ends after the dates asked, or after the records' last date."""
    assert meaning.interval is not None
    end = period_end(date.fromisoformat(str(period)[:10]), meaning.interval)
    limits = [
        d for d in (meaning.time.end if meaning.time else None, table.dates[1]) if d is not None
    ]
    return any(end > limit for limit in limits)


def _words() -> Steps:
    return writing().steps
