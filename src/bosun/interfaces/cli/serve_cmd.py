"""`bosun serve graphql`: the business objects' GraphQL schema over HTTP."""

from __future__ import annotations

from typing import Annotated

import typer

from bosun.catalog import load_catalog
from bosun.conversation.session import open_guarded_engine
from bosun.engines.graphql.schema import build_schema
from bosun.engines.graphql.server import serve
from bosun.interfaces.cli import mcp_cmd
from bosun.settings import load_settings

app = typer.Typer(no_args_is_help=True)
app.command("mcp")(mcp_cmd.mcp)


@app.command()
def graphql(host: Annotated[str, typer.Option(help="interface to listen on")] = "127.0.0.1",
            port: Annotated[int, typer.Option(help="TCP port")] = 8765) -> None:
    """Serve the catalog's business objects at http://HOST:PORT/graphql (read-only, within the guardrails)."""
    settings = load_settings()
    catalog = load_catalog(settings.catalog)
    engine = open_guarded_engine(settings, catalog)
    typer.echo(f"GraphQL for {catalog.spec.domain} at http://{host}:{port}/graphql (Ctrl-C to stop)")
    try:
        serve(build_schema(catalog.graph_objects()), engine, host, port)
    finally:
        engine.close()
