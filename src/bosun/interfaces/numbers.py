"""Numbers in a table as people read them: one format per column, full figures.

A column's figures share one format: its decimals are the fewest that show every figure of the
column at two decimals ("17" for a median of whole days, "16.14" for an average, "-4.3 %" for a
change in percent), and its thousands are separated in every row or in none. Money (a unit that is
a currency code, such as USD) is written in full with its symbol: "$5,197,384,210.55". The answer's
text says figures short (`bosun.answers.numbers`); a table keeps them whole.
"""

from __future__ import annotations

from dataclasses import dataclass

from bosun.answers.numbers import currency_symbol, natural_decimals

GROUPED_FROM = 1_000  # a column's thousands are separated when one of its figures has some
Number = int | float

__all__ = ["NumberFormat", "column_format", "currency_symbol"]


@dataclass(frozen=True)
class NumberFormat:
    """How every figure of one column is written."""

    decimals: int = 0
    grouped: bool = False
    percent: bool = False
    currency: str | None = None  # the currency's symbol: the figures are money

    def __call__(self, value: Number) -> str:
        separator = "," if self.grouped else ""
        written = f"{abs(value):{separator}.{self.decimals}f}"
        negative = value < 0 and any(digit not in "0.," for digit in written)
        sign = "-" if negative else ""
        if self.currency is not None:  # "$5,197,384,210.55", "-$12.50"
            return f"{sign}{self.currency}{written}"
        return f"{sign}{written} %" if self.percent else f"{sign}{written}"


def column_format(
    values: list[Number],
    *,
    percent: bool = False,
    currency: str | None = None,
    as_written: bool = False,
) -> NumberFormat:
    """The one format of a column holding `values`; `as_written`: numbers that name things (a year,
    a code) keep their digits together."""
    decimals = max((natural_decimals(v) for v in values), default=0)
    largest = max((abs(v) for v in values), default=0)
    grouped = not as_written and largest >= GROUPED_FROM
    return NumberFormat(decimals, grouped, percent, currency)
