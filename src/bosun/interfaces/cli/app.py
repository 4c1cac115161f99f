"""The command tree: each group lives in its own module."""

from __future__ import annotations

from typing import Annotated

import typer

from bosun.interfaces.cli import (
    ask_cmd,
    catalog_cmd,
    chat_cmd,
    data_cmd,
    demo_cmd,
    eval_cmd,
    serve_cmd,
    teach_cmd,
)
from bosun.interfaces.cli.helptext import plain_help

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="markdown",  # a docstring's lines join into paragraphs, as people read them
    help="Bosun: ask your operational data.",
)


def _version(asked: bool) -> None:
    if asked:
        from importlib.metadata import version

        typer.echo(f"bosun {version('bosun-bi')}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", is_eager=True, callback=_version, help="print Bosun's version and exit"
        ),
    ] = False,
) -> None:
    """Bosun: ask your operational data."""


app.add_typer(
    data_cmd.app, name="data", help="Load your data files, or build and export the sample domain."
)
app.add_typer(catalog_cmd.app, name="catalog", help="Show, draft or check the semantic catalog.")
app.add_typer(serve_cmd.app, name="serve", help="Serve Bosun over HTTP.")
app.command("demo")(demo_cmd.demo)
app.command("ask")(ask_cmd.ask)
app.command("chat")(chat_cmd.chat)
app.add_typer(
    eval_cmd.app,
    name="eval",
    help="Score the agent on an evaluation file, or export confirmed answers as one.",
)
app.command("teach")(teach_cmd.teach)
catalog_cmd.app.add_typer(
    teach_cmd.app, name="vocabulary", help="List, export or remove taught words."
)
plain_help(app)
