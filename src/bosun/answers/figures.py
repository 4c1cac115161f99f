"""Figures as a person reads them: thousands separated, a unit after its number, a measure named.

"67 shipments", "total TEU: 1,234", "average transit days: 23.5", "total declared value (USD): $2.41
B", "MAERSK January 2025". The numbers themselves are `numbers`' to write.
"""

from __future__ import annotations

from typing import Any

from bosun.answers.grammar import writing
from bosun.answers.numbers import currency_symbol, said
from bosun.answers.periods import period_cell
from bosun.query import Table
from bosun.understanding import Meaning, Measure
from bosun.understanding.phrases import measure_words

LISTED = 5  # the rows an answer's text lists; the rest are in its table


def figure(value: Any, unit: str | None = None) -> str:
    """A figure as a person reads it: at its natural precision, money and large figures short, a
    unit that is no currency after it ("1,234 TEU", "$2.41 B", "17 days"); none over no records."""
    if value is None:
        return writing().shared.not_available
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    number = said(value, unit)
    return f"{number} {unit}" if unit and currency_symbol(unit) is None else number


def stated(figures: list[tuple[Measure, Any]]) -> str:
    """Figures with what each is: "67 shipments", "total TEU: 1,234", "average transit days:
    23.5"."""
    return "; ".join(_stated(measure, value) for measure, value in figures)


def _stated(measure: Measure, value: Any) -> str:
    if counts(measure):
        return f"{figure(value)} {measure.label}"
    return f"{measure_words(measure)}: {said_of(value, measure.unit)}"


def counts(measure: Measure) -> bool:
    """A count of records or of values reads as a number of them: "67 shipments", "12 distinct
    carriers"."""
    return measure.agg in ("count", "cardinality")


def key(cells: list[Any], meaning: Meaning) -> str:
    """What a row is, in words: its group and its period ("MAERSK January 2025")."""
    return " ".join(str(period_cell(v, meaning.interval)) for v in cells)


def label(table: Table, row: list[Any]) -> Any:
    """What a row is, in one cell: its first key, else its period (None for the figures of all
    records)."""
    labels = table.labels(row)
    return labels[0] if labels else None


def more_rows(count: int) -> str:
    """ "; and 3 more in the table" when there are more rows than the text lists."""
    if count <= LISTED:
        return ""
    return writing().shared.more_rows.format(more=count - LISTED)


def ended(said: str, listed: str) -> str:
    """A sentence ended with what it lists after a colon, or with a full stop when it lists
    nothing."""
    return f"{said}: {listed}." if listed else f"{said}."


def and_listed(items: list[str]) -> str:
    """ "MAERSK", "MAERSK and MSC", "MAERSK, MSC and ONE"."""
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + writing().shared.and_word + items[-1]


def amount(value: float) -> str:
    """A figure compared in a ranking or a trend: at its natural precision, short from a
    million."""
    return said(value)


def said_of(value: Any, unit: str | None) -> str:
    """A measure's figure after its name ("total declared value (USD): $2.41 B"): money with its
    symbol, any other unit left to the name."""
    if value is None:
        return writing().shared.not_available
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    return said(value, unit)


def percent_of(part: float, whole: float) -> str:
    """`part` as a percentage of `whole`: one decimal under 10 %, none above; n/a of nothing."""
    if not whole:
        return writing().shared.not_available
    share = 100 * part / whole
    return f"{share:.1f} %" if abs(share) < 10 else f"{share:.0f} %"


def no_rows() -> str:
    """What a table of no rows says."""
    return writing().shared.no_rows
