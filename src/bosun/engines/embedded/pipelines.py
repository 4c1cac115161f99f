"""Elasticsearch's pipeline aggregations, run on the response tree after every bucket is computed.

A pipeline reads values of other aggregations through a `buckets_path` (`agg>agg.metric`, `_count`,
`_key`, `pcts[99.9]`), never rows. Parent pipelines (bucket_selector, bucket_sort, bucket_script,
cumulative_sum, derivative, serial_diff) sit in a multi-bucket aggregation's `aggs` and work across
its buckets; sibling pipelines (avg/sum/max/min_bucket) read a multi-bucket aggregation beside them
and add one value where they are declared. As in Elasticsearch, inner pipelines run before outer
ones, and a pipeline that reads another pipeline runs after it.

A gap is a value that is missing (NaN, infinite, or any metric of an empty bucket); `gap_policy`
says whether it stays a gap (`skip`, NaN here as in Elasticsearch), becomes 0 (`insert_zeros`) or
keeps a finite metric of an empty bucket (`keep_values`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import cmp_to_key
from typing import Any

from bosun.engines.embedded.numformat import decimal_format
from bosun.engines.params import an_object, descending, integer, listed
from bosun.engines.scripts import vetted
from bosun.errors import BadQuery, UnsupportedQuery

PARENT = {
    "bucket_selector",
    "bucket_sort",
    "bucket_script",
    "cumulative_sum",
    "derivative",
    "serial_diff",
}
SIBLING = {"avg_bucket", "sum_bucket", "max_bucket", "min_bucket"}
PIPELINES = PARENT | SIBLING
# parents must be (date_)histograms
_HISTOGRAM_ONLY = {"cumulative_sum", "derivative", "serial_diff"}
_HISTOGRAMS = {"histogram", "date_histogram"}
_SINGLE_BUCKET = {"filter", "missing"}
_GAP_POLICIES = {"skip", "insert_zeros", "keep_values"}
_KEYS = {
    "bucket_selector": {"buckets_path", "script", "gap_policy"},
    "bucket_script": {"buckets_path", "script", "gap_policy", "format"},
    "bucket_sort": {"sort", "from", "size", "gap_policy"},
    "cumulative_sum": {"buckets_path", "format"},
    "derivative": {"buckets_path", "gap_policy", "format"},
    "serial_diff": {"buckets_path", "gap_policy", "format", "lag"},
    **{kind: {"buckets_path", "gap_policy", "format"} for kind in SIBLING},
}

Row = tuple[Any, dict[str, Any]]  # (the key of a keyed bucket or None, the bucket)
Item = tuple[str, str, dict[str, Any], dict[str, Any]]  # name, kind, body, children


def run_pipelines(aggs: dict[str, Any], results: dict[str, Any]) -> None:
    """Add every pipeline's result to `results` (the response's aggregations), in place."""
    _check_parents(aggs, None)
    _check_paths(aggs)
    items = _items(aggs)
    for name, kind, _, children in items:
        # a metric on an unmapped field has no result to walk
        if kind not in PIPELINES and name in results:
            _inside(kind, children, results[name])
    for name, kind, body, _ in _in_order(items):
        results[name] = _sibling(kind, body, results, items)


def _check_parents(aggs: dict[str, Any], parent: str | None) -> None:
    """Refuse a parent pipeline whose parent cannot hold it, whether or not any bucket was found."""
    for name, kind, _, children in _items(aggs):
        if kind in PARENT:
            _check_parent(kind, name, parent)
        elif kind not in PIPELINES:
            _check_parents(children, kind)


def _inside(kind: str, children: dict[str, Any], result: dict[str, Any]) -> None:
    """The pipelines declared in the `aggs` of an aggregation of `kind`, whose response is
    `result`."""
    items = _items(children)
    if not items or ("buckets" not in result and kind not in _SINGLE_BUCKET):
        return
    rows = _rows(kind, result)
    for _, bucket in rows:
        for name, child_kind, _, grandchildren in items:
            # as at the top: no result, nothing to walk
            if child_kind not in PIPELINES and name in bucket:
                _inside(child_kind, grandchildren, bucket[name])
    for name, pipe, body, _ in _in_order(items):
        if pipe in SIBLING:
            for _, bucket in rows:
                bucket[name] = _sibling(pipe, body, bucket, items)
            continue
        rows = _PARENTS[pipe](name, body, rows)
        _store(result, rows)


def _check_paths(aggs: dict[str, Any]) -> None:
    """Refuse a buckets_path that names no aggregation: a typo must not read as a gap in every
    bucket."""
    items = _items(aggs)
    for _, kind, body, children in items:
        if kind in SIBLING:
            _check_sibling_path(kind, _path(body, kind), items)
        elif kind in PARENT:
            for path in _paths(kind, body):
                _declared(kind, path, items)
        else:
            _check_paths(children)


def _paths(kind: str, body: dict[str, Any]) -> list[str]:
    if kind == "bucket_sort":
        return [p for p, _ in _sorts(body.get("sort", [])) if p != "_key"]
    raw = body.get("buckets_path")
    return [str(p) for p in raw.values()] if isinstance(raw, dict) else [_path(body, kind)]


def _declared(kind: str, path: str, items: list[Item]) -> Item | None:
    """The aggregation the first step of `path` names among `items` (None for _count, _key)."""
    first = re.split(r"[>.\[]", path, maxsplit=1)[0]
    if first in ("_count", "_key"):
        return None
    for item in items:
        if item[0] == first:
            return item
    raise BadQuery(
        kind, f"buckets_path {path!r}: no aggregation named {first!r} beside the pipeline"
    )


def _check_sibling_path(kind: str, path: str, items: list[Item]) -> None:
    """A sibling's path: through single-bucket aggregations to a multi-bucket one, then a path in
    its buckets."""
    step, _, rest = path.partition(">")
    target = _declared(kind, step, items) if rest else None
    while target is not None and target[1] in _SINGLE_BUCKET:
        step, _, rest = rest.partition(">")
        target = _declared(kind, step, _items(target[3])) if rest else None
    if target is None or target[1] in PIPELINES:
        raise BadQuery(
            kind, f"buckets_path {path!r} must lead to a multi-bucket aggregation beside {kind}"
        )
    _declared(kind, rest, _items(target[3]))


def _check_parent(pipe: str, name: str, parent: str | None) -> None:
    if parent is None:
        raise BadQuery(pipe, f"{name!r} must be declared inside a multi-bucket aggregation")
    if parent == "composite":
        raise UnsupportedQuery(f"composite > {pipe}", "pipelines under a composite aggregation")
    if parent in _SINGLE_BUCKET:
        raise BadQuery(
            pipe, f"{name!r} must be declared inside a multi-bucket aggregation, not {parent}"
        )
    if pipe in _HISTOGRAM_ONLY and parent not in _HISTOGRAMS:
        raise BadQuery(
            pipe, f"{pipe} aggregation [{name}] must have a histogram or date_histogram as parent"
        )


def _rows(kind: str, result: dict[str, Any]) -> list[Row]:
    if kind in _SINGLE_BUCKET:
        return [(None, result)]
    buckets = result["buckets"]
    if isinstance(buckets, dict):
        return list(buckets.items())
    return [(None, b) for b in buckets]


def _store(result: dict[str, Any], rows: list[Row]) -> None:
    if isinstance(result["buckets"], dict):
        result["buckets"] = dict(rows)
    else:
        result["buckets"] = [b for _, b in rows]


# -- reading a buckets_path
# ---------------------------------------------------------------------------
def _steps(path: Any, kind: str) -> list[tuple[str, str | None]]:
    """`a>b.metric` or `a>b[key]` as [(name, None), (name, metric or key)]."""
    if not isinstance(path, str) or not path:
        raise BadQuery(kind, f"buckets_path must be a path, got {path!r:.80}")
    parts = path.split(">")
    steps: list[tuple[str, str | None]] = [(p, None) for p in parts[:-1]]
    last = parts[-1]
    if last.endswith("]") and "[" in last:
        name, _, key = last[:-1].partition("[")
        steps.append((name, key.strip("'\"")))
    elif "." in last and last not in ("_count", "_key"):
        name, _, metric = last.rpartition(".")
        steps.append((name, metric))
    else:
        steps.append((last, None))
    if any(not name for name, _ in steps):
        raise BadQuery(kind, f"buckets_path {path!r} has an empty step")
    return steps


def raw_value(bucket: dict[str, Any], label: Any, path: str, kind: str) -> float | None:
    """The number at `path` in `bucket` (NaN for a metric without a value, None when nothing is
    there)."""
    node: dict[str, Any] = bucket
    steps = _steps(path, kind)
    for step, _ in steps[:-1]:
        inner = _step(node, step, path, kind)
        if inner is None:
            return None
        node = inner
    name, metric = steps[-1]
    if name == "_count":
        return float(node["doc_count"])
    if name == "_key":
        return _number(label if label is not None else node.get("key"), path, kind)
    if name not in node:
        return None
    return _metric(node[name], metric, path, kind)


def _step(node: dict[str, Any], step: str, path: str, kind: str) -> dict[str, Any] | None:
    """Into a single-bucket aggregation (`f`), or one bucket of a multi-bucket one by its key
    (`by_type['hat']`)."""
    name, _, key = step.partition("[")
    child = node.get(name)
    if not isinstance(child, dict):
        return None
    if "buckets" not in child:
        return child
    if not key.endswith("]"):
        raise BadQuery(
            kind,
            f"buckets_path {path!r} goes through the multi-bucket aggregation {name!r}: name a "
            "bucket",
        )
    wanted = key[:-1].strip("'\"")
    for label, bucket in _rows("", child):
        if (
            str(label if label is not None else bucket.get("key_as_string", bucket.get("key")))
            == wanted
        ):
            return bucket
    return None


def _metric(result: Any, metric: str | None, path: str, kind: str) -> float:
    if not isinstance(result, dict):
        raise BadQuery(kind, f"buckets_path {path!r} does not reach a number")
    if metric == "_bucket_count" and "buckets" in result:
        return float(len(result["buckets"]))
    if metric == "_count" and "doc_count" in result:
        return float(result["doc_count"])
    if "values" in result and metric is not None:  # percentiles
        return _percentile(result["values"], metric, path, kind)
    if metric is None or (metric == "value" and "value" in result):
        if "value" not in result:
            raise BadQuery(
                kind,
                f"buckets_path {path!r} must reach a single-value metric (name one of its values)",
            )
        return _number(result["value"], path, kind)
    if metric in result and not isinstance(result[metric], dict | list):
        return _number(result[metric], path, kind)
    raise BadQuery(kind, f"buckets_path {path!r}: no value {metric!r}")


def _percentile(values: Any, metric: str, path: str, kind: str) -> float:
    try:
        wanted = float(metric)
    except ValueError:
        raise BadQuery(kind, f"buckets_path {path!r}: {metric!r} is not a percent") from None
    pairs = values.items() if isinstance(values, dict) else ((v["key"], v["value"]) for v in values)
    for key, value in pairs:
        if float(key) == wanted:
            return _number(value, path, kind)
    raise UnsupportedQuery(
        f"{kind}.buckets_path", f"{path!r}: percentile {metric} was not among the percents asked"
    )


def _number(value: Any, path: str, kind: str) -> float:
    if value is None:
        return math.nan
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BadQuery(kind, f"buckets_path {path!r} must reach a number, got {value!r:.40}")
    return float(value)


def resolve(bucket: dict[str, Any], label: Any, path: str, gap: str, kind: str) -> float | None:
    """The value at `path` with the gap policy applied; None when the path names nothing in this
    bucket."""
    value = raw_value(bucket, label, path, kind)
    if value is None:
        return None
    empty = bucket.get("doc_count") == 0 and path != "_count"
    if math.isfinite(value) and not empty:
        return value
    if gap == "insert_zeros":
        return 0.0
    if gap == "keep_values" and math.isfinite(value):
        return value
    return math.nan


def _gap(body: dict[str, Any], kind: str) -> str:
    gap = body.get("gap_policy", "skip")
    if not isinstance(gap, str) or gap not in _GAP_POLICIES:
        raise BadQuery(kind, f"gap_policy must be one of {sorted(_GAP_POLICIES)}, got {gap!r:.40}")
    return str(gap)


def _path(body: dict[str, Any], kind: str) -> str:
    path = body.get("buckets_path")
    if isinstance(path, list) and len(path) == 1:
        path = path[0]
    if isinstance(path, dict) and len(path) == 1:
        path = next(iter(path.values()))
    if not isinstance(path, str):
        raise BadQuery(kind, f"buckets_path must be one path, got {path!r:.80}")
    return path


def _value(value: float | None, body: dict[str, Any]) -> dict[str, Any]:
    """A simple value's response: null when it is not finite, value_as_string when a format is
    asked."""
    finite = value is not None and math.isfinite(value)
    result: dict[str, Any] = {"value": value if finite else None}
    if finite and body.get("format") is not None:
        result["value_as_string"] = decimal_format(value, body["format"])  # type: ignore[arg-type]
    return result


# -- parent pipelines
# --------------------------------------------------------------------------------
def _selector(name: str, body: dict[str, Any], rows: list[Row]) -> list[Row]:
    template = vetted("bucket_selector", body)
    gap = _gap(body, "bucket_selector")
    paths = an_object(body["buckets_path"], "bucket_selector.buckets_path")
    kept = []
    for label, bucket in rows:
        params = {
            var: _or_nan(resolve(bucket, label, p, gap, "bucket_selector"))
            for var, p in paths.items()
        }
        if template.evaluate(params):
            kept.append((label, bucket))
    return kept


def _script(name: str, body: dict[str, Any], rows: list[Row]) -> list[Row]:
    """A bucket_script's number in each bucket; a bucket with a gap under `skip` or `keep_values`
    gets none."""
    template = vetted("bucket_script", body)
    gap = _gap(body, "bucket_script")
    paths = an_object(body["buckets_path"], "bucket_script.buckets_path")
    for label, bucket in rows:
        params = {var: resolve(bucket, label, p, gap, "bucket_script") for var, p in paths.items()}
        if gap != "insert_zeros" and any(v is None or math.isnan(v) for v in params.values()):
            continue
        bucket[name] = _value(
            float(template.evaluate({k: _or_nan(v) for k, v in params.items()})), body
        )
    return rows


def _or_nan(value: float | None) -> float:
    return math.nan if value is None else value


def _sort(name: str, body: dict[str, Any], rows: list[Row]) -> list[Row]:
    """Buckets ordered by `sort` (a bucket without a value last, whatever the direction), then
    `from`/`size`."""
    gap = _gap(body, "bucket_sort")
    start = integer(body, "bucket_sort", "from", 0)
    size = integer(body, "bucket_sort", "size", max(1, len(rows)), minimum=1)
    sorts = _sorts(body.get("sort", []))
    if sorts:
        values = {id(row[1]): _sort_values(row, sorts, gap) for row in rows}

        def compare(a: Row, b: Row) -> int:
            return _compare(values[id(a[1])], values[id(b[1])], sorts)

        rows = sorted(rows, key=cmp_to_key(compare))
    return rows[start : start + size]


def _sorts(raw: Any) -> list[tuple[str, bool]]:
    items = raw if isinstance(raw, list) else [raw]
    sorts = []
    for item in items:
        if isinstance(item, str):
            sorts.append((item, False))
            continue
        for path, how in an_object(item, "bucket_sort.sort").items():
            order = how.get("order") if isinstance(how, dict) else how
            sorts.append((str(path), descending(order, "bucket_sort.sort")))
    return sorts


def _sort_values(row: Row, sorts: list[tuple[str, bool]], gap: str) -> list[Any]:
    label, bucket = row
    values: list[Any] = []
    for path, _ in sorts:
        if path == "_key":
            values.append(label if label is not None else bucket.get("key"))
            continue
        value = resolve(bucket, label, path, gap, "bucket_sort")
        values.append(None if value is None or math.isnan(value) else value)
    return values


def _compare(a: list[Any], b: list[Any], sorts: list[tuple[str, bool]]) -> int:
    for x, y, (_, desc) in zip(a, b, sorts, strict=True):
        if x == y:
            continue
        if x is None or y is None:
            return 1 if x is None else -1
        before = x > y if desc else x < y  # x comes first
        return -1 if before else 1
    return 0


def _cumulative(name: str, body: dict[str, Any], rows: list[Row]) -> list[Row]:
    """The running sum of a value over the buckets; a gap adds nothing."""
    path, total = _path(body, "cumulative_sum"), 0.0
    for label, bucket in rows:
        value = resolve(bucket, label, path, "insert_zeros", "cumulative_sum")
        if value is not None and math.isfinite(value):
            total += value
        bucket[name] = _value(total, body)
    return rows


def _derivative(name: str, body: dict[str, Any], rows: list[Row]) -> list[Row]:
    """Each bucket's value minus the previous bucket's: none in the first; null next to a gap under
    `skip`."""
    if body.get("unit") is not None:
        raise UnsupportedQuery("derivative.unit")
    path, gap = _path(body, "derivative"), _gap(body, "derivative")
    last: float | None = None
    for label, bucket in rows:
        value = resolve(bucket, label, path, gap, "derivative")
        if last is not None and value is not None:
            bucket[name] = _value(value - last, body)
        last = value
    return rows


def _serial_diff(name: str, body: dict[str, Any], rows: list[Row]) -> list[Row]:
    """Each bucket's value minus the value `lag` buckets before; none where either is a gap or
    missing."""
    path, gap = _path(body, "serial_diff"), _gap(body, "serial_diff")
    lag = integer(body, "serial_diff", "lag", 1, minimum=1)
    seen: list[float] = []
    for label, bucket in rows:
        value = _or_nan(resolve(bucket, label, path, gap, "serial_diff"))
        before = seen[-lag] if len(seen) >= lag else math.nan
        if not math.isnan(value) and not math.isnan(before):
            bucket[name] = _value(value - before, body)
        seen.append(value)
    return rows


_PARENTS: dict[str, Callable[[str, dict[str, Any], list[Row]], list[Row]]] = {
    "bucket_selector": _selector,
    "bucket_script": _script,
    "bucket_sort": _sort,
    "cumulative_sum": _cumulative,
    "derivative": _derivative,
    "serial_diff": _serial_diff,
}


# -- sibling pipelines
# --------------------------------------------------------------------------------
def _sibling(
    kind: str, body: dict[str, Any], node: dict[str, Any], items: list[Item]
) -> dict[str, Any]:
    """avg/sum/max/min of a value over the buckets of a multi-bucket aggregation beside the
    pipeline."""
    path, gap = _path(body, kind), _gap(body, kind)
    first, _, rest = path.partition(">")
    kinds = {name: k for name, k, _, _ in items}
    if first not in kinds or not rest:
        raise BadQuery(
            kind, f"buckets_path {path!r} must start with a multi-bucket aggregation beside {kind}"
        )
    result, first_kind = node[first], kinds[first]
    # through single-bucket aggregations
    while "buckets" not in result and first_kind in _SINGLE_BUCKET:
        first, _, rest = rest.partition(">")
        if first not in result or not rest:
            raise BadQuery(kind, f"buckets_path {path!r} must reach a multi-bucket aggregation")
        result, first_kind = result[first], ""
    if "buckets" not in result:
        raise BadQuery(kind, f"buckets_path {path!r} must start with a multi-bucket aggregation")
    found = []
    for label, bucket in _rows("", result):
        value = resolve(bucket, label, rest, gap, kind)
        if value is not None and not math.isnan(value):
            found.append((_key_text(label, bucket), value))
    return _SIBLINGS[kind](found, body)


def _key_text(label: Any, bucket: dict[str, Any]) -> str:
    """A bucket's key as Elasticsearch writes it in max_bucket's `keys`."""
    if label is not None:
        return str(label)
    if "key_as_string" in bucket:
        return str(bucket["key_as_string"])
    key = bucket.get("key")
    return repr(key) if isinstance(key, float) else str(key)


def _average(found: list[tuple[str, float]], body: dict[str, Any]) -> dict[str, Any]:
    return _value(sum(v for _, v in found) / len(found) if found else None, body)


def _sum(found: list[tuple[str, float]], body: dict[str, Any]) -> dict[str, Any]:
    return _value(sum(v for _, v in found), body)


def _extreme(
    pick: Callable[[list[float]], float],
) -> Callable[[list[tuple[str, float]], dict[str, Any]], dict[str, Any]]:
    def extreme(found: list[tuple[str, float]], body: dict[str, Any]) -> dict[str, Any]:
        if not found:
            return {"value": None, "keys": []}
        best = pick([v for _, v in found])
        return {**_value(best, body), "keys": [k for k, v in found if v == best]}

    return extreme


_SIBLINGS: dict[str, Callable[[list[tuple[str, float]], dict[str, Any]], dict[str, Any]]] = {
    "avg_bucket": _average,
    "sum_bucket": _sum,
    "max_bucket": _extreme(max),
    "min_bucket": _extreme(min),
}


# -- the aggregations of one level
# ---------------------------------------------------------------------
def _items(aggs: dict[str, Any]) -> list[Item]:
    items = []
    for name, spec in an_object(aggs, "aggs").items():
        spec = an_object(spec, f"aggregation {name!r}")
        kind = next(k for k in spec if k not in ("aggs", "aggregations", "meta"))
        items.append((name, kind, spec[kind], spec.get("aggs", spec.get("aggregations")) or {}))
    return items


def check_pipeline(name: str, kind: str, body: Any, children: dict[str, Any]) -> None:
    """Refuse a pipeline's unknown options and sub-aggregations before any SQL runs."""
    body = an_object(body, kind)
    if children:
        raise BadQuery(kind, f"{name!r} is a pipeline aggregation and cannot have sub-aggregations")
    unknown = sorted(set(body) - _KEYS[kind])
    if unknown:
        raise UnsupportedQuery(f"{kind}.{unknown[0]}")
    if kind in ("bucket_selector", "bucket_script"):
        vetted(kind, body)
    elif kind != "bucket_sort":
        _path(body, kind)


def _in_order(items: list[Item]) -> list[Item]:
    """The pipelines among `items`, each after the pipelines its buckets_path reads."""
    pipes = {item[0]: item for item in items if item[1] in PIPELINES}
    done: list[Item] = []
    waiting = list(pipes)
    while waiting:
        ready = [n for n in waiting if not (_reads(pipes[n]) & (set(waiting) - {n}))]
        if not ready:
            raise BadQuery(pipes[waiting[0]][1], f"pipelines {waiting} read each other in a loop")
        done.extend(pipes[n] for n in ready)
        waiting = [n for n in waiting if n not in ready]
    return done


def _reads(item: Item) -> set[str]:
    """The first names of every buckets_path of a pipeline (and of bucket_sort's sort paths)."""
    _, kind, body, _ = item
    raw = body.get("buckets_path")
    paths = list(raw.values()) if isinstance(raw, dict) else listed(raw)
    if kind == "bucket_sort":
        paths = [p for p, _ in _sorts(body.get("sort", []))]
    return {str(p).split(">")[0].split(".")[0].split("[")[0] for p in paths if p}
