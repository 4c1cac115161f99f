"""The drafter's role evidence on single columns: a date-part name decides only with values a date
part takes."""

from __future__ import annotations

import pytest

from bosun.catalog.draft import _short_names, decide
from bosun.catalog.profile import Column


@pytest.mark.parametrize(
    ("name", "high", "role"),
    [
        ("month", 12, "dimension"),  # a month of the year
        ("dep_hour", 23, "dimension"),
        ("minute", 59, "dimension"),
        ("delay_min", 90, "measure"),  # minutes of delay: larger than any minute of an hour
        ("trip_hours", 340, "measure"),
        ("day", 31, "dimension"),
    ],
)
def test_a_date_part_name_with_larger_values_is_no_date_part(
    name: str, high: int, role: str
) -> None:
    column = Column(name=name, type="integer", present=500, distinct=60, low=0, high=high)
    assert decide(column, rows=500, record="trips").role == role


def test_a_name_ending_in_a_unit_is_also_called_without_it() -> None:
    """ "average delay" reads delay_min: the unit is the field's, its name need not say it."""
    assert "delay" in _short_names("delay_min")
    assert "gross weight" in _short_names("gross_weight_kg")
