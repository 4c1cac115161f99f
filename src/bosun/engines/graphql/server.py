"""The schema served over HTTP at /graphql (Strawberry's ASGI app under uvicorn)."""

from __future__ import annotations

from typing import Any

import strawberry
from cross_web import HTTPException
from starlette.applications import Starlette
from starlette.routing import Route
from strawberry.asgi import GraphQL

from bosun.engines.base import Engine


class _EngineGraphQL(GraphQL[dict[str, Any], None]):
    """Strawberry's ASGI app with the engine in every request's context."""

    def __init__(self, schema: strawberry.Schema, engine: Engine) -> None:
        super().__init__(schema, graphql_ide=None)
        self.engine = engine

    def decode_json(self, data: str | bytes) -> object:
        try:
            return super().decode_json(data)
        except RecursionError:
            raise HTTPException(
                400, "Unable to parse request body as JSON: nested too deep"
            ) from None

    async def get_context(self, request: Any, response: Any) -> dict[str, Any]:
        return {"request": request, "response": response, "engine": self.engine}


def graphql_endpoint(schema: strawberry.Schema, engine: Engine) -> Any:
    """The ASGI endpoint answering GraphQL requests, to route at a path of one's choosing."""
    return _EngineGraphQL(schema, engine)


def graphql_app(schema: strawberry.Schema, engine: Engine) -> Starlette:
    """An ASGI app answering GraphQL over HTTP at `/graphql`."""
    return Starlette(
        routes=[Route("/graphql", graphql_endpoint(schema, engine), methods=["GET", "POST"])]
    )
