"""Periods as people write them, one formatter for answers, readings, tables and charts (issue
#26)."""

from __future__ import annotations

from datetime import date

from bosun.answers.periods import period_cell, period_names
from bosun.understanding.periodnames import period_name
from bosun.understanding.phrases import date_span


def test_each_interval_names_its_period() -> None:
    day = date(2025, 1, 6)
    assert [period_name(day, i) for i in ("day", "week", "month", "quarter", "year")] == [
        "6 Jan 2025",
        "week of 6 Jan 2025",
        "January 2025",
        "Q1 2025",
        "2025",
    ]
    assert period_name(date(2025, 9, 1), "month", dense=True) == "Sep 2025"  # a crowded axis


def test_a_span_that_is_one_whole_period_is_said_as_it() -> None:
    assert date_span(date(2025, 1, 1), date(2025, 12, 31)) == "2025"
    assert date_span(date(2026, 4, 1), date(2026, 6, 30)) == "Q2 2026"
    assert date_span(date(2024, 2, 1), date(2024, 2, 29)) == "February 2024"
    assert date_span(date(2026, 1, 1), date(2026, 6, 15)) == "1 Jan 2026 to 15 Jun 2026"
    # no quarter starts in Feb
    assert date_span(date(2026, 2, 1), date(2026, 4, 30)) == "1 Feb 2026 to 30 Apr 2026"
    assert date_span(date(2026, 6, 14), date(2026, 6, 14)) == "14 Jun 2026"
    assert date_span(date(2026, 6, 14), None) == "from 14 Jun 2026"


def test_only_a_periods_first_day_is_renamed_and_the_rows_keep_it() -> None:
    # as a cluster returns a key
    assert period_cell("2025-04-01T00:00:00.000Z", "quarter") == "Q2 2025"
    assert period_cell("MAERSK", "month") == "MAERSK" and period_cell(12, "month") == 12
    assert period_cell("2025-04-01", None) == "2025-04-01"  # no interval: a date is a date
    rows = [["MSC", "2025-01-01", 3], ["MSC", "2025-02-01", 4]]
    assert period_names(["carrier_name", "period", "TEU"], rows, "month") == {
        "2025-01-01": "January 2025",
        "2025-02-01": "February 2025",
    }
    assert rows[0][1] == "2025-01-01"
