"""What a live index holds, column by column: the evidence `catalog init` drafts roles from.

Everything is asked through the Engine interface (one aggregation request per index), so the same
profile comes from the embedded engine and from a cluster.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, get_args

from bosun.catalog.parts import part_name
from bosun.catalog.schema import DatePartName
from bosun.engines.base import Engine
from bosun.errors import CatalogError

TYPES = {"keyword", "text", "date", "integer", "long", "float", "double", "boolean"}
# up to this many distinct values a column is a dimension, and its values are read
MANY_VALUES = 5000
MOST_COLUMNS = 1000  # the default of BOSUN_MAX_COLUMNS
VALUE_KINDS = {"keyword", "integer", "long", "boolean"}  # their values are listed when few
# columns profiled by one aggregation request: a wide index is read in many small requests
_PER_REQUEST = 50


@dataclass(frozen=True)
class Column:
    """One field: its type, how many distinct values, their range, and its values when there are
    few."""

    name: str
    type: str
    present: int
    distinct: int
    low: Any = None
    high: Any = None
    values: list[tuple[Any, int]] = field(default_factory=list)  # (value, rows), most common first
    subfields: dict[str, str] = field(default_factory=dict)

    @property
    def numeric(self) -> bool:
        return self.type in {"integer", "long", "float", "double"}

    @property
    def complete_values(self) -> bool:
        """`values` lists every value of the column."""
        return (
            0 < self.distinct <= MANY_VALUES
            and len(self.values) >= min(self.distinct, MANY_VALUES) * 0.98
        )


@dataclass(frozen=True)
class IndexProfile:
    index: str
    rows: int
    columns: dict[str, Column]


def profile_index(engine: Engine, index: str, most_columns: int = MOST_COLUMNS) -> IndexProfile:
    """Mapping plus aggregation requests, a few columns each: counts, distinct values, ranges and
    the few values.

    An index with more than `most_columns` fields is refused before any is profiled.
    """
    properties = engine.mapping(index).get("properties", {})
    own = len(properties) - len(derived_fields(properties))
    if own > most_columns:
        raise CatalogError(
            f"index {index!r} has {own:,} fields, over the limit of {most_columns:,} "
            "(BOSUN_MAX_COLUMNS): draft a catalog for fewer columns, or raise the limit"
        )
    kinds = {
        n: s.get("type", "object")
        for n, s in properties.items()
        if s.get("type", "object") in TYPES
    }
    found: dict[str, Any] = {}
    names = list(kinds)
    for start in range(0, len(names), _PER_REQUEST):
        found.update(
            _searched(
                engine,
                index,
                {
                    a: spec
                    for n in names[start : start + _PER_REQUEST]
                    for a, spec in _summary_aggs(n, kinds[n]).items()
                },
            )
        )
    for group in _value_groups([n for n in names if kinds[n] in VALUE_KINDS], found):
        found.update(
            _searched(
                engine,
                index,
                {f"{n}:values": {"terms": {"field": n, "size": MANY_VALUES + 1}} for n in group},
            )
        )
    columns = {name: _column(name, kind, found, properties[name]) for name, kind in kinds.items()}
    return IndexProfile(index, engine.count(index), columns)


def derived_fields(properties: dict[str, Any]) -> set[str]:
    """The fields `data load` wrote beside a date or clock column (its weekday, month, hour:
    parts.py), which no user's file counts among its columns: a file at the column limit with
    dates in it loads, so it drafts."""
    parts = [part_name(name, part) for name in properties for part in get_args(DatePartName)]
    return set(parts) & set(properties)


def _searched(engine: Engine, index: str, aggs: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = engine.search(index, {"size": 0, "aggs": aggs}).get("aggregations", {})
    return found


def _summary_aggs(name: str, kind: str) -> dict[str, Any]:
    """How many values, how many distinct, and the range: no buckets."""
    if kind == "text":
        return {f"{name}:count": {"value_count": {"field": f"{name}.keyword"}}}
    aggs: dict[str, Any] = {
        f"{name}:count": {"value_count": {"field": name}},
        f"{name}:distinct": {"cardinality": {"field": name}},
    }
    if kind in {"integer", "long", "float", "double", "date"}:
        aggs[f"{name}:stats"] = {"stats": {"field": name}}
    return aggs


def _value_groups(names: list[str], found: dict[str, Any]) -> list[list[str]]:
    """Columns whose values are listed together: about MANY_VALUES buckets a request (a cluster's
    search.max_buckets is counted per request), by their distinct counts with a margin for the
    estimate."""
    groups: list[list[str]] = []
    room = 0
    for name in names:
        distinct = int(found.get(f"{name}:distinct", {}).get("value", 0) or 0)
        needed = min(distinct + distinct // 10 + 1, MANY_VALUES + 1)
        if not groups or needed > room or len(groups[-1]) >= _PER_REQUEST:
            groups.append([])
            room = MANY_VALUES + 1
        groups[-1].append(name)
        room -= needed
    return groups


def _column(name: str, kind: str, found: dict[str, Any], spec: dict[str, Any]) -> Column:
    stats = found.get(f"{name}:stats", {})
    buckets = found.get(f"{name}:values", {}).get("buckets", [])
    values = [
        (b.get("key_as_string", b["key"]) if kind == "boolean" else b["key"], int(b["doc_count"]))
        for b in buckets
    ]
    distinct = int(found.get(f"{name}:distinct", {}).get("value", 0) or 0)
    if buckets and len(buckets) <= MANY_VALUES:
        distinct = len(buckets)  # terms are exact where the cardinality estimate is not
    low, high = stats.get("min"), stats.get("max")
    if kind == "date":
        low, high = stats.get("min_as_string", low), stats.get("max_as_string", high)
    subfields = {sub: s.get("type", "keyword") for sub, s in spec.get("fields", {}).items()}
    return Column(
        name,
        kind,
        int(found.get(f"{name}:count", {}).get("value", 0) or 0),
        distinct,
        low,
        high,
        values,
        subfields,
    )
