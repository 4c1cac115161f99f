"""Periods in a table's cells: a cell that holds a period's first day (an ISO date), in words, for
the answer's text, the page and the charts; the rows themselves keep ISO dates.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from bosun.understanding.periodnames import period_name

_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}")


def period_cell(value: Any, interval: str | None, dense: bool = False) -> Any:
    """A table cell that holds a period's first day (an ISO date), in words; any other cell as it
    is."""
    if interval is None or not isinstance(value, str) or not _ISO_DAY.match(value):
        return value
    return period_name(date.fromisoformat(value[:10]), interval, dense)


def period_names(columns: list[str], rows: list[list[Any]], interval: str | None) -> dict[str, str]:
    """Each period of the rows (ISO first day) with its words, for a page or chart that shows the
    table."""
    if interval is None:
        return {}
    named: dict[str, str] = {}
    for row in rows:
        for value in row[: len(columns)]:
            said = period_cell(value, interval)
            if said is not value:
                named[str(value)] = str(said)
    return named
