"""`bosun serve mcp`: Bosun's tools for MCP clients, over stdio (default) or streamable HTTP."""

from __future__ import annotations

from datetime import date
from typing import Annotated

import typer

from bosun.interfaces.cli.process import starting


def mcp(
    http: Annotated[
        bool, typer.Option("--http", help="streamable HTTP at HOST:PORT/mcp, not stdio")
    ] = False,
    host: Annotated[
        str,
        typer.Option(help="interface to listen on with --http; off loopback needs BOSUN_API_TOKEN"),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="TCP port with --http")] = 8766,
    as_of: Annotated[
        str | None, typer.Option("--as-of", help="today's date for ask, YYYY-MM-DD")
    ] = None,
) -> None:
    """Serve Bosun's tools (ask, catalog, names, search, aggregate, lookup, fields) over MCP."""
    with starting():
        from bosun.conversation.session import open_session
        from bosun.interfaces.auth import required_token
        from bosun.interfaces.mcp.server import serve  # the SDK loads only when serving
        from bosun.settings import load_settings

        settings = load_settings()
        token = settings.api_token.get_secret_value() if settings.api_token else None
        if http:
            required_token(host, token)
            typer.echo(f"MCP at http://{host}:{port}/mcp (Ctrl-C to stop)", err=True)
        session = open_session(settings, date.fromisoformat(as_of) if as_of else None)
    try:
        serve(session, http, host, port, token)
    finally:
        session.close()
