"""A DSL response as rows, to compare with the rows of the hand-written SQL that answers the same
question.

The conformance corpus gives each query a `sql` beside its DSL (one statement, or a list whose rows
are concatenated). `response_rows` reads the engine's response as rows, the shape that SQL must
return:

- without aggregations: `(total,)` when the total is tracked, then `(_id,)` for each hit, in order;
- with aggregations: `(metric, ...)` for the top level's metrics (when it has any), then one row per
  bucket at
  every depth: `(ancestor keys..., key..., doc_count, metric...)`. A single-bucket aggregation
  (`filter`) is keyed
  by its name, `filters` by the filter's name (or position), a composite by each source's value.

A metric is `value`, `keys` as well for max/min_bucket, the five figures of `stats` (count, min,
max, avg, sum), each percentile in order, or the tuple of `_id`s of `top_hits`; pipelines with no
output (bucket_selector, bucket_sort) add nothing. Dates are compared as epoch milliseconds, as
Elasticsearch keys them. Rows compare as multisets: which rows, not their order (the conformance
test checks order against osmem-server).
"""

from __future__ import annotations

import copy
import math
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from bosun.engines.base import Engine

Row = tuple[Any, ...]
BUCKETED = {"terms", "date_histogram", "histogram", "range", "date_range", "filters", "composite"}
SINGLE = {"filter", "missing", "global"}
NO_OUTPUT = {"bucket_selector", "bucket_sort"}


def responses(engine: Engine, entry: dict[str, Any]) -> list[dict[str, Any]]:
    """The response, or every page of a composite aggregation followed to its end."""
    index, body = entry.get("index", "shipments"), copy.deepcopy(entry["body"])
    pages = [engine.search(index, body)]
    while entry.get("pages") == "composite":
        agg = pages[-1]["aggregations"]["c"]
        if not agg["buckets"] or "after_key" not in agg:
            break
        body["aggs"]["c"]["composite"]["after"] = agg["after_key"]
        pages.append(engine.search(index, body))
    return pages


def response_rows(entry: dict[str, Any], pages: list[dict[str, Any]]) -> list[Row]:
    """Every page's rows, in the shape described above."""
    aggs = entry["body"].get("aggs", entry["body"].get("aggregations"))
    rows: list[Row] = []
    for page in pages:
        rows += _level_rows(aggs, page["aggregations"], ()) if aggs else _hit_rows(page["hits"])
    return rows


def _hit_rows(hits: dict[str, Any]) -> list[Row]:
    total = [(hits["total"]["value"],)] if "total" in hits else []
    return total + [(hit["_id"],) for hit in hits["hits"]]


def _level_rows(spec: dict[str, Any], result: dict[str, Any], keys: Row) -> list[Row]:
    """The top level's metrics row (keys empty), then every bucket's row below it."""
    rows: list[Row] = []
    if not keys:
        metrics = _metrics(spec, result)
        rows += [metrics] if metrics else []
    for name, agg in spec.items():
        kind = _kind(agg)
        children = agg.get("aggs", agg.get("aggregations", {}))
        for key, bucket in _buckets(name, kind, result.get(name, {})):
            here = keys + key
            rows.append((*here, bucket["doc_count"], *_metrics(children, bucket)))
            rows += _level_rows(children, bucket, here)
    return rows


def _kind(agg: dict[str, Any]) -> str:
    return next((k for k in agg if k not in ("aggs", "aggregations", "meta")), "")


def _buckets(name: str, kind: str, result: dict[str, Any]) -> list[tuple[Row, dict[str, Any]]]:
    if kind in SINGLE:
        return [((name,), result)]
    if kind not in BUCKETED:
        return []
    found = result["buckets"]
    if isinstance(found, dict):  # keyed filters
        return [((key,), bucket) for key, bucket in found.items()]
    return [(_key(bucket, position), bucket) for position, bucket in enumerate(found)]


def _key(bucket: dict[str, Any], position: int) -> Row:
    key = bucket.get("key", position)
    return tuple(key.values()) if isinstance(key, dict) else (key,)


def _metrics(spec: dict[str, Any], result: dict[str, Any]) -> Row:
    values: list[Any] = []
    for name, agg in spec.items():
        kind = _kind(agg)
        if kind in BUCKETED | SINGLE | NO_OUTPUT or name not in result:
            continue
        values += _metric(kind, result[name])
    return tuple(values)


def _metric(kind: str, found: dict[str, Any]) -> list[Any]:
    if kind == "stats":
        return [found[k] for k in ("count", "min", "max", "avg", "sum")]
    if kind == "percentiles":
        return list(found["values"].values())
    if kind == "top_hits":
        return [tuple(hit["_id"] for hit in found["hits"]["hits"])]
    return [found["value"], tuple(found["keys"])] if "keys" in found else [found["value"]]


def normalized(rows: list[Row]) -> list[Row]:
    """SQL's values as a response has them: dates as epoch ms, decimals as floats, lists as
    tuples."""
    return [tuple(_value(v) for v in row) for row in rows]


def _value(value: Any) -> Any:
    if isinstance(value, datetime):
        moment = value if value.tzinfo else value.replace(tzinfo=UTC)
        return int(moment.timestamp() * 1000)
    if isinstance(value, date):
        return int(datetime(value.year, value.month, value.day, tzinfo=UTC).timestamp() * 1000)
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, list | tuple):
        return tuple(_value(v) for v in value)
    return value


def differences(expected: list[Row], got: list[Row], tolerance: float = 1e-9) -> list[str]:
    """What differs between two multisets of rows (numbers within `tolerance`, relative); empty when
    alike."""
    if len(expected) != len(got):
        return [f"{len(expected)} rows expected, got {len(got)}"]
    wrong = []
    for a, b in zip(sorted(expected, key=_order), sorted(got, key=_order), strict=True):
        if not _alike(a, b, tolerance):
            wrong.append(f"{a} != {b}")
    return wrong


def _order(row: Row) -> str:
    return repr(tuple(_rounded(v) for v in row))


def _rounded(value: Any) -> Any:
    if isinstance(value, float) and math.isfinite(value):
        return float(f"{value:.6g}")
    if isinstance(value, tuple):
        return tuple(_rounded(v) for v in value)
    return value


def _alike(a: Any, b: Any, tolerance: float) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_alike(x, y, tolerance) for x, y in zip(a, b, strict=True))
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(a, b, rel_tol=tolerance, abs_tol=1e-9)
    return bool(a == b)
