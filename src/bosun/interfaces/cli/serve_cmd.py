"""`bosun serve`: the API, the web page and GraphQL in one ASGI app; `bosun serve graphql`: GraphQL
alone.

FastAPI, Strawberry and uvicorn are imported inside the commands, so that other commands start
without them. With `--workers N` above 1, N processes serve the port (`interfaces.cli.workers`), and
each builds its own session (`worker_app`); everything they share lives in the data directory's
stores or the engine.
"""

from __future__ import annotations

import os
from datetime import date
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bosun.interfaces.cli import mcp_cmd, ready
from bosun.interfaces.cli.process import Process, starting

if TYPE_CHECKING:
    from bosun.conversation.session import Session
    from bosun.settings import Settings

app = typer.Typer()
app.command("mcp")(mcp_cmd.mcp)

Host = Annotated[
    str, typer.Option(help="interface to listen on; off loopback needs BOSUN_API_TOKEN")
]
Port = Annotated[int, typer.Option(min=1, max=65535, help="TCP port")]
Workers = Annotated[
    int | None,
    typer.Option(min=1, help="processes answering on the one port; default: the usable cores"),
]
# The command line's choices, handed to each worker process (uvicorn builds a worker's app without
# arguments).
HOST_VARIABLE, AS_OF_VARIABLE = "BOSUN_SERVE_HOST", "BOSUN_SERVE_AS_OF"


@app.callback(invoke_without_command=True)
def serve(
    ctx: typer.Context,
    host: Host = "127.0.0.1",
    port: Port = 8000,
    as_of: Annotated[str | None, typer.Option("--as-of", help="today's date, YYYY-MM-DD")] = None,
    workers: Workers = None,
) -> None:
    """Serve the web page at http://HOST:PORT/, the API (docs at /docs), GraphQL at /graphql and MCP
    at /mcp."""
    if ctx.invoked_subcommand is not None:
        return
    ready.say_starting()
    count = workers or usable_cores()
    with starting():
        from bosun.interfaces.api.app import PUBLIC_PATHS
        from bosun.settings import load_settings

        settings = load_settings()
        _token(settings, host)  # off loopback without a token: refused before the session opens
        # opened here even for workers: a deployment that cannot answer is refused in one line,
        # before any starts
        session = _session(settings, as_of)
    processes = f", {count} worker processes" if count > 1 else ""
    ready.say_when_ready(host, port, processes)
    if count > 1:
        session.close()
        _run_workers(host, port, as_of, count)
        return
    try:
        _run(_app(session, host), settings, PUBLIC_PATHS, host, port)
    finally:
        session.close()


def usable_cores() -> int:
    """The cores this process may run on (its affinity, where the system says), else all of them."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def worker_app() -> Any:
    """One worker's app, as `bosun serve` serves it: uvicorn's factory, called in each worker
    process.

    The session is the worker's own, from the settings (the environment and `.env`, as the parent
    read them) and the command line's host and as-of date (`HOST_VARIABLE`, `AS_OF_VARIABLE`). It is
    closed, its SQLite logs merged back, when the worker stops.
    """
    from bosun.interfaces.api.app import PUBLIC_PATHS
    from bosun.settings import load_settings

    host = os.environ[HOST_VARIABLE]
    # a worker is a process of its own: its start-up is frozen out of the collector's way
    Process.whole = True
    with starting():
        settings = load_settings()
        session = _session(settings, os.environ.get(AS_OF_VARIABLE))
        app = _app(session, host, closing=True)
    return guarded(app, _token(settings, host), PUBLIC_PATHS, settings, host)


def _session(settings: Settings, as_of: str | None) -> Session:
    from bosun.conversation.session import open_session

    session = open_session(settings, date.fromisoformat(as_of) if as_of else None)
    _as_callers(settings, session.context.engine)
    return session


def _app(session: Session, host: str, closing: bool = False) -> Any:
    from bosun.interfaces.api.app import create_app

    return create_app(session, host, closing=closing)


def _run_workers(host: str, port: int, as_of: str | None, count: int) -> None:
    """N processes on the port, each with the app of `worker_app`; Ctrl-C (or SIGTERM) stops them
    all."""
    from bosun.interfaces.cli import workers

    os.environ[HOST_VARIABLE] = host
    os.environ.pop(AS_OF_VARIABLE, None)
    if as_of:
        os.environ[AS_OF_VARIABLE] = as_of
    code = workers.serve(f"{__name__}:worker_app", host, port, count)
    if code:
        raise typer.Exit(code)


@app.command()
def graphql(host: Host = "127.0.0.1", port: Port = 8765) -> None:
    """Serve the catalog's business objects at http://HOST:PORT/graphql (read-only, within the
    guardrails)."""
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
    typer.echo(
        f"GraphQL for {catalog.spec.domain} at http://{host}:{port}/graphql (Ctrl-C to stop)"
    )
    try:
        _run(graphql_app(build_schema(catalog.graph_objects()), engine), settings, (), host, port)
    finally:
        engine.close()


def _token(settings: Settings, host: str) -> str | None:
    from bosun.interfaces.auth import required_token

    secret = settings.api_token.get_secret_value() if settings.api_token else None
    return required_token(host, secret)


def _as_callers(settings: Settings, engine: Any) -> None:
    """With BOSUN_ENGINE_AUTH=caller, the engine queries only with each request's caller's
    credentials."""
    if settings.engine_auth == "caller":
        from bosun.engines.remote import run_as_callers

        run_as_callers(engine)


def guarded(
    asgi: Any, token: str | None, public: tuple[str, ...], settings: Settings, host: str
) -> Any:
    """The app as served: the body limit first, then the Host check, then the token (when one is
    required), then the caller's cluster credentials (BOSUN_ENGINE_AUTH=caller)."""
    from bosun.interfaces.auth import guard_hosts, protect, served_hosts
    from bosun.interfaces.bodylimit import BodyLimit
    from bosun.interfaces.callers import with_callers

    callers = with_callers(asgi, settings.engine_auth == "caller", public)
    admin = settings.admin_token.get_secret_value() if settings.admin_token else None
    checked = guard_hosts(
        protect(callers, token, public, admin), served_hosts(host, settings.allowed_hosts)
    )
    return BodyLimit(checked, settings.max_request_bytes)


def _run(asgi: Any, settings: Settings, public: tuple[str, ...], host: str, port: int) -> None:
    import uvicorn

    served = guarded(asgi, _token(settings, host), public, settings, host)
    uvicorn.run(served, host=host, port=port, log_level="warning")
