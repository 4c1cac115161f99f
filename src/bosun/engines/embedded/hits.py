"""The hits part of a search: sort, paging, search_after, _source filtering, sort values."""

from __future__ import annotations

import fnmatch
import math
from datetime import date, datetime
from typing import Any

from bosun.engines.embedded.datemath import parse_date, to_millis
from bosun.engines.embedded.fields import Field
from bosun.engines.embedded.query import Compiler, Sql, check_keys
from bosun.engines.params import an_object, descending, listed, number
from bosun.errors import BadQuery, UnsupportedQuery

LONG_MAX = 9223372036854775807
LONG_MIN = -9223372036854775808


class SortKey:
    """One sort criterion compiled to a SQL expression whose order matches Elasticsearch's."""

    def __init__(self, compiler: Compiler, raw: Any) -> None:
        name, options = _sort_item(raw)
        self.name = name
        self.desc = descending(
            options.get("order"), f"sort.{name}", "desc" if name == "_score" else "asc"
        )
        self.missing = options.get("missing", "_last")
        self.field: Field | None = None
        if name in ("_doc", "_score"):
            self.expr = "_seq"
            return
        field = compiler.fields.get(name)
        if field is None or field.is_text:
            raise UnsupportedQuery("sort", f"no sortable field {name!r} (unmapped or text)")
        self.field = field
        self.expr = self._expression(field)

    @staticmethod
    def _filled(f: Field) -> bool:
        """Whether a missing value sorts as a value of the field's type: numbers, dates,
        booleans."""
        return f.is_numeric or f.is_date or f.type == "boolean"

    def _expression(self, f: Field) -> str:
        column = f.millis if f.is_date else f.sql
        if (
            f.type == "boolean"
        ):  # sorted as the integers 0 and 1, a missing one as an integer's bound
            column = f"CAST({column} AS INTEGER)"
        if self._filled(f):
            fill: float
            if self.missing in ("_last", "_first"):
                low, high = _bounds(f.type)
                last = low if self.desc else high
                first = high if self.desc else low
                fill = last if self.missing == "_last" else first
            elif f.is_date:
                fill = to_millis(parse_date(self.missing))
            else:
                fill = number(self.missing, "sort", "missing")
            literal = f"'{fill}'::DOUBLE" if math.isinf(fill) else str(fill)
            return f"COALESCE({column}, {literal})"
        return column

    def order_sql(self) -> str:
        direction = "DESC" if self.desc else "ASC"
        return f"{self.expr} {direction} {'NULLS FIRST' if self.nulls_first else 'NULLS LAST'}"

    @property
    def nulls_first(self) -> bool:
        return self.missing == "_first"

    @property
    def nullable(self) -> bool:
        """Whether the sort value may be null (a missing keyword; numbers, dates and booleans are
        filled with their type's bound, `_doc` never misses)."""
        return self.field is not None and not self._filled(self.field)

    def after_sql(self, value: Any) -> Sql:
        """Rows past `value` on this key alone, in its order, a missing value where it sorts."""
        if value is None:
            return Sql(f"{self.expr} IS NOT NULL" if self.nulls_first else "FALSE", [])
        past = f"{self.expr} {'<' if self.desc else '>'} ?"
        if self.nullable and not self.nulls_first:
            return Sql(f"({past} OR {self.expr} IS NULL)", [value])
        return Sql(past, [value])

    def sort_value(self, value: Any) -> Any:
        if self.name == "_score":
            return 1.0
        if (
            self.field is not None
            and self.field.type in ("float", "half_float")
            and isinstance(value, float)
        ):
            import numpy as np  # only for a sort on a single-precision field

            # Elasticsearch prints single precision at its shortest
            return float(str(np.float32(value)))
        if (
            isinstance(value, float)
            and value.is_integer()
            and self.field is not None
            and not self.field.is_numeric
        ):
            return int(value)
        return value


def _sort_item(raw: Any) -> tuple[str, dict[str, Any]]:
    """A sort item as (field, options): "field", {"field": "desc"} or {"field": {"order": ...}}."""
    if isinstance(raw, str):
        return raw, {}
    item = an_object(raw, "sort")
    if len(item) != 1:
        raise BadQuery("sort", f"each sort item must name one field, got {raw!r:.80}")
    ((name, options),) = item.items()
    if isinstance(options, str):
        return str(name), {"order": options}
    # mode and unmapped_type change nothing over single-valued mapped fields
    check_keys(f"sort.{name}", options, {"order", "missing", "mode", "unmapped_type"})
    return str(name), an_object(options, f"sort.{name}")


def _bounds(kind: str) -> tuple[float, float]:
    """The values Elasticsearch sorts missing numbers as: the extremes of the field's type."""
    if kind in ("integer", "short", "byte", "boolean"):
        return -2147483648, 2147483647
    if kind in ("float", "double", "half_float", "scaled_float"):
        return float("-inf"), float("inf")
    return LONG_MIN, LONG_MAX


def sort_keys(compiler: Compiler, raw: Any) -> list[SortKey]:
    items = listed(raw)
    if len(items) > 32:
        raise BadQuery("sort", f"at most 32 sort keys, got {len(items)}")
    return [SortKey(compiler, item) for item in items]


def search_after_sql(keys: list[SortKey], values: list[Any]) -> Sql:
    """Rows strictly after `values` in the order of `keys` (lexicographic, per-key direction): a
    WHERE on the sort keys, so a page deep in the order reads what the first page reads. A missing
    keyword (null) continues among the missing ones, where it sorts, as a cluster does."""
    if not isinstance(values, list) or len(values) != len(keys):
        raise UnsupportedQuery("search_after", "needs one value per sort key")
    clauses: list[str] = []
    params: list[Any] = []
    for i, key in enumerate(keys):
        past = key.after_sql(values[i])
        equal = [f"{k.expr} IS NOT DISTINCT FROM ?" for k in keys[:i]]
        clauses.append("(" + " AND ".join([*equal, past.text]) + ")")
        params += [*values[:i], *past.params]
    return Sql("(" + " OR ".join(clauses) + ")", params)


def check_source(body: dict[str, Any], clause: str) -> None:
    """A `_source` given as null, or malformed, is refused as a cluster refuses it (left out, it
    means all)."""
    if "_source" in body:
        if body["_source"] is None:
            raise BadQuery(clause, "expected true, false, a pattern, a list or an object, got null")
        source_filter(body["_source"])


def source_filter(spec: Any) -> tuple[list[str] | None, list[str]] | None:
    """(includes or None for all, excludes); None when _source is false."""
    if spec is False:
        return None
    if spec is None or spec is True:
        return None, []
    if isinstance(spec, str):
        return [spec], []
    if isinstance(spec, list):
        return _as_list(spec), []
    if not isinstance(spec, dict):
        raise BadQuery(
            "_source", f"expected true, false, a pattern, a list or an object, got {spec!r:.80}"
        )
    check_keys("_source", spec, {"includes", "excludes", "include", "exclude"})
    includes = spec.get("includes", spec.get("include"))
    excludes = spec.get("excludes", spec.get("exclude", []))
    return (_as_list(includes) or None), _as_list(excludes)


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadQuery("_source", f"expected a pattern or a list of patterns, got {value!r:.80}")
    return value


def _kept(name: str, rule: tuple[list[str] | None, list[str]]) -> bool:
    includes, excludes = rule
    return (includes is None or any(fnmatch.fnmatchcase(name, p) for p in includes)) and not any(
        fnmatch.fnmatchcase(name, p) for p in excludes
    )


def source_columns(names: list[str], rule: tuple[list[str] | None, list[str]] | None) -> list[str]:
    """The columns a _source rule keeps, so a search reads only those (none for `_source:
    false`)."""
    return [] if rule is None else [n for n in names if _kept(n, rule)]


def json_value(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    return value
