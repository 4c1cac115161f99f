"""The schema served over HTTP at /graphql (Strawberry's ASGI app under uvicorn)."""

from __future__ import annotations

from typing import Any

import strawberry
from starlette.applications import Starlette
from starlette.routing import Route
from strawberry.asgi import GraphQL

from bosun.engines.base import Engine


class _EngineGraphQL(GraphQL[dict[str, Any], None]):
    """Strawberry's ASGI app with the engine in every request's context."""

    def __init__(self, schema: strawberry.Schema, engine: Engine) -> None:
        super().__init__(schema, graphql_ide=None)
        self.engine = engine

    async def get_context(self, request: Any, response: Any) -> dict[str, Any]:
        return {"request": request, "response": response, "engine": self.engine}


def graphql_app(schema: strawberry.Schema, engine: Engine) -> Starlette:
    """An ASGI app answering GraphQL over HTTP at `/graphql`."""
    endpoint = _EngineGraphQL(schema, engine)
    return Starlette(routes=[Route("/graphql", endpoint, methods=["GET", "POST"])])


def serve(schema: strawberry.Schema, engine: Engine, host: str, port: int) -> None:
    """Serve until interrupted."""
    import uvicorn

    uvicorn.run(graphql_app(schema, engine), host=host, port=port, log_level="warning")
