"""A Strawberry schema over business objects, built from their description rather than written per
type.

Each object becomes a type whose fields are the object's fields, plus a nested object for every
field that holds another object's id (a vessel's `carrier_name` gives `carriers { … }`). The root
query has one field per object, `<object>(id: String!)`, resolved by a term query on the engine
handed in as the execution context: the engine's indices are the only source of truth.

Served over HTTP, a whole execution (parsing, validation and the resolvers' blocking searches) runs
in a worker thread: on the event loop, 100 small queries at once held every other request
(`/health`) for seconds.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import os
import re
from concurrent.futures import ThreadPoolExecutor
from datetime import date, datetime
from typing import Any, Optional

import strawberry
from strawberry.extensions import MaxAliasesLimiter, MaxTokensLimiter, QueryDepthLimiter
from strawberry.schema.config import StrawberryConfig
from strawberry.types import ExecutionResult

from bosun.engines.base import Engine
from bosun.engines.graphql.objects import GraphObject

_SCALARS: dict[str, type] = {
    "keyword": str,
    "text": str,
    "date": str,
    "integer": int,
    "long": int,
    "float": float,
    "double": float,
    "boolean": bool,
}


def fetch_one(engine: Engine, obj: GraphObject, key: str) -> dict[str, Any] | None:
    """The object whose id field equals `key`, or None."""
    body = {"query": {"bool": {"filter": [{"term": {obj.id_field: key}}]}}, "size": 1}
    hits = engine.search(obj.index, body)["hits"]["hits"]
    return hits[0]["_source"] if hits else None


# Few threads: more only contend for the interpreter with the server's other requests, not answer
# sooner.
_WORKERS = ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1), thread_name_prefix="graphql")


class OffLoopSchema(strawberry.Schema):
    """A schema whose `execute` (what an ASGI server awaits) runs `execute_sync` in a worker
    thread."""

    async def execute(self, query: str | None, *args: Any, **kwargs: Any) -> ExecutionResult:
        call = functools.partial(self.execute_sync, query, *args, **kwargs)
        # in the request's context: it holds the caller's credentials when the server runs as its
        # callers
        return await asyncio.get_running_loop().run_in_executor(
            _WORKERS, contextvars.copy_context().run, call
        )


def build_schema(objects: list[GraphObject]) -> strawberry.Schema:
    """The schema over `objects`; execute it with `context_value={"engine": engine}`."""
    by_name = {o.name: o for o in objects}
    types: dict[str, type] = {}
    for obj in objects:
        _make_type(obj, by_name, types, ())
    query = _root(objects, types)
    return OffLoopSchema(
        query=query, config=StrawberryConfig(auto_camel_case=False), extensions=_limits()
    )


# the deepest link chain in a catalog is a few objects; a cycle cannot recurse for ever
MAX_DEPTH = 8
MAX_ALIASES = 30  # 5,000 aliases once took 34 s and stalled every other request
# the cost of a document: its size, which bounds fields, fragments and arguments alike
MAX_TOKENS = 2_000


def _limits() -> list[Any]:
    """Strawberry's validation extensions: refuse a query past these limits before any field
    resolves."""
    return [
        lambda: QueryDepthLimiter(max_depth=MAX_DEPTH),
        lambda: MaxAliasesLimiter(max_alias_count=MAX_ALIASES),
        lambda: MaxTokensLimiter(max_token_count=MAX_TOKENS),
    ]


_GRAPHQL_NAME = re.compile(r"[_A-Za-z][_0-9A-Za-z]*")


def links(obj: GraphObject, objects: dict[str, GraphObject]) -> dict[str, GraphObject]:
    """Nested objects of `obj`: field holding another object's id → that object."""
    return {
        f: other
        for f in obj.fields
        for other in objects.values()
        if other.name != obj.name and other.id_field == f
    }


def _make_type(
    obj: GraphObject,
    objects: dict[str, GraphObject],
    types: dict[str, type],
    visiting: tuple[str, ...],
) -> type:
    if obj.name in types:
        return types[obj.name]
    fields = _named(obj)
    annotations: dict[str, Any] = {
        f: Optional[_SCALARS.get(kind, str)]  # noqa: UP045
        for f, kind in fields.items()
    }
    namespace: dict[str, Any] = {"__annotations__": annotations, **dict.fromkeys(fields)}
    for field, other in links(obj, objects).items():
        if other.name in visiting or other.name in obj.fields:
            continue  # a cycle, or a name taken by a plain field: the id stays a plain value
        target = _make_type(other, objects, types, (*visiting, obj.name))
        namespace[other.name] = strawberry.field(
            resolver=_nested(other, field, target), description=other.description or None
        )
    cls = type(_type_name(obj.name), (), namespace)
    types[obj.name] = strawberry.type(cls, description=obj.description or None)
    return types[obj.name]


def _nested(other: GraphObject, field: str, target: type) -> Any:
    def resolve(root: Any, info: strawberry.Info) -> Any:
        key = getattr(root, field, None)
        return (
            _instance(target, other, fetch_one(info.context["engine"], other, key))
            if key is not None
            else None
        )

    resolve.__annotations__ = {
        "root": Any,
        "info": strawberry.Info,
        "return": Optional[target],  # noqa: UP045 - a runtime type, not an annotation
    }
    return resolve


def _root(objects: list[GraphObject], types: dict[str, type]) -> type:
    namespace: dict[str, Any] = {"__annotations__": {}}
    for obj in objects:
        namespace[obj.name] = strawberry.field(
            resolver=_lookup(obj, types[obj.name]),
            description=f"One {obj.name} record by its {obj.id_field}.",
        )
    return strawberry.type(type("Query", (), namespace))


def _lookup(obj: GraphObject, target: type) -> Any:
    def resolve(info: strawberry.Info, id: str) -> Any:
        return _instance(target, obj, fetch_one(info.context["engine"], obj, id))

    resolve.__annotations__ = {
        "info": strawberry.Info,
        "id": str,
        "return": Optional[target],  # noqa: UP045 - a runtime type, not an annotation
    }
    return resolve


def _instance(target: type, obj: GraphObject, row: dict[str, Any] | None) -> Any:
    if row is None:
        return None
    return target(**{f: _scalar(row.get(f), kind) for f, kind in _named(obj).items()})


def _named(obj: GraphObject) -> dict[str, str]:
    """The fields GraphQL can name: a column named "2B" (a count of doubles) is `2_b`, no GraphQL
    name; it stays out of the type, and searches still read it."""
    return {f: kind for f, kind in obj.fields.items() if _GRAPHQL_NAME.fullmatch(f)}


def _scalar(value: Any, kind: str) -> Any:
    if value is None:
        return None
    if isinstance(value, datetime | date):
        return value.isoformat()[:10] if kind == "date" else value.isoformat()
    return _SCALARS.get(kind, str)(value)


def _type_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.replace("-", "_").split("_"))
