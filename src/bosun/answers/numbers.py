"""Figures in a sentence: at their natural precision, money and large figures short.

A figure is written with the fewest decimals that show it at two ("17" for a median of whole days,
"16.14" for an average, "-2.3 %" for a change in percent), its thousands separated. Money (a unit
that is a currency code, such as USD) is short with its symbol: "$2.41 B"; any other figure of a
million or more is short too: "29.46 M". Tables keep full figures; only the text is short. The
scale words (K, M, B, T) and currency symbols are CLDR's, through Babel (imported when a figure is
written), never a list of ours.

    said(2_410_725_382.79, "USD")  → "$2.41 B"
    said(17.0, "days")             → "17"
    percent(-2.30)                 → "-2.3 %"
"""

from __future__ import annotations

from functools import cache

LOCALE = "en"
MOST_DECIMALS = 2
SHORT_FROM = 1_000_000  # a figure in a sentence from here on is short: "29.46 B"
SMALL_DIGITS = 4  # the significant digits of a fraction under one: 0.1234
Number = int | float


def said(value: Number, unit: str | None = None) -> str:
    """A figure as a sentence says it: "$2.41 B" (money), "29.46 M", "1,045", "16.14", "0.1234"; a
    unit that is no currency is not written (`figures.figure` writes it after)."""
    currency = currency_symbol(unit)
    if currency is not None or abs(value) >= SHORT_FROM:
        return short(value, currency)
    if isinstance(value, float) and 0 < abs(value) < 1:
        return f"{value:.{SMALL_DIGITS}g}"
    return f"{value:,.{natural_decimals(value)}f}"


def percent(value: Number) -> str:
    """A percentage at its natural precision: "-2.3 %", "12 %", "0.25 %"."""
    return f"{value:.{natural_decimals(value)}f} %"


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
