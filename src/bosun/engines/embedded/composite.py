"""The `composite` aggregation: every combination of its sources' keys, paged with `after`."""

from __future__ import annotations

import json
from typing import Any

from bosun.engines.embedded.datemath import format_millis
from bosun.engines.embedded.histograms import date_interval, date_key_sql
from bosun.engines.embedded.memo import Groups
from bosun.engines.embedded.query import Sql
from bosun.engines.embedded.scope import FUSED, Aggregations, Key, Scope
from bosun.engines.embedded.terms import bucket_key, key_expression
from bosun.engines.params import an_object, descending, integer, positive, required
from bosun.errors import BadQuery, UnsupportedQuery


class Source:
    """One composite source: its key expression, direction and how its key is shown."""

    def __init__(self, agg: Aggregations, raw: Any) -> None:
        self.name, kind, body = _source_parts(raw)
        self.desc = descending(body.get("order"), f"composite.sources.{self.name}")
        self.missing_bucket = bool(body.get("missing_bucket"))
        self.format = body.get("format")
        f = agg.field(body, f"composite.{kind}")
        if f is None:
            raise UnsupportedQuery("composite", f"unmapped field {body.get('field')!r}")
        self.field, self.kind = f, kind
        if kind == "terms":
            self.expr = key_expression(f)
        elif kind == "date_histogram":
            unit, fixed = date_interval(body)
            self.expr = Sql(date_key_sql(f, unit, fixed))
        elif kind == "histogram":
            interval = positive(
                required(body, "composite.histogram", "interval"), "composite.histogram", "interval"
            )
            self.expr = Sql(f"(floor({f.sql} / {interval!r}) * {interval!r})::DOUBLE")
        else:
            raise UnsupportedQuery(f"composite.{kind}")

    def show(self, value: Any) -> Any:
        if value is None:
            return None
        if self.kind == "date_histogram":
            return format_millis(value, self.format) if self.format else int(value)
        if self.kind == "histogram":
            return float(value)
        return bucket_key(self.field, value)["key"] if self.field.type != "boolean" else bool(value)

    def raw(self, shown: Any) -> Any:
        if self.kind == "date_histogram" and isinstance(shown, str):
            from bosun.engines.embedded.datemath import parse_date, to_millis

            return to_millis(parse_date(shown, self.format))
        if self.field.type == "boolean" and shown is not None:
            return 1 if shown is True or str(shown).lower() == "true" else 0
        return shown


def composite(
    agg: Aggregations, body: dict[str, Any], children: dict[str, Any], scope: Scope
) -> dict[Key, Any]:
    if scope.keys or scope.conditions:
        raise UnsupportedQuery("composite", "composite must be a top-level aggregation")
    raw_sources = required(body, "composite", "sources")
    if not isinstance(raw_sources, list) or not raw_sources:
        raise BadQuery("composite", f"sources must be a non-empty list, got {raw_sources!r:.80}")
    sources = [Source(agg, raw) for raw in raw_sources]
    size = integer(body, "composite", "size", 10, minimum=1)
    agg.check_buckets("composite", size)
    present = [Sql(f"{s.field.sql} IS NOT NULL") for s in sources if not s.missing_bucket]
    after = body.get("after")
    values = None if after is None else _after_values(sources, after)
    rows, ready = _page(agg, scope, sources, present, values, size, children)
    conditions = [*present, *([] if values is None else [_after(sources, values)])]
    inner_scope = scope
    for s in sources:
        inner_scope = inner_scope.with_key(s.expr)
    inner = (
        agg.evaluate(children, inner_scope.with_condition(_all(conditions)), ready)
        if children
        else {}
    )
    buckets = [
        {
            "key": {s.name: s.show(v) for s, v in zip(sources, row[:-1], strict=True)},
            "doc_count": int(row[-1]),
            **agg.fill(children, inner, tuple(row[:-1])),
        }
        for row in rows
    ]
    result: dict[str, Any] = {"buckets": buckets}
    if buckets:
        result = {"after_key": buckets[-1]["key"], **result}
    return {(): result}


def _page(
    agg: Aggregations,
    scope: Scope,
    sources: list[Source],
    present: list[Sql],
    values: list[Any] | None,
    size: int,
    children: dict[str, Any],
) -> Groups:
    """The page's groups: read from the groups the first page kept when there are any, else grouped
    now (and kept, when this is the first page, the children are plain metrics and the groups fit
    the memo)."""
    key = _memo_key(agg, scope, sources, children)
    if key is not None and values is not None:
        kept = agg.memo.get(key) if agg.memo else None
        start = None if kept is None else _after_position(kept[0], values)
        if kept is not None and start is not None:
            return kept[0][start : start + size], kept[1]
    first = key is not None and values is None and agg.memo is not None
    limit = agg.memo.rows + 1 if first and agg.memo else size
    conditions = [*present, *([] if values is None else [_after(sources, values)])]
    order = ", ".join(
        f"{i + 1} {'DESC' if s.desc else 'ASC'} NULLS FIRST" for i, s in enumerate(sources)
    )
    rows, ready = agg.counted(
        scope,
        children,
        own_keys=tuple(s.expr for s in sources),
        extra=_all(conditions),
        order=f" ORDER BY {order} LIMIT {limit}",
    )
    if first and agg.memo and key is not None and len(rows) <= agg.memo.rows:
        agg.memo.put(key, (rows, ready))
    return rows[:size], ready


def _memo_key(
    agg: Aggregations, scope: Scope, sources: list[Source], children: dict[str, Any]
) -> tuple[Any, ...] | None:
    """What a composite's groups depend on, when they can be kept: children that are plain metrics
    (or none), computed in the grouping statement itself."""
    kinds = {
        next(iter(k for k in spec if k not in ("aggs", "aggregations")), "")
        for spec in children.values()
    }
    if agg.memo is None or not kinds <= FUSED:
        return None
    where = scope.where_sql()
    grouped = tuple((s.expr.text, tuple(s.expr.params), s.desc, s.missing_bucket) for s in sources)
    return (
        agg.table,
        where.text,
        tuple(map(repr, where.params)),
        grouped,
        json.dumps(children, sort_keys=True, default=repr),
    )


def _after_position(rows: list[tuple[Any, ...]], values: list[Any]) -> int | None:
    """Where the page after `values` starts in the kept rows; None when no group has those keys."""
    wanted = tuple(values)
    return next((i + 1 for i, row in enumerate(rows) if tuple(row[:-1]) == wanted), None)


def _all(conditions: list[Sql]) -> Sql:
    return Sql(
        " AND ".join(c.text for c in conditions) or "TRUE",
        [p for c in conditions for p in c.params],
    )


def _source_parts(raw: Any) -> tuple[str, str, dict[str, Any]]:
    """(name, kind, body) of one source written as {name: {kind: body}}."""
    source = an_object(raw, "composite.sources")
    if len(source) != 1:
        raise BadQuery(
            "composite.sources", f"each source must be {{name: {{kind: ...}}}}, got {raw!r:.80}"
        )
    ((name, spec),) = source.items()
    spec = an_object(spec, f"composite.sources.{name}")
    if len(spec) != 1:
        raise BadQuery(
            f"composite.sources.{name}", f"expected exactly one source kind, got {sorted(spec)}"
        )
    ((kind, body),) = spec.items()
    return str(name), str(kind), an_object(body, f"composite.sources.{name}.{kind}")


def _after_values(sources: list[Source], after: Any) -> list[Any]:
    """`after` must be the previous page's after_key: one value per source, by name."""
    if not isinstance(after, dict) or set(after) != {s.name for s in sources}:
        names = ", ".join(s.name for s in sources)
        raise BadQuery(
            "composite.after",
            f"expected an object with one key per source ({names}), got {after!r:.80}",
        )
    for value in after.values():
        if isinstance(value, dict | list):
            raise BadQuery("composite.after", f"expected single values, got {after!r:.80}")
    return [s.raw(after[s.name]) for s in sources]


def _beyond(source: Source, value: Any) -> str:
    """The condition that a key of `source` sorts after `value` (after the missing bucket: any
    value)."""
    if value is None:
        return f"{source.expr.text} IS NOT NULL"
    side = "<" if source.desc else ">"
    return f"{source.expr.text} {side} ?"


def _after(sources: list[Source], values: list[Any]) -> Sql:
    """The keys that sort after `values`; a null (the missing bucket) sorts first, so every value
    follows it."""
    clauses: list[str] = []
    params: list[Any] = []
    for i, source in enumerate(sources):
        equal = [
            f"{s.expr.text} {'IS NULL' if v is None else '= ?'}"
            for s, v in zip(sources[:i], values[:i], strict=True)
        ]
        beyond = _beyond(source, values[i])
        clauses.append("(" + " AND ".join([*equal, beyond]) + ")")
        params += [v for v in values[: i + 1] if v is not None]
    return Sql("(" + " OR ".join(clauses) + ")", params)
