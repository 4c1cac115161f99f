"""Where an aggregation runs (`Scope`), the key of a bucket, and what bucket handlers use of the
aggregator.

The aggregator (aggs.py) dispatches to the bucket handlers (terms.py, histograms.py, composite.py);
they nest sub-aggregations back through it. They see it as `Aggregations`, defined here below them
both, so no handler imports the dispatcher.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from bosun.engines.embedded.fields import Field
from bosun.engines.embedded.memo import PageMemo
from bosun.engines.embedded.query import Compiler, Sql

Run = Callable[[str, list[Any]], list[tuple[Any, ...]]]
METRICS = {
    "avg",
    "sum",
    "min",
    "max",
    "value_count",
    "cardinality",
    "stats",
    "percentiles",
    "top_hits",
}
# plain metrics: SQL aggregates that can share their parent's GROUP BY
FUSED = METRICS - {"top_hits"}
Key = tuple[Any, ...]


@dataclass(frozen=True)
class Scope:
    """Where an aggregation runs: the rows (where) and the keys of the enclosing buckets."""

    table: str
    where: Sql
    keys: tuple[str, ...] = ()
    key_params: tuple[Any, ...] = ()
    conditions: tuple[Sql, ...] = field(default_factory=tuple)

    # the keys of every bucket in the scope, when its maker has them
    known: tuple[Key, ...] | None = None

    def with_condition(self, cond: Sql) -> Scope:
        return replace(self, conditions=(*self.conditions, cond), known=None)

    def with_key(self, expr: Sql) -> Scope:
        return replace(
            self,
            keys=(*self.keys, expr.text),
            key_params=(*self.key_params, *expr.params),
            known=None,
        )

    def with_known(self, keys: Iterable[Key]) -> Scope:
        """The same rows, whose buckets' keys are `keys`: a sub-aggregation lists them without
        asking DuckDB."""
        return replace(self, known=tuple(keys))

    def where_sql(self, extra: Sql | None = None) -> Sql:
        parts = [self.where, *self.conditions, *([extra] if extra else [])]
        return Sql(" AND ".join(f"({p.text})" for p in parts), [x for p in parts for x in p.params])


class Aggregations(Protocol):
    """The aggregator as a bucket handler uses it: fields, grouped counts, bucket caps, nested
    aggregations."""

    compiler: Compiler
    run: Run
    table: str
    memo: PageMemo | None

    def field(self, body: dict[str, Any], kind: str) -> Field | None: ...

    def parent_keys(self, scope: Scope) -> list[Key]: ...

    def counted(
        self,
        scope: Scope,
        children: dict[str, Any],
        own_keys: tuple[Sql, ...] = (),
        extra: Sql | None = None,
        order: str = "",
        total: bool = False,
    ) -> tuple[list[tuple[Any, ...]], dict[str, dict[Key, Any]]]: ...

    def evaluate(
        self, aggs: dict[str, Any], scope: Scope, ready: dict[str, dict[Key, Any]] | None = None
    ) -> dict[Key, dict[str, Any]]: ...

    def fill(
        self, aggs: dict[str, Any], found: dict[Key, dict[str, Any]], key: Key
    ) -> dict[str, Any]: ...

    def check_buckets(self, kind: str, count: int) -> None: ...
