"""The answer's words for periods side by side and for set logic over groups (issue 23).

"Total TEU: 12,345 in 2024, 13,000 in 2025: +655 (+5.3 %) …"
"12 of 60 vessels have records of both BUSAN and SHANGHAI: MSC GULSUN 348 shipments; …"
"""

from __future__ import annotations

from datetime import date
from typing import Any

from bosun.answers import differences
from bosun.answers.figures import LISTED, figure, more_rows, no_rows
from bosun.answers.grammar import Compared, writing
from bosun.query import Table
from bosun.understanding.meaning import Change, Difference, HasAll, HasNone, Meaning, TimeFilter
from bosun.understanding.periodnames import day_name
from bosun.understanding.phrases import date_span, measure_words


def summary(meaning: Meaning, table: Table, noun: str, which: str) -> str:
    """Periods side by side with the change, two sides with their difference, or the groups that
    passed set logic; `which` says the records ("with carrier MAERSK"; "" for all of them)."""
    sides = next((s for s in meaning.steps if isinstance(s, Difference)), None)
    if sides is not None:
        return differences.summary(meaning, table, sides, which)
    if meaning.periods:
        outside = _outside(meaning, table.dates)
        # a period the data does not reach: its zero is no figure, and a change from it is none
        if outside:
            return _words().nothing.format(outside=outside)
        said = _periods(meaning, table, noun, which)
        return " ".join([said, *_coverage(meaning, table.dates)])
    return _sets(meaning, table, noun)


def _outside(meaning: Meaning, dates: tuple[date | None, date | None]) -> str:
    """A period wholly before the records begin or after they end, said; "" when every period has
    records."""
    words = _words()
    first, last = dates
    for period in meaning.periods:
        if first is not None and period.end is not None and period.end < first:
            return words.begin_after.format(day=day_name(first), period=period_words(period))
        if last is not None and period.start is not None and period.start > last:
            return words.end_before.format(day=day_name(last), period=period_words(period))
    return ""


def _coverage(meaning: Meaning, dates: tuple[date | None, date | None]) -> list[str]:
    """A period the records cover only in part, said: 2024 against 2025 when the data begins in June
    2024 is half a year against a whole one."""
    words = _words()
    first, last = dates
    said = []
    for period in meaning.periods:
        if first is not None and period.start is not None and first > period.start:
            said.append(words.begin_in.format(day=day_name(first), period=period_words(period)))
        if last is not None and period.end is not None and last < period.end:
            said.append(words.end_in.format(day=day_name(last), period=period_words(period)))
    return said


def _periods(meaning: Meaning, table: Table, noun: str, which: str) -> str:
    """Both periods with their dates, each figure, and the change (absolute and in percent)."""
    words = _words()
    measure, rows = meaning.measures[0], table.rows
    first, last = period_words(meaning.periods[0]), period_words(meaning.periods[-1])
    what = measure_words(measure)
    if which:
        what = words.of_records.format(measure=what, which=which)
    what = what[0].upper() + what[1:]
    if not meaning.group_by:
        if not rows:
            return no_rows()
        before, after = _first_and_last(table, rows[0], meaning)
        return words.periods.format(
            measure=what,
            before=figure(before, measure.unit),
            first=first,
            after=figure(after, measure.unit),
            last=last,
            change=_change(table, rows[0]),
        )
    if not rows:
        return words.no_groups.format(noun=noun, first=first, last=last)
    return words.groups.format(
        measure=what,
        first=first,
        last=last,
        count=len(rows),
        noun=noun,
        ranked=_ranked_by(meaning),
        rows="; ".join(_group_row(table, row, meaning) for row in rows[:LISTED]),
        more=more_rows(len(rows)),
    )


def _first_and_last(table: Table, row: list[Any], meaning: Meaning) -> tuple[Any, Any]:
    """The first measure's figure in the first period and in the last."""
    last = len(meaning.periods) - 1
    return table.figure(row, measure=0, period=0), table.figure(row, measure=0, period=last)


def _group_row(table: Table, row: list[Any], meaning: Meaning) -> str:
    unit = meaning.measures[0].unit
    before, after = _first_and_last(table, row, meaning)
    changed = _change(table, row)
    return f"{table.key(row)} {figure(before, unit)} → {figure(after, unit)}, {changed}"


def _change(table: Table, row: list[Any]) -> str:
    """ "+655 (+5.3 %)": the change from the first period to the last, absolute and in percent."""
    difference, percent = table.cell(row, "change"), table.cell(row, "change_percent")
    if difference is None:
        return _words().no_figure
    signed = f"+{figure(difference)}" if difference > 0 else figure(difference)
    if percent is None:
        return _words().no_percent.format(change=signed)
    return f"{signed} ({'+' if percent > 0 else ''}{percent:.1f} %)"


def _ranked_by(meaning: Meaning) -> str:
    """ ", by change in percent (highest first)" when the groups are ranked by their change."""
    changes = [s for s in meaning.steps if isinstance(s, Change)]
    if not changes:
        return ""
    words = _words()
    how = words.how["percent" if changes[0].percent else "change"]
    return words.ranked.format(how=how, order=words.order[meaning.order])


def _sets(meaning: Meaning, table: Table, noun: str) -> str:
    """How many groups passed of how many, and the first of them."""
    words = _words()
    test = "; ".join(_test(step) for step in meaning.steps if isinstance(step, HasAll | HasNone))
    rows, considered = table.rows, table.considered
    of = "" if considered is None else words.of.format(count=f"{considered:,}")
    if not rows:
        return words.none_pass.format(of=of, noun=noun, test=test)
    measure = meaning.measures[0]
    listed = "; ".join(
        f"{table.key(row)} {figure(table.figure(row), measure.unit)}" for row in rows[:LISTED]
    )
    return words.passed.format(
        count=f"{len(rows):,}",
        of=of,
        noun=noun,
        test=test,
        label=measure.label,
        rows=listed,
        more=more_rows(len(rows)),
    )


def _test(step: HasAll | HasNone) -> str:
    field = step.field.replace("_", " ")
    sets = writing().read_back.sets
    if isinstance(step, HasAll):
        return _words().has_all.format(field=field, values=sets.both.join(map(str, step.values)))
    return _words().has_none.format(field=field, values=sets.either.join(map(str, step.values)))


def period_words(period: TimeFilter) -> str:
    """ "Q1 2025", "6 Jan 2025 to 3 Mar 2025": as the reading says dates."""
    return date_span(period.start, period.end) or _words().all_dates


def _words() -> Compared:
    return writing().compared
