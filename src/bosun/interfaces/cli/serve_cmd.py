"""`bosun serve`: the API, the web page and GraphQL in one ASGI app; `bosun serve graphql`: GraphQL alone.

FastAPI, Strawberry and uvicorn are imported inside the commands, so that other commands start without them.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bosun.interfaces.cli import mcp_cmd
from bosun.interfaces.cli.process import starting

if TYPE_CHECKING:
    from bosun.settings import Settings

app = typer.Typer()
app.command("mcp")(mcp_cmd.mcp)

Host = Annotated[str, typer.Option(help="interface to listen on; off loopback needs BOSUN_API_TOKEN")]
Port = Annotated[int, typer.Option(min=1, max=65535, help="TCP port")]


@app.callback(invoke_without_command=True)
def serve(ctx: typer.Context, host: Host = "127.0.0.1", port: Port = 8000,
          as_of: Annotated[str | None, typer.Option("--as-of", help="today's date, YYYY-MM-DD")] = None) -> None:
    """Serve the web page at http://HOST:PORT/, the API (docs at /docs), GraphQL at /graphql and MCP at /mcp."""
    if ctx.invoked_subcommand is not None:
        return
    with starting():
        from bosun.conversation.session import open_session
        from bosun.interfaces.api.app import PUBLIC_PATHS, create_app
        from bosun.settings import load_settings

        settings = load_settings()
        _token(settings, host)  # off loopback without a token: refused before the session opens
        session = open_session(settings, date.fromisoformat(as_of) if as_of else None)
        _as_callers(settings, session.context.engine)
    typer.echo(f"Bosun at http://{host}:{port}/ (API docs at /docs, MCP at /mcp; Ctrl-C to stop)")
    try:
        _run(create_app(session, host), settings, PUBLIC_PATHS, host, port)
    finally:
        session.close()


@app.command()
def graphql(host: Host = "127.0.0.1", port: Port = 8765) -> None:
    """Serve the catalog's business objects at http://HOST:PORT/graphql (read-only, within the guardrails)."""
    from bosun.catalog import load_catalog
    from bosun.conversation.session import open_guarded_engine
    from bosun.engines.graphql.schema import build_schema
    from bosun.engines.graphql.server import graphql_app
    from bosun.settings import load_settings

    settings = load_settings()
    _token(settings, host)
    catalog = load_catalog(settings.catalog)
    engine = open_guarded_engine(settings, catalog)
    _as_callers(settings, engine)
    typer.echo(f"GraphQL for {catalog.spec.domain} at http://{host}:{port}/graphql (Ctrl-C to stop)")
    try:
        _run(graphql_app(build_schema(catalog.graph_objects()), engine), settings, (), host, port)
    finally:
        engine.close()


def _token(settings: Settings, host: str) -> str | None:
    from bosun.interfaces.auth import required_token

    secret = settings.api_token.get_secret_value() if settings.api_token else None
    return required_token(host, secret)


def _as_callers(settings: Settings, engine: Any) -> None:
    """With BOSUN_ENGINE_AUTH=caller, the engine queries only with each request's caller's credentials."""
    if settings.engine_auth == "caller":
        from bosun.engines.remote import run_as_callers

        run_as_callers(engine)


def guarded(asgi: Any, token: str | None, public: tuple[str, ...], settings: Settings, host: str) -> Any:
    """The app as served: the body limit first, then the Host check, then the token (when one is required),
    then the caller's cluster credentials (BOSUN_ENGINE_AUTH=caller)."""
    from bosun.interfaces.auth import guard_hosts, protect, served_hosts
    from bosun.interfaces.bodylimit import BodyLimit
    from bosun.interfaces.callers import with_callers

    callers = with_callers(asgi, settings.engine_auth == "caller", public)
    checked = guard_hosts(protect(callers, token, public), served_hosts(host, settings.allowed_hosts))
    return BodyLimit(checked, settings.max_request_bytes)


def _run(asgi: Any, settings: Settings, public: tuple[str, ...], host: str, port: int) -> None:
    import uvicorn

    served = guarded(asgi, _token(settings, host), public, settings, host)
    uvicorn.run(served, host=host, port=port, log_level="warning")
