"""Numbers as people read them: one format per table column, money and large figures short.

A column's figures share one format: its decimals are the fewest that show every figure of the
column at two decimals ("17" for a median of whole days, "16.14" for an average, "-4.3 %" for a
change in percent), and its thousands are separated in every row or in none. Money (a unit that is
a currency code, such as USD) is short with its symbol: "$2.41 B". The scale words (K, M, B, T) and
currency symbols are CLDR's, through Babel (imported when a figure is written), never a list of
ours.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

LOCALE = "en"
MOST_DECIMALS = 2
GROUPED_FROM = 1_000  # a column's thousands are separated when one of its figures has some
SHORT_IN_TEXT_FROM = 1_000_000  # a figure in a sentence from here on is short: "29.46 B"
Number = int | float

# A figure as the answers write it: thousands separated, optional decimals, not part of a word or
# of a longer number.
_WRITTEN = re.compile(r"(?<![\w.])(?<!\d,)(-?\d{1,3}(?:,\d{3})+(?:\.\d+)?)(?!\w|[.,]\d)")


@dataclass(frozen=True)
class NumberFormat:
    """How every figure of one column is written."""

    decimals: int = 0
    grouped: bool = False
    percent: bool = False
    currency: str | None = None  # the currency's symbol: the figures are money

    def __call__(self, value: Number) -> str:
        if self.currency is not None:
            return short(value, self.currency)
        separator = "," if self.grouped else ""
        written = f"{value:{separator}.{self.decimals}f}"
        return f"{written} %" if self.percent else written


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


def natural_decimals(value: Number) -> int:
    """The fewest decimals that write `value` as it reads at two: 17.0 → 0, -4.3 → 1, 16.14 → 2."""
    if isinstance(value, int):
        return 0
    target = round(value, MOST_DECIMALS)
    return next(d for d in range(MOST_DECIMALS + 1) if round(value, d) == target)


def currency_symbol(unit: str | None) -> str | None:
    """The symbol of a unit that is a currency code as the catalog writes it ("USD" → "$"), else
    None ("TEU", "kg", "days")."""
    from babel.numbers import get_currency_symbol, is_currency

    if unit is None or not unit.isupper() or not is_currency(unit, LOCALE):
        return None
    return str(get_currency_symbol(unit, locale=LOCALE))


def short(value: Number, currency: str | None = None) -> str:
    """A figure short, at two decimals: "$2.41 B", "-$155.09 M", "$512.30"; without a currency,
    "29.46 B"."""
    scale, word = _scale(abs(value))
    sign = "-" if value < 0 else ""
    written = f"{abs(value) / scale:,.{MOST_DECIMALS}f}"
    spaced = f" {word}" if word else ""
    return f"{sign}{currency or ''}{written}{spaced}"


def short_in_text(text: str, currencies: dict[str, str]) -> str:
    """`text` with its money short ("2,455,211,532.41 USD" → "$2.46 B", for each code of
    `currencies` → symbol) and its other figures of a million or more short ("29.46 B")."""
    codes = "|".join(re.escape(code) for code in currencies)
    after = rf"(?:\s+({codes})\b)?" if codes else "()"
    return re.sub(_WRITTEN.pattern + after, lambda m: _shortened(m, currencies), text)


def _shortened(match: re.Match[str], currencies: dict[str, str]) -> str:
    value = float(match.group(1).replace(",", ""))
    code = match.group(2)
    if code:
        return short(value, currencies[code])
    return short(value) if abs(value) >= SHORT_IN_TEXT_FROM else match.group(0)


def _scale(size: float) -> tuple[float, str]:
    """The largest of CLDR's short scales (thousand, million, …) that `size` reaches once rounded
    (999,999.999 is "1.00 M"), and its word."""
    for scale, word in reversed(_scales()):
        if round(size / scale, MOST_DECIMALS) >= 1:
            return scale, word
    return 1, ""


@cache
def _scales() -> list[tuple[float, str]]:
    """CLDR's short scales of the locale: [(1000, "K"), (1e6, "M"), (1e9, "B"), (1e12, "T")]."""
    from babel import Locale

    patterns = Locale.parse(LOCALE).compact_decimal_formats["short"]["other"]
    found: dict[float, str] = {}
    for magnitude, pattern in patterns.items():
        # "1000000": "0M" and "10000000": "00M" are both millions
        scale = 10 ** (len(magnitude) - pattern.pattern.count("0"))
        found.setdefault(float(scale), pattern.suffix[0].strip())
    return sorted(found.items())
