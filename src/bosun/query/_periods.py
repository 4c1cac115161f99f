"""Calendar periods: where one ends, how many a span touches, which are whole, and the first and
last date the data has (a period the data covers only in part is said, or left out of a ranking)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from bosun.catalog import Catalog
from bosun.understanding import Meaning


def whole_period(
    first_day: object, meaning: Meaning, dates: tuple[date | None, date | None]
) -> bool:
    """Is the period that begins on `first_day` (an ISO date) wholly inside both the dates asked and
    the dates the records have (`dates`, first and last)? A week cut in half by either would rank as
    the quietest, or end a trend low, for want of days."""
    assert meaning.interval is not None
    start = date.fromisoformat(str(first_day)[:10])
    first, last = dates
    asked = meaning.time
    starts = [d for d in (asked.start if asked else None, first) if d is not None]
    ends = [d for d in (asked.end if asked else None, last) if d is not None]
    end = period_end(start, meaning.interval)
    return all(start >= d for d in starts) and all(end <= d for d in ends)


def period_field(meaning: Meaning, catalog: Catalog) -> str | None:
    """The date field whose periods a question compares, ranks or follows (None when it has no
    periods)."""
    if meaning.periods:
        return meaning.periods[0].field
    if meaning.interval or any(getattr(step, "interval", None) for step in meaning.steps):
        return meaning.time.field if meaning.time else catalog.spec.time.default_field
    return None


def record_dates(response: dict[str, Any]) -> tuple[date | None, date | None]:
    """The first and last date of a coverage query's answer (None where the data has none)."""
    aggs = response.get("aggregations", {})
    first, last = (aggs.get(name, {}).get("value_as_string") for name in ("first", "last"))
    return _day(first), _day(last)


def _day(text: object) -> date | None:
    return date.fromisoformat(str(text)[:10]) if text else None


def period_end(start: date, interval: str) -> date:
    """The last day of the calendar period that begins on `start`."""
    months = {"month": 1, "quarter": 3, "half-year": 6, "year": 12}.get(interval)
    if months is None:
        return start + timedelta(days=6 if interval == "week" else 0)
    month = start.month - 1 + months
    return date(start.year + month // 12, month % 12 + 1, 1) - timedelta(days=1)


def holder_start(start: date, interval: str, holder: str) -> date:
    """The first day of the coarser `holder` period that holds the period beginning on `start`. A
    week is held by the period of its Thursday, where most of its days are (ISO 8601's rule for the
    year of a week): the week of Mon 29 Dec 2025 is in Q1 2026.

        holder_start(date(2025, 6, 30), "week", "quarter") → 2025-07-01
        holder_start(date(2025, 8, 1), "month", "year")    → 2025-01-01
    """
    day = start + timedelta(days=3) if interval == "week" else start
    if holder == "week":
        return day - timedelta(days=day.weekday())
    if holder == "day":
        return day
    months = {"month": 1, "quarter": 3, "half-year": 6, "year": 12}[holder]
    return date(day.year, (day.month - 1) // months * months + 1, 1)


def periods_between(start: date, end: date, interval: str) -> int:
    """How many calendar periods the days start…end touch (31 days in May; 24 weeks touched by Jan 1
    – Jun 15)."""
    return _period_index(end, interval) - _period_index(start, interval) + 1


def _period_index(day: date, interval: str) -> int:
    if interval == "day":
        return day.toordinal()
    if interval == "week":
        return (day - timedelta(days=day.weekday())).toordinal() // 7
    months = {"month": 1, "quarter": 3, "half-year": 6, "year": 12}[interval]
    return (day.year * 12 + day.month - 1) // months


def coverage_query(field: str) -> dict[str, Any]:
    """The first and last date the data has on a date field, whatever else the question filters: a
    period is partly covered when the data begins or ends inside it, not when the records asked for
    happen to (reefer boxes into Savannah whose first arrival in Q2 is on the 2nd; the month of the
    first snow day)."""
    return {
        "size": 0,
        "aggs": {
            "first": {"min": {"field": field, "format": "yyyy-MM-dd"}},
            "last": {"max": {"field": field, "format": "yyyy-MM-dd"}},
        },
    }
