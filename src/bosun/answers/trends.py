"""A trend in words: from the first whole period to the last, the change and the peak; periods the
dates cut short are named, not compared.

"total TEU went up from 1,234 (January 2025) to 1,500 (May 2025), 22 % change; the peak was 1,600 in
March 2025 (June 2025 is cut short by the dates, so not compared)."
"""

from __future__ import annotations

from typing import Any, Literal

from bosun.answers.figures import amount, percent_of
from bosun.answers.grammar import Trends, writing


def trend(rows: list[list[Any]], label: str, shown: list[list[Any]], interval: str) -> str:
    """From the first whole period to the last (`rows`), of the periods `shown`; cut ones are named,
    not compared."""
    cut = [str(r[0]) for r in shown if r not in rows]
    if len(rows) < 2:
        return _words().too_few.format(interval=interval, periods=", ".join(cut)) if cut else ""
    start, end = rows[0], rows[-1]
    peak = max(rows, key=lambda r: r[-1])
    change = end[-1] - start[-1]
    return _words().went.format(
        label=label,
        direction=_words().directions[_direction(change)],
        start=amount(start[-1]),
        started=start[0],
        end=amount(end[-1]),
        ended=end[0],
        percent=percent_of(change, start[-1]),
        peak=amount(peak[-1]),
        peaked=peak[0],
        cut=_cut(cut),
    )


def _direction(change: float) -> Literal["up", "down", "flat"]:
    if change > 0:
        return "up"
    return "down" if change < 0 else "flat"


def _cut(periods: list[str]) -> str:
    """ " (June 2025 is cut short by the dates, so not compared)"; "" when none is cut."""
    if not periods:
        return ""
    template = _words().cut_one if len(periods) == 1 else _words().cut_several
    return template.format(periods=", ".join(periods))


def _words() -> Trends:
    return writing().trends
