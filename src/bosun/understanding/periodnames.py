"""Periods in words, one way for every reader: the answer's text, the reading, table cells and chart
axes (`bosun.answers.periods` says a table's cells with these).

A period is its first day and its interval: 2025-01-01 by month is "January 2025" ("Jan 2025" on a
crowded axis), by quarter "Q1 2025", by week "week of 6 Jan 2025", by day "6 Jan 2025", by year
"2025". A span of dates that is one whole calendar period is said as that period ("2025", "Q1 2026",
"March 2026"). The words are en.yaml's (`period_names`, the month names of `date_parts`). The answer
JSON's values stay ISO dates.
"""

from __future__ import annotations

import calendar
from datetime import date

from bosun.understanding.grammar import english

_MONTHS_IN = {"month": 1, "quarter": 3, "half-year": 6, "year": 12}


def period_name(day: date, interval: str, dense: bool = False) -> str:
    """The period that begins on `day`, in words: "January 2025", "Q1 2025", "week of 6 Jan
    2025"."""
    names = english().period_names
    template = (names.dense if dense else names.formats)[interval]
    month = english().date_parts.names["month"][day.month]
    return template.format(
        day=day.day,
        mon=names.short_months[day.month],
        month=month,
        year=day.year,
        quarter=(day.month - 1) // 3 + 1,
        half=(day.month - 1) // 6 + 1,
    )


def day_name(day: date) -> str:
    """One day in words: "6 Jan 2025"."""
    return period_name(day, "day")


def span_name(start: date, end: date) -> str | None:
    """A span that is one whole year, quarter or month, by its name ("2025", "Q1 2026", "March
    2026"); else None."""
    for interval, months in sorted(_MONTHS_IN.items(), key=lambda item: -item[1]):
        if start.day == 1 and (start.month - 1) % months == 0 and end == _last_day(start, months):
            return period_name(start, interval)
    return None


def _last_day(start: date, months: int) -> date:
    month = start.month + months - 1
    return date(start.year, month, calendar.monthrange(start.year, month)[1])
