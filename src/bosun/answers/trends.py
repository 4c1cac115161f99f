"""A trend in words: from the first whole period to the last, the change and the peak; periods the
dates cut short are named, not compared.

"total TEU went up from 1,234 (January 2025) to 1,500 (May 2025), 22 % change; the peak was 1,600 in
March 2025 (June 2025 is cut short by the dates, so not compared)."
"""

from __future__ import annotations

from typing import Any

from bosun.answers.figures import amount, percent_of


def trend(rows: list[list[Any]], label: str, shown: list[list[Any]], interval: str) -> str:
    """From the first whole period to the last (`rows`), of the periods `shown`; cut ones are named,
    not compared."""
    cut = [str(r[0]) for r in shown if r not in rows]
    if len(rows) < 2:
        return (
            f"Too few whole {interval}s to follow a trend: {', '.join(cut)} are cut short by the "
            "dates."
            if cut
            else ""
        )
    aside = (
        f" ({', '.join(cut)} {'is' if len(cut) == 1 else 'are'} cut short by the dates, so not "
        "compared)"
        if cut
        else ""
    )
    return f"{_trend_of(rows, label).removesuffix('.')}{aside}."


def _trend_of(rows: list[list[Any]], label: str) -> str:
    start, end = rows[0], rows[-1]
    peak = max(rows, key=lambda r: r[-1])
    change = end[-1] - start[-1]
    direction = "up" if change > 0 else "down" if change < 0 else "flat"
    return (
        f"{label} went {direction} from {amount(start[-1])} ({start[0]}) to {amount(end[-1])} "
        f"({end[0]}), "
        f"{percent_of(change, start[-1])} change; the peak was {amount(peak[-1])} in {peak[0]}."
    )
