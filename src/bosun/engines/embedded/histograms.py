"""`date_histogram` and `histogram`: fixed-width buckets, empty ones filled as Elasticsearch fills
them."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from dateutil.relativedelta import relativedelta

from bosun.engines.embedded.datemath import evaluate, format_millis, from_millis, to_millis
from bosun.engines.embedded.fields import INTEGER_COLUMNS, Field, quote
from bosun.engines.embedded.query import Sql, check_keys
from bosun.engines.embedded.scope import Aggregations, Key, Scope
from bosun.engines.params import descending, integer, number, positive, required
from bosun.errors import BadQuery, UnsupportedQuery

# date_histogram intervals: calendar units by their names, fixed units in milliseconds, a calendar
# step
CALENDAR = {
    "minute": "minute",
    "1m": "minute",
    "hour": "hour",
    "1h": "hour",
    "day": "day",
    "1d": "day",
    "week": "week",
    "1w": "week",
    "month": "month",
    "1M": "month",
    "quarter": "quarter",
    "1q": "quarter",
    "year": "year",
    "1y": "year",
}
FIXED_UNITS = {"ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}
STEP = {
    "minute": relativedelta(minutes=1),
    "hour": relativedelta(hours=1),
    "day": relativedelta(days=1),
    "week": relativedelta(weeks=1),
    "month": relativedelta(months=1),
    "quarter": relativedelta(months=3),
    "year": relativedelta(years=1),
}

_DATE_KEYS = {
    "field",
    "calendar_interval",
    "fixed_interval",
    "interval",
    "format",
    "min_doc_count",
    "extended_bounds",
    "hard_bounds",
    "order",
    "offset",
    "time_zone",
    "keyed",
    "missing",
}


def date_interval(body: dict[str, Any]) -> tuple[str | None, int | None]:
    """(calendar unit, None) or (None, fixed milliseconds)."""
    raw = body.get("calendar_interval") or body.get("interval")
    if raw and str(raw) in CALENDAR:
        return CALENDAR[str(raw)], None
    raw = body.get("fixed_interval") or raw
    found = re.fullmatch(r"(\d+)(ms|s|m|h|d)", str(raw or ""))
    if not found:
        raise UnsupportedQuery("date_histogram.interval", f"unsupported interval {raw!r}")
    if int(found[1]) <= 0:
        raise BadQuery("date_histogram", f"interval must be greater than 0, got {raw!r}")
    return None, int(found[1]) * FIXED_UNITS[found[2]]


_MONTHS = {"month": 1, "quarter": 3, "year": 12}


def _calendar_span(low: int, high: int, unit: str) -> int:
    """How many calendar buckets lie from `low` to `high` (bucket keys, epoch millis), without
    listing them."""
    if unit in _MONTHS:
        start, end = from_millis(low), from_millis(high)
        months = (end.year - start.year) * 12 + end.month - start.month
        return months // _MONTHS[unit] + 1
    width = {
        "minute": FIXED_UNITS["m"],
        "hour": FIXED_UNITS["h"],
        "day": FIXED_UNITS["d"],
        "week": 7 * FIXED_UNITS["d"],
    }[unit]
    return (high - low) // width + 1


# The first day of a calendar bucket of a DATE column, by date arithmetic: date_trunc took 2-3x as
# long
_DAY_FLOORS = {
    "week": "{d} - CAST(isodow({d}) - 1 AS INTEGER)",
    "month": "{d} - CAST(day({d}) - 1 AS INTEGER)",
    "quarter": "make_date(year({d}), (quarter({d}) - 1) * 3 + 1, 1)",
    "year": "{d} - CAST(dayofyear({d}) - 1 AS INTEGER)",
}


def date_key_sql(f: Field, unit: str | None, fixed: int | None, offset: int = 0) -> str:
    """A date's bucket key in epoch milliseconds: a calendar unit's start, or a multiple of `fixed`
    ms."""
    if unit and f.column_type == "DATE":
        return f"epoch_ms({_DAY_FLOORS[unit].format(d=f.sql)})" if unit in _DAY_FLOORS else f.millis
    if unit:
        return f"epoch_ms(date_trunc('{unit}', CAST({f.sql} AS TIMESTAMP)))"
    return f"(floor(({f.millis} - {offset}) / {fixed}) * {fixed} + {offset})::BIGINT"


def _calendar_floor(millis: float, unit: str) -> int:
    moment = from_millis(millis)
    start = {
        "minute": moment.replace(second=0, microsecond=0),
        "hour": moment.replace(minute=0, second=0, microsecond=0),
        "day": moment.replace(hour=0, minute=0, second=0, microsecond=0),
        "week": datetime.fromordinal(moment.toordinal() - moment.weekday()).replace(tzinfo=UTC),
        "month": moment.replace(day=1, hour=0, minute=0, second=0, microsecond=0),
        "quarter": moment.replace(
            month=3 * ((moment.month - 1) // 3) + 1,
            day=1,
            hour=0,
            minute=0,
            second=0,
            microsecond=0,
        ),
        "year": moment.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0),
    }[unit]
    return to_millis(start)


def _offset_millis(raw: Any) -> int:
    if raw in (None, 0, "0"):
        return 0
    found = re.fullmatch(r"([+-]?)(\d+)(ms|s|m|h|d)", str(raw))
    if not found:
        raise UnsupportedQuery("date_histogram.offset", str(raw))
    return (-1 if found[1] == "-" else 1) * int(found[2]) * FIXED_UNITS[found[3]]


def date_histogram(
    agg: Aggregations, body: dict[str, Any], children: dict[str, Any], scope: Scope
) -> dict[Key, Any]:
    check_keys("date_histogram", body, _DATE_KEYS)
    if str(body.get("time_zone", "UTC")).upper() not in ("UTC", "Z", "+00:00", "ETC/UTC"):
        raise UnsupportedQuery("date_histogram.time_zone", "only UTC")
    f = agg.field(body, "date_histogram")
    if f is None:
        return {k: {"buckets": []} for k in agg.parent_keys(scope)}
    unit, fixed = date_interval(body)
    offset = _offset_millis(body.get("offset"))
    if unit and offset:
        raise UnsupportedQuery("date_histogram.offset", "offset with a calendar interval")
    expr = Sql(date_key_sql(f, unit, fixed, offset))

    width = fixed or 0  # a fixed interval's milliseconds, read only where there is no calendar unit

    def floor(millis: float) -> int:
        if unit:
            return _calendar_floor(millis, unit)
        return int(math.floor((millis - offset) / width) * width + offset)

    def unshifted(millis: int) -> int:  # hard bounds round as keys do, without the offset
        if unit:
            return _calendar_floor(millis, unit)
        return millis // width * width

    def step(key: int) -> int:
        if unit:
            return to_millis(from_millis(key) + STEP[unit])
        return key + width

    def span(low: int, high: int) -> int:
        if unit:
            return _calendar_span(low, high, unit)
        return (high - low) // width + 1

    bounds = body.get("extended_bounds")
    now = agg.compiler.now
    extended = None
    if bounds:
        extended = (
            floor(
                to_millis(
                    evaluate(
                        required(bounds, "date_histogram.extended_bounds", "min"),
                        now,
                        body.get("format"),
                    )
                )
            ),
            floor(
                to_millis(
                    evaluate(
                        required(bounds, "date_histogram.extended_bounds", "max"),
                        now,
                        body.get("format"),
                        round_up=False,
                    )
                )
            ),
        )
    walk = _Walk("date_histogram", step, span, extended)
    hard = _hard_bounds(
        body,
        "date_histogram",
        lambda raw: unshifted(to_millis(evaluate(raw, now, body.get("format")))),
    )
    _inside_hard("date_histogram", hard, extended)
    present = _within(f, expr.text, hard, upper="<")
    return _histogram(
        agg,
        body,
        children,
        scope,
        expr,
        present,
        walk,
        lambda k: {"key_as_string": format_millis(k, body.get("format")), "key": int(k)},
    )


def histogram(
    agg: Aggregations, body: dict[str, Any], children: dict[str, Any], scope: Scope
) -> dict[Key, Any]:
    check_keys(
        "histogram",
        body,
        {
            "field",
            "interval",
            "offset",
            "min_doc_count",
            "extended_bounds",
            "hard_bounds",
            "order",
            "keyed",
            "missing",
        },
    )
    f = agg.field(body, "histogram")
    if f is None:
        return {k: {"buckets": []} for k in agg.parent_keys(scope)}
    interval = positive(required(body, "histogram", "interval"), "histogram", "interval")
    offset = number(body.get("offset", 0), "histogram", "offset")
    expr = _histogram_key(f, interval, offset)

    def floor(value: float) -> float:
        return math.floor((value - offset) / interval) * interval + offset

    bounds = body.get("extended_bounds")
    extended = None
    if bounds:
        extended = (
            floor(
                number(
                    required(bounds, "histogram.extended_bounds", "min"),
                    "histogram",
                    "extended_bounds",
                )
            ),
            floor(
                number(
                    required(bounds, "histogram.extended_bounds", "max"),
                    "histogram",
                    "extended_bounds",
                )
            ),
        )
    walk = _Walk(
        "histogram",
        lambda k: k + interval,
        lambda low, high: int((high - low) // interval) + 1,
        extended,
    )
    hard = _hard_bounds(body, "histogram", lambda raw: number(raw, "histogram", "hard_bounds"))
    _inside_hard(
        "histogram",
        hard,
        bounds
        and (
            number(bounds["min"], "histogram", "extended_bounds"),
            number(bounds["max"], "histogram", "extended_bounds"),
        ),
    )
    present = _within(f, f"({expr.text} - {offset!r})", hard, upper="<=")
    return _histogram(agg, body, children, scope, expr, present, walk, lambda k: {"key": float(k)})


Bounds = tuple[float | None, float | None]


def _hard_bounds(body: dict[str, Any], kind: str, parse: Callable[[Any], float]) -> Bounds | None:
    """`hard_bounds` {min, max}, either optional (dates rounded down to their bucket, as
    Elasticsearch does)."""
    raw = body.get("hard_bounds")
    if raw is None:
        return None
    if not isinstance(raw, dict) or not set(raw) <= {"min", "max"}:
        raise BadQuery(kind, f"hard_bounds must be an object of min and max, got {raw!r:.80}")
    low, high = (None if raw.get(end) is None else parse(raw[end]) for end in ("min", "max"))
    if low is not None and high is not None and low > high:
        raise BadQuery(kind, "hard_bounds.min cannot be greater than hard_bounds.max")
    return low, high


def _inside_hard(kind: str, hard: Bounds | None, extended: tuple[Any, Any] | None) -> None:
    """Elasticsearch refuses extended bounds that reach outside the hard bounds."""
    if hard is None or not extended:
        return
    low, high = extended
    if (hard[0] is not None and low < hard[0]) or (hard[1] is not None and high > hard[1]):
        raise BadQuery(kind, "extended bounds have to be inside hard bounds")


def _within(f: Field, key: str, hard: Bounds | None, upper: str) -> Sql:
    """The rows a histogram counts: a value, and with hard bounds a bucket key from min to max.

    As in Elasticsearch the key is compared, not the value: a date bucket is kept when min <= key <
    max, a numeric one when min <= key - offset <= max.
    """
    parts, params = [f"{f.sql} IS NOT NULL"], []
    for bound, op in zip(hard or (None, None), (">=", upper), strict=True):
        if bound is not None:
            parts.append(f"{key} {op} ?")
            params.append(bound)
    return Sql(" AND ".join(parts), params)


def _histogram_key(f: Field, interval: float, offset: float) -> Sql:
    """The SQL of a value's bucket: floor((value - offset) / interval) * interval + offset.

    On an integer column with a whole interval and offset it is integer arithmetic (several times
    faster to compute and to group by than the same in doubles); the keys are shown as floats either
    way.
    """
    whole = all(v.is_integer() and abs(v) < 2**53 for v in (interval, offset))
    if whole and f.column_type in INTEGER_COLUMNS and f.sql == quote(f.column):
        step, shift = int(interval), int(offset)
        return Sql(f"({f.sql} - ((({f.sql} - {shift}) % {step}) + {step}) % {step})")
    column = f.millis if f.is_date else f.sql
    return Sql(
        f"(floor(({column} - {offset!r}) / {interval!r}) * {interval!r} + {offset!r})::DOUBLE"
    )


class _Walk:
    """How a histogram's keys follow one another: the next key, how many lie between two, the
    extended bounds."""

    def __init__(
        self,
        kind: str,
        step: Callable[[Any], Any],
        span: Callable[[Any, Any], int],
        extended: tuple[Any, Any] | None,
    ) -> None:
        self.kind, self.step, self.span, self.extended = kind, step, span, extended


def _histogram(
    agg: Aggregations,
    body: dict[str, Any],
    children: dict[str, Any],
    scope: Scope,
    expr: Sql,
    present: Sql,
    walk: _Walk,
    describe: Callable[[Any], dict[str, Any]],
) -> dict[Key, Any]:
    kind = walk.kind
    min_doc = integer(body, kind, "min_doc_count", 0)
    rows, ready = agg.counted(scope, children, own_keys=(expr,), extra=present)
    agg.check_buckets(kind, len(rows))
    n = len(scope.keys)
    inner_scope = (
        scope.with_key(expr).with_condition(present).with_known(tuple(row[: n + 1]) for row in rows)
    )
    inner = agg.evaluate(children, inner_scope, ready) if children else {}
    per_parent: dict[Key, dict[Any, int]] = {}
    for row in rows:
        per_parent.setdefault(tuple(row[:n]), {})[row[n]] = int(row[n + 1])
    if walk.extended is not None:
        for parent in agg.parent_keys(scope):
            per_parent.setdefault(parent, {})
    if min_doc == 0:
        agg.check_buckets(kind, sum(_span(counts, walk) for counts in per_parent.values()))
    out: dict[Key, Any] = {}
    for parent, counts in per_parent.items():
        keys = _all_keys(counts, walk) if min_doc == 0 else sorted(counts)
        buckets = [
            {
                **describe(k),
                "doc_count": counts.get(k, 0),
                **agg.fill(children, inner, (*parent, k)),
            }
            for k in keys
            if counts.get(k, 0) >= min_doc
        ]
        out[parent] = {"buckets": _ordered(buckets, body.get("order"))}
    return out


def _bounds(counts: dict[Any, int], extended: tuple[Any, Any] | None) -> tuple[Any, Any] | None:
    present = sorted(counts)
    lows = [*present[:1], *([extended[0]] if extended else [])]
    highs = [*present[-1:], *([extended[1]] if extended else [])]
    return (min(lows), max(highs)) if lows else None


def _span(counts: dict[Any, int], walk: _Walk) -> int:
    """How many keys _all_keys would list: counted, so a tiny interval is refused before any is
    built."""
    bounds = _bounds(counts, walk.extended)
    return max(0, walk.span(*bounds)) if bounds else 0


def _all_keys(counts: dict[Any, int], walk: _Walk) -> list[Any]:
    bounds = _bounds(counts, walk.extended)
    if bounds is None:
        return []
    low, high = bounds
    keys, key = [], low
    while key <= high:
        keys.append(key)
        key = walk.step(key)
    return keys


def _ordered(buckets: list[dict[str, Any]], order: Any) -> list[dict[str, Any]]:
    if not order:
        return buckets
    ((path, direction),) = (order if isinstance(order, dict) else order[0]).items()
    if path not in ("_key", "_count"):
        raise UnsupportedQuery("histogram.order", f"order by {path!r}")
    field = "key" if path == "_key" else "doc_count"
    return sorted(
        buckets,
        key=lambda b: (b[field], b["key"]),
        reverse=descending(direction, "histogram.order"),
    )
