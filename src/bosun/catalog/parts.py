"""Date parts derived at load: the weekday and month of a date, the hour of a timestamp or of an
HHMM clock.

Bosun runs no scripts, so a part is a field of its own that the loader writes beside its source,
named `<source>_<part>` (`arrival_date_weekday`), and that the catalog declares (`derived: {part,
of}`). Any engine then filters and groups it with plain `terms` and `range` queries, and the same
data answers the same on every engine.
"""

from __future__ import annotations

from bosun.catalog.schema import DatePartName

#: parts of every date; the hour only where the dates have times of day
DATE_PARTS: tuple[DatePartName, ...] = ("weekday", "month")
#: the values each part takes
PART_RANGE: dict[DatePartName, tuple[int, int]] = {
    "weekday": (1, 7),
    "month": (1, 12),
    "hour": (0, 23),
}
# an HHMM column takes many values: minutes of the day, not a small count of codes
CLOCK_MIN_VALUES = 60


def part_name(source: str, part: DatePartName) -> str:
    return f"{source}_{part}"


def part_sql(source_sql: str, part: DatePartName, clock: bool = False) -> str:
    """The DuckDB expression of a part: ISO weekday (Monday 1), month 1–12, hour 0–23 (2400 on a
    clock is 0)."""
    if part == "hour" and clock:
        return f"CAST(({source_sql} // 100) % 24 AS INTEGER)"
    functions = {"weekday": "isodow", "month": "month", "hour": "hour"}
    return f"CAST({functions[part]}({source_sql}) AS INTEGER)"


def is_clock_values(values: list[int], distinct: int) -> bool:
    """HHMM clock times (1425 = 14:25): whole numbers 0–2400 with minutes under 60, many of them."""
    if distinct < CLOCK_MIN_VALUES or not values:
        return False
    return min(values) >= 0 and 100 <= max(values) <= 2400 and all(v % 100 < 60 for v in values)
