"""The `terms` aggregation: top buckets by count, key or a sub-aggregation, per parent bucket."""

from __future__ import annotations

from collections.abc import Callable
from functools import cmp_to_key
from typing import Any

from bosun.engines.embedded.datemath import format_millis
from bosun.engines.embedded.fields import Field
from bosun.engines.embedded.query import Sql, check_keys
from bosun.engines.embedded.scope import Aggregations, Key, Scope
from bosun.engines.params import an_object, descending, integer
from bosun.errors import UnsupportedQuery


def key_expression(f: Field, missing: Any = None) -> Sql:
    """The SQL key of a field's bucket: the value, epoch millis for dates, 0/1 for booleans."""
    if f.is_date:
        expr = f.millis
    elif f.type == "boolean":
        expr = f"CAST({f.sql} AS INTEGER)"
    else:
        expr = f.sql
    if missing is None:
        return Sql(expr)
    return Sql(f"COALESCE({expr}, ?)", [_missing_value(f, missing)])


def _missing_value(f: Field, missing: Any) -> Any:
    if f.is_date:
        from bosun.engines.embedded.datemath import parse_date, to_millis

        return to_millis(parse_date(missing))
    if f.type == "boolean":
        return 1 if str(missing).lower() == "true" else 0
    return float(missing) if f.is_numeric else str(missing)


def bucket_key(f: Field, value: Any, fmt: str | None = None) -> dict[str, Any]:
    if f.is_date:
        return {"key": int(value), "key_as_string": format_millis(value, fmt)}
    if f.type == "boolean":
        return {"key": int(value), "key_as_string": "true" if value else "false"}
    if f.type in ("float", "double", "half_float", "scaled_float"):
        return {"key": float(value)}
    return {"key": value}


def terms(
    agg: Aggregations, body: dict[str, Any], children: dict[str, Any], scope: Scope
) -> dict[Key, Any]:
    check_keys(
        "terms",
        body,
        {
            "field",
            "size",
            "order",
            "min_doc_count",
            "missing",
            "shard_size",
            "format",
            "show_term_doc_count_error",
        },
    )
    f = agg.field(body, "terms")
    size = integer(body, "terms", "size", 10, minimum=1)
    min_doc = integer(body, "terms", "min_doc_count", 1)
    orders = _orders(body.get("order", {"_count": "desc"}))
    empty = {"doc_count_error_upper_bound": 0, "sum_other_doc_count": 0, "buckets": []}
    if f is None:
        return {k: dict(empty) for k in agg.parent_keys(scope)}
    expr = key_expression(f, body.get("missing"))
    present = None if body.get("missing") is not None else Sql(f"{f.sql} IS NOT NULL")
    # only the top `size` rows leave DuckDB
    ranked_in_sql = not scope.keys and _simple(orders) and min_doc >= 1
    order = f" ORDER BY {_order_sql(orders)} LIMIT {size}" if ranked_in_sql else ""
    rows, ready = agg.counted(
        scope, children, own_keys=(expr,), extra=present, order=order, total=ranked_in_sql
    )
    n = len(scope.keys)
    per_parent: dict[Key, list[tuple[Any, int]]] = {}
    for row in rows:
        per_parent.setdefault(tuple(row[:n]), []).append((row[n], int(row[n + 1])))
    if min_doc == 0:
        _add_zero_counts(agg, expr, per_parent, scope)
    inner_scope = scope.with_key(expr)
    inner_scope = inner_scope.with_condition(present) if present else inner_scope
    simple = _simple(orders)
    if children and simple:
        inner_scope = inner_scope.with_condition(
            _only(expr, _kept_keys(per_parent, orders, size, min_doc))
        )
        inner_scope = inner_scope.with_known(
            (*parent, k)
            for parent, found in per_parent.items()
            for k, _ in _ranked(found, orders, min_doc)[:size]
        )
    inner = agg.evaluate(children, inner_scope, ready) if children else {}
    out: dict[Key, Any] = {}
    for parent, found in per_parent.items():

        def bucket(k: Any, c: int, parent: Key = parent) -> dict[str, Any]:
            return {
                **bucket_key(f, k, body.get("format")),
                "doc_count": c,
                **agg.fill(children, inner, (*parent, k)),
            }

        kept, other = _top(found, orders, size, min_doc, bucket)
        out[parent] = {
            "doc_count_error_upper_bound": 0,
            "sum_other_doc_count": other,
            "buckets": kept,
        }
    if ranked_in_sql:  # each row holds the count of every bucket, the LIMIT's too
        counted = int(rows[0][n + 2]) if rows else 0
        out[()] = {
            **out.get((), dict(empty)),
            "sum_other_doc_count": counted - sum(int(r[n + 1]) for r in rows),
        }
    return out


def _order_sql(orders: list[tuple[str, bool]]) -> str:
    """The terms order over (key, count) columns 1 and 2, as _ranked sorts: a missing value last."""
    return ", ".join(
        f"{2 if path == '_count' else 1} {'DESC' if desc else 'ASC'} NULLS LAST"
        for path, desc in orders
    )


def _simple(orders: list[tuple[str, bool]]) -> bool:
    """Whether the order needs no sub-aggregation's value."""
    return all(path in ("_key", "_term", "_count") for path, _ in orders)


def _top(
    found: list[tuple[Any, int]],
    orders: list[tuple[str, bool]],
    size: int,
    min_doc: int,
    bucket: Callable[[Any, int], dict[str, Any]],
) -> tuple[list[dict[str, Any]], int]:
    """One parent's `size` first buckets, and how many documents the other eligible buckets hold."""
    if _simple(orders):  # rank bare (key, count) pairs: only the kept ones are made into buckets
        ranked = _ranked(found, orders, min_doc)
        return [bucket(k, c) for k, c in ranked[:size]], sum(c for _, c in ranked[size:])
    eligible = [bucket(k, c) for k, c in found if c >= min_doc]
    eligible.sort(key=cmp_to_key(lambda a, b: _compare(a, b, orders)))
    return eligible[:size], sum(b["doc_count"] for b in eligible[size:])


def _ranked(
    found: list[tuple[Any, int]], orders: list[tuple[str, bool]], min_doc: int
) -> list[tuple[Any, int]]:
    """The (key, count) pairs with at least `min_doc` documents, in an order that needs no
    sub-aggregation."""
    pairs = [(k, c) for k, c in found if c >= min_doc]
    # stable sorts, last criterion first: the order _compare gives, faster
    for path, desc in reversed(orders):
        at = 1 if path == "_count" else 0
        present = sorted((p for p in pairs if p[at] is not None), key=lambda p: p[at], reverse=desc)
        # no value sorts last, whatever the direction
        pairs = present + [p for p in pairs if p[at] is None]
    return pairs


def _kept_keys(
    per_parent: dict[Key, list[tuple[Any, int]]],
    orders: list[tuple[str, bool]],
    size: int,
    min_doc: int,
) -> list[Any]:
    """Keys that make some parent's top `size` when ordering needs no sub-aggregation."""
    kept = {k for found in per_parent.values() for k, _ in _ranked(found, orders, min_doc)[:size]}
    return sorted(kept, key=lambda k: (k is None, k))


def _only(expr: Sql, keys: list[Any]) -> Sql:
    if not keys:
        return Sql("FALSE")
    marks = ", ".join("?" for _ in keys)
    return Sql(f"{expr.text} IN ({marks})", [*expr.params, *keys])


def _add_zero_counts(
    agg: Aggregations, expr: Sql, per_parent: dict[Key, list[tuple[Any, int]]], scope: Scope
) -> None:
    every = [
        r[0]
        for r in agg.run(
            f"SELECT DISTINCT {expr.text} FROM {agg.table} WHERE {expr.text} IS NOT NULL",
            [*expr.params, *expr.params],
        )
    ]
    parents = agg.parent_keys(scope)
    agg.check_buckets("terms", len(parents) * len(every))
    for parent in parents:
        found = per_parent.setdefault(parent, [])
        seen = {k for k, _ in found}
        found.extend((k, 0) for k in every if k not in seen)


def _orders(raw: Any) -> list[tuple[str, bool]]:
    items = raw if isinstance(raw, list) else [raw]
    orders = [
        (str(path), descending(direction, "terms.order"))
        for item in items
        for path, direction in an_object(item, "terms.order").items()
    ]
    if not any(path in ("_key", "_term") for path, _ in orders):
        orders.append(("_key", False))
    return orders


def _order_value(bucket: dict[str, Any], path: str) -> Any:
    if path in ("_key", "_term"):
        return bucket["key"]
    if path == "_count":
        return bucket["doc_count"]
    node: Any = bucket
    steps = path.replace(">", ".").split(".")
    for i, step in enumerate(steps):
        if not isinstance(node, dict) or step not in node:
            if isinstance(node, dict) and step == "value" and i == len(steps) - 1:
                break
            raise UnsupportedQuery("terms.order", f"no sub-aggregation value at {path!r}")
        node = node[step]
    if isinstance(node, dict):
        node = node.get("value", node.get("doc_count"))
    return node


def _compare(a: dict[str, Any], b: dict[str, Any], orders: list[tuple[str, bool]]) -> int:
    for path, desc in orders:
        x, y = _order_value(a, path), _order_value(b, path)
        if x == y:
            continue
        if x is None or y is None:  # buckets without a value sort last, whatever the direction
            return 1 if x is None else -1
        before = x > y if desc else x < y  # x comes first
        return -1 if before else 1
    return 0
