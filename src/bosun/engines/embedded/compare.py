"""A field compared with a value, written in the column's own DuckDB type.

`CAST(date_column AS TIMESTAMP) >= ?` or a BIGINT column against a DOUBLE parameter makes DuckDB
cast every row, and a cast column cannot be pushed into the scan as a filter: such a comparison
costs several times one in the column's type. The value is moved instead, exactly: a DATE column
against a moment, or an integer column against a fraction, is rounded to the nearest value of the
column's type on the side that keeps the same rows.
"""

from __future__ import annotations

import math
from datetime import date, datetime, time, timedelta
from typing import Any

from bosun.engines.embedded.fields import INTEGER_COLUMNS, Field, quote

#: for `column op value`: (the column type's value that keeps the same rows, given (floor, ceiling))
_ROUNDED = {">=": 1, "<": 1, ">": 0, "<=": 0}


def native(f: Field, op: str, value: Any) -> tuple[str, Any] | None:
    """(op, value in the column's type) keeping the rows `column op value` keeps, or None (no exact
    form).

    `=` against a value the column's type cannot hold keeps no row: returned as ("FALSE", None).
    """
    if f.sql != quote(f.column):  # a single-precision field is compared as ES rounds it
        return None
    rounded = _rounded_bounds(f.column_type, value)
    if rounded is None:
        return None
    low, high = rounded
    if op == "=":
        return (op, low) if low == high else ("FALSE", None)
    return op, rounded[_ROUNDED[op]]


def _rounded_bounds(column_type: str, value: Any) -> tuple[Any, Any] | None:
    """The values either side of `value` that a DATE or integer column can hold, where it holds
    only rounded ones; None when the column holds `value` as it is."""
    if column_type == "DATE" and isinstance(value, datetime):
        return _date_bounds(value)
    if column_type in INTEGER_COLUMNS and isinstance(value, float):
        return _integer_bounds(value)
    return None


def _date_bounds(moment: datetime) -> tuple[date, date] | None:
    """The day of `moment` and the first day at or after it."""
    day = moment.date()
    if moment.time() == time(0) and moment.tzinfo is None:
        return day, day
    if moment.tzinfo is not None or day == date.max:
        return None
    return day, day + timedelta(days=1)


def _integer_bounds(value: float) -> tuple[int, int] | None:
    if not math.isfinite(value) or abs(value) >= 2.0**63:
        return None
    return math.floor(value), math.ceil(value)
