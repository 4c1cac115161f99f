"""Time expressions in English → inclusive date ranges, relative to an as-of date (DATA_CONTRACT
§2).

Generic calendar language only; which date field a range applies to is the catalog's business.
Written by hand because the libraries that parse dates (dateparser, parsedatetime) return instants,
not the calendar periods ("last quarter", "H1 2025", a month named without a year) the contract
fixes.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta

from dateutil.relativedelta import relativedelta

from bosun.errors import UserError

MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
MONTHS["sept"] = 9
_MONTH_NAMES = "|".join(sorted(MONTHS, key=len, reverse=True))
_MONTH = rf"(?P<month>{_MONTH_NAMES})\.?"
# the shape of a year as the date grammar reads it (amounts.py reads a number before a period by it)
YEAR = r"(?:19|20)\d\d"
_YEAR = rf"(?P<year>{YEAR})"
# a month's year, however it is joined: "June 2025", "June, 2025", "june of 2025", "Dec '25"
_MONTH_YEAR = rf"(?:\s*,?\s*(?:of\s+)?(?:{_YEAR}|['’](?P<yy>\d\d)))"
_ISO = r"\d{4}-\d{2}-\d{2}"
_UNIT = r"(?P<unit>day|week|month|quarter|year)s?"
_NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}


@dataclass(frozen=True)
class TimeRange:
    """An inclusive range of days, with the words it came from."""

    start: date | None
    end: date | None
    text: str
    at: int = -1  # where the words start in the question

    def describe(self) -> str:
        if self.start and self.end:
            return f"{self.start.isoformat()} to {self.end.isoformat()}"
        if self.start:
            return f"since {self.start.isoformat()}"
        return f"before {self.end.isoformat()}" if self.end else "all time"


def period_bounds(day: date, unit: str) -> tuple[date, date]:
    """The calendar week (Monday–Sunday), month, quarter or year that contains `day`."""
    if unit == "day":
        return day, day
    if unit == "week":
        start = day - timedelta(days=day.weekday())
        return start, start + timedelta(days=6)
    if unit == "month":
        start = day.replace(day=1)
    elif unit == "quarter":
        start = date(day.year, 3 * ((day.month - 1) // 3) + 1, 1)
    elif unit == "half-year":
        start = date(day.year, 6 * ((day.month - 1) // 6) + 1, 1)
    else:
        start = date(day.year, 1, 1)
    step = {
        "month": relativedelta(months=1),
        "quarter": relativedelta(months=3),
        "half-year": relativedelta(months=6),
        "year": relativedelta(years=1),
    }
    return start, start + step[unit] - timedelta(days=1)


def shift_period(start: date, unit: str, count: int) -> tuple[date, date]:
    """The calendar period `count` periods away from the one starting at `start`."""
    delta = {
        "day": relativedelta(days=count),
        "week": relativedelta(weeks=count),
        "month": relativedelta(months=count),
        "quarter": relativedelta(months=3 * count),
        "half-year": relativedelta(months=6 * count),
        "year": relativedelta(years=count),
    }[unit]
    return period_bounds(start + delta, unit)


def _month_of(name: str, year: str | None, today: date) -> tuple[date, date]:
    month = MONTHS[name.lower().rstrip(".")]
    if year:
        return period_bounds(date(int(year), month, 1), "month")
    guess = date(today.year, month, 1)
    return period_bounds(guess if guess <= today else guess.replace(year=today.year - 1), "month")


_ORDINAL_WORDS = {
    "last": 4,  # of a year's quarters; of its halves, the second
    "final": 4,
    "first": 1,
    "1st": 1,
    "second": 2,
    "2nd": 2,
    "third": 3,
    "3rd": 3,
    "fourth": 4,
    "4th": 4,
}


def _latest(period: Callable[[int], tuple[date, date]], today: date) -> tuple[date, date]:
    """The latest such period that has begun by today ("Q3" on 2026-06-15 is Q3 2025)."""
    this_year = period(today.year)
    return this_year if this_year[0] <= today else period(today.year - 1)


def _day(month: str, day: str, year: str | None, today: date) -> date:
    """A day of a month; without a year, the latest such day not after today."""
    number = MONTHS[month.lower().rstrip(".")]
    if year:
        return date(int(year), number, int(day))
    guess = date(today.year, number, int(day))
    return guess if guess <= today else guess.replace(year=today.year - 1)


def _unit(match: re.Match[str]) -> str:
    """The period's unit as the tables name it, however the question was cased ("LAST MONTH")."""
    return match["unit"].lower()


def _number(text: str) -> int:
    return int(text) if text.isdigit() else _NUMBER_WORDS[text.lower()]


def _point(text: str, today: date, *, end: bool) -> date:
    """A single date-ish phrase (ISO date, a day, month [year], year) as its first or last day."""
    text = text.strip()
    if re.fullmatch(_ISO, text):
        return date.fromisoformat(text)
    day = re.fullmatch(_DAY_OF_MONTH, text, re.I) or re.fullmatch(_DAY_MONTH, text, re.I)
    if day:
        return _day(day["dmonth"], day["d"], day["dyear"], today)
    found = re.fullmatch(_MONTH + _MONTH_YEAR + "?", text, re.I)
    if found:
        bounds = _month_of(found["month"], _year_of(found), today)
    elif re.fullmatch(_YEAR, text):
        bounds = period_bounds(date(int(text), 1, 1), "year")
    else:
        raise ValueError(text)
    return bounds[1] if end else bounds[0]


Build = Callable[[re.Match[str], date], tuple[date | None, date | None]]
Rule = tuple[str, Build]
Ahead = tuple[int, TimeRange] | None  # a pattern's next range, after where its match starts
_NUM = r"(?P<n>\d+|" + "|".join(_NUMBER_WORDS) + r")"
_DAY_OF_MONTH = (
    rf"(?P<dmonth>{_MONTH_NAMES})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?![\d:])"
    rf"(?:\s*,?\s*(?P<dyear>{YEAR}))?"
)  # "July 4, 2025", "March 3"
_DAY_MONTH = (
    rf"(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<dmonth>{_MONTH_NAMES})\.?"
    rf"(?:\s*,?\s*(?P<dyear>{YEAR}))?"
)  # "12 March 2026", "4th of July"
_ANY_DAY = (
    rf"(?:(?:{_MONTH_NAMES})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?![\d:])(?:\s*,?\s*{YEAR})?|"
    rf"\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTH_NAMES})\.?(?:\s*,?\s*{YEAR})?)"
)
_MONTH_POINT = rf"(?:{_MONTH_NAMES})\.?(?:\s*,?\s*(?:of\s+)?{YEAR})?"
_POINT = rf"(?:{_ISO}|{_ANY_DAY}|{_MONTH_POINT}|{YEAR})"
_ORDINAL = r"(?P<o>first|1st|second|2nd|third|3rd|fourth|4th)"
# of a year's quarters or halves, the last one too ("the last quarter of 2025" is Q4 2025)
# a year's parts by their place, "the last quarter of 2025" too (the relative "last" is a shift)
_ORDINAL_OF_YEAR = rf"(?P<o>{'|'.join(_ORDINAL_WORDS)})"
_PART = r"(?P<part>quarter|half)"

RULES: list[Rule] = [
    (
        rf"\bbetween\s+(?P<a>{_POINT})\s+(?:and|to)\s+(?P<b>{_POINT})\b",
        lambda m, t: _span(m["a"], m["b"], t),
    ),
    (
        rf"\bfrom\s+(?P<a>{_POINT})\s+(?:to|until|through|thru)\s+(?P<b>{_POINT})\b",
        lambda m, t: _span(m["a"], m["b"], t),
    ),
    (
        rf"\b(?:in\s+|during\s+|for\s+)?(?:the\s+)?{_ORDINAL_OF_YEAR}\s+{_PART}"
        rf"\s*,?\s*(?:of\s+)?{_YEAR}\b",
        lambda m, t: _part_of_year(m["part"], m["o"], int(m["year"])),
    ),
    (
        rf"\b(?:in\s+|during\s+|for\s+)?{_YEAR}(?:['’]s)?\s*,?\s+(?:the\s+)?{_ORDINAL_OF_YEAR}"
        rf"\s+{_PART}\b",
        lambda m, t: _part_of_year(m["part"], m["o"], int(m["year"])),
    ),
    (r"\byesterday\b", lambda m, t: (t - timedelta(days=1), t - timedelta(days=1))),
    (r"\btoday\b", lambda m, t: (t, t)),
    (r"\btomorrow\b", lambda m, t: (t + timedelta(days=1), t + timedelta(days=1))),
    (
        rf"\b(?:in\s+|over\s+|during\s+|within\s+)?(?:the\s+)?(?:next|coming|upcoming)"
        rf"\s+{_NUM}\s+{_UNIT}\b",
        lambda m, t: (t + timedelta(days=1), _ahead(t, _unit(m), _number(m["n"]))),
    ),
    (
        rf"\b(?:in\s+|during\s+)?(?:the\s+)?(?:next|coming|upcoming)\s+{_UNIT}\b",
        lambda m, t: shift_period(period_bounds(t, _unit(m))[0], _unit(m), 1),
    ),
    (r"\b(?:ytd|year[- ]to[- ]date)\b", lambda m, t: (period_bounds(t, "year")[0], t)),
    (r"\b(?:mtd|month[- ]to[- ]date)\b", lambda m, t: (period_bounds(t, "month")[0], t)),
    (r"\b(?:qtd|quarter[- ]to[- ]date)\b", lambda m, t: (period_bounds(t, "quarter")[0], t)),
    (
        rf"\b(?:in\s+|over\s+|during\s+)?(?:the\s+)?(?:last|past|previous|trailing)"
        rf"\s+{_NUM}\s+{_UNIT}\b",
        lambda m, t: (_rolling_start(t, _unit(m), _number(m["n"])), t),
    ),
    (
        rf"\b(?:in\s+|during\s+)?(?:the\s+)?(?:last|previous|past|prior|preceding)\s+{_UNIT}\b",
        lambda m, t: shift_period(period_bounds(t, _unit(m))[0], _unit(m), -1),
    ),
    (rf"\b(?:in\s+|during\s+)?this\s+{_UNIT}\b", lambda m, t: (period_bounds(t, _unit(m))[0], t)),
    (
        rf"\b(?:in\s+|during\s+)?(?:q(?P<q>[1-4])\s*(?:of\s+)?{_YEAR}"
        rf"|{_YEAR.replace('year', 'y2')}\s*q(?P<q2>[1-4]))\b",
        lambda m, t: _quarter(int(m["q"] or m["q2"]), int(m["year"] or m["y2"])),
    ),
    (
        r"\b(?:in\s+|during\s+)?q(?P<q>[1-4])\s+(?:of\s+)?(?P<rel>this|last|previous)\s+year\b",
        lambda m, t: _quarter(int(m["q"]), _relative_year(m["rel"], t)),
    ),
    (
        rf"\b(?:in\s+|during\s+)?{_MONTH}\s+(?:of\s+)?(?P<rel>this|last|previous)\s+year\b",
        lambda m, t: _month_of(m["month"], str(_relative_year(m["rel"], t)), t),
    ),
    (
        rf"\b(?:in\s+|during\s+)?h(?P<h>[12])\s*(?:of\s+)?{_YEAR}\b",
        lambda m, t: _half(int(m["h"]), int(m["year"])),
    ),
    (
        rf"\b(?:in\s+|during\s+)?(?:the\s+)?{_ORDINAL}\s+quarter\b",
        lambda m, t: _latest(lambda y: _quarter(_ORDINAL_WORDS[m["o"].lower()], y), t),
    ),
    (
        rf"\b(?:in\s+|during\s+)?(?:the\s+)?{_ORDINAL}\s+half\b",
        lambda m, t: _latest(lambda y: _half(min(2, _ORDINAL_WORDS[m["o"].lower()]), y), t),
    ),
    (
        rf"\b(?:in\s+|during\s+)?q(?P<q>[1-4])\b(?!\s*(?:of\s+)?{YEAR})",
        lambda m, t: _latest(lambda y: _quarter(int(m["q"]), y), t),
    ),
    (
        rf"\b(?:in\s+|during\s+)?h(?P<h>[12])\b(?!\s*(?:of\s+)?{YEAR})",
        lambda m, t: _latest(lambda y: _half(int(m["h"]), y), t),
    ),
    (
        rf"\b(?:since|from)\s+the\s+(?:start|beginning)\s+of\s+(?:the|this)\s+{_UNIT}\b",
        lambda m, t: (period_bounds(t, _unit(m))[0], None),
    ),
    (rf"\bsince\s+(?P<a>{_POINT})\b", lambda m, t: (_since(m["a"], t), None)),
    (
        rf"\bbefore\s+(?P<a>{_POINT})\b",
        lambda m, t: (None, _point(m["a"], t, end=False) - timedelta(days=1)),
    ),
    (
        rf"\bafter\s+(?P<a>{_POINT})\b",
        lambda m, t: (_point(m["a"], t, end=True) + timedelta(days=1), None),
    ),
    (
        rf"\bon\s+(?P<a>{_ISO})\b",
        lambda m, t: (date.fromisoformat(m["a"]), date.fromisoformat(m["a"])),
    ),
    (rf"\b(?:on\s+)?{_DAY_OF_MONTH}", lambda m, t: (_day(m["dmonth"], m["d"], m["dyear"], t),) * 2),
    (rf"\b(?:on\s+)?{_DAY_MONTH}\b", lambda m, t: (_day(m["dmonth"], m["d"], m["dyear"], t),) * 2),
    (
        rf"\b(?:in\s+|during\s+|for\s+)?{_YEAR}\s*,?\s+{_MONTH}(?=\W|$)",
        lambda m, t: _month_of(m["month"], m["year"], t),
    ),  # "2026 june": a year said before its month
    (
        rf"\b(?:in\s+|during\s+|for\s+)?(?:the\s+month\s+of\s+)?{_MONTH}{_MONTH_YEAR}?(?=\W|$)",
        lambda m, t: _month_of(m["month"], _year_of(m), t),
    ),
    (
        rf"\b(?:in\s+|during\s+|for\s+)?(?:the\s+year\s+)?{_YEAR}\b",
        lambda m, t: period_bounds(date(int(m["year"]), 1, 1), "year"),
    ),
    (rf"\b(?P<a>{_ISO})\b", lambda m, t: (date.fromisoformat(m["a"]), date.fromisoformat(m["a"]))),
]
_COMPILED = [(re.compile(pattern, re.I), build) for pattern, build in RULES]
# Words that look like month abbreviations but are ordinary English in questions.
_FALSE_MONTHS = {
    "may",
    "mar",
    "jun",
    "jan",
    "dec",
    "oct",
    "sept",
    "sep",
    "aug",
    "apr",
    "nov",
    "feb",
    "jul",
}


def _relative_year(word: str, today: date) -> int:
    """ "Q2 this year", "June last year": the year the word names."""
    return today.year if word.lower() == "this" else today.year - 1


def _rolling_start(today: date, unit: str, n: int) -> date:
    delta = {
        "day": relativedelta(days=n),
        "week": relativedelta(weeks=n),
        "month": relativedelta(months=n),
        "quarter": relativedelta(months=3 * n),
        "half-year": relativedelta(months=6 * n),
        "year": relativedelta(years=n),
    }[unit]
    return today - delta + timedelta(days=1)


def _ahead(today: date, unit: str, n: int) -> date:
    """The last day of the `n` units after today ("the next 7 days" ends a week from today)."""
    return today + (today - _rolling_start(today, unit, n)) + timedelta(days=1)


def _part_of_year(part: str, ordinal: str, year: int) -> tuple[date, date]:
    """ "the third quarter of 2025", "2025's first half", "the last quarter of 2025"."""
    number = _ORDINAL_WORDS[ordinal.lower()]
    return _quarter(number, year) if part.lower() == "quarter" else _half(min(2, number), year)


def _year_of(match: re.Match[str]) -> str | None:
    """The year a month is said with, four digits or two ("Dec '25" is December 2025)."""
    short = match.groupdict().get("yy")
    return f"20{short}" if short else match.groupdict().get("year")


def _span(first: str, last: str, today: date) -> tuple[date, date]:
    """ "between june and august of 2025": the year said once is both ends'; a start said without
    a year never comes after the end ("between june and august", said in June 2026, is June to
    August 2025)."""
    year = re.search(rf"{YEAR}$", last.strip())
    bare = re.search(r"\d\d\d\d", first) is None
    if year and bare:
        first = f"{first} {year.group(0)}"
    start, end = _point(first, today, end=False), _point(last, today, end=True)
    if bare and start > end:
        start -= relativedelta(years=1)
    if start > end:  # "between 2025 and 2024": the same span, said from its end
        start, end = _point(last, today, end=False), _point(first, today, end=True)
    return start, end


def _quarter(q: int, year: int) -> tuple[date, date]:
    return period_bounds(date(year, 3 * q - 2, 1), "quarter")


def _half(h: int, year: int) -> tuple[date, date]:
    start = date(year, 1 if h == 1 else 7, 1)
    return start, start + relativedelta(months=6) - timedelta(days=1)


def _since(text: str, today: date) -> date:
    found = re.fullmatch(_MONTH, text.strip(), re.I)
    if found:  # "since April" = from April 1st of the as-of year
        return date(today.year, MONTHS[found["month"].lower()], 1)
    return _point(text, today, end=False)


def _plausible(match: re.Match[str]) -> bool:
    """Reject a bare month abbreviation that is an ordinary word ("may", "mar") without a year."""
    month = match.groupdict().get("month")
    if not month or match.groupdict().get("year") or match.groupdict().get("rel"):
        return True
    word = month.lower()
    return word not in _FALSE_MONTHS or match.group(0).lower().startswith(
        ("in ", "during ", "for ")
    )


def _built(
    build: Build,
    match: re.Match[str],
    today: date,
) -> tuple[date | None, date | None]:
    """The range the words give; words that name no day of the calendar ("2025-02-30", "the last
    10**12 days") are the question's fault, said as such."""
    written = match.group(0).strip()
    try:
        return build(match, today)
    except OverflowError:
        raise UserError(f"“{written}” reaches past the calendar (years 1 to 9999)") from None
    except ValueError as exc:
        raise UserError(f"“{written}” is not a date ({exc})") from None


def find_time_ranges(text: str, today: date) -> list[TimeRange]:
    """Every time expression in `text`, left to right, none overlapping: "Q2 2026 vs Q2 2025" has
    two. Each pattern's next match is kept until a range before it is taken, so the text is read
    about once a pattern however many ranges it holds."""
    found: list[TimeRange] = []
    ahead = [_first(pattern, build, text, today) for pattern, build in _COMPILED]
    while (first := _earliest(ahead)) is not None:
        found.append(first)
        end = first.at + len(first.text)
        text = " " * end + text[end:]  # blanked, so the positions stay the question's
        for i, (pattern, build) in enumerate(_COMPILED):
            kept = ahead[i]
            if kept is not None and kept[0] < end:
                ahead[i] = _first(pattern, build, text, today, end)
    return found


def find_time_range(text: str, today: date) -> TimeRange | None:
    """The first time expression in `text`, as an inclusive range; None when there is none."""
    return _earliest([_first(pattern, build, text, today) for pattern, build in _COMPILED])


def _earliest(ahead: list[Ahead]) -> TimeRange | None:
    """The range whose match starts first; of two at one place, the earlier pattern's."""
    best: Ahead = None
    for found in ahead:
        if found is not None and (best is None or found[0] < best[0]):
            best = found
    return best[1] if best else None


def _first(pattern: re.Pattern[str], build: Build, text: str, today: date, pos: int = 0) -> Ahead:
    """The pattern's first plausible match from `pos` on: where it starts, and its range."""
    for match in pattern.finditer(text, pos):
        if not _plausible(match):
            continue
        start, end = _built(build, match, today)
        written = match.group(0)
        at = match.start() + len(written) - len(written.lstrip())
        return match.start(), TimeRange(start, end, written.strip(), at)
    return None
