"""Fetch one business object through GraphQL: the in-process schema by default, a remote API by
URL."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

from bosun.engines.base import Engine
from bosun.engines.graphql.objects import GraphObject
from bosun.errors import BosunError, CatalogError, EngineUnavailable, UnsupportedQuery
from bosun.settings import redacted

if TYPE_CHECKING:
    import strawberry


def lookup_query(obj: str, fields: list[str]) -> str:
    """The query text; a field `a.b` selects `b` of the nested object `a`."""
    return f"query Lookup($id: String!) {{ {obj}(id: $id) {{ {_selection(fields)} }} }}"


def _selection(fields: list[str]) -> str:
    plain = [f for f in fields if "." not in f]
    nested: dict[str, list[str]] = {}
    for f in fields:
        if "." in f:
            head, rest = f.split(".", 1)
            nested.setdefault(head, []).append(rest)
    return " ".join(
        [
            *dict.fromkeys(plain),
            *(f"{head} {{ {_selection(rest)} }}" for head, rest in nested.items()),
        ]
    )


class LocalGraph:
    """The schema over `objects` executed in-process against the engine."""

    def __init__(self, objects: list[GraphObject], engine: Engine) -> None:
        self.objects, self.engine = objects, engine

    @cached_property
    def schema(self) -> strawberry.Schema:
        """Built on the first lookup: Strawberry loads only for a question about a single object."""
        from bosun.engines.graphql.schema import build_schema

        try:
            return build_schema(self.objects)
        # Strawberry's own errors; `bosun catalog check` names the object at fault
        except Exception as exc:
            raise CatalogError(
                f"the GraphQL schema does not build: {str(exc).splitlines()[0]}; "
                "`bosun catalog check` names the object"
            ) from None

    def fetch(self, obj: str, key: str, fields: list[str]) -> dict[str, Any] | None:
        result = self.schema.execute_sync(
            lookup_query(obj, fields),
            variable_values={"id": key},
            context_value={"engine": self.engine},
        )
        if result.errors:
            error = result.errors[0]
            if isinstance(error.original_error, BosunError):
                raise error.original_error
            raise UnsupportedQuery(f"{obj} {{ {' '.join(fields)} }}", error.message)
        data: dict[str, Any] | None = (result.data or {}).get(obj)
        return data


class RemoteGraph:
    """A GraphQL API over HTTP, introspected with gql before the first query."""

    def __init__(self, url: str, timeout_s: float = 10.0) -> None:
        from gql import Client
        from gql.transport.requests import RequestsHTTPTransport

        self.url = redacted(url)  # for messages: a password in the URL is never shown
        transport = RequestsHTTPTransport(url=url, timeout=max(1, round(timeout_s)), retries=0)
        self.client = Client(
            transport=transport, fetch_schema_from_transport=True, execute_timeout=timeout_s
        )

    def fetch(self, obj: str, key: str, fields: list[str]) -> dict[str, Any] | None:
        from gql import gql
        from gql.transport.exceptions import TransportQueryError
        from graphql import GraphQLError

        request = gql(lookup_query(obj, fields))
        request.variable_values = {"id": key}
        try:
            data = self.client.execute(request)
        except GraphQLError as exc:  # the query does not fit the introspected schema
            raise UnsupportedQuery(
                f"{obj} {{ {' '.join(fields)} }}", f"the GraphQL API at {self.url}: {exc.message}"
            ) from None
        except TransportQueryError as exc:
            raise EngineUnavailable(
                f"the GraphQL API at {self.url} answered with an error: {redacted(str(exc))}"
            ) from None
        # connection refused, HTTP 5xx, not JSON, not GraphQL: all mean "unusable"
        except Exception as exc:
            raise EngineUnavailable(
                f"the GraphQL API at {self.url} failed: {type(exc).__name__}: "
                f"{redacted(str(exc))[:200]}"
            ) from None
        found: dict[str, Any] | None = data.get(obj)
        return found
