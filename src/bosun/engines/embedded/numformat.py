"""A number written with a Java DecimalFormat pattern, as Elasticsearch writes a pipeline's
`value_as_string`.

Only the plain patterns: grouping (`#,##0`), least integer digits (`0`), least and most fraction
digits (`.00##`); rounding half to even on the double's exact value, as the JDK does. Anything else
is refused.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_EVEN, Decimal

from bosun.errors import UnsupportedQuery

_PATTERN = re.compile(r"([#,0]*)(?:\.(0*)(#*))?")


def decimal_format(value: float, pattern: str) -> str:
    found = _PATTERN.fullmatch(str(pattern))
    if not pattern or not found or found[1].endswith(","):
        raise UnsupportedQuery(
            "format", f"only plain DecimalFormat patterns such as '#,##0.00', got {pattern!r:.40}"
        )
    whole_pattern, least_fraction, more_fraction = (
        found[1],
        len(found[2] or ""),
        len(found[3] or ""),
    )
    most_fraction = least_fraction + more_fraction
    exact = Decimal(value).quantize(Decimal(1).scaleb(-most_fraction), rounding=ROUND_HALF_EVEN)
    whole, _, fraction = format(abs(exact), "f").partition(".")
    fraction = fraction[:most_fraction]
    while len(fraction) > least_fraction and fraction.endswith("0"):
        fraction = fraction[:-1]
    whole = whole.lstrip("0").rjust(whole_pattern.count("0"), "0")
    if not whole and not fraction:
        whole = "0"
    if "," in whole_pattern:
        whole = _grouped(whole, len(whole_pattern) - whole_pattern.rfind(",") - 1)
    sign = "-" if exact < 0 else ""
    return f"{sign}{whole}.{fraction}" if fraction else f"{sign}{whole}"


def _grouped(digits: str, size: int) -> str:
    groups: list[str] = []
    while len(digits) > size:
        groups.insert(0, digits[-size:])
        digits = digits[:-size]
    return ",".join([digits, *groups]) if digits else ",".join(groups)
