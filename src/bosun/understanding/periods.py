"""Rules for periods compared side by side: "Q2 this year vs Q2 last year", "which carrier grew most
from 2024 to 2025", "June against June a year earlier" (issue 23).

They run after `compose.time_filter` has read the first period and its date field, and turn it into
`Meaning.periods` when the question names a second one, or says one relative to it.
"""

from __future__ import annotations

import re
from datetime import date

from dateutil.relativedelta import relativedelta

from bosun.understanding.grammar import Tag
from bosun.understanding.meaning import Change, Meaning, TimeFilter
from bosun.understanding.phrases import date_span
from bosun.understanding.rulekit import ComposerView
from bosun.understanding.tagger import Span, read, time_of
from bosun.understanding.timewords import TimeRange, find_time_ranges

_UNITS = {
    "day": relativedelta(days=1),
    "week": relativedelta(weeks=1),
    "month": relativedelta(months=1),
    "quarter": relativedelta(months=3),
    "half-year": relativedelta(months=6),
    "year": relativedelta(years=1),
}
_JOINS = frozenset({"compare", "conj", "structure", "function", "filler", "neutral"})


_YEAR = re.compile(r"\b\d{4}\b")


def periods(spans: list[Span], c: ComposerView, meaning: Meaning) -> None:
    """ "2024 vs 2025", "May against May a year earlier": two periods, earliest first, instead of
    one time filter."""
    if meaning.time is None:
        return
    both = _range_split(spans, c, meaning.time)
    found = _second_period(spans, c, meaning.time) or _shifted_period(spans, meaning.time)
    if both is None and found is None:
        return
    meaning.periods = both or sorted(
        _year_shared([meaning.time, *([found] if found else [])]), key=_start
    )
    meaning.time = None
    _to_date(meaning, c.today)
    _change(spans, meaning)


def _to_date(meaning: Meaning, today: date | None) -> None:
    """ "this year vs last year" on 2026-06-15: this year so far is set beside the same part of last
    year (2025-01-01 to 2025-06-15), not the whole of it, and that is said; half a year against a
    whole one would show a fall that is only the calendar's."""
    if today is None or len(meaning.periods) != 2:
        return
    earlier, later = meaning.periods
    if not (earlier.start and earlier.end and later.start and later.end) or later.end != today:
        return
    so_far = relativedelta(later.end, later.start)
    cut = earlier.start + so_far
    if cut >= earlier.end:
        return
    meaning.periods = [earlier.model_copy(update={"end": cut}), later]
    meaning.assumptions.append(
        f"“{earlier.text}” cut to {date_span(earlier.start, cut)}: as far "
        f"into it as “{later.text}” has gone by today"
    )


def _year_shared(said: list[TimeFilter]) -> list[TimeFilter]:
    """ "between Q1 and Q2 2025": a year written once, after the last period, is the first's too,
    when the first read without it would come after the last (Q1 2026 after Q2 2025) and with it
    comes before."""
    if len(said) != 2 or not _year_only_last(said[0], said[1]):
        return said
    first, last = _days(said[0]), _days(said[1])
    if first is None or last is None or first[0].year != first[1].year:
        return said
    shift = relativedelta(years=last[0].year - first[0].year)
    start, end = first[0] + shift, first[1] + shift
    if first[0] > last[1] and end < last[0]:
        return [said[0].model_copy(update={"start": start, "end": end}), said[1]]
    return said


def _year_only_last(first: TimeFilter, last: TimeFilter) -> bool:
    """The last of two periods is written with a year ("Q2 2025"), the first without ("Q1")."""
    return bool(_YEAR.search(last.text)) and not _YEAR.search(first.text)


def _days(period: TimeFilter) -> tuple[date, date] | None:
    """A period's first and last day, when it has both."""
    if period.start is None or period.end is None:
        return None
    return period.start, period.end


def periods_measured(spans: list[Span], c: ComposerView, meaning: Meaning) -> None:
    """Periods compare a figure (the count when none is named: "Savannah in 2025 vs 2024"); "which
    port dropped the most" ranks by a fall, so the largest fall comes first (the lowest change)."""
    if not meaning.periods:
        return
    if not meaning.measures:
        meaning.measures = [c.default_measure()]
        meaning.sort = []
    if not any(s.kind == "change" for s in meaning.steps) or meaning.top_n is None:
        return
    falls = [s for s in spans if s.used and _direction(s) < 0]
    if falls:
        meaning.order = "asc" if meaning.order == "desc" else "desc"


def _second_period(spans: list[Span], c: ComposerView, first: TimeFilter) -> TimeFilter | None:
    """The next period after the first, joined to it by a comparison word, "and", or "from … to"
    with a change."""
    dated = [i for i, s in enumerate(spans) if s.has("time")]
    if len(dated) < 2:
        return None
    a, b = dated[0], dated[1]
    between = spans[a + 1 : b]
    if not all(s.quiet or s.has(*_JOINS) for s in between):
        return None
    if not _compared(spans, between, c):
        return None
    found = time_of(spans[b])
    if found is None:
        return None
    spans[b].used = True
    for span in between:
        span.used = True
    second = TimeFilter(field=first.field, start=found.start, end=found.end, text=found.text)
    after = c.after(spans, b)
    if after is not None and spans[after].has("period_shift"):  # "June against June a year earlier"
        return _shifted(second, spans[after])
    if (second.start, second.end) == (first.start, first.end):
        return _preceding(second)
    return second


def _preceding(period: TimeFilter) -> TimeFilter:
    """ "last month compared with the previous month": a period compared with one the date grammar
    reads as the very same ("the previous month" is last month, said of today) is the period just
    before it, of its length: a calendar month, quarter or year before one, else as many days.

    >>> may = TimeFilter(field="d", start=date(2026, 5, 1), end=date(2026, 5, 31), text="may")
    >>> str(_preceding(may).start), str(_preceding(may).end)
    ('2026-04-01', '2026-04-30')
    """
    if period.start is None or period.end is None:
        return period
    after = period.end + relativedelta(days=1)
    span = relativedelta(after, period.start)
    start = period.start - span
    end = start + span - relativedelta(days=1)
    return period.model_copy(update={"start": start, "end": end})


def period_before(
    previous: TimeFilter, named: TimeFilter | None, shift: Span | None
) -> TimeFilter | None:
    """The period a follow-up sets beside the last one: "how does that compare to last year?" after
    Q1 2026 is Q1 2025 (a period inside one year, against the whole year before: the same part of
    it); "versus the same month a year earlier" shifts it back; "compared with 2024" after 2025 is
    2024."""
    if shift is not None:
        return _shifted(previous, shift)
    if named is None or previous.start is None or previous.end is None or named.start is None:
        return named
    year_before = named.start == date(previous.start.year - 1, 1, 1) and named.end == date(
        named.start.year, 12, 31
    )
    if (
        year_before
        and previous.start.year == previous.end.year
        and (previous.start, previous.end)
        != (date(previous.start.year, 1, 1), date(previous.start.year, 12, 31))
    ):
        return _shifted(previous, Span(0, 0, named.text, "", tags=[Tag("period_shift", "year")]))
    return named.model_copy(update={"field": previous.field})


def _range_split(spans: list[Span], c: ComposerView, whole: TimeFilter) -> list[TimeFilter] | None:
    """ "how did TEU change between 2024 and 2025": with a change asked, the two ends of a range are
    the periods."""
    at = next((s for s in spans if s.has("time")), None)
    words = at.key.split() if at is not None else []
    if at is None or c.today is None or not words or words[0] not in c.grammar.range_words:
        return None
    if not any(s.has("change") for s in spans):
        return None
    ends = find_time_ranges(" ".join(words[1:]), c.today)
    if len(ends) != 2:
        return None
    return [
        TimeFilter(field=whole.field, start=e.start, end=e.end, text=e.text)
        for e in sorted(ends, key=_day)
    ]


def _compared(spans: list[Span], between: list[Span], c: ComposerView) -> bool:
    """Two periods are compared when a comparison or change word says so, or "and" lists them ("2024
    and 2025 volumes"); "from March to May" alone is one range."""
    if any(s.has("compare", "change") for s in spans):
        return True
    keys = {s.key for s in between}
    return bool(keys) and keys <= set(c.grammar.conjunctions) - set(c.grammar.range_joins)


def _shifted_period(spans: list[Span], first: TimeFilter) -> TimeFilter | None:
    """ "this month vs the same period last year": the period shifted back by the unit the words
    say."""
    shift = next((s for s in spans if s.unread("period_shift")), None)
    if shift is None:
        return None
    for span in spans:
        span.read_if("compare")
    return _shifted(first, shift)


def _shifted(period: TimeFilter, shift: Span) -> TimeFilter | None:
    """The period moved back by the unit a shift phrase names ("a year earlier": one year, day for
    day)."""
    if period.start is None or period.end is None:
        return None
    shift.used = True
    back = _UNITS[str(shift.value("period_shift"))]
    return TimeFilter(
        field=period.field, start=period.start - back, end=period.end - back, text=shift.text
    )


def _change(spans: list[Span], meaning: Meaning) -> None:
    """ "grew", "change in percent": the change from the earlier period to the later one is
    asked."""
    asked = [s for s in spans if s.has("change")]
    if not asked:
        return
    percent = [s for s in spans if s.has("change_percent")]
    read([*asked, *percent])
    meaning.steps.append(Change(percent=bool(percent)))


def _direction(span: Span) -> int:
    found = span.value("change")
    return int(found) if found is not None else 0


def _day(found: TimeRange) -> date:
    return found.start or date.min


def _start(period: TimeFilter) -> date:
    return period.start or date.min
