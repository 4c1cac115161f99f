"""Elasticsearch date math and date formats, evaluated against a supplied `now`."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from typing import Any

from dateutil.relativedelta import relativedelta

from bosun.errors import UnsupportedQuery

_UNITS = {
    "y": "years",
    "M": "months",
    "w": "weeks",
    "d": "days",
    "h": "hours",
    "H": "hours",
    "m": "minutes",
    "s": "seconds",
}
_JAVA = [
    ("yyyy", "%Y"),
    ("uuuu", "%Y"),
    ("MM", "%m"),
    ("dd", "%d"),
    ("HH", "%H"),
    ("mm", "%M"),
    ("ss", "%S"),
]


def to_millis(moment: datetime) -> int:
    return int((moment - datetime(1970, 1, 1, tzinfo=UTC)).total_seconds() * 1000)


def from_millis(millis: float) -> datetime:
    """The moment of an epoch-millis value; one outside the years 1 to 9999 (a sum of dates, say) is
    refused."""
    try:
        return datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=millis)
    except (OverflowError, ValueError):
        raise UnsupportedQuery(
            "date", f"{millis:.0f} epoch milliseconds is outside the years 1 to 9999"
        ) from None


def java_to_strftime(pattern: str) -> str:
    """A small subset of Java date patterns (yyyy MM dd HH mm ss SSS, 'literals')."""
    out, i = "", 0
    while i < len(pattern):
        if pattern[i] == "'":
            end = pattern.index("'", i + 1)
            out += pattern[i + 1 : end]
            i = end + 1
            continue
        for java, py in [*_JAVA, ("SSS", "%f")]:
            if pattern.startswith(java, i):
                out += py
                i += len(java)
                break
        else:
            if pattern[i].isalpha():
                raise UnsupportedQuery(
                    "format", f"date pattern letter {pattern[i]!r} in {pattern!r}"
                )
            out += pattern[i]
            i += 1
    return out


def format_millis(millis: float, fmt: str | None) -> str:
    moment = from_millis(millis)
    if fmt in (
        None,
        "strict_date_optional_time",
        "date_optional_time",
        "strict_date_optional_time||epoch_millis",
    ):
        return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
    if fmt in ("date", "strict_date", "yyyy-MM-dd"):
        return moment.strftime("%Y-%m-%d")
    if fmt == "epoch_millis":
        return str(int(millis))
    text = moment.strftime(java_to_strftime(fmt.split("||")[0]))
    return text.replace(f"{moment.microsecond:06d}", f"{moment.microsecond // 1000:03d}")


# : an ISO date or date-time cut short, and the unit of its last part: what ES fills up when it
# rounds up
_ISO_PARTS = re.compile(r"\d{4}(-\d{2}(-\d{2}([T ]\d{2}(:\d{2}(:\d{2}(\.\d+)?)?)?)?)?)?")
_ISO_UNITS = ("y", "M", "d", "h", "m", "s")


def _iso_unit(value: str) -> str | None:
    """The finest unit an ISO value gives ("2017-03-31" → "d"), or None when it is given to the
    millisecond or carries a zone (zoned values are read as written)."""
    match = _ISO_PARTS.fullmatch(value)
    if match is None:
        return None
    given = sum(group is not None for group in match.groups()[:5])
    return _ISO_UNITS[given] if match.group(6) is None else None


def _pattern_unit(pattern: str) -> str | None:
    """The finest unit a Java date pattern gives ("dd/MM/yyyy" → "d")."""
    letters = re.sub(r"'[^']*'", "", pattern)
    for letter, unit in (("S", None), ("s", "s"), ("m", "m"), ("H", "h"), ("d", "d"), ("M", "M")):
        if letter in letters:
            return unit
    return "y"


def parse_date(text: Any, fmt: str | None = None, round_up: bool = False) -> datetime:
    """A date value as ES parses it: epoch millis numbers, ISO dates, or the given format.

    round_up (a `gt` or `lte` bound) fills the parts the value leaves out with their largest values,
    as ES does: `lte 2017-03-31` keeps the whole of that day (…T23:59:59.999), `gt 2017-03` excludes
    all of March.
    """
    moment, unit = _parse(text, fmt)
    return _round(moment, unit, up=True) if round_up and unit is not None else moment


def _parse(text: Any, fmt: str | None) -> tuple[datetime, str | None]:
    """The moment, and the unit of the value's finest part when it leaves later parts out (else
    None)."""
    if isinstance(text, int | float) and not isinstance(text, bool):
        return from_millis(float(text)), None
    if isinstance(text, datetime):
        return (text if text.tzinfo else text.replace(tzinfo=UTC)), None
    if isinstance(text, date):
        return datetime(text.year, text.month, text.day, tzinfo=UTC), "d"
    value = str(text)
    for option in (fmt or "").split("||"):
        if option in ("", "strict_date_optional_time", "date_optional_time", "date", "strict_date"):
            continue
        if option == "epoch_millis":
            if re.fullmatch(r"-?\d+", value):
                return from_millis(float(value)), None
            continue
        try:
            return datetime.strptime(value, java_to_strftime(option)).replace(
                tzinfo=UTC
            ), _pattern_unit(option)
        except ValueError:
            continue
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        try:  # "2017" and "2017-03": a year or a month, as ES's date_optional_time reads them
            parsed = datetime.strptime(value, {4: "%Y", 7: "%Y-%m"}[len(value)])
        except (KeyError, ValueError):
            raise UnsupportedQuery("range", f"cannot parse date {value!r}") from None
    return (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)), _iso_unit(value)


def _round(moment: datetime, unit: str, up: bool) -> datetime:
    start = {
        "y": moment.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0),
        "M": moment.replace(day=1, hour=0, minute=0, second=0, microsecond=0),
        "w": (moment - timedelta(days=moment.weekday())).replace(
            hour=0, minute=0, second=0, microsecond=0
        ),
        "d": moment.replace(hour=0, minute=0, second=0, microsecond=0),
        "h": moment.replace(minute=0, second=0, microsecond=0),
        "H": moment.replace(minute=0, second=0, microsecond=0),
        "m": moment.replace(second=0, microsecond=0),
        "s": moment.replace(microsecond=0),
    }[unit]
    if not up:
        return start
    one_unit = relativedelta(**{_UNITS[unit]: 1})  # type: ignore[arg-type]
    return start + one_unit - timedelta(milliseconds=1)


def evaluate(expr: Any, now: datetime, fmt: str | None = None, round_up: bool = False) -> datetime:
    """`now-1d/d`, `2025-01-01||+1M/d`, or a plain date; `/unit` rounds down, or up when
    round_up."""
    if not isinstance(expr, str):
        return parse_date(expr, fmt)
    if expr.startswith("now"):
        anchor, ops = now if now.tzinfo else now.replace(tzinfo=UTC), expr[3:]
    elif "||" in expr and not expr.split("||", 1)[1].startswith(
        ("epoch", "yyyy", "date", "strict")
    ):
        head, ops = expr.split("||", 1)
        anchor = parse_date(head, fmt)
    else:
        return parse_date(expr, fmt, round_up)
    for sign, amount, unit, rounding in re.findall(r"([+-])(\d*)([yMwdhHms])|/([yMwdhHms])", ops):
        if rounding:
            anchor = _round(anchor, rounding, round_up)
        else:
            step = int(amount or 1) * (1 if sign == "+" else -1)
            anchor = anchor + relativedelta(**{_UNITS[unit]: step})  # type: ignore[arg-type]
    if re.sub(r"([+-]\d*[yMwdhHms]|/[yMwdhHms])", "", ops):
        raise UnsupportedQuery("range", f"cannot parse date math {expr!r}")
    return anchor
