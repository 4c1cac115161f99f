"""The read-only policy every engine is used through by the agent.

No scripts or writes, an index allowlist (from the catalog), caps on hits and buckets, and a time
limit per query. Each violation is one clear error; nothing is silently trimmed.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bosun.engines.base import Body, Engine, Response
from bosun.engines.params import an_object, integer, json_depth
from bosun.engines.scripts import FORBIDDEN, SCRIPTED, vetted
from bosun.errors import BadQuery, GuardrailViolation, QueryTimeout

if TYPE_CHECKING:
    import pyarrow as pa

    from bosun.engines.staged import StagedRows

FORBIDDEN_KEYS = {
    "script",
    "scripts",
    "script_fields",
    "runtime_mappings",
    "scripted_metric",
    "script_score",
    "stored_fields",
    "docvalue_fields",
    "_update",
    "_delete",
}
BUCKET_SIZES = {
    "terms": 10,
    "composite": 10,
    "significant_terms": 10,
    "multi_terms": 10,
    "rare_terms": 10,
}
RANGE_KINDS = ("range", "date_range", "ip_range", "geo_distance")
# far above any real query (20 nested bools are about 60 levels); checked before any walk
MAX_JSON_DEPTH = 100


@dataclass(frozen=True)
class Guardrails:
    allowed_indices: tuple[str, ...]
    max_size: int = 10_000
    max_buckets: int = 10_000
    timeout_s: float = 10.0


class GuardedEngine(Engine):
    """An engine wrapped in the guardrails; the only kind the agent's workers get."""

    def __init__(self, inner: Engine, rails: Guardrails) -> None:
        self.inner, self.rails = inner, rails
        self.kind = inner.kind

    def _index(self, index: str) -> None:
        if index not in self.rails.allowed_indices:
            allowed = ", ".join(self.rails.allowed_indices)
            raise GuardrailViolation(
                f"index {index!r} is not in the catalog's allowlist ({allowed})"
            )

    def check(self, index: str, body: Body) -> None:
        """Raise GuardrailViolation when `body` breaks the policy."""
        self._index(index)
        if not isinstance(body, dict):
            raise BadQuery("body", f"expected an object, got {body!r:.80}")
        depth = json_depth(body)
        if depth > MAX_JSON_DEPTH:
            raise GuardrailViolation(
                f"the query nests {depth} levels deep; the cap is {MAX_JSON_DEPTH}"
            )
        bad = _forbidden(body)
        if bad:
            raise GuardrailViolation(f"{bad!r} {FORBIDDEN}")
        size, offset = integer(body, "search", "size", 10), integer(body, "search", "from", 0)
        if size + offset > self.rails.max_size:
            raise GuardrailViolation(
                f"from + size = {size + offset} is over the cap of {self.rails.max_size} hits"
            )
        aggs = an_object(body.get("aggs", body.get("aggregations")) or {}, "aggs")
        buckets = _bucket_product(aggs)
        if buckets > self.rails.max_buckets:
            raise GuardrailViolation(
                f"the aggregations could return {buckets:,} buckets; the cap is "
                f"{self.rails.max_buckets:,}"
            )
        documents = _top_hits_documents(aggs)
        if documents > self.rails.max_size:
            raise GuardrailViolation(
                f"top_hits could return {documents:,} documents; the cap is "
                f"{self.rails.max_size:,} hits"
            )

    def search(self, index: str, body: Body) -> Response:
        self.check(index, body)
        return _with_deadline(
            self.inner, self.rails.timeout_s, lambda: self.inner.search(index, body)
        )

    def count(self, index: str, body: Body | None = None) -> int:
        self.check(index, body or {})
        return _with_deadline(
            self.inner, self.rails.timeout_s, lambda: self.inner.count(index, body)
        )

    def mapping(self, index: str) -> dict[str, Any]:
        self._index(index)
        return self.inner.mapping(index)

    def open_point_in_time(self, index: str, keep_alive: str) -> str | None:
        self._index(index)
        return _with_deadline(
            self.inner,
            self.rails.timeout_s,
            lambda: self.inner.open_point_in_time(index, keep_alive),
        )

    def close_point_in_time(self, pit_id: str) -> None:
        _with_deadline(
            self.inner, self.rails.timeout_s, lambda: self.inner.close_point_in_time(pit_id)
        )

    def indices(self) -> list[str]:
        return [i for i in self.inner.indices() if i in self.rails.allowed_indices]

    def bulk_load(
        self, index: str, table: pa.Table, mapping: dict[str, Any], id_field: str | None = None
    ) -> int:
        raise GuardrailViolation(
            "writes are not allowed through the agent: the engine is read-only"
        )

    def load_staged(self, index: str, staged: StagedRows, mapping: dict[str, Any]) -> int:
        raise GuardrailViolation(
            "writes are not allowed through the agent: the engine is read-only"
        )

    def close(self) -> None:
        self.inner.close()


def _forbidden(node: Any) -> str | None:
    """The first forbidden key in `node`; a pipeline's script is checked against the vetted template
    instead."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in SCRIPTED and isinstance(value, dict) and "script" in value:
                vetted(key, value)  # raises the forbidden-script error unless it is the vetted form
                value = {k: v for k, v in value.items() if k != "script"}
            elif key in FORBIDDEN_KEYS:
                return str(key)
            found = _forbidden(value)
            if found:
                return found
    elif isinstance(node, list):
        for value in node:
            found = _forbidden(value)
            if found:
                return found
    return None


def _own_buckets(spec: dict[str, Any]) -> int:
    for kind, default in BUCKET_SIZES.items():
        if isinstance(spec.get(kind), dict):
            return integer(spec[kind], kind, "size", default, minimum=1)
    return _listed_buckets(spec)


def _listed_buckets(spec: dict[str, Any]) -> int:
    """The buckets a request lists: a filters aggregation's filters (and its other bucket), a
    range's ranges."""
    body = spec.get("filters")
    if isinstance(body, dict) and isinstance(body.get("filters"), dict | list):
        other = bool(body.get("other_bucket") or body.get("other_bucket_key"))
        return max(1, len(body["filters"]) + int(other))
    for kind in RANGE_KINDS:
        body = spec.get(kind)
        if isinstance(body, dict) and isinstance(body.get("ranges"), list):
            return max(1, len(body["ranges"]))
    return 1


def _children(spec: dict[str, Any]) -> dict[str, Any]:
    return an_object(spec.get("aggs", spec.get("aggregations")) or {}, "aggs")


def _bucket_product(aggs: dict[str, Any]) -> int:
    """The most buckets a nested aggregation tree could return (sizes multiplied down each path)."""
    worst = 0
    for spec in aggs.values():
        if not isinstance(spec, dict):
            continue
        worst = max(worst, _own_buckets(spec) * max(1, _bucket_product(_children(spec))))
    return worst


def _top_hits_documents(aggs: dict[str, Any]) -> int:
    """The most documents the top_hits in a tree could return: from + size times the buckets above
    them."""
    total = 0
    for spec in aggs.values():
        if not isinstance(spec, dict):
            continue
        if isinstance(spec.get("top_hits"), dict):
            hits = spec["top_hits"]
            total += integer(hits, "top_hits", "size", 3) + integer(hits, "top_hits", "from", 0)
        total += _own_buckets(spec) * _top_hits_documents(_children(spec))
    return total


def _with_deadline(engine: Engine, seconds: float, call: Any) -> Any:
    """Run `call`; past the deadline interrupt the engine (embedded) and raise QueryTimeout.

    An answer that arrives after the deadline is a timeout too, so the outcome does not depend on
    whether the interrupt reached a running query; so is any failure after it, which the interrupt
    may have caused wherever it landed (a statement reading the mapping, not only the query).
    """
    interrupt = getattr(engine, "interrupt_all", None)
    timer = threading.Timer(seconds, interrupt) if interrupt else None
    started = time.monotonic()
    if timer:
        timer.start()
    late = f"the query took longer than {seconds:g} s and was stopped (BOSUN_QUERY_TIMEOUT_S)"
    try:
        result = call()
    except QueryTimeout:
        raise QueryTimeout(late) from None
    except Exception:
        if time.monotonic() - started > seconds:
            raise QueryTimeout(late) from None
        raise
    finally:
        if timer:
            timer.cancel()
    if time.monotonic() - started > seconds:
        raise QueryTimeout(late)
    return result
