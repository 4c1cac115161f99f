"""Half-years as buckets. Neither engine has a half-year calendar interval (a date histogram takes
one unit of month, quarter or year), so the half-years a question's dates cover are a date range
aggregation, a range per half-year keyed by its first day, as a histogram's buckets are.

>>> from datetime import date
>>> [r["key"] for r in half_year_ranges(date(2025, 3, 5), date(2025, 12, 31))]
['2025-01-01', '2025-07-01']
"""

from __future__ import annotations

from datetime import date
from typing import Any

from dateutil.relativedelta import relativedelta

from bosun.errors import UnsupportedQuery
from bosun.understanding import Meaning

_HALF = relativedelta(months=6)


def half_years(meaning: Meaning, field: str, metrics: dict[str, Any]) -> dict[str, Any]:
    """The `t` aggregation of half-years over the meaning's dates; refused without both ends."""
    time = meaning.time
    if time is None or time.start is None or time.end is None:
        raise UnsupportedQuery("date_range", "half-years need the dates they cover")
    ranges = half_year_ranges(time.start, time.end)
    body = {"field": field, "format": "yyyy-MM-dd", "ranges": ranges}
    return {"date_range": body, **({"aggs": metrics} if metrics else {})}


def half_year_ranges(start: date, end: date) -> list[dict[str, str]]:
    """A range per half-year from the one holding `start` to the one holding `end`."""
    first = date(start.year, 1 if start.month <= 6 else 7, 1)
    ranges = []
    while first <= end:
        following = first + _HALF
        ranges.append(
            {"key": first.isoformat(), "from": first.isoformat(), "to": following.isoformat()}
        )
        first = following
    return ranges


def period_key(bucket: dict[str, Any]) -> str:
    """A period bucket's first day: a histogram's `key_as_string`, a half-year range's key."""
    return str(bucket.get("key_as_string", bucket["key"]))
