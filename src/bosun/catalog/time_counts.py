"""Counts of time units (draft_words.yaml `time_counts`): a column of whole days, nights or hours a
row's person or thing spent somewhere over the data's period ("hospdays", "sick_days",
"nights_stayed") is an amount, not a level: it adds up ("total hospital days" is a sum) as well
as averaging. Evidence beside the unit word: whole non-negative numbers whose most common value is
0, as a count over a period is (most people spent no day in hospital); the length of an event
(a shipment's transit days, a stay's nights) is seldom 0 and stays an average only.

    >>> counts_time(Column("hospdays", "integer", 9, 3, 0, 80, [(0, 7), (1, 1), (5, 1)]))
    True
    >>> counts_time(Column("transit_days", "integer", 9, 3, 5, 40, [(21, 4), (20, 3), (5, 2)]))
    False
"""

from __future__ import annotations

from bosun.catalog.profile import Column
from bosun.catalog.words import _has


def counts_time(column: Column) -> bool:
    """Whole non-negative numbers of a time unit, 0 the most common of them."""
    whole = column.type in {"integer", "long"} and column.low is not None and column.low >= 0
    mostly_none = bool(column.values) and column.values[0][0] == 0
    return whole and mostly_none and _has(column.name, "time_counts")
