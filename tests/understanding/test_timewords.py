from datetime import date

import pytest

from bosun.understanding.timewords import find_time_range, find_time_ranges

AS_OF = date(2026, 6, 15)  # a Monday


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("shipments that arrived yesterday", "2026-06-14", "2026-06-14"),
        ("arrived in Houston last month", "2026-05-01", "2026-05-31"),
        ("volumes to LA last quarter", "2026-01-01", "2026-03-31"),
        ("by port last year", "2025-01-01", "2025-12-31"),
        ("to LA that arrived last week", "2026-06-08", "2026-06-14"),
        # a question in capitals once raised a KeyError
        ("ARRIVED LAST MONTH", "2026-05-01", "2026-05-31"),
        ("In The Past Two Weeks", "2026-06-02", "2026-06-15"),
        ("into Savannah this year", "2026-01-01", "2026-06-15"),
        ("this month", "2026-06-01", "2026-06-15"),
        ("YTD", "2026-01-01", "2026-06-15"),
        ("in the last 30 days", "2026-05-17", "2026-06-15"),
        ("in the past 90 days", "2026-03-18", "2026-06-15"),
        ("past two weeks", "2026-06-02", "2026-06-15"),
        ("by TEU in 2025", "2025-01-01", "2025-12-31"),
        ("to Baltimore in May 2026?", "2026-05-01", "2026-05-31"),
        ("in March", "2026-03-01", "2026-03-31"),
        ("in September", "2025-09-01", "2025-09-30"),
        ("Norfolk in Q1 2026?", "2026-01-01", "2026-03-31"),
        ("H1 2025", "2025-01-01", "2025-06-30"),
        ("H2 2025", "2025-07-01", "2025-12-31"),
        ("between 2026-01-10 and 2026-02-05", "2026-01-10", "2026-02-05"),
        ("between March and May 2026", "2026-03-01", "2026-05-31"),
        ("each year from 2014 to 2016", "2014-01-01", "2016-12-31"),
        ("from March to May 2026", "2026-03-01", "2026-05-31"),
        # the year said once is both ends'; a start without one never comes after the end
        ("between June and August of 2025", "2025-06-01", "2025-08-31"),
        ("between October and December 2024", "2024-10-01", "2024-12-31"),
        ("between June and August", "2025-06-01", "2025-08-31"),
        ("between November and February", "2025-11-01", "2026-02-28"),
        # a period in another usual order is the same period
        ("TEU in 2026 june", "2026-06-01", "2026-06-30"),
        ("in the last quarter of 2025", "2025-10-01", "2025-12-31"),
        ("2025's second half", "2025-07-01", "2025-12-31"),
        ("for 2024, the 2nd quarter", "2024-04-01", "2024-06-30"),
        ("arrivals in Dec '25", "2025-12-01", "2025-12-31"),
        ("for the month of April, 2025", "2025-04-01", "2025-04-30"),
        ("in the year 2024", "2024-01-01", "2024-12-31"),
        ("2025 sept. departures", "2025-09-01", "2025-09-30"),
        ("since April", "2026-04-01", None),
        ("before 2025", None, "2024-12-31"),
        ("on 2026-06-01", "2026-06-01", "2026-06-01"),
    ],
)
def test_contract_time_words(text: str, start: str | None, end: str | None) -> None:
    found = find_time_range(text, AS_OF)
    assert found is not None, text
    assert (found.start.isoformat() if found.start else None) == start
    assert (found.end.isoformat() if found.end else None) == end


@pytest.mark.parametrize(
    "text", ["Show me Maersk shipments to Los Angeles", "may I see the top carriers?", ""]
)
def test_no_time_words(text: str) -> None:
    assert find_time_range(text, AS_OF) is None


def test_matched_words_are_reported() -> None:
    found = find_time_range("How many TEU did CMA CGM bring to Norfolk in Q1 2026?", AS_OF)
    assert found is not None and found.text == "in Q1 2026"


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("arriving next week", "2026-06-22", "2026-06-28"),
        ("due in the next 7 days", "2026-06-16", "2026-06-22"),
        ("expected next month", "2026-07-01", "2026-07-31"),
        ("tomorrow", "2026-06-16", "2026-06-16"),
        ("in the coming 2 weeks", "2026-06-16", "2026-06-29"),
    ],
)
def test_future_periods(text: str, start: str, end: str) -> None:
    found = find_time_range(text, date(2026, 6, 15))
    assert found is not None and (found.start.isoformat(), found.end.isoformat()) == (start, end)  # type: ignore[union-attr]


def test_every_range_of_a_long_text_is_found_in_order_once() -> None:
    """Each pattern reads on from the last range taken: none is missed or found twice, and a range
    that another pattern's match overlapped is still found after it."""
    part = "Q2 2026 vs Q2 2025, then March 2026 and the last 2 weeks; "
    found = find_time_ranges(part * 200, AS_OF)
    assert [(r.text, str(r.start), str(r.end)) for r in found[:4]] == [
        ("Q2 2026", "2026-04-01", "2026-06-30"),
        ("Q2 2025", "2025-04-01", "2025-06-30"),
        ("March 2026", "2026-03-01", "2026-03-31"),
        ("the last 2 weeks", "2026-06-02", "2026-06-15"),
    ]
    assert len(found) == 800
    assert [r.at for r in found] == sorted({r.at for r in found})
